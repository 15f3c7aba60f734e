"""Load Crownhead's CheckerBoard engine library the way a host does and check it.

The library is ``target/release/libcrownhead.so`` (``cargo build --release``), loaded with
``ctypes`` as pydraughts' ``CheckerBoardEngine`` loads a CheckerBoard DLL, and called through its
three exports with CheckerBoard's own structures and frame.  Every check that involves a move is
judged by pydraughts 0.6.7 (an independent implementation of both variants' rules), through the
square mapping of ``scripts/oracles/pydraughts_bridge.py``.  In both variants (English gametype
21, Russian 25):

* ``name``, ``get protocolversion``, ``set``/``get gametype``;
* the board frame: the conversion here, written from the header, equals pydraughts' own
  (``get_board``) on random positions;
* moves: on random-game positions ``getmove`` plays a move legal in pydraughts' rules, the board
  it writes back is the position after that move, and its ``CBmove`` (from, to, landing squares,
  captured squares and pieces in order, old and new piece) describes the same move; ``islegal``
  accepts each legal from-to pair with a matching ``CBmove`` and refuses pairs that are not
  moves; ``get movelist`` lists exactly pydraughts' moves, and ``movelist 0`` when there is none;
* ``*playnow`` set from another thread ends a 60-second search within 50 ms, while the status
  text, read meanwhile as CheckerBoard reads it, is always NUL-terminated and shows progress,
  and ``enginecommand`` answers during the search at once (refusing ``set hashsize``);
* ``maxtime`` is kept: the mean time used over bench positions is between 0.9 and 1.1 of it;
* bad boards, colours, times, commands and null pointers are refused with an explanation, and
  the library plays on afterwards;
* ``set gamehist`` makes the game's history visible: a losing side completes a threefold
  repetition (and ``getmove`` returns ``CB_DRAW``) only when the history shows the two earlier
  occurrences, and a king move that reaches the move-count rule (Russian 15 king-only moves,
  English 40 moves) is a draw only with the history that counts them; the histories that
  pydraughts' ``CheckerBoardEngine`` sends are read to the position on its board.

Usage:

    python3 -m scripts.ci.checkerboard_host            # the full checks (about a minute)
    python3 -m scripts.ci.checkerboard_host --short    # fewer positions and shorter times (CI)
    python3 -m scripts.ci.checkerboard_host --library path/to/libcrownhead.so

Exit status 0 when every check passed, 1 otherwise.  Only python3 is needed: pydraughts comes in a
virtual environment made on first use (``pydraughts_bridge.bootstrap``).  The module's helpers
(``Library``, the board conversion, ``judge``) serve ``checkerboard_games`` too.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from typing import List, NamedTuple, Optional, Tuple

from scripts.lib.engine import RELEASE_LIBRARY, REPO_ROOT
from scripts.oracles import pydraughts_bridge as pb  # standard library only at import time

GAMETYPES = {"english": 21, "russian": 25}

# cb_interface.h
CB_WHITE, CB_BLACK, CB_MAN, CB_KING = 1, 2, 4, 8
CB_DRAW, CB_WIN, CB_LOSS, CB_UNKNOWN = 0, 1, 2, 3
CB_RESET_MOVES, CB_EXACT_TIME, CB_INCR_TIME_SHIFT = 1, 2, 2


class Coor(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int)]


class CBmove(ctypes.Structure):
    _fields_ = [("jumps", ctypes.c_int), ("newpiece", ctypes.c_int), ("oldpiece", ctypes.c_int),
                ("from_", Coor), ("to", Coor), ("path", Coor * 12), ("del_", Coor * 12),
                ("delpiece", ctypes.c_int * 12)]


Board = (ctypes.c_int * 8) * 8


# --------------------------------------------------------------------------------------------
# CheckerBoard's frame, written from cb_interface.h (independently of the library's code)
# --------------------------------------------------------------------------------------------

def coors(square: int) -> Tuple[int, int]:
    """``numbertocoors`` of cb_interface.h for English and Russian: square -> (x, y)."""
    n = square - 1
    y = n // 4
    x = 2 * (3 - n % 4) + (y % 2)
    return x, y


SQUARE_AT = {coors(n): n for n in range(1, 33)}


def to_board(pieces: pb.Pieces) -> "Board":
    """A board array of a position in the docs/RULES.md numbering, which is CheckerBoard's."""
    board = Board()
    for sq, (colour, king) in pieces.items():
        x, y = coors(sq)
        board[x][y] = (CB_WHITE if colour == "W" else CB_BLACK) | (CB_KING if king else CB_MAN)
    return board


def from_board(board: "Board") -> pb.Pieces:
    pieces: pb.Pieces = {}
    for (x, y), sq in SQUARE_AT.items():
        v = board[x][y]
        if v:
            pieces[sq] = ("W" if v & CB_WHITE else "B", bool(v & CB_KING))
    return pieces


def colour_code(side: str) -> int:
    return CB_WHITE if side == "W" else CB_BLACK


def piece_code(piece: Tuple[str, bool]) -> int:
    return colour_code(piece[0]) | (CB_KING if piece[1] else CB_MAN)


# --------------------------------------------------------------------------------------------
# The library through ctypes
# --------------------------------------------------------------------------------------------

class Played(NamedTuple):
    result: int
    board: "Board"
    move: CBmove
    status: str
    elapsed: float


class Library:
    """The three exports of a CheckerBoard engine library."""

    def __init__(self, path: str):
        self.path = path
        self.lib = ctypes.CDLL(path)
        self.lib.getmove.argtypes = [ctypes.POINTER(Board), ctypes.c_int, ctypes.c_double,
                                     ctypes.c_char_p, ctypes.POINTER(ctypes.c_int), ctypes.c_int,
                                     ctypes.c_int, ctypes.POINTER(CBmove)]
        self.lib.getmove.restype = ctypes.c_int
        self.lib.enginecommand.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
        self.lib.enginecommand.restype = ctypes.c_int
        self.lib.islegal.argtypes = [ctypes.POINTER(Board), ctypes.c_int, ctypes.c_int,
                                     ctypes.c_int, ctypes.POINTER(CBmove)]
        self.lib.islegal.restype = ctypes.c_int

    def command(self, text) -> Tuple[int, str]:
        """``enginecommand``: (returned value, reply)."""
        cmd = ctypes.create_string_buffer(text if isinstance(text, bytes) else text.encode(),
                                          max(256, len(text) + 1))
        reply = ctypes.create_string_buffer(b"\x55" * 1023, 1024)
        handled = self.lib.enginecommand(cmd, reply)
        assert b"\0" in reply.raw, "reply without a NUL"
        return handled, reply.value.decode(errors="replace")

    def getmove(self, board: "Board", colour: int, maxtime: float, info: int = 0,
                moreinfo: int = 0, playnow: Optional[ctypes.c_int] = None,
                status: Optional[ctypes.Array] = None) -> Played:
        status = status if status is not None else ctypes.create_string_buffer(1024)
        playnow = playnow if playnow is not None else ctypes.c_int(0)
        move = CBmove()
        start = time.perf_counter()
        result = self.lib.getmove(ctypes.byref(board), colour, maxtime, status,
                                  ctypes.byref(playnow), info, moreinfo, ctypes.byref(move))
        elapsed = time.perf_counter() - start
        assert b"\0" in status.raw, "status text without a NUL"
        return Played(result, board, move, status.value.decode(errors="replace"), elapsed)

    def islegal(self, board: "Board", colour: int, src: int, dst: int) -> Tuple[int, CBmove]:
        move = CBmove()
        return self.lib.islegal(ctypes.byref(board), colour, src, dst, ctypes.byref(move)), move


def ensure_library(path: str) -> str:
    if not os.path.exists(path):
        print("building the library: cargo build --release", flush=True)
        subprocess.run(["cargo", "build", "--release"], cwd=REPO_ROOT, check=True)
    return os.path.abspath(path)


# --------------------------------------------------------------------------------------------
# Judging a move by pydraughts
# --------------------------------------------------------------------------------------------

def cbmove_problems(cb: CBmove, move: pb.PdMove, pieces: pb.Pieces) -> List[str]:
    """How `cb` differs from pydraughts' `move` of the position `pieces` (empty if it does not)."""
    problems = []
    jumps = len(move.captured)
    expect = {
        "jumps": (cb.jumps, jumps),
        "from": ((cb.from_.x, cb.from_.y), coors(move.path[0])),
        "to": ((cb.to.x, cb.to.y), coors(move.path[-1])),
        "oldpiece": (cb.oldpiece, piece_code(pieces[move.path[0]])),
        "newpiece": (cb.newpiece, piece_code((pieces[move.path[0]][0], move.crowns))),
        "path": ([(cb.path[i].x, cb.path[i].y) for i in range(1, max(jumps, 1))],
                 [coors(sq) for sq in move.path[1:-1]]),
        "del": ([(cb.del_[i].x, cb.del_[i].y) for i in range(jumps)],
                [coors(sq) for sq in move.captured]),
        "delpiece": (list(cb.delpiece[:jumps]), [piece_code(pieces[sq]) for sq in move.captured]),
    }
    for field, (got, want) in expect.items():
        if got != want:
            problems.append(f"{field} {got} != {want}")
    return problems


def judge(gen: pb.Generator, side: str, pieces: pb.Pieces,
          played: Played) -> Tuple[Optional[pb.PdMove], Optional[str]]:
    """The move `played` made from (side, pieces) if the board it wrote back is the position
    after a move legal in pydraughts and its CBmove describes that move (one of its jump paths);
    else (None, what is wrong)."""
    hub = pb.to_hub_fen(gen.variant, side, pieces)
    after = from_board(played.board)
    other = "B" if side == "W" else "W"
    candidates = [m for m in gen.legal_moves(hub)
                  if pb.from_hub_fen(gen.variant, gen.play(hub, m)) == (other, after)]
    if not candidates:
        return None, (f"the board written back ({pb.format_fen(other, after)}) is no legal move "
                      f"from {pb.format_fen(side, pieces)}")
    reasons = []
    for m in candidates:
        problems = cbmove_problems(played.move, m, pieces)
        if not problems:
            return m, None
        reasons.append(f"{m.notation}: {', '.join(problems)}")
    return None, f"CBmove does not describe the move played: {'; '.join(reasons)}"


# --------------------------------------------------------------------------------------------
# The checks
# --------------------------------------------------------------------------------------------

class Report:
    def __init__(self) -> None:
        self.failures = 0

    def check(self, ok: bool, what: str, detail: str = "") -> bool:
        if not ok:
            self.failures += 1
        print(f"{'ok  ' if ok else 'FAIL'} {what}{': ' + detail if detail else ''}", flush=True)
        return ok


def set_variant(lib: Library, variant: str) -> None:
    handled, reply = lib.command(f"set gametype {GAMETYPES[variant]}")
    assert handled == 1, reply


def random_positions(gen: pb.Generator, count: int, rng: random.Random):
    """(side, pieces) of positions from random games, each with at least one legal move."""
    out = []
    while len(out) < count:
        hub = gen.hub(pb.START_FENS[gen.variant])
        for _ in range(rng.randrange(0, 80)):
            moves = gen.legal_moves(hub)
            if not moves:
                break
            hub = gen.play(hub, rng.choice(moves))
        if gen.legal_moves(hub):
            out.append(pb.from_hub_fen(gen.variant, hub))
    return out


def check_identity(lib: Library, r: Report) -> None:
    handled, name = lib.command("name")
    r.check(handled == 1 and name.startswith("Crownhead"), "name", name)
    r.check(lib.command("get protocolversion") == (1, "2"), "get protocolversion is 2")
    for variant, number in GAMETYPES.items():
        set_variant(lib, variant)
        r.check(lib.command("get gametype") == (1, str(number)), f"{variant}: get gametype",
                str(number))


def check_frame(variant: str, positions: int, rng: random.Random, r: Report) -> None:
    """This script's board conversion (from cb_interface.h) against pydraughts' own one for
    CheckerBoard engines (`get_board`), and the colour code its CheckerBoardEngine sends."""
    import draughts
    from draughts.engines.checkerboard_extra.get_checker_board import get_board
    differ = []
    for _ in range(positions):
        board = draughts.Board(variant=variant)
        for _ in range(rng.randrange(0, 120)):
            moves = board.legal_moves()
            if not moves or board.is_over():
                break
            board.push(rng.choice(moves))
        side, pieces = pb.parse_fen(canonical_fen(board.fen))
        theirs = get_board(board)
        ours = to_board(pieces)
        colour = CB_WHITE if board.turn == draughts.WHITE else CB_BLACK
        if [list(c) for c in theirs] != [list(c) for c in ours] or colour != colour_code(side):
            differ.append(board.fen)
    r.check(not differ, f"{variant}: the board frame equals pydraughts' get_board on "
            f"{positions} positions", "; ".join(differ[:2]))


def check_moves(lib: Library, variant: str, positions: int, rng: random.Random, r: Report) -> None:
    set_variant(lib, variant)
    gen = pb.Generator(variant)
    bad_getmove, bad_islegal, bad_list, checked_pairs = [], [], [], 0
    for side, pieces in random_positions(gen, positions, rng):
        fen = pb.format_fen(side, pieces)
        played = lib.getmove(to_board(pieces), colour_code(side), 0.01, CB_RESET_MOVES)
        _, problem = judge(gen, side, pieces, played)
        if problem:
            bad_getmove.append(f"{fen}: {problem} ({played.status})")
        legal = gen.legal_moves(pb.to_hub_fen(variant, side, pieces))
        pairs = {(m.path[0], m.path[-1]) for m in legal}
        strangers = [(rng.randint(1, 32), rng.randint(1, 32)) for _ in range(3)]
        for src, dst in sorted(pairs) + strangers:
            ok, cb = lib.islegal(to_board(pieces), colour_code(side), src, dst)
            checked_pairs += 1
            same = [m for m in legal if (m.path[0], m.path[-1]) == (src, dst)]
            if ok != (1 if same else 0):
                bad_islegal.append(f"{fen} {src}-{dst}: islegal {ok}")
            elif ok and all(cbmove_problems(cb, m, pieces) for m in same):
                bad_islegal.append(f"{fen} {src}-{dst}: {cbmove_problems(cb, same[0], pieces)}")
        handled, text = lib.command(f"get movelist {fen}")
        listed = set()
        for entry in text[len("movelist "):].split(",", 1)[-1].split(";"):
            if "," in entry:
                f = [int(v) for v in entry.split(",")]
                jumps = f[0]
                caps = frozenset(f[6 + 3 * i] for i in range(jumps))
                listed.add((f[3], f[4], caps, bool(f[2] & CB_KING)))
        if handled != 1 or listed != {m.unique_key() for m in legal}:
            bad_list.append(f"{fen}: {text}")
    r.check(not bad_getmove, f"{variant}: getmove on {positions} random positions plays legal "
            "moves, board and CBmove as pydraughts", "; ".join(bad_getmove[:3]))
    r.check(not bad_islegal, f"{variant}: islegal on {checked_pairs} from-to pairs",
            "; ".join(bad_islegal[:3]))
    r.check(not bad_list, f"{variant}: get movelist equals pydraughts' moves",
            "; ".join(bad_list[:3]))
    for fen in ("W:W:B1,2", "B:W21,22:B", "W:W29:B25,22"):
        r.check(lib.command(f"get movelist {fen}") == (1, "movelist 0"),
                f"{variant}: get movelist {fen} is exactly 'movelist 0'")


def check_playnow(lib: Library, variant: str, tries: int, r: Report) -> None:
    """A long search stopped by *playnow from another thread; the status text sampled meanwhile."""
    set_variant(lib, variant)
    side, pieces = pb.parse_fen(pb.START_FENS[variant])
    latencies, samples, commands = [], [], []
    for _ in range(tries):
        playnow = ctypes.c_int(0)
        status = ctypes.create_string_buffer(1024)
        pressed = []

        def host() -> None:
            end = time.perf_counter() + 0.6
            while time.perf_counter() < end:
                samples.append(bytes(status.raw))  # as CheckerBoard's timer reads it
                time.sleep(0.02)
            t = time.perf_counter()
            commands.append((lib.command("get hashsize"), lib.command("set hashsize 16"),
                             time.perf_counter() - t))
            pressed.append(time.perf_counter())
            playnow.value = 1

        thread = threading.Thread(target=host)
        thread.start()
        played = lib.getmove(to_board(pieces), colour_code(side), 60.0, 0, 0, playnow, status)
        returned = time.perf_counter()
        thread.join()
        latencies.append(returned - pressed[0])
        if played.elapsed > 5:
            break
    worst = max(latencies)
    r.check(worst < 0.050, f"{variant}: *playnow ends a 60 s search", "stopped after "
            + ", ".join(f"{1000 * t:.1f} ms" for t in latencies))
    r.check(all(b"\0" in s for s in samples) and any(b"depth" in s for s in samples),
            f"{variant}: status text read during the search ({len(samples)} reads) is "
            "NUL-terminated and shows progress", samples[-1].split(b"\0")[0].decode()[:80])
    (get, refused, spent) = commands[-1]
    r.check(get == (1, "64") and refused[0] == 0 and "search is running" in refused[1]
            and spent < 0.05, f"{variant}: enginecommand during the search",
            f"get hashsize {get}, set hashsize {refused}, both in {1000 * spent:.1f} ms")


def forced_position(gen: pb.Generator, rng: random.Random) -> Tuple[str, pb.Pieces]:
    """A position from a random game with a single legal move and at least 14 pieces."""
    while True:
        hub = gen.hub(pb.START_FENS[gen.variant])
        for _ in range(60):
            moves = gen.legal_moves(hub)
            if not moves:
                break
            side, pieces = pb.from_hub_fen(gen.variant, hub)
            if len(moves) == 1 and len(pieces) >= 14:
                return side, pieces
            hub = gen.play(hub, rng.choice(moves))


def check_time(lib: Library, variant: str, maxtime: float, count: int, rng: random.Random,
               r: Report) -> None:
    """Mean time used over the bench's middlegame positions of the variant, against maxtime. In
    a small ending the search may see everything (its deepest depth) before the time is up and
    answer at once, so endings are left out here."""
    set_variant(lib, variant)
    gen = pb.Generator(variant)
    fens = []
    with open(os.path.join(REPO_ROOT, "positions", "bench.txt")) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if line.startswith(variant + ";"):
                fen = line.split(";", 1)[1]
                if len(pb.parse_fen(fen)[1]) >= 12 and len(gen.legal_moves(gen.hub(fen))) > 1:
                    fens.append(fen)
    ratios, shares, exhausted = [], [], 0
    for i, fen in enumerate(fens):
        if len(ratios) == count:
            break
        side, pieces = pb.parse_fen(fen)
        info = CB_EXACT_TIME if i % 2 else 0
        cpu = time.process_time()
        played = lib.getmove(to_board(pieces), colour_code(side), maxtime, info | CB_RESET_MOVES)
        if " depth 100 " in played.status:
            exhausted += 1  # nothing left to search: the answer comes at once, rightly
            continue
        ratios.append(played.elapsed / maxtime)
        shares.append((time.process_time() - cpu) / played.elapsed)
    mean = statistics.mean(ratios)
    r.check(0.9 <= mean <= 1.1, f"{variant}: maxtime {maxtime} s kept over {len(ratios)} moves",
            f"mean {mean:.3f} of maxtime, min {min(ratios):.3f}, max {max(ratios):.3f}; the "
            f"process had a core {100 * statistics.mean(shares):.0f}% of the time; "
            f"{exhausted} position(s) searched out before the time, left out")
    # A forced move (one legal move) gets a tenth of maxtime unless the time is exact.
    side, pieces = forced_position(gen, rng)
    quick = lib.getmove(to_board(pieces), colour_code(side), 1.0, CB_RESET_MOVES).elapsed
    exact = lib.getmove(to_board(pieces), colour_code(side), 0.3,
                        CB_EXACT_TIME | CB_RESET_MOVES).elapsed
    # A tenth is 0.1 s; the bounds leave room for a busy machine, and still tell a tenth from
    # the whole and an exact time from a shortened one.
    r.check(0.05 < quick < 0.3 and 0.27 < exact < 0.5, f"{variant}: a forced move",
            f"{quick:.3f} s of maxtime 1.0, {exact:.3f} s of an exact 0.3")
    # The incremental clock: 2 s left and 0.05 s a move, in 1 ms units.
    moreinfo = (2000 << 16) | 50
    side, pieces = pb.parse_fen(fens[0])
    used = lib.getmove(to_board(pieces), colour_code(side), 30.0,
                       1 << CB_INCR_TIME_SHIFT | CB_RESET_MOVES, moreinfo).elapsed
    r.check(0.01 < used < 0.5, f"{variant}: an incremental clock of 2 s + 0.05 s rules, not "
            "maxtime 30", f"{used:.3f} s")


def check_bad_input(lib: Library, r: Report) -> None:
    set_variant(lib, "english")
    side, pieces = pb.parse_fen(pb.START_FENS["english"])
    start = to_board(pieces)

    def altered(x: int, y: int, value: int) -> "Board":
        b = to_board(pieces)
        b[x][y] = value
        return b

    many = dict(pieces)
    many.update({sq: ("W", True) for sq in (13, 14, 15, 16, 17, 18)})  # 18 white pieces
    cases = [
        ("colour 0", start, 0, 0.01), ("colour 3", start, 3, 0.01), ("colour -1", start, -1, 0.01),
        ("value 3", altered(3, 3, 3), 2, 0.01), ("value 255", altered(3, 3, 255), 2, 0.01),
        ("value -6", altered(3, 3, -6), 2, 0.01), ("value 12", altered(3, 3, 12), 2, 0.01),
        ("a piece on a light square", altered(0, 1, CB_WHITE | CB_MAN), 2, 0.01),
        ("a white man on square 2", altered(*coors(2), CB_WHITE | CB_MAN), 2, 0.01),
        ("a black man on square 30", altered(*coors(30), CB_BLACK | CB_MAN), 2, 0.01),
        ("18 white pieces", to_board(many), 2, 0.01),
        ("maxtime NaN", start, 2, float("nan")),
    ]
    bad = []
    for what, board, colour, maxtime in cases:
        before = [list(col) for col in board]
        played = lib.getmove(board, colour, maxtime)
        unchanged = [list(col) for col in played.board] == before
        if not (played.result == CB_UNKNOWN and unchanged and played.move.jumps == 0
                and played.status.startswith("Crownhead error")):
            bad.append(f"{what}: returned {played.result}, board unchanged {unchanged}, "
                       f"status {played.status!r}")
    r.check(not bad, f"{len(cases)} bad boards, colours and times are refused, board unchanged",
            "; ".join(bad))
    print("     e.g. " + lib.getmove(cases[7][1], 2, 0.01).status, flush=True)
    commands = ["", "fly", "set hashsize", "set hashsize -5", "set hashsize 99999999999",
                "set gametype 99", "set gametype chess", "get movelist W:W99:B1",
                "get movelist nonsense", "set gamehist nonsense", "set gamehist B:W21-32:B1-12 1-2",
                "set book 3", "set dbpath /no/such/dir", "get wings", "x" * 5000,
                b"\xff\xfe set \x01 hashsize", "set searchthreads 0"]
    refused = [(c if isinstance(c, str) else repr(c))[:30] for c in commands
               if lib.command(c)[0] != 0]
    r.check(not refused, f"{len(commands)} bad commands return 0 with a reply", str(refused))
    print(f"     e.g. {lib.command('set hashsize -5')[1]!r}, {lib.command('fly')[1]!r}", flush=True)
    # Null pointers where the API has pointers.
    null_results = (lib.lib.getmove(None, 2, 0.01, None, None, 0, 0, None),
                    lib.lib.enginecommand(None, None), lib.lib.islegal(None, 2, 9, 13, None))
    r.check(null_results == (CB_UNKNOWN, 0, 0), "null pointers are refused", str(null_results))
    played = lib.getmove(to_board(pieces), colour_code(side), 0.02)
    r.check(judge(pb.Generator("english"), side, pieces, played)[1] is None,
            "the library plays on after all that", played.status)


def cycle_history(gen: pb.Generator, q_fen: str, white: Tuple[int, int],
                  black: Tuple[int, int]) -> Tuple[str, str, str]:
    """The gamehist of a four-ply cycle played twice from q_fen (Black to move): Black's king
    black[0]->black[1], White's white[1]->white[0], Black back, then White white[0]->white[1]
    (back to q_fen), and the first three plies again. Returns (gamehist, the final position P
    with White to move, the move that completes the threefold repetition of q_fen)."""
    cycle = [f"{black[0]}-{black[1]}", f"{white[1]}-{white[0]}", f"{black[1]}-{black[0]}",
             f"{white[0]}-{white[1]}"]
    moves = cycle + cycle[:3]
    hub = gen.hub(q_fen)
    for text in moves:
        found = [m for m in gen.legal_moves(hub) if m.notation == text]
        assert found, f"{text} is not legal in {gen.fen(hub)}"
        hub = gen.play(hub, found[0])
    return f"{q_fen} {' '.join(moves)}", gen.fen(hub), cycle[3]


def king_walk(gen: pb.Generator, start_fen: str, plies: int, seed: int) -> Tuple[str, str]:
    """A gamehist of `plies` quiet king moves from start_fen, with no capture on the way (no
    move leaves the other side a capture), no position three times, and that final position.
    Seeded random walks until one succeeds."""
    def has_capture(hub: str) -> bool:
        return any(m.captured for m in gen.legal_moves(hub))

    for attempt in range(200):
        rng = random.Random(f"{seed}:{attempt}")
        hub = gen.hub(start_fen)
        seen = {hub: 1}
        moves = []
        while len(moves) < plies:
            options = []
            for m in gen.legal_moves(hub):
                if m.captured or not hub[m.steps[0][0]].isupper():
                    continue  # only quiet king moves
                nxt = gen.play(hub, m)
                if seen.get(nxt, 0) < 2 and not has_capture(nxt):
                    options.append((m, nxt))
            if not options:
                break
            m, hub = rng.choice(options)
            seen[hub] = seen.get(hub, 0) + 1
            moves.append(m.notation)
        if len(moves) == plies:
            return f"{start_fen} {' '.join(moves)}", gen.fen(hub)
    raise RuntimeError(f"no king walk of {plies} plies from {start_fen}")


def check_history(lib: Library, variant: str, r: Report) -> None:
    set_variant(lib, variant)
    gen = pb.Generator(variant)
    # A lone white king against two kings and two men: White is lost, so a draw by threefold
    # repetition is its best result, and it is there only if the history is known.
    # The black kings on a1 and h8 see only the main road, which the white king keeps off.
    q_fen = "B:WK19:BK4,K29,12,20"
    gamehist, p_fen, repeat = cycle_history(gen, q_fen, (23, 19), (4, 8))
    side, pieces = pb.parse_fen(p_fen)
    assert side == "W"

    def move_of(played: Played) -> str:
        move, problem = judge(gen, side, pieces, played)
        return move.notation if move else str(problem)

    handled, reply = lib.command(f"set gamehist {gamehist}")
    with_history = lib.getmove(to_board(pieces), CB_WHITE, 0.3)
    without = lib.getmove(to_board(pieces), CB_WHITE, 0.3, CB_RESET_MOVES)
    r.check(handled == 1 and with_history.result == CB_DRAW and move_of(with_history) == repeat
            and without.result != CB_DRAW,
            f"{variant}: set gamehist shows a threefold repetition to the losing side",
            f"with the history {move_of(with_history)} returning {with_history.result} "
            f"(CB_DRAW is {CB_DRAW}); without it {move_of(without)} returning {without.result}")
    # The move-count rule: the engine's king move reaches it only counting the history.
    plies, rule = {"russian": (29, "15 king-only moves"), "english": (79, "40-move rule")}[variant]
    # Black moves first and last, so the lone white king, which has only king moves, makes the
    # ply that reaches the count.
    gamehist, p_fen = king_walk(gen, q_fen, plies, seed=GAMETYPES[variant])
    side, pieces = pb.parse_fen(p_fen)
    handled, reply = lib.command(f"set gamehist {gamehist}")
    with_history = lib.getmove(to_board(pieces), colour_code(side), 0.2)
    without = lib.getmove(to_board(pieces), colour_code(side), 0.2, CB_RESET_MOVES)
    r.check(handled == 1 and with_history.result == CB_DRAW and without.result != CB_DRAW,
            f"{variant}: set gamehist of {plies} king plies brings the {rule}",
            f"gamehist of {len(gamehist)} characters: {reply}; getmove returns "
            f"{with_history.result} with it, {without.result} without")


def canonical_fen(fen: str) -> str:
    """A FEN with numeric or algebraic squares (pydraughts writes Russian ones algebraically) in
    the canonical numeric form of the library's replies."""
    side, *groups = fen.split(":")
    pieces: pb.Pieces = {}
    for group in groups:
        for item in filter(None, group[1:].split(",")):
            king = item.startswith("K")
            text = item[1:] if king else item
            if text.isdigit():
                sq = int(text)
            else:
                sq = (8 - int(text[1:])) * 4 + (ord(text[0].lower()) - ord("a")) // 2 + 1
            pieces[sq] = (group[0], king)
    return pb.format_fen(side, pieces)


def check_pydraughts_gamehist(lib: Library, variant: str, games: int, rng: random.Random,
                              r: Report) -> None:
    """The `set gamehist` text that pydraughts' CheckerBoardEngine.play sends (its Board's last
    irreversible FEN and reversible moves, cut to 256 characters) is read to the right position."""
    import draughts
    set_variant(lib, variant)
    tested, cut, wrong = 0, 0, []
    for _ in range(games):
        board = draughts.Board(variant=variant)
        for _ in range(250):
            moves = board.legal_moves()
            if not moves or board.is_over():
                break
            board.push(rng.choice(moves))
            if not board._reversible_moves:
                continue
            reversible = " ".join(m.pdn_move for m in board._reversible_moves)
            gamehist = f"set gamehist {board._last_non_reversible_fen} {reversible}"
            if len(gamehist) > 256:  # as pydraughts 0.6.7 does, which drops the command word
                gamehist = " ".join(gamehist[-256:].split()[1:])
                cut += 1
            handled, reply = lib.command(gamehist)
            if gamehist.startswith("set gamehist"):
                tested += 1
                if handled != 1 or not reply.endswith(" to " + canonical_fen(board.fen)):
                    wrong.append(f"{gamehist!r}: {reply}")
            elif handled != 0:
                wrong.append(f"{gamehist!r} was taken for a command: {reply}")
    r.check(tested > 0 and not wrong, f"{variant}: pydraughts' own set gamehist strings are "
            "read to the board's position", f"{tested} histories with king moves, {cut} cut by "
            f"pydraughts to no command and refused; {'; '.join(wrong[:2])}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--library", default=RELEASE_LIBRARY)
    parser.add_argument("--short", action="store_true", help="fewer positions, shorter times")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pb.bootstrap()
    lib = Library(ensure_library(args.library))
    rng = random.Random(args.seed)
    r = Report()
    print(f"== {args.library}", flush=True)
    check_identity(lib, r)
    for variant in ("english", "russian"):
        check_frame(variant, 20 if args.short else 100, rng, r)
        check_moves(lib, variant, 40 if args.short else 150, rng, r)
        check_playnow(lib, variant, 2 if args.short else 5, r)
        check_time(lib, variant, 0.25 if args.short else 1.0, 4 if args.short else 10, rng, r)
        check_history(lib, variant, r)
        check_pydraughts_gamehist(lib, variant, 4 if args.short else 20, rng, r)
    check_bad_input(lib, r)
    print("ALL PASSED" if not r.failures else f"{r.failures} FAILED", flush=True)
    return 1 if r.failures else 0


if __name__ == "__main__":
    sys.exit(main())
