//! Lazy SMP over the pool's threads, and the coordinator that ends a search on time.
//!
//! Every thread runs its own iterative deepening on the same root and they share only the
//! transposition table (and a stop flag). Helpers on odd ids start one ply deeper, and after
//! each iteration a thread goes on with the next depth that no other thread is searching, so the
//! threads leapfrog and each fills the table for the others. The main thread (id 0) reports and
//! chooses the move; a helper that completes the last depth first ends the search, and the main
//! thread answers with its lines. Near the root the threads also leave breadcrumbs
//! (`shared::Breadcrumbs`) so that two threads overlap less.
//!
//! The caller's thread is the coordinator: it runs no search itself but sleeps on the main
//! thread's reports, waking every millisecond to look at the clock and the stop request. A sleeping thread is woken at once by the scheduler even when every core is busy,
//! so the search ends on time whatever the thread count. When the main thread does not answer
//! within `GRACE` of the stop (far more threads than cores can leave it without a core for a
//! long while), the coordinator answers with the deepest iteration any thread has completed;
//! the threads wind down on their own and the next search waits for them.

use super::iterate::{line_info, verified};
use super::pool::{Job, Pool};
use super::root::{Line, RootSetup};
use super::shared::Shared;
use super::time::TimeManager;
use super::tree::KeyStack;
use super::worker::Worker;
use super::{Limits, Score, SearchControl, SearchInfo, SearchOptions, SearchOutcome, MAX_DEPTH};
use crate::egtb::Databases;
use crate::game::Game;
use crate::platform;
use crate::platform::Instant;
use crate::tt::TransTable;
use crate::variant::Rules;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// The depth searched when no limit at all is given.
const DEFAULT_DEPTH: u32 = 16;
/// How often the coordinator wakes to look at the clock and the stop request.
const TICK: Duration = Duration::from_millis(1);
/// How long the coordinator waits for the main thread's own answer once the search must stop.
/// The main thread polls every thousand nodes or so (a tenth of a millisecond) when it has a
/// core, so only a starved main thread misses it.
const GRACE: Duration = Duration::from_millis(4);

/// What the main thread sends the coordinator.
enum Event {
    /// A progress report.
    Info(SearchInfo),
    /// The main thread's answer: its lines, their depth and its node count.
    Done(Vec<Line>, u32, u64),
}

/// Runs one search over the pool's threads (all of them; at least the main thread, which runs
/// on the caller's thread if the pool has none) and returns its outcome.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run<R: Rules + 'static>(
    pool: &Pool,
    tt: &Arc<TransTable>,
    options: &SearchOptions,
    databases: Option<Databases>,
    game: &Game,
    limits: &Limits,
    control: &SearchControl,
    report: &mut dyn FnMut(&SearchInfo),
) -> SearchOutcome {
    let threads = pool.len().max(1);
    let node_limit = limits.nodes.unwrap_or(u64::MAX).max(1);
    let pieces = crate::bitboard::count(game.position().occupied());
    let time = TimeManager::new(
        limits,
        options.move_overhead_ms,
        control.pondering(),
        pieces,
    );
    let bounded = limits.nodes.is_some() || time.timed() || limits.infinite;
    let max_depth = limits
        .depth_bound()
        .unwrap_or(if bounded { MAX_DEPTH } else { DEFAULT_DEPTH })
        .clamp(1, MAX_DEPTH);
    let setup = RootSetup {
        root: *game.position(),
        counters: game.counters(),
        max_depth: max_depth as i32,
        multipv: options.multipv.max(1),
        limits: limits.clone(),
        learned: options.learned(game.variant()),
    };
    let shared = Arc::new(Shared::new(
        Arc::clone(tt),
        threads,
        node_limit,
        time,
        control.clone(),
        setup,
        databases,
    ));
    let history = &game.positions()[..game.positions().len() - 1];
    let window = game.counters().quiet_plies as usize;
    if !platform::THREADS {
        return alone::<R>(&shared, KeyStack::new(history, window), control, report);
    }
    for id in 1..threads {
        let shared = Arc::clone(&shared);
        let keys = KeyStack::new(history, window);
        let helper: Job = Box::new(move || {
            let turn = shared.turns.needed(id);
            if turn && !shared.turns.take(&shared.stop) {
                return;
            }
            let mut helper = Worker::<R>::new(&shared, id, keys, node_limit);
            helper.iterate(&shared.setup, None);
            shared.set_nodes(id, helper.nodes);
            shared.set_tbhits(id, helper.tbhits);
            if turn {
                shared.turns.give_back();
            }
        });
        // A thread that has gone (a bug) leaves its share to the others.
        let _ = pool.run(id, helper);
    }
    let (events, inbox) = channel();
    let keys = KeyStack::new(history, window);
    let main_shared = Arc::clone(&shared);
    let main: Job = Box::new(move || {
        let shared = main_shared;
        let mut main = Worker::<R>::new(&shared, 0, keys, node_limit);
        let mut send = |info: &SearchInfo| drop(events.send(Event::Info(info.clone())));
        let (lines, depth) = main.iterate(&shared.setup, Some(&mut send));
        shared.set_nodes(0, main.nodes);
        shared.set_tbhits(0, main.tbhits);
        let _ = events.send(Event::Done(lines, depth, main.nodes));
    });
    if let Err(main) = pool.run(0, main) {
        main();
    }
    let (lines, depth, nodes) = coordinate::<R>(&shared, &inbox, control, limits, report);
    let total = if threads == 1 {
        nodes
    } else {
        shared.total_nodes()
    };
    outcome(&lines, depth, total)
}

/// The search where no thread can be started (the browser): the main thread's work on the
/// caller's thread, reporting as it goes. The stop request and the clock are read at its polls.
fn alone<R: Rules>(
    shared: &Shared,
    keys: KeyStack,
    control: &SearchControl,
    report: &mut dyn FnMut(&SearchInfo),
) -> SearchOutcome {
    let mut main = Worker::<R>::new(shared, 0, keys, shared.node_limit());
    let (lines, depth) = main.iterate(&shared.setup, Some(report));
    // UCI semantics, as in `coordinate`: an infinite or ponder search answers after the stop.
    let limits = &shared.setup.limits;
    while (limits.infinite || control.pondering()) && !control.stopped() {
        control.refresh();
        platform::pause();
    }
    outcome(&lines, depth, main.nodes)
}

/// Passes the main thread's reports on, ends the search on time or on `stop`, and returns the
/// lines to answer with, their depth and the main thread's nodes.
fn coordinate<R: Rules>(
    shared: &Shared,
    inbox: &Receiver<Event>,
    control: &SearchControl,
    limits: &Limits,
    report: &mut dyn FnMut(&SearchInfo),
) -> (Vec<Line>, u32, u64) {
    let mut stop_asked: Option<Instant> = None;
    let done = loop {
        match inbox.recv_timeout(TICK) {
            Ok(Event::Info(info)) => report(&info),
            Ok(Event::Done(lines, depth, nodes)) => break Some((lines, depth, nodes)),
            Err(RecvTimeoutError::Timeout) => {}
            // The main thread panicked: answer from what the others found.
            Err(RecvTimeoutError::Disconnected) => break None,
        }
        if stop_asked.is_none()
            && (shared.stopping()
                || shared.control.stopped()
                || shared.time().hard_stop(&shared.control))
        {
            shared.stop_all();
            stop_asked = Some(Instant::now());
        }
        if stop_asked.is_some_and(|t| t.elapsed() >= GRACE) {
            break None;
        }
    };
    let (lines, depth, nodes) = match done {
        Some(done) => done,
        None => match shared.deepest() {
            Some(deepest) => {
                log::debug!(
                    "the main thread did not answer in time; thread {}'s depth {} answers",
                    deepest.thread,
                    deepest.depth
                );
                let mut lines = deepest.lines;
                for (i, line) in lines.iter_mut().enumerate() {
                    line.pv = verified::<R>(&shared.setup.root, &line.pv);
                    let nodes = shared.total_nodes();
                    report(&line_info(
                        shared,
                        deepest.depth,
                        deepest.depth,
                        (nodes, shared.total_tbhits()),
                        i + 1,
                        line,
                    ));
                }
                (lines, deepest.depth, shared.total_nodes())
            }
            // No thread has completed even one iteration: the main thread's answer, however
            // late, is all there is (it comes at once when it next has a core).
            None => match inbox.iter().find_map(|e| match e {
                Event::Done(lines, depth, nodes) => Some((lines, depth, nodes)),
                Event::Info(_) => None,
            }) {
                Some(done) => done,
                None => panic!("the main search thread ended without an answer"),
            },
        },
    };
    // UCI semantics: while pondering or infinite, the answer waits for a stop or ponderhit.
    while (limits.infinite || control.pondering()) && !control.stopped() {
        std::thread::sleep(TICK);
    }
    shared.stop_all();
    (lines, depth, nodes)
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
