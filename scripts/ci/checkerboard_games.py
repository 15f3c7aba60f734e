"""Whole games: Crownhead's CheckerBoard engine library against Crownhead's stdin engine.

One side is ``target/release/libcrownhead.so`` driven as CheckerBoard drives an engine DLL
(``ctypes``: ``set gamehist`` with the game since its last irreversible move, then ``getmove``
with a fixed ``maxtime`` and the board in CheckerBoard's frame); the other is
``target/release/crownhead`` speaking the UCI-style dialect (``position fen ... moves ...``,
``go movetime``).  pydraughts 0.6.7 referees: every move of both sides must be legal in its rules
(for the library, the board written back and the ``CBmove`` too, as in
``checkerboard_host``), and it ends the games by its rules (a side without moves, threefold
repetition, the variants' move-count draws), or a draw is adjudicated at 300 plies.  Each
opening (from ``positions/english_3move.txt`` and ``positions/russian_openings.txt``) is played
twice, the library taking each side once.

A game fails on an illegal move from either side, the stdin engine dying or not answering, a
library move that takes more than 50 ms over ``maxtime``, or a ``getmove`` verdict that the game
contradicts (a claimed win that ends in a loss, or the reverse).

Usage:

    python3 -m scripts.ci.checkerboard_games           # 20 games per variant, 0.1 s a move
    python3 -m scripts.ci.checkerboard_games --short   # 2 games per variant, 0.02 s (CI)
    python3 -m scripts.ci.checkerboard_games --games 6 --variants russian --maxtime 0.5

Exit status 0 when every game passed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import List, Tuple

from scripts.ci import checkerboard_host as host
from scripts.lib.engine import RELEASE_BINARY, RELEASE_LIBRARY, REPO_ROOT, Engine, EngineError
from scripts.oracles import pydraughts_bridge as pb

OPENING_FILES = {"english": "english_3move.txt", "russian": "russian_openings.txt"}
PLY_CAP = 300
OVERRUN = 0.050  # seconds over maxtime that count as a time overrun (default of --overrun)


class UciEngine:
    """Crownhead's stdin engine in the UCI-style dialect."""

    def __init__(self, path: str, variant: str) -> None:
        self.engine = Engine.uci(path, variant=variant, timeout=10, Hash=16)

    def bestmove(self, start_fen: str, moves: List[str], movetime: float) -> str:
        played = " moves " + " ".join(moves) if moves else ""
        self.engine.send(f"position fen {start_fen}{played}",
                         f"go movetime {round(1000 * movetime)}")
        return self.engine.read_until("bestmove", 10 + 2 * movetime)[-1].split()[1]

    def new_game(self) -> None:
        self.engine.send("ucinewgame")

    def quit(self) -> None:
        self.engine.close(timeout=5)


def square_number(text: str) -> int:
    """A square written as a number or algebraically, in the docs/RULES.md numbering."""
    if text.isdigit():
        return int(text)
    file, rank = ord(text[0].lower()) - ord("a"), int(text[1:])
    return (8 - rank) * 4 + file // 2 + 1


def path_of(text: str) -> Tuple[int, ...]:
    return tuple(square_number(s) for s in text.replace("x", "-").replace(":", "-").split("-"))


def openings(variant: str) -> List[str]:
    """The openings of the variant's file as FENs (lines of moves are played from the start)."""
    gen = pb.Generator(variant)
    out = []
    with open(os.path.join(REPO_ROOT, "positions", OPENING_FILES[variant])) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if not line:
                continue
            if ":" in line.split()[0]:
                out.append(line.split()[0])
                continue
            hub = gen.hub(pb.START_FENS[variant])
            for word in line.split():
                if word.endswith("."):
                    continue
                moves = [m for m in gen.legal_moves(hub) if m.path == path_of(word)]
                assert moves, f"{word} of {line!r} is not legal"
                hub = gen.play(hub, moves[0])
            out.append(gen.fen(hub))
    return out


class Stats:
    """What the library's moves of one variant's games show."""

    def __init__(self) -> None:
        # One (time / maxtime, share of a core, kind) per move; kind is "search", "forced" (one
        # legal move: a tenth of maxtime) or "out" (searched out, answered before the time).
        self.moves: List[Tuple[float, float, str]] = []
        # The rule of the first draw verdict of each game that had one, and whether pydraughts'
        # rules ended the game there too.
        self.draws: List[Tuple[str, bool]] = []

    def summary(self, maxtime: float, overrun: float) -> List[str]:
        def figures(rows: List[Tuple[float, float, str]]) -> str:
            ratios = [r for r, _, _ in rows] or [0.0]
            over = sum(r * maxtime > maxtime + overrun for r in ratios)
            return (f"{len(rows)}: mean {statistics.mean(ratios):.3f}, max {max(ratios):.3f} of "
                    f"maxtime, {over} over it by more than {1000 * overrun:.0f} ms")
        searched = [m for m in self.moves if m[2] == "search"]
        full = [m for m in searched if m[1] >= 0.9]
        shares = [c for _, c, _ in self.moves] or [0.0]
        confirmed = sum(ok for _, ok in self.draws)
        rules = sorted({rule for rule, _ in self.draws})
        return [
            f"  time, maxtime {maxtime} s: moves that searched {figures(searched)}",
            f"    of those with a full core (at least 90% of the time) {figures(full)}",
            "    all moves (forced ones take a tenth, searched-out ones less) "
            f"{figures(self.moves)}"
            f"; the process had a core {100 * statistics.mean(shares):.0f}% of the time",
            f"  draw verdicts (CB_DRAW) in {len(self.draws)} games, {confirmed} where pydraughts' "
            f"rules end the game too; rules: {', '.join(rules) or 'none'}",
        ]


def play_game(lib: host.Library, uci: UciEngine, variant: str, opening: str, library_side: str,
              maxtime: float, overrun: float, stats: Stats) -> Tuple[str, str]:
    """One game: (result for the library 'win'/'draw'/'loss', how it ended); raises
    AssertionError on a failure."""
    gen = pb.Generator(variant)
    game = gen.game(gen.hub(opening))  # pydraughts' own game, with its history and draw rules
    moves: List[str] = []
    since_irreversible: List[str] = []
    irreversible_fen = opening
    claim = None
    draw_verdict = False
    uci.new_game()
    while not game.is_over():
        if len(moves) >= PLY_CAP:
            return "draw", f"adjudicated at {PLY_CAP} plies"
        hub = game.get_fen()
        side, pieces = pb.from_hub_fen(variant, hub)
        legal = gen.legal_moves(hub)
        if side == library_side:
            handled, reply = lib.command(" ".join(["set gamehist", irreversible_fen]
                                                  + since_irreversible))
            assert handled == 1, f"set gamehist refused: {reply}"
            cpu = time.process_time()
            played = lib.getmove(host.to_board(pieces), host.colour_code(side), maxtime)
            share = (time.process_time() - cpu) / played.elapsed
            move, problem = host.judge(gen, side, pieces, played)
            assert move, f"library, ply {len(moves) + 1}: {problem} ({played.status})"
            kind = ("forced" if len(legal) == 1 else
                    "out" if " depth 100 " in played.status else "search")
            stats.moves.append((played.elapsed / maxtime, share, kind))
            if played.elapsed > maxtime + overrun:
                raise AssertionError(f"library took {played.elapsed:.3f} s of maxtime {maxtime}, "
                                     f"with a core {100 * share:.0f}% of that time")
            if played.result in (host.CB_WIN, host.CB_LOSS) and claim is None:
                claim = played.result
        else:
            text = uci.bestmove(opening, moves, maxtime)
            found = [m for m in legal if m.path == path_of(text)]
            assert found, f"stdin engine, ply {len(moves) + 1}: {text} is not legal"
            move = found[0]
        game.push([list(step) for step in move.steps])
        moves.append(move.notation)
        king_move = pieces[move.path[0]][1]
        if move.captured or not king_move:
            irreversible_fen = gen.fen(game.get_fen())
            since_irreversible = []
        else:
            since_irreversible.append(move.notation)
        if side == library_side and played.result == host.CB_DRAW and not draw_verdict:
            draw_verdict = True
            rule = played.status.split(" 1/2-1/2 ")[-1]
            stats.draws.append((rule, game.is_over()))
            if not game.is_over():
                print(f"     note: a draw verdict that pydraughts' rules do not share, ply "
                      f"{len(moves)} ({gen.fen(game.get_fen())}): {played.status}", flush=True)
    winner = game.get_winner()
    if winner == 0:
        result = "draw"
    else:
        # pydraughts' internal player 2 ('W') moves first: White in Russian, Black in English.
        first = "W" if variant == "russian" else "B"
        winner_side = first if winner == 2 else ("B" if first == "W" else "W")
        result = "win" if winner_side == library_side else "loss"
    assert not (claim == host.CB_WIN and result == "loss"), "claimed a win, lost"
    assert not (claim == host.CB_LOSS and result == "win"), "claimed a loss, won"
    return result, f"{len(moves)} plies by the rules" + (f", claimed {claim}" if claim else "")


def run(args: argparse.Namespace) -> int:
    pb.bootstrap()
    lib = host.Library(host.ensure_library(args.library))
    failures = 0
    summary = []
    for variant in args.variants:
        host.set_variant(lib, variant)
        uci = UciEngine(os.path.abspath(args.engine), variant)
        book = openings(variant)
        pairs = (args.games + 1) // 2
        picks = [book[(i * len(book)) // pairs] for i in range(pairs)]
        stats = Stats()
        score = {"win": 0, "draw": 0, "loss": 0}
        for index in range(args.games):
            opening = picks[index // 2]
            first = "W" if variant == "russian" else "B"
            side = pb.parse_fen(opening)[0]
            library_side = side if index % 2 == 0 else ("B" if side == "W" else "W")
            try:
                result, how = play_game(lib, uci, variant, opening, library_side, args.maxtime,
                                        args.overrun, stats)
                score[result] += 1
                status = "ok"
            except (AssertionError, EngineError) as e:
                result, how, status = "failed", str(e), "FAIL"
                failures += 1
                if isinstance(e, EngineError):
                    uci.quit()
                    uci = UciEngine(os.path.abspath(args.engine), variant)
            colour = "white" if library_side == "W" else "black"
            print(f"{status:4} {variant} game {index + 1}: library as {colour}"
                  f"{' (moves first)' if library_side == first else ''}: {result}, {how}",
                  flush=True)
        uci.quit()
        summary.append(f"{variant}: library {score['win']} wins, {score['draw']} draws, "
                       f"{score['loss']} losses in {args.games} games")
        summary += stats.summary(args.maxtime, args.overrun)
    print("\n".join(summary))
    print("ALL PASSED" if not failures else f"{failures} GAMES FAILED", flush=True)
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--library", default=RELEASE_LIBRARY)
    parser.add_argument("--engine", default=RELEASE_BINARY)
    parser.add_argument("--games", type=int, default=20, help="games per variant")
    parser.add_argument("--maxtime", type=float, default=0.1,
                        help="seconds a move, for both sides")
    parser.add_argument("--variants", nargs="+", default=["english", "russian"],
                        choices=["english", "russian"])
    parser.add_argument("--overrun", type=float, default=OVERRUN,
                        help="seconds over maxtime that fail a game (raise it only on a machine "
                             "too loaded to give the library its time)")
    parser.add_argument("--short", action="store_true", help="2 games per variant at 0.02 s")
    args = parser.parse_args()
    if args.short:
        args.games, args.maxtime = 2, 0.02
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
