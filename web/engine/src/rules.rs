//! The rules for a page's main thread: the variants, where each square is drawn, a game to
//! play moves in and take them back, its result, PDN in and out, and a move's class by its
//! loss. Everything comes from the engine's library; answers are JSON strings, and errors the
//! library's own message, which the JavaScript module throws as an `Error` (exports.rs).

use crate::json;
use crownhead::bitboard::{Color, Square};
use crownhead::game::{EndReason, GameResult};
use crownhead::notation::move_text::{default_style, full_text};
use crownhead::notation::SquareStyle;
use crownhead::pdn::{parse_pdn, PdnGame};
use crownhead::search::Score;
use crownhead::variant::Variant;

/// An error: its message, as the page is shown it.
pub type Error = String;

fn error(message: impl std::fmt::Display) -> Error {
    message.to_string()
}

/// The variant of a name, or an error naming the ones there are.
fn variant_of(name: &str) -> Result<Variant, Error> {
    name.parse::<Variant>().map_err(error)
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn notation_name(variant: Variant) -> &'static str {
    match default_style(variant) {
        SquareStyle::Algebraic => "algebraic",
        SquareStyle::Numeric | SquareStyle::Mirrored => "numeric",
    }
}

/// Every variant the engine plays: `[{"name","gameType","startFen","notation"}]`.
pub fn variants() -> String {
    json::list(Variant::ALL.iter().map(|v| {
        format!(
            r#"{{"name":{},"gameType":{},"startFen":{},"notation":{}}}"#,
            json::string(v.name()),
            v.game_type(),
            json::string(v.start_fen()),
            json::string(notation_name(*v)),
        )
    }))
}

/// Where each of the 32 squares is drawn, seen from White's side: row 0 at the top, column 0
/// at the left, from the square's file and rank as the library numbers them.
pub fn layout(variant: &str) -> Result<String, Error> {
    variant_of(variant)?;
    Ok(json::list((1..=32).filter_map(Square::from_number).map(
        |sq| {
            format!(
                r#"{{"square":{},"row":{},"col":{}}}"#,
                sq.number(),
                8 - sq.rank(),
                sq.file()
            )
        },
    )))
}

/// A square's name as the variant writes it: `b8` (algebraic) or `1` (numeric).
pub fn square_name(variant: &str, square: u32) -> Result<String, Error> {
    let v = variant_of(variant)?;
    let sq = Square::from_number(square)
        .ok_or_else(|| error(format!("no square {square} (squares are 1 to 32)")))?;
    Ok(default_style(v).square(sq))
}

/// A move's class by the scores before and after it, from the mover's side, in centi-men:
/// "", "inaccuracy", "mistake" or "blunder", by the thresholds `crownhead analyze` uses.
pub fn classify(variant: &str, before: i32, after: i32) -> Result<String, Error> {
    variant_of(variant)?;
    let (_, class) = crownhead::judge::classify(Score(before), Score(after), false);
    Ok(class.unwrap_or("").to_string())
}

fn tags_json(tags: &[(String, String)]) -> String {
    let fields: Vec<String> = tags
        .iter()
        .map(|(k, v)| format!("{}:{}", json::string(k), json::string(v)))
        .collect();
    format!("{{{}}}", fields.join(","))
}

/// Every game of a PDN text: `{"games":[{"tags","variant","startFen","moves"}],"errors":[...]}`;
/// a game with an illegal move or a bad setup is an error naming it, and the others are read.
pub fn parse_pdn_text(text: &str) -> String {
    let read = parse_pdn(text, None);
    let mut games = Vec::new();
    let mut errors = Vec::new();
    for (i, g) in read.games.iter().enumerate() {
        match g {
            Ok(pdn) => {
                let game = &pdn.game;
                let style = default_style(game.variant());
                let moves = game
                    .moves()
                    .iter()
                    .map(|m| json::string(&full_text(m, style)));
                games.push(format!(
                    r#"{{"tags":{},"variant":{},"startFen":{},"moves":{},"result":{}}}"#,
                    tags_json(&pdn.tags),
                    json::string(game.variant().name()),
                    json::string(&crownhead::to_fen(game.start_position())),
                    json::list(moves),
                    json::string(pdn.result.map_or("*", GameResult::pdn)),
                ));
            }
            Err(e) => errors.push(format!(
                r#"{{"game":{},"message":{}}}"#,
                i + 1,
                json::string(&e.to_string())
            )),
        }
    }
    if let Some(none) = &read.no_game {
        errors.push(format!(
            r#"{{"game":0,"message":{}}}"#,
            json::string(&none.to_string())
        ));
    }
    format!(
        r#"{{"games":{},"errors":{}}}"#,
        json::list(games),
        json::list(errors)
    )
}

/// A game from a start position: moves played and taken back by the variant's rules.
pub struct Game {
    game: crownhead::Game,
}

impl Game {
    /// A game of `variant` from `fen`, or from the variant's start when `fen` is omitted.
    pub fn new(variant: &str, fen: Option<String>) -> Result<Game, Error> {
        let v = variant_of(variant)?;
        let game = match fen.as_deref().map(str::trim) {
            None | Some("") => crownhead::Game::start(v),
            Some(f) => crownhead::Game::from_fen(v, f).map_err(error)?,
        };
        Ok(Game { game })
    }

    /// The current position as PDN FEN, in the variant's numbering (mirrored for Italian and
    /// Spanish), as `new Game(variant, fen)` reads it back.
    pub fn fen(&self) -> String {
        crownhead::notation::fen::to_fen_in(self.game.variant(), self.game.position())
    }

    /// The variant's name.
    pub fn variant(&self) -> String {
        self.game.variant().name().to_string()
    }

    /// "white" or "black".
    pub fn side_to_move(&self) -> String {
        color_name(self.game.position().side()).to_string()
    }

    /// `[{"square","color","king"}]`, by square number.
    pub fn pieces(&self) -> String {
        let pos = self.game.position();
        json::list((1..=32).filter_map(Square::from_number).filter_map(|sq| {
            pos.piece_at(sq).map(|p| {
                format!(
                    r#"{{"square":{},"color":"{}","king":{}}}"#,
                    sq.number(),
                    color_name(p.color),
                    p.king
                )
            })
        }))
    }

    /// `[{"text","squares","captured"}]`: each legal move in the variant's notation, its
    /// squares (from, each landing square, to) and the squares it captures.
    pub fn legal_moves(&self) -> String {
        let style = default_style(self.game.variant());
        json::list(self.game.legal_moves().iter().map(|m| {
            let squares = std::iter::once(m.from())
                .chain(m.landings())
                .map(|s| s.number().to_string());
            let captured =
                crownhead::bitboard::squares(m.captured()).map(|s| s.number().to_string());
            format!(
                r#"{{"text":{},"squares":{},"captured":{}}}"#,
                json::string(&full_text(m, style)),
                json::list(squares),
                json::list(captured)
            )
        }))
    }

    /// Plays a move written in any notation the engine reads; an illegal move is an error and
    /// leaves the game as it was. Returns the move as the variant writes it.
    pub fn play(&mut self, text: &str) -> Result<String, Error> {
        let mv = self.game.play_text(text).map_err(error)?;
        Ok(full_text(&mv, default_style(self.game.variant())))
    }

    /// Takes back the last move; an error at the start.
    pub fn undo(&mut self) -> Result<(), Error> {
        self.game
            .undo()
            .map(|_| ())
            .ok_or_else(|| error("no move to take back"))
    }

    /// The moves played, in the variant's notation.
    pub fn moves(&self) -> String {
        let style = default_style(self.game.variant());
        json::list(
            self.game
                .moves()
                .iter()
                .map(|m| json::string(&full_text(m, style))),
        )
    }

    /// `{"over","result","reason"}` by the variant's rules (no legal move, repetition, the
    /// move-count rules).
    pub fn result(&self) -> String {
        match self.game.outcome() {
            None => r#"{"over":false,"result":"*","reason":""}"#.to_string(),
            Some(o) => {
                let reason = match o.reason {
                    EndReason::NoLegalMove => format!(
                        "{} has no legal move",
                        color_name(self.game.position().side())
                    ),
                    other => other.to_string(),
                };
                format!(
                    r#"{{"over":true,"result":{},"reason":{}}}"#,
                    json::string(o.result.pdn()),
                    json::string(&reason)
                )
            }
        }
    }

    /// The game as PDN with the given tags (a JSON object of strings) and its `GameType`.
    pub fn pdn(&self, tags_json: Option<String>) -> Result<String, Error> {
        let mut pdn = PdnGame::new(self.game.clone());
        for (k, v) in parse_tags(tags_json.as_deref().unwrap_or("{}"))? {
            pdn.set_tag(&k, v);
        }
        pdn.result = self.game.outcome().map(|o| o.result);
        Ok(pdn.to_pdn())
    }
}

/// Reads a flat JSON object of string values (`{"White":"Ann","Event":"x"}`), as the page
/// passes tags; anything else is an error.
fn parse_tags(text: &str) -> Result<Vec<(String, String)>, Error> {
    let bad = |what: &str| error(format!("tags: {what} (expected an object of strings)"));
    let mut chars = text.trim().chars().peekable();
    let mut out = Vec::new();
    let string = |chars: &mut std::iter::Peekable<std::str::Chars>| -> Result<String, Error> {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.next() != Some('"') {
            return Err(bad("a string must start with a quote"));
        }
        let mut s = String::new();
        loop {
            match chars.next() {
                Some('"') => return Ok(s),
                Some('\\') => match chars.next() {
                    Some('n') => s.push('\n'),
                    Some('t') => s.push('\t'),
                    Some(c @ ('"' | '\\' | '/')) => s.push(c),
                    _ => return Err(bad("an unknown escape")),
                },
                Some(c) => s.push(c),
                None => return Err(bad("an unterminated string")),
            }
        }
    };
    if chars.next() != Some('{') {
        return Err(bad("no opening brace"));
    }
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.next_if_eq(&'}').is_some() {
            break;
        }
        let key = string(&mut chars)?;
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.next() != Some(':') {
            return Err(bad("a key without a colon"));
        }
        let value = string(&mut chars)?;
        out.push((key, value));
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        match chars.next() {
            Some(',') => continue,
            Some('}') => break,
            _ => return Err(bad("a missing comma or brace")),
        }
    }
    if chars.any(|c| !c.is_whitespace()) {
        return Err(bad("text after the object"));
    }
    Ok(out)
}
