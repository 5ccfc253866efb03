//! `verify` recomputes a subspace's moving-phase tables of every kind in one
//! sweep: each position's successors are generated and indexed once and looked up
//! in the game-theoretic, 100-turn and DTW tables. Under `tigadi,quiet=5` the
//! three kinds hold different values (the rule changes values, and DTW is not
//! DTC), so a sweep that read one kind's successors for another would fail here:
//! every table must pass, each with all its positions checked, and a value
//! altered in one kind's table (re-encoded with valid checksums and listed in
//! `SHA256SUMS`, so that only the recomputation can see it) must fail that
//! kind's tables only, at the altered slot among others.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use tigadi_index::Subspace;
use tigadi_jobs::{verify, SubspaceReport, VerifyReport};
use tigadi_rules::RuleSet;
use tigadi_solve::{Packed, Value};
use tigadi_tablebase::{TableData, TableId, TableKind, TablebaseDir};
use tigadi_values::Tier;

fn rules() -> RuleSet {
    RuleSet::parse("tigadi,quiet=5").unwrap()
}

/// The moving phase up to 8 gotis, with its 100-turn and DTW tables, copied
/// into `dir` from a directory solved once per test binary (each test alters
/// its own copy); returns the subspaces.
fn solve(dir: &Path) -> Vec<Subspace> {
    static SOLVED: OnceLock<PathBuf> = OnceLock::new();
    let rules = rules();
    let steps = tigadi_jobs::steps(&rules, tigadi_jobs::Scope::BoardUpTo(8));
    let solved = SOLVED.get_or_init(|| {
        let d = common::scratch_dir("verify-fused");
        common::job(
            &d,
            &rules,
            &steps,
            &[TableKind::GameTheoretic, TableKind::Horizon, TableKind::Dtw],
        );
        d
    });
    common::copy_dir(solved, dir);
    steps
        .iter()
        .flat_map(|t| [t.subspace, t.subspace.flipped()])
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
    tigadi_tablebase::mark_padding(id.tier.subspace, &mut values);
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
                .filter(|r| r.kind == kind && r.tier == Tier::moving(s))
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
                    r.tier
                );
            }
        }
        let own = moving_report(&report, kind, sub);
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

/// The report on moving-phase table `kind` of `s`.
fn moving_report(report: &VerifyReport, kind: TableKind, s: Subspace) -> &SubspaceReport {
    report
        .subspaces
        .iter()
        .find(|r| r.kind == kind && r.tier == Tier::moving(s))
        .expect("a report on every table")
}

/// A moving-phase horizon table whose values are its game values capped at the
/// limit, in its subspace and in the tables its successors lie in, is settled by
/// its game table's sweep: it passes when that passes (its category section
/// still compared), and gets a sweep of its own when that fails. Under
/// `tigadi,quiet=5` up to 8 gotis some tables qualify and some do not.
#[test]
fn horizon_tables_that_follow_from_the_game_values_are_settled_by_them() {
    let rules = rules();
    let dir = tempfile::tempdir().unwrap();
    let subs = solve(dir.path());
    let store = TablebaseDir::new(dir.path(), &rules);
    let report = verify(dir.path(), &rules, &|_, _| {}).unwrap();
    assert!(report.is_ok(), "{report:?}");
    let settled: Vec<Subspace> = subs
        .iter()
        .copied()
        .filter(|&s| moving_report(&report, TableKind::Horizon, s).from_game)
        .collect();
    assert!(
        !settled.is_empty() && settled.len() < subs.len(),
        "{settled:?}"
    );
    // A settled subspace with a win within the limit (slot `x`) and a win beyond
    // it (slot `y`, a draw under the rule).
    let load = |kind: TableKind, s: Subspace| {
        let mut v = store.load(TableId::moving(kind, s)).unwrap();
        tigadi_tablebase::mark_padding(s, &mut v);
        v
    };
    let (s, x, y) = settled
        .iter()
        .find_map(|&s| {
            let game = load(TableKind::GameTheoretic, s);
            let win = |lo: u16, hi: u16| {
                common::boards(s)
                    .into_iter()
                    .map(|(slot, _)| slot as usize)
                    .find(|&i| matches!(game[i].get(), Some(Value::Win(d)) if lo <= d && d <= hi))
            };
            Some((s, win(1, 4)?, win(6, 200)?))
        })
        .expect("a settled subspace with wins on both sides of the limit");
    let write_both = |game: &[Packed], rule: &[Packed], base: &[Packed]| {
        let g = TableId::moving(TableKind::GameTheoretic, s);
        store.write(g, TableData::Game(game)).unwrap();
        let h = TableId::moving(TableKind::Horizon, s);
        store
            .write(
                h,
                TableData::Horizon {
                    game: base,
                    dtc100: rule,
                },
            )
            .unwrap();
        store.update_manifest(&[g, h], &[]).unwrap();
    };
    let (game, rule) = (
        load(TableKind::GameTheoretic, s),
        load(TableKind::Horizon, s),
    );

    // 1. The same win one turn longer in both kinds: the horizon table still
    // equals the capped game values, but the game table fails, so the horizon
    // table is swept on its own and fails at the same slot.
    let (mut g1, mut h1) = (game.clone(), rule.clone());
    let Some(Value::Win(d)) = game[x].get() else {
        unreachable!()
    };
    g1[x] = Packed::new(Value::Win(d + 1));
    h1[x] = g1[x];
    write_both(&g1, &h1, &g1);
    let report = verify(dir.path(), &rules, &|_, _| {}).unwrap();
    for kind in [TableKind::GameTheoretic, TableKind::Horizon] {
        let r = moving_report(&report, kind, s);
        assert!(!r.from_game, "{r:?}");
        assert!(
            r.examples
                .iter()
                .any(|m| m.slot == x as u64 && !m.wdl_section),
            "{r:?}"
        );
    }

    // 2. Values as solved, the category section altered at `y` (a cursed win
    // recorded as a draw): caught although the table is settled by the game's.
    let mut base = game.clone();
    base[y] = Packed::DRAW;
    write_both(&game, &rule, &base);
    let report = verify(dir.path(), &rules, &|_, _| {}).unwrap();
    let r = moving_report(&report, TableKind::Horizon, s);
    assert!(r.from_game, "{r:?}");
    assert_eq!(r.mismatches, 1, "{r:?}");
    assert_eq!(r.examples[0].slot, y as u64);
    assert!(r.examples[0].wdl_section);
    assert_eq!(report.mismatches(), 1, "only the category fails");
}

/// A DTW table's first section is compared with the game-theoretic values of
/// its subspace, which `verify` reuses from the game table's check beside it:
/// a game value whose win, draw or loss is changed (re-encoded with valid
/// checksums and listed) fails the game table at that slot and the DTW table
/// at the same slot through its first section, while the DTW values, which
/// are not changed, recompute correctly.
#[test]
fn a_dtw_table_is_compared_with_the_game_values_of_its_subspace() {
    let rules = rules();
    let dir = tempfile::tempdir().unwrap();
    solve(dir.path());
    let store = TablebaseDir::new(dir.path(), &rules);
    let sub = Subspace::new(4, 3);
    let id = TableId::moving(TableKind::GameTheoretic, sub);
    let mut game = store.load(id).unwrap();
    let slot = common::boards(sub)
        .into_iter()
        .map(|(slot, _)| slot)
        .find(|&slot| matches!(game[slot as usize].get(), Some(Value::Win(_))))
        .expect("a win");
    game[slot as usize] = Packed::DRAW;
    tigadi_tablebase::mark_padding(sub, &mut game);
    store.write(id, TableData::Game(&game)).unwrap();
    store.update_manifest(&[id], &[]).unwrap();

    let report = verify(dir.path(), &rules, &|_, _| {}).unwrap();
    let g = moving_report(&report, TableKind::GameTheoretic, sub);
    assert!(g.examples.iter().any(|m| m.slot == slot), "{g:?}");
    let d = moving_report(&report, TableKind::Dtw, sub);
    assert!(d.error.is_none(), "{d:?}");
    assert_eq!(d.mismatches, 1, "{d:?}");
    assert_eq!(d.examples[0].slot, slot, "{d:?}");
    assert!(d.examples[0].wdl_section, "{d:?}");
}
