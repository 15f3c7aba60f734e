//! Zobrist hashing keys, generated at compile time from a fixed seed so that keys (and so every
//! search that depends on them) are the same on every machine and every run.

/// A deterministic 64-bit mixer (SplitMix64).
const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

const fn table(seed: u64) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = splitmix(seed.wrapping_mul(1000).wrapping_add(i as u64));
        i += 1;
    }
    t
}

/// Keys by padded bit index: `PIECE[color * 2 + is_king][bit]`.
pub static PIECE: [[u64; 64]; 4] = [table(1), table(2), table(3), table(4)];

/// `PIECE` by square index (0-31) rather than by bit: `play` knows a move's squares, and reads
/// these without turning them into bit indices.
static PIECE_BY_SQUARE: [[u64; 32]; 4] = {
    let mut t = [[0u64; 32]; 4];
    let mut k = 0;
    while k < 4 {
        let mut i = 0;
        while i < 32 {
            t[k][i] = PIECE[k][crate::bitboard::Square::from_index(i as u8).bit_index() as usize];
            i += 1;
        }
        k += 1;
    }
    t
};

/// Toggled when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix(0xC0FFEE);

/// The key of one piece.
#[inline(always)]
pub fn piece(color_index: usize, king: bool, bit_index: u32) -> u64 {
    debug_assert!(bit_index < 64);
    // Board bits are below 35: the mask changes no index, it only spares `play` a bounds check.
    PIECE[color_index * 2 + king as usize][bit_index as usize & 63]
}

/// The key of one piece on square `sq`: `piece` with the bit index of `sq`.
#[inline(always)]
pub fn piece_on(color_index: usize, king: bool, sq: crate::bitboard::Square) -> u64 {
    // A square index is below 32: the mask changes nothing but spares a bounds check.
    PIECE_BY_SQUARE[color_index * 2 + king as usize][sq.index() & 31]
}
