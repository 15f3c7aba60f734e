//! Crownhead as a CheckerBoard engine library: the C API (version 2) of Martin Fierz's and Ed
//! Gilbert's CheckerBoard, which KingsRow, Cake and the Russian engines speak, and which
//! pydraughts' `CheckerBoardEngine` and lidraughts-bot drive too (docs/CHECKERBOARD.md). The
//! cdylib that `cargo build --release` makes (`libcrownhead.so`, `crownhead.dll`) exports
//! `getmove`, `enginecommand` and `islegal`, for English (gametype 21) and Russian (25).
//!
//! The pieces: `frame` (the board array and its square numbering), `cbmove` (the move struct
//! and the move list text), `command` (reading `enginecommand`'s text), `timing` (what
//! `maxtime` and the clock bits mean), `status` (the status bar text), `cbuf` (the C string
//! buffers), `session` and `answers` (the engine behind the functions: the shared
//! `protocol::Engine`, the game history, `getmove` and the answer to each command) and `ffi`
//! (the exported functions).

mod answers;
mod cbmove;
mod cbuf;
mod command;
mod ffi;
pub mod frame;
mod session;
mod status;
mod timing;

pub use cbmove::{CBmove, Coor};
pub use ffi::{enginecommand, getmove, islegal};
pub use frame::{Board8x8, CB_BLACK, CB_FREE, CB_KING, CB_MAN, CB_WHITE};

use std::ffi::c_int;

/// `getmove`'s value: the game is a draw.
pub const CB_DRAW: c_int = 0;
/// `getmove`'s value: the side that moved wins.
pub const CB_WIN: c_int = 1;
/// `getmove`'s value: the side that moved loses.
pub const CB_LOSS: c_int = 2;
/// `getmove`'s value: no verdict.
pub const CB_UNKNOWN: c_int = 3;
