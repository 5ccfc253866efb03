//! The time to load (decompress) and to write (encode and compress) one table:
//! `cargo run --release -p tigadi-jobs --example io_times -- DIR NAME [RULES] [OUT] [LEVELS]`
//! with NAME a table file name in DIR's rules folder (e.g. `p20-6v6.tgtb`); the
//! table is written to OUT (default a temporary directory) at zstd levels LEVELS
//! (`solve --compression`'s: `fast`, `small` or `W,D`; default `fast`), read back and
//! compared; compare the files with `cmp` for byte identity. A horizon table is
//! written with its game table's values from DIR (not timed).

#[path = "../../tigadi-solve/examples/phase_times.rs"]
#[allow(dead_code)]
mod phase_times;

use phase_times::cpu_seconds;
use std::time::Instant;
use tigadi_rules::RuleSet;
use tigadi_tablebase::{TableId, TablebaseDir, ZstdLevels};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = std::path::PathBuf::from(&args[1]);
    let rules = args
        .get(3)
        .map_or(RuleSet::TIGADI, |r| RuleSet::parse(r).unwrap());
    let id = TableId::parse(&args[2], &rules).expect("a table file name");
    let out = args.get(4).map_or_else(std::env::temp_dir, Into::into);
    let store = TablebaseDir::new(&dir, &rules);
    let (t0, c0) = (Instant::now(), cpu_seconds());
    let mut values = store.load(id).expect("the table");
    let (lw, lc) = (t0.elapsed().as_secs_f64(), cpu_seconds() - c0);
    // Padding as the solver leaves it, so the file written is the same.
    tigadi_tablebase::mark_padding(id.tier.subspace, &mut values);
    let levels = args
        .get(5)
        .map_or(ZstdLevels::DEFAULT, |l| ZstdLevels::parse(l).unwrap());
    let target = TablebaseDir::new(&out, &rules).with_levels(levels);
    std::fs::create_dir_all(target.path()).unwrap();
    let (t0, c0) = (Instant::now(), cpu_seconds());
    // A horizon table is written with its game table's values.
    let base = id
        .kind
        .derived_from()
        .map(|kind| store.load(id.with_kind(kind)).expect("the base table"));
    let data = id.kind.data(&values, base.as_deref()).expect("the base");
    target.write(id, data).expect("written");
    let (ww, wc) = (t0.elapsed().as_secs_f64(), cpu_seconds() - c0);
    let (t0, c0) = (Instant::now(), cpu_seconds());
    let mut again = target.load(id).expect("read back");
    tigadi_tablebase::mark_padding(id.tier.subspace, &mut again);
    let (rw, rc) = (t0.elapsed().as_secs_f64(), cpu_seconds() - c0);
    assert!(again == values, "read back differs");
    println!(
        "{}: {} slots; load {lw:.2} s wall {lc:.2} CPU s; write {ww:.2} s wall {wc:.2} CPU s; load again {rw:.2} s wall {rc:.2} CPU s",
        args[2],
        values.len()
    );
}
