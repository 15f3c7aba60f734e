//! The static evaluation: one hand-crafted evaluation for both variants, generic over `Rules`,
//! with every weight in one table per variant (`WEIGHTS`) so that a tuning pass can change them.
//!
//! Each side is scored by the same function, Black on the board turned round (`bitboard::flip`)
//! so that it too "moves up"; the evaluation is White's terms minus Black's, from the side to
//! move's view. That makes it symmetric by construction: mirroring the colours negates White's
//! score, which the test at the bottom checks on positions from random games.

use crate::bitboard::{self, square_set, BitIter, Bitboard, Color, Dir, Square, BOARD, MAIN_ROAD};
use crate::position::Position;
use crate::variant::{Rules, Variant};

/// The weights of one variant's evaluation, in centi-men.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// A man.
    pub man: i32,
    /// A king (the variants differ most here: a flying king is worth far more).
    pub king: i32,
    /// Extra worth of a king as the board empties, at full scale with two pieces left.
    pub king_endgame: i32,
    /// A man by square, from its own side: the board as White sees it, rank 8 first, so
    /// `man_square[row][k]` is a White man on square `4 * row + k + 1` and a Black man on the
    /// square turned round (33 less that). Tempo and placement in one table; the board is not
    /// symmetric left to right (double and single corners), so each square has its own weight.
    /// Row 0, where a man is crowned, stays 0.
    pub man_square: [[i32; 4]; 8],
    /// A man still on each square of its back rank (a1, c1, e1, g1 from White's side) while
    /// the opponent has men that could crown.
    pub back_guard: [i32; 4],
    /// A man with a piece of its side diagonally behind it, or on its back rank: it cannot be
    /// jumped from the front.
    pub supported_man: i32,
    /// Each man by which one wing (files a-d or e-h) outnumbers the other: a side crowded on
    /// one wing is weak on the other.
    pub imbalance: i32,
    /// A king on one of the four central squares.
    pub centre_king: i32,
    /// A king on the a- or h-file.
    pub edge_king: i32,
    /// Each square a man can step to.
    pub mobility_man: i32,
    /// Each square a king can move to.
    pub mobility_king: i32,
    /// A man no enemy piece can stop, less `runaway_per_rank` for each rank still to go.
    pub runaway: i32,
    /// See `runaway`.
    pub runaway_per_rank: i32,
    /// A man one step from crowning with a free crowning square.
    pub breakthrough: i32,
    /// A king with no move at all.
    pub trapped_king: i32,
    /// A king in a double corner when its side is behind in material (the drawing refuge).
    pub double_corner: i32,
    /// A king on the main road (flying kings).
    pub main_road: i32,
    /// Extra for holding the main road when no enemy king is on it.
    pub main_road_alone: i32,
    /// Material lead bonus per centi-man of lead, divided by the pieces on the board: trade down.
    pub exchange: i32,
    /// When the opponent has only kings and is behind: penalty per square of distance from
    /// each of our kings to the nearest enemy king (the hunt).
    pub chase: i32,
}

/// The russian weights, fitted to self-play games by `scripts/tune.py` (how: docs/TUNING.md).
pub const RUSSIAN: Weights = Weights {
    man: 100,
    king: 250,
    king_endgame: 30,
    man_square: [
        [0, 0, 0, 0],
        [39, 31, 31, 41],
        [36, 40, 38, 47],
        [24, 26, 13, 19],
        [-4, 20, 29, 21],
        [-3, -1, 20, 0],
        [-11, 19, 18, 12],
        [-36, -7, 26, 25],
    ],
    back_guard: [8, 20, 20, 4],
    supported_man: 11,
    imbalance: -23,
    centre_king: 11,
    edge_king: -11,
    mobility_man: 4,
    mobility_king: 4,
    runaway: 180,
    runaway_per_rank: 18,
    breakthrough: 80,
    trapped_king: -40,
    double_corner: 20,
    main_road: 30,
    main_road_alone: 45,
    exchange: 2,
    chase: 6,
};

/// The english weights, fitted to self-play games by `scripts/tune.py` (how: docs/TUNING.md);
/// the main road is no english term and stays zero.
pub const ENGLISH: Weights = Weights {
    man: 100,
    king: 140,
    king_endgame: 10,
    man_square: [
        [0, 0, 0, 0],
        [-1, 10, 13, 12],
        [9, 19, 20, 8],
        [1, 11, 14, 2],
        [-1, 13, 11, 15],
        [11, 5, 14, 4],
        [7, 26, 20, 17],
        [-1, 6, 36, 0],
    ],
    back_guard: [9, 37, 12, 37],
    supported_man: 6,
    imbalance: -5,
    centre_king: 2,
    edge_king: -2,
    mobility_man: 1,
    mobility_king: 2,
    runaway: 40,
    runaway_per_rank: 5,
    breakthrough: 24,
    trapped_king: -19,
    double_corner: 18,
    main_road: 0,
    main_road_alone: 0,
    exchange: 8,
    chase: 2,
};

/// Every weight, indexed by `Variant as usize`.
pub const WEIGHTS: [Weights; 2] = [RUSSIAN, ENGLISH];

/// The names of the terms, in the order `evaluate_terms` lists them.
pub const TERM_NAMES: [&str; TERMS] = [
    "material",
    "king strength",
    "man squares",
    "back rank",
    "king placement",
    "mobility",
    "runaway men",
    "breakthroughs",
    "trapped kings",
    "double corner",
    "main road",
    "exchanges",
    "hunt",
    "support",
    "balance",
];
const TERMS: usize = 15;

const CENTRE: Bitboard = square_set(&[14, 15, 18, 19]);
const EDGES: Bitboard = square_set(&[5, 13, 21, 29, 4, 12, 20, 28]);
const DOUBLE_CORNERS: Bitboard = square_set(&[1, 5, 28, 32]);
/// Files a-d: the first two squares of every row.
const LEFT_WING: Bitboard =
    square_set(&[1, 2, 5, 6, 9, 10, 13, 14, 17, 18, 21, 22, 25, 26, 29, 30]);
const BACK_RANK: [Bitboard; 4] = [
    square_set(&[29]),
    square_set(&[30]),
    square_set(&[31]),
    square_set(&[32]),
];

/// The squares of a row counted from the top (row 0 = rank 8).
const fn row_mask(row: u8) -> Bitboard {
    square_set(&[4 * row + 1, 4 * row + 2, 4 * row + 3, 4 * row + 4])
}
const ROWS: [Bitboard; 8] = [
    row_mask(0),
    row_mask(1),
    row_mask(2),
    row_mask(3),
    row_mask(4),
    row_mask(5),
    row_mask(6),
    row_mask(7),
];

/// Squares by rank counted from each side's own back rank: `OWN_RANK[color][0]` is that side's
/// back rank. Black's are White's turned round, so no board needs flipping during evaluation.
const OWN_RANK: [[Bitboard; 8]; 2] = [
    [
        ROWS[7], ROWS[6], ROWS[5], ROWS[4], ROWS[3], ROWS[2], ROWS[1], ROWS[0],
    ],
    ROWS,
];

/// Each side's back-rank squares in the order of `Weights::back_guard` (a1, c1, e1, g1 seen from
/// that side).
const BACK_RANK_OF: [[Bitboard; 4]; 2] = [
    BACK_RANK,
    [
        square_set(&[4]),
        square_set(&[3]),
        square_set(&[2]),
        square_set(&[1]),
    ],
];

/// Where each side's back rank starts in a bitboard: a row is four adjacent bits, so the four
/// back-rank squares read as one 4-bit pattern.
const BACK_RANK_SHIFT: [u32; 2] = [
    OWN_RANK[0][0].trailing_zeros(),
    OWN_RANK[1][0].trailing_zeros(),
];
const _: () = assert!(
    OWN_RANK[0][0] >> BACK_RANK_SHIFT[0] == 15 && OWN_RANK[1][0] >> BACK_RANK_SHIFT[1] == 15,
    "a back rank is not four adjacent bits"
);

/// The back-guard term of the men on the back rank whose 4-bit pattern (see `BACK_RANK_SHIFT`)
/// is the index; folded into `GUARDED`.
const fn guard_table(w: &Weights, color: usize) -> [i32; 16] {
    let mut t = [0; 16];
    let mut p = 0;
    while p < 16 {
        let men = (p as Bitboard) << BACK_RANK_SHIFT[color];
        let mut k = 0;
        while k < 4 {
            if men & BACK_RANK_OF[color][k] != 0 {
                t[p] += w.back_guard[k];
            }
            k += 1;
        }
        p += 1;
    }
    t
}

/// The forward cone of a man of `color` on bit `bit`: every square it could walk to, and its own.
const fn cone(color: usize, bit: u32) -> Bitboard {
    let mut cone = 1u64 << bit;
    let mut front = cone;
    while front != 0 {
        front = if color == 0 {
            ((front >> 5) | (front >> 4)) & BOARD
        } else {
            ((front << 5) | (front << 4)) & BOARD
        };
        cone |= front;
    }
    cone
}

const fn cones() -> [[Bitboard; 64]; 2] {
    let mut t = [[0; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut b = 0;
        while b < 35 {
            if BOARD & (1u64 << b) != 0 {
                t[c][b as usize] = cone(c, b);
            }
            b += 1;
        }
        c += 1;
    }
    t
}

/// A weight per square as four tables, one per group of eight squares: in the padded layout
/// bits `9g..9g+8` are two rows of the board (bit `9g+8` is a ghost or off the board), so the
/// sum of the weights of a set is four loads, `table[g][(set >> 9g) & 255]`, fewer instructions
/// than a count per bit of the weights.
struct SquareTable([[i32; 256]; 4]);

impl SquareTable {
    /// The tables of `weight` (indexed by bit; only the board's bits are read).
    const fn new(weight: &[i32; 64]) -> SquareTable {
        let mut t = [[0; 256]; 4];
        let mut g = 0;
        while g < 4 {
            t[g] = group_table(weight, g);
            g += 1;
        }
        SquareTable(t)
    }

    /// The sum of the weights of the squares of `set` in group `g`.
    #[inline(always)]
    fn group(&self, g: usize, set: Bitboard) -> i32 {
        self.0[g][group_index(g, set)]
    }

    /// The sum of the weights of the squares in `set` (the search sums with the guard folded in).
    #[cfg(test)]
    #[inline(always)]
    fn sum(&self, set: Bitboard) -> i32 {
        self.group(0, set) + self.group(1, set) + self.group(2, set) + self.group(3, set)
    }
}

/// The index of `set`'s squares in group `g` of a `SquareTable`.
#[inline(always)]
const fn group_index(g: usize, set: Bitboard) -> usize {
    (set >> (9 * g)) as usize & 255
}

/// The sums of `weight` over the 256 subsets of group `g`'s squares.
const fn group_table(weight: &[i32; 64], g: usize) -> [i32; 256] {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 256 {
        let set = (i as Bitboard) << (9 * g) & BOARD;
        let mut b = 0;
        while b < 64 {
            if set & (1u64 << b) != 0 {
                t[i] += weight[b];
            }
            b += 1;
        }
        i += 1;
    }
    t
}

/// The index into `Weights::man_square` (row * 4 + k) of a man of colour index `color` on the
/// 0-based square `sq`: White's own, Black's turned round.
const fn own_square(color: usize, sq: usize) -> usize {
    if color == 0 {
        sq
    } else {
        31 - sq
    }
}

/// The weight of a man of colour index `color` by bit: the `man_square` table laid out on the
/// padded board, for the search's tables by group.
const fn man_square_weights(w: &Weights, color: usize) -> [i32; 64] {
    let mut t = [0; 64];
    let mut sq = 0;
    while sq < 32 {
        let i = own_square(color, sq);
        t[Square::from_index(sq as u8).bit_index() as usize] = w.man_square[i / 4][i % 4];
        sq += 1;
    }
    t
}

/// `MAN_SQUARES[variant][color]`: `man_square_weights` as tables by group.
static MAN_SQUARES: [[SquareTable; 2]; 2] = [
    [
        SquareTable::new(&man_square_weights(&WEIGHTS[0], 0)),
        SquareTable::new(&man_square_weights(&WEIGHTS[0], 1)),
    ],
    [
        SquareTable::new(&man_square_weights(&WEIGHTS[1], 0)),
        SquareTable::new(&man_square_weights(&WEIGHTS[1], 1)),
    ],
];

/// The group of a `SquareTable` that holds each side's back rank.
const BACK_GROUP: [usize; 2] = [3, 0];
const _: () = assert!(
    OWN_RANK[0][0] >> (9 * BACK_GROUP[0]) < 256 && OWN_RANK[1][0] >> (9 * BACK_GROUP[1]) < 256,
    "a back rank is not in its group"
);

/// `GUARDED[variant][color]`: the back group's table of `MAN_SQUARES` with the back-guard term
/// added, for when the opponent has men: one load serves both terms.
const fn guarded_table(w: &Weights, color: usize) -> [i32; 256] {
    let g = BACK_GROUP[color];
    let mut t = group_table(&man_square_weights(w, color), g);
    let guard = guard_table(w, color);
    let mut i = 0;
    while i < 256 {
        let men = (i as Bitboard) << (9 * g) & BOARD;
        t[i] += guard[(men >> BACK_RANK_SHIFT[color]) as usize & 15];
        i += 1;
    }
    t
}

static GUARDED: [[[i32; 256]; 2]; 2] = [
    [guarded_table(&WEIGHTS[0], 0), guarded_table(&WEIGHTS[0], 1)],
    [guarded_table(&WEIGHTS[1], 0), guarded_table(&WEIGHTS[1], 1)],
];

/// The man-square term of `men` of colour index `c`, square by square (for the breakdown by
/// term; the search reads it from `MAN_SQUARES`).
fn man_squares(w: &Weights, c: usize, men: Bitboard) -> i32 {
    bitboard::squares(men)
        .map(|sq| {
            let i = own_square(c, sq.index());
            w.man_square[i / 4][i % 4]
        })
        .sum()
}

/// The back-guard term of `men` of colour index `c`, square by square.
fn back_guard(w: &Weights, c: usize, men: Bitboard) -> i32 {
    BACK_RANK_OF[c]
        .iter()
        .zip(&w.back_guard)
        .filter(|(sq, _)| men & **sq != 0)
        .map(|(_, &weight)| weight)
        .sum()
}

/// `CONES[color][bit]`: the forward cone of a man, for the runaway test.
static CONES: [[Bitboard; 64]; 2] = cones();

/// The worth of a runaway man of colour index `color` by bit, on the three ranks before the
/// crowning rank: `runaway` less `runaway_per_rank` per rank still to go.
const fn runaway_weights(w: &Weights, color: usize) -> [i32; 64] {
    let mut t = [0; 64];
    let mut to_go = 1;
    while to_go <= 3 {
        let mut b = 0;
        while b < 64 {
            if OWN_RANK[color][7 - to_go] & (1u64 << b) != 0 {
                t[b] = w.runaway - w.runaway_per_rank * to_go as i32;
            }
            b += 1;
        }
        to_go += 1;
    }
    t
}

/// `RUNAWAY[variant][color]`: `runaway_weights`, one load instead of a rank test per man.
static RUNAWAY: [[[i32; 64]; 2]; 2] = [
    [
        runaway_weights(&WEIGHTS[0], 0),
        runaway_weights(&WEIGHTS[0], 1),
    ],
    [
        runaway_weights(&WEIGHTS[1], 0),
        runaway_weights(&WEIGHTS[1], 1),
    ],
];

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

/// Where the terms go: the search wants only their sum, `eval` on the command line wants each.
/// One generic body serves both, and for `Total` the compiler drops the term indices.
trait TermSink {
    /// Whether the terms are kept apart; if not, terms may be summed before they are added.
    const APART: bool;
    fn add(&mut self, term: usize, value: i32);
}

/// The sum of the terms.
struct Total(i32);

impl TermSink for Total {
    const APART: bool = false;
    #[inline(always)]
    fn add(&mut self, _term: usize, value: i32) {
        self.0 += value;
    }
}

/// Each term apart, indexed as `TERM_NAMES`.
struct ByTerm([i32; TERMS]);

impl TermSink for ByTerm {
    const APART: bool = true;
    #[inline(always)]
    fn add(&mut self, term: usize, value: i32) {
        self.0[term] += value;
    }
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

    t.add(0, sign * own_material);
    if T::APART {
        t.add(2, sign * man_squares(w, c, men));
        if opp_men != 0 {
            t.add(3, sign * back_guard(w, c, men));
        }
    } else {
        // The men's squares and the back guard in one table of weights by square:
        // four loads, the back rank's group with the guard added when it counts.
        let table = &MAN_SQUARES[R::VARIANT as usize][c];
        let bg = BACK_GROUP[c];
        let back = if opp_men != 0 {
            &GUARDED[R::VARIANT as usize][c]
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
        t.add(2, sign * by_square);
    }
    let man_steps =
        (fwd_a.shift(men) & empty).count_ones() + (fwd_b.shift(men) & empty).count_ones();
    let mut mobility = man_steps as i32 * w.mobility_man;
    // Support: a man with a piece of its side behind it (a step back in either forward
    // direction), or on the back rank, where nothing can jump it from the front.
    let own = men | kings;
    let supported = men & (fwd_a.shift(own) | fwd_b.shift(own) | ranks[0]);
    t.add(13, sign * supported.count_ones() as i32 * w.supported_man);
    // Balance: the same from either side, since turning the board round swaps the wings.
    let left = (men & LEFT_WING).count_ones() as i32;
    t.add(14, sign * (2 * left - n_men).abs() * w.imbalance);
    if kings != 0 {
        t.add(
            1,
            sign * (n_kings * w.king_endgame * (24 - pieces.min(24) as i32) / 22),
        );
        let placement = (kings & CENTRE).count_ones() as i32 * w.centre_king
            + (kings & EDGES).count_ones() as i32 * w.edge_king;
        t.add(4, sign * placement);
        let (moves, trapped) = kings_mobility::<R>(kings, empty);
        mobility += moves as i32 * w.mobility_king;
        let trapped = trapped as i32 * w.trapped_king;
        t.add(8, sign * trapped);
        if own_material < opp_material {
            t.add(
                9,
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
            t.add(10, sign * road);
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
            t.add(12, sign * hunt);
        }
    }
    t.add(5, sign * mobility);
    // A runaway man: no enemy piece in its forward cone and no enemy king to come back.
    if opp_kings == 0 {
        let mut runaway = 0;
        for man in BitIter(men & (ranks[4] | ranks[5] | ranks[6])) {
            let bit = man.trailing_zeros() as usize;
            if CONES[c][bit] & opp == 0 {
                let worth = RUNAWAY[R::VARIANT as usize][c][bit];
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
        t.add(6, sign * runaway);
    }
    // A man one step from crowning is rare: most evaluations skip the test.
    let near_crown = men & ranks[6];
    if near_crown != 0 {
        let crown_free = (fwd_a.shift(near_crown) | fwd_b.shift(near_crown)) & empty;
        t.add(7, sign * crown_free.count_ones() as i32 * w.breakthrough);
    }
    own_material
}

/// Material too thin for either side to win in general, which the evaluation scores 0.
/// Russian (flying kings): one or two pieces with a king against a lone king (the 7.2.8
/// ending); English: a lone king against a lone king. Only the static score is a draw: the
/// search still plays these endings out, since a lone king caught in a corner is lost.
pub fn dead_draw<R: Rules>(pos: &Position) -> bool {
    let pieces = pos.piece_count();
    if pieces > 3 || pos.kings() == 0 {
        return false;
    }
    let Some((strong, _)) = crate::variant::lone_king_ending(pos) else {
        return false;
    };
    let strong_pieces = pos.pieces(strong).count_ones();
    let strong_kings = pos.kings_of(strong).count_ones();
    if R::FLYING_KINGS {
        strong_pieces <= 2 && strong_kings >= 1
    } else {
        strong_pieces == 1 && strong_kings == 1
    }
}

/// Every term from White's view, into `t`.
#[inline(always)]
fn white_terms<R: Rules, T: TermSink>(pos: &Position, t: &mut T) {
    let w = &WEIGHTS[R::VARIANT as usize];
    let pieces = pos.piece_count();
    let white = side_terms::<R, T>(w, pos, Color::White, pieces, t, 1);
    let black = side_terms::<R, T>(w, pos, Color::Black, pieces, t, -1);
    // Trading down when ahead: the lead counts for more with fewer pieces left.
    t.add(11, (white - black) * w.exchange / (pieces as i32 + 4));
}

/// The evaluation from the side to move's view, in centi-men, generic over the rules.
#[inline]
pub fn evaluate_for<R: Rules>(pos: &Position) -> i32 {
    if dead_draw::<R>(pos) {
        return 0;
    }
    let mut total = Total(0);
    white_terms::<R, Total>(pos, &mut total);
    if pos.side() == Color::White {
        total.0
    } else {
        -total.0
    }
}

/// The evaluation of `pos` under `variant` from the side to move's view, in centi-men.
pub fn evaluate(variant: Variant, pos: &Position) -> i32 {
    crate::with_rules!(variant, R => evaluate_for::<R>(pos))
}

/// The evaluation by term from the side to move's view; the values sum to `evaluate`. A dead
/// draw adds a last term that cancels the rest.
pub fn evaluate_terms(variant: Variant, pos: &Position) -> Vec<(&'static str, i32)> {
    let mut terms = ByTerm([0; TERMS]);
    let draw = crate::with_rules!(variant, R => {
        white_terms::<R, ByTerm>(pos, &mut terms);
        dead_draw::<R>(pos)
    });
    let sign = if pos.side() == Color::White { 1 } else { -1 };
    let mut out: Vec<(&'static str, i32)> = TERM_NAMES
        .iter()
        .zip(terms.0)
        .map(|(n, v)| (*n, sign * v))
        .collect();
    if draw {
        let sum: i32 = out.iter().map(|(_, v)| v).sum();
        out.push(("dead draw", -sum));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_fen;

    #[test]
    fn square_tables_sum_like_the_weights() {
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        for _ in 0..5000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let men = (seed ^ seed >> 29) & BOARD;
            for (v, w) in WEIGHTS.iter().enumerate() {
                for c in 0..2 {
                    let table = &MAN_SQUARES[v][c];
                    assert_eq!(table.sum(men), man_squares(w, c, men));
                    let bg = BACK_GROUP[c];
                    assert_eq!(
                        GUARDED[v][c][group_index(bg, men)] - table.group(bg, men),
                        back_guard(w, c, men)
                    );
                }
            }
        }
    }

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

    /// Positions from random games, reproducible (a fixed linear congruential generator).
    fn random_positions(variant: Variant, games: usize) -> Vec<Position> {
        let mut seed = 0x1234_5678_u64;
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos = parse_fen(variant.start_fen()).unwrap();
            for _ in 0..120 {
                let moves = variant.legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos = pos.play(&moves[(seed >> 33) as usize % moves.len()]);
                out.push(pos);
            }
        }
        out
    }

    #[test]
    fn mirroring_keeps_the_score() {
        for variant in Variant::ALL {
            let positions = random_positions(variant, 40);
            assert!(positions.len() > 1000);
            for pos in &positions {
                let m = pos.mirrored();
                assert_eq!(
                    evaluate(variant, pos),
                    evaluate(variant, &m),
                    "{}",
                    pos.diagram()
                );
                let sum: i32 = evaluate_terms(variant, pos).iter().map(|(_, v)| v).sum();
                assert_eq!(sum, evaluate(variant, pos));
            }
        }
    }

    #[test]
    fn start_is_level_and_material_counts() {
        for variant in Variant::ALL {
            let start = parse_fen(variant.start_fen()).unwrap();
            assert_eq!(evaluate(variant, &start), 0);
            let up = parse_fen("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11")
                .unwrap();
            assert!(evaluate(variant, &up) > 50);
        }
    }

    #[test]
    fn dead_draws_by_variant() {
        let kk = parse_fen("W:WK29:BK4").unwrap();
        let kkk = parse_fen("W:WK29,K30:BK4").unwrap();
        assert_eq!(evaluate(Variant::Russian, &kk), 0);
        assert_eq!(evaluate(Variant::Russian, &kkk), 0);
        assert_eq!(evaluate(Variant::English, &kk), 0);
        assert!(evaluate(Variant::English, &kkk) > 0);
        assert!(!dead_draw::<crate::variant::Russian>(
            &parse_fen("W:WK29,K30,K31:BK4").unwrap()
        ));
    }

    /// The value of term `name` in the breakdown of `fen`, from the side to move's view.
    fn term(variant: Variant, fen: &str, name: &str) -> i32 {
        let pos = parse_fen(fen).unwrap();
        evaluate_terms(variant, &pos)
            .into_iter()
            .find(|(n, _)| *n == name)
            .unwrap()
            .1
    }

    #[test]
    fn support_and_balance_count_men_by_their_neighbours_and_wings() {
        let w = &RUSSIAN;
        assert!(
            w.supported_man != 0 && w.imbalance != 0,
            "the test needs the terms"
        );
        // White's men on 18 (d4) and 22 (c3) have 22 and 26 (d2) behind them; 26 and 27 (f2)
        // do not. Black's man on 1 (b8) is on its back rank; 9 (b6) and 10 (d6) stand alone.
        let fen = "W:W18,22,26,27:B1,9,10";
        let (white_supported, black_supported) = (2, 1);
        assert_eq!(
            term(Variant::Russian, fen, "support"),
            (white_supported - black_supported) * w.supported_man
        );
        // White has three men on the left wing and one on the right, off by two; Black's three
        // are all on the left wing.
        let (white_off, black_off) = (2, 3);
        assert_eq!(
            term(Variant::Russian, fen, "balance"),
            (white_off - black_off) * w.imbalance
        );
        // The same position with the colours swapped scores the same for the side to move.
        let mirrored = "B:W23,24,32:B6,7,11,15";
        for name in ["support", "balance"] {
            assert_eq!(
                term(Variant::Russian, fen, name),
                term(Variant::Russian, mirrored, name),
                "{name}"
            );
        }
    }
}
