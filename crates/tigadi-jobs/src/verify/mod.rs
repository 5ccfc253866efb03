//! The consistency scan: check every checksum of every table of a rule set, then
//! recompute every stored value from its successors' stored values and report
//! the positions where they differ.
//!
//! A run is a list of steps in dependency order, the tiers ([`Tier`]) in the
//! order of [`tier_steps`] (the job's one order; a tier and its flipped
//! partner next to each other). A step checks one tier's tables: of every kind
//! at once for a tier the solver takes in rounds, one kind for a tier whose
//! moves all leave it (its other kinds in a later walk; see [`plan`]):
//!
//! - `files.rs`: the file checks, written once for every table (checksums,
//!   slot count, SHA-256 against `SHA256SUMS`), the decoded values a step
//!   reads, and the journal of passed tables ([`JOURNAL`]);
//! - `step.rs`: one step: what each table reads, the journal, the reports;
//! - `turns.rs`: the recomputation of a tier whose positions slide (a moving
//!   tier, or any tier under Lasker's rule), its kinds together, placements
//!   by the solver's grouped pass and slides a run at a time; `leaving.rs`: of
//!   a tier whose moves all leave it, by the solver's pass; `passes.rs`: every call into the solver's passes and the
//!   placing job, one thin function each;
//! - `sweep.rs`: the parallel sweep and tally both share; `report.rs`: what a
//!   run reports.
//!
//! A table kind enters only through the methods of [`TableKind`]: its metric,
//! how its value is finished ([`TableKind::recomputed`]), what its first
//! section is checked against ([`TableKind::first_section_mismatches`]).

mod files;
mod leaving;
mod passes;
mod report;
mod step;
mod sweep;
mod turns;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use tigadi_index::SubspaceIndex;
use tigadi_rules::RuleSet;
use tigadi_tablebase::{TableId, TableKind, TablebaseDir, TablebaseError};
use tigadi_values::{tier_steps, Tier};

pub use files::JOURNAL;
pub use report::{Mismatch, SubspaceReport, SumsReport, VerifyReport, MAX_EXAMPLES};

use files::{sums_report, Journal, Tables};
use step::{check_step, Run, Shape, Step};

/// Verifies every table of rule set `rules` in tablebase directory `dir`, tier
/// by tier in dependency order (see the module doc): the head, block and
/// whole-file checksums of every file, agreement of the first section with the
/// second, the header's class counts, and `evaluate(board) == stored(board)`
/// for every position (every non-padding slot), in every kind of table: DTC
/// from the successors' DTC, DTC₁₀₀ from their DTC₁₀₀
/// ([`evaluate_horizon`](tigadi_solve::evaluate_horizon)) with every category
/// against the DTC₁₀₀ and the game-theoretic value, DTW from their DTW. The
/// tiers come in the order of [`tier_steps`]; a tier with moves inside it has
/// its tables of every kind checked in one step, a tier whose moves all leave
/// it one kind at a time (game-theoretic first), one report each. `progress(done, total)` is called from worker threads as
/// slots are recomputed (`total` is the slot count of all tables).
///
/// Returns `Err` only when there is nothing to verify (no directory, no files);
/// damaged files and wrong values are reported in the [`VerifyReport`].
pub fn verify(
    dir: &Path,
    rules: &RuleSet,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<VerifyReport, TablebaseError> {
    struct Progress<'a> {
        done: AtomicU64,
        total: AtomicU64,
        progress: &'a (dyn Fn(u64, u64) + Sync),
    }
    impl VerifyObserver for Progress<'_> {
        fn planned(&self, _tables: usize, slots: u64) {
            self.total.store(slots, Ordering::Relaxed);
        }
        fn advance(&self, slots: u64) {
            let d = self.done.fetch_add(slots, Ordering::Relaxed) + slots;
            (self.progress)(d, self.total.load(Ordering::Relaxed));
        }
    }
    let observer = Progress {
        done: AtomicU64::new(0),
        total: AtomicU64::new(0),
        progress,
    };
    verify_with(dir, rules, false, &observer)
}

/// What [`verify_with`] reports as it goes; every method has a no-op default.
pub trait VerifyObserver: Sync {
    /// Before the first table: the tables to verify and their slots in all.
    fn planned(&self, _tables: usize, _slots: u64) {}
    /// A step's check begins: its tier, and its slots times its tables.
    fn started(&self, _tier: Tier, _slots: u64) {}
    /// `slots` more slots are checked (called from worker threads).
    fn advance(&self, _slots: u64) {}
    /// A table's check is over.
    fn finished(&self, _report: &SubspaceReport) {}
    /// Asked before each step: `true` stops the run there
    /// ([`VerifyReport::stopped_before`]); the tables checked so far keep
    /// their reports (and, when resuming, their record in the journal).
    fn stop_requested(&self) -> bool {
        false
    }
}

/// Like [`verify`], reporting to `observer`, and checking `SHA256SUMS` when
/// present. With `resume`, tables that passed an earlier run (recorded in
/// [`JOURNAL`] beside the tables, written atomically after each table that passes)
/// are not recomputed while every file their check read has the same SHA-256;
/// their checksums and SHA-256 are still checked. Without it the journal is
/// neither read nor written.
pub fn verify_with(
    dir: &Path,
    rules: &RuleSet,
    resume: bool,
    observer: &dyn VerifyObserver,
) -> Result<VerifyReport, TablebaseError> {
    verify_kinds(dir, rules, resume, &TableKind::ALL, observer)
}

/// Like [`verify_with`], for the tables of the kinds in `kinds` only (every
/// tier): `SHA256SUMS` is checked for their files, and the others are neither
/// checked nor recomputed (a horizon or DTW table's check still reads its
/// game-theoretic table, whose file checks then run as it is read). An empty
/// `kinds` is an error.
pub fn verify_kinds(
    dir: &Path,
    rules: &RuleSet,
    resume: bool,
    kinds: &[TableKind],
    observer: &dyn VerifyObserver,
) -> Result<VerifyReport, TablebaseError> {
    verify_tables(dir, rules, resume, kinds, &[], observer)
}

/// Like [`verify_kinds`], for the tables named in `only` alone when it is not
/// empty (each of a kind in `kinds`): their checks read their successors'
/// tables as a whole run's would, and `SHA256SUMS` is checked for them only.
/// A table of `only` that is not in the directory is an error.
pub fn verify_tables(
    dir: &Path,
    rules: &RuleSet,
    resume: bool,
    kinds: &[TableKind],
    only: &[TableId],
    observer: &dyn VerifyObserver,
) -> Result<VerifyReport, TablebaseError> {
    let store = TablebaseDir::new(dir, rules);
    let error = |kind, what: &str| {
        Err(TablebaseError::io(
            store.path(),
            std::io::Error::new(kind, what.to_string()),
        ))
    };
    if kinds.is_empty() {
        return error(
            std::io::ErrorKind::InvalidInput,
            "no kind of table to verify",
        );
    }
    let all = store.list()?;
    if all.is_empty() {
        return error(std::io::ErrorKind::NotFound, "no tablebase files here");
    }
    if let Some(id) = only.iter().find(|id| !all.contains(id)) {
        return error(
            std::io::ErrorKind::NotFound,
            &format!("there is no table {} here", id.file_name(rules)),
        );
    }
    let selected =
        |id: &TableId| kinds.contains(&id.kind) && (only.is_empty() || only.contains(id));
    let chosen: Vec<TableId> = all.iter().copied().filter(selected).collect();
    let steps = plan(rules, &chosen, kinds);
    let listed = store.read_sums();
    let parse = |name: &str| TableId::parse(name, rules);
    let sums = sums_report(
        &listed,
        |name| match parse(name) {
            Some(id) => selected(&id),
            None => only.is_empty(),
        },
        |name| {
            parse(name).is_some_and(|id| {
                steps
                    .iter()
                    .any(|s| s.tier == id.tier && s.kinds.contains(&id.kind))
            })
        },
    );
    let tables: usize = steps.iter().map(|s| s.kinds.len()).sum();
    let slots: u64 = steps
        .iter()
        .map(|s| SubspaceIndex::new(s.tier.subspace).slots() * s.kinds.len() as u64)
        .sum();
    observer.planned(tables, slots);
    let mut run = Run {
        rules: *rules,
        tables: Tables::new(&store, listed.unwrap_or_default()),
        journal: Journal::open(&store, resume),
        observer,
        reports: Vec::new(),
        changed: Default::default(),
    };
    let mut stopped_before = None;
    for step in &steps {
        if observer.stop_requested() {
            stopped_before = Some(step.tier);
            break;
        }
        check_step(&mut run, step);
    }
    Ok(VerifyReport {
        rules: *rules,
        subspaces: run.reports,
        sums,
        stopped_before,
    })
}

/// The steps of a run over the tables `all` of the kinds in `kinds`, in
/// dependency order (each tier's successor tiers before it, but for a tier's
/// flipped partner in its step, which is checked beside it): the tiers in the
/// order of [`tier_steps`], the job's one order. A tier that the solver takes
/// in rounds (moves inside it, or gotis in hand under Lasker's rule) is one
/// step with its tables of every kind, recomputed in one sweep; a tier whose
/// moves all leave it is checked one kind at a time, its game-theoretic table
/// in the walk and its other kinds in a walk of their own per kind after it, so
/// that only one kind's successor tables are held at once (and consecutive
/// steps share their decoded successors). Tiers the rules do not reach from the
/// start come last, in their own order.
fn plan(rules: &RuleSet, all: &[TableId], kinds: &[TableKind]) -> Vec<Step> {
    let mut tiers: BTreeMap<Tier, Vec<TableKind>> = BTreeMap::new();
    for id in all.iter().filter(|id| kinds.contains(&id.kind)) {
        tiers.entry(id.tier).or_default().push(id.kind);
    }
    let walk: Vec<Tier> = tier_steps(rules).into_iter().flatten().collect();
    let rank: HashMap<Tier, usize> = walk.iter().enumerate().map(|(i, &t)| (t, i)).collect();
    let mut order: Vec<(Tier, Vec<TableKind>)> = tiers
        .into_iter()
        .map(|(tier, mut kinds)| {
            kinds.sort();
            kinds.dedup();
            (tier, kinds)
        })
        .collect();
    order.sort_by_key(|(tier, _)| (rank.get(tier).copied().unwrap_or(usize::MAX), *tier));
    let mut steps = Vec::new();
    let mut later: BTreeMap<TableKind, Vec<Step>> = BTreeMap::new();
    for (tier, kinds) in order {
        if Shape::of(rules, tier) != Shape::Leaving {
            steps.push(Step { tier, kinds });
            continue;
        }
        for kind in kinds {
            let step = Step {
                tier,
                kinds: vec![kind],
            };
            if kind == TableKind::GameTheoretic {
                steps.push(step);
            } else {
                later.entry(kind).or_default().push(step);
            }
        }
    }
    steps.extend(later.into_values().flatten());
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use tigadi_values::{reached_tiers, successor_tiers};

    /// Every table of every reached tier is in exactly one step; a tier whose
    /// moves all leave it has one kind a step; and every table a step's check
    /// reads (its successors' tables of its kind, its own game table) is
    /// checked in an earlier step, but for a flipped partner reached both ways.
    #[test]
    fn plan_is_in_dependency_order() {
        for name in ["tigadi,pieces=5", "lasker,pieces=3", "morabaraba,pieces=4"] {
            let rules = RuleSet::parse(name).unwrap();
            let all: Vec<TableId> = reached_tiers(&rules)
                .into_iter()
                .flat_map(|t| TableKind::ALL.map(|k| TableId::new(k, t)))
                .collect();
            let steps = plan(&rules, &all, &TableKind::ALL);
            let mut at: HashMap<TableId, usize> = HashMap::new();
            for (i, s) in steps.iter().enumerate() {
                if Shape::of(&rules, s.tier) == Shape::Leaving {
                    assert_eq!(s.kinds.len(), 1, "{name}: {s:?}");
                }
                for &k in &s.kinds {
                    assert!(at.insert(TableId::new(k, s.tier), i).is_none(), "{name}");
                }
            }
            assert_eq!(at.len(), all.len(), "{name}");
            for (i, s) in steps.iter().enumerate() {
                let partner =
                    |t: Tier| t == s.tier.flipped() && successor_tiers(&rules, t).contains(&s.tier);
                for &k in &s.kinds {
                    let mut reads: Vec<TableId> = successor_tiers(&rules, s.tier)
                        .into_iter()
                        .filter(|&t| t != s.tier && !partner(t))
                        .map(|t| TableId::new(k, t))
                        .collect();
                    if k != TableKind::GameTheoretic {
                        reads.push(TableId::new(TableKind::GameTheoretic, s.tier));
                    }
                    for r in reads {
                        assert!(at[&r] <= i, "{name}: {r:?} after {s:?}");
                    }
                }
            }
        }
    }
}
