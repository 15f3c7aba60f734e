"""How Crownhead uses its time and how fast it stops, at any thread count.

    python3 -m scripts.tools.time_use [--binary PATH] [--tries N] [--threads 1,2,64,512]
                                      [--what match,movetime,stop,clock] [--games G]

- match:    `crownhead match --movetime 100` between two Crownheads (G games, one at a time);
            the time each move took as the match runner saw it (the PDN comments), as a
            fraction of the move time: mean, median and the worst overrun in ms.
- movetime: per thread count, `go movetime 200` from the start position and from a middle
            game: the time from sending `go` to reading `bestmove`, median and maximum, and
            the smallest depth an answer came from.
- stop:     per thread count, `go infinite`, a wait of 50 to 150 ms, then `stop`: the time
            from sending `stop` to reading `bestmove`, median and maximum.
- clock:    per thread count, `go wtime 1000 btime 1000`: the time to `bestmove`, which must
            stay well inside the second on the clock.

Times are wall-clock on a shared machine: quote medians, and compare figures taken in the same
run. Builds nothing: run `cargo build --release` first (or pass --binary).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time

from scripts.lib.engine import RELEASE_BINARY as DEFAULT_BINARY
from scripts.lib.engine import Engine

MAX_DEPTH = 100
MIDDLE_GAME = "W:W18,21,22,23,25,26,27,29,30,31:B1,2,3,5,6,7,9,10,12,14"


def open_engine(binary: str, threads: int) -> Engine:
    """The engine in the UCI dialect with `threads` search threads, ready."""
    return Engine.uci(binary, Threads=threads)


def timed_go(e: Engine, position: str, go: str) -> tuple[float, int]:
    """The milliseconds from sending `go` to reading `bestmove`, and the last depth reported."""
    e.send(f"position {position}")
    start = time.perf_counter()
    e.send(go)
    lines = e.read_until("bestmove")
    ms = (time.perf_counter() - start) * 1000
    depths = [int(line.split()[2]) for line in lines if line.startswith("info depth ")]
    return ms, depths[-1] if depths else 0


def summary(ms: list[float]) -> str:
    return f"median {statistics.median(ms):7.1f} ms  max {max(ms):7.1f} ms"


def movetime(binary: str, threads: int, tries: int) -> None:
    e = open_engine(binary, threads)
    times, depths = [], []
    for i in range(tries):
        position = "startpos" if i % 2 == 0 else f"fen {MIDDLE_GAME}"
        ms, depth = timed_go(e, position, "go movetime 200")
        times.append(ms)
        depths.append(depth)
    e.close(timeout=30)
    print(f"threads {threads:4}  go movetime 200: {summary(times)}  "
          f"depth min {min(depths)} median {statistics.median(depths)}")


def stop(binary: str, threads: int, tries: int, rng: random.Random) -> None:
    e = open_engine(binary, threads)
    times = []
    for _ in range(tries):
        e.send("position startpos")
        e.send("go infinite")
        time.sleep(rng.uniform(0.05, 0.15))
        start = time.perf_counter()
        e.send("stop")
        e.read_until("bestmove")
        times.append((time.perf_counter() - start) * 1000)
    e.close(timeout=30)
    print(f"threads {threads:4}  stop latency:     {summary(times)}")


def clock(binary: str, threads: int, tries: int) -> None:
    e = open_engine(binary, threads)
    times = [timed_go(e, "startpos", "go wtime 1000 btime 1000")[0] for _ in range(tries)]
    e.close(timeout=30)
    print(f"threads {threads:4}  go wtime 1000:    {summary(times)}")


# A move's comment: `{+0.12/23 0.100s}`, score / depth, then the time the runner measured.
COMMENT = re.compile(r"\{\S+?(?:/(\d+))? (\d+\.\d+)s[^}]*\}")


def match(binary: str, games: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        pdn = os.path.join(tmp, "games.pdn")
        subprocess.run(
            [binary, "match", "--engine", binary, "--engine", binary, "--games", str(games),
             "--movetime", "100", "--pdn", pdn],
            check=True, capture_output=True, text=True,
        )
        with open(pdn, encoding="utf-8") as f:
            moves = [(int(m.group(1) or 0), float(m.group(2))) for m in COMMENT.finditer(f.read())]
    if not moves:
        sys.exit("no move times in the match's PDN")
    # A search that completed the deepest iteration (100) in an ending has nothing left to do
    # and answers early; the time use that matters is that of the searches time ended.
    groups = [("all moves", [t for _, t in moves]),
              ("moves below the depth cap", [t for d, t in moves if d < MAX_DEPTH])]
    for name, seconds in groups:
        if not seconds:
            continue
        used = [t / 0.1 for t in seconds]
        worst = max(seconds) * 1000 - 100
        print(f"match --movetime 100, {name}: {len(used)}, time used mean "
              f"{statistics.mean(used):.3f} median {statistics.median(used):.3f} of the move "
              f"time; worst overrun {worst:+.1f} ms")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--binary", default=DEFAULT_BINARY)
    p.add_argument("--tries", type=int, default=20)
    p.add_argument("--threads", default="1,2,64,512")
    p.add_argument("--what", default="match,movetime,stop,clock")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    what = a.what.split(",")
    rng = random.Random(a.seed)
    if "match" in what:
        match(a.binary, a.games)
    for threads in (int(t) for t in a.threads.split(",")):
        if "movetime" in what:
            movetime(a.binary, threads, a.tries)
        if "stop" in what:
            stop(a.binary, threads, a.tries, rng)
        if "clock" in what:
            clock(a.binary, threads, a.tries)


if __name__ == "__main__":
    main()
