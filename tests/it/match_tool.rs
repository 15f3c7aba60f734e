//! `crownhead match` end to end: engines in their own processes, games adjudicated by the rules,
//! faults (illegal move, crash, hang) scored and counted apart, every game saved as PDN that
//! reads back to the same result. The stand-in engine is `examples/uci_fixture.rs`, which the
//! tests build themselves when cargo has not (`cargo test --test match` builds no examples).

use crate::common;

use crownhead::pdn::read_games;
use crownhead::Variant;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

fn crownhead() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_crownhead"))
}

/// The stand-in engine, `examples/uci_fixture.rs`, built once per run with the profile of this
/// test (so that it lands next to the binary, and is already fresh after a plain `cargo test`,
/// which builds the examples too). A Windows build of the tests made by a cargo that is not a
/// Windows program (cross-compiled on Linux, run under Wine) cannot run that cargo, which would
/// build for the wrong system anyway: there the fixture must have been built beforehand for the
/// same target and profile (`.ci/windows.sh --full` does).
fn fixture() -> String {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    let path = BUILT.get_or_init(|| {
        let dir = crownhead()
            .parent()
            .expect("the binary's directory")
            .to_path_buf();
        // target/debug holds the test profile's artefacts, target/<name> those of any other.
        let profile = match dir.file_name().and_then(|n| n.to_str()) {
            Some("debug") | None => "test".to_string(),
            Some(name) => name.to_string(),
        };
        let cargo_runs_here = !cfg!(windows) || env!("CARGO").ends_with(".exe");
        if cargo_runs_here {
            let status = Command::new(env!("CARGO"))
                .args([
                    "build",
                    "--quiet",
                    "--example",
                    "uci_fixture",
                    "--profile",
                    &profile,
                ])
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .status()
                .expect("cargo runs");
            assert!(
                status.success(),
                "cargo build --example uci_fixture --profile {profile} failed"
            );
        }
        let path = dir
            .join("examples")
            .join(format!("uci_fixture{}", std::env::consts::EXE_SUFFIX));
        assert!(path.exists(), "{} was not built", path.display());
        path
    });
    path.display().to_string()
}

/// Runs a match and returns its stdout.
fn run_match(args: &[&str]) -> String {
    let out = Command::new(crownhead())
        .arg("match")
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "match failed: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Every saved game reads back; those that ended on the board end there by the rules with the
/// recorded result. Returns the Termination tags.
fn check_pdn(path: &PathBuf, variant: Variant, games: usize) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let games_read = read_games(&text, None).unwrap();
    assert_eq!(games_read.len(), games);
    let mut reasons = Vec::new();
    for g in &games_read {
        assert_eq!(g.game.variant(), variant);
        let reason = g.tag("Termination").unwrap().to_string();
        let result = g.result.expect("a result");
        if let Some(outcome) = g.game.outcome() {
            assert_eq!(outcome.result, result, "{reason}");
            assert_eq!(
                reason.contains("no legal move"),
                outcome.reason == crownhead::EndReason::NoLegalMove
            );
        } else {
            assert!(
                reason.starts_with("move cap")
                    || reason.contains("adjudicat")
                    || reason.contains(" by ")
                    || reason.contains("crashed"),
                "{reason}"
            );
        }
        reasons.push(reason);
    }
    reasons
}

#[test]
fn a_short_match_between_two_processes() {
    let scratch = common::Scratch::new();
    let pdn = scratch.file("short.pdn");
    let fixture = fixture();
    let other = format!("{fixture} --name Other");
    let out = run_match(&[
        "--engine",
        &fixture,
        "--engine",
        &other,
        "--games",
        "4",
        "--depth",
        "2",
        "--variant",
        "english",
        "--concurrency",
        "2",
        "--pdn",
        pdn.to_str().unwrap(),
        // A bound below 0 as its own argument: a value, not an option.
        "--sprt",
        "-10,20",
    ]);
    assert_eq!(
        out.lines().filter(|l| l.starts_with("Game ")).count(),
        4,
        "{out}"
    );
    assert!(out.contains("Score of Fixture vs Other"), "{out}");
    assert!(out.contains("Elo difference"), "{out}");
    assert!(out.contains("SPRT: elo0 -10 elo1 20: LLR"), "{out}");
    let reasons = check_pdn(&pdn, Variant::English, 4);
    assert!(reasons.iter().all(|r| !r.contains(" by ")), "{reasons:?}");
}

#[test]
fn faults_lose_and_are_counted_apart() {
    let scratch = common::Scratch::new();
    let fixture = fixture();
    for (fault, counted, ending) in [
        (
            "illegal",
            "illegal moves 2, crashes 0, time forfeits 0",
            "illegal move",
        ),
        (
            "crash",
            "illegal moves 0, crashes 2, time forfeits 0",
            "crash",
        ),
        (
            "hang",
            "illegal moves 0, crashes 0, time forfeits 2",
            "time forfeit",
        ),
    ] {
        let pdn = scratch.file(&format!("{fault}.pdn"));
        let bad = format!("{fixture} --fault {fault} --after 2 --name Bad");
        let out = run_match(&[
            "--engine",
            &bad,
            "--engine",
            &fixture,
            "--games",
            "2",
            "--movetime",
            "20",
            "--margin",
            "300",
            "--variant",
            "russian",
            "--pdn",
            pdn.to_str().unwrap(),
        ]);
        assert!(
            out.contains("Score of Bad vs Fixture: 0 - 2 - 0"),
            "{fault}: {out}"
        );
        assert!(
            out.contains(&format!("Faults of Bad: {counted}")),
            "{fault}: {out}"
        );
        assert!(
            out.contains("Faults of Fixture: illegal moves 0, crashes 0, time forfeits 0"),
            "{out}"
        );
        assert!(
            out.contains(&format!("Endings: {ending} 2")),
            "{fault}: {out}"
        );
        let reasons = check_pdn(&pdn, Variant::Russian, 2);
        assert!(reasons.iter().all(|r| r.contains("Bad")), "{reasons:?}");
    }
}

#[test]
fn hub_engines() {
    let scratch = common::Scratch::new();
    let pdn = scratch.file("hub.pdn");
    let fixture = format!("{} --hub", fixture());
    let out = run_match(&[
        "--engine",
        &fixture,
        "--engine",
        &fixture,
        "--hub",
        "--games",
        "2",
        "--variant",
        "russian",
        "--tc",
        "5+0.05",
        "--max-moves",
        "60",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert!(out.contains("Score of Fixture (1) vs Fixture (2)"), "{out}");
    assert!(
        out.contains("illegal moves 0, crashes 0, time forfeits 0"),
        "{out}"
    );
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert!(text.contains(" clk "), "clock in the comments: {text}");
    check_pdn(&pdn, Variant::Russian, 2);
}

/// Runs a match that must be refused; returns its stderr.
fn refused_match(args: &[&str]) -> String {
    let out = Command::new(crownhead())
        .arg("match")
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(
        !out.status.success(),
        "match was not refused: {stderr}\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
    stderr
}

#[test]
fn a_match_with_an_engine_that_cannot_start_fails_naming_it() {
    let fixture = fixture();
    let quick = ["--games", "2", "--depth", "1", "--timeout", "2000"];
    // Both missing: each is named with its own failure.
    let both = [
        &["--engine", "/nonexistent", "--engine", "/nonexistent2"][..],
        &quick,
    ]
    .concat();
    let err = refused_match(&both);
    assert!(err.contains("'/nonexistent' could not start"), "{err}");
    assert!(err.contains("(no such command)"), "{err}");
    assert!(err.contains("'/nonexistent2' could not start"), "{err}");
    // One missing, either first or second: only that one is named.
    for engines in [
        [
            "--engine",
            "/nonexistent/engine",
            "--engine",
            fixture.as_str(),
        ],
        [
            "--engine",
            fixture.as_str(),
            "--engine",
            "/nonexistent/engine",
        ],
    ] {
        let err = refused_match(&[&engines[..], &quick].concat());
        assert!(
            err.contains("'/nonexistent/engine' could not start"),
            "{err}"
        );
        assert!(!err.contains(&fixture), "{err}");
    }
}

#[test]
fn an_engine_that_cannot_restart_loses_by_its_own_fault() {
    let scratch = common::Scratch::new();
    // Starts once, crashes in its first game, and cannot start again: a command of the shell
    // the match tool runs engines with (sh on Unix, cmd on Windows).
    let mark = scratch.file("restarted");
    let _ = std::fs::remove_file(&mark);
    let (m, f) = (mark.display(), fixture());
    let bad = if cfg!(windows) {
        format!(
            "if exist \"{m}\" (exit 3) else (type nul > \"{m}\" & \"{f}\" --fault crash --after 2 --name Bad)"
        )
    } else {
        format!("if [ -e {m} ]; then exit 3; fi; touch {m}; exec {f} --fault crash --after 2 --name Bad")
    };
    let out = run_match(&[
        "--engine",
        &fixture(),
        "--engine",
        &bad,
        "--games",
        "2",
        "--movetime",
        "20",
        "--timeout",
        "2000",
    ]);
    assert!(
        out.contains("Faults of Fixture: illegal moves 0, crashes 0, time forfeits 0"),
        "{out}"
    );
    assert!(
        out.contains("Faults of Bad: illegal moves 0, crashes 2, time forfeits 0"),
        "{out}"
    );
}

#[test]
fn a_stuck_engine_behind_a_wrapper_shell_is_stopped_with_it() {
    // The engine stops reading and never answers its second `go`: a time forfeit, after which
    // the match kills it. A wrapper shell stays between (the command goes on after the engine,
    // in the syntax sh and cmd share), so killing the shell alone would leave it running; on
    // Windows it would also hold the match's inherited output open, so the match's output goes
    // to files here rather than pipes that would never close.
    let scratch = common::Scratch::new();
    let beat = scratch.file("beat");
    let stuck = format!(
        "\"{}\" --fault stuck --after 2 --beat \"{}\" --name Stuck || exit 9",
        fixture(),
        beat.display()
    );
    let (stdout, stderr) = (scratch.file("out"), scratch.file("err"));
    let mut run = Command::new(crownhead())
        .arg("match")
        .args(["--engine", &stuck, "--engine", &fixture(), "--games", "2"])
        .args(["--movetime", "20", "--margin", "300"])
        .stdout(std::fs::File::create(&stdout).unwrap())
        .stderr(std::fs::File::create(&stderr).unwrap())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + common::TIMEOUT;
    while run.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = run.kill();
            panic!("the match did not end");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = std::fs::read_to_string(&stdout).unwrap();
    let err = std::fs::read_to_string(&stderr).unwrap();
    assert!(
        out.contains("Faults of Stuck: illegal moves 0, crashes 0, time forfeits 2"),
        "{out}{err}"
    );
    let beats = || std::fs::metadata(&beat).map(|m| m.len()).unwrap_or(0);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let after_the_match = beats();
    assert!(after_the_match > 0, "the engine never got stuck");
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert_eq!(beats(), after_the_match, "a stuck engine still runs");
}

#[test]
fn an_engine_command_may_quote_a_path_with_a_space_and_its_arguments() {
    // The usual Windows engine path ("C:\Program Files\...") in the shell's own quoting, which
    // sh and cmd share for double quotes.
    let scratch = common::Scratch::new();
    let dir = scratch.file("an engine folder");
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join(PathBuf::from(fixture()).file_name().unwrap());
    std::fs::copy(fixture(), &copy).unwrap();
    let quoted = format!("\"{}\" --name \"Two Words\"", copy.display());
    let out = run_match(&[
        "--engine",
        &quoted,
        "--engine",
        &fixture(),
        "--games",
        "2",
        "--depth",
        "1",
        "--max-moves",
        "10",
    ]);
    assert!(out.contains("Score of Two Words vs Fixture"), "{out}");
}

#[test]
fn out_of_range_settings_are_refused_with_the_range() {
    let fixture = fixture();
    let engines = ["--engine", fixture.as_str(), "--engine", fixture.as_str()];
    for (args, range) in [
        (&["--depth", "0"][..], "1-100"),
        (&["--depth", "101"][..], "1-100"),
        (&["--movetime", "0"][..], "1-86400000"),
        (&["--games", "0"][..], "at least 1"),
        (&["--max-moves", "0"][..], "at least 1"),
        (&["--concurrency", "0"][..], "1-256"),
        (&["--draw-moves", "0"][..], "at least 1"),
        (&["--resign-moves", "0"][..], "at least 1"),
        (&["--timeout", "0"][..], "1-86400000"),
        (&["--second-movetime", "0"][..], "1-86400000"),
        (&["--second-depth", "101"][..], "1-100"),
    ] {
        let err = refused_match(&[&engines[..], args].concat());
        assert!(
            err.contains(args[0]) && err.contains(range),
            "{args:?}: {err}"
        );
    } // A bad clock for the second engine is named as the first's would be.
    let err = refused_match(&[&engines[..], &["--second-tc", "10+x"][..]].concat());
    assert!(err.contains("bad time control '10+x'"), "{err}");
}

#[test]
fn crownhead_against_itself_at_a_tiny_depth() {
    let scratch = common::Scratch::new();
    for (variant, v) in [("russian", Variant::Russian), ("english", Variant::English)] {
        let pdn = scratch.file(&format!("self-{variant}.pdn"));
        let engine = crownhead().display().to_string();
        let out = run_match(&[
            "--engine",
            &engine,
            "--engine",
            &engine,
            "--games",
            "4",
            "--depth",
            "2",
            "--variant",
            variant,
            "--concurrency",
            "2",
            "--pdn",
            pdn.to_str().unwrap(),
            "--max-moves",
            "5000",
        ]);
        assert!(
            out.contains("illegal moves 0, crashes 0, time forfeits 0"),
            "{out}"
        );
        let text = std::fs::read_to_string(&pdn).unwrap();
        for g in read_games(&text, None).unwrap() {
            let outcome = g
                .game
                .outcome()
                .unwrap_or_else(|| panic!("not ended by a rule: {:?}", g.tag("Termination")));
            assert_eq!(Some(outcome.result), g.result);
            assert_eq!(g.game.variant(), v);
        }
    }
}

#[test]
fn a_match_split_by_first_game_plays_the_same_games() {
    let scratch = common::Scratch::new();
    let engine = crownhead().display().to_string();
    let play = |name: &str, first: &str, games: &str| {
        let pdn = scratch.file(name);
        let out = run_match(&[
            "--engine",
            &engine,
            "--engine",
            &engine,
            "--first-game",
            first,
            "--games",
            games,
            "--depth",
            "2",
            "--variant",
            "english",
            "--pdn",
            pdn.to_str().unwrap(),
        ]);
        (out, std::fs::read_to_string(&pdn).unwrap())
    };
    let (_, whole) = play("whole.pdn", "0", "4");
    let (_, head) = play("head.pdn", "0", "2");
    let (out, tail) = play("tail.pdn", "2", "2");
    // Games 3 and 4 of 4: the second opening, first engine White then Black.
    assert!(
        out.starts_with("Game 3/4: ") && out.contains("\nGame 4/4: "),
        "{out}"
    );
    let rounds: Vec<String> = read_games(&tail, None)
        .unwrap()
        .iter()
        .map(|g| g.tag("Round").unwrap().to_string())
        .collect();
    assert_eq!(rounds, ["3", "4"]);
    // One engine at a fixed depth, fresh for each game: the same moves as the whole match, the
    // same evaluations and depths; only the times spent differ.
    assert_eq!(without_times(&(head + &tail)), without_times(&whole));
}

/// The PDN's words, with each move's time (`0.016s}`) left out.
fn without_times(pdn: &str) -> Vec<&str> {
    pdn.split_whitespace()
        .map(|w| match w.strip_suffix("s}") {
            Some(t) if t.parse::<f64>().is_ok() => "s}",
            _ => w,
        })
        .collect()
}

#[test]
fn each_engine_may_have_its_own_control() {
    let scratch = common::Scratch::new();
    let pdn = scratch.file("controls.pdn");
    let engine = crownhead().display().to_string();
    let out = run_match(&[
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--games",
        "2",
        "--tc",
        "3+0.05",
        "--second-movetime",
        "20",
        "--variant",
        "english",
        "--max-moves",
        "12",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert!(
        out.contains("illegal moves 0, crashes 0, time forfeits 0"),
        "{out}"
    );
    // The report gives each engine's moves and their time: both played.
    let times: Vec<&str> = out.lines().filter(|l| l.starts_with("Time of ")).collect();
    assert_eq!(times.len(), 2, "{out}");
    assert!(times.iter().all(|l| !l.contains(": 0 moves")), "{out}");
    let text = std::fs::read_to_string(&pdn).unwrap();
    let games = read_games(&text, None).unwrap();
    assert_eq!(games.len(), 2);
    // The first engine has White in game 1 and Black in game 2; its control follows it, and
    // only its moves carry a clock.
    for (g, clocked) in games.iter().zip([0, 1]) {
        let expected = if clocked == 0 {
            "White 3+0.05, Black movetime 20ms"
        } else {
            "White movetime 20ms, Black 3+0.05"
        };
        assert_eq!(g.tag("TimeControl"), Some(expected));
        let opening = g
            .comments
            .iter()
            .position(|c| {
                c.as_deref()
                    .is_some_and(|c| c.starts_with("end of opening"))
            })
            .expect("the opening's end is marked");
        let white_first = g.game.start_position().side() == crownhead::Color::White;
        for (ply, comment) in g.comments.iter().enumerate().skip(opening + 1) {
            let comment = comment.as_deref().expect("every engine move has a comment");
            let white = (ply % 2 == 0) == white_first;
            let on_clock = white == (clocked == 0);
            // A long comment is wrapped: look for the word.
            let has_clock = comment.split_whitespace().any(|w| w == "clk");
            assert_eq!(has_clock, on_clock, "ply {ply}: {comment}");
        }
    }
}
