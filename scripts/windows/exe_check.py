"""Check a Windows crownhead.exe (run under Wine) against the Linux build, side by side.

* dialogues of both protocols (UCI-style and Hub): handshake, fixed-depth searches with one
  thread, bad input of several kinds, each answered exactly as the Linux build answers it (the
  node counts and every line; only times and speeds are left out of the comparison);
* ``stop`` (UCI) and ``stop`` after ``go analyze`` (Hub) end an endless search at once, and
  ``quit`` during a search ends the process;
* ``perft --depth 9`` in both variants: the Linux build's count, which the reference table of
  docs/RULES.md has;
* ``bench``: the same node signature; with ``--bench-runs N`` also both builds' speed, run
  alternately N times, as medians and their ratio (``--min-ratio`` makes a slow one fail).

Usage, from the repository root:
    python3 -m scripts.windows.exe_check --windows crownhead.exe
        [--linux target/release/crownhead] [--runner wine] [--perft-depth 9]
        [--bench-runs 5 --min-ratio 0.85]
Prints "ok - ..." / "FAIL - ..." lines and "N passed, N failed"; exit status 0 when all passed.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys
import time
from typing import List, Optional, Tuple

from scripts.lib.engine import RELEASE_BINARY, Engine, EngineError
from scripts.lib.engine import REPO_ROOT as ROOT

# Fields that measure time, not the search: left out of the comparison.
TIMING = re.compile(
    r"\b(time|nps|Time|Leaves/s|NPS|hashfull)([ =:]+)[0-9.]+( s)?"
)
# The default database directory that the suggestion to build databases names: the platform's.
DATABASE_DIR = re.compile(r"^(info string no endgame databases for \S+ in ).*?(: `)")

DIALOGUES = {
    "UCI english, depth 12": [
        "uci",
        "setoption name Variant value english",
        "isready",
        "position startpos moves 11-15 23-19",
        "go depth 12",
    ],
    "UCI russian, d and depth 12": [
        "uci",
        "isready",
        "position startpos moves c3-d4",
        # Before the search: `d` during one is answered at once, between its lines.
        "d",
        "go depth 12",
    ],
    "UCI bad input": [
        "uci",
        "position fen X:nonsense",
        "go depth -3",
        "setoption name Hash value lots",
        "setoption name Nonexistent value 1",
        "frobnicate",
        "position startpos moves c3-d4 a1-h8",
        "perft 99",
        "isready",
        "position fen W:W21-32:B1-12",
        "go nodes 20000",
    ],
    "Hub english, depth 10": [
        "hub",
        "set-param name=variant value=english",
        "init",
        "pos start moves=\"11-15 23-19\"",
        "level depth=10",
        "go think",
    ],
    "Hub bad input": [
        "hub",
        "init",
        "pos fen=garbage",
        "level depth=x",
        "set-param name=nonsense value=1",
        "go nowhere",
        "ping",
        "pos start",
        "level nodes=20000",
        "go think",
    ],
}


def normalise(text: str) -> List[str]:
    return [DATABASE_DIR.sub(r"\1*\2", TIMING.sub(r"\1\2*", line.rstrip("\r")))
            for line in text.splitlines()]


class Checks:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, ok: bool, what: str) -> bool:
        print(f"{'ok' if ok else 'FAIL'} - {what}", flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        return ok


def run(cmd: List[str], stdin: str = "", timeout: float = 300) -> str:
    done = subprocess.run(
        cmd,
        input=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        timeout=timeout,
    )
    return done.stdout


def dialogues(c: Checks, win: List[str], lin: List[str]) -> None:
    for name, lines in DIALOGUES.items():
        stdin = "\n".join(lines) + "\n"
        w = normalise(run(win, stdin))
        on_linux = normalise(run(lin, stdin))
        first = next((i for i, (a, b) in enumerate(zip(w, on_linux)) if a != b), None)
        if first is None and len(w) != len(on_linux):
            first = min(len(w), len(on_linux))
        errors = sum(1 for x in on_linux if "error" in x)
        nodes = [x for x in on_linux if re.search(r"\bnodes[ =]\d", x)]
        last = nodes[-1] if nodes else ""
        m = re.search(r"\bnodes[ =](\d+)", last)
        detail = f"{len(on_linux)} lines, {errors} errors" + (f", nodes {m.group(1)}" if m else "")
        if not c.check(first is None and len(on_linux) > 3, f"{name}: as on Linux ({detail})"):
            print(f"  line {first}: windows {w[first:first + 1]} linux {on_linux[first:first + 1]}")


def waited(e: Engine, prefix: str, timeout: float) -> Tuple[Optional[float], List[str]]:
    """Seconds until a line `prefix` came (None if none came within `timeout`), and the lines
    read meanwhile."""
    start = time.monotonic()
    try:
        lines = e.read_until(prefix, timeout)
    except EngineError:
        return None, []
    return time.monotonic() - start, lines


def stopping(c: Checks, win: List[str]) -> None:
    for proto, setup, go, stop_word, answer in [
        ("UCI", ["uci", "isready"], "go infinite", "stop", "bestmove"),
        ("Hub", ["hub", "init"], "go analyze", "stop", "done"),
    ]:
        e = Engine(win)
        e.send(*setup)
        ready, _ = waited(e, "readyok" if proto == "UCI" else "ready", 60)
        e.send("pos start" if proto == "Hub" else "position startpos", go)
        time.sleep(1.0)
        searching = len(e.drain())
        e.send(stop_word)
        took, _ = waited(e, answer, 10)
        # Usually a few ms; the bound leaves room for a busy machine (514 ms was seen once at a
        # load average of 17 on 2 cores), while an engine that ignored `stop` would never answer.
        c.check(
            ready is not None and took is not None and took < 1.0,
            f"{proto}: '{stop_word}' ends an endless search in "
            f"{'never' if took is None else f'{took * 1000:.1f} ms'} "
            f"({searching} lines of progress before)",
        )
        e.send(go)
        time.sleep(0.5)
        code = e.close("quit", timeout=10)
        c.check(code == 0, f"{proto}: 'quit' during a search ends the process (exit {code})")


def reference_perft(variant: str, depth: int) -> List[str]:
    with open(os.path.join(ROOT, "positions", "perft_start.txt")) as f:
        for line in f:
            parts = line.strip().split(";")
            if len(parts) == 3 and parts[0] == variant and parts[1].endswith("W21-32:B1-12"):
                return parts[2].split()[depth - 1].split("/")
    return []


def nodes_of(text: str) -> Optional[str]:
    m = re.findall(r"^Nodes: (\d+)", text, re.M)
    return m[-1] if m else None


def perft(c: Checks, win: List[str], lin: List[str], depth: int) -> None:
    for variant in ["english", "russian"]:
        args = ["perft", "--depth", str(depth), "--variant", variant]
        start = time.monotonic()
        w = nodes_of(run(win + args))
        took = time.monotonic() - start
        linux = nodes_of(run(lin + args))
        ref = reference_perft(variant, depth)
        c.check(
            w is not None and w == linux and w in ref,
            f"perft {depth} {variant}: windows {w}, linux {linux}, docs/RULES.md {'/'.join(ref)}"
            f" ({took:.1f} s under the runner)",
        )


def bench(c: Checks, win: List[str], lin: List[str], runs: int, min_ratio: float) -> None:
    def one(cmd: List[str]):
        text = run(cmd + ["bench"], timeout=900)
        m = re.search(r"^Nodes: (\d+)\s+NPS: (\d+)", text, re.M)
        return (m.group(1), int(m.group(2))) if m else (None, 0)

    wins, lins = [], []
    for _ in range(max(runs, 1)):
        wins.append(one(win))
        lins.append(one(lin))
    sigs = {s for s, _ in wins + lins}
    c.check(
        len(sigs) == 1 and None not in sigs,
        f"bench signature: windows {sorted({s for s, _ in wins}, key=str)}, "
        f"linux {sorted({s for s, _ in lins}, key=str)}",
    )
    if runs >= 2:
        wm = statistics.median(n for _, n in wins)
        lm = statistics.median(n for _, n in lins)
        ratio = wm / lm if lm else 0
        # The fastest run of each: the one least slowed by other work on the machine.
        best = max(n for _, n in wins) / max(max(n for _, n in lins), 1)
        c.check(
            ratio >= min_ratio,
            f"bench speed over {runs} alternate runs: windows median {wm:.0f} n/s "
            f"{[n for _, n in wins]}, linux median {lm:.0f} n/s {[n for _, n in lins]}, "
            f"ratio of medians {ratio:.3f} (at least {min_ratio}), of the fastest runs {best:.3f}",
        )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--windows", required=True, help="crownhead.exe")
    p.add_argument("--linux", default=RELEASE_BINARY)
    p.add_argument("--runner", default="wine", help="what runs a Windows program ('' for none)")
    p.add_argument("--perft-depth", type=int, default=9)
    p.add_argument("--bench-runs", type=int, default=1)
    p.add_argument("--min-ratio", type=float, default=0.85)
    p.add_argument("--skip", default="", help="comma-separated: dialogues,stop,perft,bench")
    a = p.parse_args()
    win = shlex.split(a.runner) + [a.windows]
    lin = [a.linux]
    skip = set(a.skip.split(","))
    c = Checks()
    if "dialogues" not in skip:
        dialogues(c, win, lin)
    if "stop" not in skip:
        stopping(c, win)
    if "perft" not in skip:
        perft(c, win, lin, a.perft_depth)
    if "bench" not in skip:
        bench(c, win, lin, a.bench_runs, a.min_ratio)
    print(f"{c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
