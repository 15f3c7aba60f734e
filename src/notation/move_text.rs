//! Move text: numeric PDN (`11-15`, `22x15`, `22x15x6`) and Russian algebraic (`c3-d4`,
//! `c3:e5:g3`). Reading accepts the shortest unambiguous text; writing gives from-to where that
//! is unambiguous and the full path where it is not.

use super::quote::quote;
use super::{parse_square_in, SquareStyle};
use crate::bitboard::Square;
use crate::movegen::Counting;
use crate::moves::Move;
use crate::position::Position;
use crate::variant::Variant;
use std::fmt;

/// Why a move text was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a list of squares joined by `-`, `x` or `:`.
    Syntax(String),
    /// No legal move matches; the legal moves are listed.
    Illegal {
        /// The text as given.
        text: String,
        /// Every legal move, written in full.
        legal: Vec<String>,
    },
    /// Several different legal moves match; they are listed.
    Ambiguous {
        /// The text as given.
        text: String,
        /// The matching moves, written in full.
        candidates: Vec<String>,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(t) => write!(
                f,
                "{} is not a move (expected e.g. 11-15, 22x15x6 or c3:e5)",
                quote(t)
            ),
            MoveError::Illegal { text, legal } if legal.is_empty() => {
                write!(f, "illegal move {}: there are no legal moves", quote(text))
            }
            MoveError::Illegal { text, legal } => {
                write!(
                    f,
                    "illegal move {}; legal moves: {}",
                    quote(text),
                    legal.join(" ")
                )
            }
            MoveError::Ambiguous { text, candidates } => {
                write!(
                    f,
                    "ambiguous move {}; it could be: {}",
                    quote(text),
                    candidates.join(" ")
                )
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// The squares of a move text, in order, as `variant` numbers them.
fn split_squares(text: &str, variant: Variant) -> Result<Vec<Square>, MoveError> {
    let t = text.trim();
    let syntax = || MoveError::Syntax(t.to_string());
    if t.is_empty() || t.len() > 80 {
        return Err(syntax());
    }
    let squares: Option<Vec<Square>> = t
        .split(['-', 'x', 'X', ':'])
        .map(|sq| parse_square_in(variant, sq))
        .collect();
    match squares {
        Some(v) if v.len() >= 2 => Ok(v),
        _ => Err(syntax()),
    }
}

/// Finds the legal move that `text` names in `pos`. `x` and `-` are interchangeable, numeric and
/// algebraic squares are both accepted, and a capture may be named by its start and end alone
/// when only one legal move matches them. The returned move carries the path the text names.
pub fn parse_move(text: &str, pos: &Position, variant: Variant) -> Result<Move, MoveError> {
    let squares = split_squares(text, variant)?;
    let paths = variant.moves(pos, Counting::Paths);
    let (from, to) = (squares[0], squares[squares.len() - 1]);
    let matching: Vec<Move> = paths
        .iter()
        .filter(|m| {
            m.from() == from
                && m.to() == to
                && (squares.len() == 2 || (m.is_capture() && m.landings() == squares[1..]))
        })
        .copied()
        .collect();
    let mut effects = matching.clone();
    crate::moves::dedup_same_effect(&mut effects);
    if effects.len() > 1 {
        // `22x15` names the single jump exactly even when a longer capture also runs 22 to 15.
        let exact: Vec<Move> = matching
            .iter()
            .filter(|m| m.landings() == squares[1..])
            .copied()
            .collect();
        let mut exact_effects = exact.clone();
        crate::moves::dedup_same_effect(&mut exact_effects);
        if exact_effects.len() == 1 {
            return Ok(exact[0]);
        }
    }
    let style = default_style(variant);
    match effects.len() {
        1 => Ok(matching[0]),
        0 => {
            let mut legal = paths;
            crate::moves::dedup_same_effect(&mut legal);
            Err(MoveError::Illegal {
                text: text.trim().to_string(),
                legal: legal.iter().map(|m| full_text(m, style)).collect(),
            })
        }
        _ => Err(MoveError::Ambiguous {
            text: text.trim().to_string(),
            candidates: effects.iter().map(|m| full_text(m, style)).collect(),
        }),
    }
}

/// The usual square style of a variant: algebraic for russian, the mirrored numbers for
/// italian and spanish, numeric for the others.
pub fn default_style(variant: Variant) -> SquareStyle {
    if variant.algebraic_notation() {
        SquareStyle::Algebraic
    } else if variant.mirrored_numbering() {
        SquareStyle::Mirrored
    } else {
        SquareStyle::Numeric
    }
}

/// A move with every landing square: `22x15x6`, `c3:e5:g3`, `11-15`.
pub fn full_text(mv: &Move, style: SquareStyle) -> String {
    if !mv.is_capture() {
        return format!("{}-{}", style.square(mv.from()), style.square(mv.to()));
    }
    let mut s = style.square(mv.from());
    for sq in mv.landings() {
        s.push(style.capture_separator());
        s.push_str(&style.square(sq));
    }
    s
}

/// A move in its shortest unambiguous form in `pos`: from-to unless another legal move shares
/// the start and end squares, the full path then.
pub fn short_text(mv: &Move, pos: &Position, variant: Variant, style: SquareStyle) -> String {
    let legal = variant.legal_moves(pos);
    let clash = legal
        .iter()
        .any(|m| m.from() == mv.from() && m.to() == mv.to() && !m.same_effect(mv));
    if clash {
        return full_text(mv, style);
    }
    let sep = if mv.is_capture() {
        style.capture_separator()
    } else {
        '-'
    };
    format!("{}{sep}{}", style.square(mv.from()), style.square(mv.to()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_fen;

    #[test]
    fn reads_short_and_full_forms() {
        let pos = parse_fen("W:W21-32:B1-12").unwrap();
        let m = parse_move("22-18", &pos, Variant::Russian).unwrap();
        assert_eq!(parse_move("c3-d4", &pos, Variant::Russian).unwrap(), m);
        assert_eq!(
            short_text(&m, &pos, Variant::Russian, SquareStyle::Algebraic),
            "c3-d4"
        );
        assert_eq!(
            short_text(&m, &pos, Variant::Russian, SquareStyle::Numeric),
            "22-18"
        );
    }

    #[test]
    fn a_single_jump_is_named_exactly_beside_a_longer_capture_with_the_same_ends() {
        // The english king on 22 may take 26 alone (22x31), or first go round the ring of 18,
        // 10, 9 and 17 back to 22 and then take 26: both run from 22 to 31.
        let pos = parse_fen("B:W18,10,9,17,26:BK22").unwrap();
        let single = parse_move("22x31", &pos, Variant::English).unwrap();
        assert_eq!(single.capture_count(), 1);
        let long = parse_move("22x15x6x13x22x31", &pos, Variant::English).unwrap();
        assert_eq!(long.capture_count(), 5);
        assert_eq!(
            short_text(&single, &pos, Variant::English, SquareStyle::Numeric),
            "22x31"
        );
        assert_eq!(
            short_text(&long, &pos, Variant::English, SquareStyle::Numeric),
            "22x15x6x13x22x31"
        );
    }

    #[test]
    fn illegal_and_ambiguous_list_candidates() {
        let pos = parse_fen("W:W21-32:B1-12").unwrap();
        match parse_move("22-13", &pos, Variant::Russian) {
            Err(MoveError::Illegal { legal, .. }) => assert_eq!(legal.len(), 7),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse_move("22", &pos, Variant::Russian),
            Err(MoveError::Syntax(_))
        ));
    }
}
