// The crate's documentation is README.md, whose library example runs as a doctest.
#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod bitboard;
// The CheckerBoard engine API that the cdylib exports: only with the `checkerboard` feature.
#[cfg(feature = "checkerboard")]
pub mod checkerboard;
pub mod egtb;
pub mod eval;
pub mod game;
pub mod judge;
pub mod learned;
pub(crate) mod movegen;
pub mod moves;
pub mod notation;
pub mod pdn;
pub mod perft;
pub(crate) mod platform;
pub mod position;
pub mod protocol;
pub mod search;
pub mod selfplay;
// The tools carry clap's argument types: only with the default `cli` feature.
#[cfg(feature = "cli")]
pub mod tools;
pub(crate) mod tt;
pub mod variant;
pub(crate) mod zobrist;

pub use bitboard::{Bitboard, Color, Square};
// The move generator's run-time side to move made a type; not for users.
pub(crate) use bitboard::with_side;
pub use eval::{evaluate, explain, EvalChoice};
pub use game::{EndReason, Game, GameResult, Outcome};
pub use movegen::Counting;
pub use moves::Move;
pub use notation::fen::{parse_fen, to_fen, FenError};
pub use notation::move_text::{full_text, parse_move, short_text, MoveError};
pub use notation::quote::quote;
pub use notation::SquareStyle;
pub use position::{Position, PositionError};
pub use search::{
    Limits, Score, SearchControl, SearchInfo, SearchOptions, SearchOutcome, Searcher, MAX_DEPTH,
};
pub use variant::{DrawCounters, DrawRule, English, Rules, Russian, Variant};
