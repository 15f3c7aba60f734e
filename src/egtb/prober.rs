//! What the search probes: `Databases` (the tablebase of one variant and how many pieces are on
//! disk, found once when the engine is told where to look) and `Prober`, one per search thread,
//! which keeps its own table of the slices it has used, so that a probe on a warm cache takes no
//! lock at all.
//!
//! **Race policy**: a `Prober` belongs to one thread and is never shared. On its first probe of
//! a material it asks the `Tablebase` (one mutex, held to look up or insert an `Arc`) and keeps
//! the `Arc<Table>`; every later probe of that material is a plain read of an immutable table.
//! A slice that cannot be read (missing or bad) is remembered as such and never asked for again
//! in this search; the error is logged once per thread.

use super::{material, Material, Probe, Table, Tablebase, Value};
use crate::bitboard::Color;
use crate::position::Position;
use crate::variant::Variant;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The databases of one variant that the search uses: every slice up to `pieces` is on disk.
#[derive(Clone)]
pub struct Databases {
    base: Arc<Tablebase>,
    pieces: u32,
    dir: PathBuf,
}

impl Databases {
    /// The databases of `variant` under `dir`, if it holds any slice: the piece count is that of
    /// the largest slice there. A partial set (built with `--material`) is fine: a position
    /// whose slice is missing is not probed. The files are checked when first probed, not here,
    /// so that opening costs only a `stat` per material.
    pub fn open(dir: &Path, variant: Variant) -> Option<Databases> {
        let pieces = pieces_on_disk(dir, variant);
        (pieces >= 2).then(|| Databases {
            base: Arc::new(Tablebase::new(dir, variant)),
            pieces,
            dir: dir.to_path_buf(),
        })
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
            pieces: self.pieces,
            slots: vec![Slot::Unknown; Material::CODES],
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
    pieces: u32,
    slots: Vec<Slot>,
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

    /// The first probe of material `m` in this thread: through the tablebase's cache.
    #[cold]
    #[inline(never)]
    fn load(&mut self, m: Material) {
        self.slots[m.code()] = match self.base.table(m) {
            Ok(t) => Slot::Loaded(t),
            // A partial set lacks slices by design; a bad file is worth a warning.
            Err(e @ super::EgtbError::Missing { .. }) => {
                log::debug!("{e}");
                Slot::Unusable
            }
            Err(e) => {
                log::warn!("endgame database not used for {m}: {e}");
                Slot::Unusable
            }
        };
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
        };
        super::super::build(&opts, &mut |_| {}).unwrap();
        let db = Databases::open(&dir, Variant::English).unwrap();
        assert_eq!(db.pieces(), 3);
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
        let _ = std::fs::remove_dir_all(&dir);
    }
}
