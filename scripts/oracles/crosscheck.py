"""Cross-check Crownhead's legal move generator against pydraughts 0.6.7.

The script plays seeded random games with pydraughts (an independent Python draughts library) in
the ``russian``, ``english``, ``brazilian`` and ``italian`` variants, collects the distinct
positions met, and for each one compares pydraughts' legal moves with Crownhead's, as sets of
full jump paths in the docs/RULES.md numbering (quiet ``11-15``, capture ``22x15x6``: every
landing square).  Crownhead is run once per variant as ``crownhead moves --variant V --paths``
with one PDN FEN per stdin line.

Usage (from the repository root; only python3 is needed, the script makes its own venv):

    python3 -m scripts.oracles.crosscheck               # all four variants, 2000 positions each
    python3 -m scripts.oracles.crosscheck --positions 300 --seed 7 --variant russian
    python3 -m scripts.oracles.crosscheck --engine path/to/crownhead
    python3 -m scripts.oracles.crosscheck --self-test   # pydraughts side only, no engine needed

On the first run it creates a virtual environment (``scripts/.venv/oracles-pydraughts``),
installs ``requirements-pydraughts.txt`` (``pydraughts==0.6.7``) from PyPI into it and
re-executes itself there; later runs reuse it.

Output: every mismatching position (FEN, moves only in pydraughts, moves only in Crownhead), then
one summary line per variant.  Exit status: 0 all agree, 1 mismatches, 2 Crownhead failed
(missing binary, crash, ``error:`` lines, wrong number of output lines) or self-test failure.

``--self-test`` checks the pydraughts side against docs/RULES.md: the start position move lists,
perft from the start positions, the docs/RULES.md rule positions, FEN round trips, and the frame
conversion used here against pydraughts' own public API on random-game positions.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time

from scripts.lib.engine import RELEASE_BINARY
from scripts.oracles import pydraughts_bridge as pb  # standard library only at import time


# --------------------------------------------------------------------------------------------
# Positions from random games
# --------------------------------------------------------------------------------------------

def random_positions(gen: "pb.Generator", count: int, seed: int, max_plies: int):
    """Distinct positions from seeded uniformly random games, each with pydraughts' moves.

    Returns (positions, games), positions being a list of (FEN in the docs/RULES.md frame, list of
    PdMove).  Games start from the variant's start position and end when the side to move has no
    move or after ``max_plies`` plies.  Positions in which a side has no pieces at all are
    skipped (the game is over; nothing to cross-check).
    """
    rng = random.Random(f"crownhead-crosscheck:{gen.variant}:{seed}")
    start = gen.hub(pb.START_FENS[gen.variant])
    seen = set()
    out = []
    games = 0
    while len(out) < count:
        games += 1
        hub = start
        for _ in range(max_plies):
            moves = gen.legal_moves(hub)
            board = hub[1:]
            if hub not in seen and "w" in board.lower() and "b" in board.lower():
                seen.add(hub)
                out.append((gen.fen(hub), moves))
                if len(out) >= count:
                    break
            if not moves:
                break
            hub = gen.play(hub, rng.choice(moves))
    return out, games


# --------------------------------------------------------------------------------------------
# Crownhead
# --------------------------------------------------------------------------------------------

class EngineFailure(Exception):
    pass


def crownhead_moves(binary: str, variant: str, fens, timeout: float):
    """Run ``crownhead moves --variant V --paths`` on the FENs; one list of tokens per FEN."""
    if not os.path.isfile(binary):
        raise EngineFailure(f"Crownhead binary not found: {binary} (build it with "
                            "`cargo build --release` or pass --engine PATH)")
    cmd = [binary, "moves", "--variant", variant, "--paths"]
    try:
        proc = subprocess.run(cmd, input="".join(f + "\n" for f in fens), capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise EngineFailure(f"`{' '.join(cmd)}` timed out after {timeout:.0f}s")
    except OSError as exc:
        raise EngineFailure(f"cannot run `{' '.join(cmd)}`: {exc}")
    if proc.returncode != 0:
        raise EngineFailure(f"`{' '.join(cmd)}` exited with status {proc.returncode}; "
                            f"stderr: {proc.stderr.strip()[-2000:]}")
    lines = proc.stdout.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) != len(fens):
        raise EngineFailure(f"`{' '.join(cmd)}` printed {len(lines)} lines for {len(fens)} FENs; "
                            f"stderr: {proc.stderr.strip()[-2000:]}")
    return lines


def check_variant(args, variant: str) -> tuple:
    """Cross-check one variant; returns (mismatches, engine_errors)."""
    if not os.path.isfile(args.engine):
        print(f"{variant}: ERROR Crownhead binary not found: {args.engine} "
              "(build it with `cargo build --release` or pass --engine PATH)")
        return 0, 1
    t0 = time.time()
    gen = pb.Generator(variant)
    positions, games = random_positions(gen, args.positions, args.seed, args.max_plies)
    t1 = time.time()
    fens = [fen for fen, _ in positions]
    try:
        lines = crownhead_moves(args.engine, variant, fens, args.timeout)
    except EngineFailure as exc:
        print(f"{variant}: ERROR {exc}")
        return 0, 1
    t2 = time.time()

    mismatches = errors = shown = 0
    n_moves = n_captures = n_multi = n_empty = 0
    for (fen, pd_moves), line in zip(positions, lines):
        if line.startswith("error:"):
            errors += 1
            if shown < args.max_report:
                shown += 1
                print(f"{variant}: ERROR for {fen}: {line.strip()}")
            continue
        pd_set = {m.notation for m in pd_moves}
        tokens = line.split()
        ch_set = set(tokens)
        n_moves += len(pd_moves)
        n_captures += sum(1 for m in pd_moves if m.captured)
        n_multi += sum(1 for m in pd_moves if len(m.captured) > 1)
        n_empty += not pd_moves
        duplicates = sorted({t for t in tokens if tokens.count(t) > 1})
        if pd_set != ch_set or duplicates:
            mismatches += 1
            if shown < args.max_report:
                shown += 1
                print(f"{variant}: MISMATCH {fen}")
                print(f"    only in pydraughts: {' '.join(sorted(pd_set - ch_set)) or '-'}")
                print(f"    only in crownhead:  {' '.join(sorted(ch_set - pd_set)) or '-'}")
                if duplicates:
                    print(f"    listed twice by crownhead: {' '.join(duplicates)}")
    if shown < mismatches + errors:
        print(f"{variant}: ... {mismatches + errors - shown} more not shown (--max-report)")
    status = "OK" if not (mismatches or errors) else "FAIL"
    print(f"{variant}: {status} {len(positions)} positions from {games} games, {n_moves} moves "
          f"({n_captures} captures, {n_multi} multi-captures, {n_empty} positions without moves), "
          f"{mismatches} mismatches, {errors} engine errors "
          f"[pydraughts {t1 - t0:.1f}s, crownhead {t2 - t1:.1f}s, seed {args.seed}]")
    return mismatches, errors


# --------------------------------------------------------------------------------------------
# Self-test of the pydraughts side
# --------------------------------------------------------------------------------------------

def _russian_public_square(sq: int) -> int:
    """docs/RULES.md square -> pydraughts' public russian numbering (rows mirrored: 1 = a1)."""
    row, col = divmod(sq - 1, 4)
    return (7 - row) * 4 + col + 1


def self_test(args) -> int:
    """Check the pydraughts side against docs/RULES.md; returns the number of failures."""
    import draughts  # public API, used as a second opinion on the frame conversion

    failures = 0

    def report(ok: bool, what: str) -> None:
        nonlocal failures
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {what}", flush=True)

    # FEN parsing and formatting.
    side, pieces = pb.parse_fen("W:W21-23,K30:BK1,2-3")
    report(pb.format_fen(side, pieces) == "W:W21,22,23,K30:BK1,2,3", "FEN ranges and kings")

    for variant in args.variants:
        gen = pb.Generator(variant)
        start = gen.hub(pb.START_FENS[variant])
        report(gen.fen(start) == pb.format_fen(*pb.parse_fen(pb.START_FENS[variant])),
               f"{variant}: start FEN round trip {gen.fen(start)}")
        moves = sorted(gen.legal_moves(start), key=lambda m: m.path)
        report({m.notation for m in moves} == pb.START_MOVES[variant],
               f"{variant}: start moves {' '.join(m.notation for m in moves)}")

        # Perft from the start position (paths and unique).
        t = time.time()
        paths, unique = gen.perft(start, args.depth)
        expected = pb.START_PERFT[variant][:args.depth]
        report(list(zip(paths, unique)) == expected,
               f"{variant}: start perft 1..{args.depth} paths {paths} unique {unique} "
               f"({time.time() - t:.1f}s)")

        # The docs/RULES.md rule positions, to depth 3 (all of it: pydraughts_perft.py --suite).
        for v, fen, exp, rule in pb.RULE_POSITIONS:
            if v != variant:
                continue
            d = min(3, len(exp))
            p, u = gen.perft(gen.hub(fen), d)
            report(list(zip(p, u)) == exp[:d], f"{variant}: {fen} ({rule}) perft 1..{d} "
                   f"{' '.join(f'{a}/{b}' for a, b in zip(p, u))}")

        # Frame conversion versus pydraughts' public API on random-game positions.
        positions, _ = random_positions(gen, args.positions, args.seed, args.max_plies)
        repeated = sum(len({m.notation for m in moves}) != len(moves) for _, moves in positions)
        report(repeated == 0, f"{variant}: pydraughts never lists one path twice "
               f"({repeated} positions where it does)")
        bad = 0
        for fen, moves in positions:
            side, pieces = pb.parse_fen(fen)
            if variant in ("english", "italian"):  # public frame == the frame used here
                def back(sq):
                    return sq
                public_fen = fen
            else:                      # public russian and brazilian frame: rows mirrored
                back = _russian_public_square  # an involution
                public_fen = pb.format_fen(
                    side, {back(sq): v for sq, v in pieces.items()})
            board = draughts.Board(variant, public_fen)
            public = set()
            for m in board.legal_moves():
                sep = "x" if m.captures else "-"
                public.add(sep.join(str(back(int(sq))) for sq in m.steps_move))
            mine = {m.notation for m in moves}
            if public != mine:
                bad += 1
                if bad <= 3:
                    print(f"     {fen}: bridge {sorted(mine)} public API {sorted(public)}")
        report(bad == 0, f"{variant}: bridge == public pydraughts API on {len(positions)} "
               f"random-game positions ({bad} differ)")
    print(f"self-test: {'OK' if not failures else f'{failures} FAILED'}")
    return failures


# --------------------------------------------------------------------------------------------

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default=RELEASE_BINARY,
                        help="Crownhead binary (default: target/release/crownhead in the repo)")
    parser.add_argument("--variant", choices=list(pb.VARIANTS) + ["both", "all"], default="all",
                        help="one variant, both (russian and english) or all (default)")
    parser.add_argument("--positions", type=int, default=2000,
                        help="distinct positions per variant (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--max-plies", type=int, default=200,
                        help="longest random game, in plies (default 200)")
    parser.add_argument("--max-report", type=int, default=20,
                        help="print at most this many bad positions per variant (default 20)")
    parser.add_argument("--timeout", type=float, default=300,
                        help="seconds allowed for each Crownhead run (default 300)")
    parser.add_argument("--self-test", action="store_true",
                        help="check the pydraughts side against docs/RULES.md (no engine needed)")
    parser.add_argument("--depth", type=int, default=4,
                        help="start-position perft depth for --self-test (default 4, max 8)")
    args = parser.parse_args()
    args.variants = {"both": ["russian", "english"], "all": list(pb.VARIANTS)}.get(
        args.variant, [args.variant])
    args.engine = os.path.abspath(args.engine)
    args.depth = max(1, min(args.depth, 8))

    pb.bootstrap()

    if args.self_test:
        if args.positions == parser.get_default("positions"):
            args.positions = 200
        return 2 if self_test(args) else 0

    mismatches = errors = 0
    for variant in args.variants:
        m, e = check_variant(args, variant)
        mismatches += m
        errors += e
    if errors:
        return 2
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
