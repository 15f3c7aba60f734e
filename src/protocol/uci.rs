//! The UCI-style dialect, Crownhead's native protocol: UCI's commands and replies with PDN FENs
//! and draughts moves. Moves are read in any unambiguous form (numeric, or algebraic) and written
//! in the variant's usual notation (english numeric, russian algebraic), captures always with
//! every landing square so that any client can match them.

use super::engine::{Engine, Report, Reporter};
use super::options::{self, OPTIONS};
use super::{Flow, Out, ProtocolError};
use crate::game::Game;
use crate::movegen::Counting;
use crate::notation::fen::to_fen_in;
use crate::notation::move_text::{default_style, full_text};
use crate::search::{Clock, Limits, Score, SearchInfo, SearchOutcome};
use crate::SquareStyle;
use std::time::Duration;

/// The commands of this dialect, one line each, for `help` (docs/PROTOCOL.md has the details).
#[rustfmt::skip]
const HELP: &[(&str, &str)] = &[
    ("uci", "identify the engine and list its options, then uciok"),
    ("isready", "answer readyok once the engine is ready"),
    ("setoption name N [value V]", "set an option (Variant, Hash, Threads, ...)"),
    ("ucinewgame", "forget the last game; the start position"),
    ("position startpos|fen F [moves M...]", "set the position, then play moves"),
    ("go [depth D|nodes N|movetime MS|wtime ...|infinite]", "search; ends with bestmove"),
    ("stop", "end the search now and answer bestmove"),
    ("ponderhit", "the pondered move was played; search on for real"),
    ("d", "show the board, its FEN and the legal moves"),
    ("perft D", "count the leaves of the move tree to depth D"),
    ("eval", "the static evaluation, term by term"),
    ("hub", "(as the first command) speak Hub instead"),
    ("help", "this list"),
    ("quit", "leave"),
];

/// The deepest `perft` accepted (depth 14 from the start takes hours; `stop` ends it).
pub const MAX_PERFT: u32 = 14;

/// The dialect's state between lines (everything lasting lives in the `Engine`).
#[derive(Default)]
pub struct Uci;

/// The error line of this dialect.
pub fn error_line(e: &ProtocolError) -> String {
    format!("info string error: {e}")
}

fn bad(what: &str, value: &str, expected: &str) -> ProtocolError {
    ProtocolError::BadValue {
        what: what.to_string(),
        value: value.to_string(),
        expected: expected.to_string(),
    }
}

/// Reads an integer in `min..=max`.
fn number<T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy>(
    what: &str,
    text: Option<&str>,
    min: T,
    max: T,
) -> Result<T, ProtocolError> {
    let t = text.ok_or_else(|| ProtocolError::Missing {
        command: what.to_string(),
        what: "a value".into(),
    })?;
    match t.parse::<T>() {
        Ok(n) if n >= min && n <= max => Ok(n),
        _ => Err(bad(what, t, &format!("an integer from {min} to {max}"))),
    }
}

/// Reads a time in milliseconds. GUIs send negative times when a clock has run out, so those
/// are read as zero rather than rejected.
fn millis(what: &str, text: Option<&str>) -> Result<Duration, ProtocolError> {
    let n = number::<i64>(what, text, i64::MIN, i64::MAX)?;
    Ok(Duration::from_millis(n.max(0) as u64))
}

/// The words that start an argument of `go` (and so end a `searchmoves` list).
const GO_KEYWORDS: [&str; 12] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "infinite",
    "ponder",
    "mate",
    "searchmoves",
];

impl Uci {
    /// A fresh dialect state.
    pub fn new() -> Uci {
        Uci
    }

    /// Handles one line.
    pub fn handle(
        &mut self,
        engine: &mut Engine,
        out: &Out,
        line: &str,
    ) -> Result<Flow, ProtocolError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (command, args) = match words.split_first() {
            Some((c, rest)) => (*c, rest),
            None => return Ok(Flow::Continue),
        };
        let no_args = || match args.first() {
            Some(a) => Err(ProtocolError::UnexpectedArgument {
                command: command.to_string(),
                argument: a.to_string(),
            }),
            None => Ok(()),
        };
        match command {
            "uci" => {
                no_args()?;
                out.line(&format!("id name Crownhead {}", env!("CARGO_PKG_VERSION")));
                out.line("id author the Crownhead authors");
                for o in OPTIONS.iter().filter(|o| o.uci.is_some()) {
                    out.line(&o.uci_line());
                }
                out.line("uciok");
            }
            "isready" => {
                no_args()?;
                out.line("readyok");
            }
            "setoption" => self.setoption(engine, args)?,
            "ucinewgame" => {
                no_args()?;
                engine.new_game()?;
                engine.game = Game::start(engine.settings.variant);
            }
            "position" => engine.game = parse_position(engine, args)?,
            "go" => self.go(engine, out, args)?,
            "stop" => {
                no_args()?;
                engine.stop();
            }
            "ponderhit" => {
                no_args()?;
                engine.ponderhit();
            }
            "quit" => {
                no_args()?;
                return Ok(Flow::Quit);
            }
            "d" => {
                no_args()?;
                show(engine, out);
            }
            "help" => {
                no_args()?;
                super::write_help(out, "Crownhead speaks a UCI-style protocol:", HELP);
            }
            "perft" => perft(engine, out, args)?,
            "eval" => {
                no_args()?;
                let terms = engine.eval_terms();
                for (name, value) in &terms {
                    out.line(&format!("{name} {value}"));
                }
                let total: i32 = terms.iter().map(|t| t.1).sum();
                out.line(&format!(
                    "total {total} (hundredths of a man, side to move)"
                ));
            }
            other => return Err(ProtocolError::UnknownCommand(other.to_string())),
        }
        Ok(Flow::Continue)
    }

    /// `setoption name <Name words> [value <value words>]`.
    fn setoption(&mut self, engine: &mut Engine, args: &[&str]) -> Result<(), ProtocolError> {
        let missing = |what: &str| ProtocolError::Missing {
            command: "setoption".into(),
            what: what.into(),
        };
        if args.first() != Some(&"name") {
            return Err(missing("'name <option>'"));
        }
        let value_at = args.iter().position(|w| *w == "value");
        let name = args[1..value_at.unwrap_or(args.len())].join(" ");
        if name.is_empty() {
            return Err(missing("the option name"));
        }
        let value = value_at.map(|i| args[i + 1..].join(" "));
        let spec = options::find(&name, false)?;
        let value = spec.parse(false, value.as_deref().filter(|v| !v.is_empty()))?;
        engine.set_option(spec, value)
    }

    /// `go` with UCI's limits; the search runs on the engine's thread.
    fn go(&mut self, engine: &mut Engine, out: &Out, args: &[&str]) -> Result<(), ProtocolError> {
        let mut limits = Limits::default();
        let mut ponder = false;
        let (mut time, mut inc) = ([None, None], [Duration::ZERO, Duration::ZERO]);
        let mut moves_to_go = None;
        let mut i = 0;
        while i < args.len() {
            let key = args[i];
            let value = args.get(i + 1).copied();
            i += 2;
            match key {
                "wtime" => time[0] = Some(millis(key, value)?),
                "btime" => time[1] = Some(millis(key, value)?),
                "winc" => inc[0] = millis(key, value)?,
                "binc" => inc[1] = millis(key, value)?,
                "movestogo" => moves_to_go = Some(number(key, value, 1u32, 10_000)?),
                "depth" => limits.depth = Some(number(key, value, 1u32, crate::search::MAX_DEPTH)?),
                "nodes" => limits.nodes = Some(number(key, value, 1u64, u64::MAX)?),
                "movetime" => {
                    limits.movetime = Some(Duration::from_millis(number(
                        key,
                        value,
                        0u64,
                        u64::MAX / 2,
                    )?))
                }
                "infinite" => {
                    limits.infinite = true;
                    i -= 1;
                }
                "ponder" => {
                    ponder = true;
                    i -= 1;
                }
                "mate" => {
                    limits.mate = Some(number(key, value, 1u32, crate::search::MAX_DEPTH / 2)?)
                }
                "searchmoves" => {
                    // Every word up to the next keyword of `go` is a root move.
                    i -= 1;
                    let pos = engine.game.position();
                    while i < args.len() && !GO_KEYWORDS.contains(&args[i]) {
                        let mv = crate::parse_move(args[i], pos, engine.settings.variant).map_err(
                            |error| ProtocolError::Move {
                                index: limits.searchmoves.len() + 1,
                                error,
                            },
                        )?;
                        limits.searchmoves.push(mv);
                        i += 1;
                    }
                    if limits.searchmoves.is_empty() {
                        return Err(ProtocolError::Missing {
                            command: "go searchmoves".into(),
                            what: "a move".into(),
                        });
                    }
                }
                _ => {
                    return Err(ProtocolError::UnexpectedArgument {
                        command: "go".into(),
                        argument: key.to_string(),
                    })
                }
            }
        }
        let side = engine.game.position().side().index();
        if let Some(t) = time[side] {
            limits.clock = Some(Clock {
                time: t,
                increment: inc[side],
                moves_to_go,
            });
        }
        if !engine.searching() {
            if let Some(hint) = engine.database_hint() {
                out.line(&format!("info string {hint}"));
            }
        }
        let reporter = reporter(out.clone(), default_style(engine.settings.variant));
        engine.go(limits, ponder, reporter)
    }
}

/// `position startpos|fen <FEN> [moves m1 m2 ...]`, read into a new game; nothing changes unless
/// the whole line is valid.
fn parse_position(engine: &Engine, args: &[&str]) -> Result<Game, ProtocolError> {
    let variant = engine.settings.variant;
    let moves_at = args
        .iter()
        .position(|w| *w == "moves")
        .unwrap_or(args.len());
    let mut game = match args.first() {
        Some(&"startpos") if moves_at == 1 => Game::start(variant),
        Some(&"startpos") => {
            return Err(ProtocolError::UnexpectedArgument {
                command: "position".into(),
                argument: args[1].into(),
            })
        }
        Some(&"fen") if moves_at > 1 => Game::from_fen(variant, &args[1..moves_at].join(" "))?,
        Some(&"fen") => {
            return Err(ProtocolError::Missing {
                command: "position fen".into(),
                what: "the FEN".into(),
            })
        }
        Some(other) => return Err(bad("position", other, "startpos or fen")),
        None => {
            return Err(ProtocolError::Missing {
                command: "position".into(),
                what: "startpos or fen".into(),
            })
        }
    };
    for (i, text) in args.iter().skip(moves_at + 1).enumerate() {
        game.play_text(text).map_err(|error| ProtocolError::Move {
            index: i + 1,
            error,
        })?;
    }
    Ok(game)
}

/// Turns the search's reports into `info` and `bestmove` lines.
fn reporter(out: Out, style: SquareStyle) -> Reporter {
    Box::new(move |report| match report {
        Report::Info(info) => out.line(&info_line(info, style)),
        Report::Done(outcome) => out.line(&bestmove_line(outcome, style)),
    })
}

/// `score cp <hundredths of a man>` or `score mate <moves>`.
pub fn score_text(score: Score) -> String {
    match score.mate_moves() {
        Some(m) => format!("mate {m}"),
        None => format!("cp {}", score.0),
    }
}

fn info_line(info: &SearchInfo, style: SquareStyle) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} tbhits {} time {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score_text(info.score),
        info.nodes,
        info.nps,
        info.hashfull,
        info.tbhits,
        info.time_ms
    );
    if !info.pv.is_empty() {
        s.push_str(" pv");
        for m in &info.pv {
            s.push(' ');
            s.push_str(&full_text(m, style));
        }
    }
    s
}

/// `bestmove <m> [ponder <m>]`, or `bestmove (none)` when the position has no legal move.
fn bestmove_line(outcome: &SearchOutcome, style: SquareStyle) -> String {
    match (outcome.best, outcome.ponder) {
        (None, _) => "bestmove (none)".to_string(),
        (Some(b), None) => format!("bestmove {}", full_text(&b, style)),
        (Some(b), Some(p)) => format!(
            "bestmove {} ponder {}",
            full_text(&b, style),
            full_text(&p, style)
        ),
    }
}

/// `d`: the board, the FEN, the side to move, the legal moves and the result if the game is over.
fn show(engine: &Engine, out: &Out) {
    let game = &engine.game;
    let pos = game.position();
    for row in pos.diagram().lines() {
        out.line(row);
    }
    out.line(&format!("Variant: {}", game.variant()));
    out.line(&format!("FEN: {}", to_fen_in(game.variant(), pos)));
    out.line(&format!("Side to move: {}", pos.side()));
    let style = default_style(game.variant());
    let legal: Vec<String> = game
        .legal_moves()
        .iter()
        .map(|m| full_text(m, style))
        .collect();
    out.line(&format!(
        "Legal moves ({}): {}",
        legal.len(),
        legal.join(" ")
    ));
    if let Some(o) = game.outcome() {
        out.line(&format!("Result: {} ({})", o.result.pdn(), o.reason));
    }
}

/// `perft <depth>`: the count under each root move, then the total. It runs on the engine's
/// thread, so `isready` is answered meanwhile and `stop` or `quit` end it, with a line saying so
/// in place of the counts.
fn perft(engine: &mut Engine, out: &Out, args: &[&str]) -> Result<(), ProtocolError> {
    if let Some(extra) = args.get(1) {
        return Err(ProtocolError::UnexpectedArgument {
            command: "perft".into(),
            argument: extra.to_string(),
        });
    }
    let depth = number("perft depth", args.first().copied(), 1u32, MAX_PERFT)?;
    let variant = engine.game.variant();
    let position = *engine.game.position();
    let out = out.clone();
    engine.run_task("perft", move |control, done| {
        let stopped = || control.stopped();
        let Some(counts) =
            crate::perft::divide_until(variant, &position, depth, Counting::Unique, &stopped)
        else {
            done();
            out.line(&format!("info string perft {depth} stopped"));
            return;
        };
        let style = default_style(variant);
        let mut total = 0;
        for (m, n) in counts {
            out.line(&format!("{}: {n}", full_text(&m, style)));
            total += n;
        }
        done();
        out.line(&format!("Nodes: {total}"));
    })
}
