//! The one resumable solve: walks a list of steps, each a [`Tier`], in
//! dependency order (every step after the steps its moves lead into), once per
//! kind of table asked for (the game values, then the kinds derived from them:
//! each kind is a pass of this one job), and writes each step's tables into a
//! tablebase directory. A step is solved by the shape of its tier:
//!
//! - a tier with moves inside it (a hands-empty tier, solved with its flipped
//!   tier as one pair; under Lasker's rule also a tier with gotis in hand, with
//!   its flipped partner) by rounds (`rounds_step.rs`), as is every tier with
//!   gotis in hand under Lasker's rule, whose slides leave it;
//! - a tier whose moves all leave it by placements by one pass over its
//!   successors' values (`pass_step.rs`).
//!
//! Steps whose tables are already present and valid are not solved again, so a
//! run that was stopped, however it stopped, resumes where it was and ends with
//! the same bytes. The `tigadi solve` command, a server or a binding all run this
//! one loop; they only choose the steps and kinds and how to show progress
//! ([`JobObserver`]).
//!
//! The job holds the directory's [`DirLock`](tigadi_tablebase::DirLock) while it
//! runs, so a second job into the same directory is refused, and it removes only
//! temporary files whose writer is gone.

use crate::observer::{JobError, JobObserver};
use crate::pass_step::OnePass;
use crate::rounds_step::{solve_rounds, tiers_of_step, Stored};
use std::path::Path;
use tigadi_index::SubspaceIndex;
use tigadi_rules::RuleSet;
use tigadi_solve::Value;
use tigadi_tablebase::{TableId, TableKind, TablebaseDir};
use tigadi_values::{tier_steps, tier_steps_from, Tier};

/// The part of a game a solve covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every tier a game reaches from the start.
    Whole,
    /// The hands-empty tiers with at most this many gotis on the board (with
    /// the tiers their captures lead to, which have fewer).
    BoardUpTo(u32),
    /// A tier and every tier its moves lead to, directly or through others.
    From(Tier),
}

/// The steps of `scope` under `rules`, in dependency order (every step after
/// the steps its moves lead into): the head of each step of
/// [`tier_steps`]/[`tier_steps_from`] (a tier, or a tier with its flipped
/// partner when they reach each other, solved as one step).
pub fn steps(rules: &RuleSet, scope: Scope) -> Vec<Tier> {
    let heads = |steps: Vec<Vec<Tier>>| steps.into_iter().map(|step| step[0]);
    let mut steps: Vec<Tier> = match scope {
        Scope::Whole => heads(tier_steps(rules)).collect(),
        Scope::BoardUpTo(gotis) => heads(tier_steps(rules))
            .filter(|t| t.is_moving() && u32::from(t.subspace.mover + t.subspace.opponent) <= gotis)
            .collect(),
        Scope::From(tier) => heads(tier_steps_from(rules, tier)).collect(),
    };
    // Fewer gotis in hand first, the walk's order kept among equals: still a
    // dependency order (no move adds a goti to a hand), and the tiers of the
    // same hands follow one another, so the one-pass steps run as one group
    // whose writing overlaps the next tier's solve.
    steps.sort_by_key(|t| u32::from(t.hands.mover) + u32::from(t.hands.opponent));
    steps
}

/// Is the step of `tier` solved by rounds ([`solve_rounds`]) rather than by one
/// pass over its successors ([`OnePass`])? A tier with moves inside it is; so is
/// every tier with gotis in hand under Lasker's rule, whose slides the one-pass
/// solver does not take (the rounds solver takes a step without moves inside as
/// its initial pass alone).
fn by_rounds(rules: &RuleSet, tier: Tier) -> bool {
    tier.has_moves_inside(rules) || (rules.slides_in_hand && !tier.is_moving())
}

/// The tables one step writes: those of its tiers ([`tiers_of_step`]: a pair's
/// one or two subspaces, a Lasker tier and its partner), or the tier.
fn step_tables(rules: &RuleSet, kind: TableKind, tier: Tier) -> Vec<TableId> {
    if by_rounds(rules, tier) {
        tiers_of_step(rules, tier)
            .into_iter()
            .map(|t| TableId::new(kind, t))
            .collect()
    } else {
        vec![TableId::new(kind, tier)]
    }
}

/// The slots of one step's tables.
fn step_slots(rules: &RuleSet, tier: Tier) -> u64 {
    step_tables(rules, TableKind::GameTheoretic, tier)
        .iter()
        .map(|id| SubspaceIndex::new(id.tier.subspace).slots())
        .sum()
}

/// Solves `steps` (in dependency order, as [`steps`] gives them) under `rules` into tablebase directory `dir`: one pass per kind of
/// `kinds`, in the order given ([`TableKind::GameTheoretic`] first: the other
/// kinds are derived from its tables), skipping the steps whose tables of that
/// kind are solved there already. The tables a step reads (its successors', its
/// own game values for a derived kind) must be solved in `dir` already or come
/// before it in `steps` and `kinds`.
///
/// Runs on the current rayon pool (use `ThreadPool::install` to choose the thread
/// count; the files do not depend on it). Holds the directory's
/// [`DirLock`](tigadi_tablebase::DirLock) throughout.
pub fn solve<O: JobObserver>(
    dir: &Path,
    rules: &RuleSet,
    steps: &[Tier],
    kinds: &[TableKind],
    observer: &O,
) -> Result<(), JobError> {
    let tables = TablebaseDir::new(dir, rules);
    let _lock = tables.lock()?;
    // Written at the levels the directory was started with.
    let tables = tables.with_recorded_encoding();
    for name in tables.remove_stale_temporaries() {
        observer.warning(&format!(
            "removed {name}, left half-written by a stopped run"
        ));
    }
    let todo: Vec<Vec<bool>> = kinds
        .iter()
        .map(|&kind| {
            let solved = |t| {
                step_tables(rules, kind, t)
                    .into_iter()
                    .all(|id| tables.is_solved(id))
            };
            steps.iter().map(|&t| !solved(t)).collect()
        })
        .collect();
    let planned = todo.iter().flat_map(|t| steps.iter().zip(t));
    let planned: Vec<Tier> = planned.filter(|(_, &t)| t).map(|(&s, _)| s).collect();
    observer.planned(
        planned.len(),
        planned.iter().map(|&t| step_slots(rules, t)).sum(),
    );
    for (&kind, todo) in kinds.iter().zip(&todo) {
        run_pass(&tables, kind, steps, todo, observer)?;
    }
    // Every table this run wrote is listed already: this adds only what an
    // interrupted run wrote and did not list.
    let manifest = tables.update_manifest(&[], &[])?;
    for s in &manifest.skipped {
        observer.warning(&format!("left out of the manifest: {s}"));
    }
    Ok(())
}

/// One pass of [`solve`]: the tables of `kind` of the steps marked in `todo`.
fn run_pass<O: JobObserver>(
    tables: &TablebaseDir,
    kind: TableKind,
    steps: &[Tier],
    todo: &[bool],
    observer: &O,
) -> Result<(), JobError> {
    observer.pass_started(kind);
    // The rounds step solved last: its tables being stored and listed on a
    // thread of their own while the next step is solved, and its values, which
    // the next reads instead of the files where they are its capture targets.
    let mut last: Option<Stored> = None;
    let mut one_pass = OnePass::new(tables, kind);
    for (&tier, &todo) in steps.iter().zip(todo) {
        if !todo {
            observer.skipped(kind, tier);
            continue;
        }
        observer.started(kind, tier, step_slots(tables.rules(), tier));
        if by_rounds(tables.rules(), tier) {
            one_pass.close(observer)?;
            solve_rounds(tables, kind, tier, &mut last, observer)?;
        } else {
            // One-pass steps read the rounds steps' files.
            Stored::finish(&mut last)?;
            one_pass.step(tier, observer)?;
        }
    }
    Stored::finish(&mut last)?;
    one_pass.close(observer)
}

/// The value of the empty board for the player to place first in `dir`'s
/// tables of `kind` (`None` when the position holds none).
pub fn start_value(
    dir: &Path,
    rules: &RuleSet,
    kind: TableKind,
) -> Result<Option<Value>, JobError> {
    let tables = TablebaseDir::new(dir, rules);
    let start = tables.load(TableId::new(kind, Tier::start(rules)))?;
    Ok(start.first().and_then(|p| p.get()))
}
