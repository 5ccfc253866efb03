//! `tigadi solve --plan`: what a run would solve, without solving. The steps
//! and slots are checked against `index-stats` (the index's own count, not the
//! job's), before a run, after it, and with one table removed; the plan
//! writes nothing; `--json` needs `--plan`.

use crate::common;

use common::*;
use std::collections::BTreeMap;
use std::path::Path;

/// `solve --max-pieces 7 --plan --json` in `dir`, parsed, with `extra` arguments.
fn plan(dir: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["solve", "--max-pieces", "7", "--plan", "--json", "--dir"];
    args.push(dir.to_str().unwrap());
    args.extend(extra);
    let r = run(&args);
    assert_eq!(r.code, Some(0), "{r:?}");
    serde_json::from_str(r.stdout.trim()).unwrap()
}

/// Per kind named in `plan`: (steps to solve, their slots).
fn to_solve(plan: &serde_json::Value) -> BTreeMap<String, (u64, u64)> {
    plan["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            let n = |f: &str| k[f].as_u64().unwrap();
            (
                k["kind"].as_str().unwrap().to_string(),
                (n("to_solve"), n("slots_to_solve")),
            )
        })
        .collect()
}

/// The slots of each moving-phase subspace of Tigadi, by `index-stats`.
fn slots() -> BTreeMap<String, u64> {
    let r = run(&["index-stats", "--json"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    json_lines(&r.stdout)
        .into_iter()
        .filter(|row| row.get("mover").is_some())
        .map(|row| {
            let name = format!("{}v{}", row["mover"], row["opponent"]);
            (name, row["slots"].as_u64().unwrap())
        })
        .collect()
}

#[test]
fn the_plan_counts_what_is_left_and_writes_nothing() {
    let slots = slots();
    let all = slots["3v3"] + slots["4v3"] + slots["3v4"];
    let root = scratch("plan");
    let dir = root.join("d");

    // Fresh: both steps (3v3, the pair 4v3+3v4) of both kinds, nothing made.
    let fresh = plan(&dir, &[]);
    let both = |steps, slots| {
        BTreeMap::from([
            ("game".into(), (steps, slots)),
            ("horizon".into(), (steps, slots)),
        ])
    };
    assert_eq!(to_solve(&fresh), both(2, all));
    assert!(fresh["bytes_to_write"].as_u64().unwrap() > 0);
    assert!(fresh["free_bytes"].as_u64().unwrap() > 0);
    assert!(!dir.exists(), "--plan made the directory");
    let no_horizon = plan(&dir, &["--no-horizon"]);
    assert_eq!(
        to_solve(&no_horizon),
        BTreeMap::from([("game".into(), (2, all))])
    );

    let solved = run(&["solve", "--max-pieces", "7", "--dir", dir.to_str().unwrap()]);
    assert_eq!(solved.code, Some(0), "{solved:?}");
    let done = plan(&dir, &[]);
    assert_eq!(to_solve(&done), both(0, 0));
    assert_eq!(done["bytes_to_write"].as_u64(), Some(0));

    // One 100-turn table gone: its pair's step, both its subspaces' slots.
    std::fs::remove_file(dir.join("tigadi/3v4.tghz")).unwrap();
    let one = to_solve(&plan(&dir, &[]));
    assert_eq!(one["game"], (0, 0));
    assert_eq!(one["horizon"], (1, slots["4v3"] + slots["3v4"]));

    // In words, the same counts.
    let r = run(&[
        "solve",
        "--max-pieces",
        "7",
        "--plan",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(
        r.stdout
            .contains("game: 2 of 2 steps solved; 0 to solve, 0 slots")
            && r.stdout.contains(&format!(
                "horizon: 1 of 2 steps solved; 1 to solve, {} slots",
                slots["4v3"] + slots["3v4"]
            ))
            && r.stdout.contains("GB free on its disk"),
        "{}",
        r.stdout
    );

    // --json alone is a usage error.
    let r = run(&["solve", "--json", "--dir", dir.to_str().unwrap()]);
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(r.stderr.contains("--plan"), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&root);
}
