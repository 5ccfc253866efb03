//! The one door to the tables: the prober's answer for a full-game position, or
//! why the tables hold none.

use crate::error::PlayError;
use std::fmt;
use tigadi_index::Subspace;
use tigadi_rules::Position;
use tigadi_solve::Value;
use tigadi_tablebase::{CounterAnswer, RuleValues, Tablebase, Turn};

/// Why the tables say nothing about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoTable {
    /// The player to move still has gotis in hand: only the moving phase is solved.
    Placing,
    /// The table of this subspace (of the position, or of a position one of its
    /// captures leads to) is not in the directory.
    Missing(Subspace),
}

impl fmt::Display for NoTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoTable::Placing => f.write_str("the placing phase is not solved"),
            NoTable::Missing(s) => write!(f, "no table for {s}"),
        }
    }
}

impl serde::Serialize for NoTable {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// What the prober says about `position` (which must be in the moving phase) at
/// its 100-turn counter: [`Tablebase::probe_at_counter`]. A position the tables do
/// not cover is [`PlayError::NoTable`]; a damaged table is [`PlayError::Table`].
pub fn table_answer(tb: &Tablebase, position: &Position) -> Result<CounterAnswer, PlayError> {
    if position.phase() != tigadi_rules::Phase::Moving {
        return Err(PlayError::NoTable(NoTable::Placing));
    }
    Ok(tb.probe_at_counter(position.to_board(), position.quiet_turns)?)
}

/// The turns of `answer` as good as its first (the prober's best): equal in the
/// game-theoretic value and, where known, in the values under the rule. The
/// prober's order decides what "best" is; this only finds the ties.
pub fn best_turns(answer: &CounterAnswer) -> Vec<(Turn, Value, Option<RuleValues>)> {
    let Some(&(_, value, rule)) = answer.moves.first() else {
        return Vec::new();
    };
    answer
        .moves
        .iter()
        .filter(|(_, v, r)| (*v, *r) == (value, rule))
        .copied()
        .collect()
}
