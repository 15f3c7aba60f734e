//! The search's public face: what the protocols and tools call. Limits in, reports out through a
//! callback, a result at the end. The search runs on the caller's thread and watches a
//! `SearchControl` that another thread may use to stop it or end its ponder.
//!
//! NOTE: this is the interface the protocols are written against; the body of `Searcher::search`
//! here is a placeholder (plain material alpha-beta) until the real search lands.

mod limits;
mod score;

pub use limits::{Clock, Limits};
pub use score::Score;

use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;
use crate::variant::Variant;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Settings of the search that outlive one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Worker threads (Lazy SMP), 1 or more.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Number of principal variations to report (analysis).
    pub multipv: usize,
    /// Milliseconds kept in reserve on every move for I/O and process latency.
    pub move_overhead_ms: u64,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            hash_mb: 64,
            multipv: 1,
            move_overhead_ms: 50,
        }
    }
}

/// One progress report: sent after each iteration (and for each line in multi-PV).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Nominal depth in plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score from the side to move's point of view.
    pub score: Score,
    /// Nodes searched so far, all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Transposition table fill in permille.
    pub hashfull: u32,
    /// 1-based index of this line in multi-PV.
    pub multipv: usize,
    /// The principal variation, legal from the root.
    pub pv: Vec<Move>,
}

/// What a finished search returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOutcome {
    /// The move to play; `None` only when the root has no legal move.
    pub best: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    /// The best move's score.
    pub score: Score,
    /// The last completed depth.
    pub depth: u32,
    /// Total nodes.
    pub nodes: u64,
}

/// Shared flags through which another thread steers a running search.
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
}

impl SearchControl {
    /// A control for a search that starts pondering (`true`) or thinking.
    pub fn new(pondering: bool) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
        }
    }

    /// Asks the search to stop as soon as it can and return its best move.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// The opponent played the expected move: the ponder search becomes a normal timed search
    /// whose clock starts now.
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Whether a stop was asked for.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether the search is still pondering.
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
}

/// The engine's thinking: owns the transposition table and the worker threads' state.
pub struct Searcher {
    options: SearchOptions,
}

impl Searcher {
    /// A searcher with the given options.
    pub fn new(options: SearchOptions) -> Searcher {
        Searcher { options }
    }

    /// Changes options (resizing the hash table, changing the thread count).
    pub fn set_options(&mut self, options: SearchOptions) {
        self.options = options;
    }

    /// The current options.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Forgets everything learnt: called on a new game.
    pub fn new_game(&mut self) {}

    /// Searches the current position of `game` (whose history counts for repetitions and draw
    /// rules) within `limits`, reporting progress to `report`, until the limits are reached or
    /// `control` says stop. While `control` is pondering, time limits do not apply.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome {
        let start = Instant::now();
        let variant = game.variant();
        let root = *game.position();
        let moves = variant.legal_moves(&root);
        let mut outcome = SearchOutcome {
            best: moves.first().copied(),
            ponder: None,
            score: Score::ZERO,
            depth: 0,
            nodes: 0,
        };
        let max_depth = limits.depth.unwrap_or(64).min(64);
        let mut nodes = 0u64;
        for depth in 1..=max_depth {
            let mut best = None;
            let mut best_score = -Score::INFINITE.0;
            for m in &moves {
                let s = -negamax(variant, &root.play(m), depth - 1, 1, &mut nodes);
                if s > best_score {
                    best_score = s;
                    best = Some(*m);
                }
            }
            outcome = SearchOutcome {
                best,
                ponder: None,
                score: Score(best_score),
                depth,
                nodes,
            };
            let ms = start.elapsed().as_millis() as u64;
            report(&SearchInfo {
                depth,
                seldepth: depth,
                score: Score(best_score),
                nodes,
                nps: nodes * 1000 / ms.max(1),
                time_ms: ms,
                hashfull: 0,
                multipv: 1,
                pv: best.into_iter().collect(),
            });
            let out_of_time =
                !control.pondering() && limits.movetime.is_some_and(|t| start.elapsed() * 2 > t);
            if control.stopped() || out_of_time || limits.nodes.is_some_and(|n| nodes >= n) {
                break;
            }
            if limits.infinite || control.pondering() {
                continue;
            }
            if limits.depth.is_none()
                && limits.movetime.is_none()
                && limits.nodes.is_none()
                && depth >= 6
            {
                break;
            }
        }
        while (limits.infinite || control.pondering()) && !control.stopped() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        outcome
    }
}

/// Placeholder negamax on material.
fn negamax(variant: Variant, pos: &Position, depth: u32, ply: u32, nodes: &mut u64) -> i32 {
    *nodes += 1;
    let moves = variant.legal_moves(pos);
    if moves.is_empty() {
        return -Score::win_in(ply).0;
    }
    if depth == 0 {
        let us = pos.side();
        let material =
            |c| (pos.men(c).count_ones() * 100 + pos.kings_of(c).count_ones() * 300) as i32;
        return material(us) - material(us.opponent());
    }
    moves
        .iter()
        .map(|m| -negamax(variant, &pos.play(m), depth - 1, ply + 1, nodes))
        .max()
        .unwrap_or(0)
}
