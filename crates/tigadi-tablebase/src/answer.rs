//! One home for "what a prober answers about a position": its value and every
//! legal turn with the value it leads to, best first. Bindings (Python, C, a
//! server) hand this on rather than assembling it themselves.

use crate::error::TablebaseError;
use crate::tablebase::{RuleValues, Tablebase, Turn};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use tigadi_rules::{Phase, Position};
use tigadi_solve::Value;

/// The full answer for one moving-phase position: [`Tablebase::probe`] and
/// [`Tablebase::probe_moves`] together.
///
/// Serialises as `{"value": "win"|"draw"|"loss", "dtc": N|null, "moves":
/// [{"move": "a1-a4", "value": ..., "dtc": ...}, ...]}`, the fields of
/// `tigadi probe --json` (which adds the position string).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeAnswer {
    /// The value for the player to move (DTC in turns).
    pub value: Value,
    /// Every legal turn with its value from the player to move's point of view,
    /// counted from this position, best first (see [`Tablebase::probe_moves`]).
    pub moves: Vec<(Turn, Value)>,
}

impl Tablebase {
    /// The value and every legal turn of `position`, which must be in the moving
    /// phase ([`TablebaseError::NotMovingPhase`] otherwise). The 100-turn counter
    /// is ignored: the values are game-theoretic (docs/RULES.md §7).
    pub fn probe_position(&self, position: &Position) -> Result<ProbeAnswer, TablebaseError> {
        let board = moving_board(position)?;
        Ok(ProbeAnswer {
            value: self.probe(board)?,
            moves: self.probe_moves(board)?,
        })
    }

    /// The value of `position` for the player to move, without the moves (see
    /// [`Tablebase::probe_position`]).
    pub fn probe_position_value(&self, position: &Position) -> Result<Value, TablebaseError> {
        self.probe(moving_board(position)?)
    }
}

/// Everything the tables say about one moving-phase board at one 100-turn counter:
/// the values ignoring the rule and, where the horizon tables exist, under it, for
/// the position and for every legal turn. What `tigadi probe` prints, and what
/// analysis and play read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CounterAnswer {
    /// The game-theoretic value for the player to move (DTC in turns).
    pub value: Value,
    /// The values under the 100-turn rule at the counter asked for; `None` when the
    /// horizon table of this subspace is absent (a directory solved with
    /// `--no-horizon`, or by an older version).
    pub rule: Option<RuleValues>,
    /// Every legal turn with its game-theoretic value and, when `rule` is known, its
    /// values under the rule, counted from this position and best first: for a
    /// player who must win under the rule when `rule` is known
    /// ([`Tablebase::probe_moves_rule`]), by the game-theoretic value otherwise
    /// ([`Tablebase::probe_moves`]).
    pub moves: Vec<(Turn, Value, Option<RuleValues>)>,
}

impl Tablebase {
    /// The values of `board` and of every legal turn at 100-turn counter `counter`
    /// (see [`CounterAnswer`]). A missing game-theoretic table is an error; a missing
    /// horizon table of `board`'s own subspace only leaves the values under the rule
    /// out.
    pub fn probe_at_counter(
        &self,
        board: tigadi_rules::Board,
        counter: u16,
    ) -> Result<CounterAnswer, TablebaseError> {
        let value = self.probe(board)?;
        let rule = match self.probe_rule(board, counter) {
            Ok(r) => Some(r),
            Err(TablebaseError::MissingSubspace { .. }) => None,
            Err(e) => return Err(e),
        };
        let moves = if rule.is_some() {
            self.probe_moves_rule(board, counter)?
                .into_iter()
                .map(|(t, r)| (t, r.value, Some(r)))
                .collect()
        } else {
            self.probe_moves(board)?
                .into_iter()
                .map(|(t, v)| (t, v, None))
                .collect()
        };
        Ok(CounterAnswer { value, rule, moves })
    }
}

/// The board of a moving-phase position, seen from the player to move.
fn moving_board(position: &Position) -> Result<tigadi_rules::Board, TablebaseError> {
    if position.phase() != Phase::Moving {
        return Err(TablebaseError::NotMovingPhase);
    }
    Ok(position.to_board())
}

/// One turn of [`ProbeAnswer::moves`] as `{"move", "value", "dtc"}`.
struct MoveEntry<'a>(&'a Turn, Value);

impl Serialize for MoveEntry<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("move", &self.0.to_string())?;
        m.serialize_entry("value", &self.1.wdl().to_string())?;
        m.serialize_entry("dtc", &self.1.dtc())?;
        m.end()
    }
}

impl Serialize for ProbeAnswer {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("value", &self.value.wdl().to_string())?;
        m.serialize_entry("dtc", &self.value.dtc())?;
        let moves: Vec<MoveEntry> = self.moves.iter().map(|(t, v)| MoveEntry(t, *v)).collect();
        m.serialize_entry("moves", &moves)?;
        m.end()
    }
}
