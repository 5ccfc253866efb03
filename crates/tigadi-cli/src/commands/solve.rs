//! `tigadi solve`: retrograde analysis of every pair of subspaces up to
//! `--max-pieces`, in dependency order, writing one tablebase file per subspace.
//! Pairs whose files are already present and valid are skipped, so an interrupted
//! run resumes where it stopped. Each pair's values under the 100-turn rule (the
//! horizon tables, `.tghz`) are solved right after its game-theoretic values, and
//! skipped in the same way; a directory of game-theoretic tables alone (say, from
//! an older version) gets its horizon tables without being solved again.

use super::CmdResult;
use crate::progress::Bars;
use crate::SolveArgs;
use std::path::Path;
use std::time::Instant;
use tigadi_index::Subspace;
use tigadi_rules::RuleSet;
use tigadi_solve::{pairs_up_to, solve_pair, solve_pair_horizon, Packed, SolvedTable, Value};
use tigadi_tablebase as tb;

pub fn run(rules: RuleSet, args: &SolveArgs) -> CmdResult {
    if !(6..=18).contains(&args.max_pieces) {
        return Err(format!(
            "--max-pieces {} is out of range (6 to 18 gotis on the board)",
            args.max_pieces
        ));
    }
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        if t == 0 {
            return Err("--threads must be at least 1".into());
        }
        pool = pool.num_threads(t);
    }
    let pool = pool
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    let dir = &args.dir.dir;
    remove_stale_temporaries(&tb::rules_dir(dir, &rules));
    let bars = Bars::new();
    let started = Instant::now();
    for pair in pairs_up_to(args.max_pieces) {
        let subs = pair.subspaces();
        if subs
            .iter()
            .all(|&s| is_solved(dir, &rules, tb::TableKind::GameTheoretic, s))
        {
            println!("{pair}: already solved");
            if !args.no_horizon {
                solve_horizon(dir, &rules, pair, &pool, &bars)?;
            }
            continue;
        }
        let t0 = Instant::now();
        let targets = load_targets(pair, |t| tb::load_values(dir, &rules, t))?;
        let tables = as_tables(&targets);
        let solved = pool
            .install(|| solve_pair(&rules, pair, &tables, &bars.observer(&pair.to_string())))
            .map_err(|e| e.to_string())?;
        drop(targets);
        let seconds = t0.elapsed().as_secs_f64();
        for s in &solved {
            pool.install(|| tb::write_subspace(dir, &rules, s.subspace, &s.values))
                .map_err(|e| format!("writing {}: {e}", s.subspace))?;
        }
        // After every pair, so a run stopped later loses no solve times.
        let seconds: Vec<_> = solved.iter().map(|s| (s.subspace, seconds)).collect();
        write_manifest(dir, &rules, &seconds)?;
        let seconds = seconds[0].1;
        let slots: usize = solved.iter().map(|s| s.values.len()).sum();
        let (mut w, mut d, mut l) = (0u64, 0u64, 0u64);
        for s in &solved {
            for v in &s.values {
                match v.get() {
                    Some(Value::Win(_)) => w += 1,
                    Some(Value::Draw) => d += 1,
                    Some(Value::Loss(_)) => l += 1,
                    None => {}
                }
            }
        }
        bars.finish();
        println!(
            "{pair}: {slots} slots, {:.1} s, {} rounds, {w} wins, {d} draws, {l} losses (classes)",
            seconds, solved[0].rounds
        );
        drop(solved);
        if !args.no_horizon {
            solve_horizon(dir, &rules, pair, &pool, &bars)?;
        }
    }
    write_manifest(dir, &rules, &[])?;
    println!(
        "done in {:.1} s; tablebases in {}",
        started.elapsed().as_secs_f64(),
        tb::rules_dir(dir, &rules).display()
    );
    Ok(0)
}

/// Solves the values under the 100-turn rule of `pair` and writes its horizon
/// tables, unless they are all present and valid. Reads the capture targets'
/// horizon tables, and after the pass the pair's game-theoretic tables (already
/// written) one at a time, for the categories. Memory: the horizon pass's 4 bytes
/// per slot of the pair and 2 for its result, besides the targets (2 per slot),
/// as the game-theoretic solve.
fn solve_horizon(
    dir: &Path,
    rules: &RuleSet,
    pair: tigadi_solve::Pair,
    pool: &rayon::ThreadPool,
    bars: &Bars,
) -> Result<(), String> {
    let subs = pair.subspaces();
    if subs
        .iter()
        .all(|&s| is_solved(dir, rules, tb::TableKind::Horizon, s))
    {
        return Ok(());
    }
    let t0 = Instant::now();
    let targets = load_targets(pair, |t| tb::load_dtc100(dir, rules, t))?;
    let tables = as_tables(&targets);
    let name = format!("{pair} (100-turn)");
    let solved = pool
        .install(|| solve_pair_horizon(rules, pair, &tables, &bars.observer(&name)))
        .map_err(|e| e.to_string())?;
    drop(targets);
    let mut counts = [0u64; 5];
    for s in &solved {
        // Game-theoretic tables read from files hold fillers in padding slots: take
        // the padding from the horizon pass's output, which marks it.
        let mut g = tb::load_values(dir, rules, s.subspace).map_err(|e| e.to_string())?;
        for (g, h) in g.iter_mut().zip(&s.values) {
            if !h.is_some() {
                *g = Packed::NONE;
            }
        }
        pool.install(|| tb::write_horizon_subspace(dir, rules, s.subspace, &g, &s.values))
            .map_err(|e| format!("writing the horizon table of {}: {e}", s.subspace))?;
        for (g, h) in g.iter().zip(&s.values) {
            if let (Some(g), Some(h)) = (g.get(), h.get()) {
                if let Some(c) = tigadi_solve::Category::of(g.wdl(), h.wdl()) {
                    counts[c.code() as usize] += 1;
                }
            }
        }
    }
    bars.finish();
    println!(
        "{name}: {:.1} s, {} rounds, {} wins, {} cursed wins, {} draws, {} blessed losses, \
         {} losses at counter 0 (classes)",
        t0.elapsed().as_secs_f64(),
        solved[0].rounds,
        counts[4],
        counts[3],
        counts[2],
        counts[1],
        counts[0]
    );
    Ok(())
}

/// The tables of `pair`'s capture targets, each read by `load`.
fn load_targets(
    pair: tigadi_solve::Pair,
    load: impl Fn(Subspace) -> Result<Vec<Packed>, tb::TablebaseError>,
) -> Result<Vec<(Subspace, Vec<Packed>)>, String> {
    pair.capture_targets()
        .into_iter()
        .map(|t| load(t).map(|v| (t, v)).map_err(|e| e.to_string()))
        .collect()
}

/// The solver's view of loaded target tables.
fn as_tables(targets: &[(Subspace, Vec<Packed>)]) -> Vec<SolvedTable<'_>> {
    targets
        .iter()
        .map(|(s, v)| SolvedTable {
            subspace: *s,
            values: v,
        })
        .collect()
}

/// Is the table of kind `kind` of `sub` present, for these rules (and turn limit)
/// and this subspace, with every checksum right? Then it is not solved again.
fn is_solved(dir: &Path, rules: &RuleSet, kind: tb::TableKind, sub: Subspace) -> bool {
    match tb::open_kind(dir, rules, kind, sub) {
        Ok(t) => t.check_file_checksum().is_ok(),
        Err(_) => false,
    }
}

/// Removes the temporary files (`.NAME.tmpPID`) that a killed run left half-written.
fn remove_stale_temporaries(rules_dir: &Path) {
    let Ok(entries) = std::fs::read_dir(rules_dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') && name.contains(".tmp") {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Writes `SHA256SUMS` and `manifest.json` for the files present, recording
/// `seconds` (times already recorded for unchanged files are kept).
fn write_manifest(dir: &Path, rules: &RuleSet, seconds: &[(Subspace, f64)]) -> Result<(), String> {
    tb::write_manifest_with_seconds(dir, rules, seconds)
        .map(|_| ())
        .map_err(|e| format!("writing the manifest: {e}"))
}
