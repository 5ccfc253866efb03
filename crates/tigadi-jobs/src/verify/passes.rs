//! Every call from `verify` into the solver's passes for tiers whose moves all
//! leave them, one thin function each, keyed by the tier; and the one test of the horizon shortcut for a tier with moves inside.
//! The recomputations (`turns.rs`, `leaving.rs`) call only these.

use tigadi_index::Subspace;
use tigadi_rules::{Board, RuleSet};
use tigadi_solve::horizon_shortcut::follows_from_game;
use tigadi_solve::leaving::{evaluate_placing_with, solve_tier_changed, solve_tier_with};
use tigadi_solve::{Metric, Observer, Packed, SolveError, SolvedTable, Value};

use tigadi_values::Tier;

use super::step::TierValues;

/// A successor's value as a number that orders the choices (the solver's, so
/// that both recompute alike).
pub(super) use tigadi_solve::leaving::SuccessorKeys;

/// The values of every slot of `tier` (one whose moves all leave it) by the
/// solver's pass over its successors' values `next` (`None` where the pass
/// leaves a slot without one: padding, or a successor value out of range).
pub(super) fn leaving_tier_values(
    rules: &RuleSet,
    metric: Metric,
    tier: Tier,
    next: &[SolvedTable],
    observer: &dyn Observer,
) -> Result<Vec<Packed>, SolveError> {
    solve_tier_with(rules, metric, tier, next, observer).map(|solved| solved.values)
}

/// Like [`leaving_tier_values`] under the 100-turn rule, from `game` (the
/// tier's game values, padding marked), re-evaluating only the slots with a
/// placement into a `changed` slot of a successor table (where its values
/// under the rule differ from its game values).
pub(super) fn leaving_tier_values_changed(
    rules: &RuleSet,
    tier: Tier,
    game: Vec<Packed>,
    next: &[SolvedTable],
    changed: &[(Subspace, &[u64])],
    observer: &dyn Observer,
) -> Result<Vec<Packed>, SolveError> {
    solve_tier_changed(rules, tier, game, next, changed, observer).map(|(solved, _)| solved.values)
}

/// The value of `board` in `tier` (one whose moves all leave it) from its
/// successors' stored values (`lookup`), evaluated on its own.
pub(super) fn evaluate_in_leaving_tier(
    rules: &RuleSet,
    metric: Metric,
    tier: Tier,
    board: Board,
    lookup: impl Fn(Board) -> Value,
) -> Value {
    evaluate_placing_with(rules, metric, tier.hands, board, lookup)
}

/// Do a tier's horizon values follow from its game values? True when in the
/// tier and in every table its positions' successors lie in (its flipped
/// subspace, its capture target), the stored horizon values (`horizon`) are
/// the game values (`game`) with every DTC above the turn limit made a draw,
/// slot for slot ([`follows_from_game`]).
///
/// Then a position's value under the rule, recomputed from its successors'
/// horizon values, is its game value so capped: capping a position's
/// successors' values makes no win or loss shorter, and turns a win or loss
/// into a draw exactly when its DTC, one turn more than its best successor's,
/// passes the limit (docs/VERIFICATION.md). So where the game table passes
/// its recomputation, the horizon table passes too, and only its category
/// section needs comparing; where the game table fails, the horizon table is
/// recomputed on its own.
pub(super) fn horizon_follows_from_game(
    rules: &RuleSet,
    game: &TierValues,
    horizon: &TierValues,
) -> bool {
    game.tables().count() == horizon.tables().count()
        && game.tables().zip(horizon.tables()).all(|(g, h)| {
            g.tier == h.tier && follows_from_game(rules, g.tier, &h.values, &g.values)
        })
}
