"""Judge games played by a Windows build of Crownhead with the Linux engine.

Reads the games that ``cbhost.exe`` (the DLL test host) printed, or (``--pdn``) a PDN file that
the real CheckerBoard wrote (``checkerboard_wine.sh``):

    game-start GAMETYPE FEN
    move GAMETYPE PLY FEN_BEFORE MOVE FEN_AFTER RESULT
    game-end GAMETYPE PLIES END RESULT

and replays each game in the Linux ``crownhead`` over its UCI-style protocol: after every move,
``position fen START moves m1 ... mk`` and ``d``. A move is right when the Linux engine takes
it without an error and reaches the position the Windows side wrote (``FEN_AFTER``, when the
line has one); a game that ended with ``draw`` must be over in the Linux engine's rules too
(``Result: 1/2-1/2``), one that ended with ``no-move`` must leave the side to move without
a legal move, and a PDN game (which CheckerBoard ended) must be over.

Usage, from the repository root:
    python3 -m scripts.windows.check_games LOG [--engine target/release/crownhead]
        [--pdn GAMETYPE] [--expect N]
Prints one line per game and "N passed, N failed"; exit status 0 only when every game passed.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import List, Optional, Tuple

from scripts.lib.engine import RELEASE_BINARY, Engine

VARIANTS = {"21": "english", "25": "russian"}


class Game:
    def __init__(self, gametype: str, start: str) -> None:
        self.gametype = gametype
        self.start = start
        # (move, fen_after or None)
        self.moves: List[Tuple[str, Optional[str]]] = []
        self.end: Optional[str] = None


def read_pdn(path: str, gametype: str) -> List[Game]:
    """The games of a PDN file as CheckerBoard writes it (Game > copy): the start position
    from a FEN tag (else the variant's start), the moves, and how the game ended, read from
    its result or from CheckerBoard's closing comment ("CB declared draw ...")."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    games: List[Game] = []
    for chunk in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', chunk, re.M))
        gt = tags.get("GameType", gametype).split(",")[0] or gametype
        start = tags.get("FEN") or ("B:W21-32:B1-12" if gt == "21" else "W:W21-32:B1-12")
        body = re.sub(r"^\[.*\]\s*$", "", chunk, flags=re.M)
        comments = " ".join(re.findall(r"\{([^}]*)\}", body))
        body = re.sub(r"\{[^}]*\}", " ", body)
        g = Game(gt, start)
        for token in body.split():
            results = ("*", "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1")
            if re.fullmatch(r"\d+\.+", token) or token in results:
                continue
            token = re.sub(r"^\d+\.+", "", token)
            if token:
                g.moves.append((token, None))
        result = tags.get("Result", "*")
        # CheckerBoard ended the game (the caller knows): by its draw rules, else because the
        # side to move had no move; either way the game must be over in Crownhead's rules.
        g.end = "draw" if "declared draw" in comments or result in ("1/2-1/2", "1-1") else "over"
        games.append(g)
    return games


def read_games(path: str) -> List[Game]:
    games: List[Game] = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            words = line.split()
            if not words:
                continue
            if words[0] == "game-start" and len(words) >= 3:
                games.append(Game(words[1], words[2]))
            elif words[0] == "move" and games and len(words) >= 5:
                after = words[5] if len(words) >= 6 else None
                games[-1].moves.append((words[4], after))
            elif words[0] == "game-end" and games and len(words) >= 4:
                games[-1].end = words[3]
    return games


def judge(engine_path: str, game: Game) -> Tuple[bool, str]:
    variant = VARIANTS.get(game.gametype)
    if variant is None:
        return False, f"gametype {game.gametype} is not one Crownhead plays"
    engine = Engine.uci(engine_path, variant=variant)
    try:
        played: List[str] = []
        fields: dict = {}
        for ply, (move, after) in enumerate(game.moves):
            played.append(move)
            errors, fields = engine.show(game.start, played)
            if errors:
                return False, f"ply {ply} {move}: {errors[0]}"
            if after is not None and fields.get("FEN") != after:
                return False, f"ply {ply} {move}: engine has {fields.get('FEN')}, Windows {after}"
        if game.end is None:
            return False, "the game has no end line"
        if game.end == "draw" and not fields.get("Result", "").startswith("1/2-1/2"):
            return False, f"ended drawn, but the Linux engine's rules say {fields.get('Result')}"
        if game.end == "over" and "Result" not in fields:
            return False, "CheckerBoard ended the game, but the Linux engine plays on"
        if game.end == "no-move":
            if not game.moves:
                errors, fields = engine.show(game.start, [])
            if not fields.get("Legal moves", "x").strip() == "":
                return False, f"no move claimed, but legal moves: {fields.get('Legal moves')}"
        verdict = fields.get("Result", "game not over")
        return True, f"{len(game.moves)} moves right, ended {game.end} (Linux: {verdict})"
    finally:
        engine.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("log")
    parser.add_argument("--engine", default=RELEASE_BINARY)
    parser.add_argument("--expect", type=int, default=1, help="fewest games the log must hold")
    parser.add_argument(
        "--pdn",
        metavar="GAMETYPE",
        help="LOG is a PDN file (CheckerBoard's); GAMETYPE where it has no GameType tag",
    )
    parser.add_argument("--min-moves", type=int, default=10, help="fewest moves a game must have")
    args = parser.parse_args()
    games = read_pdn(args.log, args.pdn) if args.pdn else read_games(args.log)
    passed = failed = 0
    for g in games:
        ok, why = judge(args.engine, g)
        if ok and len(g.moves) < args.min_moves:
            ok, why = False, f"only {len(g.moves)} moves"
        print(f"{'ok' if ok else 'FAIL'} - {VARIANTS.get(g.gametype, g.gametype)} game: {why}")
        passed += ok
        failed += not ok
    if len(games) < args.expect:
        print(f"FAIL - {len(games)} games in {args.log}, expected at least {args.expect}")
        failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
