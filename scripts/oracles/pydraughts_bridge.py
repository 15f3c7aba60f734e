"""Shared helpers of the scripts that judge by pydraughts (crosscheck, pydraughts_perft,
forced_win, reachable_moves, and scripts/ci/'s CheckerBoard checks).

Two parts:

* ``bootstrap()``: make sure ``pydraughts==0.6.7`` (``requirements-pydraughts.txt``) is
  importable.  If it is not, make (or reuse) its virtual environment, ``scripts/.venv/
  oracles-pydraughts``, and run the calling script again with that environment's interpreter
  (``scripts.lib.venv.reexec_into``).  Only the Python standard library is needed before that
  point.

* A bridge between Crownhead's square numbering (see docs/RULES.md; square 1 = b8, 29 = a1, 32 = g1,
  White men on 21-32 moving towards square 1) and pydraughts' frames.

What pydraughts 0.6.7 does with 8x8 boards (read from draughts/core/*.py and draughts/convert.py,
and checked by ``crosscheck.py --self-test``):

* The internal ``draughts.core.game.Game`` always numbers squares 1-32 from the top-left dark
  square (1 = b8 seen from internal-White's side), internal White (player 2) sits on 21-32, moves
  towards square 1 and, for every variant, moves first in the start position.  Positions are
  "Hub FENs": the side to move ``W``/``B`` followed by 32 characters ``w b W B e``.
* russian: internal White is White, so the internal frame *is* the docs/RULES.md frame.  The public
  ``draughts.Board``/``Move`` API (``variant.py``, ``convert.py:_rotate_move`` notation 0) mirrors
  the rows instead: external square 1 = a1, 32 = h8 (and prints algebraic squares).
* brazilian: as russian (internal White is White, the internal frame is docs/RULES.md's; the
  public API mirrors the rows).
* italian: internal White is White, on 21-32 and moving first; the squares are numbered from the
  top left of the *mirrored* board (1 = a8 there), which is italian's own numbering and the one
  ``crownhead --variant italian`` reads and writes (docs/RULES.md: the mirrored numbering); the
  public API (notation 2) uses it as it is.
* english: internal White is English *Black* (which moves first), and internal square i is
  docs/RULES.md square 33 - i (a 180 degree rotation; colours swapped).  The public API undoes both
  (notation 1 = rotate, plus a colour/side swap in ``_change_fen_from_variant``), so its
  numbering and colours are exactly the docs/RULES.md ones.

This module drives the internal ``Game`` directly: it is faster than the public API (which builds
a ``Move`` object with every notation for each legal move) and the mapping is a plain
per-square function.  ``crosscheck.py --self-test`` verifies it against the public API.
"""

from __future__ import annotations

import os
import re
from typing import Dict, List, NamedTuple, Optional, Tuple

from scripts.lib import venv

REQUIREMENTS = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "requirements-pydraughts.txt")
VARIANTS = ("russian", "english", "brazilian", "italian")

START_FENS = {"russian": "W:W21-32:B1-12", "english": "B:W21-32:B1-12",
              "brazilian": "W:W21-32:B1-12", "italian": "W:W21-32:B1-12"}


# --------------------------------------------------------------------------------------------
# Virtual environment bootstrap (standard library only; the work is scripts.lib.venv's)
# --------------------------------------------------------------------------------------------

def bootstrap() -> None:
    """Return if pydraughts 0.6.7 is importable, else set up the venv and re-exec into it."""
    venv.reexec_into(REQUIREMENTS)


# --------------------------------------------------------------------------------------------
# PDN FEN in the docs/RULES.md frame
# --------------------------------------------------------------------------------------------

WHITE, BLACK = "W", "B"
# A position: side to move and {square: (colour, is_king)} in the docs/RULES.md frame.
Pieces = Dict[int, Tuple[str, bool]]


class FenError(ValueError):
    pass


def parse_fen(fen: str) -> Tuple[str, Pieces]:
    """Parse a numeric PDN FEN such as ``W:W21-32,K5:B1-12`` (docs/RULES.md frame)."""
    parts = fen.strip().rstrip(".").split(":")
    if len(parts) != 3 or parts[0] not in (WHITE, BLACK):
        raise FenError(f"bad FEN {fen!r}")
    pieces: Pieces = {}
    seen_colours = set()
    for part in parts[1:]:
        if not part or part[0] not in (WHITE, BLACK) or part[0] in seen_colours:
            raise FenError(f"bad FEN {fen!r}")
        colour = part[0]
        seen_colours.add(colour)
        for item in filter(None, part[1:].split(",")):
            item = item.strip()
            king = item.startswith("K")
            if king:
                item = item[1:]
            m = re.fullmatch(r"(\d+)(?:-(\d+))?", item)
            if not m:
                raise FenError(f"bad square {item!r} in FEN {fen!r}")
            lo = int(m.group(1))
            hi = int(m.group(2) or lo)
            for sq in range(lo, hi + 1):
                if not 1 <= sq <= 32 or sq in pieces:
                    raise FenError(f"bad or repeated square {sq} in FEN {fen!r}")
                pieces[sq] = (colour, king)
    return parts[0], pieces


def format_fen(side: str, pieces: Pieces) -> str:
    """Format a position as ``W:W21,22,K30:B1,2,3`` (squares ascending, kings as K<n>)."""
    def squares(colour: str) -> str:
        return ",".join(("K" if king else "") + str(sq)
                        for sq, (c, king) in sorted(pieces.items()) if c == colour)
    return f"{side}:W{squares(WHITE)}:B{squares(BLACK)}"


def fen_problems(side: str, pieces: Pieces) -> List[str]:
    """Reasons a position is not a sensible game position (empty list if it is fine)."""
    problems = []
    for sq, (colour, king) in sorted(pieces.items()):
        if not king and colour == WHITE and sq <= 4:
            problems.append(f"white man on its crowning row ({sq})")
        if not king and colour == BLACK and sq >= 29:
            problems.append(f"black man on its crowning row ({sq})")
    if not any(c == side for c, _ in pieces.values()):
        problems.append("side to move has no pieces")
    return problems


# --------------------------------------------------------------------------------------------
# docs/RULES.md frame <-> pydraughts internal Game frame
# --------------------------------------------------------------------------------------------

def to_internal_square(variant: str, sq: int) -> int:
    return 33 - sq if variant == "english" else sq


def from_internal_square(variant: str, sq: int) -> int:
    return 33 - sq if variant == "english" else sq  # an involution in both variants


def _to_internal_colour(variant: str, colour: str) -> str:
    """docs/RULES.md colour -> internal Game colour letter (W = player 2, moving towards 1)."""
    if variant == "english":
        return BLACK if colour == WHITE else WHITE
    return colour


def to_hub_fen(variant: str, side: str, pieces: Pieces) -> str:
    """The internal Hub FEN (``W`` + 32 chars) of a docs/RULES.md-frame position."""
    board = ["e"] * 32
    for sq, (colour, king) in pieces.items():
        letter = "w" if _to_internal_colour(variant, colour) == WHITE else "b"
        board[to_internal_square(variant, sq) - 1] = letter.upper() if king else letter
    return _to_internal_colour(variant, side) + "".join(board)


def from_hub_fen(variant: str, hub: str) -> Tuple[str, Pieces]:
    """Inverse of ``to_hub_fen``."""
    side = _to_internal_colour(variant, hub[0].upper())  # the colour swap is an involution
    pieces: Pieces = {}
    for index, ch in enumerate(hub[1:]):
        if ch.lower() in "wb":
            colour = _to_internal_colour(variant, "W" if ch.lower() == "w" else "B")
            pieces[from_internal_square(variant, index + 1)] = (colour, ch.isupper())
    return side, pieces


class PdMove(NamedTuple):
    """One pydraughts legal move (one jump path), in the docs/RULES.md frame."""
    path: Tuple[int, ...]          # from, landing squares ..., to
    captured: Tuple[int, ...]      # captured squares in capture order (empty for a quiet move)
    crowns: bool                   # the moving piece is a king at the end of the move
    steps: List[List[int]]         # the move as pydraughts' internal Game wants it for push()

    @property
    def notation(self) -> str:
        """Crownhead's full-path notation: ``11-15`` or ``22x15x6``."""
        sep = "x" if self.captured else "-"
        return sep.join(map(str, self.path))

    def unique_key(self) -> Tuple[int, int, frozenset, bool]:
        """Moves with equal keys lead to the same position (docs/RULES.md "one move, two paths")."""
        return self.path[0], self.path[-1], frozenset(self.captured), self.crowns


class Generator:
    """Thin wrapper around pydraughts' internal Game for one variant (needs ``bootstrap()``)."""

    def __init__(self, variant: str):
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}")
        from draughts.core.game import Game  # imported lazily: only available inside the venv
        self._Game = Game
        self.variant = variant

    # Positions are passed around as internal Hub FEN strings (cheap, hashable).
    def hub(self, fen: str) -> str:
        side, pieces = parse_fen(fen)
        return to_hub_fen(self.variant, side, pieces)

    def fen(self, hub: str) -> str:
        return format_fen(*from_hub_fen(self.variant, hub))

    def game(self, hub: str):
        return self._Game(self.variant, hub)

    def legal_moves(self, hub: str) -> List[PdMove]:
        """All legal moves (every jump path) of the position, as pydraughts generates them."""
        game = self.game(hub)
        moves, captures = game.legal_moves()
        result = []
        v = self.variant
        side = hub[0]
        promotion_squares = range(1, 5) if side == "W" else range(29, 33)  # internal frame
        for steps, caps in zip(moves, captures):
            path = [steps[0][0]] + [step[1] for step in steps]
            start_king = hub[path[0]].isupper()
            # A brazilian man that passes the king row during a capture goes on as a man: only
            # where the move ends crowns it.
            passed = path[-1:] if v == "brazilian" else path[1:]
            crowns = start_king or any(sq in promotion_squares for sq in passed)
            caps = [] if caps and caps[0] is None else caps
            result.append(PdMove(
                path=tuple(from_internal_square(v, sq) for sq in path),
                captured=tuple(from_internal_square(v, sq) for sq in caps),
                crowns=crowns,
                steps=[list(step) for step in steps],
            ))
        return result

    def play(self, hub: str, move: PdMove) -> str:
        """The Hub FEN after ``move``."""
        game = self.game(hub)
        game.push([list(step) for step in move.steps])
        return game.get_fen()

    def perft(self, hub: str, depth: int,
              cache: Optional[dict] = None) -> Tuple[List[int], List[int]]:
        """Leaf counts for depths 1..depth from ``hub``: (paths, unique).

        paths counts every pydraughts move (jump path); unique merges moves with the same from
        square, to square, captured set and final king status.  Moves that are merged lead to
        the same position, so one child per unique move is searched and weighted by its number
        of paths.  Results are memoised per (position, depth).
        """
        if cache is None:
            cache = {}
        key = (hub, depth)
        if key in cache:
            return cache[key]
        paths = [0] * depth
        unique = [0] * depth
        groups: Dict[tuple, List[PdMove]] = {}
        for move in self.legal_moves(hub):
            groups.setdefault(move.unique_key(), []).append(move)
        for group in groups.values():
            weight = len(group)
            paths[0] += weight
            unique[0] += 1
            if depth > 1:
                child_paths, child_unique = self.perft(self.play(hub, group[0]), depth - 1, cache)
                for i in range(depth - 1):
                    paths[i + 1] += weight * child_paths[i]
                    unique[i + 1] += child_unique[i]
        cache[key] = (paths, unique)
        return paths, unique


# --------------------------------------------------------------------------------------------
# Reference data copied from docs/RULES.md
# --------------------------------------------------------------------------------------------

# Start position perft: depth -> (paths, unique).
START_PERFT = {
    "english": [(7, 7), (49, 49), (302, 302), (1469, 1469), (7361, 7361), (36768, 36768),
                (179740, 179740), (845931, 845931)],
    "russian": [(7, 7), (49, 49), (302, 302), (1469, 1469), (7482, 7482), (37986, 37986),
                (190146, 190146), (929905, 929899)],
    # positions/perft_variants.txt (to depth 8, where paths and orders agree).
    "brazilian": [(7, 7), (49, 49), (302, 302), (1469, 1469), (7473, 7473), (37628, 37628),
                  (187302, 187302), (907836, 907830)],
    "italian": [(7, 7), (49, 49), (302, 302), (1469, 1469), (7361, 7361), (36473, 36473),
                (177532, 177532), (828783, 828783)],
}

START_MOVES = {
    "russian": {"21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"},
    "english": {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"},
    "brazilian": {"21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"},
    "italian": {"21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"},
}


def _pp(text: str) -> List[Tuple[int, int]]:
    """Parse a docs/RULES.md perft row such as ``2/1 8/4 62/31`` (``n``: paths = unique = n)."""
    out = []
    for cell in text.split():
        paths, _, unique = cell.partition("/")
        out.append((int(paths), int(unique or paths)))
    return out


# The "Rule positions" table of docs/RULES.md:
# (variant, FEN, [(paths, unique) for d = 1, 2, ...], rule).
RULE_POSITIONS = [
    ("english", "B:W26,27:B22", _pp("1 2 4 8 32 56"), "crowned on 31, the move ends"),
    ("english", "B:W17,18,24,25,26,27,28,29,32:B1,2,3,4,6,7,8,9,10,12,K30",
     _pp("2/1 8/4 62/31 290/145 2106/1053 9026/4513"), "king ring capture, two paths"),
    ("english", "W:WK14,K23,25,27,31:B6,7,10,K19,K26", _pp("3 4 10 54 233 1215"),
     "kings of both sides"),
    ("russian", "W:W12:B8,14,26", _pp("1 0"),
     "crowned mid-capture, goes on: h6:f8:b4:e1 is the only move"),
    ("russian", "B:W26,27:B22", _pp("2 0"), "crowned on e1, goes on as king, lands g3 or h4"),
    ("russian", "B:W14,15,22,23,24,25,27,28,29,30,31,32:B1,2,3,4,5,7,8,9,10,11,12",
     _pp("4/3 17/10 138/75 1065/569 8115/4279 57931/30633"), "a man's diamond loop"),
    ("russian", "W:WK24,K32:B8,16,17,18,19,28", _pp("4 21 117 432 4498/4496 18624/18612"),
     "Turkish strike (lifting early gives 7)"),
    ("russian", "W:WK15,K28:BK6,11,22,24", _pp("6 46 197/177 1135/1095 9270/8666 52856/51220"),
     "Turkish strike, landing choices"),
    ("russian", "W:WK14,K23,25,27,31:B6,7,10,K19,K26", _pp("4 7 27 105 452 2558/2557"),
     "kings of both sides"),
]
