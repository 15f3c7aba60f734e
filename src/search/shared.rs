//! The state that all threads of one search share: the table, the stop flag, the node counts,
//! the clock, the depth each thread is on, the deepest finished iteration, and the breadcrumbs
//! near the root. It owns everything it holds (the table through an `Arc`), so that the pool's
//! long-lived threads can run a search without borrowing from the caller.
//!
//! Race policy: the counters and flags are relaxed atomics, read as hints (a stale node count or
//! depth only shifts when a thread looks again); the clock and the finished lines sit behind
//! mutexes that each thread takes at most once per poll or per iteration.

use super::root::{Line, RootSetup};
use super::time::TimeManager;
use super::SearchControl;
use crate::egtb::Databases;
use crate::tt::TransTable;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// What all threads of one search share.
pub(crate) struct Shared {
    pub(crate) tt: Arc<TransTable>,
    /// The caller's stop and ponder flags (a clone shares them).
    pub(crate) control: SearchControl,
    /// Set when the search must end; every thread polls it.
    pub(crate) stop: AtomicBool,
    /// Nodes of each thread, published at every poll.
    nodes: Vec<AtomicU64>,
    /// The node limit over all threads.
    node_limit: u64,
    /// The clock: the main thread (id 0) decides between iterations with it, and the
    /// coordinating thread ends the search by it.
    pub(crate) time: Mutex<TimeManager>,
    /// The depth each thread is searching (0 before its first).
    depths: Vec<AtomicI32>,
    /// The lines and depth of a helper that completed the last iteration first; it then stops
    /// the search, and the main thread answers with them. Written at most once per search.
    pub(crate) finished: Mutex<Option<(Vec<Line>, u32)>>,
    /// The deepest iteration any thread has completed, with its lines (the main thread's at
    /// equal depth): the answer when the main thread cannot return in time, as when far more
    /// threads than cores leave it without a core.
    deepest: Mutex<Option<Finished>>,
    /// Which nodes near the root some thread is searching now (empty with one thread).
    pub(crate) busy: Breadcrumbs,
    /// The turns of the threads beyond the machine's cores.
    pub(crate) turns: Turns,
    /// The root and the limits.
    pub(crate) setup: RootSetup,
    /// The endgame databases of the variant, if any; each thread probes through its own
    /// `Prober`.
    pub(crate) databases: Option<Databases>,
    /// Database hits of each thread, published at every poll.
    tbhits: Vec<AtomicU64>,
}

/// A completed iteration of one thread.
#[derive(Clone, Debug)]
pub(crate) struct Finished {
    pub(crate) lines: Vec<Line>,
    pub(crate) depth: u32,
    pub(crate) thread: usize,
}

impl Shared {
    /// The state of a search over `threads` threads from `setup`.
    pub(crate) fn new(
        tt: Arc<TransTable>,
        threads: usize,
        node_limit: u64,
        time: TimeManager,
        control: SearchControl,
        setup: RootSetup,
        databases: Option<Databases>,
    ) -> Shared {
        Shared {
            tt,
            control,
            stop: AtomicBool::new(false),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            node_limit,
            time: Mutex::new(time),
            depths: (0..threads).map(|_| AtomicI32::new(0)).collect(),
            finished: Mutex::new(None),
            deepest: Mutex::new(None),
            busy: Breadcrumbs::new(threads),
            turns: Turns::new(super::pool::cores()),
            setup,
            databases,
            tbhits: (0..threads).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The clock. A thread that panicked holding it leaves it usable.
    pub(crate) fn time(&self) -> MutexGuard<'_, TimeManager> {
        self.time.lock().unwrap_or_else(|e| e.into_inner())
    }

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
            self.control.refresh();
            let over_nodes = self.nodes.len() > 1 && self.total_nodes() >= self.node_limit;
            let over_time = self.time().hard_stop(&self.control);
            if self.control.stopped() || over_time || over_nodes {
                self.stop_all();
                return true;
            }
        }
        false
    }

    /// The node limit over all threads.
    pub(crate) fn node_limit(&self) -> u64 {
        self.node_limit
    }

    /// Publishes a thread's final node count.
    pub(crate) fn set_nodes(&self, id: usize, nodes: u64) {
        self.nodes[id].store(nodes, Ordering::Relaxed);
    }

    /// Publishes a thread's database hits.
    pub(crate) fn set_tbhits(&self, id: usize, hits: u64) {
        self.tbhits[id].store(hits, Ordering::Relaxed);
    }

    /// Database hits of the helper threads as last published.
    pub(crate) fn helper_tbhits(&self) -> u64 {
        sum(&self.tbhits[1..])
    }

    /// Database hits of all threads as last published.
    pub(crate) fn total_tbhits(&self) -> u64 {
        sum(&self.tbhits)
    }

    /// Nodes of the helper threads as last published.
    pub(crate) fn helper_nodes(&self) -> u64 {
        sum(&self.nodes[1..])
    }

    /// Nodes of all threads as last published.
    pub(crate) fn total_nodes(&self) -> u64 {
        sum(&self.nodes)
    }

    /// Thread `thread` completed an iteration of `depth` with `lines`: kept if no thread has
    /// completed a deeper one (the main thread's wins a tie). Only with several threads: alone,
    /// the main thread always returns its own lines.
    pub(crate) fn record(&self, lines: &[Line], depth: u32, thread: usize) {
        if self.nodes.len() == 1 {
            return;
        }
        let mut deepest = self.deepest.lock().unwrap_or_else(|e| e.into_inner());
        let better = deepest
            .as_ref()
            .is_none_or(|d| depth > d.depth || (depth == d.depth && thread == 0 && d.thread != 0));
        if better {
            *deepest = Some(Finished {
                lines: lines.to_vec(),
                depth,
                thread,
            });
        }
    }

    /// The deepest iteration completed so far by any thread.
    pub(crate) fn deepest(&self) -> Option<Finished> {
        self.deepest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Asks every thread to stop at its next poll, and wakes those waiting for a turn.
    pub(crate) fn stop_all(&self) {
        if !self.stop.swap(true, Ordering::Relaxed) {
            self.turns.wake_all();
        }
    }

    /// Whether the search was asked to stop.
    pub(crate) fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Turns for the threads beyond the machine's cores. Those run in the idle scheduling class
/// (see `pool`), so they search only on cores the others leave idle; but each runnable thread,
/// idle class or not, still weighs on the scheduler, and hundreds of them took nearly half a
/// core from the main thread. So at most as many of them as there are cores search at once
/// (none where the idle class is not available); the others wait, parked, for a turn that a
/// thread leaving the search gives up, and a stop wakes them all to leave.
pub(crate) struct Turns {
    /// Threads with this id or above take turns.
    first: usize,
    free: Mutex<usize>,
    wake: std::sync::Condvar,
}

impl Turns {
    fn new(cores: usize) -> Turns {
        let turns = if super::pool::IDLE_CLASS { cores } else { 0 };
        Turns {
            first: cores.max(1),
            free: Mutex::new(turns),
            wake: std::sync::Condvar::new(),
        }
    }

    /// Whether thread `id` needs a turn to search.
    pub(crate) fn needed(&self, id: usize) -> bool {
        id >= self.first
    }

    /// Waits for a turn; `false` when the search stops first.
    pub(crate) fn take(&self, stop: &AtomicBool) -> bool {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            // Read under the lock: `wake_all` takes it after setting `stop`, so a stop is
            // either seen here or wakes the wait below.
            if stop.load(Ordering::Relaxed) {
                return false;
            }
            if *free > 0 {
                *free -= 1;
                return true;
            }
            free = self.wake.wait(free).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Gives a turn back.
    pub(crate) fn give_back(&self) {
        *self.free.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.wake.notify_one();
    }

    fn wake_all(&self) {
        let _free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        self.wake.notify_all();
    }
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
    /// Only nodes this close to the root (fewer plies from it) are marked: deeper, the overlap
    /// costs little.
    pub(crate) const MARK_PLIES: usize = 8;
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
        if ply >= Self::MARK_PLIES || depth < Self::MIN_DEPTH || self.slots.is_empty() {
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

/// The sum of per-thread counters as last published.
fn sum(counters: &[AtomicU64]) -> u64 {
    counters.iter().map(|n| n.load(Ordering::Relaxed)).sum()
}
