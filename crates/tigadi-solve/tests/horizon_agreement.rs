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

/// Compares every raw state of each of `subspaces` (gotis of the side to move,
/// of the other) at every counter, with one oracle solve of the first and one
/// solver run up to its gotis: the others must be among the subspaces its
/// captures reach. A tally per subspace.
fn agree(rules: RuleSet, subspaces: &[(u32, u32)]) -> Vec<Tally> {
    let (m, o) = subspaces[0];
    let game = Solved::up_to(rules, m + o);
    let horizon: HashMap<Subspace, Vec<Packed>> =
        solve_up_to_horizon(&rules, m + o, &Quiet, |_, _, _| {});
    let naive = HorizonOracle::solve(rules, m, o);
    let n = rules.quiet;
    let mut tallies = Vec::new();
    for &(a, b) in subspaces {
        let [states, wrong, cursed, blessed] = [(); 4].map(|_| AtomicU64::new(0));
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
        assert_eq!(
            wrong.load(Relaxed),
            0,
            "{rules} {a}v{b}: solver and oracle disagree"
        );
        tallies.push(Tally {
            states: states.into_inner(),
            cursed_wins: cursed.into_inner(),
            blessed_losses: blessed.into_inner(),
        });
    }
    tallies
}

/// 3v3 from the same oracle solve as 3v4 and 4v3 (their captures reach it).
#[test]
fn tigadi_quiet_10_3v3_3v4_and_4v3_agree_at_every_counter() {
    let rules = RuleSet::parse("tigadi,quiet=10").unwrap();
    let t = agree(rules, &[(4, 3), (3, 4), (3, 3)]);
    assert_eq!(t[0].states + t[1].states, 2 * 2024 * 5985 * 11);
    assert_eq!(t[2].states, 2024 * 1330 * 11);
    let cursed = t[0].cursed_wins + t[1].cursed_wins;
    let blessed = t[0].blessed_losses + t[1].blessed_losses;
    assert!(cursed > 0 && blessed > 0, "{t:?}");
    assert!(t[2].cursed_wins > 0 && t[2].blessed_losses > 0, "{t:?}");
}

#[test]
fn morris_quiet_12_3v3_agrees_at_every_counter() {
    let t = &agree(RuleSet::parse("morris,quiet=12").unwrap(), &[(3, 3)])[0];
    assert_eq!(t.states, 2024 * 1330 * 13);
    assert!(t.cursed_wins > 0 && t.blessed_losses > 0, "{t:?}");
}
