//! Issue 55: `tigadi probe` held open as a subprocess, driven over a pipe one
//! position at a time, as an engine or a match runner drives it: each answer must
//! come before the next position is written.

use crate::common;

use common::*;
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;
use tigadi_rules::Side;

/// Round trips: one line in, one answer out.
const ROUND_TRIPS: usize = 1000;
/// How long an answer may take on a busy machine; a probe that holds its answers
/// until the input ends never gives one.
const ANSWER_LIMIT: Duration = Duration::from_secs(60);

/// Positions of the solved set: the rules example and the positions its legal
/// moves lead to, and theirs, without captures (so all stay 3v3), plus a line
/// that fails (answered with an error object, then the probe goes on).
fn positions() -> Vec<String> {
    let rules = tigadi_rules::RuleSet::TIGADI;
    let mut out = vec![tigadi_rules::parse_position(&rules, P).unwrap()];
    let mut i = 0;
    while out.len() < 50 && i < out.len() {
        for m in out[i].legal_moves(&rules) {
            let after = out[i].apply(m);
            let on_board = after.total(Side::Bone) + after.total(Side::Seed);
            if on_board == 6 && !out.contains(&after) {
                out.push(after);
            }
        }
        i += 1;
    }
    let mut out: Vec<String> = out.iter().map(|p| p.to_string()).collect();
    out.push("not a position".into());
    out
}

#[test]
fn probe_answers_each_line_before_the_next_is_written() {
    let dir = solved7();
    let positions = positions();
    let mut child = tigadi()
        .args(["probe", "--json", "--dir", dir.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let output = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(output).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let mut answers = Vec::new();
    for i in 0..ROUND_TRIPS {
        let position = &positions[i % positions.len()];
        writeln!(input, "{position}").unwrap();
        input.flush().unwrap();
        let answer = rx.recv_timeout(ANSWER_LIMIT).unwrap_or_else(|e| {
            let _ = child.kill();
            panic!(
                "no answer to line {} ({position}) while the input is open: {e}",
                i + 1
            )
        });
        let v: serde_json::Value = serde_json::from_str(&answer).unwrap();
        // The answer is to this line, not a later one.
        assert_eq!(v["position"], position.as_str(), "line {}: {answer}", i + 1);
        assert_eq!(
            v["error"].is_string(),
            position == "not a position",
            "{answer}"
        );
        answers.push(answer);
    }
    drop(input);
    let status = child.wait().unwrap();
    reader.join().unwrap();
    // Exit 2: some lines failed (the bad one), as in batch mode.
    assert_eq!(status.code(), Some(2));
    // The same answers as batch mode given all the lines at once.
    let all: String = (0..ROUND_TRIPS)
        .map(|i| format!("{}\n", positions[i % positions.len()]))
        .collect();
    let mut cmd = tigadi();
    cmd.args(["probe", "--json", "--dir", dir.to_str().unwrap()]);
    let batch = run_with(cmd, all.as_bytes(), LIMIT);
    assert_eq!(batch.stdout.lines().collect::<Vec<_>>(), answers);
}
