//! American pool checkers: flying kings, men capturing backwards, free choice among captures, a
//! man that reaches the king row during a capture and can capture on goes on as a man (crowned
//! only if the move ends there), Black first (APCA rules of play).

use super::{lone_king_ending, DrawCounters, DrawRule, DrawRules, Rules, Variant};
use crate::bitboard::Color;
use crate::position::Position;

/// The rules of American pool checkers.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pool;

impl Rules for Pool {
    const VARIANT: Variant = Variant::Pool;
    const FLYING_KINGS: bool = true;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const CROWNING_ENDS_CAPTURE: bool = false;
    const CROWNED_ONLY_AT_END: bool = true;
    const FIRST_TO_MOVE: Color = Color::Black;
    const TUNED_AS: Variant = Variant::Russian;
}

impl DrawRules for Pool {
    /// APCA: three kings against one king must win within 13 moves (docs/RULES.md).
    fn draw_rule(c: &DrawCounters, pos: &Position) -> Option<DrawRule> {
        let (strong, _) = lone_king_ending(pos)?;
        let three_kings = pos.kings_of(strong).count_ones() == 3 && pos.men(strong) == 0;
        (three_kings && c.ending_moves >= 13).then_some(DrawRule::ThreeKingsThirteenMoves)
    }
}
