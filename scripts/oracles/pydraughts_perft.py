"""Perft counts from pydraughts 0.6.7, an independent source for Crownhead's perft tests.

Counts the leaf nodes of the legal-move tree to each depth in both conventions of docs/RULES.md:
``paths`` (every jump path is a move, as pydraughts generates them) and ``unique`` (moves with
the same from square, to square, captured set and final king status are one move).  FENs are PDN
FENs in the docs/RULES.md numbering (square 1 = b8, White men on 21-32 moving towards square 1).

Usage, from the repository root (only python3 is needed; the first run creates the venv
``scripts/.venv/oracles-pydraughts`` with pydraughts==0.6.7 from PyPI and re-executes itself
there):

    python3 -m scripts.oracles.pydraughts_perft --variant russian --fen W:W21-32:B1-12 --depth 5
    python3 -m scripts.oracles.pydraughts_perft --variant english --fen B:W26,27:B22 --depth 4 \
        --divide
    python3 -m scripts.oracles.pydraughts_perft --suite --output positions/pydraughts_perft.txt

``--divide`` also prints the counts below each root move (full-path notation, e.g. ``22x15x6``).
``--suite`` computes the docs/RULES.md rule positions (checked against the published numbers) and
the rule-exercising positions listed in SUITE below, and writes them in the format of
positions/pydraughts_perft.txt:

    <variant>;<fen>;<d1 paths>/<d1 unique> <d2 paths>/<d2 unique> ...

Exit status: 0 on success, 1 if pydraughts disagrees with a docs/RULES.md number, 2 on bad input.
"""

from __future__ import annotations

import argparse
import sys
import time

from scripts.oracles import pydraughts_bridge as pb  # standard library only at import time

# Positions of our own, each exercising one rule: (variant, FEN, depth, comment).  The moves
# named in the comments were checked by hand against docs/RULES.md.
SUITE = [
    ("russian", "W:WK29,27:B5,16,19,22", 6,
     "flying king, landing choice: 29 takes 22 and may only land on 15 or 11 (both go on), "
     "not 18, 8 or 4; moves 29x15x24 29x15x28 29x11x20"),
    ("russian", "W:WK29,28:B9,10,22,26", 6,
     "Turkish strike blocks: after 29x15x6x13 the captured piece on 22 still stands, so the "
     "king cannot go on over it to take 26 (lifting early would allow 29x15x6x13x31); "
     "moves 29x15x6x13 29x18x5"),
    ("russian", "W:WK29,28:B9,10,22,24", 6,
     "no majority rule: the man's single capture 28x19 is as legal as the king's "
     "29x15x6x13 (three pieces) and 29x18x5 (two)"),
    ("russian", "W:WK29,K30:B5,18,22,26", 6,
     "two pieces in a row cannot be jumped (29 has no capture over 22,18); 30 takes 26 and "
     "must land on 23 to go on over 18: moves 30x23x14 30x23x9"),
    ("russian", "W:W11,30:B6,7,16,18", 6,
     "man crowned mid-capture goes on as a flying king and must pick the landing that goes "
     "on: 11x2x9x23x12; also the backward man capture 11x20"),
    ("english", "W:W11,30:B6,7,16,18", 6,
     "same position in english: the man is crowned on 2 and the move ends (11x2), and the "
     "backward capture 11x20 is not allowed"),
    ("russian", "W:W15,25,30:B1,10,19,21", 6,
     "men capture backwards: 15x6 (forward) and 15x24 (backward)"),
    ("english", "W:W15,25,30:B1,10,19,21", 6,
     "same position in english: men capture forwards only, so 15x6 is the only move"),
    ("english", "W:WK29,K20:B11,K4", 6,
     "english kings step one square: no flying move or distant capture, moves 20-16 20-24 "
     "29-25"),
    ("russian", "W:WK29,K20:B11,K4", 6,
     "same position in russian: flying kings capture at a distance, 29x8 and 20x7 / 20x2 "
     "(any free landing square when none goes on)"),
    ("russian", "W:WK23,30:B3,10,11,18,19", 6,
     "king ring: 23 can take the four men round e5 in either direction and return to 23 "
     "(two paths, one unique move); landing choices on the last capture"),
    ("english", "B:W18,19,27,32:B1,14,15,K28", 6,
     "english, no majority rule: 14x23 and 15x22 (one piece) and 15x24x31 (two, a black man "
     "crowned on 31, the move ends) are all legal"),
    ("russian", "W:W5,13:B1,6,9,14", 5,
     "side to move has pieces but no legal move (also no backward capture: 5 over 9 lands on "
     "the occupied 14)"),
    ("english", "W:W5,13:B1,6,9,14", 5,
     "same blocked position in english: no legal move"),
    ("russian", "W:WK25,K32,21:BK4,K1,6,24", 5,
     "kings of both sides on the long diagonals (main road 29-4 and double road 5-32, 1-28); "
     "paths and unique part at depth 5"),
]


def fmt_counts(paths, unique) -> str:
    return " ".join(f"{p}/{u}" for p, u in zip(paths, unique))


def run_single(args) -> int:
    try:
        side, pieces = pb.parse_fen(args.fen)
    except pb.FenError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for problem in pb.fen_problems(side, pieces):
        print(f"warning: {problem}", file=sys.stderr)
    gen = pb.Generator(args.variant)
    hub = gen.hub(args.fen)
    fen = gen.fen(hub)
    print(f"variant {args.variant}  fen {fen}")
    cache: dict = {}
    t = time.time()
    paths, unique = gen.perft(hub, args.depth, cache)
    for d, (p, u) in enumerate(zip(paths, unique), 1):
        print(f"depth {d:2d}  paths {p:>12}  unique {u:>12}")
    if args.divide and args.depth > 1:
        print(f"divide (depth {args.depth - 1} below each root move, paths/unique):")
        for move in sorted(gen.legal_moves(hub), key=lambda m: m.path):
            p, u = gen.perft(gen.play(hub, move), args.depth - 1, cache)
            print(f"  {move.notation:<16} {p[-1]}/{u[-1]}")
    print(f"{args.variant};{fen};{fmt_counts(paths, unique)}")
    sys.stdout.flush()
    print(f"({time.time() - t:.1f}s)", file=sys.stderr)
    return 0


def run_suite(args) -> int:
    lines = [
        "# Perft counts from pydraughts 0.6.7 (an independent generator), per depth 1, 2, ...",
        "# Generated by `python3 -m scripts.oracles.pydraughts_perft --suite --output "
        "positions/pydraughts_perft.txt`.",
        "# Format: <variant>;<fen>;<d1 paths>/<d1 unique> <d2 paths>/<d2 unique> ...",
        "#   paths: every jump path counts as a move (pydraughts' own convention);",
        "#   unique: moves with the same from, to, captured set and final king status are one.",
        "# FENs use the docs/RULES.md numbering "
        "(1 = b8, 29 = a1, 32 = g1; White men move towards 1).",
        "# The comment line above each position names the rule it exercises and lists the moves.",
        "",
        None,  # header of the docs/RULES.md section, filled in at the end
    ]
    disagreements = []
    entries = [(v, fen, min(args.max_depth, len(exp)), rule, exp)
               for v, fen, exp, rule in pb.RULE_POSITIONS]
    entries += [None]  # separator
    entries += [(v, fen, min(args.max_depth, d), comment, None) for v, fen, d, comment in SUITE]
    for entry in entries:
        if entry is None:
            lines += ["", "# --- Positions of our own, one rule each (moves named in the comments "
                          "were checked by hand against docs/RULES.md) ---"]
            continue
        variant, fen, depth, comment, expected = entry
        side, pieces = pb.parse_fen(fen)
        problems = pb.fen_problems(side, pieces)
        if problems:
            print(f"error: {variant} {fen}: {'; '.join(problems)}", file=sys.stderr)
            return 2
        gen = pb.Generator(variant)
        hub = gen.hub(fen)
        t = time.time()
        paths, unique = gen.perft(hub, depth)
        got = list(zip(paths, unique))
        note = ""
        if expected is not None:
            if got != expected[:depth]:
                disagreements.append((variant, fen, got, expected[:depth]))
                note = f"  DISAGREES with docs/RULES.md {fmt_counts(*zip(*expected[:depth]))}"
        moves = " ".join(sorted(m.notation for m in gen.legal_moves(hub)))
        print(f"{variant};{gen.fen(hub)};{fmt_counts(paths, unique)}  "
              f"[{time.time() - t:.1f}s]{note}", flush=True)
        cited = " [docs/RULES.md]" if expected is not None else ""
        lines.append(f"# {variant}: {comment}{cited}"
                     + f"; pydraughts moves: {moves or '(none)'}"
                     + (f"; {note.strip()}" if note else ""))
        lines.append(f"{variant};{gen.fen(hub)};{fmt_counts(paths, unique)}")
    lines[lines.index(None)] = (
        "# --- The docs/RULES.md \"Rule positions\" (" +
        ("pydraughts DISAGREES on some, see the notes" if disagreements else
         "pydraughts agrees with every published number") + ") ---")
    if disagreements:
        for variant, fen, got, exp in disagreements:
            print(f"DISAGREEMENT {variant} {fen}: pydraughts {fmt_counts(*zip(*got))} "
                  f"docs/RULES.md {fmt_counts(*zip(*exp))}")
    else:
        print(f"pydraughts agrees with all {len(pb.RULE_POSITIONS)} docs/RULES.md rule positions "
              f"(to depth {args.max_depth} or the depth published)")
    if args.output:
        with open(args.output, "w") as fh:
            fh.write("\n".join(lines) + "\n")
        print(f"wrote {args.output}")
    return 1 if disagreements else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", choices=pb.VARIANTS, default="russian")
    parser.add_argument("--fen",
                        help="PDN FEN in docs/RULES.md numbering (default: start position)")
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--divide", action="store_true", help="also print counts per root move")
    parser.add_argument("--suite", action="store_true",
                        help="compute the docs/RULES.md rule positions and our own rule positions")
    parser.add_argument("--max-depth", type=int, default=6, help="deepest depth for --suite")
    parser.add_argument("--output", help="with --suite: write the positions file here")
    args = parser.parse_args()
    if args.fen is None:
        args.fen = pb.START_FENS[args.variant]
    if args.depth < 1:
        parser.error("--depth must be at least 1")

    pb.bootstrap()
    return run_suite(args) if args.suite else run_single(args)


if __name__ == "__main__":
    sys.exit(main())
