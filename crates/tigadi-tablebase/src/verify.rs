//! The consistency scan: check every checksum of every table of a rule set, then
//! recompute every stored value from its successors' stored values and report
//! the positions where they differ.

use crate::error::TablebaseError;
use crate::format::{any_table_path, list_subspaces, parse_placing_file_name, rules_dir};
use crate::reader::table::{open_any_table, Table};
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::{Board, RuleSet};
use tigadi_solve::placing::{evaluate_placing, successor_subspaces};
use tigadi_solve::{evaluate, Packed, Value};

/// A table of a rule set: placing layer (`None` for the moving phase) and subspace.
type Key = (Option<u8>, Subspace);

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
    /// The value in the DTC section.
    pub stored: Value,
    /// The value recomputed from the stored values of its successors.
    pub recomputed: Value,
    /// `false`: `stored != recomputed`; `true`: the WDL section disagrees with
    /// `stored` (the DTC section) here.
    pub wdl_section: bool,
}

/// The outcome of verifying one subspace's table.
#[derive(Debug)]
pub struct SubspaceReport {
    /// The subspace.
    pub subspace: Subspace,
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

/// Verifies every table of rule set `rules` in tablebase directory `dir`, moving
/// phase first, then the placing layers from the last to the first:
/// the head, block and whole-file checksums of every file, agreement of the WDL
/// and DTC sections, and `evaluate(board) == stored(board)` for every position
/// (every non-padding slot); for placing tables `evaluate_placing` over the next
/// layer's (or the moving phase's) stored values. `progress(done, total)` is called from worker threads
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
    let mut placing = list_placing_tables(dir, rules)?;
    if subs.is_empty() && placing.is_empty() {
        let rdir = rules_dir(dir, rules);
        let e = std::io::Error::new(std::io::ErrorKind::NotFound, "no tablebase files here");
        return Err(TablebaseError::io(&rdir, e));
    }
    // A table and its flipped twin next to each other; smaller totals first.
    subs.sort_by_key(|s| (s.mover + s.opponent, s.mover.min(s.opponent), s.mover));
    // Placing layers last first: each needs only the one after it.
    placing.sort_by_key(|&(p, s)| (std::cmp::Reverse(p), s));
    let keys: Vec<Key> = subs
        .iter()
        .map(|&s| (None, s))
        .chain(placing.iter().map(|&(p, s)| (Some(p), s)))
        .collect();

    // Check every file's checksums first; only good files are used as successors.
    let mut tables: HashMap<Key, Result<Arc<Table>, TablebaseError>> = HashMap::new();
    let mut total = 0u64;
    for &(p, s) in &keys {
        let t = open_any_table(dir, rules, p, s).and_then(|t| {
            t.check_file_checksum()?;
            if SubspaceIndex::new(s).slots() != t.header().slots {
                return Err(TablebaseError::corrupt(
                    t.path(),
                    "slot count differs from the index",
                ));
            }
            Ok(Arc::new(t))
        });
        if let Ok(t) = &t {
            total += t.header().slots;
        }
        tables.insert((p, s), t);
    }

    let done = AtomicU64::new(0);
    let mut decoded: HashMap<Key, Arc<Vec<Packed>>> = HashMap::new();
    let mut reports = Vec::new();
    for &key in &keys {
        let (p, s) = key;
        let mut report = SubspaceReport {
            subspace: s,
            placing: p,
            path: any_table_path(dir, rules, p, s),
            checked: 0,
            mismatches: 0,
            examples: Vec::new(),
            error: None,
        };
        let table = match tables.remove(&key).expect("listed") {
            Ok(t) => {
                tables.insert(key, Ok(t.clone()));
                t
            }
            Err(e) => {
                tables.insert(
                    key,
                    Err(TablebaseError::corrupt(&report.path, "see its own report")),
                );
                report.error = Some(e);
                reports.push(report);
                continue;
            }
        };
        let needed: Vec<Key> = match p {
            None => [Some(s), Some(s.flipped()), capture_target(s)]
                .into_iter()
                .flatten()
                .map(|s| (None, s))
                .collect(),
            Some(placed) => {
                let next = (placed as u32 + 1 < 2 * rules.pieces as u32).then_some(placed + 1);
                std::iter::once(key)
                    .chain(
                        successor_subspaces(rules, placed as u32)
                            .into_iter()
                            .map(|s| (next, s)),
                    )
                    .collect()
            }
        };
        decoded.retain(|k, _| needed.contains(k));
        let mut arrays = Vec::new();
        for &n in &needed {
            if let Some(v) = decoded.get(&n) {
                arrays.push((n, v.clone()));
                continue;
            }
            let v = match tables.get(&n) {
                None => Err(TablebaseError::MissingSubspace {
                    subspace: n.1,
                    path: any_table_path(dir, rules, n.0, n.1),
                }),
                Some(Err(_)) => Err(TablebaseError::corrupt(
                    &any_table_path(dir, rules, n.0, n.1),
                    format!("successor table of {s} is damaged"),
                )),
                Some(Ok(t)) => t.decode_values().map(Arc::new),
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
        if report.error.is_none() {
            match table.decode_wdl() {
                Ok(wdl) => {
                    check_subspace(rules, &arrays, &wdl, &mut report, &done, total, progress)
                }
                Err(e) => report.error = Some(e),
            }
        }
        reports.push(report);
    }
    Ok(VerifyReport {
        rules: *rules,
        subspaces: reports,
    })
}

/// The placing tables in the rule set's directory, as (layer, subspace).
fn list_placing_tables(dir: &Path, rules: &RuleSet) -> Result<Vec<(u8, Subspace)>, TablebaseError> {
    let rdir = rules_dir(dir, rules);
    let entries = match std::fs::read_dir(&rdir) {
        Ok(e) => e,
        Err(e) => return Err(TablebaseError::io(&rdir, e)),
    };
    let mut out = Vec::new();
    for e in entries {
        let e = e.map_err(|e| TablebaseError::io(&rdir, e))?;
        if let Some(t) = e.file_name().to_str().and_then(parse_placing_file_name) {
            out.push(t);
        }
    }
    Ok(out)
}

/// Where captures from subspace `s` lead, unless every capture ends the game.
fn capture_target(s: Subspace) -> Option<Subspace> {
    (s.opponent > 3).then(|| Subspace::new(s.opponent - 1, s.mover))
}

#[allow(clippy::too_many_arguments)]
fn check_subspace(
    rules: &RuleSet,
    arrays: &[(Key, Arc<Vec<Packed>>)],
    wdl: &[tigadi_solve::Wdl],
    report: &mut SubspaceReport,
    done: &AtomicU64,
    total: u64,
    progress: &(dyn Fn(u64, u64) + Sync),
) {
    let lookups: Vec<(Subspace, SubspaceIndex, &[Packed])> = arrays
        .iter()
        .map(|(n, v)| (n.1, SubspaceIndex::new(n.1), &v[..]))
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
            // Own layer first in `lookups`, then the successors' (the placing
            // layer after this one has its own subspaces, so look past the first).
            let lookup = |b: Board, skip: usize| {
                let sub = Subspace::of(b);
                let (_, index, values) = lookups[skip..]
                    .iter()
                    .find(|l| l.0 == sub)
                    .expect("successors stay in the loaded subspaces");
                values[index.index(b) as usize]
                    .get()
                    .expect("decode_values rejects NONE")
            };
            let recomputed = match report.placing {
                None => evaluate(rules, board, |b| lookup(b, 0)),
                Some(placed) => evaluate_placing(rules, placed as u32, board, |b| lookup(b, 1)),
            };
            let wdl_bad = wdl[slot as usize] != stored.wdl();
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
