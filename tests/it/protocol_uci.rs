//! End-to-end tests of the UCI-style dialect on the built binary: handshake, a whole game of
//! the engine's own moves, stop, ponder, options between searches, and bad input.

use crate::common;

use common::{printable, Engine, SLACK};
use crownhead::{Game, Variant};
use std::time::{Duration, Instant};

fn ready(e: &mut Engine) -> Vec<String> {
    e.send("isready");
    let mut lines = e.until(|l| l == "readyok");
    lines.pop();
    lines
}

#[test]
fn handshake_lists_options_and_ends_with_uciok() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    assert_eq!(
        lines[0],
        format!("id name Crownhead {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(lines[1].starts_with("id author "));
    for name in [
        "Variant",
        "Hash",
        "Threads",
        "Ponder",
        "MultiPV",
        "MoveOverhead",
        "Clear Hash",
    ] {
        let prefix = format!("option name {name} type ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "{name} missing: {lines:#?}"
        );
    }
    let vars: String = Variant::ALL
        .iter()
        .map(|v| format!(" var {}", v.name()))
        .collect();
    let variants = format!("option name Variant type combo default russian{vars}");
    assert!(lines.contains(&variants), "{lines:#?}");
    assert!(ready(&mut e).is_empty());
    e.finish();
}

/// Plays the engine against itself by feeding its moves back, checking each is legal, until
/// the game ends by the rules or 150 plies.
fn self_play(variant: Variant) {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until(|l| l == "uciok");
    e.send(&format!("setoption name Variant value {variant}"));
    e.send("ucinewgame");
    let mut game = Game::start(variant);
    let mut moves: Vec<String> = Vec::new();
    while game.outcome().is_none() && moves.len() < 150 {
        e.send(format!("position startpos moves {}", moves.join(" ")).trim_end());
        e.send("go depth 2");
        let best = e.expect_prefix("bestmove ");
        let mv = best.split_whitespace().nth(1).expect("a move").to_string();
        game.play_text(&mv)
            .unwrap_or_else(|err| panic!("illegal {mv} after {moves:?}: {err}"));
        if variant == Variant::English {
            assert!(
                !mv.contains(|c: char| c.is_ascii_alphabetic() && c != 'x'),
                "{mv}"
            );
        } else {
            assert!(mv.starts_with(|c: char| c.is_ascii_lowercase()), "{mv}");
        }
        moves.push(mv);
    }
    if let Some(o) = game.outcome() {
        // A finished game: the engine must now answer `bestmove (none)` if it has no move.
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go depth 1");
        let best = e.expect_prefix("bestmove ");
        assert_eq!(
            best == "bestmove (none)",
            game.legal_moves().is_empty(),
            "{o:?}"
        );
    }
    assert!(ready(&mut e).is_empty());
    e.finish();
}

#[test]
fn whole_game_russian() {
    self_play(Variant::Russian);
}

#[test]
fn whole_game_english() {
    self_play(Variant::English);
}

#[test]
fn stop_ends_an_infinite_search_at_once() {
    let mut e = Engine::start(&[]);
    // A position whose every line ends at once, so that the search is soon just waiting for
    // `stop`: this sees the protocol layer's reaction, not a search iteration. The median of five
    // is bounded by SLACK only (a loaded machine may take that long); the latency itself, a few
    // milliseconds, is measured by `python3 -m scripts.tools.time_use --what stop`.
    e.send("position fen W:W22:B18");
    let mut times = Vec::new();
    for _ in 0..5 {
        e.send("go infinite");
        // Let the search reach its wait, reading its info lines meanwhile.
        while e.next_line(Duration::from_millis(100)).is_some() {}
        let t = Instant::now();
        e.send("stop");
        e.expect_prefix("bestmove ");
        times.push(t.elapsed());
    }
    times.sort();
    assert!(times[2] < SLACK, "{times:?}");
    // From the start position the search is busy when stopped; it still answers.
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    e.send("isready");
    e.expect_prefix("readyok");
    e.send("stop");
    let best = e.expect_prefix("bestmove ");
    assert!(
        Game::start(Variant::Russian)
            .play_text(best.split_whitespace().nth(1).unwrap_or(""))
            .is_ok(),
        "{best}"
    );
    // `stop` then `go` back to back: the second search waits for the first, no error.
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(30));
    e.send("stop");
    e.send("go depth 1");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let lines2 = e.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.iter().chain(&lines2).all(|l| !l.contains("error")),
        "{lines:?} {lines2:?}"
    );
    e.finish();
}

#[test]
fn ponder_holds_the_move_until_ponderhit_or_stop() {
    let mut e = Engine::start(&[]);
    e.send("position startpos moves c3-d4");
    e.send("go ponder depth 2");
    // The depth is reached at once, but a ponder search must not answer on its own.
    let t = Instant::now();
    while t.elapsed() < Duration::from_millis(300) {
        if let Some(l) = e.next_line(Duration::from_millis(20)) {
            assert!(l.starts_with("info "), "{l}");
        }
    }
    e.send("isready");
    e.expect_prefix("readyok");
    e.send("ponderhit");
    let best = e.expect_prefix("bestmove ");
    let mut g = Game::start(Variant::Russian);
    g.play_text("c3-d4").unwrap();
    assert!(
        g.play_text(best.split_whitespace().nth(1).unwrap()).is_ok(),
        "{best}"
    );
    e.send("go ponder depth 2");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    e.expect_prefix("bestmove ");
    e.finish();
}

#[test]
fn options_change_between_searches() {
    let mut e = Engine::start(&[]);
    for cmd in [
        "setoption name Hash value 16",
        "setoption name threads value 2",
        "setoption name MultiPV value 2",
        "setoption name MoveOverhead value 10",
        "setoption name Ponder value true",
        "setoption name Clear Hash",
    ] {
        e.send(cmd);
        assert!(ready(&mut e).is_empty(), "{cmd}");
    }
    e.send("go depth 2");
    let best = e.expect_prefix("bestmove ");
    assert!(Game::start(Variant::Russian)
        .play_text(best.split_whitespace().nth(1).unwrap_or(""))
        .is_ok());
    e.send("setoption name Variant value english");
    e.send("go depth 2");
    let best = e.expect_prefix("bestmove ");
    let mv = best.split_whitespace().nth(1).unwrap();
    assert!(
        mv.chars().all(|c| c.is_ascii_digit() || c == '-'),
        "english is numeric: {best}"
    );
    assert!(Game::start(Variant::English).play_text(mv).is_ok());
    e.send("d");
    let lines = e.until(|l| l.starts_with("Legal moves"));
    assert!(lines.contains(&"Variant: english".to_string()));
    e.send("setoption name Variant value American");
    e.send("setoption name Variant value russian");
    e.send("go wtime 1000 btime 1000 winc 10 binc 10 movestogo 5");
    e.expect_prefix("bestmove ");
    e.send("go movetime 50");
    e.expect_prefix("bestmove ");
    e.send("go nodes 500");
    e.expect_prefix("bestmove ");
    e.send("eval");
    e.expect_prefix("total ");
    e.send("perft 4");
    assert_eq!(e.expect_prefix("Nodes: "), "Nodes: 1469");
    e.finish();
}

#[test]
fn every_bad_line_gets_one_error_and_changes_nothing() {
    let mut e = Engine::start(&[]);
    e.send("position startpos moves c3-d4 f6-g5");
    e.send("d");
    let fen = e.expect_prefix("FEN: ");
    assert!(ready(&mut e).iter().all(|l| !l.contains("error")));
    let long = "x".repeat(100_000);
    let huge = format!("go depth {}", "9".repeat(400));
    let bad: Vec<&str> = vec![
        "foo",
        "uci please",
        "isready now",
        "quit now",
        "stop it",
        "ponderhit x",
        "d d",
        "eval x",
        "ucinewgame x",
        "go bogus",
        "go depth",
        "go depth 0",
        "go depth -1",
        "go depth 128",
        &huge,
        "go nodes 0",
        "go wtime abc",
        "go movestogo 0",
        "go searchmoves e3-e4",
        "go searchmoves",
        "go searchmoves c3-d4 zz",
        "go mate 0",
        "position",
        "position nonsense",
        "position startpos c3-d4",
        "position fen",
        "position fen X:W1:B2",
        "position fen W:W33:B1",
        "position fen W:W21,21:B1",
        "position fen W:W20-32:B1-12",
        "position fen W:W21-32:B1-13",
        "position startpos moves e3-e4",
        "position startpos moves c3-d4 c3-d4",
        "position startpos moves 22-17 zz",
        "setoption",
        "setoption name",
        "setoption value 3",
        "setoption name Nope value 1",
        "setoption name Hash value 0",
        "setoption name Hash value 99999999",
        "setoption name Hash value x",
        "setoption name Hash",
        "setoption name Threads value 0",
        "setoption name Variant value chess",
        "setoption name Variant",
        "setoption name Ponder value maybe",
        "setoption name MultiPV value 65",
        // A button takes no value.
        "setoption name Clear Hash value 5",
        "perft",
        "perft 0",
        "perft 99",
        "perft x",
        "perft 1 2",
        &long,
        "\u{1}\u{2}\u{7f}",
    ];
    for line in bad {
        e.send(line);
        let answer = ready(&mut e);
        let shown = &line[..line.len().min(40)];
        assert_eq!(answer.len(), 1, "{shown:?} -> {answer:?}");
        assert!(
            answer[0].starts_with("info string error: "),
            "{shown:?} -> {answer:?}"
        );
        assert!(answer[0].len() < 400, "{shown:?}: error line too long");
    }
    e.send_bytes(b"\xff\xfe\x00garbage\r\n");
    assert_eq!(ready(&mut e).len(), 1);
    e.send("d");
    let lines = e.until(|l| l.starts_with("Legal moves"));
    assert!(lines.contains(&fen), "position changed: {lines:#?}");
    assert!(lines.contains(&"Variant: russian".to_string()));
    e.send("go depth 1");
    e.expect_prefix("bestmove ");
    e.finish();
}

#[test]
fn searchmoves_restricts_the_root_and_mate_ends_at_the_win() {
    let mut e = Engine::start(&[]);
    // Of the seven first moves only two are allowed; every reported line starts with one.
    e.send("position startpos");
    e.send("go depth 6 searchmoves a3-b4 g3-h4");
    let lines = e.until(|l| l.starts_with("bestmove "));
    // (`info string` lines are messages, such as the endgame databases' suggestion, not lines.)
    for l in lines.iter().filter(|l| !l.starts_with("info string ")) {
        let first = l
            .split(" pv ")
            .nth(1)
            .or_else(|| l.strip_prefix("bestmove "));
        let first = first.and_then(|m| m.split(' ').next());
        assert!(matches!(first, Some("a3-b4" | "g3-h4")), "{l}");
    }
    // Two kings against one, won by zugzwang in two moves (c1 moves, h8 must step onto the
    // main road, a1 takes): `go mate 2` finds it and stops there, and `searchmoves` with only
    // the losing a1 king's moves gets no mate.
    e.send("position fen W:WK29,K30:BK4");
    e.send("go mate 2");
    let lines = e.until(|l| l.starts_with("bestmove "));
    assert!(
        lines.iter().any(|l| l.contains(" score mate 2 ")),
        "{lines:#?}"
    );
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove c1-")));
    e.send("go mate 2 searchmoves a1-b2");
    let lines = e.until(|l| l.starts_with("bestmove "));
    assert!(
        !lines.iter().any(|l| l.contains(" score mate ")),
        "{lines:#?}"
    );
    assert_eq!(
        lines.last().map(String::as_str),
        Some("bestmove a1-b2 ponder h8:a1")
    );
    e.finish();
}

#[test]
fn end_of_input_quits_cleanly_and_stderr_stays_silent() {
    let mut e = Engine::start(&[]);
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(30));
    e.send("quit");
    let deadline = Instant::now() + Duration::from_secs(5);
    while e.alive() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(!e.alive(), "quit did not end the process");
    assert_eq!(e.stderr(), "");
    let mut e = Engine::start(&[]);
    e.send("go depth 1");
    e.expect_prefix("bestmove");
    e.finish();
}

#[test]
fn piped_commands_get_the_whole_finite_search_before_eof_ends_the_session() {
    // `printf 'position startpos\ngo depth 7\n' | crownhead` is how scripts use the engine: the
    // end of input must not cut the search short.
    let bin = env!("CARGO_BIN_EXE_crownhead");
    let mut child = std::process::Command::new(bin)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("start crownhead");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(b"uci\nposition startpos\ngo depth 7\n")
            .expect("write");
    }
    let out = child.wait_with_output().expect("output");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines().any(|l| l.starts_with("info depth 7 ")),
        "{text}"
    );
    assert!(
        text.lines()
            .last()
            .is_some_and(|l| l.starts_with("bestmove ")),
        "{text}"
    );
}

#[test]
fn bad_bytes_are_escaped_in_one_error_line_and_change_nothing() {
    let mut e = Engine::start(&[]);
    e.send("position startpos moves c3-d4");
    e.send("d");
    let fen = e.expect_prefix("FEN: ");
    ready(&mut e);
    // Each line and the escaped text its error must show.
    let cases: [(&[u8], &str); 7] = [
        (b"position fen W:W21:B1\x00", "'1\\0' is not a square"),
        (b"position fen W:W21:B1\x01\x7f", "\\u{1}\\u{7f}"),
        (b"position startpos moves c3-d4\x1b[2J", "'c3-d4\\u{1b}[2J'"),
        (b"setoption name Ha\x00sh value 1", "'Ha\\0sh'"),
        (b"go depth 2\x07", "'2\\u{7}'"),
        (b"bo\x02gus\r", "'bo\\u{2}gus'"),
        // Not UTF-8: the undecodable bytes are replaced, and the line is one bad line.
        (b"position fen W:W21:\xffB1\x80", "\u{fffd}"),
    ];
    for (line, shown) in cases {
        let shown_line = String::from_utf8_lossy(line);
        let mut bytes = line.to_vec();
        bytes.push(b'\n');
        e.send_bytes(&bytes);
        let answer = ready(&mut e);
        assert_eq!(answer.len(), 1, "{shown_line:?} -> {answer:?}");
        let a = &answer[0];
        assert!(
            a.starts_with("info string error: "),
            "{shown_line:?} -> {a:?}"
        );
        assert!(printable(a), "{shown_line:?} -> {a:?}");
        assert!(
            a.contains(shown),
            "{shown_line:?} -> {a:?}, expected {shown:?}"
        );
    }
    e.send("d");
    let lines = e.until(|l| l.starts_with("Legal moves"));
    assert!(lines.contains(&fen), "position changed: {lines:#?}");
    e.finish();
}
