//! The resumable solve of the placing phase: every placing layer, last first, one
//! subspace at a time, into a tablebase directory whose moving phase is solved.
//! Each subspace reads only the one or two tables its placements lead into (the
//! next layer's files, or the moving-phase files for the last layer), so memory
//! stays at about three tables. Subspaces whose files are present and valid are not
//! solved again (resumable per layer and subspace). Like [`crate::solve_pairs`]
//! it holds the directory's [`DirLock`] while it runs, so `tigadi solve`, a server
//! or a binding can all run this one loop after the moving phase.

use crate::job::JobError;
use std::path::Path;
use std::time::Instant;
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::RuleSet;
use tigadi_solve::placing::{
    layer_count, layer_subspaces, solve_layer_subspace, subspace_successors,
};
use tigadi_solve::{Observer, Packed, SolvedTable, Value};
use tigadi_tablebase::error::TablebaseError;
use tigadi_tablebase::format::{any_file_name, list_placing_tables, rules_dir, TableKind};
use tigadi_tablebase::lock::DirLock;
use tigadi_tablebase::manifest::{listed_sums, update_manifest};
use tigadi_tablebase::reader::table::{
    load_dtc100, load_placing_dtc100, load_placing_values, load_values, open_table_of,
};
use tigadi_tablebase::writer::{remove_stale_temporaries, write_placing, write_placing_horizon};

/// A table read by [`solve_placing`]: its placing layer (`None`: the moving phase)
/// and subspace.
type TableKey = (Option<u8>, Subspace);

/// What [`solve_placing`] reports as it goes (besides the solver's [`Observer`]
/// calls); every method has a no-op default.
pub trait PlacingObserver: Observer {
    /// Layer `placed` has every table already: nothing to solve.
    fn layer_skipped(&self, _placed: u32) {}
    /// Layer `placed` begins: `subspaces` tables to solve, `slots` in all.
    fn layer_started(&self, _placed: u32, _subspaces: usize, _slots: u64) {}
    /// Layer `placed` is written.
    fn layer_solved(&self, _placed: u32, _subspaces: usize, _slots: u64, _seconds: f64) {}
    /// Something the caller should show (a removed temporary file).
    fn placing_warning(&self, _message: &str) {}
    /// A pass over the layers begins: game-theoretic values, or values under the
    /// 100-turn rule ([`TableKind::Horizon`]).
    fn placing_pass(&self, _kind: TableKind) {}
}

/// Is the table of `sub` of placing layer `placed` present, for these rules, with
/// every checksum right? Then it is not solved again.
pub fn is_placing_solved(dir: &Path, rules: &RuleSet, placed: u8, sub: Subspace) -> bool {
    is_placing_kind_solved(dir, rules, TableKind::GameTheoretic, placed, sub)
}

/// [`is_placing_solved`] for the tables of kind `kind` (a horizon table must also
/// have the rule set's turn limit).
pub fn is_placing_kind_solved(
    dir: &Path,
    rules: &RuleSet,
    kind: TableKind,
    placed: u8,
    sub: Subspace,
) -> bool {
    match open_table_of(dir, rules, kind, Some(placed), sub) {
        Ok(t) => t.check_file_checksum().is_ok(),
        Err(_) => false,
    }
}

/// Solves the placing phase of `rules` into `dir`, whose moving-phase tables (all
/// of them, as [`tigadi_solve::pairs_up_to_pieces`] lists them) must be solved
/// there; returns the empty board's value for Bone, who places first.
///
/// Runs on the current rayon pool; holds the directory's [`DirLock`] throughout.
pub fn solve_placing<O: PlacingObserver>(
    dir: &Path,
    rules: &RuleSet,
    observer: &O,
) -> Result<Option<Value>, JobError> {
    solve_placing_kind(dir, rules, TableKind::GameTheoretic, observer)
}

/// Solves the placing phase's values under the 100-turn rule (turn limit
/// `rules.quiet`) into placing horizon tables (`p<k>-<m>v<o>.tghz`), by the same
/// layer-by-layer pass as [`solve_placing`] with the moving phase's horizon
/// tables (values under the rule at counter 0, where every moving phase starts) as
/// the leaves: the placing phase has no quiet-turn counter, so a placing
/// position's value under the rule is the best of its placements' values under the
/// rule, and its class (win, cursed win, draw, blessed loss, loss) follows from
/// that and its game-theoretic value. Needs every moving-phase horizon table and
/// the game-theoretic placing tables ([`solve_placing`] first); resumable in the
/// same way. Returns the empty board's value under the rule for Bone.
pub fn solve_placing_horizon<O: PlacingObserver>(
    dir: &Path,
    rules: &RuleSet,
    observer: &O,
) -> Result<Option<Value>, JobError> {
    solve_placing_kind(dir, rules, TableKind::Horizon, observer)
}

/// Reads the whole table of kind `kind` of `sub` of the moving phase (`placing ==
/// None`) or of placing layer `placing`: values, or DTC₁₀₀ values.
fn load_kind(
    dir: &Path,
    rules: &RuleSet,
    kind: TableKind,
    placing: Option<u8>,
    sub: Subspace,
) -> Result<Vec<Packed>, TablebaseError> {
    match (kind, placing) {
        (TableKind::GameTheoretic, None) => load_values(dir, rules, sub),
        (TableKind::GameTheoretic, Some(p)) => load_placing_values(dir, rules, p, sub),
        (TableKind::Horizon, None) => load_dtc100(dir, rules, sub),
        (TableKind::Horizon, Some(p)) => load_placing_dtc100(dir, rules, p, sub),
    }
}

/// The one layer-by-layer loop of [`solve_placing`] and [`solve_placing_horizon`].
fn solve_placing_kind<O: PlacingObserver>(
    dir: &Path,
    rules: &RuleSet,
    kind: TableKind,
    observer: &O,
) -> Result<Option<Value>, JobError> {
    let rdir = rules_dir(dir, rules);
    let _lock = DirLock::acquire(&rdir)?;
    for name in remove_stale_temporaries(&rdir) {
        observer.placing_warning(&format!(
            "removed {name}, left half-written by a stopped run"
        ));
    }
    observer.placing_pass(kind);
    let layers = layer_count(rules);
    // The successor tables read last: neighbouring subspaces share one.
    let mut cache: Vec<(TableKey, Vec<Packed>)> = Vec::new();
    for placed in (0..layers).rev() {
        let layer = placed as u8;
        let todo: Vec<Subspace> = layer_subspaces(rules, placed)
            .into_iter()
            .filter(|&s| !is_placing_kind_solved(dir, rules, kind, layer, s))
            .collect();
        if todo.is_empty() {
            observer.layer_skipped(placed);
            continue;
        }
        let t0 = Instant::now();
        let next = (placed + 1 < layers).then_some(layer + 1);
        let work: u64 = todo.iter().map(|&s| SubspaceIndex::new(s).slots()).sum();
        observer.layer_started(placed, todo.len(), work);
        // The tables this layer writes, for the manifest.
        let mut written: Vec<String> = Vec::new();
        for &sub in &todo {
            let needed: Vec<(Option<u8>, Subspace)> = subspace_successors(rules, placed, sub)
                .into_iter()
                .map(|s| (next, s))
                .collect();
            cache.retain(|(k, _)| needed.contains(k));
            for &(n, s) in &needed {
                if cache.iter().any(|(k, _)| *k == (n, s)) {
                    continue;
                }
                cache.push(((n, s), load_kind(dir, rules, kind, n, s)?));
            }
            let tables = SolvedTable::views(cache.iter().map(|((_, s), v)| (s, v)));
            let solved = solve_layer_subspace(rules, placed, sub, &tables, observer)
                .map_err(|e| JobError::Placing(layer, sub, e))?;
            match kind {
                TableKind::GameTheoretic => {
                    write_placing(dir, rules, layer, sub, &solved.values)?;
                }
                TableKind::Horizon => {
                    // The classes need the game-theoretic values; the padding is
                    // the solver's (a file holds fillers there).
                    let mut game = load_placing_values(dir, rules, layer, sub)?;
                    for (g, h) in game.iter_mut().zip(&solved.values) {
                        if !h.is_some() {
                            *g = Packed::NONE;
                        }
                    }
                    write_placing_horizon(dir, rules, layer, sub, &game, &solved.values)?;
                }
            }
            written.push(any_file_name(kind, Some(layer), sub));
        }
        // `SHA256SUMS` lists the placing tables too, each layer's as soon as it is
        // written (hashing only those), so a stopped run leaves them listed.
        update_manifest(dir, rules, &written, &[])?;
        observer.layer_solved(placed, todo.len(), work, t0.elapsed().as_secs_f64());
    }
    // A table present but missing from the list (written by an older version, or
    // by a run stopped before listing it) is added.
    if !sums_list_every_placing_table(dir, rules)? {
        update_manifest(dir, rules, &[], &[])?;
    }
    let start = load_kind(dir, rules, kind, Some(0), Subspace::new(0, 0))?;
    Ok(start.first().and_then(|p| p.get()))
}

/// Does the directory's `SHA256SUMS` name every placing table present?
fn sums_list_every_placing_table(dir: &Path, rules: &RuleSet) -> Result<bool, TablebaseError> {
    let listed = listed_sums(&rules_dir(dir, rules));
    Ok(list_placing_tables(dir, rules)?
        .into_iter()
        .all(|(k, p, s)| listed.contains_key(&any_file_name(k, Some(p), s))))
}
