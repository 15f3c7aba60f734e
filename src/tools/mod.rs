//! The command line's subcommands, each with its clap arguments beside its code (`main.rs` only
//! dispatches): `perft`, `bench`, `moves` and `evaluate` (`fen_lines`), `egtb`, `analyze`
//! (annotate games), `match` (engine against engine), `play` (a person against the engine),
//! `selfplay`, `web` (the browser page's server), and what they share: the ranges of their
//! numeric flags (`args`) and the opening sets. Only with the default `cli` feature.

pub mod analyze;
pub(crate) mod args;
pub mod bench;
pub mod egtb;
pub(crate) mod engine;
pub mod fen_lines;
pub(crate) mod match_game;
pub mod matches;
pub mod openings;
pub mod perft;
pub mod play;
pub(crate) mod process_group;
pub mod selfplay;
pub(crate) mod stats;
pub mod web;

use crate::search::{Limits, Score};
use std::time::Duration;

/// A score for people: `+1.25` (men, side's view) or `#+7` / `#-3` (a win or loss in so many
/// moves).
pub(crate) fn format_score(score: Score) -> String {
    match score.mate_moves() {
        Some(m) if m > 0 => format!("#+{m}"),
        Some(m) => format!("#{m}"),
        None => format!("{:+.2}", f64::from(score.0) / 100.0),
    }
}

/// Reads a text file the way PDN files must be read: UTF-8, or Latin-1 when it is not UTF-8.
pub(crate) fn read_text(path: &str) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    Ok(crate::pdn::decode(&bytes).into_owned())
}

/// The limits of a tool's search: a depth if given, else a move time in milliseconds if given,
/// else `default_ms` per move. The flags' parsers (`args`) have checked the ranges.
pub(crate) fn depth_or_movetime(
    depth: Option<u32>,
    movetime_ms: Option<u64>,
    default_ms: u64,
) -> Limits {
    match (depth, movetime_ms) {
        (Some(d), _) => {
            debug_assert!((1..=crate::search::MAX_DEPTH).contains(&d));
            Limits {
                depth: Some(d),
                ..Limits::default()
            }
        }
        (_, ms) => Limits {
            movetime: Some(Duration::from_millis(ms.unwrap_or(default_ms))),
            ..Limits::default()
        },
    }
}
