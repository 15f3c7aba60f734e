//! `Move`: one whole turn. A move is its start and end squares, the set of captured pieces, the
//! landing squares of its jump path (notation needs them, and for a Russian king they say where it
//! stopped between captures) and whether the moving man is crowned.

use crate::bitboard::{self, Bitboard, Square};

/// The most jumps one move can make: a side has at most 12 pieces to capture.
pub const MAX_JUMPS: usize = 12;

/// A legal move. Two moves with the same start, end, captured set and crowning lead to the same
/// position; `same_effect` compares that, `==` also compares the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    captured: Bitboard,
    /// Landing squares before the last one, five bits each, first jump in the lowest bits.
    path: u64,
    /// `crowning << 10 | from << 5 | to` (square indices): the start, end and crowning in one
    /// word, which is also the move ordering's table index for a quiet move (see `key`).
    key: u16,
}

/// `Move::key` of a move from `from` to `to`, crowning if `promotion`.
#[inline(always)]
pub(crate) const fn key(from: Square, to: Square, promotion: bool) -> u16 {
    (promotion as u16) << 10 | (from.index() as u16) << 5 | to.index() as u16
}

/// The start and end squares of a `key` (its crowning bit, if any, is ignored): the inverse of
/// `key` for the squares, also for the squares kept apart from a move (a table's move code).
#[inline(always)]
pub(crate) const fn key_squares(key: u16) -> (Square, Square) {
    (
        Square::from_index((key >> 5 & 31) as u8),
        Square::from_index((key & 31) as u8),
    )
}

impl Move {
    /// A move without capture.
    #[inline(always)]
    pub fn quiet(from: Square, to: Square, promotion: bool) -> Move {
        Move {
            captured: 0,
            path: 0,
            key: key(from, to, promotion),
        }
    }

    /// The quiet move whose `key` is `key`.
    #[inline(always)]
    pub(crate) fn quiet_from_key(key: u16) -> Move {
        debug_assert!(key < 2048 && key >> 5 & 31 != key & 31);
        Move {
            captured: 0,
            path: 0,
            key,
        }
    }

    /// A capture along `landings` (every landing square, the last is the end square), taking the
    /// pieces in `captured`, one per jump.
    #[inline]
    pub fn capture(from: Square, landings: &[Square], captured: Bitboard, promotion: bool) -> Move {
        debug_assert!(!landings.is_empty() && landings.len() <= MAX_JUMPS);
        debug_assert_eq!(landings.len() as u32, bitboard::count(captured));
        let mut path = 0u64;
        for (i, sq) in landings[..landings.len() - 1].iter().enumerate() {
            path |= (sq.index() as u64) << (5 * i);
        }
        Move {
            captured,
            path,
            key: key(from, landings[landings.len() - 1], promotion),
        }
    }

    /// A capture from `from` to `to` taking `captured`, without its landing squares: enough
    /// to play it and to compare effects, not to write it out (`landings` gives only `to`).
    #[inline(always)]
    pub(crate) fn capture_to(
        from: Square,
        to: Square,
        captured: Bitboard,
        promotion: bool,
    ) -> Move {
        debug_assert!(captured != 0);
        Move {
            captured,
            path: 0,
            key: key(from, to, promotion),
        }
    }

    /// Where the moving piece starts.
    #[inline(always)]
    pub fn from(&self) -> Square {
        key_squares(self.key).0
    }

    /// Where the moving piece ends.
    #[inline(always)]
    pub fn to(&self) -> Square {
        key_squares(self.key).1
    }

    /// The captured pieces.
    #[inline(always)]
    pub fn captured(&self) -> Bitboard {
        self.captured
    }

    /// Whether the move captures.
    #[inline(always)]
    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// The number of pieces captured.
    #[inline(always)]
    pub fn capture_count(&self) -> u32 {
        bitboard::count(self.captured)
    }

    /// Whether a man is crowned by this move.
    #[inline(always)]
    pub fn is_promotion(&self) -> bool {
        self.key >> 10 != 0
    }

    /// `crowning << 10 | from << 5 | to`, below 2048: the move ordering's table index for a
    /// quiet move.
    #[inline(always)]
    pub(crate) fn key(&self) -> u16 {
        self.key
    }

    /// Every landing square of the jump path in order, ending with `to`; for a quiet move, `to`.
    pub fn landings(&self) -> Vec<Square> {
        let jumps = self.capture_count().max(1) as usize;
        let mut v = Vec::with_capacity(jumps);
        for i in 0..jumps - 1 {
            v.push(Square::from_index(((self.path >> (5 * i)) & 31) as u8));
        }
        v.push(self.to());
        v
    }

    /// Whether two moves lead to the same position (same start, end, captures and crowning),
    /// whatever their paths.
    #[inline(always)]
    pub fn same_effect(&self, other: &Move) -> bool {
        self.key == other.key && self.captured == other.captured
    }
}

/// Removes moves that have the same effect as an earlier one, keeping the first path of each.
/// Lists are short, so a quadratic pass beats hashing.
pub(crate) fn dedup_same_effect(moves: &mut Vec<Move>) {
    dedup_same_effect_from(moves, 0);
}

/// `dedup_same_effect` on the moves from index `start` on, leaving the earlier ones alone: the
/// generator dedups each piece's sequences apart, since moves of different pieces always differ.
pub(crate) fn dedup_same_effect_from(moves: &mut Vec<Move>, start: usize) {
    let mut kept = start;
    for i in start..moves.len() {
        let m = moves[i];
        if !moves[start..kept].iter().any(|k| k.same_effect(&m)) {
            moves[kept] = m;
            kept += 1;
        }
    }
    moves.truncate(kept);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: u32) -> Square {
        Square::from_number(n).unwrap()
    }

    #[test]
    fn path_round_trips() {
        let landings = [sq(15), sq(6), sq(13), sq(22)];
        let captured = bitboard::square_set(&[18, 10, 9, 17]);
        let m = Move::capture(sq(22), &landings, captured, false);
        assert_eq!(m.landings(), landings.to_vec());
        assert_eq!(m.from(), sq(22));
        assert_eq!(m.to(), sq(22));
        assert_eq!(m.capture_count(), 4);
    }

    #[test]
    fn dedup_keeps_one_path_per_effect() {
        let c = bitboard::square_set(&[18, 10]);
        let a = Move::capture(sq(22), &[sq(15), sq(6)], c, false);
        let b = Move::capture(sq(22), &[sq(13), sq(6)], c, false);
        let other = Move::quiet(sq(22), sq(17), false);
        let mut v = vec![a, b, other];
        dedup_same_effect(&mut v);
        assert_eq!(v, vec![a, other]);
    }
}
