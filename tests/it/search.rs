//! End-to-end tests of the search through its public interface: draws in the tree (repetitions
//! against the game history and inside the tree, counter rules, dead-drawn material), mate
//! distances, reproducibility, multi-PV, threads, and limits kept.

use crate::slack::SLACK;
use crownhead::{
    EvalChoice, Game, Limits, Score, SearchControl, SearchInfo, SearchOptions, SearchOutcome,
    Searcher, Variant,
};
use std::time::{Duration, Instant};

fn search(game: &Game, limits: Limits, options: SearchOptions) -> (SearchOutcome, Vec<SearchInfo>) {
    let mut searcher = Searcher::new(options);
    let mut infos = Vec::new();
    let out = searcher.search(game, &limits, &SearchControl::new(false), &mut |i| {
        infos.push(i.clone())
    });
    (out, infos)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn small() -> SearchOptions {
    SearchOptions {
        hash_mb: 16,
        ..SearchOptions::default()
    }
}

/// Every PV in the reports is legal from the root.
fn assert_legal_pvs(game: &Game, infos: &[SearchInfo]) {
    for info in infos {
        let mut g = game.clone();
        for mv in &info.pv {
            g.play(*mv).expect("legal PV move");
        }
        assert!(!info.pv.is_empty());
    }
}

#[test]
fn repetition_against_the_game_history_is_a_draw() {
    // A lone english king against two is lost; after the kings went there and back, stepping
    // out again repeats a position of the game: the search takes that draw.
    let fresh = Game::from_fen(Variant::English, "W:WK1:BK27,K32").unwrap();
    let (lost, _) = search(&fresh, depth(8), small());
    assert!(lost.score.0 < -50, "{:?}", lost.score);
    let mut game = fresh.clone();
    for mv in ["1-6", "27-24", "6-1", "24-27"] {
        game.play_text(mv).unwrap();
    }
    let (out, infos) = search(&game, depth(8), small());
    assert_eq!(out.score, Score::ZERO);
    assert_eq!(out.best.map(|m| m.to().number()), Some(6));
    assert_legal_pvs(&game, &infos);
}

#[test]
fn a_repetition_forced_inside_the_tree_is_a_draw() {
    // English, a closed position built by hand. Every man is locked: its forward squares are
    // taken and every jump would land on a taken square (black men 10, 12-18, 20 against white
    // men 19, 21-27). Black's king is walled into the double corner 28/32 (its jumps over 24 and
    // 27 would land on 19 and 23), so Black's only moves are 32-28 and back; White's king can
    // only wander over 1-9 and 11. No capture or man move can ever happen, so the material
    // never changes and nobody can lose: a draw by repetition (the 40-move rule is 80 plies
    // away), although Black is a man up. `python3 -m scripts.oracles.reachable_moves english FEN`
    // (pydraughts) confirms it: 20 reachable positions, no capture, Black's moves only 28-32 and
    // 32-28. With White to move (a man down), White repeats; with Black to move, Black cannot avoid
    // it. The search must see the repetition in its tree and score exactly 0; its first
    // iteration is too shallow for that and gives the material.
    let fen = "WK7,19,21,22,23,24,25,26,27:BK32,10,12,13,14,15,16,17,18,20";
    for (side, behind) in [("W", true), ("B", false)] {
        let game = Game::from_fen(Variant::English, &format!("{side}:{fen}")).unwrap();
        let sign = if behind { -1 } else { 1 };
        let stat = crownhead::evaluate(Variant::English, game.position(), EvalChoice::HandWritten);
        assert!(sign * stat >= 100, "{side} to move: static {stat}");
        let (out, infos) = search(&game, depth(12), small());
        let first = infos
            .iter()
            .find(|i| i.depth == 1)
            .expect("depth 1 reported");
        assert!(
            sign * first.score.0 >= 50,
            "{side}: depth 1 {:?}",
            first.score
        );
        assert_eq!((out.depth, out.score), (12, Score::ZERO), "{side} to move");
        assert_legal_pvs(&game, &infos);
    }
}

#[test]
fn dead_drawn_material_scores_zero() {
    // Two kings cannot catch a russian king that holds the main road (d4 here), and one
    // english king cannot catch another sitting in the double corner.
    for (variant, fen) in [
        (Variant::Russian, "W:WK1,K2:BK18"),
        (Variant::English, "W:WK14:BK1"),
    ] {
        let game = Game::from_fen(variant, fen).unwrap();
        let (out, _) = search(&game, depth(10), small());
        assert_eq!(out.score, Score::ZERO, "{fen}");
    }
}

#[test]
fn thin_material_is_searched_not_assumed_drawn() {
    // Two kings against one are usually a draw, but with the lone king in the h8 corner and
    // a1 holding the main road, any move of the c1 king leaves black in zugzwang: its only
    // moves are onto the main road, where the a1 king takes it. Material alone is no draw.
    let game = Game::from_fen(Variant::Russian, "W:WK29,K30:BK4").unwrap();
    let (out, _) = search(&game, depth(6), small());
    assert!(out.score.0 > Score::WIN_THRESHOLD, "{:?}", out.score);
    assert_eq!(out.best.map(|m| m.from().number()), Some(30));
    // One english king can catch another that stands next to the single corner, by driving it
    // into the corner and taking the opposition (14-10 3-8 10-7 8-3 7-11 3-8 11x4).
    // `python3 -m scripts.oracles.forced_win english W:WK14:BK3 9` (pydraughts): 14-10 and 14-18
    // win in 7 plies, 14-9 and 14-17 do not win within 9.
    let game = Game::from_fen(Variant::English, "W:WK14:BK3").unwrap();
    let (out, _) = search(&game, depth(10), small());
    assert!(out.score.0 > Score::WIN_THRESHOLD, "{:?}", out.score);
    assert_eq!(out.score.mate_moves(), Some(4));
    assert!(matches!(
        out.best.map(|m| m.to().number()),
        Some(10) | Some(18)
    ));
}

#[test]
fn russian_main_road_rule_draws_in_the_tree() {
    // Three kings against a lone king holding the main road: the 7.2.7 rule draws after five
    // moves, well inside the horizon, unless the king can be caught at once.
    let game = Game::from_fen(Variant::Russian, "W:WK6,K7,K3:BK29").unwrap();
    let (out, _) = search(&game, depth(14), small());
    assert!(!out.score.is_decisive(), "{:?}", out.score);
    assert!(out.score.0.abs() < 50, "{:?}", out.score);
}

#[test]
fn wins_are_scored_by_distance() {
    // English: the black man on 5 is blocked (9 and 14 taken): no legal move, lost now.
    let game = Game::from_fen(Variant::English, "B:W9,K14:B5").unwrap();
    let (out, _) = search(&game, depth(6), small());
    assert_eq!((out.best, out.score), (None, Score::loss_in(0)));
    let game = Game::from_fen(Variant::Russian, "W:W22:B18").unwrap();
    let (out, _) = search(&game, depth(4), small());
    assert_eq!(out.score, Score::win_in(1));
}

#[test]
fn an_english_leaf_under_threat_is_searched_on() {
    // White to move. 22-18 attacks the black man on 14, which can neither step away (17 and 18
    // are White's) nor be covered (no black man can reach 9: Black's moves are 4-8 and 10-15),
    // so 18x9 wins it; 23-18 makes the same attack but lets 14x23. At depth 1 the leaf after
    // 22-18 has Black to move and no capture, which quiescence would evaluate as it stands;
    // the threat extension searches it on, so even a depth-1 search sees the man won.
    let game = Game::from_fen(Variant::English, "W:W17,21,22,23:B4,10,14").unwrap();
    let stat = crownhead::evaluate(Variant::English, game.position(), EvalChoice::HandWritten);
    let (out, infos) = search(&game, depth(1), small());
    let best = out.best.map(|m| (m.from().number(), m.to().number()));
    assert_eq!(best, Some((22, 18)), "{out:?}");
    assert!(
        out.score.0 >= stat + 60,
        "static {stat}, depth 1 {:?}",
        out.score
    );
    assert_legal_pvs(&game, &infos);
}

#[test]
fn fixed_node_search_repeats_exactly() {
    let game = Game::from_fen(
        Variant::Russian,
        "B:W17,19,21,25,26,27,29,30,31,32:B1,2,3,4,5,6,7,10,12,14",
    )
    .unwrap();
    let limits = Limits {
        nodes: Some(300_000),
        ..Limits::default()
    };
    let strip = |v: Vec<SearchInfo>| {
        v.into_iter()
            .map(|i| {
                (
                    i.depth, i.seldepth, i.score, i.nodes, i.hashfull, i.multipv, i.pv,
                )
            })
            .collect::<Vec<_>>()
    };
    let (a, ia) = search(&game, limits.clone(), small());
    let (b, ib) = search(&game, limits, small());
    assert_eq!(a, b);
    assert_eq!(a.nodes, 300_000);
    assert_eq!(strip(ia), strip(ib));
}

#[test]
fn multipv_reports_distinct_lines() {
    let game = Game::start(Variant::English);
    let options = SearchOptions {
        multipv: 3,
        ..small()
    };
    let (_, infos) = search(&game, depth(6), options);
    let last: Vec<&SearchInfo> = infos.iter().filter(|i| i.depth == 6).collect();
    assert_eq!(
        last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    assert!(last[0].score >= last[1].score && last[1].score >= last[2].score);
    assert_ne!(last[0].pv[0], last[1].pv[0]);
    assert_legal_pvs(&game, &infos);
}

#[test]
fn threads_find_a_legal_move() {
    let game = Game::start(Variant::Russian);
    let options = SearchOptions {
        threads: 2,
        ..small()
    };
    let (out, infos) = search(&game, depth(9), options);
    assert!(out.best.is_some() && out.depth == 9);
    assert_legal_pvs(&game, &infos);
}

#[test]
fn movetime_is_kept() {
    let game = Game::start(Variant::Russian);
    let start = Instant::now();
    let limits = Limits {
        movetime: Some(Duration::from_millis(100)),
        ..Limits::default()
    };
    let (out, _) = search(
        &game,
        limits,
        SearchOptions {
            threads: 2,
            ..small()
        },
    );
    assert!(
        start.elapsed() < Duration::from_millis(100) + SLACK,
        "{:?}",
        start.elapsed()
    );
    assert!(out.best.is_some());
}

#[test]
fn stop_and_ponderhit_end_the_search() {
    let game = Game::start(Variant::English);
    let mut searcher = Searcher::new(small());
    let control = SearchControl::new(false);
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let start = Instant::now();
    let out = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            control.stop();
        });
        searcher.search(&game, &limits, &control, &mut |_| {})
    });
    assert!(out.best.is_some());
    assert!(
        start.elapsed() < Duration::from_millis(100) + SLACK,
        "{:?}",
        start.elapsed()
    );

    // Pondering ignores the move time until the ponderhit; then the clock starts.
    let control = SearchControl::new(true);
    let limits = Limits {
        movetime: Some(Duration::from_millis(50)),
        ..Limits::default()
    };
    let start = Instant::now();
    let out = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(200));
            control.ponderhit();
        });
        searcher.search(&game, &limits, &control, &mut |_| {})
    });
    assert!(out.best.is_some());
    assert!(start.elapsed() >= Duration::from_millis(200));
    assert!(
        start.elapsed() < Duration::from_millis(250) + SLACK,
        "{:?}",
        start.elapsed()
    );
}
