"""`cluster.py egtb`: the endgame databases built pair by pair as a graph of Ray tasks.

The unit is a pair: a material and its mirror, solved together (docs/EGTB.md). A pair's task
runs `crownhead egtb build --material M --only` once every pair its moves lead to (captures,
crownings: `successors` below, mirroring src/egtb/build.rs) is on disk, and writes its slices
to the shared `--dir`. `--only` reads just those direct dependencies; without it each task
would read and check every slice below its own, and keep them in memory (docs/CLUSTER.md).
Pairs already on disk are skipped, so a rerun carries on where a stopped build left off. A pair
lost after its retry blocks the pairs that need it; the report names both, and a rerun tries
them again. The materials and the dependency order mirror src/egtb/material.rs; the files
show that they agree (scripts/cluster_check.py: identical to `crownhead egtb build`).
"""

from __future__ import annotations

import argparse
import heapq
import os
from dataclasses import dataclass
from math import comb
from typing import Dict, List, NamedTuple, Optional, Set

HELP = "crownhead egtb build over a Ray cluster, one task per pair of slices"
MAX_OF_A_KIND = 12


class Material(NamedTuple):
    """White's men and kings, Black's men and kings (White to move), ordered as in Rust."""
    wm: int
    wk: int
    bm: int
    bk: int

    def swapped(self) -> "Material":
        return Material(self.bm, self.bk, self.wm, self.wk)

    def pieces(self) -> int:
        return sum(self)

    def men(self) -> int:
        return self.wm + self.bm

    def file_name(self) -> str:
        return f"w{self.wm:02}{self.wk:02}b{self.bm:02}{self.bk:02}.cheg"

    def arg(self) -> str:
        return ",".join(map(str, self))

    def size(self) -> int:
        """Positions in the slice: the range of src/egtb/index.rs. White's men stand on squares
        4-31, k of them on 28-31 where no Black man can be; Black's men take 28 - (wm - k) of
        0-27; the kings take the free squares."""
        men = sum(comb(4, k) * comb(24, self.wm - k) * comb(28 - (self.wm - k), self.bm)
                  for k in range(min(4, self.wm) + 1))
        free = 32 - self.wm - self.bm
        return men * comb(free, self.wk) * comb(free - self.wk, self.bk)


def materials_of(n: int) -> List[Material]:
    """Every material of exactly n pieces with both sides present (material.rs for_each_of)."""
    out = []
    for wm in range(min(n, MAX_OF_A_KIND) + 1):
        for wk in range(min(n - wm, MAX_OF_A_KIND - wm) + 1):
            for bm in range(min(n - wm - wk, MAX_OF_A_KIND) + 1):
                m = Material(wm, wk, bm, n - wm - wk - bm)
                if m.wm + m.wk > 0 and m.bm + m.bk > 0 and m.bm + m.bk <= MAX_OF_A_KIND:
                    out.append(m)
    return out


def build_order(max_pieces: int) -> List[List[Material]]:
    """The pairs of up to `max_pieces` pieces in dependency order (material.rs build_order)."""
    pairs = []
    for n in range(2, max_pieces + 1):
        of_n = sorted((m for m in materials_of(n) if m <= m.swapped()),
                      key=lambda m: (m.men(), m))
        pairs.extend([m] if m == m.swapped() else [m, m.swapped()] for m in of_n)
    return pairs


def successors(m: Material) -> List[Material]:
    """The slices the moves out of m lead to: captures and crownings (build.rs successors)."""
    out = []
    for crown in range(2 if m.wm > 0 else 1):
        wm, wk = m.wm - crown, m.wk + crown
        for men in range(m.bm + 1):
            for kings in range(m.bk + 1):
                left = m.bm - men + m.bk - kings
                if (men + kings > 0 or crown > 0) and left > 0:
                    out.append(Material(wm, wk, m.bm - men, m.bk - kings).swapped())
    return out


class Plan:
    """The pairs and, for each, the pairs it needs (by their first material)."""

    def __init__(self, max_pieces: int):
        self.pairs = build_order(max_pieces)
        pair_of = {m: p[0] for p in self.pairs for m in p}
        self.needs: Dict[Material, Set[Material]] = {
            p[0]: {pair_of[s] for m in p for s in successors(m)} - {p[0]} for p in self.pairs}
        self.members = {p[0]: p for p in self.pairs}


@dataclass
class Report:
    """What a build did, in pairs; `lost` counts those lost and those they blocked."""
    pairs: int
    built: int
    skipped: int
    retried: int
    lost: int


# Solver time per position and core: 227 s for the 146 M positions of 2 to 5 pieces on 2 cores
# (docs/EGTB.md, English), 3.1 core-microseconds; Russian was faster (193 s).
CORE_US_PER_POSITION = 3.1


def project(max_pieces: int, nodes: int, cores: int,
            core_us: float = CORE_US_PER_POSITION) -> Dict[str, float]:
    """The wall time of a build of up to `max_pieces` pieces on `nodes` nodes of `cores` cores,
    one pair at a time per node with all its cores (`--threads cores`), at `core_us` a position
    and core, scaling perfectly with threads (an optimistic assumption). List scheduling: a
    free node takes the largest pair whose dependencies are done. Returns the makespan and two
    lower bounds: all the work spread evenly, and the longest chain of dependent pairs."""
    plan = Plan(max_pieces)
    secs = {p: sum(m.size() for m in plan.members[p]) * core_us * 1e-6 / cores
            for p in plan.members}
    chain: Dict[Material, float] = {}
    for pair in plan.pairs:
        p = pair[0]
        chain[p] = secs[p] + max((chain[d] for d in plan.needs[p]), default=0.0)
    waiting = {p: len(plan.needs[p]) for p in plan.members}
    needed_by: Dict[Material, List[Material]] = {p: [] for p in plan.members}
    for p, needs in plan.needs.items():
        for d in needs:
            needed_by[d].append(p)
    ready = [(-secs[p], p) for p, n in waiting.items() if n == 0]
    heapq.heapify(ready)
    running: List = []  # (finish time, pair)
    now, free = 0.0, nodes
    while ready or running:
        while ready and free:
            _, p = heapq.heappop(ready)
            heapq.heappush(running, (now + secs[p], p))
            free -= 1
        now, p = heapq.heappop(running)
        free += 1
        for q in needed_by[p]:
            waiting[q] -= 1
            if waiting[q] == 0:
                heapq.heappush(ready, (-secs[q], q))
    largest = max(plan.members, key=lambda p: secs[p])
    return {"makespan": now, "even": sum(secs.values()) / nodes, "chain": max(chain.values()),
            "pairs": len(plan.pairs), "largest": secs[largest],
            "largest_positions": sum(m.size() for m in plan.members[largest]),
            "positions": sum(m.size() for p in plan.pairs for m in p)}


def hours(s: float) -> str:
    return f"{s / 3600:.1f} h" if s >= 3600 else f"{s / 60:.1f} min"


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", help="russian or english")
    parser.add_argument("--pieces", type=int, required=True, help="the most pieces")
    parser.add_argument("--dir", help="the database directory, on a path mounted on every node")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads (and Ray CPUs) per task (default 1)")
    parser.add_argument("--project", metavar="NODESxCORES",
                        help="build nothing: print the projected wall time on that cluster, "
                        "e.g. 8x32 (no Ray needed)")


def print_projection(args) -> None:
    """`--project NxC`: the projection for each cluster size given (comma-separated)."""
    for spec in args.project.split(","):
        nodes, _, cores = spec.partition("x")
        r = project(args.pieces, int(nodes), int(cores))
        print(f"egtb {args.pieces} pieces on {nodes} nodes x {cores} cores: about "
              f"{hours(r['makespan'])} ({r['pairs']} pairs, {r['positions'] / 1e9:.1f} G "
              f"positions; bounds: work spread evenly {hours(r['even'])}, longest chain "
              f"{hours(r['chain'])}; largest pair {r['largest_positions'] / 1e9:.2f} G "
              f"positions, {hours(r['largest'])})")


def run(args, extra: List[str], session, fault: Optional[Dict] = None) -> Report:
    """Builds every missing pair; prints a line per pair and a summary; returns the counts.
    (`fault` is taken for the common signature: a slice build writes no game to kill after.)"""
    from .pool import Pool

    if not args.variant or not args.dir:
        raise SystemExit("error: egtb needs --variant and --dir (unless --project)")
    directory = os.path.abspath(args.dir)
    os.makedirs(os.path.join(directory, args.variant), exist_ok=True)
    plan = Plan(args.pieces)
    on_disk = lambda p: all(  # noqa: E731
        os.path.exists(os.path.join(directory, args.variant, m.file_name()))
        for m in plan.members[p])
    done: Set[Material] = {p[0] for p in plan.pairs if on_disk(p[0])}
    skipped = len(done)
    todo = [p[0] for p in plan.pairs if p[0] not in done]
    submitted: Set[Material] = set()
    lost: Set[Material] = set()
    pool = Pool(session.in_flight, num_cpus=args.threads, label=lambda k: f"pair {k}")

    def submit_ready() -> None:
        for p in todo:
            if p not in submitted and plan.needs[p] <= done:
                submitted.add(p)
                argv = [session.crownhead, "egtb", "build", "--variant", args.variant,
                        "--pieces", str(args.pieces), "--dir", directory,
                        "--threads", str(args.threads), "--material", p.arg(), "--only",
                        *extra]
                job = {"argv": argv, "cwd": session.cwd, "timeout": session.timeout}
                pool.add(p.arg(), job)

    submit_ready()
    built = retried = 0
    for outcome in pool.results():
        p = Material(*map(int, outcome.key.split(",")))
        retried += outcome.retried
        if outcome.ok:
            done.add(p)
            built += 1
            took = f"{outcome.result['seconds']:.2f} s"
            submit_ready()
        else:
            lost.add(p)
            took = "lost"
        names = " and ".join(m.file_name() for m in plan.members[p])
        print(f"egtb {args.variant} {names}: {took} | {built + skipped}/{len(plan.pairs)} "
              f"pairs on disk, {len(pool.pending)} running", flush=True)
    blocked = [p for p in todo if p not in done and p not in lost]
    print(f"egtb {args.variant}: {len(plan.pairs)} pairs, {built} built, {skipped} already on "
          f"disk, {retried} retried, {len(lost)} lost, {len(blocked)} blocked, under "
          f"{directory}", flush=True)
    for p in sorted(lost):
        print(f"lost: {p.arg()}", flush=True)
    if blocked:
        print(f"blocked by a lost pair: {' '.join(p.arg() for p in blocked)}", flush=True)
    return Report(len(plan.pairs), built, skipped, retried, len(lost) + len(blocked))
