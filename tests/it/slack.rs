//! The one slack policy for timing in the tests, in a module of its own so that the tests
//! built without the command line (which `common`'s harness needs) share it too.

use std::time::Duration;

/// The room a timed answer gets beyond what it needs: enough that a loaded machine (two cores
/// shared with builds) never fails a test, while an answer that waits for the wrong event still
/// does. These tests check that the engine answers, not how fast; `scripts/tools/time_use.py`
/// measures stop latency and time use, `scripts/ci/checkerboard_games.py` the library's. Every
/// timing ceiling in the tests is a time the answer needs plus this, or this alone for "at
/// once" (the search, the protocols and the CheckerBoard library alike).
pub const SLACK: Duration = Duration::from_secs(2);
