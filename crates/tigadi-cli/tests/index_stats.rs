//! `index-stats --tiers`: one line per tier the game reaches, which a whole solve
//! writes one game table each of, and totals that add the lines up.

use crate::common;

use common::*;

/// The tier lines (totals left out) of `index-stats --tiers --json` under `rules`.
fn tier_lines(rules: &str) -> (Vec<serde_json::Value>, serde_json::Value) {
    let r = run(&["--rules", rules, "index-stats", "--tiers", "--json"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    let mut lines = json_lines(&r.stdout);
    let total = lines.pop().expect("a totals line");
    assert_eq!(total["total"], true, "{total}");
    (lines, total)
}

#[test]
fn tiers_are_the_tables_a_whole_solve_writes() {
    let (lines, total) = tier_lines(PIECES4);
    let dir = solved_pieces4().join("tigadi_pieces-4");
    let games = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_string_lossy().ends_with(".tgtb")
        })
        .count();
    assert!(games > 0, "no game tables in {}", dir.display());
    assert_eq!(lines.len(), games, "one tier per game table");
    // The moving-phase tiers (both hands empty) are the plain listing's lines.
    let plain = run(&["--rules", PIECES4, "index-stats", "--json"]);
    let mut plain = json_lines(&plain.stdout);
    plain.pop();
    let moving = lines
        .iter()
        .filter(|l| l["hand_mover"] == 0 && l["hand_opponent"] == 0)
        .count();
    assert_eq!(moving, plain.len());
    let sum = |key: &str| lines.iter().map(|l| l[key].as_u64().unwrap()).sum::<u64>();
    assert_eq!(total["slots"].as_u64(), Some(sum("slots")));
    assert_eq!(total["classes"].as_u64(), Some(sum("classes")));
    // A step is one tier or a pair: at most as many steps as tiers, at least half.
    let steps = total["steps"].as_u64().unwrap() as usize;
    assert!(steps <= lines.len() && 2 * steps >= lines.len(), "{total}");
    let largest = total["largest_step_slots"].as_u64().unwrap();
    let biggest_tier = lines.iter().map(|l| l["slots"].as_u64().unwrap()).max();
    assert!(largest >= biggest_tier.unwrap() && largest <= 2 * biggest_tier.unwrap());
}

/// Under Lasker's rule the hands do not follow from the placements: a player who
/// slid while the other placed holds fewer gotis than the other on its turn, which
/// the alternation of placements never gives (there the mover has placed no more
/// than the other).
#[test]
fn lasker_tiers_include_hands_no_alternate_placing_gives() {
    let fewer = |l: &serde_json::Value| {
        l["hand_mover"].as_u64().unwrap() < l["hand_opponent"].as_u64().unwrap()
    };
    let (lasker, _) = tier_lines("lasker,pieces=3");
    let (standard, _) = tier_lines("tigadi,pieces=3");
    assert!(lasker.iter().any(fewer));
    assert!(!standard.iter().any(fewer));
    assert!(lasker.len() > standard.len());
}
