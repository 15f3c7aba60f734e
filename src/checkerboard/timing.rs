//! What `getmove`'s time arguments mean, as search `Limits` for the time manager that the text
//! protocols use (`search::time`); nothing here measures time.
//!
//! CheckerBoard's API reference: `maxtime` (seconds) is the time to think *on average*; `info`
//! bit 1 (`CB_EXACT_TIME`) asks for a move after exactly that time; bits 2-3 switch on an
//! incremental clock, with the remaining time in the high 16 bits of `moreinfo` and the
//! increment in the low 16, in units of 0.001, 0.01 or 0.1 s. In engine matches CheckerBoard
//! keeps a clock for each engine itself and sends as `maxtime` a share of it, so time an engine
//! saves comes back to it there.
//!
//! So: with a clock, the clock's own management (as for a UCI `go wtime ... winc`); with
//! `CB_EXACT_TIME`, a fixed move time of `maxtime`; otherwise a fixed move time of `maxtime`
//! as well, which makes the average exactly the target, except that a forced move (one legal
//! move) gets a tenth of it, enough for a score to show. GuiCheckers reads `maxtime` much the
//! same way.

use crate::search::{Clock, Limits};
use std::ffi::c_int;
use std::fmt;
use std::time::Duration;

/// `info` bit 0: a new game (the API's old way of resetting the engine's move history).
pub const CB_RESET_MOVES: c_int = 1;
/// `info` bit 1: think exactly `maxtime`.
pub const CB_EXACT_TIME: c_int = 2;
/// Where the incremental clock's 2-bit unit field starts in `info`.
pub const CB_INCR_TIME_SHIFT: c_int = 2;

/// The longest `maxtime` taken as given, about 11 days; beyond it (infinite analysis) the
/// search runs until `*playnow` or its deepest depth.
pub const MAX_SECONDS: f64 = 1.0e6;

/// The share of `maxtime` a forced move gets when the time is not exact.
const FORCED_SHARE: f64 = 0.1;

/// A `maxtime` that is not a number of seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeError(pub f64);

impl fmt::Display for TimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "maxtime {} is not a number of seconds", self.0)
    }
}

impl std::error::Error for TimeError {}

/// The incremental clock packed in `info` and `moreinfo`, if `info` switches it on.
pub fn incremental_clock(info: c_int, moreinfo: c_int) -> Option<Clock> {
    let unit = match (info >> CB_INCR_TIME_SHIFT) & 3 {
        1 => 0.001,
        2 => 0.01,
        3 => 0.1,
        _ => return None,
    };
    let packed = moreinfo as u32;
    let seconds = |units: u32| Duration::from_secs_f64(units as f64 * unit);
    Some(Clock {
        time: seconds(packed >> 16),
        increment: seconds(packed & 0xffff),
        moves_to_go: None,
    })
}

/// The limits of one `getmove`; `forced` says the position has a single legal move.
pub fn limits(
    maxtime: f64,
    info: c_int,
    moreinfo: c_int,
    forced: bool,
) -> Result<Limits, TimeError> {
    if let Some(clock) = incremental_clock(info, moreinfo) {
        return Ok(Limits {
            clock: Some(clock),
            ..Limits::default()
        });
    }
    if maxtime.is_nan() {
        return Err(TimeError(maxtime));
    }
    // A level of 0 ("instant") still needs a move: the shortest time the manager honours.
    let mut seconds = maxtime.clamp(0.001, MAX_SECONDS);
    if forced && info & CB_EXACT_TIME == 0 {
        seconds *= FORCED_SHARE;
    }
    Ok(Limits {
        movetime: Some(Duration::from_secs_f64(seconds)),
        ..Limits::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn movetime(l: Result<Limits, TimeError>) -> Option<Duration> {
        l.unwrap().movetime
    }

    #[test]
    fn maxtime_is_a_move_time() {
        assert_eq!(
            movetime(limits(1.5, 0, 0, false)),
            Some(Duration::from_millis(1500))
        );
        assert_eq!(
            movetime(limits(1.5, CB_EXACT_TIME, 0, false)),
            Some(Duration::from_millis(1500))
        );
        assert_eq!(
            movetime(limits(1.0, CB_RESET_MOVES, 0, false)),
            Some(Duration::from_secs(1))
        );
    }

    #[test]
    fn a_forced_move_is_quick_unless_the_time_is_exact() {
        assert_eq!(
            movetime(limits(2.0, 0, 0, true)),
            Some(Duration::from_millis(200))
        );
        assert_eq!(
            movetime(limits(2.0, CB_EXACT_TIME, 0, true)),
            Some(Duration::from_secs(2))
        );
    }

    #[test]
    fn odd_maxtimes_are_clamped_or_refused() {
        assert_eq!(
            movetime(limits(0.0, 0, 0, false)),
            Some(Duration::from_millis(1))
        );
        assert_eq!(
            movetime(limits(-3.0, 0, 0, false)),
            Some(Duration::from_millis(1))
        );
        assert_eq!(
            movetime(limits(f64::INFINITY, 0, 0, false)),
            Some(Duration::from_secs_f64(MAX_SECONDS))
        );
        assert!(limits(f64::NAN, 0, 0, false).is_err());
        assert_eq!(
            limits(f64::NAN, 0, 0, false).unwrap_err().to_string(),
            "maxtime NaN is not a number of seconds"
        );
    }

    #[test]
    fn the_incremental_clock_is_unpacked_in_its_units() {
        // 1 ms units (mode 1): 65 s left, 0.5 s a move.
        let info = 1 << CB_INCR_TIME_SHIFT;
        let moreinfo = (65_000 << 16) | 500;
        let clock = incremental_clock(info, moreinfo).unwrap();
        assert_eq!(clock.time, Duration::from_secs(65));
        assert_eq!(clock.increment, Duration::from_millis(500));
        // 0.1 s units (mode 3), with the high bit of the remaining time set.
        let clock =
            incremental_clock(3 << CB_INCR_TIME_SHIFT, (0xffff_u32 << 16 | 20) as c_int).unwrap();
        assert_eq!(clock.time, Duration::from_secs_f64(6553.5));
        assert_eq!(clock.increment, Duration::from_secs(2));
        assert_eq!(
            incremental_clock(CB_EXACT_TIME | CB_RESET_MOVES, moreinfo),
            None
        );
        // A clock replaces maxtime, whatever it is.
        let l = limits(f64::NAN, info | CB_EXACT_TIME, moreinfo, true).unwrap();
        assert_eq!(
            (l.movetime, l.clock.map(|c| c.time)),
            (None, Some(Duration::from_secs(65)))
        );
    }
}
