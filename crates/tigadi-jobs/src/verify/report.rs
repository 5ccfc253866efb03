//! What `verify` reports: one [`SubspaceReport`] per table, the check of
//! `SHA256SUMS`, and the whole run's [`VerifyReport`].

use std::path::PathBuf;
use tigadi_rules::{Board, RuleSet};
use tigadi_solve::Value;
use tigadi_tablebase::{TableId, TableKind, TablebaseError};
use tigadi_values::Tier;

/// How many mismatching positions a report lists per table (all are counted).
pub const MAX_EXAMPLES: usize = 20;

/// A position whose stored value differs from the value recomputed from its
/// successors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The slot in its table.
    pub slot: u64,
    /// The canonical board of the slot.
    pub board: Board,
    /// The value in the second section (DTC, DTC₁₀₀ or DTW).
    pub stored: Value,
    /// The value recomputed from the stored values of its successors.
    pub recomputed: Value,
    /// `false`: `stored != recomputed`; `true`: the first section disagrees with
    /// `stored` here ([`TableKind::first_section_check`] says against what).
    pub wdl_section: bool,
}

/// The outcome of verifying one table: one kind of values of one tier.
#[derive(Debug)]
pub struct SubspaceReport {
    /// The tier of the table: its hands (both empty for a moving-phase table)
    /// and its board subspace.
    pub tier: Tier,
    /// Which of its tables: game-theoretic values, values under the 100-turn
    /// rule, or depth to win.
    pub kind: TableKind,
    /// Its file.
    pub path: PathBuf,
    /// Positions (canonical classes) recomputed.
    pub checked: u64,
    /// Positions whose value did not match (both sections counted).
    pub mismatches: u64,
    /// The mismatches of the lowest slots (at most [`MAX_EXAMPLES`]), in slot
    /// order (a slot's second section before its first): the same whatever
    /// the threads and the order the check visits the slots in.
    pub examples: Vec<Mismatch>,
    /// A checksum or structure failure of this file, or a table its check reads
    /// that is missing or damaged; when set, values were not (all) recomputed.
    pub error: Option<TablebaseError>,
    /// The file names of tables its check reads (its successors' tables, and
    /// the game-theoretic table of its tier) that failed in this run before it
    /// was settled: a mismatch here may be theirs, not this table's.
    pub culprits: Vec<String>,
    /// Passed in an earlier run, and no file its check reads has changed since:
    /// not recomputed this time (`checked` is that run's count).
    pub earlier: bool,
    /// A horizon table settled by its game-theoretic table, which passed (see
    /// `verify::passes::horizon_follows_from_game` for a tier with moves
    /// inside, `verify::leaving` for one whose moves all leave it).
    pub from_game: bool,
}

impl SubspaceReport {
    /// A report on table `id` at `path` with nothing found yet.
    pub(super) fn new(id: TableId, path: PathBuf) -> SubspaceReport {
        SubspaceReport {
            tier: id.tier,
            kind: id.kind,
            path,
            checked: 0,
            mismatches: 0,
            examples: Vec::new(),
            error: None,
            culprits: Vec::new(),
            earlier: false,
            from_game: false,
        }
    }

    /// The table reported on.
    pub fn id(&self) -> TableId {
        TableId::new(self.kind, self.tier)
    }

    /// The table's name as its file's, without the extension: `4v3` for a
    /// moving-phase table, `p5-2v3` for one after 5 placements.
    pub fn name(&self) -> String {
        self.path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.tier.to_string())
    }

    /// Did this table pass every check?
    pub fn is_ok(&self) -> bool {
        self.error.is_none() && self.mismatches == 0
    }
}

/// The outcome of [`verify`](super::verify): one report per table file, in
/// verification order.
#[derive(Debug)]
pub struct VerifyReport {
    /// The rule set verified.
    pub rules: RuleSet,
    /// One entry per table file found.
    pub subspaces: Vec<SubspaceReport>,
    /// The check of `SHA256SUMS`, when the directory has one (a table whose
    /// SHA-256 differs from its line fails in its own report).
    pub sums: Option<SumsReport>,
    /// The tier before which the run stopped on request
    /// ([`VerifyObserver::stop_requested`](super::VerifyObserver::stop_requested)):
    /// its tables and those after it were not checked and are not in
    /// `subspaces`. `None` when every table was.
    pub stopped_before: Option<Tier>,
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
    /// Did every table pass every check? Not when the run stopped before the
    /// end ([`stopped_before`](Self::stopped_before)).
    pub fn is_ok(&self) -> bool {
        self.stopped_before.is_none()
            && self.subspaces.iter().all(SubspaceReport::is_ok)
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
