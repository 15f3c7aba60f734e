//! One test per rule point of docs/RULES.md: the exact list of legal moves, written in full (every
//! landing square), in a position where that rule decides it. Every expected list was worked out
//! by hand from the rules text and the board geometry; the reasoning is in each test.
//!
//! Squares: 1 b8 2 d8 3 f8 4 h8 / 5 a7 6 c7 7 e7 8 g7 / 9 b6 10 d6 11 f6 12 h6 / 13 a5 14 c5
//! 15 e5 16 g5 / 17 b4 18 d4 19 f4 20 h4 / 21 a3 22 c3 23 e3 24 g3 / 25 b2 26 d2 27 f2 28 h2 /
//! 29 a1 30 c1 31 e1 32 g1. Russian lists are algebraic, english lists numeric.

use crownhead::notation::move_text::default_style;
use crownhead::{full_text, parse_fen, Counting, Game, GameResult, Move, Position, Variant};

const RU: Variant = Variant::Russian;
const EN: Variant = Variant::English;

/// The sorted full texts of the legal moves of `fen`.
fn list(variant: Variant, fen: &str, counting: Counting) -> Vec<String> {
    let pos = parse_fen(fen).unwrap_or_else(|e| panic!("{e}"));
    let mut v: Vec<String> = variant
        .moves(&pos, counting)
        .iter()
        .map(|m| full_text(m, default_style(variant)))
        .collect();
    v.sort();
    v
}

/// Asserts the move list, which must be the same in both counting conventions.
fn assert_moves(variant: Variant, fen: &str, expected: &[&str]) {
    let mut expected: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    expected.sort();
    assert_eq!(
        list(variant, fen, Counting::Unique),
        expected,
        "{variant} {fen} (unique)"
    );
    assert_eq!(
        list(variant, fen, Counting::Paths),
        expected,
        "{variant} {fen} (paths)"
    );
}

#[test]
fn russian_men_capture_backwards() {
    // White e5, black d4 behind it: the backward capture e5:c3 is compulsory.
    assert_moves(RU, "W:We5:Bd4,a7", &["e5:c3"]);
    // Black men too: black d4 takes the white man on e5 behind it (upwards), landing f6.
    assert_moves(RU, "B:We5,a1:Bd4", &["d4:f6"]);
    // Forward and backward captures side by side: e5 takes d6 (to c7) or d4 (to c3).
    assert_moves(RU, "W:We5:Bd4,d6", &["e5:c3", "e5:c7"]);
}

#[test]
fn english_men_capture_forward_only() {
    // The same position: the man on 15 may not take 18 behind it, so it just moves.
    assert_moves(EN, "W:W15:B18,5", &["15-10", "15-11"]);
    assert_moves(EN, "B:W15,29:B18", &["18-22", "18-23"]);
    // Forward capture still works: 15 takes 10 (landing 6).
    assert_moves(EN, "W:W15:B18,10", &["15x6"]);
}

#[test]
fn russian_kings_fly() {
    // A king on d4 reaches every free square of its two diagonals.
    assert_moves(
        RU,
        "W:WKd4:Bb8",
        &[
            "d4-a1", "d4-a7", "d4-b2", "d4-b6", "d4-c3", "d4-c5", "d4-e3", "d4-e5", "d4-f2",
            "d4-f6", "d4-g1", "d4-g7", "d4-h8",
        ],
    );
    // Blocked by its own piece: the king on a1 stops before c3.
    assert_moves(RU, "W:WKa1,c3:Bh8", &["a1-b2", "c3-b4", "c3-d4"]);
}

#[test]
fn english_kings_step_one_square() {
    assert_moves(EN, "W:WK18:B1", &["18-14", "18-15", "18-22", "18-23"]);
    // And capture only a piece next to them: 18 on d4 is out of reach of the king on 29.
    assert_moves(EN, "W:WK29:B18,28", &["29-25"]);
    assert_moves(EN, "W:WK29:B25,28", &["29x22"]);
}

#[test]
fn russian_king_captures_at_distance_and_chooses_its_landing() {
    // a1 takes d4 across two empty squares and may stop on e5, f6, g7 or h8.
    assert_moves(RU, "W:WKa1:Bd4,h2", &["a1:e5", "a1:f6", "a1:g7", "a1:h8"]);
    // Two pieces on one line with a free square between them: the king takes d4, must stop on
    // e5 (f6 blocks the line), and from there takes f6 in the same direction, landing g7 or h8.
    assert_moves(RU, "W:WKa1:Bd4,f6", &["a1:e5:g7", "a1:e5:h8"]);
    // Two pieces next to each other on a line cannot be taken: no capture, the king just moves.
    assert_moves(RU, "W:WKa1:Bd4,e5", &["a1-b2", "a1-c3"]);
}

#[test]
fn russian_king_must_land_where_it_can_go_on() {
    // After taking d4, only f6 lets the king go on (over g5 to h4): a1:e5, a1:g7, a1:h8 are out.
    assert_moves(RU, "W:WKa1:Bd4,g5,a7", &["a1:f6:h4"]);
    // Two landing squares go on: e5 (over c7 to b8) and f6 (over g5 to h4); g7 and h8 do not.
    assert_moves(RU, "W:WKa1:Bd4,g5,c7", &["a1:e5:b8", "a1:f6:h4"]);
}

#[test]
fn turkish_strike_captured_pieces_block() {
    // a1 takes d4 and may land on e5 (then over g3 to h2) or f6 (then over g5 to h4, then over
    // g3 to f2 or e1). From f2 the captured d4 still stands between the king and c5: it blocks
    // and cannot be jumped again, so the move ends there. Lifting pieces early would instead give
    // a1:f6:h4:f2:b6 and a1:f6:h4:f2:a7 (and forbid the e1 landing).
    assert_moves(
        RU,
        "W:WKa1:Bd4,g5,g3,c5",
        &["a1:e5:h2", "a1:f6:h4:e1", "a1:f6:h4:f2"],
    );
    // The docs/RULES.md rule position: g3 over f4 to e5 (then over g7 to h8, or over d4 to c3
    // and over b4 to a5) or to d6 (then over b4 to a3); g1 over d4 to c5, then over b4 to a3.
    assert_moves(
        RU,
        "W:WK24,K32:B8,16,17,18,19,28",
        &["g1:c5:a3", "g3:d6:a3", "g3:e5:c3:a5", "g3:e5:h8"],
    );
}

#[test]
fn turkish_strike_no_piece_is_jumped_twice() {
    // The man's ring c3:e5:c7:a5:c3 comes back to c3 beside the captured d4: it may not take it
    // again, so the move ends on c3 with four pieces taken (either way round).
    let both = ["c3:a5:c7:e5:c3", "c3:e5:c7:a5:c3"];
    assert_eq!(list(RU, "W:Wc3:Bd4,d6,b6,b4,h8", Counting::Paths), both);
    let unique = list(RU, "W:Wc3:Bd4,d6,b6,b4,h8", Counting::Unique);
    assert_eq!(unique.len(), 1);
    assert!(both.contains(&unique[0].as_str()));
}

#[test]
fn russian_man_crowned_mid_capture_goes_on_as_king() {
    // docs/RULES.md: h6 over g7 to f8 (crowned), then as a king over c5 to b4 (a3 would end the
    // move, b4 goes on), then over d2 to e1.
    assert_moves(RU, "W:W12:B8,14,26", &["h6:f8:b4:e1"]);
    // docs/RULES.md: black c3 over d2 to e1 (crowned), then over f2 to g3 or h4.
    assert_moves(RU, "B:W26,27:B22", &["c3:e1:g3", "c3:e1:h4"]);
    let pos = parse_fen("W:W12:B8,14,26").unwrap();
    let mv = RU.legal_moves(&pos)[0];
    assert!(mv.is_promotion());
    assert_eq!(
        pos.play(&mv).kings_of(crownhead::Color::White).count_ones(),
        1
    );
}

#[test]
fn english_man_crowned_mid_capture_stops() {
    // The same two positions in english: the crowning jump ends the move.
    assert_moves(EN, "W:W12:B8,14,26", &["12x3"]);
    assert_moves(EN, "B:W26,27:B22", &["22x31"]);
}

#[test]
fn capture_is_compulsory() {
    // c3 must take d4; the man on g3 may not move.
    assert_moves(RU, "W:W22,24:B4,18", &["c3:e5"]);
    assert_moves(EN, "W:W22,24:B4,18", &["22x15"]);
    // A king's capture is compulsory too, and excludes every quiet move of every piece.
    assert_moves(RU, "W:WKa1,h2:Bd4", &["a1:e5", "a1:f6", "a1:g7", "a1:h8"]);
}

#[test]
fn free_choice_among_sequences() {
    // No majority rule: the single capture c3:a5 is as legal as c3:e5:g7 (two pieces).
    assert_moves(RU, "W:W22:B18,11,17", &["c3:a5", "c3:e5:g7"]);
    assert_moves(EN, "W:W22:B18,11,17", &["22x13", "22x15x8"]);
    // But a started sequence must be completed: after c3:e5 the man must go on to g7.
    let pos = parse_fen("W:W22:B18,11,17").unwrap();
    assert!(crownhead::parse_move("c3:e5", &pos, RU).is_err());
}

#[test]
fn two_paths_one_move() {
    // The english king's ring: two paths, one move.
    let fen = "W:WK22:B18,10,9,17,4";
    assert_eq!(
        list(EN, fen, Counting::Paths),
        ["22x13x6x15x22", "22x15x6x13x22"]
    );
    assert_eq!(list(EN, fen, Counting::Unique).len(), 1);
    // docs/RULES.md king ring: 30x21x14x23x30 and 30x23x14x21x30 are one move.
    let fen = "B:W17,18,24,25,26,27,28,29,32:B1,2,3,4,6,7,8,9,10,12,K30";
    assert_eq!(
        list(EN, fen, Counting::Paths),
        ["30x21x14x23x30", "30x23x14x21x30"]
    );
    assert_eq!(list(EN, fen, Counting::Unique).len(), 1);
    // docs/RULES.md diamond loop: d6 around c5, c3, e3, e5 both ways is one move; b6:d4 and f6:d4.
    let fen = "B:W14,15,22,23,24,25,27,28,29,30,31,32:B1,2,3,4,5,7,8,9,10,11,12";
    assert_eq!(
        list(RU, fen, Counting::Paths),
        ["b6:d4", "d6:b4:d2:f4:d6", "d6:f4:d2:b4:d6", "f6:d4"]
    );
    let unique = list(RU, fen, Counting::Unique);
    assert_eq!(unique.len(), 3);
    assert!(unique.contains(&"b6:d4".to_string()) && unique.contains(&"f6:d4".to_string()));
    // Different captured sets with the same start and end are two moves, not one.
    assert_moves(EN, "W:W22:B17,9,18,10,1", &["22x13x6", "22x15x6"]);
}

#[test]
fn no_legal_move_loses() {
    for v in Variant::ALL {
        // The man on a3 is blocked: b4 is taken and c5 behind it is occupied.
        assert_moves(v, "W:W21:B17,14", &[]);
        // Black's man on h8 is blocked by g7 and f6.
        assert_moves(v, "B:W8,11:B4", &[]);
        let game = Game::from_fen(v, "W:W21:B17,14").unwrap();
        let outcome = game.outcome().expect("the game is over");
        assert_eq!(outcome.result, GameResult::BlackWins);
        assert_eq!(outcome.reason, crownhead::EndReason::NoLegalMove);
    }
    // Losing the last piece: after c3:e5 black has no pieces and loses.
    let mut game = Game::from_fen(RU, "W:Wc3:Bd4").unwrap();
    assert_eq!(game.outcome(), None);
    game.play_text("c3:e5").unwrap();
    let outcome = game.outcome().unwrap();
    assert_eq!(
        (outcome.result, outcome.reason),
        (GameResult::WhiteWins, crownhead::EndReason::NoLegalMove)
    );
}

#[test]
fn first_mover_and_start_moves() {
    // Black moves first in english, White in russian; seven moves each at the start.
    assert_moves(
        EN,
        EN.start_fen(),
        &["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"],
    );
    assert_moves(
        RU,
        RU.start_fen(),
        &[
            "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4",
        ],
    );
    assert_eq!(EN.first_to_move(), crownhead::Color::Black);
    assert_eq!(RU.first_to_move(), crownhead::Color::White);
}

/// The rules are symmetric: turning the board round and swapping colours maps the legal moves of
/// a position onto those of its mirror, square n onto 33 - n. Checked on random positions.
#[test]
fn rules_are_colour_symmetric() {
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    // A move as (squares of its path, captured squares, crowning), squares mapped by `f`.
    fn key(m: &Move, f: impl Fn(u32) -> u32) -> (Vec<u32>, Vec<u32>, bool) {
        let mut path = vec![f(m.from().number())];
        path.extend(m.landings().iter().map(|sq| f(sq.number())));
        let mut captured: Vec<u32> = crownhead::bitboard::squares(m.captured())
            .map(|sq| f(sq.number()))
            .collect();
        captured.sort();
        (path, captured, m.is_promotion())
    }
    let mut positions = 0;
    while positions < 3000 {
        let (mut white, mut black, mut kings) = (Vec::new(), Vec::new(), Vec::new());
        // Sparse to crowded boards: each square is filled with probability fill/16.
        let fill = 1 + next() % 10;
        for n in 1..=32u32 {
            if next() % 16 >= fill {
                continue;
            }
            match next() % 6 {
                0 | 1 if n > 4 => white.push(n),
                2 | 3 if n < 29 => black.push(n),
                4 => {
                    white.push(n);
                    kings.push(n)
                }
                5 => {
                    black.push(n);
                    kings.push(n)
                }
                _ => {}
            }
        }
        let item = |n: &u32| {
            if kings.contains(n) {
                format!("K{n}")
            } else {
                n.to_string()
            }
        };
        let side = if next() % 2 == 0 { "W" } else { "B" };
        let fen = format!(
            "{side}:W{}:B{}",
            white.iter().map(item).collect::<Vec<_>>().join(","),
            black.iter().map(item).collect::<Vec<_>>().join(",")
        );
        let Ok(pos) = parse_fen(&fen) else { continue };
        let pos: Position = pos;
        positions += 1;
        for v in Variant::ALL {
            for counting in [Counting::Paths, Counting::Unique] {
                let mut a: Vec<_> = v
                    .moves(&pos, counting)
                    .iter()
                    .map(|m| key(m, |n| 33 - n))
                    .collect();
                let mut b: Vec<_> = v
                    .moves(&pos.mirrored(), counting)
                    .iter()
                    .map(|m| key(m, |n| n))
                    .collect();
                if counting == Counting::Unique {
                    // Which path of a multi-path move is kept may differ: compare the effects.
                    for x in a.iter_mut().chain(b.iter_mut()) {
                        x.0 = vec![x.0[0], *x.0.last().unwrap()];
                    }
                }
                a.sort();
                b.sort();
                assert_eq!(a, b, "{v} {fen} {counting:?}");
            }
        }
    }
}
