//! Czech draughts: men move and capture forwards only, flying kings, a man crowned during a
//! capture ends the move, White first, and a capture with a king must be played when there is
//! one; otherwise the player chooses freely.

use super::{CaptureFacts, DrawCounters, DrawRule, DrawRules, Rules, Variant};
use crate::bitboard::Color;
use crate::position::Position;

/// The rules of Czech draughts.
#[derive(Clone, Copy, Debug, Default)]
pub struct Czech;

impl Rules for Czech {
    const VARIANT: Variant = Variant::Czech;
    const FLYING_KINGS: bool = true;
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const CROWNING_ENDS_CAPTURE: bool = true;
    const FIRST_TO_MOVE: Color = Color::White;
    const RANKED_CAPTURES: bool = true;
    const TUNED_AS: Variant = Variant::Russian;

    /// A king's capture before a man's.
    #[inline(always)]
    fn capture_rank(c: &CaptureFacts) -> u32 {
        u32::from(c.by_king)
    }
}

impl DrawRules for Czech {
    /// 40 moves by each side with no capture and no man moved (docs/RULES.md).
    fn draw_rule(c: &DrawCounters, _pos: &Position) -> Option<DrawRule> {
        (c.quiet_plies >= 80).then_some(DrawRule::FortyMoves)
    }
}
