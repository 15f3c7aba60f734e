//! `crownhead play` driven through stdin, as a person would type: moves, an illegal move (with
//! the legal moves listed), an undo, a hint, a flip, a save (the PDN reads back), and a draw
//! offer the engine answers by its search.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

fn play(args: &[&str], input: &str) -> String {
    play_bytes(args, input.as_bytes())
}

fn play_bytes(args: &[&str], input: &[u8]) -> String {
    let out = common::run_with_input(&[&["play"], args].concat(), input);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into()
}

/// A game driven line by line: each line is sent after the prompt, so a test can read the
/// engine's replies (the engine's moves are not known in advance).
struct Driver {
    child: std::process::Child,
    output: std::sync::Arc<std::sync::Mutex<String>>,
    prompts: usize,
}

impl Driver {
    fn start(args: &[&str]) -> Driver {
        let mut child = Command::new(env!("CARGO_BIN_EXE_crownhead"))
            .arg("play")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let output = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let sink = output.clone();
        let mut stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = std::io::Read::read(&mut stdout, &mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Driver {
            child,
            output,
            prompts: 0,
        }
    }

    /// Waits for the next prompt, sends `line`, and returns the text printed in between.
    fn send(&mut self, line: &str) -> String {
        self.prompts += 1;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            let text = self.output.lock().unwrap().clone();
            if text.matches("> ").count() >= self.prompts {
                let stdin = self.child.stdin.as_mut().unwrap();
                writeln!(stdin, "{line}").unwrap();
                stdin.flush().unwrap();
                return text;
            }
            assert!(std::time::Instant::now() < deadline, "no prompt: {text}");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    fn finish(mut self) -> String {
        drop(self.child.stdin.take());
        assert!(self.child.wait().unwrap().success());
        std::thread::sleep(std::time::Duration::from_millis(50));
        let out = self.output.lock().unwrap().clone();
        out
    }
}

#[test]
fn moves_illegal_move_undo_and_save() {
    let scratch = common::Scratch::new();
    let save = scratch.file("saved.pdn");
    let mut d = Driver::start(&["--variant", "russian", "--depth", "2"]);
    d.send("c3-d4");
    d.send("c3-d4");
    // The refusal lists the legal moves; play the first of them.
    let text = d.send("list");
    let legal = text
        .rsplit("Legal moves: ")
        .next()
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    let second = legal.split_whitespace().next().unwrap().to_string();
    d.send(&second);
    d.send("undo");
    d.send("hint");
    d.send("flip");
    d.send(&format!("save {}", save.display()));
    d.send("quit");
    let out = d.finish();
    assert!(
        out.contains(" 8 ") && out.contains("a b c d e f g h"),
        "board with coordinates: {out}"
    );
    assert!(out.contains("You play c3-d4."), "{out}");
    assert!(out.contains(&format!("You play {second}.")), "{out}");
    assert!(out.matches("Crownhead plays").count() >= 2, "{out}");
    assert!(
        out.contains("Illegal move 'c3-d4'") && out.contains("Legal moves:"),
        "{out}"
    );
    assert!(out.contains("last move"), "{out}");
    assert!(out.contains("Took back 2 moves."), "{out}");
    assert!(out.contains("Hint: "), "{out}");
    assert!(out.contains("h g f e d c b a"), "flipped board: {out}");
    assert!(out.contains("Saved to"), "{out}");
    let text = std::fs::read_to_string(&save).unwrap();
    let games = crownhead::pdn::read_games(&text, None).unwrap();
    let game = &games[0];
    assert_eq!(game.game.variant(), crownhead::Variant::Russian);
    assert_eq!(game.tag("White"), Some("You"));
    // c3-d4 and the reply; the second move and its reply were taken back.
    assert_eq!(game.game.moves().len(), 2, "{text}");
}

#[test]
fn playing_black_in_english_with_numeric_squares() {
    let out = play(
        &["--variant", "english", "--color", "black", "--depth", "1"],
        "11-15\nxyz\ndraw\n11-15\nquit\n",
    );
    assert!(out.contains("You play 11-15."), "{out}");
    assert!(
        out.contains("'xyz' is neither a move nor a command"),
        "{out}"
    );
    assert!(
        out.contains(" 1  2  3  4") || out.contains(" 4  3  2  1"),
        "square numbers shown: {out}"
    );
    assert!(
        out.contains("Crownhead accepts the draw") || out.contains("Crownhead declines the draw"),
        "{out}"
    );
    if out.contains("accepts") {
        assert!(out.contains("Game over: 1/2-1/2"), "{out}");
        assert!(out.contains("The game is over"), "{out}");
    }
}

#[test]
fn resigning_ends_the_game_and_eof_quits() {
    let out = play(&["--depth", "1"], "resign\n");
    assert!(
        out.contains("Game over: 0-1 Crownhead wins (black): resignation."),
        "{out}"
    );
}

#[test]
fn out_of_range_settings_are_refused_with_the_range() {
    for (args, range) in [
        (&["--depth", "1000"][..], "1-100"),
        (&["--depth", "0"][..], "1-100"),
        (&["--movetime", "0"][..], "1-86400000"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_crownhead"))
            .arg("play")
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} taken");
        assert!(
            stderr.contains(args[0]) && stderr.contains(range),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn control_bytes_are_shown_escaped() {
    // An escape sequence that would clear the screen, a NUL in a move and a bell in a file name:
    // each is answered with the text escaped, and play goes on.
    let out = play_bytes(
        &["--depth", "1"],
        b"\x1b[2J\nc3-d4\x00\nsave /nonexistent/a\x07b.pdn\nc3-d4\nquit\n",
    );
    assert!(out.contains("'\\u{1b}[2J'"), "{out}");
    assert!(out.contains("'c3-d4\\0'"), "{out}");
    assert!(out.contains("a\\u{7}b.pdn"), "{out}");
    assert!(out.contains("You play c3-d4."), "{out}");
    assert!(out.contains("Bye."), "{out}");
    assert!(
        !out.contains(|c: char| c.is_control() && c != '\n'),
        "{out:?}"
    );
    // The board and other replies of several lines keep their line breaks.
    assert!(out.contains("\n 8 ") && !out.contains("\\n"), "{out}");
}

#[test]
fn a_line_that_is_not_utf8_is_refused_and_play_goes_on() {
    let out = play_bytes(&["--depth", "1"], b"\xff\xfe\nc3-d4\nquit\n");
    assert!(out.contains("is neither a move nor a command"), "{out}");
    assert!(out.contains("You play c3-d4."), "{out}");
    assert!(out.contains("Bye."), "{out}");
}
