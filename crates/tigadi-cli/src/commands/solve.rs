//! `tigadi solve`: retrograde analysis of every pair of subspaces up to
//! `--max-pieces`, in dependency order, writing one tablebase file per subspace;
//! then (unless `--no-placing`, and only when the whole moving phase is there) the
//! placing layers from the last placement back to the empty board, one file per
//! layer and subspace. Pairs and layers whose files are already present and valid
//! are skipped, so an interrupted run resumes where it stopped.

use super::CmdResult;
use crate::progress::Bars;
use crate::SolveArgs;
use std::path::Path;
use std::time::Instant;
use tigadi_index::Subspace;
use tigadi_index::SubspaceIndex;
use tigadi_rules::RuleSet;
use tigadi_solve::placing::{
    layer_count, layer_subspaces, solve_layer_subspace, subspace_successors,
};
use tigadi_solve::retrograde::Observer;
use tigadi_solve::{pairs_for, solve_pair, Packed, SolvedTable, Value};
use tigadi_tablebase as tb;

pub fn run(rules: RuleSet, args: &SolveArgs) -> CmdResult {
    // All gotis of both sides, less one when that would fill the board (the full
    // board is a draw by the rules; no table holds it).
    let most = (2 * rules.pieces as u32).min(tigadi_rules::POINTS as u32 - 1);
    let max_pieces = args.max_pieces.unwrap_or(most);
    if !(6..=most).contains(&max_pieces) {
        return Err(format!(
            "--max-pieces {max_pieces} is out of range (6 to {most} gotis on the board)"
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
    for pair in pairs_for(rules.pieces, max_pieces) {
        let subs = pair.subspaces();
        if subs.iter().all(|&s| is_solved(dir, &rules, s)) {
            println!("{pair}: already solved");
            continue;
        }
        let t0 = Instant::now();
        let targets: Vec<(Subspace, Vec<Packed>)> = pair
            .capture_targets()
            .into_iter()
            .map(|t| {
                tb::load_values(dir, &rules, t)
                    .map(|v| (t, v))
                    .map_err(|e| format!("{e}"))
            })
            .collect::<Result<_, _>>()?;
        let tables: Vec<SolvedTable> = targets
            .iter()
            .map(|(s, v)| SolvedTable {
                subspace: *s,
                values: v,
            })
            .collect();
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
    }
    write_manifest(dir, &rules, &[])?;
    if !args.no_placing && max_pieces == most {
        pool.install(|| solve_placing_phase(dir, &rules, &bars))?;
    }
    println!(
        "done in {:.1} s; tablebases in {}",
        started.elapsed().as_secs_f64(),
        tb::rules_dir(dir, &rules).display()
    );
    Ok(0)
}

/// Is the table of `sub` present, for these rules and this subspace, with every
/// checksum right? Then it is not solved again.
fn is_solved(dir: &Path, rules: &RuleSet, sub: Subspace) -> bool {
    is_table_solved(dir, rules, None, sub)
}

/// [`is_solved`] for a moving-phase (`None`) or placing-layer table.
fn is_table_solved(dir: &Path, rules: &RuleSet, placing: Option<u8>, sub: Subspace) -> bool {
    let path = tb::any_table_path(dir, rules, placing, sub);
    match tb::Table::open(&path) {
        Ok(t) => t.expect_table(rules, placing, sub).is_ok() && t.check_file_checksum().is_ok(),
        Err(_) => false,
    }
}

/// Solves the placing layers, last first, one subspace at a time: each reads only
/// the one or two tables its placements lead into (from the next layer's files,
/// or the moving-phase files for the last layer), so memory stays at three tables.
/// Subspaces whose files are present and valid are skipped (resumable per layer
/// and subspace). Prints the empty board's value at the end.
fn solve_placing_phase(dir: &Path, rules: &RuleSet, bars: &Bars) -> Result<(), String> {
    let layers = layer_count(rules);
    // The successor tables read last: neighbouring subspaces share one.
    let mut cache: Vec<((Option<u8>, Subspace), Vec<Packed>)> = Vec::new();
    for placed in (0..layers).rev() {
        let layer = placed as u8;
        let todo: Vec<Subspace> = layer_subspaces(rules, placed)
            .into_iter()
            .filter(|&s| !is_table_solved(dir, rules, Some(layer), s))
            .collect();
        if todo.is_empty() {
            println!("placing layer {placed}: already solved");
            continue;
        }
        let t0 = Instant::now();
        let next = (placed + 1 < layers).then_some(layer + 1);
        let work: u64 = todo.iter().map(|&s| SubspaceIndex::new(s).slots()).sum();
        let observer = bars.observer(&format!("placing layer {placed}"));
        observer.phase("placing", work);
        for &sub in &todo {
            let needed: Vec<(Option<u8>, Subspace)> = subspace_successors(rules, placed, sub)
                .into_iter()
                .map(|s| (next, s))
                .collect();
            cache.retain(|(k, _)| needed.contains(k));
            for &(n, s) in &needed {
                if cache.iter().any(|(k, _)| *k == (n, s)) {
                    continue;
                }
                let v = match n {
                    None => tb::load_values(dir, rules, s),
                    Some(n) => tb::load_placing_values(dir, rules, n, s),
                }
                .map_err(|e| format!("{e}"))?;
                cache.push(((n, s), v));
            }
            let tables: Vec<SolvedTable> = cache
                .iter()
                .map(|((_, s), v)| SolvedTable {
                    subspace: *s,
                    values: v,
                })
                .collect();
            let solved = solve_layer_subspace(rules, placed, sub, &tables, &observer)
                .map_err(|e| e.to_string())?;
            tb::write_placing(dir, rules, layer, sub, &solved.values)
                .map_err(|e| format!("writing placing layer {placed} {sub}: {e}"))?;
        }
        bars.finish();
        println!(
            "placing layer {placed}: {} subspaces, {work} slots, {:.1} s",
            todo.len(),
            t0.elapsed().as_secs_f64()
        );
    }
    let start =
        tb::load_placing_values(dir, rules, 0, Subspace::new(0, 0)).map_err(|e| e.to_string())?;
    if let Some(v) = start.first().and_then(|p| p.get()) {
        println!("empty board ({rules}): {v} for Bone, who places first");
    }
    Ok(())
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
