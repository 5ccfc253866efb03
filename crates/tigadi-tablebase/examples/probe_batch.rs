//! The Rust side of the Python binding's benchmark: parse and probe every position
//! string of a file (one per line) on one thread, and print the time per position,
//! with moves (`answer`, what `tigadi.Tablebase.probe_many` does) and without
//! (`answer_value`, as `probe_many(..., moves=False)`). One
//! untimed pass first, so the block cache is as warm as in the Python run. Both
//! wall time and the process's CPU time are reported: on a shared machine the
//! CPU time is the steadier figure.
//!
//! Then two figures of the reading itself, value only: cold (each pass on a new
//! `Tablebase`, so tables are opened and blocks read and decompressed on first
//! use; the operating system's page cache stays warm) and with a one-block cache
//! (nearly every probe reads and decompresses a block).
//!
//! `cargo run --release -p tigadi-tablebase --example probe_batch -- tablebases positions.txt`
//! (`crates/tigadi-py/bench/probe_many.py` writes such a file and times Python.)

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;
use tigadi_rules::{parse_position, RuleSet};
use tigadi_tablebase::Tablebase;

/// Timed passes over the file; the best is reported (the machine is shared).
const PASSES: usize = 5;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (dir, file) = match &args[..] {
        [_, dir, file] => (dir, file),
        _ => return Err("usage: probe_batch DIR POSITIONS_FILE".into()),
    };
    let text = std::fs::read_to_string(file)?;
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let tb = Tablebase::open(Path::new(dir), &RuleSet::TIGADI);
    let with_moves = |l: &&str| -> Result<(), Box<dyn std::error::Error>> {
        black_box(tb.answer(&parse_position(&RuleSet::TIGADI, l)?)?);
        Ok(())
    };
    let value_only = |l: &&str| -> Result<(), Box<dyn std::error::Error>> {
        black_box(tb.answer_value(&parse_position(&RuleSet::TIGADI, l)?)?);
        Ok(())
    };
    for (name, probe) in [
        ("answer (value + moves)", &with_moves as &dyn Fn(&&str) -> _),
        ("answer_value", &value_only),
    ] {
        lines.iter().try_for_each(probe)?;
        let (mut wall, mut cpu) = (f64::INFINITY, f64::INFINITY);
        for _ in 0..PASSES {
            let (start, start_cpu) = (Instant::now(), cpu_seconds());
            lines.iter().try_for_each(probe)?;
            wall = wall.min(start.elapsed().as_secs_f64());
            cpu = cpu.min(cpu_seconds() - start_cpu);
        }
        let per = |s: f64| s * 1e9 / lines.len() as f64;
        println!(
            "Rust {name}, one thread: {:.0} ns CPU, {:.0} ns wall per position ({} positions, best of {PASSES})",
            per(cpu),
            per(wall),
            lines.len()
        );
    }
    let cold = |blocks: Option<usize>| -> Result<(), Box<dyn std::error::Error>> {
        let (mut wall, mut cpu) = (f64::INFINITY, f64::INFINITY);
        let small =
            blocks.map(|n| Tablebase::with_cache_blocks(Path::new(dir), &RuleSet::TIGADI, n));
        for _ in 0..PASSES {
            let (start, start_cpu) = (Instant::now(), cpu_seconds());
            let fresh;
            let tb = match &small {
                Some(small) => small,
                None => {
                    fresh = Tablebase::open(Path::new(dir), &RuleSet::TIGADI);
                    &fresh
                }
            };
            for l in &lines {
                black_box(tb.answer_value(&parse_position(&RuleSet::TIGADI, l)?)?);
            }
            wall = wall.min(start.elapsed().as_secs_f64());
            cpu = cpu.min(cpu_seconds() - start_cpu);
        }
        let per = |s: f64| s * 1e9 / lines.len() as f64;
        let name = match blocks {
            Some(_) => "answer_value, one-block cache",
            None => "answer_value, cold (new Tablebase per pass)",
        };
        println!(
            "Rust {name}, one thread: {:.0} ns CPU, {:.0} ns wall per position ({} positions, best of {PASSES})",
            per(cpu),
            per(wall),
            lines.len()
        );
        Ok(())
    };
    cold(None)?;
    cold(Some(1))?;
    Ok(())
}

/// CPU time used by this process so far, in seconds.
fn cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill in.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}
