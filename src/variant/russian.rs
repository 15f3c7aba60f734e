//! Russian draughts (shashki): flying kings, men capture backwards, a man crowned mid-capture goes
//! on capturing as a king, White moves first.

use super::{lone_king_ending, DrawCounters, DrawRule, DrawRules, Rules, Variant};
use crate::bitboard::{self, Color};
use crate::position::Position;

/// The rules of Russian draughts.
#[derive(Clone, Copy, Debug, Default)]
pub struct Russian;

impl Rules for Russian {
    const VARIANT: Variant = Variant::Russian;
    const FLYING_KINGS: bool = true;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const CROWNING_ENDS_CAPTURE: bool = false;
    const TUNED_AS: Variant = Variant::Russian;
    const FIRST_TO_MOVE: Color = Color::White;
}

impl DrawRules for Russian {
    /// FMJD-64 rules 7.2.3 to 7.2.8 (docs/RULES.md, "Draw rules"). The endings with a lone king
    /// are checked first: when one of them and the general 7.2.3 fire on the same move (three
    /// kings against one, where the 15th move of the stronger side often completes 15 king-only
    /// moves of both sides), the specific rule is the reason given.
    fn draw_rule(c: &DrawCounters, pos: &Position) -> Option<DrawRule> {
        if let Some(rule) = lone_king_rule(c, pos) {
            return Some(rule);
        }
        let pieces = pos.piece_count();
        let both_have_kings = pos.kings_of(Color::White) != 0 && pos.kings_of(Color::Black) != 0;
        // 7.2.5 and 7.2.6: 30 moves (4-5 pieces) or 60 moves (6-7 pieces) without a capture or
        // a crowning, kings on both sides.
        if both_have_kings {
            let limit = match pieces {
                4 | 5 => 60,
                6 | 7 => 120,
                _ => u16::MAX,
            };
            if c.balance_plies >= limit {
                return Some(DrawRule::LongEnding);
            }
        }
        // 7.2.3: 15 moves by both sides with only kings moved and no capture.
        if c.quiet_plies >= 30 {
            return Some(DrawRule::KingsOnlyFifteenMoves);
        }
        None
    }
}

/// FMJD-64 7.2.4, 7.2.7 and 7.2.8: the endings against a lone king.
pub(super) fn lone_king_rule(c: &DrawCounters, pos: &Position) -> Option<DrawRule> {
    let (strong, lone) = lone_king_ending(pos)?;
    let kings = pos.kings_of(strong).count_ones();
    let count = pos.pieces(strong).count_ones();
    // 7.2.7: three pieces with a king (3K, 2K+M, K+2M) against a king on the main road.
    if count == 3 && kings >= 1 && lone & bitboard::MAIN_ROAD != 0 && c.road_moves >= 5 {
        return Some(DrawRule::MainRoad);
    }
    // 7.2.8: two kings, king and man, or one king against a king.
    if count <= 2 && kings >= 1 && c.ending_moves >= 5 {
        return Some(DrawRule::SmallEnding);
    }
    // 7.2.4: three or more kings (and no men) against a king, not captured by the 15th move.
    if kings >= 3 && kings == count && c.ending_moves >= 15 {
        return Some(DrawRule::ThreeKingsAgainstKing);
    }
    None
}
