//! Test support: solve every pair up to a goti count in memory.
#![allow(dead_code)] // each test binary uses part of it

use std::collections::{BTreeSet, HashMap};
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::{Board, RuleSet};
use tigadi_solve::{
    exit_tiers, solve_up_to, step_tiers, Packed, Pair, Quiet, SolvedSubspace, SolvedTable,
    TierTable, Value,
};
use tigadi_values::{tier_steps, Tier};

/// Every tier of the game under `rules` solved in memory in dependency order
/// ([`tier_steps`]), each step from the results of the steps before it: a
/// moving pair by `pair` (given its capture targets' tables), a step with gotis
/// in hand by `in_hand` (given its tiers, [`step_tiers`], and its exit tiers'
/// tables, [`exit_tiers`]). Which kind of table this makes is the two
/// functions' choice.
pub fn solve_tiers(
    rules: &RuleSet,
    pair: impl Fn(Pair, &[SolvedTable<'_>]) -> Vec<SolvedSubspace>,
    in_hand: impl Fn(&[Tier], &[TierTable<'_>]) -> Vec<SolvedSubspace>,
) -> HashMap<Tier, Vec<Packed>> {
    let mut tables: HashMap<Tier, Vec<Packed>> = HashMap::new();
    for step in tier_steps(rules) {
        let head = step[0];
        let (tiers, solved) = if head.is_moving() {
            let p = Pair::of(head.subspace);
            let targets: Vec<SolvedTable> = p
                .capture_targets()
                .into_iter()
                .map(|s| SolvedTable {
                    subspace: s,
                    values: &tables[&Tier::moving(s)],
                })
                .collect();
            let solved = pair(p, &targets);
            let tiers: Vec<Tier> = p.subspaces().into_iter().map(Tier::moving).collect();
            (tiers, solved)
        } else {
            let tiers = step_tiers(rules, head);
            assert_eq!(
                tiers.iter().collect::<BTreeSet<_>>(),
                step.iter().collect::<BTreeSet<_>>()
            );
            let exits: Vec<TierTable> = exit_tiers(rules, &tiers)
                .into_iter()
                .map(|t| TierTable {
                    tier: t,
                    values: &tables[&t],
                })
                .collect();
            let solved = in_hand(&tiers, &exits);
            (tiers, solved)
        };
        for (t, s) in tiers.into_iter().zip(solved) {
            assert_eq!(t.subspace, s.subspace);
            tables.insert(t, s.values);
        }
    }
    tables
}

/// Solved subspaces held in memory.
pub struct Solved {
    pub rules: RuleSet,
    pub tables: HashMap<Subspace, Vec<Packed>>,
}

impl Solved {
    /// Solves every pair with at most `max_gotis` on the board, in order.
    pub fn up_to(rules: RuleSet, max_gotis: u32) -> Solved {
        let tables = solve_up_to(&rules, max_gotis, &Quiet, |_, _, _| {});
        Solved { rules, tables }
    }

    /// The stored value of any board of a solved subspace (any symmetric image).
    pub fn value(&self, b: Board) -> Value {
        let sub = Subspace::of(b);
        let idx = SubspaceIndex::new(sub);
        self.tables[&sub][idx.index(b) as usize]
            .get()
            .expect("canonical slots are solved")
    }

    /// Class counts of one subspace: (classes, wins, draws, losses, max win DTC, max loss DTC).
    pub fn class_counts(&self, sub: Subspace) -> (u64, u64, u64, u64, u16, u16) {
        let mut c = (0, 0, 0, 0, 0, 0);
        for v in self.tables[&sub].iter().filter_map(|p| p.get()) {
            c.0 += 1;
            match v {
                Value::Win(d) => {
                    c.1 += 1;
                    c.4 = c.4.max(d)
                }
                Value::Draw => c.2 += 1,
                Value::Loss(d) => {
                    c.3 += 1;
                    c.5 = c.5.max(d)
                }
            }
        }
        c
    }
}
