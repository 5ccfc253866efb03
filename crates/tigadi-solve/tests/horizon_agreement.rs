//! The horizon pass (values under the 100-turn rule) against the independent oracle
//! over raw (position, counter) states (tests/oracle/horizon.rs): for every raw
//! position of the subspaces below and **every counter** `0..=N`, the value under the
//! rule that the solver's DTC₁₀₀ gives at that counter equals the oracle's. Small turn
//! limits make cursed wins and blessed losses occur; the tests assert that they do.

use crate::common;
use crate::oracle;

use common::Solved;
use oracle::horizon::{HorizonOracle, DRAW, LOSS, WIN};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::{Board, RuleSet};
use tigadi_solve::Quiet;
use tigadi_solve::{solve_up_to_horizon, value_at_counter, Category, Packed, Wdl};

/// Counts of one comparison.
#[derive(Debug, Default)]
struct Tally {
    /// (position, counter) states compared.
    states: u64,
    /// Raw positions that are cursed wins / blessed losses at counter 0.
    cursed_wins: u64,
    blessed_losses: u64,
}

/// Compares every raw state of `(m, o)` and `(o, m)` at every counter.
fn agree(rules: RuleSet, m: u32, o: u32) -> Tally {
    let game = Solved::up_to(rules, m + o);
    let horizon: HashMap<Subspace, Vec<Packed>> =
        solve_up_to_horizon(&rules, m + o, &Quiet, |_, _, _| {});
    let naive = HorizonOracle::solve(rules, m, o);
    let n = rules.quiet;
    let [states, wrong, cursed, blessed] = [(); 4].map(|_| AtomicU64::new(0));
    let mut pairs = vec![(m, o)];
    if m != o {
        pairs.push((o, m));
    }
    for (a, b) in pairs {
        let sub = Subspace::new(a as u8, b as u8);
        let index = SubspaceIndex::new(sub);
        let table = &horizon[&sub];
        naive.par_for_each_position(a, b, |mover, opponent, codes| {
            let board = Board { mover, opponent };
            let dtc100 = table[index.index(board) as usize]
                .get()
                .expect("canonical slots are solved");
            assert_eq!(codes.len(), n as usize + 1);
            for (c, &expected) in codes.iter().enumerate() {
                let got = match value_at_counter(dtc100, c as u16, n).unwrap().wdl() {
                    Wdl::Win => WIN,
                    Wdl::Draw => DRAW,
                    Wdl::Loss => LOSS,
                };
                states.fetch_add(1, Relaxed);
                if got != expected && wrong.fetch_add(1, Relaxed) < 10 {
                    eprintln!(
                        "{rules} {a}v{b} {mover:#08x}/{opponent:#08x} counter {c}: \
                         solver DTC100 {dtc100:?}, oracle code {expected}"
                    );
                }
            }
            let category = Category::of(game.value(board).wdl(), dtc100.wdl())
                .expect("a value under the rule agrees with the value ignoring it");
            cursed.fetch_add((category == Category::CursedWin) as u64, Relaxed);
            blessed.fetch_add((category == Category::BlessedLoss) as u64, Relaxed);
        });
    }
    assert_eq!(
        wrong.load(Relaxed),
        0,
        "{rules} {m}v{o}: solver and oracle disagree"
    );
    Tally {
        states: states.into_inner(),
        cursed_wins: cursed.into_inner(),
        blessed_losses: blessed.into_inner(),
    }
}

#[test]
fn tigadi_quiet_10_3v3_agrees_at_every_counter() {
    let t = agree(RuleSet::parse("tigadi,quiet=10").unwrap(), 3, 3);
    assert_eq!(t.states, 2024 * 1330 * 11);
    assert!(t.cursed_wins > 0 && t.blessed_losses > 0, "{t:?}");
}

#[test]
fn tigadi_quiet_10_3v4_and_4v3_agree_at_every_counter() {
    let t = agree(RuleSet::parse("tigadi,quiet=10").unwrap(), 4, 3);
    assert_eq!(t.states, 2 * 2024 * 5985 * 11);
    assert!(t.cursed_wins > 0 && t.blessed_losses > 0, "{t:?}");
}

#[test]
fn morris_quiet_12_3v3_agrees_at_every_counter() {
    let t = agree(RuleSet::parse("morris,quiet=12").unwrap(), 3, 3);
    assert_eq!(t.states, 2024 * 1330 * 13);
    assert!(t.cursed_wins > 0 && t.blessed_losses > 0, "{t:?}");
}
