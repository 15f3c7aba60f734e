//! The search with endgame databases: the databases are built by the binary
//! (`crownhead egtb build --material`, only the slices each test needs), the protocol takes them
//! through `EGTBPath`, and the engine converts won endings against the databases' best defence
//! within the draw rules of docs/RULES.md, which `Game` applies.
//!
//! The 5-piece build and the bench positions are `#[ignore]`d (seconds in release, minutes in
//! debug) and run from `.ci/run`.

use crownhead::bitboard::MAIN_ROAD;
use crownhead::egtb::{Tablebase, Value};
use crownhead::{
    parse_fen, EndReason, Game, GameResult, Limits, Position, SearchControl, SearchOptions,
    Searcher, Variant,
};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Builds `material` (wm,wk,bm,bk) of `variant` and what it needs, in a directory of its own.
/// Builds are one at a time: tests that need the same slices share the directory, and two
/// builds writing the same slice at once would trip over each other's files; the second finds
/// the slices built and skips them.
fn built(variant: Variant, material: &str) -> PathBuf {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("egtb-search-{}", std::process::id()))
        .join(format!("{}-{}", variant.name(), material.replace(',', "")));
    let pieces: u32 = material.split(',').map(|n| n.parse::<u32>().unwrap()).sum();
    let status = Command::new(env!("CARGO_BIN_EXE_crownhead"))
        .args(["egtb", "build", "--variant", variant.name()])
        .args(["--pieces", &pieces.to_string(), "--material", material])
        .arg("--dir")
        .arg(&dir)
        .stderr(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "build {variant} {material}");
    dir
}

/// A searcher at a fixed depth on one thread with the databases under `dir`, all read first so
/// that the search does not depend on when a slice arrives.
fn searcher_with(dir: &std::path::Path, variant: Variant) -> Searcher {
    let mut s = Searcher::new(SearchOptions {
        hash_mb: 16,
        ..SearchOptions::default()
    });
    s.set_databases(Some(dir)).unwrap();
    s.databases(variant).unwrap().load_all();
    s
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// `count` positions of White kings `wk` against Black kings `bk`, White to move, with no
/// capture pending, that the databases call won, from a fixed pseudo-random sequence;
/// `keep` filters further.
fn won_positions(
    base: &Tablebase,
    wk: usize,
    bk: usize,
    count: usize,
    keep: impl Fn(&Position) -> bool,
) -> Vec<Position> {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut out = Vec::new();
    for _ in 0..200_000 {
        let mut squares = Vec::new();
        while squares.len() < wk + bk {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let sq = (seed % 32) as u32 + 1;
            if !squares.contains(&sq) {
                squares.push(sq);
            }
        }
        let list = |s: &[u32]| {
            s.iter()
                .map(|n| format!("K{n}"))
                .collect::<Vec<_>>()
                .join(",")
        };
        let fen = format!("W:W{}:B{}", list(&squares[..wk]), list(&squares[wk..]));
        let pos = parse_fen(&fen).unwrap();
        let variant = base.variant();
        let quiet = variant.legal_moves(&pos).iter().all(|m| !m.is_capture());
        if quiet && keep(&pos) && base.probe(&pos).unwrap().value == Value::Win {
            out.push(pos);
            if out.len() == count {
                break;
            }
        }
    }
    assert_eq!(out.len(), count, "too few won positions found");
    out
}

/// Plays each position out: the engine (White) against the databases' longest defence, and
/// returns those White did not win before a draw rule, with how they ended.
fn not_converted(dir: &std::path::Path, variant: Variant, positions: &[Position]) -> Vec<String> {
    let base = Tablebase::new(dir, variant);
    let mut searcher = searcher_with(dir, variant);
    let mut failures = Vec::new();
    for pos in positions {
        let fen = crownhead::to_fen(pos);
        let mut game = Game::from_fen(variant, &fen).unwrap();
        while game.outcome().is_none() && game.moves().len() < 300 {
            let mv = if game.position().side() == pos.side() {
                let out =
                    searcher.search(&game, &depth(4), &SearchControl::new(false), &mut |_| {});
                out.best.unwrap()
            } else {
                let (_, best) = base.best_moves(game.position()).unwrap();
                best[0]
            };
            game.play(mv).unwrap();
        }
        let o = game.outcome();
        let won = o.is_some_and(|o| {
            o.result == GameResult::win_for(pos.side()) && o.reason == EndReason::NoLegalMove
        });
        if !won {
            failures.push(format!("{fen}: {o:?} after {} plies", game.moves().len()));
        }
    }
    failures
}

#[test]
fn two_kings_convert_against_one_in_english() {
    let dir = built(Variant::English, "0,2,0,1");
    let base = Tablebase::new(&dir, Variant::English);
    let positions = won_positions(&base, 2, 1, 12, |_| true);
    assert_eq!(
        not_converted(&dir, Variant::English, &positions),
        Vec::<String>::new()
    );
}

#[test]
fn two_kings_convert_against_one_in_russian() {
    // With flying kings two against one is mostly a draw; the won positions are those where
    // the lone king is caught, and the 5-move rule (7.2.8) must not catch the winner first.
    let dir = built(Variant::Russian, "0,2,0,1");
    let base = Tablebase::new(&dir, Variant::Russian);
    let positions = won_positions(&base, 2, 1, 12, |_| true);
    assert_eq!(
        not_converted(&dir, Variant::Russian, &positions),
        Vec::<String>::new()
    );
}

#[test]
fn three_kings_holding_the_main_road_convert_in_russian() {
    // Petrov's triangle: with the main road held, three kings catch one within the 15 moves of
    // 7.2.4, which the search checks (`tb::fits`).
    let dir = built(Variant::Russian, "0,3,0,1");
    let base = Tablebase::new(&dir, Variant::Russian);
    let road = |p: &Position| {
        p.kings_of(crownhead::Color::White) & MAIN_ROAD != 0
            && p.pieces(crownhead::Color::Black) & MAIN_ROAD == 0
    };
    let positions = won_positions(&base, 3, 1, 12, road);
    assert_eq!(
        not_converted(&dir, Variant::Russian, &positions),
        Vec::<String>::new()
    );
}

#[test]
#[ignore = "a 5-piece slice build: seconds in release; run by .ci/run --full"]
fn three_kings_convert_against_two_in_english() {
    let dir = built(Variant::English, "0,3,0,2");
    let base = Tablebase::new(&dir, Variant::English);
    let positions = won_positions(&base, 3, 2, 10, |_| true);
    assert_eq!(
        not_converted(&dir, Variant::English, &positions),
        Vec::<String>::new()
    );
}

/// Checks the engine's move in `fen` against the databases: it keeps the value, and when the
/// search scores it as a win or loss (the distance fits the draw rules) it is a move of the
/// databases' best distance, at that distance.
fn check_database_move(dir: &std::path::Path, variant: Variant, fen: &str) {
    let base = Tablebase::new(dir, variant);
    let game = Game::from_fen(variant, fen).unwrap();
    let mut searcher = searcher_with(dir, variant);
    let out = searcher.search(&game, &depth(6), &SearchControl::new(false), &mut |_| {});
    let mv = out.best.unwrap();
    let (probe, best) = base.best_moves(game.position()).unwrap();
    let child = base.probe(&game.position().play(&mv)).unwrap();
    assert_eq!(
        child.value.flip(),
        probe.value,
        "{fen}: {mv:?} changes the value"
    );
    if out.score.is_decisive() {
        assert!(
            best.contains(&mv),
            "{fen}: {mv:?} is not a best database move"
        );
        let plies = crownhead::Score::WIN.0 - out.score.0.abs();
        assert_eq!(plies as u16, probe.distance, "{fen}");
    }
}

#[test]
#[ignore = "slice builds with men: seconds in release; run by .ci/run --full"]
fn the_search_plays_the_database_move_in_the_bench_endings() {
    // positions/bench.txt's endings of up to 4 pieces, each with the slices it needs.
    let cases = [
        (Variant::Russian, "0,3,0,1", "W:WK22,K26,K30:BK5"),
        (Variant::Russian, "0,3,0,1", "B:WK29,K30,K31:BK12"),
        (Variant::Russian, "1,1,2,0", "W:W20,K29:B5,13"),
        (Variant::English, "0,2,0,1", "W:WK14,K23:BK1"),
        (Variant::English, "1,1,1,1", "B:W22,K18:B3,K10"),
    ];
    for (variant, material, fen) in cases {
        let dir = built(variant, material);
        check_database_move(&dir, variant, fen);
    }
}

#[test]
fn won_positions_get_the_database_move() {
    let dir = built(Variant::English, "0,2,0,1");
    let base = Tablebase::new(&dir, Variant::English);
    for pos in won_positions(&base, 2, 1, 6, |_| true) {
        check_database_move(&dir, Variant::English, &crownhead::to_fen(&pos));
    }
}

/// The line reported for a won root goes on past the search's end with the databases' best
/// play: every move keeps the value at one ply less, and a line scored as a win ends where the
/// loser has no move, so a ponder move is always there.
fn check_reported_line(dir: &std::path::Path, variant: Variant, pos: &Position) {
    let base = Tablebase::new(dir, variant);
    let fen = crownhead::to_fen(pos);
    let game = Game::from_fen(variant, &fen).unwrap();
    let mut searcher = searcher_with(dir, variant);
    let mut last_pv = Vec::new();
    let out = searcher.search(&game, &depth(2), &SearchControl::new(false), &mut |info| {
        last_pv = info.pv.clone();
    });
    let root = base.probe(pos).unwrap();
    assert_eq!(last_pv.first(), out.best.as_ref(), "{fen}");
    assert_eq!(out.ponder, last_pv.get(1).copied(), "{fen}");
    let mut at = *pos;
    let mut probe = root;
    for (i, mv) in last_pv.iter().enumerate() {
        assert!(
            variant.legal_moves(&at).contains(mv),
            "{fen}: move {i} illegal"
        );
        at = at.play(mv);
        let next = base.probe(&at).unwrap();
        assert_eq!(
            next.value,
            probe.value.flip(),
            "{fen}: move {i} changes the value"
        );
        if out.score.is_decisive() {
            assert_eq!(
                next.distance + 1,
                probe.distance,
                "{fen}: move {i} is not the fastest"
            );
        }
        probe = next;
    }
    if out.score.is_decisive() {
        assert_eq!(last_pv.len(), root.distance as usize, "{fen}: {last_pv:?}");
        assert!(
            variant.legal_moves(&at).is_empty(),
            "{fen}: the line stops short"
        );
    }
    assert!(
        root.distance < 2 || out.ponder.is_some(),
        "{fen}: no ponder move"
    );
}

#[test]
fn reported_lines_go_on_with_the_databases() {
    for variant in [Variant::English, Variant::Russian] {
        let dir = built(variant, "0,2,0,1");
        let base = Tablebase::new(&dir, variant);
        for pos in won_positions(&base, 2, 1, 4, |_| true) {
            check_reported_line(&dir, variant, &pos);
        }
    }
}

/// The engine's lines for `input`, with `xdg` as the base of the default database directory:
/// `XDG_DATA_HOME` on Unix, `LOCALAPPDATA` on Windows (which Windows always sets, so it comes
/// first there; see `egtb::default_dir`).
fn engine(input: &str, xdg: &std::path::Path) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crownhead"))
        .env("XDG_DATA_HOME", xdg)
        .env("LOCALAPPDATA", xdg)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_search_without_databases_suggests_building_them_once_per_variant() {
    let built_dir = built(Variant::English, "0,2,0,1");
    let xdg = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("egtb-hint-{}", std::process::id()));
    let hints = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.contains("egtb build"))
            .map(String::from)
            .collect()
    };
    // Each `stop` lets the next command wait for the search before it instead of refusing.
    let two_variants = "uci\nposition startpos\ngo depth 1\nstop\ngo depth 1\nstop\n\
                        setoption name Variant value english\nposition startpos\ngo depth 1\n";

    // Nothing in the default directory: one line for each variant, at its first search.
    let out = engine(two_variants, &xdg);
    let said = hints(&out);
    assert_eq!(said.len(), 2, "{out}");
    for (line, variant) in said.iter().zip(["russian", "english"]) {
        assert!(
            line.starts_with("info string no endgame databases for "),
            "{line}"
        );
        let command = format!("`crownhead egtb build --variant {variant} --pieces 5`");
        assert!(line.contains(&command), "{line}");
        assert!(line.contains(&xdg.join("crownhead").join("egtb").display().to_string()));
    }

    // English's databases in the default directory: only russian is told.
    let default = xdg.join("crownhead").join("egtb").join("english");
    std::fs::create_dir_all(&default).unwrap();
    for f in std::fs::read_dir(built_dir.join("english")).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, default.join(f.file_name().unwrap())).unwrap();
    }
    let said = hints(&engine(two_variants, &xdg));
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("--variant russian"), "{said:?}");

    // A path the user chose (here `off`): the choice is made, nothing is suggested.
    let input = format!("uci\nsetoption name EGTBPath value off\n{two_variants}");
    assert_eq!(hints(&engine(&input, &xdg)), Vec::<String>::new());
}

#[test]
fn the_protocol_takes_a_path_refuses_a_bad_one_and_reports_tbhits() {
    let dir = built(Variant::English, "0,2,0,1");
    let nowhere = dir.join("no-such-directory");
    let input = format!(
        "uci\nsetoption name Variant value english\nsetoption name EGTBPath value {}\n\
         setoption name EGTBPath value {}\nposition fen W:WK14,K23:BK1\ngo depth 3\n",
        nowhere.display(),
        dir.display()
    );
    let out = engine(&input, &nowhere);
    assert!(out.contains("option name EGTBPath type string default <empty>"));
    let errors: Vec<&str> = out.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{out}");
    assert!(errors[0].starts_with("info string error: EGTBPath: no endgame databases under"));
    let last_info = out.lines().rfind(|l| l.starts_with("info depth")).unwrap();
    assert!(last_info.contains(" score mate "), "{last_info}");
    assert!(!last_info.contains(" tbhits 0 "), "{last_info}");
    assert!(out.contains("bestmove"));

    // The default directory: databases under $XDG_DATA_HOME/crownhead/egtb (%LOCALAPPDATA% on
    // Windows) are used unasked.
    let xdg = dir.join("xdg");
    let default = xdg.join("crownhead").join("egtb").join("english");
    std::fs::create_dir_all(&default).unwrap();
    for f in std::fs::read_dir(dir.join("english")).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, default.join(f.file_name().unwrap())).unwrap();
    }
    let out = engine(
        "uci\nsetoption name Variant value english\nposition fen W:WK14,K23:BK1\ngo depth 3\n",
        &xdg,
    );
    let last_info = out.lines().rfind(|l| l.starts_with("info depth")).unwrap();
    assert!(!last_info.contains(" tbhits 0 "), "{last_info}");

    // Hub: the same option as a param; a bad path is one error line.
    let out = engine(
        &format!(
            "hub\nset-param name=egtb-path value=\"{}\"\nping\n",
            nowhere.display()
        ),
        &xdg,
    );
    assert!(
        out.contains("param name=egtb-path value=\"\" type=string"),
        "{out}"
    );
    assert_eq!(
        out.lines().filter(|l| l.starts_with("error")).count(),
        1,
        "{out}"
    );
}
