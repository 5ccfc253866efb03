//! The one door to the tables: the prober's answer for a full-game position of
//! either phase ([`Tablebase::answer`]), or why the tables hold none.

use crate::error::PlayError;
use std::fmt;
use tigadi_index::Subspace;
use tigadi_rules::Position;
use tigadi_tablebase::{ProbeReport, ReportTurn, Tablebase};

/// Why the tables say nothing about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoTable {
    /// A table this position needs is not in the directory: its own tier's, or
    /// that of a position one of its turns leads to.
    Missing {
        /// The subspace of the missing table.
        subspace: Subspace,
        /// Its file name (`7v6.tgtb`, `p05-4v4.tgtb`, ...), which says the hands
        /// of its tier too.
        file: String,
    },
}

impl fmt::Display for NoTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoTable::Missing { subspace, file } => {
                write!(f, "no table for {subspace}: {file} is missing")
            }
        }
    }
}

impl serde::Serialize for NoTable {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// What the prober says about `position` (either phase, at its 100-turn counter):
/// [`Tablebase::answer`]. A position the tables do not cover is
/// [`PlayError::NoTable`]; a damaged table is [`PlayError::Table`]; a finished
/// game is [`PlayError::GameOver`].
pub fn table_answer(tb: &Tablebase, position: &Position) -> Result<ProbeReport, PlayError> {
    let report = tb.answer(position)?;
    match report.over {
        Some(result) => Err(PlayError::GameOver(result)),
        None => Ok(report),
    }
}

/// The turns of `answer` as good as its first (the prober's best): equal in the
/// game-theoretic value and, where known, in the values under the rule. The
/// prober's order decides what "best" is; this only finds the ties.
pub fn best_turns(answer: &ProbeReport) -> Vec<ReportTurn> {
    let Some(first) = answer.moves.first() else {
        return Vec::new();
    };
    answer
        .moves
        .iter()
        .filter(|t| (t.value, t.rule) == (first.value, first.rule))
        .copied()
        .collect()
}
