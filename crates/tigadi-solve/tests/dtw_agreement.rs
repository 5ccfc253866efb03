//! The depth-to-win (DTW) pass against the independent whole-game oracle
//! (`tests/oracle/dtw.rs`): every position of both phases of three whole games with
//! four gotis a side (every slot of every table: moving-phase subspaces 3v3 to 4v4
//! and every placing layer), value and DTW; the oracle's and the toolkit's symmetry
//! classes are counted against each other per subspace. The toolkit's side is its
//! production path: the game-theoretic values pair by pair, the DTW pass over them,
//! the placing pass with DTW. The placing tables' game-theoretic values (DTC pass)
//! are checked against the oracle's win/draw/loss on the way.

use crate::oracle;

use oracle::dtw::{DtwOracle, Phase};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::RuleSet;
use tigadi_solve::dtw::solve_up_to_dtw;
use tigadi_solve::leaving::{solve_placing, solve_placing_with};
use tigadi_solve::Quiet;
use tigadi_solve::{solve_up_to, Metric, Packed, SolvedTable, Value};

/// One game at a time: each holds about half a gigabyte.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Compares every slot of one toolkit table with the oracle; returns (classes,
/// mismatches, longest DTW). Prints the first mismatches if `report`.
fn compare(
    oracle: &DtwOracle,
    phase: Phase,
    sub: Subspace,
    table: &[Packed],
    report: bool,
) -> (u64, u64, u16) {
    let idx = SubspaceIndex::new(sub);
    let (classes, wrong, longest) = (AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0));
    (0..table.len()).into_par_iter().for_each(|slot| {
        let Some(b) = idx.board(slot as u64) else {
            return;
        };
        classes.fetch_add(1, Relaxed);
        let expected = match phase {
            Phase::Moving => oracle.moving(b.mover, b.opponent),
            Phase::Placing(k) => oracle.placing(k, b.mover, b.opponent),
        };
        let got = table[slot].get();
        longest.fetch_max(expected.dtc().unwrap_or(0) as u64, Relaxed);
        if got != Some(expected) && wrong.fetch_add(1, Relaxed) < 5 && report {
            eprintln!(
                "{} {phase:?} {sub} {b:?}: toolkit {got:?}, oracle {expected:?}",
                oracle.rules()
            );
        }
    });
    (
        classes.into_inner(),
        wrong.into_inner(),
        longest.into_inner() as u16,
    )
}

/// The whole game of `name` both ways; returns the longest DTW of the moving and
/// of the placing phase and the empty board's value.
fn agree(name: &str) -> (u16, u16, Value) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let rules = RuleSet::parse(name).unwrap();
    let n = rules.pieces as u32;
    let t0 = Instant::now();
    let values = solve_up_to(&rules, 2 * n, &Quiet, |_, _, _| {});
    let dtw = solve_up_to_dtw(&rules, 2 * n, &values, &Quiet, |_, _, _| {});
    let placing_values = solve_placing(&rules, &SolvedTable::views(&values), &Quiet, |_, _| {})
        .expect("the moving phase is complete");
    drop(values);
    let placing_dtw = solve_placing_with(
        &rules,
        Metric::Dtw,
        &SolvedTable::views(&dtw),
        &Quiet,
        |_, _| {},
    )
    .expect("the moving phase's DTW is complete");
    let toolkit = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    let oracle = DtwOracle::solve(rules);
    let naive = t1.elapsed().as_secs_f64();

    let (mut classes, mut wrong, mut longest) = (0, 0, [0u16; 2]);
    let mut tally = |phase: Phase, sub: Subspace, table: &[Packed]| {
        let (c, w, l) = compare(&oracle, phase, sub, table, true);
        assert_eq!(
            c,
            oracle.classes(phase, sub.mover as u32, sub.opponent as u32),
            "{name} {phase:?} {sub}: toolkit and oracle count different classes"
        );
        classes += c;
        wrong += w;
        let i = (phase != Phase::Moving) as usize;
        longest[i] = longest[i].max(l);
    };
    for (sub, table) in &dtw {
        tally(Phase::Moving, *sub, table);
    }
    for (k, (game, depth)) in placing_values.iter().zip(&placing_dtw).enumerate() {
        for (g, d) in game.iter().zip(depth) {
            assert_eq!(g.subspace, d.subspace);
            // The placing values (DTC pass) have the DTW tables' win/draw/loss.
            assert!(
                g.values
                    .iter()
                    .zip(&d.values)
                    .all(|(g, d)| g.get().map(|v| v.wdl()) == d.get().map(|v| v.wdl())),
                "{name} layer {k} {}: values and DTW differ in win/draw/loss",
                g.subspace
            );
            tally(Phase::Placing(k as u32), d.subspace, &d.values);
        }
    }
    assert_eq!(wrong, 0, "{name}: toolkit and oracle disagree");

    // The comparison sees a DTW off by one either way (so it cannot pass on
    // win/draw/loss alone).
    let (sub, table) = dtw
        .iter()
        .find(|(s, _)| s.mover == 4 && s.opponent == 4)
        .expect("4v4 solved");
    let slot = table
        .iter()
        .position(|p| matches!(p.get(), Some(Value::Win(d)) if d > 1))
        .expect("a win");
    for delta in [1i32, -1] {
        let mut altered = table.clone();
        let Some(Value::Win(d)) = altered[slot].get() else {
            unreachable!()
        };
        altered[slot] = Packed::new(Value::Win((d as i32 + delta) as u16));
        assert_eq!(compare(&oracle, Phase::Moving, *sub, &altered, false).1, 1);
    }

    let start = oracle.placing(0, 0, 0);
    assert_eq!(
        placing_dtw[0][0].values,
        [Packed::new(start)],
        "{name}: empty board"
    );
    eprintln!(
        "{name}: {classes} classes agree; longest DTW moving {}, placing {}; empty board {start}; \
         toolkit {toolkit:.1} s, oracle {naive:.1} s (wall)",
        longest[0], longest[1]
    );
    (longest[0], longest[1], start)
}

#[test]
fn tigadi_4_a_side_dtw_agrees_with_oracle() {
    agree("tigadi,pieces=4");
}

#[test]
fn navakankari_4_a_side_dtw_agrees_with_oracle() {
    agree("navakankari,pieces=4");
}

#[test]
fn morris_4_a_side_dtw_agrees_with_oracle() {
    agree("morris,pieces=4");
}
