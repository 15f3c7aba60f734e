//! The learned evaluation: a small network fitted to self-play games by
//! `scripts/training/train_net.py` (docs/TRAINING.md). `weights` reads and checks a trainer's file;
//! `view` is the side to move's view of a position that the model reads; `network` computes
//! the evaluation; `library` holds the weights the engine plays with (embedded in the binary).

mod library;
mod network;
mod view;
pub mod weights;

pub use library::{learned_for, read_file};
pub use network::WEIGHT_COUNT;
pub use weights::{Base, Weights, WeightsError};

use crate::position::Position;
use crate::variant::Rules;
pub(crate) use network::Accumulators;
use network::Network;

/// A weights file made ready for play: the weights, and the same weights in the form the
/// search reads. Two are equal when their weights are (the network is built from them).
#[derive(Clone, Debug)]
pub struct Learned {
    /// The weights as the file holds them.
    pub weights: Weights,
    network: Box<Network>,
}

impl PartialEq for Learned {
    fn eq(&self, other: &Learned) -> bool {
        self.weights == other.weights
    }
}

// `new` refuses a scale K that is not a finite number, the one value that is not equal to itself.
impl Eq for Learned {}

impl Learned {
    /// Builds the network that checked weights describe (refused if their count is not the
    /// network's, or their scale K is not a positive number).
    pub fn new(weights: Weights) -> Result<Learned, WeightsError> {
        if !(weights.k.is_finite() && weights.k > 0.0) {
            return Err(WeightsError::Scale(weights.k));
        }
        let network = Box::new(Network::new(&weights.values)?);
        Ok(Learned { weights, network })
    }

    /// The network alone, or with `recent` the same value sooner.
    #[inline]
    fn network_eval(&self, pos: &Position, recent: Option<&mut Accumulators>) -> i32 {
        match recent {
            None => self.network.evaluate(pos),
            Some(recent) => self.network.evaluate_from(pos, recent),
        }
    }

    /// The model the file describes, as the trainer fits it: the network, plus the
    /// hand-written evaluation where the file says the network corrects it. Side to move's
    /// view, centi-men.
    #[inline]
    pub fn model_eval<R: Rules>(&self, pos: &Position) -> i32 {
        let own = self.network_eval(pos, None);
        match self.weights.base {
            Base::None => own,
            Base::HandWritten => own + crate::eval::handwritten::evaluate_for::<R>(pos),
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
    pub(crate) fn evaluate_with<R: Rules>(
        &self,
        pos: &Position,
        recent: Option<&mut Accumulators>,
    ) -> i32 {
        if crate::eval::handwritten::dead_draw::<R>(pos) {
            return 0;
        }
        if kings_only(pos) {
            return crate::eval::handwritten::terms_total::<R>(pos);
        }
        let own = self.network_eval(pos, recent);
        match self.weights.base {
            Base::None => own,
            Base::HandWritten => own + crate::eval::handwritten::terms_total::<R>(pos),
        }
    }

    /// The evaluation as the search plays it, by block: the hand-written total where the
    /// network corrects it, the network's linear piece weights and its hidden layers' output,
    /// and a last term cancelling the rest in a dead draw (as in the hand-written explanation).
    /// The values sum to `evaluate_for`.
    pub fn terms<R: Rules>(&self, pos: &Position) -> Vec<(&'static str, i32)> {
        let mut terms = Vec::new();
        if kings_only(pos) {
            terms.push((
                "hand-written (kings only)",
                crate::eval::handwritten::evaluate_for::<R>(pos),
            ));
            return terms;
        }
        if self.weights.base == Base::HandWritten {
            terms.push((
                "hand-written",
                crate::eval::handwritten::evaluate_for::<R>(pos),
            ));
        }
        let [linear, hidden] = self.network.parts(pos);
        terms.push(("pieces (network's linear part)", linear));
        terms.push(("network", hidden));
        if crate::eval::handwritten::dead_draw::<R>(pos) {
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
