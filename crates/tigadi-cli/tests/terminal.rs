//! `solve`'s output as a person sees it in a terminal: run under a pseudo terminal
//! (`script`), its bytes replayed through a small terminal emulator, the final
//! screen must show the overall bar, at most two bars in all, and exactly one
//! summary line per pair (no stacked bars left behind).
//!
//! `TIGADI_PTY_MAX_PIECES` sets the size of the solve (7 by default, quick; the
//! issue's check is 9).

use crate::common;

use common::*;
use std::process::Command;

/// The screen a VT100-style terminal of `width` columns shows after `bytes`:
/// printable text, carriage return, line feed, cursor up/down (`ESC[nA`,
/// `ESC[nB`), erase line (`ESC[2K`, `ESC[K`) and erase below (`ESC[J`); other
/// escape sequences change nothing visible here. The screen keeps every row
/// (scrolled-off rows included), as a person scrolling back would see them.
fn screen(bytes: &[u8], width: usize) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    let mut rows: Vec<Vec<char>> = vec![Vec::new()];
    let (mut row, mut col) = (0usize, 0usize);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => col = 0,
            '\n' => {
                row += 1;
                col = 0;
            }
            '\x1b' => {
                if chars.peek() != Some(&'[') {
                    chars.next();
                    continue;
                }
                chars.next();
                let mut param = String::new();
                let mut command = ' ';
                for c in chars.by_ref() {
                    if c.is_ascii_alphabetic() {
                        command = c;
                        break;
                    }
                    param.push(c);
                }
                let n: usize = param.parse().unwrap_or(1).max(1);
                while rows.len() <= row {
                    rows.push(Vec::new());
                }
                match command {
                    'A' => row = row.saturating_sub(n),
                    'B' => row += n,
                    'K' if param == "2" => rows[row].clear(),
                    'K' => rows[row].truncate(col),
                    'J' => {
                        rows[row].truncate(col);
                        rows.truncate(row + 1);
                    }
                    _ => {}
                }
            }
            c if c.is_control() => {}
            c => {
                if col >= width {
                    row += 1;
                    col = 0;
                }
                while rows.len() <= row {
                    rows.push(Vec::new());
                }
                let r = &mut rows[row];
                while r.len() < col {
                    r.push(' ');
                }
                if col < r.len() {
                    r[col] = c;
                } else {
                    r.push(c);
                }
                col += 1;
            }
        }
    }
    rows.iter()
        .map(|r| r.iter().collect::<String>().trim_end().to_string())
        .filter(|r| !r.is_empty())
        .collect()
}

#[test]
fn emulator_replaces_and_clears_lines() {
    let s = screen(
        b"one\r\ntwo\x1b[1A\r\x1b[2Kuno\x1b[1B\r\x1b[2K\x1b[1Athree\n",
        80,
    );
    assert_eq!(s, ["three"]);
}

fn is_bar(line: &str) -> bool {
    line.contains(" [") && line.contains("] ") && line.contains('%')
}

/// Terminal width of the pseudo terminal: wide enough for the result lines of
/// the small sets solved here (the 100-turn line of 4v3+3v4 is 145 columns).
const WIDTH: usize = 160;

/// Runs `tigadi ARGS` in a pseudo terminal of [`WIDTH`] columns (through
/// `script`) and returns the screen it leaves and the raw bytes it wrote.
fn in_terminal(args: &str) -> (Vec<String>, String) {
    let inner = format!(
        "stty cols {WIDTH} rows 50; exec '{}' {args}",
        env!("CARGO_BIN_EXE_tigadi")
    );
    let out = Command::new("script")
        .args(["-q", "-e", "-c", &inner, "/dev/null"])
        .output()
        .expect("this test needs `script` (util-linux) for a pseudo terminal");
    let raw = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{args}:\n{raw}");
    (screen(&out.stdout, WIDTH), raw)
}

#[test]
fn solve_in_a_terminal_shows_two_bars_and_one_line_per_pair() {
    let max: u32 = std::env::var("TIGADI_PTY_MAX_PIECES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(7);
    let dir = scratch("pty");
    let (shown, raw) = in_terminal(&format!(
        "solve --max-pieces {max} --dir '{}'",
        dir.display()
    ));
    let text = shown.join("\n");

    let overall: Vec<&String> = shown
        .iter()
        .filter(|l| l.trim_start().starts_with("all ["))
        .collect();
    assert_eq!(overall.len(), 1, "one overall bar:\n{text}");
    assert!(
        overall[0].contains("100%") && overall[0].contains("elapsed"),
        "{text}"
    );
    let bars = shown.iter().filter(|l| is_bar(l)).count();
    assert!(bars <= 2, "{bars} bars left on the screen:\n{text}");
    let pairs = tigadi_solve::pairs_up_to(max);
    for p in &pairs {
        // One result line for the pair and one for its values under the
        // 100-turn rule.
        for prefix in [format!("{p}: "), format!("{p} (100-turn): ")] {
            let lines = shown.iter().filter(|l| l.starts_with(&prefix)).count();
            assert_eq!(lines, 1, "{prefix}:\n{text}");
        }
    }
    assert_eq!(
        shown.iter().filter(|l| l.starts_with("done in")).count(),
        1,
        "{text}"
    );
    assert_eq!(
        shown.len(),
        2 * pairs.len() + 1 + bars,
        "nothing else:\n{text}"
    );
    // The bars were live while it ran: the overall one counted slots and time left.
    assert!(raw.contains("left") && raw.contains(" round "), "{raw}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn verify_in_a_terminal_shows_two_bars_and_one_line_per_table() {
    let (shown, _) = in_terminal(&format!("verify --again --dir '{}'", solved7().display()));
    let text = shown.join("\n");
    assert!(shown.iter().filter(|l| is_bar(l)).count() <= 2, "{text}");
    for t in ["3v3", "4v3", "3v4"] {
        let n = shown
            .iter()
            .filter(|l| l.starts_with(&format!("{t}  ok")))
            .count();
        assert_eq!(n, 1, "{t}:\n{text}");
    }
    assert!(text.contains("all 3 tables good"), "{text}");
}

/// Off a terminal (stderr a file or a pipe, as for a run in the background)
/// no bar is drawn, but the same figures go to stderr as plain lines every
/// `TIGADI_PROGRESS_SECS` seconds, the share done never going back; `0`
/// turns them off, and a value that is not a number is named in a warning.
/// The result lines on standard output are the same either way.
#[test]
fn off_a_terminal_progress_is_plain_lines_on_stderr() {
    let solve = |secs: &str| {
        let dir = scratch(&format!("plain-{}", secs.replace('.', "_")));
        let out = tigadi()
            .args(["solve", "--max-pieces", "8", "--no-horizon", "--dir"])
            .arg(&dir)
            .env("TIGADI_PROGRESS_SECS", secs)
            .output()
            .expect("runs");
        assert!(out.status.success(), "{secs}: {out:?}");
        let _ = std::fs::remove_dir_all(&dir);
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        (text(&out.stdout), text(&out.stderr))
    };
    let (stdout, stderr) = solve("0.02");
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(lines.len() >= 3, "a line every 20 ms:\n{stderr}");
    let mut last = 0.0;
    for l in &lines {
        let rest = l
            .strip_prefix("tigadi: progress: ")
            .unwrap_or_else(|| panic!("not a progress line: {l}"));
        assert!(
            rest.contains(" slots done (") && rest.contains(" elapsed, "),
            "{l}"
        );
        let share: f64 = rest.split('%').next().unwrap().parse().expect("a share");
        assert!((last..=100.0).contains(&share), "{share} after {last}: {l}");
        last = share;
        // The time left, where known, is that of a run of seconds.
        if let Some(left) = rest.split("about ").nth(1) {
            let hours: u64 = left.split(':').next().unwrap().parse().expect("hours");
            assert_eq!(hours, 0, "{l}");
        }
    }
    assert!(!stdout.contains("progress"), "{stdout}");

    let (quiet_stdout, quiet_stderr) = solve("0");
    assert_eq!(quiet_stderr, "", "no progress lines with 0");
    let results = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| !l.starts_with("done in"))
            .map(|l| l.split(": ").next().unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(results(&stdout), results(&quiet_stdout));

    let (_, warned) = solve("soon");
    assert!(
        warned.contains("TIGADI_PROGRESS_SECS=\"soon\" is not a number of seconds"),
        "{warned}"
    );
}

/// The figures `(seconds, CPU s, peak GB)` of a line ending in `S s (C CPU
/// s, peak M GB)` or with `done in S s (C CPU s, peak M GB)`.
fn usage_of(line: &str) -> (f64, f64, f64) {
    let num = |s: &str| -> f64 {
        s.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{s:?} in {line}"))
    };
    let rest = line.split("done in ").nth(1).unwrap_or(line);
    let (secs, figures) = rest.split_once(" s (").expect("seconds");
    let secs = num(secs.rsplit(", ").next().unwrap());
    let (cpu, peak) = figures.split_once(" CPU s, peak ").expect("CPU and peak");
    (secs, num(cpu), num(peak.split(" GB").next().unwrap()))
}

/// `solve` and `verify` close with the whole run's time, CPU seconds and peak
/// memory: the solve's CPU covers its steps' (each line counts its own step),
/// its peak is at least each step's (each step restarts the kernel's peak).
#[test]
fn solve_and_verify_close_with_the_whole_runs_figures() {
    let dir = scratch("closing-line");
    let stdout = |args: &[&str]| {
        let out = tigadi()
            .args(args)
            .arg(&dir)
            .env("TIGADI_PROGRESS_SECS", "0")
            .output()
            .expect("runs");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let text = stdout(&["solve", "--max-pieces", "8", "--no-horizon", "--dir"]);
    let lines: Vec<&str> = text.lines().collect();
    let last = lines.last().expect("a closing line");
    assert!(
        last.starts_with("done in ") && last.contains("; tablebases in "),
        "{text}"
    );
    let (_, cpu, peak) = usage_of(last);
    let steps: Vec<(f64, f64, f64)> = lines
        .iter()
        .filter(|l| l.contains(" slots, ") && l.contains(" CPU s, peak "))
        .map(|l| usage_of(l))
        .collect();
    assert!(steps.len() >= 4, "{text}");
    let step_cpu: f64 = steps.iter().map(|s| s.1).sum();
    // Each figure is rounded to a tenth.
    assert!(
        cpu + 0.05 >= step_cpu - 0.05 * steps.len() as f64,
        "{cpu} < {step_cpu}:\n{text}"
    );
    for s in &steps {
        assert!(
            peak + 0.005 >= s.2,
            "peak {peak} below a step's {}:\n{text}",
            s.2
        );
    }
    let text = stdout(&["verify", "--again", "--dir"]);
    let last = text.lines().last().expect("a closing line");
    assert!(last.starts_with("done in "), "{text}");
    let (secs, cpu, peak) = usage_of(last);
    assert!(secs > 0.0 && cpu > 0.0 && peak > 0.0, "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
