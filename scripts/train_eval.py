#!/usr/bin/env python3
"""Fits a pattern evaluation (Scan-style tables over board regions) to self-play data.

    python3 scripts/train_eval.py --data english.bin [--data more.bin] --out english.weights
                                  [--epochs 30] [--lr 0.5] [--l2 1e-6] [--holdout 0.1]
                                  [--lambda 0.5] [--seed 1]

Issue 22, stage 2. Reads data files written by `crownhead selfplay` (docs/SELFPLAY.md), fits the
model below by logistic regression (Adam on minibatches, numpy, in a virtual environment this
script makes: scripts/.venv-train), prints the training and held-out error beside two
baselines (the material count alone, and the search's own score), and writes a weights file.
Reproducible: the split and the minibatches come from `--seed`.

The model (docs/TRAINING.md is the reference the engine's reader must match):
- The position is seen from the side to move: with Black to move, it is turned round (square
  n becomes 33 - n) and the colours swapped, so that "us" moves up the board like White.
- Nine windows of 4x4 squares (8 dark squares each) at file and rank offsets 0, 2 and 4. A
  window's configuration counts its dark squares in increasing PDN order, digit 0 for an empty
  square or a king, 1 for our man, 2 for their man: index = sum of digit_i * 3**i (0-6560).
- Material: our men less theirs, our kings less theirs; king placement: a weight per square
  for our kings, less the same for theirs turned round; a constant (the move's worth).
- Every term but the constant is antisymmetric: the features of the position less those of
  the position with the colours swapped and turned round, so the evaluation of a position and
  of its mirror image with the other side to move differ only by twice the constant.
- Two sets of weights, opening and ending, mixed by the phase: phase = (pieces - 2) / 22,
  clipped to 0-1; a feature counts `phase` times in the opening set and `1 - phase` in the
  ending one.
- The evaluation is in centi-men; the model predicts the side to move's expected score as
  sigmoid(eval / K), with K fitted first so that the search's scores predict the results best.
  The target mixes the game's result and the search's prediction: `--lambda` of the result.

With `--base handwritten` the model is the engine's hand-written evaluation plus the terms
above (fitted as a correction to it, starting from zero): the hand-written knowledge stays and
the tables learn what it misses.

The weights file (version 1, little-endian): `CHEV`, version u8 (1), variant u8 (0 russian,
1 english), a flags byte (bit 0: the tables are added to the hand-written evaluation), a zero
byte, K (f32), the number of weights (u32), the weights (i16, centi-men,
in the order of `layout()`), and a 64-bit FNV-1a checksum of everything before it.
"""

from __future__ import annotations

import argparse
import lzma
import os
import struct
import subprocess
import sys
import time

SCRIPTS_DIR = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, SCRIPTS_DIR)
import venv_helper  # noqa: E402

VENV = os.path.abspath(os.environ.get("CROWNHEAD_TRAIN_VENV") or os.path.join(SCRIPTS_DIR, ".venv-train"))


def bootstrap() -> None:
    """Returns if numpy 2.1.3 imports, else makes the virtual environment and runs again in it."""
    venv_helper.reexec_into(VENV, "numpy", "2.1.3")


# ------------------------------------------------------------------------------------------
# Board geometry
# ------------------------------------------------------------------------------------------

def square_xy(s: int) -> tuple[int, int]:
    """File (0 = a) and rank row (0 = rank 8) of dense square s (PDN number s + 1)."""
    row, col = divmod(s, 4)
    return 2 * col + (1 if row % 2 == 0 else 0), row


def windows() -> list[list[int]]:
    """The nine 4x4 windows, each the sorted list of its 8 dark squares."""
    out = []
    for y0 in (0, 2, 4):
        for x0 in (0, 2, 4):
            sq = [s for s in range(32)
                  if x0 <= square_xy(s)[0] < x0 + 4 and y0 <= square_xy(s)[1] < y0 + 4]
            assert len(sq) == 8, (x0, y0, sq)
            out.append(sq)
    return out


WINDOWS = windows()
CONFIGS = 3 ** 8


def block_offsets() -> dict[str, int]:
    """Where each block of `layout()` starts in the weights."""
    offsets, at = {}, 0
    for name, count in layout():
        offsets[name] = at
        at += count
    return offsets


def layout() -> list[tuple[str, int]]:
    """The weight blocks in file order, each with its size; every block is repeated for the
    opening and then the ending phase, the constant last."""
    blocks = [(f"window{k}", CONFIGS) for k in range(9)]
    blocks += [("men", 1), ("kings", 1), ("king_squares", 32)]
    per_phase = blocks
    return [(f"{name}.{phase}", n) for phase in ("opening", "ending") for name, n in per_phase] + [("tempo", 1)]


# ------------------------------------------------------------------------------------------
# Reading the data
# ------------------------------------------------------------------------------------------

def read_data(paths: list[str]):
    import numpy as np
    variant = None
    chunks, games = [], []
    game_base = 0
    for path in paths:
        # A set kept compressed (`xz`, as a session hands its games to the next) reads as is.
        with (lzma.open(path, "rb") if path.endswith(".xz") else open(path, "rb")) as f:
            raw = f.read()
        if raw[:4] != b"CHSP" or raw[4] != 1:
            sys.exit(f"error: {path} is not a version 1 self-play file")
        v = raw[5]
        if variant is not None and v != variant:
            sys.exit(f"error: {path} holds another variant than the files before it")
        variant = v
        body = raw[16: 16 + (len(raw) - 16) // 16 * 16]
        rec = np.frombuffer(body, dtype=np.dtype([("w", "<u4"), ("b", "<u4"), ("k", "<u4"),
                                                   ("score", "<i2"), ("flags", "u1"), ("ply", "u1")]))
        marker = (rec["w"] == 0) & (rec["b"] == 0)
        # Each position belongs to the game of the last marker before it; games of different
        # files are kept apart for the split.
        game_of = np.cumsum(marker) - 1 + game_base
        game_base = game_of.max() + 1 if len(game_of) else game_base
        chunks.append(rec[~marker])
        games.append(game_of[~marker])
    return variant, np.concatenate(chunks), np.concatenate(games)


def bits(x, n=32):
    """The (len(x), n) 0/1 matrix of the low n bits of each word."""
    import numpy as np
    return ((x[:, None] >> np.arange(n, dtype=np.uint32)) & 1).astype(np.int8)


def features(rec):
    """Sparse features of every position: (index array, value array), each (n, m), where the
    evaluation is sum(weights[index] * value). Also the phase, the side to move's result and the
    search score."""
    import numpy as np
    n = len(rec)
    black_to_move = (rec["flags"] & 1).astype(bool)
    white, black, kings = bits(rec["w"]), bits(rec["b"]), bits(rec["k"])
    # Seen from the side to move: turn round (square s -> 31 - s) and swap when Black moves.
    us = np.where(black_to_move[:, None], black[:, ::-1], white)
    them = np.where(black_to_move[:, None], white[:, ::-1], black)
    kings = np.where(black_to_move[:, None], kings[:, ::-1], kings)
    us_men, them_men = us & (1 - kings), them & (1 - kings)
    us_kings, them_kings = us & kings, them & kings
    # The mirror image: colours swapped and turned round.
    m_us_men, m_them_men = them_men[:, ::-1], us_men[:, ::-1]
    m_us_kings = them_kings[:, ::-1]

    offsets = block_offsets()
    size = sum(count for _, count in layout())

    pieces = us.sum(1) + them.sum(1)
    phase = np.clip((pieces - 2) / 22.0, 0.0, 1.0)
    powers = 3 ** np.arange(8)
    idx_cols, val_cols = [], []
    for p_name, p_val in (("opening", phase), ("ending", 1.0 - phase)):
        for k, sq in enumerate(WINDOWS):
            base = offsets[f"window{k}.{p_name}"]
            own = (us_men[:, sq] + 2 * them_men[:, sq]) @ powers
            mirror = (m_us_men[:, sq] + 2 * m_them_men[:, sq]) @ powers
            idx_cols += [base + own, base + mirror]
            val_cols += [p_val, -p_val]
        men = (us_men.sum(1) - them_men.sum(1)).astype(np.float64)
        kings_d = (us_kings.sum(1) - them_kings.sum(1)).astype(np.float64)
        idx_cols += [np.full(n, offsets[f"men.{p_name}"]), np.full(n, offsets[f"kings.{p_name}"])]
        val_cols += [men * p_val, kings_d * p_val]
        # King squares: up to 12 kings a side; a column per square holding a king of either side.
        base = offsets[f"king_squares.{p_name}"]
        ks = us_kings.astype(np.float64) - m_us_kings.astype(np.float64)
        for s in range(32):
            idx_cols.append(np.full(n, base + s))
            val_cols.append(ks[:, s] * p_val)
    idx_cols.append(np.full(n, offsets["tempo"]))
    val_cols.append(np.ones(n))
    # int32 and float32 halve the memory of the float64 default: 840 bytes a position.
    index = np.stack(idx_cols, 1).astype(np.int32)
    value = np.stack(val_cols, 1).astype(np.float32)
    result_white = ((rec["flags"] >> 1) & 3).astype(np.float64) / 2.0
    result = np.where(black_to_move, 1.0 - result_white, result_white)
    return index, value, size, result, rec["score"].astype(np.float64)


# ------------------------------------------------------------------------------------------
# Fitting
# ------------------------------------------------------------------------------------------

def sigmoid(x):
    import numpy as np
    return 1.0 / (1.0 + np.exp(-np.clip(x, -50, 50)))


def cross_entropy(p, t):
    import numpy as np
    p = np.clip(np.asarray(p, dtype=np.float64), 1e-9, 1 - 1e-9)
    return float(np.mean(-(t * np.log(p) + (1 - t) * np.log(1 - p))))


def fit_scale(score, result):
    """The K for which sigmoid(score / K) predicts the results best (golden-section search)."""
    import numpy as np
    keep = np.abs(score) < 2000
    s, r = score[keep], result[keep]
    lo, hi = 20.0, 2000.0
    for _ in range(60):
        a, b = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
        if cross_entropy(sigmoid(s / a), r) < cross_entropy(sigmoid(s / b), r):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def evaluate(w, index, value, base):
    import numpy as np
    return np.einsum("ij,ij->i", w[index], value) + base


def train(index, value, base, target, start, k, epochs, lr, l2, batch, rng, held, report):
    """Adam on minibatches of the cross-entropy of sigmoid(eval / k) against the target, from
    the weights `start`; returns the weights of the epoch with the least held-out error."""
    import numpy as np
    w = start.copy()
    size = len(w)
    m1, m2 = np.zeros(size), np.zeros(size)
    b1, b2, eps = 0.9, 0.999, 1e-8
    step = 0
    best, best_w = float("inf"), w.copy()
    n = len(target)
    for epoch in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n, batch):
            rows = order[start:start + batch]
            ix, vx = index[rows], value[rows]
            e = np.einsum("ij,ij->i", w[ix], vx) + base[rows]
            # d(cross-entropy)/d(eval) = (sigmoid(eval / k) - target) / k
            g_eval = (sigmoid(e / k) - target[rows]) / k / len(rows)
            grad = np.bincount(ix.ravel(), weights=(vx * g_eval[:, None]).ravel(), minlength=size)
            grad += l2 * w
            step += 1
            m1 = b1 * m1 + (1 - b1) * grad
            m2 = b2 * m2 + (1 - b2) * grad * grad
            w -= lr * (m1 / (1 - b1 ** step)) / (np.sqrt(m2 / (1 - b2 ** step)) + eps)
        loss = held(w)
        report(epoch, w, loss)
        if loss < best:
            best, best_w = loss, w.copy()
    return best_w


def fnv1a(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def write_weights(path, variant, k, w, base, extra_flags=0):
    """Writes weights `w` (rounded to i16) in the file format above; `extra_flags` are the
    header's flags beyond the base's bit (scripts/train_net.py marks its network so)."""
    import numpy as np
    ints = np.clip(np.rint(w), -32768, 32767).astype("<i2")
    flags = BASE_FLAGS[base] | extra_flags
    body = b"CHEV" + bytes([1, variant, flags, 0]) + struct.pack("<fI", k, len(ints)) + ints.tobytes()
    with open(path + ".tmp", "wb") as f:
        f.write(body + struct.pack("<Q", fnv1a(body)))
    os.replace(path + ".tmp", path)


# The header's flags byte: bit 0 set when the tables are a correction added to the
# hand-written evaluation rather than the whole evaluation.
BASE_FLAGS = {"none": 0, "handwritten": 1}


def fens(rec) -> list[str]:
    """The PDN FEN of each record."""
    out = []
    for w, b, k, flags in zip(rec["w"].tolist(), rec["b"].tolist(), rec["k"].tolist(), rec["flags"].tolist()):
        def side(bits):
            return ",".join(("K" if k >> s & 1 else "") + str(s + 1) for s in range(32) if bits >> s & 1)
        out.append(f"{'B' if flags & 1 else 'W'}:W{side(w)}:B{side(b)}")
    return out


def engine_evals(binary: str, variant: int, fen_list: list[str], weights: str | None):
    """`crownhead evaluate` of each FEN: the hand-written evaluation, or the learned one."""
    import numpy as np
    args = [binary, "evaluate", "--variant", "russian" if variant == 0 else "english"]
    if weights:
        args += ["--weights", weights]
    out = subprocess.run(args, input="\n".join(fen_list) + "\n", capture_output=True, text=True,
                         check=True).stdout.split()
    return np.array([float(x) for x in out])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--data", action="append", required=True,
                   help="a self-play file (docs/SELFPLAY.md), or one compressed with xz (.xz)")
    p.add_argument("--out")
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--lr", type=float, default=0.5)
    p.add_argument("--l2", type=float, default=1e-6)
    p.add_argument("--batch", type=int, default=4096)
    p.add_argument("--holdout", type=float, default=0.1)
    p.add_argument("--lambda", dest="lam", type=float, default=0.5,
                   help="weight of the game result in the target (the rest: the search's score)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--base", choices=sorted(BASE_FLAGS), default="none",
                   help="handwritten: fit the tables as a correction added to the engine's "
                        "hand-written evaluation (which then stays in the model); none: the "
                        "tables are the whole evaluation")
    p.add_argument("--binary", default=os.path.join(os.path.dirname(SCRIPTS_DIR), "target", "release", "crownhead"),
                   help="the engine, for the hand-written evaluation's baseline and the check of the weights")
    a = p.parse_args()
    bootstrap()
    import numpy as np

    t0 = time.time()
    variant, rec, game = read_data(a.data)
    index, value, size, result, score = features(rec)
    rng = np.random.default_rng(a.seed)
    # Whole games on one side of the split: a game's positions are alike.
    held_games = rng.random(game.max() + 1) < a.holdout
    held = held_games[game]
    if held.all() or not held.any():
        sys.exit(f"error: {game.max() + 1} games are too few to hold some out and train on the "
                 f"rest (--holdout {a.holdout}): play more")
    k = fit_scale(score[~held], result[~held])
    target = a.lam * result + (1 - a.lam) * sigmoid(score / k)
    print(f"{len(rec)} positions of {game.max() + 1} games ({held.sum()} held out), "
          f"{size} weights; K = {k:.1f}; read in {time.time() - t0:.1f} s", flush=True)

    def errors(e, rows):
        return cross_entropy(sigmoid(e[rows] / k), result[rows])

    offsets = block_offsets()
    # Baselines on the held-out games: a man worth 100 and a king 300; the search's own score.
    men_cols = [j for j in range(index.shape[1]) if index[0, j] in (offsets["men.opening"], offsets["men.ending"])]
    king_cols = [j for j in range(index.shape[1]) if index[0, j] in (offsets["kings.opening"], offsets["kings.ending"])]
    material = 100 * value[:, men_cols].sum(1) + 300 * value[:, king_cols].sum(1)
    sample = np.flatnonzero(held)[:20_000]
    if a.base == "handwritten":
        t1 = time.time()
        base = engine_evals(a.binary, variant, fens(rec), None).astype(np.float32)
        print(f"hand-written evaluation of every position in {time.time() - t1:.0f} s; its "
              f"held-out error {cross_entropy(sigmoid(base[held] / k), result[held]):.5f}", flush=True)
        hand = base[sample].astype(np.float64)
    else:
        base = np.zeros(len(rec), dtype=np.float32)
        hand = engine_evals(a.binary, variant, fens(rec[sample]), None)
    print(f"held-out error (cross-entropy against results): material {errors(material, held):.5f}, "
          f"search score {errors(score, held):.5f}; on {len(sample)} of them, the hand-written "
          f"evaluation {cross_entropy(sigmoid(hand / k), result[sample]):.5f}")

    held_rows = np.flatnonzero(held)
    train_rows = np.flatnonzero(~held)[:200_000]

    def held_error(w):
        return errors_of(w, held_rows)

    def errors_of(w, rows):
        return cross_entropy(sigmoid(evaluate(w, index[rows], value[rows], base[rows]) / k), result[rows])

    def report(epoch, w, loss):
        tr = errors_of(w, train_rows)
        print(f"epoch {epoch + 1:3}: training {tr:.5f}  held-out {loss:.5f}  ({time.time() - t0:.0f} s)",
              flush=True)

    start = np.zeros(size)
    if a.base == "none":
        for phase in ("opening", "ending"):
            start[offsets[f"men.{phase}"]] = 100.0
            start[offsets[f"kings.{phase}"]] = 300.0
    w = train(index[~held], value[~held], base[~held], target[~held], start, k, a.epochs, a.lr,
              a.l2, a.batch, rng, held_error, report)
    print(f"best held-out error {held_error(w):.5f}; man {w[offsets['men.opening']]:.0f}/"
          f"{w[offsets['men.ending']]:.0f}, king {w[offsets['kings.opening']]:.0f}/"
          f"{w[offsets['kings.ending']]:.0f}, tempo {w[offsets['tempo']]:.0f} (opening/ending, centi-men)")
    learned = evaluate(w, index[sample], value[sample], base[sample])
    print(f"on the same {len(sample)}: the learned evaluation {cross_entropy(sigmoid(learned / k), result[sample]):.5f}")
    if a.out:
        write_weights(a.out, variant, k, w, a.base)
        # The engine must read the file as the trainer means it: its evaluation of held-out
        # positions against this script's with the rounded weights.
        rounded = evaluate(np.clip(np.rint(w), -32768, 32767), index[sample], value[sample], base[sample])
        engine = engine_evals(a.binary, variant, fens(rec[sample]), a.out)
        worst = float(np.max(np.abs(engine - rounded))) if len(sample) else 0.0
        print(f"wrote {a.out}; the engine's evaluation of {len(sample)} held-out positions differs "
              f"from the trainer's by at most {worst:.2f} centi-men")
        if worst > 1.0:
            sys.exit("error: the engine does not read the weights as the trainer wrote them")


if __name__ == "__main__":
    main()
