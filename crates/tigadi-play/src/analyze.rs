//! The analysis of a game record: for every turn, the value before and after for
//! the player who moved, the best moves where the one played was worse, and a mark
//! where the value changed hands (a win thrown to a draw or a loss, a draw thrown
//! to a loss), as chess analysis marks blunders.

use crate::error::PlayError;
use crate::ser;
use crate::table::{best_turns, table_answer, NoTable};
use serde::Serialize;
use tigadi_rules::{Game, GameResult, Move, Position, Side};
use tigadi_tablebase::{ProbeReport, RuleValues};
use tigadi_values::{Category, Metric, Value};

/// A whole game's analysis.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Analysis {
    /// Every turn of the record, first first.
    pub turns: Vec<TurnAnalysis>,
    /// The position the record reaches.
    #[serde(serialize_with = "ser::text")]
    pub position: Position,
    /// The result there.
    #[serde(serialize_with = "ser::result")]
    pub result: GameResult,
    /// Bone's and Seed's summaries, in that order.
    pub players: [PlayerSummary; 2],
}

/// One turn of an [`Analysis`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TurnAnalysis {
    /// The move's number in the record, counting moves from 1.
    pub number: usize,
    /// Who played it.
    #[serde(serialize_with = "ser::side")]
    pub side: Side,
    /// The move.
    #[serde(rename = "move", serialize_with = "ser::text")]
    pub mv: Move,
    /// The position before it.
    #[serde(serialize_with = "ser::text")]
    pub before_position: Position,
    /// What the tables say about it.
    pub verdict: Verdict,
}

/// What the tables say about one turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "judged", rename_all = "snake_case")]
pub enum Verdict {
    /// The tables cover the position before the turn.
    Judged {
        /// The value of the position before the turn for the player who moved.
        before: Assessment,
        /// The value the move played leads to, for the same player, counted from
        /// the position before it.
        after: Assessment,
        /// The best moves, when the move played was not one of them (empty
        /// otherwise). "Best" is the prober's order: under the rule where the
        /// horizon tables exist, by the game-theoretic value and DTC otherwise.
        #[serde(serialize_with = "ser::texts")]
        best: Vec<Move>,
        /// The game-theoretic value changed hands: a win became a draw or a loss,
        /// or a draw a loss.
        thrown: bool,
        /// The value under the 100-turn rule at the turn's counter changed hands
        /// (false without horizon tables).
        thrown_under_rule: bool,
    },
    /// The tables do not cover the position before the turn (a missing table of
    /// either phase): the turn is not judged.
    NotJudged {
        /// Why.
        why: NoTable,
    },
}

impl Verdict {
    /// Did the turn throw a value, ignoring the rule or under it?
    pub fn is_error(&self) -> bool {
        matches!(self, Verdict::Judged { thrown, thrown_under_rule, .. } if *thrown || *thrown_under_rule)
    }
}

/// A value for one player: game-theoretic and, where the horizon tables exist,
/// under the 100-turn rule at the turn's counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Assessment {
    /// The game-theoretic value (DTC in turns).
    #[serde(serialize_with = "ser::value")]
    pub value: Value,
    /// The value under the rule at the counter of the position before the turn.
    #[serde(serialize_with = "ser::opt_value")]
    pub rule_value: Option<Value>,
    /// The class at counter 0.
    #[serde(serialize_with = "ser::opt_text")]
    pub category: Option<Category>,
    /// The game-theoretic value with its depth to win (`{"value", "dtw"}`), where
    /// the DTW tables exist.
    #[serde(serialize_with = "opt_dtw")]
    pub dtw: Option<Value>,
}

/// An optional value whose depth is a DTW, as `{"value", "dtw"}` or null.
fn opt_dtw<S: serde::Serializer>(v: &Option<Value>, s: S) -> Result<S::Ok, S::Error> {
    v.map(|v| ser::Measured(v, Metric::Dtw)).serialize(s)
}

impl Assessment {
    fn of(value: Value, rule: Option<RuleValues>, dtw: Option<Value>) -> Assessment {
        Assessment {
            value,
            rule_value: rule.map(|r| r.rule_value),
            category: rule.map(|r| r.category),
            dtw,
        }
    }
}

/// One player's summary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerSummary {
    /// Whose.
    #[serde(serialize_with = "ser::side")]
    pub side: Side,
    /// Turns played.
    pub turns: usize,
    /// Turns the tables judged.
    pub judged: usize,
    /// Judged turns whose move was not among the best.
    pub worse: usize,
    /// The numbers of the turns that threw a value (see [`Verdict::is_error`]).
    pub errors: Vec<usize>,
}

/// Replays `moves` from the empty board under the tablebase's rule set (refereed
/// as `tigadi replay` does) and judges every turn from the tables. An illegal move
/// is [`PlayError::Illegal`]; a damaged table is [`PlayError::Table`]; a missing
/// table only leaves the turns it would judge unjudged.
pub fn analyze(tb: &tigadi_tablebase::Tablebase, moves: &[Move]) -> Result<Analysis, PlayError> {
    let mut game = Game::new(*tb.rules());
    let mut turns = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let before = *game.position();
        game.play(mv).map_err(|error| PlayError::Illegal {
            number: i + 1,
            mv,
            error,
        })?;
        let verdict = match table_answer(tb, &before) {
            Ok(answer) => judge(&answer, mv),
            Err(PlayError::NoTable(why)) => Verdict::NotJudged { why },
            Err(e) => return Err(e),
        };
        turns.push(TurnAnalysis {
            number: i + 1,
            side: before.side,
            mv,
            before_position: before,
            verdict,
        });
    }
    let players = [Side::Bone, Side::Seed].map(|side| {
        let own = turns.iter().filter(|t| t.side == side);
        PlayerSummary {
            side,
            turns: own.clone().count(),
            judged: own
                .clone()
                .filter(|t| matches!(t.verdict, Verdict::Judged { .. }))
                .count(),
            worse: own
                .clone()
                .filter(|t| matches!(&t.verdict, Verdict::Judged { best, .. } if !best.is_empty()))
                .count(),
            errors: own
                .filter(|t| t.verdict.is_error())
                .map(|t| t.number)
                .collect(),
        }
    });
    Ok(Analysis {
        turns,
        position: *game.position(),
        result: game.result(),
        players,
    })
}

/// The verdict on playing `mv` where the prober answered `answer`.
fn judge(answer: &ProbeReport, mv: Move) -> Verdict {
    let played = answer
        .moves
        .iter()
        .find(|t| t.turn == mv)
        .expect("the referee and the prober generate the same legal moves");
    let before = Assessment::of(answer.value, answer.rule, answer.dtw);
    let after = Assessment::of(played.value, played.rule, played.dtw);
    let best: Vec<Move> = best_turns(answer).into_iter().map(|t| t.turn).collect();
    let played_best = best.contains(&mv);
    let thrown_under_rule = match (before.rule_value, after.rule_value) {
        (Some(b), Some(a)) => a.wdl() < b.wdl(),
        _ => false,
    };
    Verdict::Judged {
        before,
        after,
        best: if played_best { Vec::new() } else { best },
        thrown: after.value.wdl() < before.value.wdl(),
        thrown_under_rule,
    }
}
