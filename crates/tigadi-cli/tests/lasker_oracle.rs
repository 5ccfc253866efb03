//! Issue 53: the tables `tigadi --rules lasker,pieces=3 solve` writes against the
//! naive whole-game oracle of `crates/tigadi-rules/tests/support/lasker.rs`
//! (written from docs/RULES.md, retrograde over symmetry classes of raw states,
//! nothing of the solver): every class a game reaches, probed through one
//! `probe --json` process, must have the oracle's value and depth.
//!
//! Ignored until the tier solver solves Lasker's rule (issue 52's one solver
//! entry per tier): today `solve` refuses the rule set with exit code 2, and the
//! test fails on that, naming it.

mod common;
#[path = "../../tigadi-rules/tests/support/lasker.rs"]
mod lasker;

use common::*;
use lasker::{solve_classes, Value};
use std::time::Duration;

const RULES: &str = "lasker,pieces=3";

#[test]
#[ignore = "the tier solver cannot solve Lasker's rule yet (issue 52): `solve` exits 2"]
fn lasker_3_tables_match_the_naive_oracle() {
    let dir = scratch("lasker3-oracle");
    let d = dir.to_str().unwrap();
    let r = run(&["--rules", RULES, "solve", "--dir", d]);
    assert_eq!(
        r.code,
        Some(0),
        "`tigadi --rules {RULES} solve` failed, so there is nothing to compare \
         with the oracle: {}",
        r.stderr
    );
    let oracle: Vec<_> = solve_classes(3)
        .into_iter()
        .filter(|(c, _)| {
            // The game goes on: both sides have three gotis or more in all.
            let n = c.to_naive();
            n.total(1) >= 3 && n.total(2) >= 3
        })
        .collect();
    let rules = tigadi_rules::RuleSet::parse(RULES).unwrap();
    let input: String = oracle
        .iter()
        .map(|(c, _)| {
            let p = c.to_naive().to_position();
            assert!(p.validate(&rules).is_ok(), "{p}");
            format!("{p}\n")
        })
        .collect();
    let mut cmd = tigadi();
    cmd.args(["--rules", RULES, "probe", "--json", "--dir", d]);
    let r = run_with(cmd, input.as_bytes(), Duration::from_secs(600));
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let answers = json_lines(&r.stdout);
    assert_eq!(answers.len(), oracle.len());
    for ((c, v), a) in oracle.iter().zip(&answers) {
        let (value, dtc) = match *v {
            Value::Win(d) => ("win", Some(d as u64)),
            Value::Loss(d) => ("loss", Some(d as u64)),
            Value::Draw => ("draw", None),
        };
        let p = c.to_naive().to_position();
        assert_eq!(
            a["value"].as_str(),
            Some(value),
            "{p}: oracle {v:?}, tables {a}"
        );
        if let Some(dtc) = dtc {
            assert_eq!(
                a["dtc"].as_u64(),
                Some(dtc),
                "{p}: oracle {v:?}, tables {a}"
            );
        }
    }
}
