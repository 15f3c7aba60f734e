//! `crownhead evaluate`: the static evaluation of FENs on stdin, hand-written or from a weights
//! file; a damaged weights file is refused with its name, never read.

use crate::common;

use crownhead::{parse_fen, EvalChoice, Variant};
use std::process::Output;

const FENS: [&str; 3] = ["B:W21-32:B1-12", "W:W18,21,K30:B3,K9,10", "B:WK4,20:B6,K13"];

/// `crownhead evaluate ARGS` with `input` on stdin.
fn evaluate(args: &[&str], input: &str) -> Output {
    common::run_with_input(&[&["evaluate"], args].concat(), input.as_bytes())
}

fn numbers(out: &Output) -> Vec<i32> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.parse().unwrap_or_else(|_| panic!("not a number: {l}")))
        .collect()
}

#[test]
fn hand_written_and_learned_evaluations_as_the_library_gives_them() {
    let input = FENS.join("\n") + "\n";
    let hand = evaluate(&["--variant", "english"], &input);
    let expected: Vec<i32> = FENS
        .iter()
        .map(|f| {
            crownhead::evaluate(
                Variant::English,
                &parse_fen(f).unwrap(),
                EvalChoice::HandWritten,
            )
        })
        .collect();
    assert_eq!(numbers(&hand), expected);

    let weights = common::sample_network();
    let network = crownhead::learned::Learned::new(weights.clone()).expect("a network");
    let scratch = common::Scratch::new();
    let path = scratch.file("sample.weights");
    std::fs::write(&path, weights.to_bytes()).unwrap();
    let p = path.to_str().unwrap();
    let learned = evaluate(&["--variant", "english", "--weights", p], &input);
    let expected: Vec<i32> = FENS
        .iter()
        .map(|f| {
            let pos = parse_fen(f).unwrap();
            crownhead::with_rules!(Variant::English, R => network.model_eval::<R>(&pos))
        })
        .collect();
    assert_eq!(numbers(&learned), expected);
    assert_ne!(
        expected,
        numbers(&hand),
        "the weights should change the evaluation"
    );

    // One flipped byte, or the other variant: refused, naming the file.
    let mut bytes = weights.to_bytes();
    bytes[100] ^= 4;
    std::fs::write(&path, &bytes).unwrap();
    for variant in ["english", "russian"] {
        let out = evaluate(&["--variant", variant, "--weights", p], &input);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && out.stdout.is_empty());
        assert!(err.contains(p) && err.contains("refused"), "{err}");
    }
}

#[test]
fn a_bad_line_is_answered_and_reading_goes_on() {
    let out = evaluate(&[], "not a fen\nW:W21-32:B1-12\n");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("error: "), "{text}");
    assert!(lines[1].parse::<i32>().is_ok(), "{text}");
}
