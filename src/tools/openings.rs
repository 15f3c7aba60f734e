//! Opening sets for matches: one opening per line, either moves from the variant's start position
//! (separated by spaces; move numbers are ignored) or a PDN FEN; `#` starts a comment. The sets in
//! `positions/` are built in, so `crownhead match` needs no files to run.

use crate::game::Game;
use crate::notation::move_text::MoveError;
use crate::variant::Variant;
use std::fmt;

/// The English three-move ballots (ACF deck), as stored in `positions/english_3move.txt`.
pub const ENGLISH_BALLOTS: &str = include_str!("../../positions/english_3move.txt");
/// Balanced Russian openings, as stored in `positions/russian_openings.txt`.
pub const RUSSIAN_OPENINGS: &str = include_str!("../../positions/russian_openings.txt");

/// One opening: a start position and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The comment on its line, or its line number.
    pub name: String,
    /// A FEN to start from, or `None` for the variant's start position.
    pub fen: Option<String>,
    /// The moves, as written.
    pub moves: Vec<String>,
}

impl Opening {
    /// The game after the opening. Openings are checked when read, so this cannot fail.
    pub fn game(&self, variant: Variant) -> Game {
        self.try_game(variant)
            .unwrap_or_else(|_| Game::start(variant))
    }

    fn try_game(&self, variant: Variant) -> Result<Game, String> {
        let mut game = match &self.fen {
            Some(f) => Game::from_fen(variant, f).map_err(|e| e.to_string())?,
            None => Game::start(variant),
        };
        for m in &self.moves {
            game.play_text(m).map_err(|e: MoveError| e.to_string())?;
        }
        Ok(game)
    }
}

/// A line of an opening file that is not a legal opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningError {
    /// 1-based line number.
    pub line: usize,
    /// The line's text.
    pub text: String,
    /// Why it was refused.
    pub reason: String,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "opening on line {} ({}): {}",
            self.line,
            crate::notation::quote::quote(&self.text),
            self.reason
        )
    }
}

impl std::error::Error for OpeningError {}

/// Reads an opening file; every opening is played through `Game` so a bad line is reported here
/// rather than in the middle of a match.
pub fn parse_openings(text: &str, variant: Variant) -> Result<Vec<Opening>, OpeningError> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let (body, comment) = match line.split_once('#') {
            Some((b, c)) => (b.trim(), c.trim()),
            None => (line.trim(), ""),
        };
        if body.is_empty() {
            continue;
        }
        let name = if comment.is_empty() {
            format!("line {}", i + 1)
        } else {
            comment.to_string()
        };
        let is_fen = body.len() > 2 && body[1..].starts_with(':');
        let opening = if is_fen {
            Opening {
                name,
                fen: Some(body.to_string()),
                moves: Vec::new(),
            }
        } else {
            let moves = body
                .split_whitespace()
                .map(strip_number)
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect();
            Opening {
                name,
                fen: None,
                moves,
            }
        };
        let error = |reason| OpeningError {
            line: i + 1,
            text: line.to_string(),
            reason,
        };
        let game = opening.try_game(variant).map_err(error)?;
        if game.outcome().is_some() {
            return Err(error("the opening ends the game".into()));
        }
        openings.push(opening);
    }
    Ok(openings)
}

/// `1.`, `12...` and `1.11-15` lose their move number; moves pass through; a bare number is
/// dropped.
fn strip_number(word: &str) -> &str {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    match word[digits..].strip_prefix('.') {
        Some(rest) if digits > 0 => rest.trim_start_matches('.'),
        _ if digits == word.len() => "",
        _ => word,
    }
}

/// The built-in opening set of a variant: the published ballots (english), a balanced set
/// (russian), else every line of `THREE_PLIES` plies from the start position.
pub fn builtin(variant: Variant) -> Vec<Opening> {
    let text = match variant {
        Variant::English => ENGLISH_BALLOTS,
        Variant::Russian => RUSSIAN_OPENINGS,
        _ => return every_line(variant, THREE_PLIES),
    };
    // The built-in sets are checked by tests/it/openings.rs.
    parse_openings(text, variant).unwrap_or_default()
}

/// The depth of the generated opening sets: three plies give 302 lines in every variant, enough
/// for a match of 604 games with colours reversed, and leave the game still open.
pub const THREE_PLIES: u32 = 3;

/// Every line of `plies` plies from `variant`'s start position, in the generator's order, named
/// by its moves.
pub fn every_line(variant: Variant, plies: u32) -> Vec<Opening> {
    fn walk(game: &Game, plies: u32, moves: &mut Vec<String>, out: &mut Vec<Opening>) {
        if plies == 0 || game.outcome().is_some() {
            if plies == 0 {
                out.push(Opening {
                    name: moves.join(" "),
                    fen: None,
                    moves: moves.clone(),
                });
            }
            return;
        }
        let variant = game.variant();
        let style = crate::notation::move_text::default_style(variant);
        for mv in variant.legal_moves(game.position()) {
            let text = crate::notation::move_text::full_text(&mv, style);
            let mut next = game.clone();
            if next.play_text(&text).is_err() {
                continue;
            }
            moves.push(text);
            walk(&next, plies - 1, moves, out);
            moves.pop();
        }
    }
    let mut out = Vec::new();
    walk(&Game::start(variant), plies, &mut Vec::new(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_fens_numbers_and_comments() {
        let text = "# a set\n1. 11-15 23-19 2. 8-11  # first\n\nB:W21-32:B1-12\n";
        let o = parse_openings(text, Variant::English).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].moves, ["11-15", "23-19", "8-11"]);
        assert_eq!(o[0].name, "first");
        assert_eq!(o[1].fen.as_deref(), Some("B:W21-32:B1-12"));
        let err = parse_openings("11-15 11-15\n", Variant::English).unwrap_err();
        assert_eq!(err.line, 1);
        assert!(!builtin(Variant::English).is_empty() && !builtin(Variant::Russian).is_empty());
    }
}
