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
a legal move, and a PDN game (which CheckerBoard ended) must be over. One exception: a draw
that CheckerBoard declared by its 40-move rule is right when the game's last 79 plies had no
capture and no man move, as CheckerBoard counts (``detect_nonconversion_draws`` in its
utility.c: 40 moves of one side and 39 of the other), one ply fewer than Crownhead's rule
(docs/RULES.md: 40 moves by each side); the line then says which rule ended it.

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
        if "declared draw by 40-move rule" in comments:
            g.end = "draw-40"
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


# CheckerBoard's 40-move rule: this many plies in a row with no capture and no man move.
CB_FORTY_MOVE_PLIES = 79


def squares(fen: str) -> dict:
    """The pieces of a FEN (``W:WK2,5-7:B...``): square -> ``WK``, ``W``, ``BK`` or ``B``."""
    pieces = {}
    for side in fen.split(":")[1:]:
        colour = side[:1]
        for item in side[1:].split(","):
            king = item.startswith("K")
            item = item.lstrip("K")
            low, _, high = item.partition("-")
            if low.isdigit():
                for sq in range(int(low), int(high or low) + 1):
                    pieces[sq] = colour + ("K" if king else "")
    return pieces


def quiet_plies(fens: List[str], moves: List[str]) -> int:
    """How many of the last plies moved a king and took nothing; ``fens[i]`` is the position
    before ``moves[i]`` and ``fens[i + 1]`` the one after (numeric moves, as CheckerBoard's)."""
    count = 0
    for i in range(len(moves) - 1, -1, -1):
        before, after = squares(fens[i]), squares(fens[i + 1])
        start = re.split(r"[-x:]", moves[i])[0]
        king_moved = start.isdigit() and before.get(int(start), "").endswith("K")
        if len(after) < len(before) or not king_moved:
            break
        count += 1
    return count


def judge(engine_path: str, game: Game) -> Tuple[bool, str]:
    variant = VARIANTS.get(game.gametype)
    if variant is None:
        return False, f"gametype {game.gametype} is not one Crownhead plays"
    engine = Engine.uci(engine_path, variant=variant)
    try:
        played: List[str] = []
        fields: dict = {}
        fens = [game.start]
        for ply, (move, after) in enumerate(game.moves):
            played.append(move)
            errors, fields = engine.show(game.start, played)
            fens.append(fields.get("FEN", ""))
            if errors:
                return False, f"ply {ply} {move}: {errors[0]}"
            if after is not None and fields.get("FEN") != after:
                return False, f"ply {ply} {move}: engine has {fields.get('FEN')}, Windows {after}"
        if game.end is None:
            return False, "the game has no end line"
        if game.end == "draw-40" and not fields.get("Result", "").startswith("1/2-1/2"):
            quiet = quiet_plies(fens, [m for m, _ in game.moves])
            if quiet < CB_FORTY_MOVE_PLIES:
                return False, f"CheckerBoard's 40-move draw after {quiet} quiet plies"
            return True, (
                f"{len(game.moves)} moves right, drawn by CheckerBoard's 40-move rule after "
                f"{quiet} plies without a capture or a man move (Linux: game not over, its "
                f"rule needs 80)"
            )
        if game.end.startswith("draw") and not fields.get("Result", "").startswith("1/2-1/2"):
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
