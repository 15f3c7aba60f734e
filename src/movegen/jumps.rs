//! The capture walker: the jump tree of each piece, written once over the `Rules` and the side to
//! move, reporting each finished sequence to a `Sink`. One sink builds `Move`s for the public
//! generator, another builds the next positions for perft; both share every rule decision here.
//!
//! Sequences follow the Turkish-strike rule in both variants: captured pieces stay on the board
//! (blocking the path) until the move ends and cannot be jumped twice, while the square the moving
//! piece left is empty from the first jump on.

use super::{rays, Board};
use crate::bitboard::{BitIter, Bitboard, Dir, Side, Square};
use crate::moves::{dedup_same_effect_from, Move, MAX_JUMPS};
use crate::variant::{CaptureFacts, Rules};

/// Receives the capture sequences of one piece after another.
pub(crate) trait Sink {
    /// Whether `leaf` reads the landing squares; recording them costs a little on every jump.
    const NEEDS_PATH: bool;
    /// The walk of the piece on `from` (a king if `king`) starts.
    fn begin_piece(&mut self, from: Bitboard, king: bool);
    /// A finished sequence of the current piece: `landings` (empty unless `NEEDS_PATH`), the end
    /// square `to`, the pieces taken and whether a man was crowned.
    fn leaf(&mut self, landings: &[Square], to: Bitboard, captured: Bitboard, promotion: bool);
    /// The walk of the current piece is over; `multi` says whether some sequence made more than
    /// one jump. Only then can two paths have the same effect, and only paths of the same piece.
    fn end_piece(&mut self, multi: bool);
    /// Forgets every sequence reported so far: one of a higher rank has been found
    /// (`Rules::RANKED_CAPTURES`).
    fn clear(&mut self);
}

/// Calls `f` with each direction in which men capture, unrolled so that every step inside `f`
/// is by a constant.
#[inline(always)]
pub(crate) fn each_man_capture_dir<R: Rules, S: Side>(mut f: impl FnMut(Dir)) {
    if R::MEN_CAPTURE_BACKWARDS {
        f(Dir::UpLeft);
        f(Dir::UpRight);
        f(Dir::DownLeft);
        f(Dir::DownRight);
    } else {
        f(S::FORWARD[0]);
        f(S::FORWARD[1]);
    }
}

/// The pieces men may capture among the opponent's `them`, given the `kings` of both sides.
#[inline(always)]
pub(crate) fn prey_of_men<R: Rules>(them: Bitboard, kings: Bitboard) -> Bitboard {
    if R::MEN_TAKE_KINGS {
        them
    } else {
        them & !kings
    }
}

/// The men of `men` that can make a first jump over `them` (the pieces they may take) onto
/// `empty`.
#[inline(always)]
pub(crate) fn men_that_capture<R: Rules, S: Side>(
    men: Bitboard,
    them: Bitboard,
    empty: Bitboard,
) -> Bitboard {
    let mut from = 0;
    each_man_capture_dir::<R, S>(|d| from |= d.step_back(d.step_back(empty) & them));
    from & men
}

/// Whether one of `kings` can capture over `them` onto `empty`.
#[inline(always)]
pub(crate) fn kings_can_capture<R: Rules>(
    kings: Bitboard,
    them: Bitboard,
    empty: Bitboard,
) -> bool {
    if !R::FLYING_KINGS {
        for d in Dir::ALL {
            if d.step(d.step(kings) & them) & empty != 0 {
                return true;
            }
        }
        return false;
    }
    // Per king (kings are few), the first piece on each of its rays.
    BitIter(kings).any(|king| king_can_jump::<R>(king, them, empty))
}

/// Whether the king `king` can jump one of `victims` onto `empty` (captured pieces are not
/// empty: they block).
#[inline(always)]
fn king_can_jump<R: Rules>(king: Bitboard, victims: Bitboard, empty: Bitboard) -> bool {
    let at = king.trailing_zeros();
    let mut lands = 0;
    for d in Dir::ALL {
        let hit = if R::FLYING_KINGS {
            rays::first(d, rays::ray(d, at) & !empty)
        } else {
            d.step(king)
        };
        lands |= d.step(hit & victims);
    }
    lands & empty != 0
}

/// Walks the captures of the men in `men` and the kings in `kings` (pieces of the side `S` to
/// move on `b`), men first, lowest square first. Men that cannot jump at all may be left out of
/// `men` by the caller; kings are tried one by one.
pub(crate) fn walk_pieces<R: Rules, S: Side, K: Sink>(
    b: &Board,
    men: Bitboard,
    kings: Bitboard,
    sink: &mut K,
) {
    let empty = b.empty();
    let mut j = Jumps {
        them: b.them,
        prey: prey_of_men::<R>(b.them, b.kings),
        their_kings: b.them & b.kings,
        empty,
        landings: [Square::from_index(0); MAX_JUMPS],
        victims: [0; MAX_JUMPS],
        multi: false,
        by_king: false,
        best: 0,
        sink,
    };
    for man in BitIter(men) {
        j.start(man, empty, false);
        man_jumps_inline::<R, S, K>(&mut j, man, 0, 0);
        j.sink.end_piece(j.multi);
    }
    for king in BitIter(kings) {
        j.start(king, empty, true);
        king_jumps_inline::<R, K>(&mut j, king, 0, 0, false);
        j.sink.end_piece(j.multi);
    }
}

/// The pieces of the side `S` to move on `b` from which a capture may start: the men that can
/// make a first jump, and every king if one of them can. Empty exactly when there is no capture.
#[inline(always)]
pub(crate) fn capturing_pieces<R: Rules, S: Side>(b: &Board) -> Bitboard {
    let empty = b.empty();
    let men = men_that_capture::<R, S>(b.us & !b.kings, prey_of_men::<R>(b.them, b.kings), empty);
    let kings = b.us & b.kings;
    // One test over all kings at once is cheaper than walking each king's rays for nothing,
    // which is the usual case.
    if kings != 0 && kings_can_capture::<R>(kings, b.them, empty) {
        men | kings
    } else {
        men
    }
}

/// Walks every capture of the side `S` to move on `b`.
#[inline]
pub(crate) fn walk_captures<R: Rules, S: Side, K: Sink>(b: &Board, sink: &mut K) {
    let from = capturing_pieces::<R, S>(b);
    if from != 0 {
        walk_pieces::<R, S, K>(b, from & !b.kings, from & b.kings, sink);
    }
}

/// The state of the walk of one piece's jump tree.
struct Jumps<'a, K> {
    /// Opponent pieces, captured or not (captured ones stay on the board until the move ends).
    them: Bitboard,
    /// Those of them that men may take (`Rules::MEN_TAKE_KINGS`).
    prey: Bitboard,
    /// The opponent's kings.
    their_kings: Bitboard,
    /// Squares a piece may land on or pass over: empty at the start, plus the mover's origin.
    empty: Bitboard,
    landings: [Square; MAX_JUMPS],
    /// The piece taken by each jump, kept only for `Rules::RANKED_CAPTURES`.
    victims: [Bitboard; MAX_JUMPS],
    /// Whether a sequence of two or more jumps has been reported for this piece.
    multi: bool,
    /// Whether the current piece is a king.
    by_king: bool,
    /// The highest rank reported so far, for `Rules::RANKED_CAPTURES`.
    best: u32,
    sink: &'a mut K,
}

impl<K: Sink> Jumps<'_, K> {
    #[inline(always)]
    fn start(&mut self, piece: Bitboard, empty: Bitboard, king: bool) {
        self.empty = empty | piece;
        self.multi = false;
        self.by_king = king;
        self.sink.begin_piece(piece, king);
    }

    #[inline(always)]
    fn land(&mut self, depth: usize, at: Bitboard) {
        if K::NEEDS_PATH {
            self.landings[depth] = Square::from_bit(at);
        }
    }

    /// Records the piece taken by jump number `depth`, where the ranking reads it.
    #[inline(always)]
    fn take<R: Rules>(&mut self, depth: usize, victim: Bitboard) {
        if R::RANKED_CAPTURES {
            self.victims[depth] = victim;
        }
    }

    #[inline(always)]
    fn emit<R: Rules>(&mut self, depth: usize, to: Bitboard, captured: Bitboard, promotion: bool) {
        if R::RANKED_CAPTURES {
            let mut kings_at = 0u32;
            for (i, &v) in self.victims[..depth].iter().enumerate() {
                if v & self.their_kings != 0 {
                    kings_at |= 1 << i;
                }
            }
            let rank = R::capture_rank(&CaptureFacts {
                taken: depth as u32,
                kings_taken: (captured & self.their_kings).count_ones(),
                by_king: self.by_king,
                first_king_at: if kings_at == 0 {
                    u32::MAX
                } else {
                    kings_at.trailing_zeros()
                },
                kings_at,
            });
            if rank < self.best {
                return;
            }
            if rank > self.best {
                self.best = rank;
                self.sink.clear();
                // The sequences of the current piece reported so far went with the rest.
                self.multi = false;
            }
        }
        self.multi |= depth > 1;
        let path = if K::NEEDS_PATH {
            &self.landings[..depth]
        } else {
            &[]
        };
        self.sink.leaf(path, to, captured, promotion);
    }
}

/// Walks the jumps of a man standing on `at` after `depth` jumps that took `captured`; emits
/// every finished sequence and returns whether any jump was possible from here.
fn man_jumps<R: Rules, S: Side, K: Sink>(
    j: &mut Jumps<K>,
    at: Bitboard,
    captured: Bitboard,
    depth: usize,
) -> bool {
    man_jumps_inline::<R, S, K>(j, at, captured, depth)
}

/// The body of `man_jumps`, inlined into `walk_pieces`: most men jump once, and then the first
/// level is all there is to walk, without a call.
#[inline(always)]
fn man_jumps_inline<R: Rules, S: Side, K: Sink>(
    j: &mut Jumps<K>,
    at: Bitboard,
    captured: Bitboard,
    depth: usize,
) -> bool {
    // Spelled out rather than looped so that each direction's steps are by constants (a closure
    // here would not be inlined, since it recurses).
    if R::MEN_CAPTURE_BACKWARDS {
        man_jump::<R, S, K>(j, at, captured, depth, Dir::UpLeft)
            | man_jump::<R, S, K>(j, at, captured, depth, Dir::UpRight)
            | man_jump::<R, S, K>(j, at, captured, depth, Dir::DownLeft)
            | man_jump::<R, S, K>(j, at, captured, depth, Dir::DownRight)
    } else {
        man_jump::<R, S, K>(j, at, captured, depth, S::FORWARD[0])
            | man_jump::<R, S, K>(j, at, captured, depth, S::FORWARD[1])
    }
}

/// The jump of a man on `at` in direction `d`, if there is one, and the sequences that follow.
#[inline(always)]
fn man_jump<R: Rules, S: Side, K: Sink>(
    j: &mut Jumps<K>,
    at: Bitboard,
    captured: Bitboard,
    depth: usize,
    d: Dir,
) -> bool {
    let victim = d.step(at) & j.prey & !captured;
    let land = d.step(victim) & j.empty;
    if land == 0 {
        return false;
    }
    let taken = captured | victim;
    j.land(depth, land);
    j.take::<R>(depth, victim);
    if land & S::CROWN != 0 && !R::CROWNED_ONLY_AT_END {
        // Crowned on the way: english ends the move here, russian goes on as a king.
        if R::CROWNING_ENDS_CAPTURE
            || !(king_can_jump::<R>(land, j.them & !taken, j.empty)
                && king_jumps::<R, K>(j, land, taken, depth + 1, true))
        {
            j.emit::<R>(depth + 1, land, taken, true);
        }
    } else if men_that_capture::<R, S>(land, j.prey & !taken, j.empty) != 0 {
        // Tested first because most sequences end here, and the test is cheaper than a call.
        // Where `CROWNED_ONLY_AT_END`, a man on the king row that can capture on goes on as a
        // man.
        man_jumps::<R, S, K>(j, land, taken, depth + 1);
    } else {
        j.emit::<R>(depth + 1, land, taken, land & S::CROWN != 0);
    }
    true
}

/// Walks the jumps of a king (or a man just crowned, `promotion`) on `at`; emits finished
/// sequences and returns whether any jump was possible from here.
fn king_jumps<R: Rules, K: Sink>(
    j: &mut Jumps<K>,
    at: Bitboard,
    captured: Bitboard,
    depth: usize,
    promotion: bool,
) -> bool {
    king_jumps_inline::<R, K>(j, at, captured, depth, promotion)
}

/// The body of `king_jumps`, inlined into `walk_pieces` for the first level, as for men.
#[inline(always)]
fn king_jumps_inline<R: Rules, K: Sink>(
    j: &mut Jumps<K>,
    at: Bitboard,
    captured: Bitboard,
    depth: usize,
    promotion: bool,
) -> bool {
    let mut found = false;
    for d in Dir::ALL {
        let mut victim = d.step(at);
        if R::FLYING_KINGS {
            while victim & j.empty != 0 {
                victim = d.step(victim);
            }
        }
        victim &= j.them & !captured;
        let mut land = d.step(victim) & j.empty;
        if land == 0 {
            continue;
        }
        found = true;
        let taken = captured | victim;
        j.take::<R>(depth, victim);
        if !R::FLYING_KINGS {
            j.land(depth, land);
            if !(king_can_jump::<R>(land, j.them & !taken, j.empty)
                && king_jumps::<R, K>(j, land, taken, depth + 1, promotion))
            {
                j.emit::<R>(depth + 1, land, taken, promotion);
            }
            continue;
        }
        // A flying king may stop on any empty square beyond the victim, but where some of those
        // squares let the capture go on it must stop on one of them (docs/RULES.md, russian).
        let mut stops: [Bitboard; 8] = [0; 8];
        let mut n_stops = 0;
        let mut continued = false;
        while land != 0 {
            j.land(depth, land);
            // The test by rays is cheaper than a call that finds nothing, the usual case.
            if king_can_jump::<R>(land, j.them & !taken, j.empty)
                && king_jumps::<R, K>(j, land, taken, depth + 1, promotion)
            {
                continued = true;
            } else {
                stops[n_stops] = land;
                n_stops += 1;
            }
            land = d.step(land) & j.empty;
        }
        if !continued {
            for &stop in &stops[..n_stops] {
                j.land(depth, stop);
                j.take::<R>(depth, victim);
                j.emit::<R>(depth + 1, stop, taken, promotion);
            }
        }
    }
    found
}

/// Builds `Move`s, keeping one path per effect when counting `Unique`. Without `PATHS` the
/// moves carry no landing squares: the search reads only a move's effect, and the path of a
/// move it reports is restored from a full generation (`search::iterate::verified`).
pub(crate) struct MoveSink<'a, const PATHS: bool> {
    pub out: &'a mut Vec<Move>,
    pub unique: bool,
    from: Square,
    start: usize,
    /// The length of `out` before the walk: moves before it are not this walk's.
    base: usize,
}

impl<'a, const PATHS: bool> MoveSink<'a, PATHS> {
    pub fn new(out: &'a mut Vec<Move>, unique: bool) -> Self {
        let base = out.len();
        MoveSink {
            out,
            unique,
            from: Square::from_index(0),
            start: base,
            base,
        }
    }
}

impl<const PATHS: bool> Sink for MoveSink<'_, PATHS> {
    const NEEDS_PATH: bool = PATHS;

    #[inline(always)]
    fn begin_piece(&mut self, from: Bitboard, _king: bool) {
        self.from = Square::from_bit(from);
        self.start = self.out.len();
    }

    #[inline(always)]
    fn leaf(&mut self, landings: &[Square], to: Bitboard, captured: Bitboard, promotion: bool) {
        let mv = if PATHS {
            Move::capture(self.from, landings, captured, promotion)
        } else {
            Move::capture_to(self.from, Square::from_bit(to), captured, promotion)
        };
        self.out.push(mv);
    }

    #[inline(always)]
    fn end_piece(&mut self, multi: bool) {
        if self.unique && multi {
            dedup_same_effect_from(self.out, self.start);
        }
    }

    #[inline(always)]
    fn clear(&mut self) {
        self.out.truncate(self.base);
        self.start = self.base;
    }
}

/// Builds the positions after each capture, seen from the opponent, keeping one per effect when
/// counting `Unique`. Within one piece's sequences equal positions mean equal effects.
pub(crate) struct ChildSink<'a> {
    board: Board,
    out: &'a mut Vec<Board>,
    unique: bool,
    from: Bitboard,
    king: bool,
    start: usize,
    /// The length of `out` before the walk.
    base: usize,
}

impl<'a> ChildSink<'a> {
    pub fn new(board: Board, out: &'a mut Vec<Board>, unique: bool) -> Self {
        let base = out.len();
        ChildSink {
            board,
            out,
            unique,
            from: 0,
            king: false,
            start: base,
            base,
        }
    }
}

impl Sink for ChildSink<'_> {
    const NEEDS_PATH: bool = false;

    #[inline(always)]
    fn begin_piece(&mut self, from: Bitboard, king: bool) {
        self.from = from;
        self.king = king;
        self.start = self.out.len();
    }

    #[inline(always)]
    fn leaf(&mut self, _landings: &[Square], to: Bitboard, captured: Bitboard, promotion: bool) {
        self.out.push(
            self.board
                .after(self.from, to, captured, self.king || promotion),
        );
    }

    #[inline(always)]
    fn end_piece(&mut self, multi: bool) {
        if self.unique && multi {
            let mut kept = self.start;
            for i in self.start..self.out.len() {
                let b = self.out[i];
                if !self.out[self.start..kept].contains(&b) {
                    self.out[kept] = b;
                    kept += 1;
                }
            }
            self.out.truncate(kept);
        }
    }

    #[inline(always)]
    fn clear(&mut self) {
        self.out.truncate(self.base);
        self.start = self.base;
    }
}
