//! English draughts (American checkers): men move and capture forward only, kings step one
//! square, a man crowned during a capture ends the move there, Black moves first.

use super::{DrawCounters, DrawRule, DrawRules, Rules, Variant};
use crate::bitboard::Color;
use crate::position::Position;

/// The rules of English draughts.
#[derive(Clone, Copy, Debug, Default)]
pub struct English;

impl Rules for English {
    const VARIANT: Variant = Variant::English;
    const FLYING_KINGS: bool = false;
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const CROWNING_ENDS_CAPTURE: bool = true;
    const TUNED_AS: Variant = Variant::English;
    const FIRST_TO_MOVE: Color = Color::Black;
}

impl DrawRules for English {
    fn draw_rule(counters: &DrawCounters, _pos: &Position) -> Option<DrawRule> {
        // 40 moves by each side with no capture and no man moved.
        (counters.quiet_plies >= 80).then_some(DrawRule::FortyMoves)
    }
}
