//! Perft: counting the leaves of the legal move tree, the standard proof of a move generator.
//! Bulk counting at the last ply; the root moves are shared out over rayon's threads. A count can
//! be given up midway (`divide_until`), for a protocol's `perft` that `stop` must reach.

use crate::bitboard::Side;
use crate::movegen::{children, count_leaf, count_two_plies, Board, Counting};
use crate::moves::Move;
use crate::position::Position;
use crate::variant::{Rules, Variant};
use rayon::prelude::*;

/// The leaf count of `pos` at `depth` plies.
pub fn perft(variant: Variant, pos: &Position, depth: u32, counting: Counting) -> u64 {
    if counting == Counting::Orders {
        return crate::with_rules!(variant, R => by_moves::<R>(pos, depth, counting));
    }
    crate::with_rules!(variant, R => Walker::<R>::new(counting, None).count(pos, depth))
}

/// Perft over `Move`s and `Position::play`: slower than the walker, but it knows every
/// convention (the walker does not know `Counting::Orders`).
fn by_moves<R: Rules>(pos: &Position, depth: u32, counting: Counting) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    crate::movegen::generate::<R>(pos, &mut moves, counting);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| by_moves::<R>(&pos.play_unkeyed(m), depth - 1, counting))
        .sum()
}

/// Asked between subtrees whether to give up.
pub type StopCheck<'a> = &'a (dyn Fn() -> bool + Sync);

/// As `divide`, but gives up as soon as `stop` says so (it is asked at every node four plies or
/// more from the leaves, microseconds apart) and then returns `None`.
pub fn divide_until(
    variant: Variant,
    pos: &Position,
    depth: u32,
    counting: Counting,
    stop: StopCheck,
) -> Option<Vec<(Move, u64)>> {
    let moves = variant.moves(pos, counting);
    if depth == 0 {
        return Some(Vec::new());
    }
    let counts = moves
        .par_iter()
        .map(|m| {
            let child = pos.play(m);
            let n = crate::with_rules!(variant, R => Walker::<R>::new(counting, Some(stop)).count(&child, depth - 1));
            (*m, n)
        })
        .collect();
    (!stop()).then_some(counts)
}

/// The leaf count under each root move, in generation order, computed in parallel.
pub fn divide(
    variant: Variant,
    pos: &Position,
    depth: u32,
    counting: Counting,
) -> Vec<(Move, u64)> {
    let moves = variant.moves(pos, counting);
    if depth == 0 {
        return Vec::new();
    }
    moves
        .par_iter()
        .map(|m| (*m, perft(variant, &pos.play(m), depth - 1, counting)))
        .collect()
}

/// The leaf count at `depth`, computed in parallel over the root moves.
pub fn perft_parallel(variant: Variant, pos: &Position, depth: u32, counting: Counting) -> u64 {
    if depth <= 1 {
        return perft(variant, pos, depth, counting);
    }
    divide(variant, pos, depth, counting)
        .iter()
        .map(|(_, n)| n)
        .sum()
}

/// A depth-first walk over generator `Board`s (no `Move`s, no Zobrist keys) that owns one
/// buffer of next positions per ply, so no allocation happens in the loop. The side to move is a
/// type parameter that alternates down the tree.
struct Walker<'s, R: Rules> {
    counting: Counting,
    buffers: Vec<Vec<Board>>,
    /// Asked high in the tree whether to give up; the count is then meaningless.
    stop: Option<StopCheck<'s>>,
    _rules: std::marker::PhantomData<R>,
}

impl<'s, R: Rules> Walker<'s, R> {
    fn new(counting: Counting, stop: Option<StopCheck<'s>>) -> Self {
        Walker {
            counting,
            buffers: Vec::new(),
            stop,
            _rules: std::marker::PhantomData,
        }
    }

    fn count(&mut self, pos: &Position, depth: u32) -> u64 {
        while self.buffers.len() <= depth as usize {
            self.buffers.push(Vec::with_capacity(64));
        }
        let b = Board::of(pos);
        crate::with_side!(pos.side(), S => self.walk::<S>(&b, depth))
    }

    fn walk<S: Side>(&mut self, b: &Board, depth: u32) -> u64 {
        match depth {
            0 => 1,
            // Buffer 0 is the leaf count's scratch.
            1 => count_leaf::<R, S>(b, self.counting, &mut self.buffers[0]),
            2 => self.frontier::<S>(b),
            3 => {
                // The frontier's caller, with its buffers borrowed once for all the children.
                let mut next = std::mem::take(&mut self.buffers[3]);
                children::<R, S>(b, self.counting, &mut next);
                let (scratch, rest) = self.buffers.split_at_mut(1);
                let (scratch, buffer) = (&mut scratch[0], &mut rest[1]);
                let mut sum = 0;
                for child in &next {
                    sum += count_two_plies::<R, S::Other>(child, self.counting, buffer, scratch);
                }
                self.buffers[3] = next;
                sum
            }
            _ => {
                if self.stop.is_some_and(|stop| stop()) {
                    return 0;
                }
                let ply = depth as usize;
                let mut next = std::mem::take(&mut self.buffers[ply]);
                children::<R, S>(b, self.counting, &mut next);
                let mut sum = 0;
                for child in &next {
                    sum += self.walk::<S::Other>(child, depth - 1);
                }
                self.buffers[ply] = next;
                sum
            }
        }
    }

    /// Two plies from the leaves, where most of the time goes: counted in bulk, with few of the
    /// next positions built.
    fn frontier<S: Side>(&mut self, b: &Board) -> u64 {
        let (scratch, rest) = self.buffers.split_at_mut(1);
        count_two_plies::<R, S>(b, self.counting, &mut rest[1], &mut scratch[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    #[test]
    fn divide_until_counts_as_divide_unless_stopped() {
        let start = *crate::game::Game::start(Variant::Russian).position();
        let never = || false;
        let full = divide_until(Variant::Russian, &start, 6, Counting::Unique, &never);
        assert_eq!(
            full,
            Some(divide(Variant::Russian, &start, 6, Counting::Unique))
        );
        // A stop raised after a few checks ends the count, which is then withheld.
        let asked = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let check = || {
            if asked.fetch_add(1, Ordering::Relaxed) > 10 {
                stop.store(true, Ordering::Relaxed);
            }
            stop.load(Ordering::Relaxed)
        };
        assert_eq!(
            divide_until(Variant::Russian, &start, 9, Counting::Unique, &check),
            None
        );
        assert!(asked.load(Ordering::Relaxed) < 100_000);
    }
}
