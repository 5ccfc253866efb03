//! The placing phase end to end through the binary, on a whole small game
//! (`morris,pieces=3`): `solve` does the placing layers after the moving phase and
//! resumes them byte-identically, `stats` prints the empty board's value, `probe`
//! lists every placement of a placing position (also from a game record), `verify`
//! checks the placing files, and `--no-placing` skips them.

use crate::common;

use std::fs;
use std::path::Path;
use std::process::Command;
use tigadi_tablebase::{TableId, TableKind, TablebaseDir};

const RULES: &str = "morris,pieces=3";

fn tigadi(dir: &Path, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tigadi"))
        .args(["--rules", RULES])
        .args(args)
        .arg("--dir")
        .arg(dir)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn placing_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    common::files_named(&dir.join("morris_pieces-3"), |name| name.starts_with('p'))
}

#[test]
fn placing_phase_through_the_cli() {
    let tmp = common::scratch("placing");
    let dir = tmp.as_path();
    let (ok, out, err) = tigadi(dir, &["solve", "--no-placing"]);
    assert!(ok, "{err}");
    assert!(!out.contains("in hand"), "{out}");
    assert!(placing_files(dir).is_empty());

    let (ok, out, err) = tigadi(dir, &["solve", "--threads", "2"]);
    assert!(ok, "{err}");
    assert!(out.contains("0v0 with 3+3 in hand: 1 slots"), "{out}");
    let files = placing_files(dir);
    // 6 layers; p0-0v0 holds the empty board, ignoring the 100-turn rule and
    // under it (the horizon tables are solved by default).
    assert!(files.iter().any(|(n, _)| n == "p0-0v0.tgtb"));
    assert!(files.iter().any(|(n, _)| n == "p0-0v0.tghz"));
    assert!(files.iter().any(|(n, _)| n.starts_with("p5-")));
    assert!(
        out.contains("0v0 with 3+3 in hand (100-turn): 1 slots"),
        "{out}"
    );

    // Resume: lost layers are solved again, byte for byte, on one thread.
    for (n, _) in &files {
        if n.starts_with("p1-") || n.starts_with("p4-") {
            fs::remove_file(dir.join("morris_pieces-3").join(n)).unwrap();
        }
    }
    let (ok, out, err) = tigadi(dir, &["solve", "--threads", "1"]);
    assert!(ok, "{err}");
    // The tiers after 5 placements (1+0 in hand) were kept.
    assert!(out.contains("with 1+0 in hand: already solved"), "{out}");
    assert_eq!(placing_files(dir), files);

    // stats: the empty board's value, the same as probe's.
    let (ok, stats, err) = tigadi(dir, &["stats"]);
    assert!(ok, "{err}");
    let line = stats
        .lines()
        .find(|l| l.starts_with("empty board"))
        .unwrap();
    assert!(
        stats.contains("empty board under the 100-turn rule (quiet=100)"),
        "{stats}"
    );
    let (ok, json, err) = tigadi(dir, &["stats", "--json"]);
    assert!(ok, "{err}");
    let row: serde_json::Value = serde_json::from_str(json.lines().last().unwrap()).unwrap();
    assert!(
        row["category"].is_string() && row["rule_value"].is_string(),
        "{row}"
    );
    // One row per placing layer, whose counts are the layer's values counted from
    // the files.
    let rules = tigadi_rules::RuleSet::parse(RULES).unwrap();
    let layers: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|r| r.get("placed").is_some())
        .collect();
    assert_eq!(layers.len(), 6, "{json}");
    for (placed, row) in layers.iter().enumerate() {
        assert_eq!(row["placed"], placed);
        // The row's hands: the player to move has placed every other goti, the
        // first player's on even counts (3 a side here).
        assert_eq!(
            row["hands"],
            serde_json::json!([3 - placed / 2, 3 - placed.div_ceil(2)]),
            "{row}"
        );
        let mut wdl = [0u64; 3];
        let subs = tigadi_tablebase::tiers_after(&rules, placed as u32)
            .into_iter()
            .map(|t| t.subspace)
            .collect::<Vec<_>>();
        for &sub in &subs {
            let id = TableId::new(
                TableKind::GameTheoretic,
                tigadi_tablebase::Tier::after_placements(&rules, placed as u32, sub),
            );
            let mut values = TablebaseDir::new(dir, &rules).load(id).unwrap();
            tigadi_tablebase::mark_padding(sub, &mut values);
            for v in values.iter().filter_map(|v| v.get()) {
                wdl[match v.wdl() {
                    tigadi_solve::Wdl::Win => 0,
                    tigadi_solve::Wdl::Draw => 1,
                    tigadi_solve::Wdl::Loss => 2,
                }] += 1;
            }
        }
        assert_eq!(
            [&row["win"], &row["draw"], &row["loss"], &row["tables"]],
            [wdl[0], wdl[1], wdl[2], subs.len() as u64],
            "layer {placed}: {row}"
        );
        assert_eq!(row["classes"], wdl.iter().sum::<u64>());
    }
    assert!(stats.contains("hands   placed    tables"), "{stats}");
    assert!(stats.contains("\n3+3          0 "), "{stats}");

    let start = ".../.../.../....../.../.../... B 3 3";
    let (ok, probe, err) = tigadi(dir, &["probe", start]);
    assert!(ok, "{err}");
    let value = probe
        .lines()
        .nth(1)
        .unwrap()
        .trim_start_matches("Bone to move: ");
    assert!(
        line.contains(value.split(' ').next().unwrap()),
        "{line} / {value}"
    );
    // Every empty point is a placement on the empty board (one indented line each,
    // after the position and its value).
    assert_eq!(
        probe.lines().filter(|l| l.starts_with("  ")).count(),
        24,
        "{probe}"
    );
    assert_eq!(probe.lines().count(), 24 + 2, "{probe}");

    // probe --record from the empty board on, and a capture choice listed per target.
    let (ok, out, err) = tigadi(dir, &["probe", "--json", "--record", "a1 d2 a4 b2"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("\"a7xd2\"") && out.contains("\"a7xb2\""),
        "{out}"
    );
    let answer: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(answer["category"].is_string(), "{answer}");
    assert!(answer["moves"][0]["category"].is_string(), "{answer}");
    let (ok, out, _) = tigadi(dir, &["probe", "--record", ""]);
    assert!(ok && out.starts_with(start), "{out}");

    // A placing position no game reaches is refused.
    let (ok, _, err) = tigadi(dir, &["probe", ".../.../.../....../.../.../... B 2 3"]);
    assert!(!ok && err.contains("order of placing"), "{err}");

    let (ok, out, err) = tigadi(dir, &["verify"]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("p0-0v0  ok"), "{out}");
    assert!(out.contains("p0-0v0 (100-turn)  ok"), "{out}");
}

/// Every command that reads a position string checks it against the rule set's
/// gotis a side (`pieces=N`): a hand above 3 under `morris,pieces=3` is refused
/// with exit 2 and a message naming the hand, by each of them alike; the same
/// board with hands of 3 is accepted. (Before, only `probe` read the hands this
/// way; the others accepted hands up to 9 and answered for a game that cannot
/// happen.)
#[test]
fn position_commands_read_hands_under_the_rule_set() {
    let tmp = common::scratch("placing-hands");
    let dir = tmp.to_str().unwrap();
    let empty = ".../.../.../....../.../.../...";
    let run = |hands: &str, cmd: &str| {
        let position = format!("{empty} B {hands}");
        let args: Vec<&str> = match cmd {
            "perft" => vec![cmd, &position, "1"],
            "line" | "probe" => vec![cmd, &position, "--dir", dir],
            _ => vec![cmd, &position],
        };
        let out = Command::new(env!("CARGO_BIN_EXE_tigadi"))
            .args(["--rules", RULES])
            .args(&args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    for cmd in ["show", "moves", "perft", "line", "probe"] {
        let (code, err) = run("9 9", cmd);
        assert_eq!(code, Some(2), "{cmd}: {err}");
        assert!(
            err.contains("BONE_HAND '9'") && err.contains("0 to 3"),
            "{cmd}: {err}"
        );
    }
    for cmd in ["show", "moves", "perft"] {
        let (code, err) = run("3 3", cmd);
        assert_eq!(code, Some(0), "{cmd}: {err}");
    }
}
