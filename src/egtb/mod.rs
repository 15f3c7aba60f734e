//! Endgame databases that Crownhead builds itself: the game-theoretic value (win, draw or loss
//! for the side to move, a repetition being a draw, no move-count rule) and the distance of every
//! position with few pieces, in either variant. See docs/EGTB.md.
//!
//! The **distance** of a won or lost position is the number of plies to the end of the game
//! under best play: the winner ends it as fast as it can, the loser holds on as long as it can,
//! and the game ends when the side to move has no legal move (no pieces, or all blocked). A
//! position without a legal move is lost at distance 0; a position whose best move captures the
//! last enemy piece is won at distance 1. Draws have distance 0.
//!
//! Only positions with White to move are stored (`material` explains the mirror); `Tablebase`
//! answers for either side to move.
//!
//! The search probes through `Databases` and a `Prober` per thread (`prober.rs`).
//!
//! **Race policy**: a `Tablebase` loads slices on demand into a cache behind a mutex, held only
//! to look up or insert an `Arc`; a loaded `Table` is immutable and read without a lock, and a
//! probe returns a copy of the value.

mod build;
mod error;
mod file;
mod index;
pub mod material;
pub mod plan;
mod prober;
mod retro;

pub use build::{build, BuildOptions, BuildReport, MAX_PIECES};
pub use error::{EgtbError, FileProblem};
pub use file::Table;
pub use index::Indexer;
pub use material::{Material, MaterialError};
pub use prober::Databases;
pub(crate) use prober::{pieces_on_disk, Prober};

use crate::bitboard::Color;
use crate::moves::Move;
use crate::position::Position;
use crate::variant::Variant;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A game-theoretic value, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Neither side can force a win.
    Draw,
    /// The side to move wins.
    Win,
    /// The side to move loses.
    Loss,
}

impl Value {
    /// The 2-bit code in files: 0 draw, 1 win, 2 loss.
    pub const fn code(self) -> u8 {
        match self {
            Value::Draw => 0,
            Value::Win => 1,
            Value::Loss => 2,
        }
    }

    /// The value of a 2-bit code (3, which files never hold, reads as a draw).
    pub const fn from_code(code: u8) -> Value {
        match code {
            1 => Value::Win,
            2 => Value::Loss,
            _ => Value::Draw,
        }
    }

    /// The value for the other side.
    pub const fn flip(self) -> Value {
        match self {
            Value::Draw => Value::Draw,
            Value::Win => Value::Loss,
            Value::Loss => Value::Win,
        }
    }

    /// The place in (wins, draws, losses).
    pub(crate) const fn count_slot(self) -> usize {
        match self {
            Value::Win => 0,
            Value::Draw => 1,
            Value::Loss => 2,
        }
    }

    /// `win`, `draw` or `loss`.
    pub const fn name(self) -> &'static str {
        match self {
            Value::Draw => "draw",
            Value::Win => "win",
            Value::Loss => "loss",
        }
    }
}

/// What the databases say of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The value for the side to move.
    pub value: Value,
    /// Plies to the end of the game under best play (0 for a draw).
    pub distance: u16,
}

impl Probe {
    /// What a move to a position of this value is worth to the side that plays it: the value
    /// turned round, one ply further from the end (a draw stays at 0). A best move is one whose
    /// child gives back exactly its position's own probe.
    pub fn before(self) -> Probe {
        Probe {
            value: self.value.flip(),
            distance: if self.value == Value::Draw {
                0
            } else {
                self.distance + 1
            },
        }
    }
}

/// The default database directory: `$XDG_DATA_HOME/crownhead/egtb`, else
/// `$HOME/.local/share/crownhead/egtb`; on Windows first `%LOCALAPPDATA%\crownhead\egtb`,
/// where Windows programs keep their data for one user and machine (Windows has no `HOME`
/// unless a Unix-like shell sets one).
pub fn default_dir() -> Result<PathBuf, EgtbError> {
    let nonempty = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    #[cfg(windows)]
    if let Some(local) = nonempty("LOCALAPPDATA") {
        return Ok(PathBuf::from(local).join("crownhead").join("egtb"));
    }
    if let Some(data) = nonempty("XDG_DATA_HOME") {
        return Ok(PathBuf::from(data).join("crownhead").join("egtb"));
    }
    nonempty("HOME")
        .map(|home| PathBuf::from(home).join(".local/share/crownhead/egtb"))
        .ok_or(EgtbError::NoDirectory)
}

/// The slices in memory, by `Material::code`, for lookups without a lock (the builder's view).
#[derive(Clone)]
pub(crate) struct Lookup {
    tables: Vec<Option<Arc<Table>>>,
}

impl Lookup {
    /// The value and distance of `pos` (White to move), whose slice must be present. A side to
    /// move without pieces has lost (the one-sided positions are not stored).
    #[inline]
    pub(crate) fn get(&self, pos: &Position) -> (Value, u16) {
        debug_assert_eq!(pos.side(), Color::White);
        if pos.pieces(Color::White) == 0 {
            return (Value::Loss, 0);
        }
        let m = Material::of(pos);
        let table = self.tables[m.code()]
            .as_ref()
            .expect("the builder loads every slice a pair depends on first");
        table.probe(pos)
    }
}

/// The databases of one variant in one directory, loaded slice by slice on demand.
///
/// ```
/// use crownhead::egtb::{self, BuildOptions, EgtbError, Tablebase, Value};
/// use crownhead::{full_text, parse_fen, SquareStyle, Variant};
///
/// // The 2-piece English databases, built in a moment into a directory of their own.
/// let dir = std::env::temp_dir().join(format!("crownhead-doc-egtb-{}", std::process::id()));
/// let options = BuildOptions {
///     dir: dir.clone(),
///     variant: Variant::English,
///     pieces: 2,
///     only: None,
///     exact: false,
/// };
/// egtb::build(&options, &mut |_progress| {}).expect("built");
///
/// let base = Tablebase::new(&dir, Variant::English);
/// // Black to move takes White's last piece: a win at once.
/// let pos = parse_fen("B:WK18:BK15").expect("a valid FEN");
/// let (probe, best) = base.best_moves(&pos).expect("2 pieces are built");
/// assert_eq!((probe.value, probe.distance), (Value::Win, 1));
/// let best: Vec<String> = best.iter().map(|m| full_text(m, SquareStyle::Numeric)).collect();
/// assert_eq!(best, ["15x22"]);
///
/// // A position with more pieces than were built: the missing file is named.
/// let three = parse_fen("W:WK1,K2:BK32").expect("a valid FEN");
/// match base.probe(&three) {
///     Err(EgtbError::Missing { path }) => assert!(path.starts_with(&dir)),
///     other => panic!("expected a missing slice, got {other:?}"),
/// }
/// # std::fs::remove_dir_all(&dir).ok();
/// ```
pub struct Tablebase {
    dir: PathBuf,
    variant: Variant,
    cache: Mutex<Vec<Option<Arc<Table>>>>,
}

impl Tablebase {
    /// The databases of `variant` under `dir` (nothing is read until a probe needs it).
    pub fn new(dir: &Path, variant: Variant) -> Tablebase {
        Tablebase {
            dir: dir.to_path_buf(),
            variant,
            cache: Mutex::new(vec![None; Material::CODES]),
        }
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The slice of `m` (White to move), read and checked on first use.
    pub fn table(&self, m: Material) -> Result<Arc<Table>, EgtbError> {
        if let Some(t) = &self.lock()[m.code()] {
            return Ok(t.clone());
        }
        // Read outside the lock: another thread may read the same file meanwhile, which wastes
        // time but not correctness (both copies are equal; the first inserted wins).
        let table = Arc::new(file::read(&self.dir, self.variant, m)?);
        Ok(self.lock()[m.code()].get_or_insert(table).clone())
    }

    /// The size of `m`'s file, if there is one.
    pub fn file_len(&self, m: Material) -> Option<u64> {
        let meta = std::fs::metadata(file::path(&self.dir, self.variant, m)).ok()?;
        Some(meta.len())
    }

    /// The slice of `m` if it is in memory already (never reads a file).
    pub fn cached(&self, m: Material) -> Option<Arc<Table>> {
        self.lock()[m.code()].clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Option<Arc<Table>>>> {
        // A panic elsewhere while holding the lock leaves the cache consistent (one store).
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Puts a slice just built into the cache.
    pub(crate) fn insert(&self, table: Table) {
        let code = table.material().code();
        self.lock()[code] = Some(Arc::new(table));
    }

    /// Drops from memory every slice whose material `keep` refuses (the builder's way to hold
    /// only what later slices need).
    pub(crate) fn retain(&self, keep: impl Fn(Material) -> bool) {
        for slot in self.lock().iter_mut() {
            if slot.as_ref().is_some_and(|t| !keep(t.material())) {
                *slot = None;
            }
        }
    }

    /// A lock-free view of the slices of `needed` (and only those), reading those not yet in
    /// memory.
    pub(crate) fn lookup(&self, needed: &[Material]) -> Result<Lookup, EgtbError> {
        let mut tables = vec![None; Material::CODES];
        for &m in needed {
            tables[m.code()] = Some(self.table(m)?);
        }
        Ok(Lookup { tables })
    }

    /// The value and distance of `pos`, for its side to move.
    pub fn probe(&self, pos: &Position) -> Result<Probe, EgtbError> {
        if pos.pieces(pos.side()) == 0 {
            // No pieces: no legal move, lost; not stored, but a fact of the rules.
            return Ok(Probe {
                value: Value::Loss,
                distance: 0,
            });
        }
        if pos.pieces(pos.side().opponent()) == 0 {
            return Err(EgtbError::NotInDatabase(
                "the side not to move has no pieces (the game is over)".into(),
            ));
        }
        if index::man_on_crowning_row(pos) {
            return Err(EgtbError::NotInDatabase(
                "a man stands on its crowning row".into(),
            ));
        }
        let canon = if pos.side() == Color::White {
            *pos
        } else {
            pos.mirrored()
        };
        let m = Material::of(&canon);
        let (value, distance) = self.table(m)?.probe(&canon);
        Ok(Probe { value, distance })
    }

    /// The value of `pos` and its best moves: for a win, the moves to a lost position at the
    /// least distance; for a loss, the moves that last the longest; for a draw, the drawing
    /// moves.
    pub fn best_moves(&self, pos: &Position) -> Result<(Probe, Vec<Move>), EgtbError> {
        let probe = self.probe(pos)?;
        let mut best = Vec::new();
        for mv in self.variant.legal_moves(pos) {
            if self.probe(&pos.play(&mv))?.before() == probe {
                best.push(mv);
            }
        }
        Ok((probe, best))
    }

    /// One line of statistics per material of 2 to `max_pieces` pieces and side to move, in the
    /// form of `StatsLine`'s `Display`.
    pub fn stats(&self, max_pieces: u32) -> Result<Vec<StatsLine>, EgtbError> {
        let mut out = Vec::new();
        for m in material::all(max_pieces) {
            for side in [Color::White, Color::Black] {
                // Black to move with material m is stored as White to move with m swapped.
                let stored = if side == Color::White { m } else { m.swapped() };
                let t = self.table(stored)?;
                let (win, draw, loss) = t.counts();
                out.push(StatsLine {
                    material: m,
                    side,
                    positions: t.size(),
                    win,
                    draw,
                    loss,
                });
            }
        }
        Ok(out)
    }
}

/// The statistics of one material and side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatsLine {
    /// The material (White is the side that started on 21-32).
    pub material: Material,
    /// The side to move.
    pub side: Color,
    /// The number of positions.
    pub positions: u64,
    /// Positions won by the side to move.
    pub win: u64,
    /// Positions drawn.
    pub draw: u64,
    /// Positions lost by the side to move.
    pub loss: u64,
}

impl std::fmt::Display for StatsLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} stm={} positions={} win={} draw={} loss={}",
            self.material,
            self.side.letter(),
            self.positions,
            self.win,
            self.draw,
            self.loss
        )
    }
}
