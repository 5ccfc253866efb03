//! Test support: solve small subspaces with the real solver and write them out.
#![allow(dead_code)]

#[path = "../../../tigadi-rules/tests/support/scratch.rs"]
mod scratch;
pub use scratch::scratch_dir;

use std::collections::HashMap;
use std::path::Path;
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::{Board, RuleSet};
use tigadi_solve::{solve_up_to, Packed, Quiet};
use tigadi_tablebase::{TableData, TableId, TableKind, TablebaseDir};

/// Every subspace with at most `max_gotis` on the board, solved in memory.
pub fn solve(rules: RuleSet, max_gotis: u32) -> HashMap<Subspace, Vec<Packed>> {
    solve_up_to(&rules, max_gotis, &Quiet, |_, _, _| {})
}

/// Solves up to `max_gotis` and writes every table into `dir`.
pub fn solve_and_write(
    dir: &Path,
    rules: RuleSet,
    max_gotis: u32,
) -> HashMap<Subspace, Vec<Packed>> {
    let tables = solve(rules, max_gotis);
    for (s, v) in &tables {
        TablebaseDir::new(dir, &rules)
            .write(game(*s), TableData::Game(v))
            .unwrap();
    }
    tables
}

/// The game-theoretic table of `s` of the moving phase.
pub fn game(s: Subspace) -> TableId {
    TableId::moving(TableKind::GameTheoretic, s)
}

/// Every canonical board of a subspace with its slot.
pub fn boards(sub: Subspace) -> Vec<(u64, Board)> {
    let idx = SubspaceIndex::new(sub);
    (0..idx.slots())
        .filter_map(|s| idx.board(s).map(|b| (s, b)))
        .collect()
}

/// An observer of the solve jobs that ignores everything.
pub struct Silent;
impl tigadi_solve::Observer for Silent {}
impl tigadi_jobs::JobObserver for Silent {}
impl tigadi_jobs::VerifyObserver for Silent {}

/// `SHA256SUMS` of the rule set's directory `rdir`, as file name to hash.
pub fn listed_sums(rdir: &Path) -> std::collections::BTreeMap<String, String> {
    std::fs::read_to_string(rdir.join("SHA256SUMS"))
        .unwrap()
        .lines()
        .map(|l| {
            let (h, n) = l.split_once("  ").unwrap();
            (n.to_string(), h.to_string())
        })
        .collect()
}

/// Runs the job ([`tigadi_jobs::solve`]) on `steps` and `kinds` into `dir`,
/// with the default options and no progress.
pub fn job(dir: &Path, rules: &RuleSet, steps: &[tigadi_values::Tier], kinds: &[TableKind]) {
    tigadi_jobs::solve(dir, rules, steps, kinds, &Default::default(), &Silent).unwrap()
}

/// Copies every file of `from` and its folders into `to`.
pub fn copy_dir(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}
