//! The resumable solve of the placing phase: every placing layer, last first, one
//! subspace at a time, into a tablebase directory whose moving phase is solved.
//! Each subspace reads only the one or two tables its placements lead into (the
//! next layer's files, or the moving-phase files for the last layer), so memory
//! stays at about three tables. Subspaces whose files are present and valid are not
//! solved again (resumable per layer and subspace). Like [`crate::solve_pairs`]
//! it holds the directory's [`DirLock`](tigadi_tablebase::DirLock) while it runs, so `tigadi solve`, a server
//! or a binding can all run this one loop after the moving phase.

use crate::job::JobError;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::RuleSet;
use tigadi_solve::placing::{
    recompute_by_board, solve_layer_subspace_changed, solve_layer_subspace_with,
    subspace_successors,
};
use tigadi_solve::{Observer, Packed, SolvedTable, Value};
use tigadi_tablebase::{
    mark_padding, PendingWrite, TableId, TableKind, TablebaseDir, TablebaseError,
};
use tigadi_values::{placing_turns, tiers_with_hands, Hands, Tier};

/// What [`solve_placing`] reports as it goes (besides the solver's [`Observer`]
/// calls); every method has a no-op default.
pub trait PlacingObserver: Observer {
    /// Layer `placed` has every table already: nothing to solve.
    fn layer_skipped(&self, _placed: u32) {}
    /// Layer `placed` begins: `subspaces` tables to solve, `slots` in all.
    fn layer_started(&self, _placed: u32, _subspaces: usize, _slots: u64) {}
    /// Subspace `sub` of layer `placed` is about to be solved (its successors'
    /// tables are loaded next).
    fn subspace_started(&self, _placed: u32, _sub: Subspace) {}
    /// Subspace `sub` of layer `placed` is written: `slots` slots, `seconds`
    /// since [`subspace_started`](Self::subspace_started), loading its
    /// successors' tables and writing its own included.
    fn subspace_solved(&self, _placed: u32, _sub: Subspace, _slots: u64, _seconds: f64) {}
    /// Layer `placed` is written.
    fn layer_solved(&self, _placed: u32, _subspaces: usize, _slots: u64, _seconds: f64) {}
    /// Subspace `sub` of layer `placed` is about to be written from its
    /// game-theoretic table, without the pass: a horizon table whose successors'
    /// values under the rule are their game-theoretic values (see
    /// [`solve_placing_horizon`]). [`subspace_solved`](Self::subspace_solved) follows.
    fn subspace_from_game_values(&self, _placed: u32, _sub: Subspace) {}
    /// Something the caller should show (a removed temporary file).
    fn placing_warning(&self, _message: &str) {}
    /// A pass over the layers begins: game-theoretic values, or values under the
    /// 100-turn rule ([`TableKind::Horizon`]).
    fn placing_pass(&self, _kind: TableKind) {}
}

/// Solves the placing phase of `rules` into `dir`, whose moving-phase tables (all
/// of them, as [`tigadi_solve::pairs_up_to_pieces`] lists them) must be solved
/// there; returns the empty board's value for Bone, who places first.
///
/// Runs on the current rayon pool; holds the directory's [`DirLock`](tigadi_tablebase::DirLock) throughout.
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
///
/// A placing value is a function of its placements' values alone, so a
/// subspace's values under the rule are its game-theoretic values except at
/// the boards with a placement into a slot where a successor's value under the
/// rule differs from its game value. Where no successor differs, the
/// game-theoretic table is written as it is (so it is for every subspace of
/// Tigadi under the default limit: no DTC of its moving phase reaches 100);
/// where few boards place into such a slot, only those are recomputed
/// ([`solve_layer_subspace_changed`]); where many do
/// ([`recompute_by_board`] says which is cheaper), the pass runs over the
/// successors' horizon tables. Both give the same bytes, which
/// `tests/placing_horizon.rs` compares with the pass.
pub fn solve_placing_horizon<O: PlacingObserver>(
    dir: &Path,
    rules: &RuleSet,
    observer: &O,
) -> Result<Option<Value>, JobError> {
    solve_placing_kind(dir, rules, TableKind::Horizon, observer)
}

/// Computes the placing phase's depth to win (DTW, docs/RULES.md §7) into placing
/// DTW tables (`p<k>-<m>v<o>.tgdw`), by the same layer-by-layer pass as
/// [`solve_placing`] with [`tigadi_solve::Metric::Dtw`] and the moving phase's DTW
/// tables as the leaves. Needs every moving-phase DTW table; resumable in the
/// same way. Returns the empty board's value with its DTW for Bone.
pub fn solve_placing_dtw<O: PlacingObserver>(
    dir: &Path,
    rules: &RuleSet,
    observer: &O,
) -> Result<Option<Value>, JobError> {
    solve_placing_kind(dir, rules, TableKind::Dtw, observer)
}

/// The one layer-by-layer loop of [`solve_placing`], [`solve_placing_horizon`]
/// and [`solve_placing_dtw`].
fn solve_placing_kind<O: PlacingObserver>(
    dir: &Path,
    rules: &RuleSet,
    kind: TableKind,
    observer: &O,
) -> Result<Option<Value>, JobError> {
    let tables = TablebaseDir::new(dir, rules);
    let _lock = tables.lock()?;
    // Written at the levels the directory was started with.
    let tables = tables.with_recorded_levels();
    for name in tables.remove_stale_temporaries() {
        observer.placing_warning(&format!(
            "removed {name}, left half-written by a stopped run"
        ));
    }
    observer.placing_pass(kind);
    let layers = placing_turns(rules);
    // The successor tables read last: neighbouring subspaces share one.
    let mut cache: Vec<(TableId, Vec<Packed>)> = Vec::new();
    // Horizon tables: the slots where a successor's values under the rule differ
    // from its game-theoretic values.
    let mut changed: HashMap<TableId, Vec<u64>> = HashMap::new();
    for placed in (0..layers).rev() {
        let layer = placed as u8;
        let hands = Hands::after_placements(rules, placed);
        let todo: Vec<Subspace> = tiers_with_hands(rules, hands)
            .into_iter()
            .filter(|&t| !tables.is_solved(TableId::new(kind, t)))
            .map(|t| t.subspace)
            .collect();
        if todo.is_empty() {
            observer.layer_skipped(placed);
            continue;
        }
        let t0 = Instant::now();
        let next = hands.after_placement();
        // Only the next hands' lists are read from here on.
        changed.retain(|id, _| id.tier.hands == next);
        let work: u64 = todo.iter().map(|&s| SubspaceIndex::new(s).slots()).sum();
        observer.layer_started(placed, todo.len(), work);
        // The tables this layer writes, for the manifest.
        let mut written: Vec<TableId> = Vec::new();
        // The table written last, still being assembled and written on a thread of
        // its own while the next subspace is solved.
        let mut writing: Option<PendingWrite> = None;
        for &sub in &todo {
            let started = Instant::now();
            observer.subspace_started(placed, sub);
            let needed: Vec<TableId> = subspace_successors(rules, placed, sub)
                .into_iter()
                .map(|s| TableId::new(kind, Tier::new(next, s)))
                .collect();
            cache.retain(|(k, _)| needed.contains(k));
            for &id in &needed {
                if cache.iter().any(|(k, _)| *k == id) {
                    continue;
                }
                cache.push((id, tables.load(id)?));
            }
            let id = TableId::new(kind, Tier::new(hands, sub));
            let next_tables =
                SolvedTable::views(cache.iter().map(|(id, v)| (&id.tier.subspace, v)));
            // The placing pass over the successors' tables of this kind.
            let pass = || {
                solve_layer_subspace_with(rules, kind.metric(), placed, sub, &next_tables, observer)
                    .map_err(|e| JobError::Placing(layer, sub, e))
            };
            if kind == TableKind::Horizon {
                // Where the successors' values under the rule differ from their
                // game values: only the boards placing into those are recomputed.
                for (nid, rule) in &cache {
                    changed_slots(&tables, &mut changed, *nid, rule)?;
                }
                let lists: Vec<(Subspace, &[u64])> = cache
                    .iter()
                    .map(|(nid, _)| (nid.tier.subspace, &changed[nid][..]))
                    .filter(|(_, l)| !l.is_empty())
                    .collect();
                let game = tables.load(id.with_kind(TableKind::GameTheoretic))?;
                // The game values as the solver gives them (padding marked).
                let known = || {
                    let mut known = game.clone();
                    mark_padding(sub, &mut known);
                    known
                };
                let values = if lists.is_empty() {
                    observer.subspace_from_game_values(placed, sub);
                    observer.advance(game.len() as u64);
                    known()
                } else if recompute_by_board(rules, placed, sub, &lists) {
                    solve_layer_subspace_changed(
                        rules,
                        placed,
                        sub,
                        known(),
                        &next_tables,
                        &lists,
                        observer,
                    )
                    .map_err(|e| JobError::Placing(layer, sub, e))?
                    .0
                    .values
                } else {
                    pass()?.values
                };
                let data = kind
                    .data(&values, Some(&game))
                    .expect("a horizon table's base");
                finish_writing(&mut writing)?;
                writing = Some(tables.write_in_background(id, data)?);
                // The layer before reads where this table differs from its game values.
                changed.insert(id, differing_slots(&values, &game));
            } else {
                let solved = pass()?;
                finish_writing(&mut writing)?;
                writing = Some(tables.write_values_in_background(id, &solved.values)?);
            }
            written.push(id);
            observer.subspace_solved(
                placed,
                sub,
                SubspaceIndex::new(sub).slots(),
                started.elapsed().as_secs_f64(),
            );
        }
        finish_writing(&mut writing)?;
        // `SHA256SUMS` lists the placing tables too, each layer's as soon as it is
        // written (hashing only those), so a stopped run leaves them listed.
        tables.update_manifest(&written, &[])?;
        observer.layer_solved(placed, todo.len(), work, t0.elapsed().as_secs_f64());
    }
    // A table present but missing from the list (written by an older version, or
    // by a run stopped before listing it) is added.
    if !sums_list_every_placing_table(&tables)? {
        tables.update_manifest(&[], &[])?;
    }
    let start = tables.load(TableId::new(kind, Tier::start(rules)))?;
    Ok(start.first().and_then(|p| p.get()))
}

/// Waits for the table being written in the background, if any, and reports how
/// its writing went.
pub(crate) fn finish_writing(writing: &mut Option<PendingWrite>) -> Result<(), TablebaseError> {
    match writing.take() {
        Some(w) => w.wait().map(|_| ()),
        None => Ok(()),
    }
}

/// The slots at which horizon table `id`, whose values are `rule`, differs from
/// its game-theoretic table ([`differing_slots`]): from `changed`, or found by
/// loading the game table and kept in `changed`. The placing horizon job and
/// `verify` both read a successor table's list from here.
pub(crate) fn changed_slots<'a>(
    store: &TablebaseDir,
    changed: &'a mut HashMap<TableId, Vec<u64>>,
    id: TableId,
    rule: &[Packed],
) -> Result<&'a [u64], TablebaseError> {
    Ok(match changed.entry(id) {
        std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
        std::collections::hash_map::Entry::Vacant(e) => {
            let game = store.load(id.with_kind(TableKind::GameTheoretic))?;
            e.insert(differing_slots(rule, &game))
        }
    })
}

/// The slots at which `rule` (a table's values under the rule) differs from
/// `game` (its game-theoretic values, as loaded: fillers in padding), in order;
/// a padding slot may be among them.
fn differing_slots(rule: &[Packed], game: &[Packed]) -> Vec<u64> {
    rule.par_iter()
        .zip(game.par_iter())
        .enumerate()
        .filter(|(_, (r, g))| r.is_some() && r != g)
        .map(|(i, _)| i as u64)
        .collect()
}

/// Does the directory's `SHA256SUMS` name every placing table present?
fn sums_list_every_placing_table(tables: &TablebaseDir) -> Result<bool, TablebaseError> {
    let listed = tables.listed_sums();
    Ok(tables
        .list()?
        .into_iter()
        .filter(|id| !id.tier.is_moving())
        .all(|id| listed.contains_key(&id.file_name(tables.rules()))))
}
