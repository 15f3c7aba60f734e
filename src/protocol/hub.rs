//! Hub protocol v2 (Scan 3.1's), extended to 8x8 (docs/PROTOCOL.md, "Hub v2, extended to 8x8"):
//! `pos` takes 1+32 characters (or a PDN FEN via `fen=`), and the `frame` param chooses how move
//! text numbers the squares (see `Frame`). Output respects pydraughts' parser: every argument is
//! `key=value` with no `=` inside a value, and `done` has the move first and at most a `ponder`.
//!
//! As in Scan, a line other than `ping`, `ponder-hit` or `stop` that arrives during a search
//! stops it; the search's `done` is printed and then the line is handled.

use super::engine::{Engine, Report, Reporter};
use super::options::{self, Frame, OPTIONS};
use super::{Flow, Out, ProtocolError};
use crate::game::Game;
use crate::moves::Move;
use crate::notation::fen::parse_fen_in;
use crate::notation::hub;
use crate::notation::move_text::MoveError;
use crate::notation::quote::quote;
use crate::search::{Clock, Limits, Score, SearchInfo, SearchOutcome};
use crate::variant::Variant;
use std::time::Duration;

/// The commands of this dialect, one line each, for `help` (docs/PROTOCOL.md has the details).
#[rustfmt::skip]
const HELP: &[(&str, &str)] = &[
    ("hub", "identify the engine and list its parameters, then wait"),
    ("set-param name=N value=V", "set a parameter (variant, hash, threads, ...)"),
    ("init", "answer ready once the engine is ready"),
    ("ping", "answer pong"),
    ("new-game", "forget the last game"),
    ("pos [pos=P|fen=F] [moves=\"M ...\"]", "set the position (Hub board or PDN FEN), then moves"),
    ("level depth=D|nodes=N|move-time=S|time=S inc=S|infinite", "how long the next go searches"),
    ("go think|ponder|analyze", "search; ends with done move=..."),
    ("ponder-hit", "the pondered move was played; search on for real"),
    ("stop", "end the search now and answer done"),
    ("help", "this list"),
    ("quit", "leave"),
];

/// The Hub search level, as set by `level` and reset by `pos`.
#[derive(Clone, Debug, Default, PartialEq)]
struct Level {
    depth: Option<u32>,
    nodes: Option<u64>,
    move_time: Option<f64>,
    time: Option<f64>,
    inc: Option<f64>,
    moves: Option<u32>,
    infinite: bool,
}

/// The dialect's state between lines.
#[derive(Default)]
pub struct Hub {
    level: Level,
    /// Whether `init` has come: Scan searches only after it, and a client that skips it has
    /// not set the variant it means.
    ready: bool,
}

/// The error line of this dialect. pydraughts splits arguments on `=` and spaces outside quotes,
/// so the message keeps neither `=` nor `"`.
pub fn error_line(e: &ProtocolError) -> String {
    let message: String = e
        .to_string()
        .chars()
        .map(|c| match c {
            '"' => '\'',
            '=' => ':',
            c => c,
        })
        .collect();
    format!("error message=\"{message}\"")
}

/// One argument: `key=value`, `key="quoted value"` or a bare flag.
type Arg = (String, Option<String>);

/// Splits a line into the command and its arguments.
fn tokenize(line: &str) -> Result<(String, Vec<Arg>), ProtocolError> {
    let mut chars = line.trim().chars().peekable();
    let mut words: Vec<Arg> = Vec::new();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.peek().is_none() {
            break;
        }
        let mut key = String::new();
        while let Some(c) = chars.next_if(|c| !c.is_whitespace() && *c != '=') {
            key.push(c);
        }
        if chars.next_if_eq(&'=').is_none() {
            words.push((key, None));
            continue;
        }
        let mut value = String::new();
        if chars.next_if_eq(&'"').is_some() {
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some(c) => value.push(c),
                    None => {
                        return Err(ProtocolError::Syntax(format!(
                            "unterminated quote in the value of {}",
                            quote(&key)
                        )))
                    }
                }
            }
        } else {
            while let Some(c) = chars.next_if(|c| !c.is_whitespace()) {
                value.push(c);
            }
        }
        words.push((key, Some(value)));
    }
    if words.is_empty() {
        return Ok((String::new(), words));
    }
    let (command, value) = words.remove(0);
    if value.is_some() {
        return Err(ProtocolError::Syntax(format!(
            "a command cannot have a value: {}",
            quote(&format!("{command}="))
        )));
    }
    Ok((command, words))
}

fn unexpected(command: &str, key: &str) -> ProtocolError {
    ProtocolError::UnexpectedArgument {
        command: command.to_string(),
        argument: key.to_string(),
    }
}

fn value<'a>(command: &str, key: &str, v: &'a Option<String>) -> Result<&'a str, ProtocolError> {
    v.as_deref().ok_or_else(|| ProtocolError::Missing {
        command: command.to_string(),
        what: format!("a value for {key}"),
    })
}

fn real(what: &str, text: &str) -> Result<f64, ProtocolError> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && (0.0..=1e9).contains(&x) => Ok(x),
        _ => Err(ProtocolError::BadValue {
            what: what.into(),
            value: text.into(),
            expected: "seconds from 0 to 1e9".into(),
        }),
    }
}

fn integer<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
    what: &str,
    text: &str,
    min: T,
    max: T,
) -> Result<T, ProtocolError> {
    match text.parse::<T>() {
        Ok(n) if n >= min && n <= max => Ok(n),
        _ => Err(ProtocolError::BadValue {
            what: what.into(),
            value: text.into(),
            expected: format!("an integer from {min} to {max}"),
        }),
    }
}

impl Hub {
    /// A fresh dialect state.
    pub fn new() -> Hub {
        Hub::default()
    }

    /// Handles one line.
    pub fn handle(
        &mut self,
        engine: &mut Engine,
        out: &Out,
        line: &str,
    ) -> Result<Flow, ProtocolError> {
        let (command, args) = tokenize(line)?;
        if engine.searching() {
            match command.as_str() {
                "ping" | "ponder-hit" | "stop" => {}
                // Scan's rule: any other line ends the search first.
                _ => {
                    engine.stop();
                    engine.wait();
                }
            }
        }
        let no_args = || match args.first() {
            Some((k, _)) => Err(unexpected(&command, k)),
            None => Ok(()),
        };
        match command.as_str() {
            "" => {}
            "hub" => {
                no_args()?;
                out.line(&format!(
                    "id name=Crownhead version={} author=\"the Crownhead authors\"",
                    env!("CARGO_PKG_VERSION")
                ));
                for o in OPTIONS.iter().filter(|o| o.hub.is_some()) {
                    out.line(&o.hub_line(&engine.settings));
                }
                out.line("wait");
            }
            "set-param" => set_param(engine, &args)?,
            "init" => {
                no_args()?;
                self.ready = true;
                out.line("ready");
            }
            "ping" => {
                no_args()?;
                out.line("pong");
            }
            "new-game" => {
                no_args()?;
                engine.new_game()?;
            }
            "pos" => {
                engine.game = parse_pos(engine.settings.variant, engine.settings.frame, &args)?;
                self.level = Level::default();
            }
            "level" => self.level = parse_level(&self.level, &args)?,
            "go" if !self.ready => return Err(ProtocolError::NotReady("go".into())),
            "go" => self.go(engine, out, &args)?,
            "ponder-hit" => {
                no_args()?;
                engine.ponderhit();
            }
            "stop" => {
                no_args()?;
                engine.stop();
            }
            "quit" => {
                no_args()?;
                return Ok(Flow::Quit);
            }
            "help" => {
                no_args()?;
                super::write_help(out, "Crownhead speaks Hub:", HELP);
            }
            _ => return Err(ProtocolError::UnknownCommand(command)),
        }
        Ok(Flow::Continue)
    }

    /// `go think|ponder|analyze` with the current level.
    fn go(&mut self, engine: &mut Engine, out: &Out, args: &[Arg]) -> Result<(), ProtocolError> {
        let is_mode = |m: &str| m == "think" || m == "ponder" || m == "analyze";
        let mode = match args {
            [(m, None)] if is_mode(m) => m.as_str(),
            [] => {
                return Err(ProtocolError::Missing {
                    command: "go".into(),
                    what: "think, ponder or analyze".into(),
                })
            }
            // A good mode followed by more: the first word after it is the wrong one.
            [(m, None), (k, _), ..] if is_mode(m) => return Err(unexpected("go", k)),
            [(k, _), ..] => return Err(unexpected("go", k)),
        };
        let l = &self.level;
        let secs = |s: f64| Duration::from_secs_f64(s);
        let mut limits = Limits {
            depth: l.depth,
            nodes: l.nodes,
            movetime: l.move_time.map(secs),
            clock: None,
            infinite: l.infinite,
            ..Limits::default()
        };
        if let Some(t) = l.time {
            // Hub adds the increment before the move; Clock counts it after, so it is added here.
            let inc = l.inc.unwrap_or(0.0);
            limits.clock = Some(Clock {
                time: secs(t + inc),
                increment: secs(inc),
                moves_to_go: l.moves,
            });
        }
        if mode == "analyze" && *l == Level::default() {
            limits.infinite = true;
        }
        limits.analysis = mode == "analyze";
        let reporter = reporter(
            out.clone(),
            engine.settings.frame,
            engine.settings.variant,
            engine.settings.search.multipv,
        );
        engine.go(limits, mode == "ponder", reporter)
    }
}

/// `set-param name=<param> value=<value>`.
fn set_param(engine: &mut Engine, args: &[Arg]) -> Result<(), ProtocolError> {
    let (mut name, mut val) = (None, None);
    for (k, v) in args {
        match k.as_str() {
            "name" => name = Some(value("set-param", k, v)?),
            "value" => val = Some(value("set-param", k, v)?),
            _ => return Err(unexpected("set-param", k)),
        }
    }
    let name = name.ok_or_else(|| ProtocolError::Missing {
        command: "set-param".into(),
        what: "name=".into(),
    })?;
    let spec = options::find(name, true)?;
    let parsed = spec.parse(true, val)?;
    engine.set_option(spec, parsed)
}

/// `level` arguments, applied on top of the current level (Scan accumulates them until `pos`).
fn parse_level(current: &Level, args: &[Arg]) -> Result<Level, ProtocolError> {
    let mut l = current.clone();
    if args.is_empty() {
        return Err(ProtocolError::Missing {
            command: "level".into(),
            what: "a limit".into(),
        });
    }
    for (k, v) in args {
        let key = k.as_str();
        if key == "infinite" && v.is_none() {
            l.infinite = true;
            continue;
        }
        let t = value("level", key, v)?;
        match key {
            "depth" => l.depth = Some(integer(key, t, 1u32, crate::search::MAX_DEPTH)?),
            "nodes" => l.nodes = Some(integer(key, t, 1u64, u64::MAX)?),
            "move-time" => l.move_time = Some(real(key, t)?),
            "time" => l.time = Some(real(key, t)?),
            "inc" => l.inc = Some(real(key, t)?),
            "moves" => l.moves = Some(integer(key, t, 1u32, 10_000)?),
            _ => return Err(unexpected("level", key)),
        }
    }
    Ok(l)
}

/// Reads `pos` (`pos=`, `fen=` or `start`, then `moves=`) into a new game. At most one
/// position and one move list: a second is an error rather than silently replacing the first,
/// since a client that sends two has lost track of which position it means.
fn parse_pos(variant: Variant, frame: Frame, args: &[Arg]) -> Result<Game, ProtocolError> {
    let (mut position, mut history): (Option<&Arg>, Option<&Arg>) = (None, None);
    for arg in args {
        let slot = match (arg.0.as_str(), &arg.1) {
            ("start", None) | ("pos" | "fen", _) => &mut position,
            ("moves", _) => &mut history,
            (k, _) => return Err(unexpected("pos", k)),
        };
        if let Some(first) = slot {
            return Err(ProtocolError::Conflict {
                command: "pos".into(),
                what: if arg.0 == "moves" {
                    "move lists"
                } else {
                    "positions"
                }
                .into(),
                first: first.0.clone(),
                second: arg.0.clone(),
            });
        }
        *slot = Some(arg);
    }
    let mut game = match position {
        None => Game::start(variant),
        Some((k, v)) => match k.as_str() {
            // Scan's board string, or (as lidraughts may send) a PDN FEN, told apart by its colons.
            "pos" => match value("pos", k, v)? {
                fen if fen.contains(':') => Game::from_fen(variant, fen)?,
                board => Game::new(variant, parse_fen_in(variant, &hub_to_fen(board)?)?),
            },
            "fen" => Game::from_fen(variant, value("pos", k, v)?)?,
            _ => Game::start(variant),
        },
    };
    let history = match history {
        Some((k, v)) => value("pos", k, v)?,
        None => "",
    };
    for (i, text) in history.split_whitespace().enumerate() {
        let mv = parse_hub_move(text, &game, frame).map_err(|error| ProtocolError::Move {
            index: i + 1,
            error,
        })?;
        game.play(mv).map_err(|error| ProtocolError::Move {
            index: i + 1,
            error,
        })?;
    }
    Ok(game)
}

/// A Hub position as a PDN FEN, or the error naming what Hub expects.
fn hub_to_fen(text: &str) -> Result<String, ProtocolError> {
    hub::position_to_fen(text).ok_or_else(|| ProtocolError::BadValue {
        what: "pos".into(),
        value: text.into(),
        expected: "W or B and 32 characters of w b W B e".into(),
    })
}

/// Reads a Hub move in the given frame and finds the legal move it names.
fn parse_hub_move(text: &str, game: &Game, frame: Frame) -> Result<Move, MoveError> {
    let variant = game.variant();
    hub::find_move(text, game, |n| frame.map_square(variant, n))
}

/// A move as Hub writes it, in the given frame.
pub fn hub_move(m: &Move, frame: Frame, variant: Variant) -> String {
    hub::move_text(m, |n| frame.map_square(variant, n))
}

/// A score in men, as Scan prints it: wins as 100 minus plies/100.
pub fn score_men(score: Score) -> String {
    let centi = if score.is_decisive() {
        let plies = Score::WIN.0 - score.0.abs();
        (10_000 - plies) * score.0.signum()
    } else {
        score.0
    };
    format!("{:.2}", centi as f64 / 100.0)
}

/// With the `multipv` param above 1, every line is reported, each tagged `multipv=K` at its
/// end; at 1 (the default) the lines are exactly Scan's.
fn reporter(out: Out, frame: Frame, variant: Variant, multipv: usize) -> Reporter {
    Box::new(move |report| match report {
        Report::Info(info) if multipv > 1 => out.line(&format!(
            "{} multipv={}",
            info_line(info, frame, variant),
            info.multipv
        )),
        Report::Info(info) if info.multipv <= 1 => out.line(&info_line(info, frame, variant)),
        Report::Info(_) => {}
        Report::Done(outcome) => out.line(&done_line(outcome, frame, variant)),
    })
}

fn info_line(info: &SearchInfo, frame: Frame, variant: Variant) -> String {
    // The fields in Scan's order, which lidraughts' parser reads by position. Crownhead
    // measures no mean depth: `mean-depth` is the deepest ply reached (`seldepth`).
    let mut s = format!(
        "info depth={} mean-depth={} score={} nodes={} time={:.3} nps={:.3}",
        info.depth,
        info.seldepth,
        score_men(info.score),
        info.nodes,
        info.time_ms as f64 / 1000.0,
        info.nps as f64 / 1e6
    );
    if !info.pv.is_empty() {
        let pv: Vec<String> = info
            .pv
            .iter()
            .map(|m| hub_move(m, frame, variant))
            .collect();
        s.push_str(&format!(" pv=\"{}\"", pv.join(" ")));
    }
    // Not a Scan key: only shown when the endgame databases answered, after the keys that
    // parsers read by position.
    if info.tbhits > 0 {
        s.push_str(&format!(" tbhits={}", info.tbhits));
    }
    s
}

/// `done move=<m> [ponder=<m>]`; a bare `done` when there is no legal move (the GUI should not
/// ask for a search then).
fn done_line(outcome: &SearchOutcome, frame: Frame, variant: Variant) -> String {
    match (outcome.best, outcome.ponder) {
        (None, _) => "done".to_string(),
        (Some(b), None) => format!("done move={}", hub_move(&b, frame, variant)),
        (Some(b), Some(p)) => {
            format!(
                "done move={} ponder={}",
                hub_move(&b, frame, variant),
                hub_move(&p, frame, variant)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenizer_reads_quotes_and_flags() {
        let (c, a) = tokenize("pos pos=Wbe start moves=\"21-17 9-13\"").unwrap();
        assert_eq!(c, "pos");
        assert_eq!(a[0], ("pos".into(), Some("Wbe".into())));
        assert_eq!(a[1], ("start".into(), None));
        assert_eq!(a[2], ("moves".into(), Some("21-17 9-13".into())));
        assert!(tokenize("pos moves=\"21-17").is_err());
    }

    #[test]
    fn pos_and_moves_in_both_frames() {
        let args = |m: &str| {
            vec![
                (
                    "pos".to_string(),
                    Some("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww".to_string()),
                ),
                ("moves".to_string(), Some(m.to_string())),
            ]
        };
        let a = parse_pos(
            Variant::Russian,
            Frame::Consistent,
            &args("21-17 9-13 17-14 10x17x14"),
        )
        .unwrap();
        let b = parse_pos(
            Variant::Russian,
            Frame::Pydraughts06,
            &args("9-13 21-17 13-18 22x13x18"),
        )
        .unwrap();
        assert_eq!(a.position(), b.position());
        assert!(parse_pos(Variant::Russian, Frame::Consistent, &args("21-16")).is_err());
    }

    #[test]
    fn scores_in_men() {
        assert_eq!(score_men(Score(-37)), "-0.37");
        assert_eq!(score_men(Score::win_in(3)), "99.97");
        assert_eq!(score_men(Score::loss_in(2)), "-99.98");
    }

    #[test]
    fn errors_keep_pydraughts_parsable() {
        let e = error_line(&ProtocolError::UnknownCommand("a=\"b".into()));
        assert_eq!(e.matches('"').count(), 2);
        assert_eq!(e.matches('=').count(), 1);
    }
}
