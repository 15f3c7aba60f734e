//! Text at the edge of the rules: PDN FEN, move text (numeric and algebraic), Hub's position and
//! move text, the square names they share, and the one way to quote untrusted text in a message.

pub mod fen;
pub mod hub;
pub mod move_text;
pub mod quote;

use crate::bitboard::{self, Bitboard, Square};
use crate::position::Position;
use crate::variant::Variant;

/// How squares are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquareStyle {
    /// PDN numbers 1-32 (`22-18`, `22x15x6`).
    Numeric,
    /// Algebraic names (`c3-d4`, `c3:e5:g3`), the Russian standard.
    Algebraic,
    /// PDN numbers of the mirrored board (italian, spanish; see `mirror_number`).
    Mirrored,
}

impl SquareStyle {
    /// Writes one square.
    pub fn square(self, sq: Square) -> String {
        match self {
            SquareStyle::Numeric => sq.number().to_string(),
            SquareStyle::Algebraic => sq.algebraic(),
            SquareStyle::Mirrored => mirror_number(sq.number()).to_string(),
        }
    }

    /// The separator between the squares of a capture.
    pub fn capture_separator(self) -> char {
        match self {
            SquareStyle::Numeric | SquareStyle::Mirrored => 'x',
            SquareStyle::Algebraic => ':',
        }
    }
}

/// The square number `n` of a mirrored numbering (italian, spanish) names the square that `n`'s
/// mirror image names in docs/RULES.md's frame. Those boards are placed with a light square at
/// each player's lower left, and numbered from the top left as ours is: the playing squares
/// are ours seen in a mirror (files a-h reversed), so the rows keep their numbers and each row
/// is read the other way. An involution, so the same function reads and writes.
pub const fn mirror_number(n: u32) -> u32 {
    if n == 0 || n > 32 {
        return n;
    }
    let (row, at) = ((n - 1) / 4, (n - 1) % 4);
    row * 4 + (3 - at) + 1
}

/// `bb` seen in the mirror of `mirror_number`.
pub fn mirror_squares(bb: Bitboard) -> Bitboard {
    bitboard::squares(bb)
        .filter_map(|sq| Square::from_number(mirror_number(sq.number())))
        .fold(0, |set, sq| set | sq.bit())
}

/// `pos` seen in the mirror of `mirror_number`: how a position written in a mirrored
/// numbering is read into docs/RULES.md's frame, and back.
pub fn mirror_position(pos: &Position) -> Position {
    use crate::bitboard::Color;
    let (w, b) = (pos.pieces(Color::White), pos.pieces(Color::Black));
    Position::from_parts(
        mirror_squares(w),
        mirror_squares(b),
        mirror_squares(pos.kings()),
        pos.side(),
    )
}

/// A position as `variant` numbers it, from docs/RULES.md's frame (and back: an involution).
pub fn in_numbering(variant: Variant, pos: &Position) -> Position {
    if variant.mirrored_numbering() {
        mirror_position(pos)
    } else {
        *pos
    }
}

/// Reads a square as `variant` numbers it: numbers in its numbering, algebraic names as
/// docs/RULES.md names them.
pub fn parse_square_in(variant: Variant, text: &str) -> Option<Square> {
    let sq = parse_square(text)?;
    if variant.mirrored_numbering() && text.trim().bytes().all(|b| b.is_ascii_digit()) {
        Square::from_number(mirror_number(sq.number()))
    } else {
        Some(sq)
    }
}

/// Reads a square written as a number (`22`) or algebraically (`c3`, `C3`).
pub fn parse_square(text: &str) -> Option<Square> {
    let t = text.trim();
    if t.is_empty() || t.len() > 3 {
        return None;
    }
    if t.bytes().all(|b| b.is_ascii_digit()) {
        return t.parse::<u32>().ok().and_then(Square::from_number);
    }
    let bytes = t.as_bytes();
    if bytes.len() == 2 {
        let file = bytes[0].to_ascii_lowercase();
        let rank = bytes[1];
        if (b'a'..=b'h').contains(&file) && (b'1'..=b'8').contains(&rank) {
            return Square::from_file_rank((file - b'a') as u32, (rank - b'0') as u32);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_parse_both_ways() {
        assert_eq!(parse_square("22").map(|s| s.number()), Some(22));
        assert_eq!(parse_square("c3").map(|s| s.number()), Some(22));
        assert_eq!(parse_square("A1").map(|s| s.number()), Some(29));
        for bad in ["0", "33", "a2", "i1", "", "c", "c33", "-1", "1234"] {
            assert_eq!(parse_square(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_mirrored_numbering_reverses_each_row() {
        assert_eq!(mirror_number(1), 4);
        assert_eq!(mirror_number(5), 8);
        assert_eq!(mirror_number(29), 32);
        for n in 1..=32 {
            assert_eq!(mirror_number(mirror_number(n)), n);
            assert_eq!((mirror_number(n) - 1) / 4, (n - 1) / 4, "{n}: rows keep");
        }
        // A corner of the mirrored board (italian 1, a8 there) has one neighbour, as h8 (our 4)
        // does; our 1 (b8) has two.
        let it = |n| parse_square_in(Variant::Italian, n).unwrap().number();
        assert_eq!(it("1"), 4);
        assert_eq!(parse_square_in(Variant::Russian, "1").unwrap().number(), 1);
        assert_eq!(
            SquareStyle::Mirrored.square(Square::from_number(4).unwrap()),
            "1"
        );
    }
}
