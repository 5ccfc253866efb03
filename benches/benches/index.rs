//! Index throughput on 9v9 and 8v8: `SubspaceIndex::index` (canonicalisation
//! included) and `SubspaceIndex::board` (decoding) in positions per second on seeded
//! uniformly random boards (`index/…`, `decode/…`; decoding the slots those boards
//! land on; `index_with/…` is `index` given the mover set's precomputed
//! `MoverClass`), and `SubspaceIndex::boards` in slots swept per second over a range of
//! slots from a third of the way in (`sweep/…`).
//!
//! Times are the benchmark thread's CPU time where Linux reports it (the machines
//! this runs on are shared), wall time elsewhere.
//!
//! `cargo bench -p tigadi-benches --bench index`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use tigadi_benches::{cpu_time, random_boards};
use tigadi_index::{Images, Subspace, SubspaceIndex};

/// Boards per iteration: enough to defeat the branch predictor's memory of the
/// inputs, few enough to stay in cache (the tables are what should be measured).
const BATCH: usize = 1 << 16;

fn index(c: &mut Criterion) {
    let mut group = c.benchmark_group("index");
    group.throughput(Throughput::Elements(BATCH as u64));
    for (m, o) in [(9, 9), (8, 8)] {
        let sub = Subspace::new(m, o);
        let idx = SubspaceIndex::new(sub);
        let boards = random_boards(sub, BATCH, 0x5EED_0000 + m as u64);
        let slots: Vec<u64> = boards.iter().map(|&b| idx.index(b)).collect();
        group.bench_function(format!("index/{sub}"), |b| {
            b.iter_custom(|iters| {
                cpu_time(iters, || {
                    let mut sum = 0u64;
                    for &board in black_box(&boards) {
                        sum = sum.wrapping_add(idx.index(board));
                    }
                    sum
                })
            })
        });
        // The opponent-set half alone: the mover classes are computed beforehand, as
        // a solver does once for all the quiet successors of a position.
        let classes: Vec<_> = boards
            .iter()
            .map(|b| (idx.mover_class(b.mover), b.opponent))
            .collect();
        group.bench_function(format!("index_with/{sub}"), |b| {
            b.iter_custom(|iters| {
                cpu_time(iters, || {
                    let mut sum = 0u64;
                    for &(class, opponent) in black_box(&classes) {
                        sum = sum.wrapping_add(idx.index_with(class, opponent));
                    }
                    sum
                })
            })
        });
        group.bench_function(format!("decode/{sub}"), |b| {
            b.iter_custom(|iters| {
                cpu_time(iters, || {
                    let mut sum = 0u32;
                    for &slot in black_box(&slots) {
                        if let Some(board) = idx.board(slot) {
                            sum = sum.wrapping_add(board.opponent);
                        }
                    }
                    sum
                })
            })
        });
        let start = idx.slots() / 3;
        group.bench_function(format!("sweep/{sub}"), |b| {
            b.iter_custom(|iters| {
                cpu_time(iters, || {
                    let mut sum = 0u32;
                    for (_, board) in idx.boards(black_box(start..start + BATCH as u64)) {
                        sum = sum.wrapping_add(board.opponent);
                    }
                    sum
                })
            })
        });
    }
    group.finish();
}

/// Every quiet predecessor of each of `BATCH` random 8v8 boards (boards of 8v8
/// too), indexed from scratch (`index/…`) or from the board's images with the
/// slide's two points toggled (`images/…`), in predecessors per second.
fn predecessors(c: &mut Criterion) {
    let mut group = c.benchmark_group("predecessors");
    let rules = tigadi_rules::RuleSet::TIGADI;
    let sub = Subspace::new(8, 8);
    let idx = SubspaceIndex::new(sub);
    let boards = random_boards(sub, BATCH, 0x5EED_0008);
    let mut preds = 0u64;
    for b in &boards {
        b.for_each_quiet_predecessor(&rules, |_| preds += 1);
    }
    group.throughput(Throughput::Elements(preds));
    group.bench_function(format!("index/{sub}"), |b| {
        b.iter_custom(|iters| {
            cpu_time(iters, || {
                let mut sum = 0u64;
                for &board in black_box(&boards) {
                    board.for_each_quiet_predecessor(&rules, |p| {
                        sum = sum.wrapping_add(idx.index(p))
                    });
                }
                sum
            })
        })
    });
    group.bench_function(format!("images/{sub}"), |b| {
        b.iter_custom(|iters| {
            cpu_time(iters, || {
                let mut sum = 0u64;
                for &board in black_box(&boards) {
                    let mover = Images::of(board.mover);
                    let opponent = Images::of(board.opponent);
                    board.for_each_quiet_predecessor_slide(&rules, |from, to| {
                        let p = opponent
                            .toggled(Images::point(from))
                            .toggled(Images::point(to));
                        let class = idx.mover_class_of(&p);
                        sum = sum.wrapping_add(idx.index_with_images(class, &mover))
                    });
                }
                sum
            })
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = index, predecessors
}
criterion_main!(benches);
