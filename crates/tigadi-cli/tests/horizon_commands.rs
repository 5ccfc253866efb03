//! The 100-turn rule through the CLI: `quiet=N` in `show`, and `solve`, `probe`,
//! `stats` with the values under the rule.

use serde_json::Value as Json;
use std::process::{Command, Output};

fn tigadi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tigadi"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn show_reports_the_turn_limit_and_refuses_a_counter_beyond_it() {
    let p = "BB./S../.../...S../.../.../SB. S 0 0 7";
    let o = tigadi(&["show", "--rules", "tigadi,quiet=10", p]);
    assert!(o.status.success());
    assert!(
        stdout(&o).contains("quiet turns: 7 of 10"),
        "{}",
        stdout(&o)
    );
    let o = tigadi(&["show", "--rules", "tigadi", p]);
    assert!(
        stdout(&o).contains("quiet turns: 7 of 100"),
        "{}",
        stdout(&o)
    );
    let o = tigadi(&["show", "--rules", "tigadi,quiet=5", p]);
    assert_eq!(o.status.code(), Some(2));
    let o = tigadi(&["show", "--rules", "tigadi,quiet=0", p]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn solve_probe_and_stats_report_values_under_the_rule() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let rules = ["--rules", "tigadi,quiet=10", "--dir", d];
    let o = tigadi(&[&["solve", "--max-pieces", "6"][..], &rules].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(dir.path().join("tigadi_quiet-10/3v3.tghz").is_file());

    // Stats: cursed wins occur at this limit.
    let o = tigadi(&[&["stats", "--json"][..], &rules].concat());
    let row: Json = serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    assert!(row["cursed_win"].as_u64().unwrap() > 0, "{row}");
    assert!(row["blessed_loss"].as_u64().unwrap() > 0, "{row}");
    assert!(row["max_dtc100_win"].as_u64().unwrap() <= 10, "{row}");

    // Probe at two counters: the same category, the value under the rule may change.
    for counter in ["0", "9"] {
        let p = format!("BB./S../.../...S../.../.../SB. S 0 0 {counter}");
        let o = tigadi(&[&["probe", "--json", &p][..], &rules].concat());
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let j: Json = serde_json::from_str(stdout(&o).trim()).unwrap();
        for key in ["value", "dtc", "category", "rule_value", "dtc100"] {
            assert!(j.get(key).is_some(), "{key} missing: {j}");
        }
        let moves = j["moves"].as_array().unwrap();
        assert!(!moves.is_empty());
        for m in moves {
            for key in ["move", "value", "dtc", "category", "rule_value", "dtc100"] {
                assert!(m.get(key).is_some(), "{key} missing: {m}");
            }
        }
        assert_eq!(moves[0]["rule_value"], j["rule_value"], "{j}");
    }
    let o = tigadi(
        &[
            &["probe", "BB./S../.../...S../.../.../SB. S 0 0 11"][..],
            &rules,
        ]
        .concat(),
    );
    assert_eq!(o.status.code(), Some(2));

    // Without horizon tables the game-theoretic answer stays, the rest is null.
    let plain = tempfile::tempdir().unwrap();
    let p = plain.path().to_str().unwrap();
    let o = tigadi(&["solve", "--max-pieces", "6", "--no-horizon", "--dir", p]);
    assert!(o.status.success());
    let o = tigadi(&[
        "probe",
        "--json",
        "--dir",
        p,
        "BB./S../.../...S../.../.../SB. S",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j: Json = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert!(j["value"].is_string() && j["category"].is_null(), "{j}");
}
