//! The placing phase's layers (placements made, `0..2 * pieces`), the goti counts
//! each can hold, and the one definition of a placing position's value from the
//! values of the positions its placements lead to, shared by the solver, `verify`
//! and probers.

use crate::value::{Metric, Value};
use std::collections::BTreeSet;
use tigadi_index::{Subspace, MIN_GOTIS};
use tigadi_rules::{Board, Placement, RuleSet, Successor};

/// Number of placing layers under `rules`: `2 * pieces` (layer `placed` for
/// `placed` in `0..layers`).
pub fn layer_count(rules: &RuleSet) -> u32 {
    2 * rules.pieces as u32
}

/// The hands in layer `placed`: gotis still held by the player to move and by the
/// other player.
pub fn hands(rules: &RuleSet, placed: u32) -> (u8, u8) {
    let n = rules.pieces as u32;
    ((n - placed / 2) as u8, (n - placed.div_ceil(2)) as u8)
}

/// The goti counts (player to move, other player) that positions of layer `placed`
/// can have: those reached from the empty board by placements, each a quiet one or
/// (when the placer then has three gotis or more and the other player has one on the
/// board) a capture that leaves the captured side three gotis or more in all. Sorted.
pub fn layer_subspaces(rules: &RuleSet, placed: u32) -> Vec<Subspace> {
    let mut layer = BTreeSet::from([Subspace::new(0, 0)]);
    for k in 0..placed {
        let (_, opponent_hand) = hands(rules, k);
        let mut next = BTreeSet::new();
        for s in layer {
            let placer = s.mover + 1;
            next.insert(Subspace::new(s.opponent, placer));
            if placer >= MIN_GOTIS
                && s.opponent > 0
                && (s.opponent - 1 + opponent_hand) >= MIN_GOTIS
            {
                next.insert(Subspace::new(s.opponent - 1, placer));
            }
        }
        layer = next;
    }
    layer.into_iter().collect()
}

/// The subspaces the placements of layer `placed` lead into: those of layer
/// `placed + 1`, or for the last layer the moving-phase subspaces (both sides three
/// or more) of the boards after the last placement, Bone to move, the full board
/// left out (a draw by docs/RULES.md §8; see [`evaluate_placing`]).
pub fn successor_subspaces(rules: &RuleSet, placed: u32) -> Vec<Subspace> {
    let next = layer_subspaces(rules, placed + 1);
    if placed + 1 < layer_count(rules) {
        return next;
    }
    next.into_iter()
        .filter(|s| s.mover >= MIN_GOTIS && s.opponent >= MIN_GOTIS)
        .filter(|s| (s.mover + s.opponent) as usize != tigadi_rules::POINTS)
        .collect()
}

/// The value of the placing position `board` of layer `placed` for the player to
/// move, from the values of the positions its placements lead to: `lookup(next)` is
/// the value of `next` for *its* player to move, a position of layer `placed + 1`
/// or, after the last placement, a moving-phase position at counter 0. A capture
/// that leaves the other player two gotis in all (board and hand) wins at once
/// (depth 1); after the last placement a full board is a draw (docs/RULES.md §8) and is
/// not looked up.
///
/// The solver's results satisfy `evaluate_placing(b) == stored(b)` everywhere; this
/// is what `verify` checks on placing tables.
pub fn evaluate_placing(
    rules: &RuleSet,
    placed: u32,
    board: Board,
    lookup: impl FnMut(Board) -> Value,
) -> Value {
    evaluate_placing_with(rules, Metric::Dtc, placed, board, lookup)
}

/// [`evaluate_placing`] for values whose depth is `metric` (the lookup gives the
/// successors' values in the same metric): with [`Metric::Dtw`], a placing
/// position's depth to win from its successors'.
pub fn evaluate_placing_with(
    rules: &RuleSet,
    metric: Metric,
    placed: u32,
    board: Board,
    lookup: impl FnMut(Board) -> Value,
) -> Value {
    let mut best: Option<Value> = None;
    for_each_placement_value_with(rules, metric, placed, board, lookup, |_, v| {
        if best.is_none_or(|b| v.better_than(b)) {
            best = Some(v);
        }
    });
    // Fewer than 24 gotis stand on the board while anyone holds one in hand, so
    // there is always an empty point.
    best.unwrap_or_else(|| unreachable!("a placing position with no empty point"))
}

/// Calls `f` with every placement (and capture choice) of the placing position
/// `board` of layer `placed` and its value for the player to move, computed as
/// [`evaluate_placing`] does from `lookup`; in move-generation order. The one
/// definition of a placement's value, shared by the solver, `verify` and probers.
pub fn for_each_placement_value(
    rules: &RuleSet,
    placed: u32,
    board: Board,
    lookup: impl FnMut(Board) -> Value,
    f: impl FnMut(Placement, Value),
) {
    for_each_placement_value_with(rules, Metric::Dtc, placed, board, lookup, f)
}

/// [`for_each_placement_value`] for values whose depth is `metric`.
pub fn for_each_placement_value_with(
    rules: &RuleSet,
    metric: Metric,
    placed: u32,
    board: Board,
    mut lookup: impl FnMut(Board) -> Value,
    mut f: impl FnMut(Placement, Value),
) {
    let (_, opponent_hand) = hands(rules, placed);
    board.for_each_placement(rules, |p, s| {
        let v = match s {
            Successor::Capture(next) if next.placing_game_over(opponent_hand) => Value::Win(1),
            Successor::Capture(next) => metric.before_turn(next_value(next, &mut lookup), true),
            Successor::Quiet(next) | Successor::Pass(next) => {
                metric.before_turn(next_value(next, &mut lookup), false)
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
