//! One position's value from its successors' values: the consistency check that
//! `verify` runs over finished tables, and the reduction the solvers' results
//! satisfy everywhere.

use tigadi_rules::{Board, RuleSet, Successor};
use tigadi_values::{Metric, Value};

/// The value of `board` for the player to move, recomputed from the values of its
/// successors: `lookup(next)` gives the value of a successor board for *its* player
/// to move (captures lead into other subspaces, quiet moves and passes into the
/// flipped one). A capture that leaves the opponent with two gotis wins at once
/// (DTC 1); a blocked player in a rule set where that loses has lost (DTC 0).
///
/// The solver's results satisfy `evaluate(b) == stored(b)` for every position; this
/// is what `verify` checks.
pub fn evaluate(rules: &RuleSet, board: Board, lookup: impl FnMut(Board) -> Value) -> Value {
    evaluate_with(rules, Metric::Dtc, board, lookup)
}

/// [`evaluate`] for values whose depth is `metric` (the lookup gives the
/// successors' values in the same metric): with [`Metric::Dtw`], a position's depth
/// to win from its successors' (a capture that does not end the game adds one turn
/// to the target's DTW). The DTW pass's results satisfy it everywhere ([`crate::dtw`]).
pub fn evaluate_with(
    rules: &RuleSet,
    metric: Metric,
    board: Board,
    mut lookup: impl FnMut(Board) -> Value,
) -> Value {
    let mut best = Best::default();
    board.for_each_successor(rules, |s| {
        best.add(match s {
            Successor::Capture(next) if next.is_game_over() => Value::Win(1),
            Successor::Capture(next) => metric.before_turn(lookup(next), true),
            Successor::Quiet(next) | Successor::Pass(next) => {
                metric.before_turn(lookup(next), false)
            }
        })
    });
    best.value()
}

/// The reduction of [`evaluate`] on its own, for callers that read the successors'
/// values in another order than they are generated (`verify` prefetches them):
/// [`add`](Best::add) each successor's value from the mover's point of view
/// (`Value::Win(1)` for a capture that ends the game, otherwise the successor's
/// value `before_turn`), then [`value`](Best::value).
#[derive(Clone, Copy, Debug, Default)]
pub struct Best(Option<Value>);

impl Best {
    /// Takes one successor's value into account.
    #[inline]
    pub fn add(&mut self, v: Value) {
        if self.0.is_none_or(|b| v.better_than(b)) {
            self.0 = Some(v);
        }
    }

    /// The best value added; `Loss(0)` when none was (no move and no pass).
    #[inline]
    pub fn value(self) -> Value {
        self.0.unwrap_or(Value::Loss(0))
    }
}
