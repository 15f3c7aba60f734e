//! Match statistics: the Elo difference with its 95% error bar from wins, draws and losses, and
//! the sequential probability ratio test (SPRT) that tells when a match has shown enough.
//!
//! Elo: the score s = (W + D/2) / N maps to Elo by the logistic curve, -400 log10(1/s - 1); the
//! error bar maps s +- 1.96 standard errors of the per-game score the same way (the trinomial
//! variance, so draws narrow the bar).
//!
//! SPRT: H0 "the difference is elo0" against H1 "it is elo1", alpha = beta = 0.05. The
//! log-likelihood ratio uses the normal approximation of the generalised SPRT (as in fishtest's
//! `LLR_logistic`): LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var), with s0, s1 the expected scores of
//! elo0, elo1 and var the per-game score variance. H1 is accepted when LLR >= ln((1-beta)/alpha),
//! H0 when LLR <= ln(beta/(1-alpha)).

/// Wins, draws and losses from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

/// The expected score of a side `elo` points stronger.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that gives the expected score `s` (0 < s < 1).
pub fn elo_from_score(s: f64) -> f64 {
    // `+ 0.0` turns the -0.0 of an even score into 0.0 for printing.
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The mean score per game, 0 to 1.
    pub fn score(&self) -> f64 {
        let n = self.games().max(1) as f64;
        (self.wins as f64 + self.draws as f64 / 2.0) / n
    }

    /// The variance of one game's score.
    fn variance(&self) -> f64 {
        let n = self.games().max(1) as f64;
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s * s)
            / n
    }

    /// The Elo difference and its 95% error bar (half the width of the interval); `None` before any
    /// game. With a perfect or nil score the estimate is clamped to +-1000 rather than infinite.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let n = self.games();
        if n == 0 {
            return None;
        }
        let clamp = |s: f64| s.clamp(0.001, 0.999);
        let s = self.score();
        let se = (self.variance() / n as f64).sqrt();
        let elo = elo_from_score(clamp(s));
        let lo = elo_from_score(clamp(s - 1.96 * se));
        let hi = elo_from_score(clamp(s + 1.96 * se));
        Some((elo, (hi - lo) / 2.0))
    }

    /// The SPRT log-likelihood ratio for H1 (elo1) against H0 (elo0). Zero until both a result
    /// other than a draw and some variance have been seen.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let var = self.variance();
        if self.games() == 0 || var <= 1e-9 {
            return 0.0;
        }
        let (s0, s1) = (expected_score(elo0), expected_score(elo1));
        self.games() as f64 * (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * var)
    }
}

/// The SPRT's bounds for alpha = beta = 0.05: (lower, upper), about (-2.94, 2.94).
pub fn sprt_bounds() -> (f64, f64) {
    let (alpha, beta) = (0.05f64, 0.05f64);
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// The SPRT's verdict so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// Neither bound reached.
    Continue,
    /// H1 accepted: the difference is at least elo1.
    AcceptH1,
    /// H0 accepted: the difference is at most elo0.
    AcceptH0,
}

/// The verdict for an LLR.
pub fn sprt_state(llr: f64) -> SprtState {
    let (lower, upper) = sprt_bounds();
    if llr >= upper {
        SprtState::AcceptH1
    } else if llr <= lower {
        SprtState::AcceptH0
    } else {
        SprtState::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        let even = Tally {
            wins: 10,
            draws: 10,
            losses: 10,
        };
        let (elo, bar) = even.elo().unwrap();
        assert!(elo.abs() < 1e-9);
        assert!(bar > 50.0 && bar < 200.0, "{bar}");
        let ahead = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let (elo, _) = ahead.elo().unwrap();
        // s = 0.7 gives 400 log10(7/3) = 147.2
        assert!((elo - 147.19).abs() < 0.1, "{elo}");
        assert!(Tally::default().elo().is_none());
        assert!(
            Tally {
                wins: 5,
                draws: 0,
                losses: 0
            }
            .elo()
            .unwrap()
            .0 >= 1000.0
        );
    }

    #[test]
    fn sprt_moves_the_right_way() {
        let (lo, hi) = sprt_bounds();
        assert!((hi - 2.944).abs() < 0.01 && (lo + 2.944).abs() < 0.01);
        let strong = Tally {
            wins: 300,
            draws: 400,
            losses: 100,
        };
        assert_eq!(sprt_state(strong.llr(0.0, 10.0)), SprtState::AcceptH1);
        let weak = Tally {
            wins: 100,
            draws: 400,
            losses: 300,
        };
        assert_eq!(sprt_state(weak.llr(0.0, 10.0)), SprtState::AcceptH0);
        assert_eq!(
            Tally {
                wins: 0,
                draws: 5,
                losses: 0
            }
            .llr(0.0, 10.0),
            0.0
        );
    }

    /// The numbers of tests/data/match_stats.txt, which the cluster driver's Python statistics
    /// (scripts/tools/cluster/stats.py) are checked against too: both programs agree.
    #[test]
    fn the_shared_table_of_counts_and_numbers() {
        let text = include_str!("../../tests/data/match_stats.txt");
        let close = |got: f64, want: &str| {
            let want: f64 = want.parse().unwrap();
            (got - want).abs() <= 1e-9 * want.abs().max(1.0)
        };
        let mut lines = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let (counts, numbers) = line.split_once(" : ").unwrap();
            let c: Vec<f64> = counts.split(' ').map(|x| x.parse().unwrap()).collect();
            let n: Vec<&str> = numbers.split(' ').collect();
            let t = Tally {
                wins: c[0] as u32,
                draws: c[1] as u32,
                losses: c[2] as u32,
            };
            match t.elo() {
                Some((elo, bar)) => assert!(close(elo, n[0]) && close(bar, n[1]), "{line}"),
                None => assert_eq!(&n[..2], ["-", "-"], "{line}"),
            }
            let llr = t.llr(c[3], c[4]);
            assert!(close(llr, n[2]), "{line}: {llr}");
            let state = match sprt_state(llr) {
                SprtState::Continue => "continue",
                SprtState::AcceptH0 => "H0",
                SprtState::AcceptH1 => "H1",
            };
            assert_eq!(state, n[3], "{line}");
            lines += 1;
        }
        assert!(lines >= 10);
    }
}
