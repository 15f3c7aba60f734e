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

/// The variant whose embedded network plays `variant` by default: its own where it has one,
/// else one fitted to positions enough like its own to have won a match against the
/// hand-written evaluation in it (docs/TRAINING.md), else none (the hand-written evaluation
/// plays).
pub fn network_source(variant: Variant) -> Option<Variant> {
    if embedded_bytes(variant).is_some() {
        return Some(variant);
    }
    match variant {
        // The Russian board, men and flying kings; only which capture must be taken, and a man
        // crowned mid-capture, differ: positions are valued alike.
        Variant::Pool => Some(Variant::Russian),
        _ => None,
    }
}

/// The embedded weights fitted to `variant`'s own games, if it has any (docs/TRAINING.md says
/// how they were made and the match that admitted them).
fn embedded_bytes(variant: Variant) -> Option<&'static [u8]> {
    match variant {
        Variant::English => Some(include_bytes!("english.weights")),
        Variant::Russian => Some(include_bytes!("russian.weights")),
        Variant::Brazilian => Some(include_bytes!("brazilian.weights")),
        Variant::Spanish => Some(include_bytes!("spanish.weights")),
        Variant::Czech => Some(include_bytes!("czech.weights")),
        Variant::Italian => Some(include_bytes!("italian.weights")),
        Variant::Pool => None,
    }
}

/// Per variant (indexed by `Variant::file_code`): its embedded weights, once checked and built.
static EMBEDDED: [OnceLock<Option<Arc<Learned>>>; Variant::ALL.len()] =
    [const { OnceLock::new() }; Variant::ALL.len()];

/// The embedded learned evaluation that plays `variant` (`network_source`); `None` if there
/// is none (or, which a test rules out, the weights are damaged: then the error is logged and
/// the hand-written evaluation plays).
pub fn learned_for(variant: Variant) -> Option<Arc<Learned>> {
    let source = network_source(variant)?;
    EMBEDDED[usize::from(source.file_code())]
        .get_or_init(|| {
            let bytes = embedded_bytes(source)?;
            Weights::parse(bytes, source)
                .and_then(Learned::new)
                .map(Arc::new)
                .map_err(|e| log::error!("embedded {source} weights: {e}"))
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
    fn the_embedded_weights_load_for_their_variant() {
        for variant in [
            Variant::English,
            Variant::Russian,
            Variant::Brazilian,
            Variant::Italian,
            Variant::Spanish,
            Variant::Czech,
        ] {
            let bytes = embedded_bytes(variant).expect("embedded weights");
            let w = Weights::parse(bytes, variant)
                .and_then(Learned::new)
                .unwrap_or_else(|e| panic!("embedded {variant} weights: {e}"));
            assert_eq!(w.weights.variant, variant);
            assert!(learned_for(variant).is_some_and(|l| *l == w));
        }
    }

    #[test]
    fn a_variant_without_its_own_network_plays_its_source_or_none() {
        for variant in Variant::ALL {
            match network_source(variant) {
                Some(source) => {
                    let plays = learned_for(variant).expect("a network");
                    assert_eq!(plays.weights.variant, source, "{variant}");
                    assert!(embedded_bytes(source).is_some(), "{variant} from {source}");
                }
                None => assert!(learned_for(variant).is_none(), "{variant}"),
            }
        }
        assert_eq!(network_source(Variant::Brazilian), Some(Variant::Brazilian));
        assert_eq!(network_source(Variant::Pool), Some(Variant::Russian));
        assert_eq!(network_source(Variant::Italian), Some(Variant::Italian));
        assert_eq!(network_source(Variant::Spanish), Some(Variant::Spanish));
        assert_eq!(network_source(Variant::Czech), Some(Variant::Czech));
    }
}
