//! Solves tigadi up to N gotis, writes the tables and prints sizes and timings:
//! `cargo run --release -p tigadi-jobs --example sizes -- N DIR`.
use std::time::Instant;
use tigadi_solve::{solve_up_to, Quiet};

fn main() {
    let n: u32 = std::env::args().nth(1).map_or(8, |s| s.parse().unwrap());
    let dir = std::path::PathBuf::from(std::env::args().nth(2).unwrap_or("/tmp/tb-sizes".into()));
    let rules = tigadi_rules::RuleSet::TIGADI;
    solve_up_to(&rules, n, &Quiet, |_, solved, ts| {
        for s in solved {
            let t = Instant::now();
            let store = tigadi_tablebase::TablebaseDir::new(&dir, &rules);
            let id = tigadi_tablebase::TableId::moving(
                tigadi_tablebase::TableKind::GameTheoretic,
                s.subspace,
            );
            let p = store
                .write(id, tigadi_tablebase::TableData::Game(&s.values))
                .unwrap();
            let tw = t.elapsed().as_secs_f64();
            let table = store.open(id).unwrap();
            let h = table.header();
            let classes = h.counts.classes() as f64;
            println!(
                "{} slots {} classes {} solve {:.2}s write {:.2}s file {} B  wdl {:.3} bits/class dtc {:.3} bits/class  maxdtc {}/{}",
                s.subspace,
                h.slots,
                classes,
                ts,
                tw,
                std::fs::metadata(&p).unwrap().len(),
                h.wdl.data_len as f64 * 8.0 / classes,
                h.dtc.data_len as f64 * 8.0 / classes,
                h.counts.max_dtc_win,
                h.counts.max_dtc_loss
            );
        }
    });
}
