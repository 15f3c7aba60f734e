//! Move ordering: the hash move first, then captures (more and bigger victims first), then
//! crowning moves, the killers of this ply, and the rest by history. Scores are computed once per
//! node and the best remaining move is picked lazily, since a cut often comes early.

use super::MAX_PLY;
use crate::bitboard::Color;
use crate::moves::Move;
use crate::position::Position;
use crate::tt::{code_is_quiet, code_squares, move_code};

const HASH_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 24;
const PROMOTION: i32 = 1 << 22;
const KILLER: i32 = 1 << 21;
/// History values stay within +-HISTORY_MAX (the gravity formula below keeps them there).
const HISTORY_MAX: i32 = 1 << 14;

/// A quiet move's start and end squares, `from * 32 + to`: all that tells two quiet moves of
/// one position apart, and never 0 (a move cannot start where it ends). Killers are kept and
/// compared as these, and history is indexed by them. They are the move's key without its
/// crowning bit, kept in the move so that scoring needs no arithmetic on the squares.
#[inline(always)]
fn squares(mv: &Move) -> u16 {
    mv.key() & 1023
}

/// The ordering statistics of one search thread.
pub(crate) struct Ordering {
    /// Two quiet moves per ply that caused cuts, as `squares` (0 for none). A fixed length, so
    /// that a ply the search has bounded needs no bounds check.
    killers: Box<[[u16; 2]; MAX_PLY + 1]>,
    /// Indexed by colour, then `squares`, in blocks of 2048: the second half of each block is
    /// no history but PROMOTION throughout, the score of a crowning, so that the scoring pass
    /// finds every quiet move's score by one load (see `score`).
    history: Box<[i32; 2 * 2048]>,
}

impl Ordering {
    pub(crate) fn new() -> Ordering {
        Ordering {
            killers: Box::new([[0; 2]; MAX_PLY + 1]),
            history: Box::new(std::array::from_fn(|i| {
                if i % 2048 < 1024 {
                    0
                } else {
                    PROMOTION
                }
            })),
        }
    }

    #[inline(always)]
    fn slot(side: Color, mv: &Move) -> usize {
        side.index() * 2048 + squares(mv) as usize
    }

    /// Whether the quiet move `mv` is a killer at `ply` (captures never are).
    #[inline]
    pub(crate) fn is_killer(&self, ply: usize, mv: &Move) -> bool {
        let k = self.killers[ply];
        let sq = squares(mv);
        !mv.is_capture() && (k[0] == sq || k[1] == sq)
    }

    /// Fills `scores` (as long as `moves`) for `moves` at `ply`, the hash move (by its code)
    /// first, and makes the first pick: the best move is swapped into place 0 as
    /// `pick(moves, scores, 0)` would, from the best score noted on the way (most nodes cut on
    /// their first move, and a second pass over the scores would cost as much as the scoring).
    #[inline(always)]
    pub(crate) fn score(
        &mut self,
        pos: &Position,
        moves: &mut [Move],
        hash_move: u16,
        ply: usize,
        scores: &mut [i32],
    ) {
        debug_assert_eq!(moves.len(), scores.len());
        let [k0, k1] = self.killers[ply];
        // The code's squares first: most moves differ there, and they cost no multiply.
        let hash_squares = if hash_move == 0 {
            u16::MAX
        } else {
            code_squares(hash_move)
        };
        let is_hash = |mv: &Move| squares(mv) == hash_squares && move_code(mv) == hash_move;
        // The first of the best scores and its index: `pick` keeps the first of equals.
        let (mut best, mut best_score) = (0, i32::MIN);
        let mut note = |i: usize, s: i32| {
            if s > best_score {
                (best, best_score) = (i, s);
            }
            s
        };
        // Captures are compulsory, so a list holds only captures or only quiet moves: one test
        // per list instead of one per move.
        if moves.first().is_some_and(Move::is_capture) {
            for (i, (mv, score)) in moves.iter().zip(scores.iter_mut()).enumerate() {
                *score = if is_hash(mv) {
                    note(i, HASH_MOVE)
                } else {
                    // Kings are worth about three men in both variants' material terms here.
                    let kings = (mv.captured() & pos.kings()).count_ones() as i32;
                    note(
                        i,
                        CAPTURE
                            + 256 * mv.capture_count() as i32
                            + 512 * kings
                            + 64 * mv.is_promotion() as i32,
                    )
                };
            }
        } else {
            // A quiet move's code is its squares and nothing else, so the hash move is found by
            // its `squares` alone; 0 (no move's squares) for none, which is also the squares of
            // the code 0 (no hash move).
            let hash_sq = if code_is_quiet(hash_move) {
                code_squares(hash_move) as usize
            } else {
                0
            };
            // The killers and the hash move are written into this side's history for the pass
            // and their values put back after it, so that each move costs one table load: a
            // crowning is looked up 1024 places on, where the table holds PROMOTION, which
            // outranks a killer and history, and the hash move is written there too. The later
            // write wins where two coincide (the hash move over a killer), and the values go
            // back in reverse order, so that coinciding slots end as they began. Slot 0 is no
            // move's: the stand-in for "none" may be written freely.
            let table = &mut self.history[pos.side().index() * 2048..][..2048];
            let (k0, k1) = (k0 as usize & 1023, k1 as usize & 1023);
            let saved_k1 = std::mem::replace(&mut table[k1], KILLER);
            let saved_k0 = std::mem::replace(&mut table[k0], KILLER);
            let saved_hash = std::mem::replace(&mut table[hash_sq], HASH_MOVE);
            table[1024 + hash_sq] = HASH_MOVE;
            for (i, (mv, score)) in moves.iter().zip(scores.iter_mut()).enumerate() {
                // The key is a quiet move's `squares` with its crowning at 1024.
                *score = note(i, table[mv.key() as usize & 2047]);
            }
            table[1024 + hash_sq] = PROMOTION;
            table[hash_sq] = saved_hash;
            table[k0] = saved_k0;
            table[k1] = saved_k1;
        }
        debug_assert!(moves
            .iter()
            .all(|m| m.is_capture() == moves[0].is_capture()));
        if best != 0 {
            moves.swap(0, best);
            scores.swap(0, best);
        }
    }

    /// Records a quiet move that caused a cut at `ply`, and lowers the quiet moves tried before it.
    #[inline(always)]
    pub(crate) fn cut(&mut self, side: Color, ply: usize, mv: &Move, depth: i32, tried: &[Move]) {
        if mv.is_capture() {
            return;
        }
        // A list holds only quiet moves or only captures, and no two of its moves have the same
        // effect: every move tried before a quiet `mv` is another quiet move.
        debug_assert!(tried.iter().all(|m| !m.is_capture() && !m.same_effect(mv)));
        let k = &mut self.killers[ply];
        let sq = squares(mv);
        if k[0] != sq {
            k[1] = k[0];
            k[0] = sq;
        }
        let bonus = (depth * depth).min(400) * 8;
        self.update(side, mv, bonus);
        for other in tried {
            self.update(side, other, -bonus);
        }
    }

    #[inline]
    fn update(&mut self, side: Color, mv: &Move, bonus: i32) {
        let h = &mut self.history[Self::slot(side, mv)];
        // Gravity: a value moves towards the bonus's sign, never past HISTORY_MAX.
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// Clears the killers of the ply below, for the node about to be searched at `ply`.
    #[inline]
    pub(crate) fn clear_killers(&mut self, ply: usize) {
        if ply < MAX_PLY {
            self.killers[ply + 1] = [0; 2];
        }
    }
}

/// Swaps the best-scored move from `i` on into place `i` and returns it (the first of equals).
#[inline(always)]
pub(crate) fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) -> Move {
    debug_assert!(i < moves.len() && moves.len() == scores.len());
    let mut best = i;
    let mut best_score = scores[i];
    for (j, &s) in scores[i + 1..].iter().enumerate() {
        if s > best_score {
            best_score = s;
            best = i + 1 + j;
        }
    }
    if best != i {
        moves.swap(i, best);
        scores.swap(i, best);
    }
    moves[i]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Square;

    fn quiet(a: u32, b: u32) -> Move {
        Move::quiet(
            Square::from_number(a).unwrap(),
            Square::from_number(b).unwrap(),
            false,
        )
    }

    #[test]
    fn hash_move_then_killers_then_history() {
        let pos = crate::parse_fen("W:W21,22,23:B1,2").unwrap();
        let mut o = Ordering::new();
        let (a, b, c) = (quiet(21, 17), quiet(22, 18), quiet(23, 19));
        o.cut(Color::White, 3, &b, 4, &[a]);
        let mut moves = vec![a, b, c];
        let mut scores = vec![0; moves.len()];
        o.score(&pos, &mut moves, move_code(&c), 3, &mut scores);
        assert_eq!(moves[0], c);
        assert_eq!(pick(&mut moves, &mut scores, 0), c);
        assert_eq!(pick(&mut moves, &mut scores, 1), b);
        assert_eq!(pick(&mut moves, &mut scores, 2), a);
        assert!(o.history[Ordering::slot(Color::White, &a)] < 0);
    }

    #[test]
    fn no_hash_move_scores_by_killers_and_history_and_leaves_them_be() {
        let pos = crate::parse_fen("W:W21,22,23:B1,2").unwrap();
        let mut o = Ordering::new();
        let (a, b, c) = (quiet(21, 17), quiet(22, 18), quiet(23, 19));
        o.cut(Color::White, 3, &b, 4, &[a]);
        let before = o.history.clone();
        let mut moves = vec![a, b, c];
        let mut scores = vec![0; moves.len()];
        o.score(&pos, &mut moves, 0, 3, &mut scores);
        assert_eq!(moves, vec![b, a, c]);
        let h = |m: &Move| before[Ordering::slot(Color::White, m)];
        assert_eq!(scores, vec![KILLER, h(&a), h(&c)]);
        assert_eq!(o.history, before);
    }
}
