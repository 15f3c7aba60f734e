//! The search's public face: what the protocols and tools call. Limits in, reports out through a
//! callback, a result at the end. The search runs on the caller's thread and watches a
//! `SearchControl` that another thread may use to stop it or end its ponder.
//!
//! The pieces: `iterate` (iterative deepening, aspiration, multi-PV, reports), `worker` (the
//! alpha-beta and quiescence of one thread), `ordering`, `tree` (draws and keys in the tree),
//! `time` (time management), `root` (the root every thread starts from, and a root move's
//! line), `shared` (what the threads of one search share), `pool` (the
//! long-lived search threads), `threads` (Lazy SMP and the coordinator) and `bench`.

pub mod bench;
mod iterate;
mod limits;
mod movestack;
mod ordering;
mod pool;
mod root;
mod score;
mod shared;
pub mod skill;
mod tb;
mod threads;
mod time;
mod tree;
mod worker;

pub use limits::{Clock, Limits, MAX_DEPTH, MAX_PLY};
pub use score::Score;

use crate::egtb::{Databases, EgtbError};
use crate::eval::EvalChoice;
use crate::game::Game;
use crate::learned::Learned;
use crate::moves::Move;
use crate::tt::TransTable;
use crate::variant::Variant;
use pool::Pool;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

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
    /// The evaluation that plays.
    pub eval: EvalChoice,
    /// Weights read from a file (`crownhead --eval-file`) that play in place of the embedded
    /// ones of their variant when `eval` is not `handwritten`.
    pub eval_file: Option<Arc<Learned>>,
    /// The strength level of searches that end by themselves (`skill`); full by default.
    pub skill: skill::Skill,
}

impl SearchOptions {
    /// The learned evaluation a search of `variant` plays, or `None` for the hand-written one.
    pub fn learned(&self, variant: Variant) -> Option<Arc<Learned>> {
        match &self.eval_file {
            // A file plays in its own variant only (`scripts.training.retarget_weights` marks a
            // network for another variant, to try it there).
            Some(file)
                if self.eval != EvalChoice::HandWritten && file.weights.variant == variant =>
            {
                Some(Arc::clone(file))
            }
            _ => self.eval.learned(variant),
        }
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            hash_mb: 64,
            multipv: 1,
            move_overhead_ms: 50,
            eval: EvalChoice::Auto,
            eval_file: None,
            skill: skill::Skill::FULL,
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
    /// Endgame database probes that gave a score or a cut, all threads.
    pub tbhits: u64,
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

/// Shared flags through which another thread steers a running search. Clones share the flags,
/// so the search's threads hold the very flags the caller sets.
#[derive(Clone, Debug, Default)]
pub struct SearchControl {
    flags: Arc<ControlFlags>,
    /// Reads signals from outside the process's memory into the flags (see `with_signals`).
    signals: Option<fn(&SearchControl)>,
}

#[derive(Debug, Default)]
struct ControlFlags {
    stop: AtomicBool,
    pondering: AtomicBool,
}

impl SearchControl {
    /// A control for a search that starts pondering (`true`) or thinking.
    pub fn new(pondering: bool) -> SearchControl {
        SearchControl {
            flags: Arc::new(ControlFlags {
                stop: AtomicBool::new(false),
                pondering: AtomicBool::new(pondering),
            }),
            signals: None,
        }
    }

    /// The same control, whose flags the search also sets from `read` each time it polls:
    /// where no other thread can reach the flags (a browser's worker, busy searching), `read`
    /// looks at a flag the page sets (in a `SharedArrayBuffer`) and calls `stop` or
    /// `ponderhit`. It must be cheap: the search calls it every thousand nodes or so.
    pub fn with_signals(mut self, read: fn(&SearchControl)) -> SearchControl {
        self.signals = Some(read);
        self
    }

    /// Reads the outside signals, if any, into the flags.
    pub fn refresh(&self) {
        if let Some(read) = self.signals {
            read(self);
        }
    }

    /// Asks the search to stop as soon as it can and return its best move.
    pub fn stop(&self) {
        self.flags.stop.store(true, Ordering::SeqCst);
    }

    /// The opponent played the expected move: the ponder search becomes a normal timed search
    /// whose clock starts now.
    pub fn ponderhit(&self) {
        self.flags.pondering.store(false, Ordering::SeqCst);
    }

    /// Whether a stop was asked for.
    pub fn stopped(&self) -> bool {
        self.flags.stop.load(Ordering::Relaxed)
    }

    /// Whether the search is still pondering.
    pub fn pondering(&self) -> bool {
        self.flags.pondering.load(Ordering::Relaxed)
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

/// The engine's thinking: owns the transposition table and the search threads, which are
/// started at the first search (and when the thread count changes) and parked between searches.
pub struct Searcher {
    options: SearchOptions,
    tt: Arc<TransTable>,
    pool: Pool,
    /// The endgame databases found for each variant (`Variant as usize`).
    databases: [Option<Databases>; crate::variant::Variant::ALL.len()],
}

impl Searcher {
    /// A searcher with the given options.
    pub fn new(options: SearchOptions) -> Searcher {
        let tt = Arc::new(TransTable::new(options.hash_mb));
        let mut searcher = Searcher {
            options,
            tt,
            pool: Pool::default(),
            databases: Default::default(),
        };
        searcher.start_threads();
        searcher
    }

    /// Starts or ends threads to match the option, ahead of the search that needs them.
    fn start_threads(&mut self) {
        if !crate::platform::THREADS {
            return;
        }
        let wanted = self.options.threads.max(1);
        if self.pool.len() != wanted {
            let started = self.pool.resize(wanted);
            if started < wanted {
                log::warn!("could start only {started} of {wanted} search threads");
            }
        }
    }

    /// Changes options (resizing the hash table, changing the thread count). When the memory
    /// for a new hash size cannot be allocated, nothing changes and the error says so.
    pub fn set_options(&mut self, options: SearchOptions) -> Result<(), HashAllocError> {
        if options.hash_mb != self.options.hash_mb {
            // The threads of the last search must be parked before the old table goes.
            self.pool.wait_idle();
            let tt = TransTable::try_new(options.hash_mb).ok_or(HashAllocError(options.hash_mb))?;
            self.tt = Arc::new(tt);
        }
        self.options = options;
        self.start_threads();
        Ok(())
    }

    /// Uses the endgame databases under `dir` (docs/EGTB.md), for each variant that has slices
    /// there, or none with `None`. A directory that holds no databases
    /// of either variant is refused and the databases in use are kept. Returns the databases
    /// now in use, for a report.
    pub fn set_databases(
        &mut self,
        dir: Option<&std::path::Path>,
    ) -> Result<Vec<Databases>, EgtbError> {
        let found = match dir {
            None => Default::default(),
            Some(dir) => {
                let mut found: [Option<Databases>; crate::variant::Variant::ALL.len()] =
                    Default::default();
                for v in crate::variant::Variant::ALL {
                    found[v as usize] = Databases::open(dir, v);
                }
                if found.iter().all(Option::is_none) {
                    return Err(EgtbError::NoDatabases(dir.to_path_buf()));
                }
                found
            }
        };
        // The threads of the last search may still hold the old ones through their `Shared`;
        // the tables are shared by `Arc`, so dropping ours frees nothing they use.
        self.pool.wait_idle();
        self.databases = found;
        // Scores learnt with other databases (or none) are not those of these.
        self.table().clear();
        Ok(self.databases.iter().flatten().cloned().collect())
    }

    /// The databases in use for `variant`.
    pub fn databases(&self, variant: crate::variant::Variant) -> Option<&Databases> {
        self.databases[variant as usize].as_ref()
    }

    /// The current options.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Forgets everything learnt: called on a new game.
    pub fn new_game(&mut self) {
        self.table().clear();
    }

    /// The table, for a change that no thread may see half done: waits for the threads of the
    /// last search to park (they drop their handles on it as they do).
    fn table(&mut self) -> &mut TransTable {
        self.pool.wait_idle();
        if Arc::get_mut(&mut self.tt).is_none() {
            // Unreachable while the pool keeps its promise; a fresh table keeps us correct.
            log::error!("the hash table is still shared after the search; replacing it");
            self.tt = Arc::new(TransTable::new(self.options.hash_mb));
        }
        Arc::get_mut(&mut self.tt).expect("a table just made has one owner")
    }

    /// Searches the current position of `game` (whose history counts for repetitions and draw
    /// rules) within `limits`, reporting progress to `report`, until the limits are reached or
    /// `control` says stop. While `control` is pondering, time limits do not apply. Below full
    /// strength (`SearchOptions::skill`) a search that ends by itself is capped and may choose
    /// a weaker line (`skill`).
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome {
        let skill = self.options.skill;
        if !skill.weakens(limits) {
            return self.run(game, limits, None, control, report);
        }
        let wanted = self.options.multipv.max(1);
        let lines = skill.level().lines.max(wanted);
        // The lines of the last iteration reported, best first.
        let mut last: Vec<SearchInfo> = Vec::new();
        let outcome = self.run(
            game,
            &skill.cap(limits),
            Some(lines),
            control,
            &mut |info| {
                if info.multipv <= 1 {
                    last.clear();
                }
                last.push(info.clone());
                if info.multipv <= wanted {
                    report(info);
                }
            },
        );
        skill.choose(game.position().key(), &last, &outcome)
    }

    /// One search with the options as set, or with `multipv` lines instead.
    fn run(
        &mut self,
        game: &Game,
        limits: &Limits,
        multipv: Option<usize>,
        control: &SearchControl,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome {
        // The threads of the last search may still be winding down: each takes this search's
        // job when it has ended the last one's.
        self.tt.new_search();
        let widened;
        let options = match multipv {
            Some(k) => {
                widened = SearchOptions {
                    multipv: k,
                    ..self.options.clone()
                };
                &widened
            }
            None => &self.options,
        };
        let (pool, tt) = (&self.pool, &self.tt);
        let db = self.databases[game.variant() as usize].clone();
        crate::with_rules!(game.variant(), R => threads::run::<R>(pool, tt, options, db, game, limits, control, report))
    }
}
