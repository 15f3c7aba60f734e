//! The weights the engine plays with. Each variant's fitted weights are embedded in the binary
//! (`include_bytes!`) and checked, like any file, the first time they are needed; a weights file
//! named at start-up (`crownhead --eval-file F`, for testing a new fit in a match without a
//! rebuild) takes the place of its variant's embedded weights for the life of the process.

use super::weights::{Weights, WeightsError};
use super::Learned;
use crate::variant::Variant;
use std::path::Path;
use std::sync::OnceLock;

/// The embedded weights of each variant, if it has any (see docs/TRAINING.md for how they were
/// made and the match that admitted them).
fn embedded_bytes(variant: Variant) -> Option<&'static [u8]> {
    match variant {
        Variant::English => Some(include_bytes!("english.weights")),
        Variant::Russian => Some(include_bytes!("russian.weights")),
        // No network fitted yet: the hand-written evaluation plays (docs/TRAINING.md).
        _ => None,
    }
}

/// Per variant (indexed by `Variant::file_code`): the learned evaluation in use, once looked
/// up.
static IN_USE: [OnceLock<Option<Learned>>; Variant::ALL.len()] =
    [const { OnceLock::new() }; Variant::ALL.len()];

fn slot(variant: Variant) -> &'static OnceLock<Option<Learned>> {
    &IN_USE[usize::from(variant.file_code())]
}

/// The learned evaluation of `variant` the engine plays with: a file loaded by `load_file`, else the
/// embedded ones; `None` if the variant has none (or, which a test rules out, they are damaged:
/// then the error is logged and the hand-written evaluation plays).
pub fn learned_for(variant: Variant) -> Option<&'static Learned> {
    slot(variant)
        .get_or_init(|| {
            let bytes = embedded_bytes(variant)?;
            Weights::parse(bytes, variant)
                .and_then(Learned::new)
                .map_err(|e| log::error!("embedded {variant} weights: {e}"))
                .ok()
        })
        .as_ref()
}

/// Reads a weights file and makes it its variant's weights for the rest of the process. It must
/// come before the variant's weights are first used (at start-up); returns the variant.
pub fn load_file(path: &Path) -> Result<Variant, WeightsError> {
    let name = path.display();
    let bytes =
        std::fs::read(path).map_err(|e| WeightsError(format!("cannot read {name}: {e}")))?;
    let variant = bytes
        .get(5)
        .copied()
        .and_then(Variant::from_file_code)
        .ok_or_else(|| WeightsError(format!("{name}: not a weights file")))?;
    let weights = Weights::parse(&bytes, variant)
        .and_then(Learned::new)
        .map_err(|e| WeightsError(format!("{name}: {}", e.0)))?;
    slot(variant)
        .set(Some(weights))
        .map_err(|_| WeightsError(format!("{variant} weights were already in use")))?;
    Ok(variant)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_weights_load_for_their_variant() {
        for variant in [Variant::English, Variant::Russian] {
            if let Some(bytes) = embedded_bytes(variant) {
                let w = Weights::parse(bytes, variant)
                    .and_then(Learned::new)
                    .unwrap_or_else(|e| panic!("embedded {variant} weights: {e}"));
                assert_eq!(w.weights.variant, variant);
                assert!(learned_for(variant).is_some());
            }
        }
    }
}
