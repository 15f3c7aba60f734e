//! Brazilian draughts: the russian board and pieces (flying kings, men capturing backwards,
//! White first) under the international capture rules: the sequence that takes the most pieces
//! must be played, and a man that reaches the king row during a capture and can capture on goes
//! on as a man, crowned only if the move ends there.

use super::{CaptureFacts, DrawCounters, DrawRule, DrawRules, Rules, Russian, Variant};
use crate::bitboard::Color;
use crate::position::Position;

/// The rules of Brazilian draughts.
#[derive(Clone, Copy, Debug, Default)]
pub struct Brazilian;

impl Rules for Brazilian {
    const VARIANT: Variant = Variant::Brazilian;
    const FLYING_KINGS: bool = true;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const CROWNING_ENDS_CAPTURE: bool = false;
    const CROWNED_ONLY_AT_END: bool = true;
    const FIRST_TO_MOVE: Color = Color::White;
    const RANKED_CAPTURES: bool = true;
    const TUNED_AS: Variant = Variant::Russian;

    /// The majority rule: the most pieces, men and kings alike.
    #[inline(always)]
    fn capture_rank(c: &CaptureFacts) -> u32 {
        c.taken
    }
}

impl DrawRules for Brazilian {
    /// The FMJD rules for 64-square draughts (docs/RULES.md, "Draw rules"), which the Brazilian
    /// confederation shares with russian: the same endings, counted the same way.
    fn draw_rule(c: &DrawCounters, pos: &Position) -> Option<DrawRule> {
        Russian::draw_rule(c, pos)
    }
}
