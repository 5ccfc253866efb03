//! A step of the one job ([`crate::solve`]) for a tier with moves inside it
//! (today a hands-empty tier, solved with its flipped tier as one [`Pair`]):
//! retrograde analysis by rounds for the game values, then the 100-turn values
//! and the depth to win from them, each kind in its own pass of the job; or,
//! for a Lasker step with gotis in hand, the game and 100-turn values in one
//! pass ([`solve_both`]).
//!
//! The game pass keeps the step solved last in memory ([`Stored`]): its tables
//! are written and listed on a thread of their own while the next step is
//! solved, which reads its values in place of the files where they are its
//! capture targets.

use crate::observer::{DtwReport, GameReport, HorizonReport, JobError, JobObserver};
use crate::writing::finish_writing;
use rayon::prelude::*;
use std::borrow::Cow;
use std::time::Instant;
use tigadi_index::Subspace;
use tigadi_rules::RuleSet;
use tigadi_solve::{
    exit_tiers, solve_pair, solve_pair_dtw, solve_pair_horizon_from_game, solve_step_in_hand,
    solve_step_in_hand_game_and_horizon, solve_step_in_hand_horizon_from_game, step_tiers, Metric,
    Packed, Pair, Rounds, SolveError, SolvedSubspace, SolvedTable, Value,
};
use tigadi_tablebase::{
    field, mark_padding, PendingWrite, TableId, TableKind, TablebaseDir, TablebaseError,
};
use tigadi_values::Tier;

/// A solved pair's game-theoretic tables, stored and then listed in the manifest
/// (with the pair's solve time) on a thread of their own, and its values.
pub(crate) struct Stored {
    /// The storing and listing; dropping it waits for it, so a job that stops
    /// for another reason still finishes (or removes) the files before it
    /// releases the directory's lock.
    listing: Option<PendingWrite>,
    /// The step's values, one per slot of each tier ([`Packed::NONE`] in
    /// padding, which no capture reads).
    values: Vec<(Tier, Vec<Packed>)>,
}

impl Stored {
    /// Stores the step's `solved` values, those of `tiers` in order, as
    /// game-theoretic tables: compressed on the caller's pool, then written,
    /// synced and listed with `seconds` on a thread of its own.
    fn start(
        tables: &TablebaseDir,
        tiers: &[Tier],
        solved: Vec<SolvedSubspace>,
        seconds: f64,
    ) -> Result<Stored, TablebaseError> {
        let id = |t: Tier| TableId::new(TableKind::GameTheoretic, t);
        let mut writes = Vec::new();
        for (&t, s) in tiers.iter().zip(&solved) {
            writes.push(tables.write_values_in_background(id(t), &s.values)?);
        }
        // After every pair, so a run stopped later loses no solve times (the
        // manifest keeps them by subspace: the moving pairs' only).
        let times: Vec<_> = tiers
            .iter()
            .filter(|t| t.is_moving())
            .map(|t| (t.subspace, seconds))
            .collect();
        let written: Vec<TableId> = tiers.iter().map(|&t| id(t)).collect();
        let dir = tables.clone();
        let listing = PendingWrite::spawn("list pair".into(), tables.path(), move || {
            for w in writes {
                w.wait()?;
            }
            dir.update_manifest(&written, &times)?;
            Ok(dir.path().to_path_buf())
        })?;
        Ok(Stored {
            listing: Some(listing),
            values: tiers
                .iter()
                .zip(solved)
                .map(|(&t, s)| (t, s.values))
                .collect(),
        })
    }

    /// Waits for the last pair's tables to be written and listed, if any, and
    /// says how that went.
    pub(crate) fn finish(last: &mut Option<Stored>) -> Result<(), TablebaseError> {
        finish_writing(&mut last.take().and_then(|s| s.listing))
    }
}

/// The game values of `pair`'s subspaces, in their order, as the solver left
/// them: no value in padding (so none in what is derived from them).
fn own_game_values(
    tables: &TablebaseDir,
    pair: Pair,
) -> Result<Vec<(Subspace, Vec<Packed>)>, TablebaseError> {
    let mut own = Loader::new(tables, TableKind::GameTheoretic).moving(pair.subspaces())?;
    for (s, values) in &mut own {
        mark_padding(*s, values);
    }
    Ok(own)
}

/// The solver's view of loaded target tables.
fn as_tables(targets: &[(Subspace, Vec<Packed>)]) -> Vec<SolvedTable<'_>> {
    SolvedTable::views(targets.iter().map(|(s, v)| (s, v)))
}

/// The tiers of the step `tier` heads, in the order of its tables: a moving
/// pair's subspaces ([`Pair::subspaces`]), or a step with gotis in hand
/// ([`step_tiers`]: the tier, and its flipped partner when they reach each
/// other).
pub(crate) fn tiers_of_step(rules: &RuleSet, tier: Tier) -> Vec<Tier> {
    if tier.is_moving() {
        Pair::of(tier.subspace)
            .subspaces()
            .into_iter()
            .map(Tier::moving)
            .collect()
    } else {
        step_tiers(rules, tier)
    }
}

/// A step's [`tigadi_solve::TableSource`] over the tablebase directory: each
/// table of `kind` loaded from its file when the solver asks for it, or taken
/// from `kept` (tables still in memory: the game pass's last step). A load
/// that fails is kept, for [`Loader::error`] to report as it is (the solver
/// sees a missing tier).
struct Loader<'d> {
    tables: &'d TablebaseDir,
    kind: TableKind,
    kept: Vec<(Tier, Vec<Packed>)>,
    failed: Option<TablebaseError>,
}

impl<'d> Loader<'d> {
    fn new(tables: &'d TablebaseDir, kind: TableKind) -> Self {
        Loader {
            tables,
            kind,
            kept: Vec::new(),
            failed: None,
        }
    }

    /// The table of `tier`: taken from the kept ones, or loaded.
    fn take(&mut self, tier: Tier) -> Result<Vec<Packed>, TablebaseError> {
        match self.kept.iter().position(|(t, _)| *t == tier) {
            Some(i) => Ok(self.kept.swap_remove(i).1),
            None => self.tables.load(TableId::new(self.kind, tier)),
        }
    }

    /// The hands-empty tables of `subspaces`, in their order, each as
    /// [`take`](Self::take) gives it.
    fn moving(
        &mut self,
        subspaces: Vec<Subspace>,
    ) -> Result<Vec<(Subspace, Vec<Packed>)>, TablebaseError> {
        subspaces
            .into_iter()
            .map(|s| self.take(Tier::moving(s)).map(|v| (s, v)))
            .collect()
    }

    /// [`take`](Self::take) as the solver asks: the error kept.
    fn source(&mut self, tier: Tier) -> Result<Cow<'static, [Packed]>, SolveError> {
        self.take(tier).map(Cow::Owned).map_err(|e| {
            self.failed = Some(e);
            SolveError::MissingTier(tier)
        })
    }

    /// [`error`](Self::error) of the step of `tier` that read two kinds of
    /// tables, from `game` and `rule`: the failed load's, either's.
    fn either_error(game: &mut Self, rule: &mut Self, tier: Tier, e: SolveError) -> JobError {
        match game.failed {
            Some(_) => game.error(tier, e),
            None => rule.error(tier, e),
        }
    }

    /// The job's error for the solver's `e` in the step of `tier`: the failed
    /// load's, if one failed.
    fn error(&mut self, tier: Tier, e: SolveError) -> JobError {
        match self.failed.take() {
            Some(failed) => failed.into(),
            None => JobError::Solve(tier, e),
        }
    }
}

/// Solves the game values of the step of `tier` and starts storing its files and
/// listing them in the manifest. `last` is the step solved before it, if any: its
/// values are read in place of its files where this step's moves lead into
/// them, and its storing is waited for before this step's begins (so one
/// step's files are being written at a time).
pub(crate) fn solve_game<O: JobObserver>(
    tables: &TablebaseDir,
    tier: Tier,
    mut last: Option<Stored>,
    observer: &O,
) -> Result<(GameReport, Stored), JobError> {
    let rules = tables.rules();
    let t0 = Instant::now();
    let mut loader = Loader::new(tables, TableKind::GameTheoretic);
    loader.kept = last
        .as_mut()
        .map(|l| std::mem::take(&mut l.values))
        .unwrap_or_default();
    let tiers = tiers_of_step(rules, tier);
    let solved = if tier.is_moving() {
        let pair = Pair::of(tier.subspace);
        let targets = loader.moving(pair.capture_targets())?;
        // The last step's other tables are not needed: freed before the solve.
        drop(loader);
        solve_pair(rules, pair, &as_tables(&targets), observer)
            .map_err(|e| JobError::Solve(tier, e))?
    } else {
        // The last step's tables that are exits stay until the solve asks
        // for them; the others are freed before it.
        let exits = exit_tiers(rules, &tiers);
        loader.kept.retain(|(t, _)| exits.contains(t));
        let metric = Metric::Dtc;
        let found = solve_step_in_hand(rules, metric, &tiers, &mut |t| loader.source(t), observer);
        found.map_err(|e| loader.error(tier, e))?
    };
    let seconds = t0.elapsed().as_secs_f64();
    Stored::finish(&mut last)?;
    let report = game_report(tier, &solved, seconds, false);
    let stored = Stored::start(tables, &tiers, solved, seconds)?;
    Ok((report, stored))
}

/// The report of a step's game values `solved`, found in `seconds`
/// (`with_horizon`: with its 100-turn values).
fn game_report(
    tier: Tier,
    solved: &[SolvedSubspace],
    seconds: f64,
    with_horizon: bool,
) -> GameReport {
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
    GameReport {
        tier,
        slots: solved.iter().map(|s| s.values.len() as u64).sum(),
        seconds,
        rounds: solved[0].rounds,
        wins,
        draws,
        losses,
        with_horizon,
    }
}

/// Finds the values under the 100-turn rule of the step of `tier` and writes its horizon
/// tables. A moving pair's from the pair's game-theoretic tables and its capture targets' two
/// kinds of table ([`solve_pair_horizon_from_game`]: the game values with the
/// DTCs above the limit made draws, then only the positions whose value the
/// rule may change recomputed; the same tables as the horizon pass's); a step
/// with gotis in hand under Lasker's rule by its rounds again, over its exit
/// tiers' horizon tables, its game draws draws from the start
/// ([`solve_step_in_hand_horizon_from_game`]). Writing
/// a horizon table reads its game-theoretic table again, for the categories.
/// Memory: the pair's values and its targets' two tables (2 bytes a slot
/// each); a step with gotis in hand, the rounds' 6 bytes a slot and one
/// phase's tables at a time ([`tigadi_solve::in_hand`]'s "Memory").
pub(crate) fn solve_horizon<O: JobObserver>(
    tables: &TablebaseDir,
    tier: Tier,
    observer: &O,
) -> Result<HorizonReport, JobError> {
    let t0 = Instant::now();
    let rules = tables.rules();
    let (solved, rounds) = if tier.is_moving() {
        solve_pair_horizon_job(tables, tier, observer)?
    } else {
        let tiers = tiers_of_step(rules, tier);
        let mut game = Loader::new(tables, TableKind::GameTheoretic);
        let mut rule = Loader::new(tables, TableKind::Horizon);
        let found = solve_step_in_hand_horizon_from_game(
            rules,
            &tiers,
            &mut |t| game.source(t),
            &mut |t| rule.source(t),
            observer,
            Rounds::Adaptive,
        );
        let found = found.map_err(|e| Loader::either_error(&mut game, &mut rule, tier, e))?;
        let rounds = found[0].rounds;
        let found = tiers.into_iter().zip(found).map(|(t, s)| (t, s.values));
        (found.collect(), rounds)
    };
    let found_seconds = t0.elapsed().as_secs_f64();
    write_horizon(tables, tier, &solved, rounds, t0, found_seconds, false)
}

/// Writes a step's 100-turn tables (`solved`, each tier's values) and lists
/// them in the manifest; reports them, `t0` being when the step started,
/// `found_seconds` the seconds to find them and `with_game` whether they were
/// found with the game values. Their tiers' game tables must be written: the
/// categories come from both.
fn write_horizon(
    tables: &TablebaseDir,
    tier: Tier,
    solved: &[(Tier, Vec<Packed>)],
    rounds: u32,
    t0: Instant,
    found_seconds: f64,
    with_game: bool,
) -> Result<HorizonReport, JobError> {
    let mut categories = [0u64; 5];
    let mut written = Vec::new();
    for (t, values) in solved {
        let id = TableId::new(TableKind::Horizon, *t);
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
        tier,
        slots: solved.iter().map(|(_, v)| v.len() as u64).sum(),
        seconds: t0.elapsed().as_secs_f64(),
        found_seconds,
        rounds,
        categories,
        with_game,
    })
}

/// Solves the game values and the 100-turn values of the step with gotis in
/// hand of `tier` together, from one initial pass
/// ([`solve_step_in_hand_game_and_horizon`]: the same tables as its game pass
/// and its 100-turn pass one after the other), and writes both. `last` is
/// the game pass's step solved before, as for [`solve_game`]; it is replaced
/// by this step's game values, their tables written (the 100-turn tables'
/// categories read them). Memory: 12 bytes a slot of the step and one part's
/// exit tables of both kinds ([`tigadi_solve::step_in_hand_bytes`]).
pub(crate) fn solve_both<O: JobObserver>(
    tables: &TablebaseDir,
    tier: Tier,
    last: &mut Option<Stored>,
    observer: &O,
) -> Result<(), JobError> {
    let rules = tables.rules();
    let t0 = Instant::now();
    let tiers = tiers_of_step(rules, tier);
    let exits = exit_tiers(rules, &tiers);
    let mut game = Loader::new(tables, TableKind::GameTheoretic);
    game.kept = last
        .as_mut()
        .map(|l| std::mem::take(&mut l.values))
        .unwrap_or_default();
    game.kept.retain(|(t, _)| exits.contains(t));
    let mut rule = Loader::new(tables, TableKind::Horizon);
    let found = solve_step_in_hand_game_and_horizon(
        rules,
        &tiers,
        &mut |t| game.source(t),
        &mut |t| rule.source(t),
        observer,
        Rounds::Adaptive,
    );
    let (solved, found) = found.map_err(|e| Loader::either_error(&mut game, &mut rule, tier, e))?;
    let found_seconds = t0.elapsed().as_secs_f64();
    Stored::finish(last)?;
    observer.solved(&game_report(tier, &solved, found_seconds, true));
    let mut stored = Some(Stored::start(tables, &tiers, solved, found_seconds)?);
    let values = stored.as_mut().map(|s| std::mem::take(&mut s.values));
    Stored::finish(&mut stored)?;
    let rounds = found[0].rounds;
    let found: Vec<(Tier, Vec<Packed>)> = tiers
        .into_iter()
        .zip(found.into_iter().map(|s| s.values))
        .collect();
    let report = write_horizon(tables, tier, &found, rounds, t0, found_seconds, true)?;
    observer.horizon_solved(&report);
    *last = values.map(|values| Stored {
        listing: None,
        values,
    });
    Ok(())
}

/// The DTC₁₀₀ values of the moving pair of `tier`, from its game values
/// ([`solve_pair_horizon_from_game`]), and the rounds the pass would run.
#[allow(clippy::type_complexity)]
fn solve_pair_horizon_job<O: JobObserver>(
    tables: &TablebaseDir,
    tier: Tier,
    observer: &O,
) -> Result<(Vec<(Tier, Vec<Packed>)>, u32), JobError> {
    let pair = Pair::of(tier.subspace);
    let rules = tables.rules();
    let targets = |kind| Loader::new(tables, kind).moving(pair.capture_targets());
    let rule_targets = targets(TableKind::Horizon)?;
    let game_targets = targets(TableKind::GameTheoretic)?;
    let own = own_game_values(tables, pair)?;
    let found = solve_pair_horizon_from_game(
        rules,
        pair,
        own.into_iter().map(|(_, v)| v).collect(),
        game_targets,
        &as_tables(&rule_targets),
        observer,
    )
    .map_err(|e| JobError::Solve(tier, e))?;
    let rounds = found[0].rounds;
    let found = found
        .into_iter()
        .map(|s| (Tier::moving(s.subspace), s.values));
    Ok((found.collect(), rounds))
}

/// Computes the DTW of every position of the pair of `tier` and writes its DTW tables. Reads
/// the capture targets' DTW tables and the pair's own game-theoretic tables.
/// Memory: the pass's 4 bytes per slot of the pair and 2 for its result, besides
/// the pair's values and the targets (2 bytes a slot each).
pub(crate) fn solve_dtw<O: JobObserver>(
    tables: &TablebaseDir,
    tier: Tier,
    observer: &O,
) -> Result<DtwReport, JobError> {
    let t0 = Instant::now();
    let rules = tables.rules();
    let tiers = tiers_of_step(rules, tier);
    let solved = if tier.is_moving() {
        let pair = Pair::of(tier.subspace);
        let targets = Loader::new(tables, TableKind::Dtw).moving(pair.capture_targets())?;
        let own = own_game_values(tables, pair)?;
        solve_pair_dtw(
            rules,
            pair,
            &as_tables(&own),
            &as_tables(&targets),
            observer,
        )
        .map_err(|e| JobError::Solve(tier, e))?
    } else {
        // Under Lasker's rule: the rounds again, over the exits' DTW tables.
        let mut exits = Loader::new(tables, TableKind::Dtw);
        let found = solve_step_in_hand(
            rules,
            Metric::Dtw,
            &tiers,
            &mut |t| exits.source(t),
            observer,
        );
        found.map_err(|e| exits.error(tier, e))?
    };
    let mut report = DtwReport {
        tier,
        slots: solved.iter().map(|s| s.values.len() as u64).sum(),
        seconds: 0.0,
        levels: solved[0].rounds,
        longest_win: 0,
        longest_loss: 0,
    };
    let mut written = Vec::new();
    for (&t, s) in tiers.iter().zip(&solved) {
        let id = TableId::new(TableKind::Dtw, t);
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

/// Solves the tables of `kind` of the pair of `tier` and reports them. `last`
/// is the game pass's step solved before, kept or replaced ([`solve_game`]).
pub(crate) fn solve_rounds<O: JobObserver>(
    tables: &TablebaseDir,
    kind: TableKind,
    tier: Tier,
    last: &mut Option<Stored>,
    observer: &O,
) -> Result<(), JobError> {
    match kind {
        TableKind::GameTheoretic => {
            let (report, stored) = solve_game(tables, tier, last.take(), observer)?;
            *last = Some(stored);
            observer.solved(&report);
        }
        TableKind::Horizon => observer.horizon_solved(&solve_horizon(tables, tier, observer)?),
        TableKind::Dtw => observer.dtw_solved(&solve_dtw(tables, tier, observer)?),
    }
    Ok(())
}
