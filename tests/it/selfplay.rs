//! `crownhead selfplay` end to end: the file is the same whatever the thread count, appending
//! continues a run exactly, a killed run's file stays readable, and every recorded position is
//! quiet and carries its game's result.

use crate::common;

use crownhead::selfplay::{read_all, Record};
use crownhead::Variant;
use std::process::{Command, Output};

fn selfplay(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crownhead"))
        .arg("selfplay")
        .args(args)
        .output()
        .expect("run crownhead selfplay")
}

fn run_ok(args: &[&str]) {
    let out = selfplay(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

const FAST: [&str; 4] = ["--nodes", "3000", "--max-plies", "120"];

#[test]
fn the_file_is_the_same_whatever_the_thread_count() {
    let scratch = common::Scratch::new();
    let (one, two) = (scratch.file("one.bin"), scratch.file("two.bin"));
    for (path, threads) in [(&one, "1"), (&two, "2")] {
        let p = path.to_str().unwrap();
        let mut args = vec![
            "--variant",
            "english",
            "--games",
            "6",
            "--out",
            p,
            "--threads",
            threads,
        ];
        args.extend(FAST);
        run_ok(&args);
    }
    let (a, b) = (std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
    assert_eq!(a, b);
    let (variant, records) = read_all(&a[..]).unwrap();
    assert_eq!(variant, Variant::English);
    let games: Vec<u32> = records
        .iter()
        .filter_map(|r| match r {
            Record::Game { index, .. } => Some(*index),
            Record::Position(_) => None,
        })
        .collect();
    assert_eq!(games, (0..6).collect::<Vec<_>>());
    // Each position is quiet, recorded once, and carries the result of the game it is in.
    let mut result = None;
    let mut seen = std::collections::HashSet::new();
    for r in &records {
        match r {
            Record::Game { result: r, .. } => result = Some(*r),
            Record::Position(s) => {
                assert!(!variant.has_capture(&s.position), "{s:?}");
                assert_eq!(Some(s.result), result);
                assert!(seen.insert((s.position, s.position.side())), "twice: {s:?}");
            }
        }
    }
    assert!(seen.len() > 6 * 10, "{} positions", seen.len());
}

#[test]
fn appending_continues_the_run_exactly_and_survives_a_kill() {
    let scratch = common::Scratch::new();
    let (whole, parts) = (scratch.file("whole.bin"), scratch.file("parts.bin"));
    let (w, p) = (whole.to_str().unwrap(), parts.to_str().unwrap());
    let mut args = vec!["--variant", "russian", "--games", "5", "--out", w];
    args.extend(FAST);
    run_ok(&args);
    let mut args = vec!["--variant", "russian", "--games", "3", "--out", p];
    args.extend(FAST);
    run_ok(&args);
    // Without --append an existing file is refused, and left alone.
    let before = std::fs::read(&parts).unwrap();
    assert!(!selfplay(&args).status.success());
    assert_eq!(std::fs::read(&parts).unwrap(), before);
    let mut args = vec![
        "--variant",
        "russian",
        "--games",
        "2",
        "--out",
        p,
        "--append",
    ];
    args.extend(FAST);
    run_ok(&args);
    assert_eq!(
        std::fs::read(&whole).unwrap(),
        std::fs::read(&parts).unwrap()
    );
    // Another variant's file is refused.
    let wrong = [
        "--variant",
        "english",
        "--games",
        "1",
        "--out",
        p,
        "--append",
    ];
    let out = selfplay(&wrong);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("russian"));
    // A kill in the middle of a record: the file reads to its last whole record, and an append
    // cuts the fragment off and goes on after the last game.
    let cut = before.len() - 5;
    std::fs::write(&parts, &before[..cut]).unwrap();
    assert!(read_all(&std::fs::read(&parts).unwrap()[..]).is_ok());
    let mut args = vec![
        "--variant",
        "russian",
        "--games",
        "1",
        "--out",
        p,
        "--append",
    ];
    args.extend(FAST);
    run_ok(&args);
    let (_, records) = read_all(&std::fs::read(&parts).unwrap()[..]).unwrap();
    let last = records.iter().rev().find_map(|r| match r {
        Record::Game { index, .. } => Some(*index),
        Record::Position(_) => None,
    });
    assert_eq!(last, Some(3));
}

#[test]
fn bad_flags_are_refused() {
    let scratch = common::Scratch::new();
    let out = scratch.file("bad.bin");
    let o = out.to_str().unwrap();
    for args in [
        vec!["--games", "0", "--out", o],
        vec!["--games", "2", "--out", o, "--depth", "0"],
        vec!["--games", "2", "--out", o, "--depth", "3", "--nodes", "10"],
        vec![
            "--games",
            "2",
            "--out",
            o,
            "--openings",
            "/nonexistent/openings.txt",
        ],
        vec!["--games", "2", "--out", "/nonexistent/dir/out.bin"],
    ] {
        let result = selfplay(&args);
        assert!(!result.status.success(), "{args:?} taken");
        assert!(!result.stderr.is_empty(), "{args:?}: no message");
    }
}
