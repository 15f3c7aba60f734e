//! Lazy SMP: every thread runs its own iterative deepening on the same root and they share only
//! the transposition table (and a stop flag). Helpers on odd ids start one ply deeper, and after
//! each iteration a thread goes on with the next depth that no other thread is searching, so the
//! threads leapfrog and each fills the table for the others (with two threads, the time to depth
//! 12 of the bench fell from 0.72 to 0.62 of one thread's against plain "one ply ahead"). The
//! main thread alone keeps time, reports (so with several threads its reports can skip depths)
//! and chooses the move. A helper that completes the last depth first ends the search, and the
//! main thread answers with its lines: with a depth limit, the time to that depth is the fastest
//! thread's. Near the root the threads also leave breadcrumbs (`Breadcrumbs`): a thread that
//! enters a node another thread is searching reduces its late moves one ply more, so the two
//! overlap less. Threads are scoped (`std::thread::scope`): they end with the search.

use super::iterate::{Line, RootSetup};
use super::time::TimeManager;
use super::tree::KeyStack;
use super::worker::Worker;
use super::{Limits, Score, SearchControl, SearchInfo, SearchOptions, SearchOutcome, MAX_DEPTH};
use crate::game::Game;
use crate::tt::TransTable;
use crate::variant::Rules;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

/// The depth searched when no limit at all is given.
const DEFAULT_DEPTH: u32 = 16;

/// What all threads of one search share.
pub(crate) struct Shared<'a> {
    pub(crate) tt: &'a TransTable,
    pub(crate) control: &'a SearchControl,
    /// Set when the search must end; every thread polls it.
    pub(crate) stop: AtomicBool,
    /// Nodes of each thread, published at every poll.
    nodes: Vec<AtomicU64>,
    /// The node limit over all threads.
    node_limit: u64,
    /// The clock; only the main thread (id 0) uses it, so the lock is never contended.
    pub(crate) time: Mutex<TimeManager>,
    /// The depth each thread is searching (0 before its first).
    depths: Vec<std::sync::atomic::AtomicI32>,
    /// The lines and depth of a helper that completed the last iteration first; it then stops
    /// the search, and the main thread answers with them. Written at most once per search.
    pub(crate) finished: Mutex<Option<(Vec<Line>, u32)>>,
    /// Which nodes near the root some thread is searching now (empty with one thread).
    pub(crate) busy: Breadcrumbs,
}

/// Marks left by the threads on the nodes near the root they are searching, so that a thread
/// arriving at a node another thread is already in can search it more thinly (more reduction of
/// late moves) and get on to other work; the threads then overlap less. Racy by design like the
/// table: a lost or stale mark only changes how much a node is reduced, never a result's
/// legality. With one thread there are no slots, and the search is exactly the single-thread one.
pub(crate) struct Breadcrumbs {
    /// `key`'s high bits with the owner's id + 1 in the low byte, or 0 for a free slot.
    slots: Vec<AtomicU64>,
}

/// What `Breadcrumbs::enter` found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Crumb {
    /// Nothing marked (one thread, or a node too deep or too shallow to mark).
    None,
    /// This thread marked the node and must `leave` it.
    Owned(usize),
    /// Another thread is in this node.
    Taken,
}

impl Breadcrumbs {
    /// Only nodes this close to the root are marked: deeper, the overlap costs little.
    pub(crate) const MAX_PLY: usize = 8;
    /// Only nodes with this much depth left are marked.
    pub(crate) const MIN_DEPTH: i32 = 4;

    fn new(threads: usize) -> Breadcrumbs {
        let len = if threads > 1 { 1024 } else { 0 };
        Breadcrumbs {
            slots: (0..len).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline(always)]
    fn mark(key: u64, id: usize) -> u64 {
        (key & !0xFF) | (id as u64 + 1)
    }

    /// Thread `id` enters the node `key` at `ply` with `depth` to go.
    #[inline]
    pub(crate) fn enter(&self, key: u64, id: usize, ply: usize, depth: i32) -> Crumb {
        // Ply and depth first: they are in registers, and rule out most nodes.
        if ply >= Self::MAX_PLY || depth < Self::MIN_DEPTH || self.slots.is_empty() {
            return Crumb::None;
        }
        let i = (key as usize) & (self.slots.len() - 1);
        let seen = self.slots[i].load(Ordering::Relaxed);
        if seen == 0 {
            self.slots[i].store(Self::mark(key, id), Ordering::Relaxed);
            Crumb::Owned(i)
        } else if seen & !0xFF == key & !0xFF && seen & 0xFF != id as u64 + 1 {
            Crumb::Taken
        } else {
            Crumb::None
        }
    }

    /// Thread `id` leaves a node it marked.
    #[inline]
    pub(crate) fn leave(&self, crumb: Crumb, key: u64, id: usize) {
        if let Crumb::Owned(i) = crumb {
            // Only our own mark is cleared: another thread may have taken the slot since.
            let _ = self.slots[i].compare_exchange(
                Self::mark(key, id),
                0,
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
        }
    }
}

impl Shared<'_> {
    /// The depth thread `id` searches after completing `done`: the next one that no other
    /// thread is already searching, so that two threads rarely search the same tree at the
    /// same depth; past `max`, `max + 1` (the thread is finished).
    pub(crate) fn next_depth(&self, id: usize, done: i32, max: i32) -> i32 {
        let mut next = done + 1;
        if self.depths.len() > 1 {
            while next < max
                && self
                    .depths
                    .iter()
                    .enumerate()
                    .any(|(i, d)| i != id && d.load(Ordering::Relaxed) == next)
            {
                next += 1;
            }
        }
        self.depths[id].store(next, Ordering::Relaxed);
        next
    }

    /// Publishes a thread's node count and says whether it must stop. The main thread also
    /// checks the stop request, the hard time limit and the total node limit here.
    #[inline]
    pub(crate) fn poll(&self, id: usize, nodes: u64) -> bool {
        self.nodes[id].store(nodes, Ordering::Relaxed);
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        if id == 0 {
            let over_nodes = self.nodes.len() > 1 && self.total_nodes() >= self.node_limit;
            let over_time = self
                .time
                .lock()
                .is_ok_and(|mut t| t.hard_stop(self.control));
            if self.control.stopped() || over_time || over_nodes {
                self.stop.store(true, Ordering::Relaxed);
                return true;
            }
        }
        false
    }

    /// Nodes of the helper threads as last published.
    pub(crate) fn helper_nodes(&self) -> u64 {
        self.nodes[1..]
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .sum()
    }

    /// Nodes of all threads as last published.
    pub(crate) fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// Runs one search over `options.threads` threads and returns the main thread's result.
pub(crate) fn run<R: Rules>(
    tt: &TransTable,
    options: &SearchOptions,
    game: &Game,
    limits: &Limits,
    control: &SearchControl,
    report: &mut dyn FnMut(&SearchInfo),
) -> SearchOutcome {
    let threads = options.threads.max(1);
    let node_limit = limits.nodes.unwrap_or(u64::MAX).max(1);
    let time = TimeManager::new(limits, options.move_overhead_ms, control.pondering());
    let bounded = limits.nodes.is_some() || time.timed() || limits.infinite;
    let max_depth = limits
        .depth_bound()
        .unwrap_or(if bounded { MAX_DEPTH } else { DEFAULT_DEPTH })
        .clamp(1, MAX_DEPTH);
    let shared = Shared {
        tt,
        control,
        stop: AtomicBool::new(false),
        nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
        depths: (0..threads)
            .map(|_| std::sync::atomic::AtomicI32::new(0))
            .collect(),
        node_limit,
        time: Mutex::new(time),
        finished: Mutex::new(None),
        busy: Breadcrumbs::new(threads),
    };
    let history = &game.positions()[..game.positions().len() - 1];
    let window = game.counters().quiet_plies as usize;
    let setup = RootSetup {
        root: *game.position(),
        counters: game.counters(),
        max_depth: max_depth as i32,
        multipv: options.multipv.max(1),
        limits,
    };
    let (lines, depth, nodes) = std::thread::scope(|scope| {
        for id in 1..threads {
            let (shared, setup) = (&shared, &setup);
            let keys = KeyStack::new(history, window);
            scope.spawn(move || {
                let mut helper = Worker::<R>::new(shared, id, keys, node_limit);
                helper.iterate(setup, None);
                shared.nodes[id].store(helper.nodes, Ordering::Relaxed);
            });
        }
        let mut main = Worker::<R>::new(&shared, 0, KeyStack::new(history, window), node_limit);
        let result = main.iterate(&setup, Some(report));
        // UCI semantics: while pondering or infinite, the answer waits for a stop or ponderhit.
        while (limits.infinite || control.pondering()) && !control.stopped() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        shared.stop.store(true, Ordering::Relaxed);
        let own = main.nodes;
        shared.nodes[0].store(own, Ordering::Relaxed);
        (result.0, result.1, own)
    });
    let total = if threads == 1 {
        nodes
    } else {
        shared.total_nodes()
    };
    outcome(&lines, depth, total)
}

fn outcome(lines: &[Line], depth: u32, nodes: u64) -> SearchOutcome {
    match lines.first() {
        Some(l) => SearchOutcome {
            best: Some(l.pv[0]),
            ponder: l.pv.get(1).copied(),
            score: Score(l.score),
            depth,
            nodes,
        },
        None => SearchOutcome {
            best: None,
            ponder: None,
            score: Score::loss_in(0),
            depth: 0,
            nodes,
        },
    }
}
