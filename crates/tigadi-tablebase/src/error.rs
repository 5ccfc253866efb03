//! The one error type of the crate: every failure to find, read or trust a table.

use std::fmt;
use std::path::PathBuf;
use tigadi_index::Subspace;

/// What went wrong while writing, opening, probing or verifying tablebase files.
///
/// A malformed or damaged file is always [`TablebaseError::Corrupt`], never a panic
/// and never a wrong value: every byte that a value is decoded from is covered by a
/// checksum that is checked first.
#[derive(Debug)]
pub enum TablebaseError {
    /// No file for this subspace in the rule set's directory.
    MissingSubspace {
        /// The subspace that was needed.
        subspace: Subspace,
        /// Where its file was looked for.
        path: PathBuf,
    },
    /// A file failed a checksum or is malformed.
    Corrupt {
        /// The damaged file.
        file: PathBuf,
        /// What is wrong with it.
        what: String,
    },
    /// A file (or a directory of files) belongs to another rule set or subspace
    /// than the one asked for.
    RulesMismatch {
        /// The file.
        file: PathBuf,
        /// What was expected and what was found.
        what: String,
    },
    /// The position cannot be in the tables: gotis on the same point or off the
    /// board, fewer than three gotis (the game is over), more than the index allows,
    /// or goti counts no game reaches with those gotis in hand.
    InvalidPosition(String),
    /// The caller passed values that cannot be written (wrong length, or a value the
    /// encoding cannot hold).
    InvalidValues(String),
    /// An I/O error on a file or directory.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
}

impl TablebaseError {
    /// A [`TablebaseError::Corrupt`] for `file`.
    pub fn corrupt(file: &std::path::Path, what: impl Into<String>) -> TablebaseError {
        TablebaseError::Corrupt {
            file: file.to_path_buf(),
            what: what.into(),
        }
    }

    /// A [`TablebaseError::Io`] for `path`.
    pub fn io(path: &std::path::Path, error: std::io::Error) -> TablebaseError {
        TablebaseError::Io {
            path: path.to_path_buf(),
            error,
        }
    }

    /// A copy of a [`TablebaseError::Corrupt`] or [`TablebaseError::RulesMismatch`]
    /// (the errors that stay true of a file until it is replaced).
    pub(crate) fn duplicate_permanent(&self) -> Option<TablebaseError> {
        match self {
            TablebaseError::Corrupt { file, what } => Some(TablebaseError::Corrupt {
                file: file.clone(),
                what: what.clone(),
            }),
            TablebaseError::RulesMismatch { file, what } => Some(TablebaseError::RulesMismatch {
                file: file.clone(),
                what: what.clone(),
            }),
            _ => None,
        }
    }

    /// Is this a [`TablebaseError::Corrupt`]?
    pub fn is_corrupt(&self) -> bool {
        matches!(self, TablebaseError::Corrupt { .. })
    }
}

impl fmt::Display for TablebaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablebaseError::MissingSubspace { subspace, path } => {
                write!(
                    f,
                    "no tablebase for subspace {subspace} (looked for {})",
                    path.display()
                )
            }
            TablebaseError::Corrupt { file, what } => {
                write!(f, "corrupt tablebase file {}: {what}", file.display())
            }
            TablebaseError::RulesMismatch { file, what } => {
                write!(
                    f,
                    "tablebase file {} does not match: {what}",
                    file.display()
                )
            }
            TablebaseError::InvalidPosition(what) => write!(f, "invalid position: {what}"),
            TablebaseError::InvalidValues(what) => write!(f, "invalid values: {what}"),
            TablebaseError::Io { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for TablebaseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TablebaseError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}
