//! The status bar text (`str`) of `getmove`: the search's progress while it thinks, the move
//! and its figures at the end. CheckerBoard leaves the format to the engine; this one reads
//! like Cake's and KingsRow's: depth, score, nodes, time, and the principal line in the
//! variant's notation.

use crate::notation::move_text::full_text;
use crate::search::{Score, SearchInfo, SearchOutcome};
use crate::{Move, SquareStyle};
use std::fmt::Write;
use std::time::Duration;

/// A score for people: `+0.35` in men from the side to move's view, or `win in 7` (moves).
pub fn score_text(score: Score) -> String {
    match score.mate_moves() {
        Some(m) if m > 0 => format!("win in {m}"),
        Some(m) => format!("loss in {}", -m),
        None => format!("{:+.2}", score.0 as f64 / 100.0),
    }
}

/// A node count with a unit: `812`, `45.3k`, `12.1M`.
fn count_text(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=999_999 => format!("{:.1}k", n as f64 / 1e3),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

/// The progress line after an iteration.
pub fn thinking(info: &SearchInfo, style: SquareStyle) -> String {
    let mut s = format!(
        "depth {}/{}  score {}  nodes {}  {:.2}s  {} n/s",
        info.depth,
        info.seldepth,
        score_text(info.score),
        count_text(info.nodes),
        info.time_ms as f64 / 1000.0,
        count_text(info.nps)
    );
    if info.tbhits > 0 {
        let _ = write!(s, "  db {}", count_text(info.tbhits));
    }
    s.push_str("  pv");
    for m in &info.pv {
        s.push(' ');
        s.push_str(&full_text(m, style));
    }
    s
}

/// The line once the move is chosen.
pub fn played(mv: &Move, outcome: &SearchOutcome, elapsed: Duration, style: SquareStyle) -> String {
    format!(
        "Crownhead played {}  depth {}  score {}  nodes {}  {:.2}s",
        full_text(mv, style),
        outcome.depth,
        score_text(outcome.score),
        count_text(outcome.nodes),
        elapsed.as_secs_f64()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::variant::Variant;

    #[test]
    fn scores_and_counts_read_well() {
        assert_eq!(score_text(Score(35)), "+0.35");
        assert_eq!(score_text(Score(-120)), "-1.20");
        assert_eq!(score_text(Score(0)), "+0.00");
        assert_eq!(score_text(Score::win_in(13)), "win in 7");
        assert_eq!(score_text(Score::loss_in(2)), "loss in 1");
        assert_eq!(count_text(812), "812");
        assert_eq!(count_text(45_300), "45.3k");
        assert_eq!(count_text(12_100_000), "12.1M");
    }

    #[test]
    fn the_progress_line_shows_the_line_in_the_variants_notation() {
        let game = Game::start(Variant::Russian);
        let pv = game.legal_moves()[..1].to_vec();
        let info = SearchInfo {
            depth: 9,
            seldepth: 14,
            score: Score(12),
            nodes: 123_456,
            nps: 2_500_000,
            time_ms: 49,
            hashfull: 0,
            tbhits: 0,
            multipv: 1,
            pv,
        };
        let text = thinking(&info, SquareStyle::Algebraic);
        assert!(
            text.starts_with("depth 9/14  score +0.12  nodes 123.5k  0.05s  2.5M n/s  pv "),
            "{text}"
        );
        assert!(
            text.ends_with(&full_text(&info.pv[0], SquareStyle::Algebraic)),
            "{text}"
        );
    }
}
