#!/usr/bin/env python3
"""A tuning pass over the evaluation's terms (Texel's method), driven through the engine itself.

    python3 scripts/tune.py games  --variant russian --games 400 --depth 8 --out /tmp/r.pdn
    python3 scripts/tune.py fit    --variant russian --pdn /tmp/r.pdn [--pdn more.pdn]

`games` plays the engine against itself with `crownhead match` (the built-in openings, each
played with both colours) and saves the games. `fit` replays every game through the engine's
protocol, keeps the quiet positions (the side to move has no capture), reads the evaluation of
each term by term with the protocol's `eval` command, and fits one multiplier per term so that
a logistic curve of the evaluation predicts the game results best (mean squared error, the
material term fixed at 1 so that the scale stays put). It prints the multipliers and the error
before and after; scaling the term's weights in `src/eval.rs` by them is the proposed change,
to be confirmed by a match of the changed engine against the old one (`crownhead match`).

Standard library only. Build the engine first (`cargo build --release`).
"""

from __future__ import annotations

import argparse
import math
import re
import subprocess
import sys

ENGINE = "target/release/crownhead"


def play_games(a: argparse.Namespace) -> None:
    cmd = [a.engine, "match", "--engine", a.engine, "--engine", a.engine,
           "--variant", a.variant, "--depth", str(a.depth), "--games", str(a.games),
           "--concurrency", str(a.concurrency), "--pdn", a.out]
    print(" ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True)


RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5, "2-0": 1.0, "0-2": 0.0, "1-1": 0.5}


def read_pdn(path: str) -> list[tuple[str | None, list[str], float]]:
    """(FEN or None for the start, moves, White's result) of each finished game."""
    games = []
    text = open(path, encoding="utf-8").read()
    for block in re.split(r"\n(?=\[Event )", text):
        headers = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', block, re.M))
        result = RESULTS.get(headers.get("Result", "*"))
        if result is None:
            continue
        body = re.sub(r"^\[.*\]$", "", block, flags=re.M)
        body = re.sub(r"\{[^}]*\}", " ", body)
        moves = [t for t in body.split()
                 if not re.fullmatch(r"\d+\.(\.\.)?|\d+\.\.\.|1-0|0-1|1/2-1/2|2-0|0-2|1-1|\*", t)]
        moves = [re.sub(r"^\d+\.+", "", m) for m in moves]
        games.append((headers.get("FEN"), [m for m in moves if m], result))
    return games


class Engine:
    """The engine's UCI-style dialect over pipes."""

    def __init__(self, binary: str, variant: str):
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send(f"setoption name Variant value {variant}")

    def send(self, line: str) -> None:
        assert self.p.stdin is not None
        self.p.stdin.write(line + "\n")

    def until(self, prefix: str) -> list[str]:
        assert self.p.stdout is not None
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("the engine ended")
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines
            if line.startswith("info string error"):
                sys.exit(line)

    def terms(self, fen: str | None, moves: list[str]) -> tuple[bool, str, list[int]] | None:
        """Whether the position is quiet, the side to move, and the terms from White's view."""
        pos = f"position fen {fen}" if fen else "position startpos"
        self.send(pos + (" moves " + " ".join(moves) if moves else ""))
        self.send("d")
        d = self.until("Legal moves")
        legal = d[-1].split(":", 1)[-1]
        side = next(l.split()[-1] for l in d if l.startswith("Side to move"))
        self.send("eval")
        lines = self.until("total")
        values = [int(l.rsplit(" ", 1)[1]) for l in lines[:-1] if re.search(r" -?\d+$", l)]
        quiet = ":" not in legal and "x" not in legal and legal.strip() != ""
        sign = 1 if side == "white" else -1
        return quiet, side, [sign * v for v in values]

    def close(self) -> None:
        self.send("quit")
        self.p.wait(timeout=10)


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def error(samples, k, scale) -> float:
    return sum((r - sigmoid(scale * sum(ki * t for ki, t in zip(k, terms)))) ** 2
               for terms, r in samples) / len(samples)


def fit(a: argparse.Namespace) -> None:
    games = []
    for path in a.pdn:
        games += read_pdn(path)
    engine = Engine(a.engine, a.variant)
    samples = []
    for gi, (fen, moves, result) in enumerate(games):
        # Skip the opening moves: they come from the book, not from the engine's judgement.
        for ply in range(a.skip, len(moves) + 1):
            quiet, _, terms = engine.terms(fen, moves[:ply])
            if quiet and terms:
                samples.append((terms, result))
        if gi % 50 == 49:
            print(f"{gi + 1}/{len(games)} games, {len(samples)} positions", file=sys.stderr)
    engine.send("eval")
    names = [l.rsplit(" ", 1)[0] for l in engine.until("total")[:-1]]
    engine.close()
    if not samples:
        sys.exit("no positions")
    n = len(samples[0][0])
    # The scale of the logistic: fitted first with every multiplier 1.
    k = [1.0] * n
    best_scale, best = 0.01, 9.0
    for i in range(1, 60):
        s = i * 0.0005
        e = error(samples, k, s)
        if e < best:
            best_scale, best = s, e
    scale = best_scale
    start = best
    print(f"{len(samples)} quiet positions from {len(games)} games; logistic scale {scale:.4f}; "
          f"error {start:.5f}")
    # Coordinate descent on the multipliers, material (term 0) fixed.
    step = 0.25
    while step >= 0.02:
        improved = False
        for t in range(1, n):
            if all(s[0][t] == 0 for s in samples):
                continue
            for delta in (step, -step):
                trial = k[:]
                # Within [0, 4]: a term may be dropped or made stronger, not run away on
                # the noise of a few thousand positions.
                trial[t] = min(4.0, max(0.0, k[t] + delta))
                if trial[t] == k[t]:
                    continue
                e = error(samples, trial, scale)
                if e < best - 1e-7:
                    k, best, improved = trial, e, True
                    break
        if not improved:
            step /= 2
    print(f"error after {best:.5f}")
    for name, m in zip(names or [str(i) for i in range(n)], k):
        print(f"  {name:<18} x{m:.2f}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("games")
    g.add_argument("--variant", default="russian")
    g.add_argument("--games", type=int, default=400)
    g.add_argument("--depth", type=int, default=8)
    g.add_argument("--concurrency", type=int, default=2)
    g.add_argument("--out", required=True)
    g.add_argument("--engine", default=ENGINE)
    f = sub.add_parser("fit")
    f.add_argument("--variant", default="russian")
    f.add_argument("--pdn", action="append", required=True)
    f.add_argument("--skip", type=int, default=8, help="plies of each game not used")
    f.add_argument("--engine", default=ENGINE)
    a = p.parse_args()
    if a.cmd == "games":
        play_games(a)
    else:
        fit(a)


if __name__ == "__main__":
    main()
