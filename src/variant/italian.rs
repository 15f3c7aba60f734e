//! Italian draughts (dama italiana): men move and capture forwards only and may not capture
//! kings, kings step one square, a man crowned during a capture ends the move, White first, the
//! board placed mirrored (numbered from its top left, a light square at each player's left), and
//! the precedence among captures of the FID rules.

use super::{CaptureFacts, DrawCounters, DrawRule, DrawRules, Rules, Variant};
use crate::bitboard::Color;
use crate::position::Position;

/// The rules of Italian draughts.
#[derive(Clone, Copy, Debug, Default)]
pub struct Italian;

impl Rules for Italian {
    const VARIANT: Variant = Variant::Italian;
    const FLYING_KINGS: bool = false;
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const CROWNING_ENDS_CAPTURE: bool = true;
    const FIRST_TO_MOVE: Color = Color::White;
    const MEN_TAKE_KINGS: bool = false;
    const RANKED_CAPTURES: bool = true;
    const MIRRORED_NUMBERING: bool = true;
    const TUNED_AS: Variant = Variant::English;

    /// In this order: the most pieces; with a king rather than a man; the most kings; the king
    /// met first (the fields are packed so that one comparison of ranks decides).
    #[inline(always)]
    fn capture_rank(c: &CaptureFacts) -> u32 {
        // Earlier kings first, compared jump by jump: jump i's king is worth bit 11 - i.
        let earlier = c.kings_at.reverse_bits() >> 20;
        c.taken << 24 | u32::from(c.by_king) << 23 | c.kings_taken << 16 | earlier
    }
}

impl DrawRules for Italian {
    /// 40 moves by each side with no capture and no man moved, as pydraughts and english count.
    fn draw_rule(c: &DrawCounters, _pos: &Position) -> Option<DrawRule> {
        (c.quiet_plies >= 80).then_some(DrawRule::FortyMoves)
    }
}
