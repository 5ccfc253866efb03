//! Properties of the retrograde solver's output: every stored value is the best over
//! its successors (recomputed from raw successors, not classes), padding is exactly
//! the index's padding, and the result does not depend on the thread count.

use crate::common;

use common::Solved;
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::RuleSet;
use tigadi_solve::{evaluate, Packed};

/// Every canonical slot's value equals `evaluate` over its raw successors, and
/// every padding slot holds no value.
fn check_consistent(s: &Solved) {
    for (&sub, values) in &s.tables {
        let idx = SubspaceIndex::new(sub);
        assert_eq!(idx.slots() as usize, values.len());
        for (slot, &v) in values.iter().enumerate() {
            match idx.board(slot as u64) {
                None => assert_eq!(v, Packed::NONE, "padding slot {slot} of {sub} has a value"),
                Some(b) => {
                    let expected = evaluate(&s.rules, b, |n| s.value(n));
                    assert_eq!(
                        v.get(),
                        Some(expected),
                        "{} {sub} slot {slot} {b:?}",
                        s.rules
                    );
                }
            }
        }
    }
}

#[test]
fn tigadi_up_to_8_is_consistent() {
    check_consistent(&Solved::up_to(RuleSet::TIGADI, 8));
}

#[test]
fn navakankari_and_morris_up_to_7_are_consistent() {
    check_consistent(&Solved::up_to(RuleSet::NAVAKANKARI, 7));
    check_consistent(&Solved::up_to(RuleSet::MORRIS, 7));
    // The moving rules of `morabaraba` (its 12 a side do not matter up to 7).
    check_consistent(&Solved::up_to(RuleSet::MORABARABA, 7));
}

#[test]
fn result_does_not_depend_on_thread_count() {
    let solve = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| Solved::up_to(RuleSet::TIGADI, 7)).tables
    };
    let (one, three) = (solve(1), solve(3));
    assert_eq!(one.len(), 3);
    for (sub, v) in &one {
        assert!(three[sub] == *v, "{sub} differs between 1 and 3 threads");
    }
}

/// Nine men's morris figures published with the Malom databases (Gévay & Danner)
/// and by Gasser (1996), counted over symmetry classes, side to move first.
#[test]
fn morris_reproduces_published_figures() {
    let s = Solved::up_to(RuleSet::MORRIS, 7);
    assert_eq!(
        s.class_counts(Subspace::new(3, 3)),
        (169_626, 140_621, 269, 28_736, 25, 26)
    );
    let (classes, w, d, l, _, _) = s.class_counts(Subspace::new(3, 4));
    assert_eq!((classes, w, d, l), (760_398, 102_281, 658_117, 0));
    let (classes, w, d, l, _, _) = s.class_counts(Subspace::new(4, 3));
    assert_eq!((classes, w, d, l), (760_398, 75_397, 681_906, 3_095));
}

/// Forward rounds, backward rounds and the adaptive mix give identical tables (the
/// adaptive runs above are checked for consistency; this pins the other two to them).
#[test]
fn round_directions_agree() {
    use tigadi_solve::{pairs_up_to, solve_pair_with, Quiet, Rounds, SolvedTable};
    for rules in [RuleSet::TIGADI, RuleSet::MORRIS] {
        let reference = Solved::up_to(rules, 8);
        for mode in [Rounds::Forward, Rounds::Backward] {
            for pair in pairs_up_to(8) {
                let targets: Vec<SolvedTable> = pair
                    .capture_targets()
                    .into_iter()
                    .map(|t| SolvedTable {
                        subspace: t,
                        values: &reference.tables[&t],
                    })
                    .collect();
                for s in solve_pair_with(&rules, pair, &targets, &Quiet, mode).unwrap() {
                    assert!(
                        s.values == reference.tables[&s.subspace],
                        "{rules} {} differs with {mode:?} rounds",
                        s.subspace
                    );
                }
            }
        }
    }
}
