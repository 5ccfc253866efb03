//! Solves a whole small game in memory (moving phase, then every placing layer) and
//! prints the empty board's value, the time each phase took and the slots of each
//! placing layer.
//!
//! `cargo run --release -p tigadi-solve --example whole_game -- morris,pieces=4`

use std::time::Instant;
use tigadi_rules::RuleSet;
use tigadi_solve::leaving::{solve_placing, start_value};
use tigadi_solve::Quiet;
use tigadi_solve::{solve_up_to, SolvedTable};

fn main() {
    let arg = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tigadi,pieces=4".into());
    let rules = RuleSet::parse(&arg).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let t0 = Instant::now();
    let moving = solve_up_to(&rules, 2 * rules.pieces as u32, &Quiet, |_, _, _| {});
    let moving_s = t0.elapsed().as_secs_f64();
    let moving_slots: usize = moving.values().map(Vec::len).sum();
    let tables = SolvedTable::views(&moving);
    let t1 = Instant::now();
    let mut sizes = Vec::new();
    let layers = solve_placing(&rules, &tables, &Quiet, |placed, solved| {
        let slots: usize = solved.iter().map(|s| s.values.len()).sum();
        sizes.push((placed, solved.len(), slots));
    })
    .expect("the moving phase is complete");
    let placing_s = t1.elapsed().as_secs_f64();
    sizes.reverse();
    for (placed, subs, slots) in sizes {
        println!("layer {placed:2}: {subs:3} subspaces, {slots:12} slots");
    }
    println!(
        "{rules}: empty board {}; moving phase {moving_s:.2} s ({moving_slots} slots), \
         placing phase {placing_s:.2} s",
        start_value(&layers[0]).expect("layer 0 solved"),
    );
}
