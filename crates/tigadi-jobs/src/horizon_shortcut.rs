//! "The 100-turn table follows from the game table": where a table's values
//! under the 100-turn rule differ from its game-theoretic values. A tier whose
//! moves all leave it takes a value that is a function of its successors' values
//! alone, so its values under the rule are its game values except at the boards
//! that move into such a slot. The job's horizon pass and `verify` both read a
//! successor table's list from here.

use rayon::prelude::*;
use std::collections::HashMap;
use tigadi_solve::Packed;
use tigadi_tablebase::{TableId, TableKind, TablebaseDir, TablebaseError};

/// The slots at which horizon table `id`, whose values are `rule`, differs from
/// its game-theoretic table ([`differing_slots`]): from `changed`, or found by
/// loading the game table and kept in `changed`.
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
pub(crate) fn differing_slots(rule: &[Packed], game: &[Packed]) -> Vec<u64> {
    rule.par_iter()
        .zip(game.par_iter())
        .enumerate()
        .filter(|(_, (r, g))| r.is_some() && r != g)
        .map(|(i, _)| i as u64)
        .collect()
}
