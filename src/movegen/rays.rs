//! Flying kings' rays: for each direction and bit index of the padded layout, the squares a king
//! on that bit would cross on an empty board. A king's first blocker in a direction is then the
//! lowest (down, towards higher bits) or highest (up, towards lower bits) piece on its ray, found
//! with one bit scan in place of a step-by-step flood.

use crate::bitboard::{self, Bitboard, Dir};

/// `RAYS[d.index()][at]`: the squares from bit `at` (exclusive) to the edge in direction `d`;
/// empty for bits off the board.
static RAYS: [[Bitboard; 64]; 4] = [
    rays(Dir::ALL[0]),
    rays(Dir::ALL[1]),
    rays(Dir::ALL[2]),
    rays(Dir::ALL[3]),
];

const fn rays(d: Dir) -> [Bitboard; 64] {
    let mut t = [0; 64];
    let mut at = 0;
    while at < 64 {
        let mut sq: Bitboard = 1 << at;
        if sq & bitboard::BOARD != 0 {
            let mut ray = 0;
            loop {
                sq = sq.rotate_left(d as u32) & bitboard::BOARD;
                if sq == 0 {
                    break;
                }
                ray |= sq;
            }
            t[at] = ray;
        }
        at += 1;
    }
    t
}

/// Whether `d` goes towards higher bits (down the board), where the nearest square of a ray is
/// its lowest.
#[inline(always)]
const fn is_down(d: Dir) -> bool {
    (d as u32) < 32
}

/// The ray from bit index `at` in direction `d`.
#[inline(always)]
pub(crate) fn ray(d: Dir, at: u32) -> Bitboard {
    RAYS[d.index()][at as usize & 63]
}

/// The square of `blockers` (squares of one ray in direction `d`) nearest to the ray's start,
/// 0 if there is none.
#[inline(always)]
pub(crate) fn first(d: Dir, blockers: Bitboard) -> Bitboard {
    if is_down(d) {
        blockers & blockers.wrapping_neg()
    } else {
        // The highest bit, found with a sentinel below bit 0 so that an empty set needs no
        // case of its own (the board's bits end at 34): the first blocker's bit shifted up
        // one, or 1 if there is none.
        let above = 1u64 << (63 - (blockers << 1 | 1).leading_zeros());
        above >> 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::BitIter;

    #[test]
    fn rays_match_steps() {
        for at in 0..64u32 {
            let bit: Bitboard = 1 << at;
            for d in Dir::ALL {
                let mut expected = 0;
                if bit & bitboard::BOARD != 0 {
                    let mut sq = d.shift(bit);
                    while sq != 0 {
                        expected |= sq;
                        sq = d.shift(sq);
                    }
                }
                assert_eq!(ray(d, at), expected, "bit {at} {d:?}");
            }
        }
    }

    #[test]
    fn first_follows_steps() {
        for at in 0..64u32 {
            let bit: Bitboard = 1 << at;
            if bit & bitboard::BOARD == 0 {
                continue;
            }
            for d in Dir::ALL {
                let r = ray(d, at);
                // Every subset of the ray as blockers.
                let squares: Vec<Bitboard> = BitIter(r).collect();
                for mask in 0..1u32 << squares.len() {
                    let blockers: Bitboard = squares
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| mask >> i & 1 != 0)
                        .map(|(_, &s)| s)
                        .fold(0, |a, s| a | s);
                    let mut first = 0;
                    let mut sq = d.shift(bit);
                    while sq != 0 {
                        if sq & blockers != 0 {
                            first = sq;
                            break;
                        }
                        sq = d.shift(sq);
                    }
                    assert_eq!(
                        super::first(d, blockers),
                        first,
                        "bit {at} {d:?} {blockers:#x}"
                    );
                }
            }
        }
    }
}
