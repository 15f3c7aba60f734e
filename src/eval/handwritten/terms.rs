//! The terms of the evaluation: what each side's pieces are worth by material, squares,
//! mobility and the patterns below, each named by `Term`. A new term is a `Term`, a weight in
//! `weights.rs` and a `t.add` here.

use super::tables::{
    back_guard, group_index, man_squares, BACK_GROUP, CENTRE, CONES, DOUBLE_CORNERS, EDGES,
    GUARDED, LEFT_WING, MAN_SQUARES, OWN_RANK, RUNAWAY,
};
use super::weights::{Weights, WEIGHTS};
use crate::bitboard::{self, BitIter, Bitboard, Color, Dir, Square, MAIN_ROAD};
use crate::position::Position;
use crate::variant::Rules;

/// The terms of the evaluation, in the order `evaluate_terms` lists them (tools such as
/// `scripts/training/tune.py` read them by position: keep new terms at the end).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// Men and kings at their worth.
    Material,
    /// Kings' extra worth as the board empties.
    KingStrength,
    /// Each man by its square (tempo and placement).
    ManSquares,
    /// Men kept on the back rank while the opponent has men.
    BackRank,
    /// Kings in the centre or on the edge.
    KingPlacement,
    /// Squares the men and kings can move to.
    Mobility,
    /// Men no enemy piece can stop.
    Runaway,
    /// Men one step from crowning with a free square.
    Breakthroughs,
    /// Kings with no move.
    TrappedKings,
    /// Kings in a double corner when behind.
    DoubleCorner,
    /// Kings on the main road (flying kings).
    MainRoad,
    /// Trading down when ahead.
    Exchanges,
    /// Kings chasing bare enemy kings.
    Hunt,
    /// Men with a piece behind them.
    Support,
    /// Men crowded on one wing.
    Balance,
}

impl Term {
    /// How many terms there are.
    pub const COUNT: usize = 15;

    /// Every term, in order.
    pub const ALL: [Term; Term::COUNT] = [
        Term::Material,
        Term::KingStrength,
        Term::ManSquares,
        Term::BackRank,
        Term::KingPlacement,
        Term::Mobility,
        Term::Runaway,
        Term::Breakthroughs,
        Term::TrappedKings,
        Term::DoubleCorner,
        Term::MainRoad,
        Term::Exchanges,
        Term::Hunt,
        Term::Support,
        Term::Balance,
    ];

    /// The term's name in the breakdown (`eval` in the protocol).
    pub const fn name(self) -> &'static str {
        match self {
            Term::Material => "material",
            Term::KingStrength => "king strength",
            Term::ManSquares => "man squares",
            Term::BackRank => "back rank",
            Term::KingPlacement => "king placement",
            Term::Mobility => "mobility",
            Term::Runaway => "runaway men",
            Term::Breakthroughs => "breakthroughs",
            Term::TrappedKings => "trapped kings",
            Term::DoubleCorner => "double corner",
            Term::MainRoad => "main road",
            Term::Exchanges => "exchanges",
            Term::Hunt => "hunt",
            Term::Support => "support",
            Term::Balance => "balance",
        }
    }
}

// `ByTerm` indexes by discriminant: `ALL` must list the terms in that order.
const _: () = {
    let mut i = 0;
    while i < Term::COUNT {
        assert!(Term::ALL[i] as usize == i, "Term::ALL is out of order");
        i += 1;
    }
};

/// Where the terms go: the search wants only their sum, `eval` on the command line wants each.
/// One generic body serves both, and for `Total` the compiler drops the terms' names.
pub(super) trait TermSink {
    /// Whether the terms are kept apart; if not, terms may be summed before they are added.
    const APART: bool;
    fn add(&mut self, term: Term, value: i32);
}

/// The sum of the terms.
pub(super) struct Total(pub(super) i32);

impl TermSink for Total {
    const APART: bool = false;
    #[inline(always)]
    fn add(&mut self, _term: Term, value: i32) {
        self.0 += value;
    }
}

/// Each term apart, indexed by `Term`.
pub(super) struct ByTerm(pub(super) [i32; Term::COUNT]);

impl TermSink for ByTerm {
    const APART: bool = true;
    #[inline(always)]
    fn add(&mut self, term: Term, value: i32) {
        self.0[term as usize] += value;
    }
}

/// The material of one side.
#[inline(always)]
fn material(w: &Weights, men: Bitboard, kings: Bitboard) -> i32 {
    men.count_ones() as i32 * w.man + kings.count_ones() as i32 * w.king
}

/// The squares a king on `king` can move to over `empty`: one king at a time, the plain way
/// that `kings_mobility` must agree with.
#[cfg(test)]
fn king_moves<R: Rules>(king: Bitboard, empty: Bitboard) -> Bitboard {
    let mut to = 0;
    for d in Dir::ALL {
        // `empty` lies on the board, so the unmasked step is enough.
        let mut front = d.step(king) & empty;
        while front != 0 {
            to |= front;
            front = if R::FLYING_KINGS {
                d.step(front) & empty
            } else {
                0
            };
        }
    }
    to
}

/// The moves of all of a side's `kings` over `empty`, counted per king and summed, and how many
/// of them have no move; for every king at once. A flying king's ray in one direction stops at
/// the first piece, so two kings' rays in the same direction never meet: one flood per direction
/// from all the kings counts each king's moves once. A king has a move if and only if a
/// neighbouring square is empty, flying or not. `kings` must not be empty.
#[inline(always)]
fn kings_mobility<R: Rules>(kings: Bitboard, empty: Bitboard) -> (u32, u32) {
    debug_assert!(kings != 0);
    let mut moves = 0;
    for d in Dir::ALL {
        // `empty` and `kings` lie on the board, so unmasked steps are enough.
        let mut front = d.step(kings) & empty;
        if R::FLYING_KINGS {
            let mut to = 0;
            while front != 0 {
                to |= front;
                front = d.step(front) & empty;
            }
            front = to;
        }
        moves += front.count_ones();
    }
    // Most often there is one king, and then the count says whether it is trapped.
    let trapped = if kings & kings.wrapping_sub(1) == 0 {
        (moves == 0) as u32
    } else {
        let free = Dir::ALL.iter().fold(0, |free, d| free | d.step_back(empty));
        (kings & !free).count_ones()
    };
    (moves, trapped)
}

/// Chebyshev distance between two squares.
fn distance(a: Square, b: Square) -> i32 {
    (a.row() as i32 - b.row() as i32)
        .abs()
        .max((a.file() as i32 - b.file() as i32).abs())
}

/// Adds the terms of `color`'s pieces to `t`, with `sign` +1 or -1, and returns the side's
/// material. Every mask is the one seen from `color`'s side, so both sides are scored by the
/// same rules (the symmetry test checks it).
#[inline(always)]
fn side_terms<R: Rules, T: TermSink>(
    w: &Weights,
    pos: &Position,
    color: Color,
    pieces: u32,
    t: &mut T,
    sign: i32,
) -> i32 {
    let c = color.index();
    let (men, kings) = (pos.men(color), pos.kings_of(color));
    let (opp_men, opp_kings) = (pos.men(color.opponent()), pos.kings_of(color.opponent()));
    let opp = opp_men | opp_kings;
    let empty = pos.empty();
    let n_kings = kings.count_ones() as i32;
    let n_men = men.count_ones() as i32;
    let ranks = &OWN_RANK[c];
    let [fwd_a, fwd_b] = color.forward();
    let own_material = material(w, men, kings);
    let opp_material = material(w, opp_men, opp_kings);

    t.add(Term::Material, sign * own_material);
    if T::APART {
        t.add(Term::ManSquares, sign * man_squares(w, c, men));
        if opp_men != 0 {
            t.add(Term::BackRank, sign * back_guard(w, c, men));
        }
    } else {
        // The men's squares and the back guard in one table of weights by square:
        // four loads, the back rank's group with the guard added when it counts.
        let table = &MAN_SQUARES[R::TUNED_AS as usize][c];
        let bg = BACK_GROUP[c];
        let back = if opp_men != 0 {
            &GUARDED[R::TUNED_AS as usize][c]
        } else {
            &table.0[bg]
        };
        let mut by_square = back[group_index(bg, men)];
        for g in 0..4 {
            if g != bg {
                by_square += table.group(g, men);
            }
        }
        debug_assert_eq!(
            by_square,
            man_squares(w, c, men)
                + if opp_men != 0 {
                    back_guard(w, c, men)
                } else {
                    0
                }
        );
        t.add(Term::ManSquares, sign * by_square);
    }
    let man_steps =
        (fwd_a.shift(men) & empty).count_ones() + (fwd_b.shift(men) & empty).count_ones();
    let mut mobility = man_steps as i32 * w.mobility_man;
    // Support: a man with a piece of its side behind it (a step back in either forward
    // direction), or on the back rank, where nothing can jump it from the front.
    let own = men | kings;
    let supported = men & (fwd_a.shift(own) | fwd_b.shift(own) | ranks[0]);
    t.add(
        Term::Support,
        sign * supported.count_ones() as i32 * w.supported_man,
    );
    // Balance: the same from either side, since turning the board round swaps the wings.
    let left = (men & LEFT_WING).count_ones() as i32;
    t.add(Term::Balance, sign * (2 * left - n_men).abs() * w.imbalance);
    if kings != 0 {
        t.add(
            Term::KingStrength,
            sign * (n_kings * w.king_endgame * (24 - pieces.min(24) as i32) / 22),
        );
        let placement = (kings & CENTRE).count_ones() as i32 * w.centre_king
            + (kings & EDGES).count_ones() as i32 * w.edge_king;
        t.add(Term::KingPlacement, sign * placement);
        let (moves, trapped) = kings_mobility::<R>(kings, empty);
        mobility += moves as i32 * w.mobility_king;
        let trapped = trapped as i32 * w.trapped_king;
        t.add(Term::TrappedKings, sign * trapped);
        if own_material < opp_material {
            t.add(
                Term::DoubleCorner,
                sign * (kings & DOUBLE_CORNERS).count_ones() as i32 * w.double_corner,
            );
        }
        if kings & MAIN_ROAD != 0 {
            let road = w.main_road
                + if opp_kings & MAIN_ROAD == 0 {
                    w.main_road_alone
                } else {
                    0
                };
            t.add(Term::MainRoad, sign * road);
        }
        // The hunt: the side ahead against bare kings brings its kings close to them.
        if opp_men == 0 && opp_kings != 0 && own_material > opp_material {
            let mut hunt = 0;
            for king in bitboard::squares(kings) {
                let nearest = bitboard::squares(opp_kings)
                    .map(|e| distance(king, e))
                    .min()
                    .unwrap_or(0);
                hunt -= nearest * w.chase;
            }
            t.add(Term::Hunt, sign * hunt);
        }
    }
    t.add(Term::Mobility, sign * mobility);
    // A runaway man: no enemy piece in its forward cone and no enemy king to come back.
    if opp_kings == 0 {
        let mut runaway = 0;
        for man in BitIter(men & (ranks[4] | ranks[5] | ranks[6])) {
            let bit = man.trailing_zeros() as usize;
            if CONES[c][bit] & opp == 0 {
                let worth = RUNAWAY[R::TUNED_AS as usize][c][bit];
                debug_assert_eq!(
                    worth,
                    w.runaway
                        - w.runaway_per_rank
                            * if man & ranks[6] != 0 {
                                1
                            } else if man & ranks[5] != 0 {
                                2
                            } else {
                                3
                            }
                );
                runaway += worth;
            }
        }
        t.add(Term::Runaway, sign * runaway);
    }
    // A man one step from crowning is rare: most evaluations skip the test.
    let near_crown = men & ranks[6];
    if near_crown != 0 {
        let crown_free = (fwd_a.shift(near_crown) | fwd_b.shift(near_crown)) & empty;
        t.add(
            Term::Breakthroughs,
            sign * crown_free.count_ones() as i32 * w.breakthrough,
        );
    }
    own_material
}

/// Every term from White's view, into `t`.
#[inline(always)]
pub(super) fn white_terms<R: Rules, T: TermSink>(pos: &Position, t: &mut T) {
    let w = &WEIGHTS[R::TUNED_AS as usize];
    let pieces = pos.piece_count();
    let white = side_terms::<R, T>(w, pos, Color::White, pieces, t, 1);
    let black = side_terms::<R, T>(w, pos, Color::Black, pieces, t, -1);
    // Trading down when ahead: the lead counts for more with fewer pieces left.
    t.add(
        Term::Exchanges,
        (white - black) * w.exchange / (pieces as i32 + 4),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::BOARD;

    #[test]
    fn kings_mobility_counts_king_by_king() {
        fn check<R: Rules>(kings: Bitboard, empty: Bitboard) {
            let by_king: Vec<u32> = BitIter(kings)
                .map(|k| king_moves::<R>(k, empty).count_ones())
                .collect();
            let trapped = by_king.iter().filter(|&&n| n == 0).count() as u32;
            assert_eq!(
                kings_mobility::<R>(kings, empty),
                (by_king.iter().sum(), trapped),
                "kings {kings:#x} empty {empty:#x}"
            );
        }
        let mut seed = 0x5DEE_CE66_D1CE_u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed ^ seed >> 31
        };
        for _ in 0..20000 {
            // Sparse and dense boards alike: kings and other pieces drawn with varying odds.
            let (a, b, c) = (next(), next(), next());
            let occupied = (a & b | if c & 1 == 0 { c } else { 0 }) & BOARD;
            let kings = occupied & next() & next();
            if kings == 0 {
                continue;
            }
            let empty = BOARD & !occupied;
            check::<crate::variant::Russian>(kings, empty);
            check::<crate::variant::English>(kings, empty);
        }
    }
}
