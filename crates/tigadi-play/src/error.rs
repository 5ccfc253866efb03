//! What can go wrong while playing or analysing.

use crate::table::NoTable;
use std::fmt;
use tigadi_rules::{IllegalMove, InvalidPosition, Move};
use tigadi_tablebase::TablebaseError;

/// Why a line, a choice or an analysis could not be made.
#[derive(Debug)]
pub enum PlayError {
    /// The position is already decided or drawn: there is nothing to play.
    GameOver(tigadi_rules::GameResult),
    /// The player to move has no legal move although the game is not decided (no
    /// rule set makes such a position, but a caller can build one).
    NoLegalMove,
    /// The tables hold nothing about the position asked about.
    NoTable(NoTable),
    /// A move of a record is illegal (its number counts moves from 1).
    Illegal {
        /// The move's number in the record.
        number: usize,
        /// The move.
        mv: Move,
        /// Why the referee refused it.
        error: IllegalMove,
    },
    /// The position cannot occur under the rule set (a counter above its limit, a
    /// hand above `pieces=N`, ...).
    InvalidPosition(InvalidPosition),
    /// A table is damaged, mismatched or unreadable (a missing one is
    /// [`PlayError::NoTable`]).
    Table(TablebaseError),
    /// A match's random walks found no start lost for the player to move (this
    /// many walks tried; see [`crate::matches::lost_start`]).
    NoLostStart(usize),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver(r) => write!(f, "the game is over: {r}"),
            PlayError::NoLegalMove => f.write_str("the player to move has no legal move"),
            PlayError::NoTable(n) => write!(f, "no tablebase answer: {n}"),
            PlayError::Illegal { number, mv, error } => {
                write!(f, "move {number} ({mv}) is illegal: {error}")
            }
            PlayError::InvalidPosition(e) => write!(f, "impossible position: {e}"),
            PlayError::Table(e) => write!(f, "{e}"),
            PlayError::NoLostStart(walks) => write!(
                f,
                "no position lost for the player to move in {walks} random walks (do the tables cover the game?)"
            ),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<InvalidPosition> for PlayError {
    fn from(e: InvalidPosition) -> Self {
        PlayError::InvalidPosition(e)
    }
}

impl From<TablebaseError> for PlayError {
    /// A missing table is [`PlayError::NoTable`]; anything else is
    /// [`PlayError::Table`].
    fn from(e: TablebaseError) -> Self {
        match e {
            TablebaseError::MissingSubspace { subspace, path } => {
                PlayError::NoTable(NoTable::Missing {
                    subspace,
                    file: path.file_name().map_or_else(
                        || path.display().to_string(),
                        |f| f.to_string_lossy().into(),
                    ),
                })
            }
            e => PlayError::Table(e),
        }
    }
}
