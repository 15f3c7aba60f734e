//! The move lists of one search thread: the lists of the nodes on the current line, end to end
//! in one buffer, with their ordering scores beside them.

use super::ordering::pick;
use crate::moves::Move;

/// A node appends its moves (`moves`), works on them as `list(start, n)` and truncates back to
/// `start` on leaving. One buffer for every ply means no list is moved in and out of a table of
/// lists, and no list has a fixed bound: a position with flying kings can have many moves.
pub(crate) struct MoveStack {
    /// The lists of the nodes on the current line, the deepest last.
    pub(crate) moves: Vec<Move>,
    /// `scores[i]` orders `moves[i]`. Only ever grown: a node writes its scores before it
    /// reads them.
    scores: Vec<i32>,
}

impl MoveStack {
    pub(crate) fn new() -> MoveStack {
        // Enough for a long line of busy positions; either buffer grows if need be.
        MoveStack {
            moves: Vec::with_capacity(4096),
            scores: Vec::with_capacity(4096),
        }
    }

    /// The top of the stack: where the next list starts.
    #[inline(always)]
    pub(crate) fn top(&self) -> usize {
        self.moves.len()
    }

    /// The `n` moves from `start` and their scores.
    #[inline(always)]
    pub(crate) fn list(&mut self, start: usize, n: usize) -> (&mut [Move], &mut [i32]) {
        let end = start + n;
        if self.scores.len() < end {
            self.scores.resize(end, 0);
        }
        (&mut self.moves[start..end], &mut self.scores[start..end])
    }

    /// The `n` moves from `start` and their scores, once `list(start, n)` has made room for
    /// the scores: the picks after the scoring need no check for room.
    #[inline(always)]
    pub(crate) fn scored(&mut self, start: usize, n: usize) -> (&mut [Move], &mut [i32]) {
        let end = start + n;
        debug_assert!(self.scores.len() >= end);
        (&mut self.moves[start..end], &mut self.scores[start..end])
    }

    /// The move to search `i`-th in the scored list of `n` moves at `start`: the first was put in
    /// place while scoring (see `Ordering::score`), the later ones are picked from the scores.
    #[inline(always)]
    pub(crate) fn nth_best(&mut self, start: usize, n: usize, i: usize) -> Move {
        if i == 0 {
            self.moves[start]
        } else {
            let (moves, scores) = self.scored(start, n);
            pick(moves, scores, i)
        }
    }

    /// Drops the lists from `start` on.
    #[inline(always)]
    pub(crate) fn truncate(&mut self, start: usize) {
        self.moves.truncate(start);
    }
}
