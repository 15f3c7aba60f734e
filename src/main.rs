//! The `crownhead` command line: subcommands and dispatch only. With no subcommand the engine
//! speaks its text protocol on stdin and stdout.

use clap::{Parser, Subcommand};
use crownhead::notation::fen::parse_fen_in;
use crownhead::{Counting, Variant};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "crownhead",
    version,
    about = "A checkers engine for Russian, English, Brazilian, Pool, Italian, Spanish and Czech draughts"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Play with this learned-evaluation weights file (scripts/training/train_net.py) instead of
    /// the embedded weights of its variant, to test a new fit without a rebuild: alone for the
    /// protocol, or before `bench` (`crownhead --eval-file F bench --eval learned`).
    #[arg(long, value_name = "FILE")]
    eval_file: Option<std::path::PathBuf>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (perft).
    Perft {
        /// Depth in plies.
        #[arg(long, short)]
        depth: u32,
        /// russian, english, brazilian, pool, italian, spanish or czech.
        #[arg(long, default_value = "russian")]
        variant: Variant,
        /// Start position as PDN FEN (default: the variant's start position).
        #[arg(long)]
        fen: Option<String>,
        /// Print the count under each root move.
        #[arg(long)]
        divide: bool,
        /// Count every jump path rather than every distinct move.
        #[arg(long)]
        paths: bool,
        /// Count every order in which pieces are taken rather than every distinct move (the
        /// convention of the shashki and FMJD forums' perft tables).
        #[arg(long, conflicts_with = "paths")]
        orders: bool,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Search the built-in bench positions to a fixed depth; the last line is `Nodes: N  NPS: M`.
    Bench {
        /// Depth in plies.
        #[arg(long, short, default_value_t = crownhead::search::bench::DEFAULT_DEPTH)]
        depth: u32,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in MiB (cleared before every position, so kept small).
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// The evaluation: auto, learned or handwritten.
        #[arg(long, default_value = "auto")]
        eval: crownhead::EvalChoice,
        /// Search only this variant's positions (the signature is that of all of them).
        #[arg(long)]
        variant: Option<Variant>,
    },
    /// Read FENs from stdin, one per line, and print each one's legal moves on one line.
    Moves {
        /// russian, english, brazilian, pool, italian, spanish or czech.
        #[arg(long, default_value = "russian")]
        variant: Variant,
        /// List every jump path rather than every distinct move.
        #[arg(long)]
        paths: bool,
        /// Write squares algebraically (c3:e5) rather than numerically (22x15).
        #[arg(long)]
        algebraic: bool,
    },
    /// Read FENs from stdin, one per line, and print each one's static evaluation (side to
    /// move's view, centi-men): the hand-written one, or with --weights a learned one.
    Evaluate {
        /// russian, english, brazilian, pool, italian, spanish or czech.
        #[arg(long, default_value = "russian")]
        variant: Variant,
        /// A weights file written by scripts/training/train_net.py.
        #[arg(long)]
        weights: Option<String>,
        /// Print the hand-written evaluation term by term, one JSON object a line.
        #[arg(long, conflicts_with = "weights")]
        json: bool,
    },
    /// Analyse every move of PDN games (or positions with --fens) with the engine.
    Analyze(crownhead::tools::analyze::AnalyzeArgs),
    /// Play two engines (separate processes) against each other.
    Match(crownhead::tools::matches::MatchArgs),
    /// Play against the engine in the terminal.
    Play(crownhead::tools::play::PlayArgs),
    /// Serve the browser page on 127.0.0.1 (play and analyse; docs/WEB.md).
    Web(crownhead::tools::web::WebArgs),
    /// Play the engine against itself and record positions, scores and results for training.
    Selfplay(crownhead::tools::selfplay::SelfplayArgs),
    /// Endgame databases: build, inspect, probe (docs/EGTB.md).
    Egtb {
        #[command(subcommand)]
        command: EgtbCommand,
    },
}

/// The `egtb` subcommands.
#[derive(Subcommand)]
enum EgtbCommand {
    /// Solve every position with 2 to N pieces; slices already built are skipped.
    Build {
        #[command(flatten)]
        db: DatabaseArgs,
        /// The most pieces (2-7).
        #[arg(long)]
        pieces: u32,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Only this material (wm,wk,bm,bk, White to move, e.g. 0,3,0,2), its mirror and the
        /// slices its moves lead to.
        #[arg(long, value_parser = parse_material)]
        material: Option<crownhead::egtb::Material>,
        /// With --material: build its pair alone; the slices its moves lead to must be built
        /// already (one task of a cluster build, docs/CLUSTER.md).
        #[arg(long, requires = "material")]
        only: bool,
    },
    /// The build order: each pair of slices up to N pieces, its positions and the pairs it
    /// needs (what the cluster driver schedules by).
    Plan {
        /// The most pieces (2-8).
        #[arg(long)]
        pieces: u32,
        /// As JSON, for programs.
        #[arg(long)]
        json: bool,
    },
    /// One line per material and side to move: positions, wins, draws, losses.
    Stats {
        #[command(flatten)]
        db: DatabaseArgs,
        /// The most pieces.
        #[arg(long)]
        pieces: u32,
    },
    /// The value, distance and best moves of a position.
    Probe {
        #[command(flatten)]
        db: DatabaseArgs,
        /// The position as PDN FEN.
        #[arg(long)]
        fen: String,
    },
}

/// Which endgame databases, and where: the flags every `egtb` subcommand takes.
#[derive(clap::Args)]
struct DatabaseArgs {
    /// russian, english, brazilian, pool, italian, spanish or czech.
    #[arg(long)]
    variant: Variant,
    /// Database directory (default: $XDG_DATA_HOME/crownhead/egtb or
    /// ~/.local/share/crownhead/egtb; on Windows %LOCALAPPDATA%\crownhead\egtb).
    #[arg(long)]
    dir: Option<std::path::PathBuf>,
}

/// The command-line tools end quietly when their reader goes away (`crownhead bench | head`), as
/// Unix tools do, instead of panicking on the failed write: Rust ignores SIGPIPE unless told.
/// The protocol loop and `match` (which talks to engines over pipes) keep ignoring it and
/// handle the write error instead.
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: restoring the default action of one signal, before any thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off")).init();
    // Protocol dispatch, before clap: `crownhead` alone reads the protocol on stdin (the first
    // command chooses the dialect), and `crownhead hub [--key=value ...]` starts Hub at once,
    // ignoring the arguments that lidraughts-bot appends and clap would reject.
    let mut args = std::env::args().skip(1);
    match args.next().as_deref() {
        None => {
            crownhead::protocol::run_stdio(None, None);
            return ExitCode::SUCCESS;
        }
        Some("hub") => {
            log::debug!("ignoring hub arguments: {:?}", args.collect::<Vec<_>>());
            crownhead::protocol::run_stdio(Some(crownhead::protocol::DialectKind::Hub), None);
            return ExitCode::SUCCESS;
        }
        Some(_) => {}
    }
    // End of protocol dispatch.
    let cli = Cli::parse();
    let mut eval_file = None;
    if let Some(path) = &cli.eval_file {
        let read = match cli.command {
            None | Some(Command::Bench { .. }) => {
                crownhead::learned::read_file(path).map_err(|e| e.to_string())
            }
            Some(_) => Err("--eval-file is read by the protocol and bench only".to_string()),
        };
        match read {
            Ok(learned) => eval_file = Some(std::sync::Arc::new(learned)),
            Err(message) => {
                eprintln!(
                    "crownhead: error: {}",
                    crownhead::notation::quote::printable_lines(&message)
                );
                return ExitCode::FAILURE;
            }
        }
    }
    // Not for `match`: it writes to engines over pipes and must see their end as an error.
    if !matches!(cli.command, Some(Command::Match(_)) | None) {
        quiet_on_closed_pipe();
    }
    let result = match cli.command {
        None => {
            crownhead::protocol::run_stdio(None, eval_file);
            Ok(())
        }
        Some(Command::Bench {
            depth,
            threads,
            hash,
            eval,
            variant,
        }) => run_bench(depth, threads, hash, eval, eval_file, variant),
        Some(Command::Perft {
            depth,
            variant,
            fen,
            divide,
            paths,
            orders,
            threads,
        }) => {
            let counting = if orders {
                Counting::Orders
            } else {
                counting(paths)
            };
            run_perft(depth, variant, fen, divide, counting, threads)
        }
        Some(Command::Moves {
            variant,
            paths,
            algebraic,
        }) => run_moves(variant, paths, algebraic),
        Some(Command::Evaluate {
            variant,
            weights,
            json,
        }) => run_evaluate(variant, weights, json),
        Some(Command::Analyze(args)) => crownhead::tools::analyze::run(args),
        Some(Command::Match(args)) => crownhead::tools::matches::run(args),
        Some(Command::Play(args)) => crownhead::tools::play::run(args),
        Some(Command::Web(args)) => crownhead::tools::web::run(args),
        Some(Command::Selfplay(args)) => crownhead::tools::selfplay::run(&args),
        Some(Command::Egtb { command }) => run_egtb(command),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            // Input in the message is quoted where it was made; this is the last guard.
            let message = crownhead::notation::quote::printable_lines(&message);
            eprintln!("crownhead: error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn counting(paths: bool) -> Counting {
    if paths {
        Counting::Paths
    } else {
        Counting::Unique
    }
}

fn run_perft(
    depth: u32,
    variant: Variant,
    fen: Option<String>,
    divide: bool,
    counting: Counting,
    threads: Option<usize>,
) -> Result<(), String> {
    if depth > 30 {
        return Err(format!("depth {depth} is out of range (0-30)"));
    }
    let pos = match &fen {
        Some(f) => parse_fen_in(variant, f).map_err(|e| e.to_string())?,
        None => parse_fen_in(variant, variant.start_fen()).map_err(|e| e.to_string())?,
    };
    if let Some(n) = threads {
        if n == 0 || n > 1024 {
            return Err(format!("threads {n} is out of range (1-1024)"));
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .map_err(|e| e.to_string())?;
    }
    let start = Instant::now();
    let nodes = if divide {
        let style = crownhead::notation::move_text::default_style(variant);
        let mut total = 0;
        for (m, n) in crownhead::perft::divide(variant, &pos, depth, counting) {
            println!("{} {n}", crownhead::full_text(&m, style));
            total += n;
        }
        total
    } else {
        crownhead::perft::perft_parallel(variant, &pos, depth, counting)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("Time: {secs:.3} s");
    println!("Leaves/s: {:.0}", nodes as f64 / secs.max(1e-9));
    println!("Nodes: {nodes}");
    Ok(())
}

fn run_bench(
    depth: u32,
    threads: usize,
    hash: usize,
    eval: crownhead::EvalChoice,
    eval_file: Option<std::sync::Arc<crownhead::learned::Learned>>,
    only: Option<Variant>,
) -> Result<(), String> {
    if !(1..=crownhead::MAX_DEPTH).contains(&depth)
        || !(1..=1024).contains(&threads)
        || !(1..=65536).contains(&hash)
    {
        return Err(format!(
            "bench: depth 1-{}, threads 1-1024, hash 1-65536 MiB",
            crownhead::MAX_DEPTH
        ));
    }
    crownhead::search::bench::run(depth, threads, hash, eval, eval_file, only, &mut |line| {
        println!("{line}")
    })
    .map_err(|e| e.to_string())?;
    Ok(())
}

fn run_moves(variant: Variant, paths: bool, algebraic: bool) -> Result<(), String> {
    let style = if algebraic {
        crownhead::SquareStyle::Algebraic
    } else if variant.mirrored_numbering() {
        crownhead::SquareStyle::Mirrored
    } else {
        crownhead::SquareStyle::Numeric
    };
    each_fen_line(variant, |pos| {
        let moves = variant.moves(pos, counting(paths));
        moves
            .iter()
            .map(|m| crownhead::full_text(m, style))
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// The static evaluation of each FEN on stdin: the learned one of a weights file, or the
/// hand-written one (term by term in JSON with `json`).
fn run_evaluate(variant: Variant, weights: Option<String>, json: bool) -> Result<(), String> {
    if json {
        return each_fen_line(variant, |pos| {
            crownhead::eval::handwritten::evaluate_json(variant, pos)
        });
    }
    let Some(path) = weights else {
        return each_fen_line(variant, |pos| {
            crownhead::eval::handwritten::evaluate(variant, pos).to_string()
        });
    };
    let bytes = std::fs::read(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let learned = crownhead::learned::Weights::parse(&bytes, variant)
        .and_then(crownhead::learned::Learned::new)
        .map_err(|e| format!("{path}: {e}"))?;
    each_fen_line(variant, |pos| {
        crownhead::with_rules!(variant, R => learned.model_eval::<R>(pos)).to_string()
    })
}

/// Answers each FEN line of stdin with one line: `answer` of the position, or an error. Lines
/// are read as bytes and decoded one by one, so that a line that is not UTF-8 is one bad line,
/// answered like a bad FEN, and the lines after it are still read.
fn each_fen_line(
    variant: Variant,
    mut answer: impl FnMut(&crownhead::Position) -> String,
) -> Result<(), String> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if input
            .read_until(b'\n', &mut bytes)
            .map_err(|e| e.to_string())?
            == 0
        {
            break;
        }
        let raw = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let Ok(line) = std::str::from_utf8(raw) else {
            let shown = String::from_utf8_lossy(raw);
            writeln!(out, "error: not UTF-8 text: {}", crownhead::quote(&shown))
                .and_then(|_| out.flush())
                .map_err(|e| e.to_string())?;
            continue;
        };
        let text = match parse_fen_in(variant, line) {
            Ok(pos) => answer(&pos),
            Err(e) => format!("error: {e}"),
        };
        writeln!(out, "{text}").map_err(|e| e.to_string())?;
        out.flush().map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// `--material`'s parser (clap prints the error).
fn parse_material(text: &str) -> Result<crownhead::egtb::Material, String> {
    text.parse()
}

fn run_egtb(command: EgtbCommand) -> Result<(), String> {
    use crownhead::egtb;
    let dir = |d: Option<std::path::PathBuf>| match d {
        Some(d) => Ok(d),
        None => egtb::default_dir().map_err(|e| e.to_string()),
    };
    let pieces_ok = |n: u32| {
        if (2..=egtb::build::MAX_PIECES).contains(&n) {
            Ok(())
        } else {
            Err(format!(
                "pieces {n} is out of range (2-{})",
                egtb::build::MAX_PIECES
            ))
        }
    };
    match command {
        EgtbCommand::Build {
            db: DatabaseArgs { variant, dir: d },
            pieces,
            threads,
            material,
            only,
        } => {
            pieces_ok(pieces)?;
            let opts = egtb::BuildOptions {
                dir: dir(d)?,
                variant,
                pieces,
                only: material,
                exact: only,
            };
            let mut pool = rayon::ThreadPoolBuilder::new();
            if let Some(n) = threads {
                if n == 0 || n > 1024 {
                    return Err(format!("threads {n} is out of range (1-1024)"));
                }
                pool = pool.num_threads(n);
            }
            let pool = pool.build().map_err(|e| e.to_string())?;
            let start = Instant::now();
            let report = pool
                .install(|| egtb::build(&opts, &mut |line| eprintln!("{line}")))
                .map_err(|e| e.to_string())?;
            println!(
                "built {} slices ({} positions), skipped {} already built, in {:.1} s, under {}",
                report.built,
                report.positions,
                report.skipped,
                start.elapsed().as_secs_f64(),
                opts.dir.display()
            );
            Ok(())
        }
        EgtbCommand::Plan { pieces, json } => {
            let max = egtb::plan::MAX_PLAN_PIECES;
            if !(2..=max).contains(&pieces) {
                return Err(format!("pieces {pieces} is out of range (2-{max})"));
            }
            let pairs = egtb::plan::plan(pieces);
            if json {
                println!("{}", egtb::plan::to_json(pieces, &pairs));
                return Ok(());
            }
            for p in &pairs {
                let names: Vec<String> = p.slices.iter().map(|m| m.file_name()).collect();
                let needs: Vec<String> = p.needs.iter().map(|m| m.file_name()).collect();
                println!(
                    "{}: {} positions; needs {}",
                    names.join(" "),
                    p.sizes.iter().sum::<u64>(),
                    if needs.is_empty() {
                        "nothing".to_string()
                    } else {
                        needs.join(" ")
                    }
                );
            }
            Ok(())
        }
        EgtbCommand::Stats {
            db: DatabaseArgs { variant, dir: d },
            pieces,
        } => {
            pieces_ok(pieces)?;
            let base = egtb::Tablebase::new(&dir(d)?, variant);
            for line in base.stats(pieces).map_err(|e| e.to_string())? {
                println!("{line}");
            }
            Ok(())
        }
        EgtbCommand::Probe {
            db: DatabaseArgs { variant, dir: d },
            fen,
        } => {
            let pos = parse_fen_in(variant, &fen).map_err(|e| e.to_string())?;
            let base = egtb::Tablebase::new(&dir(d)?, variant);
            let (probe, moves) = base.best_moves(&pos).map_err(|e| e.to_string())?;
            let style = crownhead::notation::move_text::default_style(variant);
            let moves: Vec<String> = moves
                .iter()
                .map(|m| crownhead::full_text(m, style))
                .collect();
            println!("value: {}", probe.value.name());
            println!("distance: {}", probe.distance);
            println!("best: {}", moves.join(" "));
            Ok(())
        }
    }
}
