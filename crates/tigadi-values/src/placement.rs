//! The one definition of a placing position's value from the values of the
//! positions its placements lead to, shared by the solver, `verify` and probers.

use crate::tier::Hands;
use crate::value::{Metric, Value};
use tigadi_rules::{Board, Placement, RuleSet, Successor};

/// The value of the placing position `board` with `hands` in hand for the player to
/// move, from the values of the positions its placements lead to: `lookup(next)` is
/// the value of `next` for *its* player to move, a position with the hands
/// [`Hands::after_placement`] or, after the last placement, a moving-phase position
/// at counter 0. A capture
/// that leaves the other player two gotis in all (board and hand) wins at once
/// (depth 1); after the last placement a full board is a draw (docs/RULES.md §8) and is
/// not looked up.
///
/// The solver's results satisfy `evaluate_placing(b) == stored(b)` everywhere; this
/// is what `verify` checks on placing tables.
pub fn evaluate_placing(
    rules: &RuleSet,
    hands: Hands,
    board: Board,
    lookup: impl FnMut(Board) -> Value,
) -> Value {
    evaluate_placing_with(rules, Metric::Dtc, hands, board, lookup)
}

/// [`evaluate_placing`] for values whose depth is `metric` (the lookup gives the
/// successors' values in the same metric): with [`Metric::Dtw`], a placing
/// position's depth to win from its successors'.
pub fn evaluate_placing_with(
    rules: &RuleSet,
    metric: Metric,
    hands: Hands,
    board: Board,
    lookup: impl FnMut(Board) -> Value,
) -> Value {
    let mut best: Option<Value> = None;
    for_each_placement_value_with(rules, metric, hands, board, lookup, |_, v| {
        if best.is_none_or(|b| v.better_than(b)) {
            best = Some(v);
        }
    });
    // Fewer than 24 gotis stand on the board while anyone holds one in hand, so
    // there is always an empty point.
    best.unwrap_or_else(|| unreachable!("a placing position with no empty point"))
}

/// Calls `f` with every placement (and capture choice) of the placing position
/// `board` with `hands` in hand and its value for the player to move, computed as
/// [`evaluate_placing`] does from `lookup`; in move-generation order. The one
/// definition of a placement's value, shared by the solver, `verify` and probers.
pub fn for_each_placement_value(
    rules: &RuleSet,
    hands: Hands,
    board: Board,
    lookup: impl FnMut(Board) -> Value,
    f: impl FnMut(Placement, Value),
) {
    for_each_placement_value_with(rules, Metric::Dtc, hands, board, lookup, f)
}

/// [`for_each_placement_value`] for values whose depth is `metric`.
pub fn for_each_placement_value_with(
    rules: &RuleSet,
    metric: Metric,
    hands: Hands,
    board: Board,
    mut lookup: impl FnMut(Board) -> Value,
    mut f: impl FnMut(Placement, Value),
) {
    let opponent_hand = hands.opponent;
    board.for_each_placement(rules, |p, s| {
        let v = match s {
            Successor::Capture(next) if next.placing_game_over(opponent_hand) => Value::Win(1),
            Successor::Capture(next) => {
                metric.before_placement(next_value(next, &mut lookup), true)
            }
            Successor::Quiet(next) | Successor::Pass(next) => {
                metric.before_placement(next_value(next, &mut lookup), false)
            }
        };
        f(p, v)
    });
}

fn next_value(next: Board, lookup: &mut impl FnMut(Board) -> Value) -> Value {
    if next.is_full() {
        Value::Draw
    } else {
        lookup(next)
    }
}
