//! The learned evaluation (issue 22): pattern tables fitted to self-play games by
//! `scripts/train_eval.py` (docs/TRAINING.md). `weights` reads and checks the trainer's file;
//! `patterns` computes the evaluation it describes; `library` holds the weights the engine
//! plays with (embedded in the binary, or a file named at start-up); `choice` says which
//! evaluation a search uses.

pub mod choice;
pub mod library;
pub mod patterns;
pub mod weights;

pub use choice::EvalChoice;
pub use library::{learned_for, load_file};
pub use patterns::{evaluate, explain, WEIGHT_COUNT};
pub use weights::{Base, Weights, WeightsError};

use crate::position::Position;
use crate::variant::Rules;
use patterns::Tables;

/// A weights file made ready for play: the weights, and the same weights folded into the
/// tables the search reads.
#[derive(Clone, Debug)]
pub struct Learned {
    /// The weights as the file holds them.
    pub weights: Weights,
    tables: Tables,
}

impl Learned {
    /// Folds checked weights into the search's tables.
    pub fn new(weights: Weights) -> Result<Learned, WeightsError> {
        let tables = Tables::new(&weights.values).map_err(WeightsError)?;
        Ok(Learned { weights, tables })
    }

    /// The model the file describes, as the trainer fits it: the tables, plus the hand-written
    /// evaluation where the file says they correct it. Side to move's view, centi-men.
    #[inline]
    pub fn model_eval<R: Rules>(&self, pos: &Position) -> i32 {
        let tables = self.tables.evaluate(pos);
        match self.weights.base {
            Base::None => tables,
            Base::HandWritten => tables + crate::eval::evaluate_for::<R>(pos),
        }
    }

    /// The learned evaluation as the search plays it: the model, except that a dead draw is
    /// 0. That knowledge is the hand-written evaluation's, exact where a table only leans.
    /// Past the dead-draw test the hand-written part is its bare terms: the test runs once.
    #[inline]
    pub fn evaluate_for<R: Rules>(&self, pos: &Position) -> i32 {
        if crate::eval::dead_draw::<R>(pos) {
            return 0;
        }
        let tables = self.tables.evaluate(pos);
        match self.weights.base {
            Base::None => tables,
            Base::HandWritten => tables + crate::eval::terms_total::<R>(pos),
        }
    }

    /// The evaluation as the search plays it, by block: the hand-written total where the
    /// tables correct it, the tables' blocks, and a last term cancelling the rest in a dead
    /// draw (as in the hand-written explanation). The values sum to `evaluate_for`.
    pub fn terms<R: Rules>(&self, pos: &Position) -> Vec<(&'static str, i32)> {
        let mut terms = Vec::new();
        if self.weights.base == Base::HandWritten {
            terms.push(("hand-written", crate::eval::evaluate_for::<R>(pos)));
        }
        terms.extend(explain(&self.weights.values, pos));
        if crate::eval::dead_draw::<R>(pos) {
            let sum: i32 = terms.iter().map(|t| t.1).sum();
            terms.push(("dead draw", -sum));
        }
        terms
    }
}
