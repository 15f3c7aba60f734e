"""Which moves of a position force a win within a few plies, by exhaustive search over
pydraughts' move generator (independent of Crownhead's).

    python3 -m scripts.oracles.forced_win VARIANT FEN PLIES

For every root move (one line per distinct move, docs/RULES.md numbering) it prints the shortest
forced win in plies (a win: the opponent has no legal move, which includes having no pieces), or
`-` when the move does not force one within PLIES plies. The draw rules are not applied: they are
for the caller to rule out (repetition cannot occur in a line that ends in a win this short
unless a shorter line exists, and the counter rules of docs/RULES.md need more plies than this
script is used for). Used to establish the answers of the corner-trap positions of
positions/tactics.txt independently of the engine.

Needs pydraughts 0.6.7 (installed into a virtual environment on first use, see
pydraughts_bridge.py).
"""

from __future__ import annotations

import sys
from functools import lru_cache

from scripts.oracles import pydraughts_bridge as bridge


def main() -> None:
    bridge.bootstrap()
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    variant, fen, plies = sys.argv[1], sys.argv[2], int(sys.argv[3])
    gen = bridge.Generator(variant)

    def distinct(hub: str):
        """One move per resulting position."""
        seen = {}
        for mv in gen.legal_moves(hub):
            seen.setdefault(mv.unique_key(), mv)
        return list(seen.values())

    @lru_cache(maxsize=None)
    def children(hub: str):
        return tuple((mv.notation, gen.play(hub, mv)) for mv in distinct(hub))

    @lru_cache(maxsize=None)
    def wins(hub: str, depth: int) -> bool:
        """The side to move forces a win within `depth` plies."""
        if depth <= 0:
            return False
        return any(loses(child, depth - 1) for _, child in children(hub))

    @lru_cache(maxsize=None)
    def loses(hub: str, depth: int) -> bool:
        """The side to move loses within `depth` plies whatever it does."""
        kids = children(hub)
        if not kids:
            return True
        if depth <= 1:
            return False
        return all(wins(child, depth - 1) for _, child in kids)

    root = gen.hub(fen)
    for text, child in sorted(children(root)):
        best = next((d for d in range(1, plies + 1) if loses(child, d - 1)), None)
        print(f"{text:>12}  {'-' if best is None else f'wins in {best} plies'}")


if __name__ == "__main__":
    main()
