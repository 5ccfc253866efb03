//! The recomputation of a tier with moves inside it (both hands empty: slides
//! and passes lead to its flipped subspace, captures to its capture target).
//! Every kind of its tables is recomputed in one sweep, each position's
//! successors generated and indexed once for all of them.

use std::ops::Range;
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::{Board, RuleSet};
use tigadi_solve::memory::prefetch;
use tigadi_solve::runs::SlotSet;
use tigadi_solve::runs::{run_tasks, RunMoves};
use tigadi_solve::{evaluate_with, Packed, Value};
use tigadi_tablebase::TableKind;

use super::passes::{horizon_follows_from_game, SuccessorKeys};
use super::report::SubspaceReport;
use super::step::{FirstBad, KindCheck, Run, TierValues};
use super::sweep::{slot_chunks, stored_value, sweep, Indexed, Outcome, Tally, CHUNK};
use super::VerifyObserver;

/// The most kinds of table of one tier ([`TableKind::ALL`]).
const KINDS: usize = TableKind::ALL.len();

/// Recomputes `checks`, the tables of one tier with moves inside it, filling
/// in their reports. A horizon table whose values follow from the game values
/// ([`horizon_follows_from_game`]) is left out of the sweep and settled after
/// it: by its category section alone when the game table passed, else by a
/// sweep of its own.
pub(super) fn check(run: &Run, checks: &mut Vec<KindCheck>) {
    if checks.is_empty() {
        return;
    }
    let rules = &run.rules;
    let game = checks
        .iter()
        .position(|c| c.id.kind == TableKind::GameTheoretic);
    let deferred = game.and_then(|g| {
        let h = checks.iter().position(|c| c.id.kind.has_turn_limit())?;
        horizon_follows_from_game(rules, &checks[g].values, &checks[h].values).then_some(h)
    });
    let deferred = deferred.map(|h| checks.remove(h));
    sweep_tier(rules, checks, run.observer);
    if let Some(mut h) = deferred {
        let game = checks
            .iter()
            .find(|c| c.id.kind == TableKind::GameTheoretic)
            .expect("a horizon table is deferred only beside its game table");
        if game.report.is_ok() {
            // Its values are its game values capped at the limit, which
            // passed: only the category section is left to compare.
            h.report.from_game = true;
            check_categories(&mut h);
            h.report.checked = game.report.checked;
            run.observer.advance(h.first_bad.slots());
        } else {
            sweep_tier(rules, std::slice::from_mut(&mut h), run.observer);
        }
        checks.push(h);
        checks.sort_by_key(|c| c.id.kind);
    }
}

/// Compares a deferred horizon table's category section with its values (the
/// positions only: a padding slot's entries mean nothing).
fn check_categories(h: &mut KindCheck) {
    let s = h.id.tier.subspace;
    let index = SubspaceIndex::new(s);
    let values = h.values.of(h.id.tier);
    let first_bad = &h.first_bad;
    sweep(
        slot_chunks(values.len() as u64),
        &mut [&mut h.report],
        None,
        |range, tally| {
            for slot in range {
                if !first_bad.get(slot) {
                    continue;
                }
                if let Some(b) = index.board(slot) {
                    let v = values[slot as usize]
                        .get()
                        .expect("Table::values rejects NONE");
                    tally.record(Outcome {
                        table: 0,
                        slot,
                        board: &|| b,
                        stored: v,
                        recomputed: v,
                        first_section_bad: true,
                    });
                }
            }
        },
    );
}

/// Recomputes every position of the tables `checks` (one per kind, of one
/// tier) in one sweep and fills in their reports.
fn sweep_tier(rules: &RuleSet, checks: &mut [KindCheck], observer: &dyn VerifyObserver) {
    let (parts, mut reports): (Vec<_>, Vec<&mut SubspaceReport>) = checks
        .iter_mut()
        .map(|c| {
            let part = KindParts {
                kind: c.id.kind,
                values: &c.values,
                first_bad: &c.first_bad,
            };
            (part, &mut c.report)
        })
        .unzip();
    let tier = TierSweep::new(rules, &parts);
    sweep(
        tier.tasks(),
        &mut reports,
        Some(observer),
        |range, tally| tier.check_range(range, tally),
    );
}

/// What a [`TierSweep`] reads of one kind's check.
struct KindParts<'a> {
    kind: TableKind,
    values: &'a TierValues,
    first_bad: &'a FirstBad,
}

/// One kind's tables in a [`TierSweep`].
struct KindTables<'a> {
    kind: TableKind,
    /// Its successors' values as choice keys: the best is the largest.
    keys: SuccessorKeys,
    own: &'a [Packed],
    /// The flipped subspace's values (the quiet successors').
    quiet: &'a [Packed],
    /// Every table it reads, for look-ups from scratch.
    indexed: Vec<Indexed<'a>>,
    first_bad: &'a FirstBad,
}

/// A position's best successor key of each kind so far ([`SuccessorKeys`];
/// `0`: none yet), and the kinds (bits) where a successor had no key.
#[derive(Clone, Copy, Default)]
struct BestKeys {
    best: [u16; KINDS],
    missing: u8,
}

impl BestKeys {
    #[inline]
    fn add(&mut self, j: usize, key: u16) {
        self.best[j] = SuccessorKeys::best_of(self.best[j], key);
        self.missing |= ((key == 0) as u8) << j;
    }
}

/// A position whose captures are weighed and whose quiet successors' values
/// are being prefetched.
struct Pending {
    slot: u64,
    board: Board,
    keys: BestKeys,
}

/// The recomputation of one tier's tables of every kind (a subspace, its
/// flipped subspace and its capture target read).
///
/// Positions are taken a run at a time, as the solver takes them
/// ([`RunMoves`]): the slides of the run's mover set are listed once, each
/// capture target the run reaches is indexed once and its value in every table
/// read into a memo, and the quiet successors' slots come from one
/// precomputed form by toggling two points unless a symmetry fixes their
/// mover set. Each position's successors are generated and indexed once for
/// all the kinds, and looked up in each; the best successor is the largest of
/// their choice keys ([`SuccessorKeys`], one table read a successor, as in the
/// placing pass). One slot in [`SAMPLE`](super::sweep::SAMPLE) is also recomputed with
/// [`evaluate_with`] and plain indexing, in every table; a mismatch of either
/// way is reported.
struct TierSweep<'a> {
    rules: &'a RuleSet,
    sub: Subspace,
    own_idx: SubspaceIndex,
    quiet_idx: SubspaceIndex,
    target_idx: Option<SubspaceIndex>,
    /// Each kind's capture target's values (empty without a target).
    target: Vec<&'a [Packed]>,
    kinds: Vec<KindTables<'a>>,
}

impl<'a> TierSweep<'a> {
    fn new(rules: &'a RuleSet, parts: &[KindParts<'a>]) -> TierSweep<'a> {
        let k = parts.len();
        assert!((1..=KINDS).contains(&k), "{k} kinds of table");
        let tier = parts[0].values.own.tier;
        let sub = tier.subspace;
        let target = tier.slide_capture();
        let kinds = parts
            .iter()
            .map(|p| KindTables {
                kind: p.kind,
                keys: SuccessorKeys::new(p.kind.metric()),
                own: p.values.of(tier),
                quiet: p.values.of(tier.flipped()),
                indexed: p
                    .values
                    .tables()
                    .map(|t| Indexed {
                        subspace: t.tier.subspace,
                        index: SubspaceIndex::new(t.tier.subspace),
                        values: &t.values,
                    })
                    .collect(),
                first_bad: p.first_bad,
            })
            .collect();
        TierSweep {
            rules,
            sub,
            own_idx: SubspaceIndex::new(sub),
            quiet_idx: SubspaceIndex::new(sub.flipped()),
            target_idx: target.map(|t| SubspaceIndex::new(t.subspace)),
            target: match target {
                Some(t) => parts.iter().map(|p| p.values.of(t)).collect(),
                None => Vec::new(),
            },
            kinds,
        }
    }

    /// The tasks: ranges of whole runs of slots.
    fn tasks(&self) -> Vec<Range<u64>> {
        let run = self.own_idx.run_length();
        run_tasks(&self.own_idx, CHUNK)
            .into_iter()
            .map(|runs| runs.start * run..runs.end * run)
            .collect()
    }

    /// Recomputes the positions of `range` (whole runs) in every kind.
    fn check_range(&self, range: Range<u64>, tally: &mut Tally) {
        let rules = self.rules;
        let run = self.own_idx.run_length();
        let mut moves = RunMoves::default();
        // A two-stage pipeline, as in the solver: the quiet successors' values of
        // one position are prefetched while those of the position before it are
        // read (the captures' come from the run's memo).
        let mut sets = [SlotSet::new(), SlotSet::new()];
        let mut pending: [Option<Pending>; 2] = [None, None];
        let mut cur = 0;
        for r in range.start / run..range.end / run {
            let (mover, _) = self.own_idx.run_mover(r);
            moves.prepare_many(
                rules,
                mover,
                self.sub.opponent as u32,
                self.target_idx.map(|t| (t, &self.target[..])),
            );
            for (slot, board) in self.own_idx.boards(r * run..(r + 1) * run) {
                debug_assert_eq!(board.mover, mover);
                let mut keys = BestKeys::default();
                moves.captures_many(rules, board.opponent, self.target_idx.is_none(), |next| {
                    for (j, kind) in self.kinds.iter().enumerate() {
                        keys.add(
                            j,
                            match next {
                                None => SuccessorKeys::game_over(),
                                Some(v) => kind.keys.capture(v[j]),
                            },
                        );
                    }
                    true
                });
                let set = &mut sets[cur];
                moves.quiet_successors(rules, &self.quiet_idx, board.opponent, set);
                for &q in set.distinct() {
                    for kind in &self.kinds {
                        prefetch(&kind.quiet[q as usize]);
                    }
                }
                pending[cur] = Some(Pending { slot, board, keys });
                cur ^= 1;
                if let Some(p) = pending[cur].take() {
                    self.settle(tally, p, sets[cur].distinct());
                }
            }
        }
        if let Some(p) = pending[cur ^ 1].take() {
            self.settle(tally, p, sets[cur ^ 1].distinct());
        }
    }

    /// Adds the quiet successors `quiet` (slots of the flipped subspace) to a
    /// pending position's keys and records its recomputed value in every kind.
    #[inline]
    fn settle(&self, tally: &mut Tally, p: Pending, quiet: &[u64]) {
        let Pending {
            slot,
            board,
            mut keys,
        } = p;
        for (j, kind) in self.kinds.iter().enumerate() {
            for &q in quiet {
                keys.add(j, kind.keys.quiet(kind.quiet[q as usize]));
            }
            let stored = kind.own[slot as usize]
                .get()
                .expect("Table::values rejects NONE");
            let from_scratch = || {
                let lookup = |b: Board| stored_value(&kind.indexed, b);
                let v = evaluate_with(self.rules, kind.kind.metric(), board, lookup);
                kind.kind.recomputed(self.rules, v)
            };
            let recomputed: Value = if keys.missing & 1 << j != 0 {
                // A successor's value has no key (a depth out of range):
                // recomputed from scratch, which reports it.
                from_scratch()
            } else {
                kind.kind
                    .recomputed(self.rules, SuccessorKeys::value(keys.best[j]))
            };
            let outcome = Outcome {
                table: j,
                slot,
                board: &|| board,
                stored,
                recomputed,
                first_section_bad: kind.first_bad.get(slot),
            };
            tally.record_sampled(outcome, from_scratch);
        }
    }
}
