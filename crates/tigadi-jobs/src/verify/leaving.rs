//! The recomputation of a tier whose moves all leave it (a goti in hand: every
//! turn is a placement): each table's values recomputed from its successor
//! tiers' tables of the same kind by the solver's pass, one table at a time.

use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::{Board, RuleSet};
use tigadi_solve::{Observer, Packed, SolveError, SolvedTable};
use tigadi_tablebase::{mark_padding, TableId, TableKind, TablebaseError};

use super::passes::{evaluate_in_leaving_tier, leaving_tier_values, leaving_tier_values_changed};
use super::step::{passed, KindCheck, Run};
use super::sweep::{slot_chunks, stored_value, sweep, Indexed, Outcome, SAMPLE};
use super::VerifyObserver;
use crate::changed_lists::changed_slots;

/// A horizon table's shortcut through its game values, once its game table
/// has passed: the game values (padding marked) and, per successor table,
/// the slots at which its horizon values differ from its game values.
struct GameShortcut {
    game: Vec<Packed>,
    changed: Vec<(Subspace, Vec<u64>)>,
}

/// Recomputes `checks`, the tables of one tier whose moves all leave it, in
/// order (the game table first), filling in their reports.
pub(super) fn check(run: &mut Run, checks: &mut [KindCheck]) {
    for i in 0..checks.len() {
        let (done, rest) = checks.split_at_mut(i);
        let c = &mut rest[0];
        let slots = c.first_bad.slots();
        let result = shortcut(run, done, c).and_then(|shortcut| {
            c.report.from_game = shortcut.is_some();
            recompute(&run.rules, c, shortcut, run.observer)
        });
        if let Err(e) = result {
            c.report.error = Some(e);
            run.observer.advance(slots.saturating_sub(c.report.checked));
        }
    }
}

/// The shortcut for table `c` when it is a horizon table whose game table
/// passed (among `done`, the tables of its tier checked before it, or in an
/// earlier run).
fn shortcut(
    run: &mut Run,
    done: &[KindCheck],
    c: &KindCheck,
) -> Result<Option<GameShortcut>, TablebaseError> {
    let game_id = c.id.with_kind(TableKind::GameTheoretic);
    let game_passed =
        done.iter().any(|d| d.id == game_id && d.report.is_ok()) || passed(run, game_id);
    if !c.id.kind.has_turn_limit() || !game_passed {
        return Ok(None);
    }
    let needed: Vec<TableId> = c
        .values
        .successors
        .iter()
        .map(|t| TableId::new(c.id.kind, t.tier))
        .collect();
    run.changed.retain(|k, _| needed.contains(k));
    let mut changed = Vec::new();
    for (&id, t) in needed.iter().zip(&c.values.successors) {
        let store = run.tables.store();
        let list = changed_slots(store, &mut run.changed, id, &t.values)?;
        changed.push((t.tier.subspace, list.to_vec()));
    }
    let mut game = run.tables.values(game_id)?.to_vec();
    mark_padding(c.id.tier.subspace, &mut game);
    Ok(Some(GameShortcut { game, changed }))
}

/// The solver's progress, in slots, as the verify's.
struct Slots<'a>(&'a dyn VerifyObserver);

impl Observer for Slots<'_> {
    fn advance(&self, amount: u64) {
        self.0.advance(amount)
    }
}

/// Recomputes every position of table `c` from its successors' values and
/// compares with the stored values and the first section.
///
/// Every value is recomputed by the solver's pass ([`leaving_tier_values`]),
/// which visits positions grouped by the opponent's set so that their
/// successors' look-ups stay in cache (in slot order the same look-ups made
/// this check about 4× slower than the solve). One slot in [`SAMPLE`], and
/// every slot the pass leaves without a value, is also recomputed in slot
/// order with [`evaluate_in_leaving_tier`] and plain indexing.
///
/// With a `shortcut` (a horizon table whose game table has passed) the pass
/// does not run: a placing value is a function of its placements' values
/// alone, so where every placement leads to a slot whose horizon value is its
/// game value, the value under the rule must be the position's game value
/// (checked against its successors already), and only the boards with a
/// placement into a changed slot are recomputed
/// ([`leaving_tier_values_changed`]). There is no sample: the game table's
/// check sampled the same slots over the same successor values, and the
/// recomputed boards are all evaluated on their own.
fn recompute(
    rules: &RuleSet,
    c: &mut KindCheck,
    shortcut: Option<GameShortcut>,
    observer: &dyn VerifyObserver,
) -> Result<(), TablebaseError> {
    let tier = c.id.tier;
    let metric = c.id.kind.metric();
    let sampling = shortcut.is_none();
    let fast = pass_values(rules, c, shortcut, observer)
        .map_err(|e| TablebaseError::corrupt(&c.report.path, format!("its successors: {e}")))?;
    let index = SubspaceIndex::new(tier.subspace);
    let indexed: Vec<Indexed> = c
        .values
        .successors
        .iter()
        .map(|t| Indexed {
            subspace: t.tier.subspace,
            index: SubspaceIndex::new(t.tier.subspace),
            values: &t.values,
        })
        .collect();
    let lookup = |b: Board| stored_value(&indexed, b);
    let own = c.values.of(tier);
    let first_bad = &c.first_bad;
    let tasks = slot_chunks(own.len() as u64);
    sweep(tasks, &mut [&mut c.report], None, |range, tally| {
        for slot in range {
            let stored = || {
                own[slot as usize]
                    .get()
                    .expect("Table::values rejects NONE")
            };
            let fast = fast[slot as usize].get();
            let recomputed = match fast {
                Some(f) if !(sampling && slot % SAMPLE == 0) => f,
                _ => {
                    // Padding, unless the index decodes a position here.
                    let Some(b) = index.board(slot) else {
                        continue;
                    };
                    let slow = evaluate_in_leaving_tier(rules, metric, tier, b, lookup);
                    match fast {
                        Some(f) if slow == stored() => f,
                        _ => slow,
                    }
                }
            };
            tally.record(Outcome {
                table: 0,
                slot,
                board: &|| index.board(slot).expect("checked slots hold positions"),
                stored: stored(),
                recomputed,
                first_section_bad: first_bad.get(slot),
            });
        }
    });
    Ok(())
}

/// The values the solver's pass gives table `c`'s slots from its successors'
/// values, in full or through the horizon `shortcut`.
fn pass_values(
    rules: &RuleSet,
    c: &KindCheck,
    shortcut: Option<GameShortcut>,
    observer: &dyn VerifyObserver,
) -> Result<Vec<Packed>, SolveError> {
    let next: Vec<SolvedTable> = c
        .values
        .successors
        .iter()
        .map(|t| SolvedTable {
            subspace: t.tier.subspace,
            values: &t.values,
        })
        .collect();
    let tier = c.id.tier;
    match shortcut {
        None => leaving_tier_values(rules, c.id.kind.metric(), tier, &next, &Slots(observer)),
        Some(GameShortcut { game, changed }) => {
            let changed: Vec<(Subspace, &[u64])> =
                changed.iter().map(|(n, l)| (*n, &l[..])).collect();
            leaving_tier_values_changed(rules, tier, game, &next, &changed, &Slots(observer))
        }
    }
}
