//! The `crownhead` command line: subcommands and dispatch only. With no subcommand the engine
//! speaks its text protocol on stdin and stdout.

use clap::{Parser, Subcommand};
use crownhead::tools;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "crownhead",
    version,
    about = "A checkers engine for Russian, English, Brazilian, Pool, Italian, Spanish and Czech draughts"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Play with this learned-evaluation weights file (scripts/training/train_net.py) instead of the
    /// embedded weights of its variant, to test a new fit without a rebuild: alone for the
    /// protocol, or before `bench` (`crownhead --eval-file F bench --eval learned`).
    #[arg(long, value_name = "FILE")]
    eval_file: Option<std::path::PathBuf>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (perft).
    Perft(tools::perft::PerftArgs),
    /// Search the built-in bench positions to a fixed depth; the last line is `Nodes: N  NPS: M`.
    Bench(tools::bench::BenchArgs),
    /// Read FENs from stdin, one per line, and print each one's legal moves on one line.
    Moves(tools::fen_lines::MovesArgs),
    /// Read FENs from stdin, one per line, and print each one's static evaluation (side to
    /// move's view, centi-men): the hand-written one, or with --weights a learned one.
    Evaluate(tools::fen_lines::EvaluateArgs),
    /// Analyse every move of PDN games (or positions with --fens) with the engine.
    Analyze(tools::analyze::AnalyzeArgs),
    /// Play two engines (separate processes) against each other.
    Match(tools::matches::MatchArgs),
    /// Play against the engine in the terminal.
    Play(tools::play::PlayArgs),
    /// Serve the browser page on 127.0.0.1 (play and analyse; docs/WEB.md).
    Web(tools::web::WebArgs),
    /// Play the engine against itself and record positions, scores and results for training.
    Selfplay(tools::selfplay::SelfplayArgs),
    /// Endgame databases: build, inspect, probe (docs/EGTB.md).
    Egtb(tools::egtb::EgtbArgs),
}

/// The command-line tools end quietly when their reader goes away (`crownhead bench | head`), as
/// Unix tools do, instead of panicking on the failed write: Rust ignores SIGPIPE unless told.
/// The protocol loop, `match` (which talks to engines over pipes) and `web` (a server that
/// must outlive the reader of its address line) keep ignoring it and handle the write error
/// instead.
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
            None | Some(Command::Bench(_)) => {
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
    // Not for `match`, which writes to engines over pipes and must see their end as an error,
    // nor for `web`, which serves on after its output is closed (`crownhead web | head -1`).
    if !matches!(
        cli.command,
        Some(Command::Match(_) | Command::Web(_)) | None
    ) {
        quiet_on_closed_pipe();
    }
    let result = match cli.command {
        None => {
            crownhead::protocol::run_stdio(None, eval_file);
            Ok(())
        }
        Some(Command::Perft(args)) => tools::perft::run(args),
        Some(Command::Bench(args)) => tools::bench::run(args, eval_file),
        Some(Command::Moves(args)) => tools::fen_lines::moves(args),
        Some(Command::Evaluate(args)) => tools::fen_lines::evaluate(args),
        Some(Command::Analyze(args)) => tools::analyze::run(args),
        Some(Command::Match(args)) => tools::matches::run(args),
        Some(Command::Play(args)) => tools::play::run(args),
        Some(Command::Web(args)) => tools::web::run(args),
        Some(Command::Selfplay(args)) => tools::selfplay::run(&args),
        Some(Command::Egtb(args)) => tools::egtb::run(args),
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
