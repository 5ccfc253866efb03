//! `tigadi solve`: every hands-empty tier up to `--max-pieces` gotis on the board
//! (or those one `--subspace` needs) and, after a full solve, every tier with
//! gotis in hand, in dependency order, writing one tablebase file per tier. The
//! loop itself is the library's resumable job ([`tigadi_jobs::solve`]): steps
//! whose files are already present and valid are skipped, so an interrupted run
//! resumes where it stopped. The values under the 100-turn rule (the horizon
//! tables, `.tghz`) are a second pass of the job unless `--no-horizon` is given,
//! and with `--dtw` the depth to win (the DTW tables, `.tgdw`) a third.

use super::CmdResult;
use crate::progress::{Progress, SolveProgress};
use crate::SolveArgs;
use std::time::Instant;
use tigadi_index::{Subspace, MIN_GOTIS};
use tigadi_jobs::{step_name, JobError, JobOptions, Plan, Scope};
use tigadi_rules::RuleSet;
use tigadi_tablebase as tb;
use tigadi_values::Tier;

/// Worker threads allowed per core: more only adds switching (the files do not
/// depend on the count), and thousands make even a small solve crawl.
const THREADS_PER_CORE: usize = 4;
/// The thread limit on a machine whose core count cannot be read, or a small one.
const MIN_THREAD_LIMIT: usize = 8;

/// The most `--threads` accepted here.
fn thread_limit() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cores * THREADS_PER_CORE).max(MIN_THREAD_LIMIT)
}

/// Parses `--subspace` (`MvO`, e.g. `7v6`: gotis of the player to move, then the
/// other's, each from 3 to the rule set's gotis a side; not the full board).
fn parse_subspace(text: &str, rules: &RuleSet) -> Result<Subspace, String> {
    let pieces = rules.pieces;
    let shown = tigadi_rules::notation::shown(text);
    let bad = || {
        format!(
            "--subspace '{shown}' is not a subspace of {rules} (write MvO, e.g. 7v6: each side \
             from {MIN_GOTIS} to {pieces} gotis)"
        )
    };
    let (m, o) = text.split_once('v').ok_or_else(bad)?;
    // Decimal as written by `MvO` file names: no sign, no leading zero.
    let side = |s: &str| {
        s.parse::<u8>()
            .ok()
            .filter(|n| (MIN_GOTIS..=pieces).contains(n) && n.to_string() == s)
    };
    match (side(m), side(o)) {
        (Some(m), Some(o)) if (m + o) as usize == tigadi_rules::POINTS => Err(format!(
            "--subspace '{shown}' is the full board: nobody can move there and \
             docs/RULES.md §8 makes it a draw, so it has no table"
        )),
        (Some(m), Some(o)) => Ok(Subspace::new(m, o)),
        _ => Err(bad()),
    }
}

/// `--compression` and `--block-kib`: records zstd levels and a block size in a
/// new directory's manifest (the jobs write in the encoding recorded there; what
/// is not asked for, at the default); a directory already started keeps its own,
/// and asking for another is an error.
fn set_encoding(
    tables: &tb::TablebaseDir,
    compression: Option<&str>,
    block_kib: Option<u32>,
) -> Result<(), String> {
    let levels = compression
        .map(|text| tb::ZstdLevels::parse(text).map_err(|e| format!("--compression {e}")))
        .transpose()?;
    let size = block_kib
        .map(|k| {
            tb::BlockSize::bytes(k.saturating_mul(1024))
                .map_err(|e| format!("--block-kib {k}: {e}"))
        })
        .transpose()?;
    let Some(started) = tables.recorded_levels() else {
        let tables = tables
            .clone()
            .with_levels(levels.unwrap_or(tb::ZstdLevels::DEFAULT))
            .with_block_size(size.unwrap_or(tb::BlockSize::Default));
        if levels.is_none() && size.is_none() {
            return Ok(());
        }
        let _lock = tables.lock().map_err(|e| e.to_string())?;
        return tables
            .update_manifest(&[], &[])
            .map(|_| ())
            .map_err(|e| e.to_string());
    };
    let keeps = "which a resumed run keeps so that it writes the same bytes; solve into a new \
                 directory for another";
    let path = tables.path().display();
    if let Some(levels) = levels.filter(|&l| l != started) {
        return Err(format!(
            "--compression {} (zstd levels {levels}): {path} was started with levels {started}, \
             {keeps}",
            compression.unwrap_or_default()
        ));
    }
    match (size, tables.recorded_block_size()) {
        (Some(s), Some(r)) if s != r => Err(format!(
            "--block-kib {}: {path} was started with blocks of {r}, {keeps}",
            block_kib.unwrap_or_default()
        )),
        (Some(_), None) => Err(format!(
            "--block-kib {}: {path} records a block size this version does not write",
            block_kib.unwrap_or_default()
        )),
        _ => Ok(()),
    }
}

/// The most `--memory` accepted, in GB: far beyond any step's need, and
/// small enough to count in bytes.
const MAX_MEMORY_GB: f64 = 1e6;

/// Parses `--memory` (GB, a decimal number from 0 to [`MAX_MEMORY_GB`]) into
/// the job's options; the default where it is not given.
fn job_options(memory: Option<&str>) -> Result<JobOptions, String> {
    let Some(text) = memory else {
        return Ok(JobOptions::default());
    };
    match text.trim().parse::<f64>() {
        Ok(gb) if (0.0..=MAX_MEMORY_GB).contains(&gb) => Ok(JobOptions {
            both_kinds_bytes: (gb * 1e9) as u64,
        }),
        _ => Err(format!(
            "--memory {text:?} is not a number of GB from 0 to {MAX_MEMORY_GB}"
        )),
    }
}

pub fn run(rules: RuleSet, args: &SolveArgs) -> CmdResult {
    let all = (2 * rules.pieces as u32).min(23);
    let max_pieces = args.max_pieces.unwrap_or(all);
    // The tiers with gotis in hand read every hands-empty tier the last
    // placements lead into: only after a full solve.
    let placing = !args.no_placing && args.subspace.is_none() && max_pieces == all;
    let scope = match &args.subspace {
        Some(text) => Scope::From(Tier::moving(parse_subspace(text, &rules)?)),
        None if placing => Scope::Whole,
        None if (6..=all).contains(&max_pieces) => Scope::BoardUpTo(max_pieces),
        None => {
            return Err(format!(
                "--max-pieces {max_pieces} is out of range (6 to {all} gotis on the board)"
            ))
        }
    };
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        let limit = thread_limit();
        if t == 0 || t > limit {
            return Err(format!(
                "--threads {t} is out of range (1 to {limit} here: at most \
                 {THREADS_PER_CORE} per core; the tables do not depend on it)"
            ));
        }
        pool = pool.num_threads(t);
    }
    let pool = pool
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    let options = job_options(args.memory.as_deref())?;
    let dir = &args.dir.dir;
    let mut kinds = vec![tb::TableKind::GameTheoretic];
    let horizon = !args.no_horizon;
    if horizon {
        kinds.push(tb::TableKind::Horizon);
    }
    if args.dtw {
        kinds.push(tb::TableKind::Dtw);
    }
    let steps = tigadi_jobs::steps(&rules, scope);
    if args.plan {
        return print_plan(
            &rules,
            dir,
            &tigadi_jobs::plan(dir, &rules, &steps, &kinds),
            args.json,
        );
    }
    set_encoding(
        &tb::TablebaseDir::new(dir, &rules),
        args.compression.as_deref(),
        args.block_kib,
    )?;
    let progress = Progress::new("slots");
    let observer = SolveProgress::new(&progress, &rules);
    let started = Instant::now();
    let result = crate::interrupt::stoppable(
        &progress,
        "the step in progress, once its tables are written",
        "that step is then solved again when the run resumes",
        || pool.install(|| tigadi_jobs::solve(dir, &rules, &steps, &kinds, &options, &observer)),
    );
    progress.finish();
    if let (Err(JobError::Stopped(tier)), Some(signal)) = (&result, crate::interrupt::asked()) {
        progress.line(&format!(
            "stopped by {} before {}: every step solved so far is written and listed; run the \
             same command again to go on from there",
            crate::interrupt::name(signal),
            step_name(&rules, *tier)
        ));
        return Ok(crate::interrupt::exit_code(signal));
    }
    result.map_err(|e| match e.is_out_of_space() {
        true => format!(
            "{e}: no room for the tables of the step in progress; every step written \
             before it is kept, so free space and run the same command again to go on \
             from there"
        ),
        false => e.to_string(),
    })?;
    if placing {
        let value = |kind| tigadi_jobs::start_value(dir, &rules, kind).map_err(|e| e.to_string());
        let dtw = match args.dtw {
            true => value(tb::TableKind::Dtw)?,
            false => None,
        };
        if let Some(v) = value(tb::TableKind::GameTheoretic)? {
            progress.line(&format!(
                "empty board ({rules}), Bone to place first: {}",
                tigadi_values::both_in_words(v, dtw)
            ));
        }
        if horizon {
            if let Some(v) = value(tb::TableKind::Horizon)? {
                progress.line(&format!(
                    "empty board ({rules}) under the 100-turn rule, turn limit {}: {}",
                    rules.quiet,
                    tigadi_values::start_in_words(v, tb::TableKind::Horizon.metric_under(&rules))
                ));
            }
        }
    }
    progress.line(&format!(
        "{}; tablebases in {}",
        crate::usage::run_summary(started),
        tb::TablebaseDir::new(dir, &rules).path().display()
    ));
    // Printing failed (a full disk under standard output): the tables are all
    // written, but the command must still say that its output is incomplete.
    match progress.write_failure() {
        Some(e) => Err(format!("{e} (the solve itself finished)")),
        None => Ok(0),
    }
}

/// `solve --plan`: the [`Plan`] in words (a line per kind and one for the
/// bytes), or as one JSON object.
fn print_plan(rules: &RuleSet, dir: &std::path::Path, plan: &Plan, json: bool) -> CmdResult {
    let path = tb::TablebaseDir::new(dir, rules).path().to_path_buf();
    let gb = |b: u64| b as f64 / 1e9;
    if json {
        let kinds: Vec<serde_json::Value> = plan
            .kinds
            .iter()
            .map(|k| {
                serde_json::json!({
                    "kind": k.kind.name(),
                    "steps": k.steps,
                    "to_solve": k.to_solve,
                    "slots_to_solve": k.slots_to_solve,
                    "bytes_to_write": k.bytes_to_write,
                })
            })
            .collect();
        let out = serde_json::json!({
            "rules": rules.to_string(),
            "dir": path.display().to_string(),
            "kinds": kinds,
            "bytes_to_write": plan.bytes_to_write,
            "free_bytes": plan.free_bytes,
        });
        outln!("{out}");
        return Ok(0);
    }
    outln!("plan for {rules} in {}:", path.display());
    for k in &plan.kinds {
        outln!(
            "  {}: {} of {} steps solved; {} to solve, {} slots, about {:.1} GB of tables",
            k.kind.name(),
            k.steps - k.to_solve,
            k.steps,
            k.to_solve,
            k.slots_to_solve,
            gb(k.bytes_to_write)
        );
    }
    let free = match plan.free_bytes {
        Some(free) if free < plan.bytes_to_write => {
            format!("{:.1} GB free on its disk: NOT ENOUGH", gb(free))
        }
        Some(free) => format!("{:.1} GB free on its disk", gb(free)),
        None => "the disk's free space unknown".to_string(),
    };
    outln!("  about {:.1} GB to write; {free}", gb(plan.bytes_to_write));
    Ok(0)
}
