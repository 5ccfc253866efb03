//! Issue 53: the tables `tigadi --rules lasker,pieces=3 solve` writes against the
//! naive whole-game oracle of `crates/tigadi-rules/tests/support/lasker.rs`
//! (written from docs/RULES.md, retrograde over symmetry classes of raw states,
//! nothing of the solver): every class a game reaches must have the oracle's
//! value and depth in the table of its tier, read back from the files
//! ([`Tablebase::get_position`]): the DTC of the game tables against
//! [`solve_classes`], and the depth to win of the DTW tables against
//! [`solve_graph`] over the same classes (plain rounds, every turn counting one).
//! `pieces=4` is the same test, ignored: its oracle takes about 12 minutes.

mod common;
#[path = "../../tigadi-rules/tests/support/lasker.rs"]
mod lasker;

use common::*;
use lasker::{solve_classes, solve_graph, Class, Value};
use tigadi_tablebase::{field, Tablebase};

/// Solves `lasker,pieces={pieces}` with the CLI and compares every stored value
/// of a class the oracle reaches; returns how many it compared.
fn tables_match_the_oracle(pieces: u8) -> usize {
    let rules_name = format!("lasker,pieces={pieces}");
    let dir = scratch(&format!("lasker{pieces}-oracle"));
    let d = dir.to_str().unwrap();
    let r = run(&["--rules", &rules_name, "solve", "--dtw", "--dir", d]);
    assert_eq!(
        r.code,
        Some(0),
        "`tigadi --rules {rules_name} solve` failed, so there is nothing to compare \
         with the oracle: {}",
        r.stderr
    );
    let rules = tigadi_rules::RuleSet::parse(&rules_name).unwrap();
    let tables = Tablebase::open(&dir, &rules);
    let mut compared = 0;
    let start = lasker::Naive::start(pieces).class();
    let dtw = solve_graph(start, |c: &Class| {
        let n = c.to_naive();
        n.moves().into_iter().map(|m| n.play(m).class()).collect()
    });
    for (c, v) in solve_classes(pieces) {
        let n = c.to_naive();
        // The game goes on: both sides have three gotis or more in all.
        if n.total(1) < 3 || n.total(2) < 3 {
            continue;
        }
        let p = n.to_position();
        assert!(p.validate(&rules).is_ok(), "{p}");
        let expected = naive_value(v);
        let stored = tables
            .get_position::<field::Dtc>(&p)
            .unwrap_or_else(|e| panic!("{p}: {e}"));
        assert_eq!(stored, expected, "{p}: oracle {v:?}, tables {stored:?}");
        let expected = naive_value(dtw[&c]);
        let stored = tables
            .get_position::<field::Dtw>(&p)
            .unwrap_or_else(|e| panic!("{p}: {e}"));
        assert_eq!(
            stored, expected,
            "{p}: DTW oracle {expected:?}, tables {stored:?}"
        );
        compared += 1;
    }
    compared
}

/// The oracle's value as the tables hold it.
fn naive_value(v: Value) -> tigadi_values::Value {
    match v {
        Value::Win(d) => tigadi_values::Value::Win(d as u16),
        Value::Loss(d) => tigadi_values::Value::Loss(d as u16),
        Value::Draw => tigadi_values::Value::Draw,
    }
}

#[test]
fn lasker_3_tables_match_the_naive_oracle() {
    let compared = tables_match_the_oracle(3);
    assert!(compared > 200_000, "{compared}");
}

#[test]
#[ignore = "the naive oracle of lasker,pieces=4 takes about 12 minutes (run with nice -n 19)"]
fn lasker_4_tables_match_the_naive_oracle() {
    let compared = tables_match_the_oracle(4);
    assert!(compared > 1_000_000, "{compared}");
}
