"""Play complete games between pydraughts' HubEngine and Crownhead's Hub protocol.

pydraughts (PyPI) is the Python library that lidraughts-bot and other tools use to drive Hub
engines.  This script checks that Crownhead works with it as those tools would use it:

* for each pydraughts version (0.6.7, the current one, and 0.5.7, the one lidraughts-bot pins) it
  makes that version's virtual environment from its requirements file beside this script
  (``requirements-pydraughts.txt``, ``requirements-pydraughts-0.5.7.txt``) and re-runs itself
  there as a worker;
* the worker starts ``crownhead hub --tt-size=20 --book=false`` through ``HubEngine`` (the extra
  ``--key=value`` arguments are what lidraughts-bot appends), sets ``variant`` and the square
  ``frame`` (``pydraughts06`` for 0.6.x, whose moves and positions use different frames;
  ``consistent`` for 0.5.x), and plays games in every variant pydraughts knows (russian,
  english, brazilian, italian): Crownhead plays one side through
  ``HubEngine.play`` with a rotating mix of limits (depth, nodes, move time, clock), pydraughts
  plays seeded random legal moves for the other (legal by both: see `Side.choices`);
* every Crownhead move (and ponder move) must parse as a legal move in pydraughts' own rules,
  every game must end by pydraughts' rules (a win or a rule draw) before a ply cap, and
  pydraughts must log no warning about an unexpected engine line.

Usage:

    python3 -m scripts.oracles.hub_pydraughts            # 6 games per variant and version
    python3 -m scripts.oracles.hub_pydraughts --short    # 2 games per variant and version (CI)
    python3 -m scripts.oracles.hub_pydraughts --games 20 --versions 0.5.7 --variants russian
    python3 -m scripts.oracles.hub_pydraughts --engine path/to/crownhead

Exit status: 0 when every game passed, 1 otherwise.  Only python3 (with venv and pip) is needed;
the engine is built with ``cargo build --release`` if it is missing.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import subprocess
import sys

from scripts.lib import venv
from scripts.lib.engine import RELEASE_BINARY, REPO_ROOT

HERE = os.path.dirname(os.path.abspath(__file__))
# Each version's requirements file: 0.6.7 is the oracles' own pydraughts.
REQUIREMENTS = {"0.6.7": os.path.join(HERE, "requirements-pydraughts.txt"),
                "0.5.7": os.path.join(HERE, "requirements-pydraughts-0.5.7.txt")}
VERSIONS = tuple(REQUIREMENTS)
VARIANTS = ("russian", "english", "brazilian", "italian")
PLY_CAP = 400


# --------------------------------------------------------------------------------------------
# Driver: one virtual environment per pydraughts version (standard library only)
# --------------------------------------------------------------------------------------------

def venv_python(version: str) -> str:
    """The interpreter of the venv for `version`, created and filled on first use."""
    return venv.ensure(REQUIREMENTS[version])


def driver(args: argparse.Namespace) -> int:
    engine = os.path.abspath(args.engine)
    if not os.path.exists(engine):
        print("building the engine: cargo build --release", flush=True)
        subprocess.run(["cargo", "build", "--release"], cwd=REPO_ROOT, check=True)
    failed = []
    for version in args.versions:
        python = venv_python(version)
        cmd = [python, "-m", __spec__.name, "--worker", version, "--engine", engine,
               "--games", str(args.games), "--seed", str(args.seed), "--variants", *args.variants]
        if args.frame:
            cmd += ["--frame", args.frame]
        print(f"== pydraughts {version}", flush=True)
        if subprocess.run(cmd, cwd=REPO_ROOT).returncode != 0:
            failed.append(version)
    print("ALL PASSED" if not failed else f"FAILED with pydraughts {' '.join(failed)}")
    return 1 if failed else 0


# --------------------------------------------------------------------------------------------
# Worker: runs inside a venv with one pydraughts version
# --------------------------------------------------------------------------------------------

class WarningCounter(logging.Handler):
    """Collects pydraughts' warnings: it logs one for every engine line it did not expect."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


class Side:
    """The game as one pydraughts version models it: 0.6 has `Board`, 0.5 only `Game`."""

    def __init__(self, version: str, variant: str) -> None:
        import draughts
        self.new_api = not version.startswith("0.5")
        model = draughts.Board if self.new_api else draughts.Game
        self.board = model(variant=variant)

    def legal(self):
        """The legal moves as pydraughts' board moves (lists of [from, to] steps)."""
        if self.new_api:
            return [m.board_move for m in self.board.legal_moves()]
        return self.board.legal_moves()[0]

    def choices(self, legal, exe: str, variant: str) -> list:
        """The moves of `legal` that the random side may play. pydraughts 0.5 lets a flying king
        stop on any square behind a captured piece even where, from another one, it could
        capture on, which the rules forbid (a move that Crownhead rightly refuses): in the
        flying-king variants, whose numbering 0.5's board shares with Crownhead's, only the
        moves whose first and last squares Crownhead's own `moves` lists are kept."""
        if self.new_api or variant not in ("russian", "brazilian"):
            return legal
        out = subprocess.run([exe, "moves", "--variant", variant],
                             input=self.board.get_li_fen() + "\n", capture_output=True,
                             text=True, check=True).stdout
        ends = {(int(m.replace("x", "-").split("-")[0]), int(m.replace("x", "-").split("-")[-1]))
                for m in out.split()}
        kept = [m for m in legal if (m[0][0], m[-1][1]) in ends]
        assert kept, f"no move of pydraughts' {legal} is one of Crownhead's: {out.strip()}"
        return kept

    def push_board_move(self, board_move) -> None:
        if self.new_api:
            import draughts
            self.board.push(draughts.Move(self.board, board_move=board_move))
        else:
            self.board.push(board_move)

    def over(self) -> bool:
        return self.board.is_over()

    def winner(self):
        return self.board.winner() if self.new_api else self.board.get_winner()

    def plies(self) -> int:
        return len(self.board.move_stack)


def limits(game_index: int, ply: int):
    """A rotating mix of the limits pydraughts can send (each becomes one `level` line)."""
    from draughts.engine import Limit
    choices = [Limit(depth=2), Limit(nodes=2000), Limit(movetime=0.02), Limit(time=5, inc=0.05),
               Limit(depth=3)]
    return choices[(game_index + ply) % len(choices)]


def play_game(engine, exe: str, version: str, variant: str, index: int,
              rng: random.Random) -> str:
    """One game; returns a result text, or raises AssertionError on a failure."""
    side = Side(version, variant)
    engine_plays_first = index % 2 == 0
    while not side.over():
        assert side.plies() < PLY_CAP, f"no result by the rules after {PLY_CAP} plies"
        engine_to_move = (side.plies() % 2 == 0) == engine_plays_first
        legal = side.legal()
        if not engine_to_move:
            side.push_board_move(rng.choice(side.choices(legal, exe, variant)))
            continue
        try:
            result = engine.play(side.board, limits(index, side.plies()), False)
        except KeyError as e:
            raise AssertionError(f"engine move not legal in pydraughts: {e!r}") from None
        move = result.move
        assert move is not None and move.board_move in legal, \
            f"illegal move {move and move.hub_move}"
        side.push_board_move(move.board_move)
    winner = side.winner()
    if winner == 0:
        return f"draw in {side.plies()} plies"
    assert winner in (1, 2), f"game over without a winner: {winner!r}"
    # pydraughts' WHITE is 2. It moves first, except that 0.6's english Board reports colours in
    # English terms, where Black (1) moves first.
    first = 1 if side.new_api and side.board.variant == "english" else 2
    who = "crownhead" if (winner == first) == engine_plays_first else "random"
    return f"{who} wins in {side.plies()} plies"


def worker(args: argparse.Namespace) -> int:
    import draughts
    from draughts.engine import HubEngine
    version = args.worker
    assert draughts.__version__ == version, draughts.__version__
    counter = WarningCounter()
    logging.getLogger("pydraughts").addHandler(counter)
    frame = args.frame or ("consistent" if version.startswith("0.5") else "pydraughts06")
    failures = 0
    for variant in args.variants:
        engine = HubEngine([args.engine, "hub", "--tt-size=20", "--book=false"])
        assert engine.id.get("name") == "Crownhead", engine.id
        assert set(VARIANTS) <= engine.variants, engine.variants
        engine.configure({"variant": variant, "frame": frame})
        engine.init()
        rng = random.Random(f"{args.seed}:{version}:{variant}")
        for index in range(args.games):
            try:
                text = play_game(engine, args.engine, version, variant, index, rng)
                status = "ok"
            except AssertionError as e:
                text, status = str(e), "FAIL"
                failures += 1
            if counter.messages:
                status, text = "FAIL", f"{text}; pydraughts warnings: {counter.messages[:3]}"
                failures += 1
                counter.messages.clear()
            print(f"{status:4} pydraughts {version} {variant:8} game {index + 1}: {text}",
                  flush=True)
        engine.quit()
        try:
            engine.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            engine.kill_process()
            print(f"FAIL {variant}: the engine did not exit after quit")
            failures += 1
        for pipe in (engine.p.stdin, engine.p.stdout):
            if pipe:
                pipe.close()
    print(f"pydraughts {version}: {failures} failure(s)")
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default=RELEASE_BINARY)
    parser.add_argument("--games", type=int, default=6, help="games per variant and version")
    parser.add_argument("--short", action="store_true", help="2 games per variant and version")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--versions", nargs="+", default=list(VERSIONS), choices=VERSIONS)
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=VARIANTS)
    parser.add_argument("--frame", choices=("consistent", "pydraughts06"),
                        help="force the Hub frame param (default: the one each version needs); "
                             "forcing the wrong one must make the games fail")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.short:
        args.games = 2
    return worker(args) if args.worker else driver(args)


if __name__ == "__main__":
    sys.exit(main())
