//! What the CLI tests share: running the binary (with a time limit) and a small
//! solved tablebase directory.

#![allow(dead_code)]

pub mod http;
#[path = "../../../tigadi-rules/tests/support/scratch.rs"]
mod scratch;

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Time limit of a run: far beyond what any command here needs, even on a busy
/// machine; a command that blocks for ever fails its test instead of hanging it.
pub const LIMIT: Duration = Duration::from_secs(600);

/// The rules example of docs/RULES.md §9 (moving phase, Seed to move).
pub const P: &str = "BB./S../.../...S../.../.../SB. S";
/// The empty board.
pub const START: &str = ".../.../.../....../.../.../... B 9 9";

/// How a run of the binary ended.
#[derive(Debug)]
pub struct Run {
    /// Exit code; `None` when killed by a signal (a panic's abort, a timeout).
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// Killed because it ran past its time limit.
    pub timed_out: bool,
}

/// A `tigadi` command.
pub fn tigadi() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tigadi"))
}

/// Runs `cmd` with `stdin` as its input, killing it after `limit`.
pub fn run_with(mut cmd: Command, stdin: &[u8], limit: Duration) -> Run {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tigadi");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > limit {
            timed_out = true;
            let _ = child.kill();
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let _ = feeder.join();
    Run {
        code: status.code(),
        stdout: String::from_utf8_lossy(&reader.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned(),
        timed_out,
    }
}

/// Runs `tigadi ARGS` with empty input and the time limit [`LIMIT`].
pub fn run(args: &[&str]) -> Run {
    let mut cmd = tigadi();
    cmd.args(args);
    run_with(cmd, b"", LIMIT)
}

/// A fresh empty directory for one test or fixture, removed when the test
/// process exits.
pub fn scratch(name: &str) -> PathBuf {
    scratch::scratch_dir(name)
}

/// A directory solved to 7 gotis (3v3, 4v3, 3v4; game-theoretic tables only, the
/// 100-turn tables have their own tests in `horizon_commands.rs`), made once per
/// test binary; tests that change files work on a [`copy_of_solved`].
pub fn solved7() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = scratch("solved7");
        let r = run(&[
            "solve",
            "--max-pieces",
            "7",
            "--no-horizon",
            "--dir",
            d.to_str().unwrap(),
        ]);
        assert_eq!(r.code, Some(0), "{r:?}");
        d
    })
}

/// The rule set of [`solved_pieces4`].
pub const PIECES4: &str = "tigadi,pieces=4";

/// A directory holding the whole game of `tigadi,pieces=4` solved (moving and
/// placing phases, with the 100-turn and the DTW tables), made once per test
/// binary.
pub fn solved_pieces4() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = scratch("solved-pieces4");
        let r = run(&[
            "--rules",
            PIECES4,
            "solve",
            "--dtw",
            "--dir",
            d.to_str().unwrap(),
        ]);
        assert_eq!(r.code, Some(0), "{r:?}");
        d
    })
}

/// A private copy of [`solved7`]'s tables, manifest and sums (not the verify
/// journal or the lock that other tests' runs on [`solved7`] may have left).
pub fn copy_of_solved(name: &str) -> PathBuf {
    let d = scratch(name);
    fs::create_dir_all(d.join("tigadi")).unwrap();
    for e in fs::read_dir(solved7().join("tigadi")).unwrap() {
        let e = e.unwrap();
        let name = e.file_name();
        if e.file_type().unwrap().is_file() && name != "verified.json" && name != ".lock" {
            fs::copy(e.path(), d.join("tigadi").join(e.file_name())).unwrap();
        }
    }
    d
}

/// The files in `dir` whose names pass `keep`, by name, with their bytes, sorted by
/// name (for comparing whole tablebase directories byte for byte).
pub fn files_named(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| keep(&p.file_name().unwrap().to_string_lossy()))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                fs::read(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

/// A probe answer's value in the words of docs/USAGE.md ("Depths in words"),
/// built from its JSON (`value`, `dtc`, `dtw`) independently of the program's
/// own wording code: "wins in 39 turns, captures in 7", "loses in 8 turns,
/// opponent captures in 4", "win, captures in 7" (no DTW), "draw".
#[allow(dead_code)]
pub fn in_words(answer: &serde_json::Value) -> String {
    let value = answer["value"].as_str().unwrap();
    let dtc = answer["dtc"].as_u64();
    let turns = |n: u64| format!("{n} turn{}", if n == 1 { "" } else { "s" });
    match (value, dtc, answer["dtw"].as_u64()) {
        ("draw", _, _) => "draw".into(),
        (_, Some(0), _) => "loss (no move)".into(),
        ("win", Some(c), Some(w)) => format!("wins in {}, captures in {c}", turns(w)),
        ("loss", Some(c), Some(w)) => {
            format!("loses in {}, opponent captures in {c}", turns(w))
        }
        ("win", Some(c), None) => format!("win, captures in {c}"),
        ("loss", Some(c), None) => format!("loss, opponent captures in {c}"),
        other => panic!("not a probe value: {other:?}"),
    }
}

/// Each line of `text` parsed as one JSON value (batch `probe` writes one per
/// input line); panics, failing the test, on a line that is not JSON.
pub fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}
