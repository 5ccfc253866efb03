//! A set rewritten with smaller blocks (`tigadi_tablebase::reblock`, the
//! rewrite for serving) holds the same values: `verify` passes on it, and it
//! answers every probe as the set it was read from (the oracle), positions of
//! both phases.

use crate::common;

use std::path::Path;
use tigadi_index::Subspace;
use tigadi_jobs::{steps, verify, Scope};
use tigadi_rules::{Position, RuleSet, Side};
use tigadi_tablebase::{reblock, Table, TableKind, Tablebase, TablebaseDir};

fn no_progress(_: u64, _: u64) {}

#[test]
fn a_reblocked_set_verifies_and_answers_as_its_source() {
    let rules = RuleSet::parse("tigadi,pieces=4").unwrap();
    let (src, dst) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let steps = steps(&rules, Scope::Whole);
    let kinds = [TableKind::GameTheoretic, TableKind::Horizon];
    common::job(src.path(), &rules, &steps, &kinds);
    let (from, to) = (
        TablebaseDir::new(src.path(), &rules),
        TablebaseDir::new(dst.path(), &rules),
    );
    std::fs::create_dir_all(to.path()).unwrap();
    let ids = from.list().unwrap();
    assert!(ids.len() > 20, "{} tables", ids.len());
    for &id in &ids {
        let table = Table::open(&from.table_path(id)).unwrap();
        let bytes = reblock(&table, 1024).unwrap();
        assert!(bytes != std::fs::read(from.table_path(id)).unwrap());
        std::fs::write(to.table_path(id), bytes).unwrap();
    }
    let report = verify(dst.path(), &rules, &no_progress).unwrap();
    assert!(report.is_ok(), "{report:?}");
    assert_eq!(report.subspaces.len(), ids.len());

    // Every position two turns from the start (placing) and every 499th board
    // of the largest moving-phase subspaces, each side to move.
    let (a, b) = (open(src.path(), &rules), open(dst.path(), &rules));
    let start = Position::start(&rules);
    let mut positions = vec![start];
    for t in a.answer(&start).unwrap().moves {
        let next = start.apply(t.turn);
        positions.push(next);
        positions.extend(
            a.answer(&next)
                .unwrap()
                .moves
                .iter()
                .map(|u| next.apply(u.turn)),
        );
    }
    for s in [
        Subspace::new(4, 4),
        Subspace::new(4, 3),
        Subspace::new(3, 4),
    ] {
        for (_, board) in common::boards(s).into_iter().step_by(499) {
            for side in [Side::Bone, Side::Seed] {
                positions.push(Position::from_board(board, side, 0));
            }
        }
    }
    assert!(positions.len() > 1000, "{} positions", positions.len());
    for p in &positions {
        assert_eq!(a.answer(p).unwrap(), b.answer(p).unwrap(), "{p}");
    }
    assert!(b.blocks_read() > 0);
}

fn open(dir: &Path, rules: &RuleSet) -> Tablebase {
    Tablebase::with_cache_blocks(dir, rules, 16)
}
