//! CheckerBoard's board frame: the `int board[8][8]` array that `getmove` and `islegal` receive,
//! its piece codes and colours, and the checked conversion between it and a `Position`.
//!
//! The array is indexed `board[x][y]`. For English and Russian (CheckerBoard's default
//! numbering, `numbertocoors` in `cb_interface.h`) PDN square n lies at x = 7 - file,
//! y = 8 - rank: square 1 (b8) is `board[6][0]`, 4 (h8) is `board[0][0]`, 29 (a1) is
//! `board[7][7]`. CheckerBoard's numbers are docs/RULES.md's, so `Square` converts directly, and
//! `CB_WHITE` is the side that starts on squares 21-32 in both variants: Crownhead's White. In
//! Russian White moves first, in English Black does; the array says nothing about that, the
//! `color` argument does.

use crate::bitboard::{Bitboard, Color, Square};
use crate::notation::fen::MAX_PIECES;
use crate::position::{Piece, Position};
use std::ffi::c_int;
use std::fmt;

/// A white piece (the side on squares 21-32 at the start), also the `color` of White to move.
pub const CB_WHITE: c_int = 1;
/// A black piece (squares 1-12 at the start), also the `color` of Black to move.
pub const CB_BLACK: c_int = 2;
/// A man.
pub const CB_MAN: c_int = 4;
/// A king.
pub const CB_KING: c_int = 8;
/// An empty square.
pub const CB_FREE: c_int = 0;

/// CheckerBoard's board, indexed `[x][y]` (see the module documentation).
pub type Board8x8 = [[c_int; 8]; 8];

/// The array coordinates `(x, y)` of a square.
pub fn coords(sq: Square) -> (usize, usize) {
    (7 - sq.file() as usize, 8 - sq.rank() as usize)
}

/// The dark square at array coordinates `(x, y)`, `None` for a light square or off the board.
pub fn square_at(x: usize, y: usize) -> Option<Square> {
    if x > 7 || y > 7 {
        return None;
    }
    Square::from_file_rank((7 - x) as u32, (8 - y) as u32)
}

/// CheckerBoard's code of a colour.
pub fn color_code(color: Color) -> c_int {
    match color {
        Color::White => CB_WHITE,
        Color::Black => CB_BLACK,
    }
}

/// The colour of a CheckerBoard colour code, if it is one.
pub fn color_of(code: c_int) -> Option<Color> {
    match code {
        CB_WHITE => Some(Color::White),
        CB_BLACK => Some(Color::Black),
        _ => None,
    }
}

/// CheckerBoard's code of a piece: its colour with `CB_MAN` or `CB_KING`.
pub fn piece_code(piece: Piece) -> c_int {
    color_code(piece.color) | if piece.king { CB_KING } else { CB_MAN }
}

/// The piece of a CheckerBoard code; `Ok(None)` for an empty square, `Err` for any value that
/// is not one of the five codes.
fn piece_of(code: c_int) -> Result<Option<Piece>, ()> {
    let piece = |color, king| Ok(Some(Piece { color, king }));
    match code {
        CB_FREE => Ok(None),
        c if c == CB_WHITE | CB_MAN => piece(Color::White, false),
        c if c == CB_WHITE | CB_KING => piece(Color::White, true),
        c if c == CB_BLACK | CB_MAN => piece(Color::Black, false),
        c if c == CB_BLACK | CB_KING => piece(Color::Black, true),
        _ => Err(()),
    }
}

/// Why a board array (with its `color`) is not a position Crownhead can play from. An 8x8 array
/// cannot hold two pieces on a square; everything else that could be wrong is here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// The side to move is neither `CB_WHITE` nor `CB_BLACK`.
    Color(c_int),
    /// A value that is none of the piece codes (0, 5, 6, 9, 10).
    Value {
        /// Array x.
        x: usize,
        /// Array y.
        y: usize,
        /// The value found.
        value: c_int,
    },
    /// A piece on a light square, where no piece can stand.
    LightSquare {
        /// Array x.
        x: usize,
        /// Array y.
        y: usize,
        /// The value found.
        value: c_int,
    },
    /// A man on the row where it would already have been crowned.
    ManOnCrowningRow {
        /// Its colour.
        color: Color,
        /// Its PDN square.
        square: u32,
    },
    /// More pieces of one colour than the 12 a side starts with.
    TooManyPieces {
        /// The colour.
        color: Color,
        /// How many.
        count: u32,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BoardError::Color(c) => write!(
                f,
                "color {c} is neither {CB_WHITE} (white) nor {CB_BLACK} (black)"
            ),
            BoardError::Value { x, y, value } => write!(
                f,
                "board[{x}][{y}] holds {value}, which is no piece (0, 5, 6, 9 or 10)"
            ),
            BoardError::LightSquare { x, y, value } => {
                write!(f, "board[{x}][{y}] is a light square but holds {value}")
            }
            BoardError::ManOnCrowningRow { color, square } => write!(
                f,
                "a {color} man on square {square}, its crowning row, would already be a king"
            ),
            BoardError::TooManyPieces { color, count } => write!(
                f,
                "{color} has {count} pieces; a side has at most {MAX_PIECES}"
            ),
        }
    }
}

impl std::error::Error for BoardError {}

/// The position on `board` with `color` to move, checked as the FEN reader checks a FEN.
pub fn read_board(board: &Board8x8, color: c_int) -> Result<Position, BoardError> {
    let side = color_of(color).ok_or(BoardError::Color(color))?;
    let mut pieces: [Bitboard; 2] = [0, 0];
    let mut kings: Bitboard = 0;
    for (x, column) in board.iter().enumerate() {
        for (y, &value) in column.iter().enumerate() {
            let piece = piece_of(value).map_err(|()| BoardError::Value { x, y, value })?;
            let (Some(piece), sq) = (piece, square_at(x, y)) else {
                continue;
            };
            let sq = sq.ok_or(BoardError::LightSquare { x, y, value })?;
            if !piece.king && sq.bit() & piece.color.crown_row() != 0 {
                return Err(BoardError::ManOnCrowningRow {
                    color: piece.color,
                    square: sq.number(),
                });
            }
            pieces[piece.color.index()] |= sq.bit();
            if piece.king {
                kings |= sq.bit();
            }
        }
    }
    for color in [Color::White, Color::Black] {
        let count = pieces[color.index()].count_ones();
        if count > MAX_PIECES {
            return Err(BoardError::TooManyPieces { color, count });
        }
    }
    // The sets are disjoint and on the board by construction, so `new` cannot refuse them.
    Ok(Position::new(pieces[0], pieces[1], kings, side).expect("disjoint pieces on dark squares"))
}

/// Writes `pos` into the dark squares of `board`; the light squares are left as they are.
pub fn write_board(pos: &Position, board: &mut Board8x8) {
    for i in 0..32 {
        let sq = Square::from_index(i);
        let (x, y) = coords(sq);
        board[x][y] = pos.piece_at(sq).map_or(CB_FREE, piece_code);
    }
}

/// The array of a position: `write_board` on an empty board.
pub fn board_of(pos: &Position) -> Board8x8 {
    let mut board = [[CB_FREE; 8]; 8];
    write_board(pos, &mut board);
    board
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_fen;
    use crate::variant::Variant;

    /// `numbertocoors` of `cb_interface.h` for the default gametypes (English, Russian), written
    /// out from the header as an independent check of `coords`.
    fn cb_number_to_coors(n: u32) -> (usize, usize) {
        let n = n - 1;
        let y = n / 4;
        let x = 2 * (3 - n % 4) + y % 2;
        (x as usize, y as usize)
    }

    /// `coorstonumber` of the header for the default gametypes.
    fn cb_coors_to_number(x: usize, y: usize) -> u32 {
        (4 * (y + 1) - x / 2) as u32
    }

    #[test]
    fn every_square_round_trips_and_matches_checkerboard() {
        for n in 1..=32 {
            let sq = Square::from_number(n).unwrap();
            let (x, y) = coords(sq);
            assert_eq!((x, y), cb_number_to_coors(n), "square {n}");
            assert_eq!(cb_coors_to_number(x, y), n, "square {n}");
            assert_eq!(square_at(x, y), Some(sq), "square {n}");
        }
        // CheckerBoard's documented anchors: 1 = b8 at [6][0], 4 = h8 at [0][0], 29 = a1 at [7][7].
        let at = |n| coords(Square::from_number(n).unwrap());
        assert_eq!(
            (at(1), at(4), at(5), at(29), at(32)),
            ((6, 0), (0, 0), (7, 1), (7, 7), (1, 7))
        );
        let dark = (0..8)
            .flat_map(|x| (0..8).map(move |y| (x, y)))
            .filter(|&(x, y)| square_at(x, y).is_some())
            .count();
        assert_eq!(dark, 32);
        assert_eq!(square_at(8, 0), None);
    }

    #[test]
    fn start_positions_round_trip_with_white_on_21_to_32() {
        for variant in Variant::ALL {
            let pos = parse_fen(variant.start_fen()).unwrap();
            let board = board_of(&pos);
            let side = color_code(pos.side());
            assert_eq!(read_board(&board, side), Ok(pos), "{variant}");
            for n in 1..=32 {
                let (x, y) = coords(Square::from_number(n).unwrap());
                let expected = match n {
                    1..=12 => CB_BLACK | CB_MAN,
                    21..=32 => CB_WHITE | CB_MAN,
                    _ => CB_FREE,
                };
                assert_eq!(board[x][y], expected, "{variant} square {n}");
            }
        }
        // Russian: White moves first; English: Black does.
        assert_eq!(
            parse_fen(Variant::Russian.start_fen()).unwrap().side(),
            Color::White
        );
        assert_eq!(
            parse_fen(Variant::English.start_fen()).unwrap().side(),
            Color::Black
        );
    }

    #[test]
    fn positions_with_kings_round_trip() {
        for fen in [
            "W:WK14,K23,25,27,31:B6,7,10,K19,K26",
            "B:WK4:BK29,5",
            "B::BK1",
        ] {
            let pos = parse_fen(fen).unwrap();
            assert_eq!(
                read_board(&board_of(&pos), color_code(pos.side())),
                Ok(pos),
                "{fen}"
            );
        }
        // A side to move without pieces is a lost position, not a bad board.
        let board = board_of(&parse_fen("B::BK1").unwrap());
        assert_eq!(
            read_board(&board, CB_WHITE).map(|p| p.side()),
            Ok(Color::White)
        );
    }

    #[test]
    fn bad_boards_are_refused_with_the_reason() {
        let start = board_of(&parse_fen(Variant::Russian.start_fen()).unwrap());
        assert_eq!(read_board(&start, 0), Err(BoardError::Color(0)));
        assert_eq!(read_board(&start, 3), Err(BoardError::Color(3)));
        let mut b = start;
        b[3][3] = 7;
        assert_eq!(
            read_board(&b, CB_WHITE),
            Err(BoardError::Value {
                x: 3,
                y: 3,
                value: 7
            })
        );
        let mut b = start;
        b[0][1] = CB_WHITE | CB_MAN; // (0, 1) is light
        assert_eq!(
            read_board(&b, CB_WHITE),
            Err(BoardError::LightSquare {
                x: 0,
                y: 1,
                value: 5
            })
        );
        let mut b = [[CB_FREE; 8]; 8];
        b[6][0] = CB_WHITE | CB_MAN; // square 1: White's crowning row
        b[1][7] = CB_BLACK | CB_KING; // square 32: a black king may stand there
        assert_eq!(
            read_board(&b, CB_WHITE),
            Err(BoardError::ManOnCrowningRow {
                color: Color::White,
                square: 1
            })
        );
        let mut b = start;
        let (x, y) = coords(Square::from_number(16).unwrap());
        b[x][y] = CB_WHITE | CB_KING; // a 13th white piece
        assert_eq!(
            read_board(&b, CB_WHITE),
            Err(BoardError::TooManyPieces {
                color: Color::White,
                count: 13
            })
        );
        for value in [-1, 1, 2, 4, 8, 12, 13, 1 << 30] {
            let mut b = start;
            b[2][2] = value;
            assert!(read_board(&b, CB_BLACK).is_err(), "{value}");
        }
    }
}
