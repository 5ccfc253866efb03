//! Tablebase benchmarks.
//!
//! Input: tigadi solved in memory up to `TIGADI_BENCH_GOTIS` gotis on the board
//! (default 8: subspaces 3v3 … 4v4, 5v3, 3v5), written to a temporary directory.
//!
//! - `probe/warm`: `Tablebase::probe` of uniformly random 4v4 boards (random
//!   symmetric images, so the index's canonicalisation is included), one thread,
//!   after one pass has filled the block cache (every 4v4 block fits). Target:
//!   5 µs or less a probe (200,000 probes a second).
//! - `probe_wdl/warm`: the same through the WDL section only.
//! - `probe/cold`: a one-block cache, so nearly every probe decompresses a block.
//! - `probe_moves/warm`: every move of a random 4v4 board.
//! - `ffi/c_probe`, `ffi/c_wdl`: the warm boards through the C library's
//!   `tigadi_probe` / `tigadi_probe_wdl` (bone/seed bitmasks and a side: the code a
//!   C caller runs, with argument checks, panic guard and conversions), against
//!   `ffi/rust_probe` and `ffi/rust_wdl` (`Tablebase::probe` / `probe_wdl`), all
//!   four in thread CPU time so that a busy machine does not skew the comparison.
//!
//! Before timing it prints the size on disk per class (canonical position) of the
//! WDL section alone and of the DTC section, per subspace and in all.

use criterion::{criterion_group, Criterion};
use std::hint::black_box;
use std::path::PathBuf;
use tigadi_benches::{cpu_time, random_boards};
use tigadi_index::Subspace;
use tigadi_rules::{Board, RuleSet};
use tigadi_solve::{solve_up_to, Quiet};
use tigadi_tablebase::{TableData, TableId, TableKind, Tablebase, TablebaseDir};

const RULES: RuleSet = RuleSet::TIGADI;

fn tables_dir() -> PathBuf {
    let gotis: u32 = std::env::var("TIGADI_BENCH_GOTIS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(8);
    let dir = std::env::temp_dir().join(format!("tigadi-bench-tablebase-{}", std::process::id()));
    let store = TablebaseDir::new(&dir, &RULES);
    let id = |s| TableId::moving(TableKind::GameTheoretic, s);
    let tables = solve_up_to(&RULES, gotis, &Quiet, |_, solved, _| {
        for s in solved {
            store
                .write(id(s.subspace), TableData::Game(&s.values))
                .expect("writes");
        }
    });
    let (mut classes, mut wdl, mut dtc) = (0u64, 0u64, 0u64);
    let mut subs: Vec<Subspace> = tables.keys().copied().collect();
    subs.sort();
    println!("size on disk (tigadi up to {gotis} gotis), bits per class:");
    for s in subs {
        let table = store.open(id(s)).expect("reads");
        let h = table.header();
        let c = h.counts.classes();
        println!(
            "  {s}: {c:>9} classes  WDL {:.3}  DTC {:.3}  whole file {:.3}",
            h.wdl.data_len as f64 * 8.0 / c as f64,
            h.dtc.data_len as f64 * 8.0 / c as f64,
            h.file_len() as f64 * 8.0 / c as f64
        );
        classes += c;
        wdl += h.wdl.data_len;
        dtc += h.dtc.data_len;
    }
    println!(
        "  all: {classes} classes  WDL {:.3}  DTC {:.3}",
        wdl as f64 * 8.0 / classes as f64,
        dtc as f64 * 8.0 / classes as f64
    );
    dir
}

fn benches(c: &mut Criterion) {
    let dir = tables_dir();
    // Uniformly random 4v4 boards.
    let boards = random_boards(Subspace::new(4, 4), 1 << 16, 0x9E37_79B9_7F4A_7C15);
    let warm = Tablebase::open(&dir, &RULES);
    for &b in &boards {
        warm.probe(b).expect("probes");
        warm.probe_wdl(b).expect("probes");
    }
    let mut g = c.benchmark_group("probe");
    g.throughput(criterion::Throughput::Elements(boards.len() as u64));
    g.bench_function("warm", |bench| {
        bench.iter(|| {
            for &b in &boards {
                black_box(warm.probe(b).unwrap());
            }
        })
    });
    g.bench_function("wdl_warm", |bench| {
        bench.iter(|| {
            for &b in &boards {
                black_box(warm.probe_wdl(b).unwrap());
            }
        })
    });
    let cold = Tablebase::with_cache_blocks(&dir, &RULES, 1);
    let few = &boards[..4096];
    g.throughput(criterion::Throughput::Elements(few.len() as u64));
    g.bench_function("cold", |bench| {
        bench.iter(|| {
            for &b in few {
                black_box(cold.probe(b).unwrap());
            }
        })
    });
    g.bench_function("moves_warm", |bench| {
        bench.iter(|| {
            for &b in few {
                black_box(warm.probe_moves(tigadi_tablebase::Hands::EMPTY, b).unwrap());
            }
        })
    });
    g.finish();
    ffi(c, &dir, &warm, &boards);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The C library against the Rust prober on the same warm boards (thread CPU time).
fn ffi(c: &mut Criterion, dir: &std::path::Path, warm: &Tablebase, boards: &[Board]) {
    let c_dir = std::ffi::CString::new(dir.to_str().expect("UTF-8 path")).unwrap();
    let mut c_tb = std::ptr::null_mut();
    // SAFETY: valid strings and out-pointer; the handle is closed below.
    let code = unsafe { tigadi::tigadi_open(c_dir.as_ptr(), c"tigadi".as_ptr(), &mut c_tb) };
    assert_eq!(code, tigadi::TIGADI_OK);
    let bone = tigadi::TIGADI_BONE;
    let mut g = c.benchmark_group("ffi");
    g.throughput(criterion::Throughput::Elements(boards.len() as u64));
    g.bench_function("rust_probe", |bench| {
        bench.iter_custom(|iters| {
            cpu_time(iters, || {
                for &b in boards {
                    black_box(warm.probe(b).unwrap());
                }
            })
        })
    });
    g.bench_function("c_probe", |bench| {
        bench.iter_custom(|iters| {
            cpu_time(iters, || {
                for &b in boards {
                    let mut v = tigadi::TigadiValue::default();
                    // SAFETY: a live handle and a valid out-pointer.
                    let code =
                        unsafe { tigadi::tigadi_probe(c_tb, b.mover, b.opponent, bone, &mut v) };
                    black_box((code, v));
                }
            })
        })
    });
    g.bench_function("rust_wdl", |bench| {
        bench.iter_custom(|iters| {
            cpu_time(iters, || {
                for &b in boards {
                    black_box(warm.probe_wdl(b).unwrap());
                }
            })
        })
    });
    g.bench_function("c_wdl", |bench| {
        bench.iter_custom(|iters| {
            cpu_time(iters, || {
                for &b in boards {
                    let mut wdl = 0;
                    // SAFETY: as above.
                    let code = unsafe {
                        tigadi::tigadi_probe_wdl(c_tb, b.mover, b.opponent, bone, &mut wdl)
                    };
                    black_box((code, wdl));
                }
            })
        })
    });
    g.finish();
    // SAFETY: the handle from tigadi_open, no longer used.
    unsafe { tigadi::tigadi_close(c_tb) };
}

criterion_group! {
    name = tablebase;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(3));
    targets = benches
}

fn main() {
    tablebase();
    Criterion::default().configure_from_args().final_summary();
}
