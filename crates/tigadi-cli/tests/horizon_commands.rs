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

/// `stats` gives each placing layer's counts under the rule when its horizon tables
/// are there: recounted here slot by slot from the tables themselves (not their
/// headers, which `stats` reads), on a whole small game whose short limit changes
/// values while placing; without horizon tables the fields are absent.
#[test]
fn stats_gives_each_placing_layers_counts_under_the_rule() {
    use tigadi_rules::RuleSet;
    use tigadi_solve::Value;
    use tigadi_tablebase::{mark_padding, TableKind, TablebaseDir};
    let spec = "tigadi,pieces=3,quiet=10";
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let o = tigadi(&["solve", "--rules", spec, "--dir", d]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = tigadi(&["stats", "--json", "--rules", spec, "--dir", d]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows: Vec<Json> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|r: &Json| r.get("placed").is_some())
        .collect();
    let rules = RuleSet::parse(spec).unwrap();
    let store = TablebaseDir::new(dir.path(), &rules);
    // Per layer: cursed wins, blessed losses, longest DTC₁₀₀ of a win and a loss.
    let mut expected = std::collections::BTreeMap::<u64, [u64; 4]>::new();
    for id in store.list().unwrap() {
        let Some(placed) = id
            .tier
            .placements(&rules)
            .filter(|_| id.kind == TableKind::GameTheoretic)
        else {
            continue;
        };
        // Counted over symmetry classes: padding slots (repeats of a class in the
        // runs a symmetry fixes) hold no position.
        let mut game = store.load(id).unwrap();
        mark_padding(id.tier.subspace, &mut game);
        let rule = store.load(id.with_kind(TableKind::Horizon)).unwrap();
        let e = expected.entry(placed as u64).or_default();
        for (g, r) in game.iter().zip(&rule) {
            let (Some(g), Some(r)) = (g.get(), r.get()) else {
                continue;
            };
            match (g, r) {
                (Value::Win(_), Value::Win(_)) | (Value::Loss(_), Value::Loss(_)) => {}
                (Value::Win(_), _) => e[0] += 1,
                (Value::Loss(_), _) => e[1] += 1,
                _ => {}
            }
            match r {
                Value::Win(h) => e[2] = e[2].max(h as u64),
                Value::Loss(h) => e[3] = e[3].max(h as u64),
                Value::Draw => {}
            }
        }
    }
    assert_eq!(rows.len(), expected.len(), "one row per layer");
    for row in &rows {
        let e = expected[&row["placed"].as_u64().unwrap()];
        let got = [
            "cursed_win",
            "blessed_loss",
            "max_dtc100_win",
            "max_dtc100_loss",
        ]
        .map(|k| {
            row[k]
                .as_u64()
                .unwrap_or_else(|| panic!("{k} missing: {row}"))
        });
        assert_eq!(got, e, "{row}");
    }
    assert!(
        expected.values().any(|e| e[0] > 0) && expected.values().any(|e| e[1] > 0),
        "the limit changes some placing values: {expected:?}"
    );

    // Without horizon tables, no such fields in the layers' rows.
    let plain = tempfile::tempdir().unwrap();
    let p = plain.path().to_str().unwrap();
    let o = tigadi(&["solve", "--rules", spec, "--no-horizon", "--dir", p]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = tigadi(&["stats", "--json", "--rules", spec, "--dir", p]);
    for row in stdout(&o)
        .lines()
        .map(|l| serde_json::from_str::<Json>(l).unwrap())
    {
        if row.get("placed").is_some() {
            assert!(row.get("cursed_win").is_none(), "{row}");
        }
    }
}
