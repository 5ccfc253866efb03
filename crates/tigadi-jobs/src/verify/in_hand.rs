//! The recomputation of a tier with gotis in hand under Lasker's rule
//! (`slides=always`): every position's value from its successors' values
//! ([`evaluate_in_hand`]: its slides into the flipped tier, its captures and
//! its placements, each looked up in the table of the tier it leads to),
//! whether the tier has moves inside it or not. A horizon table's values are
//! its DTC₁₀₀ ([`evaluate_in_hand_horizon`]: a placement restarts the counter
//! as a capture does, and past the turn limit is a draw).
//!
//! The kinds of table of a tier are checked in one sweep: their tables share
//! the index of every tier they read, so each successor is indexed once for
//! all of them, a few boards ahead of its evaluation, and its entry in every
//! kind's table prefetched (those reads, each a cache miss in a large table,
//! and the indexing were most of the check's time). One slot in [`SAMPLE`](super::sweep::SAMPLE) is
//! also recomputed with every successor indexed from scratch
//! ([`SubspaceIndex::index`]), a check of the indexing ahead.

use std::cell::Cell;
use std::collections::VecDeque;
use tigadi_index::{MoverClass, Subspace, SubspaceIndex};
use tigadi_rules::{Bits, Board, RuleSet};
use tigadi_solve::memory::prefetch;
use tigadi_solve::{
    evaluate_in_hand, evaluate_in_hand_horizon, for_each_turn_target, Packed, TurnTarget, Value,
};
use tigadi_tablebase::TableKind;
use tigadi_values::{Hands, Tier};

use super::report::SubspaceReport;
use super::step::{FirstBad, KindCheck, Run};
use super::sweep::{slot_chunks, sweep, Outcome};

/// How many boards ahead of its evaluation a board's successors are indexed
/// and their entries prefetched: enough for the reads to arrive, few enough
/// that they are still in the cache (the solver's initial pass uses as many).
const AHEAD: usize = 2;

/// A successor a board's evaluation reads: its hands and board, the place of
/// its tier among [`Tiers`], and its slot there.
type Entry = (Hands, Board, usize, u64);

/// The tiers a check reads (its own and its successor tiers), each with its
/// index: the same for every kind of table of the tier.
struct Tiers(Vec<(Tier, SubspaceIndex)>);

impl Tiers {
    /// The place among them of the tier of `board` with `hands`.
    fn place(&self, hands: Hands, board: Board) -> usize {
        let t = Tier::new(hands, Subspace::of(board));
        self.0
            .iter()
            .position(|(u, _)| *u == t)
            .expect("a tier's successors are loaded")
    }

    /// The place and slot of `board` with `hands`. `class` caches the last
    /// mover class found: a board's quiet slides, and its quiet placements,
    /// each lead to boards of one mover set.
    fn entry(
        &self,
        hands: Hands,
        board: Board,
        class: &Cell<Option<(usize, Bits, MoverClass)>>,
    ) -> (usize, u64) {
        let at = self.place(hands, board);
        let index = &self.0[at].1;
        let mover = match class.get() {
            Some((t, bits, c)) if t == at && bits == board.mover => c,
            _ => {
                let c = index.mover_class(board.mover);
                class.set(Some((at, board.mover, c)));
                c
            }
        };
        (at, index.index_with(mover, board.opponent))
    }

    /// The entries the evaluation of `board` of `tier` reads, in the order it
    /// reads them, appended to `ahead`; returns how many.
    fn entries(
        &self,
        rules: &RuleSet,
        tier: Tier,
        board: Board,
        ahead: &mut VecDeque<Entry>,
    ) -> usize {
        let before = ahead.len();
        let class = Cell::new(None);
        let mut record = |hands: Hands, next: Board| {
            let (at, slot) = self.entry(hands, next, &class);
            ahead.push_back((hands, next, at, slot));
        };
        // The turns in the order `evaluate_in_hand` reads their values: the
        // exits where they come, the quiet slides into the flipped tier.
        let slid = tier.flipped().hands;
        for_each_turn_target(rules, tier.hands, board, |t| match t {
            TurnTarget::Quiet(next) => record(slid, next),
            TurnTarget::Exit { hands, board, .. } => record(hands, board),
            TurnTarget::Valued(_) => {}
        });
        ahead.len() - before
    }
}

/// One kind's tables as the sweep reads them.
struct KindTables<'a> {
    kind: TableKind,
    /// In [`Tiers`] order; the first is the checked table.
    values: Vec<&'a [Packed]>,
    first_bad: &'a FirstBad,
}

impl KindTables<'_> {
    /// The value of `board` of `tier` recomputed with `lookup`.
    fn recompute(
        &self,
        rules: &RuleSet,
        tier: Tier,
        board: Board,
        lookup: &impl Fn(Hands, Board) -> Value,
    ) -> Value {
        match self.kind {
            TableKind::Horizon => evaluate_in_hand_horizon(rules, tier.hands, board, lookup),
            k => evaluate_in_hand(rules, k.metric(), tier.hands, board, lookup),
        }
    }

    fn value(&self, at: usize, slot: u64) -> Value {
        self.values[at][slot as usize]
            .get()
            .expect("Table::values rejects NONE")
    }
}

/// Recomputes `checks`, the tables of one tier with gotis in hand, filling in
/// their reports.
pub(super) fn check(run: &Run, checks: &mut [KindCheck]) {
    let Some(first) = checks.first() else {
        return;
    };
    let rules = &run.rules;
    let tier = first.id.tier;
    // Keyed by tier: a tier and its flipped partner may share board counts.
    let tiers = Tiers(
        first
            .values
            .tables()
            .map(|t| (t.tier, SubspaceIndex::new(t.tier.subspace)))
            .collect(),
    );
    let mut reports: Vec<&mut SubspaceReport> = Vec::new();
    let mut kinds: Vec<KindTables> = Vec::new();
    for c in checks.iter_mut() {
        kinds.push(KindTables {
            kind: c.id.kind,
            values: tiers.0.iter().map(|&(t, _)| c.values.of(t)).collect(),
            first_bad: &c.first_bad,
        });
        reports.push(&mut c.report);
    }
    let index = &tiers.0[0].1;
    let tasks = slot_chunks(index.slots());
    sweep(tasks, &mut reports, Some(run.observer), |range, tally| {
        let mut boards = index.boards(range);
        let mut queue = VecDeque::with_capacity(AHEAD + 1);
        let (mut ahead, mut found) = (VecDeque::new(), Vec::new());
        loop {
            while queue.len() <= AHEAD {
                let Some((slot, board)) = boards.next() else {
                    break;
                };
                let n = tiers.entries(rules, tier, board, &mut ahead);
                for &(_, _, at, s) in ahead.range(ahead.len() - n..) {
                    for k in &kinds {
                        prefetch(&k.values[at][s as usize]);
                    }
                }
                queue.push_back((slot, board, n));
            }
            let Some((slot, board, n)) = queue.pop_front() else {
                break;
            };
            found.clear();
            found.extend(ahead.drain(..n));
            for (j, k) in kinds.iter().enumerate() {
                let from_scratch = |hands: Hands, next: Board| {
                    let at = tiers.place(hands, next);
                    k.value(at, tiers.0[at].1.index(next))
                };
                // The entries come in the order they are read; one that does
                // not match (none does, but the verdict must not depend on
                // it) is indexed from scratch.
                let read = Cell::new(0);
                let lookup = |hands: Hands, next: Board| match found.get(read.get()) {
                    Some(&(h, b, at, s)) if h == hands && b == next => {
                        read.set(read.get() + 1);
                        k.value(at, s)
                    }
                    _ => from_scratch(hands, next),
                };
                let outcome = Outcome {
                    table: j,
                    slot,
                    board: &|| board,
                    stored: k.value(0, slot),
                    recomputed: k.recompute(rules, tier, board, &lookup),
                    first_section_bad: k.first_bad.get(slot),
                };
                tally.record_sampled(outcome, || k.recompute(rules, tier, board, &from_scratch));
            }
        }
    });
}
