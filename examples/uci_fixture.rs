//! A minimal engine speaking the UCI-style dialect over the crownhead library, used by the tests
//! of `crownhead match` as a stand-in opponent that can also misbehave on purpose:
//!
//! `uci_fixture [--fault illegal|crash|hang|stuck|none] [--after N] [--name NAME] [--beat FILE]`
//!
//! It answers `uci`, `isready`, `ucinewgame`, `setoption name Variant value V`, `position
//! startpos|fen F [moves ...]`, `go ...` (searching with `go depth D`, else depth 1) and `quit`.
//! With a fault it behaves until its N-th `go` (default 1), then plays an illegal move, exits, or
//! never answers; `stuck` never answers and stops reading its input too, as a deadlocked engine
//! would, appending a byte to the `--beat` file every 20 ms for as long as it runs (so that a
//! test can see whether it was stopped) and exiting only when that file cannot be written. With `--hub` it speaks Hub instead (`hub`, `set-param`, `init`, `ping`, `pos`,
//! `level`, `go think`, `done`), in the docs/RULES.md square frame.

use crownhead::notation::hub;
use crownhead::search::{Limits, SearchControl, SearchOptions, Searcher};
use crownhead::{Game, Variant};
use std::io::{BufRead, Write};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |key: &str| {
        args.iter()
            .position(|a| a == key)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let fault = arg("--fault").unwrap_or_else(|| "none".into());
    let after: u32 = arg("--after").and_then(|n| n.parse().ok()).unwrap_or(1);
    let name = arg("--name").unwrap_or_else(|| "Fixture".into());
    let mut variant = Variant::Russian;
    let mut game = Game::start(variant);
    let mut searcher = Searcher::new(SearchOptions::default());
    let mut goes = 0;
    let hub = args.iter().any(|a| a == "--hub");
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        if hub {
            let value = |key: &str| {
                let start = line.find(&format!("{key}="))? + key.len() + 1;
                let rest = &line[start..];
                Some(match rest.strip_prefix('"') {
                    Some(q) => q.split('"').next().unwrap_or("").to_string(),
                    None => rest.split_whitespace().next().unwrap_or("").to_string(),
                })
            };
            let reply = match words.first().copied() {
                Some("hub") => format!("id name={name} version=1\nparam name=variant value=russian type=enum values=\"russian english\"\nwait"),
                Some("set-param") if value("name").as_deref() == Some("variant") => {
                    variant = value("value").and_then(|v| v.parse().ok()).unwrap_or(variant);
                    continue;
                }
                Some("init") => "ready".into(),
                Some("ping") => "pong".into(),
                Some("pos") => {
                    let fen = value("pos").and_then(|p| hub::position_to_fen(&p)).expect("hub position");
                    game = Game::from_fen(variant, &fen).expect("fen");
                    for m in value("moves").unwrap_or_default().split_whitespace() {
                        let mv = hub::find_move(m, &game.legal_moves(), |n| n).expect("legal hub move");
                        game.play(mv).expect("legal");
                    }
                    continue;
                }
                Some("go") => {
                    let limits = Limits { depth: Some(1), ..Limits::default() };
                    let result = searcher.search(&game, &limits, &SearchControl::new(false), &mut |_| {});
                    let mv = result.best.map(|m| hub::move_text(&m, |n| n)).unwrap_or_default();
                    format!("info depth=1 score={:.2}\ndone move={mv}", f64::from(result.score.0) / 100.0)
                }
                Some("quit") => break,
                _ => continue,
            };
            let _ = writeln!(out, "{reply}");
            let _ = out.flush();
            continue;
        }
        let reply = match words.first().copied() {
            Some("uci") => format!("id name {name}\nid author tests\noption name Variant type combo default russian var russian var english\nuciok"),
            Some("isready") => "readyok".into(),
            Some("setoption") if words.len() >= 5 => {
                variant = words[4].parse().unwrap_or(variant);
                continue;
            }
            Some("position") => {
                let moves_at = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
                game = if words.get(1) == Some(&"fen") {
                    Game::from_fen(variant, &words[2..moves_at].join(" ")).expect("fen")
                } else {
                    Game::start(variant)
                };
                for m in &words[(moves_at + 1).min(words.len())..] {
                    game.play_text(m).expect("legal move from the match runner");
                }
                continue;
            }
            Some("go") => {
                goes += 1;
                if goes >= after {
                    match fault.as_str() {
                        "illegal" => {
                            let _ = writeln!(out, "bestmove a1-h8");
                            let _ = out.flush();
                            continue;
                        }
                        "crash" => std::process::exit(3),
                        "hang" => continue,
                        "stuck" => beat_forever(arg("--beat")),
                        _ => {}
                    }
                }
                let depth = words.iter().position(|w| *w == "depth").and_then(|i| words.get(i + 1)).and_then(|d| d.parse().ok());
                let limits = Limits { depth: Some(depth.unwrap_or(1)), ..Limits::default() };
                let result = searcher.search(&game, &limits, &SearchControl::new(false), &mut |_| {});
                let style = crownhead::notation::move_text::default_style(variant);
                match result.best {
                    Some(m) => format!("info depth {} score cp {}\nbestmove {}", result.depth, result.score.0, crownhead::full_text(&m, style)),
                    None => "bestmove (none)".into(),
                }
            }
            Some("quit") => break,
            _ => continue,
        };
        let _ = writeln!(out, "{reply}");
        let _ = out.flush();
    }
}

/// The `stuck` fault: never returns; beats until the file cannot be written (its folder gone).
fn beat_forever(file: Option<String>) -> ! {
    loop {
        let written = file.as_deref().is_some_and(|f| {
            std::fs::OpenOptions::new()
                .append(true)
                .create(true)
                .open(f)
                .and_then(|mut f| f.write_all(b"."))
                .is_ok()
        });
        if !written {
            std::process::exit(4);
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
