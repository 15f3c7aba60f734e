//! Russian draughts (shashki): flying kings, men capture backwards, a man crowned mid-capture goes
//! on capturing as a king, White moves first.

use super::{Rules, Variant};
use crate::bitboard::Color;

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
