//! A directory without the rule set's tables is named at the start: a missing
//! directory, or one holding another rule set's tables (named, with the `--rules`
//! that reads them), instead of a "no table" for the first position asked about.

use crate::common;

use common::{run, run_with, solved_pieces4, tigadi, LIMIT, P};

#[test]
fn another_rule_sets_directory_is_named_with_its_rules() {
    let d = solved_pieces4().to_str().unwrap();
    let hint = "found tigadi_pieces-4/: add --rules tigadi,pieces=4";
    for args in [
        vec!["probe", "--dir", d, P],
        vec!["line", "--dir", d, P],
        vec![
            "analyze",
            "--dir",
            d,
            "--file",
            "../../data/sample-game.txt",
        ],
    ] {
        let r = run(&args);
        assert_eq!(r.code, Some(2), "{args:?}: {r:?}");
        assert!(r.stderr.contains(hint), "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("tigadi/"), "{}", r.stderr);
    }
    // A bad position is still reported as such first.
    let r = run(&["probe", "--dir", d, "BB./S.. S"]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("bad position"), "{}", r.stderr);
    // With the rules named, the same directory answers.
    let r = run(&["--rules", "tigadi,pieces=4", "probe", "--dir", d, P]);
    assert_eq!(r.code, Some(0), "{r:?}");
}

#[test]
fn a_missing_directory_is_said_at_the_start() {
    let gone = common::scratch("missing-tables").join("nonexistent");
    let g = gone.to_str().unwrap();
    for args in [vec!["line", "--dir", g, P], vec!["serve", "--dir", g]] {
        let r = run(&args);
        assert_eq!(r.code, Some(2), "{args:?}: {r:?}");
        assert!(
            r.stderr.contains("does not exist"),
            "{args:?}: {}",
            r.stderr
        );
    }
    // play still plays (by searching), saying so before the first board.
    let mut cmd = tigadi();
    cmd.args(["play", "--dir", g, "--level", "1"]);
    let r = run_with(cmd, b"quit\n", LIMIT);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(r.stderr.contains("does not exist"), "{}", r.stderr);
    assert!(!gone.exists(), "nothing is created");
}
