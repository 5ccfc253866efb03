//! `tigadi solve` end to end: the files (game-theoretic and horizon tables) do not
//! depend on the thread count, and a run
//! killed with SIGKILL part-way and started again finishes with byte-identical
//! files.

mod common;

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn tigadi() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tigadi"))
}

fn solve(dir: &Path, threads: u32) {
    let out = tigadi()
        .args([
            "solve",
            "--max-pieces",
            "7",
            "--threads",
            &threads.to_string(),
            "--dir",
        ])
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "solve failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every table file of the `tigadi` rule set, by name, with its bytes.
fn tables(dir: &Path) -> Vec<(String, Vec<u8>)> {
    common::files_named(&dir.join("tigadi"), |name| {
        name.ends_with(".tgtb") || name.ends_with(".tghz")
    })
}

#[test]
fn output_is_independent_of_threads_and_survives_kill() {
    let tmp = std::env::temp_dir().join(format!("tigadi-resume-{}", std::process::id()));
    let (one, two, killed) = (tmp.join("one"), tmp.join("two"), tmp.join("killed"));
    let _ = fs::remove_dir_all(&tmp);
    solve(&one, 1);
    solve(&two, 2);
    let reference = tables(&one);
    assert_eq!(
        reference.len(),
        6,
        "3v3, 4v3 and 3v4, each with its 100-turn table"
    );
    assert!(
        reference == tables(&two),
        "files differ between 1 and 2 threads"
    );
    assert_eq!(
        fs::read(one.join("tigadi/SHA256SUMS")).unwrap(),
        fs::read(two.join("tigadi/SHA256SUMS")).unwrap()
    );

    // Kill a run as soon as its first table is on disk, then run it again.
    let mut child = tigadi()
        .args(["solve", "--max-pieces", "7", "--dir"])
        .arg(&killed)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let first = killed.join("tigadi/3v3.tgtb");
    let start = Instant::now();
    while !first.exists() && start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert!(first.exists(), "the first table never appeared");
    let out = tigadi()
        .args(["solve", "--max-pieces", "7", "--dir"])
        .arg(&killed)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("3v3: already solved"),
        "the finished pair was solved again:\n{stdout}"
    );
    assert!(
        reference == tables(&killed),
        "files differ after a killed and resumed run"
    );
    // No temporary files are left behind.
    for e in fs::read_dir(killed.join("tigadi")).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.contains("tmp"), "left over: {name}");
    }
    let _ = fs::remove_dir_all(&tmp);
}

/// The sample game shipped in `data/` replays to Bone's win by material.
#[test]
fn sample_game_in_data_replays_to_a_win() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/sample-game.txt");
    let out = tigadi()
        .args(["replay", "--json", "--file"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["result"]["state"], "win");
    assert_eq!(v["result"]["winner"], "bone");
    assert_eq!(v["moves"], 35);
}
