//! The principal variation: the game from a position of either phase when both
//! sides play perfectly by the game-theoretic value and its DTC (docs/RULES.md §7):
//! the winner captures as soon as the win allows, the loser as late as it can. It
//! follows the placing tables through the placing phase into the moving phase, and
//! goes on through every capture until the game ends.
//!
//! With [`Metric::Dtw`] ([`line_with`]) both sides play by the depth to win
//! instead, from the DTW tables: the winner ends the game as soon as it can, the
//! loser as late as it can, so a won start ends the game in exactly its DTW turns.

use crate::error::PlayError;
use crate::ser;
use crate::table::{table_answer, NoTable};
use serde::ser::SerializeMap;
use serde::Serialize;
use tigadi_rules::{Game, GameResult, Move, Position, Side};
use tigadi_tablebase::{field, Tablebase};
use tigadi_values::{Metric, Value};

/// A principal variation. As JSON: `start`, `metric` (`"dtc"` or `"dtw"`), `value`,
/// `steps` (each `side`, `move`, `value`, `position`) and `end`; every value is
/// `{"value", KEY}` with KEY the metric's ([`ser::Measured`]), so a depth to win is
/// never under `dtc`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Where it starts.
    pub start: Position,
    /// The depth both sides play by, and the one the values carry.
    pub metric: Metric,
    /// The game-theoretic value of the start for its player to move, its depth by
    /// [`Line::metric`].
    pub value: Value,
    /// The turns, first first.
    pub steps: Vec<Step>,
    /// Why it stops.
    pub end: LineEnd,
}

/// One turn of a [`Line`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Who moves.
    pub side: Side,
    /// The move: the first of the prober's best turns.
    pub mv: Move,
    /// The value for the player who moves, counted from the position before the
    /// move (so a win's DTC falls by one per turn until the capture, which is 1),
    /// its depth by the line's metric.
    pub value: Value,
    /// The position after the move.
    pub position: Position,
}

impl Serialize for Line {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct StepJson {
            #[serde(serialize_with = "ser::side")]
            side: Side,
            #[serde(rename = "move", serialize_with = "ser::text")]
            mv: Move,
            value: ser::Measured,
            #[serde(serialize_with = "ser::text")]
            position: Position,
        }
        let steps: Vec<StepJson> = self
            .steps
            .iter()
            .map(|t| StepJson {
                side: t.side,
                mv: t.mv,
                value: ser::Measured(t.value, self.metric),
                position: t.position,
            })
            .collect();
        let mut m = s.serialize_map(Some(5))?;
        m.serialize_entry("start", &self.start.to_string())?;
        m.serialize_entry("metric", self.metric.key())?;
        m.serialize_entry("value", &ser::Measured(self.value, self.metric))?;
        m.serialize_entry("steps", &steps)?;
        m.serialize_entry("end", &self.end)?;
        m.end()
    }
}

/// Why a [`Line`] stops.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum LineEnd {
    /// The game is over (a win, or a draw by repetition or the turn limit).
    GameOver {
        /// How it ended.
        #[serde(serialize_with = "ser::result")]
        result: GameResult,
    },
    /// The position is a game-theoretic draw: neither side can force a capture that
    /// wins, so perfect play goes on without a decision.
    DrawCertain,
    /// The turns asked for were played.
    MaxTurns,
    /// The tables do not cover the position reached (a turn led into a tier
    /// whose table is missing).
    NoTable {
        /// Which.
        why: NoTable,
    },
}

/// The principal variation from `start` (a position of either phase the tables
/// cover) for at most `max_turns` turns; the rule set is the tablebase's. Each turn
/// is the prober's first turn of the best game-theoretic value
/// ([`Tablebase::answer`]); the game is refereed (so the 100-turn rule and
/// repetition end it as in a real game). A start the tables do not cover is
/// [`PlayError::NoTable`]; a position reached later that they do not cover ends
/// the line ([`LineEnd::NoTable`]). A finished game (the position right after
/// the capture that ended it included) is a line of no turn that says how it
/// ended, its value a loss (or win) in 0 for the player to move, or a draw.
pub fn line(tb: &Tablebase, start: &Position, max_turns: usize) -> Result<Line, PlayError> {
    line_with(tb, start, max_turns, Metric::Dtc)
}

/// [`line()`] with both sides playing by the depth `metric`: [`Metric::Dtc`] as
/// [`line()`]; [`Metric::Dtw`] by the depth to win from the DTW tables (each turn
/// the first, in the prober's generation order, of the turns of the best value
/// with its DTW; the values of the steps and of the start carry the DTW). A
/// missing DTW table is [`PlayError::NoTable`] at the start and ends the line
/// ([`LineEnd::NoTable`]) later, naming the `.tgdw` file.
pub fn line_with(
    tb: &Tablebase,
    start: &Position,
    max_turns: usize,
    metric: Metric,
) -> Result<Line, PlayError> {
    let turns = |p: &Position| match metric {
        Metric::Dtc | Metric::Dtz => turns(tb, p),
        Metric::Dtw => dtw_turns(tb, p),
    };
    let mut game = Game::from_reached_position(*tb.rules(), *start)?;
    if game.result().is_over() {
        // The finished game is its own line: no turn, and how it ended.
        let value = match game.result() {
            GameResult::Win { winner, .. } if winner == start.side => Value::Win(0),
            GameResult::Win { .. } => Value::Loss(0),
            _ => Value::Draw,
        };
        return Ok(Line {
            start: *start,
            metric,
            value,
            steps: Vec::new(),
            end: LineEnd::GameOver {
                result: game.result(),
            },
        });
    }
    let value = turns(start)?.first().ok_or(PlayError::NoLegalMove)?.1;
    let mut steps = Vec::new();
    let end = loop {
        if game.result().is_over() {
            break LineEnd::GameOver {
                result: game.result(),
            };
        }
        if steps.len() >= max_turns {
            break LineEnd::MaxTurns;
        }
        let position = *game.position();
        let moves = match turns(&position) {
            Ok(m) => m,
            Err(PlayError::NoTable(why)) => break LineEnd::NoTable { why },
            Err(e) => return Err(e),
        };
        let Some(&(mv, v)) = moves.first() else {
            return Err(PlayError::NoLegalMove);
        };
        if v == Value::Draw {
            break LineEnd::DrawCertain;
        }
        game.play(mv).map_err(|error| PlayError::Illegal {
            number: steps.len() + 1,
            mv,
            error,
        })?;
        steps.push(Step {
            side: position.side,
            mv,
            value: v,
            position: *game.position(),
        });
    };
    Ok(Line {
        start: *start,
        metric,
        value,
        steps,
        end,
    })
}

/// The prober's turns of `position` (either phase) ordered by the game-theoretic
/// value alone, best first (a stable sort of the prober's order, which under the
/// horizon tables ranks by the values under the 100-turn rule first).
fn turns(tb: &Tablebase, position: &Position) -> Result<Vec<(Move, Value)>, PlayError> {
    let mut moves: Vec<(Move, Value)> = table_answer(tb, position)?
        .moves
        .into_iter()
        .map(|t| (t.turn, t.value))
        .collect();
    sort_best_first(&mut moves);
    Ok(moves)
}

/// The turns of `position` (either phase) with their DTWs from the prober's DTW
/// tables ([`Tablebase::turns`] of [`field::Dtw`]), best first.
fn dtw_turns(tb: &Tablebase, position: &Position) -> Result<Vec<(Move, Value)>, PlayError> {
    let hands = tigadi_tablebase::hands_of(position);
    let mut moves = tb.turns::<field::Dtw>(hands, position.to_board())?;
    sort_best_first(&mut moves);
    Ok(moves)
}

/// A stable sort by value, best first.
fn sort_best_first(moves: &mut [(Move, Value)]) {
    moves.sort_by(|a, b| b.1.better_than(a.1).cmp(&a.1.better_than(b.1)));
}
