"""Match statistics for the cluster driver (standard library only): the same Elo, error bar and
SPRT as `crownhead match` (src/tools/stats.rs, mirrored line for line so that a match played on
a cluster reads exactly as one played locally), plus the pentanomial counts of game pairs.

Elo: the score s = (W + D/2) / N maps to Elo by the logistic curve, -400 log10(1/s - 1); the
error bar maps s +- 1.96 standard errors of the per-game score the same way (the trinomial
variance), clamped to s in [0.001, 0.999].

SPRT: H0 "the difference is elo0" against H1 "it is elo1", alpha = beta = 0.05, with the normal
approximation of the generalised SPRT: LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var).

Pentanomial: the two games of one opening (first engine White, then Black) make a pair whose
score for the first engine is 0, 1/2, 1, 3/2 or 2; counting pairs by that score (LL, LD, DD or
WL, WD, WW) shows what the trinomial counts hide: colour and opening bias cancel inside a pair.
`Pentanomial.elo` gives the error bar from the variance of the pair scores, which is the right
one when openings are paired; the match's SPRT keeps the trinomial formula of `crownhead match`,
so both programs decide alike on the same games. tests/data/match_stats.txt holds numbers
computed by the Rust code, which both test suites check.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

ALPHA = 0.05
BETA = 0.05


def expected_score(elo: float) -> float:
    """The expected score of a side `elo` points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(s: float) -> float:
    """The Elo difference that gives the expected score `s` (0 < s < 1)."""
    return -400.0 * math.log10(1.0 / s - 1.0) + 0.0


def _clamp(s: float) -> float:
    return min(max(s, 0.001), 0.999)


def _elo_and_bar(s: float, se: float) -> Tuple[float, float]:
    lo = elo_from_score(_clamp(s - 1.96 * se))
    hi = elo_from_score(_clamp(s + 1.96 * se))
    return elo_from_score(_clamp(s)), (hi - lo) / 2.0


def sprt_bounds() -> Tuple[float, float]:
    """The SPRT's (lower, upper) bounds for alpha = beta = 0.05: about (-2.94, 2.94)."""
    return math.log(BETA / (1.0 - ALPHA)), math.log((1.0 - BETA) / ALPHA)


def sprt_state(llr: float) -> str:
    """'H1' (the difference is at least elo1), 'H0' (at most elo0) or 'continue'."""
    lower, upper = sprt_bounds()
    if llr >= upper:
        return "H1"
    if llr <= lower:
        return "H0"
    return "continue"


SPRT_WORDS = {"H1": "H1 accepted", "H0": "H0 accepted", "continue": "continue"}


@dataclass
class Tally:
    """Wins, draws and losses from the first engine's point of view."""
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def score(self) -> float:
        n = max(self.games(), 1)
        return (self.wins + self.draws / 2.0) / n

    def variance(self) -> float:
        """The variance of one game's score."""
        n = max(self.games(), 1)
        s = self.score()
        return (self.wins * (1.0 - s) ** 2 + self.draws * (0.5 - s) ** 2
                + self.losses * s * s) / n

    def elo(self) -> Optional[Tuple[float, float]]:
        """The Elo difference and its 95% error bar (half the interval); None before any game."""
        n = self.games()
        if n == 0:
            return None
        return _elo_and_bar(self.score(), math.sqrt(self.variance() / n))

    def llr(self, elo0: float, elo1: float) -> float:
        """The SPRT log-likelihood ratio; 0 until a result and some variance are seen."""
        var = self.variance()
        if self.games() == 0 or var <= 1e-9:
            return 0.0
        s0, s1 = expected_score(elo0), expected_score(elo1)
        return self.games() * (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * var)

    def add(self, points: float) -> None:
        """Counts one game scored 1, 1/2 or 0 for the first engine."""
        if points == 1.0:
            self.wins += 1
        elif points == 0.5:
            self.draws += 1
        else:
            self.losses += 1


@dataclass
class Pentanomial:
    """Pairs of games counted by the first engine's pair score, in half points 0 to 4:
    counts[0] lost both, counts[1] a loss and a draw, counts[2] two draws or a win and a loss,
    counts[3] a win and a draw, counts[4] won both."""
    counts: List[int] = field(default_factory=lambda: [0] * 5)

    def add(self, first: float, second: float) -> None:
        self.counts[int(round(2 * (first + second)))] += 1

    def pairs(self) -> int:
        return sum(self.counts)

    def elo(self) -> Optional[Tuple[float, float]]:
        """Elo and its 95% error bar from the pair scores' variance; None before any pair."""
        n = self.pairs()
        if n == 0:
            return None
        # A pair's score per game: 0, 1/4, 1/2, 3/4, 1.
        s = sum(c * k / 4.0 for k, c in enumerate(self.counts)) / n
        var = sum(c * (k / 4.0 - s) ** 2 for k, c in enumerate(self.counts)) / n
        return _elo_and_bar(s, math.sqrt(var / n))


def elo_text(estimate: Optional[Tuple[float, float]]) -> str:
    """`+12.3 +/- 45.6` as `crownhead match` prints it, `-` before any game."""
    if estimate is None:
        return "-"
    elo, bar = estimate
    return f"{elo:+.1f} +/- {bar:.1f}"
