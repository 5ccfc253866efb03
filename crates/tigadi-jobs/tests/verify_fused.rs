//! `verify` recomputes a subspace's moving-phase tables of every kind in one
//! sweep: each position's successors are generated and indexed once and looked up
//! in the game-theoretic, 100-turn and DTW tables. Under `tigadi,quiet=5` the
//! three kinds hold different values (the rule changes values, and DTW is not
//! DTC), so a sweep that read one kind's successors for another would fail here:
//! every table must pass, each with all its positions checked, and a value
//! altered in one kind's table (re-encoded with valid checksums and listed in
//! `SHA256SUMS`, so that only the recomputation can see it) must fail that
//! kind's tables only, at the altered slot among others.

mod common;

use common::Silent;
use std::path::Path;
use tigadi_index::Subspace;
use tigadi_jobs::{solve_pairs, verify};
use tigadi_rules::RuleSet;
use tigadi_solve::{pairs_up_to_pieces, Packed, Value};
use tigadi_tablebase::{TableData, TableId, TableKind, TablebaseDir};

fn rules() -> RuleSet {
    RuleSet::parse("tigadi,quiet=5").unwrap()
}

/// The moving phase up to 8 gotis, with its 100-turn and DTW tables.
fn solve(dir: &Path) -> Vec<Subspace> {
    let rules = rules();
    let pairs = pairs_up_to_pieces(rules.pieces, 8);
    solve_pairs(
        dir,
        &rules,
        &pairs,
        &[TableKind::Horizon, TableKind::Dtw],
        &Silent,
    )
    .unwrap();
    pairs
        .iter()
        .flat_map(|p| [p.first, p.first.flipped()])
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// Rewrites table `id` with the value at its first slot whose value is a win of
/// depth 2 or more, and for the horizon table within the limit, made one turn
/// longer (still a win: the first section agrees), lists it in `SHA256SUMS`,
/// and returns the slot.
fn alter(store: &TablebaseDir, id: TableId) -> u64 {
    let mut values = store.load(id).unwrap();
    let limit = if id.kind == TableKind::Horizon {
        5
    } else {
        200
    };
    let slot = (0..values.len())
        .find(|&i| matches!(values[i].get(), Some(Value::Win(d)) if d >= 2 && d < limit))
        .expect("a win of depth 2 or more");
    let Some(Value::Win(d)) = values[slot].get() else {
        unreachable!()
    };
    values[slot] = Packed::new(Value::Win(d + 1));
    tigadi_tablebase::mark_padding(id.subspace, &mut values);
    let game;
    let data = match id.kind {
        TableKind::GameTheoretic => TableData::Game(&values),
        TableKind::Dtw => TableData::Dtw(&values),
        TableKind::Horizon => {
            game = store.load(id.with_kind(TableKind::GameTheoretic)).unwrap();
            TableData::Horizon {
                game: &game,
                dtc100: &values,
            }
        }
    };
    store.write(id, data).unwrap();
    store.update_manifest(&[id], &[]).unwrap();
    slot as u64
}

#[test]
fn every_kind_is_checked_in_one_sweep_and_faults_stay_in_their_kind() {
    let rules = rules();
    let dir = tempfile::tempdir().unwrap();
    let subs = solve(dir.path());
    let store = TablebaseDir::new(dir.path(), &rules);

    // The kinds differ: somewhere the rule changes a value, and somewhere a DTW
    // differs from the DTC.
    let differ = |kind: TableKind| {
        subs.iter().any(|&s| {
            let game = store
                .load(TableId::moving(TableKind::GameTheoretic, s))
                .unwrap();
            let other = store.load(TableId::moving(kind, s)).unwrap();
            common::boards(s)
                .into_iter()
                .any(|(slot, _)| game[slot as usize] != other[slot as usize])
        })
    };
    assert!(differ(TableKind::Horizon));
    assert!(differ(TableKind::Dtw));

    let report = verify(dir.path(), &rules, &|_, _| {}).unwrap();
    assert!(report.is_ok(), "{report:?}");
    for kind in TableKind::ALL {
        for &s in &subs {
            let r: Vec<_> = report
                .subspaces
                .iter()
                .filter(|r| r.kind == kind && r.subspace == s && r.placing.is_none())
                .collect();
            assert_eq!(r.len(), 1, "{kind:?} {s}");
            assert_eq!(r[0].checked, common::boards(s).len() as u64, "{kind:?} {s}");
        }
    }

    // One altered value per kind in turn, in 4v3 (a capture target of 3v5 and a
    // quiet successor of 3v4), restored after: that kind's tables fail, no other
    // kind's does.
    let sub = Subspace::new(4, 3);
    for kind in TableKind::ALL {
        let id = TableId::moving(kind, sub);
        let original = std::fs::read(store.table_path(id)).unwrap();
        let sums = std::fs::read(store.path().join("SHA256SUMS")).ok();
        let slot = alter(&store, id);
        let report = verify(dir.path(), &rules, &|_, _| {}).unwrap();
        assert!(!report.is_ok());
        for r in &report.subspaces {
            assert!(r.error.is_none(), "{r:?}");
            if r.kind != kind {
                assert!(
                    r.is_ok(),
                    "{kind:?} altered, {:?} {} failed",
                    r.kind,
                    r.subspace
                );
            }
        }
        let own = report
            .subspaces
            .iter()
            .find(|r| r.kind == kind && r.subspace == sub && r.placing.is_none())
            .unwrap();
        assert!(
            own.examples
                .iter()
                .any(|m| m.slot == slot && !m.wdl_section),
            "{kind:?}: {own:?}"
        );
        std::fs::write(store.table_path(id), original).unwrap();
        if let Some(sums) = sums {
            std::fs::write(store.path().join("SHA256SUMS"), sums).unwrap();
        }
    }
}
