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
    const FIRST_TO_MOVE: Color = Color::White;
}

impl DrawRules for Russian {
    /// FMJD-64 rules 7.2.3 to 7.2.8 (RULES.md).
    fn draw_rule(c: &DrawCounters, pos: &Position) -> Option<DrawRule> {
        // 7.2.3: 15 moves by both sides with only kings moved and no capture.
        if c.quiet_plies >= 30 {
            return Some(DrawRule::KingsOnlyFifteenMoves);
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
        // 7.2.4: three or more kings against a king, not captured by the 15th move.
        if kings >= 3 && c.ending_moves >= 15 {
            return Some(DrawRule::ThreeKingsAgainstKing);
        }
        None
    }
}
