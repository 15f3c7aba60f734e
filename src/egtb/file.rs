//! The on-disk format of one slice and `Table`, a slice in memory.
//!
//! A file is a 72-byte header, then the values, then the distances (all integers
//! little-endian):
//!
//! ```text
//!  0  magic "CRWNEGTB"          24  positions       u64
//!  8  format version u32 (1)    32  wins            u64
//! 12  variant: PDN GameType u8  40  draws           u64
//! 13  wm, wk, bm, bk    4 x u8  48  losses          u64
//! 17  side to move      u8 'W'  56  longest distance u64
//! 18  distance width    u8 1|2  64  checksum        u64
//! 19  zero              5 x u8
//! 72  values: 2 bits a position, 4 to a byte, lowest bits first (0 draw, 1 win, 2 loss)
//!     distances: `width` bytes a position, plies to the end of the game (0 for draws)
//! ```
//!
//! The checksum is FNV-1a over the file's 64-bit little-endian words (the header with the
//! checksum field zero, then the data padded with zero bytes to a whole word), and the length:
//! written here, no crate. A file is written to `NAME.tmp` and renamed when complete, so a file
//! under its own name is whole unless something else damaged it; reading checks the length, the
//! magic, the version, the variant and material against the name, the sizes and the checksum,
//! and refuses the file on any mismatch.

use super::error::{EgtbError, FileProblem};
use super::index::Indexer;
use super::material::Material;
use super::Value;
use crate::position::Position;
use crate::variant::Variant;
use std::io::Write;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"CRWNEGTB";
/// The format version this program writes and reads.
pub const VERSION: u32 = 1;
const HEADER: usize = 72;
const CHECKSUM_AT: usize = 64;

/// One slice in memory: the values and distances of every position of a material with White
/// to move, by index. Immutable once made, so it is shared between threads without a lock.
#[derive(Clone, Debug)]
pub struct Table {
    material: Material,
    ix: Indexer,
    size: u64,
    values: Vec<u8>,
    width: u8,
    dists: Vec<u8>,
    /// Wins, draws and losses.
    counts: [u64; 3],
    longest: u64,
}

impl Table {
    /// A table from one value and one distance per index.
    pub fn new(material: Material, values: &[Value], dists: &[u16]) -> Table {
        debug_assert_eq!(values.len(), dists.len());
        Table::from_fn(material, values.len(), |i| (values[i], dists[i]))
    }

    /// A table of `size` positions whose index `i` has the value and distance `at(i)`. The
    /// builder makes its tables straight from its work arrays this way, so that no unpacked
    /// copy of a large slice is ever held.
    pub fn from_fn(material: Material, size: usize, at: impl Fn(usize) -> (Value, u16)) -> Table {
        let longest = (0..size).map(|i| at(i).1).max().unwrap_or(0) as u64;
        let width = if longest <= u8::MAX as u64 { 1 } else { 2 };
        let mut packed = vec![0u8; size.div_ceil(4)];
        let mut dists = Vec::with_capacity(size * width);
        let mut counts = [0u64; 3];
        for i in 0..size {
            let (v, d) = at(i);
            packed[i / 4] |= v.code() << (2 * (i % 4));
            counts[v.count_slot()] += 1;
            if width == 1 {
                dists.push(d as u8);
            } else {
                dists.extend_from_slice(&d.to_le_bytes());
            }
        }
        Table {
            material,
            ix: Indexer::new(material),
            size: size as u64,
            values: packed,
            width: width as u8,
            dists,
            counts,
            longest,
        }
    }

    /// The material of the slice.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The number of positions.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The numbers of wins, draws and losses for the side to move.
    pub fn counts(&self) -> (u64, u64, u64) {
        (self.counts[0], self.counts[1], self.counts[2])
    }

    /// The value and distance of `pos`, which has this table's material and White to move.
    #[inline]
    pub fn probe(&self, pos: &Position) -> (Value, u16) {
        self.get(self.ix.index(pos))
    }

    /// The value and distance of index `idx`.
    #[inline]
    pub fn get(&self, idx: u64) -> (Value, u16) {
        let i = idx as usize;
        let value = Value::from_code(self.values[i / 4] >> (2 * (i % 4)) & 3);
        let dist = if self.width == 1 {
            self.dists[i] as u16
        } else {
            u16::from_le_bytes([self.dists[2 * i], self.dists[2 * i + 1]])
        };
        (value, dist)
    }

    /// The bytes of the file.
    fn encode(&self, variant: Variant) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + self.values.len() + self.dists.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        let m = self.material;
        out.extend_from_slice(&[variant.game_type() as u8, m.wm, m.wk, m.bm, m.bk, b'W']);
        out.extend_from_slice(&[self.width, 0, 0, 0, 0, 0]);
        for n in [self.size, self.counts[0], self.counts[1], self.counts[2]] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.extend_from_slice(&self.longest.to_le_bytes());
        out.extend_from_slice(&[0; 8]);
        out.extend_from_slice(&self.values);
        out.extend_from_slice(&self.dists);
        let sum = checksum(&out);
        out[CHECKSUM_AT..CHECKSUM_AT + 8].copy_from_slice(&sum.to_le_bytes());
        out
    }
}

/// The file of `material`'s slice of `variant` under `dir`.
pub fn path(dir: &Path, variant: Variant, material: Material) -> PathBuf {
    dir.join(variant.name()).join(material.file_name())
}

/// FNV-1a over 64-bit words, with the checksum field taken as zero (see the module docs).
fn checksum(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ bytes.len() as u64;
    let mut chunks = bytes.chunks(8);
    for (i, chunk) in chunks.by_ref().enumerate() {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        let w = if i == CHECKSUM_AT / 8 {
            0
        } else {
            u64::from_le_bytes(word)
        };
        h = (h ^ w).wrapping_mul(PRIME);
        // FNV mixes a byte per multiply; a word needs a shift to spread its high bits too.
        h ^= h >> 29;
    }
    h
}

/// Writes `table` as `variant`'s slice under `dir`: to a temporary file, synced, then renamed.
pub fn write(dir: &Path, variant: Variant, table: &Table) -> Result<PathBuf, EgtbError> {
    let path = path(dir, variant, table.material);
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| EgtbError::Io { path, source }
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(io(parent))?;
    }
    let tmp = path.with_extension("cheg.tmp");
    let bytes = table.encode(variant);
    let mut file = std::fs::File::create(&tmp).map_err(io(&tmp))?;
    file.write_all(&bytes).map_err(io(&tmp))?;
    file.sync_all().map_err(io(&tmp))?;
    drop(file);
    std::fs::rename(&tmp, &path).map_err(io(&path))?;
    Ok(path)
}

/// Reads `variant`'s slice of `material` from `dir`, checking everything (module docs).
pub fn read(dir: &Path, variant: Variant, material: Material) -> Result<Table, EgtbError> {
    let path = path(dir, variant, material);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(EgtbError::Missing { path })
        }
        Err(source) => return Err(EgtbError::Io { path, source }),
    };
    decode(&bytes, variant, material).map_err(|problem| EgtbError::BadFile { path, problem })
}

fn decode(bytes: &[u8], variant: Variant, material: Material) -> Result<Table, FileProblem> {
    let len = bytes.len() as u64;
    if bytes.len() < HEADER {
        // Too short for a header: a magic that matches says it was cut short.
        return Err(if bytes.len() >= 8 && &bytes[..8] != MAGIC {
            FileProblem::BadMagic
        } else {
            FileProblem::WrongLength {
                expected: HEADER as u64,
                actual: len,
            }
        });
    }
    if &bytes[..8] != MAGIC {
        return Err(FileProblem::BadMagic);
    }
    let u64_at = |at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(w)
    };
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    if version != VERSION {
        return Err(FileProblem::Version(version));
    }
    if bytes[12] as u32 != variant.game_type() {
        return Err(FileProblem::Foreign(format!(
            "GameType {} where {variant} ({}) was expected",
            bytes[12],
            variant.game_type()
        )));
    }
    let found = Material::new(bytes[13], bytes[14], bytes[15], bytes[16]);
    if found != material || bytes[17] != b'W' {
        return Err(FileProblem::Foreign(format!(
            "{found} side {} where {material} side W was expected",
            bytes[17].escape_ascii()
        )));
    }
    let width = bytes[18];
    if !(1..=2).contains(&width) || bytes[19..24].iter().any(|&b| b != 0) {
        return Err(FileProblem::Malformed(format!("distance width {width}")));
    }
    let size = u64_at(24);
    if size != Indexer::new(material).size() {
        return Err(FileProblem::Foreign(format!(
            "{size} positions where {material} has {}",
            Indexer::new(material).size()
        )));
    }
    let value_bytes = size.div_ceil(4);
    let expected = HEADER as u64 + value_bytes + size * width as u64;
    if len != expected {
        return Err(FileProblem::WrongLength {
            expected,
            actual: len,
        });
    }
    let (stored, computed) = (u64_at(CHECKSUM_AT), checksum(bytes));
    if stored != computed {
        return Err(FileProblem::Checksum { stored, computed });
    }
    let values = bytes[HEADER..HEADER + value_bytes as usize].to_vec();
    let counts = [u64_at(32), u64_at(40), u64_at(48)];
    if counts.iter().sum::<u64>() != size {
        return Err(FileProblem::Malformed("counts do not add up".into()));
    }
    let table = Table {
        material,
        ix: Indexer::new(material),
        size,
        values,
        width,
        dists: bytes[HEADER + value_bytes as usize..].to_vec(),
        counts,
        longest: u64_at(56),
    };
    // Code 3 is no value; only a file written wrongly with a right checksum could hold one.
    // A byte holds a 3 where both bits of a pair are set (padding bits are zero).
    if table.values.iter().any(|&b| b & (b >> 1) & 0x55 != 0) {
        return Err(FileProblem::Malformed("a value code 3".into()));
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("crownhead-egtb-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    /// A table of `m` with made-up values (every value and a distance over 255 occur).
    fn sample(m: Material) -> Table {
        let n = Indexer::new(m).size() as usize;
        let values: Vec<Value> = (0..n).map(|i| Value::from_code((i % 3) as u8)).collect();
        let dists: Vec<u16> = (0..n)
            .map(|i| if i % 3 == 0 { 0 } else { i as u16 })
            .collect();
        Table::new(m, &values, &dists)
    }

    /// The error of reading `m` of `variant` from `dir`, which must name the file.
    fn refused(dir: &Path, variant: Variant, m: Material) -> FileProblem {
        match read(dir, variant, m) {
            Err(EgtbError::BadFile { path: p, problem }) => {
                assert_eq!(p, path(dir, variant, m));
                let shown = EgtbError::BadFile {
                    path: p.clone(),
                    problem: problem.clone(),
                }
                .to_string();
                assert!(shown.contains(&p.display().to_string()), "{shown}");
                problem
            }
            other => panic!("not refused: {other:?}"),
        }
    }

    #[test]
    fn a_written_table_reads_back() {
        let dir = temp_dir("roundtrip");
        let m = Material::new(1, 0, 0, 1);
        let t = sample(m);
        write(&dir, Variant::English, &t).unwrap();
        let back = read(&dir, Variant::English, m).unwrap();
        assert_eq!(back.counts(), t.counts());
        for i in 0..t.size() {
            assert_eq!(back.get(i), t.get(i));
        }
        // No temporary file is left behind.
        let names: Vec<_> = std::fs::read_dir(dir.join("english")).unwrap().collect();
        assert_eq!(names.len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn bad_truncated_and_foreign_files_are_refused() {
        let dir = temp_dir("bad");
        let m = Material::new(1, 0, 0, 1);
        let p = write(&dir, Variant::English, &sample(m)).unwrap();
        let good = std::fs::read(&p).unwrap();
        let put = |bytes: &[u8]| std::fs::write(&p, bytes).unwrap();

        put(&good[..good.len() - 1]);
        assert!(matches!(
            refused(&dir, Variant::English, m),
            FileProblem::WrongLength { .. }
        ));
        put(&good[..40]);
        assert!(matches!(
            refused(&dir, Variant::English, m),
            FileProblem::WrongLength { .. }
        ));
        put(&[]);
        assert!(matches!(
            refused(&dir, Variant::English, m),
            FileProblem::WrongLength { .. }
        ));
        let mut longer = good.clone();
        longer.push(0);
        put(&longer);
        assert!(matches!(
            refused(&dir, Variant::English, m),
            FileProblem::WrongLength { .. }
        ));

        // One bit flipped in the values, and in a distance: the checksum sees it.
        for at in [HEADER + 3, good.len() - 1] {
            let mut bad = good.clone();
            bad[at] ^= 0x10;
            put(&bad);
            assert!(matches!(
                refused(&dir, Variant::English, m),
                FileProblem::Checksum { .. }
            ));
        }
        let mut other_version = good.clone();
        other_version[8] = 9;
        put(&other_version);
        assert_eq!(refused(&dir, Variant::English, m), FileProblem::Version(9));
        put(b"#!/bin/sh\necho this is not a database at all, but it is long enough for a header\n");
        assert_eq!(refused(&dir, Variant::English, m), FileProblem::BadMagic);

        // The right file read as the other variant, or under another material's name.
        put(&good);
        read(&dir, Variant::English, m).unwrap();
        std::fs::create_dir_all(dir.join("russian")).unwrap();
        std::fs::copy(&p, path(&dir, Variant::Russian, m)).unwrap();
        assert!(matches!(
            refused(&dir, Variant::Russian, m),
            FileProblem::Foreign(_)
        ));
        let other = m.swapped();
        std::fs::copy(&p, path(&dir, Variant::English, other)).unwrap();
        assert!(matches!(
            refused(&dir, Variant::English, other),
            FileProblem::Foreign(_)
        ));

        // A file that is not there is `Missing`, naming where it was looked for.
        let absent = Material::new(0, 1, 0, 1);
        match read(&dir, Variant::English, absent) {
            Err(e @ EgtbError::Missing { .. }) => {
                assert!(e.to_string().contains(&absent.file_name()), "{e}")
            }
            other => panic!("{other:?}"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
