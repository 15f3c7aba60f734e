//! End-to-end tests of Hub (v2, extended to 8x8) on the built binary: the handshake as
//! pydraughts and lidraughts-bot start it, whole games in both variants and both square frames,
//! stop, ping and ponder during a search, and bad input.

use crate::common;

use common::{printable, Engine, SLACK};
use crownhead::{parse_fen, Game, Move, Variant};
use std::time::{Duration, Instant};

const START: &str = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";

fn ping(e: &mut Engine) -> Vec<String> {
    e.send("ping");
    let mut lines = e.until(|l| l == "pong");
    lines.pop();
    lines
}

/// Maps a wire square to docs/RULES.md in a frame (the engine's `Frame::map_square`, restated).
fn map(frame: &str, variant: Variant, n: u32) -> u32 {
    match (frame, variant) {
        ("pydraughts06", Variant::Russian) => (7 - (n - 1) / 4) * 4 + (n - 1) % 4 + 1,
        ("pydraughts06", Variant::English) => 33 - n,
        _ => n,
    }
}

/// The legal move that a Hub move names (from, to, captured squares).
fn find(game: &Game, frame: &str, text: &str) -> Move {
    let v = game.variant();
    let n: Vec<u32> = text
        .split(['-', 'x'])
        .map(|t| map(frame, v, t.parse().unwrap()))
        .collect();
    let captured: Vec<u32> = {
        let mut c = n[2..].to_vec();
        c.sort();
        c
    };
    let matches: Vec<Move> = game
        .legal_moves()
        .into_iter()
        .filter(|m| {
            let mut mc: Vec<u32> = crownhead::bitboard::squares(m.captured())
                .map(|s| s.number())
                .collect();
            mc.sort();
            m.from().number() == n[0] && m.to().number() == n[1] && mc == captured
        })
        .collect();
    assert_eq!(
        matches.len(),
        1,
        "{text} in {}",
        crownhead::to_fen(game.position())
    );
    matches[0]
}

fn to_hub(m: &Move, frame: &str, v: Variant) -> String {
    let f = |n: u32| map(frame, v, n);
    if !m.is_capture() {
        return format!("{}-{}", f(m.from().number()), f(m.to().number()));
    }
    let mut c: Vec<u32> = crownhead::bitboard::squares(m.captured())
        .map(|s| f(s.number()))
        .collect();
    c.sort();
    let rest: String = c.iter().map(|x| format!("x{x}")).collect();
    format!("{}x{}{rest}", f(m.from().number()), f(m.to().number()))
}

fn handshake(e: &mut Engine, variant: &str, frame: &str) {
    e.send("hub");
    let lines = e.until(|l| l == "wait");
    assert!(
        lines[0].starts_with("id name=Crownhead version="),
        "{lines:?}"
    );
    assert!(lines
        .contains(&"param name=variant value=russian type=enum values=\"russian english brazilian pool italian spanish czech\"".into()));
    // pydraughts splits every argument on '=' into exactly key and value.
    for l in &lines[..lines.len() - 1] {
        for arg in l.split(' ').skip(1).filter(|a| a.contains('=')) {
            assert_eq!(arg.matches('=').count(), 1, "{l}");
        }
    }
    e.send(&format!("set-param name=variant value={variant}"));
    e.send(&format!("set-param name=frame value={frame}"));
    e.send("init");
    e.expect_prefix("ready");
}

fn self_play(variant: Variant, frame: &str) {
    let mut e = Engine::start(&["hub", "--tt-size=22", "--book=false"]);
    handshake(&mut e, variant.name(), frame);
    let mut game = Game::new(variant, parse_fen("W:W21-32:B1-12").unwrap());
    let mut history: Vec<String> = Vec::new();
    while game.outcome().is_none() && history.len() < 150 {
        if history.is_empty() {
            e.send(&format!("pos pos={START}"));
        } else {
            e.send(&format!("pos pos={START} moves=\"{}\"", history.join(" ")));
        }
        e.send("level depth=2");
        e.send("go think");
        let done = e.expect_prefix("done");
        let args: Vec<&str> = done.split_whitespace().skip(1).collect();
        assert!(
            !args.is_empty() && args.len() <= 2 && args[0].starts_with("move="),
            "{done}"
        );
        let m = find(&game, frame, &args[0][5..]);
        assert_eq!(
            to_hub(&m, frame, variant),
            args[0][5..],
            "captures in Hub order"
        );
        game.play(m).unwrap();
        history.push(args[0][5..].to_string());
    }
    assert!(ping(&mut e).is_empty());
    e.send("quit");
    e.finish();
}

#[test]
fn whole_games_in_both_variants_and_frames() {
    // This test's frame map knows russian's and english's frames; the Hub games of brazilian
    // and italian are scripts/hub_pydraughts.py's, against pydraughts itself.
    for variant in [Variant::Russian, Variant::English] {
        for frame in ["consistent", "pydraughts06"] {
            self_play(variant, frame);
        }
    }
}

#[test]
fn fen_and_start_forms_of_pos() {
    let mut e = Engine::start(&[]);
    handshake(&mut e, "russian", "consistent");
    e.send("pos fen=\"W:W21-32:B1-12\" moves=\"22-18 11-15\"");
    e.send("level depth=1");
    e.send("go think");
    let done = e.expect_prefix("done ");
    assert!(done.starts_with("done move=18x11x15"), "{done}");
    e.send("pos start");
    e.send("level nodes=100");
    e.send("go think");
    e.expect_prefix("done move=");
    e.finish();
}

#[test]
fn ping_stop_and_ponder_during_a_search() {
    let mut e = Engine::start(&["hub"]);
    handshake(&mut e, "russian", "consistent");
    e.send(&format!("pos pos={START}"));
    e.send("level infinite");
    e.send("go think");
    std::thread::sleep(Duration::from_millis(30));
    let t = Instant::now();
    e.send("ping");
    e.expect_prefix("pong");
    // At once means before the search ends, which it never does by itself: SLACK bounds it.
    assert!(t.elapsed() < SLACK, "pong took {:?}", t.elapsed());
    e.send("stop");
    e.expect_prefix("done move=");
    // Ponder: the answer waits for ponder-hit even though the depth is reached at once.
    e.send(&format!("pos pos={START} moves=\"22-18\""));
    e.send("level depth=2");
    e.send("go ponder");
    let t = Instant::now();
    while t.elapsed() < Duration::from_millis(300) {
        if let Some(l) = e.next_line(Duration::from_millis(20)) {
            assert!(l.starts_with("info "), "{l}");
        }
    }
    e.send("ponder-hit");
    e.expect_prefix("done move=");
    // Any other line during a search stops it first (Scan's rule): done, then the line's effect.
    e.send(&format!("pos pos={START}"));
    e.send("go analyze");
    std::thread::sleep(Duration::from_millis(20));
    e.send("new-game");
    e.expect_prefix("done move=");
    assert!(ping(&mut e).is_empty());
    e.send("quit");
    e.finish();
}

#[test]
fn every_bad_line_gets_one_error_and_changes_nothing() {
    let mut e = Engine::start(&["hub"]);
    handshake(&mut e, "russian", "consistent");
    e.send(&format!("pos pos={START} moves=\"22-18\""));
    e.send("level depth=1");
    let empty = format!("pos pos=W{}", "e".repeat(32));
    let long = "y".repeat(70_000);
    let bad = [
        "bogus",
        "hub now",
        "init x",
        "ping x",
        "quit x",
        "stop x",
        "new-game x",
        "go",
        "go fast",
        "go think ponder",
        "go think=1",
        "set-param",
        "set-param name=hash",
        "set-param value=1",
        "set-param name=nope value=1",
        "set-param name=variant value=normal",
        "set-param name=hash value=0",
        "set-param name=threads value=99999999999999999999",
        "set-param name=frame value=upside-down",
        "set-param name=hash value=1 extra=2",
        "pos pos=Wxxx",
        "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwwe",
        &empty,
        "pos moves=\"21-16\"",
        "pos moves=\"99-1\"",
        "pos moves=\"22x15\"",
        "pos moves=\"22-18 22-18\"",
        "pos unknown=1",
        "pos moves=\"21-17",
        "pos pos=",
        "pos fen=\"W:W33:B1\"",
        "pos fen=\"W:W20-32:B1-12\"",
        // Thirteen white men.
        &format!(
            "pos pos=W{}{}{}",
            "b".repeat(12),
            "e".repeat(7),
            "w".repeat(13)
        ),
        // Two positions in one command, in each order: an error, not the last one winning.
        "pos start fen=\"W:W21-32:B1-12\"",
        "pos fen=\"W:W21-32:B1-12\" start",
        &format!("pos pos={START} fen=\"W:W21-32:B1-12\""),
        &format!("pos fen=\"W:W21-32:B1-12\" pos={START}"),
        &format!("pos pos={START} pos={START}"),
        "pos start start",
        "pos start moves=\"22-18\" moves=\"21-17\"",
        "go think extra",
        "level",
        "level depth=0",
        "level depth=1000",
        "level time=-1",
        "level time=nan",
        "level move-time=inf",
        "level foo=1",
        "level nodes=0",
        "level moves=x time=5",
        "=",
        "go=1",
        &long,
    ];
    for line in bad {
        e.send(line);
        let answer = ping(&mut e);
        let shown = &line[..line.len().min(40)];
        assert_eq!(answer.len(), 1, "{shown:?} -> {answer:?}");
        let a = &answer[0];
        assert!(
            a.starts_with("error message=\"") && a.ends_with('"'),
            "{shown:?} -> {a}"
        );
        assert_eq!(a.matches('"').count(), 2, "{a}");
        assert_eq!(a.matches('=').count(), 1, "{a}");
    }
    e.send_bytes(b"\x00\xff binary\n");
    assert_eq!(ping(&mut e).len(), 1);
    // The position (after 22-18) and the level (depth 1) are as before the bad lines: black to
    // move, and a depth-1 search reports depth 1 only.
    e.send("go think");
    let lines = e.until(|l| l.starts_with("done"));
    assert!(lines
        .iter()
        .filter(|l| l.starts_with("info"))
        .all(|l| l.starts_with("info depth=1 ")));
    let mv = lines.last().unwrap().split_whitespace().nth(1).unwrap()[5..].to_string();
    let mut g = Game::start(Variant::Russian);
    g.play_text("22-18").unwrap();
    find(&g, "consistent", &mv);
    e.finish();
}

#[test]
fn errors_name_the_wrong_argument_and_escape_control_bytes() {
    let mut e = Engine::start(&["hub"]);
    handshake(&mut e, "russian", "consistent");
    let cases: [(&[u8], &str); 5] = [
        (b"go think extra", "unexpected argument 'extra'"),
        (b"go think ponder", "unexpected argument 'ponder'"),
        (b"pos start fen=W:W22:B18", "two positions"),
        (b"pos fen=W:W21:B1\x00", "'1\\0' is not a square"),
        (b"go think\x1b[2J", "'think\\u{1b}[2J'"),
    ];
    for (line, shown) in cases {
        let shown_line = String::from_utf8_lossy(line);
        let mut bytes = line.to_vec();
        bytes.push(b'\n');
        e.send_bytes(&bytes);
        let answer = ping(&mut e);
        assert_eq!(answer.len(), 1, "{shown_line:?} -> {answer:?}");
        let a = &answer[0];
        assert!(a.starts_with("error message="), "{shown_line:?} -> {a:?}");
        assert!(printable(a), "{shown_line:?} -> {a:?}");
        assert!(
            a.contains(shown),
            "{shown_line:?} -> {a:?}, expected {shown:?}"
        );
    }
    e.finish();
}

#[test]
fn lidraughts_reads_the_info_lines_and_go_waits_for_init() {
    let mut e = Engine::start(&["hub"]);
    e.send("hub");
    e.until(|l| l == "wait");
    e.send("go think");
    assert_eq!(ping(&mut e), ["error message=\"go: send init first\""]);
    e.send("init");
    e.until(|l| l == "ready");
    // A PDN FEN in pos= as well as Scan's board string; then the fields in Scan's order, which
    // lidraughts' parser reads by position: depth, mean-depth, score, nodes, time, nps, pv.
    e.send("pos pos=W:W21-32:B1-12 moves=\"22-17 11-15\"");
    e.send("level depth=6");
    e.send("go think");
    let lines = e.until(|l| l.starts_with("done"));
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info")).collect();
    assert_eq!(infos.len(), 6, "{lines:?}");
    for l in infos {
        let keys: Vec<&str> = l
            .split_whitespace()
            .skip(1)
            .map(|w| w.split('=').next().unwrap())
            .collect();
        assert_eq!(
            keys[..7],
            ["depth", "mean-depth", "score", "nodes", "time", "nps", "pv"],
            "{l}"
        );
    }
    e.finish();
}
