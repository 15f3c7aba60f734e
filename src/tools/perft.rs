//! `crownhead perft`: counts the leaves of the legal move tree from a position, in parallel, or
//! under each root move with `--divide`; the last line is `Nodes: N`.

use crate::movegen::Counting;
use crate::notation::fen::parse_fen_in;
use crate::notation::move_text::{default_style, full_text};
use crate::variant::Variant;
use std::time::Instant;

/// The deepest perft the tool runs: deeper counts overflow no counter but take years.
const MAX_PERFT_DEPTH: u32 = 30;

/// `crownhead perft`'s flags.
#[derive(clap::Args, Debug, Clone)]
pub struct PerftArgs {
    /// Depth in plies.
    #[arg(long, short)]
    pub depth: u32,
    /// russian, english, brazilian, pool, italian, spanish or czech.
    #[arg(long, default_value = "russian")]
    pub variant: Variant,
    /// Start position as PDN FEN (default: the variant's start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the count under each root move.
    #[arg(long)]
    pub divide: bool,
    /// Count every jump path rather than every distinct move.
    #[arg(long)]
    pub paths: bool,
    /// Count every order in which pieces are taken rather than every distinct move (the
    /// convention of the shashki and FMJD forums' perft tables).
    #[arg(long, conflicts_with = "paths")]
    pub orders: bool,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = super::args::threads)]
    pub threads: Option<usize>,
}

/// Runs `crownhead perft`.
pub fn run(args: PerftArgs) -> Result<(), String> {
    let PerftArgs {
        depth,
        variant,
        fen,
        divide,
        paths,
        orders,
        threads,
    } = args;
    if depth > MAX_PERFT_DEPTH {
        return Err(format!(
            "depth {depth} is out of range (0-{MAX_PERFT_DEPTH})"
        ));
    }
    let counting = if orders {
        Counting::Orders
    } else if paths {
        Counting::Paths
    } else {
        Counting::Unique
    };
    let pos = parse_fen_in(variant, fen.as_deref().unwrap_or(variant.start_fen()))
        .map_err(|e| e.to_string())?;
    if let Some(n) = threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .map_err(|e| e.to_string())?;
    }
    let start = Instant::now();
    let nodes = if divide {
        let style = default_style(variant);
        let mut total = 0;
        for (m, n) in crate::perft::divide(variant, &pos, depth, counting) {
            println!("{} {n}", full_text(&m, style));
            total += n;
        }
        total
    } else {
        crate::perft::perft_parallel(variant, &pos, depth, counting)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("Time: {secs:.3} s");
    println!("Leaves/s: {:.0}", nodes as f64 / secs.max(1e-9));
    println!("Nodes: {nodes}");
    Ok(())
}
