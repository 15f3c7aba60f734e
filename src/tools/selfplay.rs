//! `crownhead selfplay`: games of the engine against itself on every core, one game per thread,
//! written to a data file (`selfplay::format`) in the order of their indices, so that a run's
//! file is the same whatever the thread count. Progress and the time left go to stderr. A killed
//! run leaves a readable file; `--append` carries on after its last game.

use crate::game::Game;
use crate::position::Position;
use crate::search::{Limits, SearchOptions, Searcher};
use crate::selfplay::format::{self, Record, Sample, HEADER_LEN, RECORD_LEN};
use crate::selfplay::game::{play_game, GameSpec, PlayedGame, SplitMix};
use crate::tools::openings::{builtin, parse_openings};
use crate::variant::Variant;
use rustc_hash::FxHashSet;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

/// `crownhead selfplay`'s flags.
#[derive(clap::Args, Debug, Clone)]
pub struct SelfplayArgs {
    /// russian, english, brazilian, pool, italian, spanish or czech.
    #[arg(long, default_value = "russian")]
    pub variant: Variant,
    /// Games to play.
    #[arg(long, value_parser = super::args::count::<u32>)]
    pub games: u32,
    /// The data file to write (see docs/SELFPLAY.md).
    #[arg(long)]
    pub out: String,
    /// Search each move to this depth.
    #[arg(long, conflicts_with = "nodes", value_parser = super::args::depth)]
    pub depth: Option<u32>,
    /// Search each move this many nodes (the default: 20000).
    #[arg(long, value_parser = super::args::count::<u64>)]
    pub nodes: Option<u64>,
    /// Games played at once, one per thread (default: all cores).
    #[arg(long, value_parser = super::args::concurrency)]
    pub threads: Option<usize>,
    /// Opening file (moves or FENs, one per line); default: the variant's built-in set.
    #[arg(long)]
    pub openings: Option<String>,
    /// At most this many random plies after the opening (the number is drawn per game).
    #[arg(long, default_value_t = 6)]
    pub random_plies: u32,
    /// A game this long (plies) is adjudicated a draw.
    #[arg(long, default_value_t = 300, value_parser = super::args::count::<u32>)]
    pub max_plies: u32,
    /// The run's seed; game i's random plies derive from it and i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Add games to an existing file, after its last one (same variant).
    #[arg(long)]
    pub append: bool,
    /// The index of the first game (default: 0, or one past the file's last game with --append).
    #[arg(long)]
    pub first_game: Option<u32>,
    /// Transposition table per game, MiB.
    #[arg(long, default_value_t = 16, value_parser = super::args::hash)]
    pub hash: usize,
}

/// What the run found in the file it appends to.
struct Existing {
    /// Positions already recorded (not recorded again): pieces and side to move.
    seen: FxHashSet<Position>,
    /// One past the last game's index.
    next_game: u32,
}

/// Runs `crownhead selfplay`.
pub fn run(args: &SelfplayArgs) -> Result<(), String> {
    let variant = args.variant;
    let openings: Vec<Game> = match &args.openings {
        Some(path) => {
            let text = super::read_text(path)?;
            parse_openings(&text, variant)
                .map_err(|e| format!("{path}: {e}"))?
                .iter()
                .map(|o| o.game(variant))
                .collect()
        }
        None => builtin(variant).iter().map(|o| o.game(variant)).collect(),
    };
    if openings.is_empty() {
        return Err("no openings to play".into());
    }
    let (mut file, existing) = open_output(args)?;
    let first = args.first_game.unwrap_or(existing.next_game);
    if first.checked_add(args.games).is_none() {
        return Err("--first-game plus --games passes the largest game index".into());
    }
    let limits = match (args.depth, args.nodes) {
        (Some(d), _) => Limits {
            depth: Some(d),
            ..Limits::default()
        },
        (None, n) => Limits {
            nodes: Some(n.unwrap_or(20_000)),
            ..Limits::default()
        },
    };
    let spec = |index: u32| GameSpec {
        opening: openings[index as usize % openings.len()].clone(),
        seed: SplitMix(args.seed ^ u64::from(index).wrapping_mul(0xA24B_AED4_963E_E407)).next_u64(),
        max_random_plies: args.random_plies,
        limits: limits.clone(),
        max_plies: args.max_plies,
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .min(args.games as usize)
        .max(1);
    let next = AtomicU32::new(first);
    let end = first + args.games;
    let (done, finished) = channel::<(u32, PlayedGame)>();
    let mut seen = existing.seen;
    let mut progress = Progress::new(args.games);
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..threads {
            let (next, done, spec) = (&next, done.clone(), &spec);
            scope.spawn(move || {
                let mut searcher = Searcher::new(SearchOptions {
                    hash_mb: args.hash,
                    ..SearchOptions::default()
                });
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= end {
                        break;
                    }
                    let game = play_game(&mut searcher, &spec(index));
                    if done.send((index, game)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done);
        // Games are written in index order: those that finish early wait here.
        let mut waiting: BTreeMap<u32, PlayedGame> = BTreeMap::new();
        let mut to_write = first;
        for (index, game) in finished {
            waiting.insert(index, game);
            while let Some(game) = waiting.remove(&to_write) {
                let fresh: Vec<Sample> = game
                    .samples
                    .iter()
                    .filter(|s| seen.insert(s.position))
                    .copied()
                    .collect();
                format::write_game(&mut file, to_write, game.outcome.result, game.plies, &fresh)
                    .map_err(|e| format!("{}: {e}", args.out))?;
                progress.game(fresh.len());
                to_write += 1;
            }
        }
        Ok(())
    })?;
    progress.print();
    Ok(())
}

/// Opens the output: a new file with its header, or with `--append` an existing one of the same
/// variant, cut back to its last whole record, with what it holds.
fn open_output(args: &SelfplayArgs) -> Result<(BufWriter<File>, Existing), String> {
    let path = &args.out;
    let exists = std::path::Path::new(path).exists();
    if exists && !args.append {
        return Err(format!(
            "{path} exists; --append adds games to it, or choose another --out"
        ));
    }
    let mut existing = Existing {
        seen: FxHashSet::default(),
        next_game: 0,
    };
    if !exists {
        let mut f = File::create(path).map_err(|e| format!("cannot create {path}: {e}"))?;
        f.write_all(&format::header(args.variant))
            .map_err(|e| format!("{path}: {e}"))?;
        return Ok((BufWriter::new(f), existing));
    }
    let f = File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let (variant, records) = format::read_all(f).map_err(|e| format!("{path}: {e}"))?;
    if variant != args.variant {
        return Err(format!(
            "{path} holds {variant} games, not {}",
            args.variant
        ));
    }
    for r in &records {
        match r {
            Record::Game { index, .. } => {
                existing.next_game = existing.next_game.max(index.saturating_add(1))
            }
            Record::Position(s) => {
                existing.seen.insert(s.position);
            }
        }
    }
    let mut f = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| format!("cannot write {path}: {e}"))?;
    // A killed writer may have left part of a record: cut it off before adding more.
    let whole = HEADER_LEN + (records.len() * RECORD_LEN) as u64;
    f.set_len(whole)
        .and_then(|_| f.seek(SeekFrom::Start(whole)))
        .map_err(|e| format!("{path}: {e}"))?;
    Ok((BufWriter::new(f), existing))
}

/// Progress lines on stderr, at most one every few seconds.
struct Progress {
    total: u32,
    games: u32,
    positions: u64,
    start: Instant,
    last: Instant,
}

impl Progress {
    const EVERY: Duration = Duration::from_secs(5);

    fn new(total: u32) -> Progress {
        let now = Instant::now();
        Progress {
            total,
            games: 0,
            positions: 0,
            start: now,
            last: now,
        }
    }

    fn game(&mut self, positions: usize) {
        self.games += 1;
        self.positions += positions as u64;
        if self.last.elapsed() >= Self::EVERY {
            self.last = Instant::now();
            self.print();
        }
    }

    fn print(&self) {
        let secs = self.start.elapsed().as_secs_f64();
        let rate = f64::from(self.games) / secs.max(1e-9);
        let left = f64::from(self.total - self.games) / rate.max(1e-9);
        eprintln!(
            "selfplay: {}/{} games, {} positions, {:.0} games/hour, {} left",
            self.games,
            self.total,
            self.positions,
            rate * 3600.0,
            clock(left)
        );
    }
}

/// Seconds as `1h02m`, `3m05s` or `12s`.
fn clock(secs: f64) -> String {
    let s = secs.round() as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s / 60 % 60),
    }
}
