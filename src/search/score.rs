//! `Score`: a search score in hundredths of a man from the side to move's point of view, with
//! wins and losses encoded by their distance in plies.

use std::ops::Neg;

/// A score in centi-men; `WIN - n` is a win in `n` plies, `-(WIN - n)` a loss in `n` plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(pub i32);

impl Score {
    /// A draw or a level position.
    pub const ZERO: Score = Score(0);
    /// Beyond every real score.
    pub const INFINITE: Score = Score(32_000);
    /// A win at the root (no plies to go).
    pub const WIN: Score = Score(30_000);
    /// Scores beyond this are wins or losses.
    pub const WIN_THRESHOLD: i32 = 29_000;

    /// A win in `plies` plies.
    pub const fn win_in(plies: u32) -> Score {
        Score(Score::WIN.0 - plies as i32)
    }

    /// A loss in `plies` plies.
    pub const fn loss_in(plies: u32) -> Score {
        Score(-(Score::WIN.0 - plies as i32))
    }

    /// Whether this is a win or loss rather than an evaluation.
    pub fn is_decisive(self) -> bool {
        self.0.abs() > Score::WIN_THRESHOLD
    }

    /// For a decisive score, the moves (not plies) to the end: positive when winning, negative
    /// when losing, as UCI's `score mate`.
    pub fn mate_moves(self) -> Option<i32> {
        if !self.is_decisive() {
            return None;
        }
        let plies = Score::WIN.0 - self.0.abs();
        let moves = (plies + 1) / 2;
        Some(if self.0 > 0 { moves } else { -moves })
    }
}

impl Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_distance_in_moves() {
        assert_eq!(Score::win_in(1).mate_moves(), Some(1));
        assert_eq!(Score::win_in(3).mate_moves(), Some(2));
        assert_eq!(Score::loss_in(2).mate_moves(), Some(-1));
        assert_eq!(Score(150).mate_moves(), None);
    }
}
