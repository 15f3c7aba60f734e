//! The learned evaluation (issue 22): pattern tables fitted to self-play games by
//! `scripts/train_eval.py`. `weights` reads and checks the trainer's file; `patterns` computes
//! the evaluation it describes. Not yet used by the search: the hand-written evaluation plays
//! until a fitted table beats it in a match.

pub mod patterns;
pub mod weights;

pub use patterns::{evaluate, WEIGHT_COUNT};
pub use weights::{Weights, WeightsError};
