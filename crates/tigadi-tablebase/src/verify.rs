//! The consistency scan: check every checksum of every table of a rule set, then
//! recompute every stored value from its successors' stored values and report
//! the positions where they differ.

use crate::error::TablebaseError;
use crate::format::{file_name, list_subspaces, parse_file_name, rules_dir, table_path};
use crate::manifest::{sha256_file, SHA256SUMS};
use crate::reader::table::{open_table, Table};
use crate::writer::write_atomically;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::{Board, RuleSet};
use tigadi_solve::{evaluate, Packed, Value};

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
    /// Passed in an earlier run, and no file its check reads has changed since:
    /// not recomputed this time (`checked` is that run's count).
    pub earlier: bool,
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

/// Verifies every table of rule set `rules` in tablebase directory `dir`:
/// the head, block and whole-file checksums of every file, agreement of the WDL
/// and DTC sections, and `evaluate(board) == stored(board)` for every position
/// (every non-padding slot). `progress(done, total)` is called from worker threads
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
    let mut subs = list_subspaces(dir, rules)?;
    let rdir = rules_dir(dir, rules);
    if subs.is_empty() {
        let e = std::io::Error::new(std::io::ErrorKind::NotFound, "no tablebase files here");
        return Err(TablebaseError::io(&rdir, e));
    }
    // A table and its flipped twin next to each other; smaller totals first.
    subs.sort_by_key(|s| (s.mover + s.opponent, s.mover.min(s.opponent), s.mover));
    let listed = read_sums(&rdir);

    // Check every file's checksums first; only good files are used as successors.
    let mut tables: HashMap<Subspace, Result<Arc<Table>, TablebaseError>> = HashMap::new();
    let mut sha: HashMap<Subspace, String> = HashMap::new();
    let mut total = 0u64;
    for &s in &subs {
        let t = open_table(dir, rules, s).and_then(|t| {
            t.check_file_checksum()?;
            if SubspaceIndex::new(s).slots() != t.header().slots {
                return Err(TablebaseError::corrupt(
                    t.path(),
                    "slot count differs from the index",
                ));
            }
            let hash = sha256_file(t.path())?;
            if let Ok(listed) = &listed {
                match listed.get(&file_name(s)) {
                    Some(h) if *h != hash => {
                        return Err(TablebaseError::corrupt(
                            t.path(),
                            format!("its SHA-256 {hash} differs from {h} in {SHA256SUMS}"),
                        ))
                    }
                    _ => {}
                }
            }
            sha.insert(s, hash);
            Ok(Arc::new(t))
        });
        if let Ok(t) = &t {
            total += t.header().slots;
        }
        tables.insert(s, t);
    }
    let sums = match listed {
        Ok(listed) => {
            let mut problems = Vec::new();
            for name in listed.keys() {
                if parse_file_name(name).is_none_or(|s| !subs.contains(&s)) {
                    problems.push(format!("{name} is listed but not here"));
                }
            }
            Some(SumsReport {
                listed: listed.len(),
                problems,
            })
        }
        Err(None) => None,
        Err(Some(problem)) => Some(SumsReport {
            listed: 0,
            problems: vec![problem],
        }),
    };
    observer.planned(subs.len(), total);

    let journal_path = rdir.join(JOURNAL);
    let mut journal = if resume {
        std::fs::read(&journal_path)
            .ok()
            .and_then(|b| serde_json::from_slice::<Journal>(&b).ok())
            .unwrap_or_default()
    } else {
        Journal::default()
    };
    let mut decoded: HashMap<Subspace, Arc<Vec<Packed>>> = HashMap::new();
    let mut reports = Vec::new();
    for &s in &subs {
        let mut report = SubspaceReport {
            subspace: s,
            path: table_path(dir, rules, s),
            checked: 0,
            mismatches: 0,
            examples: Vec::new(),
            error: None,
            earlier: false,
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
                observer.finished(&report);
                reports.push(report);
                continue;
            }
        };
        let mut needed: Vec<Subspace> = vec![s];
        for n in [Some(s.flipped()), capture_target(s)].into_iter().flatten() {
            if !needed.contains(&n) {
                needed.push(n);
            }
        }
        let name = file_name(s);
        let files: BTreeMap<String, String> = needed
            .iter()
            .filter_map(|n| sha.get(n).map(|h| (file_name(*n), h.clone())))
            .collect();
        observer.started(s, table.header().slots);
        if let Some(entry) = journal.passed.get(&name) {
            if resume && files.len() == needed.len() && entry.files == files {
                report.checked = entry.positions;
                report.earlier = true;
                observer.advance(table.header().slots);
                observer.finished(&report);
                reports.push(report);
                continue;
            }
        }
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
                    path: table_path(dir, rules, n),
                }),
                Some(Err(_)) => Err(TablebaseError::corrupt(
                    &table_path(dir, rules, n),
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
                Ok(wdl) => check_subspace(rules, &arrays, &wdl, &mut report, observer),
                Err(e) => report.error = Some(e),
            }
        }
        if resume {
            let passed = report.is_ok() && files.len() == needed.len();
            let changed = if passed {
                let entry = JournalEntry {
                    files,
                    positions: report.checked,
                };
                journal.passed.insert(name, entry);
                true
            } else {
                journal.passed.remove(&name).is_some()
            };
            if changed {
                // The journal only saves time: a directory that cannot take it
                // (read-only, full) is verified in full next time, nothing worse.
                let mut json = serde_json::to_string_pretty(&journal).expect("serialises");
                json.push('\n');
                let _ = write_atomically(&journal_path, json.as_bytes());
            }
        }
        observer.finished(&report);
        reports.push(report);
    }
    Ok(VerifyReport {
        rules: *rules,
        subspaces: reports,
        sums,
    })
}

/// `SHA256SUMS` of a rule set's directory as file name to hash: `Err(None)` when
/// there is none, `Err(Some(problem))` when it cannot be read or a line is not
/// `HASH  NAME` (the `sha256sum` format).
fn read_sums(rdir: &Path) -> Result<BTreeMap<String, String>, Option<String>> {
    let path = rdir.join(SHA256SUMS);
    if crate::reader::table::is_missing(&path) {
        return Err(None);
    }
    let text = crate::reader::table::open_regular_file(&path)
        .and_then(|mut f| {
            let mut t = String::new();
            std::io::Read::read_to_string(&mut f, &mut t)
                .map(|_| t)
                .map_err(|e| TablebaseError::io(&path, e))
        })
        .map_err(|e| Some(e.to_string()))?;
    let mut sums = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let parsed = line.split_once(' ').and_then(|(hash, name)| {
            let name = name.strip_prefix([' ', '*'])?;
            let hex = hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit());
            hex.then(|| (name.to_string(), hash.to_ascii_lowercase()))
        });
        match parsed {
            Some((name, hash)) => {
                sums.insert(name, hash);
            }
            None => return Err(Some(format!("{SHA256SUMS} line {} is malformed", i + 1))),
        }
    }
    Ok(sums)
}

/// Where captures from subspace `s` lead, unless every capture ends the game.
fn capture_target(s: Subspace) -> Option<Subspace> {
    (s.opponent > 3).then(|| Subspace::new(s.opponent - 1, s.mover))
}

fn check_subspace(
    rules: &RuleSet,
    arrays: &[(Subspace, Arc<Vec<Packed>>)],
    wdl: &[tigadi_solve::Wdl],
    report: &mut SubspaceReport,
    observer: &dyn VerifyObserver,
) {
    let lookups: Vec<(Subspace, SubspaceIndex, &[Packed])> = arrays
        .iter()
        .map(|(n, v)| (*n, SubspaceIndex::new(*n), &v[..]))
        .collect();
    let own = &lookups[0];
    // Quiet moves and passes lead into the flipped subspace, every one of them to a
    // board whose mover set is this board's opponent set: its mover-set part of the
    // slot is computed once per board (as the solver does).
    let quiet = lookups
        .iter()
        .find(|l| l.0 == own.0.flipped())
        .expect("the flipped subspace is loaded with its twin");
    let slots = own.2.len() as u64;
    let checked = AtomicU64::new(0);
    let mismatches = AtomicU64::new(0);
    let examples = Mutex::new(Vec::new());
    (0..slots.div_ceil(CHUNK)).into_par_iter().for_each(|c| {
        let (start, end) = (c * CHUNK, ((c + 1) * CHUNK).min(slots));
        let (mut n_checked, mut n_bad) = (0, 0);
        for (slot, board) in own.1.boards(start..end) {
            n_checked += 1;
            let stored = own.2[slot as usize]
                .get()
                .expect("decode_values rejects NONE");
            let class = quiet.1.mover_class(board.opponent);
            let recomputed = evaluate(rules, board, |b| {
                let value = if b.mover == board.opponent {
                    quiet.2[quiet.1.index_with(class, b.opponent) as usize]
                } else {
                    let (_, index, values) = lookups
                        .iter()
                        .find(|l| l.0 == Subspace::of(b))
                        .expect("successors stay in the loaded subspaces");
                    values[index.index(b) as usize]
                };
                value.get().expect("decode_values rejects NONE")
            });
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
        observer.advance(end - start);
    });
    report.checked = checked.into_inner();
    report.mismatches = mismatches.into_inner();
    let mut ex = examples.into_inner().unwrap_or_else(|p| p.into_inner());
    ex.sort_by_key(|m| m.slot);
    report.examples = ex;
}
