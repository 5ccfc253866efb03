//! Values under the 100-turn rule (docs/RULES.md §7): DTC₁₀₀ of every position, its value
//! at any counter, and the five classes (win, cursed win, draw, blessed loss, loss).
//!
//! # Method
//!
//! Under the rule with turn limit `N` (the rule set's `quiet`), a position at counter
//! `c` is won when the player to move can force, within `N - c` turns, a capture that
//! ends the game or leads to a position won under the rule *at counter 0*; lost when
//! the opponent can force that; drawn otherwise. "Decided within `h` turns" is exactly
//! what round `h` of the retrograde analysis computes ([`crate::retrograde`]), so the
//! horizon pass is the same solver with two changes:
//!
//! - capture targets are read **under the rule** (their DTC₁₀₀ tables, whose win,
//!   draw or loss is the value at counter 0), not their game-theoretic values;
//! - the rounds **stop at `N`**: what is not decided within `N` turns is a draw under
//!   the rule even at counter 0.
//!
//! The result per slot is a [`Packed`] value whose DTC is DTC₁₀₀ (at most `N`): `Win(h)`
//! or `Loss(h)` when the position is decided within `h` turns, `Draw` when it is not
//! decided within `N`. The value at counter `c` is the decided one exactly when
//! `h <= N - c` ([`value_at_counter`]). Memory: the same 4-byte word per slot of the
//! pair as the game-theoretic solve, plus 2 bytes per slot for the result.

use crate::plan::Pair;
use crate::retrograde::{
    chain_pairs, solve_pair_capped, Observer, Rounds, SolveError, SolvedSubspace, SolvedTable,
};
use crate::value::{Packed, Value};
use rayon::prelude::*;
use tigadi_index::Subspace;
use tigadi_rules::{Board, RuleSet};
pub use tigadi_values::{value_at_counter, Category};

/// Solves one pair under the 100-turn rule of `rules` (turn limit `rules.quiet`).
/// `rule_targets` must hold the **DTC₁₀₀ tables** (this function's output) of the
/// subspaces the pair's captures lead into ([`Pair::capture_targets`]). Returns the
/// pair's subspaces in [`Pair::subspaces`] order, one DTC₁₀₀ value per slot.
pub fn solve_pair_horizon(
    rules: &RuleSet,
    pair: Pair,
    rule_targets: &[SolvedTable<'_>],
    observer: &dyn Observer,
) -> Result<Vec<SolvedSubspace>, SolveError> {
    solve_pair_capped(
        rules,
        pair,
        rule_targets,
        observer,
        Rounds::Adaptive,
        rules.quiet,
    )
}

/// Does [`solve_pair_horizon`] give a pair its game-theoretic values with every
/// win and loss whose DTC exceeds the turn limit made a draw ([`cap_at_limit`])?
/// Then the pass need not run. `targets` holds each capture target's DTC₁₀₀
/// table beside its game-theoretic one.
///
/// So it is when every target's two tables agree on win, draw or loss at every
/// slot: the pass reads nothing else from its targets (a capture restarts the
/// count), so it runs the game-theoretic solve's rounds on the same inputs,
/// deciding in round `h` what that solve decides in round `h` (a position's DTC
/// is the round that decides it), and stops after round `N` (the limit), calling
/// draws what is not decided by then: the game's draws and the wins and losses
/// whose DTC exceeds `N`. The positions whose value a real limit changes while
/// every capture target keeps its values are exactly those. (Under the default
/// limit it holds for every pair of Tigadi, whose longest DTC is 83, so that
/// nothing is capped.)
pub fn horizon_follows_from_game(targets: &[(&[Packed], &[Packed])]) -> bool {
    let same = |(rule, game): &(&[Packed], &[Packed])| {
        rule.len() == game.len()
            && rule
                .par_iter()
                .zip(game.par_iter())
                .all(|(a, b)| a.get().map(Value::wdl) == b.get().map(Value::wdl))
    };
    targets.iter().all(same)
}

/// A pair's game-theoretic values made its DTC₁₀₀ values where
/// [`horizon_follows_from_game`] holds: every win and loss whose DTC exceeds the
/// turn limit becomes a draw, the rest stays (padding too). Returns the number of
/// rounds the pass would report: the longest DTC left, capped at the limit, plus
/// the one that finds nothing.
pub fn cap_at_limit(rules: &RuleSet, values: &mut [Packed]) -> u32 {
    values
        .par_iter_mut()
        .map(|v| match v.get().and_then(|x| x.dtc()) {
            Some(d) if d > rules.quiet => {
                *v = Packed::DRAW;
                rules.quiet as u32 + 1
            }
            Some(d) => d as u32 + 1,
            None => 1,
        })
        .max()
        .unwrap_or(1)
}

/// [`solve_pair_horizon`] for every pair with at most `max_gotis` on the board, in
/// memory and in dependency order (tests, experiments); `each` sees every pair's
/// results and seconds. Returns every subspace's DTC₁₀₀ table.
pub fn solve_up_to_horizon(
    rules: &RuleSet,
    max_gotis: u32,
    observer: &dyn Observer,
    each: impl FnMut(Pair, &[SolvedSubspace], f64),
) -> std::collections::HashMap<Subspace, Vec<Packed>> {
    chain_pairs(
        rules.pieces,
        max_gotis,
        |pair, targets| solve_pair_horizon(rules, pair, targets, observer),
        each,
    )
}

/// The value of `board` under the rule at counter 0 (its DTC₁₀₀), recomputed from
/// its successors' DTC₁₀₀ values: `lookup(next)` gives the DTC₁₀₀ value of a
/// successor board for its player to move (for a capture, its value at counter 0
/// after the reset). The best turn as [`crate::evaluate`] picks it, then a draw if
/// that takes more than `rules.quiet` turns. The horizon pass's results satisfy
/// this everywhere (that is what `verify` checks).
pub fn evaluate_horizon(
    rules: &RuleSet,
    board: Board,
    lookup: impl FnMut(Board) -> Value,
) -> Value {
    value_at_counter(crate::evaluate(rules, board, lookup), 0, rules.quiet)
        .expect("counter 0 is within every limit")
}
