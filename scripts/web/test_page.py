"""The browser tests of Crownhead's page, as a person uses it: the real server
(`crownhead web --port <free port>`), Debian's headless Chromium, mouse clicks on the board's
squares and on the page's buttons, keys, typing; every answer checked against the native engine.

    python3 -m scripts.web.test_page [--exe target/release/crownhead] [--shots DIR] [--full]

Checks: the page loads cross-origin isolated with no console errors; in every variant the page
offers, a whole game against the engine (level beginner) played by clicking squares, each engine
move confirmed legal by the native `moves --paths`; a multi-capture by its final square, the
compulsory capture shown when another piece is tried, and two captures ending on one square told
apart by the square in between; flip; take back, resign, a draw offer; a bad FEN and an illegal
setup (typed and placed with the mouse) refused with a message and the board unchanged; the
analysis panel's three lines, a click on a line's move; a published game (positions/games/)
imported, stepped through with the arrow keys, analysed whole at a fixed depth, the graph's
points (one a move) and marks compared with `crownhead analyze --json` at that depth; the PDN
exported and read back by `crownhead analyze`. Screenshots go to --shots (docs/img/ for the
docs) or a temporary folder. Exits non-zero if a check fails. --full plays more games.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time

from scripts.web import browser

browser.bootstrap()
# Selenium imports once bootstrap() has made its environment and run this module there.
from selenium.webdriver.common.actions.action_builder import ActionBuilder  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

ROOT = browser.ROOT
GAME = os.path.join(ROOT, "positions", "games", "tinsley_long_1947.pdn")
REVIEW_DEPTH = 4
FAILURES: list[str] = []


def check(ok: bool, what: str) -> bool:
    print(("PASS " if ok else "FAIL ") + what, flush=True)
    if not ok:
        FAILURES.append(what)
    return ok


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(exe: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    p = subprocess.Popen([exe, "web", "--port", str(port)], cwd=ROOT, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline().strip() if p.stdout else ""
    if not line.startswith("Crownhead is at "):
        err = p.stderr.read() if p.stderr else ""
        sys.exit(f"error: crownhead web did not start: {line} {err}")
    return p, line.split(" at ", 1)[1]


def js(driver, body: str, *args, timeout: float = 60):
    return browser.call(driver, body, *args, timeout=timeout)


def state(driver) -> dict:
    """What the page shows, read from its state (the same objects that drew it)."""
    return js(driver, """
        const c = window.crownhead, S = c.S, G = c.G;
        return {fen: G.fen(S.game), side: G.side(S.game), ply: S.ply, n: S.mainline.length,
                thinking: S.thinking, moves: S.mainline.map(m => m.text),
                paths: S.mainline.map(m => m.squares), caps: S.mainline.map(m => m.captured),
                legal: G.legal(S.game), result: G.result(S.game), ended: S.ended,
                interactive: c.board.interactive,
                message: document.getElementById('message').textContent,
                status: document.getElementById('status').textContent};""")


def wait(driver, pred, what: str, timeout: float = 60) -> dict:
    end = time.time() + timeout
    while True:
        s = state(driver)
        if pred(s):
            return s
        if time.time() > end:
            raise TimeoutError(f"waiting for {what}: {s['status']} / {s['message']}")
        time.sleep(0.05)


def click_square(driver, square: int) -> None:
    """A real mouse click at the square's centre on the screen."""
    p = js(driver, """const b = window.crownhead.board, r = b.svg.getBoundingClientRect();
        if (r.top < 0 || r.bottom > innerHeight) b.svg.scrollIntoView({block: 'nearest'});
        return b.centre(arguments[0]);""", square)
    ab = ActionBuilder(driver)
    ab.pointer_action.move_to_location(int(p["x"]), int(p["y"]))
    ab.pointer_action.click()
    ab.perform()


def click(driver, element_id: str) -> None:
    driver.find_element(By.ID, element_id).click()


def select(driver, element_id: str, value: str) -> None:
    Select(driver.find_element(By.ID, element_id)).select_by_value(value)


def enter_move(driver, move: dict, legal: list) -> None:
    """Clicks a move in: its piece, then its final square; when another move from that piece
    ends there too, the landing squares in between first."""
    sq = move["squares"]
    click_square(driver, sq[0])
    same_end = [m for m in legal if m["squares"][0] == sq[0] and m["squares"][-1] == sq[-1]]
    if len(same_end) > 1:
        click_square(driver, sq[-1])
        for s in sq[1:-1]:
            click_square(driver, s)
            if state(driver)["n"] > 0:
                break
    else:
        click_square(driver, sq[-1])


def native_paths(exe: str, variant: str, fen: str) -> set[str]:
    out = subprocess.run([exe, "moves", "--variant", variant, "--paths"], input=fen + "\n",
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


HUB_NAMES: list | None = None  # the page's Hub numbering of the current variant, if not PDN's


def path_text(squares: list, captured: list) -> str:
    """A path as the native `moves --paths` writes it: in the variant's own numbers (a mirror
    of the PDN numbers for Italian and Spanish)."""
    name = (lambda q: HUB_NAMES[q]) if HUB_NAMES else (lambda q: q)
    return ("x" if captured else "-").join(str(name(s)) for s in squares)


def load_names(driver) -> None:
    global HUB_NAMES
    HUB_NAMES = js(driver, "return window.crownhead.S.hubNames;")


def play_game(driver, exe: str, variant: str, rng: random.Random, max_plies: int) -> None:
    select(driver, "variant", variant)
    select(driver, "color", "white")
    select(driver, "level", "beginner")
    click(driver, "new")
    load_names(driver)
    s = wait(driver, lambda s: s["n"] == 0 or not s["thinking"], "a new game")
    engine_moves = 0
    human_moves = 0
    multi = 0
    while True:
        s = wait(driver, lambda s: not s["thinking"] and (s["interactive"] or s["result"]["over"]),
                 "the player's turn", timeout=90)
        if s["result"]["over"] or s["n"] >= max_plies:
            break
        legal = s["legal"]
        # A person who takes what is offered: the longest capture, else any move.
        longest = max(len(m["captured"]) for m in legal)
        choices = [m for m in legal if len(m["captured"]) == longest]
        move = rng.choice(choices)
        before = s["n"]
        enter_move(driver, move, legal)
        s = wait(driver, lambda s: s["n"] > before, f"the clicked move {move['text']}", timeout=10)
        if not check(s["paths"][before] == move["squares"] or s["moves"][before] == move["text"],
                     f"{variant}: clicking {move['text']} played it (got {s['moves'][before]})"):
            return
        human_moves += 1
        if len(move["captured"]) >= 2:
            multi += 1
    # Every engine move, checked against the native generator.
    s = state(driver)
    replay = js(driver, """
        const c = window.crownhead, S = c.S, G = c.G;
        const g = G.make(S.variant, S.startFen); const out = [];
        for (const m of S.mainline) {
          out.push([G.fen(g), m.squares, m.captured]);
          G.play(g, m.text);
        }
        return out;""")
    bad = []
    for fen, squares, captured in replay:
        if fen[0] == "B":  # the engine plays Black
            engine_moves += 1
            if path_text(squares, captured) not in native_paths(exe, variant, fen):
                bad.append((fen, path_text(squares, captured)))
    check(not bad,
          f"{variant}: all {engine_moves} engine moves legal by the native engine {bad[:2]}")
    over = s["result"]["over"]
    check(over, f"{variant}: a whole game by clicking, {s['n']} plies ({human_moves} clicked, "
          f"{multi} multi-captures), ended: {s['result']['result']} ({s['result']['reason']})")


def multi_capture(driver, exe: str, variant: str, rng: random.Random) -> None:
    """A position (found among random ones by the page's rules) where a man takes two or more
    pieces: typed in as a FEN; a piece that may not move is tried first (the compulsory capture
    is shown), then the capture is played by clicking the man and its final square."""
    fens = []
    for _ in range(3000):
        squares = rng.sample(range(5, 29), 7)
        fens.append(f"W:W{squares[0]},{squares[1]}:B{','.join(map(str, squares[2:]))}")
    found = js(driver, """
        const c = window.crownhead, G = c.G;
        for (const fen of arguments[0]) {
          let g; try { g = G.make(c.S.variant, fen); } catch (e) { continue; }
          const legal = G.legal(g);
          const m = legal.find(m => m.captured.length >= 2);
          if (!m) continue;
          const movers = new Set(legal.map(x => x.squares[0]));
          if (movers.size > 1) continue;  // the other man must be one that cannot move
          const last = (s) => s[s.length - 1];
          const same = legal.filter(x => x.squares[0] === m.squares[0] &&
                                         last(x.squares) === last(m.squares));
          if (same.length === 1) return [fen, m.squares[0], m.squares[m.squares.length - 1]];
        }
        return null;""", fens)
    if not check(found is not None, f"{variant}: a position with a multi-capture: {found}"):
        return
    fen, piece, final = found
    load_names(driver)
    select(driver, "color", "both")
    set_fen(driver, fen)
    s = state(driver)
    legal = s["legal"]
    caps = [m for m in legal if m["squares"][0] == piece and m["squares"][-1] == final]
    movers = {m["squares"][0] for m in legal}
    own = js(driver, """const c = window.crownhead; return c.G.pieces(c.S.game)
        .filter(p => p.color === c.G.side(c.S.game)).map(p => p.square);""")
    other = [sq for sq in own if sq not in movers]
    if other:
        click_square(driver, other[0])
        s = state(driver)
        forced = js(driver, "return document.querySelectorAll('#board .sq-forced').length;")
        check("compulsory" in s["message"] and forced >= 1,
              f"{variant}: trying a piece that cannot capture shows the compulsory capture "
              f"({forced} squares marked: {s['message']!r})")
    click_square(driver, piece)
    targets = js(driver, "return [...document.querySelectorAll('#board .target')]"
                         ".map(t => +t.dataset.square);")
    check(final in targets, f"{variant}: the capture's final square is shown as a target {targets}")
    click_square(driver, final)
    s = state(driver)
    check(s["n"] == 1 and s["paths"][0] == caps[0]["squares"],
          f"{variant}: {fen}: the {len(caps[0]['captured'])}-piece capture {caps[0]['text']} "
          "played by two clicks")
    text = path_text(caps[0]["squares"], caps[0]["captured"])
    check(text in native_paths(exe, variant, fen), f"{variant}: the native engine lists {text}")


def set_fen(driver, fen: str) -> None:
    js(driver, "document.getElementById('setup').open = true;")
    box = driver.find_element(By.ID, "fen")
    box.clear()
    box.send_keys(fen)
    box.send_keys(Keys.ENTER)
    time.sleep(0.1)


def bad_setups(driver, variant: str) -> None:
    select(driver, "color", "both")
    click(driver, "new")
    before = state(driver)
    for fen, what in [("W:W21-32:Bxyz", "a bad FEN"),
                      ("W:W21-32:B1-12,21", "a square given to both sides")]:
        set_fen(driver, fen)
        s = state(driver)
        check(s["fen"] == before["fen"] and s["message"].startswith("Not set"),
              f"{variant}: {what} ({fen}) refused: {s['message']!r}, board unchanged")
    # With the mouse: an empty board but one man of each side where a man cannot stand.
    click(driver, "edit")
    click(driver, "clearboard")
    click_square(driver, 2)  # a white man on White's crowning row
    click_square(driver, 30)
    click_square(driver, 30)
    click_square(driver, 30)  # a black man on 30
    click(driver, "editdone")
    s = state(driver)
    still = js(driver, "return !document.getElementById('editbar').hidden;")
    check(s["fen"] == before["fen"] and s["message"].startswith("Not set") and still,
          f"{variant}: an illegal setup placed with the mouse refused: {s['message']!r}")
    click(driver, "editcancel")


def same_ending_captures(driver, variant: str, rng: random.Random) -> None:
    """Two captures of one piece that end on the same square by different ways: the final
    square alone is ambiguous, a square in between decides. The position is found among random
    ones (a king against a few men) by the rules library in the page itself."""
    fens = []
    for _ in range(20000):
        squares = rng.sample(range(1, 33), 10)
        king, men = squares[0], squares[1:rng.randint(5, 10)]
        fens.append(f"W:WK{king}:B{','.join(map(str, men))}")
    fen = js(driver, """
        const c = window.crownhead, G = c.G;
        for (const fen of arguments[0]) {
          let g; try { g = G.make(c.S.variant, fen); } catch (e) { continue; }
          const ends = {};
          for (const m of G.legal(g)) {
            const k = m.squares[0] + '>' + m.squares[m.squares.length - 1];
            if ((ends[k] = (ends[k] || 0) + 1) > 1) return fen;
          }
        }
        return null;""", fens)
    if fen is None:
        # Not every variant's rules make one easy to meet (Italian men may not take kings).
        print(f"SKIP {variant}: no position with two captures ending on one square among 20000")
        return
    select(driver, "color", "both")
    set_fen(driver, fen)
    s = state(driver)
    groups: dict = {}
    for m in s["legal"]:
        groups.setdefault((m["squares"][0], m["squares"][-1]), []).append(m)
    pair = next(v for v in groups.values() if len(v) > 1)
    # The move to enter, and a landing square of it that no other of the group passes.
    for want in pair:
        others = [o for o in pair if o is not want]
        distinct = [x for x in want["squares"][1:-1]
                    if all(x not in o["squares"][1:-1] for o in others)]
        if distinct:
            break
    else:
        check(False, f"{variant}: the captures of {fen} differ by a square in between: {pair}")
        return
    click_square(driver, want["squares"][0])
    click_square(driver, want["squares"][-1])
    s = state(driver)
    marked = js(driver, "return [...document.querySelectorAll('#board .target.between')]"
                        ".map(t => +t.dataset.square);")
    check(s["n"] == 0 and "in between" in s["message"] and distinct[0] in marked,
          f"{variant}: {fen}: {len(pair)} captures end on one square: the page asks for a square "
          f"in between ({s['message']!r}, marks {marked})")
    click_square(driver, distinct[0])
    s = state(driver)
    check(s["n"] == 1 and s["paths"][0] == want["squares"],
          f"{variant}: the square in between chose {want['text']}")


def review(driver, exe: str, shots: str) -> None:
    with open(GAME, encoding="utf-8") as f:
        text = f.read()
    box = driver.find_element(By.ID, "pdntext")
    box.clear()
    js(driver, "document.getElementById('pdntext').value = arguments[0];", text)
    click(driver, "import")
    s = state(driver)
    tags = driver.find_element(By.ID, "tags").text
    check(s["n"] == 48 and s["ply"] == 0 and "1947" in tags,
          f"import: {s['n']} moves, at the start, tags shown ({tags[:60]}...)")
    body = driver.find_element(By.TAG_NAME, "body")
    for _ in range(10):
        body.send_keys(Keys.ARROW_RIGHT)
    s1 = state(driver)
    body.send_keys(Keys.ARROW_LEFT)
    body.send_keys(Keys.ARROW_LEFT)
    s2 = state(driver)
    body.send_keys(Keys.END)
    s3 = state(driver)
    check((s1["ply"], s2["ply"], s3["ply"]) == (10, 8, 48),
          f"arrow keys step: right x10 -> {s1['ply']}, left x2 -> {s2['ply']}, End -> {s3['ply']}")
    current = driver.find_element(By.CSS_SELECTOR, "#movelist .mv.current").text
    check(current == s3["moves"][-1], f"the move list marks the current move ({current})")
    select(driver, "gametime", f"depth={REVIEW_DEPTH}")
    t0 = time.time()
    click(driver, "analysegame")
    js(driver, """while (!window.crownhead.S.review) await new Promise(r => setTimeout(r, 50));""",
       timeout=300)
    took = time.time() - t0
    points = driver.find_elements(By.CSS_SELECTOR, "#graph circle.g-point")
    page_marks = {int(p.get_attribute("data-ply")): p.get_attribute("data-class") or None
                  for p in points}
    check(len(points) == 48 and sorted(page_marks) == list(range(1, 49)),
          f"the graph has one point per move: {len(points)} for 48 moves ({took:.1f} s)")
    out = subprocess.run([exe, "analyze", GAME, "--depth", str(REVIEW_DEPTH), "--json"],
                         capture_output=True, text=True, check=True).stdout
    native = {r["ply"]: r["class"] for r in map(json.loads, out.splitlines())
              if r.get("type") == "move"}
    list_marks = {int(e.get_attribute("data-ply")): e.get_attribute("data-class") or None
                  for e in driver.find_elements(By.CSS_SELECTOR, "#movelist .mv")}
    differ = [(k, page_marks.get(k), native[k]) for k in native if page_marks.get(k) != native[k]]
    marked = sum(1 for v in native.values() if v)
    check(not differ, f"marks on the graph equal `analyze --json --depth {REVIEW_DEPTH}` "
          f"({marked} marked moves; differ: {differ[:4]})")
    check(list_marks == page_marks, "the move list carries the same marks as the graph")
    # The marks stay when the user steps around.
    body.send_keys(Keys.HOME)
    still = len(driver.find_elements(By.CSS_SELECTOR, "#graph circle.g-point"))
    check(still == 48, "the analysis is kept after stepping to the start")
    body.send_keys(Keys.END)
    driver.find_element(By.CSS_SELECTOR, ".side").screenshot(os.path.join(shots, "page-graph.png"))
    # Export, read back natively.
    click(driver, "export")
    exported = driver.find_element(By.ID, "pdntext").get_attribute("value")
    with tempfile.NamedTemporaryFile("w", suffix=".pdn", delete=False, encoding="utf-8") as f:
        f.write(exported)
        path = f.name
    back = subprocess.run([exe, "analyze", path, "--depth", "1", "--json"], capture_output=True,
                          text=True)
    os.unlink(path)
    moves = [r["move"] for r in map(json.loads, back.stdout.splitlines())
             if r.get("type") == "move"]
    orig = [r["move"] for r in map(json.loads, out.splitlines()) if r.get("type") == "move"]
    check(back.returncode == 0 and moves == orig and '[Event "Practice game' in exported,
          f"the exported PDN reads back with `crownhead analyze`: {len(moves)} moves, same moves, "
          f"tags kept")


def analysis_panel(driver, shots: str) -> None:
    select(driver, "variant", "russian")
    select(driver, "color", "both")
    click(driver, "new")
    driver.find_element(By.ID, "engineon").click()
    js(driver, """
        const t = Date.now();
        while (document.querySelectorAll('#lines li').length < 3 ||
               !/depth ([5-9]|\\d\\d)/.test(document.getElementById('lines').textContent)) {
          if (Date.now() - t > 20000) break;
          await new Promise(r => setTimeout(r, 100));
        }""", timeout=30)
    # The lines are redrawn at every report: read them in one go in the page.
    texts = js(driver,
               "return [...document.querySelectorAll('#lines li')].map(li => li.textContent);")
    check(len(texts) == 3 and all("depth" in t for t in texts),
          f"analysis shows three lines: {texts}")
    bar = driver.find_element(By.ID, "evalfill").get_attribute("style")
    check("height" in bar, f"the evaluation bar is set ({bar})")
    js(driver, "window.scrollTo(0, 0);")
    board = driver.find_element(By.CSS_SELECTOR, ".board-area")
    board.screenshot(os.path.join(shots, "page-play.png"))
    driver.find_element(By.ID, "analysis").screenshot(os.path.join(shots, "page-lines.png"))
    driver.save_screenshot(os.path.join(shots, "page.png"))
    # Read and click in one turn of the page's event loop: a report redrawing the lines between
    # a read from here and a click from here could put another move under the click (seen in
    # CI: the line's first move read as one move, another played). The click is the page's own
    # click event, the one a mouse sends.
    text = js(driver, """
        const first = document.querySelector('#lines li .pvmove');
        const text = first.textContent.trim();
        first.click();
        return text;""")
    s = state(driver)
    check(s["n"] == 1 and s["moves"][0] == text, f"clicking the line's first move {text} plays it")
    driver.find_element(By.ID, "engineon").click()


def play_options(driver) -> None:
    select(driver, "variant", "russian")
    select(driver, "color", "white")
    select(driver, "level", "beginner")
    click(driver, "new")
    s = wait(driver, lambda s: s["interactive"], "White to move")
    move = s["legal"][0]
    enter_move(driver, move, s["legal"])
    s = wait(driver, lambda s: s["n"] == 2 and s["interactive"], "the engine's reply")
    click(driver, "takeback")
    s = state(driver)
    check(s["n"] == 0 and s["side"] == "white",
          f"take back removes the reply and the move ({s['n']} left)")
    click(driver, "draw")
    s = wait(driver, lambda s: "draw" in s["message"], "the answer to a draw offer", timeout=20)
    check("accepts" in s["message"] or "declines" in s["message"],
          f"a draw offer is answered: {s['message']}")
    if "declines" in s["message"]:
        click(driver, "resign")
        s = state(driver)
        res = driver.find_element(By.ID, "result").text
        check(s["ended"] and s["ended"]["result"] == "0-1" and "resigned" in res,
              f"resigning ends the game: {res}")
    options = driver.find_elements(By.CSS_SELECTOR, "#level option")
    levels = [o.get_attribute("value") for o in options]
    check(levels[0] == "beginner" and levels[-1] == "full" and len(levels) >= 5,
          f"the levels offered are the engine's: {levels}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--exe", default=os.path.join(ROOT, "target", "release", "crownhead"))
    ap.add_argument("--shots", default=None, help="folder for the screenshots")
    ap.add_argument("--full", action="store_true", help="more games")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    if not os.path.exists(os.path.join(ROOT, "web", "dist", "crownhead-worker.js")):
        sys.exit("error: web/dist is not built: run scripts/build_web.sh")
    shots = args.shots or tempfile.mkdtemp(prefix="crownhead-shots-")
    os.makedirs(shots, exist_ok=True)
    rng = random.Random(args.seed)
    server, url = start_server(args.exe)
    t0 = time.time()
    try:
        with browser.chromium(width=1180, height=820) as driver:
            print(f"browser: {browser.version(driver)}; page: {url}")
            driver.get(url)
            js(driver, """const t = Date.now();
                while (document.body.dataset.ready !== '1' && Date.now() - t < 20000)
                  await new Promise(r => setTimeout(r, 50));""", timeout=30)
            ready = js(driver, "return [document.body.dataset.ready, self.crossOriginIsolated];")
            check(ready == ["1", True], f"the page loads, cross-origin isolated: {ready}")
            variants = js(driver, "return window.crownhead.S.variants.map(v => v.name);")
            rounds = 3 if args.full else 1
            for variant in variants:
                for _ in range(rounds):
                    play_game(driver, args.exe, variant, rng, max_plies=400)
            driver.find_element(By.CSS_SELECTOR, ".board-area").screenshot(
                os.path.join(shots, "page-game-end.png"))
            for variant in variants:
                select(driver, "variant", variant)
                multi_capture(driver, args.exe, variant, rng)
                bad_setups(driver, variant)
            for variant in variants:
                select(driver, "variant", variant)
                same_ending_captures(driver, variant, rng)
            # Flip: square 1 moves to the other corner.
            before = js(driver, "return window.crownhead.board.cellOf(1);")
            click(driver, "flip")
            after = js(driver, "return window.crownhead.board.cellOf(1);")
            check(after == {"row": 7 - before["row"], "col": 7 - before["col"]},
                  f"flip turns the board round: square 1 at {before} then {after}")
            click(driver, "flip")
            play_options(driver)
            analysis_panel(driver, shots)
            review(driver, args.exe, shots)
            # Phone width: the board scales to the screen and nothing scrolls sideways.
            driver.set_window_size(390, 844)
            time.sleep(0.3)
            fit = js(driver, """const r = document.getElementById('board').getBoundingClientRect();
                return [Math.round(r.width), innerWidth, document.documentElement.scrollWidth];""")
            check(fit[0] >= 250 and fit[0] <= fit[1] and fit[2] <= fit[1] + 1,
                  f"at phone width the board fits: board {fit[0]} px, window {fit[1]}, "
                  f"page {fit[2]}")
            errors = [e for e in browser.console(driver) if e.get("level") == "SEVERE"]
            check(not errors, f"no console errors {errors[:3]}")
    finally:
        server.terminate()
        server.wait()
    print(f"screenshots: {shots}")
    print(f"{len(FAILURES)} failed; {time.time() - t0:.0f} s")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
