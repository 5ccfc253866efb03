//! Depth to win, measured: solves a rule set's moving phase in memory up to a goti
//! count, pair by pair (the values, then the DTW pass over them), and prints per
//! pair the CPU seconds of each, the DTW levels and the longest DTW of a won and of
//! a lost position; for a whole game (no goti count given) the placing layers'
//! DTW too. Ends with the longest DTW of each phase and the peak memory.
//!
//! `cargo run --release -p tigadi-solve --example dtw_depths -- RULES [MAX_GOTIS]`
//! (e.g. `tigadi 10`, or `navakankari,pieces=4` for the whole game).

// The CLI's CPU time and peak memory, read the same way.
#[path = "../../tigadi-cli/src/usage.rs"]
#[allow(dead_code)]
mod usage;

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;
use tigadi_index::Subspace;
use tigadi_rules::RuleSet;
use tigadi_solve::dtw::solve_pair_dtw;
use tigadi_solve::leaving::{solve_placing_with, start_value};
use tigadi_solve::Quiet;
use tigadi_solve::{pairs_up_to_pieces, solve_pair, Metric, Observer, Packed, SolvedTable, Value};
use usage::{cpu_seconds, peak_bytes};

/// Notes the CPU time at which the DTW pass's levels begin (after its initial pass).
#[derive(Default)]
struct LevelsStart(Mutex<f64>);

impl Observer for LevelsStart {
    fn phase(&self, name: &str, _work: u64) {
        if name == "dtw" {
            *self.0.lock().unwrap() = cpu_seconds();
        }
    }
}

/// The longest DTW of a won and of a lost position in a table.
fn longest(values: &[Packed]) -> (u16, u16) {
    values.iter().fold((0, 0), |(w, l), p| match p.get() {
        Some(Value::Win(d)) => (w.max(d), l),
        Some(Value::Loss(d)) => (w, l.max(d)),
        _ => (w, l),
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules = RuleSet::parse(args.get(1).map_or("tigadi", String::as_str)).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let whole = args.get(2).is_none();
    let max: u32 = args.get(2).map_or(2 * rules.pieces as u32, |a| {
        a.parse().expect("a goti count")
    });
    let started = (Instant::now(), cpu_seconds());
    let mut values = HashMap::new();
    let mut dtw = HashMap::new();
    let (mut won, mut lost) = (0u16, 0u16);
    let (mut values_cpu, mut dtw_cpu) = (0.0, 0.0);
    for pair in pairs_up_to_pieces(rules.pieces, max) {
        let targets = pair.capture_targets();
        fn view<'a>(
            tables: &'a HashMap<Subspace, Vec<Packed>>,
            targets: &[Subspace],
        ) -> Vec<SolvedTable<'a>> {
            SolvedTable::views(tables.iter().filter(|(s, _)| targets.contains(s)))
        }
        let t0 = cpu_seconds();
        let solved =
            solve_pair(&rules, pair, &view(&values, &targets), &Quiet).expect("targets solved");
        let t1 = cpu_seconds();
        let own = SolvedTable::views(solved.iter().map(|s| (&s.subspace, &s.values)));
        let levels_start = LevelsStart::default();
        let depths = solve_pair_dtw(&rules, pair, &own, &view(&dtw, &targets), &levels_start)
            .expect("consistent");
        let t2 = cpu_seconds();
        let init = *levels_start.0.lock().unwrap() - t1;
        let (w, l) = depths
            .iter()
            .map(|s| longest(&s.values))
            .fold((0, 0), |a, b| (a.0.max(b.0), a.1.max(b.1)));
        let slots: usize = solved.iter().map(|s| s.values.len()).sum();
        println!(
            "{pair}: {slots} slots; values {:.2} s, dtw {:.2} s CPU (init {init:.2} s), {} levels; \
             longest DTW win {w}, loss {l}",
            t1 - t0,
            t2 - t1,
            depths[0].rounds
        );
        (won, lost) = (won.max(w), lost.max(l));
        (values_cpu, dtw_cpu) = (values_cpu + t1 - t0, dtw_cpu + t2 - t1);
        for s in solved {
            values.insert(s.subspace, s.values);
        }
        for s in depths {
            dtw.insert(s.subspace, s.values);
        }
    }
    println!(
        "{rules} up to {max} gotis: longest DTW win {won}, loss {lost}; CPU values {values_cpu:.1} s, dtw {dtw_cpu:.1} s"
    );
    if whole {
        drop(values);
        let t = cpu_seconds();
        let layers = solve_placing_with(
            &rules,
            Metric::Dtw,
            &SolvedTable::views(&dtw),
            &Quiet,
            |_, _| {},
        )
        .expect("the moving phase is complete");
        let (w, l) = layers
            .iter()
            .flatten()
            .map(|s| longest(&s.values))
            .fold((0, 0), |a, b| (a.0.max(b.0), a.1.max(b.1)));
        println!(
            "placing: longest DTW win {w}, loss {l}; empty board {}; CPU {:.1} s",
            start_value(&layers[0]).expect("layer 0"),
            cpu_seconds() - t
        );
    }
    println!(
        "total: wall {:.1} s, CPU {:.1} s, peak {:.2} GB",
        started.0.elapsed().as_secs_f64(),
        cpu_seconds() - started.1,
        peak_bytes().unwrap_or(0) as f64 / 1e9
    );
}
