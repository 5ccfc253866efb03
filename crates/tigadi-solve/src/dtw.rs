//! Depth to win (DTW, docs/RULES.md §7) of every position of a pair of subspaces: the
//! turns to the end of the game, the winner hurrying and the loser resisting, across
//! every capture.
//!
//! # Method
//!
//! The pair's game-theoretic values are solved already ([`crate::retrograde`]), and
//! so are the DTWs of the subspaces its captures lead into. A won position's DTW is
//! `1 +` the least DTW among its successors lost for the opponent, a lost
//! position's `1 +` the greatest among all its successors (all won for the
//! opponent); a capture that ends the game counts 1. Unlike DTC, a capture does not
//! restart the count: it is an *exit* of the pair whose depth, `1 +` the target's
//! DTW, is anything from 1 to hundreds. So the levels are settled in order of depth
//! (Dijkstra's order with integer buckets, Dial's algorithm), not by plain rounds:
//!
//! 1. **Initialise** (one pass over the slots; draws are skipped): a won position
//!    holds its best winning capture's depth as an upper bound (none if it has no
//!    winning capture); a lost position its worst capture's depth as a lower bound,
//!    and a counter of its distinct quiet successor classes (quiet moves and the
//!    pass). A blocked player that loses has DTW 0.
//! 2. **Levels** `k = 0, 1, 2, …` in increasing order, skipping empty ones: every
//!    position settled at level `k` updates its distinct quiet predecessor classes
//!    (the same symmetry-safe counting as the retrograde rounds): a predecessor of a
//!    lost position is won and its bound drops to `k + 1` if higher; a predecessor
//!    that is lost loses one from its counter, and at zero its DTW is the larger of
//!    `k + 1` and its captures' bound. A position is settled at level `d` when its
//!    depth is `d` and no lower level can change it: a won position whose bound is
//!    `d` when level `d` comes, a lost position whose counter has reached zero.
//! 3. A won or lost position left without a depth means the values given were not
//!    the game-theoretic ones: [`SolveError::Inconsistent`].
//!
//! **Which blocks hold level `k`.** The slots are cut into blocks of 64. Each block
//! keeps the lowest level at which it holds a position not yet settled (`due`, one
//! `u16`): set by the initial pass, lowered (`fetch_min`) by every update that gives
//! a position a depth, and recomputed from the block's words by the one thread that
//! settles the block's level `k`. A level visits only the blocks due at it, so a
//! position is read about once per level its block holds, not once per level of
//! the pair.
//!
//! The result is the least fixed point of the equations above, which does not
//! depend on the order in which a level's updates run: the output is the same on
//! every thread count.
//!
//! # Memory
//!
//! One 4-byte word per slot of the pair (depth 16 bits, counter 8 bits, kind 2
//! bits), 2 bytes per 64 slots for `due`, and the 2-byte output; besides, the
//! pair's values and the capture targets' DTW tables, read only. The output is a
//! [`Packed`] per slot whose depth is the DTW ([`Metric::Dtw`]), so DTWs up to
//! [`MAX_DTC`] fit; a deeper one is an error, not a wrap.

use crate::placing::LayerValues;
use crate::plan::Pair;
use crate::retrograde::{
    atomic_u32, chain_pairs, Observer, PairSpace, SlotSet, SolveError, SolvedSubspace, SolvedTable,
    CHUNK,
};
use crate::value::{Metric, Packed, Value, Wdl, MAX_DTC};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, Ordering};
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::{Board, RuleSet, Successor};

use Ordering::{AcqRel, Relaxed};

/// Slots per block of the level schedule (see the module docs).
const BLOCK: usize = 64;

/// A word: the depth in bits 0..16, the counter of undecided quiet successor
/// classes in bits 16..24 (lost positions only), the kind in bits 24..26.
const DEPTH_MASK: u32 = 0xFFFF;
const COUNT_SHIFT: u32 = 16;
const COUNT_ONE: u32 = 1 << COUNT_SHIFT;
const KIND_MASK: u32 = 3 << 24;
/// A won position: the depth is an upper bound until its level comes.
const WON: u32 = 1 << 24;
/// A lost position: the depth is its captures' lower bound while the counter runs,
/// its DTW once it is zero.
const LOST: u32 = 2 << 24;
/// A draw or a padding slot: never read or written by the levels.
const OTHER: u32 = 3 << 24;
/// The depth of a won position with no known way to win yet.
const NO_DEPTH: u16 = u16::MAX;
/// A block with nothing pending.
const NEVER: u16 = u16::MAX;

#[inline(always)]
fn depth(w: u32) -> u16 {
    (w & DEPTH_MASK) as u16
}

#[inline(always)]
fn count(w: u32) -> u32 {
    (w >> COUNT_SHIFT) & 0xFF
}

/// The level at which the position in word `w` is, or will be, settled, as far as
/// is known now: `None` for a lost position whose counter still runs, a won one
/// with no depth yet, draws and padding.
#[inline(always)]
fn pending(w: u32) -> Option<u16> {
    match w & KIND_MASK {
        WON if depth(w) != NO_DEPTH => Some(depth(w)),
        LOST if count(w) == 0 => Some(depth(w)),
        _ => None,
    }
}

/// The depth `1 + d` of a turn into a position of DTW `d`, checked against the
/// packing's limit.
#[inline]
fn step(d: u16) -> Option<u16> {
    (d < MAX_DTC).then_some(d + 1)
}

/// Computes the DTW of every position of `pair`. `values` must hold the pair's own
/// game-theoretic values (the output of [`crate::solve_pair`], one table per
/// subspace of [`Pair::subspaces`]), and `dtw_targets` the DTW tables (this
/// function's output) of the subspaces its captures lead into
/// ([`Pair::capture_targets`]). Returns the pair's subspaces in [`Pair::subspaces`]
/// order, one [`Packed`] per slot whose depth is the DTW: `Win(dtw)`, `Loss(dtw)`,
/// `Draw`, [`Packed::NONE`] for padding; the win/draw/loss are those of `values`.
/// `rounds` is the number of levels settled. Reports the phases `"dtw init"` (work:
/// slots) and `"dtw"` (work: won and lost positions) to `observer`.
///
/// Errors: a table missing or of the wrong size; [`SolveError::Inconsistent`] when
/// `values` and `dtw_targets` are not the game-theoretic values of `rules` (a won
/// or lost position gets no finite depth, or a lost one has a successor that is not
/// won for the opponent), or a DTW would exceed [`MAX_DTC`].
pub fn solve_pair_dtw(
    rules: &RuleSet,
    pair: Pair,
    values: &[SolvedTable<'_>],
    dtw_targets: &[SolvedTable<'_>],
    observer: &dyn Observer,
) -> Result<Vec<SolvedSubspace>, SolveError> {
    let space = PairSpace::new(pair);
    let own = LayerValues::new(values, &pair.subspaces())?.tables;
    let targets = LayerValues::new(dtw_targets, &pair.capture_targets())?.tables;
    let n = space.total as usize;
    let mut words_raw = crate::memory::filled_vec(n, OTHER);
    let words = atomic_u32(&mut words_raw);
    let bad = AtomicBool::new(false);

    // 1. Initialise.
    observer.phase("dtw init", n as u64);
    let mut settling = 0u64;
    for (p, (idx, start)) in space.parts.iter().enumerate() {
        let (next_idx, _) = &space.parts[(p + 1) % space.parts.len()];
        let sub = idx.subspace();
        let target = targets
            .iter()
            .find(|(i, _)| i.subspace() == Subspace::new(sub.opponent.wrapping_sub(1), sub.mover));
        let init = Init {
            rules,
            values: own[p].1,
            next_idx,
            target,
        };
        let chunks = idx.slots().div_ceil(CHUNK as u64);
        settling += (0..chunks)
            .into_par_iter()
            .map(|c| {
                let range = c * CHUNK as u64..((c + 1) * CHUNK as u64).min(idx.slots());
                let work = range.end - range.start;
                let mut quiet = SlotSet::new();
                let mut settling = 0u64;
                for (slot, board) in idx.boards(range) {
                    let w = init.word(slot, board, &mut quiet).unwrap_or_else(|| {
                        bad.store(true, Relaxed);
                        OTHER
                    });
                    settling += (w != OTHER) as u64;
                    words[(start + slot) as usize].store(w, Relaxed);
                }
                observer.advance(work);
                settling
            })
            .sum::<u64>();
    }
    if bad.load(Relaxed) {
        return Err(SolveError::Inconsistent(pair.first));
    }
    let due: Vec<AtomicU16> = words
        .par_chunks(BLOCK)
        .map(|block| {
            let level = block
                .iter()
                .filter_map(|w| pending(w.load(Relaxed)))
                .min()
                .unwrap_or(NEVER);
            AtomicU16::new(level)
        })
        .collect();

    // 2. Levels, lowest first.
    observer.phase("dtw", settling);
    let lowest = |due: &[AtomicU16]| due.par_iter().map(|d| d.load(Relaxed)).min();
    let mut levels = 0u32;
    let mut level = lowest(&due).unwrap_or(NEVER);
    while level != NEVER {
        if level >= MAX_DTC {
            return Err(SolveError::Inconsistent(pair.first));
        }
        settle_level(rules, &space, words, &due, level, &bad, observer);
        if bad.load(Relaxed) {
            return Err(SolveError::Inconsistent(pair.first));
        }
        levels += 1;
        level = lowest(&due).unwrap_or(NEVER);
    }

    // 3. Every won and lost position has its depth now.
    let mut out = Vec::new();
    for (p, (idx, start)) in space.parts.iter().enumerate() {
        let words = &words_raw[*start as usize..(*start + idx.slots()) as usize];
        let dtw: Vec<Packed> = words
            .par_iter()
            .zip(own[p].1.par_iter())
            .map(|(&w, &v)| match w & KIND_MASK {
                WON if depth(w) != NO_DEPTH => Packed::new(Value::Win(depth(w))),
                LOST if count(w) == 0 => Packed::new(Value::Loss(depth(w))),
                OTHER => v,
                _ => Packed::NONE,
            })
            .collect();
        if dtw
            .par_iter()
            .zip(own[p].1.par_iter())
            .any(|(d, v)| d.get().map(|d| d.wdl()) != v.get().map(|v| v.wdl()))
        {
            return Err(SolveError::Inconsistent(idx.subspace()));
        }
        out.push(SolvedSubspace {
            subspace: idx.subspace(),
            values: dtw,
            rounds: levels,
        });
    }
    Ok(out)
}

/// What the initial pass over one subspace of the pair reads.
struct Init<'a> {
    rules: &'a RuleSet,
    /// The subspace's game-theoretic values.
    values: &'a [Packed],
    /// The index of the subspace quiet moves and passes lead into.
    next_idx: &'a SubspaceIndex,
    /// The DTW table of the subspace captures lead into, unless every capture ends
    /// the game.
    target: Option<&'a (SubspaceIndex, &'a [Packed])>,
}

impl Init<'_> {
    /// The initial word of the position `board` in slot `slot` (see the module
    /// docs), `None` when its value and its successors' do not fit together.
    #[inline]
    fn word(&self, slot: u64, board: Board, quiet: &mut SlotSet) -> Option<u32> {
        let value = self.values[slot as usize].get()?;
        let target_dtw = |next: Board| -> Option<Value> {
            let (idx, dtw) = self.target?;
            dtw[idx.index(next) as usize].get()
        };
        match value.wdl() {
            Wdl::Draw => Some(OTHER),
            Wdl::Win => {
                // The quickest winning capture; quiet moves come in with the levels.
                let mut best = NO_DEPTH;
                let mut ok = true;
                board.for_each_successor(self.rules, |s| match s {
                    Successor::Capture(next) if next.is_game_over() => best = 1,
                    Successor::Capture(next) => match target_dtw(next) {
                        Some(Value::Loss(d)) => match step(d) {
                            Some(d) => best = best.min(d),
                            None => ok = false,
                        },
                        Some(_) => {}
                        None => ok = false,
                    },
                    Successor::Quiet(_) | Successor::Pass(_) => {}
                });
                ok.then_some(WON | best as u32)
            }
            Wdl::Loss => {
                // The slowest capture (every one must lose), and the distinct
                // quiet successor classes, all in the other subspace of the pair
                // with the mover set `board.opponent`.
                let class = self.next_idx.mover_class(board.opponent);
                quiet.clear();
                let mut bound = 0u16;
                let mut ok = true;
                board.for_each_successor(self.rules, |s| match s {
                    Successor::Capture(next) => {
                        match (!next.is_game_over()).then(|| target_dtw(next)).flatten() {
                            Some(Value::Win(d)) => match step(d) {
                                Some(d) => bound = bound.max(d),
                                None => ok = false,
                            },
                            _ => ok = false,
                        }
                    }
                    Successor::Quiet(next) | Successor::Pass(next) => {
                        quiet.push(self.next_idx.index_with(class, next.opponent))
                    }
                });
                let classes = quiet.distinct().len() as u32;
                ok.then_some(LOST | classes << COUNT_SHIFT | bound as u32)
            }
        }
    }
}

/// Settles level `k`: every position of depth `k` in a block due at `k` updates its
/// quiet predecessors, and each such block's `due` is recomputed. Sets `bad` on an
/// update that the game-theoretic values rule out.
fn settle_level(
    rules: &RuleSet,
    space: &PairSpace,
    words: &[AtomicU32],
    due: &[AtomicU16],
    k: u16,
    bad: &AtomicBool,
    observer: &dyn Observer,
) {
    let next = k + 1;
    words.par_chunks(CHUNK).enumerate().for_each(|(c, chunk)| {
        let first_block = c * CHUNK / BLOCK;
        let blocks = &due[first_block..first_block + chunk.len().div_ceil(BLOCK)];
        if blocks.iter().all(|d| d.load(Relaxed) != k) {
            return;
        }
        let mut settled = 0u64;
        // Updates the predecessors of one position of depth k.
        let update = |preds: &[u64], was_loss: bool| {
            for &p in preds {
                let w = &words[p as usize];
                let old = w.load(Relaxed);
                match (old & KIND_MASK, was_loss) {
                    // A lost successor: the predecessor wins in k + 1 at most.
                    (WON, true) => {
                        if depth(old) > next {
                            let old = w.fetch_min(WON | next as u32, Relaxed);
                            if depth(old) > next {
                                due[p as usize / BLOCK].fetch_min(next, AcqRel);
                            }
                        }
                    }
                    // A won successor: one fewer to wait for; the last one settles
                    // the position in the same atomic step (a counter at zero with
                    // the bound still in place would look settled at the bound to a
                    // thread reading the block).
                    (LOST, false) => {
                        let old = w
                            .fetch_update(Relaxed, Relaxed, |w| match count(w) {
                                0 => None,
                                1 => Some(LOST | depth(w).max(next) as u32),
                                _ => Some(w - COUNT_ONE),
                            })
                            .unwrap_or_else(|w| {
                                bad.store(true, Relaxed);
                                w
                            });
                        if count(old) == 1 {
                            due[p as usize / BLOCK].fetch_min(depth(old).max(next), AcqRel);
                        }
                    }
                    (WON, false) | (OTHER, false) => {}
                    // A lost or drawn position with a lost successor.
                    _ => bad.store(true, Relaxed),
                }
            }
        };
        // A two-stage pipeline as in the retrograde rounds: the predecessors of
        // one position are prefetched while those of the one before are updated.
        let mut sets = [SlotSet::new(), SlotSet::new()];
        let mut kinds = [false; 2];
        let mut cur = 0;
        for (b, d) in blocks.iter().enumerate() {
            if d.load(Relaxed) != k {
                continue;
            }
            // Claim the block: from here on, updates of this level lower `due`
            // from `NEVER`; those that came before are in the words read below.
            d.swap(NEVER, AcqRel);
            let base = c * CHUNK + b * BLOCK;
            let block = &chunk[b * BLOCK..((b + 1) * BLOCK).min(chunk.len())];
            let mut later = NEVER;
            for (i, w) in block.iter().enumerate() {
                let w = w.load(Relaxed);
                match pending(w) {
                    Some(d) if d == k => {}
                    Some(d) if d > k => {
                        later = later.min(d);
                        continue;
                    }
                    _ => continue,
                }
                settled += 1;
                let board = space
                    .board((base + i) as u64)
                    .expect("a settled slot holds a position");
                kinds[cur] = w & KIND_MASK == LOST;
                space.predecessors(rules, board, words, &mut sets[cur]);
                cur ^= 1;
                update(sets[cur].distinct(), kinds[cur]);
                sets[cur].clear();
            }
            if later != NEVER {
                d.fetch_min(later, AcqRel);
            }
        }
        update(sets[cur ^ 1].distinct(), kinds[cur ^ 1]);
        observer.advance(settled);
    });
}

/// The DTW of every pair with at most `max_gotis` on the board, in memory and in
/// dependency order (tests, experiments), from the game-theoretic values of every
/// subspace (`values`: [`crate::solve_up_to`]'s output). `each` sees every pair's
/// results and seconds. Returns every subspace's DTW table.
pub fn solve_up_to_dtw(
    rules: &RuleSet,
    max_gotis: u32,
    values: &HashMap<Subspace, Vec<Packed>>,
    observer: &dyn Observer,
    each: impl FnMut(Pair, &[SolvedSubspace], f64),
) -> HashMap<Subspace, Vec<Packed>> {
    let values = SolvedTable::views(values);
    chain_pairs(
        rules.pieces,
        max_gotis,
        |pair, targets| solve_pair_dtw(rules, pair, &values, targets, observer),
        each,
    )
}

/// The DTW of `board` recomputed from its successors' DTWs: [`crate::evaluate_with`]
/// for [`Metric::Dtw`]. The pass's results satisfy it everywhere.
pub fn evaluate_dtw(rules: &RuleSet, board: Board, lookup: impl FnMut(Board) -> Value) -> Value {
    crate::evaluate_with(rules, Metric::Dtw, board, lookup)
}
