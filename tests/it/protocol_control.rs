//! The reader keeps control while the engine works: a long `perft` answers `isready` and ends on
//! `stop` or `quit`; the search threads are started once and parked between searches; with far
//! more threads than cores the move still comes from a real search. Nothing here is timed: the
//! time use and stop latency are measured by `scripts/tools/time_use.py`.

use crate::common;

use common::{Engine, TIMEOUT};

/// The last `info depth` before the `bestmove` that ends `lines`.
fn last_depth(lines: &[String]) -> u32 {
    lines
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("info depth "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|d| d.parse().ok())
        .unwrap_or(0)
}

#[test]
fn a_long_perft_answers_isready_and_ends_on_stop_or_quit() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.expect_prefix("uciok");
    e.send("position startpos");
    // Depth 14 from the start takes hours: only a perft off the reader thread answers these.
    e.send("perft 14");
    e.send("isready");
    assert_eq!(
        e.next_line(TIMEOUT).as_deref(),
        Some("readyok"),
        "{:?}",
        e.log
    );
    e.send("stop");
    e.expect_prefix("info string perft 14 stopped");
    // The engine is free again, and counts as before.
    e.send("perft 5");
    assert_eq!(e.expect_prefix("Nodes: "), "Nodes: 7482");
    e.send("perft 14");
    e.send("quit");
    // Fails unless the engine exits, and exits well, within the harness's timeout.
    e.finish();
}

#[test]
fn a_perft_piped_in_finishes_at_the_end_of_input() {
    // As `go depth`: a bounded job piped in by a script gives its answer before the engine ends.
    let mut e = Engine::start(&[]);
    e.send("position startpos");
    e.send("perft 6");
    e.read_to_end();
    assert!(
        e.log.iter().any(|l| l == "Nodes: 37986"),
        "perft 6 of the russian start: {:?}",
        e.tail()
    );
}

#[test]
#[cfg(target_os = "linux")]
fn search_threads_are_started_once_and_parked_between_searches() {
    let mut e = Engine::start(&[]);
    let tasks = |e: &Engine| {
        std::fs::read_dir(format!("/proc/{}/task", e.pid()))
            .map(|d| d.count())
            .unwrap_or(0)
    };
    e.send("setoption name Threads value 24");
    e.send("isready");
    e.expect_prefix("readyok");
    let before = tasks(&e);
    assert!(
        before >= 24,
        "the threads are started with the option: {before} tasks"
    );
    for _ in 0..3 {
        e.send("position startpos");
        e.send("go depth 8");
        e.expect_prefix("bestmove ");
    }
    e.send("isready");
    e.expect_prefix("readyok");
    // The same threads serve every search: none is added, none is left over (the engine's
    // own search thread, one per `go`, has ended by the time its answer is read back).
    let after = tasks(&e);
    assert!(
        after <= before + 1,
        "{before} tasks before the searches, {after} after"
    );
    e.send("setoption name Threads value 2");
    e.send("isready");
    e.expect_prefix("readyok");
    assert!(
        tasks(&e) < before - 20,
        "threads beyond 2 end with the option"
    );
    e.finish();
}

#[test]
fn far_more_threads_than_cores_still_search_deeply() {
    // With hundreds of threads on a few cores, the main thread used to wait for a core so long
    // that the move came from depth 1; now the threads beyond the cores search only on idle
    // cores, and the main thread has its core.
    let mut e = Engine::start(&[]);
    e.send("setoption name Threads value 256");
    e.send("isready");
    e.expect_prefix("readyok");
    for fen in ["startpos", "fen W:W21,22,23,25,26,28,30:B3,5,6,9,10,12,14"] {
        e.send(&format!("position {fen}"));
        e.send("go movetime 300");
        let lines = e.until(|l| l.starts_with("bestmove "));
        let depth = last_depth(&lines);
        assert!(depth >= 5, "depth {depth} in 300 ms: {lines:?}");
    }
    e.send("go infinite");
    e.send("stop");
    e.expect_prefix("bestmove ");
    e.finish();
}
