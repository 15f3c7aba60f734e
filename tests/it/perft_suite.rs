//! The perft suites of `positions/`: every `positions/*perft*.txt` file, read by one runner.
//!
//! Format (documented at the top of `positions/perft_start.txt`): `<variant>;<fen>;<counts>`, the
//! n-th count for depth n, written `paths/unique`, or one number when both conventions agree,
//! with `-` for an unknown count; an optional fourth field `orders` says that the first count is
//! in the orders convention (`Counting::Orders`, positions/perft_variants.txt) rather than paths.
//! FENs are read in the variant's numbering. Entries whose count exceeds the node cap are skipped
//! and listed: the cap is small in debug builds and about 100 million leaves in release builds,
//! which reaches english depth 11 and russian depth 10; counts in the orders convention, which
//! the slower move-by-move perft makes, stop at `ORDERS_CAP`. `CROWNHEAD_PERFT_CAP` overrides
//! both. The ignored `deep_perft_suites` runs what the cap skipped, up to `DEEP_CAP` (`.ci/run
//! --full`). Run with `cargo test --release --test perft_suite -- --nocapture` to see what was
//! run and skipped.

use crownhead::notation::fen::parse_fen_in;
use crownhead::perft::{perft, perft_parallel};
use crownhead::{parse_fen, Counting, Position, Variant};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The largest count run in debug builds (debug assertions recompute the Zobrist key per move).
const DEBUG_CAP: u64 = 1_000_000;
/// The largest count run in release builds.
const RELEASE_CAP: u64 = 100_000_000;
/// Mirrored positions (colours swapped, board turned) are also counted up to this many leaves.
const MIRROR_CAP: u64 = 200_000;
/// The largest count in the orders convention run by default (release builds).
const ORDERS_CAP: u64 = 1_000_000;
/// The largest count the ignored deep run reaches.
const DEEP_CAP: u64 = 250_000_000;

/// One expected count.
struct Entry {
    origin: String,
    variant: Variant,
    fen: String,
    depth: u32,
    counting: Counting,
    count: u64,
}

fn positions_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("positions")
}

fn suite_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(positions_dir())
        .expect("positions/ exists")
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.contains("perft") && name.ends_with(".txt")
        })
        .collect();
    files.sort();
    files
}

fn parse_count(text: &str, origin: &str) -> Option<u64> {
    if text == "-" {
        None
    } else {
        Some(
            text.parse()
                .unwrap_or_else(|e| panic!("{origin}: bad count '{text}': {e}")),
        )
    }
}

/// Reads one suite file into entries; any malformed line fails the test with its location.
fn read_suite(path: &Path) -> Vec<Entry> {
    let text = std::fs::read_to_string(path).expect("readable suite file");
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let origin = format!("{name}:{}", i + 1);
        let fields: Vec<&str> = line.split(';').collect();
        assert!(
            fields.len() == 3 || (fields.len() == 4 && fields[3].trim() == "orders"),
            "{origin}: expected variant;fen;counts[;orders]"
        );
        let first = if fields.len() == 4 {
            Counting::Orders
        } else {
            Counting::Paths
        };
        let variant: Variant = fields[0]
            .parse()
            .unwrap_or_else(|e| panic!("{origin}: {e}"));
        let fen = fields[1].trim().to_string();
        parse_fen_in(variant, &fen).unwrap_or_else(|e| panic!("{origin}: {e}"));
        for (d, token) in fields[2].split_whitespace().enumerate() {
            let (paths, unique) = match token.split_once('/') {
                Some((p, u)) => (parse_count(p, &origin), parse_count(u, &origin)),
                None => {
                    let n = parse_count(token, &origin);
                    (n, n)
                }
            };
            for (counting, count) in [(Counting::Unique, unique), (first, paths)] {
                if let Some(count) = count {
                    let depth = d as u32 + 1;
                    entries.push(Entry {
                        origin: origin.clone(),
                        variant,
                        fen: fen.clone(),
                        depth,
                        counting,
                        count,
                    });
                }
            }
        }
    }
    entries
}

fn cap() -> u64 {
    if let Ok(v) = std::env::var("CROWNHEAD_PERFT_CAP") {
        return v.parse().expect("CROWNHEAD_PERFT_CAP is a number");
    }
    if cfg!(debug_assertions) {
        DEBUG_CAP
    } else {
        RELEASE_CAP
    }
}

#[test]
fn perft_suites() {
    let cap = cap();
    run_suites(|e| {
        let cap = if e.counting == Counting::Orders && std::env::var("CROWNHEAD_PERFT_CAP").is_err()
        {
            cap.min(ORDERS_CAP)
        } else {
            cap
        };
        e.count <= cap
    });
}

/// What the default run skipped, up to `DEEP_CAP`: `cargo test --release --test it perft_suite --
/// --ignored` (`.ci/run --full`).
#[test]
#[ignore]
fn deep_perft_suites() {
    if cfg!(debug_assertions) {
        panic!("the deep perft wants a release build");
    }
    run_suites(|e| {
        let cap = if e.counting == Counting::Orders {
            ORDERS_CAP
        } else {
            RELEASE_CAP
        };
        e.count > cap && e.count <= DEEP_CAP
    });
}

/// Runs every entry that `pick` chooses.
fn run_suites(pick: impl Fn(&Entry) -> bool) {
    let cap = cap();
    let files = suite_files();
    assert!(
        files.len() >= 3,
        "expected the perft suites in positions/, found {files:?}"
    );
    let (mut run, mut skipped, mut leaves) = (0, 0, 0u64);
    let mut failures = Vec::new();
    let start = Instant::now();
    for file in &files {
        let entries = read_suite(file);
        assert!(!entries.is_empty(), "{} has no entries", file.display());
        for e in entries {
            let conv = match e.counting {
                Counting::Paths => "paths",
                Counting::Orders => "orders",
                Counting::Unique => "unique",
            };
            let what = format!(
                "{} {} {} depth {} {conv}",
                e.origin, e.variant, e.fen, e.depth
            );
            if !pick(&e) {
                println!("skip {what}: {} leaves not in this run", e.count);
                skipped += 1;
                continue;
            }
            let pos = parse_fen_in(e.variant, &e.fen).unwrap();
            let t = Instant::now();
            let got = perft_parallel(e.variant, &pos, e.depth, e.counting);
            println!("ran  {what}: {got} ({:.2} s)", t.elapsed().as_secs_f64());
            run += 1;
            leaves += got;
            if got != e.count {
                failures.push(format!("{what}: expected {}, got {got}", e.count));
            }
            if e.count <= MIRROR_CAP {
                let mirrored = perft(e.variant, &pos.mirrored(), e.depth, e.counting);
                if mirrored != e.count {
                    failures.push(format!(
                        "{what} mirrored: expected {}, got {mirrored}",
                        e.count
                    ));
                }
            }
        }
    }
    println!(
        "perft suites: {run} run, {skipped} skipped (default cap {cap}), {leaves} leaves in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
}

/// The release run must reach the depths the issue asks for, whatever the files say.
#[test]
fn release_cap_reaches_required_depths() {
    let start: Vec<Entry> = read_suite(&positions_dir().join("perft_start.txt"));
    // The new variants' start positions reach depth 10 in both of the forums' conventions, the
    // deep ones in the ignored run.
    let variants = read_suite(&positions_dir().join("perft_variants.txt"));
    for v in Variant::ALL.into_iter().skip(2) {
        for counting in [Counting::Unique, Counting::Orders] {
            let depth = variants
                .iter()
                .filter(|e| e.variant == v && e.counting == counting && e.fen.contains("21-32"))
                .map(|e| e.depth)
                .max();
            assert_eq!(depth, Some(10), "{v} {counting:?}");
        }
    }
    let deepest = |v: Variant| {
        start
            .iter()
            .filter(|e| e.variant == v && e.count <= RELEASE_CAP && e.fen.contains("21-32"))
            .map(|e| e.depth)
            .max()
            .unwrap_or(0)
    };
    assert!(deepest(Variant::English) >= 11);
    assert!(deepest(Variant::Russian) >= 10);
    // Both conventions are present for every depth of both start positions.
    for v in [Variant::Russian, Variant::English] {
        for counting in [Counting::Unique, Counting::Paths] {
            let n = start
                .iter()
                .filter(|e| e.variant == v && e.counting == counting && e.fen.contains("21-32"))
                .count();
            assert_eq!(n, 14, "{v} {counting:?}");
        }
    }
}

/// A tiny sanity check of the reader on a file of its own.
#[test]
fn reader_understands_the_format() {
    let dir = std::env::temp_dir().join(format!("crownhead-perft-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("perft_x.txt");
    std::fs::write(&file, "# comment\n\nenglish;B:W21-32:B1-12;7 49/- -/302\n").unwrap();
    let entries = read_suite(&file);
    let got: Vec<(u32, Counting, u64)> = entries
        .iter()
        .map(|e| (e.depth, e.counting, e.count))
        .collect();
    assert_eq!(
        got,
        vec![
            (1, Counting::Unique, 7),
            (1, Counting::Paths, 7),
            (2, Counting::Paths, 49),
            (3, Counting::Unique, 302)
        ]
    );
    let pos: Position = parse_fen(&entries[0].fen).unwrap();
    assert_eq!(perft(Variant::English, &pos, 2, Counting::Unique), 49);
    std::fs::remove_dir_all(&dir).ok();
}
