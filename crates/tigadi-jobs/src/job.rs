//! The resumable solve: solves a list of pairs in dependency order into a
//! tablebase directory, one pair at a time, writing each pair's files (and the
//! manifest) on a thread of their own as soon as it is solved, while the next
//! pair is solved (which takes its capture targets from the pair before it from
//! memory, not from the files being written). Pairs whose files are already present and
//! valid are not solved again, so a run that was stopped, however it stopped,
//! resumes where it was and ends with the same bytes. The `tigadi solve` command,
//! a server or a binding all run this one loop; they only choose the pairs and
//! how to show progress ([`JobObserver`]).
//!
//! The job holds the directory's [`DirLock`](tigadi_tablebase::DirLock) while it runs, so a second job into
//! the same directory is refused, and it removes only temporary files whose
//! writer is gone.

use crate::placing_job::finish_writing;
use rayon::prelude::*;
use std::fmt;
use std::path::Path;
use std::time::Instant;
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::RuleSet;
use tigadi_solve::{
    solve_pair, solve_pair_dtw, solve_pair_horizon_from_game, Observer, Packed, Pair, SolveError,
    SolvedSubspace, SolvedTable, Value,
};
use tigadi_tablebase::{
    field, mark_padding, PendingWrite, TableId, TableKind, TablebaseDir, TablebaseError,
};

/// What a pair's solve produced, as reported to [`JobObserver::solved`].
#[derive(Clone, Debug, PartialEq)]
pub struct PairReport {
    /// The pair.
    pub pair: Pair,
    /// Slots of its one or two subspaces (classes plus padding).
    pub slots: u64,
    /// Wall-clock seconds of the solve (not counting the writing).
    pub seconds: f64,
    /// Rounds of retrograde analysis.
    pub rounds: u32,
    /// Classes won for the player to move, over both subspaces.
    pub wins: u64,
    /// Drawn classes.
    pub draws: u64,
    /// Classes lost for the player to move.
    pub losses: u64,
}

/// What a pair's pass under the 100-turn rule produced, as reported to
/// [`JobObserver::horizon_solved`]: counts over the pair's classes at counter 0.
#[derive(Clone, Debug, PartialEq)]
pub struct HorizonReport {
    /// The pair.
    pub pair: Pair,
    /// Wall-clock seconds of the whole pair, writing its tables included.
    pub seconds: f64,
    /// Wall-clock seconds until its values were found (reading the tables
    /// included, writing not: what [`PairReport::seconds`] measures).
    pub found_seconds: f64,
    /// Rounds the horizon pass runs (at most the turn limit, plus the one that
    /// finds nothing).
    pub rounds: u32,
    /// Classes per category, indexed by [`tigadi_solve::Category::code`]: loss, blessed loss,
    /// draw, cursed win, win.
    pub categories: [u64; 5],
}

/// What a pair's DTW pass produced, as reported to [`JobObserver::dtw_solved`].
#[derive(Clone, Debug, PartialEq)]
pub struct DtwReport {
    /// The pair.
    pub pair: Pair,
    /// Wall-clock seconds of the pass and its writing.
    pub seconds: f64,
    /// Levels settled (distinct depths).
    pub levels: u32,
    /// The longest DTW of a won position of the pair (0 if none).
    pub longest_win: u16,
    /// The longest DTW of a lost position of the pair (0 if none).
    pub longest_loss: u16,
}

/// What a [`solve_pairs`] run has to say as it goes. Every method has a no-op
/// default; the solver's own phase reports arrive through [`Observer`].
/// Methods are called from the thread that runs the job.
pub trait JobObserver: Observer {
    /// Before the first pair: how many pairs are still to solve and their slots
    /// in all (pairs already solved are not counted).
    fn planned(&self, _pairs: usize, _slots: u64) {}
    /// A pair whose files are present and valid: it is not solved again.
    fn skipped(&self, _pair: Pair) {}
    /// A pair's solve begins (its capture targets are read first).
    fn started(&self, _pair: Pair, _slots: u64) {}
    /// A pair's files and the manifest are written.
    fn solved(&self, _report: &PairReport) {}
    /// A pair's pass under the 100-turn rule begins.
    fn horizon_started(&self, _pair: Pair, _slots: u64) {}
    /// A pair's horizon tables are written.
    fn horizon_solved(&self, _report: &HorizonReport) {}
    /// A pair's DTW pass begins.
    fn dtw_started(&self, _pair: Pair, _slots: u64) {}
    /// A pair's DTW tables are written.
    fn dtw_solved(&self, _report: &DtwReport) {}
    /// Something worth saying that does not stop the run.
    fn warning(&self, _message: &str) {}
}

/// Why a job stopped.
#[derive(Debug)]
pub enum JobError {
    /// Reading, writing or locking files failed.
    Tablebase(TablebaseError),
    /// The solver refused a pair.
    Solve(Pair, SolveError),
    /// The solver refused a subspace of a placing layer.
    Placing(u8, Subspace, SolveError),
}

impl fmt::Display for JobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JobError::Tablebase(e) => e.fmt(f),
            JobError::Solve(pair, e) => write!(f, "solving {pair}: {e}"),
            JobError::Placing(placed, sub, e) => {
                write!(f, "solving placing layer {placed} {sub}: {e}")
            }
        }
    }
}

impl std::error::Error for JobError {}

impl From<TablebaseError> for JobError {
    fn from(e: TablebaseError) -> JobError {
        JobError::Tablebase(e)
    }
}

/// Solves `pairs` (in dependency order: every pair after the pairs its captures
/// lead into, as [`tigadi_solve::pairs_up_to`] and [`tigadi_solve::pairs_for`]
/// give them) under `rules` into tablebase directory `dir`, skipping pairs already
/// solved there. Capture targets are read from `dir`, so they must be solved
/// there already or be in `pairs` before the pair that needs them.
///
/// `derived` are the other kinds of table to compute from the values
/// ([`TableKind::Horizon`]: values under the 100-turn rule; [`TableKind::Dtw`]:
/// depth to win): each pair's are computed right after its game-theoretic values,
/// in the order given, and skipped in the same way when present; so a directory of
/// game-theoretic tables alone gets them without being solved again.
///
/// Runs on the current rayon pool (use `ThreadPool::install` to choose the thread
/// count; the files do not depend on it). Holds the directory's [`DirLock`](tigadi_tablebase::DirLock)
/// throughout.
pub fn solve_pairs<O: JobObserver>(
    dir: &Path,
    rules: &RuleSet,
    pairs: &[Pair],
    derived: &[TableKind],
    observer: &O,
) -> Result<(), JobError> {
    let tables = TablebaseDir::new(dir, rules);
    let _lock = tables.lock()?;
    // Written at the levels the directory was started with.
    let tables = tables.with_recorded_levels();
    for name in tables.remove_stale_temporaries() {
        observer.warning(&format!(
            "removed {name}, left half-written by a stopped run"
        ));
    }
    let slots = |p: Pair| -> u64 {
        p.subspaces()
            .iter()
            .map(|&s| SubspaceIndex::new(s).slots())
            .sum()
    };
    let solved = |kind: TableKind, p: Pair| {
        p.subspaces()
            .iter()
            .all(|&s| tables.is_solved(TableId::moving(kind, s)))
    };
    let todo: Vec<bool> = pairs
        .iter()
        .map(|&p| !solved(TableKind::GameTheoretic, p))
        .collect();
    let todo_slots = pairs
        .iter()
        .zip(&todo)
        .filter(|(_, &t)| t)
        .map(|(&p, _)| slots(p))
        .sum();
    observer.planned(todo.iter().filter(|&&t| t).count(), todo_slots);
    // The pair solved last: its tables being stored and listed on a thread of
    // their own while the next pair is solved, and its values, which the next
    // pair reads instead of the files where they are its capture targets.
    let mut last: Option<Stored> = None;
    for (&pair, todo) in pairs.iter().zip(todo) {
        if !todo {
            observer.skipped(pair);
        } else {
            observer.started(pair, slots(pair));
            let (report, stored) = solve_one(&tables, pair, last.take(), observer)?;
            last = Some(stored);
            observer.solved(&report);
        }
        if derived.iter().any(|&kind| !solved(kind, pair)) {
            // The other kinds read the pair's files.
            Stored::finish(&mut last)?;
        }
        for &kind in derived {
            if solved(kind, pair) {
                continue;
            }
            match kind {
                TableKind::GameTheoretic => {}
                TableKind::Horizon => {
                    observer.horizon_started(pair, slots(pair));
                    let report = solve_one_horizon(&tables, pair, observer)?;
                    observer.horizon_solved(&report);
                }
                TableKind::Dtw => {
                    observer.dtw_started(pair, slots(pair));
                    let report = solve_one_dtw(&tables, pair, observer)?;
                    observer.dtw_solved(&report);
                }
            }
        }
    }
    Stored::finish(&mut last)?;
    // Every table this run wrote is listed already: this adds only what an
    // interrupted run wrote and did not list.
    let manifest = tables.update_manifest(&[], &[])?;
    for s in &manifest.skipped {
        observer.warning(&format!("left out of the manifest: {s}"));
    }
    Ok(())
}

/// A solved pair's game-theoretic tables, stored and then listed in the manifest
/// (with the pair's solve time) on a thread of their own, and its values.
struct Stored {
    /// The storing and listing; dropping it waits for it, so a job that stops
    /// for another reason still finishes (or removes) the files before it
    /// releases the directory's lock.
    listing: PendingWrite,
    /// The pair's values, one per slot of each subspace ([`Packed::NONE`] in
    /// padding, which no capture reads).
    values: Vec<(Subspace, Vec<Packed>)>,
}

impl Stored {
    /// Stores the pair's `solved` values as game-theoretic tables: compressed on
    /// the caller's pool, then written, synced and listed with `seconds` on a
    /// thread of its own.
    fn start(
        tables: &TablebaseDir,
        solved: Vec<SolvedSubspace>,
        seconds: f64,
    ) -> Result<Stored, TablebaseError> {
        let id = |s: Subspace| TableId::moving(TableKind::GameTheoretic, s);
        let mut writes = Vec::new();
        for s in &solved {
            writes.push(tables.write_values_in_background(id(s.subspace), &s.values)?);
        }
        // After every pair, so a run stopped later loses no solve times.
        let times: Vec<_> = solved.iter().map(|s| (s.subspace, seconds)).collect();
        let written: Vec<TableId> = solved.iter().map(|s| id(s.subspace)).collect();
        let dir = tables.clone();
        let listing = PendingWrite::spawn("list pair".into(), tables.path(), move || {
            for w in writes {
                w.wait()?;
            }
            dir.update_manifest(&written, &times)?;
            Ok(dir.path().to_path_buf())
        })?;
        Ok(Stored {
            listing,
            values: solved.into_iter().map(|s| (s.subspace, s.values)).collect(),
        })
    }

    /// Waits for the last pair's tables to be written and listed, if any, and
    /// says how that went.
    fn finish(last: &mut Option<Stored>) -> Result<(), TablebaseError> {
        finish_writing(&mut last.take().map(|s| s.listing))
    }
}

/// The tables of kind `kind` of `pair`'s capture targets.
fn load_targets(
    tables: &TablebaseDir,
    kind: TableKind,
    pair: Pair,
) -> Result<Vec<(Subspace, Vec<Packed>)>, TablebaseError> {
    load_moving(tables, kind, pair.capture_targets())
}

/// The moving-phase tables of kind `kind` of `subspaces`, in their order.
fn load_moving(
    tables: &TablebaseDir,
    kind: TableKind,
    subspaces: Vec<Subspace>,
) -> Result<Vec<(Subspace, Vec<Packed>)>, TablebaseError> {
    subspaces
        .into_iter()
        .map(|s| tables.load(TableId::moving(kind, s)).map(|v| (s, v)))
        .collect()
}

/// The solver's view of loaded target tables.
fn as_tables(targets: &[(Subspace, Vec<Packed>)]) -> Vec<SolvedTable<'_>> {
    SolvedTable::views(targets.iter().map(|(s, v)| (s, v)))
}

/// Solves one pair and starts storing its files and listing them in the
/// manifest. `last` is the pair solved before it, if any: its values are read in
/// place of its files where they are this pair's capture targets, and its
/// storing is waited for before this pair's begins (so one pair's files are
/// being written at a time).
fn solve_one<O: JobObserver>(
    tables: &TablebaseDir,
    pair: Pair,
    mut last: Option<Stored>,
    observer: &O,
) -> Result<(PairReport, Stored), JobError> {
    let t0 = Instant::now();
    let mut kept = last.as_mut().map(|l| std::mem::take(&mut l.values));
    let mut targets = Vec::new();
    for s in pair.capture_targets() {
        let held = kept.as_mut().and_then(|k| {
            k.iter()
                .position(|(t, _)| *t == s)
                .map(|i| k.swap_remove(i))
        });
        targets.push(match held {
            Some(t) => t,
            None => (
                s,
                tables.load(TableId::moving(TableKind::GameTheoretic, s))?,
            ),
        });
    }
    drop(kept);
    let solved = solve_pair(tables.rules(), pair, &as_tables(&targets), observer)
        .map_err(|e| JobError::Solve(pair, e))?;
    drop(targets);
    let seconds = t0.elapsed().as_secs_f64();
    Stored::finish(&mut last)?;
    // Wins, draws and losses, counted in parallel.
    fn add(a: [u64; 3], b: [u64; 3]) -> [u64; 3] {
        [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
    }
    let [wins, draws, losses] = solved
        .iter()
        .map(|s| {
            s.values
                .par_iter()
                .map(|v| match v.get() {
                    Some(Value::Win(_)) => [1, 0, 0],
                    Some(Value::Draw) => [0, 1, 0],
                    Some(Value::Loss(_)) => [0, 0, 1],
                    None => [0, 0, 0],
                })
                .reduce(|| [0; 3], add)
        })
        .fold([0; 3], add);
    let report = PairReport {
        pair,
        slots: solved.iter().map(|s| s.values.len() as u64).sum(),
        seconds,
        rounds: solved[0].rounds,
        wins,
        draws,
        losses,
    };
    let stored = Stored::start(tables, solved, seconds)?;
    Ok((report, stored))
}

/// Finds the values under the 100-turn rule of `pair` and writes its horizon
/// tables: from the pair's game-theoretic tables and its capture targets' two
/// kinds of table ([`solve_pair_horizon_from_game`]: the game values with the
/// DTCs above the limit made draws, then only the positions whose value the
/// rule may change recomputed; the same tables as the horizon pass's). Writing
/// a horizon table reads its game-theoretic table again, for the categories.
/// Memory: the pair's values and its targets' two tables (2 bytes a slot
/// each).
fn solve_one_horizon<O: JobObserver>(
    tables: &TablebaseDir,
    pair: Pair,
    observer: &O,
) -> Result<HorizonReport, JobError> {
    let t0 = Instant::now();
    let rules = tables.rules();
    let rule_targets = load_targets(tables, TableKind::Horizon, pair)?;
    let game_targets = load_targets(tables, TableKind::GameTheoretic, pair)?;
    let mut own = load_moving(tables, TableKind::GameTheoretic, pair.subspaces())?;
    for (s, v) in &mut own {
        mark_padding(*s, v);
    }
    let found = solve_pair_horizon_from_game(
        rules,
        pair,
        own.into_iter().map(|(_, v)| v).collect(),
        game_targets,
        &as_tables(&rule_targets),
        observer,
    )
    .map_err(|e| JobError::Solve(pair, e))?;
    drop(rule_targets);
    let found_seconds = t0.elapsed().as_secs_f64();
    let rounds = found[0].rounds;
    let solved: Vec<(Subspace, Vec<Packed>)> =
        found.into_iter().map(|s| (s.subspace, s.values)).collect();
    let mut categories = [0u64; 5];
    let mut written = Vec::new();
    for (subspace, values) in &solved {
        let id = TableId::moving(TableKind::Horizon, *subspace);
        tables.write_values(id, values)?;
        // The classes as written (padding slots hold fillers: the pass marks them).
        let classes = tables.open(id)?.decode::<field::Category>()?;
        for (c, h) in classes.iter().zip(values) {
            if h.is_some() {
                categories[c.code() as usize] += 1;
            }
        }
        written.push(id);
    }
    // SHA256SUMS lists the horizon tables too.
    tables.update_manifest(&written, &[])?;
    Ok(HorizonReport {
        pair,
        seconds: t0.elapsed().as_secs_f64(),
        found_seconds,
        rounds,
        categories,
    })
}

/// Computes the DTW of every position of `pair` and writes its DTW tables. Reads
/// the capture targets' DTW tables and the pair's own game-theoretic tables.
/// Memory: the pass's 4 bytes per slot of the pair and 2 for its result, besides
/// the pair's values and the targets (2 bytes a slot each).
fn solve_one_dtw<O: JobObserver>(
    tables: &TablebaseDir,
    pair: Pair,
    observer: &O,
) -> Result<DtwReport, JobError> {
    let t0 = Instant::now();
    let targets = load_targets(tables, TableKind::Dtw, pair)?;
    let mut own = load_moving(tables, TableKind::GameTheoretic, pair.subspaces())?;
    // As the solver left them: no value in padding, so none in the DTW tables'.
    for (s, values) in &mut own {
        mark_padding(*s, values);
    }
    let solved = solve_pair_dtw(
        tables.rules(),
        pair,
        &as_tables(&own),
        &as_tables(&targets),
        observer,
    )
    .map_err(|e| JobError::Solve(pair, e))?;
    drop((targets, own));
    let mut report = DtwReport {
        pair,
        seconds: 0.0,
        levels: solved[0].rounds,
        longest_win: 0,
        longest_loss: 0,
    };
    let mut written = Vec::new();
    for s in &solved {
        let id = TableId::moving(TableKind::Dtw, s.subspace);
        tables.write_values(id, &s.values)?;
        for v in &s.values {
            match v.get() {
                Some(Value::Win(d)) => report.longest_win = report.longest_win.max(d),
                Some(Value::Loss(d)) => report.longest_loss = report.longest_loss.max(d),
                _ => {}
            }
        }
        written.push(id);
    }
    tables.update_manifest(&written, &[])?;
    report.seconds = t0.elapsed().as_secs_f64();
    Ok(report)
}
