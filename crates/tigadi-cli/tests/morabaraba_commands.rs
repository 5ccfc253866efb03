//! Every command under `--rules morabaraba` (issue 29): the 12-a-side preset
//! itself where that is cheap (the referee commands, a small solve, `verify`,
//! `stats`, `index-stats`, `--subspace` bounds), and the whole game of
//! `morabaraba,pieces=4` (solved by `tigadi solve`) for the commands that need a
//! whole game: `probe`, `stats`, `verify`, `line`, `analyze`, `play`, `match` and
//! `serve`. Values are checked against `probe --json` on the same tables, never
//! against a value written here.

use crate::common;

use common::http::{enc, Server};
use common::*;
use serde_json::Value as Json;
use std::path::PathBuf;
use std::sync::OnceLock;

const SMALL: &str = "morabaraba,pieces=4";
const EMPTY4: &str = ".../.../.../....../.../.../... B 4 4";
const EMPTY12: &str = ".../.../.../....../.../.../... B 12 12";

/// The whole `morabaraba,pieces=4` game, solved once per test binary.
fn whole() -> &'static str {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = scratch("morabaraba-p4");
        let r = run(&["--rules", SMALL, "solve", "--dir", d.to_str().unwrap()]);
        assert_eq!(r.code, Some(0), "{r:?}");
        d
    })
    .to_str()
    .unwrap()
}

fn ok(args: &[&str]) -> String {
    let r = run(args);
    assert_eq!(r.code, Some(0), "{args:?}: {r:?}");
    r.stdout
}

fn json(args: &[&str]) -> Json {
    let out = ok(args);
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
}

/// The referee under the 12-a-side preset: twelve in each hand, the 20-line board
/// (diagonal slides), flying with three, and the full board a draw.
#[test]
fn the_preset_is_twelve_a_side_on_the_twenty_line_board() {
    let shown = json(&["--rules", "morabaraba", "show", "--json", EMPTY12]);
    assert_eq!(shown["rules"], "morabaraba");
    assert_eq!(
        (shown["bone_hand"].as_u64(), shown["seed_hand"].as_u64()),
        (Some(12), Some(12))
    );
    // The switches written out are the same rule set, named by the preset.
    let switches = "lines=20,flying=3,blocked=loses,pieces=12";
    assert_eq!(
        json(&["--rules", switches, "show", "--json", EMPTY12])["rules"],
        "morabaraba"
    );
    // Thirteen in hand is more than a side has.
    let r = run(&[
        "--rules",
        "morabaraba",
        "show",
        ".../.../.../....../.../.../... B 13 13",
    ]);
    assert_eq!(r.code, Some(2), "{r:?}");
    let moves = json(&["--rules", "morabaraba", "moves", "--json", EMPTY12]);
    assert_eq!(moves["count"], 24);
    // A diagonal slide and a flight (Seed has three gotis, none in hand).
    let p = "BB./S../.../...S../.../.../SB. S";
    let listed = json(&["--rules", "morabaraba", "moves", "--json", p]);
    let list: Vec<&str> = listed["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(
        list.contains(&"a1-b2") && list.contains(&"a1-g7"),
        "{list:?}"
    );
    // A game record that fills the board: a draw, not Bone's blocked loss.
    let record = "d7 a7 g7 b6 d6 f6 c5 d5 e5 c4 a4 f4 b4 g4 e4 d3 c3 e3 d2 b2 f2 a1 g1 d1";
    let replayed = json(&["--rules", "morabaraba", "replay", "--json", record]);
    assert_eq!(replayed["result"]["state"], "draw", "{replayed}");
    assert_eq!(replayed["result"]["reason"], "full_board", "{replayed}");
}

/// `solve`, `stats`, `verify` and `index-stats` under the 12-a-side preset, on the
/// subspaces of at most six gotis; `--subspace` takes counts up to 12.
#[test]
fn solve_verify_stats_and_index_stats_take_the_preset() {
    let dir = scratch("morabaraba-6");
    let d = dir.to_str().unwrap();
    ok(&[
        "--rules",
        "morabaraba",
        "solve",
        "--max-pieces",
        "6",
        "--no-horizon",
        "--dir",
        d,
    ]);
    assert!(dir.join("morabaraba").join("3v3.tgtb").is_file());
    let verified = ok(&["--rules", "morabaraba", "verify", "--dir", d]);
    assert!(
        verified.contains("morabaraba: all 1 tables good"),
        "{verified}"
    );
    let stats = json(&["--rules", "morabaraba", "stats", "--json", "--dir", d]);
    assert_eq!(stats["rules"], "morabaraba", "{stats}");
    // The index of the whole game: 10 × 10 subspaces less the full board.
    let index = ok(&["--rules", "morabaraba", "index-stats", "--json"]);
    let lines: Vec<Json> = index
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 99 + 1);
    assert!(lines
        .iter()
        .any(|l| l["mover"] == 12 && l["opponent"] == 11));
    assert_eq!(ok(&["index-stats", "--json"]).lines().count(), 49 + 1);
    // Subspaces above nine a side are named; the full board and 13 are refused.
    for (sub, code) in [("12v12", 2), ("13v3", 2), ("3v10", 2)] {
        let rules = if sub == "3v10" {
            "tigadi"
        } else {
            "morabaraba"
        };
        let r = run(&["--rules", rules, "solve", "--subspace", sub, "--dir", d]);
        assert_eq!(r.code, Some(code), "{sub}: {r:?}");
        assert!(r.stderr.contains(sub), "{r:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The whole 4-a-side game: `stats` reads the empty board's value that `probe`
/// gives, `verify` passes every table, `line` starts from `probe`'s value,
/// `analyze`, `play` and `match` run from the empty board.
#[test]
fn the_four_a_side_game_answers_through_every_command() {
    let dir = whole();
    let start = json(&["--rules", SMALL, "probe", "--json", "--dir", dir, EMPTY4]);
    assert_eq!(start["position"], EMPTY4);
    let stats = ok(&["--rules", SMALL, "stats", "--dir", dir]);
    let said = format!("Bone to place first: {}", common::in_words(&start));
    assert!(stats.contains(&said), "{stats}");
    let verified = ok(&["--rules", SMALL, "verify", "--dir", dir]);
    assert!(verified.contains(&format!("{SMALL}: all ")), "{verified}");
    let line = json(&["--rules", SMALL, "line", "--json", "--dir", dir, EMPTY4]);
    assert_eq!(line["value"]["value"], start["value"], "{line}");
    let analysis = json(&[
        "--rules",
        SMALL,
        "analyze",
        "--json",
        "--dir",
        dir,
        "d5 g7 d6 g4",
    ]);
    assert_eq!(analysis["turns"].as_array().unwrap().len(), 4, "{analysis}");
    assert_eq!(
        analysis["turns"][0]["verdict"]["before"]["value"]["value"],
        start["value"]
    );
    let mut play = tigadi();
    play.args([
        "--rules", SMALL, "play", "--dir", dir, "--level", "3", "--as", "seed",
    ]);
    let played = run_with(play, b"quit\n", LIMIT);
    assert_eq!(played.code, Some(0), "{played:?}");
    assert!(played.stdout.contains("4 in hand"), "{}", played.stdout);
    let m = json(&[
        "--rules", SMALL, "match", "--dir", dir, "--level", "3", "--vs", "1", "--games", "2",
        "--json",
    ]);
    assert_eq!(m["settings"]["start"], EMPTY4);
    assert_eq!(m["games"].as_array().unwrap().len(), 2);
}

/// `serve` lists the rule set by its canonical name and answers as `probe` does.
#[test]
fn serve_lists_and_answers_the_preset() {
    let dir = std::path::Path::new(whole());
    let server = Server::start(dir);
    let a = server.get("/api/v1/rulesets");
    assert_eq!(a.status, 200, "{}", a.body);
    let sets = a.json()["rulesets"].clone();
    assert!(
        sets.as_array()
            .unwrap()
            .iter()
            .any(|r| r["name"] == SMALL && r["pieces"] == 4),
        "{sets}"
    );
    let probe = ok(&[
        "--rules",
        SMALL,
        "probe",
        "--json",
        "--dir",
        dir.to_str().unwrap(),
        EMPTY4,
    ]);
    let served = server.get(&format!("/api/v1/{}?position={}", enc(SMALL), enc(EMPTY4)));
    assert_eq!(served.status, 200, "{}", served.body);
    assert_eq!(served.body.trim(), probe.trim());
    // The 12-a-side preset is a rule set the server takes even without tables.
    let board = server.get("/api/v1/morabaraba/board");
    assert_eq!(board.status, 200, "{}", board.body);
}
