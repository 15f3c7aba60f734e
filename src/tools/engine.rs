//! An engine in another process, driven over its stdin and stdout by the UCI-style dialect
//! (`uci`, `isready`, `setoption`, `position ... moves ...`, `go ...`, `bestmove`) or by Hub
//! (`hub`, `set-param`, `init`, `pos`, `level`, `go think`, `done`).
//!
//! The command is run by `sh -c CMD` (`cmd /D /S /C "CMD"` on Windows), so it may carry
//! arguments, quotes and redirections; stopping it kills everything it started (a process group
//! on Unix, a job on Windows: `process_group`), so a shell wrapper cannot leave the real engine
//! running. A reader thread turns stdout into a channel of lines; every wait has a deadline, so
//! a hung engine is a time forfeit and never hangs the match. The engine's stderr is discarded,
//! since engines log there freely.

use super::process_group::{shell, ProcessGroup};
use crate::bitboard::Color;
use crate::game::Game;
use crate::moves::Move;
use crate::notation::fen::to_fen_in;
use crate::notation::hub;
use crate::notation::move_text::{default_style, full_text};
use crate::variant::Variant;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Which text protocol the engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// The UCI-style dialect.
    Uci,
    /// Hub version 2 with 1+32 character positions in the docs/RULES.md numbering.
    Hub,
}

/// How one search is bounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Go {
    /// Clocks: time left for White and Black, and the increment.
    Clock {
        /// White's time left.
        white: Duration,
        /// Black's time left.
        black: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed depth.
    Depth(u32),
}

/// Why an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process could not start, exited, or closed its output.
    Crash(String),
    /// No answer before the deadline.
    Timeout,
}

impl Failure {
    /// What happened, without the kind of failure: `exited with status 3`.
    pub fn why(&self) -> &str {
        match self {
            Failure::Crash(why) => why,
            Failure::Timeout => "did not answer in time",
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Crash(why) => write!(f, "crashed ({why})"),
            Failure::Timeout => f.write_str("did not answer in time"),
        }
    }
}

impl std::error::Error for Failure {}

/// An engine's exit status in words. The engine runs under `sh -c`, whose statuses 127 and 126
/// mean that the command was not found or could not be run, the usual cause of a failed start;
/// cmd's status for a command it cannot find is 9009.
fn exit_text(status: std::process::ExitStatus) -> String {
    match status.code() {
        Some(127) if cfg!(unix) => "exited with status 127 (no such command)".into(),
        Some(126) if cfg!(unix) => "exited with status 126 (the command cannot be run)".into(),
        Some(9009) if cfg!(windows) => "exited with status 9009 (no such command)".into(),
        Some(code) => format!("exited with status {code}"),
        None => format!("exited, {status}"),
    }
}

/// An engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The move text as sent (`None` for UCI `bestmove (none)` or an empty Hub move).
    pub text: Option<String>,
    /// The legal move it names, if it names exactly one.
    pub mv: Option<Move>,
    /// The last score reported, centi-men from the engine's side; wins and losses as +-(10000 - moves).
    pub score: Option<i32>,
    /// The last depth reported.
    pub depth: Option<u32>,
    /// Time from sending `go` to the answer.
    pub elapsed: Duration,
}

/// The match tool's side of a running engine process: starts it, speaks its protocol, stops it.
pub struct EngineClient {
    /// The name the engine gave (`id name`), or its command.
    pub id: String,
    /// The name used in reports and PDN (the id, or the id with a number in self-play).
    pub name: String,
    protocol: Protocol,
    variant: Variant,
    child: Child,
    group: ProcessGroup,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl EngineClient {
    /// Starts `command` through the shell and completes the handshake within `timeout`.
    pub fn start(
        command: &str,
        protocol: Protocol,
        variant: Variant,
        timeout: Duration,
    ) -> Result<EngineClient, Failure> {
        let mut child = shell(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                Failure::Crash(format!(
                    "cannot start {}: {e}",
                    crate::notation::quote::quote(command)
                ))
            })?;
        let group = ProcessGroup::of(&child);
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => return Err(Failure::Crash("no pipes".into())),
        };
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) if tx.send(l.trim_end().to_string()).is_ok() => {}
                    _ => break,
                }
            }
        });
        let mut engine = EngineClient {
            id: command.to_string(),
            name: command.to_string(),
            protocol,
            variant,
            child,
            group,
            stdin,
            lines,
        };
        engine.handshake(timeout)?;
        engine.name = engine.id.clone();
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        log::debug!("{} << {line}", self.name);
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| Failure::Crash(format!("cannot write to the engine: {e}")))
    }

    /// The next line before `deadline`.
    fn recv(&mut self, deadline: Instant) -> Result<String, Failure> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                log::debug!("{} >> {line}", self.name);
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(Failure::Timeout),
            Err(RecvTimeoutError::Disconnected) => {
                // The output closes as the process exits; give the exit a moment to be
                // reported, so that the message can say how it ended.
                let mut status = self.child.try_wait().ok().flatten();
                let until = Instant::now() + Duration::from_millis(200);
                while status.is_none() && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(5));
                    status = self.child.try_wait().ok().flatten();
                }
                Err(Failure::Crash(
                    status.map_or("output closed".into(), exit_text),
                ))
            }
        }
    }

    /// Reads lines until one whose first word is `word`; returns it.
    fn wait_for(&mut self, word: &str, deadline: Instant) -> Result<String, Failure> {
        loop {
            let line = self.recv(deadline)?;
            if line.split_whitespace().next() == Some(word) {
                return Ok(line);
            }
        }
    }

    fn handshake(&mut self, timeout: Duration) -> Result<(), Failure> {
        let deadline = Instant::now() + timeout;
        match self.protocol {
            Protocol::Uci => {
                self.send("uci")?;
                loop {
                    let line = self.recv(deadline)?;
                    if let Some(name) = line.strip_prefix("id name ") {
                        self.id = name.trim().to_string();
                    }
                    if line.trim() == "uciok" {
                        break;
                    }
                }
                self.send(&format!("setoption name Variant value {}", self.variant))?;
            }
            Protocol::Hub => {
                self.send("hub")?;
                loop {
                    let line = self.recv(deadline)?;
                    if line.starts_with("id ") {
                        if let Some(name) = hub_arg(&line, "name") {
                            self.id = name;
                        }
                    }
                    if line.trim() == "wait" {
                        break;
                    }
                }
                self.send(&format!("set-param name=variant value={}", self.variant))?;
                self.send("init")?;
                self.wait_for("ready", deadline)?;
            }
        }
        Ok(())
    }

    /// Tells the engine a new game starts and waits until it is ready.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), Failure> {
        let deadline = Instant::now() + timeout;
        match self.protocol {
            Protocol::Uci => {
                self.send("ucinewgame")?;
                self.send("isready")?;
                self.wait_for("readyok", deadline).map(drop)
            }
            Protocol::Hub => {
                self.send("new-game")?;
                self.send("ping")?;
                self.wait_for("pong", deadline).map(drop)
            }
        }
    }

    /// Asks for a move in the current position of `game` and waits for it at most `allowed`
    /// after sending `go`.
    pub fn go(&mut self, game: &Game, go: Go, allowed: Duration) -> Result<Reply, Failure> {
        match self.protocol {
            Protocol::Uci => self.send_uci_position(game, go)?,
            Protocol::Hub => self.send_hub_position(game, go)?,
        }
        let start = Instant::now();
        let deadline = start + allowed;
        let (mut score, mut depth) = (None, None);
        loop {
            let line = self.recv(deadline)?;
            let words: Vec<&str> = line.split_whitespace().collect();
            match (self.protocol, words.first().copied()) {
                (Protocol::Uci, Some("info")) => {
                    score = uci_score(&words).or(score);
                    depth = word_after(&words, "depth")
                        .and_then(|d| d.parse().ok())
                        .or(depth);
                }
                (Protocol::Uci, Some("bestmove")) => {
                    let text = words
                        .get(1)
                        .filter(|t| **t != "(none)")
                        .map(|t| t.to_string());
                    let mv = text
                        .as_deref()
                        .and_then(|t| crate::parse_move(t, game.position(), game.variant()).ok());
                    return Ok(Reply {
                        text,
                        mv,
                        score,
                        depth,
                        elapsed: start.elapsed(),
                    });
                }
                (Protocol::Hub, Some("info")) => {
                    score = hub_arg(&line, "score")
                        .and_then(|s| s.parse::<f64>().ok())
                        .map(hub_score)
                        .or(score);
                    depth = hub_arg(&line, "depth")
                        .and_then(|d| d.parse().ok())
                        .or(depth);
                }
                (Protocol::Hub, Some("done")) => {
                    let text = hub_arg(&line, "move").filter(|t| !t.is_empty());
                    let mv = text
                        .as_deref()
                        .and_then(|t| hub::find_move(t, &game.legal_moves(), |n| n).ok());
                    return Ok(Reply {
                        text,
                        mv,
                        score,
                        depth,
                        elapsed: start.elapsed(),
                    });
                }
                _ => {}
            }
        }
    }

    fn send_uci_position(&mut self, game: &Game, go: Go) -> Result<(), Failure> {
        let style = default_style(game.variant());
        let start = game.start_position();
        let standard = crate::parse_fen(game.variant().start_fen()).ok();
        let mut line = if standard.as_ref() == Some(start) {
            "position startpos".to_string()
        } else {
            format!("position fen {}", to_fen_in(game.variant(), start))
        };
        if !game.moves().is_empty() {
            line.push_str(" moves");
            for m in game.moves() {
                line.push(' ');
                line.push_str(&full_text(m, style));
            }
        }
        self.send(&line)?;
        let ms = |d: Duration| d.as_millis();
        let go_line = match go {
            Go::Clock {
                white,
                black,
                increment,
            } => {
                let inc = ms(increment);
                format!(
                    "go wtime {} btime {} winc {inc} binc {inc}",
                    ms(white),
                    ms(black)
                )
            }
            Go::MoveTime(t) => format!("go movetime {}", ms(t)),
            Go::Depth(d) => format!("go depth {d}"),
        };
        self.send(&go_line)
    }

    fn send_hub_position(&mut self, game: &Game, go: Go) -> Result<(), Failure> {
        let moves: Vec<String> = game
            .moves()
            .iter()
            .map(|m| hub::move_text(m, |n| numbered(game.variant(), n)))
            .collect();
        let start = crate::notation::in_numbering(game.variant(), game.start_position());
        let mut line = format!("pos pos={}", hub::position_text(&start));
        if !moves.is_empty() {
            line.push_str(&format!(" moves=\"{}\"", moves.join(" ")));
        }
        self.send(&line)?;
        let secs = |d: Duration| d.as_secs_f64();
        let level = match go {
            Go::Clock {
                white,
                black,
                increment,
            } => {
                let left = if game.position().side() == Color::White {
                    white
                } else {
                    black
                };
                format!("level time={:.3} inc={:.3}", secs(left), secs(increment))
            }
            Go::MoveTime(t) => format!("level move-time={:.3}", secs(t)),
            Go::Depth(d) => format!("level depth={d}"),
        };
        self.send(&level)?;
        self.send("go think")
    }

    /// Asks the engine to quit, and kills its process group if it has not within half a second.
    pub fn quit(mut self) {
        // Both dialects spell it the same.
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Kills the engine: the shell and everything it started.
    pub fn kill(&mut self) {
        self.group.kill();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineClient {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

fn word_after<'a>(words: &[&'a str], key: &str) -> Option<&'a str> {
    words
        .iter()
        .position(|w| *w == key)
        .and_then(|i| words.get(i + 1).copied())
}

/// `score cp N` or `score mate M` from a UCI info line.
fn uci_score(words: &[&str]) -> Option<i32> {
    let i = words.iter().position(|w| *w == "score")?;
    let value: i32 = words.get(i + 2)?.parse().ok()?;
    match *words.get(i + 1)? {
        "cp" => Some(value),
        "mate" if value > 0 => Some(10_000 - value),
        "mate" => Some(-10_000 - value),
        _ => None,
    }
}

/// A Hub score in men, wins as 100 minus plies/100, in centi-men.
fn hub_score(men: f64) -> i32 {
    (men * 100.0).round().clamp(-10_000.0, 10_000.0) as i32
}

/// The value of `key=value` (quotes removed) in a Hub line.
fn hub_arg(line: &str, key: &str) -> Option<String> {
    let start = line.find(&format!(" {key}="))? + key.len() + 2;
    let rest = &line[start..];
    if let Some(quoted) = rest.strip_prefix('"') {
        return Some(quoted.split('"').next().unwrap_or("").to_string());
    }
    Some(rest.split_whitespace().next().unwrap_or("").to_string())
}

/// Square `n` of docs/RULES.md's frame as `variant` numbers it (mirrored for italian, spanish).
fn numbered(variant: crate::variant::Variant, n: u32) -> u32 {
    if variant.mirrored_numbering() {
        crate::notation::mirror_number(n)
    } else {
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_hub_arguments() {
        assert_eq!(
            uci_score(&["info", "depth", "3", "score", "cp", "-42"]),
            Some(-42)
        );
        assert_eq!(uci_score(&["info", "score", "mate", "3"]), Some(9997));
        assert_eq!(uci_score(&["info", "score", "mate", "-2"]), Some(-9998));
        assert_eq!(
            hub_arg("done move=32-28 ponder=17-22", "move").as_deref(),
            Some("32-28")
        );
        assert_eq!(
            hub_arg("info pv=\"1-2 3-4\" score=0.5", "pv").as_deref(),
            Some("1-2 3-4")
        );
    }
}
