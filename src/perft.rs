//! Perft: counting the leaves of the legal move tree, the standard proof of a move generator.
//! Bulk counting at the last ply; the root moves are shared out over rayon's threads.

use crate::movegen::{self, count_moves, Counting};
use crate::moves::Move;
use crate::position::Position;
use crate::variant::{Rules, Variant};
use rayon::prelude::*;

/// The leaf count of `pos` at `depth` plies.
pub fn perft(variant: Variant, pos: &Position, depth: u32, counting: Counting) -> u64 {
    crate::with_rules!(variant, R => Walker::<R>::new(counting).count(pos, depth))
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

/// A depth-first walk that owns one move buffer per ply, so no allocation happens in the loop.
struct Walker<R: Rules> {
    counting: Counting,
    buffers: Vec<Vec<Move>>,
    _rules: std::marker::PhantomData<R>,
}

impl<R: Rules> Walker<R> {
    fn new(counting: Counting) -> Self {
        Walker {
            counting,
            buffers: Vec::new(),
            _rules: std::marker::PhantomData,
        }
    }

    fn count(&mut self, pos: &Position, depth: u32) -> u64 {
        while self.buffers.len() <= depth as usize {
            self.buffers.push(Vec::with_capacity(64));
        }
        self.walk(pos, depth)
    }

    fn walk(&mut self, pos: &Position, depth: u32) -> u64 {
        let ply = depth as usize;
        if depth == 0 {
            return 1;
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        let n = if depth == 1 {
            count_moves::<R>(pos, self.counting, &mut moves)
        } else {
            movegen::generate::<R>(pos, &mut moves, self.counting);
            let mut sum = 0;
            for m in &moves {
                sum += self.walk(&pos.play(m), depth - 1);
            }
            sum
        };
        self.buffers[ply] = moves;
        n
    }
}
