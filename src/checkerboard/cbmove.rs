//! A move in CheckerBoard's forms: the `struct CBmove` that `getmove` and `islegal` fill (laid
//! out exactly as in `cb_interface.h`), and the text of one move in the reply to
//! `get movelist`. Both list each jump's landing square and the piece it captured, in order.

use super::frame::{coords, piece_code};
use crate::bitboard::{self, Square};
use crate::moves::{Move, MAX_JUMPS};
use crate::position::{Piece, Position};
use std::ffi::c_int;
use std::fmt::Write;
use std::mem::{offset_of, size_of};

/// `struct coor` of `cb_interface.h`: array coordinates (see `frame`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coor {
    /// `board[x][..]`.
    pub x: c_int,
    /// `board[..][y]`.
    pub y: c_int,
}

impl Coor {
    /// The coordinates of a square.
    pub fn of(sq: Square) -> Coor {
        let (x, y) = coords(sq);
        Coor {
            x: x as c_int,
            y: y as c_int,
        }
    }
}

/// `struct CBmove` of `cb_interface.h`, field for field.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CBmove {
    /// The number of pieces captured (0 for a quiet move).
    pub jumps: c_int,
    /// The piece that lands on `to` (a king if the move crowns).
    pub newpiece: c_int,
    /// The piece that leaves `from`.
    pub oldpiece: c_int,
    /// Where the moving piece starts.
    pub from: Coor,
    /// Where it ends.
    pub to: Coor,
    /// The landing squares between `from` and `to`: `path[1]` to `path[jumps - 1]`. The header
    /// leaves `path[0]` unused; it is set to `from`, as Kodra does, for hosts that read it.
    pub path: [Coor; 12],
    /// The captured squares, `del[0]` to `del[jumps - 1]`, in the order they are jumped.
    pub del: [Coor; 12],
    /// The captured pieces, as `del`.
    pub delpiece: [c_int; 12],
}

// The layout of `cb_interface.h` with 4-byte ints, which every CheckerBoard target has: 3 ints,
// 2 coors, 2 arrays of 12 coors, 12 ints.
const _: () = assert!(size_of::<CBmove>() == 268);
const _: () = assert!(offset_of!(CBmove, from) == 12);
const _: () = assert!(offset_of!(CBmove, to) == 20);
const _: () = assert!(offset_of!(CBmove, path) == 28);
const _: () = assert!(offset_of!(CBmove, del) == 124);
const _: () = assert!(offset_of!(CBmove, delpiece) == 220);
const _: () = assert!(MAX_JUMPS == 12);

/// One jump of a capture: where the piece lands and whom it took on the way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Jump {
    /// The landing square.
    pub landing: Square,
    /// The square of the captured piece.
    pub captured: Square,
}

/// The jumps of a capture in order (empty for a quiet move). `mv` must come from the full
/// generator (`Game::legal_moves`), whose captures carry their landing squares. Each jump's
/// captured piece is the one of `mv.captured()` on the diagonal between its two landing
/// squares: captured pieces stay on the board until the move ends (and in Russian a flying
/// king's jump crosses empty squares), so exactly one lies there.
pub fn jumps(mv: &Move) -> Vec<Jump> {
    if !mv.is_capture() {
        return Vec::new();
    }
    let mut at = mv.from();
    mv.landings()
        .into_iter()
        .map(|landing| {
            let captured = between(at, landing)
                .find(|sq| sq.bit() & mv.captured() != 0)
                .unwrap_or_else(|| {
                    debug_assert!(false, "no captured piece between {at} and {landing}");
                    bitboard::first(mv.captured())
                });
            at = landing;
            Jump { landing, captured }
        })
        .collect()
}

/// The squares strictly between two squares of one diagonal (none if they share none).
fn between(a: Square, b: Square) -> impl Iterator<Item = Square> {
    let (fa, ra) = (a.file() as i32, a.rank() as i32);
    let (fb, rb) = (b.file() as i32, b.rank() as i32);
    let steps = if (fb - fa).abs() == (rb - ra).abs() {
        (fb - fa).abs()
    } else {
        0
    };
    let (df, dr) = ((fb - fa).signum(), (rb - ra).signum());
    (1..steps)
        .filter_map(move |k| Square::from_file_rank((fa + k * df) as u32, (ra + k * dr) as u32))
}

/// The piece on `sq` of `pos`; the squares asked about always hold one.
fn piece(pos: &Position, sq: Square) -> c_int {
    pos.piece_at(sq).map_or(0, piece_code)
}

/// The piece a move leaves on its end square.
fn new_piece(pos: &Position, mv: &Move) -> c_int {
    match pos.piece_at(mv.from()) {
        Some(p) => piece_code(Piece {
            color: p.color,
            king: p.king || mv.is_promotion(),
        }),
        None => 0,
    }
}

impl CBmove {
    /// The `CBmove` of `mv`, a legal move of `pos` from the full generator.
    pub fn new(pos: &Position, mv: &Move) -> CBmove {
        let mut cb = CBmove {
            jumps: mv.capture_count() as c_int,
            newpiece: new_piece(pos, mv),
            oldpiece: piece(pos, mv.from()),
            from: Coor::of(mv.from()),
            to: Coor::of(mv.to()),
            ..CBmove::default()
        };
        cb.path[0] = cb.from;
        let jumps = jumps(mv);
        for (i, jump) in jumps.iter().enumerate() {
            // Every landing but the last (which is `to`) is an intermediate one.
            if i + 1 < jumps.len() {
                cb.path[i + 1] = Coor::of(jump.landing);
            }
            cb.del[i] = Coor::of(jump.captured);
            cb.delpiece[i] = piece(pos, jump.captured);
        }
        cb
    }
}

/// The reply to `get movelist` for a position without moves, which CheckerBoard expects to the
/// letter.
pub const NO_MOVES: &str = "movelist 0";

/// The reply to `get movelist`: `movelist 0` without moves, else `movelist <n>,` and per move
/// `<jumps>,<oldpiece>,<newpiece>,<from>,<to>` with `,<landing>,<captured>,<capturedpiece>`
/// for each jump, ending in `;` (the format of CheckerBoard's API reference). Squares are PDN
/// numbers, pieces CheckerBoard's codes.
pub fn movelist_text(pos: &Position, moves: &[Move]) -> String {
    if moves.is_empty() {
        return NO_MOVES.to_string();
    }
    let mut text = format!("movelist {},", moves.len());
    for mv in moves {
        let _ = write!(
            text,
            "{},{},{},{},{}",
            mv.capture_count(),
            piece(pos, mv.from()),
            new_piece(pos, mv),
            mv.from().number(),
            mv.to().number()
        );
        for jump in jumps(mv) {
            let (l, c) = (jump.landing, jump.captured);
            let _ = write!(text, ",{},{},{}", l.number(), c.number(), piece(pos, c));
        }
        text.push(';');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::super::frame::{CB_BLACK, CB_KING, CB_MAN, CB_WHITE};
    use super::*;
    use crate::game::Game;
    use crate::notation::move_text::parse_move;
    use crate::variant::Variant;

    fn sq(n: u32) -> Square {
        Square::from_number(n).unwrap()
    }

    fn moves(variant: Variant, fen: &str) -> (Position, Vec<Move>) {
        let game = Game::from_fen(variant, fen).unwrap();
        (*game.position(), game.legal_moves())
    }

    #[test]
    fn a_quiet_move_fills_from_and_to() {
        let (pos, _) = moves(Variant::English, Variant::English.start_fen());
        let mv = parse_move("11-15", &pos, Variant::English).unwrap();
        let cb = CBmove::new(&pos, &mv);
        assert_eq!(cb.jumps, 0);
        assert_eq!(
            (cb.oldpiece, cb.newpiece),
            (CB_BLACK | CB_MAN, CB_BLACK | CB_MAN)
        );
        assert_eq!((cb.from, cb.to), (Coor { x: 2, y: 2 }, Coor { x: 3, y: 3 }));
        assert_eq!(cb.path[0], cb.from);
        assert!(cb.path[1..]
            .iter()
            .chain(&cb.del)
            .all(|c| *c == Coor::default()));
        assert_eq!(cb.delpiece, [0; 12]);
    }

    #[test]
    fn a_double_jump_lists_its_landing_and_captures_in_order() {
        // English: 22x15x6 takes 18 then 10.
        let (pos, legal) = moves(Variant::English, "W:W22,25:B18,10,1");
        assert_eq!(legal.len(), 1);
        let cb = CBmove::new(&pos, &legal[0]);
        assert_eq!(cb.jumps, 2);
        assert_eq!((cb.from, cb.to), (Coor::of(sq(22)), Coor::of(sq(6))));
        assert_eq!(cb.path[1], Coor::of(sq(15)));
        assert_eq!(&cb.del[..2], &[Coor::of(sq(18)), Coor::of(sq(10))]);
        assert_eq!(&cb.delpiece[..2], &[CB_BLACK | CB_MAN, CB_BLACK | CB_MAN]);
        assert_eq!(cb.path[2], Coor::default());
    }

    #[test]
    fn a_russian_man_crowned_mid_capture_goes_on_as_a_king() {
        // docs/RULES.md: W:W12:B8,14,26, h6:f8:b4:e1 is the only move.
        let (pos, legal) = moves(Variant::Russian, "W:W12:B8,14,26");
        assert_eq!(legal.len(), 1);
        let mv = &legal[0];
        let cb = CBmove::new(&pos, mv);
        assert_eq!(cb.jumps, 3);
        assert_eq!(
            (cb.oldpiece, cb.newpiece),
            (CB_WHITE | CB_MAN, CB_WHITE | CB_KING)
        );
        let path: Vec<u32> = jumps(mv).iter().map(|j| j.landing.number()).collect();
        let taken: Vec<u32> = jumps(mv).iter().map(|j| j.captured.number()).collect();
        assert_eq!(path, [3, 17, 31]); // f8, b4, e1
        assert_eq!(taken, [8, 14, 26]); // g7, c5, d2: one per jump, in order
        assert_eq!(&cb.path[1..3], &[Coor::of(sq(3)), Coor::of(sq(17))]);
        assert_eq!(cb.to, Coor::of(sq(31)));
    }

    #[test]
    fn a_flying_king_jump_finds_the_piece_at_a_distance() {
        // A king on 29 (a1) takes 15 (e5) far up the main road, landing on 11 or 8 (f6, g7).
        let (pos, legal) = moves(Variant::Russian, "W:WK29:B15,1");
        assert!(legal.iter().all(|m| m.capture_count() == 1));
        for mv in &legal {
            assert_eq!(jumps(mv)[0].captured, sq(15));
            let cb = CBmove::new(&pos, mv);
            assert_eq!(
                (cb.del[0], cb.delpiece[0]),
                (Coor::of(sq(15)), CB_BLACK | CB_MAN)
            );
        }
        let mut ends: Vec<u32> = legal.iter().map(|m| m.to().number()).collect();
        ends.sort_unstable();
        assert_eq!(ends, [4, 8, 11]);
    }

    #[test]
    fn movelist_text_follows_the_reference_format() {
        let (pos, legal) = moves(Variant::Russian, "W:W12:B8,14,26");
        assert_eq!(
            movelist_text(&pos, &legal),
            "movelist 1,3,5,9,12,31,3,8,6,17,14,6,31,26,6;"
        );
        let (pos, legal) = moves(Variant::Russian, "W:W29:B1");
        assert_eq!(movelist_text(&pos, &legal), "movelist 1,0,5,5,29,25;");
        let (pos, legal) = moves(Variant::Russian, "B:W32,28:B1");
        let text = movelist_text(&pos, &legal);
        assert!(
            text.starts_with("movelist 2,") && text.ends_with(';'),
            "{text}"
        );
        assert!(
            text.contains("0,6,6,1,5;") && text.contains("0,6,6,1,6;"),
            "{text}"
        );
        assert_eq!(movelist_text(&pos, &[]), "movelist 0");
    }
}
