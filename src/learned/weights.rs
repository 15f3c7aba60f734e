//! The learned evaluation's weights file, as `scripts/training/train_net.py` writes it: `CHEV`, the
//! version (1), the variant (0 russian, 1 english), a flags byte (bit 0: the network is a
//! correction added to the hand-written evaluation; bit 1: the weights are a network, set in
//! every file this engine reads), a zero byte, the logistic scale K (f32), the number of
//! weights (u32), the weights (i16, in the network's order: `network::WEIGHT_COUNT`), and a
//! 64-bit FNV-1a checksum of everything before it. A file that is cut off, corrupt, of another
//! version or variant, of the pattern-table model that earlier versions played (flags bit 1
//! clear), or (checked when its network is built) of another size is refused with an error
//! naming what is wrong; it is never read as weights.

use crate::variant::Variant;
use std::fmt;
use std::path::PathBuf;

/// The first bytes of a weights file.
pub const MAGIC: [u8; 4] = *b"CHEV";
/// The version this code reads.
pub const VERSION: u8 = 1;
const HEADER_LEN: usize = 16;

/// Weights read from a file and checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// The variant they were fitted for.
    pub variant: Variant,
    /// The logistic scale: the model predicts sigmoid(eval / k).
    pub k: f32,
    /// The weights, centi-men.
    pub values: Vec<i16>,
    /// What the network is added to.
    pub base: Base,
}

/// The header's flags bit for a network: set in every file this engine reads. A file without
/// it holds the pattern tables of earlier versions, a model no longer played.
const NETWORK_FLAG: u8 = 2;

/// What a file's network is added to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Base {
    /// Nothing: the network is the whole evaluation.
    #[default]
    None,
    /// The hand-written evaluation: the network corrects it.
    HandWritten,
}

impl Base {
    /// The header's flags byte for this base.
    const fn flags(self) -> u8 {
        match self {
            Base::None => 0,
            Base::HandWritten => 1,
        }
    }
}

/// Why weights were refused, each case carrying the offending value.
#[derive(Clone, Debug, PartialEq)]
pub enum WeightsError {
    /// The file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// The system's message.
        message: String,
    },
    /// A problem with the named file.
    InFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: Box<WeightsError>,
    },
    /// No `CHEV` header: not a weights file at all.
    NotWeights,
    /// A format version this program does not read.
    Version(u8),
    /// A variant code that names no variant.
    UnknownVariant(u8),
    /// Weights of another variant than the one needed.
    WrongVariant {
        /// The file's variant.
        file: Variant,
        /// The variant needed.
        wanted: Variant,
    },
    /// Flag bits this program does not know.
    UnknownFlags(u8),
    /// The pattern tables of earlier versions (the network bit clear): a model no longer played.
    PatternTables,
    /// Cut off or padded: the length the header's count implies is not the file's.
    WrongLength {
        /// The file's length.
        actual: usize,
        /// The length its count of weights implies.
        expected: usize,
        /// The count of weights in the header.
        count: usize,
    },
    /// The checksum does not match the contents.
    Checksum {
        /// The checksum in the file.
        stored: u64,
        /// The checksum of the contents.
        computed: u64,
    },
    /// A logistic scale K that is not a positive number.
    Scale(f32),
    /// Another count of weights than the network's.
    Count {
        /// The count given.
        count: usize,
        /// The network's.
        expected: usize,
    },
    /// Weights with which some board would overflow a first-layer sum of 16 bits.
    Overflow {
        /// The first-layer unit.
        unit: usize,
        /// The largest sum a board could make.
        worst: i32,
    },
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let refused = "weights refused";
        match self {
            WeightsError::Io { path, message } => {
                write!(f, "cannot read {}: {message}", path.display())
            }
            WeightsError::InFile { path, problem } => write!(f, "{}: {problem}", path.display()),
            WeightsError::NotWeights => write!(f, "{refused}: not a weights file (no CHEV header)"),
            WeightsError::Version(v) => {
                write!(
                    f,
                    "{refused}: format version {v}, this program reads {VERSION}"
                )
            }
            WeightsError::UnknownVariant(code) => {
                write!(f, "{refused}: unknown variant code {code}")
            }
            WeightsError::WrongVariant { file, wanted } => {
                write!(
                    f,
                    "{refused}: {file} weights where {wanted} ones are needed"
                )
            }
            WeightsError::UnknownFlags(flags) => {
                write!(f, "{refused}: unknown flags {flags:#04x}")
            }
            WeightsError::PatternTables => write!(
                f,
                "{refused}: pattern-table weights, a model this engine no longer plays (fit a \
                 network with scripts/training/train_net.py)"
            ),
            WeightsError::WrongLength {
                actual,
                expected,
                count,
            } => write!(
                f,
                "{refused}: {actual} bytes where {count} weights take {expected}: cut off or padded"
            ),
            WeightsError::Checksum { stored, computed } => write!(
                f,
                "{refused}: the checksum does not match (stored {stored:016x}, computed \
                 {computed:016x}): the file is corrupt"
            ),
            WeightsError::Scale(k) => write!(f, "{refused}: a scale K of {k}"),
            WeightsError::Count { count, expected } => {
                write!(
                    f,
                    "{refused}: {count} weights, not the network's {expected}"
                )
            }
            WeightsError::Overflow { unit, worst } => write!(
                f,
                "{refused}: first-layer unit {unit} could reach {worst}, beyond 16 bits"
            ),
        }
    }
}

impl std::error::Error for WeightsError {}

/// 64-bit FNV-1a, the file's checksum: simple enough to write in the trainer too.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}

impl Weights {
    /// Reads and checks a file's bytes: they must be `variant`'s weights. (Their count is the
    /// model's to check: `Learned::new`.)
    pub fn parse(bytes: &[u8], variant: Variant) -> Result<Weights, WeightsError> {
        if bytes.len() < HEADER_LEN + 8 || bytes[..4] != MAGIC {
            return Err(WeightsError::NotWeights);
        }
        if bytes[4] != VERSION {
            return Err(WeightsError::Version(bytes[4]));
        }
        let Some(file_variant) = Variant::from_file_code(bytes[5]) else {
            return Err(WeightsError::UnknownVariant(bytes[5]));
        };
        if file_variant != variant {
            return Err(WeightsError::WrongVariant {
                file: file_variant,
                wanted: variant,
            });
        }
        let flags = bytes[6];
        if flags & !(1 | NETWORK_FLAG) != 0 {
            return Err(WeightsError::UnknownFlags(flags));
        }
        let base = if flags & 1 != 0 {
            Base::HandWritten
        } else {
            Base::None
        };
        if flags & NETWORK_FLAG == 0 {
            return Err(WeightsError::PatternTables);
        }
        let k = f32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
        let n = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) as usize;
        let body_len = HEADER_LEN + 2 * n;
        if bytes.len() != body_len + 8 {
            return Err(WeightsError::WrongLength {
                actual: bytes.len(),
                expected: body_len + 8,
                count: n,
            });
        }
        let stored = u64::from_le_bytes(bytes[body_len..].try_into().expect("8 bytes"));
        let computed = fnv1a(&bytes[..body_len]);
        if stored != computed {
            return Err(WeightsError::Checksum { stored, computed });
        }
        if !(k.is_finite() && k > 0.0) {
            return Err(WeightsError::Scale(k));
        }
        let values = bytes[HEADER_LEN..body_len]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        Ok(Weights {
            variant,
            k,
            values,
            base,
        })
    }

    /// The file's bytes (for tests and tools that write weights).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = MAGIC.to_vec();
        b.push(VERSION);
        b.push(self.variant.file_code());
        b.extend_from_slice(&[self.base.flags() | NETWORK_FLAG, 0]);
        b.extend_from_slice(&self.k.to_le_bytes());
        b.extend_from_slice(&(self.values.len() as u32).to_le_bytes());
        for v in &self.values {
            b.extend_from_slice(&v.to_le_bytes());
        }
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Weights {
        Weights {
            variant: Variant::English,
            k: 64.5,
            values: (0..100).map(|i| i * 7 - 300).collect(),
            base: Base::HandWritten,
        }
    }

    #[test]
    fn a_file_round_trips_and_every_damage_is_refused() {
        let w = sample();
        let bytes = w.to_bytes();
        assert_eq!(Weights::parse(&bytes, Variant::English), Ok(w));
        let refused = |b: &[u8], variant, why: &str| {
            let e = Weights::parse(b, variant).unwrap_err();
            assert!(e.to_string().contains(why), "{e} lacks {why}");
        };
        refused(&bytes[..bytes.len() - 1], Variant::English, "cut off");
        refused(&bytes[..10], Variant::English, "not a weights file");
        refused(&bytes, Variant::Russian, "english weights");
        let mut flipped = bytes.clone();
        flipped[40] ^= 1;
        refused(&flipped, Variant::English, "checksum");
        let mut version = bytes.clone();
        version[4] = 2;
        refused(&version, Variant::English, "version 2");
        // An unknown flag, with the checksum made good: refused, not ignored.
        let mut flags = bytes[..bytes.len() - 8].to_vec();
        flags[6] = 4;
        let sum = fnv1a(&flags);
        flags.extend_from_slice(&sum.to_le_bytes());
        refused(&flags, Variant::English, "unknown flags");
        // A file of the pattern tables of earlier versions (the network bit clear): refused.
        let mut tables = bytes[..bytes.len() - 8].to_vec();
        tables[6] &= !NETWORK_FLAG;
        let sum = fnv1a(&tables);
        tables.extend_from_slice(&sum.to_le_bytes());
        refused(&tables, Variant::English, "pattern-table");
    }

    #[test]
    fn the_checksum_is_fnv1a() {
        // Published FNV-1a 64 test vectors.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn the_trainer_numbers_the_variants_as_the_files_do() {
        // The trainer (and the tool that marks a network for another variant) write the
        // variant byte from their own list; it must be `Variant::ALL`'s order.
        let trainer = include_str!("../../scripts/training/train_net_data.py");
        let line = trainer
            .lines()
            .find(|l| l.starts_with("VARIANTS = ["))
            .expect("train_net_data.py lists VARIANTS");
        let expected = format!("VARIANTS = [\"{}\"]", Variant::names("\", \""));
        assert_eq!(line, expected);
    }
}
