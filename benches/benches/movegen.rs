//! Legal-move generation speed: moves generated per second (criterion's
//! `Throughput::Elements` counts moves, one per capture choice) on fixed, seeded
//! sets of 10,000 positions each:
//!
//! - `moving-9v9`, `moving-6v6`: random moving-phase boards (`random_moving_positions`);
//! - `placing`: positions from random legal placements from the empty board.
//!
//! Plus `perft-5`: the 5-turn move tree from the empty board (moves generated and
//! applied, the last turn counted in bulk), in leaves per second.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use std::time::Duration;
use tigadi_benches::{random_moving_positions, random_placing_positions};
use tigadi_rules::{Position, RuleSet};

/// Positions per set: large enough to wash out branch-predictor memory of one board.
const POSITIONS: usize = 10_000;

fn movegen(c: &mut Criterion) {
    for rules in [RuleSet::TIGADI, RuleSet::MORRIS] {
        let sets = [
            ("moving-9v9", random_moving_positions(9, POSITIONS, 9, 9)),
            ("moving-6v6", random_moving_positions(6, POSITIONS, 6, 6)),
            ("placing", random_placing_positions(1, POSITIONS, &rules)),
        ];
        let mut group = c.benchmark_group(format!("movegen/{}", rules.name()));
        group
            .measurement_time(Duration::from_secs(3))
            .sample_size(30);
        for (name, positions) in &sets {
            let moves: u64 = positions.iter().map(|p| p.count_moves(&rules)).sum();
            group.throughput(Throughput::Elements(moves));
            group.bench_function(*name, |b| {
                b.iter(|| {
                    let mut n = 0u64;
                    for p in positions {
                        p.for_each_move(&rules, |m| {
                            black_box(m);
                            n += 1;
                        });
                    }
                    n
                })
            });
        }
        let leaves = Position::start(&tigadi_rules::RuleSet::TIGADI).perft(&rules, 5);
        group.throughput(Throughput::Elements(leaves));
        group.sample_size(10);
        group.bench_function("perft-5", |b| {
            b.iter(|| black_box(Position::start(&tigadi_rules::RuleSet::TIGADI)).perft(&rules, 5))
        });
        group.finish();
    }
}

criterion_group!(benches, movegen);
criterion_main!(benches);
