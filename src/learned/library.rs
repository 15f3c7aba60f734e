//! The weights the engine plays with. Each variant's fitted weights are embedded in the binary
//! (`include_bytes!`) and checked, like any file, the first time they are needed. A weights file
//! (`crownhead --eval-file F`, for testing a new fit in a match without a rebuild) is read by
//! `read_file` and carried by the search's options (`SearchOptions::eval_file`), never stored
//! here: nothing in the process changes which weights another search plays.

use super::weights::{Weights, WeightsError};
use super::Learned;
use crate::variant::Variant;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The embedded weights fitted to `variant`'s own games (docs/TRAINING.md says how each was
/// made and the match that admitted it). Every variant has its own: Pool, the last to borrow
/// (the Russian network), played it until its own won its matches.
fn embedded_bytes(variant: Variant) -> &'static [u8] {
    match variant {
        Variant::English => include_bytes!("english.weights"),
        Variant::Russian => include_bytes!("russian.weights"),
        Variant::Brazilian => include_bytes!("brazilian.weights"),
        Variant::Spanish => include_bytes!("spanish.weights"),
        Variant::Czech => include_bytes!("czech.weights"),
        Variant::Italian => include_bytes!("italian.weights"),
        Variant::Pool => include_bytes!("pool.weights"),
    }
}

/// Per variant (indexed by `Variant::file_code`): its embedded weights, once checked and built.
static EMBEDDED: [OnceLock<Option<Arc<Learned>>>; Variant::ALL.len()] =
    [const { OnceLock::new() }; Variant::ALL.len()];

/// The embedded learned evaluation of `variant`; `None` only if its weights are damaged, which
/// a test rules out (then the error is logged and the hand-written evaluation plays).
pub fn learned_for(variant: Variant) -> Option<Arc<Learned>> {
    EMBEDDED[usize::from(variant.file_code())]
        .get_or_init(|| {
            Weights::parse(embedded_bytes(variant), variant)
                .and_then(Learned::new)
                .map(Arc::new)
                .map_err(|e| log::error!("embedded {variant} weights: {e}"))
                .ok()
        })
        .clone()
}

/// Reads and checks a weights file of either variant (the file says which).
pub fn read_file(path: &Path) -> Result<Learned, WeightsError> {
    let in_file = |problem| WeightsError::InFile {
        path: path.to_path_buf(),
        problem: Box::new(problem),
    };
    let bytes = std::fs::read(path).map_err(|e| WeightsError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    let variant = bytes
        .get(5)
        .copied()
        .and_then(Variant::from_file_code)
        .ok_or_else(|| in_file(WeightsError::NotWeights))?;
    Weights::parse(&bytes, variant)
        .and_then(Learned::new)
        .map_err(in_file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_plays_its_own_embedded_weights() {
        for variant in Variant::ALL {
            let w = Weights::parse(embedded_bytes(variant), variant)
                .and_then(Learned::new)
                .unwrap_or_else(|e| panic!("embedded {variant} weights: {e}"));
            assert_eq!(w.weights.variant, variant);
            assert!(learned_for(variant).is_some_and(|l| *l == w), "{variant}");
        }
    }
}
