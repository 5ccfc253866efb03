//! Rewrites a rule set's table files with blocks of another size
//! (`tigadi_tablebase::reblock`), for serving: the same values, smaller blocks
//! to decompress per random probe (docs/PERFORMANCE.md, "Serving
//! the whole set"). Reads every table file of SRC (a rule set's directory, such
//! as `tablebases/tigadi`) and writes each atomically under the same name into
//! DST, skipping those already there (so an interrupted run resumes). DST gets
//! no manifest or `SHA256SUMS`: their bytes and hashes would be the old files'.
//!
//! `cargo run --release -p tigadi-tablebase --example reblock -- SRC DST [BYTES]`
//! (BYTES: decompressed bytes per block, default 4096).

use std::path::Path;
use std::time::Instant;
use tigadi_tablebase::writer::write_atomically;
use tigadi_tablebase::{reblock, Table};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        return Err("usage: reblock SRC DST [BYTES]".into());
    }
    let (src, dst) = (Path::new(&args[1]), Path::new(&args[2]));
    let bytes: u32 = args.get(3).map_or(Ok(4096), |s| s.parse())?;
    std::fs::create_dir_all(dst)?;
    let mut names: Vec<String> = std::fs::read_dir(src)?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| [".tgtb", ".tghz", ".tgdw"].iter().any(|x| n.ends_with(x)))
        .collect();
    names.sort();
    let (mut before, mut after) = (0u64, 0u64);
    let started = Instant::now();
    for name in &names {
        let out = dst.join(name);
        if out.exists() {
            continue;
        }
        let table = Table::open(&src.join(name))?;
        let rewritten = reblock(&table, bytes)?;
        before += std::fs::metadata(src.join(name))?.len();
        after += rewritten.len() as u64;
        write_atomically(&out, &rewritten)?;
    }
    println!(
        "{} tables, {before} -> {after} bytes ({:+.1}%), {:.1} s",
        names.len(),
        100.0 * (after as f64 / before.max(1) as f64 - 1.0),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
