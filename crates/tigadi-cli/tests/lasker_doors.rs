//! Issue 53: every door on Lasker positions (`slides=always`), without tables
//! and (the last test) on solved `lasker,pieces=3` tables.
//! `play` at the levels that search plays a Lasker game from the empty board,
//! a slide while gotis are in hand included, and says the choice; `show` states
//! both hands; `probe`, `line` and `analyze` answer a position of a tier no
//! alternate placing reaches with "no table" for that tier's file (exit 2 where
//! they fail), never "invalid position", a panic or a value.

use crate::common;

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

/// A value as `probe` and `line` print it.
fn parse_value(text: &str) -> tigadi_values::Value {
    use tigadi_values::Value;
    let depth = |t: &str| t.rsplit(' ').next().unwrap().parse::<u16>().unwrap();
    match text {
        "draw" => Value::Draw,
        t if t.starts_with("win, captures in ") => Value::Win(depth(t)),
        t if t.starts_with("loss, opponent captures in ") => Value::Loss(depth(t)),
        t => panic!("not a value: {t:?}"),
    }
}

/// On solved `lasker,pieces=3` tables every door answers a position whose player
/// to move may place or slide (here fly: one goti on the board, two in hand):
/// `probe` lists both kinds of turn, `line` from the empty board plays to the
/// end with each turn's value the next position's one turn later (a capture
/// counting 1), `analyze` judges every turn of a game with slides in hand,
/// `play` hints from the tables, and the server answers it (200) and still refuses a malformed
/// one (400).
#[test]
fn every_door_judges_a_position_with_slides_in_hand() {
    let d = scratch("lasker-doors-solved3");
    let dir = d.to_str().unwrap();
    let rules = ["--rules", "lasker,pieces=3"];
    let r = run(&[&rules[..], &["solve", "--dir", dir]].concat());
    assert_eq!(r.code, Some(0), "{r:?}");
    // The start's depth under the rule would be a DTZ₁₀₀ of 1 whatever its
    // value (the first turn is a placement): the outcome stands alone.
    let said = format!("{}{}", r.stdout, r.stderr);
    let start = said
        .lines()
        .find(|l| l.contains("under the 100-turn rule"))
        .unwrap_or_else(|| panic!("{said}"));
    assert!(start.ends_with(": win"), "{start}");
    let may_slide = "B../.../.../....../.../.../..S B 2 2";
    let probe = run(&[&rules[..], &["probe", "--dir", dir, may_slide]].concat());
    assert_eq!(probe.code, Some(0), "{probe:?}");
    let out = &probe.stdout;
    assert!(out.contains("Bone to move: "), "{out}");
    // A placement, a slide to a neighbour and a flying slide are all listed.
    for turn in ["  g4 ", "  a7-d7 ", "  a7-e4 "] {
        assert!(out.contains(turn), "{turn}: {out}");
    }
    // Under Lasker's rule the depth under the 100-turn rule counts to the next
    // capture or placement: JSON keys it `dtz100`, never `dtc100`, and the
    // words say "counter restarts in N", never "captures in N", for it.
    let json = run(&[&rules[..], &["probe", "--json", "--dir", dir, may_slide]].concat());
    assert_eq!(json.code, Some(0), "{json:?}");
    let j: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let rows = std::iter::once(&j).chain(j["moves"].as_array().unwrap());
    let mut depths = 0;
    for row in rows {
        assert!(
            row.get("dtc100").is_none() && row.get("dtz100").is_some(),
            "{row}"
        );
        depths += row["dtz100"].is_u64() as usize;
    }
    assert!(depths > 0, "{j}");
    let probe = run(&[
        &rules[..],
        &["probe", "--rule-detail", "--dir", dir, may_slide],
    ]
    .concat());
    assert_eq!(probe.code, Some(0), "{probe:?}");
    let rule_lines: Vec<&str> = probe
        .stdout
        .lines()
        .filter(|l| l.contains("under the 100-turn rule"))
        .collect();
    assert!(!rule_lines.is_empty(), "{}", probe.stdout);
    for l in &rule_lines {
        let under = l.rsplit("under the 100-turn rule").next().unwrap();
        assert!(!under.contains("captures in"), "{l}");
    }
    assert!(
        rule_lines.iter().any(|l| l.contains("counter restarts in")),
        "{}",
        probe.stdout
    );
    // `stats` names the longest depths under the rule as DTZ₁₀₀ too.
    let stats = run(&[&rules[..], &["stats", "--json", "--dir", dir]].concat());
    assert_eq!(stats.code, Some(0), "{stats:?}");
    let mut longest = 0;
    for row in stats
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
    {
        assert!(
            row.get("max_dtc100_win").is_none() && row.get("dtc100").is_none(),
            "{row}"
        );
        longest += row["max_dtz100_win"].is_u64() as usize;
    }
    assert!(longest > 0, "{}", stats.stdout);

    let line = run(&[
        &rules[..],
        &["line", "--dir", dir, ".../.../.../....../.../.../... B 3 3"],
    ]
    .concat());
    assert_eq!(line.code, Some(0), "{line:?}");
    let turns: Vec<(String, tigadi_values::Value)> = line
        .stdout
        .lines()
        .filter(|l| {
            l.trim_start()
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        })
        .map(|l| {
            let cols: Vec<&str> = l
                .split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .collect();
            (cols[1].to_string(), parse_value(cols[2]))
        })
        .collect();
    assert!(turns.len() > 10, "{}", line.stdout);
    assert!(
        turns.iter().any(|(m, _)| m.contains('-')) && turns.iter().any(|(m, _)| !m.contains('-')),
        "placements and slides: {}",
        line.stdout
    );
    for w in turns.windows(2) {
        let ((turn, v), (_, next)) = (&w[0], &w[1]);
        assert_eq!(
            *v,
            next.before_turn(turn.contains('x')),
            "{turn}: {}",
            line.stdout
        );
    }
    let (last, v) = turns.last().unwrap();
    assert!(
        last.contains('x') && *v == tigadi_values::Value::Win(1),
        "{}",
        line.stdout
    );
    assert!(line.stdout.contains("end: Bone wins"), "{}", line.stdout);

    // `analyze` judges every turn of a game with slides while gotis are in hand;
    // `play` hints from the tables after a slide in hand.
    let record = "d5 a1 d2 a1-a4 d5-d6";
    let r = run(&[&rules[..], &["analyze", "--dir", dir, record]].concat());
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(r.stdout.contains("Bone: 3 turns, 3 judged"), "{}", r.stdout);
    assert!(r.stdout.contains("Seed: 2 turns, 2 judged"), "{}", r.stdout);
    assert!(!r.stdout.contains("not judged"), "{}", r.stdout);
    let mut c = tigadi();
    c.args(rules).args(["play", "--seed", "3", "--dir", dir]);
    let r = run_with(c, b"d5\nd5-d6\nhint\nquit\n", LIMIT);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(!r.stdout.contains("not a legal move"), "{}", r.stdout);
    assert!(r.stdout.contains("(from the tables: "), "{}", r.stdout);

    let server = common::http::Server::start(&d);
    let a = server.get(&format!(
        "/api/v1/lasker,pieces=3?position={}",
        common::http::enc(may_slide)
    ));
    assert_eq!(a.status, 200, "{}", a.body);
    assert!(a.body.contains("a7-e4"), "{}", a.body);
    let a = server.get(&format!(
        "/api/v1/lasker,pieces=3?position={}",
        common::http::enc("B../.../.../....../.../.../..S B 2")
    ));
    assert_eq!(a.status, 400, "{}", a.body);
}
