//! PDN 3.0 game files: reading many games from one text (tags, any variant's `GameType`, `FEN`
//! setups, moves in numeric or algebraic notation, comments kept per move, variations skipped,
//! results) and writing them back. Reading is tolerant of real files (see `lexer`), and every
//! move is checked by `Game`, so an illegal move gives a `PdnError` naming the game, the move
//! number and the text instead of a wrong game.
//!
//! ```
//! use crownhead::pdn::{decode, parse_pdn, read_games};
//! use crownhead::{GameResult, Variant};
//!
//! let text = r#"[Event "Club night"]
//! [White "Ann"]
//! [Black "Bob"]
//! [GameType "21"]
//! 1. 11-15 23-19 2. 8-11 {a solid reply} 22-17 1-0
//!
//! [Event "Club night"]
//! [GameType "21"]
//! 1. 11-15 23-19 2. 15-24 *
//! "#;
//! // Files are bytes: UTF-8, or Latin-1 from older Windows programs.
//! let text = decode(text.as_bytes());
//!
//! // Each game on its own: the first is read, the second's illegal move is refused by name.
//! let read = parse_pdn(&text, None);
//! let first = read.games[0].as_ref().expect("a legal game");
//! assert_eq!(first.tag("White"), Some("Ann"));
//! assert_eq!(first.game.variant(), Variant::English);
//! assert_eq!(first.game.moves().len(), 4);
//! assert_eq!(first.comments[2].as_deref(), Some("a solid reply"));
//! assert_eq!(first.result, Some(GameResult::WhiteWins));
//! let refused = read.games[1].as_ref().unwrap_err();
//! assert_eq!(refused.game, 2);
//! assert!(refused.to_string().contains("15-24"), "{refused}");
//!
//! // Or all or nothing: the first bad game stops the reading.
//! assert!(read_games(&text, None).is_err());
//! ```

mod lexer;
mod write;

use crate::bitboard::Color;
use crate::game::{Game, GameResult};
use crate::notation::fen::FenError;
use crate::notation::move_text::MoveError;
use crate::variant::Variant;
use lexer::Token;
use std::borrow::Cow;
use std::fmt;

pub use write::write_games;

/// One game of a PDN file.
#[derive(Clone, Debug)]
pub struct PdnGame {
    /// The tags in file order (name, value).
    pub tags: Vec<(String, String)>,
    /// The moves, checked against the rules, from the start position or the `FEN` tag.
    pub game: Game,
    /// The result from the result token, or else the `Result` tag; `None` when unknown (`*`).
    pub result: Option<GameResult>,
    /// The comment after each move (`comments[i]` follows move `i`), if any.
    pub comments: Vec<Option<String>>,
    /// A comment written after the last move, before the result (e.g. why the game ended).
    pub end_comment: Option<String>,
}

impl PdnGame {
    /// A game with no tags, comments or result yet.
    pub fn new(game: Game) -> PdnGame {
        let comments = vec![None; game.moves().len()];
        PdnGame {
            tags: Vec::new(),
            game,
            result: None,
            comments,
            end_comment: None,
        }
    }

    /// A tag's value (names compare without regard to case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing an earlier value or adding it at the end.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self
            .tags
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some(slot) => slot.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The game as PDN text (see `write_games`).
    pub fn to_pdn(&self) -> String {
        write::write_game(self)
    }

    /// "White vs Black, Event" for messages, from whichever of those tags are present.
    pub fn describe(&self) -> String {
        describe_tags(&self.tags)
    }
}

fn describe_tags(tags: &[(String, String)]) -> String {
    let get = |name: &str| {
        tags.iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    let mut parts = Vec::new();
    if let (Some(w), Some(b)) = (get("White"), get("Black")) {
        parts.push(format!("{w} - {b}"));
    }
    for name in ["Event", "Round", "Date"] {
        if let Some(v) = get(name).filter(|v| !v.is_empty() && *v != "?") {
            parts.push(format!("{name} {v}"));
        }
    }
    parts.join(", ")
}

/// What went wrong in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PdnProblem {
    /// A move that is not legal (or not a move) in its position.
    Move {
        /// The move number as PDN counts it (pairs of moves, the variant's first mover first).
        number: u32,
        /// The side that was to move.
        side: Color,
        /// The move text as written.
        text: String,
        /// Why the rules refused it.
        error: MoveError,
    },
    /// The `FEN` tag could not be read.
    Fen(FenError),
    /// A `GameType` that names no variant the engine plays.
    GameType(String),
}

/// An error in one game of a PDN file: which game (1-based index and its tags) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError {
    /// The game's 1-based position in the file.
    pub game: usize,
    /// The game's tags, to name it.
    pub tags: Vec<(String, String)>,
    /// What is wrong.
    pub problem: PdnProblem,
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.game)?;
        let described = describe_tags(&self.tags);
        if !described.is_empty() {
            write!(f, " ({})", crate::notation::quote::printable(&described))?;
        }
        match &self.problem {
            PdnProblem::Move {
                number,
                side,
                text,
                error,
            } => {
                let text = crate::notation::quote::quote(text);
                write!(f, ": move {number} ({side} to play) {text}: {error}")
            }
            PdnProblem::Fen(e) => write!(f, ": {e}"),
            PdnProblem::GameType(t) => write!(
                f,
                ": unsupported GameType {} (expected one of {})",
                crate::notation::quote::quote(t),
                Variant::game_types()
            ),
        }
    }
}

impl std::error::Error for PdnError {}

/// Something broken in a PDN text that the reader read past, with its 1-based line; the games
/// around it are still read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnWarning {
    /// The line where the broken part starts.
    pub line: usize,
    /// What is broken.
    pub problem: Broken,
}

/// The kinds of broken PDN text the reader reads past.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Broken {
    /// A tag cut off before its value ends (`[Resu`, `[Event "Open`): dropped. Holds the text.
    CutOffTag(String),
    /// A tag with its value but no `]` on its line: kept. Holds the text.
    UnclosedTag(String),
    /// A `{` never closed: the comment ends before the tag on line `until`, or with the text.
    UnclosedComment {
        /// The line of the next game's tag that ends it, if any.
        until: Option<usize>,
    },
    /// A `(` never closed: skipped up to the tag on line `until`, or to the end of the text.
    UnclosedVariation {
        /// The line of the next game's tag that ends it, if any.
        until: Option<usize>,
    },
}

impl fmt::Display for PdnWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: ", self.line)?;
        let rest = |until: &Option<usize>| match until {
            Some(line) => format!("up to the tag on line {line}"),
            None => "to the end of the text".to_string(),
        };
        match &self.problem {
            Broken::CutOffTag(text) => write!(
                f,
                "tag '{}' is cut off (no closing '\"' or ']' on its line); ignored",
                shown(text)
            ),
            Broken::UnclosedTag(text) => write!(
                f,
                "tag '{}' has no closing ']' on its line; read to the end of the line",
                shown(text)
            ),
            Broken::UnclosedComment { until } => {
                write!(
                    f,
                    "comment '{{' is never closed; read as a comment {}",
                    rest(until)
                )
            }
            Broken::UnclosedVariation { until } => {
                write!(f, "variation '(' is never closed; skipped {}", rest(until))
            }
        }
    }
}

/// Text from a file for a message, its control characters escaped (`\u{0}`), since a message
/// goes to a terminal.
fn shown(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Why a PDN text gave no game at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoGame {
    /// Nothing but whitespace.
    Empty,
    /// Not text: a control byte (such as NUL) on this line, as in a binary file.
    NotText {
        /// The first line with a control byte.
        line: usize,
    },
    /// Text without a tag, a move or a result (only comments, say).
    NothingFound,
    /// Games were found and none could be read; each has its `PdnError`.
    Refused {
        /// How many.
        games: usize,
    },
}

impl fmt::Display for NoGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no game: ")?;
        match self {
            NoGame::Empty => f.write_str("the text is empty"),
            NoGame::NotText { line } => {
                write!(
                    f,
                    "not text (a control byte on line {line}; a binary file?)"
                )
            }
            NoGame::NothingFound => f.write_str("no tags, moves or results found"),
            NoGame::Refused { games: 1 } => f.write_str("the one game found could not be read"),
            NoGame::Refused { games } => write!(f, "the {games} games found could not be read"),
        }
    }
}

impl std::error::Error for NoGame {}

/// Everything read from a PDN text: each game or its error, in file order, and the warnings
/// about broken text read past.
#[derive(Clone, Debug)]
pub struct PdnRead {
    /// Each game, or why it could not be read.
    pub games: Vec<Result<PdnGame, PdnError>>,
    /// Broken text read past, in file order.
    pub warnings: Vec<PdnWarning>,
    /// Why no game could be read, when none could.
    pub no_game: Option<NoGame>,
}

/// Decodes file bytes: UTF-8 when they are valid UTF-8 (a byte-order mark is dropped), Latin-1
/// otherwise, since that is what older PDN files from Windows programs are written in.
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| b as char).collect()),
    }
}

/// The raw parts of one game before its moves are checked.
#[derive(Default)]
struct RawGame {
    tags: Vec<(String, String)>,
    moves: Vec<(String, Option<String>)>,
    result: Option<Option<GameResult>>,
    end_comment: Option<String>,
}

impl RawGame {
    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.moves.is_empty() && self.result.is_none()
    }
}

/// Reads every game of a PDN text, each on its own: a bad game gives its error and the others
/// are still read; broken text read past gives warnings (see `PdnRead`). Games without a
/// `GameType` tag are `default` (english when `None` and the moves are numeric, russian when
/// they are algebraic).
pub fn parse_pdn(text: &str, default: Option<Variant>) -> PdnRead {
    let (tokens, warnings) = lexer::tokenize(text);
    let mut raws = Vec::new();
    let mut raw = RawGame::default();
    for token in tokens {
        match token {
            Token::Tag(name, value) => {
                // A tag after move text or a result starts the next game (a missing result).
                if !raw.moves.is_empty() || raw.result.is_some() {
                    raws.push(std::mem::take(&mut raw));
                }
                raw.tags.push((name, value));
            }
            Token::Move(m) => {
                if raw.result.is_some() {
                    raws.push(std::mem::take(&mut raw));
                }
                raw.moves.push((m, None));
            }
            Token::Comment(c) if !c.is_empty() => match raw.moves.last_mut() {
                Some((_, slot)) if raw.result.is_none() => append(slot, &c),
                _ if raw.result.is_none() => append(&mut raw.end_comment, &c),
                _ => {}
            },
            Token::Comment(_) => {}
            Token::Result(r) => {
                if raw.result.is_some() {
                    raws.push(std::mem::take(&mut raw));
                }
                raw.result = Some(r);
            }
        }
    }
    if !raw.is_empty() {
        raws.push(raw);
    }
    let games: Vec<_> = raws
        .into_iter()
        .enumerate()
        .map(|(i, raw)| build(i + 1, raw, default))
        .collect();
    let no_game = if games.iter().any(Result::is_ok) {
        None
    } else if text.trim().is_empty() {
        Some(NoGame::Empty)
    } else if let Some(line) = control_line(text) {
        Some(NoGame::NotText { line })
    } else if games.is_empty() {
        Some(NoGame::NothingFound)
    } else {
        Some(NoGame::Refused { games: games.len() })
    };
    PdnRead {
        games,
        warnings,
        no_game,
    }
}

/// The first line holding a control character that no text file has: an ASCII control other
/// than a tab, line end or form feed, or the Ctrl-Z that old DOS files end with. (Not the C1
/// range: Windows-1252 files read as Latin-1 have their curly quotes there.)
fn control_line(text: &str) -> Option<usize> {
    let at = text.find(|c: char| {
        (c.is_ascii_control()) && !matches!(c, '\t' | '\n' | '\r' | '\x0c' | '\x1a')
    })?;
    Some(text[..at].matches('\n').count() + 1)
}

/// The games of `parse_pdn`, without its warnings.
pub fn parse_games(text: &str, default: Option<Variant>) -> Vec<Result<PdnGame, PdnError>> {
    parse_pdn(text, default).games
}

/// Reads every game of a PDN text; the first bad game's error stops it.
pub fn read_games(text: &str, default: Option<Variant>) -> Result<Vec<PdnGame>, PdnError> {
    parse_games(text, default).into_iter().collect()
}

fn append(slot: &mut Option<String>, text: &str) {
    match slot {
        Some(s) => {
            s.push(' ');
            s.push_str(text);
        }
        None => *slot = Some(text.to_string()),
    }
}

/// The PDN move number of the ply at `index` from a start where `side` is to move.
pub fn move_number(variant: Variant, side: Color, index: usize) -> u32 {
    let offset = usize::from(side != variant.first_to_move());
    ((index + offset) / 2 + 1) as u32
}

fn build(index: usize, raw: RawGame, default: Option<Variant>) -> Result<PdnGame, PdnError> {
    let err = |problem| PdnError {
        game: index,
        tags: raw.tags.clone(),
        problem,
    };
    let tag = |name: &str| {
        raw.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim())
    };
    let variant = match tag("GameType") {
        Some(t) => {
            Variant::from_game_type(t).ok_or_else(|| err(PdnProblem::GameType(t.to_string())))?
        }
        None => default.unwrap_or_else(|| {
            let algebraic = raw.moves.first().is_some_and(|(m, _)| {
                m.bytes()
                    .any(|b| (b'a'..=b'h').contains(&b.to_ascii_lowercase()))
            });
            if algebraic {
                Variant::Russian
            } else {
                Variant::English
            }
        }),
    };
    let mut game = match tag("FEN").filter(|f| !f.is_empty()) {
        Some(fen) => Game::from_fen(variant, fen).map_err(|e| err(PdnProblem::Fen(e)))?,
        None => Game::start(variant),
    };
    let side = game.position().side();
    let mut comments = Vec::with_capacity(raw.moves.len());
    for (i, (text, comment)) in raw.moves.iter().enumerate() {
        if let Err(error) = game.play_text(text) {
            let problem = PdnProblem::Move {
                number: move_number(variant, side, i),
                side: game.position().side(),
                text: text.clone(),
                error,
            };
            return Err(err(problem));
        }
        comments.push(comment.clone());
    }
    let result = match raw.result {
        Some(r) => r,
        None => tag("Result").and_then(lexer::parse_result).flatten(),
    };
    Ok(PdnGame {
        tags: raw.tags,
        game,
        result,
        comments,
        end_comment: raw.end_comment,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_game_says_why() {
        let why = |text: &str| parse_pdn(text, None).no_game;
        assert_eq!(why(""), Some(NoGame::Empty));
        assert_eq!(why(" \n\t\n"), Some(NoGame::Empty));
        assert_eq!(why("ab\ncd\u{0}ef"), Some(NoGame::NotText { line: 2 }));
        assert_eq!(
            why("{just a comment}\n; and another"),
            Some(NoGame::NothingFound)
        );
        assert_eq!(why("[Resu"), Some(NoGame::NothingFound));
        assert_eq!(why("random words"), Some(NoGame::Refused { games: 1 }));
        assert_eq!(
            why("[GameType \"20\"]\n1. 32-28 *\n[GameType \"30\"]\n*"),
            Some(NoGame::Refused { games: 2 })
        );
        assert_eq!(why("1. 11-15 *\u{1a}"), None);
        let e = NoGame::Refused { games: 1 }.to_string();
        assert_eq!(e, "no game: the one game found could not be read");
    }
}
