//! One vocabulary for depths (docs/USAGE.md, "Depths in words"), checked door by
//! door against `tigadi probe --json`: a depth to win is "wins in N turns" /
//! "loses in N turns" and the JSON key `dtw`; a depth to capture is "captures in N"
//! and the key `dtc`; `probe` names the 100-turn rule only where it changes
//! something.

use crate::common;

use common::http::{enc, Server};
use common::{in_words, run, solved_pieces4, PIECES4};
use serde_json::Value as Json;

/// `tigadi ARGS` must succeed: its standard output.
fn ok(args: &[&str]) -> String {
    let r = run(args);
    assert_eq!(r.code, Some(0), "{args:?}: {r:?}");
    r.stdout
}

fn probe(position: &str) -> Json {
    let dir = solved_pieces4().to_str().unwrap();
    let out = ok(&[
        "--rules", PIECES4, "probe", "--json", "--dir", dir, position,
    ]);
    serde_json::from_str(out.trim()).unwrap()
}

/// The position the shipped 4-a-side record reaches after its first `n` moves.
fn after(n: usize) -> String {
    if n == 0 {
        return ".../.../.../....../.../.../... B 4 4".into();
    }
    let record = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/pieces4-game.txt"),
    )
    .unwrap();
    let moves: Vec<&str> = record
        .split_whitespace()
        .filter(|t| !t.ends_with('.'))
        .take(n)
        .collect();
    let dir = solved_pieces4().to_str().unwrap();
    let out = ok(&[
        "--rules",
        PIECES4,
        "probe",
        "--json",
        "--dir",
        dir,
        "--record",
        &moves.join(" "),
    ]);
    let j: Json = serde_json::from_str(out.trim()).unwrap();
    j["position"].as_str().unwrap().to_string()
}

/// The probed move `mv` of `answer`.
fn probed_move<'a>(answer: &'a Json, mv: &str) -> &'a Json {
    answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == mv)
        .unwrap_or_else(|| panic!("{mv} not in {answer}"))
}

#[test]
fn line_json_and_the_server_put_each_depth_under_its_own_key() {
    let dir = solved_pieces4();
    let d = dir.to_str().unwrap();
    // Seed to move, won (Bone threw the draw at move 7): its DTW exceeds its DTC.
    let start = after(7);
    let first = probe(&start);
    assert_eq!(first["value"], "win", "{first}");
    assert!(first["dtw"].as_u64() > first["dtc"].as_u64(), "{first}");
    let server = Server::start(dir);
    for metric in ["dtw", "dtc"] {
        let other = if metric == "dtw" { "dtc" } else { "dtw" };
        let out = ok(&[
            "--rules", PIECES4, "line", "--json", "--metric", metric, "--dir", d, &start,
        ]);
        let line: Json = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(line["metric"], metric);
        assert_eq!(line["value"]["value"], first["value"]);
        assert_eq!(line["value"][metric], first[metric], "{line}");
        assert!(line["value"].get(other).is_none(), "{line}");
        // Each step carries the probe's depth of the move played, under its key.
        let mut from = start.clone();
        let steps = line["steps"].as_array().unwrap();
        assert!(!steps.is_empty());
        for s in steps {
            let m = probed_move(&probe(&from), s["move"].as_str().unwrap()).clone();
            assert_eq!(s["value"]["value"], m["value"], "{s}");
            assert_eq!(s["value"][metric], m[metric], "{s}");
            assert!(s["value"].get(other).is_none(), "{s}");
            from = s["position"].as_str().unwrap().to_string();
        }
        // The server's /line is the command's object.
        let a = server.get(&format!(
            "/api/v1/{}/line?position={}&metric={metric}",
            enc(PIECES4),
            enc(&start)
        ));
        assert_eq!(a.status, 200, "{}", a.body);
        assert_eq!(a.json(), line);
    }
    // /explore gives the position's dtw and each move's, as probe does.
    let a = server
        .get(&format!(
            "/api/v1/{}/explore?position={}",
            enc(PIECES4),
            enc(&start)
        ))
        .json();
    assert_eq!(a["dtw"], first["dtw"], "{a}");
    assert_eq!(a["dtc"], first["dtc"], "{a}");
    for m in a["moves"].as_array().unwrap() {
        let p = probed_move(&first, m["move"].as_str().unwrap());
        assert_eq!((&m["dtw"], &m["dtc"]), (&p["dtw"], &p["dtc"]), "{m}");
    }
}

#[test]
fn line_and_analyze_say_wins_in_only_for_a_depth_to_win() {
    let d = solved_pieces4().to_str().unwrap();
    let start = after(7);
    for metric in ["dtc", "dtw"] {
        let out = ok(&[
            "--rules", PIECES4, "line", "--metric", metric, "--dir", d, &start,
        ]);
        // The step lines: "  1. Seed  d5 ...".
        let steps: Vec<&str> = out
            .lines()
            .filter(|l| {
                l.split(". ")
                    .next()
                    .is_some_and(|n| n.trim().parse::<u32>().is_ok())
            })
            .collect();
        assert!(!steps.is_empty(), "{out}");
        for l in steps {
            let to_win = l.contains("wins in") || l.contains("loses in");
            let to_capture = l.contains("captures in");
            assert_eq!(
                (to_win, to_capture),
                (metric == "dtw", metric == "dtc"),
                "{l}"
            );
        }
    }
    // Every judged turn of the shipped record reads "BEFORE -> AFTER" in the words
    // of the probe's answers for the position before it and the move played.
    let out = ok(&[
        "--rules",
        PIECES4,
        "analyze",
        "--dir",
        d,
        "--file",
        "../../data/pieces4-game.txt",
    ]);
    let turns: Vec<&str> = out.lines().filter(|l| l.contains(" -> ")).collect();
    assert_eq!(turns.len(), 14, "{out}");
    for (n, l) in turns.iter().enumerate() {
        let before = probe(&after(n));
        let mv = l.split_whitespace().nth(2).unwrap();
        let played = probed_move(&before, mv);
        let want = format!("{} -> {}", in_words(&before), in_words(played));
        assert!(l.contains(&want), "{l}\nwants {want}");
    }
}

/// A 3v3 moving-phase position string from 24 cells (ranks of 3, 3, 3, 6, 3, 3, 3).
fn position(cells: &[u8; 24], side: char, counter: u32) -> String {
    let s: String = cells.iter().map(|&c| c as char).collect();
    let ranks = [
        &s[0..3],
        &s[3..6],
        &s[6..9],
        &s[9..15],
        &s[15..18],
        &s[18..21],
        &s[21..24],
    ];
    format!("{} {side} 0 0 {counter}", ranks.join("/"))
}

#[test]
fn probe_names_the_rule_only_where_it_changes_something() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let rules = "tigadi,quiet=10";
    ok(&["--rules", rules, "solve", "--max-pieces", "6", "--dir", d]);
    // Seeded pseudo-random 3v3 positions (a 64-bit LCG).
    let mut x: u64 = 7;
    let mut next = |n: u64| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) % n
    };
    let (mut changed, mut plain, mut changed_at_0) = (0, 0, 0);
    for i in 0..150 {
        let mut cells = [b'.'; 24];
        for goti in [b'B', b'B', b'B', b'S', b'S', b'S'] {
            loop {
                let p = next(24) as usize;
                if cells[p] == b'.' {
                    cells[p] = goti;
                    break;
                }
            }
        }
        let side = if i % 2 == 0 { 'B' } else { 'S' };
        for counter in [0, 5] {
            let p = position(&cells, side, counter);
            let r = run(&["--rules", rules, "probe", "--json", "--dir", d, &p]);
            if r.code != Some(0) {
                continue; // a position the rules refuse, or a finished game
            }
            let j: Json = serde_json::from_str(r.stdout.trim()).unwrap();
            if j.get("game_over").is_some() {
                continue;
            }
            let text = ok(&["--rules", rules, "probe", "--dir", d, &p]);
            let detail = ok(&["--rules", rules, "probe", "--rule-detail", "--dir", d, &p]);
            let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("  ")).collect();
            let moves = j["moves"].as_array().unwrap();
            assert_eq!(lines.len(), moves.len(), "{text}");
            for (l, m) in lines.iter().zip(moves) {
                let changes = counter > 0
                    || m["rule_value"] != m["value"]
                    || m["category"] == "cursed-win"
                    || m["category"] == "blessed-loss";
                assert_eq!(l.contains("100-turn rule"), changes, "{p}: {l} / {m}");
                changed += changes as usize;
                changed_at_0 += (changes && counter == 0) as usize;
                plain += !changes as usize;
                assert!(l.contains(&in_words(m)), "{l} / {m}");
            }
            for l in detail.lines().filter(|l| l.starts_with("  ")) {
                assert!(l.contains("under the 100-turn rule"), "{l}");
            }
        }
    }
    // The rule changed a value or class at counter 0 somewhere, and nothing elsewhere.
    assert!(
        changed_at_0 > 0 && changed > 0 && plain > 0,
        "{changed_at_0} {changed} {plain}"
    );
}
