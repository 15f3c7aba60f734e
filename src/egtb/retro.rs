//! Un-moves: the positions from which one quiet move that neither captures nor crowns leads to a
//! given position. Within a pair of slices those are the only moves, so the builder walks them
//! backwards from every position it has solved.

use crate::bitboard::{BitIter, Color, Dir, BOARD};
use crate::movegen::has_capture;
use crate::position::Position;
use crate::variant::Rules;

/// Calls `f` with every position `p` (White to move) that has a legal quiet, non-crowning move
/// to `c` (White to move) up to the mirror: `p` plays a move, and the position after it, seen
/// from its side to move, is `c`. Each such move gives exactly one call.
///
/// By the mirror, `p`'s move is Black's move in `c`'s frame: so Black's last piece to move is
/// taken back in `c`, giving `r` with Black to move, and `p = r.mirrored()`. The move was legal
/// only if `r` had no capture (captures are compulsory in both variants).
pub(crate) fn predecessors<R: Rules>(c: &Position, mut f: impl FnMut(Position)) {
    debug_assert_eq!(c.side(), Color::White);
    let white = c.pieces(Color::White);
    let black = c.pieces(Color::Black);
    let kings = c.kings();
    let empty = BOARD & !(white | black);
    let mut take_back = |from: u64, to: u64, king: bool| {
        // The piece now on `to` came from `from`.
        let moved = from | to;
        let r = Position::from_parts(
            white,
            black ^ moved,
            if king { kings ^ moved } else { kings },
            Color::Black,
        );
        if !has_capture::<R>(&r) {
            f(r.mirrored());
        }
    };
    // Black's men step down the board (towards row 1), so they came from one step up. A man
    // that stands on a square came there without crowning (men are never on their crowning
    // row), and the square it came from, higher up, is not Black's crowning row either.
    for to in BitIter(black & !kings) {
        for d in Color::Black.forward() {
            let from = d.step_back(to) & empty;
            if from != 0 {
                take_back(from, to, false);
            }
        }
    }
    // Kings came from any square along a free diagonal: one step in English, any distance
    // when kings fly.
    for to in BitIter(black & kings) {
        for d in Dir::ALL {
            let mut from = d.step(to) & empty;
            while from != 0 {
                take_back(from, to, true);
                if !R::FLYING_KINGS {
                    break;
                }
                from = d.step(from) & empty;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egtb::material::{self, Material};
    use crate::egtb::Indexer;
    use crate::variant::{English, Russian};

    /// Un-moves are exactly the inverse of the generator's quiet non-crowning moves: for every
    /// position of up to 3 pieces, the predecessors found by walking
    /// the generator forward from every position of the mirrored slice are those `predecessors`
    /// gives, with the same multiplicity.
    fn agree<R: Rules>() {
        use std::collections::HashMap;
        for m in material::all(3) {
            let target = Indexer::new(m);
            // Forward: every quiet non-crowning move from the slice of m.swapped().
            let source = Indexer::new(m.swapped());
            let mut forward: HashMap<u64, Vec<u64>> = HashMap::new();
            for i in 0..source.size() {
                let p = source.position(i);
                for mv in R::VARIANT.legal_moves(&p) {
                    let c = p.play(&mv).mirrored();
                    if Material::of(&c) == m {
                        forward.entry(target.index(&c)).or_default().push(i);
                    }
                }
            }
            for j in 0..target.size() {
                let mut back = Vec::new();
                predecessors::<R>(&target.position(j), |p| back.push(source.index(&p)));
                back.sort_unstable();
                let mut want = forward.remove(&j).unwrap_or_default();
                want.sort_unstable();
                assert_eq!(back, want, "{m} {j}");
            }
        }
    }

    #[test]
    fn predecessors_invert_the_generator() {
        agree::<English>();
        agree::<Russian>();
    }
}
