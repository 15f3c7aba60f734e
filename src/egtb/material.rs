//! `Material`: what is on the board in one database slice (White's men and kings, Black's men
//! and kings), and the order in which slices are built.
//!
//! Every stored position has White to move. A position with Black to move is looked up as its
//! mirror (colours swapped, board turned round, `Position::mirrored`), which the rules treat
//! alike: so the slice "material M, Black to move" is the stored slice of `M.swapped()`. A quiet
//! move that neither captures nor crowns leads from slice M (White to move) to M with Black to
//! move, which is stored as `M.swapped()`: the two slices depend on each other and are solved
//! together as one *pair* (one slice when M is its own mirror).

use crate::bitboard::Color;
use crate::position::Position;
use std::fmt;

/// The most pieces of one kind: a side starts with 12.
pub const MAX_OF_A_KIND: u8 = 12;

/// The pieces on the board: White's men and kings, Black's men and kings. White is the side that
/// starts on squares 21-32 in both variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// White's men.
    pub wm: u8,
    /// White's kings.
    pub wk: u8,
    /// Black's men.
    pub bm: u8,
    /// Black's kings.
    pub bk: u8,
}

impl Material {
    /// A material from its four counts.
    pub const fn new(wm: u8, wk: u8, bm: u8, bk: u8) -> Material {
        Material { wm, wk, bm, bk }
    }

    /// The material of a position, whoever is to move.
    pub fn of(pos: &Position) -> Material {
        let n = |b: u64| b.count_ones() as u8;
        Material {
            wm: n(pos.men(Color::White)),
            wk: n(pos.kings_of(Color::White)),
            bm: n(pos.men(Color::Black)),
            bk: n(pos.kings_of(Color::Black)),
        }
    }

    /// The material with the colours swapped: the stored slice of this material with Black to
    /// move.
    pub const fn swapped(self) -> Material {
        Material::new(self.bm, self.bk, self.wm, self.wk)
    }

    /// The number of pieces on the board.
    pub const fn pieces(self) -> u32 {
        (self.wm + self.wk + self.bm + self.bk) as u32
    }

    /// The number of men of both sides; crowning lowers it by one.
    pub const fn men(self) -> u32 {
        (self.wm + self.bm) as u32
    }

    /// Whether both sides have a piece: a side without one has lost, and such positions are not
    /// stored.
    pub const fn both_sides(self) -> bool {
        self.wm + self.wk > 0 && self.bm + self.bk > 0
    }

    /// A dense code for tables kept per material (each count is at most 12).
    pub const fn code(self) -> usize {
        let b = MAX_OF_A_KIND as usize + 1;
        ((self.wm as usize * b + self.wk as usize) * b + self.bm as usize) * b + self.bk as usize
    }

    /// The number of `code` values.
    pub const CODES: usize = (MAX_OF_A_KIND as usize + 1).pow(4);

    /// The file name of this material's slice (White to move), e.g. `w0102b0001.cheg`.
    pub fn file_name(self) -> String {
        format!(
            "w{:02}{:02}b{:02}{:02}.cheg",
            self.wm, self.wk, self.bm, self.bk
        )
    }
}

/// Text that is not a material `wm,wk,bm,bk` (four counts, at most 12 pieces and 8 men a side).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaterialError(pub String);

impl fmt::Display for MaterialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad material '{}' (expected wm,wk,bm,bk, e.g. 0,3,0,2)",
            self.0
        )
    }
}

impl std::error::Error for MaterialError {}

impl std::str::FromStr for Material {
    type Err = MaterialError;

    /// `wm,wk,bm,bk`, e.g. `0,3,0,2` (White three kings, Black two kings).
    fn from_str(text: &str) -> Result<Material, MaterialError> {
        let bad = || MaterialError(text.to_string());
        let n: Vec<u8> = text
            .split(',')
            .map(|p| p.trim().parse::<u8>().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        // Saturating: counts near 255 must be refused, not overflow.
        let fits = |men: u8, kings: u8| men <= 8 && men.saturating_add(kings) <= MAX_OF_A_KIND;
        match n[..] {
            [wm, wk, bm, bk] if fits(wm, wk) && fits(bm, bk) => Ok(Material::new(wm, wk, bm, bk)),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "wm={} wk={} bm={} bk={}",
            self.wm, self.wk, self.bm, self.bk
        )
    }
}

/// Every material with both sides present and 2 to `max_pieces` pieces, ordered by piece count,
/// then by (wm, wk, bm, bk).
pub fn all(max_pieces: u32) -> Vec<Material> {
    let mut out = Vec::new();
    for n in 2..=max_pieces {
        for_each_of(n, |m| out.push(m));
    }
    out
}

/// Calls `f` with every material of exactly `n` pieces with both sides present, in (wm, wk, bm,
/// bk) order.
fn for_each_of(n: u32, mut f: impl FnMut(Material)) {
    let n = n as u8;
    for wm in 0..=n.min(MAX_OF_A_KIND) {
        for wk in 0..=(n - wm).min(MAX_OF_A_KIND - wm) {
            for bm in 0..=(n - wm - wk).min(MAX_OF_A_KIND) {
                let bk = n - wm - wk - bm;
                let m = Material::new(wm, wk, bm, bk);
                if m.both_sides() && bm + bk <= MAX_OF_A_KIND {
                    f(m);
                }
            }
        }
    }
}

/// The pairs of slices to solve for databases of up to `max_pieces` pieces, in an order where
/// every pair comes after all the pairs it needs. A capture lowers the piece count and a crowning
/// lowers the number of men with the piece count unchanged, so ordering by (pieces, men) is a
/// dependency order; within one (pieces, men) class the pairs do not depend on each other (a quiet
/// move that does not crown keeps the material, up to the mirror). Each pair lists its material
/// and, if different, its mirror.
pub fn build_order(max_pieces: u32) -> Vec<Vec<Material>> {
    let mut pairs: Vec<Vec<Material>> = Vec::new();
    for n in 2..=max_pieces {
        let mut of_n = Vec::new();
        for_each_of(n, |m| {
            if m <= m.swapped() {
                of_n.push(m);
            }
        });
        of_n.sort_by_key(|m| (m.men(), *m));
        pairs.extend(of_n.into_iter().map(|m| {
            if m == m.swapped() {
                vec![m]
            } else {
                vec![m, m.swapped()]
            }
        }));
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_reads_back_and_bad_text_is_refused_by_name() {
        assert_eq!("0,3,0,2".parse(), Ok(Material::new(0, 3, 0, 2)));
        assert_eq!(" 8, 4 ,8,4".parse(), Ok(Material::new(8, 4, 8, 4)));
        for bad in [
            "9,0,0,1",
            "0,13,0,1",
            "8,5,0,1",
            "200,200,0,1",
            "1,1,1",
            "1,1,1,1,1",
            "",
        ] {
            let err = bad.parse::<Material>().unwrap_err();
            assert_eq!(err, MaterialError(bad.to_string()));
            assert!(err.to_string().contains(&format!("'{bad}'")), "{err}");
        }
    }

    #[test]
    fn pairs_cover_every_material_once_after_their_dependencies() {
        let order = build_order(5);
        let flat: Vec<Material> = order.iter().flatten().copied().collect();
        let mut sorted = flat.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), flat.len(), "a material twice");
        let mut every = all(5);
        every.sort();
        assert_eq!(sorted, every);
        // A crowning or a capture of either side leads to a pair built earlier.
        let pair = |m: Material| order.iter().position(|p| p.contains(&m)).unwrap();
        for &m in &flat {
            let crowned = [
                (m.wm > 0).then(|| Material::new(m.wm - 1, m.wk + 1, m.bm, m.bk)),
                (m.bm > 0).then(|| Material::new(m.wm, m.wk, m.bm - 1, m.bk + 1)),
            ];
            for c in crowned.into_iter().flatten() {
                assert!(pair(c) < pair(m), "{c} after {m}");
            }
            for fewer in all(m.pieces() - 1) {
                assert!(pair(fewer) < pair(m), "{fewer} after {m}");
            }
        }
        // 2 pieces: K-K, M-K, K-M, M-M up to the mirror: 4 materials, 3 pairs.
        assert_eq!(all(2).len(), 4);
        assert_eq!(build_order(2).len(), 3);
    }
}
