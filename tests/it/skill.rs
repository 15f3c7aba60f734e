//! Strength levels through the protocols: the `skill` param caps the search of `go think`
//! (never `go analyze`), a weak level plays moves other than the best on purpose, and Hub's
//! `multipv` param reports every line tagged with its number.

use crate::common;

use common::Engine;

fn hub(params: &[(&str, &str)]) -> Engine {
    let mut e = Engine::start(&["hub"]);
    e.send("hub");
    let lines = e.until(|l| l == "wait");
    assert!(
        lines.iter().any(|l| l
            == "param name=skill value=full type=enum values=\"beginner novice casual club strong expert full\""),
        "{lines:?}"
    );
    for (k, v) in params {
        e.send(&format!("set-param name={k} value={v}"));
    }
    e.send("init");
    e.expect_prefix("ready");
    e
}

fn depth_of(info: &str) -> u32 {
    info.split_whitespace()
        .find_map(|w| w.strip_prefix("depth="))
        .and_then(|d| d.parse().ok())
        .unwrap_or_else(|| panic!("no depth in {info}"))
}

/// The move of `done` and the deepest `info` depth before it.
fn think(e: &mut Engine, moves: &[String], level: &str) -> (String, u32) {
    let pos = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
    if moves.is_empty() {
        e.send(&format!("pos pos={pos}"));
    } else {
        e.send(&format!("pos pos={pos} moves=\"{}\"", moves.join(" ")));
    }
    e.send(&format!("level {level}"));
    e.send("go think");
    let lines = e.until(|l| l.starts_with("done"));
    let depth = lines
        .iter()
        .filter(|l| l.starts_with("info "))
        .map(|l| depth_of(l))
        .max()
        .unwrap_or(0);
    let done = lines.last().expect("done");
    let mv = done
        .split_whitespace()
        .find_map(|w| w.strip_prefix("move="))
        .unwrap_or_else(|| panic!("no move in {done}"))
        .to_string();
    (mv, depth)
}

#[test]
fn a_level_caps_thinking_but_not_analysis() {
    let mut e = hub(&[("skill", "casual")]);
    let (_, depth) = think(&mut e, &[], "depth=12");
    assert_eq!(depth, 3, "casual searches to depth 3: {:?}", e.tail());
    // Analysis is at full strength: it goes past the level's depth before it is stopped.
    e.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    e.send("level depth=6");
    e.send("go analyze");
    let lines = e.until(|l| l.starts_with("done"));
    let deepest = lines
        .iter()
        .filter(|l| l.starts_with("info "))
        .map(|l| depth_of(l))
        .max();
    assert_eq!(deepest, Some(6), "{lines:?}");
    e.finish();
}

#[test]
fn the_beginner_plays_weaker_moves_than_the_best_at_its_depth() {
    // Both at depth 1: full strength plays the best line of that search, the beginner picks
    // among the lines within its margin. Over a game's positions they must differ somewhere,
    // and every beginner move must be one the engine accepts.
    let mut beginner = hub(&[("skill", "beginner")]);
    let mut full = hub(&[]);
    let mut moves: Vec<String> = Vec::new();
    let mut differ = 0;
    for _ in 0..30 {
        let (weak, d) = think(&mut beginner, &moves, "depth=9");
        assert!(d <= 1, "beginner searched to depth {d}");
        let (best, _) = think(&mut full, &moves, "depth=1");
        if weak != best {
            differ += 1;
        }
        // The game goes on with the beginner's move: `pos` refuses an illegal one.
        moves.push(weak);
        full.send("ping");
        full.expect_prefix("pong");
    }
    for l in beginner.log.iter().chain(full.log.iter()) {
        assert!(!l.starts_with("error"), "{l}");
    }
    assert!(
        differ >= 3,
        "the beginner chose the best move {} times of 30",
        30 - differ
    );
    beginner.finish();
    full.finish();
}

#[test]
fn hub_multipv_reports_every_line_tagged() {
    let mut e = hub(&[("multipv", "3")]);
    e.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    e.send("level depth=4");
    e.send("go think");
    let lines = e.until(|l| l.starts_with("done"));
    for depth in 1..=4 {
        let tags: Vec<&str> = lines
            .iter()
            .filter(|l| l.starts_with(&format!("info depth={depth} ")))
            .filter_map(|l| l.rsplit(' ').next())
            .collect();
        assert_eq!(
            tags,
            ["multipv=1", "multipv=2", "multipv=3"],
            "depth {depth}: {lines:?}"
        );
    }
    e.finish();
}

#[test]
fn uci_skill_is_an_option_and_refuses_unknown_levels() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    assert!(lines.iter().any(|l| l
        == "option name Skill type combo default full var beginner var novice var casual var club var strong var expert var full"));
    e.send("setoption name Skill value grandmaster");
    let err = e.expect_prefix("info string error");
    assert!(err.contains("Skill") && err.contains("beginner"), "{err}");
    e.send("setoption name Skill value club");
    e.send("position startpos");
    e.send("go depth 20");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let deepest = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .filter_map(|l| l.split_whitespace().next()?.parse::<u32>().ok())
        .max();
    assert_eq!(deepest, Some(5), "{lines:?}");
    e.finish();
}
