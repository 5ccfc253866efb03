//! The one resumable solve: walks a list of steps, each a [`Tier`], in
//! dependency order (every step after the steps its moves lead into), once per
//! kind of table asked for (the game values, then the kinds derived from them:
//! each kind is a pass of this one job) over each block of steps in turn
//! ([`blocks`]: one, or under Lasker's rule one per step with gotis in hand,
//! whose game and 100-turn values are then found together where they fit in
//! memory), and writes each step's tables into a tablebase directory. A step
//! is solved by the shape of its tier:
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
use crate::rounds_step::{solve_both, solve_rounds, tiers_of_step, Stored};
use std::path::Path;
use tigadi_index::SubspaceIndex;
use tigadi_rules::RuleSet;
use tigadi_solve::{step_in_hand_bytes, Value};
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
/// count) within `options`; the files depend on neither. Holds the directory's
/// [`DirLock`](tigadi_tablebase::DirLock) throughout.
pub fn solve<O: JobObserver>(
    dir: &Path,
    rules: &RuleSet,
    steps: &[Tier],
    kinds: &[TableKind],
    options: &JobOptions,
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
    let plan = plan_in(&tables, steps, kinds);
    let todo = plan.todo;
    observer.planned(
        plan.kinds.iter().map(|k| k.to_solve).sum(),
        plan.kinds.iter().map(|k| k.slots_to_solve).sum(),
    );
    observer.room(plan.bytes_to_write, plan.free_bytes);
    // A step with gotis in hand whose game values and 100-turn values are
    // both to be found, and fit in memory together, finds them in one pass
    // (the game pass, which comes first: the 100-turn pass passes it by).
    let both = both_kinds(rules, kinds, steps, &todo, options.both_kinds_bytes);
    for block in blocks(rules, steps) {
        for (k, &kind) in kinds.iter().enumerate() {
            let pass = Pass {
                kind,
                steps: &steps[block.clone()],
                todo: &todo[k][block.clone()],
                both: &both[block.clone()],
            };
            run_pass(&tables, pass, observer)?;
        }
    }
    // Every table this run wrote is listed already: this adds only what an
    // interrupted run wrote and did not list.
    let manifest = tables.update_manifest(&[], &[])?;
    for s in &manifest.skipped {
        observer.warning(&format!("left out of the manifest: {s}"));
    }
    Ok(())
}

/// What a [`solve`] of some steps and kinds into a directory has left to do:
/// [`plan`].
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Per kind asked for, in order.
    pub kinds: Vec<KindPlan>,
    /// About how many bytes of tables the steps still to solve will write, all
    /// kinds together: their slots at the bytes a slot of the tables of each
    /// kind written so far among the steps; for a kind with none yet, at the
    /// game values' (a little more for the DTW), or at a guess a little above
    /// the whole games' where no table is written yet.
    pub bytes_to_write: u64,
    /// Bytes free on the disk of the rule set's directory (or where it will be
    /// made; `None` where the system does not say).
    pub free_bytes: Option<u64>,
    /// Per kind, per step: are its tables still to solve?
    todo: Vec<Vec<bool>>,
}

/// One kind's part of a [`Plan`].
#[derive(Clone, Debug, PartialEq)]
pub struct KindPlan {
    /// The kind of table.
    pub kind: TableKind,
    /// Steps in all.
    pub steps: usize,
    /// Steps whose tables of this kind are not all present and valid.
    pub to_solve: usize,
    /// Their slots.
    pub slots_to_solve: u64,
    /// About how many bytes their tables will take ([`Plan::bytes_to_write`]).
    pub bytes_to_write: u64,
}

/// What [`solve`] with `steps` and `kinds` would do in `dir` now: per kind,
/// the steps whose tables are present and valid (every checksum checked, as
/// the job checks them) and those still to solve, with their slots and about
/// the bytes of tables they will write, against the disk's free bytes. Reads
/// only; takes no lock, so it may run beside a job (whose step in progress
/// then counts as still to solve).
pub fn plan(dir: &Path, rules: &RuleSet, steps: &[Tier], kinds: &[TableKind]) -> Plan {
    plan_in(&TablebaseDir::new(dir, rules), steps, kinds)
}

/// Bytes a slot assumed for game values where none are in the directory yet:
/// a little above what the whole games' tables take (Tigadi 0.21, Lasker's
/// 0.25 with gotis in hand and 0.29 without), so that a fresh run of a large
/// game is not told it fits where it does not (small games' tables take from
/// 0.1 to 0.4).
const FIRST_BYTES_PER_SLOT: f64 = 0.35;

/// About the bytes a slot of a table of `kind` (derived from the game values)
/// against the game values' of the same tiers, for a kind none of whose tables
/// are written yet: a little above what the solved games show (the 100-turn
/// tables 0.76–0.83, the DTW tables 1.04–1.26).
fn against_game_values(kind: TableKind) -> f64 {
    match kind {
        TableKind::GameTheoretic | TableKind::Horizon => 1.0,
        TableKind::Dtw => 1.5,
    }
}

/// [`plan`] in `tables`.
fn plan_in(tables: &TablebaseDir, steps: &[Tier], kinds: &[TableKind]) -> Plan {
    let rules = tables.rules();
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
    // The bytes a slot of the tables of `kind` among `steps` (`None` if none).
    let written = |kind| {
        let (mut bytes, mut slots) = (0u64, 0u64);
        for &tier in steps {
            for id in step_tables(rules, kind, tier) {
                if let Ok(meta) = std::fs::metadata(tables.table_path(id)) {
                    bytes += meta.len();
                    slots += SubspaceIndex::new(id.tier.subspace).slots();
                }
            }
        }
        (slots > 0).then(|| bytes as f64 / slots as f64)
    };
    let game = written(TableKind::GameTheoretic).unwrap_or(FIRST_BYTES_PER_SLOT);
    let kinds: Vec<KindPlan> = kinds
        .iter()
        .zip(&todo)
        .map(|(&kind, todo)| {
            let planned: Vec<Tier> = steps
                .iter()
                .zip(todo)
                .filter(|(_, &todo)| todo)
                .map(|(&tier, _)| tier)
                .collect();
            let slots_to_solve = planned.iter().map(|&t| step_slots(rules, t)).sum();
            let bytes_to_write = match (slots_to_solve, kind) {
                (0, _) => 0,
                (n, TableKind::GameTheoretic) => (n as f64 * game) as u64,
                (n, _) => {
                    let rate = written(kind).unwrap_or(game * against_game_values(kind));
                    (n as f64 * rate) as u64
                }
            };
            KindPlan {
                kind,
                steps: steps.len(),
                to_solve: planned.len(),
                slots_to_solve,
                bytes_to_write,
            }
        })
        .collect();
    Plan {
        bytes_to_write: kinds.iter().map(|k| k.bytes_to_write).sum(),
        kinds,
        free_bytes: tables.free_bytes(),
        todo,
    }
}

/// How a [`solve`] may spend memory. The files do not depend on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JobOptions {
    /// The most bytes a step with gotis in hand under Lasker's rule may hold
    /// ([`step_in_hand_bytes`]) to find its game values and its 100-turn values
    /// in one pass (about a third less work than two); a larger step finds them
    /// one kind after the other, in half the memory (6 bytes a slot, not 12).
    pub both_kinds_bytes: u64,
}

impl Default for JobOptions {
    /// Both kinds together in up to 10 GB.
    fn default() -> JobOptions {
        JobOptions {
            both_kinds_bytes: 10_000_000_000,
        }
    }
}

/// Which of `steps` find their game values and their 100-turn values in one
/// pass ([`solve_both`]): the steps with gotis in hand under Lasker's rule
/// whose tables of both kinds are to be solved (`todo`, per kind of `kinds`,
/// the game values' pass first), where the two fit in `limit` bytes.
fn both_kinds(
    rules: &RuleSet,
    kinds: &[TableKind],
    steps: &[Tier],
    todo: &[Vec<bool>],
    limit: u64,
) -> Vec<bool> {
    let of = |kind| kinds.iter().position(|&k| k == kind);
    match (of(TableKind::GameTheoretic), of(TableKind::Horizon)) {
        (Some(game), Some(rule)) if rules.slides_in_hand && game < rule => steps
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                todo[game][i]
                    && todo[rule][i]
                    && !t.is_moving()
                    && step_in_hand_bytes(rules, &tiers_of_step(rules, t), 2) <= limit
            })
            .collect(),
        _ => vec![false; steps.len()],
    }
}

/// `steps` in blocks, in order: [`solve`] runs every kind's pass over a block
/// before the next block. Under Lasker's rule each step with gotis in hand is
/// a block of its own, so that every kind of its exits' tables is solved
/// before it (a step can then find its kinds together); the hands-empty steps
/// between them make one block. Otherwise all steps are one block: each kind
/// in one pass, whose one-pass steps' writing overlaps the next step's solve.
fn blocks(rules: &RuleSet, steps: &[Tier]) -> Vec<std::ops::Range<usize>> {
    let alone = |t: &Tier| rules.slides_in_hand && !t.is_moving();
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, t) in steps.iter().enumerate() {
        match out.last_mut() {
            Some(last) if !alone(t) && !alone(&steps[i - 1]) => last.end = i + 1,
            _ => out.push(i..i + 1),
        }
    }
    out
}

/// One pass of [`solve`] over a block of steps.
struct Pass<'a> {
    /// The kind of tables it solves.
    kind: TableKind,
    steps: &'a [Tier],
    /// Which steps' tables of `kind` are to be solved.
    todo: &'a [bool],
    /// Which steps find their game and 100-turn values in one pass (the game
    /// pass, before the 100-turn pass, which passes them by).
    both: &'a [bool],
}

/// One pass of [`solve`]: the tables of `pass.kind` of the steps marked in
/// its `todo`.
fn run_pass<O: JobObserver>(
    tables: &TablebaseDir,
    pass: Pass<'_>,
    observer: &O,
) -> Result<(), JobError> {
    let kind = pass.kind;
    observer.pass_started(kind);
    // The rounds step solved last: its tables being stored and listed on a
    // thread of their own while the next step is solved, and its values, which
    // the next reads instead of the files where they are its capture targets.
    let mut last: Option<Stored> = None;
    let mut one_pass = OnePass::new(tables, kind);
    for (i, &tier) in pass.steps.iter().enumerate() {
        if pass.both[i] && kind == TableKind::Horizon {
            // Found and written with the game values.
            continue;
        }
        if !pass.todo[i] {
            observer.skipped(kind, tier);
            continue;
        }
        if observer.stop_requested() {
            Stored::finish(&mut last)?;
            one_pass.close(observer)?;
            return Err(JobError::Stopped(tier));
        }
        observer.started(kind, tier, step_slots(tables.rules(), tier));
        if pass.both[i] && kind == TableKind::GameTheoretic {
            one_pass.close(observer)?;
            solve_both(tables, tier, &mut last, observer)?;
        } else if by_rounds(tables.rules(), tier) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Under Lasker's rule the hands-empty steps make one block and every step
    /// with gotis in hand one of its own; otherwise all steps are one block.
    /// Either way the blocks cover the steps in order.
    #[test]
    fn blocks_cover_the_steps_and_isolate_lasker_steps_in_hand() {
        for spec in ["lasker,pieces=4", "tigadi,pieces=4", "morabaraba,pieces=4"] {
            let rules = RuleSet::parse(spec).unwrap();
            let steps = steps(&rules, Scope::Whole);
            let blocks = blocks(&rules, &steps);
            let joined: Vec<usize> = blocks.iter().flat_map(|b| b.clone()).collect();
            assert_eq!(joined, (0..steps.len()).collect::<Vec<_>>(), "{spec}");
            let in_hand = steps.iter().filter(|t| !t.is_moving()).count();
            if rules.slides_in_hand {
                assert_eq!(blocks.len(), 1 + in_hand, "{spec}");
                assert!(blocks[0].clone().all(|i| steps[i].is_moving()), "{spec}");
                assert!(blocks[1..].iter().all(|b| b.len() == 1), "{spec}");
            } else {
                assert_eq!(blocks, vec![0..steps.len()], "{spec}");
            }
        }
    }
}
