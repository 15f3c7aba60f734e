//! The numeric flags that the tools share with the protocols take the protocols' ranges, read
//! from the one options table: a value one past either end is refused, with that range in the
//! message and clap's exit status 2, by every tool that has the flag.

use crate::common;
use crownhead::protocol::options::{self, Kind};

/// The range of the protocols' spin option `name`.
fn option_range(name: &str) -> (i64, i64) {
    match options::find(name, false).expect("an option").kind {
        Kind::Spin { min, max, .. } => (min, max),
        _ => panic!("{name} is not a spin option"),
    }
}

/// Runs each command with `flag` one below and one above the option's range, and expects a
/// refusal naming the range.
fn refused_outside(option: &str, flag: &str, commands: &[&[&str]]) {
    let (min, max) = option_range(option);
    let range = format!("{min}-{max}");
    for command in commands {
        for bad in [min - 1, max + 1] {
            let bad = bad.to_string();
            let mut args = command.to_vec();
            args.extend([flag, bad.as_str()]);
            let out = common::run_with_input(&args, b"");
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(err.contains(&range), "{args:?}: {err}");
        }
    }
}

#[test]
fn threads_take_the_threads_option_range() {
    let dir = std::env::temp_dir().join(format!("crownhead-ranges-{}", std::process::id()));
    let dir = dir.to_str().expect("a UTF-8 temporary directory");
    refused_outside(
        "Threads",
        "--threads",
        &[
            &["perft", "--depth", "1"],
            &["bench", "--depth", "1"],
            &[
                "egtb",
                "build",
                "--variant",
                "english",
                "--pieces",
                "2",
                "--dir",
                dir,
            ],
        ],
    );
    // Refused before anything was built.
    assert!(!std::path::Path::new(dir).exists());
}

#[test]
fn hash_takes_the_hash_option_range() {
    let out = std::env::temp_dir().join(format!("crownhead-ranges-{}.bin", std::process::id()));
    let out = out.to_str().expect("a UTF-8 temporary path");
    refused_outside(
        "Hash",
        "--hash",
        &[
            &["bench", "--depth", "1"],
            &[
                "selfplay",
                "--variant",
                "english",
                "--games",
                "1",
                "--depth",
                "1",
                "--out",
                out,
            ],
        ],
    );
    assert!(!std::path::Path::new(out).exists());
}
