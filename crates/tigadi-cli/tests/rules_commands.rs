//! The rules commands (`show`, `moves`, `replay`, `perft`) run as a user runs them.

use std::process::{Command, Output};

const START: &str = ".../.../.../....../.../.../... B 9 9";

fn tigadi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tigadi"))
        .args(args)
        .output()
        .expect("run tigadi")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs a command that must fail with exit code 2 and returns its message.
fn fails(args: &[&str]) -> String {
    let o = tigadi(args);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{args:?}: {}{}",
        stdout(&o),
        stderr(&o)
    );
    stderr(&o)
}

#[test]
fn perft_from_the_empty_board() {
    let o = tigadi(&["perft", START, "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "255024");
    let o = tigadi(&["--rules", "morris", "perft", START, "3"]);
    assert_eq!(stdout(&o).trim(), "12144");
}

#[test]
fn show_draws_the_board() {
    let o = tigadi(&["show", "BB./S../.../...S../.../.../SB. S"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(
        out.starts_with("7 B---------------B---------------·\n  | \\"),
        "{out}"
    );
    assert!(out.contains("Seed to move (moving phase)"), "{out}");
    assert!(
        out.contains("position: BB./S../.../...S../.../.../SB. S"),
        "{out}"
    );
    // Without diagonals on the 16-line board.
    let out = stdout(&tigadi(&["--rules", "navakankari", "show", START]));
    let drawing: String = out.lines().take(13).collect();
    assert!(!drawing.contains('\\') && !drawing.contains('/'), "{out}");
    assert!(
        out.lines().nth(1).unwrap().trim_end() == "  |               |               |",
        "{out}"
    );
}

#[test]
fn moves_lists_legal_moves() {
    let o = tigadi(&["moves", "BB./S../.../...S../.../.../SB. S"]);
    assert_eq!(
        stdout(&o),
        "8 legal moves for Seed (moving phase):\na1-a4 a1-b2 b6-d6 b6-b4 b6-c5 e4-f4 e4-e5 e4-e3\n"
    );
    let o = tigadi(&[
        "--rules",
        "morris",
        "moves",
        "--json",
        "BB./S../.../...S../.../.../SB. S",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["count"], 18 * 3, "Seed flies with three: {v}");
    assert_eq!(v["rules"], "morris");
}

#[test]
fn replay_reports_position_and_result() {
    let o = tigadi(&["replay", "1. d5 g7 2. d6 g4 3. d7xg4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "moves: 5\nposition: .BS/.B./.B./....../.../.../... S 6 7\nresult: in progress\n"
    );
    let o = tigadi(&["replay", "--json", "d5 g7"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["result"]["state"], "in_progress");
    assert_eq!(v["position"], "..S/.../.B./....../.../.../... B 8 8");
}

#[test]
fn replay_reads_a_file() {
    let dir = crate::common::scratch("replay");
    let f = dir.join("game.txt");
    std::fs::write(&f, "1. d5 g7\n2. d6 g4\n").unwrap();
    let o = tigadi(&["replay", "--file", f.to_str().unwrap()]);
    assert!(stdout(&o).contains("moves: 4"), "{}", stderr(&o));
    let e = fails(&["replay", "--file", "/nonexistent/game.txt"]);
    assert!(e.contains("cannot read the record"), "{e}");
}

#[test]
fn illegal_moves_name_their_number_and_reason() {
    let e = fails(&["replay", "d5 d5"]);
    assert!(e.contains("move 2 (d5) is illegal: d5 is occupied"), "{e}");
    let e = fails(&["replay", "d5 g7 d6 g4 d7"]);
    assert!(
        e.contains("move 5 (d7) is illegal: d7 closes a tigadi and must capture"),
        "{e}"
    );
    let e = fails(&["replay", "d5 g7 d6 g4 d3xg7"]);
    assert!(
        e.contains("d3 does not close a tigadi, so it cannot capture"),
        "{e}"
    );
    let e = fails(&["replay", "1. d5 g7 2. a1-a4"]);
    assert!(e.contains("move 3 (a1-a4)"), "{e}");
    let e = fails(&["replay", "d5 g7 zz"]);
    assert!(e.contains("move 3") && e.contains("'zz'"), "{e}");
}

#[test]
fn bad_positions_are_refused_with_a_reason() {
    for (pos, words) in [
        ("nonsense", "fields"),
        ("BB./S../.../...S../.../.../SB. X", "side to move"),
        ("BB../S../.../...S../.../.../SB. S", "rank 7"),
        ("BBB/BBB/BBB/B...../.../.../SSS B 1 1", "more than the 9"),
        ("BBB/SSS/.../....../.../.../... B 2 3", "order of placing"),
        ("BB./S../.../....../.../.../SB. S", "only 2 gotis"),
    ] {
        for cmd in ["show", "moves", "perft"] {
            let mut args = vec![cmd, pos];
            if cmd == "perft" {
                args.push("1");
            }
            let e = fails(&args);
            assert!(e.contains(words), "{cmd} {pos}: {e}");
        }
    }
    let e = fails(&["--rules", "chess", "show", START]);
    assert!(e.contains("chess"), "{e}");
}

#[test]
fn game_over_positions_say_so() {
    // Seed hemmed in: Bone wins in navakankari, Seed passes in tigadi.
    let blocked = "SBS/B.B/.../B....B/.../B.B/SBS S";
    let o = tigadi(&["--rules", "navakankari", "moves", blocked]);
    assert!(
        stdout(&o).contains("no legal moves: Bone wins: Seed is blocked"),
        "{}",
        stdout(&o)
    );
    let o = tigadi(&["moves", blocked]);
    assert!(stdout(&o).contains("pass"), "{}{}", stdout(&o), stderr(&o));
}

/// Lasker's rule (docs/RULES.md §8.2) through the rules commands: the perft of the
/// start equals the rules crate's (which its own test checks against a naive
/// generator), a player with gotis in hand is offered slides beside placements,
/// and `solve` solves small sets under the rule (game and 100-turn tables),
/// saying the start's value under the 100-turn rule.
#[test]
fn lasker_rules_commands() {
    let rules = tigadi_rules::RuleSet::LASKER;
    let start = tigadi_rules::Position::start(&rules);
    let o = tigadi(&["--rules", "lasker", "perft", &start.to_string(), "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), start.perft(&rules, 3).to_string());
    // Bone on a7 with 9 in hand, Seed on d7: Bone may place or slide a7-a4.
    let p = "BS./.../.../....../.../.../... B 9 9";
    let o = tigadi(&["--rules", "lasker", "moves", p]);
    assert!(stdout(&o).contains(" a7-a4"), "{}", stdout(&o));
    // No placing phase under Lasker's rule: the heading names the hands.
    assert!(
        stdout(&o).contains("for Bone (gotis in hand):") && !stdout(&o).contains("phase"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("g7 g4"), "{}", stdout(&o));
    let o = tigadi(&["--rules", "morris,pieces=10", "moves", p]);
    assert!(!stdout(&o).contains("a7-a4"), "{}", stdout(&o));
    let o = tigadi(&["--rules", "lasker", "show", p]);
    assert!(
        stdout(&o).contains("Bone to place or move (gotis in hand)")
            && !stdout(&o).contains("phase"),
        "{}",
        stdout(&o)
    );
    let o = tigadi(&["--rules", "lasker", "replay", "d5 g7 d5-d6 g7-g4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = crate::common::scratch("lasker-rules");
    // Lasker's rule: the game and 100-turn tables are solved
    // (tests/lasker_oracle.rs compares them), the start's value under the rule said.
    for r in ["lasker,pieces=3", "morris,slides=always,pieces=3"] {
        let o = tigadi(&["--rules", r, "solve", "--dir", dir.to_str().unwrap()]);
        assert!(o.status.success(), "{r}: {}", stderr(&o));
        assert!(
            stdout(&o).contains("under the 100-turn rule, turn limit 100: "),
            "{r}: {}",
            stdout(&o)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// `start` names the rule set's empty board wherever a position is read:
/// `show`, `moves` and `perft` answer for it what they answer for the string
/// written out (with the rule set's own hands under `pieces=N`).
#[test]
fn start_is_the_empty_board_for_every_command() {
    for (rules, written) in [
        ("tigadi", START.to_string()),
        (
            "lasker,pieces=4",
            ".../.../.../....../.../.../... B 4 4".to_string(),
        ),
    ] {
        for args in [
            &["show", "--json"][..],
            &["moves", "--json"][..],
            &["perft"][..],
        ] {
            let run = |position: &str| {
                let mut all = vec!["--rules", rules];
                all.extend_from_slice(args);
                all.push(position);
                if args[0] == "perft" {
                    all.push("2");
                }
                let o = tigadi(&all);
                assert!(o.status.success(), "{all:?}: {}", stderr(&o));
                stdout(&o)
            };
            assert_eq!(run("start"), run(&written), "{rules} {args:?}");
        }
    }
    assert!(fails(&["show", "starts"]).contains("bad position string"));
}
