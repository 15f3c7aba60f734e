"""Bench positions for a variant, taken from the engine's own games.

Plays a short self-play match at a fixed depth with `crownhead match` (one thread, so the games
are the same on every run), replays each game through the engine's protocol and writes the
positions after the given plies, as `variant;fen` lines for positions/bench_variants.txt, after
the variant's start position. A fixed-depth match from the variant's built-in openings, both
colours of each, gives openings, middlegames and endgames of the kind the engine plays.

    python3 -m scripts.tools.bench_positions --variant brazilian >> positions/bench_variants.txt
"""

import argparse
import os
import subprocess
import sys
import tempfile

from scripts.lib.engine import RELEASE_BINARY, Engine
from scripts.tools.endgame_starts import fen_after, games

VARIANTS = ["russian", "english", "brazilian", "pool", "italian", "spanish", "czech"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", required=True, choices=VARIANTS)
    ap.add_argument("--engine", default=RELEASE_BINARY,
                    help="a crownhead binary (default: the release build)")
    ap.add_argument("--games", type=int, default=8, help="games of the match (default 8)")
    ap.add_argument("--depth", type=int, default=8, help="the match's depth a move (default 8)")
    ap.add_argument("--plies", default="12,25,38,51",
                    help="the plies after which a position is taken (default 12,25,38,51)")
    args = ap.parse_args()
    plies = [int(p) for p in args.plies.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        pdn = os.path.join(tmp, "games.pdn")
        subprocess.run([args.engine, "match", "--variant", args.variant, "--engine", args.engine,
                        "--engine", args.engine, "--games", str(args.games), "--depth",
                        str(args.depth), "--pdn", pdn], check=True, stdout=subprocess.DEVNULL)
        with open(pdn, encoding="utf-8") as f:
            text = f.read()
    engine = Engine.uci(args.engine, variant=args.variant)
    start = fen_after(engine, None, [])
    print(f"{args.variant};{start}")
    seen = {start}
    for tags, moves in games(text):
        for ply in plies:
            if ply > len(moves):
                break
            fen = fen_after(engine, tags.get("FEN"), moves[:ply])
            if fen is None:
                sys.exit(f"error: the engine refused a move of its own game: {moves[:ply]}")
            if fen not in seen:
                seen.add(fen)
                print(f"{args.variant};{fen}")
    engine.close()
    print(f"{len(seen)} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
