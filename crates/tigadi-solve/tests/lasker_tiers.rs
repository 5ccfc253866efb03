//! Issue 53: the rounds solve of Lasker tiers with gotis in hand
//! ([`tigadi_solve::in_hand`]), the whole of `lasker,pieces=3` solved in memory
//! step by step ([`tigadi_values::tier_steps`]: moving pairs by
//! [`solve_pair`], every tier with gotis in hand by [`solve_step_in_hand`]), and
//! checked two ways:
//!
//! - against the naive whole-game oracle of
//!   `crates/tigadi-rules/tests/support/lasker.rs` (written from docs/RULES.md,
//!   plain rounds over classes of raw states, nothing of the solver): every class
//!   a game reaches has the oracle's value and depth;
//! - every stored position of every tier (reached or not) equals the best of its
//!   moves' values one turn later, its moves and their targets taken from the
//!   rules crate's `Position` (a capture counts 1, a side left below three in all
//!   loses at once, no move loses at 0).

use crate::common;
use crate::lasker;

use std::collections::HashMap;
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::{Board, Position, RuleSet, Side};
use tigadi_solve::Quiet;
use tigadi_solve::{
    given, solve_pair, solve_step_in_hand, solve_step_in_hand_with, Metric, Packed, Rounds, Value,
};
use tigadi_values::{Hands, Tier};

/// Every tier of the game under `rules`, solved in dependency order, the rounds
/// of the steps with gotis in hand run as `rounds` says.
fn solve_all(rules: &RuleSet, rounds: Rounds) -> HashMap<Tier, Vec<Packed>> {
    common::solve_tiers(
        rules,
        |pair, targets| solve_pair(rules, pair, targets, &Quiet).unwrap(),
        |tiers, exits| {
            solve_step_in_hand_with(rules, Metric::Dtc, tiers, exits, &Quiet, rounds).unwrap()
        },
    )
}

/// The tier and board of `p` seen from its player to move.
fn tier_of(p: &Position) -> (Tier, Board) {
    let board = p.to_board();
    let hands = Hands::new(p.hand(p.side), p.hand(p.side.other()));
    (Tier::new(hands, Subspace::of(board)), board)
}

fn stored(tables: &HashMap<Tier, Vec<Packed>>, p: &Position) -> Value {
    let (tier, board) = tier_of(p);
    let values = tables
        .get(&tier)
        .unwrap_or_else(|| panic!("{p}: no table for {tier}"));
    values[SubspaceIndex::new(tier.subspace).index(board) as usize]
        .get()
        .unwrap_or_else(|| panic!("{p}: no value"))
}

/// The value of `p` from its moves' targets' stored values (see the module docs).
fn from_successors(rules: &RuleSet, tables: &HashMap<Tier, Vec<Packed>>, p: &Position) -> Value {
    let mut best: Option<Value> = None;
    p.for_each_move(rules, |m| {
        let next = p.apply(m);
        let v = if next.total(next.side) < 3 {
            Value::Win(1)
        } else {
            stored(tables, &next).before_turn(m.capture().is_some())
        };
        if best.is_none_or(|b| v.better_than(b)) {
            best = Some(v);
        }
    });
    best.unwrap_or(Value::Loss(0))
}

fn check_against_successors(rules: &RuleSet, tables: &HashMap<Tier, Vec<Packed>>) -> u64 {
    let mut checked = 0;
    for (tier, values) in tables {
        let idx = SubspaceIndex::new(tier.subspace);
        for (slot, board) in idx.boards(0..idx.slots()) {
            let p = Position {
                bone: board.mover,
                seed: board.opponent,
                side: Side::Bone,
                bone_hand: tier.hands.mover,
                seed_hand: tier.hands.opponent,
                quiet_turns: 0,
            };
            let got = values[slot as usize].get().expect("a value at a position");
            assert_eq!(got, from_successors(rules, tables, &p), "{p} in {tier}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn lasker_3_every_value_is_its_moves_best_and_the_oracles() {
    let rules = RuleSet::parse("lasker,pieces=3").unwrap();
    let tables = solve_all(&rules, Rounds::Adaptive);
    assert!(tables
        .keys()
        .any(|t| !t.is_moving() && t.has_moves_inside(&rules)));
    let checked = check_against_successors(&rules, &tables);
    assert!(checked > 100_000, "{checked}");

    let mut compared = 0;
    for (class, v) in lasker::solve_classes(3) {
        let n = class.to_naive();
        if n.total(1) < 3 || n.total(2) < 3 {
            continue;
        }
        let p = n.to_position();
        let expected = match v {
            lasker::Value::Win(d) => Value::Win(d as u16),
            lasker::Value::Loss(d) => Value::Loss(d as u16),
            lasker::Value::Draw => Value::Draw,
        };
        assert_eq!(stored(&tables, &p), expected, "{p}");
        compared += 1;
    }
    assert!(compared > 10_000, "{compared}");
}

/// The rounds of the steps with gotis in hand give the same values whichever
/// way they run: all forwards (each position taking its exit), all backwards
/// (predecessors by slides, the hand deciding flying, zero counters waiting for
/// deeper loss exits, the exits swept each round), or each the cheaper way.
#[test]
fn lasker_3_rounds_in_hand_agree_forwards_and_backwards() {
    let rules = RuleSet::parse("lasker,pieces=3").unwrap();
    let forward = solve_all(&rules, Rounds::Forward);
    for rounds in [Rounds::Backward, Rounds::Adaptive] {
        let other = solve_all(&rules, rounds);
        assert_eq!(forward.len(), other.len());
        for (tier, values) in &forward {
            assert!(values == &other[tier], "{tier}: {rounds:?} differs");
        }
    }
}

/// The solve of a step in hand asks its table source for each exit tier's
/// table exactly once (a phase's tables only, each phase its own: see
/// `in_hand`'s "Memory"), and the values are those of the tables given whole.
#[test]
fn lasker_3_steps_in_hand_ask_for_each_exit_table_once() {
    let rules = RuleSet::parse("lasker,pieces=3").unwrap();
    let steps = std::cell::Cell::new(0);
    common::solve_tiers(
        &rules,
        |pair, targets| solve_pair(&rules, pair, targets, &Quiet).unwrap(),
        |tiers, exits| {
            let mut asked = Vec::new();
            let mut source = |tier| {
                asked.push(tier);
                given(exits)(tier)
            };
            let found = solve_step_in_hand(&rules, Metric::Dtc, tiers, &mut source, &Quiet);
            let found = found.unwrap();
            asked.sort();
            let all: Vec<Tier> = exits.iter().map(|t| t.tier).collect();
            assert_eq!(asked, all, "{}: the tables asked for", tiers[0]);
            let whole = solve_step_in_hand_with(
                &rules,
                Metric::Dtc,
                tiers,
                exits,
                &Quiet,
                Rounds::Adaptive,
            );
            for (a, b) in found.iter().zip(whole.unwrap()) {
                assert!(a.values == b.values, "{}: values differ", tiers[0]);
            }
            steps.set(steps.get() + 1);
            found
        },
    );
    assert!(steps.get() > 0, "no step in hand");
}
