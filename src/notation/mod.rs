//! Text at the edge of the rules: PDN FEN, move text (numeric and algebraic), Hub's position and
//! move text, the square names they share, and the one way to quote untrusted text in a message.

pub mod fen;
pub mod hub;
pub mod move_text;
pub mod quote;

use crate::bitboard::Square;

/// How squares are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquareStyle {
    /// PDN numbers 1-32 (`22-18`, `22x15x6`).
    Numeric,
    /// Algebraic names (`c3-d4`, `c3:e5:g3`), the Russian standard.
    Algebraic,
}

impl SquareStyle {
    /// Writes one square.
    pub fn square(self, sq: Square) -> String {
        match self {
            SquareStyle::Numeric => sq.number().to_string(),
            SquareStyle::Algebraic => sq.algebraic(),
        }
    }

    /// The separator between the squares of a capture.
    pub fn capture_separator(self) -> char {
        match self {
            SquareStyle::Numeric => 'x',
            SquareStyle::Algebraic => ':',
        }
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
}
