//! Legal move generation, written once and specialised per variant through `Rules` and per side
//! to move through `Side`.
//!
//! Captures are compulsory, so a position has either only captures or only quiet moves. The
//! capture tree is walked in `jumps`; `count` holds perft's fast paths, which count moves or build
//! the next positions without making `Move` values. Generation knows nothing of search.

mod count;
mod frontier;
mod jumps;
mod rays;

pub(crate) use count::{children, count_leaf};
pub(crate) use frontier::count_two_plies;

use crate::bitboard::{self, BitIter, Bitboard, Dir, Side, Square};
use crate::moves::Move;
use crate::position::Position;
use crate::variant::Rules;
use jumps::{
    capturing_pieces, kings_can_capture, men_that_capture, prey_of_men, walk_captures, walk_pieces,
    MoveSink,
};

/// Whether jump paths with the same effect count as one move (`Unique`, the default everywhere)
/// or each path counts (`Paths`, the convention of some published perft tables), or each order
/// in which the pieces are taken (`Orders`, the convention of the shashki and FMJD forums'
/// perft tables: paths that take the same pieces in the same order count once).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Counting {
    /// One move per distinct effect (start, end, captured set, crowning).
    #[default]
    Unique,
    /// One move per jump path.
    Paths,
    /// One move per order of the pieces taken (start, end, the taken pieces in order, crowning).
    /// Only `generate` and `perft` know it; it is for checking published tables.
    Orders,
}

/// A position as the generator sees it: the pieces of the side to move, the opponent's and the
/// kings of both. The side to move is a `Side` type parameter beside it, and there is no Zobrist
/// key: perft walks these, and `Position::play` stays the one make that keeps a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    /// Pieces of the side to move.
    pub us: Bitboard,
    /// Pieces of the opponent.
    pub them: Bitboard,
    /// Kings of both sides.
    pub kings: Bitboard,
}

impl Board {
    /// `pos` seen from its side to move.
    #[inline(always)]
    pub fn of(pos: &Position) -> Board {
        let us = pos.side();
        Board {
            us: pos.pieces(us),
            them: pos.pieces(us.opponent()),
            kings: pos.kings(),
        }
    }

    /// Every empty square.
    #[inline(always)]
    pub fn empty(&self) -> Bitboard {
        bitboard::BOARD & !(self.us | self.them)
    }

    /// The position after the piece on `from` goes to `to` taking `captured`, seen from the
    /// opponent, who moves next; `king` says whether the piece is a king when it arrives.
    #[inline(always)]
    pub fn after(&self, from: Bitboard, to: Bitboard, captured: Bitboard, king: bool) -> Board {
        // `from == to` is possible (a king's capture loop), so clear before setting.
        let kings = self.kings & !captured & !from;
        Board {
            us: self.them & !captured,
            them: (self.us & !from) | to,
            kings: if king { kings | to } else { kings },
        }
    }
}

/// Appends the legal moves of `pos` to `out` (which it clears first), one per distinct effect.
pub fn legal_moves<R: Rules>(pos: &Position, out: &mut Vec<Move>) {
    generate::<R>(pos, out, Counting::Unique);
}

/// Replaces `out` with the legal moves of `pos`, counted as `counting` says: the captures, with
/// their landing squares, else the quiet moves.
pub fn generate<R: Rules>(pos: &Position, out: &mut Vec<Move>, counting: Counting) {
    out.clear();
    let b = Board::of(pos);
    crate::with_side!(pos.side(), S => {
        walk_captures::<R, S, _>(&b, &mut MoveSink::<true>::new(out, counting == Counting::Unique));
        if out.is_empty() {
            quiet_moves::<R, S>(&b, out);
        }
    });
    if counting == Counting::Orders && out.len() > 1 && out[0].is_capture() {
        dedup_same_order(out);
    }
}

/// The squares of the pieces a capture takes, in the order it takes them (read from its path,
/// so `mv` must carry its landing squares).
pub fn capture_order(mv: &Move) -> Vec<Square> {
    let mut order = Vec::with_capacity(mv.capture_count() as usize);
    let mut at = mv.from().bit();
    for landing in mv.landings() {
        let target = landing.bit();
        for d in Dir::ALL {
            let (mut sq, mut passed) = (d.shift(at), 0);
            while sq != 0 && sq != target {
                passed |= sq;
                sq = d.shift(sq);
            }
            if sq == target {
                order.extend(BitIter(passed & mv.captured()).map(Square::from_bit));
                break;
            }
        }
        at = target;
    }
    order
}

/// Keeps one of each set of paths that take the same pieces in the same order.
fn dedup_same_order(moves: &mut Vec<Move>) {
    let keyed: Vec<(Move, Vec<Square>)> = moves.iter().map(|m| (*m, capture_order(m))).collect();
    moves.clear();
    for (i, (m, order)) in keyed.iter().enumerate() {
        let seen = keyed[..i]
            .iter()
            .any(|(n, o)| n.same_effect(m) && o == order);
        if !seen {
            moves.push(*m);
        }
    }
}

/// Appends to `out` the legal moves of `pos`, whose `capturers` are `from`, as the search wants
/// them: one per distinct effect, captures without their landing squares (recording them costs
/// on every jump, and the search needs only the effect). Appending lets the search keep every
/// ply's list in one buffer. The caller has asked `capturers` already (its node needs to know
/// whether there is a capture before it needs the moves), so they are not looked for again.
pub(crate) fn search_moves<R: Rules>(pos: &Position, from: Bitboard, out: &mut Vec<Move>) {
    debug_assert_eq!(from, capturers::<R>(pos));
    if from != 0 {
        search_captures::<R>(pos, from, out);
    } else {
        let b = Board::of(pos);
        crate::with_side!(pos.side(), S => quiet_moves::<R, S>(&b, out));
    }
}

/// The pieces of the side to move from which a capture may start: the men that can make a first
/// jump, and every king if one of them can. Empty exactly when there is no capture. The search
/// asks this first and hands it to `search_captures`, which then does not look again.
#[inline]
pub(crate) fn capturers<R: Rules>(pos: &Position) -> Bitboard {
    let b = Board::of(pos);
    crate::with_side!(pos.side(), S => capturing_pieces::<R, S>(&b))
}

/// Appends to `out` the captures of `pos`, whose `capturers` are `from` (not empty), one per
/// distinct effect and without their landing squares, as `search_moves`.
pub(crate) fn search_captures<R: Rules>(pos: &Position, from: Bitboard, out: &mut Vec<Move>) {
    debug_assert_eq!(from, capturers::<R>(pos));
    let b = Board::of(pos);
    let mut sink = MoveSink::<false>::new(out, true);
    crate::with_side!(pos.side(), S => {
        walk_pieces::<R, S, _>(&b, from & !b.kings, from & b.kings, &mut sink)
    });
}

/// Whether the side to move has a capture (and so must capture).
#[inline]
pub fn has_capture<R: Rules>(pos: &Position) -> bool {
    let b = Board::of(pos);
    crate::with_side!(pos.side(), S => can_capture::<R, S>(&b))
}

/// Whether the side not to move would have a capture if it were its turn: a threat that the
/// side to move must meet.
#[inline]
pub(crate) fn opponent_has_capture<R: Rules>(pos: &Position) -> bool {
    let b = Board::of(pos);
    let theirs = Board {
        us: b.them,
        them: b.us,
        kings: b.kings,
    };
    crate::with_side!(pos.side().opponent(), S => can_capture::<R, S>(&theirs))
}

/// Whether the side to move has a move without capture (a man's step or a king's step), whether
/// or not a capture makes it illegal.
#[inline]
pub fn has_quiet_move(pos: &Position) -> bool {
    let us = pos.side();
    let empty = pos.empty();
    let men = pos.men(us);
    let kings = pos.kings_of(us);
    us.forward().iter().any(|d| d.shift(men) & empty != 0)
        || Dir::ALL.iter().any(|d| d.shift(kings) & empty != 0)
}

/// A cheap lower bound on the side to move's quiet moves, for a position without a capture:
/// one for each man's step and one for each king's first step in a direction. It is exact
/// but for flying kings, which may go further.
#[inline]
pub fn quiet_steps(pos: &Position) -> u32 {
    let us = pos.side();
    let empty = pos.empty();
    let men = pos.men(us);
    let kings = pos.kings_of(us);
    let by_men: u32 = us
        .forward()
        .iter()
        .map(|d| (d.shift(men) & empty).count_ones())
        .sum();
    let by_kings: u32 = Dir::ALL
        .iter()
        .map(|d| (d.shift(kings) & empty).count_ones())
        .sum();
    by_men + by_kings
}

/// Whether the side to move has any legal move; without one it has lost.
#[inline]
pub fn has_legal_move<R: Rules>(pos: &Position) -> bool {
    has_quiet_move(pos) || has_capture::<R>(pos)
}

/// Whether the side `S` to move on `b` has a capture.
#[inline(always)]
pub(crate) fn can_capture<R: Rules, S: Side>(b: &Board) -> bool {
    let empty = b.empty();
    men_that_capture::<R, S>(b.us & !b.kings, prey_of_men::<R>(b.them, b.kings), empty) != 0
        || (b.us & b.kings != 0 && kings_can_capture::<R>(b.us & b.kings, b.them, empty))
}

/// The number of legal moves, without building them: the leaf count of perft (perft itself goes
/// through `count_leaf`; the tests check the two agree).
#[cfg(test)]
fn count_moves<R: Rules>(pos: &Position, counting: Counting) -> u64 {
    let b = Board::of(pos);
    // Only multi-jump sequences need a buffer, and it grows on first use only.
    let mut boards = Vec::new();
    crate::with_side!(pos.side(), S => count_leaf::<R, S>(&b, counting, &mut boards))
}

fn quiet_moves<R: Rules, S: Side>(b: &Board, out: &mut Vec<Move>) {
    let empty = b.empty();
    let men = b.us & !b.kings;
    // A counted `extend` per direction: it reserves once and writes without a capacity test
    // per move.
    out.extend(man_steps::<S, 0>(men, empty));
    out.extend(man_steps::<S, 1>(men, empty));
    for king in BitIter(b.us & b.kings) {
        let from = Square::from_bit(king);
        for d in Dir::ALL {
            let mut to = d.step(king) & empty;
            while to != 0 {
                out.push(Move::quiet(from, Square::from_bit(to), false));
                if !R::FLYING_KINGS {
                    break;
                }
                to = d.step(to) & empty;
            }
        }
    }
}

/// The steps of `men` in the forward direction `I` onto `empty` squares, lowest first, as an
/// iterator of known length. Generic over the direction so that each `extend` gets its own copy,
/// which is then inlined.
#[inline(always)]
fn man_steps<S: Side, const I: usize>(
    men: Bitboard,
    empty: Bitboard,
) -> impl Iterator<Item = Move> {
    let d = S::FORWARD[I];
    let to = d.step(men) & empty;
    let keys = &MAN_STEP_KEYS[d.index()];
    let mut rest = to;
    (0..to.count_ones()).map(move |_| {
        // Bit 63 is off the board: with it set the count needs no case for an empty set.
        let at = (rest | 1 << 63).trailing_zeros();
        rest &= rest - 1;
        Move::quiet_from_key(keys[at as usize & 63])
    })
}

/// `MAN_STEP_KEYS[d.index()][at]`: the `Move::key` of a man's step in direction `d`
/// onto bit index `at` (0 where that is no step), crowning included: one load in place of two
/// square lookups and a test of the crowning row.
static MAN_STEP_KEYS: [[u16; 64]; 4] = [
    man_step_keys(Dir::ALL[0]),
    man_step_keys(Dir::ALL[1]),
    man_step_keys(Dir::ALL[2]),
    man_step_keys(Dir::ALL[3]),
];

const fn man_step_keys(d: Dir) -> [u16; 64] {
    let mut keys = [0; 64];
    let mut at = 0;
    while at < 64 {
        let to: Bitboard = 1 << at;
        let from = to.rotate_right(d as u32);
        if to & bitboard::BOARD != 0 && from & bitboard::BOARD != 0 {
            // A man moving up can only reach row 8, one moving down only row 1.
            let crowning = to & (bitboard::ROW_8 | bitboard::ROW_1) != 0;
            keys[at] = crate::moves::key(
                Square::from_bit_index(from.trailing_zeros() as u8),
                Square::from_bit_index(at as u8),
                crowning,
            );
        }
        at += 1;
    }
    keys
}

impl crate::variant::Variant {
    /// The legal moves of `pos` under this variant's rules, in a new vector.
    pub fn moves(self, pos: &Position, counting: Counting) -> Vec<Move> {
        let mut out = Vec::with_capacity(32);
        crate::with_rules!(self, R => generate::<R>(pos, &mut out, counting));
        out
    }

    /// The legal moves of `pos`, one per distinct effect.
    pub fn legal_moves(self, pos: &Position) -> Vec<Move> {
        self.moves(pos, Counting::Unique)
    }

    /// Whether the side to move must capture.
    pub fn has_capture(self, pos: &Position) -> bool {
        crate::with_rules!(self, R => has_capture::<R>(pos))
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(self, pos: &Position) -> bool {
        crate::with_rules!(self, R => has_legal_move::<R>(pos))
    }
}

#[cfg(test)]
mod tests {
    use super::count::tests::random_positions;
    use super::*;
    use crate::variant::{English, Russian, Variant};
    use std::cell::Cell;

    /// `opponent_has_capture` answers as `has_capture` of the same pieces with the other side to
    /// move, over the positions of random games.
    fn opponent_capture_agrees<R: Rules>(variant: Variant, seed: u64) {
        let (threats, positions) = (Cell::new(0), Cell::new(0));
        random_positions::<R>(variant.start_fen(), 200, seed, |pos| {
            let threat = opponent_has_capture::<R>(pos);
            let flipped = pos.with_side(pos.side().opponent());
            assert_eq!(threat, has_capture::<R>(&flipped), "{variant:?} {pos:?}");
            threats.set(threats.get() + threat as usize);
            positions.set(positions.get() + 1);
        });
        // Both answers occur, or the test would show nothing.
        let (threats, positions) = (threats.get(), positions.get());
        assert!(threats > 0 && threats < positions, "{threats}/{positions}");
    }

    #[test]
    fn opponent_capture_is_the_capture_of_the_other_side() {
        opponent_capture_agrees::<Russian>(Variant::Russian, 3);
        opponent_capture_agrees::<English>(Variant::English, 4);
    }

    /// `quiet_steps` counts the quiet moves of a position without a capture exactly where kings
    /// step, and never more than them where kings fly; so at most 1 wherever a side has one
    /// move, which is what the search's static pruning asks of it.
    fn quiet_steps_bound_the_moves<R: Rules>(variant: Variant, seed: u64) {
        let (checked, fewer) = (Cell::new(0), Cell::new(0));
        random_positions::<R>(variant.start_fen(), 200, seed, |pos| {
            if has_capture::<R>(pos) {
                return;
            }
            let steps = quiet_steps(pos) as u64;
            let moves = count_moves::<R>(pos, Counting::Unique);
            if R::FLYING_KINGS {
                assert!(steps <= moves, "{variant:?} {pos:?}: {steps} > {moves}");
                assert_eq!(steps == 0, moves == 0, "{variant:?} {pos:?}");
            } else {
                assert_eq!(steps, moves, "{variant:?} {pos:?}");
            }
            checked.set(checked.get() + 1);
            fewer.set(fewer.get() + (steps < moves) as usize);
        });
        assert!(checked.get() > 1000, "{}", checked.get());
        // Flying kings reach further than a step in some of these positions, or the bound
        // would not have been tested.
        assert_eq!(fewer.get() > 0, R::FLYING_KINGS, "{variant:?}");
    }

    #[test]
    fn quiet_steps_count_the_moves_but_a_flying_kings_further_squares() {
        quiet_steps_bound_the_moves::<Russian>(Variant::Russian, 5);
        quiet_steps_bound_the_moves::<English>(Variant::English, 6);
    }
}
