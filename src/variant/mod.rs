//! The variants' rules in one place: the `Rules` trait that the move generator and the evaluation
//! are generic over, one zero-sized type per variant, and the `Variant` enum that chooses between
//! them at the edge of the program.

mod draws;
mod english;
mod russian;

pub use draws::{lone_king_ending, DrawCounters, DrawRule};

pub use english::English;
pub use russian::Russian;

use crate::bitboard::Color;
use crate::position::Position;
use std::fmt;
use std::str::FromStr;

/// The rule constants and hooks that distinguish one variant from another. Everything that
/// differs between variants is here, so the generator is written once and specialised by the
/// compiler for each variant.
pub trait Rules: DrawRules + Copy + Default + Send + Sync + 'static {
    /// The run-time tag of this variant.
    const VARIANT: Variant;
    /// Kings move and capture along whole diagonals (russian) or one step (english).
    const FLYING_KINGS: bool;
    /// Men may capture backwards as well as forwards.
    const MEN_CAPTURE_BACKWARDS: bool;
    /// A man crowned during a capture ends the move there (english) rather than going on as a
    /// king (russian).
    const CROWNING_ENDS_CAPTURE: bool;
    /// The side that makes the first move of a game.
    const FIRST_TO_MOVE: Color;
}

/// A variant chosen at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Russian draughts (shashki), PDN GameType 25.
    #[default]
    Russian,
    /// English draughts / American checkers, PDN GameType 21.
    English,
}

/// Runs `$body` with `$r` bound to the rules type of `$variant`: the one place where a run-time
/// variant becomes a compile-time one.
#[macro_export]
macro_rules! with_rules {
    ($variant:expr, $r:ident => $body:expr) => {
        match $variant {
            $crate::variant::Variant::Russian => {
                type $r = $crate::variant::Russian;
                $body
            }
            $crate::variant::Variant::English => {
                type $r = $crate::variant::English;
                $body
            }
        }
    };
}

impl Variant {
    /// Both variants.
    pub const ALL: [Variant; 2] = [Variant::Russian, Variant::English];

    /// The lower-case name used by options and the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Russian => "russian",
            Variant::English => "english",
        }
    }

    /// The PDN `GameType` number.
    pub const fn game_type(self) -> u32 {
        match self {
            Variant::Russian => 25,
            Variant::English => 21,
        }
    }

    /// The variant's byte in Crownhead's training files (self-play data, evaluation weights):
    /// 0 russian, 1 english.
    pub const fn file_code(self) -> u8 {
        match self {
            Variant::Russian => 0,
            Variant::English => 1,
        }
    }

    /// The variant of a training file's byte, if it names one.
    pub const fn from_file_code(code: u8) -> Option<Variant> {
        match code {
            0 => Some(Variant::Russian),
            1 => Some(Variant::English),
            _ => None,
        }
    }

    /// The variant of a PDN `GameType` tag value such as `21` or `25,W,8,8,A0,0`.
    pub fn from_game_type(tag: &str) -> Option<Variant> {
        match tag.split(',').next().map(str::trim) {
            Some("21") => Some(Variant::English),
            Some("25") => Some(Variant::Russian),
            _ => None,
        }
    }

    /// The side that moves first.
    pub fn first_to_move(self) -> Color {
        with_rules!(self, R => R::FIRST_TO_MOVE)
    }

    /// Whether kings fly.
    pub fn flying_kings(self) -> bool {
        with_rules!(self, R => R::FLYING_KINGS)
    }

    /// Whether move text is algebraic (`c3-d4`) by default rather than numeric (`22-18`).
    pub const fn algebraic_notation(self) -> bool {
        matches!(self, Variant::Russian)
    }

    /// The start position as PDN FEN.
    pub fn start_fen(self) -> &'static str {
        match self {
            Variant::Russian => {
                "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
            }
            Variant::English => {
                "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
            }
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error for a variant name that is not known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant {} (expected russian or english)",
            crate::notation::quote::quote(&self.0)
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        match s.trim().to_ascii_lowercase().as_str() {
            "russian" | "shashki" | "25" => Ok(Variant::Russian),
            "english" | "american" | "checkers" | "21" => Ok(Variant::English),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}

/// The draw rules a variant applies to its counters (repetition is checked by the game and the
/// search, which hold the history).
pub trait DrawRules {
    /// The rule that has drawn `pos`, reached with `counters`, if any.
    fn draw_rule(counters: &DrawCounters, pos: &Position) -> Option<DrawRule>;

    /// Whether the counters can matter for `pos`, now or later: every counter rule of both
    /// variants counts king moves or an ending against a lone king, and a king appears only by
    /// crowning, which restarts the counts. So without a king on the board no rule can fire.
    #[inline(always)]
    fn counters_matter(pos: &Position) -> bool {
        pos.kings() != 0
    }
}

impl Variant {
    /// The variant's draw rule that has drawn `pos`, if any (repetition aside).
    pub fn draw_rule(self, counters: &DrawCounters, pos: &Position) -> Option<DrawRule> {
        with_rules!(self, R => R::draw_rule(counters, pos))
    }
}
