//! Retrograde-solver throughput: solves every `tigadi` pair with at most N gotis on
//! the board (N = 7 and 8, on all cores) in memory and reports classes per second.
//!
//! Input: the pairs of `tigadi_solve::pairs_up_to(N)` under `RuleSet::TIGADI`.
//! Run: `cargo bench -p tigadi-benches --bench solve`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tigadi_index::classes;
use tigadi_rules::RuleSet;
use tigadi_solve::{pairs_up_to, solve_up_to, Quiet};

fn solve_all(rules: &RuleSet, max: u32) -> usize {
    solve_up_to(rules, max, &Quiet, |_, _, _| {}).len()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("solve_tigadi");
    g.sample_size(10);
    for max in [7u32, 8] {
        let n: u64 = pairs_up_to(max)
            .iter()
            .flat_map(|p| p.subspaces())
            .map(classes)
            .sum();
        g.throughput(Throughput::Elements(n));
        g.bench_function(format!("up_to_{max}_gotis"), |b| {
            b.iter(|| solve_all(&RuleSet::TIGADI, max))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
