//! The file checks of `verify`, written once for every table whatever its
//! tier: the head, block and whole-file checksums, the slot count, the
//! SHA-256 against `SHA256SUMS`; the decoded values a step reads; and the
//! journal of passed tables (`verified.json`).

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::Arc;
use tigadi_index::SubspaceIndex;
use tigadi_solve::Packed;
use tigadi_tablebase::manifest::{sha256_file, SHA256SUMS};
use tigadi_tablebase::writer::write_atomically;
use tigadi_tablebase::{Table, TableId, TablebaseDir, TablebaseError};

use super::report::SumsReport;

/// What the file checks found for one table.
enum Verdict {
    /// Every check passed; its SHA-256.
    Good { sha: String },
    /// Its checksums and size are right, but its SHA-256 is not the one
    /// `SHA256SUMS` lists: its own check fails, its values may still be read
    /// by the checks of the tables that read it (which then name it).
    Unlisted,
    /// Missing, or its checksums or size are wrong: nothing reads it.
    Bad { missing: bool },
}

/// The tables of one verify run: each file checked once, on first need (a
/// table's own step, or the first step that reads it), and the decoded values
/// the current step reads.
pub(super) struct Tables<'a> {
    store: &'a TablebaseDir,
    /// `SHA256SUMS` as read (empty when there is none or it is unreadable).
    listed: BTreeMap<String, String>,
    checked: HashMap<TableId, Verdict>,
    /// Why a table failed its file checks, until its own report takes it.
    errors: HashMap<TableId, TablebaseError>,
    decoded: HashMap<TableId, Arc<Vec<Packed>>>,
}

impl<'a> Tables<'a> {
    /// The tables of `store`, checked against `listed` (`SHA256SUMS`).
    pub fn new(store: &'a TablebaseDir, listed: BTreeMap<String, String>) -> Tables<'a> {
        Tables {
            store,
            listed,
            checked: HashMap::new(),
            errors: HashMap::new(),
            decoded: HashMap::new(),
        }
    }

    /// The directory.
    pub fn store(&self) -> &'a TablebaseDir {
        self.store
    }

    /// Checks table `id`'s file once: opened (header and block tables), the
    /// whole-file checksum, the slot count against the index, the SHA-256
    /// against its `SHA256SUMS` line when it has one.
    fn check(&mut self, id: TableId) -> &Verdict {
        if !self.checked.contains_key(&id) {
            let (verdict, error) = match self.check_file(id) {
                Ok(sha) => (Verdict::Good { sha }, None),
                Err((verdict, e)) => (verdict, Some(e)),
            };
            if let Some(e) = error {
                self.errors.insert(id, e);
            }
            self.checked.insert(id, verdict);
        }
        &self.checked[&id]
    }

    fn check_file(&self, id: TableId) -> Result<String, (Verdict, TablebaseError)> {
        let bad = |e: TablebaseError| {
            let missing = matches!(e, TablebaseError::MissingSubspace { .. });
            (Verdict::Bad { missing }, e)
        };
        let table = self.store.open(id).map_err(bad)?;
        table.check_file_checksum().map_err(bad)?;
        if SubspaceIndex::new(id.tier.subspace).slots() != table.header().slots {
            let e = TablebaseError::corrupt(table.path(), "slot count differs from the index");
            return Err(bad(e));
        }
        let hash = sha256_file(table.path()).map_err(bad)?;
        match self.listed.get(&id.file_name(self.store.rules())) {
            Some(h) if *h != hash => Err((
                Verdict::Unlisted,
                TablebaseError::corrupt(
                    table.path(),
                    format!("its SHA-256 {hash} differs from {h} in {SHA256SUMS}"),
                ),
            )),
            _ => Ok(hash),
        }
    }

    /// Table `id` for its own check: opened when every file check passed, else
    /// why not (the first time; a placeholder after).
    pub fn own(&mut self, id: TableId) -> Result<Table, TablebaseError> {
        if let Verdict::Good { .. } = self.check(id) {
            return self.store.open(id);
        }
        Err(self.errors.remove(&id).unwrap_or_else(|| {
            TablebaseError::corrupt(&self.store.table_path(id), "failed its checks above")
        }))
    }

    /// Table `id` for the check of a table that reads it: opened when its
    /// checksums and size are right (a SHA-256 that differs from its listed one
    /// fails its own check only).
    pub fn readable(&mut self, id: TableId) -> Result<Table, TablebaseError> {
        let path = self.store.table_path(id);
        match self.check(id) {
            Verdict::Good { .. } | Verdict::Unlisted => self.store.open(id),
            Verdict::Bad { missing: true } => Err(TablebaseError::MissingSubspace {
                subspace: id.tier.subspace,
                path,
            }),
            Verdict::Bad { missing: false } => Err(TablebaseError::corrupt(
                &path,
                "a table this check reads is damaged (see its own report)",
            )),
        }
    }

    /// The values of table `id` (readable, [`Tables::readable`]), decoded once
    /// while the steps keep asking for them ([`Tables::keep_only`]).
    pub fn values(&mut self, id: TableId) -> Result<Arc<Vec<Packed>>, TablebaseError> {
        if let Some(v) = self.decoded.get(&id) {
            return Ok(v.clone());
        }
        let v = Arc::new(self.readable(id)?.values()?);
        self.decoded.insert(id, v.clone());
        Ok(v)
    }

    /// Forgets the decoded values of every table but `ids`.
    pub fn keep_only(&mut self, ids: &[TableId]) {
        self.decoded.retain(|id, _| ids.contains(id));
    }

    /// The SHA-256 of table `id` when it passed every file check (checking it
    /// if not done yet); `None` also for a table that is not there.
    pub fn sha(&mut self, id: TableId) -> Option<String> {
        match self.check(id) {
            Verdict::Good { sha } => Some(sha.clone()),
            _ => None,
        }
    }

    /// Did table `id`'s file checks fail (so far as it was checked)?
    pub fn failed(&self, id: TableId) -> bool {
        matches!(
            self.checked.get(&id),
            Some(Verdict::Unlisted | Verdict::Bad { .. })
        )
    }
}

/// The check of `SHA256SUMS` (`listed`, as read) against the tables a run
/// verifies: every listed name of a kind checked must be one of them (`here`).
pub(super) fn sums_report(
    listed: &Result<BTreeMap<String, String>, Option<String>>,
    checked_kind: impl Fn(&str) -> bool,
    here: impl Fn(&str) -> bool,
) -> Option<SumsReport> {
    match listed {
        Ok(listed) => {
            let names: Vec<&String> = listed.keys().filter(|n| checked_kind(n)).collect();
            let problems = names
                .iter()
                .filter(|n| !here(n))
                .map(|n| format!("{n} is listed but not here"))
                .collect();
            Some(SumsReport {
                listed: names.len(),
                problems,
            })
        }
        Err(None) => None,
        Err(Some(problem)) => Some(SumsReport {
            listed: 0,
            problems: vec![problem.clone()],
        }),
    }
}

/// File name of the journal of passed tables inside a rule set's directory.
pub const JOURNAL: &str = "verified.json";

/// `verified.json`: the tables that passed, each with the SHA-256 of every file
/// its check read (itself, the tables of its successor tiers, the game table of
/// its tier). A table is not recomputed again while all of those are unchanged.
#[derive(Debug, Default, Serialize, Deserialize)]
struct JournalFile {
    /// Passed tables by file name.
    passed: BTreeMap<String, JournalEntry>,
}

/// One passed table in [`JOURNAL`].
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct JournalEntry {
    /// SHA-256 of every file the check read, by file name.
    pub files: BTreeMap<String, String>,
    /// Positions recomputed.
    pub positions: u64,
}

/// The journal of passed tables as a verify run keeps it: read and written
/// only when resuming.
pub(super) struct Journal {
    path: PathBuf,
    resume: bool,
    file: JournalFile,
}

impl Journal {
    /// The journal of `store`'s directory; read when `resume`.
    pub fn open(store: &TablebaseDir, resume: bool) -> Journal {
        let path = store.path().join(JOURNAL);
        let file = if resume {
            std::fs::read(&path)
                .ok()
                .and_then(|b| serde_json::from_slice(&b).ok())
                .unwrap_or_default()
        } else {
            JournalFile::default()
        };
        Journal { path, resume, file }
    }

    /// The positions recorded for table `name` when resuming and it passed an
    /// earlier run with exactly these `files` (the hashes of every file its
    /// check reads; `complete` says that each of them has one).
    pub fn passed_earlier(
        &self,
        name: &str,
        files: &BTreeMap<String, String>,
        complete: bool,
    ) -> Option<u64> {
        let entry = self.file.passed.get(name)?;
        (self.resume && complete && entry.files == *files).then_some(entry.positions)
    }

    /// Records that table `name` passed (with the hashes of the files its check
    /// read) or did not, and saves the journal when that changed it.
    pub fn record(&mut self, name: String, passed: Option<JournalEntry>) {
        if !self.resume {
            return;
        }
        let changed = match passed {
            Some(entry) => {
                self.file.passed.insert(name, entry);
                true
            }
            None => self.file.passed.remove(&name).is_some(),
        };
        if changed {
            // The journal only saves time: a directory that cannot take it
            // (read-only, full) is verified in full next time, nothing worse.
            let mut json = serde_json::to_string_pretty(&self.file).expect("serialises");
            json.push('\n');
            let _ = write_atomically(&self.path, json.as_bytes());
        }
    }
}
