//! `tigadi serve` under hostile or broken clients (issue 26): idle and slow
//! connections are closed, a flood of connections is capped while `/health` stays
//! answered, every error is JSON, and `/health` reports a table directory that is
//! gone. Everything runs on loopback and stops by itself (each socket has a read
//! time limit; the slow-client test takes about 11 s).

use crate::common;

use common::http::{enc, Server};
use common::scratch;
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};
use tigadi_server::conn::{MAX_CONNECTIONS, REQUEST_HEAD_TIME_LIMIT};

/// Held by the two tests that open hundreds of sockets, so that they do not add
/// up against the test process's file descriptor limit.
static MANY_SOCKETS: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A status and a body read from a raw connection the server closes.
struct Raw {
    status: u16,
    head: String,
    body: String,
}

/// Sends `request` as is on a fresh connection and reads until the server closes
/// it (requests here ask `Connection: close`, or are ones the server refuses).
fn raw(addr: &str, request: &[u8]) -> Raw {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    // The server may answer before it has read all of a large request.
    let _ = s.write_all(request);
    let mut bytes = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => bytes.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset && !bytes.is_empty() => break,
            Err(e) => panic!("reading the answer: {e} (so far {bytes:?})"),
        }
    }
    let text = String::from_utf8(bytes).expect("UTF-8 answer");
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {text:?}"));
    Raw {
        status,
        head: head.to_ascii_lowercase(),
        body: body.to_string(),
    }
}

fn get_close(path: &str, headers: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{headers}\r\n")
        .into_bytes()
}

/// `answer` is JSON `{"error": ...}` with `status`, its message at most `max_len`
/// bytes and containing `says`.
fn assert_json_error(what: &str, answer: &Raw, status: u16, says: &str, max_len: usize) {
    assert_eq!(
        answer.status, status,
        "{what}: {} {}",
        answer.head, answer.body
    );
    assert!(
        answer.head.contains("content-type: application/json"),
        "{what}: {}",
        answer.head
    );
    let v: serde_json::Value = serde_json::from_str(&answer.body)
        .unwrap_or_else(|e| panic!("{what}: {e}: {:?}", answer.body));
    let msg = v["error"].as_str().unwrap_or_else(|| panic!("{what}: {v}"));
    assert!(msg.contains(says), "{what}: {msg:?} should say {says:?}");
    assert!(msg.len() <= max_len, "{what}: {} bytes: {msg}", msg.len());
}

#[test]
fn every_error_is_json_and_quotes_only_a_prefix() {
    let dir = scratch("serve-errors");
    let server = Server::start(&dir);
    let a = server.addr.as_str();
    // A method other than GET.
    for (method, path) in [("POST", "/health"), ("DELETE", "/api/v1/tigadi/board")] {
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
        );
        let r = raw(a, req.as_bytes());
        assert_json_error(method, &r, 405, "method not allowed", 200);
        assert!(r.head.contains("allow: get"), "{}", r.head);
    }
    // A request target past hyper's limit (65534 bytes).
    let long = format!("/api/v1/tigadi?position={}", "x".repeat(70_000));
    assert_json_error("414", &raw(a, &get_close(&long, "")), 414, "too long", 200);
    // A head past the limit: one huge header, and too many headers.
    let huge = format!("X-Big: {}\r\n", "y".repeat(200_000));
    assert_json_error(
        "431",
        &raw(a, &get_close("/health", &huge)),
        431,
        "too large",
        200,
    );
    let many: String = (0..150).map(|i| format!("X-{i}: a\r\n")).collect();
    assert_json_error(
        "431 many",
        &raw(a, &get_close("/health", &many)),
        431,
        "",
        200,
    );
    // A body past the size limit.
    let mut req = get_close("/health", "Content-Length: 100000\r\n");
    req.extend(vec![b'x'; 100_000]);
    assert_json_error("413", &raw(a, &req), 413, "too large", 200);
    // Not HTTP at all.
    assert_json_error(
        "garbage",
        &raw(a, b"GARBAGE\r\n\r\n"),
        400,
        "malformed",
        200,
    );
    // Bytes that are not UTF-8 in the rules segment.
    assert_json_error(
        "invalid UTF-8",
        &raw(a, &get_close("/api/v1/%FF%FE/board", "")),
        400,
        "rules",
        200,
    );
    // A 60 KB rule name and a 60 KB unknown path: named, not echoed whole.
    let name = "z".repeat(60_000);
    let r = raw(a, &get_close(&format!("/api/v1/{name}/board"), ""));
    assert_json_error("long rules", &r, 400, "60000 bytes", 400);
    let r = raw(
        a,
        &get_close(&format!("/api/v1/{name}/explore?position=x"), ""),
    );
    assert_json_error("long rules, explore", &r, 400, "60000 bytes", 400);
    let r = raw(a, &get_close(&format!("/{name}"), ""));
    assert_json_error("long path", &r, 404, "no such endpoint", 400);
    let long_position = "B".repeat(60_000);
    let r = raw(
        a,
        &get_close(
            &format!("/api/v1/tigadi/explore?position={}", enc(&long_position)),
            "",
        ),
    );
    assert_json_error("long position", &r, 400, "60000 bytes", 400);
    // And the server goes on answering.
    assert_eq!(server.get("/health").status, 200);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn health_says_what_it_checks_and_reports_a_missing_directory() {
    let dir = scratch("serve-health");
    std::fs::create_dir_all(dir.join("tigadi_pieces-4")).unwrap();
    std::fs::create_dir_all(dir.join("not-a-rule-set")).unwrap();
    let server = Server::start(&dir);
    let a = server.get("/health");
    assert_eq!(a.status, 200, "{}", a.body);
    let v = a.json();
    assert_eq!(v["status"], "ok");
    assert!(
        v["checks"].as_str().unwrap().contains("table directory"),
        "{v}"
    );
    assert_eq!(v["rulesets"], serde_json::json!(["tigadi,pieces=4"]));
    std::fs::remove_dir_all(&dir).unwrap();
    let a = server.get("/health");
    assert_eq!(a.status, 503, "{}", a.body);
    let v = a.json();
    assert_eq!(v["status"], "unavailable");
    let msg = v["error"].as_str().unwrap();
    assert!(msg.contains(&dir.display().to_string()), "{msg}");
    assert_eq!(a.header("cache-control"), Some("no-store"));
    let r = server.get("/api/v1/rulesets");
    assert_eq!(r.status, 503, "{}", r.body);
    assert!(r.json()["error"].as_str().is_some());
    // A file where the directory was: still not a table directory.
    std::fs::write(&dir, b"not a directory").unwrap();
    assert_eq!(server.get("/health").status, 503);
    std::fs::remove_file(&dir).unwrap();
}

/// Reads from `s` until the server closes it; how long that took, or `None` when
/// it stayed open past `limit`.
fn closed_within(s: &mut TcpStream, limit: Duration) -> Option<Duration> {
    let start = Instant::now();
    s.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return Some(start.elapsed()),
            Ok(_) => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => return Some(start.elapsed()),
        }
        if start.elapsed() > limit {
            return None;
        }
    }
}

#[test]
fn idle_and_slow_connections_are_closed_and_health_stays_answered() {
    const IDLE: usize = 320;
    let _many = MANY_SOCKETS.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("serve-slow");
    let server = Server::start(&dir);
    let addr = server.addr.as_str();
    let opened = Instant::now();
    // Idle sockets that never send a byte.
    let mut idle: Vec<TcpStream> = (0..IDLE)
        .map(|_| TcpStream::connect(addr).unwrap())
        .collect();
    // Partial heads: one sent at once, one trickled a byte at a time below.
    let mut partial = TcpStream::connect(addr).unwrap();
    partial
        .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        .unwrap();
    let mut trickle = TcpStream::connect(addr).unwrap();
    // A kept-alive connection after one answer.
    let mut kept = server.client();
    assert_eq!(kept.get("/health").status, 200);
    // With all of them open, /health is answered at once on a fresh connection.
    for _ in 0..3 {
        let t = Instant::now();
        let r = raw(addr, &get_close("/health", ""));
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    }
    for b in b"GET /health HTTP/1.1\r\nHost: x\r\n".iter().take(12) {
        if trickle.write_all(&[*b]).is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(400));
    }
    // Everything is closed by the head time limit: the trickle too, although it
    // keeps sending.
    let limit = REQUEST_HEAD_TIME_LIMIT + Duration::from_secs(8);
    let t = closed_within(&mut trickle, limit).expect("the trickling client stays connected");
    assert!(
        opened.elapsed() >= REQUEST_HEAD_TIME_LIMIT - Duration::from_secs(1),
        "{t:?}"
    );
    assert!(
        closed_within(&mut partial, limit).is_some(),
        "a partial head stays connected"
    );
    for (i, s) in idle.iter_mut().enumerate() {
        assert!(
            closed_within(s, limit).is_some(),
            "idle connection {i} stays open"
        );
    }
    let mut kept_stream = kept.into_stream();
    assert!(
        closed_within(&mut kept_stream, limit).is_some(),
        "an idle kept-alive connection stays open"
    );
    assert!(opened.elapsed() < Duration::from_secs(30));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_connection_flood_is_capped_with_a_json_503() {
    let _many = MANY_SOCKETS.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("serve-flood");
    let server = Server::start(&dir);
    let addr = server.addr.as_str();
    let held: Vec<TcpStream> = (0..MAX_CONNECTIONS)
        .map(|_| TcpStream::connect(addr).unwrap())
        .collect();
    // Give the server time to accept them all, then one more is refused with a
    // reason, at once.
    std::thread::sleep(Duration::from_millis(500));
    let t = Instant::now();
    let r = raw(addr, &get_close("/health", ""));
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    assert_json_error("flood", &r, 503, "server busy", 300);
    // Once connections close, the server answers again.
    drop(held);
    let start = Instant::now();
    loop {
        let r = raw(addr, &get_close("/health", ""));
        if r.status == 200 {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "{}", r.body);
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
