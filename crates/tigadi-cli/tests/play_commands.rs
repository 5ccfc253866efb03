//! `analyze`, `line`, `play` and `match` as a person (or a script) uses them, on the
//! shared tables solved to 7 gotis, checked against `probe` run on the same tables.

use crate::common;

use common::*;
use serde_json::Value as Json;
use std::path::Path;

fn dir() -> String {
    solved7().to_str().unwrap().to_string()
}

fn json(r: &Run) -> Json {
    assert_eq!(r.code, Some(0), "{r:?}");
    serde_json::from_str(r.stdout.trim()).unwrap()
}

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

/// `probe --json` of each position (one batch run): the answers in order.
fn probe_all(positions: &[String]) -> Vec<Json> {
    let mut cmd = tigadi();
    cmd.args(["probe", "--dir", &dir()]);
    let input = positions.join("\n") + "\n";
    let r = run_with(cmd, input.as_bytes(), LIMIT);
    r.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn rank(wdl: &str) -> i32 {
    match wdl {
        "loss" => 0,
        "draw" => 1,
        "win" => 2,
        w => panic!("{w}"),
    }
}

/// For every turn of `analyze --json`, `probe` of the positions before and after
/// decides whether it is judged and whether it threw the value.
fn check_analysis(record: &str) -> usize {
    let a = json(&run(&[
        "analyze",
        "--dir",
        &dir(),
        "--json",
        "--file",
        &data(record),
    ]));
    let turns = a["turns"].as_array().unwrap();
    let mut positions: Vec<String> = turns
        .iter()
        .map(|t| t["before_position"].as_str().unwrap().to_string())
        .collect();
    positions.push(a["position"].as_str().unwrap().to_string());
    let probes = probe_all(&positions);
    assert_eq!(probes.len(), positions.len());
    let mut thrown = 0;
    for (i, t) in turns.iter().enumerate() {
        let (before, after) = (&probes[i], &probes[i + 1]);
        let v = &t["verdict"];
        if before.get("error").is_some() {
            assert_eq!(v["judged"], "not_judged", "turn {}: {v}", i + 1);
            continue;
        }
        // The value after for the player who moved: the other side's, turned
        // round; a capture that ends the game wins (`probe` refuses that position).
        let after_for_mover = match after["value"].as_str() {
            Some(w) => 2 - rank(w),
            None if i + 1 == turns.len() && a["result"]["winner"] == t["side"] => 2,
            None => panic!("turn {}: {after}", i + 1),
        };
        if v["judged"] == "not_judged" {
            // Judged needs every successor's table too; the turn's own successor
            // at least must then be covered.
            continue;
        }
        let before_wdl = rank(before["value"].as_str().unwrap());
        assert_eq!(
            v["before"]["value"]["value"],
            before["value"],
            "turn {}",
            i + 1
        );
        assert_eq!(
            rank(v["after"]["value"]["value"].as_str().unwrap()),
            after_for_mover,
            "turn {}",
            i + 1
        );
        let is_thrown = after_for_mover < before_wdl;
        assert_eq!(v["thrown"], is_thrown, "turn {}: {v}", i + 1);
        thrown += is_thrown as usize;
    }
    thrown
}

#[test]
fn analyze_marks_the_turns_that_throw_a_value_as_probe_sees_them() {
    // The sample game never comes down to 7 gotis: nothing judged, nothing thrown.
    assert_eq!(check_analysis("sample-game.txt"), 0);
    assert!(check_analysis("game-thrown-win.txt") > 0);
    assert!(check_analysis("game-club-players.txt") > 0);
    let text = run(&[
        "analyze",
        "--dir",
        &dir(),
        "--file",
        &data("game-thrown-win.txt"),
    ]);
    assert_eq!(text.code, Some(0), "{text:?}");
    assert!(text.stdout.contains("?? value thrown"), "{}", text.stdout);
    // These tables hold no placing layer: the first placement's table is missing.
    assert!(text
        .stdout
        .contains("not judged: no table for 0v0: p0-0v0.tgtb is missing"));
    assert!(text.stdout.contains("not judged: no table for"));
    assert!(
        text.stdout.contains("value-changing error (turn"),
        "{}",
        text.stdout
    );
}

#[test]
fn analyze_refuses_an_illegal_record() {
    let r = run(&["analyze", "--dir", &dir(), "1. d5 g7 2. d6 g4 3. d7"]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("move 5 (d7) is illegal"), "{}", r.stderr);
}

#[test]
fn line_of_a_won_position_captures_after_exactly_its_dtc() {
    let positions = [
        "B.B/.B./.../S....S/.../.../..S S",
        "BB./S../.../...S../.../.../SB. B",
        ".B./S.B/.../..S..B/.../.S./... B",
        "B../.S./B../S.S.../.../..B/... S",
        "..B/.../S.B/...S../B../.S./... B",
    ];
    let probes = probe_all(&positions.map(String::from));
    let mut decided = 0;
    for (p, probe) in positions.iter().zip(&probes) {
        let l = json(&run(&["line", "--dir", &dir(), "--json", p]));
        let steps = l["steps"].as_array().unwrap();
        assert_eq!(l["value"]["value"], probe["value"], "{p}");
        match probe["dtc"].as_u64() {
            None => {
                assert!(steps.is_empty());
                assert_eq!(l["end"]["reason"], "draw_certain");
            }
            Some(dtc) => {
                decided += 1;
                let first = steps
                    .iter()
                    .position(|s| s["move"].as_str().unwrap().contains('x'))
                    .unwrap();
                assert_eq!(first as u64 + 1, dtc, "{p}: {l}");
                // Each move is one `probe` puts first with the position's value.
                let before: Vec<String> = std::iter::once(p.to_string())
                    .chain(
                        steps
                            .iter()
                            .map(|s| s["position"].as_str().unwrap().to_string()),
                    )
                    .take(first + 1)
                    .collect();
                for (s, b) in steps.iter().zip(probe_all(&before)) {
                    assert_eq!(s["value"]["dtc"], b["dtc"], "{p}");
                    let best: Vec<&Json> = b["moves"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter(|m| m["dtc"] == b["dtc"] && m["value"] == b["value"])
                        .map(|m| &m["move"])
                        .collect();
                    assert!(best.contains(&&s["move"]), "{p}: {s} not among {best:?}");
                }
            }
        }
    }
    assert!(decided >= 3, "{decided}");
    let r = run(&["line", "--dir", &dir(), START]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("p0-0v0.tgtb is missing"), "{}", r.stderr);
}

#[test]
fn play_a_whole_game_with_typos_an_illegal_move_a_hint_and_undo() {
    // Bone to move wins at once with d6-d7 and a capture.
    let from = "B.B/.B./.../S....S/.../.../..S B";
    let session = |input: &str| {
        let mut cmd = tigadi();
        cmd.args(["play", "--dir", &dir(), "--from", from, "--seed", "3"]);
        run_with(cmd, input.as_bytes(), LIMIT)
    };
    // First the hint alone, to learn the winning move without hard-coding it.
    let r = session("hint\nquit\n");
    assert_eq!(r.code, Some(0), "{r:?}");
    let hint_line = r.stdout.lines().find(|l| l.contains("Hint: ")).unwrap();
    let best = hint_line.split("Hint: ").nth(1).unwrap();
    let best = best.split_whitespace().next().unwrap();
    assert!(hint_line.contains("win, captures in 1"), "{hint_line}");

    let r = session(&format!(
        "hello\na9\na7-a4\nd6-d7\nhint\na7-b6\nundo\n{best}\n"
    ));
    assert_eq!(r.code, Some(0), "{r:?}");
    let out = &r.stdout;
    assert!(
        out.contains("That is not a move: bad move 'hello'"),
        "{out}"
    );
    assert!(out.contains("'a9' is not a point"), "{out}");
    assert!(
        out.contains("a7-a4 is not legal here: a4 is occupied"),
        "{out}"
    );
    assert!(
        out.contains("d6-d7 closes a tigadi and must capture"),
        "{out}"
    );
    assert!(out.contains("The computer (Seed) plays"), "{out}");
    assert!(out.contains("Took back 2 moves."), "{out}");
    assert!(out.trim_end().ends_with("You win."), "{out}");
    assert!(out.contains("game over: Bone wins"), "{out}");
    // The board is drawn after every turn: the start, after a7-b6, after the
    // reply, after the undo, after the win.
    assert_eq!(
        out.matches("  a   b   c       d       e   f   g").count(),
        5,
        "{out}"
    );

    // Undo before any move, and input that ends before the game does.
    let r = session("undo\n");
    assert_eq!(r.code, Some(0));
    assert!(r.stdout.contains("Nothing to undo"), "{}", r.stdout);
    assert!(r.stdout.contains("left unfinished"), "{}", r.stdout);
}

#[test]
fn play_from_the_empty_board_says_when_it_searches() {
    let mut cmd = tigadi();
    cmd.args([
        "play",
        "--dir",
        &dir(),
        "--as",
        "seed",
        "--level",
        "3",
        "--seed",
        "1",
    ]);
    let r = run_with(cmd, b"hint\nquit\n", LIMIT);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(
        r.stdout
            .contains("(no table for 0v0: p0-0v0.tgtb is missing; it searched 4 turns ahead)"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("a 4-turn search suggests it"),
        "{}",
        r.stdout
    );
    for bad in ["0", "5"] {
        let r = run(&["play", "--dir", &dir(), "--level", bad]);
        assert_eq!(r.code, Some(2), "--level {bad}: {r:?}");
    }
}

/// `tigadi match --dir D --level A --vs B EXTRA...`.
fn a_match(level: &str, vs: &str, extra: &[&str]) -> Run {
    let d = dir();
    let mut args = vec!["match", "--dir", &d, "--level", level, "--vs", vs];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn a_match_is_the_same_with_the_same_seed() {
    let from = "B../.S./B../S.S.../.../..B/... S";
    let seeded = |seed| {
        a_match(
            "3",
            "2",
            &["--games", "4", "--seed", seed, "--from", from, "--json"],
        )
    };
    let (a, b) = (json(&seeded("5")), json(&seeded("5")));
    assert_eq!(a, b);
    assert_eq!(a["games"].as_array().unwrap().len(), 4);
    let text = a_match("2", "1", &["--games", "2"]);
    assert_eq!(text.code, Some(0), "{text:?}");
    assert!(
        text.stdout.contains("first player (level 2) won"),
        "{}",
        text.stdout
    );
    let ultra = a_match("4", "1", &["--games", "2", "--from", from]);
    assert_eq!(ultra.code, Some(0), "{ultra:?}");
    assert!(
        ultra.stdout.contains("first player (level 4 (ultra)) won"),
        "{}",
        ultra.stdout
    );
    for (level, vs) in [("5", "1"), ("4", "0")] {
        let bad = a_match(level, vs, &[]);
        assert_eq!(bad.code, Some(2), "{level} {vs}: {bad:?}");
    }
    let bad = a_match("2", "1", &["--from", "xyz"]);
    assert_eq!(bad.code, Some(2));
    assert!(bad.stderr.contains("bad position string"), "{}", bad.stderr);
}
