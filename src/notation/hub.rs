//! Hub's text for positions and moves, read and written in one place for the protocol
//! (`protocol::hub`), the match tool's engine client and the test fixture.
//!
//! A position is the side to move (`W` or `B`) then squares 1-32 as `w`, `b` (men), `W`, `B`
//! (kings) or `e` (empty). A move is `from-to`, or `fromxto` followed by the captured squares
//! (`x`-joined, written ascending, read in any order). Squares are PDN numbers, possibly in
//! another frame: the callers pass the mapping (`map`), the identity where there is none (see
//! docs/PROTOCOL.md on the frames of 8x8 Hub clients).

use crate::bitboard::{self, Bitboard, Color, Square};
use crate::moves::Move;
use crate::notation::move_text::MoveError;
use crate::position::Position;

/// The Hub text of a position.
pub fn position_text(pos: &Position) -> String {
    let mut s = String::with_capacity(33);
    s.push(pos.side().letter());
    for n in 1..=32 {
        let c = Square::from_number(n)
            .and_then(|sq| pos.piece_at(sq))
            .map_or('e', |p| match (p.color, p.king) {
                (Color::White, false) => 'w',
                (Color::White, true) => 'W',
                (Color::Black, false) => 'b',
                (Color::Black, true) => 'B',
            });
        s.push(c);
    }
    s
}

/// A Hub position as a PDN FEN (which `parse_fen` then checks like any other), or `None` when
/// it is not 33 characters of the form. Lenient as clients are: the side may be lower case, and
/// an empty square `E` or `.`.
pub fn position_to_fen(text: &str) -> Option<String> {
    let chars: Vec<char> = text.trim().chars().collect();
    if chars.len() != 33 {
        return None;
    }
    let side = match chars[0] {
        'W' | 'w' => 'W',
        'B' | 'b' => 'B',
        _ => return None,
    };
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for (i, c) in chars[1..].iter().enumerate() {
        let n = i + 1;
        match c {
            'w' => white.push(n.to_string()),
            'W' => white.push(format!("K{n}")),
            'b' => black.push(n.to_string()),
            'B' => black.push(format!("K{n}")),
            'e' | 'E' | '.' => {}
            _ => return None,
        }
    }
    Some(format!("{side}:W{}:B{}", white.join(","), black.join(",")))
}

/// The Hub text of a move, its squares written through `map`.
pub fn move_text(m: &Move, map: impl Fn(u32) -> u32) -> String {
    let n = |s: Square| map(s.number());
    if !m.is_capture() {
        return format!("{}-{}", n(m.from()), n(m.to()));
    }
    let mut captured: Vec<u32> = bitboard::squares(m.captured()).map(n).collect();
    captured.sort_unstable();
    let mut s = format!("{}x{}", n(m.from()), n(m.to()));
    for c in captured {
        s.push_str(&format!("x{c}"));
    }
    s
}

/// The move of `legal` (a position's legal moves) a Hub move text names, its squares read
/// through `map`: by start, end and, when given, the set of captured squares. (The caller
/// passes the moves, so that notation knows nothing of games: `game` builds on notation.)
pub fn find_move(text: &str, legal: &[Move], map: impl Fn(u32) -> u32) -> Result<Move, MoveError> {
    let syntax = || MoveError::Syntax(text.to_string());
    let numbers: Option<Vec<u32>> = text
        .split(['-', 'x', 'X'])
        .map(|t| {
            t.parse::<u32>()
                .ok()
                .filter(|n| (1..=32).contains(n))
                .map(&map)
        })
        .collect();
    let numbers = numbers.filter(|n| n.len() >= 2).ok_or_else(syntax)?;
    let sq = |n: u32| Square::from_number(n).ok_or_else(syntax);
    let (from, to) = (sq(numbers[0])?, sq(numbers[1])?);
    let mut captured: Bitboard = 0;
    for &n in &numbers[2..] {
        captured |= sq(n)?.bit();
    }
    let matching: Vec<&Move> = legal
        .iter()
        .filter(|m| {
            m.from() == from && m.to() == to && (numbers.len() == 2 || m.captured() == captured)
        })
        .collect();
    match matching.as_slice() {
        [m] => Ok(**m),
        [] => Err(MoveError::Illegal {
            text: text.to_string(),
            legal: legal.iter().map(|m| move_text(m, &map)).collect(),
        }),
        many => Err(MoveError::Ambiguous {
            text: text.to_string(),
            candidates: many.iter().map(|m| move_text(m, &map)).collect(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_fen;
    use crate::variant::Variant;

    #[test]
    fn positions_and_moves_round_trip() {
        let pos = parse_fen("B:W26,K27:B22").unwrap();
        let legal = Variant::English.legal_moves(&pos);
        let text = position_text(&pos);
        assert_eq!(text.len(), 33);
        assert_eq!(position_to_fen(&text).as_deref(), Some("B:W26,K27:B22"));
        let m = legal[0];
        assert_eq!(move_text(&m, |n| n), "22x31x26");
        assert_eq!(find_move("22x31x26", &legal, |n| n), Ok(m));
        assert_eq!(find_move("22x31", &legal, |n| n), Ok(m));
        // Another frame: square n written as 33 - n.
        let flip = |n: u32| 33 - n;
        assert_eq!(move_text(&m, flip), "11x2x7");
        assert_eq!(find_move("11x2x7", &legal, flip), Ok(m));
        assert!(matches!(
            find_move("22-18", &legal, |n| n),
            Err(MoveError::Illegal { .. })
        ));
        assert!(matches!(
            find_move("22", &legal, |n| n),
            Err(MoveError::Syntax(_))
        ));
    }

    #[test]
    fn lenient_positions_and_bad_ones() {
        let start = format!("w{}{}{}", "b".repeat(12), "e".repeat(8), "w".repeat(12));
        assert_eq!(
            position_to_fen(&start).as_deref(),
            Some("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
        );
        assert_eq!(
            position_to_fen(&start.replace('e', ".")),
            position_to_fen(&start)
        );
        assert_eq!(position_to_fen(&start[1..]), None);
        assert_eq!(position_to_fen(&start.replacen('e', "x", 1)), None);
    }
}
