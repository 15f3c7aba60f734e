//! `crownhead analyze` on a game with a planted blunder: the blunder is marked in the JSON
//! records and in the annotated PDN, and the sound moves before it are at most inaccuracies.

use crate::common;

use common::Scratch;
use std::process::Command;

const PLANTED: &str =
    "[Event \"Planted\"]\n[White \"Careless\"]\n[Black \"Careful\"]\n[GameType \"25\"]\n\
1. c3-d4 f6-g5 2. g3-f4 g7-f6 3. a3-b4 {gives away two men} *\n";

fn run(args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_crownhead"))
        .arg("analyze")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// The `loss` field of a JSON move record.
fn loss_of(record: &str) -> i32 {
    let after = record.split("\"loss\":").nth(1).expect("a loss field");
    let digits: String = after
        .chars()
        .take_while(|c| *c == '-' || c.is_ascii_digit())
        .collect();
    digits.parse().expect("a numeric loss")
}

/// A file of the planted game in the test's own folder.
fn planted_file(scratch: &Scratch) -> String {
    scratch.write("planted.pdn", PLANTED.as_bytes())
}

#[test]
fn the_planted_blunder_is_marked_in_json() {
    let scratch = Scratch::new();
    let (stdout, stderr) = run(&[&planted_file(&scratch), "--depth", "6", "--json"]);
    let moves: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("\"type\":\"move\""))
        .collect();
    assert_eq!(moves.len(), 5, "{stdout}");
    assert!(
        moves[4].contains("\"move\":\"a3-b4\"") && moves[4].contains("\"class\":\"blunder\""),
        "{}",
        moves[4]
    );
    // The opening moves are sound: at most an inaccuracy, not a mistake. A depth-6 search may
    // prefer another opening move by a few centi-men, and how many depends on the weights of
    // the evaluation; the blunder loses a man or more whatever they are.
    for m in &moves[..2] {
        let loss = loss_of(m);
        assert!(
            loss < 50
                && !m.contains("\"class\":\"mistake\"")
                && !m.contains("\"class\":\"blunder\""),
            "opening moves are sound: {m}"
        );
        assert!(loss_of(moves[4]) >= loss + 90, "{m}\n{}", moves[4]);
    }
    assert!(
        moves[4].contains("\"before\":{\"cp\":") && moves[4].contains("\"pv\":\""),
        "{}",
        moves[4]
    );
    let summary = stdout
        .lines()
        .find(|l| l.contains("\"type\":\"summary\""))
        .unwrap();
    assert!(
        summary.contains("\"white\":{\"name\":\"Careless\",\"moves\":3,")
            && summary.contains("\"blunders\":1"),
        "{summary}"
    );
    assert!(
        stderr.contains("analyze: game 1/1, 5/5 moves"),
        "progress on stderr: {stderr}"
    );
}

#[test]
fn the_annotated_pdn_marks_it_and_reads_back() {
    let scratch = Scratch::new();
    let out = scratch.file("annotated.pdn");
    let (stdout, _) = run(&[
        &planted_file(&scratch),
        "--depth",
        "6",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        stdout.contains("Game 1: Careless - Careful") && stdout.contains("1 blunders"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let games = crownhead::pdn::read_games(&text, None).unwrap();
    let comment = games[0].comments[4].as_deref().unwrap();
    assert!(
        comment.contains("blunder") && comment.contains("best"),
        "{comment}"
    );
}

#[test]
fn positions_with_multipv() {
    let scratch = Scratch::new();
    let path = scratch.write("fens.txt", b"W:W21-32:B1-12\n# a comment\nB:W26,27:B22\n");
    let (stdout, _) = run(&[
        "--fens",
        &path,
        "--variant",
        "russian",
        "--depth",
        "3",
        "--multipv",
        "2",
        "--json",
    ]);
    let records: Vec<&str> = stdout.lines().collect();
    assert!(records.len() >= 2, "{stdout}");
    assert!(
        records
            .iter()
            .all(|r| r.starts_with("{\"type\":\"position\"")),
        "{stdout}"
    );
    assert!(stdout.contains("\"fen\":\"B:W26,27:B22\""), "{stdout}");
}

/// Runs `analyze` that must end within `TIMEOUT` with a failure; returns its stdout and stderr.
/// A run that goes on (a depth the search cannot reach) is killed and fails the test.
fn refused(args: &[&str]) -> (String, String) {
    const TIMEOUT: std::time::Duration = std::time::Duration::from_secs(20);
    let mut child = Command::new(env!("CARGO_BIN_EXE_crownhead"))
        .arg("analyze")
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("analyze {args:?} still running after {TIMEOUT:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    );
    assert!(!out.status.success(), "not refused: {args:?}\n{stderr}");
    (stdout, stderr)
}

#[test]
fn out_of_range_settings_are_refused_with_the_range() {
    let scratch = Scratch::new();
    let games = planted_file(&scratch);
    let fens = scratch.write("range.fens", b"W:W21-32:B1-12\n");
    for (args, range) in [
        (vec![games.as_str(), "--depth", "1000"], "1-100"),
        (vec![games.as_str(), "--depth", "0"], "1-100"),
        (vec![games.as_str(), "--movetime", "0"], "1-86400000"),
        (vec![games.as_str(), "--threads", "0"], "1-512"),
        (
            vec!["--fens", &fens, "--depth", "1", "--multipv", "0"],
            "1-64",
        ),
        (
            vec!["--fens", &fens, "--depth", "1", "--multipv", "65"],
            "1-64",
        ),
    ] {
        let flag = args[args.len() - 2];
        let (_, stderr) = refused(&args);
        assert!(
            stderr.contains(flag) && stderr.contains(range),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn a_file_without_a_game_is_an_error_that_says_why() {
    let scratch = Scratch::new();
    for (name, bytes, why) in [
        ("empty.pdn", &b""[..], "empty"),
        ("blank.pdn", b"\n  \n", "empty"),
        (
            "binary.pdn",
            b"\x7fELF\x02\x01\x01\x00\x00\x00\xff\xfe",
            "not text",
        ),
        ("words.pdn", b"just some words\n", "could not be read"),
        (
            "gametype.pdn",
            b"[GameType \"20\"]\n1. 32-28 *\n",
            "could not be read",
        ),
        (
            "comment.pdn",
            b"{ only a comment }\n",
            "no tags, moves or results",
        ),
    ] {
        let (stdout, stderr) = refused(&[&scratch.write(name, bytes), "--depth", "1"]);
        assert!(stdout.is_empty(), "{name}: {stdout}");
        assert!(
            stderr.contains("no game") && stderr.contains(why),
            "{name}: {stderr}"
        );
    }
}

#[test]
fn broken_pdn_gives_warnings_with_line_numbers() {
    let scratch = Scratch::new();
    let good = "[Event \"Good\"]\n[GameType \"21\"]\n1. 11-15 23-19 *\n";
    for (text, line, warning, games) in [
        // Cut off inside a tag: the broken tag is dropped, no empty game is made.
        (format!("{good}\n[Resu"), "line 5", "tag", 1),
        // An unclosed comment ends before the next game's tags; both games are read.
        (
            format!("[GameType \"21\"]\n1. 11-15 {{ oops\n23-19 *\n{good}"),
            "line 2",
            "'{'",
            2,
        ),
        (
            format!("[GameType \"21\"]\n1. 11-15 ( 1. 9-13\n*\n{good}"),
            "line 2",
            "'('",
            2,
        ),
    ] {
        let path = scratch.write("broken.pdn", text.as_bytes());
        let (stdout, stderr) = run(&[&path, "--depth", "1", "--json"]);
        assert!(
            stderr.contains(line) && stderr.contains(warning),
            "{text}\n{stderr}"
        );
        let summaries = stdout.lines().filter(|l| l.contains("\"summary\"")).count();
        assert_eq!(summaries, games, "{text}\n{stdout}");
    }
}
