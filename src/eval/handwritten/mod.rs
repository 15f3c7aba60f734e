//! The static evaluation: one hand-crafted evaluation for both variants, generic over `Rules`,
//! with every weight in one table per variant (`WEIGHTS`) so that a tuning pass can change them.
//!
//! Each side is scored by the same function, Black on the board turned round (`bitboard::flip`)
//! so that it too "moves up"; the evaluation is White's terms minus Black's, from the side to
//! move's view. That makes it symmetric by construction: mirroring the colours negates White's
//! score, which the test at the bottom checks on positions from random games.
//!
//! The parts change for different reasons: `weights.rs` when a tuning pass refits them,
//! `tables.rs` when the lookup layout changes, `terms.rs` when a term is added or changed; here
//! are the entry points and the dead-draw rule.

mod tables;
mod terms;
mod weights;

pub use terms::Term;

use crate::bitboard::Color;
use crate::position::Position;
use crate::variant::{Rules, Variant};
use terms::{white_terms, ByTerm, Total};

/// Material too thin for either side to win in general, which the evaluation scores 0.
/// Russian (flying kings): one or two pieces with a king against a lone king (the 7.2.8
/// ending); English: a lone king against a lone king. Only the static score is a draw: the
/// search still plays these endings out, since a lone king caught in a corner is lost.
pub fn dead_draw<R: Rules>(pos: &Position) -> bool {
    let pieces = pos.piece_count();
    if pieces > 3 || pos.kings() == 0 {
        return false;
    }
    let Some((strong, _)) = crate::variant::lone_king_ending(pos) else {
        return false;
    };
    let strong_pieces = pos.pieces(strong).count_ones();
    let strong_kings = pos.kings_of(strong).count_ones();
    if R::FLYING_KINGS {
        strong_pieces <= 2 && strong_kings >= 1
    } else {
        strong_pieces == 1 && strong_kings == 1
    }
}

/// The evaluation from the side to move's view, in centi-men, generic over the rules.
#[inline]
pub fn evaluate_for<R: Rules>(pos: &Position) -> i32 {
    if dead_draw::<R>(pos) {
        return 0;
    }
    terms_total::<R>(pos)
}

/// The sum of the terms from the side to move's view, without the dead-draw rule: for an
/// evaluation that has already ruled a dead draw out (the learned one adds its tables to this).
pub(crate) fn terms_total<R: Rules>(pos: &Position) -> i32 {
    let mut total = Total(0);
    white_terms::<R, Total>(pos, &mut total);
    if pos.side() == Color::White {
        total.0
    } else {
        -total.0
    }
}

/// The evaluation of `pos` under `variant` from the side to move's view, in centi-men.
pub fn evaluate(variant: Variant, pos: &Position) -> i32 {
    crate::with_rules!(variant, R => evaluate_for::<R>(pos))
}

/// The evaluation by term from the side to move's view; the values sum to `evaluate`. A dead
/// draw adds a last term that cancels the rest.
pub fn evaluate_terms(variant: Variant, pos: &Position) -> Vec<(&'static str, i32)> {
    let mut terms = ByTerm([0; Term::COUNT]);
    let draw = crate::with_rules!(variant, R => {
        white_terms::<R, ByTerm>(pos, &mut terms);
        dead_draw::<R>(pos)
    });
    let sign = if pos.side() == Color::White { 1 } else { -1 };
    let mut out: Vec<(&'static str, i32)> = Term::ALL
        .iter()
        .zip(terms.0)
        .map(|(term, v)| (term.name(), sign * v))
        .collect();
    if draw {
        let sum: i32 = out.iter().map(|(_, v)| v).sum();
        out.push(("dead draw", -sum));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::weights::RUSSIAN;
    use super::*;
    use crate::notation::fen::parse_fen;

    /// Positions from random games, reproducible (a fixed linear congruential generator).
    fn random_positions(variant: Variant, games: usize) -> Vec<Position> {
        let mut seed = 0x1234_5678_u64;
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos = parse_fen(variant.start_fen()).unwrap();
            for _ in 0..120 {
                let moves = variant.legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos = pos.play(&moves[(seed >> 33) as usize % moves.len()]);
                out.push(pos);
            }
        }
        out
    }

    #[test]
    fn mirroring_keeps_the_score() {
        for variant in Variant::ALL {
            let positions = random_positions(variant, 40);
            assert!(positions.len() > 1000);
            for pos in &positions {
                let m = pos.mirrored();
                assert_eq!(
                    evaluate(variant, pos),
                    evaluate(variant, &m),
                    "{}",
                    pos.diagram()
                );
                let sum: i32 = evaluate_terms(variant, pos).iter().map(|(_, v)| v).sum();
                assert_eq!(sum, evaluate(variant, pos));
            }
        }
    }

    #[test]
    fn start_is_level_and_material_counts() {
        for variant in Variant::ALL {
            let start = parse_fen(variant.start_fen()).unwrap();
            assert_eq!(evaluate(variant, &start), 0);
            let up = parse_fen("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11")
                .unwrap();
            assert!(evaluate(variant, &up) > 50);
        }
    }

    #[test]
    fn dead_draws_by_variant() {
        let kk = parse_fen("W:WK29:BK4").unwrap();
        let kkk = parse_fen("W:WK29,K30:BK4").unwrap();
        assert_eq!(evaluate(Variant::Russian, &kk), 0);
        assert_eq!(evaluate(Variant::Russian, &kkk), 0);
        assert_eq!(evaluate(Variant::English, &kk), 0);
        assert!(evaluate(Variant::English, &kkk) > 0);
        assert!(!dead_draw::<crate::variant::Russian>(
            &parse_fen("W:WK29,K30,K31:BK4").unwrap()
        ));
    }

    /// The value of term `name` in the breakdown of `fen`, from the side to move's view.
    fn term(variant: Variant, fen: &str, name: &str) -> i32 {
        let pos = parse_fen(fen).unwrap();
        evaluate_terms(variant, &pos)
            .into_iter()
            .find(|(n, _)| *n == name)
            .unwrap()
            .1
    }

    #[test]
    fn support_and_balance_count_men_by_their_neighbours_and_wings() {
        let w = &RUSSIAN;
        assert!(
            w.supported_man != 0 && w.imbalance != 0,
            "the test needs the terms"
        );
        // White's men on 18 (d4) and 22 (c3) have 22 and 26 (d2) behind them; 26 and 27 (f2)
        // do not. Black's man on 1 (b8) is on its back rank; 9 (b6) and 10 (d6) stand alone.
        let fen = "W:W18,22,26,27:B1,9,10";
        let (white_supported, black_supported) = (2, 1);
        assert_eq!(
            term(Variant::Russian, fen, "support"),
            (white_supported - black_supported) * w.supported_man
        );
        // White has three men on the left wing and one on the right, off by two; Black's three
        // are all on the left wing.
        let (white_off, black_off) = (2, 3);
        assert_eq!(
            term(Variant::Russian, fen, "balance"),
            (white_off - black_off) * w.imbalance
        );
        // The same position with the colours swapped scores the same for the side to move.
        let mirrored = "B:W23,24,32:B6,7,11,15";
        for name in ["support", "balance"] {
            assert_eq!(
                term(Variant::Russian, fen, name),
                term(Variant::Russian, mirrored, name),
                "{name}"
            );
        }
    }
}
