//! Tests of the independent oracle itself (tests/oracle/mod.rs): hand-built
//! positions, the published nine men's morris figures, symmetry invariance and a
//! one-step Bellman check of every solved position.

mod oracle;

use std::time::Instant;

use oracle::{turns, ClassCounts, OracleSolution, Turn};
use tigadi_rules::geometry::{transform_point, Point, SYMMETRIES};
use tigadi_rules::RuleSet;
use tigadi_solve::value::Value;

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

fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let r = f();
    eprintln!("{what}: {:.2} s", t.elapsed().as_secs_f64());
    r
}

fn counts(wins: u64, draws: u64, losses: u64, max_win_dtc: u16, max_loss_dtc: u16) -> ClassCounts {
    ClassCounts {
        wins,
        draws,
        losses,
        max_win_dtc,
        max_loss_dtc,
    }
}

#[test]
fn raw_position_counts() {
    assert_eq!(OracleSolution::raw_positions(3, 3), 2024 * 1330);
    assert_eq!(OracleSolution::raw_positions(3, 4), 2024 * 5985);
    assert_eq!(OracleSolution::raw_positions(4, 3), 10626 * 1140);
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
    // Every goti of the opponent in a line: any may be taken.
    let t = turns(RuleSet::TIGADI, set("a1 d1 g4"), set("c5 d5 e5"));
    assert_eq!(
        t.iter()
            .filter(|t| matches!(t, Turn::Capture { .. }))
            .count(),
        3
    );
    // Slides from a1 on the 20-line board: d1 and a4 are taken by own gotis? No: only
    // d1 is own; a4 and b2 are empty. On the 16-line board b2 is not adjacent.
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
    // Flying with exactly three: 3 gotis × 18 empty points = 54 turns, of which those
    // into g1 capture (3 choices each: g4-g1 closes a1 d1 g1).
    let t = turns(RuleSet::MORRIS, set("a1 d1 g4"), set("c5 d5 e5"));
    assert_eq!(t.len(), 3 * 18 - 1 + 3);
    // Blocked: a1 a4 a7 hemmed in by d1 b4 d7 on the 16-line board.
    assert!(turns(RuleSet::NAVAKANKARI, set("a1 a4 a7"), set("d1 b4 d7")).is_empty());
    let pass = RuleSet {
        blocked_loses: false,
        ..RuleSet::NAVAKANKARI
    };
    assert_eq!(
        turns(pass, set("a1 a4 a7"), set("d1 b4 d7")),
        vec![Turn::Pass {
            next_mover: set("d1 b4 d7"),
            next_opponent: set("a1 a4 a7")
        }]
    );
}

#[test]
fn hand_built_values() {
    let tigadi = timed("tigadi 3v3", || {
        OracleSolution::solve(RuleSet::TIGADI, 3, 3)
    });
    // Closing a1 d1 g1 now against three gotis wins at once.
    assert_eq!(
        tigadi.value(set("a1 d1 g4"), set("c5 d6 e4")),
        Value::Win(1)
    );
    // The other side to move there: it cannot stop g4-g1 (nothing of it is adjacent
    // to g1) unless it closes a line itself, so it has lost in 2.
    assert_eq!(
        tigadi.value(set("c5 d6 e4"), set("a1 d1 g4")),
        Value::Loss(2)
    );

    let nava = timed("navakankari 3v3", || {
        OracleSolution::solve(RuleSet::NAVAKANKARI, 3, 3)
    });
    // a1 a4 a7 hemmed in by d1 b4 d7: blocked, and a blocked player loses.
    assert_eq!(nava.value(set("a1 a4 a7"), set("d1 b4 d7")), Value::Loss(0));
    // The opponent, to move into that block... From the other side: d1 b4 d7 to move
    // with a1 a4 a7 blocked only if it keeps the three in place; every move of it
    // frees a point, so look at a position one turn earlier: d1 b4 on, d6 to move to
    // d7 blocks. d6-d7 wins in 1 turn (the blocked loss counts 0).
    assert_eq!(nava.value(set("d1 b4 d6"), set("a1 a4 a7")), Value::Win(1));
}

#[test]
fn morris_3v3_published_figures() {
    let sol = timed("morris 3v3 solve", || {
        OracleSolution::solve(RuleSet::MORRIS, 3, 3)
    });
    let c = timed("morris 3v3 class counts", || sol.class_counts(3, 3));
    eprintln!(
        "morris 3v3: {c:?}, raw {:?}, rounds {}",
        sol.raw_counts(3, 3),
        sol.rounds(3, 3)
    );
    assert_eq!(c.classes(), 169_626);
    assert_eq!(c, counts(140_621, 269, 28_736, 25, 26));
}

#[test]
fn morris_3v4_4v3_published_figures() {
    let sol = timed("morris 3v4+4v3 solve", || {
        OracleSolution::solve(RuleSet::MORRIS, 3, 4)
    });
    let c34 = timed("morris 3v4 class counts", || sol.class_counts(3, 4));
    let c43 = timed("morris 4v3 class counts", || sol.class_counts(4, 3));
    eprintln!("morris 3v4: {c34:?}\nmorris 4v3: {c43:?}");
    assert_eq!(c34.classes(), 760_398);
    assert_eq!(c43.classes(), 760_398);
    assert_eq!((c34.wins, c34.draws, c34.losses), (102_281, 658_117, 0));
    assert_eq!((c43.wins, c43.draws, c43.losses), (75_397, 681_906, 3_095));
}

#[test]
fn tigadi_3v3_and_3v4_timing_and_counts() {
    let sol = timed("tigadi 3v4+4v3 (with 3v3) solve", || {
        OracleSolution::solve(RuleSet::TIGADI, 3, 4)
    });
    for (m, o) in [(3, 3), (3, 4), (4, 3)] {
        let c = sol.class_counts(m, o);
        eprintln!("tigadi {m}v{o}: {c:?} rounds {}", sol.rounds(m, o));
    }
}

/// Every stored value equals the best over the stored values of its successors.
fn bellman_check(sol: &OracleSolution) {
    for (m, o) in sol.subspaces() {
        let bad = std::sync::atomic::AtomicU64::new(0);
        sol.par_for_each_position(m, o, |mover, opponent, v| {
            let e = sol.evaluate(mover, opponent);
            if e != v && bad.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < 5 {
                eprintln!("{m}v{o} {mover:#x} {opponent:#x}: stored {v:?}, successors give {e:?}");
            }
        });
        assert_eq!(bad.into_inner(), 0, "{} {m}v{o}", sol.rules());
    }
}

#[test]
fn bellman_consistency_3v3() {
    for rules in [RuleSet::TIGADI, RuleSet::NAVAKANKARI, RuleSet::MORRIS] {
        bellman_check(&OracleSolution::solve(rules, 3, 3));
    }
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
    for rules in [RuleSet::TIGADI, RuleSet::NAVAKANKARI] {
        let sol = OracleSolution::solve(rules, 3, 3);
        sol.par_for_each_position(3, 3, |mover, opponent, v| {
            for s in 1..SYMMETRIES {
                assert_eq!(sol.value(image(s, mover), image(s, opponent)), v);
            }
        });
    }
}
