//! Where the successor tables of a tier with gotis in hand differ under the
//! 100-turn rule from their game values
//! ([`tigadi_solve::horizon_shortcut`]), kept per table: the job's horizon pass
//! and `verify` both read a successor table's list from here.

use std::collections::HashMap;
use tigadi_solve::horizon_shortcut::differing_slots;
use tigadi_solve::Packed;
use tigadi_tablebase::{TableId, TableKind, TablebaseDir, TablebaseError};

/// The slots at which horizon table `id`, whose values are `rule`, differs from
/// its game-theoretic table ([`differing_slots`]): from `changed`, or
/// found by loading the game table and kept in `changed`.
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
