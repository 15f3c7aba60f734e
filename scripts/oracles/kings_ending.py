"""Exact solution of "N kings against a lone king" by retrograde analysis, written from
docs/RULES.md alone (standard library only; shares no code with Crownhead or pydraughts).

    python3 -m scripts.oracles.kings_ending VARIANT FEN...

Each FEN (docs/RULES.md numbering) must hold kings only, one of them alone on its side. For each it
prints whether the strong side forces a win and, if so, in how many plies and in how many moves of
the strong side. Used to establish that the start positions of tests/it/endgames.rs are wins and how
long the shortest forced win is.

The endings with fewer strong kings that a capture by the lone king leads to are solved with it.
The draw rules (repetition, docs/RULES.md's counter rules) are not applied: "win" means a forced win
without them, and the caller compares the lengths with the rules. A position is won when the
strong side can force the lone king to be captured or left without a move; the length counts
plies to that end with best play on both sides (the strong side as fast as it can, the lone king
as slowly).
"""

from __future__ import annotations

import itertools
import sys
from collections import deque

DIRS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def coords(sq: int):
    """(file, rank), both 0-7, of square 1-32 in the docs/RULES.md frame."""
    r = (sq - 1) // 4
    return 2 * ((sq - 1) % 4) + (1 if r % 2 == 0 else 0), 7 - r


def square(f: int, rank: int):
    if not (0 <= f < 8 and 0 <= rank < 8) or (f + rank) % 2 != 0:
        return None
    r = 7 - rank
    return r * 4 + (f - (1 if r % 2 == 0 else 0)) // 2 + 1


# RAYS[sq][d]: the squares from sq (exclusive) to the edge in direction d.
RAYS = {}
for _sq in range(1, 33):
    _f, _r = coords(_sq)
    RAYS[_sq] = []
    for df, dr in DIRS:
        ray, k = [], 1
        while (s := square(_f + k * df, _r + k * dr)) is not None:
            ray.append(s)
            k += 1
        RAYS[_sq].append(ray)
assert square(*coords(29)) == 29 and coords(29) == (0, 0) and coords(4) == (7, 7)


def quiet_moves(sq: int, occupied: set, flying: bool):
    for ray in RAYS[sq]:
        for s in ray[: None if flying else 1]:
            if s in occupied:
                break
            yield s


def can_capture(sq: int, targets: set, occupied: set, flying: bool) -> bool:
    """Whether a king on sq can capture one of `targets` (the rest of `occupied` blocks)."""
    for ray in RAYS[sq]:
        for i, s in enumerate(ray if flying else ray[:1]):
            if s in occupied:
                if s in targets and i + 1 < len(ray) and ray[i + 1] not in occupied:
                    return True
                break
    return False


def parse(fen: str):
    side, *parts = fen.strip().split(":")
    pieces = {}
    for part in parts:
        for item in filter(None, part[1:].split(",")):
            if not item.startswith("K"):
                sys.exit(f"{fen}: only kings are allowed ({item})")
            pieces[int(item[1:])] = part[0]
    whites = sorted(s for s, c in pieces.items() if c == "W")
    blacks = sorted(s for s, c in pieces.items() if c == "B")
    if len(blacks) == 1:
        return tuple(whites), blacks[0], side == "W", "W"
    if len(whites) == 1:
        return tuple(blacks), whites[0], side == "B", "B"
    sys.exit(f"{fen}: one side must have a lone king")


def lone_captures(sq: int, strong: tuple, flying: bool):
    """Every result (kings left to the strong side, landing square) of a capture by the lone king
    on `sq`. docs/RULES.md: the capture must be completed; captured kings stay on the board until
    the end of the move (they block and cannot be jumped twice); a flying king lands on any free
    square beyond, but on one that lets it capture on when there is one."""
    pieces = set(strong)
    results = set()

    def jumps(at: int, taken: frozenset):
        out = []
        for ray in RAYS[at]:
            for i, s in enumerate(ray if flying else ray[:1]):
                if s == sq or s not in pieces:
                    continue  # empty (the lone king's own square is empty while it moves)
                if s in taken or i + 1 >= len(ray):
                    break
                beyond = []
                for t in ray[i + 1:] if flying else ray[i + 1:i + 2]:
                    if t in pieces and t != sq:
                        break
                    beyond.append(t)
                if beyond:
                    out.append((s, beyond))
                break
        return out

    def walk(at: int, taken: frozenset):
        options = jumps(at, taken)
        if not options:
            if taken:
                results.add((tuple(sorted(pieces - taken)), at))
            return
        for s, beyond in options:
            t2 = taken | {s}
            going_on = [b for b in beyond if jumps(b, t2)]
            for b in going_on or beyond:
                walk(b, t2)

    walk(sq, frozenset())
    return sorted(results)


MAIN_ROAD = {29, 25, 22, 18, 15, 11, 8, 4}
# docs/RULES.md, russian: the lone king on the main road against three pieces, or any lone-king
# ending with two strong pieces or fewer, is drawn when the strong side's 5th move (counted as
# Crownhead's DrawCounters do: road moves only while the lone king stays on the road) has not
# won.
SHORT_RULE = 5


def counted(n: int, lone: int) -> bool:
    """Whether the 5-move counter of docs/RULES.md runs in this russian ending."""
    return n <= 2 or lone in MAIN_ROAD


def solve(n: int, flying: bool):
    """Plies to the win for every won state (strong squares, lone square, strong to move,
    5-move counter) with 1 to n strong kings. For russian (flying kings) the 5-move rules of
    docs/RULES.md are part of the state; the 15-move rule is left to the caller."""
    rules = flying
    states = []
    for k in range(1, n + 1):
        for strong in itertools.combinations(range(1, 33), k):
            for lone in range(1, 33):
                if lone in strong:
                    continue
                limit = SHORT_RULE if rules and counted(k, lone) else 0
                for c in range(limit + 1):
                    if c < SHORT_RULE:
                        states.append((strong, lone, True, c))
                    states.append((strong, lone, False, c))
    succ = {}
    dist = {}
    for st in states:
        strong, lone, strong_to_move, c = st
        occ = set(strong) | {lone}
        limit = rules and counted(len(strong), lone)
        if strong_to_move:
            if any(can_capture(s, {lone}, occ, flying) for s in strong):
                dist[st] = 1  # the capture is compulsory and takes the lone king: won
                continue
            kids = []
            for i, s in enumerate(strong):
                rest = strong[:i] + strong[i + 1:]
                for t in quiet_moves(s, occ, flying):
                    kids.append((tuple(sorted(rest + (t,))), lone, False, c + 1 if limit else 0))
            succ[st] = kids
        else:
            caps = lone_captures(lone, strong, flying)
            if any(not left for left, _ in caps):
                continue  # the lone king can take every king: not won
            if caps:
                # a capture changes the balance: the counters start again
                kids = [(left, at, True, 0) for left, at in caps]
            else:
                kids = [(strong, t, True, c if rules and counted(len(strong), t) else 0)
                        for t in quiet_moves(lone, occ, flying)]
            if not kids:
                dist[st] = 0  # no legal move: lost (checked before the draw rules)
                continue
            if limit and c >= SHORT_RULE:
                continue  # drawn by the 5-move rule (a position without a legal move is lost)
            succ[st] = kids
    preds = {}
    for st, kids in succ.items():
        for k in set(kids):
            preds.setdefault(k, []).append(st)
    # Lone-to-move states still waiting for all their children to be won.
    waiting = {st: len(set(k)) for st, k in succ.items() if not st[2]}
    queue = deque(sorted(dist, key=dist.get))
    while queue:
        st = queue.popleft()
        for p in preds.get(st, ()):
            if p in dist:
                continue
            if p[2]:
                dist[p] = dist[st] + 1  # breadth-first: the first won child is the fastest
                queue.append(p)
            else:
                waiting[p] -= 1
                if waiting[p] == 0:
                    # all children won; the last one reached is the slowest
                    dist[p] = dist[st] + 1
                    queue.append(p)
    return dist


def main() -> None:
    if len(sys.argv) < 3 or sys.argv[1] not in ("russian", "english"):
        sys.exit(__doc__)
    flying = sys.argv[1] == "russian"
    tables = {}
    for fen in sys.argv[2:]:
        strong, lone, strong_to_move, colour = parse(fen)
        n = len(strong)
        if n not in tables:
            tables[n] = solve(n, flying)
        d = tables[n].get((strong, lone, strong_to_move, 0))
        if d is None:
            print(f"{fen}: not a forced win ({colour} strong)")
        else:
            moves = (d + 1) // 2 if strong_to_move else d // 2
            print(f"{fen}: {colour} wins in {d} plies ({moves} moves of the strong side)")


if __name__ == "__main__":
    main()
