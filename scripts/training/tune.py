"""A tuning pass over the evaluation's terms (Texel's method), driven through the engine itself.

    python3 -m scripts.training.tune games  --variant russian --games 400 --depth 8 --out /tmp/r.pdn
    python3 -m scripts.training.tune fit    --variant russian --pdn /tmp/r.pdn [--pdn more.pdn]
                                            [--holdout 0.2] [--bounds 0.5 2.0]
    python3 -m scripts.training.tune squares --variant english --pdn /tmp/e.pdn [--pdn more.pdn]
                                            [--tables men men+kings] [--l2 3e-7 1e-6] [--cache F]

`games` plays the engine against itself with `crownhead match` (the built-in openings or
`--openings`, each played with both colours; at a fixed depth, or at `--movetime`, whose games
vary with the timing) and saves the games. `fit` reads the games, drops repeated ones (at a
fixed depth the two colours of an opening give the same game), replays each through the engine's
protocol (`position ... moves`, `d`), keeps the quiet positions (the side to move has no
capture, and not a dead draw, which scores 0 whatever the weights), reads the hand-written
evaluation of each term by term from `crownhead evaluate --json` (whichever evaluation plays:
the terms are the hand-written one's), and fits one multiplier per term so that a logistic curve
of the evaluation predicts the game results best (mean squared error, the material term fixed at
1 so that the scale stays put).

Overfitting is held off in four ways. A fraction of the games (`--holdout`, default 0.2) is kept
out of the fit: a game is held out by a hash of its opening (its FEN and the moves up to the
match's "end of opening" comment), so the split is the same from run to run and games of one
opening, which share their first positions, never sit on both sides. The multipliers stay within
`--bounds` (default 0.5 to 2). A term not zero in enough training positions (`--min-positions`,
default 500) keeps 1. And the fit (coordinate descent on the training error) returns the
multipliers of the sweep with the least held-out error, not the last.

It prints the error on the training and the held-out positions before and after, the path of
sweeps, how much the held-out error fell with its standard error (games as the units), and per
term the multiplier and the positions where the term is not zero. Scaling the term's weights in
`src/eval/handwritten/weights.rs` by them is the proposed change, to be confirmed by a match of
the changed engine against the old one (`crownhead match`).

`squares` fits weights by square instead: the men's table (`Weights::man_square`) and, with
`--tables men+kings`, the kings' (the "king placement" term). It replays the same quiet
positions with the same held-out games, reads the engine's present weights by square from the
terms of one piece against one, and fits the tables, a weight per square seen from the piece's
own side (a White piece on square n and a Black piece on 33 - n count with opposite signs), by
Gauss-Newton steps on the diagonal with the rest of the evaluation fixed. `--l2` pulls the
weights toward the engine's present ones: the fit minimises the mean squared error plus that
weight times the sum of the squared distances in centi-men (one fit per value; the larger, the
closer they stay). The answer is the step with the least held-out error, rounded to centi-men,
printed in `src/eval/handwritten/weights.rs`'s layout (rank 8 first) with the held-out error
gained and its standard error. `--cache` keeps the positions for another fit of the same games.

Standard library only. Build the engine first (`cargo build --release`).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import zlib
from typing import Callable

from scripts.lib.engine import RELEASE_BINARY as ENGINE
from scripts.lib.engine import Engine


def play_games(a: argparse.Namespace) -> None:
    limit = ["--movetime", str(a.movetime)] if a.movetime else ["--depth", str(a.depth)]
    cmd = [a.engine, "match", "--engine", a.engine, "--engine", a.engine,
           "--variant", a.variant, *limit, "--games", str(a.games),
           "--concurrency", str(a.concurrency), "--pdn", a.out]
    if a.openings:
        cmd += ["--openings", a.openings]
    print(" ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True)


RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5, "2-0": 1.0, "0-2": 0.0, "1-1": 0.5}


def read_pdn(path: str) -> list[tuple[str | None, list[str], float, int | None]]:
    """(FEN or None for the start, moves, White's result, plies of the opening or None if the
    game does not mark its end) of each finished game."""
    games = []
    text = open(path, encoding="utf-8").read()
    for block in re.split(r"\n(?=\[Event )", text):
        headers = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', block, re.M))
        result = RESULTS.get(headers.get("Result", "*"))
        if result is None:
            continue
        body = re.sub(r"^\[.*\]$", "", block, flags=re.M)
        book = None
        if "{end of opening" in body:
            book = len(moves_of(body.split("{end of opening", 1)[0]))
        games.append((headers.get("FEN"), moves_of(body), result, book))
    return games


def moves_of(body: str) -> list[str]:
    body = re.sub(r"\{[^}]*\}", " ", body)
    moves = [t for t in body.split()
             if not re.fullmatch(r"\d+\.(\.\.)?|\d+\.\.\.|1-0|0-1|1/2-1/2|2-0|0-2|1-1|\*", t)]
    return [m for m in (re.sub(r"^\d+\.+", "", m) for m in moves) if m]


def held_out(fen: str | None, moves: list[str], book: int | None, skip: int,
             fraction: float) -> bool:
    """Whether a game is in the held-out set: by a hash of its opening, so the same games are
    held out on every run and games of one opening fall on the same side."""
    opening = (fen or "start") + " " + " ".join(moves[:skip if book is None else book])
    return zlib.crc32(opening.encode()) % 10000 < fraction * 10000


def position_after(engine: Engine, fen: str | None, moves: list[str]) -> tuple[bool, str]:
    """Whether the side to move has a move and no capture, and the position's FEN, after `moves`
    from `fen` (None: the start position)."""
    errors, fields = engine.show(fen, moves)
    if errors:
        sys.exit(f"the engine refused {' '.join(moves)} from {fen or 'the start'}: {errors[0]}")
    legal = fields.get("Legal moves", "")
    quiet = legal.strip() != "" and ":" not in legal and "x" not in legal
    return quiet, fields["FEN"]


def evaluate_terms(binary: str, variant: str, fens: list[str]) -> list[dict[str, int]]:
    """The hand-written evaluation of each FEN term by term, from White's view, read from
    `crownhead evaluate --json` (a dead draw has a term "dead draw" cancelling the rest)."""
    out = subprocess.run([binary, "evaluate", "--json", "--variant", variant],
                         input="".join(f + "\n" for f in fens), capture_output=True, text=True)
    lines = out.stdout.splitlines()
    if out.returncode != 0 or len(lines) != len(fens):
        sys.exit(f"`{binary} evaluate --json` failed: {out.stderr.strip() or lines[-1:]}")
    terms = []
    for fen, line in zip(fens, lines):
        if line.startswith("error:"):
            sys.exit(f"{fen}: {line}")
        sign = 1 if fen.startswith("W") else -1
        terms.append({name: sign * v for name, v in json.loads(line)["terms"].items()})
    return terms


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


class Samples:
    """Positions as columns, one per term, with each position's weighted sum kept up to date so
    that trying one multiplier costs one pass over one column."""

    def __init__(self, samples: list[tuple[list[int], float, int]], n: int):
        self.cols = [[s[0][t] for s in samples] for t in range(n)]
        self.results = [s[1] for s in samples]
        self.games = [s[2] for s in samples]
        self.sums = [float(sum(s[0])) for s in samples]

    def __len__(self) -> int:
        return len(self.results)

    def error(self, scale: float, t: int = 0, delta: float = 0.0) -> float:
        """Mean squared error, with term `t`'s multiplier moved by `delta`."""
        return sum((r - sigmoid(scale * (x + delta * v))) ** 2
                   for x, v, r in zip(self.sums, self.cols[t], self.results)) / len(self)

    def nonzero(self, t: int) -> int:
        """The positions where term `t` is not zero."""
        return sum(1 for v in self.cols[t] if v)

    def move(self, t: int, delta: float) -> None:
        self.sums = [x + delta * v for x, v in zip(self.sums, self.cols[t])]

    def gain(self, scale: float, before: list[float], after: list[float]) -> tuple[float, float]:
        """How much less the error is with `after` than with `before`, and its standard error
        with the games as the independent units (a game's positions are not independent)."""
        def evals(k: list[float]) -> list[float]:
            return [sum(m * col[i] for m, col in zip(k, self.cols)) for i in range(len(self))]
        return error_gain(scale, evals(before), evals(after), self.results, self.games)


def logistic_scale(error: Callable[[float], float]) -> float:
    """The scale of the logistic that makes `error` least: a coarse search, then a fine one
    around the coarse best."""
    scale = min((i * 0.0005 for i in range(1, 60)), key=error)
    return min((scale + i * 0.00005 for i in range(-9, 10)), key=error)


def error_gain(scale: float, before: list[float], after: list[float], results: list[float],
         games: list[int]) -> tuple[float, float]:
    """How much less the mean squared error is with the evaluations `after` than `before`, and
    its standard error with the games as the units."""
    by_game: dict[int, float] = {}
    for x0, x1, r, g in zip(before, after, results, games):
        d = (r - sigmoid(scale * x0)) ** 2 - (r - sigmoid(scale * x1)) ** 2
        by_game[g] = by_game.get(g, 0.0) + d
    d = list(by_game.values())
    mean = sum(d) / len(d)
    var = sum((x - mean) ** 2 for x in d) / max(1, len(d) - 1)
    return sum(d) / len(results), math.sqrt(len(d) * var) / len(results)


Sample = tuple[list[int], float, int, str]


def replay(a: argparse.Namespace) -> tuple[list[Sample], list[Sample], list[str]]:
    """The quiet positions of the games of `a.pdn` (repeated games dropped) as training and
    held-out samples, (terms from White's view, White's result, game index, FEN), and the names
    of the terms."""
    games, seen, read = [], set(), 0
    for path in a.pdn:
        for g in read_pdn(path):
            read += 1
            key = (g[0], tuple(g[1]))
            if key not in seen:
                seen.add(key)
                games.append(g)
    # Each game replayed through the engine's protocol, for its quiet positions.
    positions: list[tuple[str, float, int, bool]] = []
    held_games = 0
    with Engine.uci(a.engine, variant=a.variant) as engine:
        for gi, (fen, moves, result, book) in enumerate(games):
            out = held_out(fen, moves, book, a.skip, a.holdout)
            held_games += out
            # Skip the opening moves: they come from the book, not from the engine's judgement.
            for ply in range(a.skip, len(moves) + 1):
                quiet, fen_now = position_after(engine, fen, moves[:ply])
                if quiet:
                    positions.append((fen_now, result, gi, out))
            if gi % 100 == 99:
                print(f"{gi + 1}/{len(games)} games, {len(positions)} positions",
                      file=sys.stderr)
    # Then their terms, all at once; a dead draw scores 0 whatever the weights: not a sample.
    terms = evaluate_terms(a.engine, a.variant, [p[0] for p in positions])
    names = [name for name in (terms[0] if terms else {}) if name != "dead draw"]
    train: list[Sample] = []
    test: list[Sample] = []
    for (fen_now, result, gi, out), t in zip(positions, terms):
        if "dead draw" not in t:
            (test if out else train).append(([t[n] for n in names], result, gi, fen_now))
    if not train or not test:
        sys.exit("no positions to fit or none held out")
    print(f"{read} games read, {len(games)} distinct; training {len(games) - held_games} games "
          f"({len(train)} quiet positions), held out {held_games} games ({len(test)} positions)")
    return train, test, names


def fit(a: argparse.Namespace) -> None:
    train, test, names = replay(a)
    n = len(train[0][0])
    tr, te = Samples(train, n), Samples(test, n)
    # The scale of the logistic: fitted first on the training positions, every multiplier 1.
    scale = logistic_scale(tr.error)
    k = [1.0] * n
    start = (tr.error(scale), te.error(scale))
    print(f"logistic scale {scale:.5f}; error before: training {start[0]:.5f}, "
          f"held out {start[1]:.5f}")
    # Coordinate descent on the multipliers, material (term 0) fixed, within the bounds; after
    # each sweep the held-out error, and the multipliers of the best sweep are the answer.
    lo, hi = a.bounds
    best_k, best = k[:], start
    step, sweep = 0.25, 0
    train_error = start[0]
    print("  sweep  step   training  held out")
    while step >= 0.02:
        improved = False
        for t in range(1, n):
            if tr.nonzero(t) < a.min_positions:
                continue
            for delta in (step, -step):
                new = min(hi, max(lo, k[t] + delta))
                if new == k[t]:
                    continue
                e = tr.error(scale, t, new - k[t])
                if e < train_error - 1e-7:
                    tr.move(t, new - k[t])
                    te.move(t, new - k[t])
                    k[t], train_error, improved = new, e, True
                    break
        if improved:
            sweep += 1
            held = te.error(scale)
            print(f"  {sweep:5}  {step:.3f}  {train_error:.5f}   {held:.5f}")
            if held < best[1]:
                best_k, best = k[:], (train_error, held)
        else:
            step /= 2
    print(f"error after (sweep with the least held-out error): training {best[0]:.5f}, "
          f"held out {best[1]:.5f}; at the last sweep: training {train_error:.5f}, held out "
          f"{te.error(scale):.5f}")
    gain, se = te.gain(scale, [1.0] * n, best_k)
    print(f"held-out error gained {gain:.5f} +- {se:.5f} (one standard error, games as units)")
    print(f"  {'term':<18} {'multiplier':>10}  {'last sweep':>10}  {'non-zero in':>11}")
    for t, name in enumerate(names or [str(i) for i in range(n)]):
        nonzero = tr.nonzero(t) + te.nonzero(t)
        print(f"  {name:<18} {'x%.2f' % best_k[t]:>10}  {'x%.2f' % k[t]:>10}  "
              f"{nonzero:>11}")


def fen_pieces(fen: str) -> dict[str, list[int]]:
    """The squares of White's men and kings and Black's ("W", "WK", "B", "BK") of a FEN."""
    out: dict[str, list[int]] = {"W": [], "WK": [], "B": [], "BK": []}
    for group in fen.split(":")[1:]:
        for item in filter(None, group[1:].split(",")):
            kind = group[0] + ("K" if item.startswith("K") else "")
            lo, _, hi = item.lstrip("K").partition("-")
            out[kind] += range(int(lo), int(hi or lo) + 1)
    return out


def engine_table(binary: str, variant: str, term: str, king: bool) -> list[float]:
    """The engine's weights by square from White's side (square n at index n - 1) of a man, or
    of a king: the term `term` of one White piece against one black piece that the term does
    not count (a king against a man, a man against a king). A man has no weight on the
    crowning row."""
    squares = [n for n in range(1, 33) if king or n > 4]
    fens = [f"W:W{'K' if king else ''}{n}:" + (f"B{6 if n == 5 else 5}" if king
                                                 else f"BK{2 if n == 1 else 1}")
            for n in squares]
    values = dict(zip(squares, evaluate_terms(binary, variant, fens)))
    return [float(values[n][term]) if n in values else 0.0 for n in range(1, 33)]


class SquareSamples:
    """Positions for the fit of the tables by square: each one's evaluation without the fitted
    terms, and its pieces as table indices, + for White's, - for Black's turned round (square n
    becomes 33 - n); men at 0-31, kings at 32-63."""

    def __init__(self, samples: list[Sample], drop: list[int], kings: bool):
        self.base, self.plus, self.minus = [], [], []
        self.results = [s[1] for s in samples]
        self.games = [s[2] for s in samples]
        for terms, _, _, fen in samples:
            self.base.append(float(sum(terms) - sum(terms[t] for t in drop)))
            p = fen_pieces(fen)
            plus = [n - 1 for n in p["W"]] + ([31 + n for n in p["WK"]] if kings else [])
            minus = [32 - n for n in p["B"]] + ([64 - n for n in p["BK"]] if kings else [])
            # A white and a black piece on the same square of their own sides cancel.
            both = set(plus) & set(minus)
            self.plus.append(tuple(i for i in plus if i not in both))
            self.minus.append(tuple(i for i in minus if i not in both))

    def __len__(self) -> int:
        return len(self.results)

    def evals(self, w: list[float]) -> list[float]:
        get = w.__getitem__
        return [b + sum(map(get, p)) - sum(map(get, m))
                for b, p, m in zip(self.base, self.plus, self.minus)]

    def error(self, w: list[float], scale: float) -> float:
        return sum((r - sigmoid(scale * x)) ** 2
                   for x, r in zip(self.evals(w), self.results)) / len(self)

    def gradient(self, w: list[float], scale: float) -> tuple[list[float], list[float]]:
        """The gradient of the mean squared error and the diagonal of its Gauss-Newton
        Hessian."""
        g, h = [0.0] * len(w), [0.0] * len(w)
        for x, r, plus, minus in zip(self.evals(w), self.results, self.plus, self.minus):
            q = sigmoid(scale * x)
            slope = scale * q * (1 - q)
            c, cc = -2 * (r - q) * slope, 2 * slope * slope
            for i in plus:
                g[i] += c
                h[i] += cc
            for i in minus:
                g[i] -= c
                h[i] += cc
        n = len(self)
        return [v / n for v in g], [v / n for v in h]

    def gain(self, scale: float, before: list[float], after: list[float]) -> tuple[float, float]:
        """As `Samples.gain`: the fall in the error and its standard error, games as units."""
        return error_gain(scale, self.evals(before), self.evals(after), self.results, self.games)


def fit_table(tr: SquareSamples, te: SquareSamples, scale: float, w0: list[float], lam: float,
              iterations: int) -> list[float]:
    """Gauss-Newton steps on the diagonal, with a step length halved until the training error
    (plus `lam` times the squared distance to `w0`) falls; the weights of the step with the
    least held-out error are the answer."""
    def loss(w: list[float]) -> float:
        return tr.error(w, scale) + lam * sum((a - b) ** 2 for a, b in zip(w, w0))
    w, eta = w0[:], 1.0
    current = loss(w)
    best_w, best = w[:], te.error(w, scale)
    print("  step  length   training  held out")
    for it in range(1, iterations + 1):
        g, h = tr.gradient(w, scale)
        g = [gi + 2 * lam * (a - b) for gi, a, b in zip(g, w, w0)]
        h = [hi + 2 * lam for hi in h]
        while eta > 1e-3:
            trial = [a - eta * gi / hi for a, gi, hi in zip(w, g, h)]
            e = loss(trial)
            if e < current:
                break
            eta /= 2
        else:
            break
        gained = current - e
        w, current, eta = trial, e, min(1.0, eta * 1.5)
        held = te.error(w, scale)
        print(f"  {it:4}  {eta:.3f}   {tr.error(w, scale):.6f}  {held:.6f}", flush=True)
        if held < best:
            best_w, best = w[:], held
        if gained < 1e-9:
            break
    return best_w


def print_table(name: str, w: list[float]) -> None:
    print(f"  {name}: [")
    for row in range(8):
        print("      [" + ", ".join(str(round(v)) for v in w[4 * row:4 * row + 4]) + "],")
    print("  ],")


def squares(a: argparse.Namespace) -> None:
    if a.cache and os.path.exists(a.cache):
        with open(a.cache, encoding="utf-8") as f:
            train, test, names, w0 = json.load(f)
    else:
        train, test, names = replay(a)
        w0 = (engine_table(a.engine, a.variant, "man squares", False)
              + engine_table(a.engine, a.variant, "king placement", True))
        if a.cache:
            with open(a.cache, "w", encoding="utf-8") as f:
                json.dump([train, test, names, w0], f)
    man_term, king_term = names.index("man squares"), names.index("king placement")
    totals = [float(sum(s[0])) for s in train]
    results = [s[1] for s in train]

    def total_error(scale: float) -> float:
        return sum((r - sigmoid(scale * x)) ** 2 for x, r in zip(totals, results)) / len(totals)
    scale = logistic_scale(total_error)
    print(f"logistic scale {scale:.5f}")
    print_table("men now", w0[:32])
    print_table("kings now", w0[32:])
    for tables in a.tables:
        kings = tables == "men+kings"
        drop = [man_term] + ([king_term] if kings else [])
        tr, te = SquareSamples(train, drop, kings), SquareSamples(test, drop, kings)
        start = w0 if kings else w0[:32]
        for lam in a.l2:
            print(f"\n{tables}, L2 {lam:g} toward the engine's weights: error before: training "
                  f"{tr.error(start, scale):.6f}, held out {te.error(start, scale):.6f}")
            w = fit_table(tr, te, scale, start, lam, a.iterations)
            rounded = [float(round(v)) for v in w]
            print(f"rounded: training {tr.error(rounded, scale):.6f}, held out "
                  f"{te.error(rounded, scale):.6f}")
            gain, se = te.gain(scale, start, rounded)
            print(f"held-out error gained {gain:.6f} +- {se:.6f} (rounded weights; one standard "
                  f"error, games as units)")
            print_table("man_square", w[:32])
            if kings:
                print_table("king_square", w[32:])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("games")
    g.add_argument("--variant", default="russian")
    g.add_argument("--games", type=int, default=400)
    g.add_argument("--depth", type=int, default=8)
    g.add_argument("--movetime", type=int, help="milliseconds per move instead of a depth")
    g.add_argument("--openings", help="opening file instead of the built-in set")
    g.add_argument("--concurrency", type=int, default=2)
    g.add_argument("--out", required=True)
    g.add_argument("--engine", default=ENGINE)
    # The options of the two fits that read games: which games, and how they are replayed.
    replayed = argparse.ArgumentParser(add_help=False)
    replayed.add_argument("--variant", default="russian")
    replayed.add_argument("--pdn", action="append", required=True)
    replayed.add_argument("--skip", type=int, default=8, help="plies of each game not used")
    replayed.add_argument("--holdout", type=float, default=0.2,
                          help="fraction of the games held out of the fit (by their opening)")
    replayed.add_argument("--engine", default=ENGINE)
    f = sub.add_parser("fit", parents=[replayed])
    f.add_argument("--bounds", type=float, nargs=2, default=[0.5, 2.0], metavar=("LO", "HI"),
                   help="least and greatest multiplier")
    f.add_argument("--min-positions", type=int, default=500,
                   help="a term not zero in fewer training positions keeps its multiplier 1")
    q = sub.add_parser("squares", parents=[replayed])
    q.add_argument("--tables", nargs="+", default=["men"], choices=["men", "men+kings"],
                   help="the tables to fit, each choice a fit of its own")
    q.add_argument("--l2", type=float, nargs="+", default=[3e-7],
                   help="weights of the pull toward the engine's tables, one fit each")
    q.add_argument("--iterations", type=int, default=60)
    q.add_argument("--cache", help="a file to keep the positions in (read if it exists) for "
                   "further fits: same games, same engine")
    a = p.parse_args()
    if a.cmd == "games":
        play_games(a)
    elif a.cmd == "fit":
        fit(a)
    else:
        squares(a)


if __name__ == "__main__":
    main()
