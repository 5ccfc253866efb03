//! Issue 53: every door on Lasker positions (`slides=always`) without tables.
//! `play` at the levels that search plays a Lasker game from the empty board,
//! a slide while gotis are in hand included, and says the choice; `show` states
//! both hands; `probe`, `line` and `analyze` answer a position of a tier no
//! alternate placing reaches with "no table" for that tier's file (exit 2 where
//! they fail), never "invalid position", a panic or a value.

mod common;

use common::*;
use std::path::PathBuf;

/// A Lasker position whose hands no alternate placing gives: Bone has placed
/// two, Seed one and slid once (8 and 9 in hand), Bone to move.
const SLID: &str = ".../.../.../BB..../.../.../S.. B 8 9";

/// A directory with an empty `lasker/` directory, one per test (`name`): the
/// rule set's tables are looked for, and none is there.
fn no_tables(name: &str) -> PathBuf {
    let d = scratch(&format!("lasker-doors-{name}"));
    std::fs::create_dir_all(d.join("lasker")).unwrap();
    d
}

fn lasker(args: &[&str], stdin: &[u8]) -> Run {
    let mut c = tigadi();
    c.args(["--rules", "lasker"]).args(args);
    run_with(c, stdin, LIMIT)
}

#[test]
fn show_states_both_hands_and_the_choice() {
    let r = lasker(&["show", SLID], b"");
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(
        r.stdout.contains(&format!("position: {SLID}")),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("Bone to place or move"), "{}", r.stdout);
    assert!(
        r.stdout.contains("Bone: 2 on board, 8 in hand"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("Seed: 1 on board, 9 in hand"),
        "{}",
        r.stdout
    );
    let r = lasker(&["moves", SLID], b"");
    assert_eq!(r.code, Some(0), "{r:?}");
    // Both kinds of turn are offered: placements and slides.
    assert!(r.stdout.contains(" d5 "), "{}", r.stdout);
    assert!(r.stdout.contains("b4-b6"), "{}", r.stdout);
}

#[test]
fn play_at_the_search_levels_slides_while_gotis_are_in_hand() {
    let dir = no_tables("play");
    for level in ["1", "2"] {
        let r = lasker(
            &[
                "play",
                "--level",
                level,
                "--seed",
                "7",
                "--dir",
                dir.to_str().unwrap(),
            ],
            b"d5\nd5-d6\nhint\nquit\n",
        );
        assert_eq!(r.code, Some(0), "level {level}: {r:?}");
        let out = &r.stdout;
        // Both of the computer's replies came: the slide was taken.
        assert_eq!(out.matches("The computer (Seed) plays").count(), 2, "{out}");
        assert!(out.contains("Bone to place or move"), "{out}");
        assert!(!out.contains("not a legal move"), "{out}");
        assert!(r.stdout.contains("Hint: "), "{out}");
        assert!(out.contains("Bone: 1 on board, 9 in hand"), "{out}");
    }
}

#[test]
fn probe_and_line_name_the_missing_table_of_the_tier() {
    let dir = no_tables("probe");
    let d = dir.to_str().unwrap();
    for command in ["probe", "line"] {
        let r = lasker(&[command, "--dir", d, SLID], b"");
        assert_eq!(r.code, Some(2), "{command}: {r:?}");
        assert!(
            r.stderr.contains("h8-9-2v1.tgtb"),
            "{command}: {}",
            r.stderr
        );
        assert!(
            !r.stderr.contains("invalid position"),
            "{command}: {}",
            r.stderr
        );
        assert!(!r.stderr.contains("panicked"), "{command}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{command}: {}", r.stdout);
    }
    // A tier no game reaches is still refused as a position.
    let r = lasker(
        &["probe", "--dir", d, ".../.../.../.B..../.../.../... B 9 10"],
        b"",
    );
    assert_eq!(r.code, Some(2), "{r:?}");
}

#[test]
fn analyze_judges_nothing_without_tables() {
    let dir = no_tables("analyze");
    // Seed's slide a1-a4 leaves Bone to move with 8 in hand against 9.
    let record = "d5 a1 d2 a1-a4 d5-d6";
    let r = lasker(&["analyze", "--dir", dir.to_str().unwrap(), record], b"");
    assert_eq!(r.code, Some(0), "{r:?}");
    assert_eq!(
        r.stdout.matches("not judged: no table for").count(),
        5,
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("h8-9-2v1.tgtb is missing"),
        "{}",
        r.stdout
    );
}

/// The server on a Lasker position without its table: the probe and the line
/// answer 404 naming the tier's file, the explorer lists every legal move (the
/// placements and the slides) with values unknown and says why.
#[test]
fn the_server_names_the_missing_table_and_lists_both_kinds_of_turn() {
    let dir = no_tables("serve");
    let server = common::http::Server::start(&dir);
    let q = common::http::enc(SLID);
    for path in [
        format!("/api/v1/lasker?position={q}"),
        format!("/api/v1/lasker/line?position={q}"),
    ] {
        let a = server.get(&path);
        assert_eq!(a.status, 404, "{path}: {}", a.body);
        let error = a.json()["error"].as_str().unwrap().to_string();
        assert!(error.contains("h8-9-2v1.tgtb"), "{path}: {error}");
    }
    let a = server.get(&format!("/api/v1/lasker/explore?position={q}"));
    assert_eq!(a.status, 200, "{}", a.body);
    let j = a.json();
    assert_eq!(j["known"], false);
    assert_eq!(j["position"], SLID);
    assert!(
        j["unknown"]
            .as_str()
            .unwrap()
            .contains("no table for this tier"),
        "{j}"
    );
    let moves: Vec<&str> = j["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    let rules = tigadi_rules::RuleSet::LASKER;
    let p = tigadi_rules::parse_position(&rules, SLID).unwrap();
    let legal: Vec<String> = p
        .legal_moves(&rules)
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(moves, legal);
    assert!(
        moves.contains(&"d5") && moves.contains(&"b4-b6"),
        "{moves:?}"
    );
}

/// On solved Lasker tables, `probe` judges a position whose player to move can
/// only place (no goti of its own on the board) from its placements, and refuses
/// with a clear exit 2, never a value from part of its turns, one whose player
/// could also slide (the prober lists placements alone).
#[test]
fn probe_refuses_what_it_would_judge_from_part_of_the_turns() {
    let d = scratch("lasker-doors-solved3");
    let dir = d.to_str().unwrap();
    let r = run(&["--rules", "lasker,pieces=3", "solve", "--dir", dir]);
    assert_eq!(r.code, Some(0), "{r:?}");
    let probe = |pos: &str| run(&["--rules", "lasker,pieces=3", "probe", "--dir", dir, pos]);
    let start = probe(".../.../.../....../.../.../... B 3 3");
    assert_eq!(start.code, Some(0), "{start:?}");
    assert!(start.stdout.contains("Bone to move"), "{start:?}");
    let may_slide = probe("B../.../.../....../.../.../..S B 2 2");
    assert_eq!(may_slide.code, Some(2), "{may_slide:?}");
    assert!(
        may_slide.stderr.contains("slides=always") && may_slide.stdout.is_empty(),
        "{may_slide:?}"
    );
}
