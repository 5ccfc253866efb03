//! The depth-to-win pass (`tigadi_solve::dtw`) on its own: every position's DTW is
//! the best over its successors' (`evaluate_dtw`, what `verify` will check), its
//! win/draw/loss are the game-theoretic values it was given, it is never below the
//! DTC and equals it where every capture ends the game, and it does not depend on
//! the thread count; an altered DTW is caught, and values that are not the game's
//! are refused with an error, not a panic.

use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::RuleSet;
use tigadi_solve::dtw::{evaluate_dtw, solve_pair_dtw, solve_up_to_dtw};
use tigadi_solve::Quiet;
use tigadi_solve::TableSet;
use tigadi_solve::{solve_up_to, Packed, Pair, SolveError, SolvedTable, Value};

type Tables = HashMap<Subspace, Vec<Packed>>;

/// Game-theoretic values and DTW of every pair up to `max` gotis.
fn solve(rules: &RuleSet, max: u32) -> (Tables, Tables) {
    let values = solve_up_to(rules, max, &Quiet, |_, _, _| {});
    let dtw = solve_up_to_dtw(rules, max, &values, &Quiet, |_, _, _| {});
    (values, dtw)
}

/// Positions whose stored DTW differs from the best over their successors'.
fn bellman_mismatches(rules: &RuleSet, dtw: &Tables) -> u64 {
    let views = SolvedTable::views(dtw);
    let subs: Vec<Subspace> = views.iter().map(|t| t.subspace).collect();
    let lookup = TableSet::new(&views, &subs).unwrap();
    let wrong = AtomicU64::new(0);
    for (sub, table) in dtw {
        let idx = SubspaceIndex::new(*sub);
        (0..table.len()).into_par_iter().for_each(|slot| {
            let stored = table[slot];
            let Some(board) = idx.board(slot as u64) else {
                assert_eq!(stored, Packed::NONE);
                return;
            };
            let best = evaluate_dtw(rules, board, |next| lookup.value(next).expect("solved"));
            if stored.get() != Some(best) && wrong.fetch_add(1, Relaxed) < 5 {
                eprintln!("{rules} {sub} {board:?}: stored {stored:?}, successors give {best}");
            }
        });
    }
    wrong.into_inner()
}

#[test]
fn dtw_is_the_best_over_successors_and_fits_the_values() {
    // The last: the 16-line board without flying where a blocked player passes,
    // so that passes occur.
    let passing = RuleSet::parse("lines=16,flying=never,blocked=passes").unwrap();
    for rules in [
        RuleSet::TIGADI,
        RuleSet::NAVAKANKARI,
        RuleSet::MORRIS,
        passing,
    ] {
        let (values, dtw) = solve(&rules, 7);
        assert_eq!(bellman_mismatches(&rules, &dtw), 0, "{rules}");
        let (mut deeper, mut longest) = (0u64, 0u16);
        for (sub, table) in &dtw {
            for (d, v) in table.iter().zip(&values[sub]) {
                let (Some(d), Some(v)) = (d.get(), v.get()) else {
                    assert_eq!((*d, *v), (Packed::NONE, Packed::NONE));
                    continue;
                };
                assert_eq!(d.wdl(), v.wdl(), "{rules} {sub}");
                let (d, v) = (d.dtc().unwrap_or(0), v.dtc().unwrap_or(0));
                // The game cannot end before the next capture; with three a side
                // every capture ends it.
                assert!(d >= v, "{rules} {sub}: DTW {d} below DTC {v}");
                if sub.mover == 3 && sub.opponent == 3 {
                    assert_eq!(d, v, "{rules} 3v3");
                }
                deeper += (d > v) as u64;
                longest = longest.max(d);
            }
        }
        // Captures that do not end the game occur, so some DTW exceeds its DTC.
        assert!(deeper > 1000, "{rules}: {deeper}");
        eprintln!(
            "{rules} up to 7 gotis: longest DTW {longest}, {deeper} positions with DTW > DTC"
        );
    }
}

#[test]
fn an_altered_dtw_breaks_the_check() {
    let rules = RuleSet::TIGADI;
    let (_, mut dtw) = solve(&rules, 7);
    let table = dtw.get_mut(&Subspace::new(4, 3)).unwrap();
    let slot = table
        .iter()
        .position(|p| matches!(p.get(), Some(Value::Loss(d)) if d > 5))
        .unwrap();
    let Some(Value::Loss(d)) = table[slot].get() else {
        unreachable!()
    };
    table[slot] = Packed::new(Value::Loss(d + 1));
    assert!(bellman_mismatches(&rules, &dtw) >= 1);
}

#[test]
fn output_does_not_depend_on_the_thread_count() {
    let rules = RuleSet::TIGADI;
    let values = solve_up_to(&rules, 7, &Quiet, |_, _, _| {});
    let with = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| solve_up_to_dtw(&rules, 7, &values, &Quiet, |_, _, _| {}))
    };
    assert!(with(1) == with(3));
}

#[test]
fn values_that_are_not_the_games_are_refused() {
    let rules = RuleSet::TIGADI;
    let pair = Pair::of(Subspace::new(3, 3));
    let values = solve_up_to(&rules, 6, &Quiet, |_, _, _| {});
    let table = &values[&Subspace::new(3, 3)];
    let ok = solve_pair_dtw(&rules, pair, &SolvedTable::views(&values), &[], &Quiet);
    assert!(ok.is_ok());
    // A lost position called a draw, a won one called lost, a draw called won.
    for (from, to) in [
        (Value::Loss(4), Value::Draw),
        (Value::Win(3), Value::Loss(3)),
        (Value::Draw, Value::Win(1)),
    ] {
        let slot = table
            .iter()
            .position(|p| p.get().map(|v| v.wdl()) == Some(from.wdl()))
            .unwrap();
        let mut wrong = table.clone();
        wrong[slot] = Packed::new(to);
        let view = [SolvedTable {
            subspace: Subspace::new(3, 3),
            values: &wrong,
        }];
        assert_eq!(
            solve_pair_dtw(&rules, pair, &view, &[], &Quiet).err(),
            Some(SolveError::Inconsistent(Subspace::new(3, 3))),
            "{from} made {to}"
        );
    }
    // The capture targets' DTW are needed from 4v3 on.
    let pair = Pair::of(Subspace::new(4, 3));
    let values = solve_up_to(&rules, 7, &Quiet, |_, _, _| {});
    assert_eq!(
        solve_pair_dtw(&rules, pair, &SolvedTable::views(&values), &[], &Quiet).err(),
        Some(SolveError::MissingTarget(Subspace::new(3, 3)))
    );
}
