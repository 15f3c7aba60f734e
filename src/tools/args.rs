//! The ranges of the tools' numeric flags, checked as clap reads them: a value the engine cannot
//! honour (a depth past `MAX_DEPTH`, zero games, a move time of 0) is refused with its range in
//! the message and a non-zero exit, instead of being clamped into something else in silence.
//! Ranges shared with the protocols come from the same place as theirs: the depth from
//! `MAX_DEPTH`, multi-PV, threads and the hash size from the options table.

use crate::protocol::options;
use crate::search::MAX_DEPTH;
use std::fmt;

/// The longest move time or wait the tools take, in milliseconds: a day; longer is a typo.
pub const MAX_MILLIS: u64 = 86_400_000;

/// A flag's value that is not a whole number within the flag's range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RangeError {
    /// The smallest value allowed.
    pub min: u64,
    /// The largest value allowed; `None` when only the type bounds it.
    pub max: Option<u64>,
}

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // clap puts the flag and the value before this.
        match self.max {
            Some(max) => write!(f, "expected a whole number {}-{max}", self.min),
            None => write!(f, "expected a whole number, at least {}", self.min),
        }
    }
}

impl std::error::Error for RangeError {}

/// Reads a whole number in `min..=max` (`max` `None`: up to what `T` holds).
fn number<T: TryFrom<u64>>(text: &str, min: u64, max: Option<u64>) -> Result<T, RangeError> {
    let err = RangeError { min, max };
    let n: u64 = text.trim().parse().map_err(|_| err.clone())?;
    if n < min || max.is_some_and(|m| n > m) {
        return Err(err);
    }
    T::try_from(n).map_err(|_| err)
}

/// The range of a spin option of the protocols, by its UCI name.
fn option_range(name: &str) -> (u64, u64) {
    let spec = options::find(name, false).ok().map(|o| o.kind);
    match spec {
        Some(options::Kind::Spin { min, max, .. }) => (
            u64::try_from(min).unwrap_or(0),
            u64::try_from(max).unwrap_or(0),
        ),
        // The table declares every option used here; the unit test below keeps it so.
        _ => {
            debug_assert!(false, "no spin option {name}");
            (1, 1)
        }
    }
}

/// A search depth: 1 to `MAX_DEPTH`, the deepest the search can honour.
pub fn depth(text: &str) -> Result<u32, RangeError> {
    number(text, 1, Some(u64::from(MAX_DEPTH)))
}

/// A move time or a wait in milliseconds: 1 to `MAX_MILLIS`.
pub fn millis(text: &str) -> Result<u64, RangeError> {
    number(text, 1, Some(MAX_MILLIS))
}

/// Lines per position: the range of the protocols' `MultiPV` option.
pub fn multipv(text: &str) -> Result<usize, RangeError> {
    let (min, max) = option_range("MultiPV");
    number(text, min, Some(max))
}

/// Search threads: the range of the protocols' `Threads` option.
pub fn threads(text: &str) -> Result<usize, RangeError> {
    let (min, max) = option_range("Threads");
    number(text, min, Some(max))
}

/// A transposition table size in MiB: the range of the protocols' `Hash` option.
pub fn hash(text: &str) -> Result<usize, RangeError> {
    let (min, max) = option_range("Hash");
    number(text, min, Some(max))
}

/// Games played at once in a match: 1 to 256 (each game runs two engine processes).
pub fn concurrency(text: &str) -> Result<usize, RangeError> {
    number(text, 1, Some(256))
}

/// A count that must be at least 1 (games, moves).
pub fn count<T: TryFrom<u64>>(text: &str) -> Result<T, RangeError> {
    number(text, 1, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert_eq!(depth("1"), Ok(1));
        assert_eq!(depth("100"), Ok(MAX_DEPTH));
        for bad in ["0", "101", "1000", "-1", "x", "", "99999999999999999999999"] {
            let e = depth(bad).unwrap_err();
            assert_eq!(e.to_string(), "expected a whole number 1-100", "{bad}");
        }
        assert_eq!(
            millis("0").unwrap_err().to_string(),
            "expected a whole number 1-86400000"
        );
        assert_eq!(count::<usize>("3"), Ok(3));
        assert_eq!(
            count::<u32>("0").unwrap_err().to_string(),
            "expected a whole number, at least 1"
        );
        assert!(count::<u32>("4294967296").is_err());
        assert!(concurrency("257").is_err());
    }

    #[test]
    fn protocol_ranges_come_from_the_options_table() {
        for name in ["MultiPV", "Threads", "Hash"] {
            let (min, max) = option_range(name);
            assert!(min >= 1 && max > min, "{name}");
        }
        assert_eq!(multipv("64"), Ok(64));
        assert!(multipv("0").is_err() && multipv("65").is_err());
        let (_, max) = option_range("Threads");
        assert_eq!(
            threads("0").unwrap_err().to_string(),
            format!("expected a whole number 1-{max}")
        );
        let (_, max) = option_range("Hash");
        assert_eq!(hash(&max.to_string()), Ok(usize::try_from(max).unwrap()));
        assert!(hash("0").is_err() && hash(&(max + 1).to_string()).is_err());
    }
}
