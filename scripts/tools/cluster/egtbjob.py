"""`python3 -m scripts.tools.cluster egtb`: the endgame databases built pair by pair as a
graph of Ray tasks.

The unit is a pair: a material and its mirror, solved together (docs/EGTB.md). A pair's task
runs `crownhead egtb build --material M --only` once every pair its moves lead to (captures,
crownings) is on disk, and writes its slices to the shared `--dir`. `--only` reads just those
direct dependencies; without it each task would read and check every slice below its own, and
keep them in memory (docs/CLUSTER.md).
Pairs already on disk are skipped, so a rerun carries on where a stopped build left off. A pair
lost after its retry blocks the pairs that need it; the report names both, and a rerun tries
them again. The pairs, their build order, sizes and dependencies are the engine's own:
`crownhead egtb plan --json` (src/egtb/plan.rs), read by `Plan`; nothing here re-derives them.
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import subprocess
from dataclasses import dataclass
from typing import Dict, List, NamedTuple, Optional, Set

from scripts.lib.engine import RELEASE_BINARY as DEFAULT_BINARY  # the driver's own, for the plan

HELP = "crownhead egtb build over a Ray cluster, one task per pair of slices"


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


def engine_plan(max_pieces: int, binary: Optional[str] = None) -> dict:
    """`crownhead egtb plan --pieces N --json`: the pairs in build order, each with its slices,
    their sizes and the pairs it needs."""
    binary = os.path.abspath(binary or DEFAULT_BINARY)
    if not os.path.isfile(binary):
        raise SystemExit(f"error: no crownhead binary at {binary} for the build plan "
                         "(cargo build --release, or --crownhead PATH)")
    out = subprocess.run([binary, "egtb", "plan", "--pieces", str(max_pieces), "--json"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"error: crownhead egtb plan: {out.stderr.strip()}")
    return json.loads(out.stdout)


class Plan:
    """The engine's plan: the pairs in build order, for each the pairs it needs (by their
    first material), and each slice's positions."""

    def __init__(self, max_pieces: int, binary: Optional[str] = None):
        data = engine_plan(max_pieces, binary)
        self.pairs = [[Material(*m) for m in p["slices"]] for p in data["pairs"]]
        self.needs: Dict[Material, Set[Material]] = {
            Material(*p["slices"][0]): {Material(*n) for n in p["needs"]} for p in data["pairs"]}
        self.members = {p[0]: p for p in self.pairs}
        self.size: Dict[Material, int] = {
            Material(*m): n for p in data["pairs"] for m, n in zip(p["slices"], p["sizes"])}


@dataclass
class Report:
    """What a build did, in pairs; `lost` counts those lost and those they blocked."""
    pairs: int
    built: int
    skipped: int
    retried: int
    lost: int


# Solver time per position and core: the 6-piece builds of docs/EGTB.md (2.57 G positions each,
# 1,786 s of CPU for English, 1,919 s for Russian): 0.70-0.75 core-microseconds, 0.72 taken.
CORE_US_PER_POSITION = 0.72


def project(max_pieces: int, nodes: int, cores: int,
            core_us: float = CORE_US_PER_POSITION,
            binary: Optional[str] = None) -> Dict[str, float]:
    """The wall time of a build of up to `max_pieces` pieces on `nodes` nodes of `cores` cores,
    one pair at a time per node with all its cores (`--threads cores`), at `core_us` a position
    and core, scaling perfectly with threads (an optimistic assumption). List scheduling: a
    free node takes the largest pair whose dependencies are done. Returns the makespan and two
    lower bounds: all the work spread evenly, and the longest chain of dependent pairs."""
    plan = Plan(max_pieces, binary)
    secs = {p: sum(plan.size[m] for m in plan.members[p]) * core_us * 1e-6 / cores
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
            "largest_positions": sum(plan.size[m] for m in plan.members[largest]),
            "positions": sum(plan.size[m] for p in plan.pairs for m in p)}


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
        r = project(args.pieces, int(nodes), int(cores), binary=getattr(args, "crownhead", None))
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
    plan = Plan(args.pieces, getattr(args, "crownhead", None))
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
