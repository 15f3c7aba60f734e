//! The text front ends: a UCI-style dialect (`uci.rs`) and Hub v2 extended to 8x8 (`hub.rs`),
//! both over one engine layer (`engine.rs`) that owns the game, the options and the search
//! thread. The reader loop here reads its input (stdin, in the binary) line by line, lets the
//! first command choose the dialect, prints each error as one line of that dialect and carries
//! on.
//!
//! Output goes through `Out`, which writes whole lines under a lock and flushes each one, so the
//! search thread's `info` lines and the reader's answers never interleave mid-line.

pub mod engine;
mod hub;
pub mod options;
mod uci;

use crate::notation::fen::FenError;
use crate::notation::move_text::MoveError;
use crate::notation::quote::{printable, quote};
use std::fmt;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

pub use engine::Engine;
pub use options::{Frame, Settings};

/// The longest line read; the rest of a longer line is skipped and the line rejected, so that
/// a stream without newlines cannot exhaust memory.
pub const MAX_LINE: usize = 64 * 1024;

/// Why a command line was rejected. The loop prints it as one error line and carries on; the
/// engine's state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProtocolError {
    /// The command word is not known.
    UnknownCommand(String),
    /// A required argument is missing.
    Missing {
        /// The command.
        command: String,
        /// What is missing.
        what: String,
    },
    /// A value is malformed or out of range.
    BadValue {
        /// What the value is for.
        what: String,
        /// The value as given.
        value: String,
        /// What is allowed.
        expected: String,
    },
    /// An argument that the command does not take.
    UnexpectedArgument {
        /// The command.
        command: String,
        /// The argument.
        argument: String,
    },
    /// Two arguments that each set the same thing (two positions in one `pos`).
    Conflict {
        /// The command.
        command: String,
        /// What they both set, plural ("positions").
        what: String,
        /// The first argument's name.
        first: String,
        /// The second argument's name.
        second: String,
    },
    /// No option of that name.
    UnknownOption(String),
    /// A position that cannot be read.
    Fen(FenError),
    /// A move that cannot be read or is not legal.
    Move {
        /// The move's index in the list, from 1.
        index: usize,
        /// Why.
        error: MoveError,
    },
    /// The command cannot run while a search is going on.
    Busy(String),
    /// The line is longer than `MAX_LINE` bytes.
    LineTooLong(usize),
    /// Quoting or other syntax is broken; the message quotes any input it shows.
    Syntax(String),
    /// The machine cannot provide what was asked (memory for the hash table).
    Resource(String),
    /// The command needs the engine to be initialised first (Hub's `init`).
    NotReady(String),
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::UnknownCommand(c) => write!(f, "unknown command {}", quote(c)),
            ProtocolError::Missing { command, what } => write!(f, "{command}: missing {what}"),
            ProtocolError::BadValue {
                what,
                value,
                expected,
            } => {
                write!(
                    f,
                    "{what}: bad value {} (expected {expected})",
                    quote(value)
                )
            }
            ProtocolError::UnexpectedArgument { command, argument } => {
                write!(f, "{command}: unexpected argument {}", quote(argument))
            }
            ProtocolError::Conflict {
                command,
                what,
                first,
                second,
            } => write!(
                f,
                "{command}: two {what}, {} and {}; give one",
                quote(first),
                quote(second)
            ),
            ProtocolError::UnknownOption(o) => write!(f, "unknown option {}", quote(o)),
            ProtocolError::Fen(e) => write!(f, "{e}"),
            ProtocolError::Move { index, error } => write!(f, "move {index}: {error}"),
            ProtocolError::Busy(c) => {
                write!(f, "{c}: not allowed while searching (send stop first)")
            }
            ProtocolError::LineTooLong(n) => {
                write!(f, "line too long ({n} bytes, at most {MAX_LINE})")
            }
            ProtocolError::Syntax(s) => write!(f, "syntax: {s}"),
            ProtocolError::Resource(s) => f.write_str(s),
            ProtocolError::NotReady(c) => write!(f, "{c}: send init first"),
        }
    }
}

impl std::error::Error for ProtocolError {}

impl From<FenError> for ProtocolError {
    fn from(e: FenError) -> Self {
        ProtocolError::Fen(e)
    }
}

/// Protocol output: whole lines, flushed at once, shared by the reader and the search thread.
#[derive(Clone)]
pub struct Out {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Out {
    /// Output to any writer (tests use a buffer).
    pub fn new(sink: Box<dyn Write + Send>) -> Out {
        Out {
            sink: Arc::new(Mutex::new(sink)),
        }
    }

    /// Output to stdout.
    pub fn stdout() -> Out {
        Out::new(Box::new(std::io::stdout()))
    }

    /// Writes one line and flushes it. If the reader of our output has gone there is no one to
    /// talk to, so the process ends. Input echoed in a line is quoted where the line is made;
    /// `printable` here is the last guard that no control character ever reaches the client.
    pub fn line(&self, text: &str) {
        let text = printable(text);
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        log::trace!(">> {text}");
        if writeln!(sink, "{text}").and_then(|_| sink.flush()).is_err() {
            log::debug!("stdout closed; exiting");
            std::process::exit(0);
        }
    }
}

/// Writes a dialect's `help`: one line per command, its syntax padded to one column, for a person
/// at the prompt (a GUI never sends `help`, so the lines need no protocol prefix).
fn write_help(out: &Out, title: &str, commands: &[(&str, &str)]) {
    out.line(title);
    let width = commands.iter().map(|(c, _)| c.len()).max().unwrap_or(0);
    for (command, what) in commands {
        out.line(&format!("  {command:<width$}  {what}"));
    }
}

/// The one line a person who starts the engine in a terminal sees (on stderr, so that stdout
/// stays the protocol): what this is and how to go on.
pub fn greeting() -> String {
    let names: Vec<&str> = crate::Variant::ALL.iter().map(|v| v.name()).collect();
    format!(
        "Crownhead {}, a draughts engine ({}). Type 'help' for the commands, 'quit' to leave.",
        env!("CARGO_PKG_VERSION"),
        names.join(", ")
    )
}

/// What a dialect asks the loop to do after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// Stop reading and exit.
    Quit,
}

/// The two dialects, chosen by the first command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DialectKind {
    /// The UCI-style dialect.
    Uci,
    /// Hub v2 extended to 8x8.
    Hub,
}

enum Dialect {
    Uci(uci::Uci),
    Hub(hub::Hub),
}

impl Dialect {
    fn handle(
        &mut self,
        engine: &mut Engine,
        out: &Out,
        line: &str,
    ) -> Result<Flow, ProtocolError> {
        match self {
            Dialect::Uci(d) => d.handle(engine, out, line),
            Dialect::Hub(d) => d.handle(engine, out, line),
        }
    }

    fn error_line(&self, e: &ProtocolError) -> String {
        match self {
            Dialect::Uci(_) => uci::error_line(e),
            Dialect::Hub(_) => hub::error_line(e),
        }
    }
}

/// Reads one line of at most `MAX_LINE` bytes (the rest is skipped). `Ok(None)` at end of input;
/// `Err(n)` for a longer line of `n` bytes. Invalid UTF-8 is replaced, not rejected here, so the
/// dialect reports it as an unknown command or a bad value like any other garbage.
fn read_line(input: &mut dyn BufRead) -> std::io::Result<Option<Result<String, usize>>> {
    let mut buf = Vec::new();
    let mut total = 0usize;
    let mut newline = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            if total == 0 {
                return Ok(None);
            }
            break;
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if buf.len() < MAX_LINE {
            let room = MAX_LINE - buf.len();
            buf.extend_from_slice(&chunk[..take.min(room)]);
        }
        total += take;
        input.consume(take);
        if done {
            newline = true;
            break;
        }
    }
    let content = total - usize::from(newline);
    if content > MAX_LINE {
        return Ok(Some(Err(content)));
    }
    let text = String::from_utf8_lossy(&buf);
    Ok(Some(Ok(text.trim_end_matches(['\n', '\r']).to_string())))
}

/// One protocol session fed line by line: the engine, the dialect the first command chose and
/// the output. `run` feeds it stdin; a host without a stdin (the browser's worker) feeds it the
/// lines it receives, so both answer every line alike.
pub struct Session {
    engine: Engine,
    dialect: Option<Dialect>,
    out: Out,
}

impl Session {
    /// A session writing to `out`. `dialect` is `None` when the first command chooses: `hub`
    /// starts Hub, anything else is read as the UCI-style dialect.
    pub fn new(out: Out, dialect: Option<DialectKind>) -> Session {
        Session::with_engine(Engine::new(), out, dialect)
    }

    /// `new` with an engine made by the caller (one given a weights file, say).
    pub fn with_engine(engine: Engine, out: Out, dialect: Option<DialectKind>) -> Session {
        Session {
            engine,
            dialect: dialect.map(|k| match k {
                DialectKind::Uci => Dialect::Uci(uci::Uci::new()),
                DialectKind::Hub => Dialect::Hub(hub::Hub::new()),
            }),
            out,
        }
    }

    /// The engine, to adjust what the protocol does not reach (`Engine::set_signals`).
    pub fn engine(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// Handles one line (without its newline), or `Err(n)` for a line of `n` bytes that was
    /// too long to read; an error is answered with one line of the dialect.
    pub fn line(&mut self, line: Result<String, usize>) -> Flow {
        log::trace!("<< {line:?}");
        if matches!(&line, Ok(l) if l.trim().is_empty()) {
            return Flow::Continue;
        }
        let dialect = self.dialect.get_or_insert_with(|| match &line {
            Ok(l) if l.split_whitespace().next() == Some("hub") => Dialect::Hub(hub::Hub::new()),
            _ => Dialect::Uci(uci::Uci::new()),
        });
        let result = match line {
            Ok(l) if l.len() > MAX_LINE => Err(ProtocolError::LineTooLong(l.len())),
            Ok(l) => dialect.handle(&mut self.engine, &self.out, &l),
            Err(n) => Err(ProtocolError::LineTooLong(n)),
        };
        match result {
            Ok(flow) => flow,
            Err(e) => {
                log::debug!("error: {e}");
                self.out.line(&dialect.error_line(&e));
                Flow::Continue
            }
        }
    }

    /// Ends the session: after `quit`, stops any search; at the end of input (`quit` false),
    /// lets a search that ends by itself finish first.
    pub fn finish(mut self, quit: bool) {
        if quit {
            self.engine.shutdown();
        } else {
            self.engine.finish_input();
        }
    }
}

/// Runs the protocol loop until `quit` or end of input. `dialect` is `None` when the first
/// command chooses: `hub` starts Hub, anything else is read as the UCI-style dialect.
pub fn run(input: &mut dyn BufRead, out: Out, dialect: Option<DialectKind>) {
    run_session(Session::new(out, dialect), input);
}

/// `run` of a session made by the caller.
pub fn run_session(mut session: Session, input: &mut dyn BufRead) {
    // A read error on stdin ends the session like end of input.
    let mut quit = false;
    while let Ok(Some(line)) = read_line(input) {
        if session.line(line) == Flow::Quit {
            quit = true;
            break;
        }
    }
    session.finish(quit);
}

/// Runs the loop on stdin and stdout: the `crownhead` binary's front end, so only with the
/// `cli` feature. A library user embedding the engine calls `run` with its own reader and `Out`.
/// `eval_file` plays in place of its variant's embedded weights (`crownhead --eval-file`).
#[cfg(feature = "cli")]
pub fn run_stdio(
    dialect: Option<DialectKind>,
    eval_file: Option<std::sync::Arc<crate::learned::Learned>>,
) {
    use std::io::IsTerminal;
    let stdin = std::io::stdin();
    // Only a person types at a terminal; GUIs and scripts talk through pipes and see nothing new.
    if stdin.is_terminal() {
        eprintln!("{}", greeting());
    }
    let mut lock = stdin.lock();
    let engine = Engine::with_eval_file(eval_file);
    run_session(
        Session::with_engine(engine, Out::stdout(), dialect),
        &mut lock,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_and_reported() {
        let mut text = vec![b'a'; MAX_LINE + 10];
        text.extend_from_slice(b"\nisready\r\nlast");
        let mut input = std::io::Cursor::new(text);
        assert_eq!(read_line(&mut input).unwrap(), Some(Err(MAX_LINE + 10)));
        assert_eq!(read_line(&mut input).unwrap(), Some(Ok("isready".into())));
        assert_eq!(read_line(&mut input).unwrap(), Some(Ok("last".into())));
        assert_eq!(read_line(&mut input).unwrap(), None);
    }

    fn session(input: &str, dialect: Option<DialectKind>) -> String {
        #[derive(Clone)]
        struct Shared(Arc<Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let buf = Shared(Arc::new(Mutex::new(Vec::new())));
        run(
            &mut std::io::Cursor::new(input.as_bytes().to_vec()),
            Out::new(Box::new(buf.clone())),
            dialect,
        );
        let bytes = buf.0.lock().unwrap().clone();
        String::from_utf8(bytes).unwrap()
    }

    /// `help` lists the dialect's commands, and every command it lists is one the dialect
    /// knows (a listed word that the dialect calls unknown fails the test).
    /// `prefix` chooses the dialect as the stdin loop does (its first command).
    fn help_lists_known_commands(prefix: &str) {
        let text = session(&format!("{prefix}help\n"), None);
        let listed: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("  "))
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        assert!(listed.contains(&"quit") && listed.len() >= 10, "{text}");
        for command in listed {
            let answer = session(&format!("{prefix}{command}\n"), None);
            assert!(!answer.contains("unknown command"), "{command}: {answer}");
        }
    }

    #[test]
    fn help_lists_each_dialects_commands() {
        help_lists_known_commands("");
        help_lists_known_commands("hub\n");
    }

    #[test]
    fn the_greeting_names_every_variant() {
        let line = greeting();
        for v in crate::Variant::ALL {
            assert!(line.contains(v.name()), "{line}");
        }
        assert!(line.contains("help"));
    }

    #[test]
    fn the_first_command_chooses_the_dialect() {
        assert!(session("\n  \nhub\nping\n", None).ends_with("wait\npong\n"));
        assert_eq!(
            session("isready\nhub\n", None),
            "readyok\ninfo string error: unknown command 'hub'\n"
        );
        assert_eq!(session("ping\n", Some(DialectKind::Hub)), "pong\n");
    }

    #[test]
    fn errors_quote_input_escaped_and_short() {
        let e = ProtocolError::UnknownCommand("a\u{0}b".into());
        assert_eq!(e.to_string(), r"unknown command 'a\0b'");
        let e = ProtocolError::UnknownOption("x".repeat(500));
        assert!(e.to_string().len() < 130);
    }

    #[test]
    fn output_lines_never_carry_control_characters() {
        let out = session("\u{1}\u{1b}[2J\nposition fen W:W21:B1\u{0}\n", None);
        assert!(
            out.split('\n').all(|l| !l.contains(char::is_control)),
            "{out:?}"
        );
        assert_eq!(out.lines().count(), 2, "{out:?}");
    }
}
