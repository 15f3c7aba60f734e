//! PDN FEN: `W:W21,22,K30:B1-12`. Reads either order of colour groups, ranges, algebraic squares,
//! surrounding whitespace and quotes; writes one canonical form.

use super::quote::quote;
use super::{parse_square, SquareStyle};
use crate::bitboard::{self, Bitboard, Color, Square};
use crate::position::Position;
use crate::variant::Variant;
use std::fmt;

/// What is wrong with a FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenProblem {
    /// Nothing but whitespace or quotes.
    Empty,
    /// The side to move is not `W` or `B`.
    UnknownSide(String),
    /// A colour group does not start with `W` or `B`.
    UnknownColor(String),
    /// The same colour has two groups.
    ColorTwice(Color),
    /// More than two colour groups.
    TooManyGroups,
    /// A square that is not 1-32 or a dark square's name.
    BadSquare(String),
    /// A range whose ends are out of order or not squares.
    BadRange(String),
    /// A square given twice.
    SquareTwice(u32),
    /// A man on the row where it would already have been crowned.
    ManOnCrowningRow(Color, u32),
    /// The side to move has no pieces.
    SideToMoveHasNoPieces(Color),
    /// More pieces of one colour than the 12 a side starts with.
    TooManyPieces(Color, u32),
}

/// The most pieces a side can have: both variants start with 12 a side and no move adds a piece.
pub const MAX_PIECES: u32 = 12;

impl fmt::Display for FenProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenProblem::Empty => write!(f, "it is empty"),
            FenProblem::UnknownSide(s) => {
                write!(f, "unknown side to move {} (expected W or B)", quote(s))
            }
            FenProblem::UnknownColor(s) => {
                write!(f, "colour group {} does not start with W or B", quote(s))
            }
            FenProblem::ColorTwice(c) => write!(f, "{c} is given twice"),
            FenProblem::TooManyGroups => write!(f, "more than two colour groups"),
            FenProblem::BadSquare(s) => write!(
                f,
                "{} is not a square (1-32 or a dark square such as c3)",
                quote(s)
            ),
            FenProblem::BadRange(s) => write!(f, "{} is not a valid range of squares", quote(s)),
            FenProblem::SquareTwice(n) => write!(f, "square {n} is given twice"),
            FenProblem::ManOnCrowningRow(c, n) => {
                write!(
                    f,
                    "a {c} man on square {n}, its crowning row, would already be a king"
                )
            }
            FenProblem::SideToMoveHasNoPieces(c) => write!(f, "{c} is to move but has no pieces"),
            FenProblem::TooManyPieces(c, n) => write!(
                f,
                "{c} has {n} pieces; a side has at most {MAX_PIECES}, as at the start"
            ),
        }
    }
}

/// A FEN that could not be read, with the text and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// The text as given.
    pub fen: String,
    /// What is wrong.
    pub problem: FenProblem,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid FEN {}: {}", quote(&self.fen), self.problem)
    }
}

impl std::error::Error for FenError {}

fn parse_color(c: char) -> Option<Color> {
    match c {
        'W' | 'w' => Some(Color::White),
        'B' | 'b' => Some(Color::Black),
        _ => None,
    }
}

/// Reads a PDN FEN.
pub fn parse_fen(text: &str) -> Result<Position, FenError> {
    let err = |problem| FenError {
        fen: text.to_string(),
        problem,
    };
    let body = text.trim().trim_matches(|c| c == '"' || c == '\'').trim();
    let body = body.strip_suffix('.').unwrap_or(body).trim();
    if body.is_empty() {
        return Err(err(FenProblem::Empty));
    }
    let mut parts = body.split(':');
    let side_text = parts.next().unwrap_or("").trim();
    let side = match side_text.chars().collect::<Vec<_>>().as_slice() {
        [c] => {
            parse_color(*c).ok_or_else(|| err(FenProblem::UnknownSide(side_text.to_string())))?
        }
        _ => return Err(err(FenProblem::UnknownSide(side_text.to_string()))),
    };
    let mut pieces: [Bitboard; 2] = [0, 0];
    let mut kings: Bitboard = 0;
    let mut seen = [false, false];
    let mut groups = 0;
    for group in parts {
        let group = group.trim();
        if group.is_empty() {
            continue;
        }
        groups += 1;
        if groups > 2 {
            return Err(err(FenProblem::TooManyGroups));
        }
        let mut chars = group.chars();
        let color = chars
            .next()
            .and_then(parse_color)
            .ok_or_else(|| err(FenProblem::UnknownColor(group.to_string())))?;
        if seen[color.index()] {
            return Err(err(FenProblem::ColorTwice(color)));
        }
        seen[color.index()] = true;
        for item in chars.as_str().split(',') {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let (king, squares) = parse_item(item).map_err(err)?;
            for sq in squares {
                let b = sq.bit();
                if (pieces[0] | pieces[1]) & b != 0 {
                    return Err(err(FenProblem::SquareTwice(sq.number())));
                }
                if !king && color.crown_row() & b != 0 {
                    return Err(err(FenProblem::ManOnCrowningRow(color, sq.number())));
                }
                pieces[color.index()] |= b;
                if king {
                    kings |= b;
                }
            }
        }
    }
    // No game reaches such a position, so the search and the evaluation need not meet it.
    for color in [Color::White, Color::Black] {
        let n = pieces[color.index()].count_ones();
        if n > MAX_PIECES {
            return Err(err(FenProblem::TooManyPieces(color, n)));
        }
    }
    if pieces[side.index()] == 0 {
        return Err(err(FenProblem::SideToMoveHasNoPieces(side)));
    }
    Ok(Position::from_parts(pieces[0], pieces[1], kings, side))
}

/// One comma-separated item: `K`-prefixed or not, a square or a range `a-b`.
fn parse_item(item: &str) -> Result<(bool, Vec<Square>), FenProblem> {
    let (king, rest) = match item.strip_prefix(['K', 'k']) {
        Some(rest) => (true, rest.trim()),
        None => (false, item),
    };
    if let Some((a, b)) = rest.split_once('-') {
        let b = b.trim().strip_prefix(['K', 'k']).unwrap_or(b.trim());
        let (lo, hi) = match (parse_square(a), parse_square(b)) {
            (Some(lo), Some(hi)) if lo.number() <= hi.number() => (lo, hi),
            _ => return Err(FenProblem::BadRange(item.to_string())),
        };
        if a.trim()
            .bytes()
            .chain(b.bytes())
            .any(|c| c.is_ascii_alphabetic())
        {
            // Ranges are numeric in PDN; an algebraic range has no clear meaning.
            return Err(FenProblem::BadRange(item.to_string()));
        }
        let squares = (lo.number()..=hi.number())
            .filter_map(Square::from_number)
            .collect();
        return Ok((king, squares));
    }
    match parse_square(rest) {
        Some(sq) => Ok((king, vec![sq])),
        None => Err(FenProblem::BadSquare(item.to_string())),
    }
}

/// Reads a PDN FEN as `variant` numbers the squares (mirrored for italian and spanish).
pub fn parse_fen_in(variant: Variant, text: &str) -> Result<Position, FenError> {
    parse_fen(text).map(|pos| super::in_numbering(variant, &pos))
}

/// Writes a position as canonical PDN FEN in `variant`'s numbering.
pub fn to_fen_in(variant: Variant, pos: &Position) -> String {
    to_fen(&super::in_numbering(variant, pos))
}

/// Writes a position as canonical PDN FEN: side, White's group, Black's group, squares in
/// ascending order with `K` before kings.
pub fn to_fen(pos: &Position) -> String {
    to_fen_styled(pos, SquareStyle::Numeric)
}

/// Writes a position as PDN FEN with squares in the given style.
pub fn to_fen_styled(pos: &Position, style: SquareStyle) -> String {
    let mut s = String::new();
    s.push(pos.side().letter());
    for color in [Color::White, Color::Black] {
        s.push(':');
        s.push(color.letter());
        let items: Vec<String> = bitboard::squares(pos.pieces(color))
            .map(|sq| {
                let k = if pos.kings() & sq.bit() != 0 { "K" } else { "" };
                format!("{k}{}", style.square(sq))
            })
            .collect();
        s.push_str(&items.join(","));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_forms_rules_md_allows() {
        let a = parse_fen("W:W21,22,K30:B1-12").unwrap();
        let b = parse_fen("  \"W:B1,2,3,4,5,6,7,8,9,10,11,12:WK30,21,22\"  ").unwrap();
        assert_eq!(a, b);
        assert_eq!(to_fen(&a), "W:W21,22,K30:B1,2,3,4,5,6,7,8,9,10,11,12");
        let alg = parse_fen(
            "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
        )
        .unwrap();
        assert_eq!(alg, parse_fen("W:W21-32:B1-12").unwrap());
        assert_eq!(
            parse_fen(&to_fen_styled(&alg, SquareStyle::Algebraic)).unwrap(),
            alg
        );
    }

    #[test]
    fn twelve_a_side_is_the_most() {
        let full = parse_fen("W:W21-32:B1-12").unwrap();
        assert_eq!(full.pieces(Color::White).count_ones(), MAX_PIECES);
        assert!(parse_fen("B:WK1,K2,K3,K4,5-12:B17-28").is_ok());
    }

    #[test]
    fn bad_text_is_shown_escaped() {
        let e = parse_fen("W:W21:B1\0").unwrap_err();
        assert_eq!(
            e.to_string(),
            r"invalid FEN 'W:W21:B1\0': '1\0' is not a square (1-32 or a dark square such as c3)"
        );
    }

    #[test]
    fn rejects_with_a_reason() {
        let cases = [
            ("", FenProblem::Empty),
            ("X:W21:B1", FenProblem::UnknownSide("X".into())),
            ("W:W33:B1", FenProblem::BadSquare("33".into())),
            ("W:W21,21:B1", FenProblem::SquareTwice(21)),
            ("W:W21:B21", FenProblem::SquareTwice(21)),
            ("W:W2:B12", FenProblem::ManOnCrowningRow(Color::White, 2)),
            ("W:W20:B30", FenProblem::ManOnCrowningRow(Color::Black, 30)),
            ("B:W21", FenProblem::SideToMoveHasNoPieces(Color::Black)),
            ("W:W21:W22", FenProblem::ColorTwice(Color::White)),
            ("W:W12-5:B1", FenProblem::BadRange("12-5".into())),
            ("W:W21-c3:B1", FenProblem::BadRange("21-c3".into())),
            ("W:Wa3-c3:B1", FenProblem::BadRange("a3-c3".into())),
            ("W:X21:B1", FenProblem::UnknownColor("X21".into())),
            (
                "W:W20-32:B1-12",
                FenProblem::TooManyPieces(Color::White, 13),
            ),
            (
                "B:W30:B1-12,K29,K31",
                FenProblem::TooManyPieces(Color::Black, 14),
            ),
        ];
        for (text, problem) in cases {
            assert_eq!(
                parse_fen(text).map_err(|e| e.problem),
                Err(problem),
                "{text}"
            );
        }
    }
}
