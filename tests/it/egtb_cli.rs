//! `crownhead egtb` end to end: build the 3-piece databases of both variants into a temporary
//! directory, check the form of every `stats` line and the answers of `probe`, that a rerun
//! skips what is built, and that bad input and bad files end with a message and a failure.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `crownhead egtb ARGS`: success, stdout, stderr.
fn egtb(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_crownhead"))
        .arg("egtb")
        .args(args)
        .output()
        .expect("run crownhead");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("egtb-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The materials with both sides present and 2 or 3 pieces, counted by hand: 2 pieces, one
/// piece a side, man or king each: 4. 3 pieces, one side with one piece (2 kinds) and the other
/// with two (men 2, 1 or 0: 3 kinds), either side the one with two: 2 x 2 x 3 = 12.
const MATERIALS_TO_3: usize = 4 + 12;

/// Parses one stats line, checking its exact form; returns its fields.
fn parse_line(line: &str) -> HashMap<String, String> {
    let keys = [
        "wm",
        "wk",
        "bm",
        "bk",
        "stm",
        "positions",
        "win",
        "draw",
        "loss",
    ];
    let fields: Vec<&str> = line.split(' ').collect();
    assert_eq!(fields.len(), keys.len(), "{line}");
    let mut out = HashMap::new();
    for (field, key) in fields.iter().zip(keys) {
        let (k, v) = field.split_once('=').unwrap_or_else(|| panic!("{line}"));
        assert_eq!(k, key, "{line}");
        if key == "stm" {
            assert!(v == "W" || v == "B", "{line}");
        } else {
            assert!(v.parse::<u64>().is_ok(), "{line}");
        }
        out.insert(k.to_string(), v.to_string());
    }
    out
}

/// Builds up to 3 pieces; stdout and stderr.
fn build(dir: &Path, variant: &str) -> (String, String) {
    let (ok, out, err) = egtb(&[
        "build",
        "--variant",
        variant,
        "--pieces",
        "3",
        "--dir",
        dir.to_str().unwrap(),
        "--threads",
        "2",
    ]);
    assert!(ok, "{out}{err}");
    (out, err)
}

#[test]
fn build_stats_probe_and_rerun() {
    let dir = fresh_dir("build");
    let d = dir.to_str().unwrap();
    for variant in ["english", "russian"] {
        let (_, progress) = build(&dir, variant);
        // Progress goes to stderr, one line per pair built, with the positions done.
        assert!(progress.contains("positions done"), "{progress}");
        let (ok, out, err) = egtb(&["stats", "--variant", variant, "--pieces", "3", "--dir", d]);
        assert!(ok, "{err}");
        let lines: Vec<_> = out.lines().map(parse_line).collect();
        assert_eq!(lines.len(), 2 * MATERIALS_TO_3, "{out}");
        let num = |l: &HashMap<String, String>, k: &str| l[k].parse::<u64>().unwrap();
        for l in &lines {
            assert_eq!(
                num(l, "win") + num(l, "draw") + num(l, "loss"),
                num(l, "positions")
            );
            // Counted by hand: a king each, 32 x 31 placements.
            if num(l, "wk") == 1 && num(l, "bk") == 1 && num(l, "positions") < 1000 {
                assert_eq!(num(l, "positions"), 32 * 31);
            }
        }
        // Colours swapped with the other side to move is the same game, mirrored.
        let key = |l: &HashMap<String, String>| {
            (
                num(l, "wm"),
                num(l, "wk"),
                num(l, "bm"),
                num(l, "bk"),
                l["stm"].clone(),
            )
        };
        let by: HashMap<_, _> = lines.iter().map(|l| (key(l), l)).collect();
        for l in &lines {
            let other = if l["stm"] == "W" { "B" } else { "W" };
            let m = by[&(
                num(l, "bm"),
                num(l, "bk"),
                num(l, "wm"),
                num(l, "wk"),
                other.into(),
            )];
            for k in ["positions", "win", "draw", "loss"] {
                assert_eq!(l[k], m[k]);
            }
        }
        // A rerun builds nothing.
        let (again, _) = build(&dir, variant);
        assert!(again.contains("built 0 slices"), "{again}");
        assert!(
            again.contains(&format!("skipped {MATERIALS_TO_3}")),
            "{again}"
        );
    }
    // d4 jumps e5 and ends the game: won in one ply, by that move alone.
    let (ok, out, err) = egtb(&[
        "probe",
        "--variant",
        "english",
        "--fen",
        "W:WK18:BK15",
        "--dir",
        d,
    ]);
    assert!(ok, "{err}");
    assert_eq!(out, "value: win\ndistance: 1\nbest: 18x11\n");
    // The same with Black to move: now Black's king on e5 takes d4, landing on c3.
    let (ok, out, _) = egtb(&[
        "probe",
        "--variant",
        "english",
        "--fen",
        "B:WK18:BK15",
        "--dir",
        d,
    ]);
    assert!(ok);
    assert_eq!(out, "value: win\ndistance: 1\nbest: 15x22\n");
    // Russian, algebraic: the a1 king flies along the main road and may land on f6, g7 or h8.
    let (ok, out, _) = egtb(&[
        "probe",
        "--variant",
        "russian",
        "--fen",
        "W:WK29:BK15",
        "--dir",
        d,
    ]);
    assert!(ok);
    assert_eq!(out, "value: win\ndistance: 1\nbest: a1:f6 a1:g7 a1:h8\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Failure cases: `egtb` arguments (the test adds `--dir`) and a text the error must contain.
type Cases = [(&'static str, &'static str)];

/// Bad input, and files not built yet (the missing file is named).
const BEFORE_BUILD: &Cases = &[
    ("build --variant english --pieces 9", "out of range"),
    ("build --variant chess --pieces 3", "chess"),
    ("probe --variant english --fen W:W99:B1", "99"),
    ("stats --variant english --pieces 2", "w0001b0001.cheg"),
    ("probe --variant english --fen W:WK1:BK32", "not found"),
];

/// Built up to 3 pieces: more pieces than built is a missing slice, named.
const AFTER_BUILD: &Cases = &[(
    "probe --variant english --fen W:WK1,K2:BK31,K32",
    "w0002b0002.cheg",
)];

/// One byte of a file flipped: refused by name, by stats, probe and a rerun of build alike.
const DAMAGED: &Cases = &[
    (
        "stats --variant english --pieces 3",
        "w0001b0001.cheg: checksum",
    ),
    ("probe --variant english --fen W:WK1:BK32", "checksum"),
    ("build --variant english --pieces 3", "checksum"),
];

/// The file cut short.
const TRUNCATED: &Cases = &[("stats --variant english --pieces 3", "truncated")];

/// Each case fails, with its text in the message and no panic.
fn all_fail(cases: &Cases, dir: &Path) {
    for (args, needle) in cases {
        let mut args: Vec<&str> = args.split(' ').collect();
        args.extend(["--dir", dir.to_str().unwrap()]);
        let (ok, out, err) = egtb(&args);
        assert!(!ok, "{args:?} succeeded: {out}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn bad_input_and_bad_files_fail_with_a_message() {
    let dir = fresh_dir("bad");
    all_fail(BEFORE_BUILD, &dir);
    build(&dir, "english");
    all_fail(AFTER_BUILD, &dir);
    let file = dir.join("english").join("w0001b0001.cheg");
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    all_fail(DAMAGED, &dir);
    std::fs::write(&file, &bytes[..100]).unwrap();
    all_fail(TRUNCATED, &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn one_pair_at_a_time_with_only_gives_the_files_of_a_full_build() {
    use crownhead::egtb::material::build_order;
    let (full, pairs) = (fresh_dir("only-full"), fresh_dir("only-pairs"));
    let p = pairs.to_str().unwrap();
    build(&full, "russian");
    let only = |m: &crownhead::egtb::Material| {
        let material = format!("{},{},{},{}", m.wm, m.wk, m.bm, m.bk);
        let args = [
            "build",
            "--variant",
            "russian",
            "--pieces",
            "3",
            "--dir",
            p,
            "--threads",
            "1",
            "--material",
            &material,
            "--only",
        ];
        egtb(&args)
    };
    // The last pair first: the slices its moves lead to are missing, so it fails naming one.
    let order = build_order(3);
    let (ok, _, err) = only(&order.last().unwrap()[0]);
    assert!(!ok && err.contains("not found"), "{err}");
    for pair in &order {
        let (ok, out, err) = only(&pair[0]);
        assert!(ok, "{err}");
        // The pair alone: nothing below it is read as a skipped slice.
        let want = format!("built {} slices", pair.len());
        assert!(out.contains(&want) && out.contains("skipped 0"), "{out}");
    }
    for pair in order.iter().flatten() {
        let name = pair.file_name();
        let (a, b) = (
            std::fs::read(full.join("russian").join(&name)).unwrap(),
            std::fs::read(pairs.join("russian").join(&name)).unwrap(),
        );
        assert!(a == b, "{name} differs");
    }
    // --only says which pair: without --material it is refused.
    let (ok, _, err) = egtb(&["build", "--variant", "russian", "--pieces", "3", "--only"]);
    assert!(!ok && err.contains("--material"), "{err}");
    for d in [full, pairs] {
        let _ = std::fs::remove_dir_all(d);
    }
}
