//! Issue 54, a third hostile round: clients that stop reading, half-close or speak
//! HTTP/2; heads past the limit however they arrive; rule sets without tables; a
//! table copied in while it is probed; the position right after a game-ending
//! capture in every door; input lines at and past the bound. Network tests run on
//! loopback, each socket with a time limit.

use crate::common;

use common::http::{enc, Server};
use common::*;
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};
use tigadi_server::conn::{MAX_CONNECTIONS, MAX_HEAD_BYTES, WRITE_PROGRESS_LIMIT};

/// Everything the server sends on `s` until it closes it (or a reset after some
/// bytes), or `None` when it has sent nothing for `quiet` and left it open.
fn read_to_close(s: &mut TcpStream, quiet: Duration) -> Option<Vec<u8>> {
    s.set_read_timeout(Some(quiet)).unwrap();
    let mut bytes = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return Some(bytes),
            Ok(n) => bytes.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => return Some(bytes),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return None
            }
            Err(e) => panic!("reading: {e}"),
        }
    }
}

/// How many answers `bytes` holds, and their statuses.
fn statuses(bytes: &[u8]) -> Vec<u16> {
    let text = String::from_utf8_lossy(bytes);
    text.match_indices("HTTP/1.1 ")
        .filter_map(|(i, _)| text[i + 9..].get(..3)?.parse().ok())
        .collect()
}

/// `count` pipelined requests for the page's script (12 KB each answer), so
/// that a client that does not read fills every buffer between it and the
/// server.
fn pipelined(count: usize) -> Vec<u8> {
    "GET /app.js HTTP/1.1\r\nHost: localhost\r\n\r\n"
        .repeat(count)
        .into_bytes()
}

// 1. A client that stops reading is closed within the limit of its last progress,
//    and stalled readers cannot keep /health out.
#[test]
fn a_client_that_stops_reading_is_closed() {
    let server = Server::start(solved7());
    let mut s = TcpStream::connect(&server.addr).unwrap();
    s.set_write_timeout(Some(Duration::from_secs(5))).unwrap();
    s.write_all(&pipelined(1000)).unwrap();
    // Its last progress is at most now; past the limit it must be gone.
    std::thread::sleep(WRITE_PROGRESS_LIMIT + Duration::from_secs(2));
    // A connection still open goes on answering as this reads, then waits.
    let got = read_to_close(&mut s, Duration::from_secs(3));
    assert!(
        got.is_some(),
        "still connected {:?} after it stopped reading",
        WRITE_PROGRESS_LIMIT + Duration::from_secs(2)
    );
}

#[test]
fn health_is_answered_while_600_stalled_readers_try() {
    let server = Server::start(solved7());
    let mut stalled = Vec::new();
    for _ in 0..600 {
        let mut s = TcpStream::connect(&server.addr).unwrap();
        s.set_write_timeout(Some(Duration::from_secs(5))).unwrap();
        // Refused ones may be reset before all of it is written.
        let _ = s.write_all(&pipelined(100));
        stalled.push(s);
    }
    assert!(stalled.len() > MAX_CONNECTIONS);
    let end = Instant::now() + Duration::from_secs(4);
    let mut asked = 0;
    while Instant::now() < end {
        let t = Instant::now();
        let mut s = TcpStream::connect(&server.addr).unwrap();
        s.write_all(b"GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            .unwrap();
        let got = read_to_close(&mut s, Duration::from_secs(5)).expect("closed after /health");
        let took = t.elapsed();
        assert_eq!(statuses(&got), [200], "{}", String::from_utf8_lossy(&got));
        assert!(took < Duration::from_secs(2), "/health took {took:?}");
        asked += 1;
        std::thread::sleep(Duration::from_millis(300));
    }
    assert!(asked >= 5);
}

// 3. A half-closed request still gets its answers.
#[test]
fn half_closed_requests_are_answered() {
    let server = Server::start(solved7());
    for count in [1, 5] {
        let mut s = TcpStream::connect(&server.addr).unwrap();
        let one = format!(
            "GET /api/v1/tigadi?position={} HTTP/1.1\r\nHost: localhost\r\n\r\n",
            enc(P)
        );
        s.write_all(one.repeat(count).as_bytes()).unwrap();
        s.shutdown(Shutdown::Write).unwrap();
        let got = read_to_close(&mut s, Duration::from_secs(10)).expect("closed at the end");
        assert_eq!(
            statuses(&got),
            vec![200; count],
            "{count} requests: {}",
            String::from_utf8_lossy(&got)
        );
    }
}

/// Sends `request` on a fresh connection and reads the answer to the close.
fn exchange(addr: &str, request: &[u8]) -> (Vec<u16>, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_write_timeout(Some(Duration::from_secs(10))).unwrap();
    let _ = s.write_all(request);
    let got = read_to_close(&mut s, Duration::from_secs(10)).expect("closed after answering");
    let text = String::from_utf8_lossy(&got).into_owned();
    (statuses(&got), text)
}

/// The JSON error of an answer.
fn error_of(text: &str) -> String {
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    let v: serde_json::Value =
        serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {text:?}"));
    v["error"].as_str().unwrap().to_string()
}

// 5. The head limit is exact, however the head arrives; HTTP/2 is answered.
#[test]
fn the_head_limit_is_exact_and_http2_is_answered() {
    let server = Server::start(solved7());
    let head = |len: usize| {
        let start = "GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nX-Pad: ";
        let pad = len - start.len() - 4;
        format!("{start}{}\r\n\r\n", "a".repeat(pad)).into_bytes()
    };
    for (len, want) in [
        (MAX_HEAD_BYTES - 1000, 200),
        (MAX_HEAD_BYTES, 200),
        (MAX_HEAD_BYTES + 1, 431),
        (100_000, 431),
    ] {
        let request = head(len);
        assert_eq!(request.len(), len);
        let (got, text) = exchange(&server.addr, &request);
        assert_eq!(got, [want], "a head of {len} bytes: {text}");
        if want == 431 {
            assert!(error_of(&text).contains("head too large"), "{text}");
        }
    }
    let (got, text) = exchange(&server.addr, b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
    assert_eq!(got, [400], "{text:?}");
    assert!(error_of(&text).contains("HTTP/2"), "{text}");
}

/// The server's resident memory, in bytes.
fn rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    kb * 1024
}

// 6. Rule sets without tables cost the server nothing.
#[test]
fn rule_sets_without_tables_keep_no_memory() {
    let server = Server::start(solved7());
    let mut client = server.client();
    let path = |pieces: u32, quiet: u32| {
        format!(
            "/api/v1/{}?position={}",
            enc(&format!("morabaraba,pieces={pieces},quiet={quiet}")),
            enc(P)
        )
    };
    // Warm: the runtime's threads and buffers, one missing rule set.
    for _ in 0..20 {
        assert_eq!(client.get(&path(12, 1)).status, 404);
    }
    let idle = rss(server.pid());
    let mut n = 0;
    for pieces in 3..=12 {
        for quiet in 1..=100 {
            let a = client.get(&path(pieces, quiet));
            assert_eq!(a.status, 404, "{}", a.body);
            n += 1;
        }
    }
    assert_eq!(n, 1000);
    let after = rss(server.pid());
    assert!(
        after <= idle + (10 << 20),
        "{} MB idle, {} MB after 1000 missing rule sets",
        idle >> 20,
        after >> 20
    );
}

// 2. A table copied in while it is probed is answered once the copy has ended.
#[test]
fn a_table_copied_in_while_probed_is_read_once_complete() {
    let good = Server::start(solved7());
    let want = good.get(&format!("/api/v1/tigadi?position={}", enc(P)));
    assert_eq!(want.status, 200, "{}", want.body);
    let dir = copy_of_solved("copied-in");
    let table = dir.join("tigadi").join("3v3.tgtb");
    let bytes = std::fs::read(&table).unwrap();
    // The copy has begun: the first bytes are there.
    std::fs::write(&table, &bytes[..bytes.len() / 3]).unwrap();
    let server = Server::start(&dir);
    let path = format!("/api/v1/tigadi?position={}", enc(P));
    let partial = server.get(&path);
    assert_eq!(partial.status, 500, "{}", partial.body);
    // Asked again while nothing changed: the same answer.
    assert_eq!(server.get(&path).status, 500);
    // The copy ends.
    std::fs::write(&table, &bytes).unwrap();
    let got = server.get(&path);
    assert_eq!((got.status, got.json()), (200, want.json()), "{}", got.body);
}

// 4. The position right after a game-ending capture, in every door.
const FINISHED: &str = "BBB/.../.../....../.../.../..S S 0 1";
const PIECES3: &str = "tigadi,pieces=3";

#[test]
fn every_door_accepts_a_finished_game() {
    // The door that already accepted it says how the game ended.
    let tables = scratch("finished-empty");
    let d = tables.to_str().unwrap();
    let probe = run(&["--rules", PIECES3, "probe", "--dir", d, "--json", FINISHED]);
    assert_eq!(probe.code, Some(0), "{probe:?}");
    let over: serde_json::Value = serde_json::from_str(&probe.stdout).unwrap();
    let result = over["game_over"].clone();
    assert!(result.is_object(), "{over}");
    let moves = run(&["--rules", PIECES3, "moves", "--json", FINISHED]);
    assert_eq!(moves.code, Some(0), "{moves:?}");
    let m: serde_json::Value = serde_json::from_str(&moves.stdout).unwrap();
    assert_eq!(m["result"], result, "{m}");
    assert_eq!(m["count"], 0, "{m}");
    for args in [
        vec!["show", FINISHED],
        vec!["line", "--dir", d, FINISHED],
        vec!["play", "--dir", d, "--from", FINISHED],
    ] {
        let mut all = vec!["--rules", PIECES3];
        all.extend(&args);
        let r = run(&all);
        assert_eq!(r.code, Some(0), "{args:?}: {r:?}");
        let text = r.stdout.to_lowercase();
        assert!(
            text.contains("bone wins") || text.contains("game over"),
            "{args:?}: {}",
            r.stdout
        );
        if args[0] == "show" {
            // Nobody is to move in a finished game.
            assert!(
                !text.contains(" to place") && !text.contains(" to move"),
                "{text}"
            );
        }
    }
    // Still refused: a position no game reaches.
    let r = run(&[
        "--rules",
        PIECES3,
        "show",
        "BB./.../.../....../.../.../..S S 0 0",
    ]);
    assert_eq!(r.code, Some(2), "{r:?}");
}

// 7. Input lines at and past the bound; `play` goes on after a non-UTF-8 line.
#[test]
fn input_lines_at_the_bound_and_past_it() {
    let d = solved7().to_str().unwrap();
    let limit = 4096;
    let mut input = vec![b'x'; limit];
    input.push(b'\n');
    input.extend(vec![b'y'; limit + 1]);
    input.push(b'\n');
    input.extend(vec![b'z'; 1_000_000]);
    input.push(b'\n');
    let mut cmd = tigadi();
    cmd.args(["probe", "--dir", d]);
    let r = run_with(cmd, &input, Duration::from_secs(60));
    let lines = json_lines(&r.stdout);
    assert_eq!(lines.len(), 3, "{r:?}");
    let e0 = lines[0]["error"].as_str().unwrap();
    assert!(!e0.contains("longer than"), "{e0}");
    for l in &lines[1..] {
        assert!(
            l["error"].as_str().unwrap().contains("longer than 4096"),
            "{l}"
        );
        let quoted = l["position"].as_str().unwrap();
        assert!(
            quoted.contains(&format!("more than {limit} bytes")),
            "{quoted}"
        );
        assert!(!quoted.contains(&format!("({limit} bytes)")), "{quoted}");
    }

    let mut cmd = tigadi();
    cmd.args(["play", "--dir", d, "--from", P]);
    let r = run_with(cmd, b"\xff\xfe d5\nquit\n", Duration::from_secs(60));
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(r.stdout.contains("not valid UTF-8"), "{}", r.stdout);
    assert!(r.stdout.contains("You resigned"), "{}", r.stdout);
}
