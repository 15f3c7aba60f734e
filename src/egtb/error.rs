//! `EgtbError`: what can go wrong with a database, each case naming the file or the position
//! concerned, so that a message says what to fix.

use std::fmt;
use std::path::PathBuf;

/// What is wrong with a database file's contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileProblem {
    /// Shorter (or longer) than its header says, or shorter than a header.
    WrongLength {
        /// The length the header implies (or the header's length).
        expected: u64,
        /// The file's length.
        actual: u64,
    },
    /// Not a Crownhead database file at all.
    BadMagic,
    /// A format version this program does not read.
    Version(u32),
    /// A database of another variant, material or side to move than its name says.
    Foreign(String),
    /// The checksum does not match the contents.
    Checksum {
        /// The checksum in the header.
        stored: u64,
        /// The checksum of the contents.
        computed: u64,
    },
    /// A header field out of range, or a value code that is not win, draw or loss.
    Malformed(String),
}

impl fmt::Display for FileProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileProblem::WrongLength { expected, actual } => {
                write!(
                    f,
                    "truncated or wrong length: {actual} bytes, expected {expected}"
                )
            }
            FileProblem::BadMagic => f.write_str("not a Crownhead endgame database (bad magic)"),
            FileProblem::Version(v) => write!(f, "format version {v} is not supported"),
            FileProblem::Foreign(what) => write!(f, "a foreign database: {what}"),
            FileProblem::Checksum { stored, computed } => write!(
                f,
                "checksum mismatch (stored {stored:016x}, computed {computed:016x})"
            ),
            FileProblem::Malformed(what) => write!(f, "malformed: {what}"),
        }
    }
}

/// An error of the endgame databases.
#[derive(Debug)]
pub enum EgtbError {
    /// A file could not be read, written or renamed.
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// A slice that the position or the build needs has not been built.
    Missing {
        /// Where it was looked for.
        path: PathBuf,
    },
    /// A file that is not a valid database for what it was read as: never read as data.
    BadFile {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        problem: FileProblem,
    },
    /// A position that no database holds (too many pieces, a side without pieces, a man on its
    /// crowning row).
    NotInDatabase(String),
    /// No directory given and none could be found for the default.
    NoDirectory,
    /// A directory with no databases of either variant in it.
    NoDatabases(std::path::PathBuf),
    /// An argument out of range.
    BadArgument(String),
}

impl fmt::Display for EgtbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EgtbError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            EgtbError::Missing { path } => write!(
                f,
                "{}: not found (build it with `crownhead egtb build`)",
                path.display()
            ),
            EgtbError::BadFile { path, problem } => write!(
                f,
                "{}: {problem}; refusing to use it (delete it and rebuild)",
                path.display()
            ),
            EgtbError::NotInDatabase(why) => write!(f, "not in the databases: {why}"),
            EgtbError::NoDirectory => f.write_str(
                "no database directory: give --dir, or set XDG_DATA_HOME or HOME \
                     (LOCALAPPDATA on Windows)",
            ),
            EgtbError::BadArgument(why) => f.write_str(why),
            EgtbError::NoDatabases(dir) => write!(
                f,
                "no endgame databases under {} (expected english/ or russian/ with .cheg \
                 files; build them with crownhead egtb build --dir)",
                dir.display()
            ),
        }
    }
}

impl std::error::Error for EgtbError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EgtbError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
