//! Which evaluation a search plays with: the option `Eval` (UCI) / `eval` (Hub).

use crate::learned::{learned_for, Learned};
use crate::variant::Variant;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// Which evaluation plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EvalChoice {
    /// The variant's best, as measured. Today that is the learned evaluation in every variant:
    /// each variant's network beat the hand-written evaluation in a match (docs/TRAINING.md).
    /// It is a word of its own so that GUIs and scripts that leave it alone keep playing the
    /// best when a variant's measured best changes.
    #[default]
    Auto,
    /// The learned evaluation where the variant has weights (the embedded ones, or the file
    /// the search's options carry: `SearchOptions::eval_file`), else the hand-written one.
    Learned,
    /// The hand-written evaluation (`eval::handwritten`).
    HandWritten,
}

impl EvalChoice {
    /// The option's words.
    pub const NAMES: [&'static str; 3] = ["auto", "learned", "handwritten"];

    /// The option's word for this choice.
    pub fn name(self) -> &'static str {
        match self {
            EvalChoice::Auto => "auto",
            EvalChoice::Learned => "learned",
            EvalChoice::HandWritten => "handwritten",
        }
    }

    /// The embedded learned evaluation to play `variant` with, or `None` for the hand-written
    /// one.
    pub fn learned(self, variant: Variant) -> Option<Arc<Learned>> {
        match self {
            EvalChoice::HandWritten => None,
            EvalChoice::Auto | EvalChoice::Learned => learned_for(variant),
        }
    }
}

impl fmt::Display for EvalChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A word that names no evaluation (see `EvalChoice::NAMES`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownEvalChoice(pub String);

impl fmt::Display for UnknownEvalChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown evaluation '{}' (expected auto, learned or handwritten)",
            self.0
        )
    }
}

impl std::error::Error for UnknownEvalChoice {}

impl FromStr for EvalChoice {
    type Err = UnknownEvalChoice;
    fn from_str(s: &str) -> Result<Self, UnknownEvalChoice> {
        match s.to_ascii_lowercase().as_str() {
            "auto" => Ok(EvalChoice::Auto),
            "learned" => Ok(EvalChoice::Learned),
            "handwritten" | "hand-written" => Ok(EvalChoice::HandWritten),
            _ => Err(UnknownEvalChoice(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for name in EvalChoice::NAMES {
            assert_eq!(name.parse::<EvalChoice>().map(|c| c.name()), Ok(name));
        }
        assert_eq!(
            "neural".parse::<EvalChoice>(),
            Err(UnknownEvalChoice("neural".to_string()))
        );
        assert_eq!(
            UnknownEvalChoice("neural".to_string()).to_string(),
            "unknown evaluation 'neural' (expected auto, learned or handwritten)"
        );
    }

    #[test]
    fn handwritten_never_has_weights_and_learned_has_the_embedded_ones() {
        for variant in Variant::ALL {
            assert!(EvalChoice::HandWritten.learned(variant).is_none());
            assert_eq!(
                EvalChoice::Learned.learned(variant).is_some(),
                learned_for(variant).is_some()
            );
        }
        assert!(EvalChoice::Learned.learned(Variant::English).is_some());
        assert!(EvalChoice::Learned.learned(Variant::Russian).is_some());
        // Every variant plays its own network by default, each of which won its match against
        // the hand-written evaluation.
        for variant in Variant::ALL {
            let plays = EvalChoice::Auto.learned(variant).map(|l| l.weights.variant);
            assert_eq!(plays, Some(variant));
        }
    }
}
