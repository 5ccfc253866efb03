//! `tigadi solve` end to end: the files (game-theoretic and horizon tables) do not
//! depend on the thread count, and a run
//! killed with SIGKILL part-way and started again finishes with byte-identical
//! files.

use crate::common;

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
    let tmp = common::scratch("resume");
    let (one, two, killed) = (tmp.join("one"), tmp.join("two"), tmp.join("killed"));
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
    assert_no_temporaries(&killed, "killed");
}

/// No temporary file is left in the `tigadi` directory under `dir` (`what`
/// names the run in the message).
fn assert_no_temporaries(dir: &Path, what: &str) {
    for e in fs::read_dir(dir.join("tigadi")).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.contains("tmp"), "{what}: left over: {name}");
    }
}

/// `solve --max-pieces 7 --dir DIR` with `extra` arguments.
fn solve7(dir: &Path, extra: &[&str]) -> std::process::Output {
    tigadi()
        .args(["solve", "--max-pieces", "7", "--dir"])
        .arg(dir)
        .args(extra)
        .output()
        .unwrap()
}

/// A run resumed in `dir` (which holds the tables `written`) without being told
/// its encoding writes the same bytes again, also with its manifest damaged
/// (then the encoding comes from the tables' own headers).
fn resumes_to_the_same_bytes(dir: &Path, written: &[(String, Vec<u8>)]) {
    fs::remove_file(dir.join("tigadi/4v3.tgtb")).unwrap();
    fs::remove_file(dir.join("tigadi/4v3.tghz")).unwrap();
    assert!(solve7(dir, &[]).status.success());
    assert!(written == tables(dir), "a resumed run changed the bytes");
    fs::write(dir.join("tigadi/manifest.json"), b"{ not json").unwrap();
    fs::remove_file(dir.join("tigadi/3v4.tgtb")).unwrap();
    fs::remove_file(dir.join("tigadi/3v4.tghz")).unwrap();
    assert!(solve7(dir, &[]).status.success());
    assert!(
        written == tables(dir),
        "a run resumed without a readable manifest changed the bytes"
    );
}

/// `solve --compression`: the levels go into the new directory's manifest and
/// into every file it writes; a resumed run keeps them without being told (the
/// same bytes, also when the manifest is damaged: the tables record them too),
/// asking for other levels there is an error, and the tables hold
/// the same values as at the default levels.
#[test]
fn compression_levels_belong_to_the_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let (fast, plain) = (tmp.path().join("fast"), tmp.path().join("plain"));
    assert!(solve7(&fast, &["--compression", "2,4"]).status.success());
    assert!(solve7(&plain, &[]).status.success());
    let manifest = fs::read_to_string(fast.join("tigadi/manifest.json")).unwrap();
    assert!(
        manifest.contains("\"wdl_zstd_level\": 2") && manifest.contains("\"dtc_zstd_level\": 4"),
        "{manifest}"
    );
    let written = tables(&fast);
    for (name, _) in &written {
        let t = tigadi_tablebase::Table::open(&fast.join("tigadi").join(name)).unwrap();
        assert_eq!(
            (t.header().wdl.level, t.header().dtc.level),
            (2, 4),
            "{name}"
        );
        let p = tigadi_tablebase::Table::open(&plain.join("tigadi").join(name)).unwrap();
        let default = tigadi_tablebase::ZstdLevels::DEFAULT;
        assert_eq!(
            (p.header().wdl.level as i32, p.header().dtc.level as i32),
            (default.wdl, default.dtc),
            "{name}"
        );
        assert!(
            t.values().unwrap() == p.values().unwrap(),
            "{name}: values differ"
        );
    }
    assert!(
        written != tables(&plain),
        "levels 2,4 wrote the same bytes as the default levels"
    );
    resumes_to_the_same_bytes(&fast, &written);
    // Other levels for a directory already started: exit 2, nothing written.
    let out = solve7(&fast, &["--compression", "small"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("started with levels 2,4"), "{err}");
    for bad in ["0,3", "3,20", "9", "fast,", "x,y", "smallest"] {
        let out = solve7(&tmp.path().join("bad"), &["--compression", bad]);
        assert_eq!(out.status.code(), Some(2), "--compression {bad}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("--compression"),
            "--compression {bad}"
        );
    }
    assert!(
        !tmp.path().join("bad").exists(),
        "a rejected run made its directory"
    );
}

/// `solve --block-kib`: every table of the new directory is the default
/// solve's table rewritten with blocks of that size (`reblock`, which reads the
/// values back and encodes them again), byte for byte; the size goes into the
/// manifest beside the levels asked for with it, a resumed run keeps it
/// without being told (also from the tables when the manifest is damaged), and
/// another size or one that is no power of two from 1 to 1024 KiB is an error.
#[test]
fn block_size_belongs_to_the_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let (small, plain) = (tmp.path().join("small"), tmp.path().join("plain"));
    let out = solve7(&small, &["--block-kib", "4", "--compression", "2,4"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(solve7(&plain, &["--compression", "2,4"]).status.success());
    let manifest = fs::read_to_string(small.join("tigadi/manifest.json")).unwrap();
    for setting in [
        "\"wdl_slots_per_block\": 16384",
        "\"dtc_slots_per_block\": 2048",
        "\"wdl_zstd_level\": 2",
        "\"dtc_zstd_level\": 4",
    ] {
        assert!(manifest.contains(setting), "{setting}: {manifest}");
    }
    let written = tables(&small);
    assert_eq!(written.len(), tables(&plain).len());
    for (name, bytes) in &written {
        let p = tigadi_tablebase::Table::open(&plain.join("tigadi").join(name)).unwrap();
        assert!(
            &tigadi_tablebase::reblock(&p, 4096).unwrap() == bytes,
            "{name}: not the default table in 4 KiB blocks"
        );
    }
    resumes_to_the_same_bytes(&small, &written);
    let out = solve7(&small, &["--block-kib", "16"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("started with blocks of 4 KiB"), "{err}");
    for bad in ["0", "3", "2048", "x"] {
        let out = solve7(&tmp.path().join("bad"), &["--block-kib", bad]);
        assert_eq!(out.status.code(), Some(2), "--block-kib {bad}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("--block-kib"),
            "--block-kib {bad}"
        );
    }
    assert!(
        !tmp.path().join("bad").exists(),
        "a rejected run made its directory"
    );
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

/// `solve --memory`: on `lasker,pieces=3` the steps in hand find their game
/// and 100-turn values together within the default and one after the other
/// with `--memory 0`, which the lines say, into the same bytes; a limit that
/// is not a number of GB is refused before anything is written.
#[test]
fn solve_memory_chooses_how_and_not_what() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&str]| {
        let out = tigadi()
            .args(["--rules", "lasker,pieces=3", "solve"])
            .args(extra)
            .arg("--dir")
            .arg(tmp.path().join(name))
            .output()
            .unwrap();
        let said = [out.stdout, out.stderr].concat();
        (
            out.status.code(),
            String::from_utf8_lossy(&said).to_string(),
        )
    };
    let (code, log) = run("default", &[]);
    assert_eq!(code, Some(0), "{log}");
    assert!(log.contains("found with the game values"), "{log}");
    let (code, log) = run("apart", &["--memory", "0"]);
    assert_eq!(code, Some(0), "{log}");
    assert!(!log.contains("found with the game values"), "{log}");
    assert!(
        log.contains(" CPU s, peak ") || log.contains(" CPU s)"),
        "{log}"
    );
    let tables = |name: &str| {
        // The one directory of the rule set's tables inside `name`.
        let dir = fs::read_dir(tmp.path().join(name)).unwrap();
        let dirs: Vec<_> = dir
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir())
            .collect();
        assert_eq!(dirs.len(), 1, "{dirs:?}");
        common::files_named(&dirs[0], |n| n.ends_with(".tgtb") || n.ends_with(".tghz"))
    };
    let written = tables("default");
    assert!(written.len() > 10, "{} tables", written.len());
    assert!(written == tables("apart"), "the tables differ");
    for bad in ["-1", "x", "nan", "1e7", ""] {
        let (code, err) = run("bad", &[&format!("--memory={bad}")]);
        assert_eq!(code, Some(2), "--memory {bad:?}: {err}");
        assert!(err.contains("--memory"), "--memory {bad:?}: {err}");
    }
    assert!(
        !tmp.path().join("bad").exists(),
        "a rejected run made its directory"
    );
}

/// The step during which [`solve8_signalled`] sends its signals: its third,
/// which takes about a second on a 2-core machine.
#[cfg(unix)]
const SIGNALLED_STEP: &str = "5v3+3v5";

/// `solve --max-pieces 8 --dir DIR` (every kind's tables of the subspaces up
/// to 8 gotis), not yet run.
#[cfg(unix)]
fn solve8(dir: &Path) -> Command {
    let mut solve = tigadi();
    solve.args(["solve", "--max-pieces", "8", "--dir"]).arg(dir);
    solve
}

/// [`solve8`], signalled with `signals` while it solves [`SIGNALLED_STEP`]
/// ([`signalled`]).
#[cfg(unix)]
fn solve8_signalled(dir: &Path, signals: &[&str]) -> (std::process::ExitStatus, Vec<String>) {
    signalled(solve8(dir), SIGNALLED_STEP, signals)
}

/// Runs `command`, its plain progress lines read as they come (one every 10
/// ms): `signals` (`INT` or `TERM`) are sent 50 ms apart as soon
/// as one says that `now` (a step, `5v3+3v5`, or `verify 5v3`) is in progress,
/// so that they arrive after the command has begun it. Returns how the run
/// ended and the lines it printed on standard output.
#[cfg(unix)]
fn signalled(
    mut command: Command,
    now: &str,
    signals: &[&str],
) -> (std::process::ExitStatus, Vec<String>) {
    use std::io::{BufRead, Read};
    let mut child = command
        .env("TIGADI_PROGRESS_SECS", "0.01")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        stdout.read_to_string(&mut s).unwrap();
        s
    });
    let now = format!("; now {now} ");
    let mut sent = false;
    for line in std::io::BufReader::new(child.stderr.take().unwrap()).lines() {
        if sent || !line.unwrap().contains(&now) {
            continue;
        }
        sent = true;
        for (i, signal) in signals.iter().enumerate() {
            if i > 0 {
                std::thread::sleep(Duration::from_millis(50));
            }
            let number = match *signal {
                "INT" => libc::SIGINT,
                "TERM" => libc::SIGTERM,
                other => panic!("no signal {other} here"),
            };
            // SAFETY: sends a signal to the child, which is still ours (not
            // yet waited for).
            let rc = unsafe { libc::kill(child.id() as libc::pid_t, number) };
            assert_eq!(rc, 0, "kill -{signal}");
        }
    }
    assert!(sent, "no progress line said{now}");
    let lines = reader.join().unwrap().lines().map(String::from).collect();
    (child.wait().unwrap(), lines)
}

/// The names of the steps whose result lines `lines` hold (`4v3+3v4`, `3v3
/// (100-turn)`), "already solved" lines left out.
fn solved_steps(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.contains(" slots"))
        .filter_map(|l| l.split_once(": ").map(|(step, _)| step.to_string()))
        .collect()
}

/// Ctrl-C or SIGTERM during `solve`: the run finishes the step in progress,
/// waits for every table solved to be written and listed, says where it
/// stopped and exits with 128 plus the signal's number; started again, it solves
/// none of those steps again and ends with the uninterrupted run's bytes. A
/// second signal ends the run at once (the signal's own death), and the run
/// still resumes to the same bytes. `verify` stops after the table in
/// progress, and its next run recomputes none of the tables that passed.
#[cfg(unix)]
#[test]
fn a_signal_stops_solve_and_verify_between_steps_and_a_second_at_once() {
    use std::os::unix::process::ExitStatusExt;
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    let out = solve8(&whole).output().unwrap();
    assert!(out.status.success());
    let reference = tables(&whole);
    let all_steps = solved_steps(
        &String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(String::from)
            .collect::<Vec<_>>(),
    );
    for (signal, code) in [("INT", 130), ("TERM", 143)] {
        let dir = tmp.path().join(signal);
        let (status, lines) = solve8_signalled(&dir, &[signal]);
        assert_eq!(status.code(), Some(code), "{signal}: {lines:#?}");
        let solved = solved_steps(&lines);
        assert_eq!(
            solved.last(),
            Some(&SIGNALLED_STEP.to_string()),
            "{signal}: the step in progress was not finished, or another begun: {lines:#?}"
        );
        assert!(solved.len() < all_steps.len(), "{signal}: it never stopped");
        let last = lines.last().unwrap();
        assert!(
            last.starts_with("stopped by ")
                && last.contains(&format!(" before {}:", all_steps[solved.len()])),
            "{signal}: {last}"
        );
        assert_no_temporaries(&dir, signal);
        let again = solve8(&dir).output().unwrap();
        assert!(again.status.success(), "{signal}: the resumed run failed");
        let again = String::from_utf8_lossy(&again.stdout);
        for step in &solved {
            assert!(
                again.contains(&format!("{step}: already solved")),
                "{signal}: {step} was solved again:\n{again}"
            );
        }
        assert!(
            reference == tables(&dir),
            "{signal}: files differ on resume"
        );
    }
    let dir = tmp.path().join("twice");
    let (status, lines) = solve8_signalled(&dir, &["INT", "INT"]);
    assert_eq!(status.signal(), Some(2), "{lines:#?}");
    let out = solve8(&dir).output().unwrap();
    assert!(out.status.success());
    assert!(reference == tables(&dir), "files differ on resume");

    // `verify` stops the same way, after the table in progress, and its next
    // run recomputes none of the tables that passed.
    let mut verify = tigadi();
    verify.arg("verify").arg("--dir").arg(&whole);
    let (status, lines) = signalled(verify, "verify 5v3", &["INT"]);
    assert_eq!(status.code(), Some(130), "{lines:#?}");
    let passed: Vec<&str> = lines
        .iter()
        .filter(|l| l.contains("  ok  "))
        .map(|l| l.split_once("  ").unwrap().0)
        .collect();
    assert!(passed.contains(&"5v3"), "5v3 was not finished: {lines:#?}");
    assert!(
        passed.len() < reference.len(),
        "it never stopped: {lines:#?}"
    );
    assert!(
        lines
            .last()
            .unwrap()
            .contains(": stopped by Ctrl-C (SIGINT) before "),
        "{lines:#?}"
    );
    let again = tigadi()
        .arg("verify")
        .arg("--dir")
        .arg(&whole)
        .output()
        .unwrap();
    assert!(again.status.success());
    let again = String::from_utf8_lossy(&again.stdout);
    for table in &passed {
        let earlier = format!("{table}  ok  ");
        assert!(
            again.lines().any(|l| l.starts_with(&earlier)
                && l.ends_with("(passed an earlier run; unchanged since)")),
            "{table} was checked again:\n{again}"
        );
    }
    assert!(
        again.contains(&format!("all {} tables good", reference.len())),
        "{again}"
    );
}

/// A solve that runs out of room (here a limit on a file's size, `ulimit -f`,
/// whose failed write, EFBIG, stands for a full disk's ENOSPC) says so and how
/// to go on, exit 2, no panic, leaves no temporary file, keeps every step it
/// wrote before and, run again with room, ends with the bytes of a run that
/// never ran short.
#[cfg(unix)]
#[test]
fn a_solve_out_of_room_says_so_and_resumes_to_the_same_bytes() {
    use std::os::unix::process::CommandExt;
    let tmp = tempfile::tempdir().unwrap();
    let (whole, short) = (tmp.path().join("whole"), tmp.path().join("short"));
    solve(&whole, 2);
    let reference = tables(&whole);
    // 3v3's tables fit in 200 KiB, 4v3's do not.
    let small = 200 * 1024;
    assert!(reference
        .iter()
        .any(|(n, b)| n == "3v3.tgtb" && b.len() < small));
    assert!(reference
        .iter()
        .any(|(n, b)| n == "4v3.tgtb" && b.len() > small));
    let mut cmd = tigadi();
    cmd.args(["solve", "--max-pieces", "7", "--dir"])
        .arg(&short);
    // SAFETY: between fork and exec only these two async-signal-safe calls.
    unsafe {
        cmd.pre_exec(move || {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let limit = libc::rlimit {
                rlim_cur: small as libc::rlim_t,
                rlim_max: small as libc::rlim_t,
            };
            match libc::setrlimit(libc::RLIMIT_FSIZE, &limit) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("File too large")
            && stderr.contains("no room for the tables of the step in progress")
            && stderr.contains("free space and run the same command again")
            && !stderr.contains("panicked"),
        "{stderr}"
    );
    assert_no_temporaries(&short, "short");
    assert!(
        fs::read_to_string(short.join("tigadi/SHA256SUMS"))
            .unwrap()
            .contains("  3v3.tgtb"),
        "the step written before was not kept"
    );
    let again = solve7(&short, &[]);
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stdout).contains("3v3: already solved"));
    assert!(reference == tables(&short), "files differ on resume");
}
