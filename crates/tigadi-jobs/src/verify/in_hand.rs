//! The recomputation of a tier with gotis in hand under Lasker's rule
//! (`slides=always`): every position's value from its successors' values
//! ([`evaluate_in_hand`]: its slides into the flipped tier, its captures and
//! its placements, each looked up from scratch in the table of the tier it
//! leads to), whether the tier has moves inside it or not. A horizon table's
//! values are its DTC₁₀₀ ([`evaluate_in_hand_horizon`]: a placement restarts
//! the counter as a capture does, and past the turn limit is a draw).

use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::Board;
use tigadi_solve::{evaluate_in_hand, evaluate_in_hand_horizon, Packed, Value};
use tigadi_tablebase::TableKind;
use tigadi_values::{Hands, Tier};

use super::step::{KindCheck, Run};
use super::sweep::{slot_chunks, sweep, Outcome};

/// Recomputes `checks`, the tables of one tier with gotis in hand, filling in
/// their reports.
pub(super) fn check(run: &Run, checks: &mut [KindCheck]) {
    let rules = &run.rules;
    for c in checks {
        let tier = c.id.tier;
        let kind = c.id.kind;
        // Keyed by tier: a tier and its flipped partner may share board counts.
        let tables: Vec<(Tier, SubspaceIndex, &[Packed])> = c
            .values
            .tables()
            .map(|t| (t.tier, SubspaceIndex::new(t.tier.subspace), &t.values[..]))
            .collect();
        let lookup = |hands: Hands, b: Board| -> Value {
            let t = Tier::new(hands, Subspace::of(b));
            let (_, index, values) = tables
                .iter()
                .find(|(u, _, _)| *u == t)
                .expect("a tier's successors are loaded");
            values[index.index(b) as usize]
                .get()
                .expect("Table::values rejects NONE")
        };
        let index = SubspaceIndex::new(tier.subspace);
        let own = c.values.of(tier);
        let first_bad = &c.first_bad;
        let tasks = slot_chunks(own.len() as u64);
        sweep(
            tasks,
            &mut [&mut c.report],
            Some(run.observer),
            |range, tally| {
                for (slot, b) in index.boards(range) {
                    let stored = own[slot as usize]
                        .get()
                        .expect("Table::values rejects NONE");
                    tally.record(Outcome {
                        table: 0,
                        slot,
                        board: &|| b,
                        stored,
                        recomputed: match kind {
                            TableKind::Horizon => {
                                evaluate_in_hand_horizon(rules, tier.hands, b, &lookup)
                            }
                            k => evaluate_in_hand(rules, k.metric(), tier.hands, b, &lookup),
                        },
                        first_section_bad: first_bad.get(slot),
                    });
                }
            },
        );
    }
}
