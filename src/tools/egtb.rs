//! `crownhead egtb`: build the endgame databases, print their build order and statistics, probe
//! a position (docs/EGTB.md).

use crate::egtb::{self, Material};
use crate::notation::fen::parse_fen_in;
use crate::notation::move_text::{default_style, full_text};
use crate::variant::Variant;
use std::path::PathBuf;
use std::time::Instant;

/// `crownhead egtb`'s flags: one subcommand.
#[derive(clap::Args, Debug, Clone)]
pub struct EgtbArgs {
    #[command(subcommand)]
    command: EgtbCommand,
}

/// The `egtb` subcommands.
#[derive(clap::Subcommand, Debug, Clone)]
enum EgtbCommand {
    /// Solve every position with 2 to N pieces; slices already built are skipped.
    Build {
        #[command(flatten)]
        db: DatabaseArgs,
        /// The most pieces (2-7).
        #[arg(long)]
        pieces: u32,
        /// Worker threads (default: all cores).
        #[arg(long, value_parser = super::args::threads)]
        threads: Option<usize>,
        /// Only this material (wm,wk,bm,bk, White to move, e.g. 0,3,0,2), its mirror and the
        /// slices its moves lead to.
        #[arg(long)]
        material: Option<Material>,
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
#[derive(clap::Args, Debug, Clone)]
struct DatabaseArgs {
    /// russian, english, brazilian, pool, italian, spanish or czech.
    #[arg(long)]
    variant: Variant,
    /// Database directory (default: $XDG_DATA_HOME/crownhead/egtb or
    /// ~/.local/share/crownhead/egtb; on Windows %LOCALAPPDATA%\crownhead\egtb).
    #[arg(long)]
    dir: Option<PathBuf>,
}

impl DatabaseArgs {
    /// The directory given, or the default one.
    fn dir(&self) -> Result<PathBuf, String> {
        match &self.dir {
            Some(d) => Ok(d.clone()),
            None => egtb::default_dir().map_err(|e| e.to_string()),
        }
    }
}

/// Refuses a piece count outside 2 to `max`.
fn pieces_in(pieces: u32, max: u32) -> Result<(), String> {
    if (2..=max).contains(&pieces) {
        Ok(())
    } else {
        Err(format!("pieces {pieces} is out of range (2-{max})"))
    }
}

/// Runs `crownhead egtb`.
pub fn run(args: EgtbArgs) -> Result<(), String> {
    match args.command {
        EgtbCommand::Build {
            db,
            pieces,
            threads,
            material,
            only,
        } => build(&db, pieces, threads, material, only),
        EgtbCommand::Plan { pieces, json } => plan(pieces, json),
        EgtbCommand::Stats { db, pieces } => {
            pieces_in(pieces, egtb::MAX_PIECES)?;
            let base = egtb::Tablebase::new(&db.dir()?, db.variant);
            for line in base.stats(pieces).map_err(|e| e.to_string())? {
                println!("{line}");
            }
            Ok(())
        }
        EgtbCommand::Probe { db, fen } => {
            let pos = parse_fen_in(db.variant, &fen).map_err(|e| e.to_string())?;
            let base = egtb::Tablebase::new(&db.dir()?, db.variant);
            let (probe, moves) = base.best_moves(&pos).map_err(|e| e.to_string())?;
            let style = default_style(db.variant);
            let moves: Vec<String> = moves.iter().map(|m| full_text(m, style)).collect();
            println!("value: {}", probe.value.name());
            println!("distance: {}", probe.distance);
            println!("best: {}", moves.join(" "));
            Ok(())
        }
    }
}

/// `egtb build`: on a pool of `threads` workers (all cores by default).
fn build(
    db: &DatabaseArgs,
    pieces: u32,
    threads: Option<usize>,
    material: Option<Material>,
    only: bool,
) -> Result<(), String> {
    pieces_in(pieces, egtb::MAX_PIECES)?;
    let opts = egtb::BuildOptions {
        dir: db.dir()?,
        variant: db.variant,
        pieces,
        only: material,
        exact: only,
    };
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
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

/// `egtb plan`: one line per pair of slices, or the JSON the cluster driver reads.
fn plan(pieces: u32, json: bool) -> Result<(), String> {
    pieces_in(pieces, egtb::plan::MAX_PLAN_PIECES)?;
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
