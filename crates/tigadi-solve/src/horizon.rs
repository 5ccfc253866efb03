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
//!
//! # From the game-theoretic values
//!
//! `tigadi solve` does not run the pass: once a pair's game-theoretic values are
//! known, [`solve_pair_horizon_from_game`] finds the same tables by recomputing
//! only the positions whose value the rule may change (those with a capture into
//! a target whose win, draw or loss the rule changes, and the predecessors of
//! every position that changes), starting from the game values with the DTCs
//! above `N` made draws. Where the rule changes a few thousand values of a
//! pair of a billion slots, that is a few million positions instead of every
//! position in every round. The pass stays as the reference it is checked
//! against (tests/horizon_repair.rs) and for in-memory use
//! ([`solve_up_to_horizon`]).
//!
//! A step with gotis in hand under Lasker's rule is not repaired so (its depths
//! count to the next capture *or placement*, which the game tables do not
//! hold): its rounds run again, but from its game values too
//! ([`solve_step_in_hand_horizon_from_game`]), every game draw a draw from the
//! start, its moves never generated; most positions with gotis in hand are
//! game draws (tests/lasker_horizon_from_game.rs checks it against
//! [`solve_step_in_hand_horizon`]).

use crate::evaluate::evaluate;
use crate::horizon_shortcut::cap_at_limit;
use crate::in_hand::{
    ask, given, initialise, solve_step_in_hand_capped, Kind, TableSource, TierTable,
};
use crate::plan::Pair;
use crate::retrograde::{chain_pairs, solve_pair_capped, PairSpace, Rounds, CHUNK};
use crate::runs::{run_tasks, RunMoves};
use crate::tables::{Observer, SolveError, SolvedSubspace, SolvedTable, TableSet};
use crate::value::{Metric, Packed, Value};
use rayon::prelude::*;
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::{Board, RuleSet};
use tigadi_values::Tier;
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
/// after the reset). The best turn as [`evaluate`] picks it, then a draw if
/// that takes more than `rules.quiet` turns. The horizon pass's results satisfy
/// this everywhere (that is what `verify` checks).
pub fn evaluate_horizon(
    rules: &RuleSet,
    board: Board,
    lookup: impl FnMut(Board) -> Value,
) -> Value {
    value_at_counter(evaluate(rules, board, lookup), 0, rules.quiet)
        .expect("counter 0 is within every limit")
}

/// Solves a step of tiers with gotis in hand under Lasker's rule
/// ([`crate::in_hand::step_tiers`]) under the 100-turn rule: `rule_tables` must
/// hold the **DTC₁₀₀ tables** of its exit tiers ([`crate::in_hand::exit_tiers`]).
/// Returns its tiers' DTC₁₀₀ values in `step`'s order.
///
/// Under Lasker's rule the counter counts the turns since the last capture or
/// placement (docs/RULES.md §8), so such a position has a DTC₁₀₀ as a moving
/// position has: the least `h` within which it is decided, where a capture or a
/// placement decides it by its target's value at counter 0 (read under the rule
/// from the target tier's table, counting 1) and a quiet slide leads on one turn
/// later. These are [`crate::in_hand`]'s rounds with exits, in
/// [`Metric::Dtz`](crate::Metric::Dtz) and capped at `rules.quiet`.
pub fn solve_step_in_hand_horizon(
    rules: &RuleSet,
    step: &[Tier],
    rule_tables: &[TierTable<'_>],
    observer: &dyn Observer,
) -> Result<Vec<SolvedSubspace>, SolveError> {
    solve_step_in_hand_capped(
        rules,
        Metric::Dtz,
        step,
        &mut given(rule_tables),
        None,
        observer,
        Rounds::Adaptive,
        rules.quiet,
    )
}

/// [`solve_step_in_hand_horizon`] from the step's game values too: the same
/// tables, without the moves of the game's draws generated (issue 53).
/// `game` gives the game tables of `step`'s tiers (any value in padding),
/// `rule_tables` the exit tiers' DTC₁₀₀ tables as before (each a
/// [`TableSource`], asked for a table when a phase needs it: a game table
/// twice, for the part's initial pass and for the check).
///
/// # Method
///
/// The rule only adds draws. A position decided under the rule at counter 0
/// is decided within `N` turns by captures, placements and slides into exits
/// decided under the rule; an exit's win under the rule is a win in the game
/// and its loss a loss (by induction over the tiers, the writer refusing any
/// other table), so the same play forces the same outcome in the game. Hence
/// a game draw is a draw under the rule at every counter, and a game win (loss)
/// is under the rule a win (loss) or a draw. So the game's draws are draws
/// from the start: the initial pass neither generates their moves nor reads
/// their exits, and the rounds, which never decide them, skip them as decided
/// (in the pass they stay undecided, and a forward round generates their
/// moves every time, to no effect). A draw seeded so is read by its
/// predecessors as an undecided position is (neither a win nor a loss of the
/// round before), which is what it is to them in the pass. The rest runs as
/// the pass: the values are the same, and the rounds too (only the direction
/// each round takes may differ, which changes no value); the reported rounds
/// may be fewer where the deepest exit was a game draw's.
///
/// Checked after the rounds: every win or loss found is the game's outcome
/// ([`SolveError::Inconsistent`] otherwise, `game` not being the step's game
/// values or `rule_tables` not the rule's).
///
/// `rounds` chooses how the rounds run ([`Rounds::Adaptive`] for the job; the
/// others for tests): all give the same values.
pub fn solve_step_in_hand_horizon_from_game(
    rules: &RuleSet,
    step: &[Tier],
    game: &mut TableSource<'_, '_>,
    rule_tables: &mut TableSource<'_, '_>,
    observer: &dyn Observer,
    rounds: Rounds,
) -> Result<Vec<SolvedSubspace>, SolveError> {
    let found = solve_step_in_hand_capped(
        rules,
        Metric::Dtz,
        step,
        rule_tables,
        Some(&mut *game),
        observer,
        rounds,
        rules.quiet,
    )?;
    for (s, &tier) in found.iter().zip(step) {
        agrees_with_game(s, &ask(game, tier)?)?;
    }
    Ok(found)
}

/// Is every win or loss of `rule` (a tier's values under the rule) the
/// game's outcome in `game` (its game values)? [`SolveError::Inconsistent`]
/// otherwise: the game values or the exits' tables were not what they must be.
fn agrees_with_game(rule: &SolvedSubspace, game: &[Packed]) -> Result<(), SolveError> {
    let agrees =
        rule.values
            .par_iter()
            .zip(game.par_iter())
            .all(|(r, g)| match (r.get(), g.get()) {
                (Some(r @ (Value::Win(_) | Value::Loss(_))), Some(g)) => r.wdl() == g.wdl(),
                (Some(Value::Win(_) | Value::Loss(_)), None) => false,
                _ => true,
            });
    if agrees {
        Ok(())
    } else {
        Err(SolveError::Inconsistent(rule.subspace))
    }
}

/// The game values of a step with gotis in hand under Lasker's rule and its
/// values under the 100-turn rule together: the tables of
/// [`solve_step_in_hand`](crate::solve_step_in_hand) (in
/// [`Metric::Dtc`](crate::Metric::Dtc)) and of
/// [`solve_step_in_hand_horizon_from_game`] from them, in that order, with
/// one initial pass for both (issue 53). `game` gives the exit tiers' game
/// tables, `rule_tables` their DTC₁₀₀ tables.
///
/// # Method
///
/// A board's exits lead to the same slots of the same tiers in both kinds:
/// only the tables read there differ. So the initial pass generates each
/// board's slides and finds its exits once, and reads both kinds' tables
/// there ([`crate::in_hand`]'s `initialise` with two kinds; each kind's
/// placements still come from a grouped pass of its own). The game's rounds
/// run first; then every game draw is made a draw of the 100-turn values as
/// the pass from the game values makes it before its initial pass (no exit,
/// left out of the counts), and the 100-turn rounds run from the same words
/// and exits as that pass's. So both kinds' values, and the rounds each
/// reports, are those of the two passes one after the other. The 100-turn
/// words and exits are built during the initial pass and kept through the
/// game's rounds: 12 bytes a slot of the step instead of 6.
pub fn solve_step_in_hand_game_and_horizon<'a>(
    rules: &RuleSet,
    step: &[Tier],
    game: &mut TableSource<'_, 'a>,
    rule_tables: &mut TableSource<'_, 'a>,
    observer: &dyn Observer,
    rounds: Rounds,
) -> Result<(Vec<SolvedSubspace>, Vec<SolvedSubspace>), SolveError> {
    let space = PairSpace::of_subspaces(step.iter().map(|t| t.subspace));
    let kinds = [
        Kind {
            metric: Metric::Dtc,
            limit: crate::MAX_DTC,
            tables: game,
            draws: None,
        },
        Kind {
            metric: Metric::Dtz,
            limit: rules.quiet,
            tables: rule_tables,
            draws: None,
        },
    ];
    let [game_start, mut rule_start] = initialise(rules, step, &space, kinds, observer)?;
    let game = game_start.rounds(rules, step, &space, observer, rounds);
    rule_start.settle_draws(&space, &game);
    let found = rule_start.rounds(rules, step, &space, observer, rounds);
    for (s, g) in found.iter().zip(&game) {
        agrees_with_game(s, &g.values)?;
    }
    Ok((game, found))
}

/// The DTC₁₀₀ values of `pair` from its game-theoretic values, without the pass:
/// the same tables as [`solve_pair_horizon`], at the cost of the positions whose
/// value the rule changes and their neighbours (issue 30).
///
/// `game` holds the pair's game-theoretic tables in [`Pair::subspaces`] order
/// ([`Packed::NONE`] in padding), `game_targets` and `rule_targets` its capture
/// targets' game-theoretic and DTC₁₀₀ tables (every target must be in
/// `rule_targets`; a game table without its DTC₁₀₀ twin is ignored). Returns the pair's subspaces as
/// the pass does, `rounds` being the rounds the pass would run (the longest
/// DTC₁₀₀ plus the one that finds nothing).
///
/// # Method
///
/// Let `f` be the rule's one-position recurrence, [`evaluate_horizon`]: a
/// position's DTC₁₀₀ value from its quiet successors' DTC₁₀₀ values and its
/// capture targets' values under the rule. The DTC₁₀₀ values are its only
/// fixed point: by induction on `k`, any assignment that satisfies `f`
/// everywhere decides at level `k ≤ N` exactly the positions that round `k` of
/// the pass decides (levels 0 and 1 come from blocks and captures alone, level
/// `k` only from level `k - 1`), and calls the rest draws.
///
/// Order the values of one position by `Win(a) ⊑ Win(b)` and `Loss(a) ⊑ Loss(b)`
/// when `a ≤ b`, and `v ⊑ Draw`: towards a draw. `f` is monotone in that order
/// (a successor's win or loss taking longer, or becoming a draw, makes the
/// position's only longer or a draw), and a capture target's value under the
/// rule is its game value or above it (a win under the rule is a win, a loss a
/// loss: the writer refuses any other table). The game values with the DTCs
/// above `N` made draws (`C`, [`cap_at_limit`]) satisfy `f` with the targets'
/// game values, so `C ⊑ f(C)` with their values under the rule, and `C(p) =
/// f(C)(p)` wherever no capture of `p` reaches a target whose win, draw or loss
/// the rule changes. Starting from `C`, the positions that may break `f` are
/// recomputed, round after round, from the values of the round before, and the
/// predecessors of every position that changed are taken up in the next round.
/// Every value only climbs (checked: a value that would fall means the inputs
/// are not the game's values, [`SolveError::Inconsistent`]), so the rounds end,
/// and they end at a fixed point of `f`, the DTC₁₀₀ values. The result does not
/// depend on the threads or the order. Where no target changes, no position is
/// recomputed: the tables are `C`.
///
/// Memory: the pair's values and its targets' two tables (2 bytes a slot each;
/// the targets' game values become marks of the slots the rule changes, in
/// place, and are dropped where it changes none).
pub fn solve_pair_horizon_from_game(
    rules: &RuleSet,
    pair: Pair,
    game: Vec<Vec<Packed>>,
    game_targets: Vec<(Subspace, Vec<Packed>)>,
    rule_targets: &[SolvedTable<'_>],
    observer: &dyn Observer,
) -> Result<Vec<SolvedSubspace>, SolveError> {
    let space = PairSpace::new(pair);
    let needed = pair.capture_targets();
    let rule_values = TableSet::new(rule_targets, &needed)?;
    assert_eq!(game.len(), space.parts.len(), "one table per subspace");
    let mut values: Vec<Packed> = Vec::with_capacity(space.total as usize);
    for ((idx, _), mut table) in space.parts.iter().zip(game) {
        if table.len() as u64 != idx.slots() {
            return Err(SolveError::WrongSize(idx.subspace()));
        }
        cap_at_limit(rules, &mut table);
        values.extend(table);
    }

    // Which capture targets' slots the rule changes (win, draw or loss), marked
    // in place of the game values of each target that has any (packed marks, as
    // `RunMoves::prepare` reads them into its memo); the others are dropped.
    let (changed_mark, unchanged_mark) = (Packed::new(Value::Loss(1)), Packed::new(Value::Win(1)));
    if let Some(t) = needed
        .iter()
        .find(|t| !game_targets.iter().any(|(s, _)| s == *t))
    {
        return Err(SolveError::MissingTarget(*t));
    }
    let mut changed_tables: Vec<(SubspaceIndex, Vec<Packed>)> = Vec::new();
    for (sub, mut marks) in game_targets {
        let Some((idx, rule)) = rule_values.tables.iter().find(|(i, _)| i.subspace() == sub) else {
            continue;
        };
        if marks.len() != rule.len() {
            return Err(SolveError::WrongSize(sub));
        }
        marks
            .par_iter_mut()
            .zip(rule.par_iter())
            .for_each(|(g, r)| {
                *g = match (r.get(), g.get()) {
                    (Some(r), Some(v)) if r.wdl() != v.wdl() => changed_mark,
                    (Some(_), Some(_)) => unchanged_mark,
                    _ => Packed::NONE,
                }
            });
        if marks.par_iter().any(|&m| m == changed_mark) {
            changed_tables.push((*idx, marks));
        }
    }
    let changed: Vec<(SubspaceIndex, &[Packed])> =
        changed_tables.iter().map(|(i, m)| (*i, &m[..])).collect();

    // The positions with a capture into a changed target: `f` may not hold there.
    observer.phase("scan", space.total);
    let mut frontier = Vec::new();
    for &(idx, start) in &space.parts {
        let sub = idx.subspace();
        let target = sub
            .capture_target()
            .and_then(|to| changed.iter().find(|(i, _)| i.subspace() == to).copied());
        let Some(target) = target else {
            observer.advance(idx.slots());
            continue;
        };
        let run = idx.run_length();
        let found: Vec<Vec<u64>> = run_tasks(&idx, CHUNK as u64)
            .into_par_iter()
            .map(|runs| {
                let mut moves = RunMoves::default();
                let mut out = Vec::new();
                for r in runs.clone() {
                    let (mover, _) = idx.run_mover(r);
                    moves.prepare(rules, mover, sub.opponent as u32, Some(target));
                    if !moves.memo().contains(&changed_mark) {
                        continue;
                    }
                    for (slot, board) in idx.boards(r * run..(r + 1) * run) {
                        let mut hit = false;
                        moves.captures(rules, board.opponent, false, |t| {
                            hit = t == Some(changed_mark);
                            !hit
                        });
                        if hit {
                            out.push(start + slot);
                        }
                    }
                }
                observer.advance((runs.end - runs.start) * run);
                out
            })
            .collect();
        frontier.extend(found.into_iter().flatten());
    }

    // Rounds: every position of the frontier recomputed from the values of the
    // round before; the predecessors of those that changed are the next frontier.
    let own = pair.subspaces();
    let mut round = 0u32;
    while !frontier.is_empty() {
        round += 1;
        frontier.par_sort_unstable();
        frontier.dedup();
        observer.phase(&format!("repair {round}"), frontier.len() as u64);
        let lookup = |b: Board| -> Value {
            let slot = if own.contains(&Subspace::of(b)) {
                values[space.slot(b) as usize].get()
            } else {
                rule_values.value(b)
            };
            slot.expect("a solved table has a value at a canonical slot")
        };
        let updates: Vec<(u64, Packed)> = frontier
            .par_chunks(1 << 10)
            .map(|chunk| {
                let mut out = Vec::new();
                for &g in chunk {
                    let board = space.board(g);
                    let new = evaluate_horizon(rules, board, lookup);
                    let old = values[g as usize]
                        .get()
                        .expect("a solved table has a value at a canonical slot");
                    if new != old {
                        if !towards_draw(old, new) {
                            return Err(SolveError::Inconsistent(Subspace::of(board)));
                        }
                        out.push((g, Packed::new(new)));
                    }
                }
                observer.advance(chunk.len() as u64);
                Ok(out)
            })
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .flatten()
            .collect();
        for &(g, v) in &updates {
            values[g as usize] = v;
        }
        frontier = updates
            .par_iter()
            .flat_map_iter(|&(g, _)| {
                let mut before = Vec::new();
                space
                    .board(g)
                    .for_each_quiet_predecessor(rules, |p| before.push(space.slot(p)));
                before
            })
            .collect();
    }

    // Nothing is left to cap (every recomputed value is within the limit): this
    // only counts the rounds.
    let rounds = cap_at_limit(rules, &mut values);
    let mut out = Vec::new();
    for (idx, start) in space.parts.iter().rev() {
        let tail = values.split_off(*start as usize);
        out.push(SolvedSubspace {
            subspace: idx.subspace(),
            values: tail,
            rounds,
        });
    }
    out.reverse();
    Ok(out)
}

/// Is `new` the same as `old` or towards a draw from it (the same win or loss,
/// taking as long or longer, or a draw)?
fn towards_draw(old: Value, new: Value) -> bool {
    match (old, new) {
        (_, Value::Draw) => true,
        (Value::Win(a), Value::Win(b)) | (Value::Loss(a), Value::Loss(b)) => a <= b,
        _ => false,
    }
}
