//! The `crownhead` command line: subcommands and dispatch only. With no subcommand the engine
//! speaks its text protocol on stdin and stdout.

use clap::{Parser, Subcommand};
use crownhead::{Counting, Variant};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "crownhead",
    version,
    about = "A checkers engine for Russian and English draughts"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (perft).
    Perft {
        /// Depth in plies.
        #[arg(long, short)]
        depth: u32,
        /// russian or english.
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
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Read FENs from stdin, one per line, and print each one's legal moves on one line.
    Moves {
        /// russian or english.
        #[arg(long, default_value = "russian")]
        variant: Variant,
        /// List every jump path rather than every distinct move.
        #[arg(long)]
        paths: bool,
        /// Write squares algebraically (c3:e5) rather than numerically (22x15).
        #[arg(long)]
        algebraic: bool,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off")).init();
    let cli = Cli::parse();
    let result = match cli.command {
        None => Err("the protocol loop is not built yet".to_string()),
        Some(Command::Perft {
            depth,
            variant,
            fen,
            divide,
            paths,
            threads,
        }) => run_perft(depth, variant, fen, divide, paths, threads),
        Some(Command::Moves {
            variant,
            paths,
            algebraic,
        }) => run_moves(variant, paths, algebraic),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
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
    paths: bool,
    threads: Option<usize>,
) -> Result<(), String> {
    if depth > 30 {
        return Err(format!("depth {depth} is out of range (0-30)"));
    }
    let pos = match &fen {
        Some(f) => crownhead::parse_fen(f).map_err(|e| e.to_string())?,
        None => crownhead::parse_fen(variant.start_fen()).map_err(|e| e.to_string())?,
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
    let counting = counting(paths);
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

fn run_moves(variant: Variant, paths: bool, algebraic: bool) -> Result<(), String> {
    let style = if algebraic {
        crownhead::SquareStyle::Algebraic
    } else {
        crownhead::SquareStyle::Numeric
    };
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| e.to_string())?;
        let text = match crownhead::parse_fen(&line) {
            Ok(pos) => {
                let moves = variant.moves(&pos, counting(paths));
                moves
                    .iter()
                    .map(|m| crownhead::full_text(m, style))
                    .collect::<Vec<_>>()
                    .join(" ")
            }
            Err(e) => format!("error: {e}"),
        };
        writeln!(out, "{text}").map_err(|e| e.to_string())?;
        out.flush().map_err(|e| e.to_string())?;
    }
    Ok(())
}
