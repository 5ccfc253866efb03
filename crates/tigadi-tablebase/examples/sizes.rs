//! Solves tigadi up to N gotis, writes the tables and prints sizes and timings.
use std::collections::HashMap;
use std::time::Instant;
use tigadi_index::Subspace;
use tigadi_solve::{pairs_up_to, retrograde::Quiet, solve_pair, Packed, SolvedTable};

fn main() {
    let n: u32 = std::env::args().nth(1).map_or(8, |s| s.parse().unwrap());
    let dir = std::path::PathBuf::from(std::env::args().nth(2).unwrap_or("/tmp/tb-sizes".into()));
    let rules = tigadi_rules::RuleSet::TIGADI;
    let mut tables: HashMap<Subspace, Vec<Packed>> = HashMap::new();
    for pair in pairs_up_to(n) {
        let t = Instant::now();
        let targets: Vec<SolvedTable> = pair
            .capture_targets()
            .into_iter()
            .map(|t| SolvedTable {
                subspace: t,
                values: &tables[&t],
            })
            .collect();
        let solved = solve_pair(&rules, pair, &targets, &Quiet).unwrap();
        let ts = t.elapsed().as_secs_f64();
        for s in solved {
            let t = Instant::now();
            let p = tigadi_tablebase::write_subspace(&dir, &rules, s.subspace, &s.values).unwrap();
            let tw = t.elapsed().as_secs_f64();
            let h = tigadi_tablebase::read_header(&dir, &rules, s.subspace).unwrap();
            let classes = h.counts.classes() as f64;
            println!("{} slots {} classes {} solve {:.2}s write {:.2}s file {} B  wdl {:.3} bits/class dtc {:.3} bits/class  maxdtc {}/{}",
                s.subspace, h.slots, classes, ts, tw, std::fs::metadata(&p).unwrap().len(),
                h.wdl.data_len as f64 * 8.0 / classes, h.dtc.data_len as f64 * 8.0 / classes, h.counts.max_dtc_win, h.counts.max_dtc_loss);
            tables.insert(s.subspace, s.values);
        }
    }
}
