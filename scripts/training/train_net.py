"""Fits a small neural network evaluation to self-play data.

    python3 -m scripts.training.train_net --data english.bin [--data more.bin]
        --out english.weights [--epochs 8] [--lr 0.001] [--batch 1024] [--holdout 0.1]
        [--lambda 0.8] [--base none|handwritten] [--init related.weights] [--seed 1]

Reads data files written by `crownhead selfplay` (docs/SELFPLAY.md), fits the model below
(Adam on minibatches, numpy, in a virtual environment made for it: scripts/.venv/training), prints
the training and held-out error beside the search's own score and the hand-written evaluation,
and writes a weights file that the engine plays (`crownhead --eval-file`, or embedded as
src/learned/<variant>.weights). Reproducible: the split and the minibatches come from `--seed`.
The data reader, the scale fit and the weights file are in train_net_data.py beside this.

The model (src/learned/network.rs is the engine's reading of it and must agree exactly):
- 128 inputs, 0 or 1, seen from the side to move (with Black to move the board is turned
  round, square n becoming 33 - n, and the colours swapped): our men on squares 1-32, their
  men, our kings, their kings. A position and its colour-mirrored twin (the other side to
  move) have the same inputs, so the evaluation is symmetric by construction.
- Two hidden layers of 64 and 32 units, each clipped to 0..1 (clipped ReLU), one output in
  men, times 100: centi-men.
- Beside the network, a linear term: a weight in centi-men for each input (a piece on a
  square), so that material and placement need not pass through the hidden layers.
- With `--base handwritten` the engine's hand-written evaluation is added (the network then
  learns a correction to it).

The engine evaluates in integers, so that the trainer can reproduce its every value. Weights
are rounded: first layer and its biases times 128 (an activation of 1.0 is 128), second
layer times 64 and its biases times 128, the output weights and bias times 1600 (1/16 of a
centi-man); the linear term in centi-men. Then, in integers:
    h1 = clamp(b1 + sum of the first-layer rows of the inputs set, 0, 128)
    h2 = clamp(floor((64 * b2 + h1 . W2) / 64), 0, 128)
    eval = floor((128 * b3 + h2 . W3) / 2048) + sum of the linear weights of the inputs set

The file (`CHEV`, version 1: train_net_data.py) has flags bit 1 set (a network):
W1 (128 rows of 64, row i the input i), b1 (64), W2 (64 rows of 32), b2 (32), W3 (32), b3,
the linear weights (128): 10,497 i16 values.
"""

from __future__ import annotations

import argparse
import sys
import time

from scripts.lib.engine import RELEASE_BINARY
from scripts.training import train_net_data as te

INPUTS, H1, H2 = 128, 64, 32
ONE = 128  # an activation of 1.0 in the engine's integers
W2_SCALE = 64
OUT_SCALE = 1600  # output weights: 100 centi-men a man, 16 steps a centi-man
NETWORK_FLAG = 2  # the file header's flags bit: the weights are this network
# Each parameter's scale to the engine's integers, in `Net.params` (and file) order.
SCALES = [ONE, ONE, W2_SCALE, ONE, OUT_SCALE, OUT_SCALE, 1]


def inputs(rec):
    """The (n, 128) 0/1 inputs of each record, side to move's view."""
    import numpy as np
    black_to_move = (rec["flags"] & 1).astype(bool)
    white, black, kings = te.bits(rec["w"]), te.bits(rec["b"]), te.bits(rec["k"])
    us = np.where(black_to_move[:, None], black[:, ::-1], white)
    them = np.where(black_to_move[:, None], white[:, ::-1], black)
    kings = np.where(black_to_move[:, None], kings[:, ::-1], kings)
    planes = [us & (1 - kings), them & (1 - kings), us & kings, them & kings]
    return np.concatenate(planes, 1).astype(np.float32)


class Net:
    """The network's real-valued weights, and its forward and backward passes."""

    def __init__(self, rng, base_none: bool):
        import numpy as np
        f32 = np.float32
        self.w1 = (rng.standard_normal((INPUTS, H1)) * np.sqrt(2 / INPUTS)).astype(f32)
        self.b1 = np.zeros(H1, f32)
        self.w2 = (rng.standard_normal((H1, H2)) * np.sqrt(2 / H1)).astype(f32)
        self.b2 = np.zeros(H2, f32)
        self.w3 = np.zeros(H2, f32)
        self.b3 = np.zeros(1, f32)
        self.linear = np.zeros(INPUTS, f32)
        if base_none:
            # Start from material: a man 100 centi-men, a king 300.
            self.linear[:] = np.repeat(np.array([100, -100, 300, -300], f32), 32)

    def load(self, path: str, base: str) -> None:
        """Starts from the network of a weights file (a related variant's, say) rather than
        from random weights: the file's integers back to the trainer's scales."""
        _, flags, _, values = te.read_weights(path)
        if not flags & NETWORK_FLAG or (flags & 1) != te.BASE_FLAGS[base]:
            sys.exit(f"error: {path} is not a network with --base {base}")
        params = self.params()
        if len(values) != sum(q.size for q in params):
            sys.exit(f"error: {path} holds {len(values)} weights, not this network's")
        at = 0
        for q, scale in zip(params, SCALES):
            q[...] = (values[at:at + q.size] / scale).reshape(q.shape)
            at += q.size

    def params(self):
        return [self.w1, self.b1, self.w2, self.b2, self.w3, self.b3, self.linear]

    def forward(self, x):
        import numpy as np
        h1 = np.clip(x @ self.w1 + self.b1, 0, 1)
        h2 = np.clip(h1 @ self.w2 + self.b2, 0, 1)
        return 100 * (h2 @ self.w3 + self.b3[0]) + x @ self.linear, (h1, h2)

    def backward(self, x, cache, g):
        """Gradients of the parameters for d(loss)/d(eval) = g, in `params` order."""
        import numpy as np
        h1, h2 = cache
        go = 100 * g
        g_h2 = np.outer(go, self.w3) * ((h2 > 0) & (h2 < 1))
        g_h1 = (g_h2 @ self.w2.T) * ((h1 > 0) & (h1 < 1))
        return [x.T @ g_h1, g_h1.sum(0), h1.T @ g_h2, g_h2.sum(0), h2.T @ go,
                np.array([go.sum()], np.float32), x.T @ g]

    def rounded(self):
        """The integer weights the engine reads, in file order."""
        import numpy as np
        r = lambda a, s: np.clip(np.rint(a * s), -32768, 32767).astype(np.int64)  # noqa: E731
        return [r(q, scale) for q, scale in zip(self.params(), SCALES)]


def integer_eval(q, x):
    """The engine's evaluation (without any base) from rounded weights `q`, exactly."""
    import numpy as np
    w1, b1, w2, b2, w3, b3, linear = q
    xi = x.astype(np.int64)
    h1 = np.clip(xi @ w1 + b1, 0, ONE)
    h2 = np.clip((h1 @ w2 + W2_SCALE * b2) >> 6, 0, ONE)
    return ((h2 @ w3 + ONE * b3[0]) >> 11) + xi @ linear


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--data", action="append", required=True,
                   help="a self-play file (docs/SELFPLAY.md), or one compressed with xz (.xz)")
    p.add_argument("--out")
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--lr", type=float, default=0.001)
    p.add_argument("--batch", type=int, default=1024)
    p.add_argument("--holdout", type=float, default=0.1)
    p.add_argument("--lambda", dest="lam", type=float, default=0.8,
                   help="weight of the game result in the target (the rest: the search's score)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--base", choices=sorted(te.BASE_FLAGS), default="none",
                   help="handwritten: the network corrects the engine's hand-written evaluation")
    p.add_argument("--init", help="start from this weights file's network (of any variant: "
                   "a related variant's, fitted further on this variant's games)")
    p.add_argument("--binary", default=RELEASE_BINARY,
                   help="the engine, for the hand-written evaluation and the check of the weights")
    a = p.parse_args()
    te.bootstrap()
    import numpy as np

    t0 = time.time()
    variant, rec, game = te.read_data(a.data)
    x = inputs(rec)
    black_to_move = (rec["flags"] & 1).astype(bool)
    result_white = ((rec["flags"] >> 1) & 3).astype(np.float64) / 2.0
    result = np.where(black_to_move, 1.0 - result_white, result_white)
    score = rec["score"].astype(np.float64)
    rng = np.random.default_rng(a.seed)
    # Whole games on one side of the split: a game's positions are alike.
    held = (rng.random(game.max() + 1) < a.holdout)[game]
    if held.all() or not held.any():
        sys.exit(f"error: {game.max() + 1} games are too few to hold some out and train on the "
                 f"rest (--holdout {a.holdout}): play more")
    k = te.fit_scale(score[~held], result[~held])
    target = (a.lam * result + (1 - a.lam) * te.sigmoid(score / k)).astype(np.float32)
    if a.base == "handwritten":
        base = te.engine_evals(a.binary, variant, te.fens(rec, variant), None).astype(np.float32)
    else:
        base = np.zeros(len(rec), np.float32)
    print(f"{len(rec)} positions of {game.max() + 1} games ({held.sum()} held out); K = {k:.1f}; "
          f"read in {time.time() - t0:.0f} s", flush=True)

    def error(e, rows):
        return te.cross_entropy(te.sigmoid(e / k), result[rows])

    held_rows = np.flatnonzero(held)
    sample = held_rows[:20_000]
    hand = te.engine_evals(a.binary, variant, te.fens(rec[sample], variant), None)
    print("held-out error (cross-entropy against results): search score "
          f"{error(score[held], held):.5f}; on {len(sample)} of them the hand-written "
          f"evaluation {error(hand, sample):.5f}", flush=True)

    net = Net(rng, a.base == "none")
    if a.init:
        net.load(a.init, a.base)

    def rows_error(rows):
        e = np.concatenate([net.forward(x[rows[i:i + 65536]])[0]
                            for i in range(0, len(rows), 65536)])
        return error(e + base[rows], rows)

    # With --init, the network as it came is the one to beat: no epoch that does worse is kept.
    start_loss = rows_error(held_rows) if a.init else float("inf")
    if a.init:
        print(f"held-out error of {a.init} as it is: {start_loss:.5f}", flush=True)
    params = net.params()
    m1 = [np.zeros_like(q) for q in params]
    m2 = [np.zeros_like(q) for q in params]
    step = 0
    train_rows = np.flatnonzero(~held)
    # The training error is reported on a fixed sample (the whole set would cost as much as
    # an epoch's forward passes): beside the held-out error it shows over-fitting. It has a
    # generator of its own, so that the fit itself is the one the seed gave before.
    sample_rng = np.random.default_rng([a.seed, 1])
    train_sample = sample_rng.choice(train_rows, min(len(train_rows), 200_000), replace=False)
    best, best_params = start_loss, [q.copy() for q in params]
    for epoch in range(a.epochs):
        # The last quarter of the epochs at a tenth of the rate settles the weights.
        lr = a.lr if epoch < a.epochs - max(1, a.epochs // 4) else a.lr / 10
        order = rng.permutation(train_rows)
        for s in range(0, len(order), a.batch):
            rows = order[s:s + a.batch]
            xb = x[rows]
            e, cache = net.forward(xb)
            g = (te.sigmoid((e + base[rows]) / k) - target[rows]) / k / len(rows)
            g = g.astype(np.float32)
            grads = net.backward(xb, cache, g)
            step += 1
            for i, (q, gq) in enumerate(zip(params, grads)):
                m1[i] = 0.9 * m1[i] + 0.1 * gq
                m2[i] = 0.999 * m2[i] + 0.001 * gq * gq
                # The linear weights are centi-men, the others near 1: a rate in proportion.
                rate = lr * 100 if i == len(params) - 1 else lr
                q -= (rate * (m1[i] / (1 - 0.9 ** step))
                      / (np.sqrt(m2[i] / (1 - 0.999 ** step)) + 1e-8))
        loss = rows_error(held_rows)
        print(f"epoch {epoch + 1:3}: training {rows_error(train_sample):.5f}, held-out {loss:.5f}  "
              f"(rate {lr:g}, {time.time() - t0:.0f} s)", flush=True)
        if loss < best:
            best, best_params = loss, [q.copy() for q in params]
    for q, b in zip(params, best_params):
        q[...] = b
    q = net.rounded()
    rounded = np.concatenate([integer_eval(q, x[held_rows[i:i + 65536]])
                              for i in range(0, len(held_rows), 65536)])
    print(f"best held-out error {best:.5f}; with the engine's integer weights "
          f"{error(rounded + base[held_rows], held_rows):.5f}; the network on the {len(sample)} "
          f"positions the hand-written evaluation was measured on (above) "
          f"{error(integer_eval(q, x[sample]) + base[sample], sample):.5f}")
    if a.out:
        values = np.concatenate([v.ravel() for v in q])
        te.write_weights(a.out, variant, k, values, a.base, extra_flags=NETWORK_FLAG)
        expected = integer_eval(q, x[sample]) + base[sample]
        engine = te.engine_evals(a.binary, variant, te.fens(rec[sample], variant), a.out)
        worst = float(np.max(np.abs(engine - expected))) if len(sample) else 0.0
        print(f"wrote {a.out} ({len(values)} weights); the engine's evaluation of {len(sample)} "
              f"held-out positions differs from the trainer's by at most {worst:.0f} centi-men")
        if worst != 0:
            sys.exit("error: the engine does not read the network as the trainer wrote it")


if __name__ == "__main__":
    main()
