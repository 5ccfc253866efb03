//! Issue 53: the DTZ₁₀₀ tables of Lasker's steps with gotis in hand found from
//! their game values (`solve_step_in_hand_horizon_from_game`, what `tigadi
//! solve` runs: the game's draws seeded as draws, their moves never generated)
//! against the plain capped rounds (`solve_step_in_hand_horizon`, which reads
//! no game values): the same value in every slot of every tier of the game,
//! each side's steps reading only its own earlier results. Small turn limits
//! make the rule turn many game wins and losses into draws, so the positions
//! left to the rounds are not just the game's decided ones capped; the test
//! asserts that (and that draws were seeded) rather than assuming it.

use crate::common;

use std::collections::HashMap;
use tigadi_rules::RuleSet;
use tigadi_solve::{
    given, solve_pair, solve_pair_horizon, solve_step_in_hand_horizon,
    solve_step_in_hand_horizon_from_game, solve_step_in_hand_with, Metric, Packed, Quiet, Rounds,
    TierTable, Value,
};
use tigadi_values::Tier;

type Tables = HashMap<Tier, Vec<Packed>>;

/// Every tier's DTZ₁₀₀ values under `rules`, the steps in hand solved by
/// `in_hand` given the step's tiers and its exits' DTZ₁₀₀ tables.
fn horizon_tables(
    rules: &RuleSet,
    in_hand: impl Fn(&[Tier], &[tigadi_solve::TierTable<'_>]) -> Vec<tigadi_solve::SolvedSubspace>,
) -> Tables {
    common::solve_tiers(
        rules,
        |pair, targets| solve_pair_horizon(rules, pair, targets, &Quiet).unwrap(),
        in_hand,
    )
}

/// Every tier's game values under `rules`.
fn game_tables(rules: &RuleSet) -> Tables {
    common::solve_tiers(
        rules,
        |pair, targets| solve_pair(rules, pair, targets, &Quiet).unwrap(),
        |tiers, exits| {
            solve_step_in_hand_with(rules, Metric::Dtc, tiers, exits, &Quiet, Rounds::Adaptive)
                .unwrap()
        },
    )
}

/// What one comparison saw in the tiers with gotis in hand.
#[derive(Debug, Default)]
struct Seen {
    /// Slots that are game draws: seeded, their moves never generated.
    seeded: u64,
    /// Slots won or lost in the game and drawn under the rule.
    drawn_by_rule: u64,
    /// Slots won or lost under the rule.
    decided: u64,
}

/// [`Seen`] of `rules`, the steps in hand found from the game values with
/// their rounds run as `rounds` says, after asserting that they equal the
/// plain capped rounds (run each the cheaper way) in every slot.
fn compare(rules: &str, rounds: Rounds) -> Seen {
    let rules = RuleSet::parse(rules).unwrap();
    let game = game_tables(&rules);
    let plain = horizon_tables(&rules, |tiers, exits| {
        solve_step_in_hand_horizon(&rules, tiers, exits, &Quiet).unwrap()
    });
    let ours = horizon_tables(&rules, |tiers, exits| {
        let own: Vec<TierTable> = tiers
            .iter()
            .map(|&tier| TierTable {
                tier,
                values: &game[&tier],
            })
            .collect();
        let (own, exits) = (&mut given(&own), &mut given(exits));
        solve_step_in_hand_horizon_from_game(&rules, tiers, own, exits, &Quiet, rounds).unwrap()
    });
    let mut seen = Seen::default();
    assert_eq!(plain.len(), ours.len());
    for (tier, reference) in &plain {
        let found = &ours[tier];
        let wrong = reference.iter().zip(found).filter(|(a, b)| a != b).count();
        assert_eq!(wrong, 0, "{rules} {tier}: {wrong} slots differ");
        if tier.is_moving() {
            continue;
        }
        for (g, r) in game[tier].iter().zip(reference) {
            match (g.get(), r.get()) {
                (Some(Value::Draw), _) => seen.seeded += 1,
                (Some(_), Some(Value::Draw)) => seen.drawn_by_rule += 1,
                (Some(_), Some(_)) => seen.decided += 1,
                _ => {}
            }
        }
    }
    seen
}

#[test]
fn lasker_3_and_4_at_small_turn_limits_equal_the_plain_rounds() {
    for rules in [
        "lasker,pieces=3,quiet=4",
        "lasker,pieces=3",
        "lasker,pieces=4,quiet=7",
    ] {
        let seen = compare(rules, Rounds::Adaptive);
        assert!(seen.seeded > 0, "{rules} {seen:?}: no draw seeded");
        assert!(seen.decided > 0, "{rules} {seen:?}: nothing decided");
        if rules.contains("quiet") {
            assert!(
                seen.drawn_by_rule > 0,
                "{rules} {seen:?}: the rule drew nothing"
            );
        }
    }
}

/// The capped rounds in hand, the game's draws seeded, give the same values
/// whichever way they run: all forwards (only undecided positions look at
/// their successors, a seeded draw never one of them) or all backwards (a
/// seeded draw's word skipped as decided, its predecessors' counters keeping
/// it as an undecided successor).
#[test]
fn lasker_3_capped_rounds_agree_forwards_and_backwards() {
    for rules in ["lasker,pieces=3,quiet=4", "lasker,pieces=3"] {
        for rounds in [Rounds::Forward, Rounds::Backward] {
            let seen = compare(rules, rounds);
            assert!(
                seen.seeded > 0 && seen.decided > 0,
                "{rules} {rounds:?} {seen:?}"
            );
        }
    }
}

/// A game table that is not the step's own is refused, not trusted: seeding a
/// game loss as its winner's table says makes the rounds find a win the game
/// table calls a loss.
#[test]
fn a_wrong_game_table_is_refused() {
    let rules = RuleSet::parse("lasker,pieces=3").unwrap();
    let game = game_tables(&rules);
    let refused = std::cell::Cell::new(0);
    horizon_tables(&rules, |tiers, exits| {
        // Every win of the step's game tables turned into a loss.
        let flipped: Vec<Vec<Packed>> = tiers
            .iter()
            .map(|t| {
                game[t]
                    .iter()
                    .map(|p| match p.get() {
                        Some(Value::Win(d)) => Packed::new(Value::Loss(d)),
                        _ => *p,
                    })
                    .collect()
            })
            .collect();
        let own: Vec<TierTable> = tiers
            .iter()
            .zip(&flipped)
            .map(|(&tier, values)| TierTable { tier, values })
            .collect();
        let found = solve_step_in_hand_horizon_from_game(
            &rules,
            tiers,
            &mut given(&own),
            &mut given(exits),
            &Quiet,
            Rounds::Adaptive,
        );
        if found.is_err() {
            refused.set(refused.get() + 1);
        }
        solve_step_in_hand_horizon(&rules, tiers, exits, &Quiet).unwrap()
    });
    assert!(
        refused.get() > 0,
        "no step refused a game table with its wins flipped"
    );
}
