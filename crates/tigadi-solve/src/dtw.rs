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
//! **Run by run.** Both steps take the positions a run at a time (the slots of
//! one canonical mover set), as the retrograde solver does: the initial pass
//! lists the run's slides once and reads its capture targets' DTWs once into a
//! memo ([`RunMoves`]); a level gathers the predecessors of the run's positions
//! of depth `k` and updates each distinct one once with the tally of its
//! successors among them (`PairSpace::run_predecessors`).
//!
//! **Which blocks hold level `k`.** Each run is cut into blocks of 64 slots. Each block
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

use crate::evaluate::evaluate_with;
use crate::plan::Pair;
use crate::retrograde::{
    atomic_u32, capture_table, chain_pairs, Applier, Gathered, PairSpace, LOST as LOST_TALLY,
};
use crate::runs::{RunMoves, SlotSet};
use crate::tables::{Observer, SolveError, SolvedSubspace, SolvedTable, TableSet};
use crate::value::{Metric, Packed, Value, Wdl, MAX_DTC};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, Ordering};
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::geometry::Bits;
use tigadi_rules::{Board, RuleSet};

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
    let own = TableSet::new(values, &pair.subspaces())?.tables;
    let targets = TableSet::new(dtw_targets, &pair.capture_targets())?.tables;
    let n = space.total as usize;
    let mut words_raw = crate::memory::filled_vec(n, OTHER);
    let words = atomic_u32(&mut words_raw);
    let blocks = Blocks::new(&space);
    let due: Vec<AtomicU16> = (0..blocks.total).map(|_| AtomicU16::new(NEVER)).collect();

    // 1. Initialise, run by run; each run's blocks get their `due` level.
    observer.phase("dtw init", n as u64);
    let (settling, bad, _) = space.sweep_runs(observer, |p, runs| {
        let (idx, start) = space.parts[p];
        // Quiet moves and passes lead into the other subspace of the pair, all
        // to boards whose mover set is this board's opponent set.
        let (next_idx, _) = space.other(p);
        // Captures that do not end the game all lead into one subspace: the
        // opponent, one goti fewer, to move.
        let sub = idx.subspace();
        let target = capture_table(&targets, sub);
        let ends_game = target.is_none();
        let init = Init {
            rules,
            values: own[p].1,
            next_idx: &next_idx,
            ends_game,
        };
        let run = idx.run_length();
        let (mut settling, mut bad) = (0u64, 0u64);
        let mut moves = RunMoves::default();
        let mut keys = SlotSet::new();
        for r in runs {
            let (mover, _) = idx.run_mover(r);
            // Prepared when the run's first won or lost position comes: runs
            // of draws read no capture targets.
            let mut prepared = false;
            for (slot, board) in idx.boards(r * run..(r + 1) * run) {
                let w = match init.values[slot as usize].get().map(|v| v.wdl()) {
                    Some(Wdl::Draw) => OTHER,
                    Some(wdl) => {
                        if !prepared {
                            moves.prepare(rules, mover, sub.opponent as u32, target);
                            prepared = true;
                        }
                        init.word(&moves, wdl, board.opponent, &mut keys)
                            .unwrap_or_else(|| {
                                bad += 1;
                                OTHER
                            })
                    }
                    None => {
                        bad += 1;
                        OTHER
                    }
                };
                settling += (w != OTHER) as u64;
                words[(start + slot) as usize].store(w, Relaxed);
            }
            let first = (start + r * run) as usize;
            let run_words = &words[first..first + run as usize];
            for (d, block) in due[blocks.of_run(p, r)].iter().zip(run_words.chunks(BLOCK)) {
                let level = block.iter().filter_map(|w| pending(w.load(Relaxed))).min();
                d.store(level.unwrap_or(NEVER), Relaxed);
            }
        }
        (settling, bad, 0)
    });
    if bad > 0 {
        return Err(SolveError::Inconsistent(pair.first));
    }

    // 2. Levels, lowest first.
    observer.phase("dtw", settling);
    let lowest = |due: &[AtomicU16]| due.par_iter().map(|d| d.load(Relaxed)).min();
    let bad = AtomicBool::new(false);
    let mut levels = 0u32;
    let mut level = lowest(&due).unwrap_or(NEVER);
    while level != NEVER {
        if level >= MAX_DTC {
            return Err(SolveError::Inconsistent(pair.first));
        }
        settle_level(rules, &space, &blocks, words, &due, level, &bad, observer);
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

/// The blocks of the level schedule: each run of each part of the pair cut into
/// blocks of [`BLOCK`] slots (the last one of a run shorter), numbered part by
/// part and run by run, so that a task of whole runs owns its blocks.
struct Blocks {
    /// Per part: its first global slot, its run length, its blocks per run and
    /// the number of its first block.
    parts: Vec<(u64, u64, u64, usize)>,
    /// Blocks of the pair.
    total: usize,
}

impl Blocks {
    fn new(space: &PairSpace) -> Blocks {
        let mut parts = Vec::new();
        let mut total = 0;
        for (idx, start) in &space.parts {
            let run = idx.run_length();
            let per_run = run.div_ceil(BLOCK as u64);
            parts.push((*start, run, per_run, total));
            total += (idx.mover_classes() * per_run) as usize;
        }
        Blocks { parts, total }
    }

    /// The blocks of run `r` of part `p`.
    #[inline]
    fn of_run(&self, p: usize, r: u64) -> std::ops::Range<usize> {
        let (_, _, per_run, base) = self.parts[p];
        let first = base + (r * per_run) as usize;
        first..first + per_run as usize
    }

    /// The block of global slot `slot`.
    #[inline]
    fn of(&self, slot: u64) -> usize {
        let part = if self.parts.len() == 2 && slot >= self.parts[1].0 {
            &self.parts[1]
        } else {
            &self.parts[0]
        };
        let (start, run, per_run, base) = *part;
        let local = slot - start;
        base + ((local / run) * per_run + (local % run) / BLOCK as u64) as usize
    }
}

/// What the initial pass over one subspace of the pair reads.
struct Init<'a> {
    rules: &'a RuleSet,
    /// The subspace's game-theoretic values.
    values: &'a [Packed],
    /// The index of the subspace quiet moves and passes lead into.
    next_idx: &'a SubspaceIndex,
    /// Do captures end the game (the opponent has three gotis)?
    ends_game: bool,
}

impl Init<'_> {
    /// The initial word (see the module docs) of the board `(M, opponent)` of the
    /// run prepared in `moves` (its capture targets' values are DTW tables), won
    /// or lost (`wdl`): `None` when its value and its successors' do not fit
    /// together.
    #[inline]
    fn word(&self, moves: &RunMoves, wdl: Wdl, opponent: Bits, keys: &mut SlotSet) -> Option<u32> {
        let mut ok = true;
        if wdl == Wdl::Win {
            // The quickest winning capture; quiet moves come in with the levels.
            let mut best = NO_DEPTH;
            moves.captures(self.rules, opponent, self.ends_game, |target| {
                match target.map(|t| t.get()) {
                    None => best = 1,
                    Some(Some(Value::Loss(d))) => match step(d) {
                        Some(d) => best = best.min(d),
                        None => ok = false,
                    },
                    Some(Some(_)) => {}
                    Some(None) => ok = false,
                }
                ok
            });
            ok.then_some(WON | best as u32)
        } else {
            // The slowest capture (every one must lose), and the distinct quiet
            // successor classes, all in the other subspace of the pair with the
            // mover set `opponent`.
            let classes = moves.quiet_classes(self.rules, self.next_idx, opponent, keys) as u32;
            let mut bound = 0u16;
            moves.captures(self.rules, opponent, self.ends_game, |target| {
                match target.and_then(|t| t.get()) {
                    Some(Value::Win(d)) => match step(d) {
                        Some(d) => bound = bound.max(d),
                        None => ok = false,
                    },
                    _ => ok = false,
                }
                ok
            });
            ok.then_some(LOST | classes << COUNT_SHIFT | bound as u32)
        }
    }
}

/// Settles level `k`: every position of depth `k` in a block due at `k` updates its
/// quiet predecessors, and each such block's `due` is recomputed. Sets `bad` on an
/// update that the game-theoretic values rule out.
///
/// The positions are taken a run at a time, as the retrograde rounds take theirs
/// ([`PairSpace::run_predecessors`]): the run's positions of depth `k` gather their
/// predecessors, and each distinct predecessor is updated once with the tally of
/// its successors among them.
#[allow(clippy::too_many_arguments)]
fn settle_level(
    rules: &RuleSet,
    space: &PairSpace,
    blocks: &Blocks,
    words: &[AtomicU32],
    due: &[AtomicU16],
    k: u16,
    bad: &AtomicBool,
    observer: &dyn Observer,
) {
    let next = k + 1;
    // Updates predecessor word `p` by the tally of its successors of depth k.
    let update = |p: usize, tally: u8| -> u64 {
        let w = &words[p];
        let old = w.load(Relaxed);
        match (old & KIND_MASK, tally & LOST_TALLY != 0) {
            // A lost successor: the predecessor wins in k + 1 at most.
            (WON, true) => {
                if depth(old) > next {
                    let old = w.fetch_min(WON | next as u32, Relaxed);
                    if depth(old) > next {
                        due[blocks.of(p as u64)].fetch_min(next, AcqRel);
                    }
                }
            }
            // Won successors: fewer to wait for; the last one settles the
            // position in the same atomic step (a counter at zero with the
            // bound still in place would look settled at the bound to a thread
            // reading the block).
            (LOST, false) => {
                let t = tally as u32;
                let old = w
                    .fetch_update(Relaxed, Relaxed, |w| match count(w) {
                        c if c < t => None,
                        c if c == t => Some(LOST | depth(w).max(next) as u32),
                        _ => Some(w - t * COUNT_ONE),
                    })
                    .unwrap_or_else(|w| {
                        bad.store(true, Relaxed);
                        w
                    });
                if count(old) == t {
                    due[blocks.of(p as u64)].fetch_min(depth(old).max(next), AcqRel);
                }
            }
            (WON, false) | (OTHER, false) => {}
            // A lost or drawn position with a lost successor.
            _ => bad.store(true, Relaxed),
        }
        0
    };
    space.sweep_runs(&crate::tables::Quiet, |p, runs| {
        let (idx, start) = space.parts[p];
        let run = idx.run_length();
        let mut apply = Applier::new(words, update);
        let mut gathered = Gathered::default();
        let mut level = Vec::new();
        let mut settled = 0u64;
        for r in runs {
            let first = (start + r * run) as usize;
            let run_words = &words[first..first + run as usize];
            level.clear();
            for (d, (b, block)) in due[blocks.of_run(p, r)]
                .iter()
                .zip(run_words.chunks(BLOCK).enumerate())
            {
                if d.load(Relaxed) != k {
                    continue;
                }
                // Claim the block: from here on, updates of this level lower
                // `due` from `NEVER`; those that came before are in the words
                // read below.
                d.swap(NEVER, AcqRel);
                let mut later = NEVER;
                for (i, w) in block.iter().enumerate() {
                    let w = w.load(Relaxed);
                    match pending(w) {
                        Some(d) if d == k => {
                            level.push(((b * BLOCK + i) as u32, w & KIND_MASK == LOST))
                        }
                        Some(d) if d > k => later = later.min(d),
                        _ => {}
                    }
                }
                if later != NEVER {
                    d.fetch_min(later, AcqRel);
                }
            }
            settled += level.len() as u64;
            space.run_predecessors(rules, p, r, 0, &level, &mut gathered, &mut apply);
        }
        apply.finish();
        observer.advance(settled);
        (0, 0, 0)
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

/// The DTW of `board` recomputed from its successors' DTWs: [`evaluate_with`]
/// for [`Metric::Dtw`]. The pass's results satisfy it everywhere.
pub fn evaluate_dtw(rules: &RuleSet, board: Board, lookup: impl FnMut(Board) -> Value) -> Value {
    evaluate_with(rules, Metric::Dtw, board, lookup)
}
