//! The learned evaluation in play: the `Eval` option chooses it, `eval` explains it block by
//! block, `crownhead --eval-file` plays a weights file in place of the embedded ones, and a bad
//! file or choice is refused with one clear error.

use crate::common;

use crownhead::learned::learned_for;
use crownhead::{parse_fen, EvalChoice, Variant};
use std::process::Output;

const FEN: &str = "B:W18,21,22,23,K30:B3,6,K9,10,14";

fn engine(args: &[&str], input: &str) -> Output {
    common::run_with_input(args, input.as_bytes())
}

/// The protocol's `eval` of `FEN` in english with `Eval` set to `choice`: the terms and the total.
fn explained(args: &[&str], choice: &str) -> (Vec<(String, i32)>, i32) {
    let input = format!(
        "uci\nsetoption name Variant value english\nsetoption name Eval value {choice}\n\
         position fen {FEN}\neval\nquit\n"
    );
    let out = engine(args, &input);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let mut terms = Vec::new();
    let mut total = None;
    for line in text.lines().skip_while(|l| *l != "uciok").skip(1) {
        let (name, value) = line.rsplit_once(' ').expect("a term line");
        if let Some(rest) = line.strip_prefix("total ") {
            total = rest.split(' ').next().and_then(|v| v.parse().ok());
        } else if let Ok(v) = value.parse() {
            terms.push((name.to_string(), v));
        }
    }
    (terms, total.unwrap_or_else(|| panic!("no total in {text}")))
}

/// Whether the engine started with `args` answers `go depth 4` on `FEN` in english.
fn searches(args: &[&str]) -> bool {
    let out = engine(
        args,
        &format!(
            "uci\nsetoption name Variant value english\nposition fen {FEN}\ngo depth 4\nquit\n"
        ),
    );
    String::from_utf8_lossy(&out.stdout).contains("bestmove ")
}

#[test]
fn the_eval_option_chooses_the_evaluation_that_explains_and_plays() {
    let pos = parse_fen(FEN).unwrap();
    let embedded = learned_for(Variant::English).expect("english has embedded weights");

    let (terms, total) = explained(&[], "learned");
    assert_eq!(
        total,
        crownhead::with_rules!(Variant::English, R => embedded.evaluate_for::<R>(&pos))
    );
    assert_eq!(terms.iter().map(|t| t.1).sum::<i32>(), total);
    assert!(terms.iter().any(|t| t.0 == "network"), "{terms:?}");

    let (terms, total) = explained(&[], "handwritten");
    assert_eq!(
        total,
        crownhead::evaluate(Variant::English, &pos, EvalChoice::HandWritten)
    );
    assert!(!terms.iter().any(|t| t.0 == "network"), "{terms:?}");
}

#[test]
fn a_weights_file_named_at_start_up_plays_and_a_bad_one_is_refused() {
    let weights = common::sample_network();
    let learned = crownhead::learned::Learned::new(weights.clone()).expect("a network");
    let scratch = common::Scratch::new();
    let path = scratch.file("sample.weights");
    std::fs::write(&path, weights.to_bytes()).unwrap();
    let p = path.to_str().unwrap();

    // `auto` plays the file it was given; the search runs on it.
    let pos = parse_fen(FEN).unwrap();
    let (_, total) = explained(&["--eval-file", p], "auto");
    assert_eq!(
        total,
        crownhead::with_rules!(Variant::English, R => learned.evaluate_for::<R>(&pos))
    );
    assert!(searches(&["--eval-file", p]), "no bestmove");

    // A file of the pattern tables that earlier versions played (the network bit of the flags
    // clear, the checksum made good): refused, saying so.
    let mut tables = weights.to_bytes();
    tables.truncate(tables.len() - 8);
    tables[6] &= !2;
    let sum = crownhead::learned::weights::fnv1a(&tables);
    tables.extend_from_slice(&sum.to_le_bytes());
    std::fs::write(&path, &tables).unwrap();
    let out = engine(&["--eval-file", p], "uci\nquit\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && out.stdout.is_empty(), "{err}");
    assert!(err.contains(p) && err.contains("pattern-table"), "{err}");

    // Cut off: refused at start-up, naming the file, before any protocol.
    let bytes = weights.to_bytes();
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    let out = engine(&["--eval-file", p], "uci\nquit\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && out.stdout.is_empty(), "{err}");
    assert!(err.contains(p) && err.contains("cut off"), "{err}");
    let out = engine(&["--eval-file", "/nonexistent/w.weights"], "uci\nquit\n");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}

#[test]
fn an_unknown_choice_is_one_error_and_the_engine_goes_on() {
    let out = engine(
        &[],
        "uci\nsetoption name Eval value neural\nsetoption name Variant value english\n\
         position fen W:W21-32:B1-12\ngo depth 3\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("info string error").count(), 1, "{text}");
    assert!(text.contains("bestmove "), "{text}");
}

#[test]
fn a_learned_search_repeats_exactly() {
    let bench = || {
        let out = engine(&["bench", "--depth", "6", "--eval", "learned"], "");
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        text.lines()
            .last()
            .and_then(|l| l.split_whitespace().nth(1).map(str::to_string))
            .expect("a Nodes line")
    };
    let hand = engine(&["bench", "--depth", "6", "--eval", "handwritten"], "");
    let hand = String::from_utf8_lossy(&hand.stdout).to_string();
    let first = bench();
    assert_eq!(first, bench());
    assert!(
        !hand.contains(&format!("Nodes: {first} ")),
        "the weights should change the tree"
    );
}

#[test]
fn a_network_file_plays_explains_itself_and_a_misfit_one_is_refused() {
    let weights = common::sample_network();
    let learned = crownhead::learned::Learned::new(weights.clone()).expect("a network");
    let scratch = common::Scratch::new();
    let path = scratch.file("net.weights");
    std::fs::write(&path, weights.to_bytes()).unwrap();
    let p = path.to_str().unwrap();

    // `eval` explains it in its two parts, which sum to the search's evaluation.
    let pos = parse_fen(FEN).unwrap();
    let (terms, total) = explained(&["--eval-file", p], "auto");
    assert_eq!(
        total,
        crownhead::with_rules!(Variant::English, R => learned.evaluate_for::<R>(&pos))
    );
    assert_eq!(terms.iter().map(|t| t.1).sum::<i32>(), total);
    assert!(terms.iter().any(|t| t.0 == "network"), "{terms:?}");
    assert!(searches(&["--eval-file", p]), "no bestmove");

    // Weights of another count: the count is the network's to check.
    let misfit = crownhead::learned::Weights {
        values: vec![1; 1000],
        ..common::sample_network()
    };
    std::fs::write(&path, misfit.to_bytes()).unwrap();
    let out = engine(&["--eval-file", p], "uci\nquit\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && out.stdout.is_empty(), "{err}");
    assert!(
        err.contains(p) && err.contains("not the network's"),
        "{err}"
    );
}
