//! Issue 53: the job and `verify` on a rule set with Lasker's rule
//! (`slides=always`). The job solves `lasker,pieces=3` (its tiers with gotis in
//! hand by the rounds step, `tigadi_solve::in_hand`), game, 100-turn and DTW
//! tables, and `verify` passes its tables and catches one altered value of each
//! kind in a tier with gotis in hand and moves inside it, and in one whose moves
//! all leave it; it passes `lasker,pieces=4`'s, where captures while gotis are
//! in hand need not end the game.

use crate::common;

use tigadi_index::Subspace;
use tigadi_jobs::{solve, steps, verify, JobOptions, Scope};
use tigadi_rules::RuleSet;
use tigadi_solve::{step_in_hand_bytes, step_tiers, Packed, Value};
use tigadi_tablebase::{TableId, TableKind, TablebaseDir};
use tigadi_values::{Hands, Tier};

fn no_progress(_: u64, _: u64) {}

/// `spec` solved whole by the job, game, 100-turn and DTW tables, in a new
/// directory; with the kinds solved.
fn solved_every_kind(spec: &str) -> (RuleSet, tempfile::TempDir, [TableKind; 3]) {
    let rules = RuleSet::parse(spec).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let steps = steps(&rules, Scope::Whole);
    let kinds = [TableKind::GameTheoretic, TableKind::Horizon, TableKind::Dtw];
    common::job(dir.path(), &rules, &steps, &kinds);
    (rules, dir, kinds)
}

#[test]
fn lasker_3_solved_verified_and_an_altered_value_caught() {
    let (rules, dir, kinds) = solved_every_kind("lasker,pieces=3");
    let report = verify(dir.path(), &rules, &no_progress).unwrap();
    assert!(report.is_ok(), "{report:?}");
    let store = TablebaseDir::new(dir.path(), &rules);
    // 3v2 with 0+1 in hand (solved with its partner 2v3 with 1+0) and 0v1 with
    // 3+2 (its moves all placements).
    let inside = Tier::new(Hands::new(0, 1), Subspace::new(3, 2));
    let leaving = Tier::new(Hands::new(3, 2), Subspace::new(0, 1));
    assert!(inside.has_moves_inside(&rules) && !leaving.has_moves_inside(&rules));
    for id in [inside, leaving]
        .into_iter()
        .flat_map(|t| kinds.map(|k| TableId::new(k, t)))
    {
        let tier = id.tier;
        let before = std::fs::read(store.table_path(id)).unwrap();
        let mut values = store.load(id).unwrap();
        // A decided value one turn longer: still the same win/draw/loss.
        let slot = (0..values.len())
            .find(|&i| matches!(values[i].get(), Some(Value::Win(_) | Value::Loss(1..))))
            .unwrap();
        values[slot] = Packed::new(match values[slot].get().unwrap() {
            Value::Win(d) => Value::Win(d + 1),
            Value::Loss(d) => Value::Loss(d + 1),
            Value::Draw => unreachable!(),
        });
        tigadi_tablebase::mark_padding(tier.subspace, &mut values);
        let base = id
            .kind
            .derived_from()
            .map(|k| store.load(id.with_kind(k)).unwrap());
        let data = id.kind.data(&values, base.as_deref()).unwrap();
        store.write(id, data).unwrap();
        store.update_manifest(&[id], &[]).unwrap();
        let report = verify(dir.path(), &rules, &no_progress).unwrap();
        let own = report
            .subspaces
            .iter()
            .find(|s| s.tier == tier && s.kind == id.kind)
            .unwrap_or_else(|| panic!("{tier} not reported"));
        assert!(!own.is_ok(), "{tier}: an altered value passed");
        assert!(
            own.examples.iter().any(|m| m.slot == slot as u64),
            "{tier}: {own:?}"
        );
        std::fs::write(store.table_path(id), before).unwrap();
        store.update_manifest(&[id], &[]).unwrap();
    }
    let report = verify(dir.path(), &rules, &no_progress).unwrap();
    assert!(report.is_ok(), "{report:?}");
}

/// `verify` passes the game, 100-turn and DTW tables of `lasker,pieces=4`,
/// the least size at which a capture by a slide while gotis are in hand can
/// leave the game going (under `pieces=3` every capture ends it), so the
/// least at which the initial pass of a step in hand reads its capture
/// targets' values. `verify` recomputes every value from its successors'
/// stored values (it shares `RunMoves` with the solver, not its initial pass
/// or rounds), and one slot in 64 from scratch by the rules.
#[test]
fn lasker_4_solved_and_verified() {
    let (rules, dir, _) = solved_every_kind("lasker,pieces=4");
    let progress = Progress::default();
    let report = tigadi_jobs::verify_with(dir.path(), &rules, false, &progress).unwrap();
    assert!(report.is_ok(), "{report:?}");
    let checked = report.subspaces.iter().filter(|s| !s.tier.is_moving());
    assert!(checked.count() > 3 * 20, "the tiers in hand of every kind");
    // Every step's progress adds up to its slots times its kinds, in the
    // tiers in hand (two passes, one for the placements) as in the others.
    let steps = progress.0.into_inner().unwrap();
    assert!(steps.iter().filter(|s| !s.0.is_moving()).count() > 20);
    for (tier, planned, done) in steps {
        assert_eq!(done, planned, "{tier}");
    }
}

/// Each step's tier, the slots it said it would check, and the slots it
/// reported checked.
#[derive(Default)]
struct Progress(std::sync::Mutex<Vec<(Tier, u64, u64)>>);
impl tigadi_jobs::VerifyObserver for Progress {
    fn started(&self, tier: Tier, slots: u64) {
        self.0.lock().unwrap().push((tier, slots, 0));
    }
    fn advance(&self, slots: u64) {
        self.0.lock().unwrap().last_mut().unwrap().2 += slots;
    }
}

/// Counts the steps whose 100-turn tables were found with their game values.
#[derive(Default)]
struct Together(std::sync::atomic::AtomicUsize);
impl tigadi_solve::Observer for Together {}
impl tigadi_jobs::JobObserver for Together {
    fn horizon_solved(&self, report: &tigadi_jobs::HorizonReport) {
        if report.with_game {
            self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// The job finds a Lasker step's game and 100-turn values together where it
/// asks for both kinds and they fit its memory limit; the files are the bytes
/// of the two kinds solved in two runs, one kind each (where nothing is found
/// together), whatever the limit: every step in hand together, about half of
/// them, or none.
#[test]
fn lasker_4_both_kinds_together_write_the_bytes_of_two_runs() {
    let rules = RuleSet::parse("lasker,pieces=4").unwrap();
    let steps = steps(&rules, Scope::Whole);
    let both = [TableKind::GameTheoretic, TableKind::Horizon];
    let apart = tempfile::tempdir().unwrap();
    let seen = Together::default();
    for kind in both {
        solve(
            apart.path(),
            &rules,
            &steps,
            &[kind],
            &JobOptions::default(),
            &seen,
        )
        .unwrap();
    }
    assert_eq!(seen.0.into_inner(), 0, "nothing found together in two runs");
    // What each step in hand takes with both kinds (the job's own measure).
    let mut sizes: Vec<u64> = steps
        .iter()
        .filter(|t| !t.is_moving())
        .map(|&t| step_in_hand_bytes(&rules, &step_tiers(&rules, t), 2))
        .collect();
    sizes.sort_unstable();
    let middle = sizes[sizes.len() / 2];
    let some = sizes.iter().filter(|&&b| b <= middle).count();
    assert!(0 < some && some < sizes.len(), "{sizes:?}");
    for (limit, expected) in [
        (JobOptions::default().both_kinds_bytes, sizes.len()),
        (middle, some),
        (0, 0),
    ] {
        let together = tempfile::tempdir().unwrap();
        let seen = Together::default();
        let options = JobOptions {
            both_kinds_bytes: limit,
        };
        solve(together.path(), &rules, &steps, &both, &options, &seen).unwrap();
        assert_eq!(
            seen.0.into_inner(),
            expected,
            "found together within {limit} bytes"
        );
        let compared = same_files(&rules, together.path(), apart.path());
        assert!(compared > 2 * sizes.len(), "{compared} files");
    }
}

/// Asserts that tablebase directories `a` and `b` of `rules` hold the same
/// files with the same bytes (their manifests and locks aside); returns how
/// many.
fn same_files(rules: &RuleSet, a: &std::path::Path, b: &std::path::Path) -> usize {
    let (a, b) = (TablebaseDir::new(a, rules), TablebaseDir::new(b, rules));
    let names = |dir: &TablebaseDir| {
        let mut names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|name| name != "manifest.json" && name != ".lock")
            .collect();
        names.sort();
        names
    };
    let listed = names(&a);
    assert_eq!(listed, names(&b), "the same files");
    for name in &listed {
        let (x, y) = (a.path().join(name), b.path().join(name));
        assert!(
            std::fs::read(&x).unwrap() == std::fs::read(&y).unwrap(),
            "{name:?} differs"
        );
    }
    listed.len()
}
