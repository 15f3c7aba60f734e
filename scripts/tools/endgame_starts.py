"""Endgame starting positions from played games, for matches that measure the endgame databases.

For each game of a PDN file (as `crownhead match --pdn` writes them), the first position with at
most --pieces pieces on the board is written as a FEN line, once per distinct position. The
positions come from real games, so they are the endings that the engine reaches; a match from
them (`crownhead match --openings FILE`, each played with both colours) measures what the
databases change there, where a match from the openings mostly measures the middlegame.

The games are replayed by a crownhead binary through its protocol (`position ... moves`, `d`), so
the script needs no move generator of its own.

    python3 -m scripts.tools.endgame_starts --variant english --pieces 8 games.pdn > endgames.txt
"""

import argparse
import re
import sys

from scripts.lib.engine import RELEASE_BINARY, Engine

MOVE = re.compile(r"^\d+([-x]\d+)+$")


def games(text):
    """(tags, moves) of each game: the tags as a dict, the moves as PDN strings."""
    for chunk in text.split("[Event ")[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', "[Event " + chunk))
        body = re.sub(r"\{[^}]*\}", " ", chunk.split("\n\n", 1)[1] if "\n\n" in chunk else "")
        yield tags, [t for t in body.split() if MOVE.match(t)]


def fen_after(engine, start, moves):
    """The FEN after `moves` from `start` (None: the start position), or None if the engine
    refused them."""
    errors, fields = engine.show(start, moves)
    return None if errors else fields.get("FEN")


def pieces(fen):
    """The number of pieces in a PDN FEN such as `W:W21,K30:B1,2`."""
    count = 0
    for part in fen.split(":")[1:]:
        body = part[1:]
        count += sum(1 for s in body.split(",") if s.strip())
    return count


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pdn")
    ap.add_argument("--engine", default=RELEASE_BINARY,
                    help="a crownhead binary (default: the release build)")
    ap.add_argument("--variant", required=True, choices=["english", "russian"])
    ap.add_argument("--pieces", type=int, default=8, help="at most this many pieces (default 8)")
    args = ap.parse_args()
    with open(args.pdn) as f:
        text = f.read()
    engine = Engine.uci(args.engine, variant=args.variant)
    seen, found, skipped = set(), 0, 0
    for tags, moves in games(text):
        start = tags.get("FEN")
        for ply in range(len(moves) + 1):
            fen = fen_after(engine, start, moves[:ply])
            if fen is None:
                skipped += 1
                break
            if pieces(fen) <= args.pieces:
                found += 1
                if fen not in seen:
                    seen.add(fen)
                    print(fen)
                break
    engine.close()
    print(f"{found} games reach {args.pieces} pieces or fewer, {len(seen)} distinct positions; "
          f"{skipped} games not replayed", file=sys.stderr)


if __name__ == "__main__":
    main()
