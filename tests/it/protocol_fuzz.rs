//! A fuzz-style test of both dialects: tens of thousands of random and mutated lines (binary
//! bytes, NUL and other control bytes, text that is not UTF-8, long lines, huge and negative
//! numbers, broken quoting, Hub `pos` lines naming two positions) into one engine process. It
//! must not panic, must stay alive, must still answer `isready`/`ping`, must never print a
//! control character (echoed input is escaped), and must exit cleanly at the end of input.
//!
//! Lines that would legitimately end the session (`quit`) or block the reader for a long time
//! by design (`perft` at depth 10+, a hash of gigabytes, hundreds of threads) are left out.

use crate::common;

use common::{printable, Engine, Rng};

const LINES: usize = 20_000;

const UCI_BASE: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "d",
    "eval",
    "stop",
    "ponderhit",
    "setoption name Hash value 16",
    "setoption name Threads value 2",
    "setoption name Clear Hash",
    "setoption name Variant value english",
    "setoption name Variant value russian",
    "setoption name MultiPV value 3",
    "setoption name Ponder value true",
    "setoption name MoveOverhead value 100",
    "position startpos",
    "position startpos moves c3-d4 f6-e5 d4:f6 g7:e5",
    "position startpos moves 22-18 11-15",
    "position fen W:W21-32:B1-12 moves 22-17",
    "position fen B:WK1,K2:B30,31",
    "position fen W:W22:B18",
    "position fen W:W21:B1\u{0}",
    "position fen W:W20-32:B1-12",
    "position startpos moves c3-d4\u{0} f6-e5",
    "setoption name Hash\u{1b}[2J value 16",
    "go depth 2",
    "go depth 3",
    "go nodes 300",
    "go movetime 5",
    "go infinite",
    "go ponder depth 2",
    "go wtime 100 btime 100 winc 1 binc 1 movestogo 3",
    "perft 2",
];

const HUB_BASE: &[&str] = &[
    "hub",
    "init",
    "ping",
    "stop",
    "ponder-hit",
    "new-game",
    "set-param name=variant value=english",
    "set-param name=variant value=russian",
    "set-param name=frame value=pydraughts06",
    "set-param name=frame value=consistent",
    "set-param name=hash value=16",
    "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"21-17 9-13 17-14 10x17x14\"",
    "pos start",
    "pos fen=\"W:W22:B18\"",
    "pos fen=\"W:W21:B1\u{0}\"",
    "pos fen=\"W:W20-32:B1-12\"",
    // Two positions in one command: each is an error, never the last one winning.
    "pos start fen=\"W:W22:B18\"",
    "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww fen=\"W:W22:B18\"",
    "pos fen=\"W:W22:B18\" start",
    "pos start start",
    "go think\u{0}",
    "pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"12-16\"",
    "level depth=2",
    "level nodes=300",
    "level move-time=0.01",
    "level time=1 inc=0.1 moves=5",
    "level infinite",
    "go think",
    "go ponder",
    "go analyze",
];

const WORDS: &[&str] = &[
    "go",
    "position",
    "setoption",
    "name",
    "value",
    "moves",
    "fen",
    "startpos",
    "depth",
    "nodes",
    "wtime",
    "btime",
    "infinite",
    "ponder",
    "pos",
    "level",
    "set-param",
    "name=",
    "value=",
    "=",
    "\"",
    "moves=\"",
    "x",
    "-",
    ":",
    "c3-d4",
    "22-18",
    "22x15x6",
    "d4:f6",
    "W:W21-32:B1-12",
    "99999999999999999999999999",
    "-1",
    "0",
    "18446744073709551616",
    "1e308",
    "NaN",
    "inf",
    "3",
    "hash",
    "Hash",
    "Variant",
    "english",
    "russian",
    "american",
    "K",
    "W",
    "B",
    "e",
    "\u{0}",
    "\u{7}",
    "\r",
    "\u{1b}[31m",
    "\u{85}",
    "\u{202e}",
];

fn random_line(rng: &mut Rng, base: &[&str]) -> Vec<u8> {
    match rng.below(10) {
        0 | 1 => (0..rng.below(200))
            .map(|_| rng.next() as u8)
            .filter(|&b| b != b'\n')
            .collect(),
        2 | 3 => {
            let n = 1 + rng.below(8);
            let words: Vec<&str> = (0..n).map(|_| WORDS[rng.below(WORDS.len())]).collect();
            words
                .join(if rng.below(2) == 0 { " " } else { "" })
                .into_bytes()
        }
        4 => {
            let unit = WORDS[rng.below(WORDS.len())];
            let most = if rng.below(4) == 0 { 40_000 } else { 500 };
            let reps = 1 + rng.below(most);
            let mut l = base[rng.below(base.len())].as_bytes().to_vec();
            l.push(b' ');
            l.extend(unit.repeat(reps).into_bytes());
            l
        }
        5 => base[rng.below(base.len())].as_bytes().to_vec(),
        _ => {
            let mut l = base[rng.below(base.len())].as_bytes().to_vec();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(l.len() + 1);
                let insert: Vec<u8> = match rng.below(5) {
                    0 if at < l.len() => {
                        l.remove(at);
                        continue;
                    }
                    1 => vec![rng.next() as u8],
                    2 => WORDS[rng.below(WORDS.len())].as_bytes().to_vec(),
                    3 => b" 99999999999999999999999".to_vec(),
                    4 if rng.below(2) == 0 => {
                        // NUL, a lone continuation byte, a cut-off sequence: control bytes
                        // and text that is not UTF-8, inside otherwise good lines.
                        [&b"\x00"[..], b"\x80", b"\xff\xfe", b"\xe2\x82", b"\x1b"][rng.below(5)]
                            .to_vec()
                    }
                    _ => b" -7".to_vec(),
                };
                l.splice(at..at, insert);
            }
            l.retain(|&b| b != b'\n');
            l
        }
    }
}

/// Lines left out, as the module documentation says.
fn allowed(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line).to_ascii_lowercase();
    let first = text.split_whitespace().next().unwrap_or("");
    let big = |limit: u64| {
        text.split(|c: char| !c.is_ascii_digit())
            .any(|d| d.len() > 12 || d.parse::<u64>().is_ok_and(|n| n > limit))
    };
    if first == "quit" || first.starts_with("perft") && big(6) {
        return false;
    }
    !(text.contains("hash") && big(256) || text.contains("thread") && big(8))
}

fn fuzz(first: &str, base: &[&str], seed: u64, alive: &str, answer: &str, error: &str, done: &str) {
    let mut e = Engine::start(&[]);
    e.send(first);
    let mut rng = Rng(seed);
    let mut sent = 0;
    while sent < LINES {
        let line = random_line(&mut rng, base);
        if !allowed(&line) {
            continue;
        }
        let mut bytes = line;
        bytes.push(b'\n');
        e.send_bytes(&bytes);
        sent += 1;
    }
    e.send("stop");
    e.send(alive);
    assert!(e.alive());
    e.read_to_end();
    // The answer to the last line; only the stopped search's lines may come after it (all of
    // them, when the search thread prints a short search after the reader's answer).
    let at = e
        .log
        .iter()
        .rposition(|l| l == answer)
        .unwrap_or_else(|| panic!("{:#?}", e.tail()));
    let after = &e.log[at + 1..];
    assert!(
        after
            .iter()
            .all(|l| l.starts_with("info") || l.starts_with(done)),
        "{after:#?}"
    );
    assert!(!e.log.iter().any(|l| l.contains("panicked")));
    let raw: Vec<&String> = e.log.iter().filter(|l| !printable(l)).collect();
    assert!(
        raw.is_empty(),
        "{} lines with control characters, e.g. {:?}",
        raw.len(),
        raw.first()
    );
    // The corpus did reach the engine: many lines were rejected, and searches ran to the end.
    let errors = e.log.iter().filter(|l| l.starts_with(error)).count();
    let searches = e.log.iter().filter(|l| l.starts_with(done)).count();
    eprintln!(
        "{first}: {errors} errors, {searches} searches, {} lines out",
        e.log.len()
    );
    assert!(
        errors > LINES / 4 && searches > 20,
        "{errors} errors, {searches} searches"
    );
    e.finish();
}

#[test]
fn uci_survives_random_lines() {
    fuzz(
        "uci",
        UCI_BASE,
        0x9E37_79B9_7F4A_7C15,
        "isready",
        "readyok",
        "info string error: ",
        "bestmove",
    );
}

#[test]
fn hub_survives_random_lines() {
    fuzz(
        "hub",
        HUB_BASE,
        0xD1B5_4A32_D192_ED03,
        "ping",
        "pong",
        "error message=",
        "done",
    );
}
