//! The static evaluation, and which one plays. `handwritten` is the evaluation written by hand
//! (terms, their weights and lookup tables); `crate::learned` is the network fitted to
//! self-play games; `EvalChoice` (the option `Eval`) says which of the two a search plays with.
//! `evaluate` and `explain` are the one entry: the evaluation a search with that choice plays,
//! whole or by part.

mod choice;
pub(crate) mod handwritten;

pub use choice::{EvalChoice, UnknownEvalChoice};

use crate::position::Position;
use crate::variant::Variant;

/// The static evaluation of `pos` under `variant` that a search with `choice` plays, from the
/// side to move's view, in centi-men: the variant's embedded network, or the hand-written
/// evaluation.
///
/// ```
/// use crownhead::{evaluate, explain, parse_fen, Color, EvalChoice, Variant};
///
/// // White, to move, is a man up.
/// let pos = parse_fen("W:W18,21,22:B3,6").expect("a valid FEN");
/// let hand = evaluate(Variant::English, &pos, EvalChoice::HandWritten);
/// assert!(hand > 0, "{hand}");
/// // The side to move's view: with Black to move the same board scores the other way.
/// let black = pos.with_side(Color::Black);
/// assert!(evaluate(Variant::English, &black, EvalChoice::HandWritten) < 0);
///
/// // What a search plays by default (`Auto`: the variant's network, where it has one), and the
/// // same value by part.
/// let played = evaluate(Variant::English, &pos, EvalChoice::Auto);
/// let parts = explain(Variant::English, &pos, EvalChoice::Auto);
/// assert_eq!(parts.iter().map(|(_, v)| v).sum::<i32>(), played);
/// ```
pub fn evaluate(variant: Variant, pos: &Position, choice: EvalChoice) -> i32 {
    match choice.learned(variant) {
        None => handwritten::evaluate(variant, pos),
        Some(learned) => crate::with_rules!(variant, R => learned.evaluate_for::<R>(pos)),
    }
}

/// `evaluate` by part, from the side to move's view: the hand-written terms, or the network's
/// blocks. The values sum to `evaluate`.
pub fn explain(variant: Variant, pos: &Position, choice: EvalChoice) -> Vec<(&'static str, i32)> {
    match choice.learned(variant) {
        None => handwritten::evaluate_terms(variant, pos),
        Some(learned) => crate::with_rules!(variant, R => learned.terms::<R>(pos)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_fen;

    #[test]
    fn each_choice_evaluates_as_it_explains() {
        let pos = parse_fen("B:W18,21,22,23,K30:B3,6,K9,10,14").unwrap();
        for variant in Variant::ALL {
            let hand = evaluate(variant, &pos, EvalChoice::HandWritten);
            assert_eq!(hand, handwritten::evaluate(variant, &pos));
            // A variant with a network of its own plays a value of its own; the newer variants
            // have none yet and play the hand-written evaluation under every choice.
            let learned = evaluate(variant, &pos, EvalChoice::Learned);
            if EvalChoice::Learned.learned(variant).is_some() {
                assert_ne!(hand, learned, "{variant}: the network plays its own value");
            } else {
                assert_eq!(
                    hand, learned,
                    "{variant}: no network, the hand-written value"
                );
            }
            for choice in [
                EvalChoice::Auto,
                EvalChoice::Learned,
                EvalChoice::HandWritten,
            ] {
                let sum: i32 = explain(variant, &pos, choice).iter().map(|t| t.1).sum();
                assert_eq!(sum, evaluate(variant, &pos, choice), "{variant} {choice}");
            }
        }
    }
}
