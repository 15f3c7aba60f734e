//! The text of `enginecommand`: the commands of CheckerBoard's API read into a `Command`. What
//! each one does is the session's business; here is only the reading, so that every command
//! the API names is either understood, known but unsupported (answered `?`, which makes
//! CheckerBoard grey out the option) or unknown.

use crate::notation::quote::quote;
use std::fmt;

/// An engine option that CheckerBoard sets and reads, and the entry of the options table
/// (`protocol::options`) behind it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineOption {
    /// `hashsize`: the transposition table in MiB (option `Hash`).
    HashSize,
    /// `searchthreads`: search threads (option `Threads`).
    SearchThreads,
    /// `dbpath`: the endgame databases' directory (option `EGTBPath`; docs/EGTB.md).
    DbPath,
    /// `skill`: the strength level, beginner to full (option `Skill`; docs/WEB.md).
    Skill,
}

impl EngineOption {
    /// The name in CheckerBoard's commands.
    pub fn api_name(self) -> &'static str {
        match self {
            EngineOption::HashSize => "hashsize",
            EngineOption::SearchThreads => "searchthreads",
            EngineOption::DbPath => "dbpath",
            EngineOption::Skill => "skill",
        }
    }

    /// The name in the options table (its UCI name).
    pub fn option_name(self) -> &'static str {
        match self {
            EngineOption::HashSize => "Hash",
            EngineOption::SearchThreads => "Threads",
            EngineOption::DbPath => "EGTBPath",
            EngineOption::Skill => "Skill",
        }
    }

    fn from_api_name(name: &str) -> Option<EngineOption> {
        [
            EngineOption::HashSize,
            EngineOption::SearchThreads,
            EngineOption::DbPath,
            EngineOption::Skill,
        ]
        .into_iter()
        .find(|o| o.api_name() == name)
    }
}

/// The options of CheckerBoard's API that Crownhead does not have: the Kingsrow and Cake
/// database switches, the opening book file, the all-scores and solve modes.
pub const UNSUPPORTED: [&str; 8] = [
    "allscores",
    "bookfile",
    "dbmbytes",
    "enable_mtc",
    "enable_wld",
    "max_dbpieces",
    "mtcpath",
    "solve",
];

/// One command of CheckerBoard's API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `name`: the engine's name.
    Name,
    /// `about`: a few lines about the engine.
    About,
    /// `help`: the name of an HTML help file.
    Help,
    /// `get protocolversion`.
    ProtocolVersion,
    /// `get gametype`.
    GetGameType,
    /// `set gametype <n>`, with the number as given.
    SetGameType(String),
    /// `get <option>`.
    Get(EngineOption),
    /// `set <option> <value>`, with the value as given (for `dbpath`, the rest of the line).
    Set(EngineOption, String),
    /// `get book`.
    GetBook,
    /// `set book <n>`.
    SetBook(String),
    /// `set gamehist <FEN> [moves]`: the game since its last irreversible move.
    GameHistory(String),
    /// `get movelist <FEN>`.
    MoveList(String),
    /// `get` or `set` of an option of the API that Crownhead does not have.
    Unsupported(String),
}

/// Why a command line was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// Nothing but whitespace.
    Empty,
    /// Not a command of the API.
    Unknown(String),
    /// A `set` (or `get movelist`) without its value.
    MissingValue(String),
    /// Words after a command that takes none.
    UnexpectedArgument {
        /// The command.
        command: String,
        /// The first extra word.
        argument: String,
    },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Empty => write!(f, "empty command"),
            CommandError::Unknown(c) => write!(f, "unknown command {}", quote(c)),
            CommandError::MissingValue(c) => write!(f, "{c}: missing value"),
            CommandError::UnexpectedArgument { command, argument } => {
                write!(f, "{command}: unexpected argument {}", quote(argument))
            }
        }
    }
}

impl std::error::Error for CommandError {}

/// Reads one command. Words are separated by whitespace; command and option words are matched
/// without regard to case (CheckerBoard sends lower case); values keep their text.
pub fn parse(text: &str) -> Result<Command, CommandError> {
    let text = text.trim();
    let (verb, rest) = split_word(text);
    let verb = verb.to_ascii_lowercase();
    match verb.as_str() {
        "" => Err(CommandError::Empty),
        "name" => no_args_after(&verb, rest, Command::Name),
        "about" => no_args_after(&verb, rest, Command::About),
        "help" => no_args_after(&verb, rest, Command::Help),
        "get" | "set" => {
            let (key, value) = split_word(rest);
            let key = key.to_ascii_lowercase();
            let full = format!("{verb} {key}");
            let value = value.trim();
            let value_of = || {
                if value.is_empty() {
                    Err(CommandError::MissingValue(full.clone()))
                } else {
                    Ok(value.to_string())
                }
            };
            let get = verb == "get";
            match (get, key.as_str()) {
                (_, "") => Err(CommandError::MissingValue(verb.clone())),
                (true, "protocolversion") => no_args_after(&full, value, Command::ProtocolVersion),
                (true, "gametype") => no_args_after(&full, value, Command::GetGameType),
                (false, "gametype") => value_of().map(Command::SetGameType),
                (true, "book") => no_args_after(&full, value, Command::GetBook),
                (false, "book") => value_of().map(Command::SetBook),
                (false, "gamehist") => value_of().map(Command::GameHistory),
                (true, "movelist") => value_of().map(Command::MoveList),
                (_, k) if UNSUPPORTED.contains(&k) => Ok(Command::Unsupported(full)),
                (_, k) => match EngineOption::from_api_name(k) {
                    Some(o) if get => no_args_after(&full, value, Command::Get(o)),
                    Some(o) => value_of().map(|v| Command::Set(o, v)),
                    None => Err(CommandError::Unknown(full)),
                },
            }
        }
        _ => Err(CommandError::Unknown(verb)),
    }
}

fn no_args_after(command: &str, rest: &str, ok: Command) -> Result<Command, CommandError> {
    match split_word(rest).0 {
        "" => Ok(ok),
        extra => Err(CommandError::UnexpectedArgument {
            command: command.to_string(),
            argument: extra.to_string(),
        }),
    }
}

/// The first word of `text` and the rest after it.
fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    match text.find(char::is_whitespace) {
        Some(i) => (&text[..i], &text[i..]),
        None => (text, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commands_of_the_api_are_read() {
        let ok = |t: &str| parse(t).unwrap();
        assert_eq!(ok("name"), Command::Name);
        assert_eq!(ok("  about "), Command::About);
        assert_eq!(ok("help"), Command::Help);
        assert_eq!(ok("get protocolversion"), Command::ProtocolVersion);
        assert_eq!(ok("GET GameType"), Command::GetGameType);
        assert_eq!(ok("set gametype 25"), Command::SetGameType("25".into()));
        assert_eq!(ok("get hashsize"), Command::Get(EngineOption::HashSize));
        assert_eq!(
            ok("set hashsize 128"),
            Command::Set(EngineOption::HashSize, "128".into())
        );
        assert_eq!(
            ok("set searchthreads 2"),
            Command::Set(EngineOption::SearchThreads, "2".into())
        );
        assert_eq!(
            ok("set dbpath C:\\Program Files\\db dir"),
            Command::Set(EngineOption::DbPath, "C:\\Program Files\\db dir".into())
        );
        assert_eq!(ok("get book"), Command::GetBook);
        assert_eq!(ok("set book 0"), Command::SetBook("0".into()));
        assert_eq!(
            ok("set gamehist B:WK12,K27,30,32:B21,K24,28,K31 24-19 27-24"),
            Command::GameHistory("B:WK12,K27,30,32:B21,K24,28,K31 24-19 27-24".into())
        );
        assert_eq!(
            ok("get movelist W:W:B1"),
            Command::MoveList("W:W:B1".into())
        );
        assert_eq!(
            ok("set enable_wld 1"),
            Command::Unsupported("set enable_wld".into())
        );
        assert_eq!(
            ok("get dbmbytes"),
            Command::Unsupported("get dbmbytes".into())
        );
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let err = |t: &str| parse(t).unwrap_err().to_string();
        assert_eq!(err(""), "empty command");
        assert_eq!(err("fly away"), "unknown command 'fly'");
        assert_eq!(err("get wings"), "unknown command 'get wings'");
        assert_eq!(err("set gametype"), "set gametype: missing value");
        assert_eq!(err("set hashsize   "), "set hashsize: missing value");
        assert_eq!(err("get movelist"), "get movelist: missing value");
        assert_eq!(err("get"), "get: missing value");
        assert_eq!(err("name please"), "name: unexpected argument 'please'");
        assert_eq!(
            err("get hashsize 5"),
            "get hashsize: unexpected argument '5'"
        );
        // `get` of a setting that is only set, and the other way round, is not a command.
        assert_eq!(err("get gamehist"), "unknown command 'get gamehist'");
        assert_eq!(err("set movelist x"), "unknown command 'set movelist'");
        assert_eq!(
            err("set protocolversion 3"),
            "unknown command 'set protocolversion'"
        );
        assert!(err(&"\u{1}x".repeat(300)).len() < 200);
    }
}
