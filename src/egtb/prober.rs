//! What the search probes: `Databases` (the tablebase of one variant and how many pieces are on
//! disk, found once when the engine is told where to look) and `Prober`, one per search thread,
//! which keeps its own table of the slices it has used, so that a probe on a warm cache takes no
//! lock at all.
//!
//! **Loading never blocks the search.** A slice is read on demand, but by the databases' loader
//! thread: the first probe of a slice not in memory asks for it and answers `None` (the node is
//! searched as without databases) until it is there. Reading and checking a 5-piece slice takes
//! tens of milliseconds, the whole 5-piece set about a second on a loaded machine: done inside
//! a search, that lost games on time at 0.1 s a move. `Databases::load_all` reads everything
//! first, for callers that want a search that does not depend on when slices arrive (tests).
//! Two things soften the wait: when the files of a variant take at most `WARM_UP_BYTES`, all of
//! them are asked for as soon as the databases are opened (5 pieces: 182 MB a variant, read in
//! about a second, long before a game reaches its ending); and the root's moves are probed with
//! `probe_now`, which reads the few slices they need at once, so the root plays the databases'
//! move, unless a slice's file is too large to read while the clock runs (`READ_NOW_BYTES`:
//! some 6-piece slices): that one is left to the loader, and the root has it a move later.
//!
//! **Race policy**: a `Prober` belongs to one thread and is never shared. It asks the
//! `Tablebase` (one mutex, held to look up or insert an `Arc`) for a slice until it has it, then
//! keeps the `Arc<Table>`; every later probe of that material is a plain read of an immutable
//! table. The per-material request states are atomics: a slice is requested once
//! (compare-and-swap), and one that cannot be read (missing or bad) is marked failed and not
//! asked for again.

use super::{material, Material, Probe, Table, Tablebase, Value};
use crate::bitboard::Color;
use crate::position::Position;
use crate::variant::Variant;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::Arc;

/// Up to this many bytes of files, a variant's slices are all read in the background when the
/// databases are opened; beyond (6 pieces: 3 GB), only on demand.
const WARM_UP_BYTES: u64 = 512 << 20;

/// The largest file `Prober::probe_now` reads while the caller waits: every slice up to 5
/// pieces (at most 12 MB, some 20 ms to read and check), the smaller ones of 6. The root's
/// moves lead to a handful of materials, so the wait stays a fraction of a 0.1 s move.
const READ_NOW_BYTES: u64 = 16 << 20;

/// A slice's loading state (`Loader::state`).
const IDLE: u8 = 0;
const REQUESTED: u8 = 1;
const FAILED: u8 = 2;

/// The loader thread's end: requests go in, tables come out in the `Tablebase`'s cache.
struct Loader {
    state: Vec<AtomicU8>,
    requests: Sender<Material>,
}

impl Loader {
    /// Starts the loader thread of `base`. The thread ends when the last `Databases` and
    /// `Prober` holding the loader are gone (its channel closes).
    fn start(base: &Arc<Tablebase>) -> Option<Arc<Loader>> {
        let (requests, inbox) = channel::<Material>();
        let loader = Arc::new(Loader {
            state: (0..Material::CODES).map(|_| AtomicU8::new(IDLE)).collect(),
            requests,
        });
        let (b, l) = (Arc::clone(base), Arc::downgrade(&loader));
        std::thread::Builder::new()
            .name("egtb-loader".into())
            .spawn(move || {
                for m in inbox {
                    if let Err(e) = b.table(m) {
                        if let Some(l) = l.upgrade() {
                            l.state[m.code()].store(FAILED, Ordering::Release);
                        }
                        note_unusable(m, &e);
                    }
                }
            })
            .ok()?;
        Some(loader)
    }
}

/// Logs a slice that cannot be used: a partial set lacks slices by design, a bad file is
/// worth a warning.
fn note_unusable(m: Material, e: &super::EgtbError) {
    match e {
        super::EgtbError::Missing { .. } => log::debug!("{e}"),
        _ => log::warn!("endgame database not used for {m}: {e}"),
    }
}

/// The databases of one variant that the search uses: every slice up to `pieces` is on disk.
#[derive(Clone)]
pub struct Databases {
    base: Arc<Tablebase>,
    pieces: u32,
    dir: PathBuf,
    /// `None` if no thread could be started: probes then read slices themselves.
    loader: Option<Arc<Loader>>,
}

impl Databases {
    /// The databases of `variant` under `dir`, if it holds any slice: the piece count is that of
    /// the largest slice there. A partial set (built with `--material`) is fine: a position
    /// whose slice is missing is not probed. The files are checked when first probed, not here,
    /// so that opening costs only a `stat` per material.
    pub fn open(dir: &Path, variant: Variant) -> Option<Databases> {
        let pieces = pieces_on_disk(dir, variant);
        if pieces < 2 {
            return None;
        }
        let base = Arc::new(Tablebase::new(dir, variant));
        let loader = Loader::start(&base);
        if let Some(loader) = &loader {
            let on_disk: Vec<(Material, u64)> = material::all(pieces)
                .into_iter()
                .filter_map(|m| Some((m, base.file_len(m)?)))
                .collect();
            if on_disk.iter().map(|(_, n)| n).sum::<u64>() <= WARM_UP_BYTES {
                for (m, _) in on_disk {
                    loader.state[m.code()].store(REQUESTED, Ordering::Release);
                    let _ = loader.requests.send(m);
                }
            }
        }
        Some(Databases {
            loader,
            base,
            pieces,
            dir: dir.to_path_buf(),
        })
    }

    /// Reads every slice on disk now (see the module's opening comment); slices that cannot be
    /// read are logged and left out.
    pub fn load_all(&self) {
        for m in material::all(self.pieces) {
            if let Err(e) = self.base.table(m) {
                if let Some(l) = &self.loader {
                    l.state[m.code()].store(FAILED, Ordering::Release);
                }
                note_unusable(m, &e);
            }
        }
    }

    /// The most pieces of a position the databases answer for.
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// The directory given (the variant's files are in a subdirectory).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.base.variant()
    }

    /// A prober for one search thread.
    pub fn prober(&self) -> Prober {
        Prober {
            base: Arc::clone(&self.base),
            loader: self.loader.clone(),
            pieces: self.pieces,
            slots: vec![Slot::Unknown; Material::CODES],
            read_now_limit: READ_NOW_BYTES,
        }
    }
}

/// The most pieces of any slice of `variant` under `dir` (0 when there is none).
pub fn pieces_on_disk(dir: &Path, variant: Variant) -> u32 {
    material::all(super::build::MAX_PIECES)
        .into_iter()
        .filter(|&m| super::file::path(dir, variant, m).is_file())
        .map(|m| m.pieces())
        .max()
        .unwrap_or(0)
}

#[derive(Clone)]
enum Slot {
    /// Not asked for yet.
    Unknown,
    Loaded(Arc<Table>),
    /// Missing or bad: not probed again.
    Unusable,
}

/// One search thread's view of the databases (see the race policy above).
pub struct Prober {
    base: Arc<Tablebase>,
    loader: Option<Arc<Loader>>,
    pieces: u32,
    slots: Vec<Slot>,
    /// `READ_NOW_BYTES`, but for tests.
    read_now_limit: u64,
}

impl Prober {
    /// The most pieces of a position the databases answer for.
    #[inline]
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// The value and distance of `pos` for its side to move, or `None` when the databases do
    /// not hold it (too many pieces, the side not to move has none, a slice that cannot be
    /// read). The caller makes sure no capture is pending if it wants a quiet position's value;
    /// the databases answer for positions with a capture too.
    #[inline]
    pub fn probe(&mut self, pos: &Position) -> Option<Probe> {
        if pos.piece_count() > self.pieces || pos.pieces(pos.side().opponent()) == 0 {
            return None;
        }
        if pos.pieces(pos.side()) == 0 {
            return Some(Probe {
                value: Value::Loss,
                distance: 0,
            });
        }
        let canon = if pos.side() == Color::White {
            *pos
        } else {
            pos.mirrored()
        };
        if super::index::man_on_crowning_row(&canon) {
            return None;
        }
        let m = Material::of(&canon);
        if let Slot::Unknown = self.slots[m.code()] {
            self.load(m);
        }
        let Slot::Loaded(table) = &self.slots[m.code()] else {
            return None;
        };
        let (value, distance) = table.probe(&canon);
        Some(Probe { value, distance })
    }

    /// As `probe`, but a slice not in memory is read now (the caller waits) if its file takes
    /// at most `READ_NOW_BYTES`: for the few probes of the root's moves.
    pub fn probe_now(&mut self, pos: &Position) -> Option<Probe> {
        if let Some(p) = self.probe(pos) {
            return Some(p);
        }
        if pos.piece_count() > self.pieces || pos.pieces(pos.side().opponent()) == 0 {
            return None;
        }
        let canon = if pos.side() == Color::White {
            *pos
        } else {
            pos.mirrored()
        };
        let m = Material::of(&canon);
        if let Slot::Unknown = self.slots[m.code()] {
            if self.base.file_len(m).unwrap_or(0) > self.read_now_limit {
                // Too long to read while the clock runs (a 6-piece slice: up to 156 MB, a
                // third of a second): asked of the loader, like any probe, for the next move.
                self.load(m);
                return None;
            }
            // Read here; the loader may read it too, which costs time, not correctness (the
            // cache keeps the first).
            self.slots[m.code()] = match self.base.table(m) {
                Ok(t) => Slot::Loaded(t),
                Err(e) => {
                    note_unusable(m, &e);
                    Slot::Unusable
                }
            };
        }
        self.probe(pos)
    }

    /// A probe of material `m` before this thread has its slice: from the tablebase's cache
    /// if it is there, else asked of the loader (once for all threads), leaving the slot
    /// unknown so that a later probe looks again.
    #[cold]
    #[inline(never)]
    fn load(&mut self, m: Material) {
        if let Some(t) = self.base.cached(m) {
            self.slots[m.code()] = Slot::Loaded(t);
            return;
        }
        let Some(loader) = &self.loader else {
            // No loader thread: read here (the search waits).
            self.slots[m.code()] = match self.base.table(m) {
                Ok(t) => Slot::Loaded(t),
                Err(e) => {
                    note_unusable(m, &e);
                    Slot::Unusable
                }
            };
            return;
        };
        let state = &loader.state[m.code()];
        match state.compare_exchange(IDLE, REQUESTED, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => {
                if loader.requests.send(m).is_err() {
                    state.store(FAILED, Ordering::Release);
                }
            }
            Err(FAILED) => self.slots[m.code()] = Slot::Unusable,
            Err(_) => {} // on its way
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_fen;

    #[test]
    fn nothing_on_disk_opens_nothing() {
        // (A directory that does not exist.)
        let dir = std::env::temp_dir().join(format!("crownhead-prober-{}", std::process::id()));
        assert_eq!(pieces_on_disk(&dir, Variant::English), 0);
        assert!(Databases::open(&dir, Variant::English).is_none());
    }

    #[test]
    fn probes_agree_with_the_tablebase() {
        let dir = std::env::temp_dir().join(format!("crownhead-prober3-{}", std::process::id()));
        let opts = super::super::BuildOptions {
            dir: dir.clone(),
            variant: Variant::English,
            pieces: 3,
            only: None,
            exact: false,
        };
        super::super::build(&opts, &mut |_| {}).unwrap();
        let db = Databases::open(&dir, Variant::English).unwrap();
        assert_eq!(db.pieces(), 3);
        db.load_all();
        let mut p = db.prober();
        let base = Tablebase::new(&dir, Variant::English);
        for fen in [
            "W:WK1,K2:BK32",
            "B:WK1,K2:BK32",
            "W:W22:BK5",
            "B:W22,K30:B9",
        ] {
            let pos = parse_fen(fen).unwrap();
            assert_eq!(p.probe(&pos), Some(base.probe(&pos).unwrap()), "{fen}");
        }
        // Four pieces: not on disk.
        assert_eq!(p.probe(&parse_fen("W:WK1,K2:BK32,K31").unwrap()), None);

        // A slice too large to read while the clock runs is left to the loader: `probe_now`
        // answers nothing at first, and the value once the loader has it.
        let db = Databases::open(&dir, Variant::English).unwrap();
        let pos = parse_fen("W:WK1,K2:BK32").unwrap();
        let want = Some(base.probe(&pos).unwrap());
        if db.loader.is_some() {
            // (Opening asked for every slice of a small set at once: a fresh base and loader
            // without that warm-up.)
            let cold = Databases {
                base: Arc::new(Tablebase::new(&dir, Variant::English)),
                ..db.clone()
            };
            let mut p = Prober {
                loader: Loader::start(&cold.base),
                read_now_limit: 0,
                ..cold.prober()
            };
            assert_eq!(p.probe_now(&pos), None);
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
            while p.probe_now(&pos).is_none() && std::time::Instant::now() < deadline {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            assert_eq!(p.probe_now(&pos), want);
        }
        // Under the limit it is read at once, loader or not.
        let cold = Arc::new(Tablebase::new(&dir, Variant::English));
        let mut p = Prober {
            loader: Loader::start(&cold),
            base: cold,
            ..db.prober()
        };
        assert_eq!(p.probe_now(&pos), want);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
