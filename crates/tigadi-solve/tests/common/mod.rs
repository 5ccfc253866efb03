//! Test support: solve every pair up to a goti count in memory.
#![allow(dead_code)] // each test binary uses part of it

use std::collections::HashMap;
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::{Board, RuleSet};
use tigadi_solve::{solve_up_to, Packed, Quiet, Value};

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
