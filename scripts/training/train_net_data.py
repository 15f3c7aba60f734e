"""The network trainer's input and output (train_net.py beside this): the self-play data it reads,
the numbers it fits with, the engine it asks for evaluations, and the weights file it writes.

The data files are those of `crownhead selfplay` (docs/SELFPLAY.md), read whole or compressed
with xz. The weights file (version 1, little-endian; src/learned/weights.rs is the engine's
reader): `CHEV`, version u8 (1), variant u8 (an index into VARIANTS), a flags byte (bit 0:
the network is added to the hand-written evaluation; bit 1: the weights are a network), a zero
byte, the logistic scale K (f32), the number of weights (u32), the weights (i16), and a 64-bit
FNV-1a checksum of everything before it.
"""

from __future__ import annotations

import lzma
import os
import struct
import subprocess
import sys

from scripts.lib import venv

# numpy, pinned: scripts/.venv/training on first use.
REQUIREMENTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "requirements.txt")

# The variants as the files number them (the data files' and the weights files' variant byte):
# their order in the engine's `Variant::ALL`.
VARIANTS = ["russian", "english", "brazilian", "pool", "italian", "spanish", "czech"]

# The variants whose PDN numbering is the engine frame's seen in a mirror (files a-h reversed;
# src/notation/mod.rs, `mirror_number`).
MIRRORED = ("italian", "spanish")


def mirror_number(n: int) -> int:
    """Square `n` of the engine's frame as a mirrored numbering names it: each row of four is
    read the other way."""
    row, at = divmod(n - 1, 4)
    return row * 4 + (3 - at) + 1


# The header's flags byte: bit 0 set when the network is a correction added to the
# hand-written evaluation rather than the whole evaluation.
BASE_FLAGS = {"none": 0, "handwritten": 1}


def bootstrap() -> None:
    """Returns if the pinned numpy imports, else makes the virtual environment and runs again
    in it."""
    venv.reexec_into(REQUIREMENTS)


# ------------------------------------------------------------------------------------------
# Reading the data
# ------------------------------------------------------------------------------------------

def read_data(paths: list[str]):
    """The variant, the records (positions) and each record's game number of self-play files
    of one variant; games of different files are numbered apart."""
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
        layout = [("w", "<u4"), ("b", "<u4"), ("k", "<u4"), ("score", "<i2"), ("flags", "u1"),
                  ("ply", "u1")]
        rec = np.frombuffer(body, dtype=np.dtype(layout))
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


def fens(rec, variant: int) -> list[str]:
    """The PDN FEN of each record, in `variant`'s numbering: the files hold the squares of the
    engine's frame (docs/RULES.md), which italian and spanish number mirrored."""
    number = mirror_number if VARIANTS[variant] in MIRRORED else (lambda n: n)
    out = []
    columns = (rec["w"].tolist(), rec["b"].tolist(), rec["k"].tolist(), rec["flags"].tolist())
    for w, b, k, flags in zip(*columns):
        def side(bits):
            return ",".join(("K" if k >> s & 1 else "") + str(number(s + 1))
                            for s in range(32) if bits >> s & 1)
        out.append(f"{'B' if flags & 1 else 'W'}:W{side(w)}:B{side(b)}")
    return out


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


# ------------------------------------------------------------------------------------------
# The engine and the weights file
# ------------------------------------------------------------------------------------------

def engine_evals(binary: str, variant: int, fen_list: list[str], weights: str | None):
    """`crownhead evaluate` of each FEN: the hand-written evaluation, or the learned one."""
    import numpy as np
    args = [binary, "evaluate", "--variant", VARIANTS[variant]]
    if weights:
        args += ["--weights", weights]
    out = subprocess.run(args, input="\n".join(fen_list) + "\n", capture_output=True, text=True,
                         check=True).stdout.split()
    return np.array([float(x) for x in out])


def fnv1a(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def weights_body(data: bytes) -> bytes:
    """A weights file's bytes without the checksum, once the header's name and the checksum
    are checked; ValueError for anything else."""
    if len(data) < 24 or data[:4] != b"CHEV":
        raise ValueError("not a weights file (no CHEV header)")
    body, (stored,) = data[:-8], struct.unpack("<Q", data[-8:])
    if fnv1a(body) != stored:
        raise ValueError("the checksum does not match: the file is cut off or corrupt")
    return body


def read_weights(path):
    """A weights file's variant, flags, scale K and weights (i16, as a numpy array); a file
    that is not a whole, intact weights file of this format stops the script."""
    import numpy as np
    with open(path, "rb") as f:
        data = f.read()
    try:
        body = weights_body(data)
    except ValueError as e:
        sys.exit(f"error: {path}: {e}")
    (k, count) = struct.unpack("<fI", body[8:16])
    if body[4] != 1 or len(body) != 16 + 2 * count:
        sys.exit(f"error: {path} is not a weights file of version 1 and its stated length")
    return body[5], body[6], k, np.frombuffer(body[16:], "<i2").astype(np.int64)


def write_weights(path, variant, k, w, base, extra_flags=0):
    """Writes weights `w` (rounded to i16) in the file format above; `extra_flags` are the
    header's flags beyond the base's bit (the network's bit)."""
    import numpy as np
    ints = np.clip(np.rint(w), -32768, 32767).astype("<i2")
    flags = BASE_FLAGS[base] | extra_flags
    header = b"CHEV" + bytes([1, variant, flags, 0]) + struct.pack("<fI", k, len(ints))
    body = header + ints.tobytes()
    with open(path + ".tmp", "wb") as f:
        f.write(body + struct.pack("<Q", fnv1a(body)))
    os.replace(path + ".tmp", path)
