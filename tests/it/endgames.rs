//! Won endings played out: the engine plays both sides at a fixed depth on one thread, and the
//! strong side must win (capture the lone king or leave it without a move) before a draw rule of
//! docs/RULES.md ends the game.
//!
//! Every start position is a forced win by theory, and the length of the shortest forced win
//! against the best defence was computed by `scripts/oracles/kings_ending.py`, an exhaustive
//! retrograde solver written from docs/RULES.md alone (no code shared with Crownhead). For russian
//! it applies the 5-move rules (7.2.7 lone king on the main road; 7.2.8 in the smaller endings a
//! capture leads to); the 15-move rule is then met when the win takes at most 15 moves of the
//! strong side. The lengths are given with each position, in plies and in moves of the strong side.

use crownhead::variant::lone_king_ending;
use crownhead::{
    full_text, EndReason, Game, GameResult, Limits, SearchControl, SearchOptions, Searcher,
    SquareStyle, Variant,
};

/// A game played to its end by the engine on both sides at `depth`; the game and its moves.
fn play_out(variant: Variant, fen: &str, depth: u32) -> (Game, String) {
    let mut game = Game::from_fen(variant, fen).unwrap();
    let mut searcher = Searcher::new(SearchOptions {
        hash_mb: 16,
        ..SearchOptions::default()
    });
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut moves = Vec::new();
    // Every rule ends these endings long before 200 plies; the cap only stops a broken game.
    while game.outcome().is_none() && game.moves().len() < 200 {
        let out = searcher.search(&game, &limits, &SearchControl::new(false), &mut |_| {});
        let mv = out.best.expect("a side that has not lost has a move");
        moves.push(full_text(&mv, SquareStyle::Numeric));
        game.play(mv).unwrap();
    }
    (game, moves.join(" "))
}

/// Plays each position out and returns the ones the strong side did not win, with how they ended.
fn not_won(variant: Variant, cases: &[(&str, u32)], depth: u32) -> Vec<String> {
    let mut failures = Vec::new();
    for &(fen, plies) in cases {
        let start = Game::from_fen(variant, fen).unwrap();
        let (strong, _) = lone_king_ending(start.position()).expect("a lone-king ending");
        let (game, moves) = play_out(variant, fen, depth);
        let outcome = game.outcome();
        let won = outcome.is_some_and(|o| {
            o.result == GameResult::win_for(strong) && o.reason == EndReason::NoLegalMove
        });
        println!(
            "{} {variant} {fen} (shortest win {plies} plies): {outcome:?} after {} plies: {moves}",
            if won { "won " } else { "MISS" },
            game.moves().len()
        );
        if !won {
            failures.push(format!("{fen}: {outcome:?} after {moves}"));
        }
    }
    failures
}

/// English: two kings against one, the lone king in or near a double corner and the strong kings
/// far away; the longest wins of the ending (34 plies, 17 moves) are among them. The 40-move rule
/// (80 plies without a capture or a man move) must not be reached.
#[test]
fn english_two_kings_beat_one_within_the_forty_move_rule() {
    let cases = [
        // (FEN, plies of the shortest forced win)
        ("B:WK31,K32:BK5", 34), // lone king in the double corner a7, strong kings on e1, g1
        ("B:WK20,K28:BK1", 34), // lone king in the double corner b8
        ("B:WK3,K4:BK28", 34),  // lone king in the other double corner h2
        ("B:WK21,K29:BK32", 34), // lone king in the double corner g1
        ("W:WK1,K2:BK32", 33),  // the strong side to move
        ("B:WK29,K30:BK15", 34), // lone king in the centre
        ("W:WK1:BK31,K32", 30), // colours swapped: Black's kings against White's in b8
        ("W:WK5:BK20,K28", 30), // colours swapped: White's lone king in a7
    ];
    let failures = not_won(Variant::English, &cases, 10);
    assert!(failures.is_empty(), "not won: {failures:#?}");
}

/// Russian: three kings against one with a strong king on the main road and the lone king off
/// it, in positions whose win lies within the engine's horizon at this depth.
#[test]
fn russian_three_kings_beat_one_within_the_horizon() {
    let cases = [
        ("W:WK22,K31,K28:BK14", 11), // 6 moves of the strong side
        ("W:WK29,K30,K31:BK12", 7),  // 4 moves
        ("B:WK4,K24,K28:BK1", 8),    // lone king in the double corner b8, 4 moves
        ("W:WK9,K19,K25:BK28", 7),   // lone king in the double corner h2, 4 moves
    ];
    let failures = not_won(Variant::Russian, &cases, 12);
    assert!(failures.is_empty(), "not won: {failures:#?}");
}

/// Russian: three kings against one with a strong king on the main road and the lone king off
/// it, won by theory within the 15-move rule (7.2.4), by Petrov's triangle or by a finish that
/// gives up kings for a won "two kings against one". The engine used to draw all of these: its
/// tree scored every russian ending of two pieces against a lone king as a dead draw, so each
/// winning finish looked like a draw.
#[test]
fn russian_three_kings_beat_one_within_the_fifteen_move_rule() {
    let cases = [
        ("W:WK8,K21,K31:BK19", 5), // 31-26 19x30 8-12: two kings against one, and it is lost
        ("W:WK15,K2,K3:BK30", 17), // 9 moves of the strong side
        ("B:WK15,K2,K3:BK21", 18), // 9 moves
        ("B:WK29,K30,K31:BK12", 22), // 11 moves
        ("B:WK4,K6,K31:BK32", 22), // lone king in the double corner g1, 11 moves
        ("B:WK8,K12,K30:BK13", 24), // 12 moves
        ("W:WK12:BK18,K31,K30", 18), // colours swapped, 9 moves
    ];
    let failures = not_won(Variant::Russian, &cases, 12);
    assert!(failures.is_empty(), "not won: {failures:#?}");
}
