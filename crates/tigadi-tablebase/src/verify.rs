//! The consistency scan: check every checksum of every table of a rule set, then
//! recompute every stored value from its successors' stored values and report
//! the positions where they differ.

use crate::error::TablebaseError;
use crate::format::{kind_table_path, list_subspaces, rules_dir, TableKind};
use crate::reader::table::{open_kind, Table};
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::{Board, RuleSet};
use tigadi_solve::{evaluate, evaluate_horizon, Category, Packed, Value};

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
}

impl SubspaceReport {
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
}

impl VerifyReport {
    /// Did every table pass every check?
    pub fn is_ok(&self) -> bool {
        self.subspaces.iter().all(SubspaceReport::is_ok)
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

/// Verifies every table of rule set `rules` in tablebase directory `dir`:
/// the head, block and whole-file checksums of every file, agreement of the WDL
/// and DTC sections, and `evaluate(board) == stored(board)` for every position
/// (every non-padding slot). Horizon tables (values under the 100-turn rule), where
/// present, are checked the same way: DTC₁₀₀ recomputed from the successors'
/// DTC₁₀₀ ([`evaluate_horizon`]), and every category against the DTC₁₀₀ and the
/// game-theoretic value; their reports follow the game-theoretic ones. `progress(done, total)` is called from worker threads
/// as slots are recomputed (`total` is the slot count of all tables).
///
/// Returns `Err` only when there is nothing to verify (no directory, no files);
/// damaged files and wrong values are reported in the [`VerifyReport`].
pub fn verify(
    dir: &Path,
    rules: &RuleSet,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<VerifyReport, TablebaseError> {
    let mut subs = list_subspaces(dir, rules)?;
    if subs.is_empty() {
        let rdir = rules_dir(dir, rules);
        let e = std::io::Error::new(std::io::ErrorKind::NotFound, "no tablebase files here");
        return Err(TablebaseError::io(&rdir, e));
    }
    // A table and its flipped twin next to each other; smaller totals first.
    subs.sort_by_key(|s| (s.mover + s.opponent, s.mover.min(s.opponent), s.mover));

    let done = AtomicU64::new(0);
    let mut opened = Vec::new();
    let mut total = 0u64;
    for kind in [TableKind::GameTheoretic, TableKind::Horizon] {
        let present: Vec<Subspace> = subs
            .iter()
            .copied()
            .filter(|&s| {
                kind == TableKind::GameTheoretic || kind_table_path(dir, rules, kind, s).is_file()
            })
            .collect();
        let tables = open_checked(dir, rules, kind, &present);
        total += tables
            .values()
            .flatten()
            .map(|t| t.header().slots)
            .sum::<u64>();
        opened.push((kind, present, tables));
    }
    let mut reports = Vec::new();
    for (kind, present, tables) in opened {
        verify_kind(
            dir,
            rules,
            kind,
            &present,
            tables,
            &done,
            total,
            progress,
            &mut reports,
        );
    }
    Ok(VerifyReport {
        rules: *rules,
        subspaces: reports,
    })
}

/// Opens each of `subs`' tables of kind `kind` and checks its checksums and size;
/// only good files are used as successors.
fn open_checked(
    dir: &Path,
    rules: &RuleSet,
    kind: TableKind,
    subs: &[Subspace],
) -> HashMap<Subspace, Result<Arc<Table>, TablebaseError>> {
    let mut tables = HashMap::new();
    for &s in subs {
        let t = open_kind(dir, rules, kind, s).and_then(|t| {
            t.check_file_checksum()?;
            if SubspaceIndex::new(s).slots() != t.header().slots {
                return Err(TablebaseError::corrupt(
                    t.path(),
                    "slot count differs from the index",
                ));
            }
            Ok(Arc::new(t))
        });
        tables.insert(s, t);
    }
    tables
}

/// Recomputes every value of the tables of kind `kind` of `subs` (opened by
/// [`open_checked`]) and appends one report per table to `reports`.
#[allow(clippy::too_many_arguments)]
fn verify_kind(
    dir: &Path,
    rules: &RuleSet,
    kind: TableKind,
    subs: &[Subspace],
    mut tables: HashMap<Subspace, Result<Arc<Table>, TablebaseError>>,
    done: &AtomicU64,
    total: u64,
    progress: &(dyn Fn(u64, u64) + Sync),
    reports: &mut Vec<SubspaceReport>,
) {
    let mut decoded: HashMap<Subspace, Arc<Vec<Packed>>> = HashMap::new();
    for &s in subs {
        let mut report = SubspaceReport {
            subspace: s,
            kind,
            path: kind_table_path(dir, rules, kind, s),
            checked: 0,
            mismatches: 0,
            examples: Vec::new(),
            error: None,
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
                reports.push(report);
                continue;
            }
        };
        let needed: Vec<Subspace> = [Some(s), Some(s.flipped()), capture_target(s)]
            .into_iter()
            .flatten()
            .collect();
        decoded.retain(|k, _| needed.contains(k));
        let mut arrays = Vec::new();
        for &n in &needed {
            if let Some(v) = decoded.get(&n) {
                arrays.push((n, v.clone()));
                continue;
            }
            let v = match tables.get(&n) {
                None => Err(TablebaseError::MissingSubspace {
                    subspace: n,
                    path: kind_table_path(dir, rules, kind, n),
                }),
                Some(Err(_)) => Err(TablebaseError::corrupt(
                    &kind_table_path(dir, rules, kind, n),
                    format!("successor table of {s} is damaged"),
                )),
                Some(Ok(t)) => match kind {
                    TableKind::GameTheoretic => t.decode_values(),
                    TableKind::Horizon => t.decode_dtc100(),
                }
                .map(Arc::new),
            };
            match v {
                Ok(v) => {
                    decoded.insert(n, v.clone());
                    arrays.push((n, v));
                }
                Err(e) => {
                    report.error = Some(e);
                    break;
                }
            }
        }
        // The first section's entry for every slot, and whether it agrees with the
        // stored value of the second.
        let summary: Result<Box<dyn Fn(usize, Value) -> bool + Sync>, TablebaseError> = match kind {
            _ if report.error.is_some() => Ok(Box::new(|_, _| true)),
            TableKind::GameTheoretic => table
                .decode_wdl()
                .map(|wdl| Box::new(move |slot: usize, v: Value| wdl[slot] == v.wdl()) as Box<_>),
            TableKind::Horizon => table.decode_categories().and_then(|cats| {
                let game = open_kind(dir, rules, TableKind::GameTheoretic, s)?.decode_values()?;
                Ok(Box::new(move |slot: usize, v: Value| {
                    let g = game[slot].get().expect("decode_values rejects NONE");
                    Category::of(g.wdl(), v.wdl()) == Some(cats[slot])
                }) as Box<_>)
            }),
        };
        match summary {
            Ok(_) if report.error.is_some() => {}
            Ok(summary) => check_subspace(
                rules,
                kind,
                &arrays,
                &*summary,
                &mut report,
                done,
                total,
                progress,
            ),
            Err(e) => report.error = Some(e),
        }
        reports.push(report);
    }
}

/// Where captures from subspace `s` lead, unless every capture ends the game.
fn capture_target(s: Subspace) -> Option<Subspace> {
    (s.opponent > 3).then(|| Subspace::new(s.opponent - 1, s.mover))
}

#[allow(clippy::too_many_arguments)]
fn check_subspace(
    rules: &RuleSet,
    kind: TableKind,
    arrays: &[(Subspace, Arc<Vec<Packed>>)],
    summary_agrees: &(dyn Fn(usize, Value) -> bool + Sync),
    report: &mut SubspaceReport,
    done: &AtomicU64,
    total: u64,
    progress: &(dyn Fn(u64, u64) + Sync),
) {
    let lookups: Vec<(Subspace, SubspaceIndex, &[Packed])> = arrays
        .iter()
        .map(|(n, v)| (*n, SubspaceIndex::new(*n), &v[..]))
        .collect();
    let own = &lookups[0];
    let slots = own.2.len() as u64;
    let checked = AtomicU64::new(0);
    let mismatches = AtomicU64::new(0);
    let examples = Mutex::new(Vec::new());
    (0..slots.div_ceil(CHUNK)).into_par_iter().for_each(|c| {
        let (start, end) = (c * CHUNK, ((c + 1) * CHUNK).min(slots));
        let (mut n_checked, mut n_bad) = (0, 0);
        for slot in start..end {
            let Some(board) = own.1.board(slot) else {
                continue;
            };
            n_checked += 1;
            let stored = own.2[slot as usize]
                .get()
                .expect("decode_values rejects NONE");
            let lookup = |b: Board| {
                let sub = Subspace::of(b);
                let (_, index, values) = lookups
                    .iter()
                    .find(|l| l.0 == sub)
                    .expect("successors stay in the loaded subspaces");
                values[index.index(b) as usize]
                    .get()
                    .expect("decode_values rejects NONE")
            };
            let recomputed = match kind {
                TableKind::GameTheoretic => evaluate(rules, board, lookup),
                TableKind::Horizon => evaluate_horizon(rules, board, lookup),
            };
            let wdl_bad = !summary_agrees(slot as usize, stored);
            for (bad, wdl_section) in [(recomputed != stored, false), (wdl_bad, true)] {
                if bad {
                    n_bad += 1;
                    let mut ex = examples.lock().unwrap_or_else(|p| p.into_inner());
                    if ex.len() < MAX_EXAMPLES {
                        ex.push(Mismatch {
                            slot,
                            board,
                            stored,
                            recomputed,
                            wdl_section,
                        });
                    }
                }
            }
        }
        checked.fetch_add(n_checked, Ordering::Relaxed);
        mismatches.fetch_add(n_bad, Ordering::Relaxed);
        let d = done.fetch_add(end - start, Ordering::Relaxed) + (end - start);
        progress(d, total);
    });
    report.checked = checked.into_inner();
    report.mismatches = mismatches.into_inner();
    let mut ex = examples.into_inner().unwrap_or_else(|p| p.into_inner());
    ex.sort_by_key(|m| m.slot);
    report.examples = ex;
}
