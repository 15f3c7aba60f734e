//! Time management: how long one move may take. On a clock, the soft limit is the move's share
//! of the time left (the moves still to play judged by the pieces on the board) plus most of
//! the increment; it decides whether to start another iteration (stretched when the best move
//! keeps changing, shrunk when it is stable); a hard limit stops the search mid-iteration. A clock keeps the option's move overhead in reserve on
//! every move; a fixed move time is the client's promise of that much time and is used whole,
//! less `MOVETIME_MARGIN` for the answer to travel. While pondering no limit applies; on
//! ponderhit the clock starts from that moment.

use super::{Limits, SearchControl};
use crate::platform::Instant;
use std::time::Duration;

/// What a fixed move time keeps back for the search to wind down and the answer to reach the
/// client: a few milliseconds, not the clock's overhead (a `go movetime 100` with the default
/// overhead of 50 ms used to think for 50 ms).
const MOVETIME_MARGIN: Duration = Duration::from_millis(3);

/// How many moves a side still has to play, when the clock does not say: about two for each
/// piece on the board (a game of 24 pieces lasts about 50 moves a side), and never under 12,
/// since an ending of few pieces can last long.
fn moves_left(pieces: u32) -> u32 {
    (2 * pieces).clamp(12, 50)
}

/// The time limits of one search and the clock they are measured on.
#[derive(Clone, Debug)]
pub(crate) struct TimeManager {
    /// When the clock started: the search start, or the ponderhit.
    start: Instant,
    /// When the search itself started (for reports).
    search_start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// Whether the search was pondering when last checked.
    was_pondering: bool,
}

impl TimeManager {
    /// The limits for `limits`, keeping `overhead_ms` in reserve, in a position with `pieces`
    /// on the board.
    pub(crate) fn new(
        limits: &Limits,
        overhead_ms: u64,
        pondering: bool,
        pieces: u32,
    ) -> TimeManager {
        let now = Instant::now();
        let overhead = Duration::from_millis(overhead_ms);
        let (mut soft, mut hard) = (None, None);
        if let Some(t) = limits.movetime {
            // A tiny move time keeps at least half for the margin.
            let h = t.saturating_sub(MOVETIME_MARGIN).max(t / 2);
            hard = Some(h.max(Duration::from_millis(1)));
        }
        if let Some(clock) = limits.clock {
            let avail = clock
                .time
                .saturating_sub(overhead)
                .max(Duration::from_millis(1));
            let mtg = clock
                .moves_to_go
                .unwrap_or_else(|| moves_left(pieces))
                .clamp(1, 50);
            let (s, h) = if mtg == 1 {
                (avail.mul_f64(0.6), avail.mul_f64(0.9))
            } else {
                let s = (avail / mtg + clock.increment.mul_f64(0.75)).min(avail / 2);
                (s, (s * 4).min(avail.mul_f64(0.75)))
            };
            soft = Some(soft.map_or(s, |x: Duration| x.min(s)));
            hard = Some(hard.map_or(h, |x: Duration| x.min(h)));
        }
        if limits.infinite {
            soft = None;
            hard = None;
        }
        TimeManager {
            start: now,
            search_start: now,
            soft,
            hard,
            was_pondering: pondering,
        }
    }

    /// Time since the search started.
    pub(crate) fn elapsed(&self) -> Duration {
        self.search_start.elapsed()
    }

    /// Whether the hard limit has passed (never while pondering). Notices a ponderhit and
    /// restarts the clock from it.
    pub(crate) fn hard_stop(&mut self, control: &SearchControl) -> bool {
        if control.pondering() {
            return false;
        }
        if self.was_pondering {
            self.was_pondering = false;
            self.start = Instant::now();
        }
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// Whether to stop after an iteration, given how unstable the best move is (`instability`
    /// near 0 when it has not changed lately, up to about 2 after changes).
    pub(crate) fn soft_stop(&mut self, control: &SearchControl, instability: f64) -> bool {
        if self.hard_stop(control) {
            return true;
        }
        if control.pondering() {
            return false;
        }
        let Some(soft) = self.soft else {
            return false;
        };
        // An iteration costs about as much as all before it, so the search stops between 0.55
        // and 1 times the budget (about 0.75 on average): a stable move's budget of 1.2 times
        // the soft limit spends about the soft limit, the clock's share of the game. (At 0.6
        // it spent under half: a 10 s + 0.1 s English game ended with 7-8 s unused.)
        let budget = soft.mul_f64((1.2 + 0.7 * instability).min(3.0));
        let elapsed = self.start.elapsed();
        elapsed >= budget || elapsed.mul_f64(1.8) >= budget.min(self.hard.unwrap_or(budget))
    }

    /// Whether the search plans its own time (a clock), rather than being given a fixed time.
    pub(crate) fn managed(&self) -> bool {
        self.soft.is_some()
    }

    /// Whether the search is bounded by time at all.
    pub(crate) fn timed(&self) -> bool {
        self.soft.is_some() || self.hard.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

    #[test]
    fn clock_keeps_overhead_and_reserve() {
        let limits = Limits {
            clock: Some(Clock {
                time: Duration::from_millis(10_000),
                increment: Duration::ZERO,
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, 50, false, 24);
        assert!(tm.soft.unwrap() < Duration::from_millis(1000));
        assert!(tm.hard.unwrap() < Duration::from_millis(7500));
        let last = Limits {
            clock: Some(Clock {
                time: Duration::from_millis(100),
                increment: Duration::ZERO,
                moves_to_go: Some(1),
            }),
            ..Limits::default()
        };
        assert!(TimeManager::new(&last, 50, false, 24).hard.unwrap() <= Duration::from_millis(50));
    }

    #[test]
    fn a_clock_is_shared_over_the_moves_the_pieces_leave() {
        let limits = Limits {
            clock: Some(Clock {
                time: Duration::from_millis(10_000),
                increment: Duration::from_millis(100),
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let soft = |pieces| TimeManager::new(&limits, 0, false, pieces).soft.unwrap();
        // 24 pieces: about 48 moves to go; 8 pieces, 16; from 6 down, the floor of 12 (an
        // ending can last).
        let share = |moves| Duration::from_millis(10_000) / moves + Duration::from_millis(75);
        assert_eq!(soft(24), share(48));
        assert_eq!(soft(8), share(16));
        assert_eq!(soft(6), share(12));
        assert_eq!(soft(2), share(12));
    }

    #[test]
    fn movetime_is_used_whole_whatever_the_overhead() {
        let limits = Limits {
            movetime: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        for overhead in [0, 50, 1000] {
            let tm = TimeManager::new(&limits, overhead, false, 24);
            assert_eq!(tm.soft, None);
            assert_eq!(tm.hard, Some(Duration::from_millis(100) - MOVETIME_MARGIN));
        }
        let tiny = Limits {
            movetime: Some(Duration::from_millis(4)),
            ..Limits::default()
        };
        assert_eq!(
            TimeManager::new(&tiny, 50, false, 24).hard,
            Some(Duration::from_millis(2))
        );
    }

    #[test]
    fn pondering_suspends_limits() {
        let limits = Limits {
            movetime: Some(Duration::from_millis(1)),
            ..Limits::default()
        };
        let control = SearchControl::new(true);
        let mut tm = TimeManager::new(&limits, 0, true, 24);
        std::thread::sleep(Duration::from_millis(5));
        assert!(!tm.hard_stop(&control));
        control.ponderhit();
        assert!(!tm.hard_stop(&control));
        std::thread::sleep(Duration::from_millis(5));
        assert!(tm.hard_stop(&control));
    }
}
