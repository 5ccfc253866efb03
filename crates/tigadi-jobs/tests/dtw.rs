//! DTW tables (`.tgdw`) written by the jobs: `solve --dtw`'s passes on a whole
//! small game (both phases) hold what the DTW pass computes in memory, they are
//! added to a directory already solved without touching its other tables, a
//! stopped run resumes to the same bytes, and `verify` passes them and catches one
//! altered DTW (re-encoded with valid checksums and listed in `SHA256SUMS`, so
//! only the recomputation can see it) in the moving phase and in a placing layer.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use tigadi_index::Subspace;
use tigadi_jobs::{steps, verify, Scope};
use tigadi_rules::RuleSet;
use tigadi_solve::Quiet;
use tigadi_solve::{solve_up_to_dtw, Packed, Value};
use tigadi_tablebase::{TableData, TableId, TableKind, TablebaseDir};

fn no_progress(_: u64, _: u64) {}

/// Three gotis a side: one moving subspace, six placing layers; a second or so.
fn rules() -> RuleSet {
    RuleSet::parse("tigadi,pieces=3").unwrap()
}

/// Solves the whole game into `dir`: values, then (with `dtw`) the DTW tables.
fn solve_all(dir: &Path, rules: &RuleSet, dtw: bool) {
    let kinds: &[TableKind] = if dtw {
        &[TableKind::GameTheoretic, TableKind::Dtw]
    } else {
        &[TableKind::GameTheoretic]
    };
    common::job(dir, rules, &steps(rules, Scope::Whole), kinds);
}

/// Every table file's bytes, by name.
fn files(rdir: &Path, rules: &RuleSet) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(rdir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| TableId::parse(e.file_name().to_str().unwrap(), rules).is_some())
        .map(|e| {
            let name = e.file_name().to_str().unwrap().to_string();
            (name, std::fs::read(e.path()).unwrap())
        })
        .collect()
}

/// Rewrites DTW table `id` with one win of depth 2 or more made one turn longer
/// (still a win: the WDL section agrees), lists it in `SHA256SUMS`, and returns the
/// slot changed.
fn alter_one_dtw(store: &TablebaseDir, id: TableId) -> u64 {
    let mut values = store.load(id).unwrap();
    let slot = (0..values.len())
        .find(|&i| matches!(values[i].get(), Some(Value::Win(d)) if d >= 2))
        .expect("a win of depth 2 or more");
    let Some(Value::Win(d)) = values[slot].get() else {
        unreachable!()
    };
    values[slot] = Packed::new(Value::Win(d + 1));
    tigadi_tablebase::mark_padding(id.tier.subspace, &mut values);
    store.write(id, TableData::Dtw(&values)).unwrap();
    store.update_manifest(&[id], &[]).unwrap();
    slot as u64
}

#[test]
fn dtw_tables_hold_the_pass_and_verify_catches_an_altered_depth() {
    let rules = rules();
    let dir = tempfile::tempdir().unwrap();
    solve_all(dir.path(), &rules, true);
    let store = TablebaseDir::new(dir.path(), &rules);

    // The moving phase's tables are the in-memory pass's output.
    let game = store
        .load(TableId::moving(
            TableKind::GameTheoretic,
            Subspace::new(3, 3),
        ))
        .unwrap();
    let values = [(Subspace::new(3, 3), game)].into_iter().collect();
    let memory = solve_up_to_dtw(&rules, 6, &values, &Quiet, |_, _, _| {});
    for (s, v) in &memory {
        let stored = store.load(TableId::moving(TableKind::Dtw, *s)).unwrap();
        for (slot, (a, b)) in v.iter().zip(&stored).enumerate() {
            if a.is_some() {
                assert_eq!(a, b, "{s} slot {slot}");
            }
        }
    }
    // The empty board's DTW table has the game-theoretic value's win/draw/loss.
    let start = Subspace::new(0, 0);
    let gt = store
        .load(TableId::new(
            TableKind::GameTheoretic,
            tigadi_tablebase::Tier::after_placements(&rules, 0_u32, start),
        ))
        .unwrap();
    let dtw = store
        .load(TableId::new(
            TableKind::Dtw,
            tigadi_tablebase::Tier::after_placements(&rules, 0_u32, start),
        ))
        .unwrap();
    assert_eq!(gt[0].get().unwrap().wdl(), dtw[0].get().unwrap().wdl());

    let report = verify(dir.path(), &rules, &no_progress).unwrap();
    assert!(report.is_ok(), "{report:?}");
    assert!(report
        .subspaces
        .iter()
        .any(|s| s.kind == TableKind::Dtw && !s.tier.is_moving()));

    // One altered DTW in the moving phase, then one in the last placing layer.
    for id in [
        TableId::moving(TableKind::Dtw, Subspace::new(3, 3)),
        TableId::new(
            TableKind::Dtw,
            tigadi_tablebase::Tier::after_placements(&rules, 5_u32, Subspace::new(2, 3)),
        ),
    ] {
        let before = std::fs::read(store.table_path(id)).unwrap();
        let slot = alter_one_dtw(&store, id);
        let report = verify(dir.path(), &rules, &no_progress).unwrap();
        assert!(!report.is_ok(), "{id:?}: an altered DTW passed");
        let bad: Vec<_> = report.subspaces.iter().filter(|s| !s.is_ok()).collect();
        assert!(bad.iter().all(|s| s.kind == TableKind::Dtw), "{bad:?}");
        let own = bad
            .iter()
            .find(|s| s.tier == id.tier)
            .unwrap_or_else(|| panic!("{id:?} not reported: {bad:?}"));
        assert!(own.error.is_none(), "{:?}", own.error);
        assert!(
            own.examples
                .iter()
                .any(|m| m.slot == slot && !m.wdl_section),
            "{:?}",
            own.examples
        );
        // Put back, listed again: verify passes again.
        std::fs::write(store.table_path(id), before).unwrap();
        store.update_manifest(&[id], &[]).unwrap();
        assert!(verify(dir.path(), &rules, &no_progress).unwrap().is_ok());
    }
}

#[test]
fn dtw_is_added_to_a_solved_directory_and_resumes_to_the_same_bytes() {
    let rules = rules();
    let dir = tempfile::tempdir().unwrap();
    solve_all(dir.path(), &rules, false);
    let rdir = TablebaseDir::new(dir.path(), &rules).path().to_path_buf();
    let before = files(&rdir, &rules);
    assert!(before.keys().all(|n| !n.ends_with(".tgdw")));
    solve_all(dir.path(), &rules, true);
    let after = files(&rdir, &rules);
    for (name, bytes) in &before {
        assert_eq!(after.get(name), Some(bytes), "{name} changed");
    }
    let added: Vec<&String> = after.keys().filter(|n| !before.contains_key(*n)).collect();
    assert!(added.iter().all(|n| n.ends_with(".tgdw")), "{added:?}");
    assert_eq!(added.len(), before.len(), "one DTW table per table");

    // A run stopped after some DTW tables: the next one ends with the same bytes.
    for name in ["3v3.tgdw", "p5-2v3.tgdw", "p0-0v0.tgdw"] {
        std::fs::remove_file(rdir.join(name)).unwrap();
    }
    solve_all(dir.path(), &rules, true);
    assert_eq!(files(&rdir, &rules), after);
    assert!(verify(dir.path(), &rules, &no_progress).unwrap().is_ok());
}

/// Counts nothing: `verify_kinds`' observer.
struct Nothing;
impl tigadi_jobs::VerifyObserver for Nothing {}

/// `verify_kinds` checks the tables of the kinds asked for, both phases, and no
/// other: an altered DTW fails a DTW-only run and is not seen by a game-only run;
/// a DTW-only run that passes is recorded in the journal, so that a later run of
/// every kind does not recompute those tables (their check's game-theoretic
/// tables are hashed for the journal though not verified).
#[test]
fn verify_of_one_kind_checks_that_kind_only() {
    use tigadi_jobs::verify_kinds;
    let rules = rules();
    let dir = tempfile::tempdir().unwrap();
    solve_all(dir.path(), &rules, true);
    let store = TablebaseDir::new(dir.path(), &rules);
    let count = |kind: TableKind| {
        store
            .list()
            .unwrap()
            .into_iter()
            .filter(|id| id.kind == kind)
            .count()
    };
    for (kinds, resume) in [
        (&[TableKind::Dtw][..], true),
        (&[TableKind::GameTheoretic][..], false),
    ] {
        let report = verify_kinds(dir.path(), &rules, resume, kinds, &Nothing).unwrap();
        assert!(report.is_ok(), "{kinds:?}: {report:?}");
        assert_eq!(report.subspaces.len(), count(kinds[0]), "{kinds:?}");
        assert!(report.subspaces.iter().all(|s| s.kind == kinds[0]));
        assert_eq!(report.sums.unwrap().listed, count(kinds[0]));
    }
    // Every DTW table passed the DTW-only run and is not recomputed now.
    let all = verify_kinds(dir.path(), &rules, true, &TableKind::ALL, &Nothing).unwrap();
    assert!(all.is_ok());
    for s in &all.subspaces {
        assert_eq!(s.earlier, s.kind == TableKind::Dtw, "{s:?}");
    }
    let id = TableId::new(
        TableKind::Dtw,
        tigadi_tablebase::Tier::after_placements(&rules, 5_u32, Subspace::new(2, 3)),
    );
    alter_one_dtw(&store, id);
    let dtw = verify_kinds(dir.path(), &rules, true, &[TableKind::Dtw], &Nothing).unwrap();
    assert!(!dtw.is_ok(), "an altered DTW passed a DTW-only run");
    let game = verify_kinds(
        dir.path(),
        &rules,
        false,
        &[TableKind::GameTheoretic],
        &Nothing,
    )
    .unwrap();
    assert!(game.is_ok(), "{game:?}");
    assert!(verify_kinds(dir.path(), &rules, false, &[], &Nothing).is_err());
}

/// Every table's header counts are those of its positions, recounted here board
/// by board from the index (padding left out); a DTW table's wins, draws and
/// losses are its game table's. A DTW table written with values in its padding
/// (as the moving DTW pass once wrote them, from game tables read back from
/// their files) fails `verify` for its counts.
#[test]
fn header_counts_are_the_positions_and_verify_checks_them() {
    use tigadi_tablebase::ClassCounts;
    let rules = rules();
    let dir = tempfile::tempdir().unwrap();
    solve_all(dir.path(), &rules, true);
    let store = TablebaseDir::new(dir.path(), &rules);
    let wdl = |c: ClassCounts| (c.wins, c.draws, c.losses);
    for id in store.list().unwrap() {
        let table = store.open(id).unwrap();
        let values = table.values().unwrap();
        let mut counts = ClassCounts::default();
        for (slot, _) in common::boards(id.tier.subspace) {
            counts.add(values[slot as usize].get().unwrap());
        }
        assert_eq!(table.header().counts, counts, "{id:?}");
        if id.kind == TableKind::Dtw {
            let game = store.open(id.with_kind(TableKind::GameTheoretic)).unwrap();
            assert_eq!(wdl(game.header().counts), wdl(counts), "{id:?}");
        }
    }

    let id = TableId::moving(TableKind::Dtw, Subspace::new(3, 3));
    let before = store.open(id).unwrap().header().counts;
    let filled = store.load(id).unwrap();
    store.write(id, TableData::Dtw(&filled)).unwrap();
    store.update_manifest(&[id], &[]).unwrap();
    let after = store.open(id).unwrap().header().counts;
    assert!(
        after.classes() > before.classes(),
        "3v3 has no padding: the check is not exercised"
    );
    let report = verify(dir.path(), &rules, &no_progress).unwrap();
    let bad: Vec<_> = report.subspaces.iter().filter(|s| !s.is_ok()).collect();
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert_eq!(
        (bad[0].kind, bad[0].tier.is_moving()),
        (TableKind::Dtw, true)
    );
    let error = bad[0].error.as_ref().expect("a header error").to_string();
    assert!(error.contains("header counts"), "{error}");
}
