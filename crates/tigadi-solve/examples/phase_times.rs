//! Times the phases of solving every `tigadi` pair up to N gotis in memory:
//! `cargo run --release -p tigadi-solve --example phase_times -- N [THREADS]`.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;
use tigadi_index::Subspace;
use tigadi_rules::RuleSet;
use tigadi_solve::{pairs_up_to, solve_pair, Observer, Packed, SolvedTable};

struct Timer(Mutex<Option<(String, Instant)>>, Mutex<Vec<(String, f64)>>);
impl Timer {
    fn close(&self) {
        if let Some((n, t)) = self.0.lock().unwrap().take() {
            self.1.lock().unwrap().push((n, t.elapsed().as_secs_f64()));
        }
    }
}
impl Observer for Timer {
    fn phase(&self, name: &str, _work: u64) {
        self.close();
        *self.0.lock().unwrap() = Some((name.to_string(), Instant::now()));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let max: u32 = args.get(1).map_or(8, |a| a.parse().unwrap());
    let threads: usize = args.get(2).map_or(0, |a| a.parse().unwrap());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let mut tables: HashMap<Subspace, Vec<Packed>> = HashMap::new();
    for pair in pairs_up_to(max) {
        let t0 = Instant::now();
        let timer = Timer(Mutex::new(None), Mutex::new(Vec::new()));
        let targets: Vec<SolvedTable> = pair
            .capture_targets()
            .into_iter()
            .map(|t| SolvedTable {
                subspace: t,
                values: &tables[&t],
            })
            .collect();
        let solved = pool
            .install(|| solve_pair(&RuleSet::TIGADI, pair, &targets, &timer))
            .unwrap();
        timer.close();
        let times = timer.1.into_inner().unwrap();
        let init = times[0].1;
        let rounds: f64 = times[1..].iter().map(|t| t.1).sum();
        let slots: usize = solved.iter().map(|s| s.values.len()).sum();
        println!(
            "{pair}: {slots} slots, total {:.2} s, init {init:.2} s, {} rounds {rounds:.2} s",
            t0.elapsed().as_secs_f64(),
            times.len() - 1
        );
        for s in solved {
            tables.insert(s.subspace, s.values);
        }
    }
}
