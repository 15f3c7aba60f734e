//! `crownhead bench`: a fixed-depth search of the built-in bench positions
//! (`search::bench`); the last line is `Nodes: N  NPS: M`, N the search's signature.

use crate::eval::EvalChoice;
use crate::learned::Learned;
use crate::variant::Variant;
use std::sync::Arc;

/// `crownhead bench`'s flags.
#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// Depth in plies.
    #[arg(long, short, default_value_t = crate::search::bench::DEFAULT_DEPTH, value_parser = super::args::depth)]
    pub depth: u32,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = super::args::threads)]
    pub threads: usize,
    /// Transposition table size in MiB (cleared before every position, so kept small).
    #[arg(long, default_value_t = 16, value_parser = super::args::hash)]
    pub hash: usize,
    /// The evaluation: auto, learned or handwritten.
    #[arg(long, default_value = "auto")]
    pub eval: EvalChoice,
    /// Search only this variant's positions (russian and english: the signature's; the five
    /// others: their own positions, positions/bench_variants.txt, outside the signature).
    #[arg(long)]
    pub variant: Option<Variant>,
}

/// Runs `crownhead bench`, with the learned weights of `--eval-file` if given.
pub fn run(args: BenchArgs, eval_file: Option<Arc<Learned>>) -> Result<(), String> {
    crate::search::bench::run(
        args.depth,
        args.threads,
        args.hash,
        args.eval,
        eval_file,
        args.variant,
        &mut |line| println!("{line}"),
    )
    .map_err(|e| e.to_string())?;
    Ok(())
}
