//! `line`, `match`, `play`, `analyze` and `probe` on a whole game with four gotis a
//! side (`navakankari,pieces=4`, solved by `tigadi solve`: every moving-phase
//! subspace and every placing layer), from the empty board: each command is
//! checked against `probe --json` run on the same tables, never against a value
//! written here.

use crate::common;

use common::*;
use serde_json::Value as Json;
use std::path::PathBuf;
use std::sync::OnceLock;

const RULES: &str = "navakankari,pieces=4";
/// The empty board of a 4-a-side game.
const EMPTY4: &str = ".../.../.../....../.../.../... B 4 4";

/// The whole `navakankari,pieces=4` game, solved once per test binary.
fn whole() -> &'static str {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = scratch("cli-p4");
        let r = run_with(
            {
                let mut c = tigadi();
                c.args(["--rules", RULES, "solve", "--dir", d.to_str().unwrap()]);
                c
            },
            b"",
            LIMIT,
        );
        assert_eq!(r.code, Some(0), "{r:?}");
        d
    })
    .to_str()
    .unwrap()
}

fn cli(args: &[&str], stdin: &[u8]) -> Run {
    let mut c = tigadi();
    c.args(["--rules", RULES]).args(args);
    run_with(c, stdin, LIMIT)
}

fn probe(position: &str) -> Json {
    let r = cli(&["probe", "--dir", whole(), "--json", position], b"");
    assert_eq!(r.code, Some(0), "{r:?}");
    serde_json::from_str(r.stdout.trim()).unwrap()
}

/// `line --json` from the empty board: the first capture comes at exactly the turn
/// `probe` gives as the empty board's DTC, by the side `probe`'s value names; every
/// step before it has `probe`'s value of the position it is played from, and the
/// line goes on into the moving phase to the end of the game.
#[test]
fn line_from_the_empty_board_captures_at_probes_dtc() {
    let start = probe(EMPTY4);
    let dtc = start["dtc"].as_u64().expect("the empty board is decided") as usize;
    let winner = match start["value"].as_str().unwrap() {
        "win" => "bone",
        _ => "seed",
    };
    let r = cli(&["line", "--dir", whole(), "--json", EMPTY4], b"");
    assert_eq!(r.code, Some(0), "{r:?}");
    let l: Json = serde_json::from_str(r.stdout.trim()).unwrap();
    let steps = l["steps"].as_array().unwrap();
    let first = steps
        .iter()
        .position(|s| s["move"].as_str().unwrap().contains('x'))
        .unwrap();
    assert_eq!(first + 1, dtc, "{l}");
    assert_eq!(
        steps[first]["side"].as_str().unwrap().to_lowercase(),
        winner
    );
    let mut before = EMPTY4.to_string();
    for s in &steps[..dtc] {
        let p = probe(&before);
        assert_eq!(s["value"]["value"], p["value"], "{before}: {s}");
        assert_eq!(s["value"]["dtc"], p["dtc"], "{before}: {s}");
        before = s["position"].as_str().unwrap().to_string();
    }
    assert!(
        steps.len() > 2 * 4,
        "the line reaches the moving phase: {l}"
    );
    assert_eq!(l["end"]["reason"], "game_over", "{l}");
}

/// `match --level 3 --vs 1` and `--vs 2` from the empty board: level 3 wins every
/// game it plays as the side `probe` says wins, and never needs a search.
#[test]
fn level_three_wins_every_game_it_plays_as_the_winner() {
    let winner = match probe(EMPTY4)["value"].as_str().unwrap() {
        "win" => "Bone",
        "loss" => "Seed",
        v => panic!("the empty board is a {v}"),
    };
    for vs in ["1", "2"] {
        let r = cli(
            &[
                "match",
                "--dir",
                whole(),
                "--level",
                "3",
                "--vs",
                vs,
                "--games",
                "20",
                "--json",
            ],
            b"",
        );
        assert_eq!(r.code, Some(0), "{r:?}");
        let m: Json = serde_json::from_str(r.stdout.trim()).unwrap();
        assert_eq!(m["settings"]["start"], EMPTY4);
        for g in m["games"].as_array().unwrap() {
            assert_eq!(g["searched"], 0, "{g}");
            if g["first_player"] == winner {
                assert_eq!(g["result"]["state"], "win", "{g}");
                assert_eq!(
                    g["result"]["winner"].as_str().unwrap(),
                    winner.to_lowercase(),
                    "{g}"
                );
            }
        }
    }
}

/// `play` starts from the rule set's empty board (4 in each hand), takes a hint
/// while placing from the tables (one of `probe`'s best placements), and the
/// computer places from the tables.
#[test]
fn play_starts_with_four_in_hand_and_hints_from_the_placing_tables() {
    let r = cli(
        &[
            "play",
            "--dir",
            whole(),
            "--as",
            "bone",
            "--level",
            "3",
            "--seed",
            "3",
        ],
        b"hint\nquit\n",
    );
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(
        r.stdout.contains("Bone: 0 on board, 4 in hand"),
        "{}",
        r.stdout
    );
    let hint_line = r
        .stdout
        .lines()
        .find_map(|l| l.split_once("Hint: "))
        .unwrap()
        .1;
    assert!(hint_line.contains("from the tables"), "{hint_line}");
    let p = probe(EMPTY4);
    let best = p["moves"][0]["move"].as_str().unwrap();
    let hinted: Vec<&str> = hint_line
        .split(" (")
        .next()
        .unwrap()
        .split(" or ")
        .collect();
    assert!(hinted.contains(&best), "{hint_line} {best}");
    for m in &hinted {
        let entry = p["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["move"] == *m)
            .unwrap();
        assert_eq!(entry["value"], p["value"], "{m}");
        assert_eq!(entry["dtc"], p["dtc"], "{m}");
    }
    // Level 4's pick, named in the hint, keeps the value too.
    let ultra = hint_line
        .split("level 4 would play ")
        .nth(1)
        .and_then(|t| t.split(')').next())
        .unwrap_or_else(|| panic!("{hint_line}"));
    let entry = p["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["move"] == ultra)
        .unwrap_or_else(|| panic!("{hint_line}"));
    assert_eq!(entry["value"], p["value"], "{ultra}");
    // The computer (Seed) places from the tables: no search note.
    let r = cli(
        &[
            "play",
            "--dir",
            whole(),
            "--as",
            "seed",
            "--level",
            "3",
            "--seed",
            "3",
        ],
        b"quit\n",
    );
    assert_eq!(r.code, Some(0), "{r:?}");
    let computer = r
        .stdout
        .lines()
        .find(|l| l.contains("The computer (Bone) plays"))
        .unwrap();
    assert!(!computer.contains("searched"), "{computer}");
}

/// `analyze --json` judges every placement of a 4-a-side record, and marks a
/// placement that `probe` says throws the win.
#[test]
fn analyze_judges_placements_and_marks_a_thrown_win() {
    // Bone's first placement, then Seed (the winner, by probe) throws the win with
    // the first placement `probe` ranks below the best value.
    let start = probe(EMPTY4);
    let first = start["moves"][0]["move"].as_str().unwrap().to_string();
    let after_first = start["moves"][0].clone();
    assert_eq!(after_first["value"], "loss", "Seed wins this game: {start}");
    let line = cli(
        &[
            "line",
            "--dir",
            whole(),
            "--json",
            "--max-turns",
            "1",
            EMPTY4,
        ],
        b"",
    );
    let l: Json = serde_json::from_str(line.stdout.trim()).unwrap();
    let second_position = l["steps"][0]["position"].as_str().unwrap().to_string();
    let second = probe(&second_position);
    assert_eq!(second["value"], "win");
    let thrower = second["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["value"] != "win")
        .expect("a placement that throws the win")["move"]
        .as_str()
        .unwrap()
        .to_string();
    let record = format!("{first} {thrower}");
    let r = cli(&["analyze", "--dir", whole(), "--json", &record], b"");
    assert_eq!(r.code, Some(0), "{r:?}");
    let a: Json = serde_json::from_str(r.stdout.trim()).unwrap();
    let turns = a["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 2);
    for t in turns {
        assert_eq!(t["verdict"]["judged"], "judged", "{t}");
    }
    assert_eq!(turns[0]["verdict"]["thrown"], false);
    assert_eq!(turns[1]["verdict"]["thrown"], true, "{}", turns[1]);
    assert_eq!(a["players"][1]["errors"], serde_json::json!([2]));
}

/// Position strings are read under the rule set: a hand of 5 is refused under
/// `pieces=4` (exit 2, naming the limit), and `match` starts from 4 in hand.
#[test]
fn four_a_side_strings_are_checked_against_pieces() {
    let r = cli(
        &[
            "probe",
            "--dir",
            whole(),
            ".../.../.../....../.../.../... B 5 5",
        ],
        b"",
    );
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(r.stderr.contains("BONE_HAND"), "{}", r.stderr);
}
