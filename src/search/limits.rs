//! `Limits`: what bounds one search (depth, nodes, time per move, a clock, or nothing).

use crate::moves::Move;
use std::time::Duration;

/// The deepest nominal depth a search can honour, in plies; every front end (the protocols and
/// the tools) refuses a larger depth with this range in its message.
pub const MAX_DEPTH: u32 = 100;

/// The deepest ply from the root a search can reach, extensions and quiescence included: the
/// size of the per-ply tables (killers, principal variations). A node on the last of these
/// plies is evaluated statically.
pub const MAX_PLY: usize = 128;

// A search to `MAX_DEPTH` leaves plies beyond it for extensions and quiescence.
const _: () = assert!((MAX_DEPTH as usize) < MAX_PLY);

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
    /// Search only these root moves (compared by effect); empty means every legal move.
    pub searchmoves: Vec<Move>,
    /// Look for a win within this many moves of the side to move: search to the depth that
    /// can see one (unless `depth` is lower) and end as soon as one is found.
    pub mate: Option<u32>,
    /// A search for analysis rather than for a move to play (Hub's `go analyze`): always at
    /// full strength, whatever the `skill` option (`skill`).
    pub analysis: bool,
}

impl Limits {
    /// The deepest iteration these limits allow, if they set one: `depth`, or for `mate` the
    /// plies a win in that many moves takes (the last move leaves the loser without a move,
    /// which the node after it sees).
    pub fn depth_bound(&self) -> Option<u32> {
        let mate_plies = self
            .mate
            .map(|m| m.saturating_mul(2).saturating_sub(1).max(1));
        match (self.depth, mate_plies) {
            (Some(d), Some(m)) => Some(d.min(m)),
            (d, m) => d.or(m),
        }
    }
}
