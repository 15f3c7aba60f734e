"""The engine's speed figures, as medians of several runs (these machines are shared).

    python3 -m scripts.tools.speed [--runs N] [--binary PATH] [--depth D]
                                   [--what nps,threads,perft,variants] [--instructions]

- nps:     `crownhead bench` on one thread; the median of the NPS on its last line, and the
           node signature (which must be the same in every run).
- threads: `crownhead bench --depth D` with one thread and with two, runs interleaved; the
           median time of each (the bench's own search time, the sum of its per-position
           times) and their ratio, the figure the 2-thread target is about.
- perft:   english perft 12 leaves per second and russian perft 10 time, on one thread.
- variants: every variant's perft 11 from its start position on one thread (runs interleaved,
           medians of leaves per second) and its ratio to russian's, the figure the newer
           variants' speed is judged by; then the same for the search: `crownhead bench
           --variant V` (each variant's own positions) with the evaluation each plays and with
           the hand-written one, and, since those positions differ, brazilian and pool searching
           russian's bench positions (the same board and men) against russian itself; with
           --instructions, also each one's instructions per leaf of
           perft 10 under callgrind, which another program's load cannot move (slow: about a
           minute in all).

Builds nothing: run `cargo build --release` first (or pass --binary).
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import subprocess
import sys
import time

from scripts.lib.engine import RELEASE_BINARY as DEFAULT_BINARY
from scripts.lib.engine import Engine

TOTAL = re.compile(r"^Nodes: (\d+)\s+NPS: (\d+)")


def cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def bench(binary: str, args: list[str]) -> tuple[int, int, float, float]:
    """Runs the bench; returns (nodes, nps, search seconds, CPU seconds). The bench times its
    searches only (not the table clears between positions), so nodes / nps is that search time.
    The CPU seconds are the whole process's, clears included; on a virtual machine whose host is
    busy (steal time) they vary less than the wall clock."""
    before = cpu_seconds()
    out = subprocess.run([binary, "bench", *args], capture_output=True, text=True, check=True)
    cpu = cpu_seconds() - before
    for line in out.stdout.splitlines():
        t = TOTAL.match(line)
        if t:
            nodes, nps = int(t.group(1)), int(t.group(2))
            return nodes, nps, nodes / max(nps, 1), cpu
    sys.exit(f"no 'Nodes:' line in the bench output:\n{out.stdout}")


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, capture_output=True, check=True)
    return time.perf_counter() - start


VARIANTS = ["russian", "english", "brazilian", "pool", "italian", "spanish", "czech"]
LEAVES = re.compile(r"^Nodes: (\d+)")
CALLGRIND = ("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null")


def perft_leaves(binary: str, variant: str, depth: int,
                 prefix: tuple[str, ...] = ()) -> tuple[int, float, str]:
    """Runs perft; returns (leaves, wall seconds, stderr)."""
    start = time.perf_counter()
    out = subprocess.run([*prefix, binary, "perft", "--variant", variant, "--depth", str(depth),
                          "--threads", "1"], capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - start
    for line in out.stdout.splitlines():
        m = LEAVES.match(line)
        if m:
            return int(m.group(1)), seconds, out.stderr
    sys.exit(f"no 'Nodes:' line in the perft output:\n{out.stdout}")


def searched_rate(binary: str, variant: str, fens: list[str]) -> float:
    """Nodes a second of a depth-13 search of each FEN in `variant`, by the engine's own info
    lines (nodes and milliseconds, summed over the positions)."""
    with Engine.uci(binary, variant=variant) as engine:
        nodes = ms = 0
        for fen in fens:
            lines = engine.ask("ucinewgame", f"position fen {fen}", "go depth 13",
                               until="bestmove")
            last = [line for line in lines if " nodes " in line][-1].split()
            nodes += int(last[last.index("nodes") + 1])
            ms += int(last[last.index("time") + 1])
    return nodes * 1000 / max(ms, 1)


def variant_speeds(binary: str, runs: int, instructions: bool) -> None:
    """The `variants` figures: perft 11 leaves per second, and instructions per leaf."""
    speeds: dict[str, list[float]] = {v: [] for v in VARIANTS}
    leaves: dict[str, int] = {}
    for _ in range(runs):
        for v in VARIANTS:
            n, seconds, _ = perft_leaves(binary, v, 11)
            leaves[v] = n
            speeds[v].append(n / seconds)
    base = statistics.median(speeds["russian"])
    for v in VARIANTS:
        m = statistics.median(speeds[v])
        print(f"variants: {v:9} perft 11 {leaves[v]:>11,} leaves, median {m / 1e6:.0f} M leaves/s "
              f"over {runs} runs, {m / base:.2f} of russian")
    for evaluation in ["auto", "handwritten"]:
        nps: dict[str, list[int]] = {v: [] for v in VARIANTS}
        for _ in range(runs):
            for v in VARIANTS:
                # Depth 15: a few hundred milliseconds a variant, long enough to time.
                nps[v].append(bench(binary, ["--variant", v, "--eval", evaluation,
                                             "--depth", "15"])[1])
        base = statistics.median(nps["russian"])
        for v in VARIANTS:
            m = statistics.median(nps[v])
            print(f"variants: {v:9} bench --eval {evaluation:11} median {m / 1e6:.2f} Mnps over "
                  f"{runs} runs, {m / base:.2f} of russian")
    # Like for like: russian's own bench positions under each Russian-board variant's rules, with
    # the network all three play, through the protocol (the bench searches a variant's own).
    with open("positions/bench.txt", encoding="utf-8") as f:
        fens = [line.split(";")[1].strip() for line in f if line.startswith("russian;")]
    rates: dict[str, list[float]] = {v: [] for v in ["russian", "brazilian", "pool"]}
    for _ in range(runs):
        for v in rates:
            rates[v].append(searched_rate(binary, v, fens))
    for v in rates:
        m = statistics.median(rates[v])
        print(f"variants: {v:9} russian's bench positions, depth 13, median {m / 1e6:.2f} Mnps "
              f"over {runs} runs, {m / statistics.median(rates['russian']):.2f} of russian")
    if instructions:
        per_leaf = {}
        for v in VARIANTS:
            # callgrind prints "Collected : N" (instructions executed) on stderr.
            n, _, err = perft_leaves(binary, v, 10, CALLGRIND)
            total = int(re.search(r"Collected : (\d+)", err).group(1))
            per_leaf[v] = total / n
        for v in VARIANTS:
            print(f"variants: {v:9} perft 10 {per_leaf[v]:.1f} instructions a leaf, "
                  f"{per_leaf['russian'] / per_leaf[v]:.2f} of russian's speed")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--binary", default=DEFAULT_BINARY)
    # 15: about half a second on one thread; a shallower run is too short to time.
    p.add_argument("--depth", type=int, default=15, help="bench depth for the thread ratio")
    p.add_argument("--what", default="nps,threads,perft",
                   help="any of nps, threads, perft, variants (comma-separated)")
    p.add_argument("--instructions", action="store_true",
                   help="variants: also count instructions under callgrind")
    a = p.parse_args()
    what = set(a.what.split(","))

    if "nps" in what:
        runs = [bench(a.binary, ["--threads", "1"]) for _ in range(a.runs)]
        signatures = {r[0] for r in runs}
        nps = [r[1] for r in runs]
        print(f"bench: signature Nodes: {', '.join(map(str, sorted(signatures)))}"
              f"{'' if len(signatures) == 1 else '  (NOT REPRODUCIBLE)'}")
        print(f"bench: median {statistics.median(nps) / 1e6:.2f} Mnps over {a.runs} runs "
              f"(range {min(nps) / 1e6:.2f}-{max(nps) / 1e6:.2f})")
        per_cpu = [r[0] / r[3] for r in runs]
        print(f"bench: median {statistics.median(per_cpu) / 1e6:.2f} M nodes per CPU second "
              f"(range {min(per_cpu) / 1e6:.2f}-{max(per_cpu) / 1e6:.2f}; table clears included)")

    if "threads" in what:
        one, two = [], []
        for _ in range(a.runs):
            one.append(bench(a.binary, ["--depth", str(a.depth), "--threads", "1"])[2])
            two.append(bench(a.binary, ["--depth", str(a.depth), "--threads", "2"])[2])
        m1, m2 = statistics.median(one), statistics.median(two)
        print(f"threads: depth {a.depth}, median search time 1 thread {m1:.2f} s, "
              f"2 threads {m2:.2f} s, ratio {m2 / m1:.2f} over {a.runs} runs each")
        print(f"threads: 1-thread times {[round(t, 2) for t in one]}, "
              f"2-thread times {[round(t, 2) for t in two]}")

    if "perft" in what:
        eng = [timed([a.binary, "perft", "--variant", "english", "--depth", "12",
                      "--threads", "1"]) for _ in range(a.runs)]
        rus = [timed([a.binary, "perft", "--variant", "russian", "--depth", "10",
                      "--threads", "1"]) for _ in range(a.runs)]
        leaves = 388_617_999  # english perft 12 from the start (docs/RULES.md, distinct moves)
        print(f"perft: english 12 median {leaves / statistics.median(eng) / 1e6:.0f} M leaves/s "
              f"({statistics.median(eng):.2f} s); russian 10 median {statistics.median(rus):.3f} s")

    if "variants" in what:
        variant_speeds(a.binary, a.runs, a.instructions)


if __name__ == "__main__":
    main()
