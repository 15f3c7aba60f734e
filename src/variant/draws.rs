//! The counters behind the draw rules of docs/RULES.md ("Draw rules"), kept move by move so that
//! the game record and the search share one implementation. Which counter ends a game, and when,
//! is each variant's own `Rules::draw_rule`.

use crate::bitboard::{self, Bitboard, Color};
use crate::moves::Move;
use crate::position::Position;
use std::fmt;

/// A rule that has drawn the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawRule {
    /// The same position for the third time with the same side to move (every variant).
    Repetition,
    /// english, italian, spanish, czech: 40 moves by each side with no capture and no man moved.
    FortyMoves,
    /// russian 7.2.3: 15 moves by both sides with only kings moved and no capture.
    KingsOnlyFifteenMoves,
    /// russian 7.2.4: three or more kings against a lone king, not won by the 15th move.
    ThreeKingsAgainstKing,
    /// russian 7.2.5-7.2.6: 4-5 piece endings (30 moves) or 6-7 piece endings (60 moves) with
    /// kings on both sides and no change in the balance of forces.
    LongEnding,
    /// russian 7.2.7: three pieces with a king against a lone king on the main road, not won by
    /// the 5th move.
    MainRoad,
    /// russian 7.2.8: two kings, king and man, or a king against a lone king, not won by the 5th
    /// move.
    SmallEnding,
    /// pool: three kings against a lone king, not won within 13 moves.
    ThreeKingsThirteenMoves,
}

impl fmt::Display for DrawRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawRule::Repetition => "threefold repetition",
            DrawRule::FortyMoves => "40-move rule",
            DrawRule::KingsOnlyFifteenMoves => "15 moves with only kings moved",
            DrawRule::ThreeKingsAgainstKing => "three kings against one, 15-move rule",
            DrawRule::LongEnding => "no change in the balance of forces in the ending",
            DrawRule::MainRoad => "lone king on the main road, 5-move rule",
            DrawRule::SmallEnding => "small ending against a lone king, 5-move rule",
            DrawRule::ThreeKingsThirteenMoves => "three kings against one, 13-move rule",
        })
    }
}

/// Counters updated after every move; all start at zero for a position given without history.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DrawCounters {
    /// Plies since the last capture or man move (the 40-move and kings-only rules, and the
    /// window in which a position can repeat).
    pub quiet_plies: u16,
    /// Plies since the balance of forces last changed (a capture or a crowning).
    pub balance_plies: u16,
    /// Moves by the stronger side in a lone-king ending since its balance arose.
    pub ending_moves: u16,
    /// Like `ending_moves`, but only while the lone king stands on the main road.
    pub road_moves: u16,
}

/// In an ending where one side has a lone king: the stronger side and the lone king's square.
/// When both sides have a lone king, White counts as the stronger side.
#[inline]
pub fn lone_king_ending(pos: &Position) -> Option<(Color, Bitboard)> {
    // A lone king is a king: without kings on the board (most of the game) there is none.
    if pos.kings() == 0 {
        return None;
    }
    let lone = |c: Color| pos.pieces(c).count_ones() == 1 && pos.men(c) == 0;
    if lone(Color::Black) {
        Some((Color::White, pos.pieces(Color::Black)))
    } else if lone(Color::White) {
        Some((Color::Black, pos.pieces(Color::White)))
    } else {
        None
    }
}

impl DrawCounters {
    /// The counters after `mv` is played from `before`, reaching `after`.
    #[inline]
    pub fn after(self, before: &Position, mv: &Move, after: &Position) -> DrawCounters {
        let man_moved = before.kings() & mv.from().bit() == 0;
        let capture = mv.is_capture();
        if capture || mv.is_promotion() {
            return DrawCounters {
                quiet_plies: 0,
                balance_plies: 0,
                ending_moves: 0,
                road_moves: 0,
            };
        }
        let quiet_plies = if man_moved {
            0
        } else {
            self.quiet_plies.saturating_add(1)
        };
        let balance_plies = self.balance_plies.saturating_add(1);
        let (ending_moves, road_moves) = match lone_king_ending(after) {
            None => (0, 0),
            Some((strong, lone)) => {
                let by_strong = u16::from(before.side() == strong);
                let on_road = lone & bitboard::MAIN_ROAD != 0;
                (
                    self.ending_moves.saturating_add(by_strong),
                    if on_road {
                        self.road_moves.saturating_add(by_strong)
                    } else {
                        0
                    },
                )
            }
        };
        DrawCounters {
            quiet_plies,
            balance_plies,
            ending_moves,
            road_moves,
        }
    }
}
