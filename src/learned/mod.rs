//! The learned evaluation (issue 22), fitted to self-play games (docs/TRAINING.md): pattern
//! tables (`scripts/train_eval.py`) or a small network (`scripts/train_net.py`). `weights`
//! reads and checks a trainer's file; `patterns` and `network` compute the evaluation each
//! model describes; `library` holds the weights the engine plays with (embedded in the binary,
//! or a file named at start-up); `choice` says which evaluation a search uses.

pub mod choice;
pub mod library;
pub mod network;
pub mod patterns;
pub mod weights;

pub use choice::EvalChoice;
pub use library::{learned_for, load_file};
pub use patterns::{evaluate, explain, WEIGHT_COUNT};
pub use weights::{Base, Model, Weights, WeightsError};

use crate::position::Position;
use crate::variant::Rules;
pub use network::Accumulators;
use network::Network;
use patterns::Tables;

/// A weights file made ready for play: the weights, and the same weights in the form the
/// search reads.
#[derive(Clone, Debug)]
pub struct Learned {
    /// The weights as the file holds them.
    pub weights: Weights,
    model: Ready,
}

/// A model built from its weights.
#[derive(Clone, Debug)]
enum Ready {
    Tables(Box<Tables>),
    Network(Box<Network>),
}

impl Ready {
    #[inline]
    fn evaluate(&self, pos: &Position, recent: Option<&mut Accumulators>) -> i32 {
        match (self, recent) {
            (Ready::Tables(tables), _) => tables.evaluate(pos),
            (Ready::Network(net), None) => net.evaluate(pos),
            (Ready::Network(net), Some(recent)) => net.evaluate_from(pos, recent),
        }
    }
}

impl Learned {
    /// Builds the model that checked weights describe (refused if their count is not the
    /// model's).
    pub fn new(weights: Weights) -> Result<Learned, WeightsError> {
        let model = match weights.model {
            Model::Tables => Ready::Tables(Box::new(
                Tables::new(&weights.values).map_err(WeightsError)?,
            )),
            Model::Network => Ready::Network(Box::new(
                Network::new(&weights.values).map_err(WeightsError)?,
            )),
        };
        Ok(Learned { weights, model })
    }

    /// The model the file describes, as the trainer fits it: the tables, plus the hand-written
    /// evaluation where the file says they correct it. Side to move's view, centi-men.
    #[inline]
    pub fn model_eval<R: Rules>(&self, pos: &Position) -> i32 {
        let own = self.model.evaluate(pos, None);
        match self.weights.base {
            Base::None => own,
            Base::HandWritten => own + crate::eval::evaluate_for::<R>(pos),
        }
    }

    /// The learned evaluation as the search plays it: the model, except that a dead draw is
    /// 0 and an ending of kings only is the hand-written evaluation's. That knowledge is the
    /// hand-written evaluation's: exact for the dead draw where a model only leans, and the
    /// technique of kings' endings (driving a lone king out of a double corner, holding the
    /// main road), which self-play games seldom reach: without it the network let 2 kings
    /// against 1 (English) and 3 against 1 (Russian) run into the move-count draws
    /// (`tests/it/endgames.rs`). Past the dead-draw test the hand-written part is its bare terms:
    /// the test runs once.
    #[inline]
    pub fn evaluate_for<R: Rules>(&self, pos: &Position) -> i32 {
        self.evaluate_with::<R>(pos, None)
    }

    /// `evaluate_for`, with the network's first layer updated from `recent` (a search's
    /// thread keeps one): the same value, sooner.
    #[inline]
    pub fn evaluate_with<R: Rules>(
        &self,
        pos: &Position,
        recent: Option<&mut Accumulators>,
    ) -> i32 {
        if crate::eval::dead_draw::<R>(pos) {
            return 0;
        }
        if kings_only(pos) {
            return crate::eval::terms_total::<R>(pos);
        }
        let own = self.model.evaluate(pos, recent);
        match self.weights.base {
            Base::None => own,
            Base::HandWritten => own + crate::eval::terms_total::<R>(pos),
        }
    }

    /// The evaluation as the search plays it, by block: the hand-written total where the
    /// model corrects it, the model's blocks (the tables' windows and terms; the network's
    /// linear piece weights and its hidden layers' output), and a last term cancelling the rest
    /// in a dead draw (as in the hand-written explanation). The values sum to `evaluate_for`.
    pub fn terms<R: Rules>(&self, pos: &Position) -> Vec<(&'static str, i32)> {
        let mut terms = Vec::new();
        if kings_only(pos) {
            terms.push((
                "hand-written (kings only)",
                crate::eval::evaluate_for::<R>(pos),
            ));
            return terms;
        }
        if self.weights.base == Base::HandWritten {
            terms.push(("hand-written", crate::eval::evaluate_for::<R>(pos)));
        }
        match &self.model {
            Ready::Tables(_) => terms.extend(explain(&self.weights.values, pos)),
            Ready::Network(net) => {
                let [linear, hidden] = net.parts(pos);
                terms.push(("pieces (network's linear part)", linear));
                terms.push(("network", hidden));
            }
        }
        if crate::eval::dead_draw::<R>(pos) {
            let sum: i32 = terms.iter().map(|t| t.1).sum();
            terms.push(("dead draw", -sum));
        }
        terms
    }
}

/// Whether only kings are left: an ending the learned evaluation leaves to the hand-written one.
fn kings_only(pos: &Position) -> bool {
    pos.kings() == pos.occupied()
}
