"""Unit tests of how the cluster driver splits and joins work (standard library only): the
endgame databases' pairs, their dependencies, sizes and projected build time; the self-play
shards and the merge's rule that a position is kept only where the run first meets it; a
match pair's results read from its PDN."""

from __future__ import annotations

import os
import struct
import tempfile
import unittest

from scripts.tools.cluster import matchjob
from scripts.tools.cluster.egtbjob import Material, Plan, project
from scripts.tools.cluster.selfplayjob import HEADER, Merger, shard_plan
from scripts.tools.cluster.stats import Tally


class EgtbPlan(unittest.TestCase):
    def test_projection_bounds(self):
        # One node of one core does all the work in a row; many nodes no faster than the chain.
        one = project(4, 1, 1)
        self.assertAlmostEqual(one["makespan"], one["even"], places=6)
        many = project(4, 1000, 1)
        self.assertAlmostEqual(many["makespan"], many["chain"], places=6)
        mid = project(5, 4, 2)
        self.assertGreaterEqual(mid["makespan"], max(mid["even"], mid["chain"]) - 1e-9)

    # The plan is the engine's (`crownhead egtb plan --json`): these tests need the release
    # build, as the rest of the cluster driver does.
    def test_counts_as_in_the_rust_tests(self):
        # tests/it/egtb_cli.rs: 4 + 12 materials up to 3 pieces; material.rs: 3 pairs of 2 pieces.
        self.assertEqual(sum(len(p) for p in Plan(3).pairs), 16)
        self.assertEqual(len(Plan(2).pairs), 3)
        # docs/EGTB.md: 41 slices up to 4 pieces, 85 up to 5.
        self.assertEqual(sum(len(p) for p in Plan(4).pairs), 41)
        self.assertEqual(sum(len(p) for p in Plan(5).pairs), 85)

    def test_slice_sizes_add_up_to_the_counts_of_docs_egtb(self):
        # docs/EGTB.md "our slices" up to 6 pieces (index.rs's count check against Schaeffer et
        # al.); 7 and 8 pieces as its plan rounds them, 34.2 G and 403 G.
        want = {2: 3_488, 3: 196_032, 4: 6_209_316, 5: 139_450_808, 6: 2_426_085_676,
                7: 34_243_113_624, 8: 403_190_250_561}
        plan = Plan(8)
        for n, count in want.items():
            self.assertEqual(sum(size for m, size in plan.size.items() if m.pieces() == n),
                             count, n)
        # By hand: White's man on 4-27 leaves Black's man 27 of 0-27, on 28-31 all 28; the king
        # takes one of the 30 squares left.
        self.assertEqual(plan.size[Material(1, 1, 1, 0)], (24 * 27 + 4 * 28) * 30)

    def test_every_pair_needs_only_pairs_before_it(self):
        plan = Plan(5)
        position = {p[0]: i for i, p in enumerate(plan.pairs)}
        for i, p in enumerate(plan.pairs):
            for need in plan.needs[p[0]]:
                self.assertLess(position[need], i, f"{need} needed by {p[0]}")

    def test_kings_only_needs_only_kings_only(self):
        # build.rs king_only_slices_need_only_king_only_slices: 3 kings against 2 and all it
        # leads to, directly or not, are kings only.
        plan = Plan(5)
        seen, todo = set(), [Material(0, 2, 0, 3)]
        while todo:
            p = todo.pop()
            if p not in seen:
                seen.add(p)
                todo.extend(plan.needs[p])
        self.assertIn(Material(0, 1, 0, 1), seen)
        self.assertTrue(all(m.wm == 0 and m.bm == 0 for p in seen for m in plan.members[p]), seen)
        # A man and a king against a king (the pair 0,1,1,1 / 1,1,0,1): the man crowns quietly
        # into two kings against one, the pair 0,1,0,2 / 0,2,0,1.
        self.assertIn(Material(0, 1, 0, 2), plan.needs[Material(0, 1, 1, 1)])
        self.assertEqual(Material(0, 1, 0, 2).file_name(), "w0001b0002.cheg")


def record(white: int, black: int, kings: int, flags: int) -> bytes:
    return struct.pack("<IIIhBB", white, black, kings, 7, flags, 3)


def marker(index: int) -> bytes:
    return struct.pack("<IIIhBB", 0, 0, index, 0, 1, 9)


class Selfplay(unittest.TestCase):
    def test_shards_cover_the_games_in_order(self):
        plan = shard_plan(10, 7, 3)
        self.assertEqual([list(r) for r in plan], [[10, 11, 12], [13, 14], [15, 16]])
        self.assertEqual(len(shard_plan(0, 2, 5)), 2)

    def test_the_merge_keeps_a_position_where_it_is_first_met(self):
        header = b"CHSP" + bytes([1, 1]) + bytes(10)
        a, b = record(1, 2, 0, 2), record(1, 2, 0, 3)  # same pieces, other side to move
        shards = [header + marker(0) + a + marker(1) + b,
                  header + marker(2) + a + b + record(4, 8, 0, 2)]
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "merged.bin")
            m = Merger(out, shard_plan(0, 3, 2))
            for s, data in enumerate(shards):
                m.check(s, data)
            m.add(1, shards[1])  # out of order: waits for shard 0
            self.assertEqual(os.path.getsize(out), 0)
            m.add(0, shards[0])
            m.close()
            with open(out, "rb") as f:
                merged = f.read()
        self.assertEqual(merged, header + marker(0) + a + marker(1) + b + marker(2)
                         + record(4, 8, 0, 2))
        self.assertEqual((m.games, m.positions), (3, 3))
        self.assertEqual(len(merged) - HEADER, 6 * 16)

    def test_a_shard_with_other_games_is_refused(self):
        header = b"CHSP" + bytes([1, 1]) + bytes(10)
        m = Merger(os.devnull, shard_plan(0, 4, 2))
        with self.assertRaises(ValueError):
            m.check(1, header + marker(0) + marker(1))
        with self.assertRaises(ValueError):
            m.check(0, header + marker(0) + marker(1) + b"\x01")
        m.close()


class GameResults(unittest.TestCase):
    """How the match driver reads one pair's PDN: the first engine's points per game."""

    PDN = ('[Event "crownhead match"]\n[Round "5"]\n[Result "0-1"]\n\n1. 11-15 0-1\n\n'
           '[Event "crownhead match"]\n[Round "6"]\n[Result "0-1"]\n\n1. 11-15 0-1\n\n')

    def test_round_parity_gives_the_first_engines_colour(self):
        # Round 5 is game index 4: the first engine has White and lost; round 6, index 5: it has
        # Black and won.
        games = matchjob.parse_games(self.PDN)
        self.assertEqual([(g.index, g.points) for g in games], [(4, 0.0), (5, 1.0)])
        t = Tally()
        for g in games:
            t.add(g.points)
        self.assertEqual((t.wins, t.draws, t.losses), (1, 0, 1))


if __name__ == "__main__":
    unittest.main()
