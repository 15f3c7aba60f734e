//! The learned evaluation's model: a small neural network, as `scripts/training/train_net.py` fits
//! it (its docstring is the reference). 128 inputs (our men, their men, our kings, their kings, a
//! square each, from the side to move's view: `view.rs`), two hidden layers of 64 and 32 units
//! clipped to 0..1, one output; beside it a linear weight per input.
//!
//! Everything is in integers, so that the trainer reproduces the engine's every value and a
//! search is deterministic: an activation of 1.0 is `ONE`; see the trainer for the scales.
//! The side to move's view makes a position and its colour-mirrored twin the same inputs, so
//! the evaluation is symmetric by construction.

use super::view::view_of;
use super::WeightsError;
use crate::bitboard::{Bitboard, Color};
use crate::position::Position;

/// Inputs: four sets of 32 squares.
pub const INPUTS: usize = 128;
/// Units of the first hidden layer.
pub const H1: usize = 64;
/// Units of the second hidden layer.
pub const H2: usize = 32;
/// The weights in a file, in its order: W1 (a row of `H1` per input), b1, W2 (a row of `H2`
/// per first-layer unit), b2, W3, b3, the linear weights.
pub const WEIGHT_COUNT: usize = INPUTS * H1 + H1 + H1 * H2 + H2 + H2 + 1 + INPUTS;
/// An activation of 1.0.
const ONE: i32 = 128;
/// The second layer's weights are stored times this (a power of two: the division is a shift).
const W2_SHIFT: u32 = 6;
/// The output's sum is in 1/(`ONE` * 16) centi-men.
const OUT_SHIFT: u32 = 11;

/// A network ready to evaluate, laid out for SIMD: the first layer in `i16` (8 or 16 lanes to
/// a register; `new` proves no sum can leave the range), the second layer by pairs of
/// first-layer units, each pair's two weights into a unit side by side, so that a pair's
/// contribution to all the units is a few `pmaddwd` (i16 pairs multiplied and added into i32),
/// and again by quads in bytes where the weights fit (`w2_bytes`).
///
/// The rows start on cache lines (64 bytes), so that a row of the first layer is two lines and
/// a load never straddles two.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub struct Network {
    /// Per input, its weight into each first-layer unit; then `NO_ROW`, all zero.
    w1: [[i16; H1]; INPUTS + 1],
    b1: [i16; H1],
    /// Per pair of first-layer units (2p, 2p + 1), per second-layer unit k: the weights
    /// from 2p and from 2p + 1 into k.
    w2: [[[i16; 2]; H2]; H1 / 2],
    /// The second layer's biases, already times 2^`W2_SHIFT` like its products.
    b2: [i32; H2],
    w3: [i32; H2],
    /// The output bias, already times `ONE` like the products.
    b3: i32,
    /// Per input, its linear weight; then `NO_ROW`'s, zero.
    linear: [i32; INPUTS + 1],
    /// The second layer again in bytes, where every weight fits in one (`i8`), by quads of
    /// first-layer units (4q .. 4q + 3), per second-layer unit k: the weights from each of the
    /// four into k. The first layer's outputs (0 ..= `ONE`) fit in an unsigned byte, so a
    /// quad's contribution to 8 units is one `vpdpbusd` (VNNI: four byte products added into
    /// each i32), exactly the sums of the `i16` form.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    w2_bytes: [[[i8; 4]; H2]; H1 / 4],
    /// The widest code this processor runs for these weights.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    simd: Simd,
}

/// The instruction sets the network's code is compiled for, narrowest first. Each computes
/// the same integers, so the same values: only the speed differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
enum Simd {
    /// What the target has at compile time (SSE2 on x86-64, SIMD128 in the browser's build).
    Portable,
    /// AVX2: 16 lanes of `i16` to a register.
    Avx2,
    /// AVX2 with the second layer in bytes by VNNI (`vpdpbusd` on 256-bit registers, which
    /// AVX-512 VNNI and VL provide).
    Vnni,
}

impl Simd {
    /// The widest this processor runs, for weights whose second layer fits in bytes or not.
    fn detect(bytes: bool) -> Simd {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if bytes && has!("avx2") && has!("avx512vnni") && has!("avx512vl") {
                return Simd::Vnni;
            }
            if has!("avx2") {
                return Simd::Avx2;
            }
        }
        let _ = bytes;
        Simd::Portable
    }
}

impl Network {
    /// The network of `WEIGHT_COUNT` weights in file order; refused if some board could
    /// overflow a first-layer sum in `i16`.
    pub fn new(weights: &[i16]) -> Result<Network, WeightsError> {
        if weights.len() != WEIGHT_COUNT {
            return Err(WeightsError::Count {
                count: weights.len(),
                expected: WEIGHT_COUNT,
            });
        }
        let (w1, rest) = weights.split_at(INPUTS * H1);
        let (b1, rest) = rest.split_at(H1);
        let (w2, rest) = rest.split_at(H1 * H2);
        let (b2, rest) = rest.split_at(H2);
        let (w3, rest) = rest.split_at(H2);
        let (b3, linear) = rest.split_at(1);
        let w1: [[i16; H1]; INPUTS + 1] = std::array::from_fn(|i| {
            std::array::from_fn(|j| if i < INPUTS { w1[i * H1 + j] } else { 0 })
        });
        // The largest first-layer sum a board can make: a square holds one piece, so one of
        // its four inputs at most.
        for j in 0..H1 {
            let worst: i32 = i32::from(b1[j]).abs()
                + (0..32)
                    .map(|s| {
                        (0..4)
                            .map(|block| i32::from(w1[32 * block + s][j]).abs())
                            .max()
                            .unwrap_or(0)
                    })
                    .sum::<i32>();
            if worst > i32::from(i16::MAX) {
                return Err(WeightsError::Overflow { unit: j, worst });
            }
        }
        let w2_fits_bytes = w2.iter().all(|&w| i8::try_from(w).is_ok());
        Ok(Network {
            w1,
            b1: std::array::from_fn(|j| b1[j]),
            w2: std::array::from_fn(|p| {
                std::array::from_fn(|k| [w2[2 * p * H2 + k], w2[(2 * p + 1) * H2 + k]])
            }),
            b2: std::array::from_fn(|k| i32::from(b2[k]) << W2_SHIFT),
            w3: std::array::from_fn(|k| i32::from(w3[k])),
            b3: i32::from(b3[0]) * ONE,
            linear: std::array::from_fn(|i| linear.get(i).map_or(0, |&w| i32::from(w))),
            w2_bytes: std::array::from_fn(|q| {
                std::array::from_fn(|k| {
                    // Clamped only where they do not fit, and then never read.
                    std::array::from_fn(|u| w2[(4 * q + u) * H2 + k].clamp(-128, 127) as i8)
                })
            }),
            simd: Simd::detect(w2_fits_bytes),
        })
    }

    /// The evaluation of `pos`, side to move's view, centi-men.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.parts(pos).iter().sum()
    }

    /// The evaluation of `pos`: the value `recent` kept if this thread has evaluated `pos`
    /// lately, else computed with the first layer updated from the last position `recent`
    /// holds with the same side to move, where few pieces differ. The same value as `evaluate`.
    #[inline]
    pub fn evaluate_from(&self, pos: &Position, recent: &mut Accumulators) -> i32 {
        if recent.seen.is_empty() {
            recent.make_room();
        }
        let seen = Seen::of(pos);
        let slot = seen.slot();
        if let Some(value) = recent.seen[slot].value_of(&seen) {
            return value;
        }
        let value = self.parts_with(pos, Some(&mut recent.last)).iter().sum();
        recent.seen[slot] = Seen { value, ..seen };
        value
    }

    /// The evaluation in two parts: the linear weights of the pieces, and the network's output.
    #[inline]
    pub fn parts(&self, pos: &Position) -> [i32; 2] {
        self.parts_with(pos, None)
    }

    #[inline]
    fn parts_with(&self, pos: &Position, recent: Option<&mut [Option<Recent>; 2]>) -> [i32; 2] {
        // SAFETY: `simd` names only instruction sets the processor has (`Simd::detect`).
        #[cfg(target_arch = "x86_64")]
        if self.simd >= Simd::Avx2 {
            return unsafe { self.parts_avx2(pos, recent, self.simd) };
        }
        self.parts_body(pos, recent, Simd::Portable)
    }

    /// `parts_with` compiled for AVX2: the same integer arithmetic, so the same values. Only
    /// the second layer uses VNNI, in a call of its own: with AVX-512 enabled here the
    /// compiler would widen the first layer to 512-bit registers, which ran slower.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn parts_avx2(
        &self,
        pos: &Position,
        recent: Option<&mut [Option<Recent>; 2]>,
        simd: Simd,
    ) -> [i32; 2] {
        self.parts_body(pos, recent, simd)
    }

    /// The evaluation's arithmetic, for every path, written so that the compiler vectorises
    /// it; `simd` says which hand-written second layer the processor can run (a constant on
    /// the portable path; on the AVX2 one a branch that always goes the same way).
    #[inline(always)]
    fn parts_body(
        &self,
        pos: &Position,
        recent: Option<&mut [Option<Recent>; 2]>,
        simd: Simd,
    ) -> [i32; 2] {
        let view = view_of(pos);
        // Our men and theirs in one word, our kings and theirs in another: bit b of word w is
        // input 64 w + b.
        let inputs = [
            u64::from(view.our_men) | u64::from(view.their_men) << 32,
            u64::from(view.our_kings) | u64::from(view.their_kings) << 32,
        ];
        let (acc, linear) = match recent {
            Some(recent) => self.first_layer_from(&mut recent[pos.side() as usize], inputs),
            None => self.first_layer(inputs),
        };
        let h1 = acc.map(|a| a.clamp(0, ONE as i16));
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `simd` names an instruction set only on the path that checked for it.
        let second = match simd {
            Simd::Vnni => unsafe { self.second_layer_vnni(&h1.map(|a| a as u8)) },
            Simd::Avx2 => unsafe { self.second_layer_avx2(&h1) },
            Simd::Portable => self.second_layer(&h1),
        };
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        let second = {
            let _ = simd;
            self.second_layer_simd128(&h1)
        };
        #[cfg(not(any(
            target_arch = "x86_64",
            all(target_arch = "wasm32", target_feature = "simd128")
        )))]
        let second = {
            let _ = simd;
            self.second_layer(&h1)
        };
        let out = second.iter().zip(&self.w3).fold(self.b3, |sum, (&s, &w)| {
            sum + (s >> W2_SHIFT).clamp(0, ONE) * w
        });
        [linear, out >> OUT_SHIFT]
    }

    /// The second layer's sums (times 2^`W2_SHIFT`) from the first layer's outputs.
    #[inline(always)]
    #[cfg_attr(
        all(target_arch = "wasm32", target_feature = "simd128"),
        allow(dead_code)
    )]
    fn second_layer(&self, h1: &[i16; H1]) -> [i32; H2] {
        let mut second = self.b2;
        for (pair, rows) in h1.chunks_exact(2).zip(&self.w2) {
            let (a, b) = (i32::from(pair[0]), i32::from(pair[1]));
            // Most units are off in a given position: their rows add nothing.
            if a | b == 0 {
                continue;
            }
            for (s, w) in second.iter_mut().zip(rows) {
                *s += a * i32::from(w[0]) + b * i32::from(w[1]);
            }
        }
        second
    }

    /// The skeleton of the hand-written x86-64 second layers: the 32 units' sums in four AVX2
    /// registers of 8 units, and each row of `rows` (the weights from one group of first-layer
    /// units into every unit: a pair in `i16`, or a quad in bytes; 128 bytes either way) taken
    /// in by `add(sums, outputs, row)`, where `outputs` is the group's first-layer outputs
    /// (`groups`' i32 of the same index) broadcast. Every group is added, even one whose units
    /// are all off: in play most pairs have a unit on (five in six in the bench), and a test
    /// and branch per group cost more than the few products they save. Two sets of sums, for
    /// the even groups and the odd, added at the end: each add waits for the last into the same
    /// register, and with one set the 16 or 32 adds are a chain of their latencies.
    ///
    /// SAFETY: `groups` points to `rows.len()` i32s; the caller has AVX2 (and whatever `add`
    /// uses).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn second_layer_by_groups<Row>(
        &self,
        groups: *const i32,
        rows: &[Row],
        add: impl Fn(
            std::arch::x86_64::__m256i,
            std::arch::x86_64::__m256i,
            std::arch::x86_64::__m256i,
        ) -> std::arch::x86_64::__m256i,
    ) -> [i32; H2] {
        use std::arch::x86_64::*;
        const LANES: usize = 8;
        const { assert!(std::mem::size_of::<Row>() == H2 * 4) };
        debug_assert!(rows.len().is_multiple_of(2));
        let mut sums = self.b2;
        let sums_at = sums.as_mut_ptr().cast::<__m256i>();
        // SAFETY: `sums` is H2 = 4 * LANES i32s and each row H2 * 4 bytes (checked above);
        // `groups` as the caller promises; unaligned loads and stores.
        unsafe {
            let mut even: [__m256i; H2 / LANES] =
                std::array::from_fn(|q| _mm256_loadu_si256(sums_at.add(q)));
            let mut odd = [_mm256_setzero_si256(); H2 / LANES];
            let take_in = |acc: &mut [__m256i; H2 / LANES], g: usize| {
                let outputs = _mm256_set1_epi32(groups.add(g).read_unaligned());
                let at = (&rows[g] as *const Row).cast::<__m256i>();
                for (q, a) in acc.iter_mut().enumerate() {
                    *a = add(*a, outputs, _mm256_loadu_si256(at.add(q)));
                }
            };
            for g in (0..rows.len()).step_by(2) {
                take_in(&mut even, g);
                take_in(&mut odd, g + 1);
            }
            for q in 0..H2 / LANES {
                _mm256_storeu_si256(sums_at.add(q), _mm256_add_epi32(even[q], odd[q]));
            }
        }
        sums
    }

    /// `second_layer` with AVX2 by hand (the compiler does not find it): a pair of
    /// first-layer outputs, broadcast, times its interleaved weights into 8 units at once is
    /// one `vpmaddwd`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn second_layer_avx2(&self, h1: &[i16; H1]) -> [i32; H2] {
        use std::arch::x86_64::*;
        // SAFETY: `h1` is H1 / 2 pairs of i16, one i32 each, a pair per row of `w2`.
        unsafe {
            self.second_layer_by_groups(h1.as_ptr().cast(), &self.w2, |sums, pair, row| {
                _mm256_add_epi32(sums, _mm256_madd_epi16(pair, row))
            })
        }
    }

    /// `second_layer` from the weights in bytes with VNNI: a quad of first-layer outputs
    /// (bytes), broadcast, times its weights into 8 units is one `vpdpbusd`, which adds the
    /// four products into each unit's sum: 64 instructions where the `i16` form takes 256.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512vnni,avx512vl")]
    #[inline(never)]
    fn second_layer_vnni(&self, h1: &[u8; H1]) -> [i32; H2] {
        use std::arch::x86_64::*;
        // SAFETY: `h1` is H1 / 4 quads of bytes, one i32 each, a quad per row of `w2_bytes`.
        unsafe {
            self.second_layer_by_groups(h1.as_ptr().cast(), &self.w2_bytes, |sums, quad, row| {
                _mm256_dpbusd_epi32(sums, quad, row)
            })
        }
    }

    /// `second_layer` with WebAssembly's 128-bit SIMD (the browser's build): the AVX2 path's
    /// method, every pair added, four units at a time; `i32x4_dot_i16x8` is `pmaddwd`.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline(always)]
    fn second_layer_simd128(&self, h1: &[i16; H1]) -> [i32; H2] {
        use std::arch::wasm32::*;
        const LANES: usize = 4;
        let mut sums = self.b2;
        // SAFETY: `sums` is H2 = 8 * LANES i32s; each row is H2 pairs of i16, the same 128
        // bytes; `h1` is H1 / 2 pairs of i16, read 4 bytes at a time; v128 loads and stores
        // need no alignment.
        unsafe {
            let sums_at = sums.as_mut_ptr().cast::<v128>();
            let mut acc: [v128; H2 / LANES] = std::array::from_fn(|q| v128_load(sums_at.add(q)));
            let pairs = h1.as_ptr().cast::<i32>();
            for (p, rows) in self.w2.iter().enumerate() {
                let both = i32x4_splat(pairs.add(p).read_unaligned());
                let at = rows.as_ptr().cast::<v128>();
                for (q, a) in acc.iter_mut().enumerate() {
                    *a = i32x4_add(*a, i32x4_dot_i16x8(both, v128_load(at.add(q))));
                }
            }
            for (q, a) in acc.iter().enumerate() {
                v128_store(sums_at.add(q), *a);
            }
        }
        sums
    }

    /// The first layer's sums and the linear part for `inputs` (the view's two words, see
    /// `parts_body`), from scratch: the update from an empty board.
    #[inline(always)]
    fn first_layer(&self, inputs: [u64; 2]) -> ([i16; H1], i32) {
        let (mut acc, mut linear) = (self.b1, 0);
        self.update(&mut acc, &mut linear, [0; 2], inputs);
        (acc, linear)
    }

    /// The same from `slot`'s last sums, moving only the inputs that changed, where they are
    /// few; the slot then holds `inputs`' sums.
    #[inline(always)]
    fn first_layer_from(&self, slot: &mut Option<Recent>, inputs: [u64; 2]) -> ([i16; H1], i32) {
        if let Some(last) = slot {
            let changes = (last.inputs[0] ^ inputs[0]).count_ones()
                + (last.inputs[1] ^ inputs[1]).count_ones();
            if changes <= MAX_CHANGES {
                // On copies, which stay in registers through the update.
                let (mut acc, mut linear) = (last.acc, last.linear);
                self.update(&mut acc, &mut linear, last.inputs, inputs);
                *last = Recent {
                    inputs,
                    acc,
                    linear,
                };
                return (acc, linear);
            }
        }
        let (acc, linear) = self.first_layer(inputs);
        *slot = Some(Recent {
            inputs,
            acc,
            linear,
        });
        (acc, linear)
    }

    /// Moves the first layer's sums and the linear part from the inputs `old` to `new`: the
    /// rows of inputs set only in `old` taken away, those set only in `new` added. One row
    /// goes and one comes at each turn, `NO_ROW` standing in for a side that has run out, so
    /// that a move (a man gone from one square, come to another) is one turn, and a word's
    /// loop ends once: every loop's end that the processor mispredicts costs about as much as
    /// a row, and before this the eight loops of two words' gone and come sets ended three
    /// times an update on average.
    ///
    /// Wrapping: on the way from one board to another a sum may pass outside 16 bits, but
    /// every board's sum lies inside (`new` proves it), so the wrapped result is exact.
    #[inline(always)]
    fn update(&self, acc: &mut [i16; H1], linear: &mut i32, old: [u64; 2], new: [u64; 2]) {
        for (word, (&old, &new)) in old.iter().zip(&new).enumerate() {
            let (mut gone, mut come) = (old & !new, new & !old);
            while gone | come != 0 {
                let (out, into) = (row(word, gone), row(word, come));
                for ((a, &w_in), &w_out) in acc.iter_mut().zip(&self.w1[into]).zip(&self.w1[out]) {
                    *a = a.wrapping_add(w_in).wrapping_sub(w_out);
                }
                *linear += self.linear[into] - self.linear[out];
                gone &= gone.wrapping_sub(1);
                come &= come.wrapping_sub(1);
            }
        }
    }
}

/// The row of the lowest input of `set` in word `word` (see `parts_body`), or `NO_ROW` if
/// `set` is empty.
#[inline(always)]
fn row(word: usize, set: u64) -> usize {
    if set == 0 {
        NO_ROW
    } else {
        64 * word + set.trailing_zeros() as usize
    }
}

/// The row of zeros after the inputs' rows, which `update` adds or takes away for nothing.
const NO_ROW: usize = INPUTS;

/// How many inputs may differ from the last position's before the first layer is summed
/// afresh rather than updated (an update costs about what adding a piece does).
const MAX_CHANGES: u32 = 12;

/// What a search's thread keeps of its evaluations to make the next ones cheaper: the first
/// layer's sums of the last position evaluated with each side to move (a position's inputs are
/// seen from its side to move, so the two sides' views do not mix), since consecutive positions
/// of a search share most of their pieces; and the values of the positions evaluated lately,
/// since a search asks for many again (at depth 9, 38% of the english bench's evaluations and
/// 39% of the russian's: the leaves of one iteration are the nodes next to the leaves of the
/// next, which are evaluated for static pruning, and transpositions). Values are kept whole, by
/// position: a kept value is the one the network computes.
#[derive(Clone, Debug)]
pub struct Accumulators {
    last: [Option<Recent>; 2],
    /// `SEEN` slots, by `Seen::slot`; none until the first evaluation, so that a search with
    /// the hand-written evaluation, whose thread keeps one too, does not clear them.
    seen: Box<[Seen]>,
}

impl Default for Accumulators {
    fn default() -> Accumulators {
        Accumulators {
            last: [None, None],
            seen: Box::new([]),
        }
    }
}

impl Accumulators {
    /// Asks the processor to fetch `pos`'s slot of kept values, which `evaluate_from` reads
    /// first: the slots are too many for the nearest caches, and a search that calls this
    /// as it enters a node does the node's other work while the slot comes.
    #[inline(always)]
    pub fn prefetch(&self, pos: &Position) {
        #[cfg(target_arch = "x86_64")]
        if let Some(slot) = self.seen.get(Seen::of(pos).slot()) {
            // SAFETY: prefetching is a hint with no effect on memory; the address is a slot's.
            unsafe {
                std::arch::x86_64::_mm_prefetch(
                    (slot as *const Seen).cast::<i8>(),
                    std::arch::x86_64::_MM_HINT_T0,
                )
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = pos;
    }

    /// The slots, empty.
    #[cold]
    #[inline(never)]
    fn make_room(&mut self) {
        self.seen = vec![Seen::default(); SEEN].into_boxed_slice();
    }
}

/// The slots of kept values: 128 KiB, made afresh for each search's thread. In the english
/// bench at the default depth (counted by callgrind) 2^14 slots took 7.8% off the instructions
/// of the search, 2^12 4.8%, 2^16 (2 MiB) 9.6%; but by the clock, with the slot prefetched as
/// the search enters a node, 2^12 ran fastest (medians of 9 interleaved runs on a Xeon with
/// 2 MiB of second-level cache a core: 2^11 0.7% slower, 2^13 1.4%, 2^14 5%): a slot that
/// misses the nearer caches costs more than the evaluation it saves.
const SEEN: usize = 1 << 12;

/// A position evaluated and its value; all zero for an empty slot.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
struct Seen {
    pieces: [Bitboard; 2],
    kings: Bitboard,
    /// 1 + the side to move (`Color as u32`), so never 0.
    side: u32,
    value: i32,
}

impl Seen {
    /// `pos`, its value not yet known.
    #[inline(always)]
    fn of(pos: &Position) -> Seen {
        Seen {
            pieces: [pos.pieces(Color::White), pos.pieces(Color::Black)],
            kings: pos.kings(),
            side: pos.side() as u32 + 1,
            value: 0,
        }
    }

    /// The slot of this position: a hash of its pieces and side (a search's positions from
    /// `play_unkeyed` have no Zobrist key).
    #[inline(always)]
    fn slot(&self) -> usize {
        let h = self.pieces[0].wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ self.pieces[1].wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ self.kings.wrapping_mul(0x1656_67B1_9E37_79F9)
            ^ u64::from(self.side);
        (h >> (64 - SEEN.trailing_zeros())) as usize
    }

    /// The value kept here, if this slot holds `pos`'s.
    #[inline(always)]
    fn value_of(&self, pos: &Seen) -> Option<i32> {
        (self.pieces == pos.pieces && self.kings == pos.kings && self.side == pos.side)
            .then_some(self.value)
    }
}

/// Aligned like the rows added to `acc` (see `Network`).
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub(super) struct Recent {
    acc: [i16; H1],
    inputs: [u64; 2],
    linear: i32,
}

#[cfg(test)]
mod tests {
    use super::super::view::{random_position, Bits, View};
    use super::*;
    use crate::notation::fen::parse_fen;
    use crate::selfplay::game::SplitMix;

    /// Every code path this processor runs, the portable one first.
    fn paths_up_to(widest: Simd) -> impl Iterator<Item = Simd> {
        [Simd::Portable, Simd::Avx2, Simd::Vnni]
            .into_iter()
            .filter(move |&simd| simd <= widest)
    }

    fn random_weights(seed: u64) -> Vec<i16> {
        super::super::view::random_weights(seed, WEIGHT_COUNT, 100)
    }

    /// The inputs set in `v`: input `32 * block + square` for the blocks our men, their men,
    /// our kings, their kings.
    fn active(v: View) -> impl Iterator<Item = usize> {
        [v.our_men, v.their_men, v.our_kings, v.their_kings]
            .into_iter()
            .enumerate()
            .flat_map(|(block, set)| Bits(set).map(move |s| 32 * block + s))
    }

    /// The trainer's formula, written out unit by unit from the flat weights.
    fn reference(w: &[i16], pos: &Position) -> i32 {
        let view = view_of(pos);
        let x: Vec<usize> = active(view).collect();
        let w = |i: usize| i64::from(w[i]);
        let (b1, w2, b2) = (INPUTS * H1, INPUTS * H1 + H1, INPUTS * H1 + H1 + H1 * H2);
        let (w3, b3, lin) = (b2 + H2, b2 + 2 * H2, b2 + 2 * H2 + 1);
        let h1: Vec<i64> = (0..H1)
            .map(|j| (w(b1 + j) + x.iter().map(|&i| w(i * H1 + j)).sum::<i64>()).clamp(0, 128))
            .collect();
        let h2: Vec<i64> = (0..H2)
            .map(|k| {
                let s: i64 = (0..H1).map(|j| h1[j] * w(w2 + j * H2 + k)).sum();
                ((64 * w(b2 + k) + s).div_euclid(64)).clamp(0, 128)
            })
            .collect();
        let out: i64 = 128 * w(b3) + (0..H2).map(|k| h2[k] * w(w3 + k)).sum::<i64>();
        let linear: i64 = x.iter().map(|&i| w(lin + i)).sum();
        (out.div_euclid(2048) + linear) as i32
    }

    #[test]
    fn the_network_computes_the_trainers_formula() {
        let mut rng = SplitMix(5);
        for seed in 0..3 {
            let w = random_weights(seed);
            let net = Network::new(&w).unwrap();
            for _ in 0..2000 {
                let pos = random_position(&mut rng);
                assert_eq!(net.evaluate(&pos), reference(&w, &pos));
            }
        }
        assert!(Network::new(&[0; 10]).is_err());
        // A first layer that one board could push past 16 bits is refused.
        let mut big = vec![0i16; WEIGHT_COUNT];
        for s in 0..32 {
            big[s * H1] = 1100;
        }
        assert!(matches!(
            Network::new(&big),
            Err(WeightsError::Overflow { .. })
        ));
        // 29 squares of 1100: 31,900, inside.
        for s in 0..3 {
            big[s * H1] = 0;
        }
        assert!(Network::new(&big).is_ok());
    }

    #[test]
    fn the_second_layer_in_bytes_is_exact_at_a_bytes_limits_and_unused_past_them() {
        // Most first-layer units fully on (128: a large bias), the second layer's weights at
        // a byte's ends (-128 and 127): the largest products a byte path multiplies.
        let mut rng = SplitMix(17);
        let mut w = random_weights(11);
        let (b1, w2) = (INPUTS * H1, INPUTS * H1 + H1);
        for j in 0..H1 {
            w[b1 + j] = if j % 5 == 0 { 0 } else { 2000 };
        }
        for k in 0..H1 * H2 {
            w[w2 + k] = if rng.below(2) == 0 { -128 } else { 127 };
        }
        let mut net = Network::new(&w).unwrap();
        let widest = net.simd;
        for _ in 0..500 {
            let pos = random_position(&mut rng);
            for simd in paths_up_to(widest) {
                net.simd = simd;
                assert_eq!(net.evaluate(&pos), reference(&w, &pos), "{simd:?}");
            }
        }
        // One weight past a byte: the second layer stays in i16.
        w[w2 + 7] = 128;
        let net = Network::new(&w).unwrap();
        assert!(net.simd <= Simd::Avx2, "{:?}", net.simd);
        for _ in 0..500 {
            let pos = random_position(&mut rng);
            assert_eq!(net.evaluate(&pos), reference(&w, &pos));
        }
    }

    #[test]
    fn the_wide_and_the_portable_code_agree() {
        let mut net = Network::new(&random_weights(4)).unwrap();
        let widest = net.simd;
        let mut rng = SplitMix(31);
        for _ in 0..2000 {
            let pos = random_position(&mut rng);
            net.simd = Simd::Portable;
            let portable = net.parts(&pos);
            for simd in paths_up_to(widest).skip(1) {
                net.simd = simd;
                assert_eq!(net.parts(&pos), portable, "{simd:?}");
            }
        }
    }

    #[test]
    fn a_score_does_not_depend_on_the_positions_before_it() {
        // Through one set of accumulators: the positions of random games (few changes from one
        // to the next) and random positions (many), each against the sum from scratch.
        let net = Network::new(&random_weights(7)).unwrap();
        let mut recent = Accumulators::default();
        let mut rng = SplitMix(41);
        let mut checked = 0;
        for game in 0..200 {
            let mut pos = random_position(&mut rng);
            for _ in 0..80 {
                assert_eq!(net.evaluate_from(&pos, &mut recent), net.evaluate(&pos));
                checked += 1;
                if checked % 5 == 0 {
                    // Again, as a search asks: the kept value.
                    assert_eq!(net.evaluate_from(&pos, &mut recent), net.evaluate(&pos));
                }
                let moves = crate::variant::Variant::Russian.legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let m = &moves[rng.below(moves.len() as u64) as usize];
                pos = pos.play(m);
            }
            if game % 3 == 0 {
                recent = Accumulators::default();
            }
        }
        assert!(checked > 2000, "{checked}");
    }

    #[test]
    fn the_evaluation_is_symmetric_under_colour_mirroring() {
        let net = Network::new(&random_weights(9)).unwrap();
        let mut rng = SplitMix(13);
        for _ in 0..2000 {
            let pos = random_position(&mut rng);
            assert_eq!(net.evaluate(&pos), net.evaluate(&pos.mirrored()));
        }
        let pos = parse_fen("B:W18,21,22,K30:B3,K9,10,14").unwrap();
        assert_eq!(net.evaluate(&pos), net.evaluate(&pos.mirrored()));
    }

    #[test]
    fn the_linear_weights_count_each_piece_once() {
        // Only the linear weights of our men (100) and their kings (-300) set.
        let mut w = vec![0i16; WEIGHT_COUNT];
        let lin = WEIGHT_COUNT - INPUTS;
        w[lin..lin + 32].fill(100);
        w[lin + 96..].fill(-300);
        let net = Network::new(&w).unwrap();
        let pos = parse_fen("W:W21,22,23:BK1,K2").unwrap();
        assert_eq!(net.parts(&pos), [300 - 600, 0]);
        // Black to move sees Black's pieces as its own: two kings, no men.
        assert_eq!(
            net.evaluate(&pos.with_side(crate::bitboard::Color::Black)),
            0
        );
    }
}
