"""Every position reachable from a start position, by pydraughts' move generator (independent
of Crownhead's), and every move played in them: a check that a position is closed (for example
that no capture or man move can ever occur and one side only ever shuttles a king).

    python3 -m scripts.oracles.reachable_moves VARIANT FEN [LIMIT]

Prints the number of reachable positions (stopping at LIMIT, default 100000), the moves of each
side over all of them, and whether any position has a capture or no legal move. Used for the
closed position of tests/it/search.rs. Needs pydraughts 0.6.7 (see pydraughts_bridge.py).
"""

from __future__ import annotations

import sys

from scripts.oracles import pydraughts_bridge as bridge


def main() -> None:
    bridge.bootstrap()
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    variant, fen = sys.argv[1], sys.argv[2]
    limit = int(sys.argv[3]) if len(sys.argv) == 4 else 100_000
    gen = bridge.Generator(variant)
    start = gen.hub(fen)
    seen = {start}
    stack = [start]
    moves = {"W": set(), "B": set()}
    captures = stuck = 0
    while stack and len(seen) < limit:
        hub = stack.pop()
        side = gen.fen(hub)[0]
        legal = gen.legal_moves(hub)
        stuck += not legal
        for mv in legal:
            captures += bool(mv.captured)
            moves[side].add(mv.notation)
            child = gen.play(hub, mv)
            if child not in seen:
                seen.add(child)
                stack.append(child)
    print(f"{len(seen)} positions{' (limit reached)' if stack else ''}; "
          f"{captures} captures, {stuck} positions without a legal move")
    for side in "WB":
        def squares(text: str) -> list[int]:
            return [int(x) for x in text.replace("x", "-").split("-")]
        print(f"{side} moves: {' '.join(sorted(moves[side], key=squares))}")


if __name__ == "__main__":
    main()
