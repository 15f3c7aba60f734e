//! What `enginecommand` answers to each command (read by `command`): the engine's name and
//! options through the shared options table, the game history, the move list. The API's
//! convention: return 1 when the command was handled; 0 with `?` for a command the engine does
//! not have (CheckerBoard then greys out that option); 0 with a reason when it was refused.

use super::cbmove::{movelist_text, NO_MOVES};
use super::cbuf::TEXT_SIZE;
use super::command::{self, Command, CommandError, EngineOption, UNSUPPORTED};
use super::session::Session;
use crate::game::Game;
use crate::notation::fen::{parse_fen, to_fen, FenProblem};
use crate::notation::quote::quote;
use crate::protocol::options::{self, Frame};
use crate::protocol::ProtocolError;
use crate::variant::Variant;

/// The engine's name, as `name` gives it.
pub const NAME: &str = concat!("Crownhead ", env!("CARGO_PKG_VERSION"));

/// The API version, as `get protocolversion` gives it.
pub const PROTOCOL_VERSION: &str = "2";

/// The help file `help` writes (into the system's temporary directory) and names.
pub const HELP_FILE: &str = "crownhead-checkerboard-help.html";

/// An answer: whether the command was handled (`enginecommand`'s return value) and the reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// 1 for handled, 0 for refused or not known.
    pub handled: bool,
    /// The text for `reply`.
    pub text: String,
}

impl Reply {
    fn ok(text: impl Into<String>) -> Reply {
        Reply {
            handled: true,
            text: text.into(),
        }
    }

    fn refused(text: impl Into<String>) -> Reply {
        Reply {
            handled: false,
            text: text.into(),
        }
    }
}

impl Session {
    /// `enginecommand`: answers one command line.
    pub fn command(&self, text: &str) -> Reply {
        let command = match command::parse(text) {
            Ok(c) => c,
            Err(e @ CommandError::Unknown(_)) => return Reply::refused(format!("? {e}")),
            Err(e) => return Reply::refused(e.to_string()),
        };
        match command {
            Command::Name => Reply::ok(NAME),
            Command::About => Reply::ok(about()),
            Command::Help => self.help(),
            Command::ProtocolVersion => Reply::ok(PROTOCOL_VERSION),
            Command::GetGameType => Reply::ok(self.variant().game_type().to_string()),
            Command::SetGameType(n) => self.set_game_type(&n),
            Command::Get(o) => Reply::ok(self.option_value(o)),
            Command::Set(o, value) => self.set_option(o.api_name(), o.option_name(), &value),
            Command::GetBook => Reply::ok("0"),
            Command::SetBook(n) if n == "0" => Reply::ok("book 0: Crownhead has no opening book"),
            Command::SetBook(n) => Reply::refused(format!(
                "book {}: Crownhead has no opening book; book stays 0",
                quote(&n)
            )),
            Command::GameHistory(text) => self.set_history(&text),
            Command::MoveList(fen) => self.move_list(&fen),
            Command::Unsupported(_) => Reply::refused("?"),
        }
    }

    fn option_value(&self, option: EngineOption) -> String {
        let spec = options::find(option.option_name(), false).expect("an option of the table");
        (spec.current)(&self.engine().settings)
    }

    /// Sets an option of the table by its API name `api` and table name `name`; refused while a
    /// search runs, since the searcher is in use then.
    fn set_option(&self, api: &str, name: &str, value: &str) -> Reply {
        if self.thinking() {
            return Reply::refused(format!(
                "{api} not changed: a search is running; send the command again after the move"
            ));
        }
        let spec = options::find(name, false).expect("an option of the table");
        let parsed = match spec.parse(false, Some(value)) {
            Ok(v) => v,
            Err(ProtocolError::BadValue { expected, .. }) => {
                return Reply::refused(format!(
                    "{api}: bad value {} (expected {expected})",
                    quote(value)
                ))
            }
            Err(e) => return Reply::refused(format!("{api}: {e}")),
        };
        let result = self.engine().set_option(spec, parsed);
        match result {
            Ok(()) => {
                let now = (spec.current)(&self.engine().settings);
                Reply::ok(format!("{api} set to {now}"))
            }
            Err(e) => Reply::refused(format!("{api} not changed: {e}")),
        }
    }

    /// `set gametype`: any of `game_types()`; a change starts afresh.
    fn set_game_type(&self, text: &str) -> Reply {
        let Some(variant) = Variant::from_game_type(text) else {
            let why = match text.trim().parse::<u32>() {
                Ok(n) => format!("gametype {n} is not played"),
                _ => format!("gametype: bad value {}", quote(text)),
            };
            return Reply::refused(format!("{why}: Crownhead plays {}", game_types()));
        };
        let reply = self.set_option("gametype", "Variant", variant.name());
        if reply.handled {
            *self.history() = Default::default();
            return Reply::ok(format!(
                "gametype set to {} ({variant})",
                variant.game_type()
            ));
        }
        reply
    }

    /// `set gamehist <FEN> [moves]`: kept for the next `getmove`, which uses it if it ends in
    /// the position searched. A history that cannot be read is dropped.
    ///
    /// CheckerBoard writes FENs and moves with PDN numbers. pydraughts' `CheckerBoardEngine`
    /// writes a Russian FEN algebraically and its moves with the numbers of its own Russian
    /// frame (1 = a1, the rows turned over: `Frame::Pydraughts06`); an algebraic FEN marks that
    /// sender, so then the numbers of the moves are read in that frame.
    fn set_history(&self, text: &str) -> Reply {
        let variant = self.variant();
        let mut words = text.split_whitespace();
        let fen = words.next().unwrap_or("");
        let frame = if variant == Variant::Russian && fen_is_algebraic(fen) {
            Frame::Pydraughts06
        } else {
            Frame::Consistent
        };
        let game = Game::from_fen(variant, fen).map_err(|e| e.to_string());
        let game = game.and_then(|mut game| {
            for (i, word) in words.enumerate() {
                game.play_text(&renumbered(word, frame, variant))
                    .map_err(|e| format!("move {} {}: {e}", i + 1, quote(word)))?;
            }
            Ok(game)
        });
        let mut history = self.history();
        match game {
            Ok(game) => {
                let reply = format!(
                    "gamehist: {} moves to {}",
                    game.moves().len(),
                    to_fen(game.position())
                );
                history.sent = Some(game);
                Reply::ok(reply)
            }
            Err(why) => {
                history.sent = None;
                Reply::refused(format!("gamehist not used: {why}"))
            }
        }
    }

    /// `get movelist <FEN>` in the variant played. A side to move without pieces has no move:
    /// CheckerBoard checks the command with such a position.
    fn move_list(&self, fen: &str) -> Reply {
        let variant = self.variant();
        let text = match parse_fen(fen) {
            Ok(pos) => movelist_text(&pos, &variant.legal_moves(&pos)),
            Err(e) if matches!(e.problem, FenProblem::SideToMoveHasNoPieces(_)) => {
                NO_MOVES.to_string()
            }
            Err(e) => return Reply::refused(format!("movelist: {e}")),
        };
        if text.len() >= TEXT_SIZE {
            return Reply::refused(format!(
                "movelist: the {} bytes of the list do not fit in the reply",
                text.len()
            ));
        }
        Reply::ok(text)
    }

    /// `help`: writes the help page into the temporary directory and names it; CheckerBoard
    /// opens the file it is given with the system's HTML viewer.
    fn help(&self) -> Reply {
        let path = std::env::temp_dir().join(HELP_FILE);
        match std::fs::write(&path, self.help_page()) {
            Ok(()) => Reply::ok(path.display().to_string()),
            Err(e) => Reply::refused(format!("? cannot write the help file: {e}")),
        }
    }

    fn help_page(&self) -> String {
        let value = |o| html(&self.option_value(o));
        let rows = [
            (
                "name, about, help",
                "the engine's name, a note about it, this page".into(),
            ),
            ("get protocolversion", PROTOCOL_VERSION.to_string()),
            (
                "get gametype, set gametype N",
                format!("now {} ({})", self.variant().game_type(), game_types()),
            ),
            (
                "get/set hashsize",
                format!("hash table in MiB, now {}", value(EngineOption::HashSize)),
            ),
            (
                "get/set searchthreads",
                format!("search threads, now {}", value(EngineOption::SearchThreads)),
            ),
            (
                "get/set dbpath",
                format!(
                    "Crownhead's endgame databases: a directory, empty for the default, off for \
                     none; now '{}'",
                    value(EngineOption::DbPath)
                ),
            ),
            (
                "get/set skill",
                format!(
                    "strength: beginner, novice, casual, club, strong, expert or full; now {}",
                    value(EngineOption::Skill)
                ),
            ),
            ("get/set book", "0: Crownhead has no opening book".into()),
            (
                "set gamehist FEN moves",
                "the game since its last capture or man move".into(),
            ),
            (
                "get movelist FEN",
                "the legal moves, in the API's format".into(),
            ),
        ];
        let mut page = format!(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{NAME}</title></head>\
             <body>\n<h1>{NAME}</h1>\n<p>{}</p>\n<table>\n",
            html(&about()).replace('\n', "<br>")
        );
        for (command, meaning) in rows {
            page.push_str(&format!(
                "<tr><td><code>{command}</code></td><td>{meaning}</td></tr>\n"
            ));
        }
        page.push_str(&format!(
            "</table>\n<p>Not supported (answered <code>?</code>): {}.</p>\n</body></html>\n",
            UNSUPPORTED.join(", ")
        ));
        page
    }
}

/// Whether a FEN names its squares algebraically (`W:Wa1,c3:Bb6`).
fn fen_is_algebraic(fen: &str) -> bool {
    fen.split(':')
        .skip(1)
        .flat_map(|group| group.get(1..).unwrap_or("").split(','))
        .any(|item| {
            item.trim_start_matches(['K', 'k'])
                .starts_with(|c: char| c.is_ascii_lowercase())
        })
}

/// A move text with its square numbers read in `frame` and written in docs/RULES.md's
/// numbering; algebraic squares and separators are kept.
fn renumbered(word: &str, frame: Frame, variant: Variant) -> String {
    let mut out = String::with_capacity(word.len());
    let mut number = String::new();
    let flush = |number: &mut String, out: &mut String| {
        match number.parse::<u32>() {
            Ok(n @ 1..=32) => out.push_str(&frame.map_square(variant, n).to_string()),
            _ => out.push_str(number),
        }
        number.clear();
    };
    for c in word.chars() {
        // A digit after a file letter is an algebraic square's rank, not a number.
        if c.is_ascii_digit() && !out.ends_with(|p: char| ('a'..='h').contains(&p)) {
            number.push(c);
        } else {
            flush(&mut number, &mut out);
            out.push(c);
        }
    }
    flush(&mut number, &mut out);
    out
}

/// `about`: a few lines for CheckerBoard's message box.
fn about() -> String {
    format!(
        "{NAME}\nA checkers engine for English, Russian, Brazilian, Pool, Italian, Spanish and \
         Czech draughts.\nCheckerBoard API {PROTOCOL_VERSION}: gametypes {}.\nMIT licence.",
        game_types()
    )
}

/// The gametypes played, with their variants: `21 english, 25 russian, ...`.
fn game_types() -> String {
    Variant::ALL
        .map(|v| format!("{} {v}", v.game_type()))
        .join(", ")
}

/// Text made safe for HTML.
fn html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(session: &Session, text: &str) -> (bool, String) {
        let r = session.command(text);
        (r.handled, r.text)
    }

    #[test]
    fn identity_and_game_type() {
        let s = Session::with_variant(Variant::English);
        assert_eq!(answer(&s, "name"), (true, NAME.to_string()));
        assert!(answer(&s, "about")
            .1
            .contains("English, Russian, Brazilian"));
        assert_eq!(answer(&s, "get protocolversion"), (true, "2".into()));
        assert_eq!(answer(&s, "get gametype"), (true, "21".into()));
        assert_eq!(
            answer(&s, "set gametype 25"),
            (true, "gametype set to 25 (russian)".into())
        );
        assert_eq!(answer(&s, "get gametype"), (true, "25".into()));
        for (n, name) in [
            (22, "italian"),
            (24, "spanish"),
            (26, "brazilian"),
            (29, "czech"),
        ] {
            assert_eq!(
                answer(&s, &format!("set gametype {n}")),
                (true, format!("gametype set to {n} ({name})"))
            );
        }
        answer(&s, "set gametype 25");
        let (handled, text) = answer(&s, "set gametype 30");
        assert!(
            !handled && text.contains("25 russian, 21 english, 26 brazilian"),
            "{text}"
        );
        assert!(!answer(&s, "set gametype chess").0);
        assert_eq!(answer(&s, "get gametype"), (true, "25".into()));
    }

    #[test]
    fn options_go_through_the_options_table() {
        let s = Session::with_variant(Variant::Russian);
        assert_eq!(answer(&s, "get hashsize"), (true, "64".into()));
        assert_eq!(
            answer(&s, "set hashsize 16"),
            (true, "hashsize set to 16".into())
        );
        assert_eq!(answer(&s, "get hashsize"), (true, "16".into()));
        assert_eq!(
            answer(&s, "set hashsize 0"),
            (
                false,
                "hashsize: bad value '0' (expected an integer from 1 to 65536)".into()
            )
        );
        assert_eq!(
            answer(&s, "set searchthreads 2"),
            (true, "searchthreads set to 2".into())
        );
        assert_eq!(answer(&s, "get searchthreads"), (true, "2".into()));
        let (handled, text) = answer(&s, "set dbpath /no/such/directory");
        assert!(!handled && text.starts_with("dbpath not changed"), "{text}");
        assert_eq!(
            answer(&s, "set dbpath off"),
            (true, "dbpath set to off".into())
        );
        assert_eq!(answer(&s, "get book"), (true, "0".into()));
        assert!(answer(&s, "set book 0").0);
        assert!(!answer(&s, "set book 3").0);
    }

    #[test]
    fn options_are_not_changed_under_a_search() {
        let s = Session::with_variant(Variant::Russian);
        s.thinking.store(true, std::sync::atomic::Ordering::SeqCst);
        let (handled, text) = answer(&s, "set hashsize 8");
        assert!(!handled && text.contains("a search is running"), "{text}");
        assert!(!answer(&s, "set gametype 21").0);
        assert_eq!(answer(&s, "get hashsize"), (true, "64".into()));
        assert_eq!(answer(&s, "get gametype"), (true, "25".into()));
    }

    #[test]
    fn unknown_and_unsupported_commands_are_refused() {
        let s = Session::with_variant(Variant::English);
        assert_eq!(answer(&s, "set enable_wld 1"), (false, "?".into()));
        assert_eq!(answer(&s, "get allscores"), (false, "?".into()));
        assert_eq!(answer(&s, "fly"), (false, "? unknown command 'fly'".into()));
        assert_eq!(answer(&s, ""), (false, "empty command".into()));
        assert_eq!(
            answer(&s, "set hashsize"),
            (false, "set hashsize: missing value".into())
        );
    }

    #[test]
    fn movelist_answers_in_the_variant_played() {
        let s = Session::with_variant(Variant::Russian);
        // CheckerBoard's check: a position without moves answers exactly `movelist 0`.
        assert_eq!(
            answer(&s, "get movelist W:W:B1"),
            (true, "movelist 0".into())
        );
        assert_eq!(
            answer(&s, "get movelist W:W29:B25,22"),
            (true, "movelist 0".into())
        );
        let (handled, text) = answer(&s, "get movelist W:W21-32:B1-12");
        assert!(handled && text.starts_with("movelist 7,0,5,5,"), "{text}");
        // A king's long capture: the russian rule, not the english one.
        assert_eq!(
            answer(&s, "get movelist W:WK29:B15,1")
                .1
                .matches(';')
                .count(),
            3
        );
        assert!(!answer(&s, "get movelist W:W99:B1").0);
    }

    #[test]
    fn gamehist_is_read_or_refused() {
        let s = Session::with_variant(Variant::English);
        let (handled, text) = answer(
            &s,
            "set gamehist B:WK12,K27,30,32:B21,K24,28,K31 24-19 27-24 19-15 12-16",
        );
        assert!(handled, "{text}");
        assert_eq!(text, "gamehist: 4 moves to B:WK16,K24,30,32:BK15,21,28,K31");
        assert!(s.history().sent.is_some());
        let (handled, text) = answer(&s, "set gamehist B:W21-32:B1-12 22-18");
        assert!(
            !handled && text.starts_with("gamehist not used: move 1 '22-18'"),
            "{text}"
        );
        assert!(s.history().sent.is_none());
    }

    #[test]
    fn pydraughts_russian_histories_are_read_in_its_frame() {
        let s = Session::with_variant(Variant::Russian);
        // pydraughts' numbers for e1-h4 and back (its 3 and 16 are e1 and h4).
        let (handled, text) = answer(&s, "set gamehist B:Wa1,e3,f4,b2:Bc7,d8,h8,Ke1 3-16 11-14");
        assert!(handled, "{text}");
        assert!(text.starts_with("gamehist: 2 moves to B:"), "{text}");
        // CheckerBoard's numeric FEN keeps its numbers as they are.
        let (handled, text) = answer(&s, "set gamehist B:W29,23,19,25:B6,2,4,K31 31-20 25-21");
        assert!(handled, "{text}");
        assert_eq!(
            renumbered("c3:e5", Frame::Pydraughts06, Variant::Russian),
            "c3:e5"
        );
        assert_eq!(
            renumbered("9x18x27", Frame::Pydraughts06, Variant::Russian),
            "21x14x7"
        );
        assert!(fen_is_algebraic("W:Wa1,Kc3:B5") && !fen_is_algebraic("W:W1-3,K5:B9"));
    }

    #[test]
    fn help_names_a_page_that_lists_the_commands() {
        let s = Session::with_variant(Variant::English);
        let (handled, path) = answer(&s, "help");
        assert!(handled);
        let page = std::fs::read_to_string(&path).unwrap();
        assert!(
            page.contains("set gametype N") && page.contains("enable_wld"),
            "{page}"
        );
    }
}
