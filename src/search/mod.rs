//! The search's public face: what the protocols and tools call. Limits in, reports out through a
//! callback, a result at the end. The search runs on the caller's thread and watches a
//! `SearchControl` that another thread may use to stop it or end its ponder.
//!
//! The pieces: `iterate` (iterative deepening, aspiration, multi-PV, reports), `worker` (the
//! alpha-beta and quiescence of one thread), `ordering`, `tree` (draws and keys in the tree),
//! `time` (time management), `threads` (Lazy SMP) and `bench`.

pub mod bench;
mod iterate;
mod limits;
mod movestack;
mod ordering;
mod score;
mod threads;
mod time;
mod tree;
mod worker;

pub use limits::{Clock, Limits, MAX_DEPTH};
pub use score::Score;

use crate::game::Game;
use crate::moves::Move;
use crate::tt::TransTable;
use std::sync::atomic::{AtomicBool, Ordering};

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

/// The memory for a transposition table of this many MiB could not be allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashAllocError(pub usize);

impl std::fmt::Display for HashAllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot allocate a {} MiB hash table; the old one is kept",
            self.0
        )
    }
}

impl std::error::Error for HashAllocError {}

/// The engine's thinking: owns the transposition table; the worker threads live only during a
/// search.
pub struct Searcher {
    options: SearchOptions,
    tt: TransTable,
}

impl Searcher {
    /// A searcher with the given options.
    pub fn new(options: SearchOptions) -> Searcher {
        let tt = TransTable::new(options.hash_mb);
        Searcher { options, tt }
    }

    /// Changes options (resizing the hash table, changing the thread count). When the memory
    /// for a new hash size cannot be allocated, nothing changes and the error says so.
    pub fn set_options(&mut self, options: SearchOptions) -> Result<(), HashAllocError> {
        if options.hash_mb != self.options.hash_mb {
            self.tt =
                TransTable::try_new(options.hash_mb).ok_or(HashAllocError(options.hash_mb))?;
        }
        self.options = options;
        Ok(())
    }

    /// The current options.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Forgets everything learnt: called on a new game.
    pub fn new_game(&mut self) {
        self.tt.clear();
    }

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
        self.tt.new_search();
        let (tt, options) = (&self.tt, &self.options);
        crate::with_rules!(game.variant(), R => threads::run::<R>(tt, options, game, limits, control, report))
    }
}
