//! The bench: a fixed-depth search of every position in `positions/bench.txt` (built into the
//! binary), one line per position and a last line `Nodes: N  NPS: M`. With one thread the node
//! total is a signature of the search's behaviour: identical on every run and every machine.
//! The five newer variants have positions of their own (`positions/bench_variants.txt`),
//! searched only when a run asks for one of them, so that the signature stays that of the
//! russian and english positions it has always been.

use super::{Limits, SearchControl, SearchOptions, Searcher};
use crate::eval::EvalChoice;
use crate::learned::Learned;
use crate::notation::fen::parse_fen;
use crate::notation::move_text::{default_style, full_text};
use crate::platform::Instant;
use crate::position::Position;
use crate::variant::Variant;
use crate::Game;
use std::fmt;
use std::sync::Arc;

/// The bench positions, `variant;fen` per line, `#` comments.
pub const BENCH_POSITIONS: &str = include_str!("../../positions/bench.txt");

/// The newer variants' bench positions, in the same format, outside the signature.
pub const VARIANT_BENCH_POSITIONS: &str = include_str!("../../positions/bench_variants.txt");

/// The default bench depth: about 2.2 M nodes, a fraction of a second in a release build. A
/// shallower run is too short for a steady speed figure.
pub const DEFAULT_DEPTH: u32 = 13;

/// A line of a position list that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchError {
    /// 1-based line number.
    pub line: usize,
    /// The offending text.
    pub text: String,
    /// What was wrong.
    pub reason: String,
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {} ('{}')", self.line, self.reason, self.text)
    }
}

impl std::error::Error for BenchError {}

/// Reads `variant;fen[;anything]` lines, skipping blanks and `#` comments.
pub fn parse_positions(text: &str) -> Result<Vec<(Variant, Position, Vec<String>)>, BenchError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |reason: String| BenchError {
            line: i + 1,
            text: raw.to_string(),
            reason,
        };
        let mut fields = line.split(';').map(str::trim);
        let variant: Variant = fields
            .next()
            .unwrap_or("")
            .parse()
            .map_err(|e| err(format!("{e}")))?;
        let pos = parse_fen(fields.next().unwrap_or("")).map_err(|e| err(format!("{e}")))?;
        out.push((variant, pos, fields.map(String::from).collect()));
    }
    Ok(out)
}

/// The totals of a bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes over all positions.
    pub nodes: u64,
    /// Nodes per second over the whole run.
    pub nps: u64,
    /// Time spent searching, in milliseconds.
    pub time_ms: u64,
}

/// Searches every bench position to `depth` with a fresh table each, printing one line each
/// through `print`, and returns the totals. The speed counts search time only: clearing the
/// table before each position is setup, not search, and at the default hash size it took a few
/// percent of the run.
pub fn run(
    depth: u32,
    threads: usize,
    hash_mb: usize,
    eval: EvalChoice,
    eval_file: Option<Arc<Learned>>,
    only: Option<Variant>,
    print: &mut dyn FnMut(&str),
) -> Result<BenchResult, BenchError> {
    let mut positions = parse_positions(BENCH_POSITIONS)?;
    // One variant's positions, to measure what changes in that variant only (or how fast it is).
    if let Some(only) = only {
        positions.extend(parse_positions(VARIANT_BENCH_POSITIONS)?);
        positions.retain(|(variant, _, _)| *variant == only);
    }
    let options = SearchOptions {
        threads,
        hash_mb,
        eval,
        eval_file,
        ..SearchOptions::default()
    };
    let mut searcher = Searcher::new(options);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut searching = std::time::Duration::ZERO;
    let mut total = 0;
    for (i, (variant, pos, _)) in positions.iter().enumerate() {
        searcher.new_game();
        let game = Game::new(*variant, *pos);
        let t = Instant::now();
        let out = searcher.search(&game, &limits, &SearchControl::new(false), &mut |_| {});
        let spent = t.elapsed();
        searching += spent;
        total += out.nodes;
        let best = out.best.map_or("none".to_string(), |m| {
            full_text(&m, default_style(*variant))
        });
        print(&format!(
            "{:>2} {:<7} {:<6} score {:>6} nodes {:>10} {:>6} ms  {}",
            i + 1,
            variant.name(),
            best,
            out.score.0,
            out.nodes,
            spent.as_millis(),
            crate::to_fen(pos),
        ));
    }
    let ms = searching.as_millis() as u64;
    let nps = (total as u128 * 1_000_000 / searching.as_micros().max(1)) as u64;
    print(&format!("Nodes: {total}  NPS: {nps}"));
    Ok(BenchResult {
        nodes: total,
        nps,
        time_ms: ms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_file_is_well_formed() {
        let positions = parse_positions(BENCH_POSITIONS).unwrap();
        assert!(positions.len() >= 30);
        // The bench searches the first two variants only, so that its node-count signature
        // stays comparable across commits as variants are added.
        for variant in [Variant::Russian, Variant::English] {
            assert!(positions.iter().filter(|p| p.0 == variant).count() >= 10);
        }
        assert!(parse_positions("chess;W:W1:B2").is_err());
    }

    #[test]
    fn every_other_variant_has_bench_positions_of_its_own() {
        let positions = parse_positions(VARIANT_BENCH_POSITIONS).unwrap();
        for variant in Variant::ALL {
            let own = positions.iter().filter(|p| p.0 == variant).count();
            if matches!(variant, Variant::Russian | Variant::English) {
                assert_eq!(
                    own, 0,
                    "{variant:?} belongs in bench.txt, under the signature"
                );
            } else {
                assert!(own >= 10, "{variant:?} has {own} bench positions");
            }
        }
    }
}
