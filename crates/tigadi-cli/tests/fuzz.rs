//! Random argument vectors and random standard input through the `tigadi` binary:
//! whatever comes in, it exits with 0, 1 or 2, never panics or dies of a signal,
//! and says what is wrong on stderr when it exits with 2.

use crate::common;

use common::*;
use proptest::prelude::*;
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

/// A directory with 3v3 solved: probe, stats and verify find a table.
fn tables() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = scratch("fuzz-tables");
        let r = run(&["solve", "--max-pieces", "6", "--dir", d.to_str().unwrap()]);
        assert_eq!(r.code, Some(0), "{r:?}");
        d
    })
}

/// Arguments a user might type, right and wrong (any bytes but NUL, which no
/// argument can hold). Nothing here can start a long
/// run: `solve` always gets `--max-pieces 6` (a second one is a clap error), and
/// perft depths are small or absurd.
fn word() -> impl Strategy<Value = OsString> {
    let dir = tables().to_str().unwrap().to_string();
    let fixed: Vec<String> = [
        "show",
        "moves",
        "replay",
        "perft",
        "index-stats",
        "stats",
        "probe",
        "verify",
        "--json",
        "--dir",
        "--rules",
        "--record",
        "--file",
        "--threads",
        "--subspace",
        "--max-pieces",
        "--again",
        "--help",
        "--version",
        "-",
        "",
        " ",
        "0",
        "1",
        "2",
        "6",
        "33",
        "25000",
        "4294967296",
        "-1",
        "3v3",
        "9v",
        "0v0",
        "tigadi",
        "morris",
        "navakankari",
        "lines=16,lines=20",
        "flying=3",
        "blocked=loses,pieces=4",
        P,
        START,
        "BB./S../.../...S../.../.../SB. S 0 0 100",
        "BB./S../.../...S../.../.../SB. S 9 9",
        "d5 g7 d6 g4 d7xg4",
        "d5 d5",
        "a1-a4xg7",
        "pass",
        "/nonexistent",
        "/dev/null",
        "/dev/full",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([dir.clone(), format!("{dir}/tigadi/3v3.tgtb")])
    .collect();
    prop_oneof![
        6 => proptest::sample::select(fixed).prop_map(OsString::from),
        1 => "[ -~]{0,40}".prop_map(OsString::from),
        1 => proptest::collection::vec(1u8.., 0..20).prop_map(OsString::from_vec),
        1 => (1usize..100_000).prop_map(|n| OsString::from("B".repeat(n))),
    ]
}

fn stdin_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..300),
        proptest::collection::vec(
            proptest::sample::select(vec![
                format!("{P}\n"),
                "\n".to_string(),
                "garbage\n".to_string(),
                "\u{ff}\n".to_string(),
                format!("{START}\n"),
                "1. d5 g7\n".to_string(),
            ]),
            0..8
        )
        .prop_map(|v| v.concat().into_bytes()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_arguments_and_input_end_cleanly(
        words in proptest::collection::vec(word(), 0..7),
        input in stdin_bytes(),
    ) {
        let mut cmd = tigadi();
        cmd.args(&words);
        if words.first().is_some_and(|w| w == "solve")
            || words.iter().any(|w| w == "solve")
        {
            cmd.args(["--max-pieces", "6"]);
        }
        let r = run_with(cmd, &input, Duration::from_secs(120));
        prop_assert!(!r.timed_out, "{words:?} ran past two minutes");
        prop_assert!(
            matches!(r.code, Some(0..=2)),
            "{words:?}: exit {:?}\n{}", r.code, r.stderr
        );
        prop_assert!(!r.stderr.contains("panicked"), "{words:?}: {}", r.stderr);
        if r.code == Some(2) {
            prop_assert!(!r.stderr.trim().is_empty(), "{words:?}: exit 2 without a message");
        }
    }
}
