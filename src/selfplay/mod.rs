//! Self-play data for fitting the evaluation: games of the engine against itself
//! (`game`), stored in a compact append-only file (`format`). The command that plays them on
//! every core is `crownhead selfplay` (`tools::selfplay`).

pub mod format;
pub mod game;

pub use format::{read_all, DataError, HeaderProblem, Record, RecordProblem, Sample};
pub use game::{play_game, GameSpec, PlayedGame};
