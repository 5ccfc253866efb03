//! Where one pair's solve time goes, with its capture targets read from a solved
//! tablebase directory: prints the CPU seconds (user + system, all threads) of the
//! initial pass, the backward and the forward rounds, and the wall time.
//!
//! `cargo run --release -p tigadi-jobs --example pair_times -- DIR SUBSPACE [rounds]`
//! where DIR is a `tigadi` tablebase directory holding the pair's capture targets
//! and SUBSPACE is e.g. `6v5`; with `rounds`, every round is printed as it ends
//! (direction, positions decided, CPU seconds). Nothing is written.
//!
//! `RULES=navakankari,quiet=20` (any `--rules` value; default `tigadi`) names the
//! rule set, and `PASS=horizon` times the 100-turn pass instead, its capture
//! targets read from the directory's horizon tables.

#[path = "../../tigadi-solve/examples/phase_times.rs"]
#[allow(dead_code)]
mod phase_times;

use phase_times::{cpu_seconds, RoundPrinter, Timer};
use std::time::Instant;
use tigadi_index::Subspace;
use tigadi_rules::RuleSet;
use tigadi_solve::{solve_pair_horizon, solve_pair_with, Packed, Pair, Rounds, SolvedTable};
use tigadi_tablebase::{TableId, TableKind, TablebaseDir};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = std::path::PathBuf::from(&args[1]);
    let (m, o) = args[2].split_once('v').expect("a subspace such as 6v5");
    let sub = Subspace::new(m.parse().unwrap(), o.parse().unwrap());
    let pair = Pair::of(sub);
    let rules = std::env::var("RULES").map_or(RuleSet::TIGADI, |r| {
        RuleSet::parse(&r).expect("RULES names a rule set")
    });
    let horizon = std::env::var("PASS").is_ok_and(|p| p == "horizon");
    let kind = if horizon {
        TableKind::Horizon
    } else {
        TableKind::GameTheoretic
    };
    let loaded: Vec<(Subspace, Vec<Packed>)> = pair
        .capture_targets()
        .into_iter()
        .map(|t| {
            let v = TablebaseDir::new(&dir, &rules)
                .load(TableId::moving(kind, t))
                .expect("target");
            (t, v)
        })
        .collect();
    let targets = SolvedTable::views(loaded.iter().map(|(s, v)| (s, v)));
    let timer = Timer::default();
    let rounds = RoundPrinter::default();
    let observer: &dyn tigadi_solve::Observer = if args.get(3).is_some_and(|a| a == "rounds") {
        &rounds
    } else {
        &timer
    };
    let (t0, c0) = (Instant::now(), cpu_seconds());
    // ROUNDS=backward or forward fixes the direction of every round.
    let mode = match std::env::var("ROUNDS").as_deref() {
        Ok("backward") => Rounds::Backward,
        Ok("forward") => Rounds::Forward,
        _ => Rounds::Adaptive,
    };
    let solved = if horizon {
        solve_pair_horizon(&rules, pair, &targets, observer)
    } else {
        solve_pair_with(&rules, pair, &targets, observer, mode)
    }
    .unwrap();
    let slots: usize = solved.iter().map(|s| s.values.len()).sum();
    println!(
        "{pair}: {slots} slots, wall {:.2} s, cpu {:.2} s: {}",
        t0.elapsed().as_secs_f64(),
        cpu_seconds() - c0,
        timer.take().0
    );
}
