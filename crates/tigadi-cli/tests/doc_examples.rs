//! The README's and docs/USAGE.md's examples, run: so an example can no longer
//! drift from the program.
//!
//! - **The first run**: the README's main job (its `sh` block after "**Main job**",
//!   `cargo run --release -p tigadi-cli --` standing for the binary) in an empty
//!   directory, then every command of its tour table there, none of which may say
//!   "not judged", "no table" or "unknown", nor search where the tables should
//!   answer; `serve` answers the explorer's empty board with values.
//! - **Every shown output**: in README.md and docs/USAGE.md, each line `$ tigadi …`
//!   of a fenced block without a language is run (in a directory whose
//!   `tablebases` holds the main job's tables and whose `data` is the repository's)
//!   and its standard output and error compared with the lines below it, up to the
//!   next `$ ` line; a line `...` stands for any number of lines.

use crate::common;

use common::http::{enc, Server};
use common::{run_with, solved_pieces4, tigadi, LIMIT};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(doc: &str) -> String {
    std::fs::read_to_string(repo().join(doc)).unwrap_or_else(|e| panic!("{doc}: {e}"))
}

/// Splits a command line as a POSIX shell would for the quoting the docs use:
/// words separated by spaces, `"…"` and `'…'` quoting.
fn words(line: &str) -> Vec<String> {
    let (mut out, mut word, mut quote, mut started) = (Vec::new(), String::new(), None, false);
    for c in line.chars() {
        match (quote, c) {
            (None, '"' | '\'') => (quote, started) = (Some(c), true),
            (Some(q), c) if c == q => quote = None,
            (None, ' ') => {
                if started {
                    out.push(std::mem::take(&mut word));
                }
                started = false;
            }
            (_, c) => {
                word.push(c);
                started = true;
            }
        }
    }
    assert!(quote.is_none(), "unclosed quote in {line}");
    if started {
        out.push(word);
    }
    out
}

/// The fenced blocks of a Markdown text: (info string, lines).
fn blocks(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut open: Option<(String, Vec<String>)> = None;
    for line in text.lines() {
        if let Some(info) = line.strip_prefix("```") {
            match open.take() {
                Some(b) => out.push(b),
                None => open = Some((info.trim().to_string(), Vec::new())),
            }
        } else if let Some((_, lines)) = open.as_mut() {
            lines.push(line.to_string());
        }
    }
    assert!(open.is_none(), "an unclosed fence");
    out
}

/// The examples with output of a Markdown text: (command line, expected lines).
fn examples(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for (info, lines) in blocks(text) {
        if !info.is_empty() {
            continue;
        }
        for line in lines {
            if let Some(cmd) = line.strip_prefix("$ ") {
                out.push((cmd.to_string(), Vec::new()));
            } else if let Some((_, expected)) = out.last_mut() {
                expected.push(line);
            }
        }
    }
    for (_, expected) in &mut out {
        while expected.last().is_some_and(|l| l.trim().is_empty()) {
            expected.pop();
        }
    }
    out
}

/// Does `got` match `want`, where a line `...` (or `…`) matches any run of lines?
fn matches(want: &[String], got: &[&str]) -> bool {
    match want.split_first() {
        None => got.is_empty(),
        Some((w, rest)) if w.trim() == "..." || w.trim() == "…" => {
            (0..=got.len()).any(|skip| matches(rest, &got[skip..]))
        }
        Some((w, rest)) => got
            .split_first()
            .is_some_and(|(g, more)| g.trim_end() == w.trim_end() && matches(rest, more)),
    }
}

/// A directory holding `tablebases` (the main job's tables) and `data`.
fn workdir() -> PathBuf {
    let d = common::scratch("doc-examples");
    std::os::unix::fs::symlink(solved_pieces4(), d.join("tablebases")).unwrap();
    std::os::unix::fs::symlink(repo().join("data"), d.join("data")).unwrap();
    d
}

/// Runs `tigadi ARGS` in `dir` with `stdin`: (exit code, stdout then stderr).
fn run_in(dir: &Path, args: &[String], stdin: &[u8]) -> (Option<i32>, String) {
    let mut cmd = tigadi();
    cmd.args(args).current_dir(dir);
    let r = run_with(cmd, stdin, LIMIT);
    assert!(!r.timed_out, "{args:?} ran past its limit");
    (r.code, r.stdout + &r.stderr)
}

#[test]
fn every_shown_output_is_the_programs() {
    let dir = workdir();
    let mut checked = 0;
    for doc in ["README.md", "docs/USAGE.md"] {
        for (cmd, want) in examples(&read(doc)) {
            let args = words(&cmd);
            if args.first().map(String::as_str) != Some("tigadi") {
                continue;
            }
            let (_, got) = run_in(&dir, &args[1..], b"");
            let lines: Vec<&str> = got.lines().collect();
            assert!(
                matches(&want, &lines),
                "{doc}: `{cmd}` printed\n{got}\nwhere the document shows\n{}",
                want.join("\n")
            );
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} examples found");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_matcher_fails_on_a_changed_line() {
    let want: Vec<String> = ["a", "...", "d"].map(String::from).to_vec();
    assert!(matches(&want, &["a", "b", "c", "d"]));
    assert!(matches(&want, &["a", "d"]));
    assert!(!matches(&want, &["a", "b", "c", "e"]));
    assert!(!matches(&want, &["x", "d"]));
    let exact: Vec<String> = ["a", "b"].map(String::from).to_vec();
    assert!(!matches(&exact, &["a", "b", "c"]));
    assert_eq!(
        words(r#"tigadi probe --dir t "BB./S.. S" 'x y'"#),
        ["tigadi", "probe", "--dir", "t", "BB./S.. S", "x y"]
    );
}

/// Words that mean a command could not use the tables.
const MUTE: [&str; 4] = ["not judged", "no table", "unknown", "searched"];

#[test]
fn the_readme_main_job_then_its_whole_tour_runs_with_tables() {
    let readme = read("README.md");
    // The main job: the `sh` block after "**Main job**".
    let after = &readme[readme.find("**Main job**").expect("a main job")..];
    let (_, job) = blocks(after)
        .into_iter()
        .find(|(info, _)| info == "sh")
        .expect("the main job's block");
    let job = job.join(" ");
    let cargo = "cargo run --release -p tigadi-cli --";
    let dir = common::scratch("readme-tour");
    std::os::unix::fs::symlink(repo().join("data"), dir.join("data")).unwrap();
    let parts: Vec<&str> = job.split("&&").map(str::trim).collect();
    assert_eq!(parts.len(), 2, "{job}");
    for part in parts {
        let rest = part.strip_prefix(cargo).unwrap_or_else(|| panic!("{part}"));
        let (code, out) = run_in(&dir, &words(rest), b"");
        assert_eq!(code, Some(0), "{part}: {out}");
    }
    assert!(dir.join("tablebases").is_dir());

    // The tour: every example of its table, against those tables.
    let mut seen = Vec::new();
    for row in readme.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = row.split(" | ").collect();
        let Some(example) = cells.get(1).and_then(|c| c.strip_prefix("`tigadi ")) else {
            continue;
        };
        let args = words(example.strip_suffix('`').unwrap());
        let verb = args
            .iter()
            .find(|a| !a.starts_with('-') && !a.contains(','))
            .unwrap()
            .clone();
        seen.push(verb.clone());
        if verb == "serve" {
            // The explorer's empty board has values (the placing tables are there).
            let server = Server::start(&dir.join("tablebases"));
            let rules = enc("tigadi,pieces=4");
            let a = server.get(&format!("/api/v1/{rules}/explore")).json();
            assert_eq!(a["known"], true, "{a}");
            assert!(a["moves"]
                .as_array()
                .unwrap()
                .iter()
                .all(|m| !m["value"].is_null()));
            continue;
        }
        // `play` takes a hint, then quits.
        let stdin: &[u8] = if verb == "play" { b"hint\nquit\n" } else { b"" };
        let (code, out) = run_in(&dir, &args, stdin);
        assert_eq!(code, Some(0), "tigadi {example}: {out}");
        if verb == "match" {
            assert!(out.contains("none chosen by search"), "{out}");
        }
        for word in MUTE {
            assert!(
                !out.contains(word),
                "tigadi {example} says {word:?}:\n{out}"
            );
        }
        if verb == "play" {
            assert!(
                out.contains("Hint: ") && out.contains("from the tables"),
                "{out}"
            );
        }
    }
    for verb in [
        "probe", "line", "analyze", "play", "match", "serve", "verify",
    ] {
        assert!(
            seen.iter().any(|v| v == verb),
            "the tour has no {verb}: {seen:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The README stays a quick start (words as `wc -w` counts them); the rest lives
/// in docs/.
#[test]
fn the_readme_is_at_most_1500_words() {
    let n = read("README.md").split_whitespace().count();
    assert!(n <= 1500, "README.md has {n} words");
}
