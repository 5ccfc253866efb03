//! Where a server's random probe goes, without the server: the positions of
//! `benches/serve_random.sh` (its request paths, one per line, as the script
//! writes them) parsed, answered (`Tablebase::answer`, what `GET /api/v1/{rules}`
//! answers) and written as JSON on one thread, each step timed, with the blocks
//! the block cache read and decompressed per answer. Three passes over the same
//! positions on one `Tablebase`: the first opens the tables and finds the cache
//! empty, the later ones find in it whatever the passes before left; the
//! difference per block between the second and third pass and a cache of one
//! block is the cost of a miss. Times are the thread's CPU time (the machine is
//! shared).
//!
//! `cargo run --release -p tigadi-tablebase --example serve_cost -- DIR RULES PATHS [N] [CACHE_BLOCKS]`

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;
use tigadi_rules::{parse_reached_position, RuleSet};
use tigadi_tablebase::Tablebase;

/// The position string of a request path `...?position=TEXT` (percent-decoded).
fn position_of(path: &str) -> Option<String> {
    let q = path.split_once("position=")?.1;
    let bytes = q.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            out.push(u8::from_str_radix(q.get(i + 1..i + 3)?, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// This thread's CPU time so far: on a shared machine, the steadier figure.
fn cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid pointer to a timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        return Err("usage: serve_cost DIR RULES PATHS [N] [CACHE_BLOCKS]".into());
    }
    let rules = RuleSet::parse(&args[2])?;
    let n: usize = args.get(4).map_or(Ok(10_000), |s| s.parse())?;
    let blocks: usize = args.get(5).map_or(Ok(65_536), |s| s.parse())?;
    let text = std::fs::read_to_string(&args[3])?;
    let positions: Vec<String> = text.lines().filter_map(position_of).take(n).collect();
    // As the server opens it.
    let tb = Tablebase::with_cache_blocks(Path::new(&args[1]), &rules, blocks)
        .with_rule_values_from_game();
    for pass in 1..=3 {
        let (mut parse, mut answer, mut json) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
        let (mut moves, before) = (0usize, tb.blocks_read());
        for p in &positions {
            let t0 = cpu();
            let position = parse_reached_position(&rules, p)?;
            let t1 = cpu();
            let report = tb.answer(&position)?;
            let t2 = cpu();
            black_box(serde_json::to_vec(&report)?);
            let t3 = cpu();
            moves += report.moves.len();
            parse += t1 - t0;
            answer += t2 - t1;
            json += t3 - t2;
        }
        let k = positions.len() as f64;
        let us = |d: Duration| d.as_secs_f64() * 1e6 / k;
        println!(
            "pass {pass}: {} positions, {:.1} moves and {:.2} blocks decompressed per answer; \
             per position: parse {:.1} us, answer {:.1} us, JSON {:.1} us",
            positions.len(),
            moves as f64 / k,
            (tb.blocks_read() - before) as f64 / k,
            us(parse),
            us(answer),
            us(json),
        );
    }
    Ok(())
}
