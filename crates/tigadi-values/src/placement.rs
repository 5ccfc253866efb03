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
    for_each_placement_target(rules, hands, board, |p, t| {
        f(p, t.value(metric, &mut lookup))
    });
}

/// Where a placement leads, before any value is read: what
/// [`for_each_placement_target`] gives, and [`PlacementTarget::value`] turns
/// into the placement's value. For callers that read the targets' values
/// later than they are generated (the Lasker solver prefetches them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlacementTarget {
    /// A capture that leaves the other player two gotis in all (board and
    /// hand): won at once, depth 1.
    Won,
    /// The last placement filled the board: a draw (docs/RULES.md §8), not
    /// looked up.
    Full,
    /// The position `board`, for the other player to move with the hands
    /// [`Hands::after_placement`] (or, after the last placement, a
    /// moving-phase position at counter 0), reached with or without a capture.
    Next {
        /// The position reached.
        board: Board,
        /// Did the placement capture?
        capture: bool,
    },
}

impl PlacementTarget {
    /// The placement's value for the player who placed, in `metric`:
    /// `lookup(next)` is the value of the position reached for its player to
    /// move, in the same metric (called only for [`PlacementTarget::Next`]).
    #[inline]
    pub fn value(self, metric: Metric, lookup: impl FnOnce(Board) -> Value) -> Value {
        match self {
            PlacementTarget::Won => Value::Win(1),
            PlacementTarget::Full => Value::Draw,
            PlacementTarget::Next { board, capture } => {
                metric.before_placement(lookup(board), capture)
            }
        }
    }
}

/// Calls `f` with every placement (and capture choice) of the placing
/// position `board` with `hands` in hand and where it leads, in
/// move-generation order: the targets whose values
/// [`for_each_placement_value_with`] reads.
pub fn for_each_placement_target(
    rules: &RuleSet,
    hands: Hands,
    board: Board,
    mut f: impl FnMut(Placement, PlacementTarget),
) {
    let opponent_hand = hands.opponent;
    board.for_each_placement(rules, |p, s| {
        let (next, capture) = match s {
            Successor::Capture(next) if next.placing_game_over(opponent_hand) => {
                return f(p, PlacementTarget::Won);
            }
            Successor::Capture(next) => (next, true),
            Successor::Quiet(next) | Successor::Pass(next) => (next, false),
        };
        f(
            p,
            if next.is_full() {
                PlacementTarget::Full
            } else {
                PlacementTarget::Next {
                    board: next,
                    capture,
                }
            },
        )
    });
}
