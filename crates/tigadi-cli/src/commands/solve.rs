//! `tigadi solve`: retrograde analysis of every pair of subspaces up to
//! `--max-pieces` (or those one `--subspace` needs), in dependency order, writing
//! one tablebase file per subspace. The loop itself is the library's resumable job
//! ([`tigadi_jobs::solve_pairs`]): pairs whose files are already present and
//! valid are skipped, so an interrupted run resumes where it stopped. Each pair's
//! values under the 100-turn rule (the horizon tables, `.tghz`) are solved right
//! after its game-theoretic values unless `--no-horizon` is given, and with
//! `--dtw` its depth to win (the DTW tables, `.tgdw`) after that.

use super::CmdResult;
use crate::progress::{Progress, SolveProgress};
use crate::SolveArgs;
use std::time::Instant;
use tigadi_index::{Subspace, SubspaceIndex, MIN_GOTIS};
use tigadi_rules::RuleSet;
use tigadi_solve::{pairs_for, pairs_up_to_pieces};
use tigadi_tablebase as tb;
use tigadi_tablebase::{Hands, Tier};

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

/// `--compression`: records levels `text` in a new directory's manifest (the jobs
/// write at the levels recorded there); a directory already started keeps its
/// own, and asking for others is an error.
fn set_compression(tables: &tb::TablebaseDir, text: &str) -> Result<(), String> {
    let levels = tb::ZstdLevels::parse(text).map_err(|e| format!("--compression {e}"))?;
    match tables.recorded_levels() {
        Some(r) if r == levels => Ok(()),
        Some(r) => Err(format!(
            "--compression {text} (zstd levels {levels}): {} was started with levels {r}, \
             which a resumed run keeps so that it writes the same bytes; solve into a new \
             directory for other levels",
            tables.path().display()
        )),
        None => {
            let tables = tables.clone().with_levels(levels);
            let _lock = tables.lock().map_err(|e| e.to_string())?;
            tables
                .update_manifest(&[], &[])
                .map(|_| ())
                .map_err(|e| e.to_string())
        }
    }
}

pub fn run(rules: RuleSet, args: &SolveArgs) -> CmdResult {
    if let Some(why) = rules.unsolvable() {
        return Err(why);
    }
    let all = (2 * rules.pieces as u32).min(23);
    let max_pieces = args.max_pieces.unwrap_or(all);
    let pairs = match &args.subspace {
        Some(text) => pairs_for(parse_subspace(text, &rules)?),
        None if (6..=all).contains(&max_pieces) => pairs_up_to_pieces(rules.pieces, max_pieces),
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
    let dir = &args.dir.dir;
    if let Some(text) = &args.compression {
        set_compression(&tb::TablebaseDir::new(dir, &rules), text)?;
    }
    let progress = Progress::new("slots");
    let observer = SolveProgress::new(&progress);
    let started = Instant::now();
    let mut derived = Vec::new();
    if !args.no_horizon {
        derived.push(tb::TableKind::Horizon);
    }
    if args.dtw {
        derived.push(tb::TableKind::Dtw);
    }
    let result =
        pool.install(|| tigadi_jobs::solve_pairs(dir, &rules, &pairs, &derived, &observer));
    progress.finish();
    result.map_err(|e| e.to_string())?;
    // The placing phase reads the whole moving phase: only after a full solve.
    // With the values under the 100-turn rule (every moving-phase horizon table is
    // there after `solve_pairs` with them), the placing phase gets them too.
    if !args.no_placing && args.subspace.is_none() && max_pieces == all {
        let layer_slots: u64 = (0..tigadi_tablebase::placing_turns(&rules))
            .flat_map(|k| {
                tigadi_tablebase::tiers_with_hands(&rules, Hands::after_placements(&rules, k))
            })
            .map(|t: Tier| t.subspace)
            .map(|s| SubspaceIndex::new(s).slots())
            .sum();
        let passes = 1 + derived.len() as u64;
        let progress = Progress::new("slots");
        progress.plan(passes * layer_slots);
        let observer = SolveProgress::new(&progress);
        let result = pool.install(|| {
            let game = tigadi_jobs::solve_placing(dir, &rules, &observer)?;
            let rule = match args.no_horizon {
                true => None,
                false => tigadi_jobs::solve_placing_horizon(dir, &rules, &observer)?,
            };
            let dtw = match args.dtw {
                true => tigadi_jobs::solve_placing_dtw(dir, &rules, &observer)?,
                false => None,
            };
            Ok::<_, tigadi_jobs::JobError>((game, rule, dtw))
        });
        progress.finish();
        let (game, rule, dtw) = result.map_err(|e| e.to_string())?;
        if let Some(v) = game {
            progress.line(&format!(
                "empty board ({rules}), Bone to place first: {}",
                tigadi_values::both_in_words(v, dtw)
            ));
        }
        if let Some(v) = rule {
            progress.line(&format!(
                "empty board ({rules}) under the 100-turn rule, turn limit {}: {}",
                rules.quiet,
                tigadi_values::in_words(v, tigadi_values::Metric::Dtc)
            ));
        }
        if let Some(e) = progress.write_failure() {
            return Err(format!("{e} (the solve itself finished)"));
        }
    }
    progress.line(&format!(
        "done in {:.1} s; tablebases in {}",
        started.elapsed().as_secs_f64(),
        tb::TablebaseDir::new(dir, &rules).path().display()
    ));
    // Printing failed (a full disk under standard output): the tables are all
    // written, but the command must still say that its output is incomplete.
    match progress.write_failure() {
        Some(e) => Err(format!("{e} (the solve itself finished)")),
        None => Ok(0),
    }
}
