"""`python3 -m scripts.tools.cluster selfplay`: `crownhead selfplay` split into shards of
consecutive games, merged into the file one local run would write.

Game i depends only on the seed and i (docs/SELFPLAY.md), so shard s runs `crownhead selfplay
--first-game F --games K --seed S --threads 1` for its range of games. A local run records a
position only the first time the run meets it (the first game to reach it keeps it); a shard
knows only its own games, so the merge repeats that across shards: it reads the shards in
game order and drops every position already written, comparing what `Position` compares
(White's pieces, Black's pieces, kings, side to move). A position first met in game g is kept
by g's shard, since no earlier game of that shard has it; every later copy is dropped, here or
by its shard. So the merged file is the local run's, byte for byte (scripts/ci/cluster_check.py
compares them). Shards are written out as soon as every shard before them is in.
"""

from __future__ import annotations

import argparse
import os
import struct
import sys
from typing import Dict, List, Optional, Set

from .runner import make_job, openings_input

HELP = "crownhead selfplay over a Ray cluster, in shards merged into one file"
HEADER = 16
RECORD = 16


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default="russian")
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--out", required=True, help="the merged data file (must not exist)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first-game", type=int, default=0)
    parser.add_argument("--shards", type=int, default=None,
                        help="how many tasks (default: about 20 games each)")
    parser.add_argument("--openings", help="opening file (sent to the workers with each task)")


def shard_plan(first: int, games: int, shards: int) -> List[range]:
    """`shards` ranges of consecutive game indices covering first..first+games, as even as
    can be (the first ones one longer)."""
    shards = max(1, min(shards, games))
    base, extra = divmod(games, shards)
    plan, start = [], first
    for s in range(shards):
        n = base + (1 if s < extra else 0)
        plan.append(range(start, start + n))
        start += n
    return plan


class Merger:
    """Writes shards to the output in order, each position once."""

    def __init__(self, path: str, plan: List[range]):
        self.path = path
        self.plan = plan
        self.out = open(path, "wb")
        self.seen: Set[bytes] = set()
        self.waiting: Dict[int, Optional[bytes]] = {}
        self.next = 0
        self.header: Optional[bytes] = None
        self.positions = 0
        self.dropped = 0
        self.retried = 0
        self.games = 0
        self.gaps: List[int] = []

    def check(self, shard: int, data: bytes) -> None:
        """Refuses a shard file (so the pool retries it) that is cut short or holds other
        games than its range, or a variant other than the first shard's."""
        if len(data) < HEADER or data[:4] != b"CHSP" or (len(data) - HEADER) % RECORD:
            raise ValueError(f"shard {shard}: not a whole data file ({len(data)} bytes)")
        if self.header is not None and data[:HEADER] != self.header:
            raise ValueError(f"shard {shard}: another header than the first shard's")
        indices = [struct.unpack_from("<I", data, at + 8)[0]
                   for at in range(HEADER, len(data), RECORD)
                   if data[at:at + 8] == bytes(8)]
        if indices != list(self.plan[shard]):
            raise ValueError(f"shard {shard}: games {indices[:3]}..., expected "
                             f"{self.plan[shard].start}..{self.plan[shard].stop - 1}")

    def add(self, shard: int, data: Optional[bytes]) -> None:
        """A shard's file (None: lost); writes every shard now in order."""
        self.waiting[shard] = data
        while self.next in self.waiting:
            self._write(self.next, self.waiting.pop(self.next))
            self.next += 1

    def _write(self, shard: int, data: Optional[bytes]) -> None:
        if data is None:
            self.gaps.append(shard)
            return
        if self.header is None:
            self.header = data[:HEADER]
            self.out.write(self.header)
        kept = bytearray()
        for at in range(HEADER, len(data), RECORD):
            record = data[at:at + RECORD]
            if record[:8] == bytes(8):
                self.games += 1
            else:
                # Position's identity: the three piece sets and bit 0 of the flags (side).
                key = record[:12] + bytes([record[14] & 1])
                if key in self.seen:
                    self.dropped += 1
                    continue
                self.seen.add(key)
                self.positions += 1
            kept += record
        self.out.write(kept)
        self.out.flush()

    @property
    def lost(self) -> int:
        """Shards lost after their retry: the file then lacks their games."""
        return len(self.gaps)

    def close(self) -> None:
        self.out.close()


def jobs(args, extra: List[str], session, plan: List[range]) -> List[Dict]:
    inputs, openings = openings_input(args.openings)
    out = []
    for games in plan:
        argv = [session.crownhead, "selfplay", "--variant", args.variant,
                "--games", str(len(games)), "--first-game", str(games.start),
                "--seed", str(args.seed), "--threads", "1", "--out", "{dir}/shard.bin",
                *openings, *extra]
        out.append(make_job(session, argv, "shard.bin", inputs))
    return out


def run(args, extra: List[str], session, fault: Optional[Dict] = None) -> Merger:
    """Plays every shard and writes the merged file; returns the merger's counts."""
    from .pool import Pool

    if args.games < 1:
        sys.exit("error: --games must be at least 1")
    if os.path.exists(args.out):
        sys.exit(f"error: {args.out} exists; choose another --out")
    plan = shard_plan(args.first_game, args.games, args.shards or -(-args.games // 20))
    merger = Merger(args.out, plan)
    pool = Pool(session.in_flight, label=lambda s: f"shard {s + 1}",
                check=lambda s, r: merger.check(s, r["files"].get("shard.bin", b"")))
    for shard, job in enumerate(jobs(args, extra, session, plan)):
        if fault and fault.get("job") == shard:
            job = dict(job, fault=fault)
        pool.add(shard, job)
    done = 0
    for outcome in pool.results():
        done += 1
        merger.retried += outcome.retried
        data = outcome.result["files"]["shard.bin"] if outcome.ok else None
        merger.add(outcome.key, data)
        r = plan[outcome.key]
        took = f"{outcome.result['seconds']:.1f} s" if outcome.ok else "lost"
        print(f"shard {outcome.key + 1}/{len(plan)} (games {r.start}-{r.stop - 1}): {took} | "
              f"{done}/{len(plan)} shards, {merger.retried} retried, {merger.positions} positions "
              f"merged", flush=True)
    merger.close()
    lost = merger.lost
    print(f"selfplay: {len(plan)} shards, {len(plan) - lost} played, {merger.retried} retried, "
          f"{lost} lost; {merger.games} games, {merger.positions} positions in {args.out} "
          f"({merger.dropped} met before in another shard)",
          flush=True)
    if lost:
        ranges = ", ".join(f"{plan[s].start}-{plan[s].stop - 1}" for s in merger.gaps)
        print(f"selfplay: games {ranges} are missing (lost shards); the file is not the local "
              "run's", flush=True)
    return merger
