//! The endgame databases inside the search: what a probe is worth as a score, given the
//! move-count draw rules that the databases ignore (docs/EGTB.md, "The databases in the
//! search").
//!
//! The databases hold the bare game's value and the distance (plies) to its end under best play.
//! The engine's rules can only add draws (a counter rule ends a game as a draw, never as a win),
//! so a database draw is a draw, a database win is at least a draw and a database loss at most
//! one. A win or loss is taken as exact only when it *fits*: the game ends within its distance
//! before any counter rule that already applies here could fire, assuming no capture, crowning
//! or man move resets the counters on the way (resets only give more time). Otherwise the
//! probe still bounds the score by the draw, and the search goes on below the node.

use super::Score;
use crate::bitboard::MAIN_ROAD;
use crate::egtb::{Probe, Prober, Value};
use crate::movegen::{generate, Counting};
use crate::moves::Move;
use crate::position::Position;
use crate::variant::{lone_king_ending, DrawCounters, Rules};

/// Whether a game that ends `distance` plies after `pos` (reached with the counters `c`, which no
/// rule has drawn) ends before a counter rule of `R` can fire. The rules are checked at the
/// position `distance - 1` plies on, the last one before the move that ends the game (a side
/// without a legal move has lost before any draw rule is asked). The counters there are at most
/// `c` advanced by that many quiet king moves: the lone-king counts grow by the stronger side's
/// moves, the main-road count only while the lone king stands on the main road as it does now.
/// A rule that starts later in the line (a capture that leaves a lone king, the lone king
/// stepping onto the main road) is not foreseen here; the search meets it at that node, where
/// the probe is asked again with the counters of then.
pub(crate) fn fits<R: Rules>(pos: &Position, c: &DrawCounters, distance: u16) -> bool {
    if distance <= 1 {
        return true;
    }
    let k = distance - 1;
    let (ending, road) = match lone_king_ending(pos) {
        Some((strong, lone)) => {
            let strong_moves = if pos.side() == strong {
                k.div_ceil(2)
            } else {
                k / 2
            };
            let on_road = lone & MAIN_ROAD != 0;
            (
                c.ending_moves.saturating_add(strong_moves),
                if on_road {
                    c.road_moves.saturating_add(strong_moves)
                } else {
                    c.road_moves
                },
            )
        }
        None => (c.ending_moves, c.road_moves),
    };
    let later = DrawCounters {
        quiet_plies: c.quiet_plies.saturating_add(k),
        balance_plies: c.balance_plies.saturating_add(k),
        ending_moves: ending,
        road_moves: road,
    };
    R::draw_rule(&later, pos).is_none()
}

/// The score of the database's answer `probe` at node `pos` (ply `ply` from the root, counters
/// `c`, window `alpha..beta`), or `None` when the search must go on below the node: a win or
/// loss that does not fit the counter rules and whose bound by the draw does not cut.
#[inline]
pub(crate) fn score<R: Rules>(
    probe: Probe,
    pos: &Position,
    c: &DrawCounters,
    ply: usize,
    alpha: i32,
    beta: i32,
) -> Option<i32> {
    let at = ply as u32 + probe.distance as u32;
    match probe.value {
        Value::Draw => Some(0),
        Value::Win if fits::<R>(pos, c, probe.distance) => Some(Score::win_in(at).0),
        Value::Loss if fits::<R>(pos, c, probe.distance) => Some(Score::loss_in(at).0),
        // At least a draw: enough for a cut when the draw already reaches beta.
        Value::Win => (beta <= 0).then_some(0),
        // At most a draw: enough when the draw cannot raise alpha.
        Value::Loss => (alpha >= 0).then_some(0),
    }
}

/// How far a reported line is continued past the search's end by the databases: a won or lost
/// ending to its end (the longest up to 6 pieces is well under this), a drawn one a few plies,
/// enough for a ponder move (a draw would go on for ever).
const DECIDED_PLIES: usize = 128;
const DRAWN_PLIES: usize = 4;

/// The databases' best play from `pos`, as full moves: the shortest win, the longest loss, or a
/// move that keeps the draw (the first in generation order, so the line is deterministic).
/// Empty when the databases do not hold `pos` or the game is over there. The values are the
/// bare game's: the counter rules are not applied along the line (the search's score says
/// what they do to it).
///
/// Only slices in memory are used (`Prober::probe`): the line stops where one is missing, and
/// the loader is asked for it. Reading them here, after each iteration, held a 0.1 s move for
/// half a second with 6-piece databases.
pub(crate) fn database_line<R: Rules>(prober: &mut Prober, pos: &Position) -> Vec<Move> {
    let mut line = Vec::new();
    let mut pos = *pos;
    let mut moves = Vec::new();
    let Some(mut probe) = prober.probe(&pos) else {
        return line;
    };
    let limit = if probe.value == Value::Draw {
        DRAWN_PLIES
    } else {
        DECIDED_PLIES
    };
    while line.len() < limit {
        generate::<R>(&pos, &mut moves, Counting::Unique);
        let mut best = None;
        for mv in &moves {
            let Some(child) = prober.probe(&pos.play(mv)) else {
                return line;
            };
            // The first move that keeps the value at one ply less: the shortest win, the
            // longest loss, a drawing move (`Tablebase::best_moves`' rule).
            if child.before() == probe {
                best = Some((*mv, child));
                break;
            }
        }
        let Some((mv, child)) = best else {
            // No legal move (the game is over) or the databases disagree with themselves.
            return line;
        };
        line.push(mv);
        pos = pos.play(&mv);
        probe = child;
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_fen;
    use crate::variant::{English, Russian};

    #[test]
    fn the_forty_move_rule_bounds_english_wins() {
        let pos = parse_fen("W:WK1,K2:BK32").unwrap();
        let c = |quiet_plies| DrawCounters {
            quiet_plies,
            ..DrawCounters::default()
        };
        // Drawn when the 80th quiet ply is played: 79 plies on is the last position checked.
        assert!(fits::<English>(&pos, &c(0), 80));
        assert!(!fits::<English>(&pos, &c(0), 81));
        assert!(fits::<English>(&pos, &c(46), 34));
        assert!(!fits::<English>(&pos, &c(47), 34));
    }

    #[test]
    fn russian_lone_king_counts_go_by_the_stronger_side() {
        // Three kings against one off the main road: 15 moves of the stronger side (7.2.4).
        let pos = parse_fen("W:WK1,K2,K3:BK32").unwrap();
        let c = DrawCounters::default();
        // White to move: its moves are plies 1, 3, ...; the 15th is ply 29, after which the
        // rule fires, so a win must end by ply 29.
        assert!(fits::<Russian>(&pos, &c, 29));
        assert!(!fits::<Russian>(&pos, &c, 31));
        // With the lone king on the main road (square 22), 5 moves (7.2.7).
        let road = parse_fen("W:WK1,K2,K3:BK22").unwrap();
        assert!(fits::<Russian>(&road, &c, 9));
        assert!(!fits::<Russian>(&road, &c, 11));
        // A loss or win that ends at once always fits.
        let late = DrawCounters {
            road_moves: 4,
            ending_moves: 14,
            ..c
        };
        assert!(fits::<Russian>(&road, &late, 1));
    }

    #[test]
    fn scores_prefer_the_shorter_win_and_bound_what_does_not_fit() {
        let pos = parse_fen("W:WK1,K2:BK32").unwrap();
        let c = DrawCounters::default();
        let win = |distance| Probe {
            value: Value::Win,
            distance,
        };
        let s = |p, alpha, beta| score::<English>(p, &pos, &c, 3, alpha, beta);
        assert_eq!(s(win(5), -10, 10), Some(Score::win_in(8).0));
        assert!(s(win(5), -10, 10) > s(win(7), -10, 10));
        let late = DrawCounters {
            quiet_plies: 79,
            ..c
        };
        let s = |p, alpha, beta| score::<English>(p, &pos, &late, 3, alpha, beta);
        assert_eq!(s(win(5), -10, 10), None);
        assert_eq!(s(win(5), -10, 0), Some(0));
        let loss = Probe {
            value: Value::Loss,
            distance: 4,
        };
        assert_eq!(s(loss, -10, 10), None);
        assert_eq!(s(loss, 0, 10), Some(0));
        let draw = Probe {
            value: Value::Draw,
            distance: 0,
        };
        assert_eq!(s(draw, -10, 10), Some(0));
    }
}
