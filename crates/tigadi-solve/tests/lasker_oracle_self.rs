//! The naive Lasker oracle (`tigadi-rules/tests/support/lasker.rs`, issue 53's test
//! infrastructure for the tier solver's comparison) checked against the moving-phase
//! oracle of `tests/oracle`: with both hands empty Lasker's rule adds nothing, so the
//! Lasker game from a 3 v 3 position with empty hands is nine men's morris's 3 v 3
//! (16 lines, flying at three, a blocked player loses). There every capture ends the
//! game, so the moving oracle's DTC and the Lasker oracle's turns to the end are the
//! same count, and every value must agree exactly.

use crate::lasker;
use crate::oracle;

use lasker::{solve, Naive, Value as NaiveValue};
use oracle::OracleSolution;
use tigadi_rules::RuleSet;
use tigadi_solve::value::Value;

#[test]
#[ignore = "solves 3 v 3 twice, naively: about 5 minutes"]
fn lasker_oracle_agrees_with_the_moving_oracle_on_3v3() {
    let moving = OracleSolution::solve(
        RuleSet {
            pieces: 3,
            ..RuleSet::MORRIS
        },
        3,
        3,
    );
    // a7 d7 g7 for Bone, a1 d1 g1 for Seed, Bone to move, nothing in hand: every
    // 3 v 3 position is reachable from it (everyone flies).
    let mut start = Naive::start(0);
    for (i, name) in lasker::NAMES.iter().enumerate() {
        start.cell[i] = match *name {
            "a7" | "d7" | "g7" => 1,
            "a1" | "d1" | "g1" => 2,
            _ => 0,
        };
    }
    let values = solve(start);
    let mut reached = std::collections::HashSet::new();
    for (state, v) in &values {
        if state.total(1) < 3 || state.total(2) < 3 {
            continue;
        }
        let p = state.to_position();
        let expected = moving.value(p.mover(), p.opponent());
        let got = match *v {
            NaiveValue::Win(n) => Value::Win(n as u16),
            NaiveValue::Loss(n) => Value::Loss(n as u16),
            NaiveValue::Draw => Value::Draw,
        };
        assert_eq!(got, expected, "{p}");
        reached.insert((p.side, p.mover(), p.opponent()));
    }
    // The Lasker oracle reached every 3 v 3 position with either side to move except
    // those where a side stands in a line: a line is closed by a move, which
    // captures and ends the game (only the start has two lines).
    let lines = &RuleSet::MORRIS.geometry().lines;
    let in_line = |set: u32| lines.iter().any(|&l| l & !set == 0);
    let mut missed = 0u64;
    for side in [tigadi_rules::Side::Bone, tigadi_rules::Side::Seed] {
        moving.for_each_position(3, 3, |m, o, _| {
            if !reached.contains(&(side, m, o)) {
                assert!(
                    in_line(m) || in_line(o),
                    "{side:?} {m:#x} {o:#x} not reached"
                );
                missed += 1;
            }
        });
    }
    assert_eq!(
        reached.len() as u64 + missed,
        2 * OracleSolution::raw_positions(3, 3)
    );
    assert!(reached.len() as u64 > 2 * OracleSolution::raw_positions(3, 3) * 9 / 10);
}
