//! `Limits`: what bounds one search (depth, nodes, time per move, a clock, or nothing).

use std::time::Duration;

/// A side's clock as a GUI or match runner reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Clock {
    /// Time left for the side to move.
    pub time: Duration,
    /// Increment added after each move.
    pub increment: Duration,
    /// Moves to the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// The bounds of one search; fields left `None` do not bound it. With none set the search runs
/// to a default depth.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Limits {
    /// Maximum nominal depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// The clock of the side to move.
    pub clock: Option<Clock>,
    /// Search until stopped.
    pub infinite: bool,
}
