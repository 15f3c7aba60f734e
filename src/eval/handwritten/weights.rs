//! The weights of the evaluation, one table per variant: what a tuning pass changes
//! (`scripts/training/tune.py`; how each was fitted: docs/TUNING.md). The tables the search
//! reads are built from these at compile time (`tables.rs`).

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

/// The russian weights, fitted to self-play games by `scripts/training/tune.py` (how:
/// docs/TUNING.md).
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

/// The english weights, fitted to self-play games by `scripts/training/tune.py` (how:
/// docs/TUNING.md); the main road is no english term and stays zero.
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
