//! Compares WDL encodings, block sizes and zstd levels on tables written by `sizes`.
use std::time::Instant;
use tigadi_index::Subspace;
use tigadi_solve::{Packed, Value};

fn main() {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).unwrap_or("/tmp/tb-sizes".into()));
    let rules = tigadi_rules::RuleSet::TIGADI;
    let store = tigadi_tablebase::TablebaseDir::new(&dir, &rules);
    let id = |s| tigadi_tablebase::TableId::moving(tigadi_tablebase::TableKind::GameTheoretic, s);
    let subs = store
        .moving_subspaces(tigadi_tablebase::TableKind::GameTheoretic)
        .unwrap();
    let mut all: Vec<(Subspace, Vec<Packed>)> = Vec::new();
    for s in subs {
        let v = store.load(id(s)).unwrap();
        all.push((s, v));
    }
    let classes: u64 = all
        .iter()
        .map(|(s, _)| store.open(id(*s)).unwrap().header().counts.classes())
        .sum();
    let code = |p: Packed| match p.get().unwrap() {
        Value::Win(_) => 2u8,
        Value::Draw => 1,
        Value::Loss(_) => 0,
    };
    // `encodings DIR dtc` compares the DTC section only.
    let wdl_variants: &[bool] = if std::env::args().nth(2).as_deref() == Some("dtc") {
        &[]
    } else {
        &[false, true]
    };
    for &bytes_per_slot in wdl_variants {
        for &spb in &[32768usize, 131072] {
            for &level in &[3, 9, 15, 19] {
                let t = Instant::now();
                let mut total = 0usize;
                for (_, v) in &all {
                    for chunk in v.chunks(spb) {
                        let raw: Vec<u8> = if bytes_per_slot {
                            chunk.iter().map(|&p| code(p)).collect()
                        } else {
                            let mut r = vec![0u8; chunk.len().div_ceil(4)];
                            for (j, &p) in chunk.iter().enumerate() {
                                r[j / 4] |= code(p) << (2 * (j % 4));
                            }
                            r
                        };
                        total += zstd::bulk::compress(&raw, level).unwrap().len();
                    }
                }
                println!(
                    "WDL bytes={bytes_per_slot} spb={spb} level={level}: {:.3} bits/class, {:.2}s",
                    total as f64 * 8.0 / classes as f64,
                    t.elapsed().as_secs_f64()
                );
            }
        }
    }
    for &level in &[1, 3, 6, 9] {
        for &spb in &[8192usize] {
            let t = Instant::now();
            let mut total = 0usize;
            for (_, v) in &all {
                for chunk in v.chunks(spb) {
                    let n = chunk.len();
                    let mut raw = vec![0u8; 2 * n];
                    for (j, p) in chunk.iter().enumerate() {
                        raw[j] = p.0 as u8;
                        raw[n + j] = (p.0 >> 8) as u8;
                    }
                    total += zstd::bulk::compress(&raw, level).unwrap().len();
                }
            }
            println!(
                "DTC spb={spb} level={level}: {:.3} bits/class, {:.2}s",
                total as f64 * 8.0 / classes as f64,
                t.elapsed().as_secs_f64()
            );
        }
    }
}
