//! What a search starts from and what an iteration leaves: the root and limits every thread
//! is given (`RootSetup`), and a root move's line (`Line`). Its own module because both the
//! iterations (`iterate`) and the state the threads share (`shared`) hold them, and neither
//! should depend on the other for it.

use super::Limits;
use crate::learned::Learned;
use crate::moves::Move;
use crate::position::Position;
use crate::variant::DrawCounters;
use std::sync::Arc;

/// What every thread needs to start a search.
pub(crate) struct RootSetup {
    pub(crate) root: Position,
    pub(crate) counters: DrawCounters,
    pub(crate) max_depth: i32,
    pub(crate) multipv: usize,
    pub(crate) limits: Limits,
    /// The learned evaluation, or `None` for the hand-written one.
    pub(crate) learned: Option<Arc<Learned>>,
}

/// One root move with its score and line from the last iteration that searched it.
#[derive(Clone, Debug)]
pub(crate) struct Line {
    pub(crate) score: i32,
    /// The line, starting with the root move.
    pub(crate) pv: Vec<Move>,
}
