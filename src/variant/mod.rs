//! The variants' rules in one place: the `Rules` trait that the move generator and the evaluation
//! are generic over, one zero-sized type per variant, and the `Variant` enum that chooses between
//! them at the edge of the program.

mod brazilian;
mod czech;
mod draws;
mod english;
mod italian;
mod pool;
mod russian;
mod spanish;

pub use draws::{lone_king_ending, DrawCounters, DrawRule};

pub use brazilian::Brazilian;
pub use czech::Czech;
pub use english::English;
pub use italian::Italian;
pub use pool::Pool;
pub use russian::Russian;
pub use spanish::Spanish;

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
    /// A man that reaches the king row during a capture and can capture on from there as a man
    /// goes on as a man, and is crowned only if the move ends on the king row (brazilian, pool).
    /// Only meaningful with `CROWNING_ENDS_CAPTURE` false.
    const CROWNED_ONLY_AT_END: bool = false;
    /// Men may capture kings (all but italian).
    const MEN_TAKE_KINGS: bool = true;
    /// Some capture sequences take precedence over others (`capture_rank`): the majority rule,
    /// italian's precedence, czech's king first. Without it the player chooses freely.
    const RANKED_CAPTURES: bool = false;
    /// Square numbers name the board mirrored left to right (italian, spanish: the board is
    /// placed with a light square at each player's left, and numbered from the top left).
    const MIRRORED_NUMBERING: bool = false;
    /// The variant whose hand-tuned tables (evaluation weights, search margins) this one uses.
    const TUNED_AS: Variant;
    /// Every capture sequence is legal and men take any piece: the perft fast paths that count
    /// men's jumps in bulk rely on it.
    const FREE_CAPTURES: bool = !Self::RANKED_CAPTURES && Self::MEN_TAKE_KINGS;

    /// The rank of a finished capture sequence when `RANKED_CAPTURES`: only the sequences of the
    /// highest rank among all of a position's captures are legal.
    #[inline(always)]
    fn capture_rank(_capture: &CaptureFacts) -> u32 {
        0
    }
}

/// What the capture precedence rules look at in one finished capture sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaptureFacts {
    /// Pieces taken.
    pub taken: u32,
    /// Kings among them.
    pub kings_taken: u32,
    /// Whether the capturing piece is a king (at the start of the move).
    pub by_king: bool,
    /// The jump (0 for the first) at which the first king was taken; `u32::MAX` if none was.
    pub first_king_at: u32,
    /// Bit `i` set where jump `i` (0 for the first) took a king.
    pub kings_at: u32,
}

/// A variant chosen at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Russian draughts (shashki), PDN GameType 25.
    #[default]
    Russian,
    /// English draughts / American checkers, PDN GameType 21.
    English,
    /// Brazilian draughts, PDN GameType 26.
    Brazilian,
    /// American pool checkers, PDN GameType 23.
    Pool,
    /// Italian draughts (dama italiana), PDN GameType 22.
    Italian,
    /// Spanish draughts, PDN GameType 24.
    Spanish,
    /// Czech draughts, PDN GameType 29.
    Czech,
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
            $crate::variant::Variant::Brazilian => {
                type $r = $crate::variant::Brazilian;
                $body
            }
            $crate::variant::Variant::Pool => {
                type $r = $crate::variant::Pool;
                $body
            }
            $crate::variant::Variant::Italian => {
                type $r = $crate::variant::Italian;
                $body
            }
            $crate::variant::Variant::Spanish => {
                type $r = $crate::variant::Spanish;
                $body
            }
            $crate::variant::Variant::Czech => {
                type $r = $crate::variant::Czech;
                $body
            }
        }
    };
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 7] = [
        Variant::Russian,
        Variant::English,
        Variant::Brazilian,
        Variant::Pool,
        Variant::Italian,
        Variant::Spanish,
        Variant::Czech,
    ];

    /// The lower-case name used by options and the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Russian => "russian",
            Variant::English => "english",
            Variant::Brazilian => "brazilian",
            Variant::Pool => "pool",
            Variant::Italian => "italian",
            Variant::Spanish => "spanish",
            Variant::Czech => "czech",
        }
    }

    /// Every variant's name, separated by `sep`: the list an error about a name gives.
    pub fn names(sep: &str) -> String {
        Variant::ALL.map(Variant::name).join(sep)
    }

    /// Every variant's `GameType` number and name (`21 english, 25 russian, ...`): the list an
    /// error about a PDN file's `GameType` gives.
    pub fn game_types() -> String {
        let mut all = Variant::ALL;
        all.sort_by_key(|v| v.game_type());
        all.map(|v| format!("{} {}", v.game_type(), v.name()))
            .join(", ")
    }

    /// The PDN `GameType` number.
    pub const fn game_type(self) -> u32 {
        match self {
            Variant::Russian => 25,
            Variant::English => 21,
            Variant::Brazilian => 26,
            Variant::Pool => 23,
            Variant::Italian => 22,
            Variant::Spanish => 24,
            Variant::Czech => 29,
        }
    }

    /// The variant's byte in Crownhead's training files (self-play data, evaluation weights):
    /// its index in `ALL` (0 russian, 1 english, 2 brazilian, ...).
    pub const fn file_code(self) -> u8 {
        self as u8
    }

    /// The variant of a training file's byte, if it names one.
    pub const fn from_file_code(code: u8) -> Option<Variant> {
        if (code as usize) < Variant::ALL.len() {
            Some(Variant::ALL[code as usize])
        } else {
            None
        }
    }

    /// The variant of a PDN `GameType` tag value such as `21` or `25,W,8,8,A0,0`.
    pub fn from_game_type(tag: &str) -> Option<Variant> {
        let number: u32 = tag.split(',').next()?.trim().parse().ok()?;
        Variant::ALL.into_iter().find(|v| v.game_type() == number)
    }

    /// Whether square numbers name the board mirrored left to right (italian, spanish).
    pub fn mirrored_numbering(self) -> bool {
        with_rules!(self, R => R::MIRRORED_NUMBERING)
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

    /// The start position as PDN FEN (the same in a mirrored numbering: rows keep their
    /// numbers).
    pub fn start_fen(self) -> &'static str {
        match self.first_to_move() {
            Color::White => "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            Color::Black => "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
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
            "unknown variant {} (known: {})",
            crate::notation::quote::quote(&self.0),
            Variant::names(", ")
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
            "brazilian" | "26" => Ok(Variant::Brazilian),
            "pool" | "american pool" | "23" => Ok(Variant::Pool),
            "italian" | "22" => Ok(Variant::Italian),
            "spanish" | "24" => Ok(Variant::Spanish),
            "czech" | "29" => Ok(Variant::Czech),
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
