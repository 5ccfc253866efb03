//! `tigadi serve`: every endpoint, the error codes, concurrent clients whose every
//! answer must equal `tigadi probe`'s, and a damaged table that fails only its own
//! positions while the server goes on serving.

use crate::common;

use common::http::{enc, Server};
use common::{copy_of_solved, run_with, solved7, tigadi, LIMIT, P, START};
use std::collections::BTreeSet;
use tigadi_rules::{parse_position, parse_record, Game, Position, Rng, Side};

/// Positions of the solved subspaces (3v3, 3v4, 4v3), from a fixed seed: random
/// boards with random sides to move and counters.
fn positions(n: usize) -> Vec<String> {
    let mut rng = Rng::seeded(0x9E37_79B9_7F4A_7C15);
    let mut out = vec![P.to_string(), format!("{P} 0 0 37")];
    while out.len() < n {
        let (b, s) = [(3, 3), (3, 4), (4, 3)][rng.below(3)];
        let mut free: Vec<u32> = (0..24).collect();
        let mut take = |k: usize, rng: &mut Rng| {
            let mut bits = 0u32;
            for _ in 0..k {
                bits |= 1 << free.swap_remove(rng.below(free.len()));
            }
            bits
        };
        let bone = take(b, &mut rng);
        let seed = take(s, &mut rng);
        let p = Position {
            bone,
            seed,
            side: if rng.below(2) == 0 {
                Side::Bone
            } else {
                Side::Seed
            },
            bone_hand: 0,
            seed_hand: 0,
            quiet_turns: rng.below(100) as u16,
        };
        out.push(p.to_string());
    }
    out
}

/// `tigadi probe --dir DIR` in batch mode: one JSON line per position.
fn probe_lines(dir: &std::path::Path, positions: &[String]) -> Vec<String> {
    let mut cmd = tigadi();
    cmd.args(["probe", "--dir", dir.to_str().unwrap()]);
    let input = positions.join("\n") + "\n";
    let r = run_with(cmd, input.as_bytes(), LIMIT);
    assert_eq!(r.code, Some(0), "{r:?}");
    let lines: Vec<String> = r.stdout.lines().map(str::to_string).collect();
    assert_eq!(lines.len(), positions.len());
    lines
}

fn probe_path(position: &str) -> String {
    format!("/api/v1/tigadi?position={}", enc(position))
}

#[test]
fn probe_answers_equal_probe_json_byte_for_byte() {
    let dir = solved7();
    let ps = positions(60);
    let expected = probe_lines(dir, &ps);
    let server = Server::start(dir);
    let mut c = server.client();
    for (p, want) in ps.iter().zip(&expected) {
        let a = c.get(&probe_path(p));
        assert_eq!(a.status, 200, "{p}: {}", a.body);
        assert_eq!(&a.body, want, "{p}");
        assert_eq!(a.header("content-type"), Some("application/json"));
        assert!(a.header("cache-control").unwrap().contains("max-age"));
    }
    // The single-position command prints the same object.
    let r = common::run(&["probe", "--dir", dir.to_str().unwrap(), "--json", P]);
    assert_eq!(r.stdout.trim_end(), expected[0]);
    // A record is replayed to its position first.
    let record = "1. d5 g7";
    let a = c.get(&format!("/api/v1/tigadi?record={}", enc(record)));
    // A placing position: this directory has no placing tables (only the moving
    // phase up to 7 gotis), so the table is missing.
    assert_eq!(a.status, 404, "placing phase: {}", a.body);
    assert!(a.json()["error"].as_str().unwrap().contains("no tablebase"));
    // One log line per request on standard error.
    let log = server.log.lock().unwrap().clone();
    assert!(
        log.lines()
            .filter(|l| l.starts_with("GET /api/v1/tigadi?position=") && l.contains(" 200 "))
            .count()
            >= ps.len(),
        "{log}"
    );
}

#[test]
fn eight_clients_times_500_requests_all_equal_probe() {
    const CLIENTS: usize = 8;
    const REQUESTS: usize = 500;
    let dir = solved7();
    let ps = positions(200);
    let expected = probe_lines(dir, &ps);
    let server = Server::start(dir);
    let start = std::time::Instant::now();
    std::thread::scope(|s| {
        for t in 0..CLIENTS {
            let (ps, expected, server) = (&ps, &expected, &server);
            s.spawn(move || {
                let mut c = server.client();
                for i in 0..REQUESTS {
                    let k = (t * 37 + i * 11) % ps.len();
                    let a = c.get(&probe_path(&ps[k]));
                    assert_eq!(a.status, 200, "{}: {}", ps[k], a.body);
                    assert_eq!(a.body, expected[k], "client {t} request {i}");
                }
            });
        }
    });
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{} requests from {CLIENTS} clients in {secs:.2} s ({:.0}/s, debug-free test build)",
        CLIENTS * REQUESTS,
        (CLIENTS * REQUESTS) as f64 / secs
    );
}

#[test]
fn errors_are_json_with_the_right_status() {
    let server = Server::start(solved7());
    let check = |path: &str, status: u16, says: &str| {
        let a = server.get(path);
        assert_eq!(a.status, status, "{path}: {}", a.body);
        let msg = a.json()["error"].as_str().unwrap_or_default().to_string();
        assert!(msg.contains(says), "{path}: {msg:?} should say {says:?}");
        assert_eq!(a.header("cache-control"), Some("no-store"), "{path}");
    };
    check(&probe_path("BB./S../..."), 400, "position 'BB./S../...'");
    check(
        &probe_path("BB./S../.../...S../.../.../SB. X"),
        400,
        "position",
    );
    check(&probe_path(START), 404, "no tablebase");
    check("/api/v1/tigadi", 400, "missing query parameter: position");
    check("/api/v1/tigadi?position=%FF", 400, "position");
    check(
        &format!("/api/v1/chess?position={}", enc(P)),
        400,
        "rules 'chess'",
    );
    check(
        &format!("/api/v1/tigadi?record={}", enc("1. d5 d5")),
        400,
        "move 2 (d5) is illegal",
    );
    // 5v3 is not solved in this directory.
    check(
        &probe_path("BBB/BB./S../...S../.../.../S.. B"),
        404,
        "no tablebase for subspace 5v3",
    );
    check("/no/such/page", 404, "no such endpoint: /no/such/page");
    // A body past the limit.
    let big = vec![b'x'; 100_000];
    let a = server.client().request("GET", &probe_path(P), &[], &big);
    assert_eq!(a.status, 413, "{}", a.body);
    // And the server still answers.
    assert_eq!(server.get(&probe_path(P)).status, 200);
}

#[test]
fn health_board_and_page() {
    let server = Server::start(solved7());
    let a = server.get("/health");
    assert_eq!(a.status, 200);
    assert_eq!(a.json()["status"], "ok");
    for (rules, lines, connections) in [("tigadi", 20, 40), ("morris", 16, 32)] {
        let b = server.get(&format!("/api/v1/{rules}/board")).json();
        let points = b["points"].as_array().unwrap();
        assert_eq!(points.len(), 24);
        assert_eq!(b["lines"].as_array().unwrap().len(), lines);
        assert_eq!(b["connections"].as_array().unwrap().len(), connections);
        // Every line is three points in a row on the grid, its middle point between.
        let at = |name: &str| {
            let p = points.iter().find(|p| p["name"] == name).unwrap();
            (p["x"].as_i64().unwrap(), p["y"].as_i64().unwrap())
        };
        assert_eq!(at("a7"), (0, 0));
        assert_eq!(at("g1"), (6, 6));
        assert_eq!(at("c4"), (2, 3));
        for l in b["lines"].as_array().unwrap() {
            let l: Vec<_> = l
                .as_array()
                .unwrap()
                .iter()
                .map(|n| at(n.as_str().unwrap()))
                .collect();
            let cross =
                (l[1].0 - l[0].0) * (l[2].1 - l[0].1) - (l[1].1 - l[0].1) * (l[2].0 - l[0].0);
            assert_eq!(cross, 0, "{l:?} collinear");
        }
    }
    for (path, kind) in [
        ("/", "text/html"),
        ("/app.js", "text/javascript"),
        ("/style.css", "text/css"),
    ] {
        let a = server.get(path);
        assert_eq!(a.status, 200, "{path}");
        assert!(a.header("content-type").unwrap().starts_with(kind));
        // Nothing fetched from elsewhere: the only URL is the SVG namespace's name.
        let body = a.body.replace("\"http://www.w3.org/2000/svg\"", "");
        assert!(
            !body.contains("http:") && !body.contains("https:") && !body.contains("//cdn"),
            "{path}"
        );
    }
}

/// The moves of an explore answer as (move, next) pairs.
fn explore_moves(answer: &serde_json::Value) -> Vec<(String, String)> {
    answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["next"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The legal moves of `p` with the positions they lead to, from the rules crate.
fn rules_moves(p: &Position) -> BTreeSet<(String, String)> {
    p.legal_moves(&tigadi_rules::RuleSet::TIGADI)
        .into_iter()
        .map(|m| (m.to_string(), p.apply(m).to_string()))
        .collect()
}

#[test]
fn explore_lists_every_legal_move_with_its_next_position() {
    let dir = solved7();
    let server = Server::start(dir);
    // The empty board: placing, values unknown, 24 placements.
    let a = server
        .get(&format!("/api/v1/tigadi/explore?position={}", enc(START)))
        .json();
    assert_eq!(a["phase"], "placing");
    assert_eq!(a["known"], false);
    assert!(a["unknown"].as_str().unwrap().contains("placing phase"));
    let moves = explore_moves(&a);
    assert_eq!(moves.len(), 24);
    assert_eq!(
        moves.iter().cloned().collect::<BTreeSet<_>>(),
        rules_moves(&Position::start(&tigadi_rules::RuleSet::TIGADI))
    );
    // A record replays to its position (here with captures in hand).
    let record = "1. d5 g7 2. d6 g4 3. d7xg7";
    let a = server
        .get(&format!("/api/v1/tigadi/explore?record={}", enc(record)))
        .json();
    let mut game = Game::new(tigadi_rules::RuleSet::TIGADI);
    for m in parse_record(record).unwrap() {
        game.play(m).unwrap();
    }
    assert_eq!(a["position"], game.position().to_string());
    assert_eq!(
        explore_moves(&a).into_iter().collect::<BTreeSet<_>>(),
        rules_moves(game.position())
    );
    // Moving positions: the probe's answer, moves in its order, plus `next`.
    let ps = positions(30);
    let expected = probe_lines(dir, &ps);
    for (p, want) in ps.iter().zip(&expected) {
        let a = server
            .get(&format!("/api/v1/tigadi/explore?position={}", enc(p)))
            .json();
        let want: serde_json::Value = serde_json::from_str(want).unwrap();
        assert_eq!(a["known"], true, "{p}");
        for f in ["value", "dtc", "category", "rule_value", "dtc100"] {
            assert_eq!(a[f], want[f], "{p} {f}");
        }
        let pos = parse_position(&tigadi_rules::RuleSet::TIGADI, p).unwrap();
        let got = explore_moves(&a);
        assert_eq!(
            got.iter().cloned().collect::<BTreeSet<_>>(),
            rules_moves(&pos),
            "{p}"
        );
        for (m, w) in a["moves"]
            .as_array()
            .unwrap()
            .iter()
            .zip(want["moves"].as_array().unwrap())
        {
            let mut m = m.clone();
            m.as_object_mut().unwrap().remove("next");
            assert_eq!(&m, w, "{p}");
        }
    }
    // Unsolved subspace: moves, values unknown.
    let five = "BBB/BB./S../...S../.../.../S.. B";
    let a = server
        .get(&format!("/api/v1/tigadi/explore?position={}", enc(five)))
        .json();
    assert_eq!(a["known"], false);
    assert!(a["unknown"].as_str().unwrap().contains("5v3"), "{a}");
    assert_eq!(
        explore_moves(&a).into_iter().collect::<BTreeSet<_>>(),
        rules_moves(&parse_position(&tigadi_rules::RuleSet::TIGADI, five).unwrap())
    );
    assert!(a["moves"][0]["value"].is_null());
    // A finished game: no moves.
    let over = format!("{P} 0 0 100");
    let a = server
        .get(&format!("/api/v1/tigadi/explore?position={}", enc(&over)))
        .json();
    assert_eq!(a["result"]["state"], "draw", "{a}");
    assert_eq!(a["moves"].as_array().unwrap().len(), 0);
    // Hands are read under the rule set's gotis a side, as `probe` reads them:
    // nine in hand is no position of a three-a-side game.
    let empty = ".../.../.../....../.../.../...";
    let a = server.get(&format!(
        "/api/v1/morris,pieces=3/explore?position={}",
        enc(&format!("{empty} B 9 9"))
    ));
    assert_eq!(a.status, 400, "{}", a.body);
    assert!(a.body.contains("BONE_HAND '9'"), "{}", a.body);
    let a = server.get(&format!(
        "/api/v1/morris,pieces=3/explore?position={}",
        enc(&format!("{empty} B 3 3"))
    ));
    assert_eq!(a.status, 200, "{}", a.body);
}

#[test]
fn a_damaged_table_fails_its_positions_only() {
    let dir = copy_of_solved("serve-corrupt");
    let file = dir.join("tigadi").join("4v3.tgtb");
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    // A 4v3 position (Bone to move with 4 against 3) and a 3v3 one.
    let four = "BB./S../.../B..S../.../.../SB. B";
    let three = P;
    let want = probe_lines(&dir, &[three.to_string()]);
    let server = Server::start(&dir);
    let mut c = server.client();
    for _ in 0..3 {
        let a = c.get(&probe_path(four));
        assert_eq!(a.status, 500, "{}", a.body);
        let msg = a.json()["error"].as_str().unwrap().to_string();
        assert!(msg.contains("4v3.tgtb") && msg.contains("corrupt"), "{msg}");
        let a = c.get(&probe_path(three));
        assert_eq!(a.status, 200, "{}", a.body);
        assert_eq!(a.body, want[0]);
    }
    let a = server.get(&format!("/api/v1/tigadi/explore?position={}", enc(four)));
    assert_eq!(a.status, 500);
    assert_eq!(server.get("/health").status, 200);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn line_answers_what_the_line_command_prints() {
    let dir = solved7();
    let server = Server::start(dir);
    for p in positions(12).iter().chain([P.to_string()].iter()) {
        let r = common::run(&["line", "--dir", dir.to_str().unwrap(), "--json", p]);
        let a = server.get(&format!(
            "/api/v1/tigadi/line?position={}&max_turns=200",
            enc(p)
        ));
        if r.code != Some(0) {
            // A position the line cannot start from (game over) is a 400 here.
            assert_eq!(a.status, 400, "{p}: {}", a.body);
            continue;
        }
        assert_eq!(a.status, 200, "{p}: {}", a.body);
        let want: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
        assert_eq!(a.json(), want, "{p}");
        assert!(a.header("cache-control").unwrap().contains("max-age"));
    }
    let bad = server.get(&format!(
        "/api/v1/tigadi/line?position={}",
        enc("BB./S../...")
    ));
    assert_eq!(bad.status, 400, "{}", bad.body);
    let missing = server.get("/api/v1/tigadi/line");
    assert_eq!(missing.status, 400, "{}", missing.body);
    // The empty board is in the placing phase, which `line` does not follow.
    let placing = server.get(&format!("/api/v1/tigadi/line?position={}", enc(START)));
    assert_eq!(placing.status, 404, "{}", placing.body);
}

/// A game of `tigadi,pieces=4` played by the rules crate from the empty board,
/// captures first and otherwise the first legal move, until one side falls to two
/// gotis: its record, the position before the last move, the last move and the
/// game.
fn a_game_won_by_capture() -> (String, Position, String, Game) {
    let rules = tigadi_rules::RuleSet::parse(common::PIECES4).unwrap();
    let mut game = Game::new(rules);
    let mut record = Vec::new();
    for turn in 0..400 {
        let moves = game.legal_moves();
        let m = moves
            .iter()
            .copied()
            .find(|m| m.capture().is_some())
            .unwrap_or(moves[(turn * 7) % moves.len()]);
        let before = *game.position();
        record.push(m.to_string());
        if game.play(m).unwrap().is_over() {
            assert!(matches!(
                game.result(),
                tigadi_rules::GameResult::Win {
                    reason: tigadi_rules::WinReason::Material,
                    ..
                }
            ));
            return (record.join(" "), before, m.to_string(), game);
        }
    }
    panic!("no game won by capture: {}", record.join(" "));
}

/// Gotis in hand, both sides.
fn after_hands(p: &Position) -> u8 {
    p.bone_hand + p.seed_hand
}

/// With the DTW tables: the server's answers carry `dtw` as `probe --json` prints
/// them, `line?metric=dtw` is `line --metric dtw --json` (and ends the game in the
/// start's DTW turns), a metric it does not know is a 400; the text of `probe`
/// and `stats` shows the depths.
#[test]
fn dtw_is_served_as_the_commands_print_it() {
    let dir = common::solved_pieces4();
    let d = dir.to_str().unwrap();
    let server = Server::start(dir);
    let base = format!("/api/v1/{}", enc(common::PIECES4));
    let (record, _, _, game) = a_game_won_by_capture();
    let moves: Vec<&str> = record.split(' ').collect();
    let mut with_depth = 0;
    for n in (0..moves.len()).step_by(3) {
        let rec = moves[..n].join(" ");
        let p = tigadi_tablebase::position_after_record(game.rules(), &rec)
            .unwrap()
            .to_string();
        let cli = common::run(&[
            "--rules",
            common::PIECES4,
            "probe",
            "--dir",
            d,
            "--json",
            &p,
        ]);
        assert_eq!(cli.code, Some(0), "{cli:?}");
        let a = server.get(&format!("{base}?position={}", enc(&p)));
        assert_eq!(a.body, cli.stdout.trim_end(), "{rec}");
        let j = a.json();
        assert!(j.get("dtw").is_some(), "{p}: {j}");
        let Some(dtw) = j["dtw"].as_u64() else {
            continue;
        };
        with_depth += 1;
        assert!(dtw >= j["dtc"].as_u64().unwrap(), "{p}");
        let text = common::run(&["--rules", common::PIECES4, "probe", "--dir", d, &p]);
        assert!(
            text.stdout.contains(&format!(" in {dtw} turn")),
            "{p}: {}",
            text.stdout
        );
        let cli = common::run(&[
            "--rules",
            common::PIECES4,
            "line",
            "--dir",
            d,
            "--json",
            "--metric",
            "dtw",
            &p,
        ]);
        assert_eq!(cli.code, Some(0), "{cli:?}");
        let l = server.get(&format!("{base}/line?position={}&metric=dtw", enc(&p)));
        assert_eq!(l.status, 200, "{}", l.body);
        let want: serde_json::Value = serde_json::from_str(cli.stdout.trim()).unwrap();
        assert_eq!(l.json(), want, "{p}");
        assert_eq!(want["steps"].as_array().unwrap().len() as u64, dtw, "{p}");
    }
    assert!(with_depth > 3, "{with_depth}");
    let start = ".../.../.../....../.../.../... B 4 4";
    let bad = server.get(&format!("{base}/line?position={}&metric=dtm", enc(start)));
    assert_eq!(bad.status, 400, "{}", bad.body);
    let stats = common::run(&["--rules", common::PIECES4, "stats", "--dir", d, "--json"]);
    assert!(stats
        .stdout
        .lines()
        .all(|l| l.contains("\"longest_dtw\":") || l.contains("\"dtw\":")));
}

#[test]
fn a_finished_game_is_answered_as_finished() {
    let dir = common::solved_pieces4();
    let server = Server::start(dir);
    let (record, before, last, game) = a_game_won_by_capture();
    let after = game.position().to_string();
    let want = tigadi_tablebase::result_json(game.result());
    let base = format!("/api/v1/{}", enc(common::PIECES4));
    // The winning capture is listed with the position it leads to...
    let a = server
        .get(&format!(
            "{base}/explore?position={}",
            enc(&before.to_string())
        ))
        .json();
    let m = a["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == last.as_str())
        .unwrap_or_else(|| panic!("{last} not listed: {a}"));
    assert_eq!(m["next"], after.as_str());
    // ... and that position is a finished game, won by the player who captured.
    for query in [
        format!("position={}", enc(&after)),
        format!("record={}", enc(&record)),
    ] {
        let a = server.get(&format!("{base}/explore?{query}"));
        assert_eq!(a.status, 200, "{query}: {}", a.body);
        let a = a.json();
        assert_eq!(a["position"], after.as_str());
        assert_eq!(a["result"], want, "{query}");
        assert_eq!(
            a["result"]["winner"],
            if before.side == Side::Bone {
                "bone"
            } else {
                "seed"
            }
        );
        assert_eq!(a["moves"].as_array().unwrap().len(), 0);
        let p = server.get(&format!("{base}?{query}"));
        assert_eq!(p.status, 200, "{query}: {}", p.body);
        let p = p.json();
        assert_eq!(p["game_over"], want, "{query}");
        assert_eq!(p["value"], "loss", "the player to move has lost");
        assert_eq!(p["moves"].as_array().unwrap().len(), 0);
        // `line` has nothing to follow.
        let l = server.get(&format!("{base}/line?{query}"));
        assert_eq!(l.status, 400, "{}", l.body);
        assert!(l.body.contains("the game is over"), "{}", l.body);
    }
    // Other positions with too few gotis are still refused: the same board with the
    // winner to move, or with a counter no capture leaves.
    let mut wrong_side = *game.position();
    wrong_side.side = wrong_side.side.other();
    let mut counted = *game.position();
    counted.quiet_turns = 3;
    assert_eq!((after_hands(&wrong_side), after_hands(&counted)), (0, 0));
    for p in [wrong_side, counted] {
        let a = server.get(&format!("{base}/explore?position={}", enc(&p.to_string())));
        assert_eq!(a.status, 400, "{p}: {}", a.body);
        assert!(
            a.json()["error"].as_str().unwrap().contains("only 2 gotis"),
            "{}",
            a.body
        );
    }
}

#[test]
fn rulesets_lists_the_rule_set_directories_by_canonical_name() {
    let dir = common::scratch("serve-rulesets");
    let named = |text: &str| tigadi_rules::RuleSet::parse(text).unwrap();
    // Directories of three rule sets, and entries that name none: a directory that
    // is no rule set, a non-canonical spelling of `tigadi`, and a plain file.
    for rules in ["tigadi,pieces=4", "tigadi,flying=3,pieces=5", "morris"] {
        let d = dir.join(tigadi_tablebase::TablebaseDir::name_of(&named(rules)));
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::create_dir_all(dir.join("notes")).unwrap();
    std::fs::create_dir_all(dir.join("tigadi_pieces-9")).unwrap();
    std::fs::write(dir.join("navakankari"), b"a file").unwrap();
    let server = Server::start(&dir);
    let a = server.get("/api/v1/rulesets");
    assert_eq!(a.status, 200, "{}", a.body);
    let got: Vec<(String, String, u64)> = a.json()["rulesets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_string(),
                r["dir"].as_str().unwrap().to_string(),
                r["pieces"].as_u64().unwrap(),
            )
        })
        .collect();
    let mut want: Vec<(String, String, u64)> =
        ["tigadi,pieces=4", "tigadi,flying=3,pieces=5", "morris"]
            .iter()
            .map(|t| {
                let r = named(t);
                (
                    r.name(),
                    tigadi_tablebase::TablebaseDir::name_of(&r),
                    r.pieces as u64,
                )
            })
            .collect();
    want.sort();
    assert_eq!(got, want);
    // Each name is one the API takes.
    for (name, _, _) in &got {
        let b = server.get(&format!("/api/v1/{}/board", enc(name)));
        assert_eq!(b.status, 200, "{name}: {}", b.body);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 26: tables truncated while the server has them open (as `truncate` or a
/// `cp` over them would) fail the positions that need the missing bytes, naming the
/// file; the server lives on, and answers right again once the bytes are back.
#[test]
fn tables_truncated_while_served_fail_their_positions_and_the_server_lives() {
    use std::os::unix::fs::FileExt;
    let dir = copy_of_solved("serve-truncated");
    let ps = positions(200);
    let want = probe_lines(&dir, &ps);
    let server = Server::start(&dir);
    let mut c = server.client();
    // The first 60 open every table (a table first opened while damaged stays
    // refused until a restart); the other 140 mostly need blocks not yet read.
    let (opening, later) = ps.split_at(60);
    for (p, w) in opening.iter().zip(&want) {
        let a = c.get(&probe_path(p));
        assert_eq!((a.status, &a.body), (200, w));
    }
    let tables: Vec<_> = ["3v3", "3v4", "4v3"]
        .iter()
        .map(|t| {
            let path = dir.join("tigadi").join(format!("{t}.tgtb"));
            let bytes = std::fs::read(&path).unwrap();
            let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
            file.set_len(bytes.len() as u64 / 2).unwrap();
            (file, bytes)
        })
        .collect();
    let mut failed = 0;
    for (p, w) in later.iter().zip(&want[60..]) {
        let a = c.get(&probe_path(p));
        if a.status == 200 {
            assert_eq!(&a.body, w, "{p}");
        } else {
            assert_eq!(a.status, 500, "{}", a.body);
            let msg = a.json()["error"].as_str().unwrap().to_string();
            assert!(msg.contains(".tgtb") && msg.contains("truncated"), "{msg}");
            failed += 1;
        }
    }
    assert!(failed > 0, "no position needed the missing bytes");
    assert_eq!(server.get("/health").status, 200);
    for (file, bytes) in &tables {
        file.write_all_at(bytes, 0).unwrap();
    }
    for (p, w) in later.iter().zip(&want[60..]) {
        let a = c.get(&probe_path(p));
        assert_eq!((a.status, &a.body), (200, w), "{p}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
