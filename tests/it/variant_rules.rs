//! One test per rule point of the five variants beyond russian and english (docs/RULES.md): the
//! exact list of legal moves, written in full, in a position where that rule decides it, set
//! beside a variant where it does not. Every expected list was worked out by hand from the rules
//! text and the board geometry; the reasoning is in each test. FENs and lists are in
//! docs/RULES.md's frame (`SquareStyle::Numeric`) for every variant, mirrored ones included: the
//! rules do not depend on the numbering, which `mirrored_numbering_at_the_edge` tests.
//!
//! Squares: 1 b8 2 d8 3 f8 4 h8 / 5 a7 6 c7 7 e7 8 g7 / 9 b6 10 d6 11 f6 12 h6 / 13 a5 14 c5
//! 15 e5 16 g5 / 17 b4 18 d4 19 f4 20 h4 / 21 a3 22 c3 23 e3 24 g3 / 25 b2 26 d2 27 f2 28 h2 /
//! 29 a1 30 c1 31 e1 32 g1.

use crownhead::notation::fen::{parse_fen_in, to_fen_in};
use crownhead::{full_text, parse_fen, Counting, Game, SquareStyle, Variant};

const BR: Variant = Variant::Brazilian;
const PO: Variant = Variant::Pool;
const IT: Variant = Variant::Italian;
const SP: Variant = Variant::Spanish;
const CZ: Variant = Variant::Czech;
const RU: Variant = Variant::Russian;

/// The sorted full texts (docs/RULES.md's numbers) of the legal moves of `fen`.
fn list(variant: Variant, fen: &str, counting: Counting) -> Vec<String> {
    let pos = parse_fen(fen).unwrap_or_else(|e| panic!("{e}"));
    let mut v: Vec<String> = variant
        .moves(&pos, counting)
        .iter()
        .map(|m| full_text(m, SquareStyle::Numeric))
        .collect();
    v.sort();
    v
}

/// Asserts the move list, which must be the same in both counting conventions.
fn assert_moves(variant: Variant, fen: &str, expected: &[&str]) {
    let mut expected: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    expected.sort();
    for counting in [Counting::Unique, Counting::Paths, Counting::Orders] {
        assert_eq!(
            list(variant, fen, counting),
            expected,
            "{variant} {fen} ({counting:?})"
        );
    }
}

#[test]
fn brazilian_majority_rule() {
    // c3 takes d4 (to e5) and then d6 (to c7): two pieces; h2 takes g3 (to f4) and stops: one.
    // Brazilian must take two; pool and russian choose freely.
    let fen = "W:W22,28:B18,10,24";
    assert_moves(BR, fen, &["22x15x6"]);
    assert_moves(PO, fen, &["22x15x6", "28x19"]);
    assert_eq!(list(RU, fen, Counting::Unique).len(), 2);
}

#[test]
fn brazilian_counts_kings_as_men_and_spanish_prefers_kings() {
    // c3 takes the man on d4, g3 takes the king on f4, both landing on e5 and stopping there (the
    // way on is blocked by the other white man). One piece each: brazilian and czech (men only)
    // choose freely; spanish must take the king; italian men may not take it at all.
    let fen = "W:W22,24:B18,K19";
    assert_moves(BR, fen, &["22x15", "24x15"]);
    assert_moves(CZ, fen, &["22x15", "24x15"]);
    assert_moves(SP, fen, &["24x15"]);
    assert_moves(IT, fen, &["22x15"]);
}

#[test]
fn italian_and_czech_capture_with_the_king() {
    // The king on c3 takes d4 (italian: landing e5 only; czech's flying king: e5, f6, g7 or h8);
    // the man on h2 takes g3 (to f4). Italian: with a king rather than a man at equal count;
    // czech: a king's capture whenever there is one; spanish and brazilian: free among
    // one-piece captures.
    let fen = "W:WK22,28:B18,24";
    assert_moves(IT, fen, &["22x15"]);
    assert_moves(CZ, fen, &["22x15", "22x11", "22x8", "22x4"]);
    assert_moves(SP, fen, &["22x15", "22x11", "22x8", "22x4", "28x19"]);
    assert_moves(BR, fen, &["22x15", "22x11", "22x8", "22x4", "28x19"]);
}

#[test]
fn italian_most_kings_then_king_met_first() {
    // The king on c3 takes the king on d4 (to e5) or the man on b4 (to a5): italian takes the
    // king; czech (a king either way) chooses.
    assert_moves(IT, "W:WK22:BK18,17", &["22x15"]);
    // Two pieces, one of them a king, either way: d4 (a king) then f6 (to g7), or b4 then b6 (a
    // king, to c7). The first meets the king first.
    assert_moves(IT, "W:WK22:BK18,11,17,K9", &["22x15x8"]);
    // With the kings swapped to the other path's second capture, the other path goes first.
    assert_moves(IT, "W:WK22:B18,K11,K17,9", &["22x13x6"]);
}

#[test]
fn brazilian_man_goes_on_through_the_king_row_as_a_man() {
    // f6 takes e7 and lands on d8, the king row; from there, as a man, it takes c7 backwards (to
    // b6) and ends there uncrowned. Russian crowns it on d8 and its flying king lands on b6 or a5.
    let fen = "W:W11:B7,6,28";
    assert_moves(BR, fen, &["11x2x9"]);
    assert_moves(PO, fen, &["11x2x9"]);
    assert_eq!(list(RU, fen, Counting::Unique), ["11x2x13", "11x2x9"]);
    let pos = parse_fen(fen).unwrap();
    let mv = BR.legal_moves(&pos)[0];
    assert!(!mv.is_promotion(), "a man at the end of the move");
    // With nothing to take from d8, the move ends on the king row and crowns.
    let mv = BR.legal_moves(&parse_fen("W:W11:B7,28").unwrap())[0];
    assert!(mv.is_promotion());
}

#[test]
fn czech_spanish_italian_men_capture_forwards_only() {
    // e5 with a black man behind it on d4: no capture backwards; it steps to d6 or f6.
    for v in [CZ, SP, IT] {
        assert_moves(v, "W:W15:B18,5", &["15-10", "15-11"]);
    }
    assert_moves(BR, "W:W15:B18,5", &["15x22"]);
}

#[test]
fn mirrored_numbering_at_the_edge() {
    // Italian's square 1 is its a8, our h8 (4): a FEN, a move text and the FEN written back are
    // in italian's numbers. White's man on italian 28 (our 25, b2) steps to italian 24 or 23
    // (our 21 or 22).
    let pos = parse_fen_in(IT, "W:W28:B1").unwrap();
    assert_eq!(crownhead::to_fen(&pos), "W:W25:B4");
    assert_eq!(to_fen_in(IT, &pos), "W:W28:B1");
    let mut game = Game::from_fen(IT, "W:W28:B1").unwrap();
    let texts: Vec<String> = IT
        .legal_moves(game.position())
        .iter()
        .map(|m| full_text(m, crownhead::notation::move_text::default_style(IT)))
        .collect();
    assert_eq!(texts.len(), 2);
    assert!(texts.contains(&"28-24".to_string()) && texts.contains(&"28-23".to_string()));
    game.play_text("28-24").unwrap();
    assert_eq!(to_fen_in(IT, game.position()), "B:W24:B1");
    // Russian's numbering is ours.
    assert_eq!(
        to_fen_in(RU, &parse_fen_in(RU, "W:W28:B1").unwrap()),
        "W:W28:B1"
    );
}

#[test]
fn pool_three_kings_have_thirteen_moves() {
    use crownhead::{DrawCounters, DrawRule};
    let pos = parse_fen("W:WK1,K2,K3:BK32").unwrap();
    let counters = |n| DrawCounters {
        ending_moves: n,
        ..Default::default()
    };
    assert_eq!(PO.draw_rule(&counters(12), &pos), None);
    assert_eq!(
        PO.draw_rule(&counters(13), &pos),
        Some(DrawRule::ThreeKingsThirteenMoves)
    );
    // Two kings and a man are not three kings.
    let pos = parse_fen("W:WK1,K2,27:BK32").unwrap();
    assert_eq!(PO.draw_rule(&counters(20), &pos), None);
    // Brazilian shares russian's endings: three kings against one, 15 moves.
    let pos = parse_fen("W:WK1,K2,K3:BK32").unwrap();
    assert_eq!(BR.draw_rule(&counters(14), &pos), None);
    assert_eq!(
        BR.draw_rule(&counters(15), &pos),
        Some(DrawRule::ThreeKingsAgainstKing)
    );
}

#[test]
fn unknown_variant_names_every_known_one() {
    let err = "checkerz".parse::<Variant>().unwrap_err().to_string();
    for v in Variant::ALL {
        assert!(err.contains(v.name()), "{err}");
    }
    for v in Variant::ALL {
        assert_eq!(v.name().parse::<Variant>(), Ok(v));
        assert_eq!(Variant::from_game_type(&v.game_type().to_string()), Some(v));
        assert_eq!(Variant::from_file_code(v.file_code()), Some(v));
    }
}
