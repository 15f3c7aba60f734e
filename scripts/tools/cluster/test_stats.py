"""Unit tests of the cluster driver's match statistics (standard library only):
`python3 -m unittest discover -s scripts/tools/cluster -t .` from the repository root.

The Elo, error bar, LLR and SPRT verdicts are checked against tests/data/match_stats.txt, the
table that `crownhead match`'s own statistics (src/tools/stats.rs) are checked against by
`cargo test`: the two programs give the same numbers on the same counts. The pentanomial
counts and error bar, which the Rust code does not have, are checked by hand.
"""

from __future__ import annotations

import math
import os
import unittest

from scripts.lib.engine import REPO_ROOT
from scripts.tools.cluster.stats import Pentanomial, Tally, sprt_bounds, sprt_state

TABLE = os.path.join(REPO_ROOT, "tests", "data", "match_stats.txt")


def close(got: float, want: float) -> bool:
    return abs(got - want) <= 1e-9 * max(abs(want), 1.0)


class SharedTable(unittest.TestCase):
    def test_every_line_agrees_with_the_rust_numbers(self):
        with open(TABLE) as f:
            lines = [line for line in f.read().splitlines() if not line.startswith("#")]
        self.assertGreaterEqual(len(lines), 10)
        for line in lines:
            counts, numbers = line.split(" : ")
            w, d, losses, e0, e1 = (float(x) for x in counts.split())
            elo, bar, llr, state = numbers.split()
            t = Tally(int(w), int(d), int(losses))
            if elo == "-":
                self.assertIsNone(t.elo(), line)
            else:
                got = t.elo()
                self.assertTrue(close(got[0], float(elo)) and close(got[1], float(bar)),
                                f"{line}: {got}")
            self.assertTrue(close(t.llr(e0, e1), float(llr)), f"{line}: {t.llr(e0, e1)}")
            self.assertEqual(sprt_state(t.llr(e0, e1)), state, line)

    def test_bounds(self):
        lo, hi = sprt_bounds()
        self.assertAlmostEqual(hi, math.log(19), places=12)
        self.assertAlmostEqual(lo, -math.log(19), places=12)


class Pentanomials(unittest.TestCase):
    def test_pairs_are_counted_by_their_score(self):
        p = Pentanomial()
        for first, second in [(0, 0), (0, 0.5), (1, 0), (0.5, 0.5), (0.5, 1), (1, 1), (0, 1)]:
            p.add(first, second)
        self.assertEqual(p.counts, [1, 1, 3, 1, 1])
        self.assertEqual(p.pairs(), 7)

    def test_error_bar_by_hand(self):
        # Pair scores per game 0, 1/2, 1/2, 1: mean 1/2, variance 1/8, standard error
        # sqrt(1/8 / 4); the bar maps 1/2 +- 1.96 of it through the logistic curve.
        elo, bar = Pentanomial([1, 0, 2, 0, 1]).elo()
        self.assertEqual(elo, 0.0)
        self.assertAlmostEqual(bar, 296.5838, places=3)
        self.assertIsNone(Pentanomial().elo())

    def test_paired_wins_and_losses_cancel(self):
        # Every opening won by whoever had the better colour: the trinomial bar is wide, the
        # pentanomial one is nil (every pair scores exactly one of two).
        self.assertEqual(Pentanomial([0, 0, 50, 0, 0]).elo(), (0.0, 0.0))
        self.assertGreater(Tally(50, 0, 50).elo()[1], 50)

    def test_same_result_twice_widens_the_bar_by_root_two_in_score(self):
        # Pairs WW, DD, LL: the pair variance equals the game variance, over half as many
        # samples, so the standard error of the score is sqrt(2) times the trinomial one.
        penta = Pentanomial([10, 0, 20, 0, 10])
        tri = Tally(20, 40, 20)
        se_tri = math.sqrt(tri.variance() / tri.games())
        s = 0.5 + 1.96 * se_tri * math.sqrt(2)
        self.assertAlmostEqual(penta.elo()[1], -400 * math.log10(1 / s - 1), places=9)


if __name__ == "__main__":
    unittest.main()
