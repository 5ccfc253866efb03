//! The tiers whose moves all leave them (docs/RULES.md §3): every tier with a goti
//! in the mover's hand outside Lasker's rule, solved one at a time by one pass over
//! its slots from its successors' values (no cycles, no rounds).
//!
//! # Tiers with gotis in hand
//!
//! A position of such a tier is a board, the player to move and the two hands
//! ([`Tier`]); every turn places a goti, so every move leads to a tier with one
//! goti fewer in the placer's hand: `(o, m + 1)` on the board for a quiet
//! placement, `(o - 1, m + 1)` for one that captures ([`successor_tiers`]). A tier
//! is indexed by the same symmetry-reduced [`SubspaceIndex`] as a moving-phase
//! one (its hands are the same in every position); board counts with fewer than
//! three gotis on a side are normal while gotis are in hand. The tiers after the
//! last placement are moving-phase tiers, read at counter 0.
//!
//! # Values
//!
//! Game-theoretic win/draw/loss for the player to move (docs/RULES.md §7), with a depth
//! that extends the moving phase's DTC backwards through the placing phase: the
//! number of turns (placements count as turns) to the next capture under optimal
//! play, a capture counting 1, the winner keeping the win and capturing as soon as
//! possible, the loser as late as possible. A line of placements without a capture
//! reaches the moving phase after as many turns as gotis are in hand and then adds
//! that position's DTC;
//! a capture while placing restarts the count as it does in the moving phase. So the
//! one [`Value`] type, its packing and its `before_turn` step serve both phases, and
//! the placing depth is exactly the DTC a moving-phase reader already knows. The
//! 100-turn classes of docs/RULES.md §7 plug in the same way once the moving phase has
//! them: a placing position's class is the best of its placements' classes, with the
//! leaves' classes read at counter 0 (the lookup passed to [`evaluate_placing`]).
//! So does the depth to win (DTW, the turns to the end of the game): the `_with`
//! functions take a [`Metric`]; with [`Metric::Dtw`] a capture adds one turn to
//! the DTW of what it leads to instead of restarting the count, and the leaves are
//! the moving phase's DTW tables ([`crate::dtw`]).
//!
//! Not here: files (see `tigadi-tablebase`), progress bars (see the CLI).

use crate::tables::{Observer, SolveError, SolvedSubspace, SolvedTable, TableSet};
use crate::value::{Metric, Packed, Value, MAX_DTC};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, Ordering::Relaxed};
use tigadi_index::{binomial, FreeSets, MoverClass, Subspace, SubspaceIndex};
use tigadi_rules::geometry::Bits;
use tigadi_rules::{Board, RuleSet};
pub use tigadi_values::placement::{
    evaluate_placing, evaluate_placing_with, for_each_placement_value,
    for_each_placement_value_with,
};
use tigadi_values::{placing_turns, successor_tiers, tiers_after, Tier};

/// Positions one worker evaluates at a time (at least one opponent-set group).
const CHUNK: u64 = 1 << 14;

/// The most lines a board has (the 20-line board's).
const MAX_LINES: usize = 20;

/// View a packed-value vector as atomics, for the parallel pass.
fn atomic_packed(v: &mut [Packed]) -> &[AtomicU16] {
    // SAFETY: Packed is a transparent u16, and AtomicU16 has the same size,
    // alignment and bit validity as u16; the exclusive borrow guarantees no
    // non-atomic access while the view lives.
    unsafe { &*(v as *mut [Packed] as *const [AtomicU16]) }
}

/// The subspaces of the tiers the moves of `tier` lead to ([`successor_tiers`]):
/// `(o, m + 1)` for quiet placements and `(o - 1, m + 1)` for captures, when those
/// exist. Solving the tier needs only these tables, which bounds the memory of a
/// tier-by-tier solve.
pub fn successor_subspaces(rules: &RuleSet, tier: Tier) -> Vec<Subspace> {
    successor_tiers(rules, tier)
        .into_iter()
        .map(|t| t.subspace)
        .collect()
}

/// A placement's value for the placer as a number that orders the choices: a
/// larger number is a better choice ([`Value::better_than`]), so the best placement
/// is the largest; `0` is no value.
#[inline]
fn choice_key(v: Value) -> u16 {
    match v {
        Value::Win(d) => {
            assert!((1..=MAX_DTC).contains(&d), "win DTC {d} out of range");
            0xFFFF - d
        }
        Value::Draw => 0x8000,
        Value::Loss(d) => {
            assert!(d <= MAX_DTC, "loss DTC {d} out of range");
            d + 1
        }
    }
}

/// The [`choice_key`] of every packed successor value, by its bits: the key of
/// `step(v)`, the value of the turn that leads to `v`, `0` where
/// that has no key (no value, or a depth out of range: the pass stops there with
/// the error that [`choice_key`] would give). One table read per successor
/// instead of decoding, stepping and encoding each one.
fn successor_keys(step: impl Fn(Value) -> Value) -> Box<[u16]> {
    (0..=u16::MAX)
        .map(|bits| match Packed(bits).get() {
            None => 0,
            Some(v) => match step(v) {
                Value::Win(d) | Value::Loss(d) if d > MAX_DTC => 0,
                Value::Win(0) => 0,
                v => choice_key(v),
            },
        })
        .collect()
}

/// `keys[p]` ([`successor_keys`]), which must be a key.
#[inline]
fn successor_key(keys: &[u16], p: Packed) -> u16 {
    let key = keys[p.0 as usize];
    if key == 0 {
        // The slow path, for its message.
        let v = p
            .get()
            .expect("a solved table has a value at a canonical slot");
        unreachable!("successor {v}: its depth after the placement is out of range");
    }
    key
}

/// Every successor's value as a choice key, for a best-of pass that takes the
/// maximum of `u16`s instead of comparing values: the key of
/// `metric.before_turn(v, capture)` for a successor whose stored value is `v`,
/// by its packed bits (one table read per successor), for quiet moves and for
/// captures. Keys order as [`Value::better_than`] orders values; `0` is no key
/// (no value, or a depth out of range), which a caller must take to a slow path.
/// The placing pass and `verify` share it.
pub struct SuccessorKeys {
    quiet: Box<[u16]>,
    capture: Box<[u16]>,
}

impl SuccessorKeys {
    /// The keys of slides (and passes) to successors whose values' depth is
    /// `metric` ([`Metric::before_turn`]).
    pub fn new(metric: Metric) -> Self {
        SuccessorKeys {
            quiet: successor_keys(|v| metric.before_turn(v, false)),
            capture: successor_keys(|v| metric.before_turn(v, true)),
        }
    }

    /// The keys of placements ([`Metric::before_placement`]: the same as
    /// [`SuccessorKeys::new`]'s but in [`Metric::Dtz`], where every placement
    /// restarts the count).
    pub fn of_placements(metric: Metric) -> Self {
        SuccessorKeys {
            quiet: successor_keys(|v| metric.before_placement(v, false)),
            capture: successor_keys(|v| metric.before_placement(v, true)),
        }
    }

    /// The key of a quiet successor (or a pass) whose stored value is `p`.
    #[inline]
    pub fn quiet(&self, p: Packed) -> u16 {
        self.quiet[p.0 as usize]
    }

    /// The key of a capture target whose stored value is `p`.
    #[inline]
    pub fn capture(&self, p: Packed) -> u16 {
        self.capture[p.0 as usize]
    }

    /// The key of a capture that ends the game (a win in 1).
    #[inline]
    pub fn game_over() -> u16 {
        choice_key(Value::Win(1))
    }

    /// The better of two keys, `a.max(b)`, without a branch. Which key wins
    /// depends on data, so a branch mispredicts often, and LLVM turns a plain
    /// `max` (and any arithmetic form of it) in the placing pass's loop into a
    /// branch; on x86-64 the conditional move is written out (docs/PERFORMANCE.md:
    /// the placing pass reorganised).
    #[inline(always)]
    pub fn best_of(a: u16, b: u16) -> u16 {
        #[cfg(target_arch = "x86_64")]
        {
            let mut out = a as u32;
            // SAFETY: register-only arithmetic: no memory, no stack, no flags
            // visible outside.
            unsafe {
                std::arch::asm!(
                    "cmp {out:e}, {b:e}",
                    "cmovb {out:e}, {b:e}",
                    out = inout(reg) out,
                    b = in(reg) b as u32,
                    options(pure, nomem, nostack),
                );
            }
            out as u16
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            a.max(b)
        }
    }

    /// The value of the best key, `best` the maximum of a position's keys (none
    /// of them `0`), `0` when it has no successor: a loss in 0.
    #[inline]
    pub fn value(best: u16) -> Value {
        if best == 0 {
            Value::Loss(0)
        } else {
            key_value(best)
        }
    }
}

/// The value a [`choice_key`] was made from.
#[inline]
fn key_value(key: u16) -> Value {
    match key {
        0x8000 => Value::Draw,
        k if k > 0x8000 => Value::Win(0xFFFF - k),
        k => Value::Loss(k - 1),
    }
}

/// What a placing pass over one subspace reads: the tables its quiet placements and
/// its captures lead into (index and values), where they exist.
struct GroupTables<'a> {
    rules: &'a RuleSet,
    /// Gotis of the player who places, after placing (`m + 1`).
    placer_gotis: u32,
    /// Gotis the other player holds in hand.
    opponent_hand: u8,
    quiet: Option<(SubspaceIndex, &'a [Packed])>,
    capture: Option<(SubspaceIndex, &'a [Packed])>,
    /// The keys of a quiet placement's and of a capture's successor.
    keys: SuccessorKeys,
}

/// The placements' values for the boards `(M, O)` of one opponent set `O`, and
/// from them each board's best: by the number of a set among the sets of points
/// that `O` leaves free ([`FreeSets`]), as [`choice_key`]s. For `K` passes over
/// one tier at once (one per kind of table): what does not depend on the
/// tables (the free sets, the capture targets' classes, the lines closed, the
/// slots) is found once, and each pass's values are read from its own tables
/// at the same slots.
struct Group<const K: usize> {
    free: FreeSets,
    /// Per pass: the quiet placements' values, by the number of the placer's
    /// new set `M + p`.
    quiet: [Vec<u16>; K],
    /// Every capture wins at once: the other player falls below three gotis.
    game_over: bool,
    /// The capture table's mover classes of `O` less each capturable goti.
    targets: Vec<MoverClass>,
    /// Per pass: the best placement's value from each board `(M, O)`, by the
    /// number of `M`.
    best: [Vec<u16>; K],
}

impl<const K: usize> Group<K> {
    fn new() -> Self {
        Group {
            free: FreeSets::default(),
            quiet: std::array::from_fn(|_| Vec::new()),
            game_over: false,
            targets: Vec::new(),
            best: std::array::from_fn(|_| Vec::new()),
        }
    }

    /// Makes this the group of opponent set `opponent`: reads the values of the
    /// quiet placements and of the captures in each pass's `tables` (all of
    /// one tier's placements), and takes each board's best in each.
    fn start(&mut self, tables: [&GroupTables; K], opponent: Bits) {
        let first = tables[0];
        self.free = FreeSets::new(opponent);
        let n = self.free.free_points();
        let size = first.placer_gotis;
        let sets = binomial(n, size) as usize;
        for q in &mut self.quiet {
            q.clear();
        }
        if size == n {
            // The board is full after the placement: a draw (docs/RULES.md §8), not
            // looked up.
            for q in &mut self.quiet {
                q.push(choice_key(Value::Draw));
            }
        } else {
            let no_table = || unreachable!("no table for the quiet placements");
            let index = first.quiet.unwrap_or_else(no_table).0;
            let values: [&[Packed]; K] =
                std::array::from_fn(|k| tables[k].quiet.unwrap_or_else(no_table).1);
            let class = index.mover_class(opponent);
            match class.identity_run() {
                // The group's canonical `O` is the next table's canonical mover set:
                // the run holds exactly the group's quiet successors, in order.
                Some(start) => {
                    let run = start as usize..start as usize + sets;
                    for k in 0..K {
                        // The next group's run (the next canonical set's) usually
                        // follows: fetch it while this group is evaluated.
                        let ahead = run.end..(run.end + sets).min(values[k].len());
                        crate::memory::prefetch_slice(&values[k][ahead]);
                        let keys = &tables[k].keys.quiet;
                        let read = values[k][run.clone()].iter();
                        self.quiet[k].extend(read.map(|&p| successor_key(keys, p)));
                    }
                }
                None => self.free.for_each(size, |set| {
                    let slot = index.index_with(class, set) as usize;
                    for k in 0..K {
                        let key = successor_key(&tables[k].keys.quiet, values[k][slot]);
                        self.quiet[k].push(key);
                    }
                }),
            }
        }
        debug_assert!(self.quiet.iter().all(|q| q.len() == sets));
        self.targets.clear();
        self.game_over = false;
        // A placement closes a line only with three gotis or more, and captures
        // only when the other player has a goti on the board.
        let captures = opponent != 0 && size >= 3;
        if captures {
            // Any capture leaves `O` less one goti.
            let after_capture = Board {
                mover: opponent & (opponent - 1),
                opponent: 0,
            };
            self.game_over = after_capture.placing_game_over(first.opponent_hand);
            if !self.game_over {
                let no_table = || unreachable!("no table for the captures");
                let index = first.capture.unwrap_or_else(no_table).0;
                let mut c = first.rules.geometry().capturable(opponent);
                // Every capture of this group reads the capture table in the runs
                // of `O` less one capturable goti, at slots that depend on the
                // placer's set: fetch those runs now rather than miss on each read
                // (measured in docs/PERFORMANCE.md).
                let run = index.run_length() as usize;
                while c != 0 {
                    let q = c & c.wrapping_neg();
                    c &= c - 1;
                    let class = index.mover_class(opponent & !q);
                    let first_slot = class.first_slot() as usize;
                    for t in tables {
                        let values = t.capture.unwrap_or_else(no_table).1;
                        crate::memory::prefetch_slice(&values[first_slot..first_slot + run]);
                    }
                    self.targets.push(class);
                }
            }
        }
        // Each board's best, from the placer's new sets: a set `S` of `m + 1`
        // free points is reached from the `m + 1` boards `S - p`, by a placement
        // on `p` that captures when `p` stands in a complete line of `S` and is
        // quiet otherwise. So one ordered pass over the sets, each valued once
        // (the best capture only when it has a line), keeps a maximum per board
        // in an array that stays in cache, with no rank computed from scratch.
        let boards = binomial(n, size - 1) as usize;
        for b in &mut self.best {
            b.clear();
            b.resize(boards, 0);
        }
        // The lines that `M + p` may complete: those clear of `O`, compressed, so
        // that a set's lines are found without expanding it; padded with the full
        // set of 32 points, which no set holds.
        let free = self.free;
        let mut open = [Bits::MAX; MAX_LINES];
        if captures {
            let lines = &first.rules.geometry().lines;
            assert!(
                lines.len() <= MAX_LINES,
                "a board of more than {MAX_LINES} lines"
            );
            let clear = lines.iter().filter(|&&l| l & opponent == 0);
            for (o, &l) in open.iter_mut().zip(clear) {
                *o = free.compress(l);
            }
        }
        let best: [&mut [u16]; K] = {
            let mut b = self.best.iter_mut();
            std::array::from_fn(|_| &mut b.next().expect("K arrays")[..boards])
        };
        let quiet: [&[u16]; K] = std::array::from_fn(|k| &self.quiet[k][..sets]);
        let mut number = 0;
        FreeSets::for_each_of(n, size, |set| {
            let q: [u16; K] = std::array::from_fn(|k| quiet[k][number as usize]);
            // Branch-free over a fixed number of lines, so that it vectorises.
            let mut lines = 0;
            for &l in &open {
                lines |= l & (((set & l) == l) as Bits).wrapping_neg();
            }
            // Each board `set - p` keeps the better of its best so far and `key`.
            // SAFETY: `for_each_less_one` numbers sets of `size - 1` of the `n`
            // free points, so `less < C(n, size - 1) = boards`, the length of
            // every `best[k]` (the bounds check cost more than the maximum).
            let mut keep = |k: usize, less: u32, key: u16| unsafe {
                debug_assert!((less as usize) < boards);
                let b = best[k].get_unchecked(less as usize);
                *best[k].get_unchecked_mut(less as usize) = SuccessorKeys::best_of(*b, key);
            };
            if lines == 0 {
                // Every placement that makes this set is quiet.
                FreeSets::for_each_less_one(set, number, |less, _| {
                    for (k, &key) in q.iter().enumerate() {
                        keep(k, less, key);
                    }
                });
            } else {
                let capture = if self.game_over {
                    [choice_key(Value::Win(1)); K]
                } else {
                    capture_keys(&self.targets, tables, free.expand(set))
                };
                FreeSets::for_each_less_one(set, number, |less, j| {
                    // Both choices without branches: which one wins is data, and
                    // a mispredicted branch here cost more than the rest of the
                    // step.
                    let line = ((lines >> j) & 1) as u16;
                    for k in 0..K {
                        keep(k, less, q[k] ^ ((q[k] ^ capture[k]) & line.wrapping_neg()));
                    }
                });
            }
            number += 1;
        });
    }
}

/// The value of the best capture after a placement that leaves the placer's gotis
/// at `after` and closes a line, in each pass's `tables`, the capture table's
/// classes of the other player's gotis less each capturable one being
/// `targets`: each target's slot found once and read in every pass's table.
fn capture_keys<const K: usize>(
    targets: &[MoverClass],
    tables: [&GroupTables; K],
    after: Bits,
) -> [u16; K] {
    if targets.is_empty() {
        unreachable!("a line closed with no goti to capture");
    }
    let no_table = || unreachable!("no table for the captures");
    let index = tables[0].capture.unwrap_or_else(no_table).0;
    let values: [&[Packed]; K] =
        std::array::from_fn(|k| tables[k].capture.unwrap_or_else(no_table).1);
    // Every key is above 0, the key of no successor.
    let mut best = [0u16; K];
    for &class in targets {
        let slot = index.index_with(class, after) as usize;
        for k in 0..K {
            best[k] = best[k].max(successor_key(&tables[k].keys.capture, values[k][slot]));
        }
    }
    best
}

/// Solves `tier`, a tier whose moves all leave it (a goti in the mover's hand, no
/// slide: [`Tier::has_moves_inside`] is false), given the values of what its
/// placements lead to (`next`: at least the tables of [`successor_subspaces`]), and returns
/// one value per slot, [`Packed::NONE`] for padding. One pass, in parallel on the
/// current rayon pool; the result does not depend on the number of threads.
/// Reports progress in slots to `observer` (no phase of its own).
pub fn solve_tier(
    rules: &RuleSet,
    tier: Tier,
    next: &[SolvedTable],
    observer: &dyn Observer,
) -> Result<SolvedSubspace, SolveError> {
    solve_tier_with(rules, Metric::Dtc, tier, next, observer)
}

/// [`solve_tier`] for values whose depth is `metric`: with [`Metric::Dtw`] and
/// `next` the DTW tables of what the placements lead to (tiers with a goti fewer
/// in hand, or the moving phase's from [`crate::dtw`]), the tier's DTW table
/// ([`evaluate_placing_with`] everywhere).
pub fn solve_tier_with(
    rules: &RuleSet,
    metric: Metric,
    tier: Tier,
    next: &[SolvedTable],
    observer: &dyn Observer,
) -> Result<SolvedSubspace, SolveError> {
    assert!(
        tier.hands.mover > 0 && !tier.has_moves_inside(rules),
        "tier {tier} has moves inside it or no goti to place"
    );
    let sub = tier.subspace;
    let next = TableSet::new(next, &successor_subspaces(rules, tier))?;
    let idx = SubspaceIndex::new(sub);
    let placements = PlacementTables::of(tier, |t| {
        next.tables
            .iter()
            .find(|(i, _)| i.subspace() == t.subspace)
            .map(|(i, v)| (*i, *v))
    });
    let mut values = crate::memory::filled_vec(idx.slots() as usize, Packed::NONE);
    let out = atomic_packed(&mut values);
    // Each slot is written exactly once, so the result does not depend on the
    // threads. This is `evaluate_placing` reorganised; `verify` recomputes a sample
    // of every placing table with `evaluate_placing` itself, and the tests compare
    // both with a naive solver.
    let ahead = |slot: u64| crate::memory::prefetch_write(&out[slot as usize]);
    best_placements(
        rules,
        metric,
        tier,
        placements,
        observer,
        ahead,
        |slot, best| {
            // Fewer than 24 gotis stand on the board while anyone holds one in
            // hand, so there is always an empty point.
            debug_assert_ne!(best, 0, "a placing position with no empty point");
            out[slot as usize].store(Packed::new(key_value(best)).0, Relaxed);
        },
    );
    Ok(SolvedSubspace {
        subspace: sub,
        values,
        rounds: 0,
    })
}

/// The tables a tier's placements lead to, each with its index, where they
/// exist: [`best_placements`] reads them.
#[derive(Clone, Copy)]
pub struct PlacementTables<'a> {
    /// Where the quiet placements lead: `(o, m + 1)` on the board, the hands
    /// after the placement; `None` when the board is then full.
    pub quiet: Option<(SubspaceIndex, &'a [Packed])>,
    /// Where the placements that capture lead: `(o - 1, m + 1)`; `None` when
    /// no capture is possible or every capture ends the game.
    pub capture: Option<(SubspaceIndex, &'a [Packed])>,
}

impl<'a> PlacementTables<'a> {
    /// The tables the placements of `tier` lead to, `table(t)` giving the
    /// table of tier `t` with its index where it is at hand: the quiet
    /// placements' tier and the captures' (the hands after the placement).
    pub fn of(tier: Tier, table: impl Fn(Tier) -> Option<(SubspaceIndex, &'a [Packed])>) -> Self {
        let (after, sub) = (tier.hands.after_placement(), tier.subspace);
        PlacementTables {
            quiet: table(Tier::new(after, Subspace::new(sub.opponent, sub.mover + 1))),
            capture: sub
                .opponent
                .checked_sub(1)
                .and_then(|o| table(Tier::new(after, Subspace::new(o, sub.mover + 1)))),
        }
    }
}

/// The best placement of every board of `tier` (whose player to move holds a
/// goti), as a [`choice_key`] in `metric` (a placement's value from its
/// target's, [`Metric::before_placement`]), handed to `store(slot, key)` once
/// per slot that holds a position. Reports the tier's slots to `observer` as
/// it goes, the padding at the end.
///
/// Positions are visited grouped by the opponent's set `O`
/// ([`SubspaceIndex::for_each_board_by_opponent`]): every placement from a board
/// `(M, O)` leads to a board whose opponent set is the placer's new set
/// `M + p`, a set of `m + 1` of the points `O` leaves free, and whose mover set
/// is `O` (quiet) or `O` less a capturable goti (captures). So one [`Group`]
/// holds, by the number of `M + p` in [`FreeSets`] of `O`, the value of every
/// quiet placement (read once per group, each is reached from `m + 1` boards)
/// and of every capturing one (the best capture, valued once per `M + p`
/// instead of once per board that reaches it); one ordered pass over those
/// sets hands each value to the `m + 1` boards it is reached from
/// ([`FreeSets::for_each_less_one`]), so every board's best is in an array by
/// its number before the group's boards are visited, and a board costs its
/// slot and one store. The tiers whose moves all leave them take their values
/// from it ([`solve_tier_with`]); a Lasker step with gotis in hand takes its
/// placements' part of every exit from it ([`crate::in_hand`]), and `verify`
/// its placements' part of every value of such a tier.
pub fn best_placements(
    rules: &RuleSet,
    metric: Metric,
    tier: Tier,
    tables: PlacementTables<'_>,
    observer: &dyn Observer,
    ahead: impl Fn(u64) + Sync,
    store: impl Fn(u64, u16) + Sync,
) {
    let groups = PlacementGroups::new(rules, metric, tier, tables);
    best_placements_of(
        std::slice::from_ref(&groups),
        observer,
        ahead,
        |slot, best| store(slot, best[0]),
    );
}

/// [`best_placements`] of several passes over one tier at once (one per kind
/// of table, [`PlacementGroups::visit_all`]): `store(slot, best)` with
/// `best[i]` the key of `passes[i]`.
///
/// The slots come in the pass's order, by the opponent's set, so each store
/// lands at a random place of a large table. `ahead(slot)` is called
/// [`STORE_LAG`] boards before `store` with the same slot, for the caller to
/// prefetch the line it will write ([`crate::memory::prefetch_write`]).
pub fn best_placements_of(
    passes: &[PlacementGroups<'_>],
    observer: &dyn Observer,
    ahead: impl Fn(u64) + Sync,
    store: impl Fn(u64, &[u16]) + Sync,
) {
    let Some(first) = passes.first() else {
        return;
    };
    let k = passes.len();
    let visited: u64 = first
        .tasks()
        .into_par_iter()
        .map(|range| {
            let mut ring = [(0u64, [0u16; MAX_PASSES]); STORE_LAG];
            let mut n = 0usize;
            let count = PlacementGroups::visit_all(passes, range, |slot, _, best| {
                ahead(slot);
                let at = &mut ring[n % STORE_LAG];
                if n >= STORE_LAG {
                    store(at.0, &at.1[..k]);
                }
                at.0 = slot;
                at.1[..k].copy_from_slice(best);
                n += 1;
            });
            for i in n.saturating_sub(STORE_LAG)..n {
                let (slot, best) = &ring[i % STORE_LAG];
                store(*slot, &best[..k]);
            }
            observer.advance(count);
            count
        })
        .sum();
    // The padding slots, for the progress count.
    observer.advance(first.index().slots() - visited);
}

/// Boards between the prefetch of a store's line and the store in
/// [`best_placements_of`].
const STORE_LAG: usize = 16;

/// [`best_placements_of`] into one array per pass: the key of `passes[i]` for
/// slot `s` goes to `outs[i][offset + s]`, its line prefetched for writing
/// first. The arrays are best in huge pages ([`crate::memory::vec_from_fn`]):
/// the stores land at random, and with 4 KiB pages each also missed the TLB.
pub fn best_placements_into(
    passes: &[PlacementGroups<'_>],
    observer: &dyn Observer,
    outs: &[Vec<AtomicU16>],
    offset: u64,
) {
    assert_eq!(outs.len(), passes.len(), "one array per pass");
    let at = |slot: u64| (offset + slot) as usize;
    let ahead = |slot: u64| {
        for out in outs {
            crate::memory::prefetch_write(&out[at(slot)]);
        }
    };
    best_placements_of(passes, observer, ahead, |slot, best| {
        for (out, &key) in outs.iter().zip(best) {
            out[at(slot)].store(key, Relaxed);
        }
    });
}

/// [`best_placements`] in tasks that the caller runs: each board's best
/// placement handed to it in the order of the pass, by the opponent's set,
/// where a pass of its own over the same order can use it at once (`verify`
/// of a tier with gotis in hand, whose slides' targets that order keeps in
/// cache).
pub struct PlacementGroups<'a> {
    index: SubspaceIndex,
    tables: GroupTables<'a>,
}

impl<'a> PlacementGroups<'a> {
    /// The pass over the boards of `tier` (whose player to move holds a goti),
    /// placements valued in `metric` from `tables`.
    pub fn new(
        rules: &'a RuleSet,
        metric: Metric,
        tier: Tier,
        tables: PlacementTables<'a>,
    ) -> Self {
        let sub = tier.subspace;
        PlacementGroups {
            index: SubspaceIndex::new(sub),
            tables: GroupTables {
                rules,
                placer_gotis: sub.mover as u32 + 1,
                opponent_hand: tier.hands.opponent,
                quiet: tables.quiet,
                capture: tables.capture,
                keys: SuccessorKeys::of_placements(metric),
            },
        }
    }

    /// The tier's index.
    pub fn index(&self) -> &SubspaceIndex {
        &self.index
    }

    /// The tasks: ranges of the opponent's set's orbits
    /// ([`SubspaceIndex::opponent_tasks`]), which together visit every board once.
    pub fn tasks(&self) -> Vec<std::ops::Range<u64>> {
        self.index.opponent_tasks(CHUNK)
    }

    /// Calls `f(slot, board, best)` for every board of the groups in `range`
    /// ([`SubspaceIndex::for_each_board_by_opponent`]), `best` the best
    /// placement's [`choice_key`] (never 0: a board with a goti in hand has an
    /// empty point); returns how many boards.
    pub fn visit(&self, range: std::ops::Range<u64>, mut f: impl FnMut(u64, Board, u16)) -> u64 {
        Self::visit_all(std::slice::from_ref(self), range, |slot, board, best| {
            f(slot, board, best[0])
        })
    }

    /// [`visit`](Self::visit) of passes over one tier (each valuing the
    /// placements from its own tables, such as a tier's tables of several
    /// kinds) at once: `f(slot, board, best)` with `best[i]` the key of
    /// `passes[i]`; the boards are listed, and each group's free sets, lines
    /// and slots found, once for all of them.
    ///
    /// # Panics
    /// When the passes are not of one tier's boards, or more than
    /// [`MAX_PASSES`].
    pub fn visit_all(
        passes: &[Self],
        range: std::ops::Range<u64>,
        f: impl FnMut(u64, Board, &[u16]),
    ) -> u64 {
        assert!(passes.len() <= MAX_PASSES, "too many passes at once");
        let index = passes.first().map(|p| p.index);
        assert!(
            passes
                .iter()
                .all(|p| Some(p.index.subspace()) == index.map(|i| i.subspace())),
            "passes over different tiers"
        );
        let Some(index) = index else {
            return 0;
        };
        match passes.len() {
            1 => Self::visit_k::<1>(passes, index, range, f),
            2 => Self::visit_k::<2>(passes, index, range, f),
            3 => Self::visit_k::<3>(passes, index, range, f),
            _ => Self::visit_k::<MAX_PASSES>(passes, index, range, f),
        }
    }

    /// [`visit_all`](Self::visit_all) of `K` passes, `passes.len()`.
    fn visit_k<const K: usize>(
        passes: &[Self],
        index: SubspaceIndex,
        range: std::ops::Range<u64>,
        mut f: impl FnMut(u64, Board, &[u16]),
    ) -> u64 {
        let tables: [&GroupTables; K] = std::array::from_fn(|k| &passes[k].tables);
        let mut group = Group::<K>::new();
        let mut opponent = None;
        let mut count = 0u64;
        index.for_each_board_by_opponent(range, |slot, board, number| {
            if opponent != Some(board.opponent) {
                opponent = Some(board.opponent);
                group.start(tables, board.opponent);
            }
            let best: [u16; K] = std::array::from_fn(|k| group.best[k][number as usize]);
            f(slot, board, &best);
            count += 1;
        });
        count
    }
}

/// The most passes [`PlacementGroups::visit_all`] takes at once: one per kind
/// of table.
pub const MAX_PASSES: usize = 4;

/// Recomputing a board one by one with [`evaluate_placing`] costs some 25 times
/// a slot of the one pass, and the candidates [`recompute_by_board`] counts hold
/// each board 1.2–1.9 times (measured in docs/PERFORMANCE.md).
const BOARD_PER_SLOT: u64 = 16;

/// Is [`solve_tier_changed`] (only the boards that place into a listed slot
/// recomputed) cheaper for `tier` than the one pass over the successors
/// ([`solve_tier_with`])? Both
/// give the same values; this weighs [`changed_candidates`] against the
/// subspace's slots.
pub fn recompute_by_board(rules: &RuleSet, tier: Tier, changed: &[(Subspace, &[u64])]) -> bool {
    changed_candidates(rules, tier, changed).saturating_mul(BOARD_PER_SLOT)
        <= SubspaceIndex::new(tier.subspace).slots()
}

/// The placements into the listed slots of `changed` (as
/// [`solve_tier_changed`] takes it) from the boards of `tier`, a board counted
/// once per such placement: at least
/// the boards that function recomputes.
pub fn changed_candidates(rules: &RuleSet, tier: Tier, changed: &[(Subspace, &[u64])]) -> u64 {
    let sub = tier.subspace;
    let successors = successor_subspaces(rules, tier);
    let quiet_table = Subspace::new(sub.opponent, sub.mover + 1);
    let points = tigadi_rules::geometry::POINTS as u64;
    changed
        .iter()
        .filter(|(s, _)| successors.contains(s))
        .map(|(s, slots)| {
            // A listed board `(X, Y)` is reached by a placement on each point of
            // `Y`, and in the capture table with a capture on each empty point.
            let captured_on = if *s == quiet_table {
                1
            } else {
                points - s.mover as u64 - s.opponent as u64
            };
            slots.len() as u64 * s.opponent as u64 * captured_on
        })
        .sum()
}

/// [`solve_tier`] (values with DTC) from values already known for other
/// successor tables: `known` holds the tier's values ([`Packed::NONE`] in padding) over
/// successor tables that differ from `next` only at the slots `changed` lists
/// (per successor subspace; any other slots may be listed too, padding
/// included). Only the boards with a placement into a listed slot are
/// recomputed ([`evaluate_placing`] over `next`); the rest keep their
/// known values, which a placing value cannot then differ from (it is a
/// function of its placements' values alone). So the placing horizon tables
/// come from the game-theoretic ones where the rule changes few of the values
/// the placements lead to. Returns the values and the number of boards
/// recomputed.
pub fn solve_tier_changed(
    rules: &RuleSet,
    tier: Tier,
    known: Vec<Packed>,
    next: &[SolvedTable],
    changed: &[(Subspace, &[u64])],
    observer: &dyn Observer,
) -> Result<(SolvedSubspace, u64), SolveError> {
    let sub = tier.subspace;
    let successors = successor_subspaces(rules, tier);
    let next = TableSet::new(next, &successors)?;
    let idx = SubspaceIndex::new(sub);
    if known.len() as u64 != idx.slots() {
        return Err(SolveError::WrongSize(sub));
    }
    let quiet_table = Subspace::new(sub.opponent, sub.mover + 1);
    // Every board of `sub` with a placement into a listed slot, and more: a
    // listed board `(X, Y)` (`Y` the placer's gotis after placing) is reached
    // from `(Y - q, X)` by a quiet placement on `q`, and from `(Y - q, X + c)`
    // by a placement on `q` that captures on `c`; every such `q` and `c` is
    // taken, whether or not the placement closes a line (recomputing a board
    // whose placements changed nothing gives its known value again).
    let mut todo: Vec<u64> = Vec::new();
    for (s, slots) in changed.iter().filter(|(s, _)| successors.contains(s)) {
        let tidx = SubspaceIndex::new(*s);
        let quiet = *s == quiet_table;
        todo.par_extend(slots.par_iter().flat_map_iter(|&slot| {
            let mut out = Vec::new();
            if let Some(t) = tidx.board(slot) {
                let empty = t.empty();
                let mut ys = t.opponent;
                while ys != 0 {
                    let q = ys & ys.wrapping_neg();
                    ys &= ys - 1;
                    let mover = t.opponent & !q;
                    if quiet {
                        out.push(idx.index(Board {
                            mover,
                            opponent: t.mover,
                        }));
                    } else {
                        let mut cs = empty;
                        while cs != 0 {
                            let c = cs & cs.wrapping_neg();
                            cs &= cs - 1;
                            out.push(idx.index(Board {
                                mover,
                                opponent: t.mover | c,
                            }));
                        }
                    }
                }
            }
            out
        }));
    }
    todo.par_sort_unstable();
    todo.dedup();
    let updates: Vec<(u64, Packed)> = todo
        .par_iter()
        .map(|&slot| {
            let board = idx
                .board(slot)
                .expect("index gives a canonical slot, which holds a position");
            let v = evaluate_placing_with(rules, Metric::Dtc, tier.hands, board, |b| {
                next.value(b)
                    .expect("a solved table has a value at a canonical slot")
            });
            (slot, Packed::new(v))
        })
        .collect();
    let mut values = known;
    for (slot, v) in updates {
        values[slot as usize] = v;
    }
    observer.advance(idx.slots());
    Ok((
        SolvedSubspace {
            subspace: sub,
            values,
            rounds: 0,
        },
        todo.len() as u64,
    ))
}

/// Solves every tier with gotis in hand in memory, by the placements made to reach
/// them (the tiers after the last placement first), from the solved moving phase
/// (`moving`: at least the subspaces of [`successor_tiers`] of the tiers after the
/// last placement), calling `each(placed, tables)` after the tiers of each count of
/// placements ([`tiers_after`]) and reporting each count as one phase `"placed
/// <k>"` to `observer`, its work in slots. Returns the tables, index `placed`. For
/// tests and small games under rule sets where the hands follow from the
/// placements made (not Lasker's); `tigadi solve` keeps only the tables it needs
/// and writes the rest.
pub fn solve_placing(
    rules: &RuleSet,
    moving: &[SolvedTable],
    observer: &dyn Observer,
    each: impl FnMut(u32, &[SolvedSubspace]),
) -> Result<Vec<Vec<SolvedSubspace>>, SolveError> {
    solve_placing_with(rules, Metric::Dtc, moving, observer, each)
}

/// [`solve_placing`] for values whose depth is `metric`: with [`Metric::Dtw`] and
/// the moving phase's DTW tables, the DTW tables of every tier with gotis in hand.
pub fn solve_placing_with(
    rules: &RuleSet,
    metric: Metric,
    moving: &[SolvedTable],
    observer: &dyn Observer,
    mut each: impl FnMut(u32, &[SolvedSubspace]),
) -> Result<Vec<Vec<SolvedSubspace>>, SolveError> {
    let mut solved_tiers: Vec<Vec<SolvedSubspace>> = Vec::new();
    for placed in (0..placing_turns(rules)).rev() {
        let next: Vec<SolvedTable> = match solved_tiers.last() {
            None => moving.to_vec(),
            Some(l) => SolvedTable::views(l.iter().map(|s| (&s.subspace, &s.values))),
        };
        let tiers = tiers_after(rules, placed);
        observer.phase(
            &format!("placed {placed}"),
            tiers
                .iter()
                .map(|t| SubspaceIndex::new(t.subspace).slots())
                .sum(),
        );
        let solved = tiers
            .into_iter()
            .map(|t| solve_tier_with(rules, metric, t, &next, observer))
            .collect::<Result<Vec<_>, _>>()?;
        each(placed, &solved);
        solved_tiers.push(solved);
    }
    solved_tiers.reverse();
    Ok(solved_tiers)
}

/// The value of the empty board (the first player to place) from the solved
/// tiers after no placement.
pub fn start_value(start: &[SolvedSubspace]) -> Option<Value> {
    start
        .iter()
        .find(|s| s.subspace == Subspace::new(0, 0))?
        .values
        .first()?
        .get()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The branch-free maximum of two keys is the maximum.
    #[test]
    fn best_of_is_the_maximum() {
        let edges = [0u16, 1, 2, 0x7FFF, 0x8000, 0x8001, 0xFFFE, 0xFFFF];
        for &a in &edges {
            for &b in &edges {
                assert_eq!(SuccessorKeys::best_of(a, b), a.max(b), "{a} {b}");
            }
        }
        let mut x = 0x1234_5678u32;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let (a, b) = (x as u16, (x >> 16) as u16);
            assert_eq!(SuccessorKeys::best_of(a, b), a.max(b), "{a} {b}");
        }
    }

    /// Choice keys order values as `better_than` does and give them back.
    #[test]
    fn choice_keys_order_values() {
        let mut values = vec![Value::Draw];
        for d in [1, 2, 3, 50, 99, 100, 1000, MAX_DTC - 1, MAX_DTC] {
            values.push(Value::Win(d));
            values.push(Value::Loss(d));
        }
        values.push(Value::Loss(0));
        for &a in &values {
            assert_ne!(choice_key(a), 0);
            assert_eq!(key_value(choice_key(a)), a);
            for &b in &values {
                assert_eq!(a.better_than(b), choice_key(a) > choice_key(b), "{a} {b}");
            }
        }
    }
}
