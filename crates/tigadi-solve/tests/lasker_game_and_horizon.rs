//! Issue 53: a Lasker step's game values and its values under the 100-turn
//! rule found together, from one initial pass
//! (`solve_step_in_hand_game_and_horizon`), against the two passes one after
//! the other (`solve_step_in_hand_with` in DTC, then
//! `solve_step_in_hand_horizon_from_game` from its result): the same value in
//! every slot of every step with gotis in hand, and the same rounds reported,
//! each kind's exits read from the whole game's tables of that kind. Small turn
//! limits make the two kinds' exits differ (the test asserts that they do).

use crate::common;

use std::collections::HashMap;
use tigadi_rules::RuleSet;
use tigadi_solve::{
    exit_tiers, given, solve_pair, solve_pair_horizon, solve_step_in_hand_game_and_horizon,
    solve_step_in_hand_horizon, solve_step_in_hand_horizon_from_game, solve_step_in_hand_with,
    Metric, Packed, Quiet, Rounds, SolvedSubspace, TierTable, Value,
};
use tigadi_values::{tier_steps, Tier};

type Tables = HashMap<Tier, Vec<Packed>>;

/// Every tier's game values and DTZ₁₀₀ values under `rules`, each kind's
/// steps in hand by the plain rounds of that kind.
fn both_kinds(rules: &RuleSet) -> (Tables, Tables) {
    let game = common::solve_tiers(
        rules,
        |pair, targets| solve_pair(rules, pair, targets, &Quiet).unwrap(),
        |tiers, exits| {
            solve_step_in_hand_with(rules, Metric::Dtc, tiers, exits, &Quiet, Rounds::Adaptive)
                .unwrap()
        },
    );
    let rule = common::solve_tiers(
        rules,
        |pair, targets| solve_pair_horizon(rules, pair, targets, &Quiet).unwrap(),
        |tiers, exits| solve_step_in_hand_horizon(rules, tiers, exits, &Quiet).unwrap(),
    );
    (game, rule)
}

/// `tiers`' tables among `tables`.
fn of<'t>(tables: &'t Tables, tiers: &[Tier]) -> Vec<TierTable<'t>> {
    tiers
        .iter()
        .map(|&tier| TierTable {
            tier,
            values: &tables[&tier],
        })
        .collect()
}

/// Asserts that `found` equals `reference` in every slot and in the rounds
/// reported, for `what`.
fn assert_same(what: &str, reference: &[SolvedSubspace], found: &[SolvedSubspace]) {
    assert_eq!(reference.len(), found.len(), "{what}: tiers");
    for (r, f) in reference.iter().zip(found) {
        assert_eq!(r.subspace, f.subspace, "{what}: order");
        let wrong = r
            .values
            .iter()
            .zip(&f.values)
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(wrong, 0, "{what} {:?}: {wrong} slots differ", r.subspace);
        assert_eq!(r.values.len(), f.values.len(), "{what}: slots");
        assert_eq!(r.rounds, f.rounds, "{what} {:?}: rounds", r.subspace);
    }
}

/// Compares the two ways on every step with gotis in hand of `rules`, the
/// rounds run as `rounds` says. Returns the slots in hand whose exit values
/// differ between the kinds' tables in at least one step (a game value that
/// is not its DTZ₁₀₀ value), and the game draws among the step's slots.
fn compare(rules: &str, rounds: Rounds) -> (u64, u64) {
    let rules = RuleSet::parse(rules).unwrap();
    let (game, rule) = both_kinds(&rules);
    let (mut differ, mut draws) = (0, 0);
    for step in tier_steps(&rules) {
        if step[0].is_moving() {
            continue;
        }
        let exits = exit_tiers(&rules, &step);
        let (game_exits, rule_exits) = (of(&game, &exits), of(&rule, &exits));
        for t in &exits {
            differ += game[t].iter().zip(&rule[t]).filter(|(g, r)| g != r).count() as u64;
        }
        let what = format!("{rules} {}", step[0]);
        let reference_game =
            solve_step_in_hand_with(&rules, Metric::Dtc, &step, &game_exits, &Quiet, rounds)
                .unwrap();
        let own: Vec<TierTable> = step
            .iter()
            .zip(&reference_game)
            .map(|(&tier, s)| TierTable {
                tier,
                values: &s.values,
            })
            .collect();
        let reference_rule = solve_step_in_hand_horizon_from_game(
            &rules,
            &step,
            &mut given(&own),
            &mut given(&rule_exits),
            &Quiet,
            rounds,
        )
        .unwrap();
        let (found_game, found_rule) = solve_step_in_hand_game_and_horizon(
            &rules,
            &step,
            &mut given(&game_exits),
            &mut given(&rule_exits),
            &Quiet,
            rounds,
        )
        .unwrap();
        assert_same(&format!("{what} game"), &reference_game, &found_game);
        assert_same(&format!("{what} 100-turn"), &reference_rule, &found_rule);
        for s in &found_game {
            draws += s
                .values
                .iter()
                .filter(|v| v.get() == Some(Value::Draw))
                .count() as u64;
        }
    }
    (differ, draws)
}

#[test]
fn lasker_3_and_4_both_kinds_at_once_equal_the_two_passes() {
    for rules in [
        "lasker,pieces=3,quiet=4",
        "lasker,pieces=4,quiet=7",
        "lasker,pieces=4",
    ] {
        let (differ, draws) = compare(rules, Rounds::Adaptive);
        assert!(differ > 0, "{rules}: the kinds' exit tables never differ");
        assert!(draws > 0, "{rules}: no game draw to settle");
    }
}

#[test]
fn lasker_3_both_kinds_at_once_forwards_and_backwards() {
    for rounds in [Rounds::Forward, Rounds::Backward] {
        let (differ, draws) = compare("lasker,pieces=3,quiet=4", rounds);
        assert!(differ > 0 && draws > 0, "{rounds:?}");
    }
}

/// Exit tables of the 100-turn kind that contradict the game's (a win under
/// the rule where the game loses) are refused, not written.
#[test]
fn contradicting_exit_tables_are_refused() {
    let rules = RuleSet::parse("lasker,pieces=3").unwrap();
    let (game, rule) = both_kinds(&rules);
    let mut refused = 0;
    for step in tier_steps(&rules) {
        if step[0].is_moving() {
            continue;
        }
        let exits = exit_tiers(&rules, &step);
        // Every loss under the rule turned into a win.
        let flipped: Tables = exits
            .iter()
            .map(|t| {
                let values = rule[t]
                    .iter()
                    .map(|p| match p.get() {
                        Some(Value::Loss(d)) => Packed::new(Value::Win(d.max(1))),
                        _ => *p,
                    })
                    .collect();
                (*t, values)
            })
            .collect();
        let (game_exits, rule_exits) = (of(&game, &exits), of(&flipped, &exits));
        let found = solve_step_in_hand_game_and_horizon(
            &rules,
            &step,
            &mut given(&game_exits),
            &mut given(&rule_exits),
            &Quiet,
            Rounds::Adaptive,
        );
        refused += found.is_err() as u32;
    }
    assert!(
        refused > 0,
        "no step refused exits whose losses were flipped"
    );
}
