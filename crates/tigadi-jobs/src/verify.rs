//! The consistency scan: check every checksum of every table of a rule set, then
//! recompute every stored value from its successors' stored values and report
//! the positions where they differ.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::{Board, RuleSet};
use tigadi_solve::horizon_shortcut::follows_from_game;
use tigadi_solve::memory::prefetch;
use tigadi_solve::placing::{
    evaluate_placing_with, solve_layer_subspace_changed, solve_layer_subspace_with,
    subspace_successors, SuccessorKeys,
};
use tigadi_solve::retrograde::SlotSet;
use tigadi_solve::runs::{run_tasks, RunMoves};
use tigadi_solve::SolvedTable;
use tigadi_solve::{evaluate_with, value_at_counter, Category, Metric, Packed, Value};
use tigadi_tablebase::manifest::{sha256_file, SHA256SUMS};
use tigadi_tablebase::reader::table::is_missing;
use tigadi_tablebase::writer::write_atomically;
use tigadi_tablebase::{
    field, mark_padding, Table, TableId, TableKind, TablebaseDir, TablebaseError,
};

use crate::changed_lists::changed_slots;
use tigadi_values::{successor_tiers, Hands, Tier};

/// How many mismatching positions a report lists per subspace (all are counted).
pub const MAX_EXAMPLES: usize = 20;
/// Slots per unit of parallel work (and per progress report).
const CHUNK: u64 = 1 << 14;

/// A position whose stored value differs from the value recomputed from its
/// successors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The slot in its subspace's table.
    pub slot: u64,
    /// The canonical board of the slot.
    pub board: Board,
    /// The value in the DTC section (the DTC₁₀₀ section of a horizon table).
    pub stored: Value,
    /// The value recomputed from the stored values of its successors.
    pub recomputed: Value,
    /// `false`: `stored != recomputed`; `true`: the WDL section disagrees with
    /// `stored` (the DTC section) here, or in a horizon table the category section
    /// disagrees with the DTC₁₀₀ and game-theoretic values.
    pub wdl_section: bool,
}

/// The outcome of verifying one subspace's table.
#[derive(Debug)]
pub struct SubspaceReport {
    /// The subspace.
    pub subspace: Subspace,
    /// Which of its tables: game-theoretic values or values under the 100-turn rule.
    pub kind: TableKind,
    /// `None` for a moving-phase table, `Some(placed)` for a table of placing layer
    /// `placed`.
    pub placing: Option<u8>,
    /// Its file.
    pub path: PathBuf,
    /// Positions (canonical classes) recomputed.
    pub checked: u64,
    /// Positions whose value did not match (both sections counted).
    pub mismatches: u64,
    /// The first mismatches found (at most [`MAX_EXAMPLES`]; which ones depends on
    /// thread scheduling).
    pub examples: Vec<Mismatch>,
    /// A checksum or structure failure of this file, or a successor table that is
    /// missing or damaged; when set, values were not (all) recomputed.
    pub error: Option<TablebaseError>,
    /// The file names of tables its check reads (its successors' tables, and
    /// the game-theoretic tables) that failed before it in this run: a mismatch
    /// here may be theirs, not this table's.
    pub culprits: Vec<String>,
    /// Passed in an earlier run, and no file its check reads has changed since:
    /// not recomputed this time (`checked` is that run's count).
    pub earlier: bool,
    /// A horizon table settled by its game-theoretic table, which passed: a
    /// placing table compared with it wherever its successors' horizon and game
    /// values agree and recomputed from its successors elsewhere (see
    /// `check_placing`); a moving-phase table equal to its game values capped
    /// at the limit, as are its successors' tables, its categories compared
    /// (see `horizon_follows_from_game`).
    pub from_game: bool,
}

impl SubspaceReport {
    /// The table reported on, under `rules`.
    pub fn id(&self, rules: &RuleSet) -> TableId {
        let tier = match self.placing {
            None => Tier::moving(self.subspace),
            Some(k) => Tier::after_placements(rules, k as u32, self.subspace),
        };
        TableId::new(self.kind, tier)
    }

    /// Did this table pass every check?
    pub fn is_ok(&self) -> bool {
        self.error.is_none() && self.mismatches == 0
    }
}

/// The outcome of [`verify`]: one report per table file, in verification order.
#[derive(Debug)]
pub struct VerifyReport {
    /// The rule set verified.
    pub rules: RuleSet,
    /// One entry per table file found.
    pub subspaces: Vec<SubspaceReport>,
    /// The check of `SHA256SUMS`, when the directory has one (a table whose
    /// SHA-256 differs from its line fails in its own report).
    pub sums: Option<SumsReport>,
}

/// What the check of `SHA256SUMS` found beyond the tables' own reports.
#[derive(Debug)]
pub struct SumsReport {
    /// Files listed.
    pub listed: usize,
    /// Lines that name no table here, or why the file could not be read.
    pub problems: Vec<String>,
}

impl VerifyReport {
    /// Did every table pass every check?
    pub fn is_ok(&self) -> bool {
        self.subspaces.iter().all(SubspaceReport::is_ok)
            && self.sums.as_ref().is_none_or(|s| s.problems.is_empty())
    }

    /// Positions recomputed, over all tables.
    pub fn checked(&self) -> u64 {
        self.subspaces.iter().map(|s| s.checked).sum()
    }

    /// Mismatching positions, over all tables.
    pub fn mismatches(&self) -> u64 {
        self.subspaces.iter().map(|s| s.mismatches).sum()
    }
}

/// Verifies every table of rule set `rules` in tablebase directory `dir`, moving
/// phase first, then the placing layers from the last to the first:
/// the head, block and whole-file checksums of every file, agreement of the WDL
/// and DTC sections, and `evaluate(board) == stored(board)` for every position
/// (every non-padding slot). Horizon tables (values under the 100-turn rule), where
/// present, are checked the same way: DTC₁₀₀ recomputed from the successors'
/// DTC₁₀₀ ([`evaluate_horizon`](tigadi_solve::evaluate_horizon)), and every category against the DTC₁₀₀ and the
/// game-theoretic value; so are DTW tables. A subspace's moving-phase tables of
/// every kind are recomputed in one sweep (each position's successors generated
/// once), their reports one after the other, game-theoretic first. `progress(done, total)` is called from worker threads
/// as slots are recomputed (`total` is the slot count of all tables).
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
    /// A table's check begins.
    fn started(&self, _subspace: Subspace, _slots: u64) {}
    /// `slots` more slots are checked (called from worker threads).
    fn advance(&self, _slots: u64) {}
    /// A table's check is over.
    fn finished(&self, _report: &SubspaceReport) {}
}

/// Hands a finished table's report on: names in it the tables its check read
/// that failed earlier in the run ([`SubspaceReport::culprits`]), tells
/// `observer`, and adds it to `reports`.
fn finish(
    rules: &RuleSet,
    mut report: SubspaceReport,
    reports: &mut Vec<SubspaceReport>,
    observer: &dyn VerifyObserver,
) {
    if report.mismatches > 0 {
        let id = report.id(rules);
        let mut read = vec![id.with_kind(TableKind::GameTheoretic)];
        for t in successor_tiers(rules, id.tier) {
            read.push(TableId::new(id.kind, t));
            read.push(TableId::new(TableKind::GameTheoretic, t));
        }
        read.retain(|r| *r != id);
        report.culprits = reports
            .iter()
            .filter(|r| !r.is_ok())
            .map(|r| r.id(rules))
            .filter(|r| read.contains(r))
            .map(|r| r.file_name(rules))
            .collect();
    }
    observer.finished(&report);
    reports.push(report);
}

/// File name of the journal of passed tables inside a rule set's directory.
pub const JOURNAL: &str = "verified.json";

/// `verified.json`: the tables that passed, each with the SHA-256 of every file
/// its check read (itself, its flipped twin, its capture target). A table is not
/// recomputed again while all of those files are unchanged.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Journal {
    /// Passed tables by file name.
    passed: BTreeMap<String, JournalEntry>,
}

#[derive(Debug, Serialize, Deserialize)]
struct JournalEntry {
    /// SHA-256 of every file the check read, by file name.
    files: BTreeMap<String, String>,
    /// Positions recomputed.
    positions: u64,
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

/// Like [`verify_with`], for the tables of the kinds in `kinds` only (both
/// phases): `SHA256SUMS` is checked for their files, and the others are neither
/// checked nor recomputed (a horizon or DTW table's check still reads its
/// game-theoretic table, whose checksums are then checked as it is read). An
/// empty `kinds` is an error.
pub fn verify_kinds(
    dir: &Path,
    rules: &RuleSet,
    resume: bool,
    kinds: &[TableKind],
    observer: &dyn VerifyObserver,
) -> Result<VerifyReport, TablebaseError> {
    let store = TablebaseDir::new(dir, rules);
    if kinds.is_empty() {
        let e = std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "no kind of table to verify",
        );
        return Err(TablebaseError::io(store.path(), e));
    }
    let selected = |k: &TableKind| kinds.contains(k);
    let all = store.list()?;
    let mut subs: Vec<Subspace> = all
        .iter()
        .filter(|id| id.kind == TableKind::GameTheoretic && id.tier.is_moving())
        .map(|id| id.tier.subspace)
        .collect();
    let mut placing: Vec<TableId> = all
        .into_iter()
        .filter(|id| !id.tier.is_moving() && selected(&id.kind))
        .collect();
    // Game-theoretic tables first (horizon tables read them for the classes), each
    // kind's layers last first: each needs only the one after it.
    placing.sort_by_key(|id| {
        let placed = std::cmp::Reverse(id.tier.placements(rules));
        (id.kind, placed, id.tier.subspace)
    });
    if subs.is_empty() && placing.is_empty() {
        let e = std::io::Error::new(std::io::ErrorKind::NotFound, "no tablebase files here");
        return Err(TablebaseError::io(store.path(), e));
    }
    // A table and its flipped twin next to each other; smaller totals first.
    subs.sort_by_key(|s| (s.mover + s.opponent, s.mover.min(s.opponent), s.mover));
    let listed = store.read_sums();

    // Check every file's checksums first; only good files are used as successors.
    // Game-theoretic tables first, then the moving-phase tables of the other kinds
    // that are present.
    let mut sha: HashMap<TableId, String> = HashMap::new();
    let mut opened = Vec::new();
    let mut total = 0u64;
    // The game-theoretic tables are opened (and their SHA-256 taken) even when not
    // verified: the other kinds' checks read them, and the journal records them.
    for kind in TableKind::ALL
        .into_iter()
        .filter(|k| selected(k) || *k == TableKind::GameTheoretic)
    {
        let present: Vec<Subspace> = subs
            .iter()
            .copied()
            .filter(|&s| {
                kind == TableKind::GameTheoretic
                    || !is_missing(&store.table_path(TableId::moving(kind, s)))
            })
            .collect();
        let tables = open_checked(&store, kind, &present, &listed, &mut sha);
        if selected(&kind) {
            total += tables
                .values()
                .flatten()
                .map(|t| t.header().slots)
                .sum::<u64>();
        }
        opened.push((kind, present, tables));
    }
    let sums = match &listed {
        Ok(listed) => {
            let mut problems = Vec::new();
            let mut count = 0;
            for name in listed.keys() {
                let id = TableId::parse(name, rules);
                if id.is_some_and(|id| !selected(&id.kind)) {
                    continue;
                }
                count += 1;
                let here = id.is_some_and(|id| {
                    if id.tier.is_moving() {
                        opened.iter().any(|(k, present, _)| {
                            *k == id.kind && present.contains(&id.tier.subspace)
                        })
                    } else {
                        placing.contains(&id)
                    }
                });
                if !here {
                    problems.push(format!("{name} is listed but not here"));
                }
            }
            Some(SumsReport {
                listed: count,
                problems,
            })
        }
        Err(None) => None,
        Err(Some(problem)) => Some(SumsReport {
            listed: 0,
            problems: vec![problem.clone()],
        }),
    };
    // The placing tables are checked against the same list, read once (a missing
    // or unreadable one was reported above).
    let listed = listed.unwrap_or_default();
    let placing_slots: u64 = placing
        .iter()
        .map(|id| SubspaceIndex::new(id.tier.subspace).slots())
        .sum();
    let tables: usize = opened
        .iter()
        .filter(|(k, _, _)| selected(k))
        .map(|(_, present, _)| present.len())
        .sum::<usize>()
        + placing.len();
    observer.planned(tables, total + placing_slots);

    let mut journal = Journaled {
        path: store.path().join(JOURNAL),
        resume,
        journal: if resume {
            std::fs::read(store.path().join(JOURNAL))
                .ok()
                .and_then(|b| serde_json::from_slice::<Journal>(&b).ok())
                .unwrap_or_default()
        } else {
            Journal::default()
        },
    };
    let mut reports = Vec::new();
    let opened = opened.into_iter().filter(|(k, _, _)| selected(k)).collect();
    verify_moving(
        &store,
        &subs,
        opened,
        &sha,
        &mut journal,
        observer,
        &mut reports,
    );
    verify_placing(
        &store,
        &placing,
        &listed,
        &sha,
        &mut journal,
        observer,
        &mut reports,
    );
    Ok(VerifyReport {
        rules: *rules,
        subspaces: reports,
        sums,
    })
}

/// The tables of one kind by subspace, opened and checked, or why not.
type OpenedTables = HashMap<Subspace, Result<Arc<Table>, TablebaseError>>;

/// Opens each of `subs`' tables of kind `kind` and checks its checksums, its size
/// and its SHA-256 against `SHA256SUMS` (when listed there), recording the SHA-256
/// in `sha`; only good files are used as successors.
fn open_checked(
    store: &TablebaseDir,
    kind: TableKind,
    subs: &[Subspace],
    listed: &Result<BTreeMap<String, String>, Option<String>>,
    sha: &mut HashMap<TableId, String>,
) -> OpenedTables {
    let mut tables = HashMap::new();
    for &s in subs {
        let id = TableId::moving(kind, s);
        let t = store.open(id).and_then(|t| {
            t.check_file_checksum()?;
            if SubspaceIndex::new(s).slots() != t.header().slots {
                return Err(TablebaseError::corrupt(
                    t.path(),
                    "slot count differs from the index",
                ));
            }
            let hash = sha256_file(t.path())?;
            if let Ok(listed) = listed {
                match listed.get(&id.file_name(store.rules())) {
                    Some(h) if *h != hash => {
                        return Err(TablebaseError::corrupt(
                            t.path(),
                            format!("its SHA-256 {hash} differs from {h} in {SHA256SUMS}"),
                        ))
                    }
                    _ => {}
                }
            }
            sha.insert(id, hash);
            Ok(Arc::new(t))
        });
        tables.insert(s, t);
    }
    tables
}

/// The journal of passed tables as a verify run keeps it.
struct Journaled {
    path: PathBuf,
    resume: bool,
    journal: Journal,
}

impl Journaled {
    /// The positions recorded for table `name` when resuming and it passed an
    /// earlier run with exactly these `files` (the hashes of every file its check
    /// reads; `complete` says that each of them has one).
    fn passed_earlier(
        &self,
        name: &str,
        files: &BTreeMap<String, String>,
        complete: bool,
    ) -> Option<u64> {
        let entry = self.journal.passed.get(name)?;
        (self.resume && complete && entry.files == *files).then_some(entry.positions)
    }

    /// Records that table `name` passed (with the hashes of the files its check
    /// read) or did not, and saves the journal when that changed it.
    fn record(&mut self, name: String, passed: Option<JournalEntry>) {
        if !self.resume {
            return;
        }
        let changed = match passed {
            Some(entry) => {
                self.journal.passed.insert(name, entry);
                true
            }
            None => self.journal.passed.remove(&name).is_some(),
        };
        if changed {
            // The journal only saves time: a directory that cannot take it
            // (read-only, full) is verified in full next time, nothing worse.
            let mut json = serde_json::to_string_pretty(&self.journal).expect("serialises");
            json.push('\n');
            let _ = write_atomically(&self.path, json.as_bytes());
        }
    }
}

/// One moving-phase table of a subspace in the fused check of its kinds
/// ([`check_subspace`]): the tables it reads, how its first section is checked,
/// and its report and journal entry.
struct KindCheck {
    kind: TableKind,
    /// The subspace's table of this kind, its flipped subspace's and its capture
    /// target's (where there is one), decoded.
    arrays: Vec<(Subspace, Arc<Vec<Packed>>)>,
    /// The first section's entry for every slot, and whether it agrees with the
    /// stored value of the second.
    summary: Agrees,
    report: SubspaceReport,
    /// The table's file name and the SHA-256 of every file its check reads.
    name: String,
    files: BTreeMap<String, String>,
    /// Whether every file the check reads has a SHA-256 in `files`.
    complete: bool,
}

/// The horizon check among `checks` (by its place) when its values follow from
/// the game-theoretic check's beside it: in the subspace and in every table
/// its positions' successors lie in (its flipped subspace, its capture target),
/// the stored horizon values are the game values with every DTC above the
/// turn limit made a draw, slot for slot ([`follows_from_game`]).
///
/// Then a position's value under the rule, recomputed from its successors'
/// horizon values, is its game value so capped: capping a position's
/// successors' values makes no win or loss shorter, and turns a win or loss
/// into a draw exactly when its DTC, one turn more than its best successor's,
/// passes the limit (docs/VERIFICATION.md). So where the game table passes
/// the sweep, the horizon table passes too, and only its category section
/// needs comparing; where the game table fails, the horizon table gets a
/// sweep of its own.
fn horizon_follows_from_game(rules: &RuleSet, checks: &[KindCheck]) -> Option<usize> {
    let h = checks.iter().position(|c| c.kind == TableKind::Horizon)?;
    let g = checks.iter().find(|c| c.kind == TableKind::GameTheoretic)?;
    let same = g.arrays.len() == checks[h].arrays.len()
        && g.arrays
            .iter()
            .zip(&checks[h].arrays)
            .all(|((gs, gv), (hs, hv))| {
                gs == hs && follows_from_game(rules, Tier::moving(*gs), hv, gv)
            });
    same.then_some(h)
}

/// Compares a deferred horizon table's category section with its values (the
/// positions only: a padding slot's entries mean nothing).
fn check_categories(s: Subspace, h: &mut KindCheck) {
    let index = SubspaceIndex::new(s);
    let values = &h.arrays[0].1;
    debug_assert_eq!(h.arrays[0].0, s);
    let summary = &h.summary;
    let slots = values.len() as u64;
    let chunks = slot_chunks(slots);
    sweep_chunks(chunks, &mut [&mut h.report], None, |range, record| {
        for slot in range {
            let v = values[slot as usize]
                .get()
                .expect("Table::values rejects NONE");
            if summary(slot as usize, v) {
                continue;
            }
            if let Some(b) = index.board(slot) {
                record(0, slot, &|| b, v, v, true);
            }
        }
    });
}

/// The slots `0..slots` in ranges of [`CHUNK`], the tasks of [`sweep_chunks`].
fn slot_chunks(slots: u64) -> Vec<std::ops::Range<u64>> {
    (0..slots.div_ceil(CHUNK))
        .map(|c| c * CHUNK..((c + 1) * CHUNK).min(slots))
        .collect()
}

/// Whether the first section's entry of a slot agrees with its stored value.
type Agrees = Box<dyn Fn(usize, Value) -> bool + Sync>;

/// Decoded tables by subspace.
type Decoded = [(Subspace, Arc<Vec<Packed>>)];

/// What [`check_subspace`] reads of one kind's check: the kind, its decoded
/// tables and its first section's agreement.
type KindParts<'a> = (TableKind, &'a Decoded, &'a Agrees);

/// Verifies the moving-phase tables of the kinds in `opened` (each with the
/// subspaces whose table of that kind is here and the tables opened by
/// [`open_checked`]), subspace by subspace in the order of `subs`: every kind
/// of one subspace is recomputed in one sweep ([`check_subspace`]), which
/// generates and indexes each position's successors once for all of them.
/// Appends one report per table to `reports`, kind by kind within a subspace.
fn verify_moving(
    store: &TablebaseDir,
    subs: &[Subspace],
    mut opened: Vec<(TableKind, Vec<Subspace>, OpenedTables)>,
    sha: &HashMap<TableId, String>,
    journal: &mut Journaled,
    observer: &dyn VerifyObserver,
    reports: &mut Vec<SubspaceReport>,
) {
    let rules = store.rules();
    let mut decoded: HashMap<(TableKind, Subspace), Arc<Vec<Packed>>> = HashMap::new();
    for &s in subs {
        let mut needed: Vec<Subspace> = vec![s];
        for n in [Some(s.flipped()), s.capture_target()]
            .into_iter()
            .flatten()
        {
            if !needed.contains(&n) {
                needed.push(n);
            }
        }
        decoded.retain(|(_, k), _| needed.contains(k));
        let mut checks = Vec::new();
        for (kind, present, tables) in opened.iter_mut() {
            let kind = *kind;
            if !present.contains(&s) {
                continue;
            }
            let name = TableId::moving(kind, s).file_name(rules);
            let mut report = SubspaceReport {
                subspace: s,
                kind,
                placing: None,
                path: store.table_path(TableId::moving(kind, s)),
                checked: 0,
                mismatches: 0,
                examples: Vec::new(),
                error: None,
                culprits: Vec::new(),
                earlier: false,
                from_game: false,
            };
            let table = match tables.remove(&s).expect("listed") {
                Ok(t) => {
                    tables.insert(s, Ok(t.clone()));
                    t
                }
                Err(e) => {
                    tables.insert(
                        s,
                        Err(TablebaseError::corrupt(&report.path, "see its own report")),
                    );
                    report.error = Some(e);
                    finish(rules, report, reports, observer);
                    continue;
                }
            };
            // The files the check reads: the tables of this kind it needs, and for a
            // horizon or DTW table the game-theoretic table of its subspace.
            let mut reads: Vec<TableId> =
                needed.iter().map(|&n| TableId::moving(kind, n)).collect();
            if kind != TableKind::GameTheoretic {
                reads.push(TableId::moving(TableKind::GameTheoretic, s));
            }
            let files: BTreeMap<String, String> = reads
                .iter()
                .filter_map(|id| sha.get(id).map(|h| (id.file_name(rules), h.clone())))
                .collect();
            let complete = files.len() == reads.len();
            if let Some(positions) = journal.passed_earlier(&name, &files, complete) {
                observer.started(s, table.header().slots);
                report.checked = positions;
                report.earlier = true;
                observer.advance(table.header().slots);
                finish(rules, report, reports, observer);
                continue;
            }
            let mut arrays = Vec::new();
            for &n in &needed {
                if let Some(v) = decoded.get(&(kind, n)) {
                    arrays.push((n, v.clone()));
                    continue;
                }
                let path = store.table_path(TableId::moving(kind, n));
                let v = match tables.get(&n) {
                    None => Err(TablebaseError::MissingSubspace { subspace: n, path }),
                    Some(Err(_)) => Err(TablebaseError::corrupt(
                        &path,
                        format!("successor table of {s} is damaged"),
                    )),
                    Some(Ok(t)) => t.values().map(Arc::new),
                };
                match v {
                    Ok(v) => {
                        decoded.insert((kind, n), v.clone());
                        arrays.push((n, v));
                    }
                    Err(e) => {
                        report.error = Some(e);
                        break;
                    }
                }
            }
            // The header's class counts are those of the stored positions.
            if report.error.is_none() {
                if let Err(e) = table.check_counts(&arrays[0].1) {
                    report.error = Some(e);
                }
            }
            let summary: Result<Agrees, TablebaseError> = match (&report.error, kind) {
                (Some(_), _) => Err(TablebaseError::corrupt(&report.path, "not read")),
                (None, TableKind::GameTheoretic) => table.decode::<field::Wdl>().map(|wdl| {
                    Box::new(move |slot: usize, v: Value| wdl[slot] == v.wdl()) as Agrees
                }),
                (None, TableKind::Horizon) => table.decode::<field::Category>().and_then(|cats| {
                    let game = game_values(store, &decoded, s)?;
                    Ok(Box::new(move |slot: usize, v: Value| {
                        let g = game[slot].get().expect("Table::values rejects NONE");
                        Category::of(g.wdl(), v.wdl()) == Some(cats[slot])
                    }) as Agrees)
                }),
                (None, TableKind::Dtw) => game_values(store, &decoded, s)
                    .and_then(|game| dtw_summary(&table, &arrays[0].1, &game))
                    .map(|bad| Box::new(move |slot: usize, _: Value| !bad[slot]) as Agrees),
            };
            match summary {
                Ok(summary) => checks.push(KindCheck {
                    kind,
                    arrays,
                    summary,
                    report,
                    name,
                    files,
                    complete,
                }),
                Err(e) => {
                    // A table that could not be read fails without a sweep.
                    report.error.get_or_insert(e);
                    journal.record(name, None);
                    observer.started(s, table.header().slots);
                    finish(rules, report, reports, observer);
                }
            }
        }
        if checks.is_empty() {
            continue;
        }
        let slots = SubspaceIndex::new(s).slots();
        observer.started(s, slots * checks.len() as u64);
        // A horizon table that follows from the game values is left out of the
        // sweep and settled after it.
        let deferred = horizon_follows_from_game(rules, &checks).map(|i| checks.remove(i));
        {
            let (parts, mut kind_reports): (Vec<_>, Vec<_>) = checks
                .iter_mut()
                .map(|c| ((c.kind, &c.arrays[..], &c.summary), &mut c.report))
                .unzip();
            check_subspace(rules, &parts, &mut kind_reports, observer);
        }
        if let Some(mut h) = deferred {
            let game = checks
                .iter()
                .find(|c| c.kind == TableKind::GameTheoretic)
                .expect("a horizon table is deferred only beside its game table");
            if game.report.is_ok() {
                // Its values are its game values capped at the limit, which
                // passed: only the category section is left to compare.
                h.report.from_game = true;
                check_categories(s, &mut h);
                h.report.checked = game.report.checked;
                observer.advance(slots);
            } else {
                let parts = [(h.kind, &h.arrays[..], &h.summary)];
                check_subspace(rules, &parts, &mut [&mut h.report], observer);
            }
            checks.push(h);
        }
        for c in checks {
            let passed = (c.report.is_ok() && c.complete).then_some(JournalEntry {
                files: c.files,
                positions: c.report.checked,
            });
            journal.record(c.name, passed);
            finish(rules, c.report, reports, observer);
        }
    }
}

/// Verifies the placing tables `placing` (each kind's last layer first):
/// checksums, size, SHA-256 against `SHA256SUMS`, and `evaluate_placing(board) ==
/// stored(board)` over the stored values of the next layer (or, for the last layer,
/// of the moving phase) of the same kind, and the first section against the
/// second: the WDL section against the DTC section, or in a horizon table every
/// class against the DTC₁₀₀ and the layer's game-theoretic value. One report per
/// table, naming its layer.
#[allow(clippy::too_many_arguments)]
fn verify_placing(
    store: &TablebaseDir,
    placing: &[TableId],
    listed: &BTreeMap<String, String>,
    sha: &HashMap<TableId, String>,
    journal: &mut Journaled,
    observer: &dyn VerifyObserver,
    reports: &mut Vec<SubspaceReport>,
) {
    let rules = store.rules();
    let mut decoded: HashMap<TableId, Arc<Vec<Packed>>> = HashMap::new();
    // Horizon tables: the slots at which a successor's horizon table differs
    // from its game-theoretic table.
    let mut changed: HashMap<TableId, Vec<u64>> = HashMap::new();
    // SHA-256 of the files checked so far (each layer's successors are the layer
    // after it, checked before it), for the journal.
    let mut sha = sha.clone();
    for &id in placing {
        let (kind, s) = (id.kind, id.tier.subspace);
        let placed = id.tier.placements(rules).expect("a placing table") as u8;
        let path = store.table_path(id);
        let mut report = SubspaceReport {
            subspace: s,
            kind,
            placing: Some(placed),
            path: path.clone(),
            checked: 0,
            mismatches: 0,
            examples: Vec::new(),
            error: None,
            culprits: Vec::new(),
            earlier: false,
            from_game: false,
        };
        let slots = SubspaceIndex::new(s).slots();
        let name = id.file_name(rules);
        observer.started(s, slots);
        // `Some(files)`: the check passed or failed with every file it read hashed
        // (for the journal).
        let result = (|| -> Result<Option<BTreeMap<String, String>>, TablebaseError> {
            let table = store.open(id)?;
            table.check_file_checksum()?;
            if slots != table.header().slots {
                return Err(TablebaseError::corrupt(
                    &path,
                    "slot count differs from the index",
                ));
            }
            let hash = sha256_file(table.path())?;
            if let Some(h) = listed.get(&name) {
                if *h != hash {
                    return Err(TablebaseError::corrupt(
                        &path,
                        format!("its SHA-256 {hash} differs from {h} in {SHA256SUMS}"),
                    ));
                }
            }
            sha.insert(id, hash.clone());
            let next = id.tier.hands.after_placement();
            let needed: Vec<TableId> = subspace_successors(rules, placed as u32, s)
                .into_iter()
                .map(|n| TableId::new(kind, Tier::new(next, n)))
                .collect();
            // The files the check reads besides this one: the successors' tables,
            // and for a horizon or DTW table the game-theoretic table of its subspace.
            let mut reads = needed.clone();
            if kind != TableKind::GameTheoretic {
                let game = id.with_kind(TableKind::GameTheoretic);
                reads.push(game);
                // Not checked in this run (`verify_kinds` without it): hashed here
                // for the journal.
                if !sha.contains_key(&game) && !is_missing(&store.table_path(game)) {
                    sha.insert(game, sha256_file(&store.table_path(game))?);
                }
            }
            let mut files: BTreeMap<String, String> = reads
                .iter()
                .filter_map(|r| sha.get(r).map(|h| (r.file_name(rules), h.clone())))
                .collect();
            let complete = files.len() == reads.len();
            files.insert(name.clone(), hash);
            if let Some(positions) = journal.passed_earlier(&name, &files, complete) {
                report.checked = positions;
                report.earlier = true;
                observer.advance(slots);
                return Ok(Some(files));
            }
            decoded.retain(|k, _| needed.contains(k));
            let mut arrays = Vec::new();
            for &n in &needed {
                if let Some(v) = decoded.get(&n) {
                    arrays.push((n.tier.subspace, v.clone()));
                    continue;
                }
                let v = Arc::new(store.load(n)?);
                decoded.insert(n, v.clone());
                arrays.push((n.tier.subspace, v));
            }
            // A horizon table whose game-theoretic table passed (in this run, or
            // in an earlier one with the same files): its game values and where
            // its successors' horizon values differ from their game values.
            let mut shortcut = None;
            // The stored values, and whether the first section disagrees with one.
            let (own, first_bad): (Vec<Packed>, Vec<bool>) = match kind {
                TableKind::GameTheoretic => {
                    let own = table.values()?;
                    let wdl = table.decode::<field::Wdl>()?;
                    let bad = own
                        .iter()
                        .zip(&wdl)
                        .map(|(v, w)| v.get().map(|v| v.wdl()) != Some(*w))
                        .collect();
                    (own, bad)
                }
                TableKind::Horizon => {
                    let own = table.values()?;
                    let cats = table.decode::<field::Category>()?;
                    let mut game = store.load(id.with_kind(TableKind::GameTheoretic))?;
                    let bad = (0..own.len())
                        .map(|i| match (game[i].get(), own[i].get()) {
                            (Some(g), Some(h)) => Category::of(g.wdl(), h.wdl()) != Some(cats[i]),
                            _ => true,
                        })
                        .collect();
                    let game_passed = reports.iter().any(|r| {
                        r.kind == TableKind::GameTheoretic
                            && r.placing == Some(placed)
                            && r.subspace == s
                            && r.is_ok()
                    });
                    if game_passed {
                        changed.retain(|k, _| needed.contains(k));
                        let mut lists = Vec::new();
                        for (n, rule) in &arrays {
                            let nid = TableId::new(kind, Tier::new(next, *n));
                            let list = changed_slots(store, &mut changed, nid, rule)?;
                            lists.push((*n, list.to_vec()));
                        }
                        mark_padding(s, &mut game);
                        shortcut = Some((game, lists));
                        report.from_game = true;
                    }
                    (own, bad)
                }
                TableKind::Dtw => {
                    let own = table.values()?;
                    let game = store.load(id.with_kind(TableKind::GameTheoretic))?;
                    let bad = dtw_summary(&table, &own, &game)?;
                    (own, bad)
                }
            };
            // The header's class counts are those of the stored positions.
            table.check_counts(&own)?;
            check_placing(
                rules,
                kind.metric(),
                placed,
                s,
                &own,
                &first_bad,
                &arrays,
                shortcut,
                &mut report,
                observer,
            )?;
            Ok(complete.then_some(files))
        })();
        let files = match result {
            Ok(files) => files,
            Err(e) => {
                report.error = Some(e);
                observer.advance(slots.saturating_sub(report.checked));
                None
            }
        };
        if !report.earlier {
            let positions = report.checked;
            let passed = files
                .filter(|_| report.is_ok())
                .map(|files| JournalEntry { files, positions });
            journal.record(name, passed);
        }
        finish(rules, report, reports, observer);
    }
}

/// For each slot of a DTW table (opened as `table`, its values decoded as
/// `own`), whether its first section disagrees: its WDL code differs from the
/// stored DTW value's win, draw or loss, or from `game`'s, the game-theoretic
/// table's of the same subspace (a DTW table must carry the game-theoretic
/// values with another depth).
fn dtw_summary(
    table: &Table,
    own: &[Packed],
    game: &[Packed],
) -> Result<Vec<bool>, TablebaseError> {
    let wdl = table.decode::<field::Wdl>()?;
    if game.len() != own.len() {
        return Err(TablebaseError::corrupt(
            table.path(),
            "its game-theoretic table has another number of slots",
        ));
    }
    Ok((0..own.len())
        .into_par_iter()
        .map(|i| match (own[i].get(), game[i].get()) {
            (Some(v), Some(g)) => v.wdl() != wdl[i] || v.wdl() != g.wdl(),
            _ => true,
        })
        .collect())
}

/// The game-theoretic values of moving subspace `s`: those already decoded for
/// the check of its game table, else read from the directory.
fn game_values(
    store: &TablebaseDir,
    decoded: &HashMap<(TableKind, Subspace), Arc<Vec<Packed>>>,
    s: Subspace,
) -> Result<Arc<Vec<Packed>>, TablebaseError> {
    match decoded.get(&(TableKind::GameTheoretic, s)) {
        Some(values) => Ok(values.clone()),
        None => store
            .load(TableId::moving(TableKind::GameTheoretic, s))
            .map(Arc::new),
    }
}

/// One slot in this many of a table is also recomputed from scratch, its
/// successors generated by the rules and each indexed on its own
/// ([`SubspaceIndex::index`]): a check of the shared-work passes (the solver's
/// grouped placing pass, the runs of [`RunMoves`]) by a path that shares neither.
const SAMPLE: u64 = 64;

/// A placing horizon table's game values (padding marked) and, per successor
/// table, the slots at which its horizon values differ from its game values.
type GameShortcut = (Vec<Packed>, Vec<(Subspace, Vec<u64>)>);

/// Recomputes every position of placing table `placed`/`s` from its successors'
/// values (`arrays`) and compares with the stored values and WDL section.
///
/// Every value is recomputed by [`solve_layer_subspace`], which visits positions
/// grouped by the opponent's set so that their successors' look-ups stay in cache
/// (in slot order the same look-ups made this check about 4× slower than the
/// solve). One slot in [`SAMPLE`], and every slot the pass leaves without
/// a value, is also recomputed in slot order with [`evaluate_placing`] and plain
/// indexing.
///
/// With `game_shortcut` (a horizon table whose game-theoretic table has passed:
/// its game values, padding marked, and per successor table the slots at which
/// its horizon values differ from its game values) the pass does not run: a
/// placing value is a function of its placements' values alone, so where every
/// placement leads to a slot whose horizon value is its game value, the value
/// under the rule must be the position's game value (checked against its
/// successors already), and only the boards with a placement into a listed
/// slot are recomputed, with [`evaluate_placing`]
/// ([`solve_layer_subspace_changed`]). There is no sample: the game table's
/// check sampled the same slots over the same successor values, and the
/// recomputed boards are all evaluated by [`evaluate_placing`].
#[allow(clippy::too_many_arguments)]
fn check_placing(
    rules: &RuleSet,
    metric: Metric,
    placed: u8,
    s: Subspace,
    own: &[Packed],
    first_bad: &[bool],
    arrays: &[(Subspace, Arc<Vec<Packed>>)],
    game_shortcut: Option<GameShortcut>,
    report: &mut SubspaceReport,
    observer: &dyn VerifyObserver,
) -> Result<(), TablebaseError> {
    /// The solver's progress, in slots, as the verify's.
    struct Slots<'a>(&'a dyn VerifyObserver);
    impl tigadi_solve::Observer for Slots<'_> {
        fn advance(&self, amount: u64) {
            self.0.advance(amount)
        }
    }
    let next: Vec<SolvedTable> = arrays
        .iter()
        .map(|(n, v)| SolvedTable {
            subspace: *n,
            values: &v[..],
        })
        .collect();
    let successors_error = |e: tigadi_solve::SolveError| {
        TablebaseError::corrupt(&report.path, format!("its successors: {e}"))
    };
    // Under the shortcut every board whose successors' two kinds agree was
    // sampled with its game values already (the same slots, the same
    // successor values), and every other board is recomputed by
    // `evaluate_placing` itself: no sample.
    let sampling = game_shortcut.is_none();
    let grouped = match game_shortcut {
        None => {
            solve_layer_subspace_with(rules, metric, placed as u32, s, &next, &Slots(observer))
                .map_err(successors_error)?
                .values
        }
        Some((game, lists)) => {
            let lists: Vec<(Subspace, &[u64])> = lists.iter().map(|(n, l)| (*n, &l[..])).collect();
            solve_layer_subspace_changed(
                rules,
                placed as u32,
                s,
                game,
                &next,
                &lists,
                &Slots(observer),
            )
            .map_err(successors_error)?
            .0
            .values
        }
    };
    let index = SubspaceIndex::new(s);
    let lookups = indexed(arrays);
    let lookup = |b: Board| stored_value(&lookups, b);
    let slots = own.len() as u64;
    let chunks = slot_chunks(slots);
    sweep_chunks(chunks, &mut [report], None, |range, record| {
        for slot in range {
            let fast = grouped[slot as usize].get();
            let board = || index.board(slot).expect("checked slots hold positions");
            let stored = || {
                own[slot as usize]
                    .get()
                    .expect("Table::values rejects NONE")
            };
            let recomputed = match fast {
                Some(f) if !(sampling && slot % SAMPLE == 0) => f,
                _ => {
                    // Padding, unless the index decodes a position here.
                    let Some(b) = index.board(slot) else {
                        continue;
                    };
                    let slow = evaluate_placing_with(
                        rules,
                        metric,
                        Hands::after_placements(rules, placed as u32),
                        b,
                        lookup,
                    );
                    match fast {
                        Some(f) if slow == stored() => f,
                        _ => slow,
                    }
                }
            };
            record(
                0,
                slot,
                &board,
                stored(),
                recomputed,
                first_bad[slot as usize],
            );
        }
    });
    Ok(())
}

/// What a check reports for one position and table: the table's number, the
/// position's slot and board, the stored value,
/// the value recomputed from the successors, and whether the WDL (or category)
/// section disagrees with the stored value. The board is decoded only for a
/// mismatch.
type Record<'a> = &'a mut dyn FnMut(usize, u64, &dyn Fn() -> Board, Value, Value, bool);

/// Checks the slots of a subspace's tables in parallel tasks (ranges of slots):
/// `chunk(slots, record)` checks the positions in one and calls `record` for
/// each position and table (`record`'s first argument: the table's number in
/// `reports`). Fills in each report's counts and first mismatches, and reports
/// the slots done (times the number of tables) to `observer` if given.
fn sweep_chunks(
    tasks: Vec<std::ops::Range<u64>>,
    reports: &mut [&mut SubspaceReport],
    observer: Option<&dyn VerifyObserver>,
    chunk: impl Fn(std::ops::Range<u64>, Record) + Sync,
) {
    let k = reports.len();
    let checked: Vec<AtomicU64> = (0..k).map(|_| AtomicU64::new(0)).collect();
    let mismatches: Vec<AtomicU64> = (0..k).map(|_| AtomicU64::new(0)).collect();
    let examples: Vec<Mutex<Vec<Mismatch>>> = (0..k).map(|_| Mutex::new(Vec::new())).collect();
    tasks.into_par_iter().for_each(|range| {
        let (start, end) = (range.start, range.end);
        let mut counts = vec![(0u64, 0u64); k];
        chunk(start..end, &mut |j,
                                slot,
                                board,
                                stored,
                                recomputed,
                                wdl_bad| {
            counts[j].0 += 1;
            for (bad, wdl_section) in [(recomputed != stored, false), (wdl_bad, true)] {
                if bad {
                    counts[j].1 += 1;
                    let mut ex = examples[j].lock().unwrap_or_else(|p| p.into_inner());
                    if ex.len() < MAX_EXAMPLES {
                        ex.push(Mismatch {
                            slot,
                            board: board(),
                            stored,
                            recomputed,
                            wdl_section,
                        });
                    }
                }
            }
        });
        for (j, (n_checked, n_bad)) in counts.into_iter().enumerate() {
            checked[j].fetch_add(n_checked, Ordering::Relaxed);
            mismatches[j].fetch_add(n_bad, Ordering::Relaxed);
        }
        if let Some(observer) = observer {
            observer.advance((end - start) * k as u64);
        }
    });
    for (j, report) in reports.iter_mut().enumerate() {
        report.checked = checked[j].load(Ordering::Relaxed);
        report.mismatches = mismatches[j].load(Ordering::Relaxed);
        let mut ex = std::mem::take(&mut *examples[j].lock().unwrap_or_else(|p| p.into_inner()));
        ex.sort_by_key(|m| m.slot);
        report.examples = ex;
    }
}

/// Loaded tables with their indexes: `(subspace, index, values)`.
type Indexed<'a> = Vec<(Subspace, SubspaceIndex, &'a [Packed])>;

/// The loaded tables `arrays` with their indexes.
fn indexed(arrays: &[(Subspace, Arc<Vec<Packed>>)]) -> Indexed<'_> {
    arrays
        .iter()
        .map(|(n, v)| (*n, SubspaceIndex::new(*n), &v[..]))
        .collect()
}

/// The stored value of board `b`, indexed from scratch in the loaded tables.
fn stored_value(lookups: &Indexed, b: Board) -> Value {
    let sub = Subspace::of(b);
    let (_, index, values) = lookups
        .iter()
        .find(|l| l.0 == sub)
        .expect("successors stay in the loaded subspaces");
    values[index.index(b) as usize]
        .get()
        .expect("Table::values rejects NONE")
}

/// The most kinds of table of one subspace ([`TableKind::ALL`]).
const KINDS: usize = 3;

/// A position's best successor key of each kind so far ([`SuccessorKeys`];
/// `0`: none yet), and the kinds (bits) where a successor had no key.
type Keys = ([u16; KINDS], u8);

/// Recomputes every position of one subspace's tables (`checks`, one per kind,
/// each holding its subspace's, flipped subspace's and capture target's tables)
/// from its successors' stored values and compares with the stored values and
/// the first sections.
///
/// Positions are taken a run at a time, as the solver takes them
/// ([`RunMoves`]): the slides of the run's mover set are listed once, each
/// capture target the run reaches is indexed once and its value in every table
/// read into a memo, and the quiet successors' slots come from one
/// precomputed form by toggling two points unless a symmetry fixes their
/// mover set. Each position's successors are generated and indexed once for
/// all the kinds, and looked up in each; the best successor is the largest of
/// their choice keys ([`SuccessorKeys`], one table read a successor, as in the
/// placing pass). One slot in [`SAMPLE`] is also
/// recomputed with [`evaluate_with`] and plain indexing, in every table; a
/// mismatch of either way is reported.
fn check_subspace(
    rules: &RuleSet,
    checks: &[KindParts],
    reports: &mut [&mut SubspaceReport],
    observer: &dyn VerifyObserver,
) {
    let k = checks.len();
    assert!((1..=KINDS).contains(&k), "{k} kinds of table");
    let sub = checks[0].1[0].0;
    let own_idx = SubspaceIndex::new(sub);
    let quiet_idx = SubspaceIndex::new(sub.flipped());
    let target_sub = sub.capture_target();
    let target_idx = target_sub.map(SubspaceIndex::new);
    // Each kind's tables: its own, its flipped subspace's, its capture target's.
    let array = |c: &KindParts, n: Subspace| {
        c.1.iter()
            .find(|a| a.0 == n)
            .map(|a| a.1.clone())
            .expect("a check's tables are loaded")
    };
    let own: Vec<Arc<Vec<Packed>>> = checks.iter().map(|c| array(c, sub)).collect();
    let quiet: Vec<Arc<Vec<Packed>>> = checks.iter().map(|c| array(c, sub.flipped())).collect();
    let target: Vec<Arc<Vec<Packed>>> = match target_sub {
        Some(t) => checks.iter().map(|c| array(c, t)).collect(),
        None => Vec::new(),
    };
    let target_values: Vec<&[Packed]> = target.iter().map(|v| &v[..]).collect();
    let lookups: Vec<Indexed> = checks.iter().map(|c| indexed(c.1)).collect();
    let kinds: Vec<TableKind> = checks.iter().map(|c| c.0).collect();
    let summaries: Vec<&Agrees> = checks.iter().map(|c| c.2).collect();
    let value = |v: Packed| v.get().expect("Table::values rejects NONE");
    // Each kind's successors' values as choice keys: the best is the largest.
    let keys: Vec<SuccessorKeys> = kinds
        .iter()
        .map(|k| SuccessorKeys::new(k.metric()))
        .collect();
    let finalise = |kind: TableKind, best: Value| match kind {
        TableKind::GameTheoretic | TableKind::Dtw => best,
        TableKind::Horizon => {
            value_at_counter(best, 0, rules.quiet).expect("counter 0 is within every limit")
        }
    };
    let run = own_idx.run_length();
    let tasks = run_tasks(&own_idx, CHUNK)
        .into_iter()
        .map(|runs| runs.start * run..runs.end * run)
        .collect();
    sweep_chunks(tasks, reports, Some(observer), |range, record| {
        let mut moves = RunMoves::default();
        // A two-stage pipeline, as in the solver: the quiet successors' values of
        // one position are prefetched while those of the position before it are
        // read (the captures' come from the run's memo).
        let mut sets = [SlotSet::new(), SlotSet::new()];
        let mut pending: [Option<(u64, Board, Keys)>; 2] = [None, None];
        let mut cur = 0;
        let mut finish = |slot: u64, board: Board, (mut best, mut missing): Keys, succ: &[u64]| {
            for j in 0..k {
                let metric = kinds[j].metric();
                for &q in succ {
                    let key = keys[j].quiet(quiet[j][q as usize]);
                    best[j] = SuccessorKeys::best_of(best[j], key);
                    missing |= ((key == 0) as u8) << j;
                }
                let stored = value(own[j][slot as usize]);
                let lookup = |b: Board| stored_value(&lookups[j], b);
                let mut recomputed = if missing & 1 << j != 0 {
                    // A successor's value has no key (a depth out of range):
                    // recomputed from scratch, which reports it.
                    finalise(kinds[j], evaluate_with(rules, metric, board, lookup))
                } else {
                    finalise(kinds[j], SuccessorKeys::value(best[j]))
                };
                if slot.is_multiple_of(SAMPLE) {
                    let slow = finalise(kinds[j], evaluate_with(rules, metric, board, lookup));
                    if slow != stored {
                        recomputed = slow;
                    }
                }
                record(
                    j,
                    slot,
                    &|| board,
                    stored,
                    recomputed,
                    !summaries[j](slot as usize, stored),
                );
            }
        };
        for r in range.start / run..range.end / run {
            let (mover, _) = own_idx.run_mover(r);
            moves.prepare_many(
                rules,
                mover,
                sub.opponent as u32,
                target_idx.map(|t| (t, &target_values[..])),
            );
            for (slot, board) in own_idx.boards(r * run..(r + 1) * run) {
                debug_assert_eq!(board.mover, mover);
                let (mut best, mut missing) = ([0u16; KINDS], 0u8);
                moves.captures_many(rules, board.opponent, target_idx.is_none(), |next| {
                    for j in 0..k {
                        let key = match next {
                            None => SuccessorKeys::game_over(),
                            Some(v) => keys[j].capture(v[j]),
                        };
                        best[j] = SuccessorKeys::best_of(best[j], key);
                        missing |= ((key == 0) as u8) << j;
                    }
                    true
                });
                let set = &mut sets[cur];
                moves.quiet_successors(rules, &quiet_idx, board.opponent, set);
                for &q in set.distinct() {
                    for values in &quiet {
                        prefetch(&values[q as usize]);
                    }
                }
                pending[cur] = Some((slot, board, (best, missing)));
                cur ^= 1;
                if let Some((slot, board, best)) = pending[cur].take() {
                    finish(slot, board, best, sets[cur].distinct());
                }
            }
        }
        if let Some((slot, board, best)) = pending[cur ^ 1].take() {
            finish(slot, board, best, sets[cur ^ 1].distinct());
        }
    });
}
