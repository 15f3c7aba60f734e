//! Iterative deepening at the root: one iteration per depth, each line of a multi-PV search
//! inside an aspiration window around its last score, the root moves re-ordered by their scores
//! after every iteration. The main thread reports each finished iteration (with a principal
//! variation checked by playing it) and decides between iterations whether time allows another.

use super::ordering::pick;
use super::root::{Line, RootSetup};
use super::shared::Shared;
use super::tb;
use super::tree::to_tt;
use super::worker::Worker;
use super::{Score, SearchInfo};
use crate::egtb::Value;
use crate::movegen::{generate, Counting};
use crate::moves::Move;
use crate::position::Position;
use crate::tt::{move_code, Bound};
use crate::variant::Rules;

const INF: i32 = Score::INFINITE.0;
/// The first aspiration half-window, in centi-men.
const ASPIRATION: i32 = 20;

impl<R: Rules> Worker<'_, R> {
    /// Iterative deepening to `setup.max_depth` or a stop; returns the lines of the last
    /// completed iteration (best first) and its depth.
    pub(crate) fn iterate(
        &mut self,
        setup: &RootSetup,
        mut report: Option<&mut dyn FnMut(&SearchInfo)>,
    ) -> (Vec<Line>, u32) {
        let root = &setup.root;
        let mut moves = Vec::new();
        generate::<R>(root, &mut moves, Counting::Unique);
        let only = &setup.limits.searchmoves;
        if !only.is_empty() {
            moves.retain(|m| only.iter().any(|o| o.same_effect(m)));
        }
        self.keep_database_moves(root, &mut moves);
        if moves.is_empty() {
            return (Vec::new(), 0);
        }
        // First ordering: the table's move, then captures, as inside the tree.
        let hash_move = self
            .shared
            .tt
            .probe(super::tree::tt_key::<R>(root, &setup.counters))
            .map_or(0, |e| e.mv);
        let mut scores = vec![0; moves.len()];
        self.order
            .score(root, &mut moves, hash_move, 0, &mut scores);
        let mut lines: Vec<Line> = (0..moves.len())
            .map(|i| Line {
                score: -INF,
                pv: vec![pick(&mut moves, &mut scores, i)],
            })
            .collect();
        let multipv = setup.multipv.min(lines.len());
        let mut completed: Vec<Line> = vec![lines[0].clone()];
        let mut completed_depth = 0;
        let mut instability = 0.0f64;
        // Helpers on odd ids start one ply ahead of the main thread; then each thread takes
        // the next depth nobody is searching (see `Shared::next_depth`).
        let mut depth = (self.id % 2) as i32;
        loop {
            depth = self.shared.next_depth(self.id, depth, setup.max_depth);
            if depth > setup.max_depth {
                break;
            }
            self.root_depth = depth;
            self.seldepth = 0;
            for pv_idx in 0..multipv {
                self.aspiration(setup, &mut lines, depth, pv_idx);
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            // A later line can score above an earlier one, since each is searched in a window
            // of its own and the table has learnt from the earlier ones; lines are reported
            // best first. The sort is stable: equal scores keep their search order.
            lines[..multipv].sort_by_key(|line| std::cmp::Reverse(line.score));
            let changed = completed[0].pv[0] != lines[0].pv[0];
            completed = lines[..multipv].to_vec();
            completed_depth = depth as u32;
            self.shared.record(&completed, completed_depth, self.id);
            let Some(report) = report.as_deref_mut() else {
                if depth == setup.max_depth {
                    self.finish_first(&completed, completed_depth);
                }
                continue;
            };
            for (i, line) in completed.iter_mut().enumerate() {
                line.pv = self.reported_line(root, &line.pv);
                report(&self.info(depth as u32, i + 1, line));
            }
            instability = instability * 0.5 + if changed && depth > 1 { 1.0 } else { 0.0 };
            if self.should_stop(setup, &completed, depth, instability, lines.len()) {
                break;
            }
        }
        if let Some(report) = report {
            if let Some((lines, depth)) = self.helper_result(completed_depth) {
                completed = lines;
                completed_depth = depth;
                for (i, line) in completed.iter_mut().enumerate() {
                    line.pv = self.reported_line(root, &line.pv);
                    report(&self.info(depth, i + 1, line));
                }
            }
        }
        (completed, completed_depth)
    }

    /// `pv` as reported: its longest legal prefix with full moves (`verified`), continued by
    /// the databases' best play when it ends in a position they hold (the search stops at
    /// such a node, so its own line ends there, often after one move).
    fn reported_line(&mut self, root: &Position, pv: &[Move]) -> Vec<Move> {
        let mut line = verified::<R>(root, pv);
        let Some(prober) = self.prober.as_mut() else {
            return line;
        };
        let end = line.iter().fold(*root, |pos, mv| pos.play(mv));
        if end.piece_count() <= prober.pieces() {
            line.extend(tb::database_line::<R>(prober, &end));
        }
        line
    }

    /// At a root whose children the endgame databases all hold, only the moves that keep the
    /// databases' value are searched: the winning moves of a won root, the drawing moves of a
    /// drawn one (a lost root keeps all). The counter rules only add draws, so no other move
    /// can be better under them; among the moves kept, the search's scores (by distance, with
    /// the rules checked) choose, so a won root plays the database's shortest win.
    fn keep_database_moves(&mut self, root: &Position, moves: &mut Vec<Move>) {
        let Some(prober) = self.prober.as_mut() else {
            return;
        };
        if root.piece_count() > prober.pieces() {
            return;
        }
        let mut values = Vec::with_capacity(moves.len());
        for mv in moves.iter() {
            match prober.probe_now(&root.play(mv)) {
                Some(p) => values.push(p.value),
                None => return,
            }
        }
        // A child's value is the opponent's: a child it loses is a win for the root.
        let best = if values.contains(&Value::Loss) {
            Value::Loss
        } else if values.contains(&Value::Draw) {
            Value::Draw
        } else {
            return;
        };
        let mut values = values.into_iter();
        moves.retain(|_| values.next() == Some(best));
    }

    /// A helper that completed the last depth publishes its lines and stops every thread.
    fn finish_first(&self, lines: &[Line], depth: u32) {
        let mut finished = self
            .shared
            .finished
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if finished.is_none() {
            *finished = Some((lines.to_vec(), depth));
            self.shared.stop_all();
        }
    }

    /// The lines of a helper that completed a deeper iteration than `depth`, if one did.
    fn helper_result(&self, depth: u32) -> Option<(Vec<Line>, u32)> {
        let finished = self
            .shared
            .finished
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        finished.as_ref().filter(|f| f.1 > depth).cloned()
    }

    /// Whether the main thread ends the search after a completed iteration.
    fn should_stop(
        &mut self,
        setup: &RootSetup,
        lines: &[Line],
        depth: i32,
        instability: f64,
        n_moves: usize,
    ) -> bool {
        let control = &self.shared.control;
        if control.stopped() {
            return true;
        }
        // `go mate N`: a win within N moves ends the search.
        if let Some(n) = setup.limits.mate {
            if Score(lines[0].score)
                .mate_moves()
                .is_some_and(|m| m > 0 && m <= n as i32)
            {
                return true;
            }
        }
        let holding = setup.limits.infinite || control.pondering();
        let mut time = self.shared.time();
        if !holding && time.managed() {
            // On a clock, a forced move needs no thought and a found mate no deeper search. A
            // fixed move time is spent whole, as the client expects: the table it fills serves
            // the next move.
            if n_moves == 1 {
                return true;
            }
            let s = lines[0].score;
            if Score(s).is_decisive() && depth > 2 * (Score::WIN.0 - s.abs()) + 4 {
                return true;
            }
        }
        time.soft_stop(control, instability)
    }

    /// Searches line `pv_idx` at `depth` inside a window around its last score, widening the
    /// window until the score falls inside it.
    fn aspiration(&mut self, setup: &RootSetup, lines: &mut [Line], depth: i32, pv_idx: usize) {
        let prev = lines[pv_idx].score;
        let mut delta = ASPIRATION;
        let (mut alpha, mut beta) = if depth >= 4 && !Score(prev).is_decisive() && prev > -INF {
            ((prev - delta).max(-INF), (prev + delta).min(INF))
        } else {
            (-INF, INF)
        };
        loop {
            let score = self.root_search(setup, lines, depth, alpha, beta, pv_idx);
            if self.stopped {
                return;
            }
            if score <= alpha && alpha > -INF {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INF);
            } else if score >= beta && beta < INF {
                beta = (score + delta).min(INF);
            } else {
                return;
            }
            delta += delta;
            if delta > 400 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// One pass over the root moves from `pv_idx` on; the best of them moves to `pv_idx`.
    fn root_search(
        &mut self,
        setup: &RootSetup,
        lines: &mut [Line],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        pv_idx: usize,
    ) -> i32 {
        let root = &setup.root;
        let mut best = -INF;
        self.keys.push(root.key());
        for i in pv_idx..lines.len() {
            let mv = lines[i].pv[0];
            let child = root.play(&mv);
            let counters = setup.counters.after(root, &mv, &child);
            let mut score;
            if i == pv_idx {
                score = -self.search(&child, &counters, -beta, -alpha, depth - 1, 1, true);
            } else {
                score = -self.search(&child, &counters, -alpha - 1, -alpha, depth - 1, 1, false);
                if score > alpha && score < beta && !self.stopped {
                    score = -self.search(&child, &counters, -beta, -alpha, depth - 1, 1, true);
                }
            }
            if self.stopped {
                break;
            }
            if i == pv_idx || score > alpha {
                let line = &mut lines[i];
                line.score = score;
                line.pv.truncate(1);
                line.pv.extend_from_slice(&self.pv[1]);
                // Keep the new best first; the moves it passes keep their order.
                lines[pv_idx..=i].rotate_right(1);
            } else {
                lines[i].score = -INF;
            }
            best = best.max(score);
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        self.keys.pop();
        if !self.stopped && pv_idx == 0 {
            let bound = if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let key = super::tree::tt_key::<R>(root, &setup.counters);
            self.shared.tt.store(
                key,
                move_code(&lines[0].pv[0]),
                to_tt(best, 0),
                0,
                depth,
                bound,
            );
        }
        best
    }

    /// The report of one line.
    fn info(&self, depth: u32, multipv: usize, line: &Line) -> SearchInfo {
        let nodes = self.shared.helper_nodes() + self.nodes;
        let tbhits = self.shared.helper_tbhits() + self.tbhits;
        line_info(
            self.shared,
            depth,
            self.seldepth as u32,
            (nodes, tbhits),
            multipv,
            line,
        )
    }
}

/// The report of one line of a completed iteration, with the clock and table as they stand.
pub(crate) fn line_info(
    shared: &Shared,
    depth: u32,
    seldepth: u32,
    (nodes, tbhits): (u64, u64),
    multipv: usize,
    line: &Line,
) -> SearchInfo {
    let time = shared.time().elapsed();
    SearchInfo {
        depth,
        seldepth,
        score: Score(line.score),
        nodes,
        nps: (nodes as u128 * 1_000_000 / time.as_micros().max(1)) as u64,
        time_ms: time.as_millis() as u64,
        hashfull: shared.tt.hashfull(),
        tbhits,
        multipv,
        pv: line.pv.clone(),
    }
}

/// The longest prefix of `pv` that is legal from `root`, played move by move, each move as the
/// full generator gives it: the tree's moves carry no capture paths, and a reported line needs
/// them.
pub(crate) fn verified<R: Rules>(root: &Position, pv: &[Move]) -> Vec<Move> {
    let mut pos = *root;
    let mut legal = Vec::new();
    let mut out = Vec::with_capacity(pv.len());
    for mv in pv {
        generate::<R>(&pos, &mut legal, Counting::Unique);
        let Some(full) = legal.iter().find(|m| m.same_effect(mv)) else {
            break;
        };
        out.push(*full);
        pos = pos.play(full);
    }
    out
}
