//! Legal move generation, written once and specialised per variant through `Rules`.
//!
//! Captures are compulsory, so a position has either only captures or only quiet moves. Capture
//! sequences follow the Turkish-strike rule in both variants: captured pieces stay on the board
//! (blocking the path) until the move ends and cannot be jumped twice, while the square the moving
//! piece left is empty from the first jump on. Generation knows nothing of search.

use crate::bitboard::{BitIter, Bitboard, Color, Dir, Square};
use crate::moves::{dedup_same_effect, Move, MAX_JUMPS};
use crate::position::Position;
use crate::variant::Rules;

/// Whether jump paths with the same effect count as one move (`Unique`, the default everywhere)
/// or each path counts (`Paths`, the convention of some published perft tables).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Counting {
    /// One move per distinct effect (start, end, captured set, crowning).
    #[default]
    Unique,
    /// One move per jump path.
    Paths,
}

/// Appends the legal moves of `pos` to `out` (which it clears first), one per distinct effect.
pub fn legal_moves<R: Rules>(pos: &Position, out: &mut Vec<Move>) {
    generate::<R>(pos, out, Counting::Unique);
}

/// Replaces `out` with the legal moves of `pos`, counted as `counting` says.
pub fn generate<R: Rules>(pos: &Position, out: &mut Vec<Move>, counting: Counting) {
    out.clear();
    captures::<R>(pos, out, counting);
    if out.is_empty() {
        quiet_moves::<R>(pos, out);
    }
}

/// Replaces `out` with the captures of `pos` (empty when there are none).
pub fn generate_captures<R: Rules>(pos: &Position, out: &mut Vec<Move>, counting: Counting) {
    out.clear();
    captures::<R>(pos, out, counting);
}

/// Whether the side to move has a capture (and so must capture).
#[inline]
pub fn has_capture<R: Rules>(pos: &Position) -> bool {
    let us = pos.side();
    let them = pos.pieces(us.opponent());
    let empty = pos.empty();
    let men = pos.men(us);
    let kings = pos.kings_of(us);
    if R::MEN_CAPTURE_BACKWARDS {
        for d in Dir::ALL {
            if d.shift(d.shift(men) & them) & empty != 0 {
                return true;
            }
        }
    } else {
        for d in us.forward() {
            if d.shift(d.shift(men) & them) & empty != 0 {
                return true;
            }
        }
    }
    if kings != 0 {
        for d in Dir::ALL {
            let victims = if R::FLYING_KINGS {
                ray_hits(kings, d, empty) & them
            } else {
                d.shift(kings) & them
            };
            if d.shift(victims) & empty != 0 {
                return true;
            }
        }
    }
    false
}

/// The squares hit first by rays from every square of `from` in direction `d` over `empty`
/// squares: the pieces a flying king would meet.
#[inline(always)]
fn ray_hits(from: Bitboard, d: Dir, empty: Bitboard) -> Bitboard {
    let mut hits = 0;
    let mut front = d.shift(from);
    while front != 0 {
        hits |= front & !empty;
        front = d.shift(front & empty);
    }
    hits
}

/// The number of legal moves, without building quiet moves: the leaf count of perft.
#[inline]
pub fn count_moves<R: Rules>(pos: &Position, counting: Counting, scratch: &mut Vec<Move>) -> u64 {
    if has_capture::<R>(pos) {
        generate_captures::<R>(pos, scratch, counting);
        return scratch.len() as u64;
    }
    let us = pos.side();
    let empty = pos.empty();
    let men = pos.men(us);
    let kings = pos.kings_of(us);
    let mut n = 0;
    for d in us.forward() {
        n += (d.shift(men) & empty).count_ones();
    }
    if kings != 0 {
        for d in Dir::ALL {
            let mut front = d.shift(kings) & empty;
            while front != 0 {
                n += front.count_ones();
                front = if R::FLYING_KINGS {
                    d.shift(front) & empty
                } else {
                    0
                };
            }
        }
    }
    n as u64
}

fn quiet_moves<R: Rules>(pos: &Position, out: &mut Vec<Move>) {
    let us = pos.side();
    let empty = pos.empty();
    let crown = us.crown_row();
    let men = pos.men(us);
    for d in us.forward() {
        let back = d.opposite();
        for to in BitIter(d.shift(men) & empty) {
            out.push(Move::quiet(
                Square::from_bit(back.shift(to)),
                Square::from_bit(to),
                to & crown != 0,
            ));
        }
    }
    for king in BitIter(pos.kings_of(us)) {
        let from = Square::from_bit(king);
        for d in Dir::ALL {
            let mut to = d.shift(king) & empty;
            while to != 0 {
                out.push(Move::quiet(from, Square::from_bit(to), false));
                if !R::FLYING_KINGS {
                    break;
                }
                to = d.shift(to) & empty;
            }
        }
    }
}

/// The state of one capture search: what stays fixed while the jump tree of one piece is walked.
struct Jumps<'a> {
    /// Opponent pieces, captured or not (captured ones stay on the board until the move ends).
    them: Bitboard,
    /// Squares a piece may land on or pass over: empty at the start, plus the mover's origin.
    empty: Bitboard,
    /// The mover's crowning row.
    crown: Bitboard,
    color: Color,
    from: Square,
    landings: [Square; MAX_JUMPS],
    out: &'a mut Vec<Move>,
}

impl Jumps<'_> {
    #[inline(always)]
    fn emit(&mut self, depth: usize, captured: Bitboard, promotion: bool) {
        self.out.push(Move::capture(
            self.from,
            &self.landings[..depth],
            captured,
            promotion,
        ));
    }
}

fn captures<R: Rules>(pos: &Position, out: &mut Vec<Move>, counting: Counting) {
    if !has_capture::<R>(pos) {
        return;
    }
    let us = pos.side();
    let occupied = pos.occupied();
    let mut jumps = Jumps {
        them: pos.pieces(us.opponent()),
        empty: 0,
        crown: us.crown_row(),
        color: us,
        from: Square::from_index(0),
        landings: [Square::from_index(0); MAX_JUMPS],
        out,
    };
    for man in BitIter(pos.men(us)) {
        jumps.from = Square::from_bit(man);
        jumps.empty = crate::bitboard::BOARD & !occupied | man;
        man_jumps::<R>(&mut jumps, man, 0, 0);
    }
    for king in BitIter(pos.kings_of(us)) {
        jumps.from = Square::from_bit(king);
        jumps.empty = crate::bitboard::BOARD & !occupied | king;
        king_jumps::<R>(&mut jumps, king, 0, 0, false);
    }
    if counting == Counting::Unique && jumps.out.len() > 1 {
        dedup_same_effect(jumps.out);
    }
}

/// Walks the jumps of a man standing on `at` after `depth` jumps that took `captured`; emits
/// every finished sequence and returns whether any jump was possible from here.
fn man_jumps<R: Rules>(j: &mut Jumps, at: Bitboard, captured: Bitboard, depth: usize) -> bool {
    let forward = j.color.forward();
    let dirs: &[Dir] = if R::MEN_CAPTURE_BACKWARDS {
        &Dir::ALL
    } else {
        &forward
    };
    let mut found = false;
    for &d in dirs {
        let victim = d.shift(at) & j.them & !captured;
        let land = d.shift(victim) & j.empty;
        if land == 0 {
            continue;
        }
        found = true;
        let taken = captured | victim;
        j.landings[depth] = Square::from_bit(land);
        if land & j.crown != 0 {
            // Crowned on the way: english ends the move here, russian goes on as a king.
            if R::CROWNING_ENDS_CAPTURE || !king_jumps::<R>(j, land, taken, depth + 1, true) {
                j.emit(depth + 1, taken, true);
            }
        } else if !man_jumps::<R>(j, land, taken, depth + 1) {
            j.emit(depth + 1, taken, false);
        }
    }
    found
}

/// Walks the jumps of a king (or a man just crowned, `promotion`) on `at`; emits finished
/// sequences and returns whether any jump was possible from here.
fn king_jumps<R: Rules>(
    j: &mut Jumps,
    at: Bitboard,
    captured: Bitboard,
    depth: usize,
    promotion: bool,
) -> bool {
    let mut found = false;
    for d in Dir::ALL {
        let mut victim = d.shift(at);
        if R::FLYING_KINGS {
            while victim & j.empty != 0 {
                victim = d.shift(victim);
            }
        }
        victim &= j.them & !captured;
        let mut land = d.shift(victim) & j.empty;
        if land == 0 {
            continue;
        }
        found = true;
        let taken = captured | victim;
        if !R::FLYING_KINGS {
            j.landings[depth] = Square::from_bit(land);
            if !king_jumps::<R>(j, land, taken, depth + 1, promotion) {
                j.emit(depth + 1, taken, promotion);
            }
            continue;
        }
        // A flying king may stop on any empty square beyond the victim, but where some of those
        // squares let the capture go on it must stop on one of them (RULES.md, russian).
        let mut stops: [Bitboard; 8] = [0; 8];
        let mut n_stops = 0;
        let mut continued = false;
        while land != 0 {
            j.landings[depth] = Square::from_bit(land);
            if king_jumps::<R>(j, land, taken, depth + 1, promotion) {
                continued = true;
            } else {
                stops[n_stops] = land;
                n_stops += 1;
            }
            land = d.shift(land) & j.empty;
        }
        if !continued {
            for &stop in &stops[..n_stops] {
                j.landings[depth] = Square::from_bit(stop);
                j.emit(depth + 1, taken, promotion);
            }
        }
    }
    found
}

impl crate::variant::Variant {
    /// The legal moves of `pos` under this variant's rules, in a new vector.
    pub fn moves(self, pos: &Position, counting: Counting) -> Vec<Move> {
        let mut out = Vec::with_capacity(32);
        crate::with_rules!(self, R => generate::<R>(pos, &mut out, counting));
        out
    }

    /// The legal moves of `pos`, one per distinct effect.
    pub fn legal_moves(self, pos: &Position) -> Vec<Move> {
        self.moves(pos, Counting::Unique)
    }

    /// Whether the side to move must capture.
    pub fn has_capture(self, pos: &Position) -> bool {
        crate::with_rules!(self, R => has_capture::<R>(pos))
    }
}
