//! Issue 14: what a hostile or careless user broke, each case run as the user ran
//! it (the binary, real files, /dev/full, FIFOs, a held lock).

use crate::common;

use common::*;
use std::fs;
use std::path::Path;
use std::process::Stdio;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `tigadi ARGS` with standard output on /dev/full (every write fails with
/// "no space left on device").
fn run_to_full(args: &[&str]) -> Run {
    let mut cmd = tigadi();
    cmd.args(args);
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = cmd
        .stdin(Stdio::null())
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    Run {
        code: out.status.code(),
        stdout: String::new(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        timed_out: false,
    }
}

fn assert_write_error(args: &[&str], r: &Run) {
    assert_eq!(r.code, Some(2), "{args:?}: {r:?}");
    assert!(
        r.stderr.contains("writing standard output") && !r.stderr.contains("panicked"),
        "{args:?}: {}",
        r.stderr
    );
}

// 1. A failed write to standard output is an error (exit 2), never a panic.
#[test]
fn every_command_reports_a_full_stdout() {
    let dir = solved7();
    let d = s(dir);
    let cases: Vec<Vec<&str>> = vec![
        vec!["show", P],
        vec!["show", "--json", P],
        vec!["moves", P],
        vec!["replay", "d5 g7"],
        vec!["perft", START, "1"],
        vec!["index-stats"],
        vec!["stats", "--dir", d],
        vec!["probe", "--dir", d, P],
        vec!["probe", "--json", "--dir", d, P],
        vec!["verify", "--dir", d],
    ];
    for args in cases {
        assert_write_error(&args, &run_to_full(&args));
    }
}

// 1. ... and `solve` loses no work to it: every table is written and good.
#[test]
fn solve_to_a_full_stdout_finishes_its_tables() {
    let dir = scratch("full-solve");
    let args = ["solve", "--max-pieces", "7", "--dir", s(&dir)];
    assert_write_error(&args, &run_to_full(&args));
    let r = run(&["verify", "--dir", s(&dir)]);
    assert_eq!(r.code, Some(0), "{r:?}");
    // Three game-theoretic tables and their three 100-turn tables.
    assert!(r.stdout.contains("all 6 tables good"), "{}", r.stdout);
    let _ = fs::remove_dir_all(&dir);
}

// 2. Absurd perft depths are refused; they used to overflow the stack.
#[test]
fn perft_refuses_absurd_depths() {
    for depth in ["25000", "33", "4294967295"] {
        let r = run(&["perft", P, depth]);
        assert_eq!(r.code, Some(2), "{depth}: {r:?}");
        assert!(r.stderr.contains("too deep"), "{}", r.stderr);
    }
    let r = run(&["perft", P, "2"]);
    assert_eq!(r.code, Some(0), "{r:?}");
}

// 3. A line of batch probe that is not UTF-8 gets its own error line; the lines
// after it are still answered.
#[test]
fn batch_probe_goes_on_after_a_non_utf8_line() {
    let mut input = Vec::new();
    input.extend_from_slice(P.as_bytes());
    input.extend_from_slice(b"\n\xff\xfe\n");
    input.extend_from_slice(P.as_bytes());
    input.extend_from_slice(b"\n");
    let mut cmd = tigadi();
    cmd.args(["probe", "--dir", s(solved7())]);
    let r = run_with(cmd, &input, LIMIT);
    let lines = json_lines(&r.stdout);
    assert_eq!(lines.len(), 3, "{r:?}");
    assert!(lines[0]["value"].is_string(), "{}", lines[0]);
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("line 2 is not valid UTF-8"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2], lines[0]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("1 of 3 positions"), "{}", r.stderr);
}

// 4. `--threads` is bounded.
#[test]
fn absurd_thread_counts_are_refused() {
    let dir = scratch("threads");
    for t in ["10000", "4294967296", "0"] {
        let r = run(&[
            "solve",
            "--max-pieces",
            "6",
            "--threads",
            t,
            "--dir",
            s(&dir),
        ]);
        assert_eq!(r.code, Some(2), "{t}: {r:?}");
        assert!(r.stderr.contains("--threads"), "{}", r.stderr);
    }
    assert!(!dir.join("tigadi").exists(), "nothing is solved");
    let _ = fs::remove_dir_all(&dir);
}

// 5. A FIFO, a directory or a symbolic-link loop under a table's name is named
// for what it is, and nothing blocks on it.
#[test]
fn odd_files_under_a_table_name_are_reported_not_waited_on() {
    let dir = copy_of_solved("odd-files");
    let t = dir.join("tigadi");
    let fifo = t.join("5v3.tgtb");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    // Far longer than a real run, so only a blocked reader hits it.
    let quick = LIMIT;
    let mut cmd = tigadi();
    cmd.args(["verify", "--dir", s(&dir)]);
    let r = run_with(cmd, b"", quick);
    assert!(!r.timed_out, "verify blocked on a FIFO");
    assert_eq!(r.code, Some(1), "{r:?}");
    assert!(
        r.stdout.contains("5v3  FAILED") && r.stdout.contains("named pipe"),
        "{}",
        r.stdout
    );
    let mut cmd = tigadi();
    cmd.args(["stats", "--dir", s(&dir)]);
    let r = run_with(cmd, b"", quick);
    assert!(!r.timed_out, "stats blocked on a FIFO");
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(r.stderr.contains("named pipe"), "{}", r.stderr);
    let mut cmd = tigadi();
    cmd.args(["solve", "--max-pieces", "7", "--dir", s(&dir)]);
    let r = run_with(cmd, b"", quick);
    assert!(!r.timed_out, "solve blocked on a FIFO");
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(
        r.stderr.contains("5v3.tgtb") && r.stderr.contains("named pipe"),
        "{}",
        r.stderr
    );

    // probe: a position of 5v3 (Bone to move with five, Seed three).
    let five_three = "BBB/S../.../...S../.../.B./SB. B";
    for (what, make) in [
        ("named pipe", None),
        ("a directory", Some("dir")),
        ("symbolic links", Some("loop")),
    ] {
        match make {
            Some("dir") => {
                fs::remove_file(&fifo).unwrap();
                fs::create_dir(&fifo).unwrap();
            }
            Some(_) => {
                fs::remove_dir(&fifo).unwrap();
                std::os::unix::fs::symlink("5v3.tgtb", &fifo).unwrap();
            }
            None => {}
        }
        let mut cmd = tigadi();
        cmd.args(["probe", "--dir", s(&dir), five_three]);
        let r = run_with(cmd, b"", quick);
        assert_eq!(r.code, Some(2), "{what}: {r:?}");
        assert!(
            r.stderr.contains(what) && !r.stderr.contains("no tablebase"),
            "{what}: {}",
            r.stderr
        );
    }
    let _ = fs::remove_dir_all(&dir);
}

// 6. A second solve into a directory that another process is writing refuses,
// naming that process; temporaries are removed only when their writer is gone.
#[test]
fn a_held_directory_is_refused_and_live_temporaries_are_kept() {
    let dir = scratch("lock");
    let rdir = dir.join("tigadi");
    let lock = tigadi_tablebase::DirLock::acquire(&rdir).unwrap();
    let r = run(&["solve", "--max-pieces", "6", "--dir", s(&dir)]);
    assert_eq!(r.code, Some(2), "{r:?}");
    let me = format!("process {}", std::process::id());
    assert!(r.stderr.contains(&me), "{}", r.stderr);
    assert!(!rdir.join("3v3.tgtb").exists());
    drop(lock);
    // A child that another test thread forked while the lock was held keeps a copy
    // of its descriptor, and with it the lock, until it executes its program (the
    // descriptor is close-on-exec); on a loaded machine that can outlast the drop.
    // Wait until the lock is free before the next solve needs it.
    let start = std::time::Instant::now();
    while tigadi_tablebase::DirLock::acquire(&rdir).is_err() {
        assert!(start.elapsed().as_secs() < 30, "the lock stays held");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }

    // A temporary of this (live) process and one of a process that cannot exist.
    let live = rdir.join(format!(".4v3.tgtb.tmp{}", std::process::id()));
    let dead = rdir.join(format!(".3v3.tgtb.tmp{}", i32::MAX));
    fs::write(&live, b"half").unwrap();
    fs::write(&dead, b"half").unwrap();
    let r = run(&["solve", "--max-pieces", "6", "--dir", s(&dir)]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(live.exists(), "a live writer's temporary was removed");
    assert!(!dead.exists(), "a dead writer's temporary was kept");
    let _ = fs::remove_dir_all(&dir);
}

// 7. A damaged manifest costs stats only the solve times; a damaged stray table
// beyond --max-pieces does not stop a solve.
#[test]
fn damaged_manifest_and_stray_tables_do_not_stop_stats_or_solve() {
    let dir = copy_of_solved("manifest");
    let t = dir.join("tigadi");
    fs::write(t.join("manifest.json"), b"{ not json").unwrap();
    let r = run(&["stats", "--dir", s(&dir)]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(
        r.stdout.contains("3v3") && r.stderr.contains("manifest"),
        "{r:?}"
    );

    fs::write(t.join("9v3.tgtb"), vec![7u8; 4096]).unwrap();
    let r = run(&["solve", "--max-pieces", "7", "--dir", s(&dir)]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(r.stderr.contains("9v3.tgtb"), "{}", r.stderr);
    let manifest = fs::read_to_string(t.join("manifest.json")).unwrap();
    let m: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(m["subspaces"].as_array().unwrap().len(), 3);
    assert!(m["skipped"][0].as_str().unwrap().starts_with("9v3.tgtb"));
    let _ = fs::remove_dir_all(&dir);
}

/// `SHA256SUMS` text `text` with the first digit of `file`'s hash changed.
fn forge_sum(text: &str, file: &str) -> String {
    let line = text.lines().find(|l| l.ends_with(file)).unwrap();
    let first = if line.starts_with('0') { "1" } else { "0" };
    text.replace(line, &format!("{first}{}", &line[1..]))
}

// 7. verify checks SHA256SUMS: a wrong hash or a listed file that is missing fails.
#[test]
fn verify_checks_sha256sums() {
    let dir = copy_of_solved("sums");
    let sums = dir.join("tigadi/SHA256SUMS");
    let text = fs::read_to_string(&sums).unwrap();
    let r = run(&["verify", "--dir", s(&dir)]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(r.stdout.contains("SHA256SUMS  ok  3 files"), "{}", r.stdout);

    // One hash changed: that table fails (sha256sum -c would too).
    fs::write(&sums, forge_sum(&text, "4v3.tgtb")).unwrap();
    let r = run(&["verify", "--dir", s(&dir)]);
    assert_eq!(r.code, Some(1), "{r:?}");
    assert!(
        r.stdout.contains("4v3  FAILED") && r.stdout.contains("SHA256SUMS"),
        "{}",
        r.stdout
    );

    // A listed file that is not there.
    fs::write(&sums, format!("{text}{}  5v3.tgtb\n", "ab".repeat(32))).unwrap();
    let r = run(&["verify", "--dir", s(&dir)]);
    assert_eq!(r.code, Some(1), "{r:?}");
    assert!(
        r.stdout.contains("5v3.tgtb is listed but not here"),
        "{}",
        r.stdout
    );
    let _ = fs::remove_dir_all(&dir);
}

// 7. A huge bad input is not repeated in full in the message.
#[test]
fn huge_bad_input_makes_a_short_message() {
    // 100 kB: one argument may hold at most 128 kB on Linux; the 1 MB token comes
    // through standard input below.
    let token = "x".repeat(100_000);
    let position = format!("{token} S");
    let rules = format!("lines={token}");
    let d = s(solved7());
    for args in [
        vec!["show", position.as_str()],
        vec!["probe", "--dir", d, position.as_str()],
        vec!["replay", token.as_str()],
        vec!["--rules", rules.as_str(), "show", P],
        vec!["--rules", token.as_str(), "show", P],
    ] {
        let r = run(&args);
        assert_eq!(
            r.code,
            Some(2),
            "{:?}",
            &r.stderr[..200.min(r.stderr.len())]
        );
        assert!(
            r.stderr.len() < 1000,
            "{} bytes: {}",
            r.stderr.len(),
            &r.stderr[..300]
        );
        assert!(
            r.stderr.contains("xxxx"),
            "the message still shows the input"
        );
    }
    let huge = "x".repeat(1 << 20);
    for args in [vec!["replay", "--file", "-"], vec!["probe", "--dir", d]] {
        let mut cmd = tigadi();
        cmd.args(&args);
        let r = run_with(cmd, format!("{huge}\n").as_bytes(), LIMIT);
        assert_eq!(r.code, Some(2), "{args:?}");
        assert!(r.stderr.len() < 1000, "{args:?}: {} bytes", r.stderr.len());
        assert!(
            r.stdout.len() < 1000,
            "{args:?}: {} bytes out",
            r.stdout.len()
        );
    }
}

// 7. A rule switch given twice is an error.
#[test]
fn a_switch_given_twice_is_refused() {
    for rules in [
        "lines=16,lines=20",
        "morris,flying=3,flying=never",
        "blocked=loses,blocked=loses",
    ] {
        let r = run(&["--rules", rules, "show", P]);
        assert_eq!(r.code, Some(2), "{rules}: {r:?}");
        assert!(r.stderr.contains("given twice"), "{}", r.stderr);
    }
}

// 7. A position whose game is over (100 quiet turns) is answered as over, as
// `moves` says, not with the tablebase's value of the board.
#[test]
fn probe_answers_a_finished_game_as_over() {
    let d = s(solved7());
    for counter in [99, 100] {
        let pos = format!("{P} 0 0 {counter}");
        let moves = run(&["moves", "--json", &pos]);
        let m: serde_json::Value = serde_json::from_str(&moves.stdout).unwrap();
        let probe = run(&["probe", "--json", "--dir", d, &pos]);
        assert_eq!(probe.code, Some(0), "{probe:?}");
        let p: serde_json::Value = serde_json::from_str(&probe.stdout).unwrap();
        if m["result"]["state"] == "in_progress" {
            assert!(p.get("game_over").is_none(), "{p}");
            assert_eq!(
                p["moves"].as_array().unwrap().len(),
                m["count"].as_u64().unwrap() as usize
            );
        } else {
            assert_eq!(p["game_over"], m["result"], "{p}");
            assert_eq!(p["value"], m["result"]["state"], "{p}");
            assert_eq!(p["moves"].as_array().unwrap().len(), 0);
        }
    }
    let r = run(&["probe", "--dir", d, &format!("{P} 0 0 100")]);
    assert!(r.stdout.contains("game over"), "{}", r.stdout);
}

// 8. The rules are in the repository, and every reference points there.
#[test]
fn the_rules_document_is_in_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let rules = fs::read_to_string(root.join("docs/RULES.md")).expect("docs/RULES.md");
    for section in 1..=9 {
        assert!(
            rules.contains(&format!("\n## {section}. ")),
            "§{section} missing"
        );
    }
    let mut files = vec![root.join("README.md")];
    let mut dirs = vec![root.join("crates"), root.join("docs"), root.join("data")];
    while let Some(d) = dirs.pop() {
        for e in fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs" || x == "md") {
                files.push(p);
            }
        }
    }
    // This file spells the patterns out; it is the one exception.
    files.retain(|f| !f.ends_with("tests/hardening.rs"));
    assert!(files.len() > 20, "the walk found the sources");
    for f in files {
        let text = fs::read_to_string(&f).unwrap();
        assert!(
            !text.contains("shared/RULES"),
            "{} cites the rules outside the repository",
            f.display()
        );
        for (i, _) in text.match_indices("RULES.md") {
            let before = &text[..i];
            assert!(
                before.ends_with("docs/")
                    || before.ends_with("CLI-")
                    || f.ends_with("docs/RULES.md"),
                "{}: a reference that is not docs/RULES.md",
                f.display()
            );
        }
    }
}

/// Where captures from subspace (m, o) lead: (o - 1, m), while o - 1 is at least
/// three (docs/RULES.md §5 and §6, as the file format names subspaces).
fn capture_target(m: u8, o: u8) -> Option<(u8, u8)> {
    (o > 3).then(|| (o - 1, m))
}

/// Subspaces of the table files in a rule set's directory.
fn table_files(dir: &Path) -> std::collections::BTreeSet<String> {
    fs::read_dir(dir.join("tigadi"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tgtb"))
        .collect()
}

// Issue 8: `solve --subspace` solves that pair and what its captures need, nothing
// else.
#[test]
fn solve_subspace_solves_exactly_what_it_needs() {
    // Expectation, naively: close {4v4} under "a pair is both (m,o) and (o,m)" and
    // "a capture from (m,o) leads to (o-1,m)", using the solver's plan as a check.
    let mut want: Vec<(u8, u8)> = vec![(4, 4)];
    let mut i = 0;
    while i < want.len() {
        let (m, o) = want[i];
        for next in [Some((o, m)), capture_target(m, o)].into_iter().flatten() {
            if !want.contains(&next) {
                want.push(next);
            }
        }
        i += 1;
    }
    let pair = tigadi_solve::Pair::of(tigadi_index::Subspace::new(4, 4));
    for t in pair.capture_targets() {
        assert!(want.contains(&(t.mover, t.opponent)), "{t}");
    }
    let want: std::collections::BTreeSet<String> =
        want.iter().map(|(m, o)| format!("{m}v{o}.tgtb")).collect();
    assert!(
        !want.contains("5v3.tgtb"),
        "5v3 has 8 gotis too but is not needed"
    );

    let dir = scratch("subspace");
    let r = run(&["solve", "--subspace", "4v4", "--dir", s(&dir)]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert_eq!(table_files(&dir), want);
    let r = run(&["verify", "--dir", s(&dir)]);
    assert_eq!(r.code, Some(0), "{r:?}");
    for bad in ["10v3", "4v2", "44", "v", "4v4v4", "+4v4"] {
        let r = run(&["solve", "--subspace", bad, "--dir", s(&dir)]);
        assert_eq!(r.code, Some(2), "{bad}: {r:?}");
        assert!(r.stderr.contains("--subspace"), "{}", r.stderr);
    }
    let r = run(&[
        "solve",
        "--subspace",
        "4v4",
        "--max-pieces",
        "8",
        "--dir",
        s(&dir),
    ]);
    assert_eq!(r.code, Some(2), "{r:?}");
    let _ = fs::remove_dir_all(&dir);
}

fn earlier(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|l| l.contains("passed an earlier run"))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

fn fresh(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|l| l.contains("  ok  ") && l.contains("positions") && !l.contains("earlier"))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

// Issue 8: verify resumes: tables that passed and are unchanged (with every file
// their check reads) are not recomputed; a changed one is.
#[test]
fn verify_resumes_and_rechecks_what_changed() {
    let dir = copy_of_solved("verify-resume");
    let journal = dir.join("tigadi/verified.json");
    let r = run(&["verify", "--dir", s(&dir)]);
    assert_eq!(r.code, Some(0), "{r:?}");
    // In the job's order: a step after those its moves lead into, a pair's
    // greater tier first.
    assert_eq!(fresh(&r.stdout), ["3v3", "4v3", "3v4"], "{}", r.stdout);
    assert!(journal.exists());

    let r = run(&["verify", "--dir", s(&dir)]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert_eq!(earlier(&r.stdout), ["3v3", "4v3", "3v4"], "{}", r.stdout);
    assert!(r.stdout.contains("all 3 tables good"), "{}", r.stdout);

    // Interrupted after its first table: only that one is in the journal.
    let mut j: serde_json::Value = serde_json::from_slice(&fs::read(&journal).unwrap()).unwrap();
    let passed = j["passed"].as_object_mut().unwrap();
    passed.retain(|name, _| name == "3v3.tgtb");
    fs::write(&journal, serde_json::to_vec(&j).unwrap()).unwrap();
    let r = run(&["verify", "--dir", s(&dir)]);
    assert_eq!(earlier(&r.stdout), ["3v3"], "{}", r.stdout);
    assert_eq!(fresh(&r.stdout), ["4v3", "3v4"], "{}", r.stdout);

    // 3v3 "changed" since (its recorded hash differs): 3v3 and every table whose
    // check reads it are verified again.
    let mut j: serde_json::Value = serde_json::from_slice(&fs::read(&journal).unwrap()).unwrap();
    for (_, entry) in j["passed"].as_object_mut().unwrap() {
        if let Some(h) = entry["files"].get_mut("3v3.tgtb") {
            *h = serde_json::Value::String("0".repeat(64));
        }
    }
    fs::write(&journal, serde_json::to_vec(&j).unwrap()).unwrap();
    let r = run(&["verify", "--dir", s(&dir)]);
    let mut reads_3v3 = vec!["3v3".to_string()];
    for (m, o) in [(4u8, 3u8), (3, 4)] {
        if capture_target(m, o) == Some((3, 3)) {
            reads_3v3.push(format!("{m}v{o}"));
        }
    }
    reads_3v3.sort();
    assert_eq!(fresh(&r.stdout), reads_3v3, "{}", r.stdout);

    // --again recomputes everything; a damaged journal is ignored.
    let r = run(&["verify", "--again", "--dir", s(&dir)]);
    assert_eq!(fresh(&r.stdout).len(), 3, "{}", r.stdout);
    fs::write(&journal, b"{{{").unwrap();
    let r = run(&["verify", "--dir", s(&dir)]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert_eq!(fresh(&r.stdout).len(), 3, "{}", r.stdout);
    let _ = fs::remove_dir_all(&dir);
}

// Issue 26, 5. An endless line on standard input (`< /dev/zero`) cannot fill
// memory: batch probe answers it with an error line and goes on, play stops, and
// analyze refuses a record past 1 MiB.

/// Bytes of the long line the tests send: far more than any line may hold.
const LONG_LINE: usize = 50_000_000;

/// Peak memory allowed while reading it: the command's own few megabytes, far
/// below what holding the line would take.
const MEMORY_BOUND: u64 = 32 << 20;

/// Runs `tigadi ARGS` with `before`, then [`LONG_LINE`] zero bytes with no
/// newline (written as they are read, never held whole), then `after` on standard
/// input. Returns the run and the child's peak resident memory in bytes.
fn run_with_long_line(args: &[&str], before: &[u8], after: &[u8]) -> (Run, u64) {
    use std::io::{Read, Write};
    // Reaped by wait4 below.
    #[allow(clippy::zombie_processes)]
    let mut child = tigadi()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let (before, after) = (before.to_vec(), after.to_vec());
    let feeder = std::thread::spawn(move || {
        let chunk = vec![0u8; 1 << 16];
        let _ = input.write_all(&before);
        for _ in 0..LONG_LINE / chunk.len() {
            if input.write_all(&chunk).is_err() {
                return;
            }
        }
        let _ = input.write_all(&chunk[..LONG_LINE % chunk.len()]);
        let _ = input.write_all(&after);
    });
    let read_all = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = r.read_to_end(&mut s);
            String::from_utf8_lossy(&s).into_owned()
        })
    };
    let out = read_all(Box::new(child.stdout.take().unwrap()));
    let err = read_all(Box::new(child.stderr.take().unwrap()));
    // wait4 rather than Child::wait: it also gives this child's peak memory.
    let (mut status, mut usage) = (0, unsafe { std::mem::zeroed::<libc::rusage>() });
    // SAFETY: waits for our own child; status and usage are valid to write.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32);
    let _ = feeder.join();
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    let run = Run {
        code,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        timed_out: false,
    };
    // ru_maxrss is in kilobytes on Linux.
    (run, usage.ru_maxrss as u64 * 1024)
}

#[test]
fn batch_probe_answers_an_endless_line_with_an_error_and_goes_on() {
    let line = format!("{P}\n");
    let (r, peak) = run_with_long_line(
        &["probe", "--dir", s(solved7())],
        line.as_bytes(),
        format!("\n{line}").as_bytes(),
    );
    assert!(peak < MEMORY_BOUND, "peak memory {peak} bytes: {r:?}");
    let lines = json_lines(&r.stdout);
    assert_eq!(lines.len(), 3, "{r:?}");
    assert!(lines[0]["value"].is_string(), "{}", lines[0]);
    let error = lines[1]["error"].as_str().unwrap();
    assert!(
        error.contains("line 2 is longer than 4096 bytes"),
        "{error}"
    );
    assert_eq!(lines[2], lines[0]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("1 of 3 positions"), "{}", r.stderr);
}

#[test]
fn play_stops_cleanly_at_an_endless_line() {
    let (r, peak) = run_with_long_line(&["play", "--dir", s(solved7())], b"", b"\nquit\n");
    assert!(peak < MEMORY_BOUND, "peak memory {peak} bytes: {r:?}");
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(
        r.stderr.contains("longer than 4096 bytes") && !r.stderr.contains("panicked"),
        "{}",
        r.stderr
    );
}

#[test]
fn analyze_refuses_an_endless_record() {
    let (r, peak) = run_with_long_line(
        &["analyze", "--dir", s(solved7()), "--file", "-"],
        b"d5 g7 ",
        b"\n",
    );
    assert!(peak < MEMORY_BOUND, "peak memory {peak} bytes: {r:?}");
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(
        r.stderr
            .contains("standard input: longer than 1048576 bytes"),
        "{}",
        r.stderr
    );
}

// 7. `verify --table` checks the named tables alone, SHA256SUMS for them only;
// a name no table has, or a table that is not here, is an error (exit 2).
#[test]
fn verify_checks_the_named_tables_alone() {
    let dir = copy_of_solved("one-table");
    let sums = dir.join("tigadi/SHA256SUMS");
    let text = fs::read_to_string(&sums).unwrap();
    // Another table's hash forged: the named table's verify does not see it.
    fs::write(&sums, forge_sum(&text, "3v3.tgtb")).unwrap();
    let r = run(&["verify", "--dir", s(&dir), "--table", "4v3.tgtb"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(
        r.stdout.contains("4v3  ok")
            && !r.stdout.contains("3v4")
            && r.stdout.contains("SHA256SUMS  ok  1 files")
            && r.stdout.contains("all 1 tables good"),
        "{}",
        r.stdout
    );
    let r = run(&["verify", "--dir", s(&dir), "--table", "3v3.tgtb"]);
    assert_eq!(r.code, Some(1), "{r:?}");
    assert!(r.stdout.contains("3v3  FAILED"), "{}", r.stdout);
    for (name, says) in [
        ("9v9.tgtb", "there is no table 9v9.tgtb here"),
        ("4v3", "no table of tigadi is named \"4v3\""),
        ("../4v3.tgtb", "no table of tigadi is named"),
    ] {
        let r = run(&["verify", "--dir", s(&dir), "--table", name]);
        assert_eq!(r.code, Some(2), "{name}: {r:?}");
        assert!(
            r.stderr.contains(says) && !r.stderr.contains("panicked"),
            "{name}: {}",
            r.stderr
        );
    }
    let _ = fs::remove_dir_all(&dir);
}
