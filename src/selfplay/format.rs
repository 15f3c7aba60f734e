//! The self-play data file: what `crownhead selfplay` writes and the training reads. Compact
//! (16 bytes a position), append-only, and readable after a kill: a file is a header followed by
//! whole records, and a reader ignores a cut-off last record. The layout is documented in
//! docs/SELFPLAY.md; this module is its one implementation.
//!
//! Header (16 bytes): `CHSP`, the format version (1), the variant (0 russian, 1 english), ten
//! zero bytes. Then records of 16 bytes, little-endian, in two kinds:
//! - a game marker, which opens each game: white and black both 0 (no position has that), then
//!   the game's index (u32), 0 (i16), the result (u8, White's view: 0 loss, 1 draw, 2 win), and
//!   the game's length in plies (u8, at most 255);
//! - a position: white, black and kings as 32-bit sets of PDN squares (bit n - 1 for square n),
//!   the search's score (i16, centi-men from the side to move's view; a win found by the search
//!   is 30000 less its distance in plies), flags (u8: bit 0 set when Black is to move, bits 1-2
//!   the game's result from White's view as in the marker) and the ply (u8, at most 255).

use crate::bitboard::{dense, padded, Color};
use crate::game::GameResult;
use crate::position::Position;
use crate::variant::Variant;
use std::fmt;
use std::io::{self, Read, Write};

/// The first bytes of every data file.
pub const MAGIC: [u8; 4] = *b"CHSP";
/// The format version this code reads and writes.
pub const VERSION: u8 = 1;
/// Bytes in the header.
pub const HEADER_LEN: u64 = 16;
/// Bytes in a record.
pub const RECORD_LEN: usize = 16;

/// One position of a game with its score and the game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position (side to move included).
    pub position: Position,
    /// The search's score, side to move's view, centi-men.
    pub score: i16,
    /// How the game ended.
    pub result: GameResult,
    /// The ply of the game the position arose at (capped at 255).
    pub ply: u8,
}

/// One record of a data file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Record {
    /// The start of a game: its index in the run, its result and its length.
    Game {
        /// The game's index (what its seed and opening derive from).
        index: u32,
        /// How it ended.
        result: GameResult,
        /// Its length in plies, capped at 255.
        plies: u8,
    },
    /// A position of the current game.
    Position(Sample),
}

/// Why a data file cannot be read.
#[derive(Debug)]
pub enum DataError {
    /// Reading failed.
    Io(io::Error),
    /// The header is not a data file's, or of another version or variant.
    Header(HeaderProblem),
    /// A record holds what no record can.
    Record {
        /// Its number, from 0.
        index: u64,
        /// What is wrong.
        problem: RecordProblem,
    },
}

/// What is wrong with a data file's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderProblem {
    /// Shorter than a header, or not starting with `CHSP`.
    Magic,
    /// A format version this program does not read.
    Version(u8),
    /// A variant code that names no variant.
    Variant(u8),
}

/// What is wrong with a record's 16 bytes (the flags byte, where that is what is wrong).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordProblem {
    /// A game marker whose result code is none.
    MarkerResult(u8),
    /// A position whose pieces overlap, whose kings stand on no piece, or whose flags have
    /// bits beyond the side and the result.
    StrayBits {
        /// White's, Black's and the kings' squares.
        sets: [u32; 3],
        /// The flags byte.
        flags: u8,
    },
    /// A position whose result code is none.
    PositionResult(u8),
}

impl fmt::Display for HeaderProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderProblem::Magic => f.write_str("it does not start with CHSP"),
            HeaderProblem::Version(v) => {
                write!(f, "format version {v}, this program reads {VERSION}")
            }
            HeaderProblem::Variant(code) => write!(f, "unknown variant code {code}"),
        }
    }
}

impl fmt::Display for RecordProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordProblem::MarkerResult(code) => {
                write!(f, "a game marker with no result (code {code})")
            }
            RecordProblem::StrayBits {
                sets: [w, b, k],
                flags,
            } => write!(
                f,
                "a position with overlapping pieces or stray bits (white {w:#010x}, black \
                 {b:#010x}, kings {k:#010x}, flags {flags:#04x})"
            ),
            RecordProblem::PositionResult(flags) => {
                write!(f, "a position with no result (flags {flags:#04x})")
            }
        }
    }
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Io(e) => write!(f, "{e}"),
            DataError::Header(p) => write!(f, "not a self-play data file: {p}"),
            DataError::Record { index, problem } => write!(f, "record {index}: {problem}"),
        }
    }
}

impl std::error::Error for DataError {}

impl From<io::Error> for DataError {
    fn from(e: io::Error) -> Self {
        DataError::Io(e)
    }
}

/// The header of a file of `variant` games.
pub fn header(variant: Variant) -> [u8; HEADER_LEN as usize] {
    let mut h = [0; HEADER_LEN as usize];
    h[..4].copy_from_slice(&MAGIC);
    h[4] = VERSION;
    h[5] = variant.file_code();
    h
}

/// The variant of a header, or why it is not one.
pub fn read_header(h: &[u8]) -> Result<Variant, DataError> {
    if h.len() < HEADER_LEN as usize || h[..4] != MAGIC {
        return Err(DataError::Header(HeaderProblem::Magic));
    }
    if h[4] != VERSION {
        return Err(DataError::Header(HeaderProblem::Version(h[4])));
    }
    Variant::from_file_code(h[5]).ok_or(DataError::Header(HeaderProblem::Variant(h[5])))
}

fn result_code(r: GameResult) -> u8 {
    match r {
        GameResult::BlackWins => 0,
        GameResult::Draw => 1,
        GameResult::WhiteWins => 2,
    }
}

fn result_of(code: u8) -> Option<GameResult> {
    match code {
        0 => Some(GameResult::BlackWins),
        1 => Some(GameResult::Draw),
        2 => Some(GameResult::WhiteWins),
        _ => None,
    }
}

impl Record {
    /// The record's 16 bytes.
    pub fn encode(&self) -> [u8; RECORD_LEN] {
        let mut b = [0; RECORD_LEN];
        match *self {
            Record::Game {
                index,
                result,
                plies,
            } => {
                b[8..12].copy_from_slice(&index.to_le_bytes());
                b[14] = result_code(result);
                b[15] = plies;
            }
            Record::Position(s) => {
                let p = &s.position;
                b[..4].copy_from_slice(&dense(p.pieces(Color::White)).to_le_bytes());
                b[4..8].copy_from_slice(&dense(p.pieces(Color::Black)).to_le_bytes());
                b[8..12].copy_from_slice(&dense(p.kings()).to_le_bytes());
                b[12..14].copy_from_slice(&s.score.to_le_bytes());
                b[14] = (p.side() == Color::Black) as u8 | result_code(s.result) << 1;
                b[15] = s.ply;
            }
        }
        b
    }

    /// The record in 16 bytes, or what is wrong with them.
    pub fn decode(b: &[u8; RECORD_LEN]) -> Result<Record, RecordProblem> {
        let word = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let (white, black, kings) = (word(0), word(4), word(8));
        if white == 0 && black == 0 {
            let result = result_of(b[14]).ok_or(RecordProblem::MarkerResult(b[14]))?;
            return Ok(Record::Game {
                index: kings,
                result,
                plies: b[15],
            });
        }
        if white & black != 0 || kings & !(white | black) != 0 || b[14] >> 3 != 0 {
            return Err(RecordProblem::StrayBits {
                sets: [white, black, kings],
                flags: b[14],
            });
        }
        let result = result_of(b[14] >> 1 & 3).ok_or(RecordProblem::PositionResult(b[14]))?;
        let side = if b[14] & 1 == 1 {
            Color::Black
        } else {
            Color::White
        };
        let position = Position::from_parts(padded(white), padded(black), padded(kings), side);
        Ok(Record::Position(Sample {
            position,
            score: i16::from_le_bytes([b[12], b[13]]),
            result,
            ply: b[15],
        }))
    }
}

/// Writes a game (its marker, then its samples) in one piece, so that a kill loses at most the
/// game being written, which a reader then skips as a cut-off record.
pub fn write_game(
    out: &mut impl Write,
    index: u32,
    result: GameResult,
    plies: u32,
    samples: &[Sample],
) -> io::Result<()> {
    let mut bytes = Vec::with_capacity((samples.len() + 1) * RECORD_LEN);
    let marker = Record::Game {
        index,
        result,
        plies: plies.min(255) as u8,
    };
    bytes.extend_from_slice(&marker.encode());
    for s in samples {
        bytes.extend_from_slice(&Record::Position(*s).encode());
    }
    out.write_all(&bytes)?;
    out.flush()
}

/// Reads a whole data file: its variant and records. A cut-off last record (a killed writer) is
/// ignored; anything else malformed is an error.
pub fn read_all(mut input: impl Read) -> Result<(Variant, Vec<Record>), DataError> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes)?;
    let variant = read_header(&bytes)?;
    let body = &bytes[HEADER_LEN as usize..];
    let mut records = Vec::with_capacity(body.len() / RECORD_LEN);
    for (i, chunk) in body.chunks_exact(RECORD_LEN).enumerate() {
        let chunk: &[u8; RECORD_LEN] = chunk.try_into().expect("chunks_exact gives 16 bytes");
        let record = Record::decode(chunk).map_err(|problem| DataError::Record {
            index: i as u64,
            problem,
        })?;
        records.push(record);
    }
    Ok((variant, records))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_fen;

    #[test]
    fn records_round_trip() {
        let pos = parse_fen("B:WK1,22,32:B5,K12,28").unwrap();
        let sample = Sample {
            position: pos,
            score: -1234,
            result: GameResult::WhiteWins,
            ply: 77,
        };
        for r in [
            Record::Position(sample),
            Record::Game {
                index: 123_456,
                result: GameResult::Draw,
                plies: 255,
            },
        ] {
            assert_eq!(Record::decode(&r.encode()), Ok(r));
        }
        // Square 1 is bit 0 of the dense set, square 32 bit 31.
        let bytes = Record::Position(sample).encode();
        assert_eq!(
            u32::from_le_bytes(bytes[..4].try_into().unwrap()),
            1 | 1 << 21 | 1 << 31
        );
        assert_eq!(bytes[14], 1 | 2 << 1);
    }

    #[test]
    fn a_cut_off_file_reads_to_its_last_whole_record_and_junk_is_refused() {
        let pos = parse_fen("W:W22:B5").unwrap();
        let sample = Sample {
            position: pos,
            score: 5,
            result: GameResult::Draw,
            ply: 3,
        };
        let mut file = header(Variant::English).to_vec();
        write_game(&mut file, 0, GameResult::Draw, 9, &[sample, sample]).unwrap();
        let whole = file.len();
        file.extend_from_slice(&[1, 2, 3]);
        let (variant, records) = read_all(&file[..]).unwrap();
        assert_eq!(variant, Variant::English);
        assert_eq!(records.len(), 3);
        assert!(read_all(&file[..10]).is_err());
        let mut foreign = file[..whole].to_vec();
        foreign[4] = 9;
        assert!(matches!(
            read_all(&foreign[..]),
            Err(DataError::Header(HeaderProblem::Version(9)))
        ));
        let mut overlapping = file[..whole].to_vec();
        // Black's set becomes White's: two pieces on one square.
        let at = HEADER_LEN as usize + RECORD_LEN;
        overlapping.copy_within(at..at + 4, at + 4);
        let err = read_all(&overlapping[..]).unwrap_err();
        assert!(
            matches!(
                err,
                DataError::Record {
                    index: 1,
                    problem: RecordProblem::StrayBits { .. }
                }
            ),
            "{err}"
        );
        // The message carries the offending sets.
        assert!(err.to_string().contains("white 0x"), "{err}");
    }
}
