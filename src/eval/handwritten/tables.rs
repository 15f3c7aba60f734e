//! The evaluation's lookup tables: square sets seen from each side, and the weights of
//! `weights.rs` laid out by bit and by group of squares at compile time, so that a term is a
//! few loads in the search. What changes here is the layout, never a value: the by-term
//! breakdown computes the same terms square by square, and the tests check they agree.

use super::weights::{Weights, WEIGHTS};
use crate::bitboard::{self, square_set, Bitboard, Square, BOARD};

pub(super) const CENTRE: Bitboard = square_set(&[14, 15, 18, 19]);
pub(super) const EDGES: Bitboard = square_set(&[5, 13, 21, 29, 4, 12, 20, 28]);
pub(super) const DOUBLE_CORNERS: Bitboard = square_set(&[1, 5, 28, 32]);
/// Files a-d: the first two squares of every row.
pub(super) const LEFT_WING: Bitboard =
    square_set(&[1, 2, 5, 6, 9, 10, 13, 14, 17, 18, 21, 22, 25, 26, 29, 30]);
const BACK_RANK: [Bitboard; 4] = [
    square_set(&[29]),
    square_set(&[30]),
    square_set(&[31]),
    square_set(&[32]),
];

/// The squares of a row counted from the top (row 0 = rank 8).
const fn row_mask(row: u8) -> Bitboard {
    square_set(&[4 * row + 1, 4 * row + 2, 4 * row + 3, 4 * row + 4])
}
const ROWS: [Bitboard; 8] = [
    row_mask(0),
    row_mask(1),
    row_mask(2),
    row_mask(3),
    row_mask(4),
    row_mask(5),
    row_mask(6),
    row_mask(7),
];

/// Squares by rank counted from each side's own back rank: `OWN_RANK[color][0]` is that side's
/// back rank. Black's are White's turned round, so no board needs flipping during evaluation.
pub(super) const OWN_RANK: [[Bitboard; 8]; 2] = [
    [
        ROWS[7], ROWS[6], ROWS[5], ROWS[4], ROWS[3], ROWS[2], ROWS[1], ROWS[0],
    ],
    ROWS,
];

/// Each side's back-rank squares in the order of `Weights::back_guard` (a1, c1, e1, g1 seen from
/// that side).
const BACK_RANK_OF: [[Bitboard; 4]; 2] = [
    BACK_RANK,
    [
        square_set(&[4]),
        square_set(&[3]),
        square_set(&[2]),
        square_set(&[1]),
    ],
];

/// Where each side's back rank starts in a bitboard: a row is four adjacent bits, so the four
/// back-rank squares read as one 4-bit pattern.
const BACK_RANK_SHIFT: [u32; 2] = [
    OWN_RANK[0][0].trailing_zeros(),
    OWN_RANK[1][0].trailing_zeros(),
];
const _: () = assert!(
    OWN_RANK[0][0] >> BACK_RANK_SHIFT[0] == 15 && OWN_RANK[1][0] >> BACK_RANK_SHIFT[1] == 15,
    "a back rank is not four adjacent bits"
);

/// The back-guard term of the men on the back rank whose 4-bit pattern (see `BACK_RANK_SHIFT`)
/// is the index; folded into `GUARDED`.
const fn guard_table(w: &Weights, color: usize) -> [i32; 16] {
    let mut t = [0; 16];
    let mut p = 0;
    while p < 16 {
        let men = (p as Bitboard) << BACK_RANK_SHIFT[color];
        let mut k = 0;
        while k < 4 {
            if men & BACK_RANK_OF[color][k] != 0 {
                t[p] += w.back_guard[k];
            }
            k += 1;
        }
        p += 1;
    }
    t
}

/// The forward cone of a man of `color` on bit `bit`: every square it could walk to, and its own.
const fn cone(color: usize, bit: u32) -> Bitboard {
    let mut cone = 1u64 << bit;
    let mut front = cone;
    while front != 0 {
        front = if color == 0 {
            ((front >> 5) | (front >> 4)) & BOARD
        } else {
            ((front << 5) | (front << 4)) & BOARD
        };
        cone |= front;
    }
    cone
}

const fn cones() -> [[Bitboard; 64]; 2] {
    let mut t = [[0; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut b = 0;
        while b < 35 {
            if BOARD & (1u64 << b) != 0 {
                t[c][b as usize] = cone(c, b);
            }
            b += 1;
        }
        c += 1;
    }
    t
}

/// A weight per square as four tables, one per group of eight squares: in the padded layout
/// bits `9g..9g+8` are two rows of the board (bit `9g+8` is a ghost or off the board), so the
/// sum of the weights of a set is four loads, `table[g][(set >> 9g) & 255]`, fewer instructions
/// than a count per bit of the weights.
pub(super) struct SquareTable(pub(super) [[i32; 256]; 4]);

impl SquareTable {
    /// The tables of `weight` (indexed by bit; only the board's bits are read).
    const fn new(weight: &[i32; 64]) -> SquareTable {
        let mut t = [[0; 256]; 4];
        let mut g = 0;
        while g < 4 {
            t[g] = group_table(weight, g);
            g += 1;
        }
        SquareTable(t)
    }

    /// The sum of the weights of the squares of `set` in group `g`.
    #[inline(always)]
    pub(super) fn group(&self, g: usize, set: Bitboard) -> i32 {
        self.0[g][group_index(g, set)]
    }

    /// The sum of the weights of the squares in `set` (the search sums with the guard folded in).
    #[cfg(test)]
    #[inline(always)]
    pub(super) fn sum(&self, set: Bitboard) -> i32 {
        self.group(0, set) + self.group(1, set) + self.group(2, set) + self.group(3, set)
    }
}

/// The index of `set`'s squares in group `g` of a `SquareTable`.
#[inline(always)]
pub(super) const fn group_index(g: usize, set: Bitboard) -> usize {
    (set >> (9 * g)) as usize & 255
}

/// The sums of `weight` over the 256 subsets of group `g`'s squares.
const fn group_table(weight: &[i32; 64], g: usize) -> [i32; 256] {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 256 {
        let set = (i as Bitboard) << (9 * g) & BOARD;
        let mut b = 0;
        while b < 64 {
            if set & (1u64 << b) != 0 {
                t[i] += weight[b];
            }
            b += 1;
        }
        i += 1;
    }
    t
}

/// The index into `Weights::man_square` (row * 4 + k) of a man of colour index `color` on the
/// 0-based square `sq`: White's own, Black's turned round.
const fn own_square(color: usize, sq: usize) -> usize {
    if color == 0 {
        sq
    } else {
        31 - sq
    }
}

/// The weight of a man of colour index `color` by bit: the `man_square` table laid out on the
/// padded board, for the search's tables by group.
const fn man_square_weights(w: &Weights, color: usize) -> [i32; 64] {
    let mut t = [0; 64];
    let mut sq = 0;
    while sq < 32 {
        let i = own_square(color, sq);
        t[Square::from_index(sq as u8).bit_index() as usize] = w.man_square[i / 4][i % 4];
        sq += 1;
    }
    t
}

/// `MAN_SQUARES[variant][color]`: `man_square_weights` as tables by group.
pub(super) static MAN_SQUARES: [[SquareTable; 2]; 2] = [
    [
        SquareTable::new(&man_square_weights(&WEIGHTS[0], 0)),
        SquareTable::new(&man_square_weights(&WEIGHTS[0], 1)),
    ],
    [
        SquareTable::new(&man_square_weights(&WEIGHTS[1], 0)),
        SquareTable::new(&man_square_weights(&WEIGHTS[1], 1)),
    ],
];

/// The group of a `SquareTable` that holds each side's back rank.
pub(super) const BACK_GROUP: [usize; 2] = [3, 0];
const _: () = assert!(
    OWN_RANK[0][0] >> (9 * BACK_GROUP[0]) < 256 && OWN_RANK[1][0] >> (9 * BACK_GROUP[1]) < 256,
    "a back rank is not in its group"
);

/// `GUARDED[variant][color]`: the back group's table of `MAN_SQUARES` with the back-guard term
/// added, for when the opponent has men: one load serves both terms.
const fn guarded_table(w: &Weights, color: usize) -> [i32; 256] {
    let g = BACK_GROUP[color];
    let mut t = group_table(&man_square_weights(w, color), g);
    let guard = guard_table(w, color);
    let mut i = 0;
    while i < 256 {
        let men = (i as Bitboard) << (9 * g) & BOARD;
        t[i] += guard[(men >> BACK_RANK_SHIFT[color]) as usize & 15];
        i += 1;
    }
    t
}

pub(super) static GUARDED: [[[i32; 256]; 2]; 2] = [
    [guarded_table(&WEIGHTS[0], 0), guarded_table(&WEIGHTS[0], 1)],
    [guarded_table(&WEIGHTS[1], 0), guarded_table(&WEIGHTS[1], 1)],
];

/// The man-square term of `men` of colour index `c`, square by square (for the breakdown by
/// term; the search reads it from `MAN_SQUARES`).
pub(super) fn man_squares(w: &Weights, c: usize, men: Bitboard) -> i32 {
    bitboard::squares(men)
        .map(|sq| {
            let i = own_square(c, sq.index());
            w.man_square[i / 4][i % 4]
        })
        .sum()
}

/// The back-guard term of `men` of colour index `c`, square by square.
pub(super) fn back_guard(w: &Weights, c: usize, men: Bitboard) -> i32 {
    BACK_RANK_OF[c]
        .iter()
        .zip(&w.back_guard)
        .filter(|(sq, _)| men & **sq != 0)
        .map(|(_, &weight)| weight)
        .sum()
}

/// `CONES[color][bit]`: the forward cone of a man, for the runaway test.
pub(super) static CONES: [[Bitboard; 64]; 2] = cones();

/// The worth of a runaway man of colour index `color` by bit, on the three ranks before the
/// crowning rank: `runaway` less `runaway_per_rank` per rank still to go.
const fn runaway_weights(w: &Weights, color: usize) -> [i32; 64] {
    let mut t = [0; 64];
    let mut to_go = 1;
    while to_go <= 3 {
        let mut b = 0;
        while b < 64 {
            if OWN_RANK[color][7 - to_go] & (1u64 << b) != 0 {
                t[b] = w.runaway - w.runaway_per_rank * to_go as i32;
            }
            b += 1;
        }
        to_go += 1;
    }
    t
}

/// `RUNAWAY[variant][color]`: `runaway_weights`, one load instead of a rank test per man.
pub(super) static RUNAWAY: [[[i32; 64]; 2]; 2] = [
    [
        runaway_weights(&WEIGHTS[0], 0),
        runaway_weights(&WEIGHTS[0], 1),
    ],
    [
        runaway_weights(&WEIGHTS[1], 0),
        runaway_weights(&WEIGHTS[1], 1),
    ],
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_tables_sum_like_the_weights() {
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        for _ in 0..5000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let men = (seed ^ seed >> 29) & BOARD;
            for (v, w) in WEIGHTS.iter().enumerate() {
                for c in 0..2 {
                    let table = &MAN_SQUARES[v][c];
                    assert_eq!(table.sum(men), man_squares(w, c, men));
                    let bg = BACK_GROUP[c];
                    assert_eq!(
                        GUARDED[v][c][group_index(bg, men)] - table.group(bg, men),
                        back_guard(w, c, men)
                    );
                }
            }
        }
    }
}
