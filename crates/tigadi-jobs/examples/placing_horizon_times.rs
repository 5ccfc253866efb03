//! The two ways of finding the values of one tier with gotis in hand under the
//! 100-turn rule,
//! timed side by side on a solved tablebase directory: the boards that place into
//! a value the rule changes recomputed one by one
//! (`solve_tier_changed`, from the game-theoretic table), and the one pass over
//! the successors' horizon tables (`solve_tier_with`).
//! Prints the slots, the boards the first recomputes, and each one's wall and CPU
//! seconds (user + system, all threads), and checks that both give the same
//! values and that they equal the stored horizon table where there is one.
//!
//! `cargo run --release -p tigadi-jobs --example placing_horizon_times -- DIR LAYER SUBSPACE [RULES]`
//! where DIR is a tablebase directory holding the tier's game-theoretic table
//! and its successors' game-theoretic and horizon tables, LAYER the placements made
//! (which with SUBSPACE names the tier of the standard alternation). Nothing is
//! written.

#[path = "../../tigadi-solve/examples/phase_times.rs"]
#[allow(dead_code)]
mod phase_times;

use phase_times::cpu_seconds;
use std::time::Instant;
use tigadi_index::Subspace;
use tigadi_solve::leaving::changed_candidates;
use tigadi_solve::{solve_tier_changed, solve_tier_with, Packed, Quiet, SolvedTable};
use tigadi_tablebase::{mark_padding, TableId, TableKind, TablebaseDir};
use tigadi_values::{successor_tiers, Metric, Tier};

fn main() {
    let (dir, placed, sub, rules) = phase_times::placing_args();
    let tier = Tier::after_placements(&rules, placed, sub);
    let store = TablebaseDir::new(&dir, &rules);
    let mut loaded: Vec<(Subspace, Vec<Packed>)> = Vec::new();
    let mut lists: Vec<(Subspace, Vec<u64>)> = Vec::new();
    for next in successor_tiers(&rules, tier) {
        let s = next.subspace;
        let rule = store
            .load(TableId::new(TableKind::Horizon, next))
            .expect("a successor's horizon table");
        let game = store
            .load(TableId::new(TableKind::GameTheoretic, next))
            .expect("a successor's game table");
        let changed: Vec<u64> = (0..rule.len())
            .filter(|&i| rule[i].is_some() && rule[i] != game[i])
            .map(|i| i as u64)
            .collect();
        lists.push((s, changed));
        loaded.push((s, rule));
    }
    let tables = SolvedTable::views(loaded.iter().map(|(s, v)| (s, v)));
    let mut known = store
        .load(TableId::new(TableKind::GameTheoretic, tier))
        .expect("the tier's game table");
    mark_padding(sub, &mut known);
    let changed: Vec<(Subspace, &[u64])> = lists.iter().map(|(s, l)| (*s, &l[..])).collect();
    let listed: usize = lists.iter().map(|(_, l)| l.len()).sum();
    let candidates = changed_candidates(&rules, tier, &changed);

    let (t0, c0) = (Instant::now(), cpu_seconds());
    let (by_board, boards) =
        solve_tier_changed(&rules, tier, known, &tables, &changed, &Quiet).unwrap();
    let (wall_b, cpu_b) = (t0.elapsed().as_secs_f64(), cpu_seconds() - c0);
    let (t0, c0) = (Instant::now(), cpu_seconds());
    let pass = solve_tier_with(&rules, Metric::Dtc, tier, &tables, &Quiet).unwrap();
    let (wall_p, cpu_p) = (t0.elapsed().as_secs_f64(), cpu_seconds() - c0);
    let slots = pass.values.len();
    println!(
        "p{placed}-{sub}: {slots} slots, {listed} changed successor slots, {candidates} \
         candidates, {boards} boards \
         recomputed ({:.2}%): by board wall {wall_b:.2} s cpu {cpu_b:.2} s; \
         pass wall {wall_p:.2} s cpu {cpu_p:.2} s",
        100.0 * boards as f64 / slots as f64
    );
    assert!(by_board.values == pass.values, "the two ways differ");
    if let Ok(mut stored) = store.load(TableId::new(TableKind::Horizon, tier)) {
        mark_padding(sub, &mut stored);
        assert!(
            stored == pass.values,
            "differs from the stored horizon table"
        );
        println!("same values as the stored horizon table");
    }
}
