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

/// The `(name, value)` pairs and the total of one `evaluate --json` line. The engine writes
/// names without quotes or commas inside, so a split suffices (no JSON library in the tests).
fn breakdown(line: &str) -> (i32, Vec<(String, i32)>) {
    let body = line
        .strip_prefix("{\"total\":")
        .and_then(|rest| rest.strip_suffix("}}"))
        .unwrap_or_else(|| panic!("not an evaluate --json line: {line}"));
    let (total, terms) = body.split_once(",\"terms\":{").expect("a terms object");
    let terms = terms
        .split(',')
        .map(|field| {
            let (name, value) = field.rsplit_once(':').expect("name:value");
            let name = name.trim_matches('"').to_string();
            (name, value.parse().expect("a number"))
        })
        .collect();
    (total.parse().expect("a number"), terms)
}

#[test]
fn json_gives_the_hand_written_terms_the_library_gives() {
    let dead_draw = "W:WK29,K30:BK4";
    let fens: Vec<&str> = FENS.iter().copied().chain([dead_draw]).collect();
    for variant in ["english", "russian"] {
        let out = evaluate(&["--variant", variant, "--json"], &(fens.join("\n") + "\n"));
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), fens.len(), "{text}");
        let v: Variant = variant.parse().unwrap();
        for (fen, line) in fens.iter().zip(&lines) {
            let pos = parse_fen(fen).unwrap();
            let (total, terms) = breakdown(line);
            assert_eq!(
                total,
                crownhead::evaluate(v, &pos, crownhead::EvalChoice::HandWritten),
                "{fen}"
            );
            let expected: Vec<(String, i32)> =
                crownhead::explain(v, &pos, crownhead::EvalChoice::HandWritten)
                    .into_iter()
                    .map(|(name, value)| (name.to_string(), value))
                    .collect();
            assert_eq!(terms, expected, "{variant} {fen}");
            assert_eq!(terms.iter().map(|t| t.1).sum::<i32>(), total, "{fen}");
        }
    }
    // The russian dead draw says so in a term of its own; english plays it on (2 kings to 1).
    let russian = evaluate(
        &["--variant", "russian", "--json"],
        &format!("{dead_draw}\n"),
    );
    let (_, terms) = breakdown(String::from_utf8_lossy(&russian.stdout).trim());
    assert_eq!(terms.last().map(|t| t.0.as_str()), Some("dead draw"));
}

#[test]
fn json_answers_a_bad_line_and_refuses_a_weights_file() {
    let out = evaluate(&["--json"], "W:W99:B1\nW:W21-32:B1-12\n");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("error: "), "{text}");
    assert_eq!(breakdown(lines[1]).0, 0, "{text}");
    // The terms are the hand-written evaluation's: a learned one has none to give.
    let out = evaluate(&["--json", "--weights", "any.weights"], "");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && out.stdout.is_empty(), "{err}");
    assert!(err.contains("--json") && err.contains("--weights"), "{err}");
}
