//! The learned evaluation's model: Scan-style tables over board regions, as
//! `scripts/train_eval.py` fits them (its docstring and docs/TRAINING.md are the reference).
//! The position is seen from the side to move; nine 4x4 windows of men index a weight each by
//! their configuration (3^8 of them); material and king squares add theirs; every term is the
//! position's less that of its mirror image (colours swapped, board turned round), so the
//! evaluation is symmetric by construction; opening and ending weights are mixed by the piece
//! count, and a constant gives the move its worth.

use crate::bitboard::{dense, Color};
use crate::position::Position;

/// Configurations of a window: 3 states (empty or king, our man, their man) on 8 squares.
pub const CONFIGS: usize = 6561;
/// Windows.
pub const WINDOWS: usize = 9;
/// Weights of one phase: the windows, men, kings, and a weight per king square.
pub const PER_PHASE: usize = WINDOWS * CONFIGS + 2 + 32;
/// All weights: the opening phase, the ending phase, the tempo.
pub const WEIGHT_COUNT: usize = 2 * PER_PHASE + 1;
/// The piece counts over which the phase goes from ending (2 pieces) to opening (24).
const PHASE_SPAN: i32 = 22;

/// Where each block of weights starts within a phase.
const MEN: usize = WINDOWS * CONFIGS;
const KINGS: usize = MEN + 1;
const KING_SQUARES: usize = KINGS + 1;
const TEMPO: usize = 2 * PER_PHASE;

/// The file (0 = a) and row (0 = rank 8) of a square, 0-31.
const fn square_xy(s: usize) -> (usize, usize) {
    let (row, col) = (s / 4, s % 4);
    (2 * col + if row % 2 == 0 { 1 } else { 0 }, row)
}

/// The dark squares of each 4x4 window, at file and row offsets 0, 2 and 4, in increasing order.
pub const WINDOW_SQUARES: [[u8; 8]; WINDOWS] = window_squares();

const fn window_squares() -> [[u8; 8]; WINDOWS] {
    let mut out = [[0; 8]; WINDOWS];
    let mut w = 0;
    while w < WINDOWS {
        let (x0, y0) = (2 * (w % 3), 2 * (w / 3));
        let (mut s, mut n) = (0, 0);
        while s < 32 {
            let (x, y) = square_xy(s);
            if x >= x0 && x < x0 + 4 && y >= y0 && y < y0 + 4 {
                out[w][n] = s as u8;
                n += 1;
            }
            s += 1;
        }
        assert!(n == 8);
        w += 1;
    }
    out
}

/// A window's configuration from the sets of our men and their men (bit s for square s).
///
/// Window `k` covers rows `2 * (k / 3)` to 3 more and, in each, the row's columns `k % 3` and
/// one more (a row holds 4 dark squares, one per column, 4 bits of the set): so its squares in
/// increasing order come two per row, and the index is four base-9 digits, one per row, each
/// read from a 16-entry table of the row's two squares.
#[inline]
fn config(k: usize, ours: u32, theirs: u32) -> usize {
    let (row0, col) = (2 * (k / 3), k % 3);
    let shift = |r: usize| 4 * (row0 + r) + col;
    let pair = |r: usize| (((ours >> shift(r)) & 3) | ((theirs >> shift(r)) & 3) << 2) as usize;
    PAIR[pair(0)] + 9 * (PAIR[pair(1)] + 9 * (PAIR[pair(2)] + 9 * PAIR[pair(3)]))
}

/// Two squares' base-3 value (the lower square's digit first) from their 2 bits of ours and 2
/// of theirs: digit 1 for ours, 2 for theirs.
const PAIR: [usize; 16] = {
    let mut t = [0; 16];
    let mut i = 0;
    while i < 16 {
        let (ours, theirs) = (i & 3, i >> 2);
        let low = (ours & 1) + 2 * (theirs & 1);
        let high = (ours >> 1 & 1) + 2 * (theirs >> 1 & 1);
        t[i] = low + 3 * high;
        i += 1;
    }
    t
};

/// The configuration as the trainer defines it, square by square: the reference for `config`.
#[cfg(test)]
fn config_by_squares(window: &[u8; 8], ours: u32, theirs: u32) -> usize {
    let mut index = 0;
    for &s in window.iter().rev() {
        let digit = (ours >> s & 1) + 2 * (theirs >> s & 1);
        index = index * 3 + digit as usize;
    }
    index
}

/// One side's view of the board: our men, their men, our kings (32-bit sets).
#[derive(Clone, Copy)]
pub(super) struct View {
    pub(super) our_men: u32,
    pub(super) their_men: u32,
    pub(super) our_kings: u32,
    pub(super) their_kings: u32,
}

impl View {
    /// The board turned round with the colours swapped.
    fn mirror(self) -> View {
        View {
            our_men: self.their_men.reverse_bits(),
            their_men: self.our_men.reverse_bits(),
            our_kings: self.their_kings.reverse_bits(),
            their_kings: self.our_kings.reverse_bits(),
        }
    }
}

/// The sum of one phase's weights over the features of `v`, less that over its mirror image:
/// the reference reading (the search reads the folded `Tables`).
fn phase_sum(w: &[i16], v: View) -> i32 {
    phase_blocks(w, v).iter().sum()
}

/// The weights rearranged for the search, with the same results as `evaluate`: each window's
/// configuration weight is stored less that of the mirror image's matching configuration (the
/// mirror's window `k` is this view's window `8 - k`, read backwards with the colours
/// swapped), so one table read per window replaces two; and the opening and ending weights of
/// an entry sit side by side, so that both come in one load.
#[derive(Clone, Debug)]
pub struct Tables {
    /// `[window * CONFIGS + config]`: (opening, ending).
    windows: Vec<[i16; 2]>,
    men: [i32; 2],
    kings: [i32; 2],
    /// Per square: the weight of our king there, and that of theirs (the mirror's weight for
    /// the square turned round, negated).
    our_kings: [[i32; 2]; 32],
    their_kings: [[i32; 2]; 32],
    tempo: i32,
}

/// The configuration of the mirror image's window `8 - k` for configuration `c` of window `k`:
/// the digits in reverse order, ours and theirs swapped.
const fn mirrored_config(mut c: usize) -> usize {
    let mut out = 0;
    let mut i = 0;
    while i < 8 {
        let digit = c % 3;
        c /= 3;
        let swapped = [0, 2, 1][digit];
        out = out * 3 + swapped;
        i += 1;
    }
    out
}

impl Tables {
    /// The tables of `WEIGHT_COUNT` weights; refused if a folded weight leaves the i16 range
    /// (the trainer keeps weights far inside it).
    pub fn new(weights: &[i16]) -> Result<Tables, String> {
        if weights.len() != WEIGHT_COUNT {
            return Err(format!("{} weights, not {WEIGHT_COUNT}", weights.len()));
        }
        let w = |phase: usize, i: usize| i32::from(weights[phase * PER_PHASE + i]);
        let mut windows = Vec::with_capacity(WINDOWS * CONFIGS);
        for k in 0..WINDOWS {
            for c in 0..CONFIGS {
                let fold = |phase| {
                    let d = w(phase, k * CONFIGS + c)
                        - w(phase, (8 - k) * CONFIGS + mirrored_config(c));
                    i16::try_from(d).map_err(|_| format!("a window weight difference of {d}"))
                };
                windows.push([fold(0)?, fold(1)?]);
            }
        }
        let our_kings = std::array::from_fn(|s| [0, 1].map(|p| w(p, KING_SQUARES + s)));
        let their_kings = std::array::from_fn(|s| [0, 1].map(|p| -w(p, KING_SQUARES + 31 - s)));
        Ok(Tables {
            windows,
            men: [w(0, MEN), w(1, MEN)],
            kings: [w(0, KINGS), w(1, KINGS)],
            our_kings,
            their_kings,
            tempo: i32::from(weights[TEMPO]),
        })
    }

    /// The evaluation of `pos`, side to move's view, centi-men: exactly `evaluate`'s.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let (v, phase) = view_of(pos);
        let (mut opening, mut ending) = (0, 0);
        for k in 0..WINDOWS {
            let [o, e] = self.windows[k * CONFIGS + config(k, v.our_men, v.their_men)];
            opening += i32::from(o);
            ending += i32::from(e);
        }
        let count = |x: u32| x.count_ones() as i32;
        let men = count(v.our_men) - count(v.their_men);
        let kings = count(v.our_kings) - count(v.their_kings);
        opening += self.men[0] * men + self.kings[0] * kings;
        ending += self.men[1] * men + self.kings[1] * kings;
        for s in Bits(v.our_kings) {
            opening += self.our_kings[s][0];
            ending += self.our_kings[s][1];
        }
        for s in Bits(v.their_kings) {
            opening += self.their_kings[s][0];
            ending += self.their_kings[s][1];
        }
        let mixed = opening * phase + ending * (PHASE_SPAN - phase);
        (mixed + PHASE_SPAN / 2).div_euclid(PHASE_SPAN) + self.tempo
    }
}

/// What each block of a phase's weights is called in `explain`. The windows are named by the
/// squares they cover as the side to move sees the board (as White, moving up).
const BLOCK_NAMES: [&str; WINDOWS + 3] = [
    "pattern a5-d8",
    "pattern c5-f8",
    "pattern e5-h8",
    "pattern a3-d6",
    "pattern c3-f6",
    "pattern e3-h6",
    "pattern a1-d4",
    "pattern c1-f4",
    "pattern e1-h4",
    "men",
    "kings",
    "king squares",
];

/// One phase's weights over the features of `v`, less those over its mirror image, block by
/// block in the order of `BLOCK_NAMES`.
fn phase_blocks(w: &[i16], v: View) -> [i32; WINDOWS + 3] {
    let m = v.mirror();
    let weight = |i: usize| i32::from(w[i]);
    let mut out = [0; WINDOWS + 3];
    for (k, slot) in out.iter_mut().take(WINDOWS).enumerate() {
        *slot = weight(k * CONFIGS + config(k, v.our_men, v.their_men))
            - weight(k * CONFIGS + config(k, m.our_men, m.their_men));
    }
    let count = |x: u32| x.count_ones() as i32;
    out[WINDOWS] = weight(MEN) * (count(v.our_men) - count(v.their_men));
    out[WINDOWS + 1] = weight(KINGS) * (count(v.our_kings) - count(v.their_kings));
    out[WINDOWS + 2] = Bits(v.our_kings)
        .map(|s| weight(KING_SQUARES + s))
        .sum::<i32>()
        - Bits(m.our_kings)
            .map(|s| weight(KING_SQUARES + s))
            .sum::<i32>();
    out
}

/// The squares of a 32-bit set.
pub(super) struct Bits(pub(super) u32);

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

/// The side to move's view of `pos` and its phase (0 = ending, `PHASE_SPAN` = opening).
#[inline]
pub(super) fn view_of(pos: &Position) -> (View, i32) {
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
    let view = View {
        our_men: us & !kings,
        their_men: them & !kings,
        our_kings: us & kings,
        their_kings: them & kings,
    };
    let phase = ((us | them).count_ones() as i32 - 2).clamp(0, PHASE_SPAN);
    (view, phase)
}

/// The evaluation of `pos` from the side to move's view, in centi-men, with `weights` of
/// `WEIGHT_COUNT` values.
pub fn evaluate(weights: &[i16], pos: &Position) -> i32 {
    debug_assert_eq!(weights.len(), WEIGHT_COUNT);
    let (view, phase) = view_of(pos);
    let opening = phase_sum(&weights[..PER_PHASE], view);
    let ending = phase_sum(&weights[PER_PHASE..2 * PER_PHASE], view);
    let mixed = opening * phase + ending * (PHASE_SPAN - phase);
    // Rounded to the nearest centi-man, as the trainer's real-valued mix would be.
    (mixed + PHASE_SPAN / 2).div_euclid(PHASE_SPAN) + i32::from(weights[TEMPO])
}

/// The evaluation of `pos` by block, side to move's view, centi-men, each block's opening and
/// ending weights mixed by the phase: the windows, material, king squares and the move's worth.
/// The values sum to `evaluate` (the rounding of the mix shows as a last term when it is not 0).
pub fn explain(weights: &[i16], pos: &Position) -> Vec<(&'static str, i32)> {
    debug_assert_eq!(weights.len(), WEIGHT_COUNT);
    let (view, phase) = view_of(pos);
    let opening = phase_blocks(&weights[..PER_PHASE], view);
    let ending = phase_blocks(&weights[PER_PHASE..2 * PER_PHASE], view);
    let mut out: Vec<(&'static str, i32)> = BLOCK_NAMES
        .iter()
        .zip(opening.iter().zip(&ending))
        .map(|(&name, (&o, &e))| {
            let mixed = o * phase + e * (PHASE_SPAN - phase);
            (name, (mixed + PHASE_SPAN / 2).div_euclid(PHASE_SPAN))
        })
        .collect();
    out.push(("tempo", i32::from(weights[TEMPO])));
    let rounding = evaluate(weights, pos) - out.iter().map(|t| t.1).sum::<i32>();
    if rounding != 0 {
        out.push(("rounding", rounding));
    }
    out
}

/// `count` random weights from `-bound` to `bound` (for the tests of both models).
#[cfg(test)]
pub(super) fn random_weights(seed: u64, count: usize, bound: u64) -> Vec<i16> {
    let mut rng = crate::selfplay::game::SplitMix(seed);
    (0..count)
        .map(|_| (rng.below(2 * bound + 1) as i32 - bound as i32) as i16)
        .collect()
}

/// A random legal-looking position: men off their crowning rows, up to 24 pieces (for the
/// tests of both models).
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
    use crate::selfplay::game::SplitMix;

    fn random_weights(seed: u64) -> Vec<i16> {
        super::random_weights(seed, WEIGHT_COUNT, 200)
    }

    #[test]
    fn the_windows_are_the_nine_4x4_squares_of_the_board() {
        // The top-left window: b8 d8 (1, 2), a7 c7 (5, 6), b6 d6 (9, 10), a5 c5 (13, 14).
        assert_eq!(WINDOW_SQUARES[0], [0, 1, 4, 5, 8, 9, 12, 13]);
        // The bottom-right one: e3 g3, f2 h2, e1 g1 and f4 h4: squares 19 20 23 24 27 28 31 32.
        assert_eq!(WINDOW_SQUARES[8], [18, 19, 22, 23, 26, 27, 30, 31]);
        // Each square lies in one to four windows, corners in one.
        let mut cover = [0; 32];
        WINDOW_SQUARES
            .iter()
            .flatten()
            .for_each(|&s| cover[s as usize] += 1);
        assert!(cover.iter().all(|&c| (1..=4).contains(&c)));
        assert_eq!(cover[3], 1);
    }

    #[test]
    fn a_configuration_counts_in_base_three_from_the_lowest_square() {
        // Our man on the window's first square, theirs on its second: 1 + 2 * 3.
        assert_eq!(config_by_squares(&WINDOW_SQUARES[0], 1 << 0, 1 << 1), 7);
        assert_eq!(
            config_by_squares(&WINDOW_SQUARES[0], 0, 1 << 13),
            2 * 3usize.pow(7)
        );
        assert_eq!(config_by_squares(&WINDOW_SQUARES[0], 0, 0), 0);
        // The fast reading agrees with the square-by-square one on random boards.
        let mut rng = SplitMix(11);
        for _ in 0..20_000 {
            let ours = rng.next_u64() as u32;
            let theirs = rng.next_u64() as u32 & !ours;
            for (k, window) in WINDOW_SQUARES.iter().enumerate() {
                assert_eq!(
                    config(k, ours, theirs),
                    config_by_squares(window, ours, theirs)
                );
            }
        }
    }

    #[test]
    fn the_evaluation_is_symmetric_under_colour_mirroring() {
        let w = random_weights(3);
        for fen in [
            "W:W21-32:B1-12",
            "B:W18,21,22,K30:B3,K9,10,14",
            "W:WK4,20,27:B6,K13,K29",
        ] {
            let pos = parse_fen(fen).unwrap();
            assert_eq!(evaluate(&w, &pos), evaluate(&w, &pos.mirrored()), "{fen}");
        }
    }

    #[test]
    fn the_folded_tables_evaluate_exactly_as_the_reference() {
        let mut rng = SplitMix(23);
        for seed in 0..4 {
            let w = random_weights(seed);
            let tables = Tables::new(&w).unwrap();
            for _ in 0..3000 {
                let pos = random_position(&mut rng);
                assert_eq!(tables.evaluate(&pos), evaluate(&w, &pos));
            }
        }
        // The mirror of a configuration, twice, is itself.
        assert!((0..CONFIGS).all(|c| mirrored_config(mirrored_config(c)) == c));
        let mut big = vec![0i16; WEIGHT_COUNT];
        big[0] = 20_000;
        big[8 * CONFIGS] = -20_000;
        assert!(Tables::new(&big).is_err());
    }

    #[test]
    fn the_explanation_sums_to_the_evaluation_block_by_block() {
        let w = random_weights(5);
        let mut rng = SplitMix(17);
        for _ in 0..2000 {
            let pos = random_position(&mut rng);
            let terms = explain(&w, &pos);
            assert_eq!(terms.iter().map(|t| t.1).sum::<i32>(), evaluate(&w, &pos));
            // Rounding each of 12 mixed blocks to the nearest loses at most half a centi-man each.
            let rounding = terms.iter().find(|t| t.0 == "rounding").map_or(0, |t| t.1);
            assert!(rounding.abs() <= 6, "{rounding}");
            let (view, _) = view_of(&pos);
            let blocks: i32 = phase_blocks(&w[..PER_PHASE], view).iter().sum();
            assert_eq!(blocks, phase_sum(&w[..PER_PHASE], view));
        }
    }

    #[test]
    fn material_and_tempo_weigh_as_the_layout_says() {
        let mut w = vec![0i16; WEIGHT_COUNT];
        w[MEN] = 100; // opening men
        w[PER_PHASE + MEN] = 120; // ending men
        w[TEMPO] = 7;
        // 2 pieces against 1: phase 1 of 22, one man up for the side to move.
        let pos = parse_fen("W:W21,22:B1").unwrap();
        assert_eq!(evaluate(&w, &pos), (100 + 120 * 21 + 11) / 22 + 7);
        // The same from the other side: a man down, with the move.
        assert_eq!(
            evaluate(&w, &pos.with_side(Color::Black)),
            -((100 + 120 * 21 + 11) / 22) + 7
        );
    }
}
