//! The web explorer in a real headless browser (Debian's `chromium` driven through
//! `chromedriver` by WebDriver): the page shows every move of a position with the
//! values `tigadi probe` gives, clicking a move plays it, Back returns, and the
//! computer answers a move; a whole 4-a-side game is played by clicks on point
//! centres. Writes the README's screenshot, `docs/explorer.png` (a 4-a-side
//! position with both depths).
//!
//! Without the browser the test says so loudly and passes, except under CI
//! (`CI` set), where `.ci/run` installs it and a missing browser fails.

use crate::common;

use common::http::{enc, Client, Server};
use common::{run, run_with, solved7, tigadi, LIMIT, P, START};
use serde_json::{json, Value as Json};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// A position whose moves win, draw and lose (Bone to move, 4v3, a win capturing
/// in 11).
const SHOWN: &str = "..S/S../.../BSB.../..B/.../..B B";
/// WebDriver's key for an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A running chromedriver and one browser session, both ended when dropped.
struct Browser {
    driver: Child,
    client: Client,
    session: String,
    profile: std::path::PathBuf,
}

impl Browser {
    fn start() -> Browser {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let addr = format!("127.0.0.1:{port}");
        let start = Instant::now();
        let mut client = loop {
            if let Ok(s) = std::net::TcpStream::connect(&addr) {
                drop(s);
                break Client::connect(&addr);
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "chromedriver does not listen"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        // A profile of its own: the tests run browsers side by side, and one
        // started in another's profile (which `scratch` also empties) crashes it.
        static BROWSERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = BROWSERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let profile = common::scratch(&format!("browser-profile-{n}"));
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--window-size=1200,860",
                    format!("--user-data-dir={}", profile.display()),
                ],
            },
        }}});
        let body = caps.to_string();
        let a = client.request(
            "POST",
            "/session",
            &[("Content-Type", "application/json")],
            body.as_bytes(),
        );
        assert_eq!(a.status, 200, "new session: {}", a.body);
        let session = a.json()["value"]["sessionId"].as_str().unwrap().to_string();
        Browser {
            driver,
            client,
            session,
            profile,
        }
    }

    fn call(&mut self, method: &str, path: &str, body: Json) -> Json {
        let path = format!("/session/{}{path}", self.session);
        let body = if method == "GET" {
            String::new()
        } else {
            body.to_string()
        };
        let a = self.client.request(
            method,
            &path,
            &[("Content-Type", "application/json")],
            body.as_bytes(),
        );
        assert_eq!(a.status, 200, "{method} {path}: {}", a.body);
        a.json()["value"].take()
    }

    fn script(&mut self, script: &str) -> Json {
        self.call(
            "POST",
            "/execute/sync",
            json!({"script": script, "args": []}),
        )
    }

    fn click(&mut self, css: &str) {
        let e = self.call(
            "POST",
            "/element",
            json!({"using": "css selector", "value": css}),
        );
        let id = e[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("{css}: {e}"))
            .to_string();
        self.call("POST", &format!("/element/{id}/click"), json!({}));
    }

    /// Clicks the centre of board point `name` with the mouse, at its coordinates
    /// (not on an element), so whatever is drawn over the point gets the click; the
    /// topmost element there must be the point itself.
    fn click_point(&mut self, name: &str) {
        let xy = self.script(&format!(
            "const e = document.querySelector(\"#board circle[data-point='{name}']\"); const r = e.getBoundingClientRect(); const x = Math.round(r.left + r.width / 2), y = Math.round(r.top + r.height / 2); const top = document.elementFromPoint(x, y); return [x, y, top && top.dataset ? (top.dataset.point || top.getAttribute('class')) : null]"
        ));
        assert_eq!(xy[2], json!(name), "the topmost element at {name}'s centre");
        let (x, y) = (xy[0].as_i64().unwrap(), xy[1].as_i64().unwrap());
        self.call(
            "POST",
            "/actions",
            json!({"actions": [{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
                "actions": [
                    {"type": "pointerMove", "duration": 0, "x": x, "y": y, "origin": "viewport"},
                    {"type": "pointerDown", "button": 0},
                    {"type": "pointerUp", "button": 0},
                ]}]}),
        );
    }

    /// Polls `script` until it returns something other than null or false.
    fn wait_for(&mut self, what: &str, script: &str) -> Json {
        let start = Instant::now();
        loop {
            let v = self.script(script);
            if !v.is_null() && v != json!(false) {
                return v;
            }
            if start.elapsed() > Duration::from_secs(60) {
                let page = self.script(
                    "return ['position', 'status', 'note', 'error'].map(id => id + ': ' + document.getElementById(id).textContent).join(' | ')",
                );
                panic!("timed out waiting for {what}; the page shows {page}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The page's position once it shows `position` with its move list.
    fn wait_for_position(&mut self, position: &str) {
        let script = format!(
            "return document.getElementById('position').textContent === {} && document.querySelectorAll('#moves li').length > 0",
            json!(position)
        );
        self.wait_for(&format!("position {position}"), &script);
    }

    /// The move list as shown: (move, value text, class) per row.
    fn moves_shown(&mut self) -> Vec<(String, String, String)> {
        let v = self.script(
            "return [...document.querySelectorAll('#moves li')].map(li => [li.dataset.move, li.querySelector('.value').textContent, li.className])",
        );
        v.as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let s = |i: usize| r[i].as_str().unwrap().to_string();
                (s(0), s(1), s(2))
            })
            .collect()
    }

    /// Loads the page at `url`.
    fn go(&mut self, url: &str) {
        self.call("POST", "/url", json!({ "url": url }));
    }

    fn screenshot(&mut self, file: &Path) {
        let b64 = self.call("GET", "/screenshot", Json::Null);
        let png = base64_decode(b64.as_str().unwrap());
        assert_eq!(&png[..4], b"\x89PNG");
        std::fs::write(file, png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let path = format!("/session/{}", self.session);
        let _ = self.client.request("DELETE", &path, &[], b"");
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let bytes: Vec<u8> = text
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= (val(c) as u32) << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

/// `tigadi probe --json` of one position.
fn probe(dir: &Path, position: &str) -> Json {
    let mut cmd = tigadi();
    cmd.args(["probe", "--json", "--dir", dir.to_str().unwrap(), position]);
    let r = run_with(cmd, b"", LIMIT);
    assert_eq!(r.code, Some(0), "{r:?}");
    serde_json::from_str(&r.stdout).unwrap()
}

/// The page's rows equal the probe's moves, in order, values and colours.
fn assert_rows_match(rows: &[(String, String, String)], probe: &Json) {
    let moves = probe["moves"].as_array().unwrap();
    assert_eq!(rows.len(), moves.len(), "{rows:?}");
    for (row, m) in rows.iter().zip(moves) {
        assert_eq!(row.0, m["move"].as_str().unwrap());
        assert_eq!(row.1, described(m), "{}", row.0);
        assert!(
            row.2.split(' ').any(|c| c == m["value"].as_str().unwrap()),
            "{row:?}"
        );
    }
}

/// Whether the browser and its driver are installed; without them a test is
/// skipped (saying so), except under CI, where `.ci/run` installs them.
fn browser_installed() -> bool {
    if Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must install chromium and chromium-driver (see .ci/run)"
    );
    eprintln!("SKIPPED the browser test: {CHROMIUM} or {CHROMEDRIVER} is missing (apt-get install chromium chromium-driver)");
    false
}

#[test]
fn the_page_lists_values_and_plays_moves() {
    if !browser_installed() {
        return;
    }
    let dir = solved7();
    let server = Server::start(dir);
    let mut b = Browser::start();
    let base = format!("http://{}/", server.addr);
    b.go(&format!("{base}?rules=tigadi&position={}", enc(P)));
    b.wait_for_position(P);
    let want = probe(dir, P);
    assert_rows_match(&b.moves_shown(), &want);
    let status = b.script("return document.getElementById('value').textContent");
    assert_eq!(status, json!(described(&want)));

    // Click the best move: the page shows the position it leads to, with its values.
    let best = want["moves"][0]["move"].as_str().unwrap().to_string();
    let next = {
        let p = tigadi_rules::parse_position(&tigadi_rules::RuleSet::TIGADI, P).unwrap();
        let m = p
            .legal_moves(&tigadi_rules::RuleSet::TIGADI)
            .into_iter()
            .find(|m| m.to_string() == best)
            .unwrap();
        p.apply(m).to_string()
    };
    b.click(&format!("#moves li[data-move='{best}']"));
    b.wait_for_position(&next);
    assert_rows_match(&b.moves_shown(), &probe(dir, &next));
    let url = b
        .script("return location.search")
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        url.contains(&enc(&next).replace('/', "%2F")) || url.contains(&enc(&next)),
        "{url}"
    );

    // Back returns to the first position, Forward to the second.
    b.click("#back");
    b.wait_for_position(P);
    b.click("#forward");
    b.wait_for_position(&next);

    // Against the computer from the empty board: values unknown while placing; the
    // computer (Seed) answers Bone's first placement.
    b.click("#start");
    b.wait_for_position(START);
    b.click("#computer option[value='seed']");
    let note = b.script("return document.getElementById('note').textContent");
    assert!(note.as_str().unwrap().contains("values unknown"), "{note}");
    // It says what to do about it.
    assert!(note.as_str().unwrap().contains("solve --dtw"), "{note}");
    let rows = b.moves_shown();
    assert_eq!(rows.len(), 24);
    assert!(rows.iter().all(|r| r.1 == "?" && r.2.contains("unknown")));
    b.click("#moves li[data-move='d5']");
    let line = b.wait_for(
        "the computer's answer",
        "const t = document.getElementById('line').textContent; return t.split(' ').length === 3 && document.getElementById('position').textContent.endsWith(' B 8 8') ? t : null",
    );
    assert!(line.as_str().unwrap().starts_with("Line: d5 "), "{line}");

    // A 4v3 position whose moves win, draw and lose.
    b.click("#computer option[value='']");
    b.go(&format!("{base}?rules=tigadi&position={}", enc(SHOWN)));
    b.wait_for_position(SHOWN);
    assert_rows_match(&b.moves_shown(), &probe(dir, SHOWN));
}

/// `tigadi --rules RULES probe --json` of one position.
fn probe_under(dir: &Path, rules: &str, position: &str) -> Json {
    let mut cmd = tigadi();
    cmd.args([
        "--rules",
        rules,
        "probe",
        "--json",
        "--dir",
        dir.to_str().unwrap(),
        position,
    ]);
    let r = run_with(cmd, b"", LIMIT);
    assert_eq!(r.code, Some(0), "{r:?}");
    serde_json::from_str(&r.stdout).unwrap()
}

/// How the page writes a probe answer's value (its `describe`), in the words of
/// docs/USAGE.md: the depth to win first where known ("wins in 7 turns", with the
/// class where the 100-turn rule makes it another), then the depth to capture
/// ("captures in 3"), and the DTC under the rule where it differs or matters.
fn described(m: &Json) -> String {
    let value = m["value"].as_str().unwrap();
    let category = m["category"].as_str().unwrap_or(value);
    let class = category.replace('-', " ");
    let mut s = match m["dtw"].as_u64().filter(|&d| d > 0 && value != "draw") {
        Some(d) => format!(
            "{} in {d} turn{}{}",
            if value == "win" { "wins" } else { "loses" },
            if d == 1 { "" } else { "s" },
            if category == value {
                String::new()
            } else {
                format!(" ({class})")
            }
        ),
        None if category == value => value.to_string(),
        None => class,
    };
    if let Some(d) = m["dtc"].as_u64().filter(|&d| d > 0 && value != "draw") {
        let who = if value == "loss" {
            "opponent captures"
        } else {
            "captures"
        };
        s += &format!(" · {who} in {d}");
    }
    if let Some(d100) = m["dtc100"].as_u64() {
        if category == "cursed-win" || category == "blessed-loss" || Some(d100) != m["dtc"].as_u64()
        {
            s += &format!(" · DTC₁₀₀ {d100}");
        }
    }
    if let Some(z100) = m["dtz100"].as_u64() {
        s += &format!(" · DTZ₁₀₀ {z100}");
    }
    s
}

/// The point names of a move string, in order.
fn points_of(m: &str) -> Vec<String> {
    m.split(['-', 'x']).map(str::to_string).collect()
}

/// The page's marks on empty points: (point, value, dtc, dtw) sorted by point.
fn marks_shown(b: &mut Browser) -> Vec<(String, String, String, String)> {
    let v = b.script(
        "return [...document.querySelectorAll('#board [data-mark]')].map(e => [e.dataset.mark, e.dataset.value, e.dataset.dtc, e.dataset.dtw])",
    );
    let mut rows: Vec<_> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let s = |i: usize| r[i].as_str().unwrap().to_string();
            (s(0), s(1), s(2), s(3))
        })
        .collect();
    rows.sort();
    rows
}

/// The page shows what the probe says about its position: the value in the status
/// line, every move with its value, and while placing the best placement's value
/// on every empty point it can go to.
fn assert_page_shows(b: &mut Browser, want: &Json, placing: bool) {
    let status = b.script("return document.getElementById('value').textContent");
    assert_eq!(status, json!(described(want)), "{}", want["position"]);
    let rows = b.moves_shown();
    let moves = want["moves"].as_array().unwrap();
    assert_eq!(rows.len(), moves.len());
    for (row, m) in rows.iter().zip(moves) {
        assert_eq!(row.0, m["move"].as_str().unwrap());
        assert_eq!(row.1, described(m), "{}", row.0);
    }
    let mut best = std::collections::BTreeMap::new();
    if placing {
        for m in moves {
            let to = points_of(m["move"].as_str().unwrap())[0].clone();
            let depth = |k: &str| m[k].as_u64().map(|d| d.to_string()).unwrap_or_default();
            best.entry(to).or_insert_with(|| {
                (
                    m["value"].as_str().unwrap().to_string(),
                    depth("dtc"),
                    depth("dtw"),
                )
            });
        }
    }
    let want_marks: Vec<_> = best
        .into_iter()
        .map(|(p, (v, c, w))| (p, v, c, w))
        .collect();
    assert_eq!(marks_shown(b), want_marks, "{}", want["position"]);
}

#[test]
fn a_whole_game_of_four_a_side_from_the_empty_board() {
    if !browser_installed() {
        return;
    }
    let rules_name = common::PIECES4;
    let rules = tigadi_rules::RuleSet::parse(rules_name).unwrap();
    let dir = common::solved_pieces4();
    let server = Server::start(dir);
    let mut b = Browser::start();
    let base = format!("http://{}/", server.addr);
    // The address names the rule set only: the page asks the server for the start.
    b.go(&format!(
        "{base}?rules={}",
        enc(rules_name).replace(',', "%2C")
    ));
    let start = tigadi_rules::Position::start(&rules);
    b.wait_for_position(&start.to_string());
    assert_eq!(
        b.script("return document.getElementById('rules').value"),
        json!(rules_name)
    );
    // The rule sets with tables are offered.
    let offered =
        b.script("return [...document.querySelectorAll('#rulesets option')].map(o => o.value)");
    assert!(
        offered.as_array().unwrap().contains(&json!(rules_name)),
        "{offered}"
    );

    // A whole game by clicks on point centres: Bone plays the prober's best move,
    // Seed its worst, each preferring among those a move onto the point a goti just
    // left (the dashed last-move line ends there), so that point is clicked too.
    let mut position = start;
    let mut game = tigadi_rules::Game::new(rules);
    let (mut just_left, mut onto_left, mut both_depths, mut captures) = (None, 0, 0, 0);
    for turn in 0.. {
        assert!(turn < 300, "the game did not end");
        let text = position.to_string();
        let want = probe_under(dir, rules_name, &text);
        assert_page_shows(
            &mut b,
            &want,
            position.phase() == tigadi_rules::Phase::Placing,
        );
        // Both depths on the status line: to win, then to capture.
        if want["dtw"].as_u64().is_some_and(|d| d > 0)
            && want["dtc"].as_u64().is_some_and(|d| d > 0)
        {
            let status = b.script("return document.getElementById('value').textContent");
            let status = status.as_str().unwrap();
            assert!(
                status.contains(" turn") && status.contains("captures in"),
                "{status}"
            );
            both_depths += 1;
        }
        let moves: Vec<(String, String)> = want["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["move"].as_str().unwrap().to_string(),
                    m["value"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let pick = if position.side == tigadi_rules::Side::Bone {
            &moves[0]
        } else {
            &moves[moves.len() - 1]
        };
        let onto = |m: &str| {
            let p = points_of(m);
            p.len() > 1 && m.contains('-') && Some(&p[1]) == just_left.as_ref()
        };
        let chosen = moves
            .iter()
            .find(|(m, v)| *v == pick.1 && onto(m))
            .unwrap_or(pick)
            .0
            .clone();
        onto_left += onto(&chosen) as usize;
        if turn == 5 {
            // A look at the values on the board while placing (not checked in).
            b.screenshot(&std::env::temp_dir().join("tigadi-explorer-placing.png"));
        }
        let pts = points_of(&chosen);
        for (i, p) in pts.iter().enumerate() {
            if chosen.contains('x') && i == pts.len() - 1 {
                // The gotis the move may capture are marked on the board.
                let mut targets: Vec<String> = b
                    .script("return [...document.querySelectorAll('#board .goti.target')].map(e => e.dataset.point)")
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap().to_string())
                    .collect();
                targets.sort();
                let mut want_targets: Vec<String> = moves
                    .iter()
                    .map(|(m, _)| points_of(m))
                    .filter(|q| q.len() == pts.len() && q[..i] == pts[..i])
                    .map(|q| q[i].clone())
                    .collect();
                want_targets.sort();
                assert_eq!(targets, want_targets, "{text} {chosen}");
            }
            b.click_point(p);
        }
        let m = position
            .legal_moves(&rules)
            .into_iter()
            .find(|m| m.to_string() == chosen)
            .unwrap();
        game.play(m).unwrap();
        position = *game.position();
        just_left = chosen.contains('-').then(|| pts[0].clone());
        let shown = format!(
            "return document.getElementById('position').textContent === {} && (document.querySelectorAll('#moves li').length > 0 || document.getElementById('status').textContent.startsWith('Game over'))",
            json!(position.to_string())
        );
        b.wait_for(&format!("position {position}"), &shown);
        if let Some(c) = m.capture() {
            // The point of the last capture is marked.
            let marked = b.script("const e = document.querySelector('#board [data-captured]'); return e ? e.dataset.captured : null");
            assert_eq!(marked, json!(c.name()), "{chosen}");
            captures += 1;
        }
        if game.result().is_over() {
            break;
        }
    }
    let status = b.script("return document.getElementById('status').textContent");
    assert_eq!(status, json!(format!("Game over: {}", game.result())));
    assert!(
        onto_left > 0,
        "no move went onto the point a goti just left"
    );
    assert!(both_depths > 0 && captures > 0, "{both_depths} {captures}");

    // A game record loaded in the box is shown from its start: Forward steps
    // through it, Back returns.
    let record = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/pieces4-game.txt"),
    )
    .unwrap();
    // Pasted as it is, over two lines: the box keeps the line break (a one-line
    // input drops it, and "c5-b6" + "7." reads as one bad move).
    assert!(record.trim().contains('\n'), "{record}");
    assert_eq!(
        b.script(&format!(
            "const box = document.getElementById('input'); box.value = {}; return box.value",
            json!(record)
        )),
        json!(record)
    );
    b.script("document.querySelector('#goto button').click(); return true");
    b.wait_for_position(&start.to_string());
    assert_eq!(
        b.script("return document.getElementById('back').disabled"),
        json!(true)
    );
    assert_eq!(
        b.script("return document.getElementById('forward').disabled"),
        json!(false)
    );
    let first_move = tigadi_rules::parse_record(&record).unwrap()[0];
    let first = start.apply(first_move).to_string();
    b.click("#forward");
    b.wait_for_position(&first);
    b.click("#back");
    b.wait_for_position(&start.to_string());

    // The README's picture: the record after Bone threw the draw (turn 7), Seed
    // to place and win, both depths on every line and the marks on the board.
    let thrown = tigadi_rules::parse_record(&record).unwrap()[..7]
        .iter()
        .fold(start, |p, &m| p.apply(m))
        .to_string();
    b.go(&format!(
        "{base}?rules={}&position={}",
        enc(rules_name).replace(',', "%2C"),
        enc(&thrown)
    ));
    b.wait_for_position(&thrown);
    assert_page_shows(&mut b, &probe_under(dir, rules_name, &thrown), true);
    b.screenshot(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/explorer.png"));

    // New game: the start of this rule set again; the computer (Bone) places best.
    b.click("#start");
    b.wait_for_position(&start.to_string());
    b.click("#computer option[value='bone']");
    let want = probe_under(dir, rules_name, &start.to_string());
    let best = want["moves"][0]["move"].as_str().unwrap().to_string();
    let m = start
        .legal_moves(&rules)
        .into_iter()
        .find(|m| m.to_string() == best)
        .unwrap();
    b.wait_for_position(&start.apply(m).to_string());
    b.click("#computer option[value='']");

    // A finished game: the position after a winning capture says who won and why.
    let mut game = tigadi_rules::Game::new(rules);
    let mut turn = 0;
    while !game.result().is_over() {
        let moves = game.legal_moves();
        let m = moves
            .iter()
            .copied()
            .find(|m| m.capture().is_some())
            .unwrap_or(moves[(turn * 7) % moves.len()]);
        game.play(m).unwrap();
        turn += 1;
    }
    let over = game.position().to_string();
    b.go(&format!(
        "{base}?rules={}&position={}",
        enc(rules_name).replace(',', "%2C"),
        enc(&over)
    ));
    let script = format!(
        "return document.getElementById('position').textContent === {} ? document.getElementById('status').textContent : null",
        json!(over)
    );
    let status = b.wait_for("the finished game", &script);
    assert_eq!(
        status,
        json!(format!("Game over: {}", game.result())),
        "{over}"
    );
}

/// Issue 53: a Lasker game (`slides=always`) on the page, without tables, by
/// clicks on point centres: while gotis are in hand the page offers both a
/// placement (click an empty point) and a slide (click a goti, then where it
/// goes), says the player may place or move, and plays either.
#[test]
fn a_lasker_game_places_and_slides_while_gotis_are_in_hand() {
    if !browser_installed() {
        return;
    }
    let rules = tigadi_rules::RuleSet::LASKER;
    let dir = common::scratch("browser-lasker");
    std::fs::create_dir_all(dir.join("lasker")).unwrap();
    let server = Server::start(&dir);
    let mut b = Browser::start();
    let base = format!("http://{}/", server.addr);
    b.go(&format!("{base}?rules=lasker"));
    let mut position = tigadi_rules::Position::start(&rules);
    b.wait_for_position(&position.to_string());
    let status = |b: &mut Browser| {
        b.script("return document.getElementById('status').textContent")
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(
        status(&mut b).starts_with("Bone to place ("),
        "{}",
        status(&mut b)
    );
    // Each turn by its points: a placement is one click, a slide two.
    for turn in ["d5", "a1", "d5-d6", "a1-a4", "b2", "a4-a1"] {
        let before = position;
        let mv = tigadi_rules::parse_move(turn).unwrap();
        tigadi_rules::check_move(&rules, &before, mv).unwrap();
        position = before.apply(mv);
        if before.hand(before.side) > 0 && before.mover().count_ones() > 0 {
            // Gotis in hand and on the board: both kinds of turn are offered.
            // ... and the position is named by its hands, not as a placing phase.
            let shown = status(&mut b);
            assert!(
                shown.contains(" to place or move (hands ") && !shown.contains("phase"),
                "{shown}"
            );
            let rows = b.moves_shown();
            assert!(rows.iter().any(|r| r.0.contains('-')), "{rows:?}");
            assert!(rows.iter().any(|r| !r.0.contains('-')), "{rows:?}");
        }
        for point in turn.split('-') {
            b.click_point(point);
        }
        b.wait_for_position(&position.to_string());
    }
    assert!(position.bone_hand > 0 && position.seed_hand > 0);
    let line = b.script("return document.getElementById('line').textContent");
    assert_eq!(line, json!("Line: d5 a1 d5-d6 a1-a4 b2 [a4-a1]"));
    let note = b.script("return document.getElementById('note').textContent");
    assert!(
        note.as_str().unwrap().contains("no table for this tier"),
        "{note}"
    );
}

/// Issue 53: on solved `lasker,pieces=3` tables the page shows a position whose
/// player may place or fly (one goti on the board, two in hand) with the values
/// of both kinds of move, the probe's rows in order, and plays a slide by two
/// clicks into the next position, again with values.
#[test]
fn the_page_judges_a_lasker_position_with_slides_in_hand() {
    if !browser_installed() {
        return;
    }
    let dir = common::scratch("browser-lasker3");
    let r = run(&[
        "--rules",
        "lasker,pieces=3",
        "solve",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(r.code, Some(0), "{r:?}");
    let rules = "lasker,pieces=3";
    let may_slide = "B../.../.../....../.../.../..S B 2 2";
    let server = Server::start(&dir);
    let mut b = Browser::start();
    let base = format!("http://{}/", server.addr);
    b.go(&format!("{base}?rules={rules}&position={}", enc(may_slide)));
    b.wait_for_position(may_slide);
    let rows = b.moves_shown();
    assert_rows_match(&rows, &probe_under(&dir, rules, may_slide));
    assert!(rows.iter().any(|r| r.0 == "a7-e4"), "{rows:?}");
    assert!(rows.iter().any(|r| r.0 == "g4"), "{rows:?}");
    let status = b.script("return document.getElementById('status').textContent");
    assert!(
        status.as_str().unwrap().contains("Bone to place or move"),
        "{status}"
    );
    for point in ["a7", "e4"] {
        b.click_point(point);
    }
    let next = {
        let set = tigadi_rules::RuleSet::parse(rules).unwrap();
        let p = tigadi_rules::parse_position(&set, may_slide).unwrap();
        p.apply(tigadi_rules::parse_move("a7-e4").unwrap())
            .to_string()
    };
    b.wait_for_position(&next);
    assert_rows_match(&b.moves_shown(), &probe_under(&dir, rules, &next));
}
