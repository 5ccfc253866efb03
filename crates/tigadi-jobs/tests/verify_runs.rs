//! `verify` takes positions a run at a time (the moves of a run's mover set listed
//! once, capture targets read into a memo, quiet successors' slots by toggling
//! points unless a symmetry fixes their mover set). Against a naive oracle (every
//! position recomputed with `tigadi_solve::evaluate`, each successor indexed from
//! scratch), an altered value is reported exactly where it makes a stored value
//! disagree with its successors: itself and its predecessors, also those that reach
//! it by a capture from a symmetric run or by a quiet move onto a symmetric mover set.

use crate::common;

use common::*;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_jobs::verify;
use tigadi_rules::{Board, RuleSet, Successor};
use tigadi_solve::{evaluate, Packed, Value};
use tigadi_tablebase::{TableData, TablebaseDir};

const RULES: RuleSet = RuleSet::TIGADI;

/// Slots whose stored value differs from `evaluate` over the stored values, per
/// subspace.
fn oracle(tables: &HashMap<Subspace, Vec<Packed>>) -> HashMap<Subspace, BTreeSet<u64>> {
    let value = |b: Board| {
        let s = Subspace::of(b);
        tables[&s][SubspaceIndex::new(s).index(b) as usize]
            .get()
            .unwrap()
    };
    tables
        .keys()
        .map(|&s| {
            let bad = boards(s)
                .into_iter()
                .filter(|&(slot, b)| {
                    evaluate(&RULES, b, value) != tables[&s][slot as usize].get().unwrap()
                })
                .map(|(slot, _)| slot)
                .collect();
            (s, bad)
        })
        .collect()
}

/// Is the slot's run (its canonical mover set) fixed by a symmetry?
fn symmetric_run(s: Subspace, slot: u64) -> bool {
    let idx = SubspaceIndex::new(s);
    idx.run_mover(slot / idx.run_length()).1
}

/// Writes `tables` with slot `slot` of `sub` set to another value, verifies, checks
/// the report against the oracle table by table, restores the table and returns
/// the oracle's mismatching slots.
fn alter_and_verify(
    dir: &Path,
    tables: &HashMap<Subspace, Vec<Packed>>,
    sub: Subspace,
    slot: u64,
) -> HashMap<Subspace, BTreeSet<u64>> {
    let store = TablebaseDir::new(dir, &RULES);
    let mut altered = tables.clone();
    let v = &mut altered.get_mut(&sub).unwrap()[slot as usize];
    *v = Packed::new(match v.get().unwrap() {
        Value::Loss(0) => Value::Win(1),
        _ => Value::Loss(0),
    });
    store
        .write(game(sub), TableData::Game(&altered[&sub]))
        .unwrap();
    let expected = oracle(&altered);
    let report = verify(dir, &RULES, &|_, _| {}).unwrap();
    assert!(expected[&sub].contains(&slot));
    for r in &report.subspaces {
        let want = &expected[&r.tier.subspace];
        assert!(r.error.is_none(), "{r:?}");
        assert_eq!(r.mismatches, want.len() as u64, "{}", r.tier.subspace);
        let got: BTreeSet<u64> = r.examples.iter().map(|m| m.slot).collect();
        assert!(
            got.is_subset(want),
            "{}: {got:?} not in {want:?}",
            r.tier.subspace
        );
        if want.len() <= verify::MAX_EXAMPLES {
            assert_eq!(&got, want, "{}", r.tier.subspace);
        }
        for m in &r.examples {
            assert!(!m.wdl_section);
            assert_eq!(
                m.stored,
                altered[&r.tier.subspace][m.slot as usize].get().unwrap()
            );
        }
    }
    store
        .write(game(sub), TableData::Game(&tables[&sub]))
        .unwrap();
    expected
}

#[test]
fn altered_values_are_reported_where_the_oracle_finds_them() {
    let dir = tempfile::tempdir().unwrap();
    let tables = solve_and_write(dir.path(), RULES, 7);
    assert!(oracle(&tables).values().all(|bad| bad.is_empty()));
    let (from, to) = (Subspace::new(3, 4), Subspace::new(3, 3));

    // A capture target (3v3) of a 3v4 board in a symmetric run, not already won at
    // once: set to Loss(0), the capture wins at once for that board.
    let (board_slot, target) = boards(from)
        .into_iter()
        .filter(|&(slot, _)| symmetric_run(from, slot))
        .filter(|&(slot, _)| tables[&from][slot as usize].get() != Some(Value::Win(1)))
        .find_map(|(slot, b)| {
            let mut target = None;
            b.for_each_successor(&RULES, |s| {
                if let Successor::Capture(next) = s {
                    if !next.is_game_over() && target.is_none() {
                        target = Some(SubspaceIndex::new(to).index(next));
                    }
                }
            });
            target.map(|t| (slot, t))
        })
        .expect("a capture from a symmetric run");
    let bad = alter_and_verify(dir.path(), &tables, to, target);
    assert!(bad[&from].contains(&board_slot));

    // A 4v3 board whose mover set is symmetric: its quiet predecessors (in 3v4,
    // their opponent set is that mover set) index it without the toggled form.
    let sub = Subspace::new(4, 3);
    let (slot, _) = boards(sub)
        .into_iter()
        .find(|&(slot, b)| {
            symmetric_run(sub, slot) && {
                let mut quiet = false;
                b.for_each_quiet_predecessor(&RULES, |_| quiet = true);
                quiet
            }
        })
        .expect("a symmetric 4v3 board with predecessors");
    let bad = alter_and_verify(dir.path(), &tables, sub, slot);
    assert!(!bad[&from].is_empty(), "no predecessor in 3v4 disagrees");
}
