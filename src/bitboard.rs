//! The board's vocabulary: `Bitboard` (the 32 dark squares in a padded 35-bit layout), `Square`,
//! `Color` and the four diagonal directions.
//!
//! Square `s` (0-based, numeric square `s + 1` in the PDN frame of docs/RULES.md, square 1 = b8
//! at the top left, seen from White) lives at bit `s + s / 8`. Bits 8, 17 and 26 are "ghost" bits that are
//! never set: with them in place every diagonal step is the same shift everywhere on the board
//! (up-left `>> 5`, up-right `>> 4`, down-left `<< 4`, down-right `<< 5`), and a step off the left
//! or right edge lands on a ghost bit or outside the 35 board bits, which the `BOARD` mask removes.

use std::fmt;

/// A set of squares in the padded layout described in the module documentation.
pub type Bitboard = u64;

/// Every real square of the board.
// Grouped by rows of eight squares, with the ghost bits between them as lone zeros.
#[allow(clippy::unusual_byte_groupings)]
pub const BOARD: Bitboard = 0b1111_1111_0_1111_1111_0_1111_1111_0_1111_1111;

/// Squares 1-4 (rank 8): where White's men are crowned.
pub const ROW_8: Bitboard = 0b1111;
/// Squares 29-32 (rank 1): where Black's men are crowned.
pub const ROW_1: Bitboard = 0b1111 << 31;

/// The main road a1-h8: squares 29, 25, 22, 18, 15, 11, 8, 4.
pub const MAIN_ROAD: Bitboard = square_set(&[29, 25, 22, 18, 15, 11, 8, 4]);

/// The bits of the given numeric squares (1-32); for constants.
pub const fn square_set(numbers: &[u8]) -> Bitboard {
    let mut bb = 0;
    let mut i = 0;
    while i < numbers.len() {
        let s = numbers[i] - 1;
        bb |= 1u64 << (s + s / 8);
        i += 1;
    }
    bb
}

/// The 32 squares as a 32-bit set, bit s for square s + 1 (PDN square 1 at bit 0): the padded
/// layout's four rows of 8 bits without the ghost bit after each. The form of the data files
/// (self-play records, endgame databases) and of the index and pattern arithmetic on them.
#[inline(always)]
pub fn dense(bb: Bitboard) -> u32 {
    ((bb & 0xFF) | (bb >> 1 & 0xFF00) | (bb >> 2 & 0xFF_0000) | (bb >> 3 & 0xFF00_0000)) as u32
}

/// The inverse of `dense`.
#[inline(always)]
pub fn padded(set: u32) -> Bitboard {
    let set = u64::from(set);
    (set & 0xFF) | (set & 0xFF00) << 1 | (set & 0xFF_0000) << 2 | (set & 0xFF00_0000) << 3
}

/// The number of squares in a set.
#[inline(always)]
pub fn count(bb: Bitboard) -> u32 {
    bb.count_ones()
}

/// The lowest square of a non-empty set.
#[inline(always)]
pub fn first(bb: Bitboard) -> Square {
    debug_assert!(bb != 0);
    Square::from_bit_index(bb.trailing_zeros() as u8)
}

/// Iterates over the squares of a set, lowest first.
#[inline(always)]
pub fn squares(bb: Bitboard) -> impl Iterator<Item = Square> {
    BitIter(bb).map(|b| Square::from_bit_index(b.trailing_zeros() as u8))
}

/// Iterates over the single-bit subsets of a set, lowest first.
#[derive(Clone, Copy)]
pub struct BitIter(pub Bitboard);

impl Iterator for BitIter {
    type Item = Bitboard;
    #[inline(always)]
    fn next(&mut self) -> Option<Bitboard> {
        if self.0 == 0 {
            None
        } else {
            let b = self.0 & self.0.wrapping_neg();
            self.0 ^= b;
            Some(b)
        }
    }
}

/// One of the four diagonal directions, as seen from White's side of the board. The
/// discriminant is the left rotation that makes the step on a 64-bit word (`>> 5` is a rotation
/// by 59 once the bits that wrap round are masked off), so a direction known only at run time
/// still steps in one instruction, without a branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub(crate) enum Dir {
    /// Towards rank 8 and the a-file: `>> 5`.
    UpLeft = 59,
    /// Towards rank 8 and the h-file: `>> 4`.
    UpRight = 60,
    /// Towards rank 1 and the a-file: `<< 4`.
    DownLeft = 4,
    /// Towards rank 1 and the h-file: `<< 5`.
    DownRight = 5,
}

impl Dir {
    /// All four directions.
    pub const ALL: [Dir; 4] = [Dir::UpLeft, Dir::UpRight, Dir::DownLeft, Dir::DownRight];

    /// The place of this direction in `ALL`: the index of its table wherever a table is kept
    /// per direction.
    #[inline(always)]
    pub const fn index(self) -> usize {
        match self {
            Dir::UpLeft => 0,
            Dir::UpRight => 1,
            Dir::DownLeft => 2,
            Dir::DownRight => 3,
        }
    }

    /// The direction pointing the other way.
    pub const fn opposite(self) -> Dir {
        match self {
            Dir::UpLeft => Dir::DownRight,
            Dir::UpRight => Dir::DownLeft,
            Dir::DownLeft => Dir::UpRight,
            Dir::DownRight => Dir::UpLeft,
        }
    }

    /// Moves every square of `bb` one step in this direction, dropping those that leave the board.
    #[inline(always)]
    pub fn shift(self, bb: Bitboard) -> Bitboard {
        self.step(bb) & BOARD
    }

    /// `shift` without the final `BOARD` mask, for hot paths where the result is at once
    /// intersected with a subset of the board (pieces or empty squares), which drops the ghost
    /// bits and the bits that wrapped round just as well. Two steps in a row without a mask are
    /// fine only where they retrace a real jump (the rotation is a bijection).
    #[inline(always)]
    pub fn step(self, bb: Bitboard) -> Bitboard {
        bb.rotate_left(self as u32)
    }

    /// One unmasked step the other way: `self.opposite().step(bb)`.
    #[inline(always)]
    pub fn step_back(self, bb: Bitboard) -> Bitboard {
        bb.rotate_right(self as u32)
    }
}

/// The side to move as a type, so that the hot paths of move generation and perft are compiled
/// once per colour and every step is a shift by a constant. `Other` is the opponent: a walk down
/// the tree alternates between the two implementations.
pub(crate) trait Side: Copy + Default + Send + Sync + 'static {
    /// The directions in which this side's men move.
    const FORWARD: [Dir; 2];
    /// The row on which this side's men are crowned.
    const CROWN: Bitboard;
    /// The opponent.
    type Other: Side;
}

/// White to move, as a type (see `Side`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WhiteSide;

/// Black to move, as a type (see `Side`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct BlackSide;

impl Side for WhiteSide {
    const FORWARD: [Dir; 2] = Color::White.forward();
    const CROWN: Bitboard = ROW_8;
    type Other = BlackSide;
}

impl Side for BlackSide {
    const FORWARD: [Dir; 2] = Color::Black.forward();
    const CROWN: Bitboard = ROW_1;
    type Other = WhiteSide;
}

/// Runs `$body` with `$s` bound to the `Side` type of the colour `$color`: where a run-time side
/// to move becomes a compile-time one.
macro_rules! with_side {
    ($color:expr, $s:ident => $body:expr) => {
        match $color {
            $crate::bitboard::Color::White => {
                type $s = $crate::bitboard::WhiteSide;
                $body
            }
            $crate::bitboard::Color::Black => {
                type $s = $crate::bitboard::BlackSide;
                $body
            }
        }
    };
}
pub(crate) use with_side;

/// The two sides. White starts on squares 21-32 and its men move up, towards square 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that starts on squares 21-32.
    White = 0,
    /// The side that starts on squares 1-12.
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline(always)]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The directions in which this side's men move.
    #[inline(always)]
    pub(crate) const fn forward(self) -> [Dir; 2] {
        match self {
            Color::White => [Dir::UpLeft, Dir::UpRight],
            Color::Black => [Dir::DownLeft, Dir::DownRight],
        }
    }

    /// The row on which this side's men are crowned.
    #[inline(always)]
    pub const fn crown_row(self) -> Bitboard {
        match self {
            Color::White => ROW_8,
            Color::Black => ROW_1,
        }
    }

    /// `W` or `B`, as in PDN FEN.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }

    /// Index 0 for White, 1 for Black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// `SQUARE_BITS[i]`: the bit of square `i` (see `Square::bit`).
const SQUARE_BITS: [Bitboard; 32] = {
    let mut t = [0; 32];
    let mut i = 0;
    while i < 32 {
        t[i] = 1u64 << Square(i as u8).bit_index();
        i += 1;
    }
    t
};

/// `BIT_SQUARES[b]`: the square index of bit `b` (see `Square::from_bit`); only the board's
/// bits are read.
const BIT_SQUARES: [u8; 64] = {
    let mut t = [0; 64];
    let mut b = 0;
    while b < 64 {
        t[b] = Square::from_bit_index(b as u8).0;
        b += 1;
    }
    t
};

/// A dark square, 0-based: `Square(0)` is numeric square 1 (b8), `Square(31)` is 32 (g1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with PDN number `n` (1-32), if there is one.
    pub const fn from_number(n: u32) -> Option<Square> {
        if n >= 1 && n <= 32 {
            Some(Square((n - 1) as u8))
        } else {
            None
        }
    }

    /// The square at a 0-based index 0-31.
    pub const fn from_index(i: u8) -> Square {
        debug_assert!(i < 32);
        Square(i)
    }

    /// The square of a bit index in the padded layout.
    #[inline(always)]
    pub const fn from_bit_index(b: u8) -> Square {
        Square(b - b / 9)
    }

    /// The square of a single-bit board.
    #[inline(always)]
    pub fn from_bit(bb: Bitboard) -> Square {
        debug_assert!(bb.count_ones() == 1);
        // A load in place of the division; the mask only spares a bounds check.
        Square(BIT_SQUARES[bb.trailing_zeros() as usize & 63])
    }

    /// The 0-based index, 0-31.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The PDN number, 1-32.
    pub const fn number(self) -> u32 {
        self.0 as u32 + 1
    }

    /// The bit index in the padded layout.
    #[inline(always)]
    pub const fn bit_index(self) -> u32 {
        (self.0 + self.0 / 8) as u32
    }

    /// The single-bit board of this square.
    #[inline(always)]
    pub const fn bit(self) -> Bitboard {
        // A load in place of the index arithmetic and a variable shift; a square is below 32,
        // so the mask changes nothing but spares a bounds check.
        SQUARE_BITS[self.0 as usize & 31]
    }

    /// Row from the top, 0 (rank 8) to 7 (rank 1).
    pub const fn row(self) -> u32 {
        self.0 as u32 / 4
    }

    /// File index, 0 (a) to 7 (h).
    pub const fn file(self) -> u32 {
        let r = self.row();
        2 * (self.0 as u32 % 4) + if r.is_multiple_of(2) { 1 } else { 0 }
    }

    /// Rank, 1 to 8.
    pub const fn rank(self) -> u32 {
        8 - self.row()
    }

    /// The square at a file (0-7) and rank (1-8), if it is a dark square.
    pub fn from_file_rank(file: u32, rank: u32) -> Option<Square> {
        if file > 7 || !(1..=8).contains(&rank) {
            return None;
        }
        let row = 8 - rank;
        // Dark squares: a1 (file 0, rank 1) is dark, so file + rank is odd.
        if (file + rank).is_multiple_of(2) {
            return None;
        }
        Some(Square((row * 4 + file / 2) as u8))
    }

    /// Algebraic name such as `c3`.
    pub fn algebraic(self) -> String {
        format!("{}{}", (b'a' + self.file() as u8) as char, self.rank())
    }

    /// The same square seen from the other side of the board (square n becomes 33 - n).
    pub const fn flipped(self) -> Square {
        Square(31 - self.0)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// Mirrors a set of squares through the centre (square n becomes 33 - n).
pub fn flip(bb: Bitboard) -> Bitboard {
    // In the padded layout the mirror of bit b is bit 34 - b, and ghosts map to ghosts.
    bb.reverse_bits() >> (64 - 35)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_and_padded_are_inverse_and_number_the_squares_from_bit_0() {
        for s in 0..32 {
            let sq = Square::from_index(s);
            assert_eq!(dense(sq.bit()), 1 << s);
            assert_eq!(padded(1 << s), sq.bit());
        }
        // A fixed multiplicative sequence of sets, enough to mix the rows.
        let mut set = 1u32;
        for _ in 0..1000 {
            set = set.wrapping_mul(0x9E37_79B9).wrapping_add(0x7F4A_7C15);
            let bb = padded(set);
            assert_eq!(bb & !BOARD, 0);
            assert_eq!(dense(bb), set);
            assert_eq!(squares(bb).fold(0u32, |acc, s| acc | 1 << s.index()), set);
        }
    }

    #[test]
    fn numbering_matches_rules_table() {
        let names = [
            (1, "b8"),
            (4, "h8"),
            (5, "a7"),
            (13, "a5"),
            (29, "a1"),
            (32, "g1"),
            (22, "c3"),
        ];
        for (n, name) in names {
            assert_eq!(Square::from_number(n).unwrap().algebraic(), name);
        }
        for n in 1..=32 {
            let s = Square::from_number(n).unwrap();
            assert_eq!(Square::from_file_rank(s.file(), s.rank()), Some(s));
            assert_eq!(Square::from_bit(s.bit()), s);
        }
        assert_eq!(count(BOARD), 32);
    }

    #[test]
    fn a_direction_indexes_its_place_in_all() {
        for (i, d) in Dir::ALL.into_iter().enumerate() {
            assert_eq!(d.index(), i);
        }
    }

    #[test]
    fn shifts_follow_diagonals() {
        for n in 1..=32 {
            let s = Square::from_number(n).unwrap();
            for d in Dir::ALL {
                let (df, dr): (i32, i32) = match d {
                    Dir::UpLeft => (-1, 1),
                    Dir::UpRight => (1, 1),
                    Dir::DownLeft => (-1, -1),
                    Dir::DownRight => (1, -1),
                };
                let f = s.file() as i32 + df;
                let r = s.rank() as i32 + dr;
                let expected = if (0..8).contains(&f) && (1..=8).contains(&r) {
                    Square::from_file_rank(f as u32, r as u32)
                        .map(|t| t.bit())
                        .unwrap_or(0)
                } else {
                    0
                };
                assert_eq!(d.shift(s.bit()), expected, "square {n} {d:?}");
            }
        }
    }

    #[test]
    fn flip_mirrors_numbers() {
        for n in 1..=32 {
            let s = Square::from_number(n).unwrap();
            assert_eq!(flip(s.bit()), s.flipped().bit());
            assert_eq!(s.flipped().number(), 33 - n);
        }
        assert_eq!(MAIN_ROAD.count_ones(), 8);
    }
}
