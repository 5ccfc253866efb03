//! Tests of the independent oracle itself (tests/oracle/mod.rs): its ranking, its
//! move generator and values on hand-built positions, the published nine men's
//! morris figures, a one-step Bellman check of every solved position, symmetry
//! invariance, and its one shortcut against plain exhaustive iteration.
//!
//! Run times are printed (`--nocapture`); `ORACLE_VERBOSE=1` prints every round.

use crate::oracle;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use oracle::{check_ranking, solved, turns, ClassCounts, OracleSolution, Turn};
use tigadi_rules::geometry::{transform_point, BoardKind, Point, SYMMETRIES};
use tigadi_rules::RuleSet;
use tigadi_solve::value::Value;

/// The 16-line board without flying where a blocked player passes: the only preset-free
/// rule set here, so that passes get tested on positions small enough (3v3) to solve.
const PLAIN_PASSING: RuleSet = RuleSet {
    board: BoardKind::Plain,
    flying: false,
    blocked_loses: false,
    quiet: tigadi_rules::DEFAULT_QUIET,
    pieces: 9,
    slides_in_hand: false,
};

/// The set of the named points, e.g. `set("a1 d1 g4")`.
fn set(names: &str) -> u32 {
    names
        .split_whitespace()
        .map(|n| {
            Point::parse(n)
                .unwrap_or_else(|| panic!("bad point {n}"))
                .bit()
        })
        .fold(0, |a, b| a | b)
}

fn class_counts(sol: &OracleSolution, m: u32, o: u32) -> ClassCounts {
    let t = Instant::now();
    let c = sol.class_counts(m, o);
    eprintln!(
        "{} {m}v{o} over classes ({:.1} s): {c:?}",
        sol.rules(),
        t.elapsed().as_secs_f64()
    );
    c
}

#[test]
fn ranking_is_dense_and_consistent() {
    assert_eq!(OracleSolution::raw_positions(3, 3), 2024 * 1330);
    assert_eq!(OracleSolution::raw_positions(3, 4), 2024 * 5985);
    assert_eq!(OracleSolution::raw_positions(4, 3), 10626 * 1140);
    for (m, o) in [(3, 3), (3, 4), (4, 3)] {
        check_ranking(m, o);
    }
}

#[test]
fn move_generator_by_hand() {
    // Tigadi: g4-g1 closes a1 d1 g1; the opponent's c5 d5 e5 is a complete line, so
    // only b6 may be taken.
    let t = turns(RuleSet::TIGADI, set("a1 d1 g4"), set("c5 d5 e5 b6"));
    let captures: Vec<_> = t
        .iter()
        .filter_map(|t| match *t {
            Turn::Capture {
                from, to, taken, ..
            } => Some((from.name(), to.name(), taken.name())),
            _ => None,
        })
        .collect();
    assert_eq!(captures, vec![("g4", "g1", "b6")]);
    let capture = t
        .iter()
        .find(|t| matches!(t, Turn::Capture { .. }))
        .unwrap();
    assert_eq!(
        *capture,
        Turn::Capture {
            from: Point::parse("g4").unwrap(),
            to: Point::parse("g1").unwrap(),
            taken: Point::parse("b6").unwrap(),
            next_mover: set("c5 d5 e5"),
            next_opponent: set("a1 d1 g1"),
        }
    );
    // Every goti of the opponent in a line: any may be taken.
    let t = turns(RuleSet::TIGADI, set("a1 d1 g4"), set("c5 d5 e5"));
    assert_eq!(
        t.iter()
            .filter(|t| matches!(t, Turn::Capture { .. }))
            .count(),
        3
    );
    // Slides from a1 (d1 is its own): a4 and, on the 20-line board only, b2.
    let from_a1 = |rules| {
        let mut v: Vec<&str> = turns(rules, set("a1 d1 g4"), set("c5 d5 e5"))
            .iter()
            .filter_map(|t| match *t {
                Turn::Quiet { from, to, .. } if from.name() == "a1" => Some(to.name()),
                _ => None,
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(from_a1(RuleSet::TIGADI), vec!["a4", "b2"]);
    assert_eq!(from_a1(RuleSet::NAVAKANKARI), vec!["a4"]);
    // Moving out of a line and back in closes it again (the running tigadi).
    let back = turns(RuleSet::NAVAKANKARI, set("a1 d1 g4"), set("c5 d5 e5"));
    assert!(back.iter().any(|t| matches!(t, Turn::Quiet { from, to, .. }
        if from.name() == "g4" && to.name() == "g7")));
    // Flying with exactly three: 3 gotis × 18 empty points = 54 flights, of which
    // the one into g1 captures (3 choices: every opponent goti is in a line).
    let t = turns(RuleSet::MORRIS, set("a1 d1 g4"), set("c5 d5 e5"));
    assert_eq!(t.len(), 3 * 18 - 1 + 3);
    // No flying with four: a1-a4, d1-d2, g4-f4, g7-d7 quiet; d1-g1 (closing g1 g4
    // g7) and g4-g1 (closing a1 d1 g1) capture, 3 choices each.
    let t = turns(RuleSet::MORRIS, set("a1 d1 g4 g7"), set("c5 d5 e5"));
    assert_eq!(t.len(), 4 + 2 * 3);
    // Blocked: a1 a4 a7 hemmed in by d1 b4 d7 on the 16-line board.
    assert!(turns(RuleSet::NAVAKANKARI, set("a1 a4 a7"), set("d1 b4 d7")).is_empty());
    assert_eq!(
        turns(PLAIN_PASSING, set("a1 a4 a7"), set("d1 b4 d7")),
        vec![Turn::Pass {
            next_mover: set("d1 b4 d7"),
            next_opponent: set("a1 a4 a7")
        }]
    );
}

#[test]
fn hand_built_values() {
    let tigadi = solved(RuleSet::TIGADI, 3, 3);
    // Closing a1 d1 g1 now against three gotis wins at once.
    assert_eq!(
        tigadi.value(set("a1 d1 g4"), set("c5 d6 e4")),
        Value::Win(1)
    );
    // The other side to move there: it has no goti next to g1 and cannot close a
    // line itself, so it loses on the next turn.
    assert_eq!(
        tigadi.value(set("c5 d6 e4"), set("a1 d1 g4")),
        Value::Loss(2)
    );

    let nava = solved(RuleSet::NAVAKANKARI, 3, 3);
    // a1 a4 a7 hemmed in by d1 b4 d7: blocked, and a blocked player loses.
    assert_eq!(nava.value(set("a1 a4 a7"), set("d1 b4 d7")), Value::Loss(0));
    // One turn earlier: d6-d7 blocks them, a win in one turn.
    assert_eq!(nava.value(set("d1 b4 d6"), set("a1 a4 a7")), Value::Win(1));

    let morris = solved(RuleSet::MORRIS, 3, 3);
    // Flying: b6 flies to g1 and closes a1 d1 g1.
    assert_eq!(
        morris.value(set("a1 d1 b6"), set("c5 d6 e4")),
        Value::Win(1)
    );

    // Where blocked players pass, the pass is a turn: one more than the value after it.
    let passing = solved(PLAIN_PASSING, 3, 3);
    let after = passing.value(set("d1 b4 d7"), set("a1 a4 a7"));
    let before = passing.value(set("a1 a4 a7"), set("d1 b4 d7"));
    let expected = match after {
        Value::Win(d) => Value::Loss(d + 1),
        Value::Loss(d) => Value::Win(d + 1),
        Value::Draw => Value::Draw,
    };
    assert_eq!(before, expected, "pass: after {after:?}");
}

/// Gasser (1996); Gévay & Danner (Malom): nine men's morris, 3 v 3, side to move
/// first, over the 16-symmetry classes. Longest win 25 plies, longest loss 26: here
/// the DTC of the longest win and loss (no blocked position exists at 3 v 3, both
/// sides fly).
#[test]
fn morris_3v3_published_figures() {
    let sol = solved(RuleSet::MORRIS, 3, 3);
    let c = class_counts(sol, 3, 3);
    assert_eq!(c.classes(), 169_626);
    assert_eq!(
        c,
        ClassCounts {
            wins: 140_621,
            draws: 269,
            losses: 28_736,
            max_win_dtc: 25,
            max_loss_dtc: 26
        }
    );
}

/// The same sources: 3 v 4 and 4 v 3 (side to move first).
#[test]
fn morris_3v4_4v3_published_figures() {
    let sol = solved(RuleSet::MORRIS, 3, 4);
    let c34 = class_counts(sol, 3, 4);
    let c43 = class_counts(sol, 4, 3);
    assert_eq!(c34.classes(), 760_398);
    assert_eq!(c43.classes(), 760_398);
    assert_eq!((c34.wins, c34.draws, c34.losses), (102_281, 658_117, 0));
    assert_eq!((c43.wins, c43.draws, c43.losses), (75_397, 681_906, 3_095));
    // Not published; what the oracle finds (a regression pin for the oracle only).
    assert_eq!(
        (c34.max_win_dtc, c43.max_win_dtc, c43.max_loss_dtc),
        (11, 1, 10)
    );
}

/// Every stored value equals the best over the stored values of its successors.
fn bellman_check(sol: &OracleSolution) {
    let t = Instant::now();
    for (m, o) in sol.subspaces() {
        let bad = AtomicU64::new(0);
        sol.par_for_each_position(m, o, |mover, opponent, v| {
            let e = sol.evaluate(mover, opponent);
            if e != v && bad.fetch_add(1, Ordering::Relaxed) < 5 {
                eprintln!("{m}v{o} {mover:#x} {opponent:#x}: stored {v:?}, successors give {e:?}");
            }
        });
        assert_eq!(bad.into_inner(), 0, "{} {m}v{o}", sol.rules());
    }
    eprintln!(
        "Bellman check {} {:?}: {:.1} s",
        sol.rules(),
        sol.subspaces(),
        t.elapsed().as_secs_f64()
    );
}

#[test]
fn bellman_consistency_3v3() {
    for rules in [
        RuleSet::TIGADI,
        RuleSet::NAVAKANKARI,
        RuleSet::MORRIS,
        PLAIN_PASSING,
    ] {
        bellman_check(solved(rules, 3, 3));
    }
}

/// Tigadi 3 v 4 and 4 v 3: Bellman-consistent, and the oracle's own class counts
/// (not published anywhere: a regression pin for the oracle, and the figures the
/// real solver must reproduce).
#[test]
fn tigadi_3v4_4v3() {
    let sol = solved(RuleSet::TIGADI, 3, 4);
    bellman_check(sol);
    let c33 = class_counts(sol, 3, 3);
    let c34 = class_counts(sol, 3, 4);
    let c43 = class_counts(sol, 4, 3);
    assert_eq!(c33.as_tuple(), (74_146, 61_779, 33_701, 23, 24));
    assert_eq!(c34.as_tuple(), (149_860, 2_606, 607_932, 17, 32));
    assert_eq!(c43.as_tuple(), (712_934, 1_140, 46_324, 31, 16));
}

#[test]
fn values_are_symmetric() {
    let perm: Vec<Vec<u32>> = (0..SYMMETRIES)
        .map(|s| Point::all().map(|p| transform_point(s, p).bit()).collect())
        .collect();
    let image = |s: usize, set: u32| -> u32 {
        Point::all()
            .filter(|p| set & p.bit() != 0)
            .map(|p| perm[s][p.index()])
            .fold(0, |a, b| a | b)
    };
    for rules in [RuleSet::TIGADI, RuleSet::NAVAKANKARI, RuleSet::MORRIS] {
        let sol = solved(rules, 3, 3);
        let bad = AtomicU64::new(0);
        sol.par_for_each_position(3, 3, |mover, opponent, v| {
            for s in 1..SYMMETRIES {
                if sol.value(image(s, mover), image(s, opponent)) != v {
                    bad.fetch_add(1, Ordering::Relaxed);
                }
            }
        });
        assert_eq!(bad.into_inner(), 0, "{rules}");
    }
}

/// The shortcut of [`OracleSolution::solve`] (skipping what cannot change in a round)
/// gives the same values as plain exhaustive iteration.
#[test]
fn shortcut_matches_exhaustive_iteration() {
    for rules in [RuleSet::TIGADI, PLAIN_PASSING] {
        let t = Instant::now();
        let plain = OracleSolution::solve_exhaustively(rules, 3, 3);
        eprintln!("exhaustive {rules} 3v3: {:.1} s", t.elapsed().as_secs_f64());
        let quick = solved(rules, 3, 3);
        assert_eq!(quick.differences(&plain), 0, "{rules}");
        assert_eq!(quick.rounds(3, 3), plain.rounds(3, 3));
    }
}
