//! The transposition table: one table shared by every search thread, without locks.
//!
//! # Race policy
//! Every entry is two `AtomicU64` words: `check = key ^ data` and `data`. Threads read and write
//! them with relaxed ordering and no lock, so two threads may write the same entry at once and a
//! reader may see one word from one write and the other word from another (a torn entry). The
//! xor checksum catches that: a torn entry fails `check ^ data == key` and reads as a miss, unless
//! the two halves happen to agree, which is as likely as a 64-bit key collision. Updates are
//! racy and lossy by design (the last writer wins, a lost write only costs search time); `probe`
//! returns a copy of the data, never a reference into the table. Nothing in the search trusts a
//! hit blindly: the stored move is looked up among the legal moves before it is played.
//!
//! Entries sit in buckets of four (64 bytes, one cache line). A store replaces the entry of the
//! same position, else the entry that is least worth keeping: the shallowest, with entries from
//! older searches (generations) counted as shallower.
//!
//! The table lives in memory aligned to 2 MiB and, on Linux, advised to use transparent huge
//! pages: a probe lands anywhere in tens of MiB, and with 4 KiB pages nearly every probe also
//! missed the TLB (a page walk, which costs twice over in a virtual machine). Profiles of the
//! bench showed a third of the time waiting on the table before this.

use crate::moves::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// How a stored score bounds the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is an upper bound (the search failed low).
    Upper = 1,
    /// The score is a lower bound (the search failed high).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

/// What a probe returns: a copy of one entry's data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best move's fingerprint, 0 for none (see `move_code`).
    pub mv: u16,
    /// Score, with decisive scores relative to this node (see the search).
    pub score: i16,
    /// The static evaluation of the position.
    pub eval: i16,
    /// Remaining depth of the search that stored it.
    pub depth: u8,
    /// The bound type.
    pub bound: Bound,
}

const ENTRIES_PER_BUCKET: usize = 4;
const WORDS_PER_BUCKET: usize = ENTRIES_PER_BUCKET * 2;
/// Generations use the top 6 bits of the flags byte; the bound the low 2.
const GENERATION_MASK: u8 = 0xFC;

/// A compact fingerprint of a move: its start and end squares (`from << 5 | to`, the low bits
/// of `Move::key`) and a hash of the captured set, so that two captures with the same ends but
/// different victims get different codes. Never 0.
#[inline]
pub fn move_code(mv: &Move) -> u16 {
    let fp = (mv.captured().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 59) as u16;
    1 | (mv.key() & 1023) << 1 | fp << 11
}

/// The start and end squares of a move from its code, as `from << 5 | to`.
#[inline(always)]
pub fn code_squares(code: u16) -> u16 {
    code >> 1 & 1023
}

/// Whether a code is a move's without capture: an empty captured set's fingerprint is 0.
#[inline(always)]
pub fn code_is_quiet(code: u16) -> bool {
    code >> 11 == 0
}

/// Zeroed words in memory aligned for huge pages; frees itself.
struct Words {
    ptr: std::ptr::NonNull<AtomicU64>,
    len: usize,
}

// SAFETY: `Words` owns its memory like a `Box<[AtomicU64]>`, and `AtomicU64` is `Send + Sync`.
unsafe impl Send for Words {}
unsafe impl Sync for Words {}

/// The alignment of the table: one huge page.
const HUGE_PAGE: usize = 2 * 1024 * 1024;

impl Words {
    fn layout(len: usize) -> std::alloc::Layout {
        let bytes = (len * 8).next_multiple_of(HUGE_PAGE);
        std::alloc::Layout::from_size_align(bytes, HUGE_PAGE).expect("table layout")
    }

    /// Zeroed words, or `None` when the memory cannot be had.
    fn try_new(len: usize) -> Option<Words> {
        let layout = Words::layout(len.max(1));
        // SAFETY: the layout has a non-zero size; a null result is handled; the memory is
        // advised before its first touch (so that the kernel can back it with huge pages), then
        // zeroed, which is a valid `AtomicU64` bit pattern for every word.
        unsafe {
            let raw = std::alloc::alloc(layout);
            if raw.is_null() {
                return None;
            }
            advise_huge_pages(raw, layout.size());
            std::ptr::write_bytes(raw, 0, layout.size());
            Some(Words {
                ptr: std::ptr::NonNull::new_unchecked(raw as *mut AtomicU64),
                len,
            })
        }
    }
}

impl std::ops::Deref for Words {
    type Target = [AtomicU64];
    #[inline(always)]
    fn deref(&self) -> &[AtomicU64] {
        // SAFETY: `ptr` points to `len` initialised words that live as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl std::ops::DerefMut for Words {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [AtomicU64] {
        // SAFETY: as in `deref`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Words {
    fn drop(&mut self) {
        // SAFETY: allocated in `try_new` with this same layout.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, Words::layout(self.len.max(1))) }
    }
}

/// Asks Linux to back `len` bytes at `ptr` (2 MiB aligned) with transparent huge pages. Only a
/// hint: where it is refused or unsupported, the table works the same on small pages.
#[cfg(target_os = "linux")]
unsafe fn advise_huge_pages(ptr: *mut u8, len: usize) {
    // SAFETY: madvise only changes how the kernel backs the range, which this process owns;
    // its error code is ignored.
    unsafe {
        libc::madvise(ptr.cast(), len, libc::MADV_HUGEPAGE);
    }
}

/// Elsewhere, small pages. Windows has large pages only through `VirtualAlloc` with
/// `MEM_LARGE_PAGES`, which needs the "Lock pages in memory" privilege that accounts lack
/// unless an administrator grants it, and memory that is never paged out; macOS has no hint
/// for an ordinary allocation.
#[cfg(not(target_os = "linux"))]
unsafe fn advise_huge_pages(_ptr: *mut u8, _len: usize) {}

/// The shared transposition table.
pub struct TransTable {
    words: Words,
    buckets: usize,
    /// The age stamped on entries stored now. Atomic so that a new search can start while the
    /// threads of the last one are still winding down (they then store entries of the new
    /// age, which is harmless: an entry's age only weighs its replacement).
    generation: AtomicU8,
}

impl TransTable {
    /// A table of about `mb` MiB (at least one bucket); where that much memory cannot be had,
    /// the largest smaller power-of-two size that can.
    pub fn new(mb: usize) -> TransTable {
        let mut size = mb.max(1);
        loop {
            match TransTable::try_new(size) {
                Some(tt) => return tt,
                None if size > 1 => size = (size / 2).next_power_of_two().min(size - 1).max(1),
                None => std::alloc::handle_alloc_error(Words::layout(WORDS_PER_BUCKET)),
            }
        }
    }

    /// A table of about `mb` MiB, or `None` when the memory cannot be allocated.
    pub fn try_new(mb: usize) -> Option<TransTable> {
        let buckets = (mb.max(1).checked_mul(1024 * 1024)? / (WORDS_PER_BUCKET * 8)).max(1);
        let words = Words::try_new(buckets.checked_mul(WORDS_PER_BUCKET)?)?;
        Some(TransTable {
            words,
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// Forgets every entry (a new game).
    pub fn clear(&mut self) {
        for w in self.words.iter_mut() {
            *w.get_mut() = 0;
        }
        *self.generation.get_mut() = 0;
    }

    /// Starts a new search: entries stored from now on are younger than the ones before.
    pub fn new_search(&self) {
        let next = self.generation().wrapping_add(4) & GENERATION_MASK;
        self.generation.store(next, Ordering::Relaxed);
    }

    /// The current age.
    #[inline(always)]
    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed)
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto any number of buckets without a modulo.
        ((key as u128 * self.buckets as u128) >> 64) as usize * WORDS_PER_BUCKET
    }

    /// The words of `key`'s bucket, bounds-checked once rather than at every word.
    #[inline(always)]
    fn bucket_words(&self, key: u64) -> &[AtomicU64; WORDS_PER_BUCKET] {
        let b = self.bucket(key);
        self.words[b..b + WORDS_PER_BUCKET]
            .try_into()
            .expect("a bucket lies inside the table")
    }

    /// Hints the processor to fetch the bucket of `key`.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        unsafe {
            // SAFETY: prefetching is a hint with no effect on memory; the address is in bounds.
            let p = self.words.as_ptr().add(self.bucket(key)) as *const i8;
            std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any (a copy).
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let words = self.bucket_words(key);
        for i in 0..ENTRIES_PER_BUCKET {
            let check = words[2 * i].load(Ordering::Relaxed);
            let data = words[2 * i + 1].load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores an entry for `key`. An existing entry's move is kept when the new one has none.
    #[inline]
    pub fn store(&self, key: u64, mut mv: u16, score: i32, eval: i32, depth: i32, bound: Bound) {
        let words = self.bucket_words(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for i in 0..ENTRIES_PER_BUCKET {
            let check = words[2 * i].load(Ordering::Relaxed);
            let data = words[2 * i + 1].load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                if data != 0 {
                    let old = unpack(data);
                    // Keep a deeper exact result of this search rather than overwrite it with
                    // a shallower bound.
                    if bound != Bound::Exact
                        && old.depth as i32 > depth + 2
                        && flags_generation(data) == self.generation()
                    {
                        return;
                    }
                    if mv == 0 {
                        mv = old.mv;
                    }
                }
                victim = i;
                break;
            }
            let age =
                (self.generation().wrapping_sub(flags_generation(data)) & GENERATION_MASK) as i32;
            let worth = unpack(data).depth as i32 - 2 * age;
            if worth < worst {
                worst = worth;
                victim = i;
            }
        }
        let data = pack(mv, score, eval, depth, bound, self.generation());
        words[2 * victim].store(key ^ data, Ordering::Relaxed);
        words[2 * victim + 1].store(data, Ordering::Relaxed);
    }

    /// The fill in permille, from a sample of the first thousand entries of this search.
    pub fn hashfull(&self) -> u32 {
        let n = (1000 / ENTRIES_PER_BUCKET).min(self.buckets) * ENTRIES_PER_BUCKET;
        let mut used = 0;
        for i in 0..n {
            let data = self.words[2 * i + 1].load(Ordering::Relaxed);
            if data != 0 && flags_generation(data) == self.generation() {
                used += 1;
            }
        }
        (used * 1000 / n.max(1)) as u32
    }
}

#[inline(always)]
fn flags_generation(data: u64) -> u8 {
    (data >> 56) as u8 & GENERATION_MASK
}

#[inline(always)]
fn pack(mv: u16, score: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let depth = depth.clamp(0, 255) as u64;
    let flags = (generation | bound as u8) as u64;
    mv as u64
        | (score as i16 as u16 as u64) << 16
        | (eval as i16 as u16 as u64) << 32
        | depth << 48
        | flags << 56
}

#[inline(always)]
fn unpack(data: u64) -> Entry {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    Entry {
        mv: data as u16,
        score: (data >> 16) as u16 as i16,
        eval: (data >> 32) as u16 as i16,
        depth: (data >> 48) as u8,
        bound,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Square;

    #[test]
    fn store_then_probe_round_trips() {
        let tt = TransTable::new(1);
        let mv = Move::quiet(Square::from_index(21), Square::from_index(17), false);
        tt.store(0xDEAD_BEEF, move_code(&mv), -1234, 56, 7, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!(
            e,
            Entry {
                mv: move_code(&mv),
                score: -1234,
                eval: 56,
                depth: 7,
                bound: Bound::Lower
            }
        );
        assert_eq!(tt.probe(0xDEAD_BEEE), None);
    }

    #[test]
    fn torn_entry_reads_as_miss() {
        let tt = TransTable::new(1);
        tt.store(42, 1, 10, 0, 3, Bound::Exact);
        let b = tt.bucket(42);
        // Another write's data half lands under this entry's check word.
        tt.words[b + 1].store(pack(1, 99, 0, 3, Bound::Exact, 0), Ordering::Relaxed);
        assert_eq!(tt.probe(42), None);
    }

    #[test]
    fn clear_forgets_and_hashfull_counts() {
        let mut tt = TransTable::new(1);
        for k in 0..10_000u64 {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                0,
                0,
                0,
                1,
                Bound::Exact,
            );
        }
        assert!(tt.hashfull() > 0);
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
        assert_eq!(tt.probe(0), None);
    }
}
