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
//!
//! `HANDS=1+0` (with `RULES=lasker`) times the Lasker step with gotis in hand
//! headed by SUBSPACE with those hands instead (`in_hand`), its exit tiers'
//! tables read from the directory; its placements' pass is timed apart. With
//! `PASS=both` it times the game values and the 100-turn values found together
//! (`solve_step_in_hand_game_and_horizon`), from the exits' 100-turn tables
//! where the directory holds them all (else the game tables stand in for
//! them: for the time only); `PASS=horizon` times the 100-turn pass from the
//! step's game values (read from the directory) alone, from the same tables.

#[path = "../../tigadi-solve/examples/phase_times.rs"]
#[allow(dead_code)]
mod phase_times;

use phase_times::{cpu_seconds, RoundPrinter, Timer};
use std::time::Instant;
use tigadi_index::Subspace;
use tigadi_rules::RuleSet;
use tigadi_solve::{
    exit_tiers, given, solve_pair_horizon, solve_pair_with, solve_step_in_hand_game_and_horizon,
    solve_step_in_hand_horizon_from_game, solve_step_in_hand_with, step_tiers, Metric, Packed,
    Pair, Rounds, SolvedTable, TierTable,
};
use tigadi_tablebase::{TableId, TableKind, TablebaseDir};
use tigadi_values::{Hands, Tier};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = std::path::PathBuf::from(&args[1]);
    let (m, o) = args[2].split_once('v').expect("a subspace such as 6v5");
    let sub = Subspace::new(m.parse().unwrap(), o.parse().unwrap());
    let pair = Pair::of(sub);
    let rules = std::env::var("RULES").map_or(RuleSet::TIGADI, |r| {
        RuleSet::parse(&r).expect("RULES names a rule set")
    });
    if let Ok(hands) = std::env::var("HANDS") {
        return in_hand(
            &dir,
            &rules,
            sub,
            &hands,
            args.get(3).is_some_and(|a| a == "rounds"),
        );
    }
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

/// The Lasker step headed by `sub` with `hands` (`1+0`), its game values from
/// its exit tiers' game tables in `dir`.
fn in_hand(dir: &std::path::Path, rules: &RuleSet, sub: Subspace, hands: &str, rounds: bool) {
    let (m, o) = hands.split_once('+').expect("HANDS such as 1+0");
    let hands = Hands::new(m.parse().unwrap(), o.parse().unwrap());
    let step = step_tiers(rules, Tier::new(hands, sub));
    let store = TablebaseDir::new(dir, rules);
    let loaded: Vec<(Tier, Vec<Packed>)> = exit_tiers(rules, &step)
        .into_iter()
        .map(|t| {
            let v = store
                .load(TableId::new(TableKind::GameTheoretic, t))
                .expect("an exit tier's game table");
            (t, v)
        })
        .collect();
    let tables: Vec<TierTable> = loaded
        .iter()
        .map(|(tier, values)| TierTable {
            tier: *tier,
            values,
        })
        .collect();
    let (timer, printer) = (Timer::default(), RoundPrinter::default());
    let observer: &dyn tigadi_solve::Observer = if rounds { &printer } else { &timer };
    let (t0, c0) = (Instant::now(), cpu_seconds());
    let pass = std::env::var("PASS").unwrap_or_default();
    if pass == "both" || pass == "horizon" {
        // `both`: the game values and the 100-turn values in one initial
        // pass; `horizon`: the 100-turn pass from the step's game values (its
        // own game tables read from the directory). Where the game tables
        // stand in for the exits' 100-turn tables, the time only counts (the
        // result is refused where the two disagree).
        let own: Vec<Vec<Packed>> = match pass.as_str() {
            "horizon" => step
                .iter()
                .map(|&t| {
                    let id = TableId::new(TableKind::GameTheoretic, t);
                    store.load(id).expect("the step's own game table")
                })
                .collect(),
            _ => Vec::new(),
        };
        let own: Vec<TierTable> = step
            .iter()
            .zip(&own)
            .map(|(&tier, values)| TierTable { tier, values })
            .collect();
        // The exits' own 100-turn tables where the directory holds them all.
        let rule_loaded: Option<Vec<(Tier, Vec<Packed>)>> = exit_tiers(rules, &step)
            .into_iter()
            .map(|t| {
                let id = TableId::new(TableKind::Horizon, t);
                store.load(id).ok().map(|v| (t, v))
            })
            .collect();
        let rule_tables: Vec<TierTable> = rule_loaded
            .iter()
            .flatten()
            .map(|(tier, values)| TierTable {
                tier: *tier,
                values,
            })
            .collect();
        let exits = match rule_loaded {
            Some(_) => "the exits' 100-turn tables",
            None => "game tables standing in for the exits' 100-turn tables",
        };
        let r = &mut given(if rule_loaded.is_some() {
            &rule_tables
        } else {
            &tables
        });
        let a = Rounds::Adaptive;
        let (label, agreeing) = match pass.as_str() {
            "both" => {
                let g = &mut given(&tables);
                let found = solve_step_in_hand_game_and_horizon(rules, &step, g, r, observer, a);
                ("both kinds", found.is_ok())
            }
            _ => {
                let g = &mut given(&own);
                let found = solve_step_in_hand_horizon_from_game(rules, &step, g, r, observer, a);
                ("100-turn from the game values", found.is_ok())
            }
        };
        println!(
            "{} ({label}, {exits}, {}): wall {:.2} s, cpu {:.2} s: {}",
            step[0],
            if agreeing { "agreeing" } else { "refused" },
            t0.elapsed().as_secs_f64(),
            cpu_seconds() - c0,
            timer.take().0
        );
        return;
    }
    let solved = solve_step_in_hand_with(
        rules,
        Metric::Dtc,
        &step,
        &tables,
        observer,
        Rounds::Adaptive,
    )
    .unwrap();
    let slots: usize = solved.iter().map(|s| s.values.len()).sum();
    println!(
        "{}: {slots} slots, wall {:.2} s, cpu {:.2} s: {}",
        step[0],
        t0.elapsed().as_secs_f64(),
        cpu_seconds() - c0,
        timer.take().0
    );
}
