"""`python3 -m scripts.tools.cluster match`: `crownhead match` split into one Ray task per
opening.

Game i of a match plays opening i/2 with the first engine White when i is even, Black when odd
(src/tools/matches.rs). Task k runs `crownhead match --first-game 2k --games 2` with the same
engines and flags: exactly games 2k and 2k+1 of the local match, with their rounds. Results are
counted as the tasks finish: W-D-L and Elo with the formulas of `crownhead match` (stats.py),
the pentanomial counts of the pairs, and the SPRT, which cancels the outstanding tasks once it
decides. The PDN is written in opening order as the pairs in front are settled; a pair lost
after its retry leaves a gap that the report counts.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from .runner import make_job, openings_input
from .stats import SPRT_WORDS, Pentanomial, Tally, elo_text, sprt_bounds, sprt_state

# The flags the driver reads itself; every other flag goes to `crownhead match` unchanged.
HELP = "crownhead match over a Ray cluster, one task per opening (both colours)"


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", action="append", required=True,
                        help="an engine command, as for crownhead match (give two); "
                        "{crownhead} stands for the binary on the worker")
    parser.add_argument("--games", type=int, default=2, help="games, two per opening")
    parser.add_argument("--openings", help="opening file (sent to the workers with each task)")
    parser.add_argument("--pdn", help="the merged PDN, every game in opening order")
    parser.add_argument("--sprt", help="elo0,elo1: stop (cancelling what runs) when it decides")
    parser.add_argument("--max-lost", type=int, default=8,
                        help="stop when this many pairs are lost with none played "
                        "(an engine that cannot start)")


@dataclass
class GameResult:
    """One game of a pair: its index in the match and the first engine's points."""
    index: int
    points: float


_TAG = re.compile(r'^\[(\w+)\s+"([^"]*)"\]\s*$')


def parse_games(pdn: str) -> List[GameResult]:
    """The games of a pair's PDN, by their Round (game index + 1) and Result tags."""
    games, tags = [], {}
    for line in pdn.splitlines() + [""]:
        m = _TAG.match(line)
        if m:
            tags[m.group(1)] = m.group(2)
            continue
        if line.strip() == "" and "Round" in tags and "Result" in tags and tags.get("_body"):
            index = int(tags["Round"]) - 1
            white = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[tags["Result"]]
            games.append(GameResult(index, white if index % 2 == 0 else 1.0 - white))
            tags = {}
        elif line.strip():
            tags["_body"] = "1"
    return games


_FAULTS = re.compile(r"^Faults of .*: illegal moves (\d+), crashes (\d+), time forfeits (\d+)$")


def parse_faults(stdout: str) -> List[List[int]]:
    """The two `Faults of ...` lines of crownhead match's report: [illegal, crash, time] each."""
    found = [[int(x) for x in m.groups()] for m in map(_FAULTS.match, stdout.splitlines()) if m]
    return found if len(found) == 2 else [[0, 0, 0], [0, 0, 0]]


_SCORE = re.compile(r"^Score of (.*) vs (.*): ")


class Match:
    """The running totals of a match split into pairs."""

    def __init__(self, games: int, sprt: Optional[Tuple[float, float]], pdn_path: Optional[str]):
        self.games = games
        self.pairs = (games + 1) // 2
        self.sprt = sprt
        self.tally = Tally()
        self.penta = Pentanomial()
        self.faults = [[0, 0, 0], [0, 0, 0]]
        self.names = ["engine 1", "engine 2"]
        self.played = self.retried = self.lost = 0
        self.decided: Optional[str] = None
        self.lost_errors: List[str] = []
        self.pdn = open(pdn_path, "w") if pdn_path else None
        self.texts: Dict[int, Optional[str]] = {}
        self.next_to_write = 0

    def games_of(self, pair: int) -> int:
        return min(2, self.games - 2 * pair)

    def check(self, pair: int, result: Dict) -> None:
        """Refuses (so the pool retries) a pair whose PDN does not hold its games."""
        games = parse_games(result["files"].get("pair.pdn", b"").decode("utf-8", "replace"))
        want = list(range(2 * pair, 2 * pair + self.games_of(pair)))
        if [g.index for g in games] != want:
            raise ValueError(f"pair {pair + 1}: games {[g.index for g in games]} in its PDN, "
                             f"expected {want}")

    def settle(self, pair: int, result: Optional[Dict], errors: List[str]) -> str:
        """Counts a pair's outcome and returns the progress line."""
        self.retried += bool(errors)
        if result is None:
            self.lost += 1
            self.lost_errors.append(f"pair {pair + 1}: {errors[-1]}")
            self.texts[pair] = None
            head = f"pair {pair + 1}/{self.pairs} lost"
        else:
            self.played += 1
            text = result["files"]["pair.pdn"].decode("utf-8", "replace")
            games = parse_games(text)
            for g in games:
                self.tally.add(g.points)
            if len(games) == 2:
                self.penta.add(games[0].points, games[1].points)
            for i, f in enumerate(parse_faults(result["stdout"])):
                self.faults[i] = [a + b for a, b in zip(self.faults[i], f)]
            for line in result["stdout"].splitlines():
                m = _SCORE.match(line)
                if m:
                    self.names = [m.group(1), m.group(2)]
            self.texts[pair] = text
            scores = " ".join(f"{g.points:g}" for g in games)
            head = f"pair {pair + 1}/{self.pairs} ({scores}) in {result['seconds']:.1f} s"
        self._write_ready()
        line = (f"{head} | played {self.played} retried {self.retried} lost {self.lost} | "
                f"W {self.tally.wins} D {self.tally.draws} L {self.tally.losses} | penta "
                f"{'-'.join(map(str, self.penta.counts))} | Elo {elo_text(self.tally.elo())}")
        if self.sprt:
            llr = self.tally.llr(*self.sprt)
            line += f" | LLR {llr:.2f}"
            state = sprt_state(llr)
            if state != "continue" and self.decided is None:
                self.decided = state
        return line

    def _write_ready(self) -> None:
        while self.next_to_write in self.texts:
            text = self.texts.pop(self.next_to_write)
            if text is not None and self.pdn:
                self.pdn.write(text)
                self.pdn.flush()
            self.next_to_write += 1

    def finish(self, cancelled: int) -> str:
        """Writes what is left of the PDN (pairs in order, gaps skipped) and the report."""
        for pair in sorted(self.texts):
            text = self.texts[pair]
            if text is not None and self.pdn:
                self.pdn.write(text)
        if self.pdn:
            self.pdn.close()
        t = self.tally
        out = [f"Score of {self.names[0]} vs {self.names[1]}: {t.wins} - {t.losses} - "
               f"{t.draws} [{t.score():.3f}] {t.games()}",
               f"Wins {t.wins} Draws {t.draws} Losses {t.losses} (first engine's view)",
               f"Pentanomial (pairs scoring 0, 1/2, 1, 3/2, 2): "
               f"{' '.join(map(str, self.penta.counts))}",
               f"Elo difference: {elo_text(t.elo())} (95%); from the pairs: "
               f"{elo_text(self.penta.elo())}"]
        if self.sprt:
            e0, e1 = self.sprt
            llr = t.llr(e0, e1)
            lo, hi = sprt_bounds()
            verdict = SPRT_WORDS[self.decided or sprt_state(llr)]
            out.append(f"SPRT: elo0 {e0:g} elo1 {e1:g}: LLR {llr:.2f} bounds [{lo:.2f}, "
                       f"{hi:.2f}] {verdict}")
        for name, (illegal, crash, time) in zip(self.names, self.faults):
            out.append(f"Faults of {name}: illegal moves {illegal}, crashes {crash}, "
                       f"time forfeits {time}")
        out.append(f"Pairs: {self.pairs} planned, {self.played} played, {self.retried} retried, "
                   f"{self.lost} lost, {cancelled} cancelled")
        errors = sorted(self.lost_errors, key=lambda e: int(e.split()[1].rstrip(":")))
        out.extend(f"Lost {e}" for e in errors[:10])
        if len(errors) > 10:
            out.append(f"... and {len(errors) - 10} more pairs lost")
        return "\n".join(out)


def parse_sprt(text: Optional[str]) -> Optional[Tuple[float, float]]:
    if text is None:
        return None
    try:
        e0, e1 = (float(x) for x in text.split(","))
    except ValueError:
        e0, e1 = 0.0, 0.0
    if not e0 < e1:
        sys.exit(f"error: bad --sprt '{text}' (expected elo0,elo1 with elo0 < elo1)")
    return e0, e1


def jobs(args, extra: List[str], session) -> List[Dict]:
    """One job per pair: `crownhead match --first-game 2k --games 2` and the passed flags."""
    if len(args.engine) != 2:
        sys.exit(f"error: give exactly two --engine commands (got {len(args.engine)})")
    engines = [e.replace("{crownhead}", session.crownhead) for e in args.engine]
    inputs, openings = openings_input(args.openings)
    out = []
    for pair in range((args.games + 1) // 2):
        games = min(2, args.games - 2 * pair)
        argv = [session.crownhead, "match", "--engine", engines[0], "--engine", engines[1],
                "--first-game", str(2 * pair), "--games", str(games),
                "--pdn", "{dir}/pair.pdn", *openings, *extra]
        out.append(make_job(session, argv, "pair.pdn", inputs))
    return out


def run(args, extra: List[str], session, fault: Optional[Dict] = None) -> Match:
    """Plays the match; prints progress lines and the report; returns the totals."""
    from .pool import Pool

    if args.games < 1:
        sys.exit("error: --games must be at least 1")
    match = Match(args.games, parse_sprt(args.sprt), args.pdn)
    pool = Pool(session.in_flight, check=match.check, label=lambda k: f"pair {k + 1}")
    for pair, job in enumerate(jobs(args, extra, session)):
        if fault and fault.get("job") == pair:
            job = dict(job, fault=fault)
        pool.add(pair, job)
    cancelled = 0
    for outcome in pool.results():
        print(match.settle(outcome.key, outcome.result, outcome.errors), flush=True)
        if match.decided:
            cancelled = pool.cancel()
            print(f"SPRT: {SPRT_WORDS[match.decided]}; cancelled {cancelled} pairs",
                  flush=True)
            break
        if match.played == 0 and match.lost >= args.max_lost:
            cancelled = pool.cancel()
            print(f"stopping: {match.lost} pairs lost and none played; cancelled {cancelled}",
                  flush=True)
            break
    print(match.finish(cancelled), flush=True)
    return match
