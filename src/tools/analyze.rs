//! `crownhead analyze`: the engine's opinion of every move of every game in a PDN file, or of
//! a list of positions (`--fens`, with multi-PV).
//!
//! Every position of a game is searched once, in process, with `crownhead::search::Searcher`.
//! A move's evaluation before is the search score of the position it was played in; after, the
//! negated score of the position it led to (an exact win, loss or draw when the game ended
//! there). Both are from the view of the side that moved. The loss is the difference (zero when
//! the move was the engine's choice), and the move's class follows from it:
//!
//! | class      | loss (centi-men; 100 = one man)                                    |
//! |------------|---------------------------------------------------------------------|
//! | inaccuracy | 25 or more                                                          |
//! | mistake    | 50 or more                                                          |
//! | blunder    | 90 or more (about a man), or any move from a position not lost into a forced loss |
//!
//! Won and lost positions count as +-2000 in the loss, so throwing away a win is a blunder.
//! Output: the annotated PDN (stdout or `--out`), or with `--json` one JSON object per move and
//! one per game summary on stdout. Summaries go to stdout when the PDN goes to a file or with
//! `--json`, to stderr otherwise; progress always goes to stderr.

use super::{format_score, read_text};
use crate::game::{EndReason, Game, GameResult};
use crate::judge::classify;
use crate::moves::Move;
use crate::notation::move_text::{default_style, short_text};
use crate::pdn::{move_number, parse_pdn, write_games, PdnGame};
use crate::search::{Limits, Score, SearchControl, SearchInfo, SearchOptions, Searcher};
use crate::variant::Variant;
use clap::Args;
use std::collections::BTreeMap;
use std::io::Write;
use std::time::{Duration, Instant};

/// The arguments of `crownhead analyze`.
#[derive(Args, Debug, Clone)]
pub struct AnalyzeArgs {
    /// The PDN file of games to analyse.
    #[arg(required_unless_present = "fens")]
    pub games: Option<String>,
    /// Analyse the positions in this file instead (one FEN per line).
    #[arg(long, conflicts_with = "games")]
    pub fens: Option<String>,
    /// The variant of --fens, and of games without a GameType tag.
    #[arg(long)]
    pub variant: Option<Variant>,
    /// Search depth per position (default: --movetime 500).
    #[arg(long, conflicts_with = "movetime", value_parser = super::args::depth)]
    pub depth: Option<u32>,
    /// Search time per position in milliseconds.
    #[arg(long, value_parser = super::args::millis)]
    pub movetime: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = super::args::threads)]
    pub threads: usize,
    /// Lines shown per position with --fens.
    #[arg(long, default_value_t = 1, value_parser = super::args::multipv)]
    pub multipv: usize,
    /// One JSON object per move (and per game summary) on stdout.
    #[arg(long)]
    pub json: bool,
    /// Write the annotated PDN to this file rather than stdout.
    #[arg(long)]
    pub out: Option<String>,
}

/// The engine's view of one position.
struct Eval {
    /// From the side to move.
    score: Score,
    depth: u32,
    /// The principal variations, best first (one unless multi-PV).
    lines: Vec<(Score, Vec<Move>)>,
}

struct Analyst {
    searcher: Searcher,
    limits: Limits,
}

impl Analyst {
    fn evaluate(&mut self, game: &Game) -> Eval {
        if let Some(outcome) = game.outcome() {
            let score = match outcome.reason {
                EndReason::NoLegalMove => Score::loss_in(0),
                _ if outcome.result == GameResult::Draw => Score::ZERO,
                _ => Score::loss_in(0),
            };
            return Eval {
                score,
                depth: 0,
                lines: Vec::new(),
            };
        }
        let mut latest: BTreeMap<usize, SearchInfo> = BTreeMap::new();
        let control = SearchControl::new(false);
        let outcome = self
            .searcher
            .search(game, &self.limits, &control, &mut |info| {
                latest.insert(info.multipv.max(1), info.clone());
            });
        let mut lines: Vec<(Score, Vec<Move>)> =
            latest.into_values().map(|i| (i.score, i.pv)).collect();
        let best_pv = match (outcome.best, lines.first()) {
            (Some(b), Some((_, pv))) if pv.first().is_some_and(|m| m.same_effect(&b)) => pv.clone(),
            (Some(b), _) => vec![b],
            (None, _) => Vec::new(),
        };
        if lines.is_empty() {
            lines.push((outcome.score, best_pv));
        } else {
            lines[0] = (outcome.score, best_pv);
        }
        Eval {
            score: outcome.score,
            depth: outcome.depth,
            lines,
        }
    }
}

/// A score as JSON: `{"cp":35}` or `{"mate":-3}`.
fn json_score(s: Score) -> String {
    match s.mate_moves() {
        Some(m) => format!("{{\"mate\":{m}}}"),
        None => format!("{{\"cp\":{}}}", s.0),
    }
}

/// A JSON string literal.
pub(crate) fn json_str(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A line of moves in the variant's notation, starting from `game`'s current position.
fn line_text(game: &Game, pv: &[Move]) -> String {
    let variant = game.variant();
    let style = default_style(variant);
    let mut pos = *game.position();
    let mut words = Vec::new();
    for m in pv {
        if !variant.legal_moves(&pos).iter().any(|l| l.same_effect(m)) {
            break;
        }
        words.push(short_text(m, &pos, variant, style));
        pos = pos.play(m);
    }
    words.join(" ")
}

/// Progress on stderr, at most once a second.
struct Progress {
    start: Instant,
    last: Instant,
    total_moves: usize,
    done_moves: usize,
}

impl Progress {
    fn report(&mut self, game: usize, games: usize, force: bool) {
        if !force && self.last.elapsed() < Duration::from_secs(1) {
            return;
        }
        self.last = Instant::now();
        let elapsed = self.start.elapsed().as_secs_f64();
        let eta = if self.done_moves > 0 {
            elapsed / self.done_moves as f64 * (self.total_moves - self.done_moves) as f64
        } else {
            0.0
        };
        eprintln!(
            "analyze: game {game}/{games}, {}/{} moves, {elapsed:.1}s elapsed, ETA {eta:.1}s",
            self.done_moves, self.total_moves
        );
    }
}

/// Runs `crownhead analyze`.
pub fn run(args: AnalyzeArgs) -> Result<(), String> {
    let limits = super::depth_or_movetime(args.depth, args.movetime, 500);
    let options = SearchOptions {
        threads: args.threads,
        multipv: args.multipv,
        ..SearchOptions::default()
    };
    let mut analyst = Analyst {
        searcher: Searcher::new(options),
        limits,
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if let Some(path) = &args.fens {
        return analyze_fens(
            &mut analyst,
            &read_text(path)?,
            args.variant.unwrap_or_default(),
            args.json,
            &mut out,
        );
    }
    let path = args.games.as_deref().unwrap_or_default();
    let read = parse_pdn(&read_text(path)?, args.variant);
    for warning in &read.warnings {
        eprintln!("analyze: {path}: warning: {warning}");
    }
    let mut games = Vec::new();
    for parsed in read.games {
        match parsed {
            Ok(g) => games.push(g),
            Err(e) => eprintln!("analyze: {path}: skipped {e}"),
        }
    }
    if let Some(why) = read.no_game {
        return Err(format!("{path}: {why}"));
    }
    let total_moves = games.iter().map(|g| g.game.moves().len()).sum();
    let mut progress = Progress {
        start: Instant::now(),
        last: Instant::now(),
        total_moves,
        done_moves: 0,
    };
    let mut annotated = Vec::new();
    let summary_to_stdout = args.json || args.out.is_some();
    for (i, pdn) in games.iter().enumerate() {
        let (game_out, summary) = analyze_game(
            &mut analyst,
            pdn,
            i + 1,
            games.len(),
            args.json,
            &mut out,
            &mut progress,
        )?;
        if summary_to_stdout {
            writeln!(out, "{summary}").map_err(|e| e.to_string())?;
        } else {
            eprintln!("{summary}");
        }
        annotated.push(game_out);
    }
    let text = write_games(&annotated);
    match (&args.out, args.json) {
        (Some(path), _) => {
            std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))?
        }
        (None, false) => write!(out, "{text}").map_err(|e| e.to_string())?,
        (None, true) => {}
    }
    Ok(())
}

/// Per side: count of inaccuracies, mistakes, blunders; total loss; moves.
#[derive(Default)]
struct SideSummary {
    classes: [u32; 3],
    loss: i64,
    moves: u32,
}

fn analyze_game(
    analyst: &mut Analyst,
    pdn: &PdnGame,
    index: usize,
    games: usize,
    json: bool,
    out: &mut dyn Write,
    progress: &mut Progress,
) -> Result<(PdnGame, String), String> {
    let variant = pdn.game.variant();
    let style = default_style(variant);
    let first = pdn.game.start_position().side();
    let mut game = Game::new(variant, *pdn.game.start_position());
    let mut annotated = pdn.clone();
    let mut sides = [SideSummary::default(), SideSummary::default()];
    let mut before = analyst.evaluate(&game);
    for (ply, mv) in pdn.game.moves().iter().enumerate() {
        let pos = *game.position();
        let side = pos.side();
        let played = short_text(mv, &pos, variant, style);
        let best = before.lines.first().and_then(|(_, pv)| pv.first().copied());
        let best_text = best
            .map(|b| short_text(&b, &pos, variant, style))
            .unwrap_or_default();
        let pv_text = before
            .lines
            .first()
            .map(|(_, pv)| line_text(&game, pv))
            .unwrap_or_default();
        let was_best = best.is_some_and(|b| b.same_effect(mv));
        let _ = game.play(*mv);
        let after_eval = analyst.evaluate(&game);
        let after = -after_eval.score;
        let (loss, class) = classify(before.score, after, was_best);
        let summary = &mut sides[side.index()];
        summary.moves += 1;
        summary.loss += i64::from(loss);
        if let Some(c) = class {
            summary.classes[["inaccuracy", "mistake", "blunder"]
                .iter()
                .position(|k| *k == c)
                .unwrap_or(0)] += 1;
        }
        let mut comment = format_score(after);
        if let Some(c) = class {
            comment.push_str(&format!(
                ", {c} (loss {:.2}); best {best_text} {}: {pv_text}",
                f64::from(loss) / 100.0,
                format_score(before.score)
            ));
        } else if loss > 0 && !best_text.is_empty() {
            comment.push_str(&format!(
                " (best {best_text} {})",
                format_score(before.score)
            ));
        }
        annotated.comments[ply] = Some(comment);
        if json {
            let record = format!(
                "{{\"type\":\"move\",\"game\":{index},\"ply\":{},\"move_number\":{},\"side\":\"{side}\",\"move\":{},\"before\":{},\"after\":{},\"loss\":{loss},\"class\":{},\"best\":{},\"pv\":{},\"depth\":{}}}",
                ply + 1,
                move_number(variant, first, ply),
                json_str(&played),
                json_score(before.score),
                json_score(after),
                class.map_or("null".to_string(), json_str),
                json_str(&best_text),
                json_str(&pv_text),
                before.depth
            );
            writeln!(out, "{record}").map_err(|e| e.to_string())?;
        }
        before = after_eval;
        progress.done_moves += 1;
        progress.report(index, games, false);
    }
    progress.report(index, games, true);
    Ok((annotated, summary_text(pdn, index, &sides, json)))
}

fn summary_text(pdn: &PdnGame, index: usize, sides: &[SideSummary; 2], json: bool) -> String {
    let names = [
        pdn.tag("White").unwrap_or("White"),
        pdn.tag("Black").unwrap_or("Black"),
    ];
    let avg = |s: &SideSummary| {
        if s.moves == 0 {
            0.0
        } else {
            s.loss as f64 / s.moves as f64
        }
    };
    if json {
        let side = |i: usize, color: &str| {
            let s = &sides[i];
            format!(
                "\"{color}\":{{\"name\":{},\"moves\":{},\"inaccuracies\":{},\"mistakes\":{},\"blunders\":{},\"average_loss\":{:.1}}}",
                json_str(names[i]),
                s.moves,
                s.classes[0],
                s.classes[1],
                s.classes[2],
                avg(s)
            )
        };
        return format!(
            "{{\"type\":\"summary\",\"game\":{index},{},{}}}",
            side(0, "white"),
            side(1, "black")
        );
    }
    let mut text = format!("Game {index}: {}", pdn.describe());
    for (i, color) in ["White", "Black"].iter().enumerate() {
        let s = &sides[i];
        text.push_str(&format!(
            "\n  {color} ({}): {} moves, {} inaccuracies, {} mistakes, {} blunders, average loss {:.1}",
            names[i],
            s.moves,
            s.classes[0],
            s.classes[1],
            s.classes[2],
            avg(s)
        ));
    }
    text
}

fn analyze_fens(
    analyst: &mut Analyst,
    text: &str,
    variant: Variant,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), String> {
    let fens: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let start = Instant::now();
    for (i, fen) in fens.iter().enumerate() {
        let game = match Game::from_fen(variant, fen) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("analyze: line {}: {e}", i + 1);
                continue;
            }
        };
        let eval = analyst.evaluate(&game);
        if !json {
            writeln!(out, "{fen}").map_err(|e| e.to_string())?;
        }
        for (k, (score, pv)) in eval.lines.iter().enumerate() {
            let pv = line_text(&game, pv);
            let line = if json {
                format!(
                    "{{\"type\":\"position\",\"fen\":{},\"multipv\":{},\"score\":{},\"depth\":{},\"pv\":{}}}",
                    json_str(fen),
                    k + 1,
                    json_score(*score),
                    eval.depth,
                    json_str(&pv)
                )
            } else {
                format!(
                    "  {}. {} depth {}: {pv}",
                    k + 1,
                    format_score(*score),
                    eval.depth
                )
            };
            writeln!(out, "{line}").map_err(|e| e.to_string())?;
        }
        if eval.lines.is_empty() && !json {
            writeln!(out, "  game over: {}", format_score(eval.score))
                .map_err(|e| e.to_string())?;
        }
        eprintln!(
            "analyze: {}/{} positions, {:.1}s elapsed",
            i + 1,
            fens.len(),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_str("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
    }
}
