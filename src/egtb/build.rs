//! The solver: retrograde analysis, one pair of slices at a time (`material::build_order`),
//! parallel with rayon.
//!
//! For each position of the pair, a first pass generates the legal moves. Moves that capture or
//! crown lead to slices solved before, whose values are looked up; the quiet moves that stay in
//! the pair are counted. Then the positions are settled in order of distance, level by level:
//! a position lost at distance d makes each of its predecessors (`retro`) won at d + 1, and a
//! position won at d takes one from the count of each predecessor, which is lost when its count
//! reaches zero and none of its moves out of the pair draws or wins, at distance
//! `max(d + 1, 1 + the longest of its moves out of the pair)`. A win found by a move out of the
//! pair waits in the list of its level, since a shorter win inside the pair may still come. What
//! is never settled is a draw: neither side can force the end of the game from it, so play
//! could go on (and repeat) forever.
//!
//! Within a level the order of the work does not matter: every position settled at level d gets
//! the same value and distance whichever thread settles it (compare-and-swap on the value, and
//! the count reaches zero exactly once), so the tables are the same for any number of threads.
//!
//! Memory while a pair is solved: 6 bytes a position of the pair (value, count, distance, floor),
//! plus the lists of pending positions (8 bytes an entry, each position at most twice), plus
//! the slices that the pair or pairs still to come depend on (2 bits and one or two bytes a
//! position); slices no later pair needs are dropped from memory once written.

use super::file::{self, Table};
use super::material::{self, Material};
use super::retro::predecessors;
use super::{EgtbError, Indexer, Lookup, Tablebase, Value};
use crate::moves::Move;
use crate::position::Position;
use crate::variant::{Rules, Variant};
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU16, AtomicU8, Ordering::Relaxed};
use std::time::Instant;

/// The most pieces `build` accepts: beyond that a pair no longer fits this design (docs/EGTB.md).
pub const MAX_PIECES: u32 = 7;

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// The database directory (a subdirectory per variant is made in it).
    pub dir: PathBuf,
    /// The variant.
    pub variant: Variant,
    /// Every slice with 2 to this many pieces is built...
    pub pieces: u32,
    /// ... or, if given, only this material's slice, its mirror, and the slices their moves can
    /// lead to (`needed_by`), which is far less for a king-only material.
    pub only: Option<Material>,
    /// With `only`: build that material's pair alone, reading just the slices its moves lead
    /// to, which must be on disk already (`EgtbError::Missing` otherwise). A cluster builds each
    /// pair as its own task once its dependencies are done (scripts/tools/cluster); without this,
    /// each task would read and check every slice below it, and keep them all in memory.
    pub exact: bool,
}

/// What a build did.
#[derive(Clone, Debug, Default)]
pub struct BuildReport {
    /// Slices solved and written.
    pub built: usize,
    /// Slices found already built and skipped.
    pub skipped: usize,
    /// Positions in the slices built.
    pub positions: u64,
}

/// Builds every slice of `opts` that is not built yet, in dependency order, reporting progress
/// lines to `progress`. A slice already on disk is checked (as when probing) and skipped; a bad
/// one stops the build with its error rather than being overwritten unseen.
pub fn build(
    opts: &BuildOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<BuildReport, EgtbError> {
    if !(2..=MAX_PIECES).contains(&opts.pieces) {
        return Err(EgtbError::BadArgument(format!(
            "pieces {} is out of range (2-{MAX_PIECES})",
            opts.pieces
        )));
    }
    let base = Tablebase::new(&opts.dir, opts.variant);
    let mut order = material::build_order(opts.pieces);
    if let Some(m) = opts.only {
        if m.pieces() > opts.pieces || !m.both_sides() {
            return Err(EgtbError::BadArgument(format!(
                "material {m} is not one of the slices of 2 to {} pieces",
                opts.pieces
            )));
        }
        let wanted = if opts.exact { vec![m] } else { needed_by(m) };
        order.retain(|pair| pair.iter().any(|p| wanted.contains(p)));
    } else if opts.exact {
        return Err(EgtbError::BadArgument(
            "building one pair alone needs its material".into(),
        ));
    }
    let size = |pair: &Vec<Material>| pair.iter().map(|&m| Indexer::new(m).size()).sum::<u64>();
    let total: u64 = order.iter().map(size).sum();
    let (mut done, mut solved) = (0u64, 0u64);
    let start = Instant::now();
    let mut report = BuildReport::default();
    for (i, pair) in order.iter().enumerate() {
        let n = size(pair);
        let on_disk = pair
            .iter()
            .filter(|&&m| file::path(&opts.dir, opts.variant, m).exists())
            .count();
        if on_disk == pair.len() {
            for &m in pair {
                base.table(m)?; // checked now, so a bad file is found before hours of work
            }
            let later = later_needs(&order[i + 1..]);
            base.retain(|m| later.contains(&m));
            report.skipped += pair.len();
            done += n;
            continue;
        }
        let needed = dependencies(pair);
        let lookup = base.lookup(&needed)?;
        let t0 = Instant::now();
        let tables = crate::with_rules!(opts.variant, R => solve::<R>(pair, &lookup));
        drop(lookup);
        // Keep in memory only the slices that pairs still to come depend on: the rest would
        // add up to the whole database (3 GB at 6 pieces).
        let later = later_needs(&order[i + 1..]);
        for table in tables {
            file::write(&opts.dir, opts.variant, &table)?;
            if later.contains(&table.material()) {
                base.insert(table);
            }
        }
        base.retain(|m| later.contains(&m));
        done += n;
        solved += n;
        report.built += pair.len();
        report.positions += n;
        let elapsed = start.elapsed().as_secs_f64();
        let left = if solved > 0 {
            elapsed / solved as f64 * (total - done) as f64
        } else {
            0.0
        };
        progress(&format!(
            "egtb {} [{}/{}] {}{}: {n} positions in {:.1} s; {done}/{total} positions done, \
             about {left:.0} s left",
            opts.variant,
            i + 1,
            order.len(),
            pair[0],
            if pair.len() > 1 { " and mirror" } else { "" },
            t0.elapsed().as_secs_f64(),
        ));
    }
    Ok(report)
}

/// The slices (as stored, White to move) that the moves out of a position of `m` (White to
/// move) can lead to: a capture takes one or more of Black's pieces, men or kings, and may
/// crown the capturing man; a quiet move may crown a man. Positions where Black is left with
/// nothing are not stored (the side to move without pieces has lost).
fn successors(m: Material) -> Vec<Material> {
    let mut out = Vec::new();
    let crowns = if m.wm > 0 { 1 } else { 0 };
    for crown in 0..=crowns {
        let (wm, wk) = (m.wm - crown, m.wk + crown);
        for men in 0..=m.bm {
            for kings in 0..=m.bk {
                let taken = men + kings;
                let left = m.bm - men + m.bk - kings;
                if (taken > 0 || crown > 0) && left > 0 {
                    // Black is to move after the move: stored as its mirror.
                    out.push(Material::new(wm, wk, m.bm - men, m.bk - kings).swapped());
                }
            }
        }
    }
    out
}

/// `m`, its mirror, and every slice that the moves out of them lead to, directly or not: what
/// `BuildOptions::only` builds.
pub fn needed_by(m: Material) -> Vec<Material> {
    let mut out = vec![m, m.swapped()];
    let mut i = 0;
    while i < out.len() {
        for s in successors(out[i]) {
            for x in [s, s.swapped()] {
                if !out.contains(&x) {
                    out.push(x);
                }
            }
        }
        i += 1;
    }
    out
}

/// The slices that the pairs of `rest` depend on.
fn later_needs(rest: &[Vec<Material>]) -> Vec<Material> {
    let mut out: Vec<Material> = rest.iter().flat_map(|p| dependencies(p)).collect();
    out.sort();
    out.dedup();
    out
}

/// The slices that the moves out of `pair` can lead to (as stored, White to move): its
/// `successors`. (Loading every slice with fewer pieces would also work; the exact list
/// needs less memory and lets `BuildOptions::only` build a slice without the rest.)
pub(crate) fn dependencies(pair: &[Material]) -> Vec<Material> {
    let mut out: Vec<Material> = pair.iter().flat_map(|&m| successors(m)).collect();
    out.sort();
    out.dedup();
    out
}

/// The distance of a position settled by the lists, and the floor meaning "never lost".
const NEVER: u16 = u16::MAX;
/// A list entry is `number << 2 | code`: a win or a loss to settle at the list's level, or a
/// win already settled when it was found (`CLAIMED`, see `back_from`).
const WIN: u64 = Value::Win.code() as u64;
const LOSS: u64 = Value::Loss.code() as u64;
const CLAIMED: u64 = 3;
/// An entry of a level's list that turned out settled before: nothing to do.
const SKIP: u64 = u64::MAX;

/// A chunk of a level's list this short is appended to the one before rather than kept.
const SMALL: usize = 1 << 14;

/// Entries by level, as one worker made them.
type Levels = Vec<Vec<u64>>;

/// Appends `entry` to the list of `level`.
fn file_at(levels: &mut Levels, level: u16, entry: u64) {
    let level = level as usize;
    if levels.len() <= level {
        levels.resize_with(level + 1, Vec::new);
    }
    levels[level].push(entry);
}

/// The positions of a pair, numbered one slice after the other.
struct Pair {
    slices: Vec<(Material, Indexer, u64)>,
    size: u64,
}

impl Pair {
    fn new(materials: &[Material]) -> Pair {
        let mut slices = Vec::new();
        let mut size = 0;
        for &m in materials {
            let ix = Indexer::new(m);
            let n = ix.size();
            slices.push((m, ix, size));
            size += n;
        }
        Pair { slices, size }
    }

    /// The number of `pos` (White to move) if its material is in the pair.
    #[inline]
    fn number(&self, pos: &Position) -> Option<u64> {
        let m = Material::of(pos);
        self.slices
            .iter()
            .find(|s| s.0 == m)
            .map(|(_, ix, base)| base + ix.index(pos))
    }

    fn position(&self, n: u64) -> Position {
        let (_, ix, base) = self
            .slices
            .iter()
            .rev()
            .find(|s| s.2 <= n)
            .expect("slice 0 starts at 0");
        ix.position(n - base)
    }
}

/// The work arrays of one pair (see the module docs).
struct Solver<'a> {
    pair: Pair,
    lookup: &'a Lookup,
    value: Vec<AtomicU8>,
    dist: Vec<AtomicU16>,
    count: Vec<AtomicU8>,
    /// The least distance of a loss, from the moves out of the pair; `NEVER` if one of them
    /// draws or wins.
    floor: Vec<u16>,
}

/// Solves the pair `materials` (one material and its mirror, or one self-mirrored material)
/// and returns its tables.
///
/// The lists of pending entries are kept as the workers made them, a list of chunks per level,
/// and marked in place when settled: no entry is ever copied, and each position enters the
/// lists at most twice (once from the first pass, once when settled by the walk back).
fn solve<R: Rules>(materials: &[Material], lookup: &Lookup) -> Vec<Table> {
    let pair = Pair::new(materials);
    let n = pair.size as usize;
    let mut s = Solver {
        pair,
        lookup,
        value: (0..n).map(|_| AtomicU8::new(0)).collect(),
        dist: (0..n).map(|_| AtomicU16::new(0)).collect(),
        count: (0..n).map(|_| AtomicU8::new(0)).collect(),
        floor: vec![0; n],
    };
    let mut pending: Vec<Vec<Vec<u64>>> = Vec::new();
    let add = |pending: &mut Vec<Vec<Vec<u64>>>, made: Vec<Levels>| {
        for levels in made {
            for (level, chunk) in levels.into_iter().enumerate() {
                if chunk.is_empty() {
                    continue;
                }
                if pending.len() <= level {
                    pending.resize_with(level + 1, Vec::new);
                }
                // Small chunks are gathered, or their number would grow from level to level
                // (each is walked back by at least one worker, which makes at least one more).
                match pending[level].last_mut() {
                    Some(last) if last.len() < SMALL && chunk.len() < SMALL => {
                        last.extend_from_slice(&chunk)
                    }
                    _ => pending[level].push(chunk),
                }
            }
        }
    };
    let seeds = s.first_pass::<R>();
    add(&mut pending, seeds);
    let mut level = 0;
    while level < pending.len() {
        let mut chunks = std::mem::take(&mut pending[level]);
        // Settle every entry of the level before walking back from any: a walk back claims
        // positions at the next level, which must not take one that this level still settles.
        chunks
            .par_iter_mut()
            .flat_map(|c| c.par_iter_mut())
            .for_each(|e| {
                let i = (*e >> 2) as usize;
                let code = *e & 3;
                if code == CLAIMED {
                    return;
                }
                if s.value[i]
                    .compare_exchange(0, code as u8, Relaxed, Relaxed)
                    .is_ok()
                {
                    s.dist[i].store(level as u16, Relaxed);
                } else {
                    *e = SKIP;
                }
            });
        let next: Vec<Levels> = chunks
            .par_iter()
            .flat_map(|c| c.par_iter())
            .filter(|&&e| e != SKIP)
            .fold(Levels::new, |mut out, &e| {
                s.back_from::<R>(e, level as u16, &mut out);
                out
            })
            .collect();
        drop(chunks);
        add(&mut pending, next);
        level += 1;
    }
    s.tables()
}

impl Solver<'_> {
    /// Counts every position's moves within the pair and looks up the others; returns, by
    /// level, the positions to settle at a known level (`number << 2 | value`).
    fn first_pass<R: Rules>(&mut self) -> Vec<Levels> {
        let (pair, lookup, count) = (&self.pair, self.lookup, &self.count);
        self.floor
            .par_iter_mut()
            .enumerate()
            .fold(
                || (Vec::with_capacity(64), Levels::new()),
                |(mut moves, mut levels): (Vec<Move>, Levels), (i, floor)| {
                    let pos = pair.position(i as u64);
                    crate::movegen::legal_moves::<R>(&pos, &mut moves);
                    let (mut inside, mut win, mut longest, mut held) = (0u8, NEVER, 0u16, false);
                    for mv in moves.iter() {
                        let child = pos.play(mv).mirrored();
                        if pair.number(&child).is_some() {
                            inside += 1;
                            continue;
                        }
                        match lookup.get(&child) {
                            (Value::Loss, d) => win = win.min(d + 1),
                            (Value::Win, d) => longest = longest.max(d + 1),
                            (Value::Draw, _) => held = true,
                        }
                    }
                    count[i].store(inside, Relaxed);
                    *floor = if win != NEVER || held { NEVER } else { longest };
                    let i = i as u64;
                    if win != NEVER {
                        file_at(&mut levels, win, i << 2 | WIN);
                    } else if inside == 0 && !held {
                        // Every move leaves the pair and loses (or there is none: lost at 0).
                        file_at(&mut levels, longest, i << 2 | LOSS);
                    }
                    (moves, levels)
                },
            )
            .map(|(_, levels)| levels)
            .collect()
    }

    /// For the position `e` (`number << 2 | code`) settled at `level`, the predecessors that
    /// it settles or may settle, filed in `out` by level.
    ///
    /// A predecessor of a lost position is won at `level + 1`, and since levels are settled
    /// in order, no shorter win can come: it is claimed here at once (compare-and-swap, so
    /// once whoever finds it) and filed as `CLAIMED`, only to be walked back from in turn.
    /// Claiming at once rather than filing a candidate per lost child keeps each position in
    /// the lists once: the candidates were what made a 6-piece build need 10 GB.
    fn back_from<R: Rules>(&self, e: u64, level: u16, out: &mut Levels) {
        let child = self.pair.position(e >> 2);
        let lost = e & 3 == LOSS;
        predecessors::<R>(&child, |p| {
            let Some(j) = self.pair.number(&p) else {
                debug_assert!(false, "a predecessor outside the pair");
                return;
            };
            let ju = j as usize;
            if lost {
                if self.value[ju]
                    .compare_exchange(0, WIN as u8, Relaxed, Relaxed)
                    .is_ok()
                {
                    self.dist[ju].store(level + 1, Relaxed);
                    file_at(out, level + 1, j << 2 | CLAIMED);
                }
            } else {
                let before = self.count[ju].fetch_sub(1, Relaxed);
                debug_assert!(before > 0, "more un-moves than moves");
                if before == 1 && self.floor[ju] != NEVER {
                    file_at(out, (level + 1).max(self.floor[ju]), j << 2 | LOSS);
                }
            }
        });
    }

    /// The values and distances, one table per slice.
    fn tables(self) -> Vec<Table> {
        let Solver {
            pair,
            value,
            dist,
            count,
            floor,
            ..
        } = self;
        drop((count, floor));
        pair.slices
            .iter()
            .map(|(m, ix, base)| {
                let base = *base as usize;
                Table::from_fn(*m, ix.size() as usize, |i| {
                    let at = base + i;
                    (
                        Value::from_code(value[at].load(Relaxed)),
                        dist[at].load(Relaxed),
                    )
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn king_only_slices_need_only_king_only_slices() {
        let m: Material = "0,3,0,2".parse().unwrap();
        let mut got = needed_by(m);
        got.sort();
        let mut want: Vec<Material> = [
            (3, 2),
            (2, 3),
            (3, 1),
            (1, 3),
            (2, 2),
            (2, 1),
            (1, 2),
            (1, 1),
        ]
        .iter()
        .map(|&(w, b)| Material::new(0, w, 0, b))
        .collect();
        want.sort();
        assert_eq!(got, want);
        assert!("0,3,0".parse::<Material>().is_err());
        assert!("a,1,0,1".parse::<Material>().is_err());
    }

    #[test]
    fn every_successor_is_built_before_its_pair() {
        // The exact dependencies must still point backwards in the build order.
        let order = material::build_order(5);
        let pair = |m: Material| order.iter().position(|p| p.contains(&m)).unwrap();
        for (i, p) in order.iter().enumerate() {
            for d in dependencies(p) {
                assert!(pair(d) < i, "{d} is needed by {} but built after", p[0]);
            }
        }
        // A man that crowns while capturing, and one that crowns quietly.
        let s = successors(Material::new(1, 0, 1, 1));
        assert!(s.contains(&Material::new(0, 1, 1, 1).swapped()));
        assert!(s.contains(&Material::new(0, 1, 0, 1).swapped()));
        assert!(s.contains(&Material::new(1, 0, 1, 0).swapped()));
    }
}
