//! The reader keeps control while the engine works: a long `perft` answers `isready` and ends on
//! `stop` or `quit`.

mod common;

use common::{Engine, TIMEOUT};

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
