//! The tactics suite: every position of `positions/tactics.txt` (`variant;fen;best moves;what`)
//! is searched to a modest fixed depth; a position is solved when the engine's move is one of
//! its best moves. The solve count is printed, and the test fails if it drops below `EXPECTED`.

use crownhead::search::bench::parse_positions;
use crownhead::{
    parse_fen, parse_move, Game, Limits, Position, SearchControl, SearchOptions, SearchOutcome,
    Searcher, Variant,
};

/// The depth every position is searched to.
const DEPTH: u32 = 12;
/// Positions solved when this was last measured; a change that solves fewer is a regression.
const EXPECTED: usize = 26;

#[test]
fn tactics_suite() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/positions/tactics.txt"
    ))
    .unwrap();
    let positions = parse_positions(&text).unwrap();
    let mut searcher = Searcher::new(SearchOptions {
        hash_mb: 32,
        ..SearchOptions::default()
    });
    let mut solved = 0;
    for (variant, pos, fields) in &positions {
        let (out, found) = search_for(&mut searcher, *variant, pos, &fields[0], DEPTH);
        solved += found as usize;
        let what = fields.get(1).map_or("", String::as_str);
        println!(
            "{} {variant} {} score {}: {what}",
            if found { "ok  " } else { "MISS" },
            fields[0],
            out.score.0
        );
    }
    println!(
        "tactics: solved {solved}/{} at depth {DEPTH}",
        positions.len()
    );
    assert!(positions.len() >= 20);
    assert!(
        solved >= EXPECTED,
        "solved {solved}, expected at least {EXPECTED}"
    );
}

/// The shallowest search that sees the win in a king ending finds it: near the leaves the search
/// prunes on the static evaluation, but not where a side has only kings, since material there
/// says little about whether the win can be forced. Here two men and a king against a king win
/// by a sacrifice on 25 (tactics suite) in 5 plies; a 4-ply search finds it only if nothing of
/// it was pruned.
#[test]
fn king_ending_win_is_not_pruned_away() {
    let pos = parse_fen("W:WK21,30,32:BK22").unwrap();
    let mut searcher = Searcher::new(SearchOptions::default());
    let (out, found) = search_for(&mut searcher, Variant::English, &pos, "21-25 30-25", 4);
    assert!(
        out.score.is_decisive() && out.score.0 > 0,
        "{:?}",
        out.score
    );
    assert!(found);
}

/// Searches `pos` afresh to `depth`; the outcome, and whether its move is one of `best` (moves
/// separated by spaces).
fn search_for(
    searcher: &mut Searcher,
    variant: Variant,
    pos: &Position,
    best: &str,
    depth: u32,
) -> (SearchOutcome, bool) {
    let best: Vec<_> = best
        .split_whitespace()
        .map(|t| parse_move(t, pos, variant).unwrap_or_else(|e| panic!("{t}: {e}")))
        .collect();
    searcher.new_game();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let game = Game::new(variant, *pos);
    let out = searcher.search(&game, &limits, &SearchControl::new(false), &mut |_| {});
    let found = out
        .best
        .is_some_and(|m| best.iter().any(|b| b.same_effect(&m)));
    (out, found)
}
