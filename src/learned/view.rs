//! The side to move's view of a position, as the network reads it: four 32-bit sets (our
//! men, their men, our kings, their kings), with the board turned round when Black moves so
//! that "us" always moves up the board like White. A position and its colour-mirrored twin
//! (the other side to move) are the same view, so whatever reads it is symmetric by
//! construction.

use crate::bitboard::{dense, Color};
use crate::position::Position;

/// One side's view of the board (bit s for square s + 1, from that side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct View {
    pub(super) our_men: u32,
    pub(super) their_men: u32,
    pub(super) our_kings: u32,
    pub(super) their_kings: u32,
}

/// The side to move's view of `pos`.
#[inline]
pub(super) fn view_of(pos: &Position) -> View {
    let (white, black, kings) = (
        dense(pos.pieces(Color::White)),
        dense(pos.pieces(Color::Black)),
        dense(pos.kings()),
    );
    // Square s of the side to move's view is square 31 - s of the board when Black moves.
    let (us, them, kings) = match pos.side() {
        Color::White => (white, black, kings),
        Color::Black => (
            black.reverse_bits(),
            white.reverse_bits(),
            kings.reverse_bits(),
        ),
    };
    View {
        our_men: us & !kings,
        their_men: them & !kings,
        our_kings: us & kings,
        their_kings: them & kings,
    }
}

/// The squares of a 32-bit set (for the tests: `update` walks the sets itself).
#[cfg(test)]
pub(super) struct Bits(pub(super) u32);

#[cfg(test)]
impl Iterator for Bits {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        (self.0 != 0).then(|| {
            let s = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            s
        })
    }
}

/// `count` random weights from `-bound` to `bound` (for the network's tests).
#[cfg(test)]
pub(super) fn random_weights(seed: u64, count: usize, bound: u64) -> Vec<i16> {
    let mut rng = crate::selfplay::game::SplitMix(seed);
    (0..count)
        .map(|_| (rng.below(2 * bound + 1) as i32 - bound as i32) as i16)
        .collect()
}

/// A random legal-looking position: men off their crowning rows, up to 24 pieces (for the
/// network's tests).
#[cfg(test)]
pub(super) fn random_position(rng: &mut crate::selfplay::game::SplitMix) -> Position {
    loop {
        let mut fen_sides = [Vec::new(), Vec::new()];
        for s in 1..=32u32 {
            match rng.below(6) {
                0 if s > 4 => fen_sides[0].push(s.to_string()),
                1 if s < 29 => fen_sides[1].push(s.to_string()),
                2 if rng.below(4) == 0 => fen_sides[(s % 2) as usize].push(format!("K{s}")),
                _ => {}
            }
        }
        if fen_sides.iter().any(|v| v.is_empty()) {
            continue;
        }
        let side = if rng.below(2) == 0 { "W" } else { "B" };
        let fen = format!(
            "{side}:W{}:B{}",
            fen_sides[0].join(","),
            fen_sides[1].join(",")
        );
        if let Ok(pos) = crate::notation::fen::parse_fen(&fen) {
            return pos;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_fen;

    #[test]
    fn black_to_move_sees_the_board_turned_round_with_the_colours_swapped() {
        let white = view_of(&parse_fen("W:W21,K30:B3,K9").unwrap());
        // The same position with the colours swapped and the board turned round (n -> 33 - n).
        let black = view_of(&parse_fen("B:W30,K24:B12,K3").unwrap());
        assert_eq!(white, black);
        assert_eq!(white.our_men, 1 << 20);
        assert_eq!(white.our_kings, 1 << 29);
        assert_eq!(white.their_men, 1 << 2);
        assert_eq!(white.their_kings, 1 << 8);
        assert_eq!(Bits(0b1010_0001).collect::<Vec<_>>(), [0, 5, 7]);
    }
}
