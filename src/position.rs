//! `Position`: the pieces of both sides and the side to move, as a small `Copy` value with an
//! incrementally kept Zobrist key. Positions are values: `play` returns the next position.

use crate::bitboard::{self, BitIter, Bitboard, Color, Square};
use crate::moves::Move;
use crate::zobrist;

/// A piece kind and colour on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// Whether it is a king.
    pub king: bool,
}

/// A board position with the side to move.
#[derive(Clone, Copy, Debug)]
pub struct Position {
    /// Pieces of each side, indexed by `Color::index`.
    pieces: [Bitboard; 2],
    /// Kings of both sides.
    kings: Bitboard,
    /// Side to move.
    side: Color,
    /// Zobrist key of everything above.
    key: u64,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.pieces == other.pieces && self.kings == other.kings && self.side == other.side
    }
}

impl Eq for Position {}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.key);
    }
}

/// Why `Position::new` refused its parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A square holds a piece of both colours.
    Overlap(Bitboard),
    /// A piece lies off the 32 squares (on a bit of the padded layout that is no square).
    OffBoard(Bitboard),
    /// A king where there is no piece.
    KingWithoutPiece(Bitboard),
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionError::Overlap(b) => write!(f, "pieces of both colours on bits {b:#x}"),
            PositionError::OffBoard(b) => write!(f, "pieces off the board on bits {b:#x}"),
            PositionError::KingWithoutPiece(b) => write!(f, "kings without pieces on bits {b:#x}"),
        }
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// A position from its parts, checked: the two colours' sets are disjoint and on the board,
    /// and `kings` is a subset of them. (The rules' limits, such as 12 pieces a side or no man
    /// on its crowning row, are the FEN reader's to check: a search can start from any position
    /// that passes these.)
    pub fn new(
        white: Bitboard,
        black: Bitboard,
        kings: Bitboard,
        side: Color,
    ) -> Result<Position, PositionError> {
        if white & black != 0 {
            return Err(PositionError::Overlap(white & black));
        }
        if (white | black) & !bitboard::BOARD != 0 {
            return Err(PositionError::OffBoard((white | black) & !bitboard::BOARD));
        }
        if kings & !(white | black) != 0 {
            return Err(PositionError::KingWithoutPiece(kings & !(white | black)));
        }
        Ok(Position::from_parts(white, black, kings, side))
    }

    /// A position from its parts, unchecked but in debug builds: for the crate's own hot paths,
    /// whose parts come from a position already checked.
    pub(crate) fn from_parts(
        white: Bitboard,
        black: Bitboard,
        kings: Bitboard,
        side: Color,
    ) -> Position {
        debug_assert!(white & black == 0);
        debug_assert!((white | black) & !bitboard::BOARD == 0);
        debug_assert!(kings & !(white | black) == 0);
        let mut pos = Position {
            pieces: [white, black],
            kings,
            side,
            key: 0,
        };
        pos.key = pos.compute_key();
        pos
    }

    /// The key computed from scratch; `key()` must always equal it.
    pub(crate) fn compute_key(&self) -> u64 {
        let mut key = if self.side == Color::Black {
            zobrist::BLACK_TO_MOVE
        } else {
            0
        };
        for color in [Color::White, Color::Black] {
            for b in BitIter(self.pieces[color.index()]) {
                key ^= zobrist::piece(color.index(), b & self.kings != 0, b.trailing_zeros());
            }
        }
        key
    }

    /// The Zobrist key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The side to move.
    #[inline(always)]
    pub fn side(&self) -> Color {
        self.side
    }

    /// All pieces of one side.
    #[inline(always)]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.pieces[color.index()]
    }

    /// The men of one side.
    #[inline(always)]
    pub fn men(&self, color: Color) -> Bitboard {
        self.pieces[color.index()] & !self.kings
    }

    /// The kings of one side.
    #[inline(always)]
    pub fn kings_of(&self, color: Color) -> Bitboard {
        self.pieces[color.index()] & self.kings
    }

    /// The kings of both sides.
    #[inline(always)]
    pub fn kings(&self) -> Bitboard {
        self.kings
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.pieces[0] | self.pieces[1]
    }

    /// Every empty square.
    #[inline(always)]
    pub fn empty(&self) -> Bitboard {
        bitboard::BOARD & !self.occupied()
    }

    /// The piece on a square, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let b = sq.bit();
        let king = self.kings & b != 0;
        if self.pieces[0] & b != 0 {
            Some(Piece {
                color: Color::White,
                king,
            })
        } else if self.pieces[1] & b != 0 {
            Some(Piece {
                color: Color::Black,
                king,
            })
        } else {
            None
        }
    }

    /// The number of pieces on the board.
    pub fn piece_count(&self) -> u32 {
        bitboard::count(self.occupied())
    }

    /// The position after `mv`, which must be legal here.
    #[inline(always)]
    pub fn play(&self, mv: &Move) -> Position {
        let mut next = self.play_unkeyed(mv);
        next.key = self.key_after(mv);
        debug_assert_eq!(next.key, next.compute_key());
        next
    }

    /// `play` without the Zobrist key: the result keeps this position's key, which is wrong for
    /// it. For the search's children whose key nothing reads: the quiescence's (captures cannot
    /// repeat, and it has no table) and leaves that no repetition can reach. Half the nodes of a
    /// search are such children, and the key is most of the cost of a move with captures.
    #[inline(always)]
    pub(crate) fn play_unkeyed(&self, mv: &Move) -> Position {
        let us = self.side.index();
        let them = 1 - us;
        let from = mv.from().bit();
        let to = mv.to().bit();
        let captured = mv.captured();
        debug_assert!(self.pieces[us] & from != 0);
        debug_assert!(captured & !self.pieces[them] == 0);
        let mut pieces = self.pieces;
        // `from == to` is possible (a king's capture loop), so clear before setting.
        pieces[us] = (pieces[us] & !from) | to;
        pieces[them] &= !captured;
        let mut kings = self.kings & !captured & !from;
        if self.kings & from != 0 || mv.is_promotion() {
            kings |= to;
        }
        Position {
            pieces,
            kings,
            side: self.side.opponent(),
            key: self.key,
        }
    }

    /// The Zobrist key of the position after `mv` (legal here), from this position's key.
    #[inline(always)]
    pub(crate) fn key_after(&self, mv: &Move) -> u64 {
        let us = self.side.index();
        let them = 1 - us;
        let was_king = self.kings & mv.from().bit() != 0;
        let is_king = was_king || mv.is_promotion();
        let mut key = self.key ^ zobrist::BLACK_TO_MOVE;
        key ^= zobrist::piece_on(us, was_king, mv.from());
        key ^= zobrist::piece_on(us, is_king, mv.to());
        for b in BitIter(mv.captured()) {
            key ^= zobrist::piece(them, self.kings & b != 0, b.trailing_zeros());
        }
        key
    }

    /// The Zobrist key after a piece of the side to move steps from `from` to `to` without a
    /// capture, as `key_after` would give for that move. For prefetching a child's table
    /// bucket before the node's moves are generated: the squares may come from a stored move
    /// that is not legal here, and then the key is merely of no use.
    #[inline(always)]
    pub(crate) fn key_after_step(&self, from: Square, to: Square) -> u64 {
        let us = self.side.index();
        let was_king = self.kings & from.bit() != 0;
        let is_king = was_king || to.bit() & self.side.crown_row() != 0;
        self.key
            ^ zobrist::BLACK_TO_MOVE
            ^ zobrist::piece_on(us, was_king, from)
            ^ zobrist::piece_on(us, is_king, to)
    }

    /// This position with its key set to `key` (see `play_unkeyed`).
    #[inline(always)]
    pub(crate) fn with_key(mut self, key: u64) -> Position {
        self.key = key;
        self
    }

    /// The same position with colours swapped and the board turned round, so that the side to
    /// move changes colour too. Rules are symmetric under this mirror.
    pub fn mirrored(&self) -> Position {
        Position::from_parts(
            bitboard::flip(self.pieces[1]),
            bitboard::flip(self.pieces[0]),
            bitboard::flip(self.kings),
            self.side.opponent(),
        )
    }

    /// The same pieces with the other side to move.
    pub fn with_side(&self, side: Color) -> Position {
        Position::from_parts(self.pieces[0], self.pieces[1], self.kings, side)
    }

    /// A board diagram, rank 8 at the top, `w`/`b` for men and `W`/`B` for kings.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for rank in (1..=8).rev() {
            s.push_str(&format!("{rank} "));
            for file in 0..8 {
                let c = match Square::from_file_rank(file, rank) {
                    None => ' ',
                    Some(sq) => match self.piece_at(sq) {
                        None => '.',
                        Some(Piece {
                            color: Color::White,
                            king: false,
                        }) => 'w',
                        Some(Piece {
                            color: Color::White,
                            king: true,
                        }) => 'W',
                        Some(Piece {
                            color: Color::Black,
                            king: false,
                        }) => 'b',
                        Some(Piece {
                            color: Color::Black,
                            king: true,
                        }) => 'B',
                    },
                };
                s.push(' ');
                s.push(c);
            }
            s.push('\n');
        }
        s.push_str("   a b c d e f g h\n");
        s
    }
}

#[cfg(test)]
mod tests {
    use crate::{parse_fen, Variant};

    #[test]
    fn new_checks_what_the_search_relies_on() {
        use super::{Position, PositionError};
        use crate::bitboard::{square_set, Color};
        let (w, b) = (square_set(&[21, 22]), square_set(&[1, 30]));
        let k = square_set(&[30]);
        let pos = Position::new(w, b, k, Color::Black).unwrap();
        assert_eq!(pos, parse_fen("B:W21,22:B1,K30").unwrap());
        let both = square_set(&[22]);
        assert_eq!(
            Position::new(w, b | both, 0, Color::White),
            Err(PositionError::Overlap(both))
        );
        // Bit 8 is the ghost between rows: no square.
        assert_eq!(
            Position::new(w | 1 << 8, b, 0, Color::White),
            Err(PositionError::OffBoard(1 << 8))
        );
        let empty = square_set(&[15]);
        assert_eq!(
            Position::new(w, b, empty, Color::White),
            Err(PositionError::KingWithoutPiece(empty))
        );
    }

    /// `play`'s key is the one computed from scratch, `play_unkeyed` differs from `play` in the
    /// key alone, and a quiet move's key from its squares (`key_after_step`) is `play`'s: every
    /// legal move of random games of both variants, kings and multi-captures included.
    #[test]
    fn play_keeps_the_key_and_unkeyed_play_the_board() {
        let mut seed = 0x2545_F491_4F6C_DD1D_u64;
        for variant in Variant::ALL {
            for _ in 0..200 {
                let mut pos = parse_fen(variant.start_fen()).unwrap();
                for _ in 0..150 {
                    let moves = variant.legal_moves(&pos);
                    if moves.is_empty() {
                        break;
                    }
                    for mv in &moves {
                        let next = pos.play(mv);
                        assert_eq!(next.key(), next.compute_key());
                        assert_eq!(pos.key_after(mv), next.key());
                        let unkeyed = pos.play_unkeyed(mv);
                        assert_eq!(unkeyed, next);
                        assert_eq!(unkeyed.with_key(next.key()).key(), next.key());
                        if !mv.is_capture() {
                            assert_eq!(pos.key_after_step(mv.from(), mv.to()), next.key());
                        }
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    pos = pos.play(&moves[(seed % moves.len() as u64) as usize]);
                }
            }
        }
    }
}
