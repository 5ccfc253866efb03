//! The fast solver against the independent oracle (tests/oracle): every raw position
//! of the subspaces below gets the same value and DTC from both. The oracle works on
//! raw positions with its own move generator and no symmetry, so this also checks
//! the index (every image of a class shares the class's value) and the solver's
//! class counting.

use crate::common;
use crate::oracle;

use common::Solved;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use tigadi_rules::{Board, RuleSet};

/// Compares every raw position of `(m, o)` and `(o, m)`; returns how many were compared.
fn agree(rules: RuleSet, m: u32, o: u32) -> u64 {
    let fast = Solved::up_to(rules, m + o);
    // (The oracle's solution of m v o holds o v m too; one key for both.)
    let naive = oracle::solved(rules, m.min(o), m.max(o));
    let compared = AtomicU64::new(0);
    let wrong = AtomicU64::new(0);
    for (a, b) in [(m, o), (o, m)] {
        naive.par_for_each_position(a, b, |mover, opponent, expected| {
            let got = fast.value(Board { mover, opponent });
            compared.fetch_add(1, Relaxed);
            if got != expected && wrong.fetch_add(1, Relaxed) < 10 {
                eprintln!("{rules} {a}v{b} {mover:#08x}/{opponent:#08x}: solver {got:?}, oracle {expected:?}");
            }
        });
    }
    assert_eq!(
        wrong.load(Relaxed),
        0,
        "{rules} {m}v{o}: solver and oracle disagree"
    );
    compared.load(Relaxed)
}

#[test]
fn tigadi_3v3_agrees_with_oracle() {
    assert_eq!(agree(RuleSet::TIGADI, 3, 3), 2 * 2024 * 1330);
}

#[test]
fn tigadi_3v4_and_4v3_agree_with_oracle() {
    assert_eq!(agree(RuleSet::TIGADI, 4, 3), 2 * 2024 * 5985);
}

#[test]
fn morris_3v3_agrees_with_oracle() {
    assert_eq!(agree(RuleSet::MORRIS, 3, 3), 2 * 2024 * 1330);
}

/// Flying on the 20-line board, a blocked player loses.
#[test]
fn morabaraba_3v3_agrees_with_oracle() {
    assert_eq!(agree(RuleSet::MORABARABA, 3, 3), 2 * 2024 * 1330);
}

#[test]
fn navakankari_3v3_agrees_with_oracle() {
    assert_eq!(agree(RuleSet::NAVAKANKARI, 3, 3), 2 * 2024 * 1330);
}

/// 16 lines, no flying, a blocked player passes: blocked positions occur at 3v3
/// here, so the pass edges are compared too.
#[test]
fn plain_board_with_passes_3v3_agrees_with_oracle() {
    let rules = RuleSet::parse("lines=16,flying=never,blocked=passes").unwrap();
    assert_eq!(agree(rules, 3, 3), 2 * 2024 * 1330);
}
