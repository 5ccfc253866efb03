//! Times the phases of solving every `tigadi` pair up to N gotis in memory:
//! `cargo run --release -p tigadi-solve --example phase_times -- N [THREADS]`.

use std::sync::Mutex;
use std::time::Instant;
use tigadi_rules::RuleSet;
use tigadi_solve::{solve_up_to, Observer};

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
    let timer = Timer(Mutex::new(None), Mutex::new(Vec::new()));
    pool.install(|| {
        solve_up_to(&RuleSet::TIGADI, max, &timer, |pair, solved, seconds| {
            timer.close();
            let times = std::mem::take(&mut *timer.1.lock().unwrap());
            let init = times[0].1;
            let rounds: f64 = times[1..].iter().map(|t| t.1).sum();
            let slots: usize = solved.iter().map(|s| s.values.len()).sum();
            println!(
                "{pair}: {slots} slots, total {seconds:.2} s, init {init:.2} s, {} rounds {rounds:.2} s",
                times.len() - 1
            );
        })
    });
}
