//! The perfect index of one slice: a bijection between the positions of a material (White to
//! move, no man on its own crowning row) and `0..size`, by combinatorial ranking of the squares.
//!
//! Squares are numbered 0-31 here (PDN square minus one). White's men may stand on 4-31 (not on
//! row 8, squares 0-3, where they would be kings), Black's men on 0-27. The two ranges overlap in
//! 4-27, so how many squares are left for Black's men depends on how many of White's men stand
//! on 28-31, Black's crowning row, where no Black man can be. The index therefore splits White's
//! men into `k` men on 28-31 and `wm - k` on 4-27, and lays the groups `k = 0..=4` end to end:
//!
//! ```text
//! index = ((group[k] + w * C(28 - (wm - k), bm) + b) * C(f, wk) + x) * C(f - wk, bk) + y
//! ```
//!
//! where `w` ranks White's men within group `k`, `b` ranks Black's men among the squares 0-27 not
//! taken by White's men, `f = 32 - wm - bm` is the number of squares left for kings, and `x`, `y`
//! rank White's and Black's kings among the squares still free. Each rank is the colex rank
//! `sum C(p_i, i + 1)` of the pieces' places `p_0 < p_1 < ...` among the squares open to them.

use super::material::Material;
use crate::bitboard::{dense, padded, Color};
use crate::position::Position;

/// `BINOM[n][k]` = C(n, k) for n <= 32, k <= 12 (the most pieces of one kind).
static BINOM: [[u64; 13]; 33] = binomials();

const fn binomials() -> [[u64; 13]; 33] {
    let mut t = [[0u64; 13]; 33];
    let mut n = 0;
    while n <= 32 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= 12 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
}

/// C(n, k), zero when k > n.
#[inline(always)]
pub fn binom(n: u32, k: u32) -> u64 {
    BINOM[n as usize][k as usize]
}

/// White's men's squares: not row 8.
const WHITE_MEN: u32 = 0xffff_fff0;
/// Black's men's squares: not row 1.
const BLACK_MEN: u32 = 0x0fff_ffff;

/// The colex rank of the set `s` among the squares of `open` (`s` a subset of `open`).
#[inline(always)]
fn rank(s: u32, open: u32) -> u64 {
    let mut r = 0;
    let mut i = 1;
    let mut rest = s;
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        rest ^= bit;
        r += binom((open & (bit - 1)).count_ones(), i);
        i += 1;
    }
    r
}

/// The set of `n` squares of `open` whose colex rank is `r`: the inverse of `rank`.
#[inline]
fn unrank(mut r: u64, n: u32, open: u32) -> u32 {
    // The places p_n > ... > p_1 among the squares of `open`, largest first: p_i is the largest
    // p with C(p, i) <= r. Each place is below the one before, so one downward scan finds them
    // all (at most 32 steps for all the pieces, not up to 32 per piece).
    let mut places = 0u32;
    let mut p = open.count_ones();
    for i in (2..=n).rev() {
        p -= 1;
        while binom(p, i) > r {
            p -= 1;
        }
        r -= binom(p, i);
        places |= 1 << p;
    }
    if n > 0 {
        // C(p, 1) = p: the last place is what is left of the rank.
        places |= 1 << r;
    }
    deposit(places, open)
}

/// The squares of `open` at the `places` (bit p set: the p-th square of `open`, from 0).
#[inline(always)]
fn deposit(places: u32, open: u32) -> u32 {
    let mut out = 0;
    let mut left = open;
    let mut rest = places;
    while rest != 0 {
        let bit = left & left.wrapping_neg();
        left ^= bit;
        // Without a branch: whether a place is taken is as good as random, so a branch here
        // would mispredict about half the time.
        out |= bit & (rest & 1).wrapping_neg();
        rest >>= 1;
    }
    out
}

/// The index of one material's slice.
#[derive(Clone, Debug)]
pub struct Indexer {
    m: Material,
    /// `group[k]`: the first index (before the kings' factor) of the group with `k` White men on
    /// 28-31; `group[5]` is the number of men's placements.
    group: [u64; 6],
    /// Placements of White's kings times Black's kings: the same for every men's placement.
    kings: u64,
    bk_ways: u64,
    size: u64,
}

impl Indexer {
    /// The index of `m`'s slice.
    pub fn new(m: Material) -> Indexer {
        let (wm, bm) = (m.wm as u32, m.bm as u32);
        let mut group = [0u64; 6];
        for k in 0..5u32 {
            let ways = if k <= wm && wm - k <= 24 {
                binom(4, k) * binom(24, wm - k) * binom(28 - (wm - k), bm)
            } else {
                0
            };
            group[k as usize + 1] = group[k as usize] + ways;
        }
        let f = 32 - wm - bm;
        let bk_ways = binom(f - m.wk as u32, m.bk as u32);
        let kings = binom(f, m.wk as u32) * bk_ways;
        Indexer {
            m,
            group,
            kings,
            bk_ways,
            size: group[5] * kings,
        }
    }

    /// The material indexed.
    pub fn material(&self) -> Material {
        self.m
    }

    /// The number of positions of the slice.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The index of `pos`, which has this material, White to move and no man on its crowning
    /// row.
    #[inline]
    pub fn index(&self, pos: &Position) -> u64 {
        debug_assert_eq!(Material::of(pos), self.m);
        debug_assert_eq!(pos.side(), Color::White);
        let kings = dense(pos.kings());
        let white = dense(pos.pieces(Color::White));
        let black = dense(pos.pieces(Color::Black));
        let (wmen, bmen) = (white & !kings, black & !kings);
        let (wkings, bkings) = (white & kings, black & kings);
        let (wm, bm) = (self.m.wm as u32, self.m.bm as u32);
        let far = wmen >> 28;
        let k = far.count_ones();
        let near = wmen & 0x0fff_fff0;
        let w = rank(far, 0xf) * binom(24, wm - k) + rank(near, 0x0fff_fff0);
        let b = rank(bmen, BLACK_MEN & !wmen);
        let free = !(wmen | bmen);
        let x = rank(wkings, free);
        let y = rank(bkings, free & !wkings);
        let men = self.group[k as usize] + w * binom(28 - (wm - k), bm) + b;
        (men * (self.kings / self.bk_ways) + x) * self.bk_ways + y
    }

    /// The position (White to move) of index `idx < size`: the inverse of `index`.
    pub fn position(&self, idx: u64) -> Position {
        debug_assert!(idx < self.size);
        let (wm, bm) = (self.m.wm as u32, self.m.bm as u32);
        let y = idx % self.bk_ways;
        let rest = idx / self.bk_ways;
        let wk_ways = self.kings / self.bk_ways;
        let x = rest % wk_ways;
        let men = rest / wk_ways;
        let k = (0..5).rfind(|&k| self.group[k] <= men).unwrap_or(0) as u32;
        let in_group = men - self.group[k as usize];
        let b_ways = binom(28 - (wm - k), bm);
        let (w, b) = (in_group / b_ways, in_group % b_ways);
        let near_ways = binom(24, wm - k);
        let far = unrank(w / near_ways, k, 0xf) << 28;
        let near = unrank(w % near_ways, wm - k, 0x0fff_fff0);
        let wmen = far | near;
        let bmen = unrank(b, bm, BLACK_MEN & !wmen);
        let free = !(wmen | bmen);
        let wkings = unrank(x, self.m.wk as u32, free);
        let bkings = unrank(y, self.m.bk as u32, free & !wkings);
        Position::from_parts(
            padded(wmen | wkings),
            padded(bmen | bkings),
            padded(wkings | bkings),
            Color::White,
        )
    }
}

/// Whether `pos` has a man on its own crowning row, which no database position has.
pub fn man_on_crowning_row(pos: &Position) -> bool {
    dense(pos.men(Color::White)) & !WHITE_MEN != 0 || dense(pos.men(Color::Black)) & !BLACK_MEN != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egtb::material;

    /// Every index of every slice of up to 3 pieces, and a stride through the 4-piece ones, maps
    /// to a legal placement that maps back to it; with distinct indices that is a bijection onto
    /// `0..size`, and the size is counted by brute force below for the 2-piece slices.
    #[test]
    fn index_and_position_are_inverse() {
        for m in material::all(4) {
            let ix = Indexer::new(m);
            let step = if m.pieces() <= 3 { 1 } else { 997 };
            for idx in (0..ix.size()).step_by(step) {
                let pos = ix.position(idx);
                assert_eq!(Material::of(&pos), m, "{m} {idx}");
                assert!(!man_on_crowning_row(&pos), "{m} {idx}");
                assert_eq!(ix.index(&pos), idx, "{m}");
            }
        }
    }

    /// The sizes of the 2-piece slices by enumerating squares directly.
    #[test]
    fn two_piece_sizes_by_enumeration() {
        for m in material::all(2) {
            let mut n = 0;
            for a in 0..32u32 {
                for b in 0..32u32 {
                    let white_ok = if m.wm == 1 { a >= 4 } else { true };
                    let black_ok = if m.bm == 1 { b < 28 } else { true };
                    n += (a != b && white_ok && black_ok) as u64;
                }
            }
            assert_eq!(Indexer::new(m).size(), n, "{m}");
        }
    }

    /// The published numbers of 8x8 checkers board configurations with 1 to 6 pieces (Schaeffer
    /// et al., "Checkers is solved", Science 2007, table 1): any placement of
    /// white and black men and kings, no man on its own crowning row, no side to move, positions
    /// where only one side has pieces included.
    const PUBLISHED: [u64; 6] = [120, 6972, 261_224, 7_092_774, 148_688_232, 2_503_611_964];

    /// One colour's placements of exactly `n` pieces (men not on row 8, kings anywhere), counted
    /// square by square with a polynomial in the number of pieces placed, so as to share nothing
    /// with the binomial ranking above. A one-sided configuration is one of these for White or,
    /// by the mirror, the same number for Black.
    fn one_sided(n: usize) -> u64 {
        let mut ways = vec![0u64; n + 1];
        ways[0] = 1;
        for square in 0..32 {
            let choices_per_piece = if square < 4 { 1 } else { 2 }; // king, or man or king
            for j in (1..=n).rev() {
                ways[j] += choices_per_piece * ways[j - 1];
            }
        }
        ways[n]
    }

    /// The arithmetic of the counts: for n pieces, the sizes of all our slices with n pieces
    /// (both sides present, White to move; each also stands for the mirrored slice with Black to
    /// move, so the database holds twice this many positions) plus the one-sided placements
    /// (White only, and as many Black only) make the published count. Men on their crowning row
    /// need no term: the published counts leave them out as well (1 piece: 4 kinds x 32 squares
    /// = 128, less a White man on 1-4 and a Black man on 29-32, is 120).
    #[test]
    fn slice_sizes_add_up_to_the_published_counts() {
        for n in 1..=6u32 {
            let ours: u64 = material::all(n)
                .into_iter()
                .filter(|m| m.pieces() == n)
                .map(|m| Indexer::new(m).size())
                .sum();
            let one_sided = 2 * one_sided(n as usize);
            // Printed with --nocapture: the table of docs/EGTB.md.
            println!("{n} pieces: {ours} + {one_sided} = {}", ours + one_sided);
            assert_eq!(ours + one_sided, PUBLISHED[n as usize - 1], "{n} pieces");
        }
    }
}
