//! One step of `verify`: one tier, its tables of every kind checked. A step
//! gathers each table's values and its successors' (the file checks in
//! `files.rs`), skips a table that passed an earlier run unchanged, hands the
//! rest to the recomputation of the tier's shape (`turns.rs` for a tier whose
//! positions slide, `leaving.rs` for one whose moves all leave it), and
//! journals and reports each table.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use tigadi_index::SubspaceIndex;
use tigadi_rules::RuleSet;
use tigadi_solve::Packed;
use tigadi_tablebase::{Table, TableId, TableKind, TablebaseError};
use tigadi_values::{successor_tiers, Tier};

use super::files::{Journal, JournalEntry, Tables};
use super::report::SubspaceReport;
use super::{leaving, turns, VerifyObserver};

/// The most bytes of decoded tables (two a slot) that the check of a tier
/// with gotis in hand holds to check several kinds in one sweep, which shares
/// their slides' generation and indexing: about two thirds of issue 53's
/// 12 GB, leaving the rest for the game table each kind's check also reads
/// and for the process. A tier whose tables of one kind need more is still
/// checked, one kind at a time.
const FUSED_BYTES: u64 = 8 << 30;

/// A step of a verify run: a tier and the kinds of its tables to check (game
/// first: the others' checks read it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Step {
    pub tier: Tier,
    pub kinds: Vec<TableKind>,
}

/// How a tier's tables are recomputed: which of `turns.rs` and `leaving.rs`
/// takes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    /// A tier whose positions slide: a moving tier (both hands empty), or
    /// any tier under Lasker's rule (slides while in hand). The solver takes
    /// them in rounds.
    Slides,
    /// A tier whose moves all leave it (a goti in hand and no slides while
    /// placing: every turn a placement).
    Leaving,
}

impl Shape {
    /// The shape of `tier` under `rules`.
    pub fn of(rules: &RuleSet, tier: Tier) -> Shape {
        if rules.slides_in_hand || tier.has_moves_inside(rules) {
            Shape::Slides
        } else {
            Shape::Leaving
        }
    }
}

/// What a verify run carries from step to step.
pub(super) struct Run<'a> {
    pub rules: RuleSet,
    pub tables: Tables<'a>,
    pub journal: Journal,
    pub observer: &'a dyn VerifyObserver,
    /// Every table's report so far, in order.
    pub reports: Vec<SubspaceReport>,
    /// For the horizon tables of tiers whose moves all leave them: the slots at
    /// which a table's values differ from its game values.
    pub changed: HashMap<TableId, Vec<u64>>,
}

/// One table's decoded values. Keyed by the tier: under Lasker's rule a tier
/// and its flipped partner may share their board counts (`3v3` with `1+2` and
/// with `2+1` in hand).
pub(super) struct Loaded {
    pub tier: Tier,
    pub values: Arc<Vec<Packed>>,
}

/// The decoded values one table's check reads: its own and those of its
/// successor tiers' tables of the same kind.
pub(super) struct TierValues {
    pub own: Loaded,
    /// In [`successor_tiers`] order.
    pub successors: Vec<Loaded>,
}

impl TierValues {
    /// Every table, its own first.
    pub fn tables(&self) -> impl Iterator<Item = &Loaded> {
        std::iter::once(&self.own).chain(&self.successors)
    }

    /// The values of the table of tier `tier` among them.
    pub fn of(&self, tier: Tier) -> &[Packed] {
        let t = self
            .tables()
            .find(|t| t.tier == tier)
            .expect("a check's tables are loaded");
        &t.values
    }
}

/// One table of a step, ready for its recomputation.
pub(super) struct KindCheck {
    pub id: TableId,
    pub values: TierValues,
    /// Where the first section disagrees with the stored values.
    pub first_bad: FirstBad,
    pub report: SubspaceReport,
    /// The SHA-256 of every file the check reads, for the journal.
    files: BTreeMap<String, String>,
    /// Whether every file the check reads has a SHA-256 in `files`.
    complete: bool,
}

/// The slots of a table where its first section disagrees with its stored
/// values, sorted: a list rather than a flag a slot, since a sound table has
/// none (a flag a slot of every kind of a tier was the peak of a check).
pub(super) struct FirstBad {
    slots: u64,
    bad: Vec<u64>,
}

impl FirstBad {
    /// From the disagreeing slots, in order, of a table of `slots` slots.
    fn new(slots: u64, bad: Vec<u64>) -> FirstBad {
        FirstBad { slots, bad }
    }

    /// Does the first section disagree at `slot`?
    pub fn get(&self, slot: u64) -> bool {
        !self.bad.is_empty() && self.bad.binary_search(&slot).is_ok()
    }

    /// The table's slot count.
    pub fn slots(&self) -> u64 {
        self.slots
    }
}

/// A table after its preparation: ready to recompute, or settled already
/// (passed an earlier run, or failed before any recomputation).
enum Prepared {
    Ready(KindCheck),
    Settled(SubspaceReport),
}

/// Checks every table of `step` and appends their reports to `run.reports`.
pub(super) fn check_step(run: &mut Run, step: &Step) {
    let tier = step.tier;
    let successors = successor_tiers(&run.rules, tier);
    let shape = Shape::of(&run.rules, tier);
    let slots = SubspaceIndex::new(tier.subspace).slots();
    run.observer.started(tier, slots * step.kinds.len() as u64);
    // A tier with gotis in hand (under Lasker's rule) checks as many kinds
    // in one sweep as fit in [`FUSED_BYTES`] of decoded tables (its
    // successors' tables, where placements lead to tiers larger than its
    // own, of every kind at once would need more memory than its solve for
    // the largest tiers), the rest one kind at a time. A moving tier, and a
    // tier whose moves all leave it, check every kind in one sweep.
    let groups: Vec<&[TableKind]> = match shape {
        Shape::Slides if !tier.is_moving() => {
            // Its successors' tables and its own, and its best placements'
            // keys (turns.rs), two bytes a slot each.
            let placed = (tier.hands.mover > 0) as u64;
            let per_kind = 2 * successors
                .iter()
                .map(|t| SubspaceIndex::new(t.subspace).slots())
                .sum::<u64>()
                + 2 * slots * (1 + placed);
            let at_once = (FUSED_BYTES / per_kind.max(1)).max(1) as usize;
            step.kinds.chunks(at_once).collect()
        }
        Shape::Slides | Shape::Leaving => vec![&step.kinds],
    };
    for kinds in groups {
        let mut keep: Vec<TableId> = vec![TableId::new(TableKind::GameTheoretic, tier)];
        for &kind in kinds {
            let tiers = std::iter::once(tier).chain(successors.iter().copied());
            keep.extend(tiers.map(|t| TableId::new(kind, t)));
        }
        run.tables.keep_only(&keep);
        let mut checks = Vec::new();
        for &kind in kinds {
            match prepare(run, TableId::new(kind, tier), &successors) {
                Prepared::Ready(c) => checks.push(c),
                Prepared::Settled(report) => {
                    if !report.earlier {
                        run.journal.record(name(run, report.id()), None);
                    }
                    run.observer.advance(slots);
                    finish(run, report);
                }
            }
        }
        match shape {
            Shape::Slides => turns::check(run, &mut checks),
            Shape::Leaving => leaving::check(run, &mut checks),
        }
        for c in checks {
            let passed = (c.report.is_ok() && c.complete).then_some(JournalEntry {
                files: c.files,
                positions: c.report.checked,
            });
            run.journal.record(name(run, c.id), passed);
            finish(run, c.report);
        }
    }
}

fn name(run: &Run, id: TableId) -> String {
    id.file_name(&run.rules)
}

/// Opens table `id` of a tier whose moves lead to `successors` and reads what
/// its check needs, or settles it: passed an earlier run with the same files,
/// or failed its file checks or a read.
fn prepare(run: &mut Run, id: TableId, successors: &[Tier]) -> Prepared {
    let mut report = SubspaceReport::new(id, run.tables.store().table_path(id));
    // The files the check reads: the table, its successors' of its kind, and
    // the table its first section is checked against.
    let mut reads = vec![id];
    reads.extend(successors.iter().map(|&t| TableId::new(id.kind, t)));
    reads.extend(id.kind.first_section_reads().map(|k| id.with_kind(k)));
    let files: BTreeMap<String, String> = reads
        .iter()
        .filter_map(|&r| run.tables.sha(r).map(|h| (name(run, r), h)))
        .collect();
    let complete = files.len() == reads.len();
    let table = match run.tables.own(id) {
        Ok(t) => t,
        Err(e) => {
            report.error = Some(e);
            return Prepared::Settled(report);
        }
    };
    if let Some(positions) = run.journal.passed_earlier(&name(run, id), &files, complete) {
        report.checked = positions;
        report.earlier = true;
        return Prepared::Settled(report);
    }
    match read(&mut run.tables, id, &table, successors) {
        Ok((values, first_bad)) => Prepared::Ready(KindCheck {
            id,
            values,
            first_bad,
            report,
            files,
            complete,
        }),
        Err(e) => {
            report.error = Some(e);
            Prepared::Settled(report)
        }
    }
}

/// The values table `id` (opened as `table`) and its successors' hold, and the
/// slots where its first section disagrees with them; the header's class
/// counts are checked against its values.
fn read(
    tables: &mut Tables,
    id: TableId,
    table: &Table,
    successors: &[Tier],
) -> Result<(TierValues, FirstBad), TablebaseError> {
    let own = tables.values(id)?;
    let mut next = Vec::new();
    for &t in successors {
        next.push(Loaded {
            tier: t,
            values: tables.values(TableId::new(id.kind, t))?,
        });
    }
    table.check_counts(&own)?;
    let base = match id.kind.first_section_reads() {
        Some(kind) => Some(tables.values(id.with_kind(kind))?),
        None => None,
    };
    let first_bad = FirstBad::new(
        own.len() as u64,
        id.kind
            .first_section_mismatches(table, &own, base.as_deref().map(|v| &v[..]))?,
    );
    let values = TierValues {
        own: Loaded {
            tier: id.tier,
            values: own,
        },
        successors: next,
    };
    Ok((values, first_bad))
}

/// Has table `id` passed (in this run or, unchanged, in an earlier one)?
pub(super) fn passed(run: &Run, id: TableId) -> bool {
    run.reports.iter().any(|r| r.id() == id && r.is_ok())
}

/// Hands a settled table's report on: names in it the tables its check read
/// that failed in this run ([`SubspaceReport::culprits`]), tells the observer,
/// and adds it to the run's reports.
fn finish(run: &mut Run, mut report: SubspaceReport) {
    if report.mismatches > 0 {
        let id = report.id();
        let mut read = vec![id.with_kind(TableKind::GameTheoretic)];
        for t in successor_tiers(&run.rules, id.tier) {
            read.push(TableId::new(id.kind, t));
            read.push(TableId::new(TableKind::GameTheoretic, t));
        }
        read.retain(|r| *r != id);
        read.dedup();
        let failed = |r: &TableId| {
            run.tables.failed(*r) || run.reports.iter().any(|p| p.id() == *r && !p.is_ok())
        };
        report.culprits = read
            .iter()
            .filter(|r| failed(r))
            .map(|r| name(run, *r))
            .collect();
    }
    run.observer.finished(&report);
    run.reports.push(report);
}
