//! Spanish draughts: men move and capture forwards only, flying kings, a man crowned during a
//! capture ends the move, White first, the board placed mirrored (as italian), and the capture
//! that takes the most pieces, then the most kings, must be played.

use super::{CaptureFacts, DrawCounters, DrawRule, DrawRules, Rules, Variant};
use crate::bitboard::Color;
use crate::position::Position;

/// The rules of Spanish draughts.
#[derive(Clone, Copy, Debug, Default)]
pub struct Spanish;

impl Rules for Spanish {
    const VARIANT: Variant = Variant::Spanish;
    const FLYING_KINGS: bool = true;
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const CROWNING_ENDS_CAPTURE: bool = true;
    const FIRST_TO_MOVE: Color = Color::White;
    const RANKED_CAPTURES: bool = true;
    const MIRRORED_NUMBERING: bool = true;
    const TUNED_AS: Variant = Variant::Russian;

    /// The most pieces, then the most kings.
    #[inline(always)]
    fn capture_rank(c: &CaptureFacts) -> u32 {
        c.taken << 8 | c.kings_taken
    }
}

impl DrawRules for Spanish {
    /// 40 moves by each side with no capture and no man moved (docs/RULES.md).
    fn draw_rule(c: &DrawCounters, _pos: &Position) -> Option<DrawRule> {
        (c.quiet_plies >= 80).then_some(DrawRule::FortyMoves)
    }
}
