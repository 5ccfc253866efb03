//! Retrograde analysis of one pair of subspaces.
//!
//! # Method
//!
//! Every slot of the pair (the slots of `(m, o)` followed by those of `(o, m)`) holds
//! a [`Packed`] value, undecided ([`Packed::NONE`]) at first, and a counter of
//! *distinct successor classes* reached by quiet moves and passes that are not yet
//! known to be won for the opponent.
//!
//! 1. **Initialise** (one pass over the slots): captures are evaluated against the
//!    already solved target subspaces (a capture is a win at DTC 1 if it ends the
//!    game or leads to a position lost for the opponent); a blocked player that
//!    loses gets `Loss(0)`; a position whose every option is a losing capture gets
//!    `Loss(1)`. The counter is set to the number of distinct quiet successor
//!    classes, plus one that is never taken away when a capture reaches a draw.
//! 2. **Rounds** `k = 1, 2, …`: every position decided at level `k - 1` is visited
//!    and its quiet predecessor classes (deduplicated, so each class edge counts
//!    once, as in the forward count) are updated: an undecided predecessor of a
//!    `Loss(k - 1)` becomes `Win(k)`; a predecessor of a `Win(k - 1)` loses one from
//!    its counter and becomes `Loss(k)` when the counter reaches zero. Level `k`
//!    depends only on level `k - 1`, so the result does not depend on the thread
//!    count or on scheduling.
//!    A round may instead run **forwards** ([`Rounds`]): every undecided position
//!    looks up its quiet successor classes and applies the same rule to itself.
//!    Both directions compute the same level from the same previous level; each
//!    round takes the cheaper one (few undecided positions: forwards). Every
//!    round marks the chunks of slots in which it decided a position, and the next
//!    backward round visits only those chunks (from round 3 on: levels 0 and 1
//!    also come from the initial pass).
//! 3. What is still undecided when a round decides nothing is a **draw**.
//!
//! Counting distinct successor *classes* forward and distinct predecessor *classes*
//! backward is what keeps the counters right under symmetry reduction: a position
//! whose orbit is smaller than its neighbour's would otherwise be decremented more
//! (or fewer) times than it was counted.

use crate::memory::prefetch;
use crate::value::{Packed, Value, Wdl};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
use tigadi_index::{MoverClass, Subspace, SubspaceIndex};
use tigadi_rules::geometry::POINTS;
use tigadi_rules::{Board, RuleSet, Successor};

use crate::plan::Pair;

/// Counter value marking a padding slot (no position): never a real count, since a
/// position has at most 63 quiet successors (three flying gotis, 21 empty points).
const PADDING: u8 = u8::MAX;

/// Most quiet predecessors or successors one position can have: flying with three
/// gotis onto 21 empty points gives 63 slides, plus a pass.
const MAX_NEIGHBOURS: usize = 64;

/// A round runs forwards (each undecided position looks at its successors) rather
/// than backwards (each position of the previous level updates its predecessors)
/// when the undecided positions number fewer than this many times the previous
/// level: a forward step indexes successors with the mover set shared
/// ([`SubspaceIndex::index_with`]), about a third of the cost of indexing a
/// predecessor and updating its word.
pub const FORWARD_RATIO: u64 = 2;

/// Slots handed to one rayon task at a time.
pub(crate) const CHUNK: usize = 1 << 12;

/// A forward round decodes only the undecided boards of a chunk, one by one
/// ([`SubspaceIndex::board`]), rather than sweeping the whole chunk
/// ([`SubspaceIndex::boards`]) when fewer than one slot in this many is undecided:
/// a sweep costs about a sixth of a decoding per slot.
const SPARSE: usize = 6;

/// Values of an already solved subspace, as the solver reads them: only
/// win/draw/loss matters for capture targets.
#[derive(Clone, Copy)]
pub struct SolvedTable<'a> {
    /// The subspace.
    pub subspace: Subspace,
    /// One value per slot.
    pub values: &'a [Packed],
}

impl<'a> SolvedTable<'a> {
    /// Views of owned tables, one per (subspace, values): of [`solve_up_to`]'s map,
    /// of tables read from files, of [`SolvedSubspace`]s.
    pub fn views<V: AsRef<[Packed]> + 'a>(
        tables: impl IntoIterator<Item = (&'a Subspace, &'a V)>,
    ) -> Vec<SolvedTable<'a>> {
        tables
            .into_iter()
            .map(|(s, v)| SolvedTable {
                subspace: *s,
                values: v.as_ref(),
            })
            .collect()
    }
}

/// Receives progress reports while a pair is solved. Every method has a no-op
/// default.
pub trait Observer: Sync {
    /// A phase begins: `"init"` (work: slots) or `"round k"` (work: slots scanned).
    fn phase(&self, _name: &str, _work: u64) {}
    /// `amount` more units of the current phase are done.
    fn advance(&self, _amount: u64) {}
    /// Round `k` has ended: it ran forwards or backwards and decided `decided`
    /// positions (for measurements; the values never depend on the direction).
    fn round_done(&self, _k: u16, _forward: bool, _decided: u64) {}
}

/// An [`Observer`] that ignores everything.
pub struct Quiet;
impl Observer for Quiet {}

/// The solved values of one subspace.
pub struct SolvedSubspace {
    /// The subspace.
    pub subspace: Subspace,
    /// One value per slot of [`SubspaceIndex::new(subspace)`], [`Packed::NONE`] for
    /// padding slots.
    pub values: Vec<Packed>,
    /// Rounds of retrograde analysis the pair needed.
    pub rounds: u32,
}

/// Why a pair could not be solved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolveError {
    /// A capture target subspace was not supplied.
    MissingTarget(Subspace),
    /// A supplied table has the wrong number of slots.
    WrongSize(Subspace),
    /// The values supplied for this subspace, or its capture targets' tables, are
    /// not the game-theoretic values of the rule set (found by the DTW pass,
    /// [`crate::dtw`]).
    Inconsistent(Subspace),
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::MissingTarget(s) => write!(f, "capture target subspace {s} is not solved"),
            SolveError::WrongSize(s) => write!(f, "table of subspace {s} has the wrong slot count"),
            SolveError::Inconsistent(s) => write!(
                f,
                "the values of subspace {s} or of its capture targets are not the game's values"
            ),
        }
    }
}

impl std::error::Error for SolveError {}

/// Slots of the pair laid end to end: `(m, o)` first, then `(o, m)` if different.
pub(crate) struct PairSpace {
    pub(crate) parts: Vec<(SubspaceIndex, u64)>, // index and first global slot
    pub(crate) total: u64,
}

impl PairSpace {
    pub(crate) fn new(pair: Pair) -> PairSpace {
        let mut parts = Vec::new();
        let mut total = 0;
        for s in pair.subspaces() {
            let idx = SubspaceIndex::new(s);
            let n = idx.slots();
            parts.push((idx, total));
            total += n;
        }
        PairSpace { parts, total }
    }

    /// Global slot of a board of the pair.
    #[inline]
    pub(crate) fn slot(&self, b: Board) -> u64 {
        let part = if self.parts.len() == 2
            && b.mover.count_ones() as u8 != self.parts[0].0.subspace().mover
        {
            &self.parts[1]
        } else {
            &self.parts[0]
        };
        part.1 + part.0.index(b)
    }

    /// Puts the distinct slots of the quiet predecessors of `board` in `set` (a
    /// class edge counts once) and prefetches their words, for the pipelined
    /// backward steps (the retrograde rounds, the DTW levels).
    #[inline(always)]
    pub(crate) fn predecessors(
        &self,
        rules: &RuleSet,
        board: Board,
        words: &[AtomicU32],
        set: &mut SlotSet,
    ) {
        set.clear();
        board.for_each_quiet_predecessor(rules, |p| set.push(self.slot(p)));
        for &p in set.distinct() {
            prefetch(&words[p as usize]);
        }
    }

    /// The canonical board at a global slot, `None` for padding.
    #[inline]
    pub(crate) fn board(&self, slot: u64) -> Option<Board> {
        let part = if self.parts.len() == 2 && slot >= self.parts[1].1 {
            &self.parts[1]
        } else {
            &self.parts[0]
        };
        part.0.board(slot - part.1)
    }
}

/// Per-slot solver state, one word: the [`Packed`] value in the low 16 bits and the
/// counter of undecided quiet successor classes in bits 16..24. One word per slot
/// means one cache miss per predecessor update, not two.
const COUNT_SHIFT: u32 = 16;
const COUNT_ONE: u32 = 1 << COUNT_SHIFT;
const VALUE_MASK: u32 = 0xFFFF;

#[inline(always)]
fn word(value: Packed, count: u8) -> u32 {
    value.0 as u32 | (count as u32) << COUNT_SHIFT
}

#[inline(always)]
fn word_value(w: u32) -> u16 {
    (w & VALUE_MASK) as u16
}

#[inline(always)]
fn word_count(w: u32) -> u8 {
    (w >> COUNT_SHIFT) as u8
}

/// View a `u32` vector as atomics for the parallel phases.
pub(crate) fn atomic_u32(v: &mut [u32]) -> &[AtomicU32] {
    // SAFETY: AtomicU32 has the same size, alignment and bit validity as u32, and
    // the exclusive borrow guarantees no non-atomic access while the view lives.
    unsafe { &*(v as *mut [u32] as *const [AtomicU32]) }
}

/// The distinct slots among those pushed, in first-pushed order (a small fixed
/// buffer). A 64-bit filter of hashed slots makes the common case, a slot not seen
/// before, cost no search.
pub(crate) struct SlotSet {
    buf: [u64; MAX_NEIGHBOURS],
    len: usize,
    filter: u64,
}

impl SlotSet {
    pub(crate) fn new() -> SlotSet {
        SlotSet {
            buf: [0; MAX_NEIGHBOURS],
            len: 0,
            filter: 0,
        }
    }

    /// Empties the set.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.filter = 0;
    }

    /// Adds `s` unless it is already present.
    #[inline]
    pub(crate) fn push(&mut self, s: u64) {
        // Fibonacci hashing: the top 6 bits of the product pick a filter bit.
        let bit = 1u64 << (s.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58);
        if self.filter & bit != 0 && self.buf[..self.len].contains(&s) {
            return;
        }
        self.filter |= bit;
        self.buf[self.len] = s;
        self.len += 1;
    }

    /// The distinct slots pushed.
    #[inline]
    pub(crate) fn distinct(&self) -> &[u64] {
        &self.buf[..self.len]
    }
}

/// Which chunks of [`CHUNK`] words hold a position decided in one round: a bit per
/// chunk. A backward round reads only the positions of the level before it, and
/// from round 3 on those were all decided in the round before (levels 0 and 1 also
/// come from the initial pass), so it sweeps only the chunks marked then. Late
/// rounds decide few positions, and without the marks each of them swept the
/// whole pair.
struct Touched(Vec<AtomicU64>);

impl Touched {
    fn new(words: usize) -> Touched {
        Touched(
            (0..words.div_ceil(CHUNK).div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
        )
    }

    /// Marks the chunk of word `slot`.
    #[inline]
    fn mark(&self, slot: usize) {
        let c = slot / CHUNK;
        let (w, bit) = (&self.0[c / 64], 1u64 << (c % 64));
        // Most marks repeat: test first, so that the line is written once.
        if w.load(Relaxed) & bit == 0 {
            w.fetch_or(bit, Relaxed);
        }
    }

    /// Is chunk `c` marked?
    #[inline]
    fn has(&self, c: usize) -> bool {
        self.0[c / 64].load(Relaxed) & (1 << (c % 64)) != 0
    }

    fn clear(&mut self) {
        for w in &mut self.0 {
            *w.get_mut() = 0;
        }
    }
}

/// One position of the initial pass between its two stages: what its successors
/// are, before the capture targets' values are read.
struct InitStep {
    /// The position's word, `usize::MAX` when the step holds no position.
    own: usize,
    /// Has the position any move (or pass)?
    any: bool,
    /// Does a capture end the game?
    ends_game: bool,
    /// Its quiet successors (and pass) when they are distinct classes without a
    /// check: the opponent set is not [symmetric](tigadi_index::MoverClass::is_symmetric).
    plain: usize,
    /// Otherwise, the [keys](tigadi_index::MoverClass::opponent_key) of its quiet
    /// successors' classes, each once.
    quiet: SlotSet,
    /// Its capture successors: (target table, slot).
    captures: Vec<(usize, usize)>,
}

impl InitStep {
    fn new() -> InitStep {
        InitStep {
            own: usize::MAX,
            any: false,
            ends_game: false,
            plain: 0,
            quiet: SlotSet::new(),
            captures: Vec::new(),
        }
    }

    /// Starts the step for the position in word `own`.
    fn start(&mut self, own: usize) {
        self.own = own;
        self.any = false;
        self.ends_game = false;
        self.plain = 0;
        self.quiet.clear();
        self.captures.clear();
    }

    /// The position's initial value and counter: a capture is a win at DTC 1 if it
    /// ends the game or leads to a position lost for the opponent; a blocked
    /// player that loses has `Loss(0)`; a position whose every option is a losing
    /// capture has `Loss(1)`. The counter is the number of distinct quiet
    /// successor classes, plus one that is never taken away when a capture reaches
    /// a draw.
    #[inline]
    fn finish(&self, targets: &[(SubspaceIndex, &[Packed])]) -> (Packed, u8) {
        let mut win = self.ends_game;
        let mut draw = false;
        if !win {
            for &(t, at) in &self.captures {
                match targets[t].1[at]
                    .get()
                    .expect("solved table has a value at a canonical slot")
                    .wdl()
                {
                    Wdl::Loss => {
                        win = true;
                        break;
                    }
                    Wdl::Draw => draw = true,
                    Wdl::Win => {}
                }
            }
        }
        let count = self.plain + self.quiet.distinct().len() + draw as usize;
        let value = if !self.any {
            Packed::new(Value::Loss(0))
        } else if win {
            Packed::new(Value::Win(1))
        } else if count == 0 {
            Packed::new(Value::Loss(1))
        } else {
            Packed::NONE
        };
        (value, count as u8)
    }
}

/// How the rounds of [`solve_pair_with`] run. All give the same values; they differ
/// only in speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Rounds {
    /// Each round picks the cheaper direction (see [`FORWARD_RATIO`]).
    #[default]
    Adaptive,
    /// Every round backwards: positions of the previous level update their
    /// predecessors.
    Backward,
    /// Every round forwards: undecided positions look at their successors.
    Forward,
}

/// Solves one pair of subspaces. `targets` must hold the solved subspaces that the
/// pair's captures lead into ([`Pair::capture_targets`]). Returns the pair's
/// subspaces in [`Pair::subspaces`] order.
pub fn solve_pair(
    rules: &RuleSet,
    pair: Pair,
    targets: &[SolvedTable<'_>],
    observer: &dyn Observer,
) -> Result<Vec<SolvedSubspace>, SolveError> {
    solve_pair_with(rules, pair, targets, observer, Rounds::Adaptive)
}

/// [`solve_pair`] with a choice of how the rounds run (for tests and measurements).
pub fn solve_pair_with(
    rules: &RuleSet,
    pair: Pair,
    targets: &[SolvedTable<'_>],
    observer: &dyn Observer,
    rounds_mode: Rounds,
) -> Result<Vec<SolvedSubspace>, SolveError> {
    solve_pair_capped(rules, pair, targets, observer, rounds_mode, crate::MAX_DTC)
}

/// [`solve_pair_with`] that stops after round `max_level`: positions not decided
/// within `max_level` turns are reported as draws. With `max_level` the turn limit
/// and targets holding values under the rule, this is the horizon pass
/// ([`crate::horizon`]).
pub(crate) fn solve_pair_capped(
    rules: &RuleSet,
    pair: Pair,
    targets: &[SolvedTable<'_>],
    observer: &dyn Observer,
    rounds_mode: Rounds,
    max_level: u16,
) -> Result<Vec<SolvedSubspace>, SolveError> {
    let space = PairSpace::new(pair);
    // The capture targets' tables, checked for presence and size, in
    // `capture_targets` order.
    let target_idx = crate::placing::LayerValues::new(targets, &pair.capture_targets())?.tables;

    let n = space.total as usize;
    let mut words_raw = crate::memory::filled_vec(n, word(Packed::NONE, PADDING));
    let words = atomic_u32(&mut words_raw);

    // 1. Initialise, sweeping each subspace of the pair in slot order.
    observer.phase("init", n as u64);
    // Positions not yet decided, for choosing how to run each round.
    let mut undecided = 0u64;
    // Positions the initial pass decides at level 1 (`Win(1)` by a capture,
    // `Loss(1)`): with those of round 1, the input of round 2.
    let mut first_level = 0u64;
    let level_one = (Packed::new(Value::Win(1)), Packed::new(Value::Loss(1)));
    for (p, (idx, start)) in space.parts.iter().enumerate() {
        // Quiet moves and passes lead into the other subspace of the pair, all to
        // boards whose mover set is this board's opponent set.
        let (next_idx, _) = &space.parts[(p + 1) % space.parts.len()];
        // Captures that do not end the game all lead into one subspace: the
        // opponent, one goti fewer, to move.
        let sub = idx.subspace();
        let capture_target = target_idx.iter().position(|(i, _)| {
            i.subspace() == Subspace::new(sub.opponent.wrapping_sub(1), sub.mover)
        });
        let chunks = idx.slots().div_ceil(CHUNK as u64);
        let (open, at_one) = (0..chunks)
            .into_par_iter()
            .map(|c| {
                let range = c * CHUNK as u64..((c + 1) * CHUNK as u64).min(idx.slots());
                let work = range.end - range.start;
                let (mut open, mut at_one) = (0u64, 0u64);
                // A two-stage pipeline: the capture targets' values of one position
                // are prefetched while those of the position before it are read
                // (without it, a quarter of a large pair's time is spent waiting
                // for those reads).
                let mut steps = [InitStep::new(), InitStep::new()];
                let mut cur = 0;
                // The captures of one position that take the goti on the same
                // point share their mover set (the opponent's gotis less that
                // one): its part of the slot is computed once per point.
                // (`known` says which entries belong to the current position.)
                let mut taken: [Option<MoverClass>; POINTS] = [None; POINTS];
                let mut known: u32;
                let mut finish = |step: &mut InitStep| {
                    let (value, count) = step.finish(&target_idx);
                    open += (value == Packed::NONE) as u64;
                    at_one += (value == level_one.0 || value == level_one.1) as u64;
                    words[step.own].store(word(value, count), Relaxed);
                    step.own = usize::MAX;
                };
                for (slot, board) in idx.boards(range) {
                    // The quiet successors all have the mover set `board.opponent`:
                    // only their number of distinct classes matters here, and the
                    // opponent sets tell the classes apart (distinct slides leave
                    // distinct sets) unless a symmetry fixes that mover set.
                    let class = next_idx.mover_class(board.opponent);
                    let symmetric = class.is_symmetric();
                    known = 0;
                    let step = &mut steps[cur];
                    step.start((start + slot) as usize);
                    board.for_each_successor(rules, |s| {
                        step.any = true;
                        match s {
                            // Once a capture wins, the others need no look-up.
                            Successor::Capture(_) if step.ends_game => {}
                            Successor::Capture(next) if next.is_game_over() => {
                                step.ends_game = true;
                            }
                            Successor::Capture(next) => {
                                let t = capture_target.expect("capture targets were checked above");
                                let target = &target_idx[t].0;
                                let point =
                                    (board.opponent & !next.mover).trailing_zeros() as usize;
                                let class = match taken[point] {
                                    Some(c) if known & 1 << point != 0 => c,
                                    _ => {
                                        let c = target.mover_class(next.mover);
                                        taken[point] = Some(c);
                                        known |= 1 << point;
                                        c
                                    }
                                };
                                let at = target.index_with(class, next.opponent) as usize;
                                prefetch(&target_idx[t].1[at]);
                                step.captures.push((t, at));
                            }
                            Successor::Quiet(next) | Successor::Pass(next) => {
                                if symmetric {
                                    step.quiet.push(class.opponent_key(next.opponent) as u64)
                                } else {
                                    step.plain += 1;
                                }
                            }
                        }
                    });
                    cur ^= 1;
                    if steps[cur].own != usize::MAX {
                        finish(&mut steps[cur]);
                    }
                }
                if steps[cur ^ 1].own != usize::MAX {
                    finish(&mut steps[cur ^ 1]);
                }
                observer.advance(work);
                (open, at_one)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        undecided += open;
        first_level += at_one;
    }

    // 2. Rounds: level k from level k - 1.
    let mut level: u16 = 1;
    // Positions at level 0 (blocked losses) are few; start backwards.
    let mut previous_level = 0u64;
    // The chunks holding the positions decided in the round before (`read`) and in
    // this one (`marked`).
    let (mut read, mut marked) = (Touched::new(n), Touched::new(n));
    while level <= max_level {
        let at = Level::new(level);
        observer.phase(&format!("round {level}"), n as u64);
        let forward = match rounds_mode {
            Rounds::Adaptive => undecided < FORWARD_RATIO.saturating_mul(previous_level),
            Rounds::Backward => false,
            Rounds::Forward => true,
        };
        marked.clear();
        let decided = if forward {
            forward_round(rules, &space, words, at, &marked, observer)
        } else {
            // Levels 0 and 1 come from the initial pass too: rounds 1 and 2 sweep
            // every chunk.
            let only = (level > 2).then_some(&read);
            backward_round(rules, &space, words, at, only, &marked, observer)
        };
        std::mem::swap(&mut read, &mut marked);
        observer.round_done(level, forward, decided);
        // Level k holds what round k decided, and at level 1 also what the initial
        // pass did; nothing else writes it. Counted exactly (not by looking at the
        // words while other threads write them), so the choice of direction, too,
        // is the same on every run and thread count.
        previous_level = decided + if level == 1 { first_level } else { 0 };
        if previous_level == 0 {
            // Nothing at level k: no later round can decide anything.
            break;
        }
        undecided -= decided;
        level += 1;
    }

    // 3. The rest are draws.
    let mut values_raw: Vec<u16> = words_raw
        .into_par_iter()
        .map(|w| {
            let v = word_value(w);
            if v == NONE && word_count(w) != PADDING {
                Packed::DRAW.0
            } else {
                v
            }
        })
        .collect();

    let rounds = level as u32;
    let mut out = Vec::new();
    for (idx, start) in space.parts.iter().rev() {
        // Split the tail subspace off first so the head keeps the allocation.
        let tail = values_raw.split_off(*start as usize);
        out.push(SolvedSubspace {
            subspace: idx.subspace(),
            values: tail.into_iter().map(Packed).collect(),
            rounds,
        });
    }
    out.reverse();
    Ok(out)
}

/// Solves every pair with at most `max_gotis` on the board in memory, in dependency
/// order ([`crate::pairs_up_to_pieces`] for `rules.pieces`), and returns every subspace's values. `each` is
/// called after every pair with its results and the seconds it took (for writing
/// files or printing as the work goes). For tests, benchmarks and experiments;
/// `tigadi solve` keeps only the tables it still needs and writes the rest.
pub fn solve_up_to(
    rules: &RuleSet,
    max_gotis: u32,
    observer: &dyn Observer,
    each: impl FnMut(Pair, &[SolvedSubspace], f64),
) -> std::collections::HashMap<Subspace, Vec<Packed>> {
    chain_pairs(
        rules.pieces,
        max_gotis,
        |pair, targets| solve_pair(rules, pair, targets, observer),
        each,
    )
}

/// Runs `solve` over every pair of a game with `pieces` gotis a side with at most
/// `max_gotis` on the board, in dependency order, handing each the tables of its capture targets from the pairs
/// before; `each` sees every pair's results and seconds. Returns every table.
pub(crate) fn chain_pairs(
    pieces: u8,
    max_gotis: u32,
    solve: impl Fn(Pair, &[SolvedTable<'_>]) -> Result<Vec<SolvedSubspace>, SolveError>,
    mut each: impl FnMut(Pair, &[SolvedSubspace], f64),
) -> std::collections::HashMap<Subspace, Vec<Packed>> {
    let mut tables: std::collections::HashMap<Subspace, Vec<Packed>> =
        std::collections::HashMap::new();
    for pair in crate::pairs_up_to_pieces(pieces, max_gotis) {
        let start = std::time::Instant::now();
        let targets: Vec<SolvedTable> = pair
            .capture_targets()
            .into_iter()
            .map(|t| SolvedTable {
                subspace: t,
                values: &tables[&t],
            })
            .collect();
        let solved = solve(pair, &targets).expect("every capture target was solved before");
        each(pair, &solved, start.elapsed().as_secs_f64());
        for s in solved {
            tables.insert(s.subspace, s.values);
        }
    }
    tables
}

/// The packed values a round reads and writes: level `k - 1` (read) and `k` (written).
#[derive(Clone, Copy)]
struct Level {
    /// `Win(k - 1)`; none in round 1 (no win has DTC 0).
    prev_win: Option<u16>,
    /// `Loss(k - 1)`.
    prev_loss: u16,
    /// `Win(k)`.
    win_now: u16,
    /// `Loss(k)`.
    loss_now: u16,
}

impl Level {
    fn new(k: u16) -> Level {
        Level {
            prev_win: (k > 1).then(|| Packed::new(Value::Win(k - 1)).0),
            prev_loss: Packed::new(Value::Loss(k - 1)).0,
            win_now: Packed::new(Value::Win(k)).0,
            loss_now: Packed::new(Value::Loss(k)).0,
        }
    }
}

/// The value bits of an undecided (or padding) slot.
const NONE: u16 = Packed::NONE.0;

/// One round run backwards: every position at level `k - 1` updates its quiet
/// predecessor classes (see the module docs). Returns the positions decided.
///
/// With `only`, the chunks not marked there hold no position of level `k - 1` and
/// are skipped. Every chunk in which this round decides a position is marked in
/// `marked`.
fn backward_round(
    rules: &RuleSet,
    space: &PairSpace,
    words: &[AtomicU32],
    at: Level,
    only: Option<&Touched>,
    marked: &Touched,
    observer: &dyn Observer,
) -> u64 {
    words
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(c, chunk)| {
            if only.is_some_and(|t| !t.has(c)) {
                observer.advance(chunk.len() as u64);
                return 0;
            }
            let base = (c * CHUNK) as u64;
            let mut decided = 0u64;
            // Updates the predecessors of one position at level k - 1.
            let mut update = |preds: &[u64], was_loss: bool| {
                for &p in preds {
                    let w = &words[p as usize];
                    if was_loss {
                        // Only a win can be written here concurrently: a position
                        // with a lost successor never runs out of successors.
                        // Clearing the bits of `NONE` (all ones) that `Win(k)`
                        // lacks writes it atomically, counters untouched, and
                        // exactly one thread finds `NONE` there first: the count
                        // of decided positions is exact.
                        if word_value(w.load(Relaxed)) == NONE {
                            let old = w.fetch_and(!VALUE_MASK | at.win_now as u32, Relaxed);
                            if word_value(old) == NONE {
                                marked.mark(p as usize);
                                decided += 1;
                            }
                        }
                    } else {
                        // A decided word never becomes undecided again, so its
                        // counter no longer matters: skip the locked update.
                        if word_value(w.load(Relaxed)) != NONE {
                            continue;
                        }
                        let old = w.fetch_sub(COUNT_ONE, Relaxed);
                        if word_value(old) == NONE && word_count(old) == 1 {
                            // The last quiet successor turned out won for the
                            // opponent; nothing else writes this word any more.
                            w.store(word(Packed(at.loss_now), 0), Relaxed);
                            marked.mark(p as usize);
                            decided += 1;
                        }
                    }
                }
            };
            // A two-stage pipeline: the predecessors of one position are
            // prefetched while those of the position before are updated, so the
            // cache misses overlap with work. Updates within a round commute.
            let mut sets = [SlotSet::new(), SlotSet::new()];
            let mut kinds = [false; 2];
            let mut cur = 0;
            for (i, w) in chunk.iter().enumerate() {
                let v = word_value(w.load(Relaxed));
                let was_loss = v == at.prev_loss;
                if !was_loss && Some(v) != at.prev_win {
                    continue;
                }
                let board = space
                    .board(base + i as u64)
                    .expect("decided slots hold positions");
                kinds[cur] = was_loss;
                space.predecessors(rules, board, words, &mut sets[cur]);
                cur ^= 1;
                update(sets[cur].distinct(), kinds[cur]);
                sets[cur].clear();
            }
            update(sets[cur ^ 1].distinct(), kinds[cur ^ 1]);
            observer.advance(chunk.len() as u64);
            decided
        })
        .sum()
}

/// The forward rule for the undecided position in slot `own`, whose distinct quiet
/// successor slots are `quiet`: `Win(k)` if one is `Loss(k - 1)`; otherwise its
/// counter loses those that are `Win(k - 1)`, and it is `Loss(k)` at zero. Returns
/// whether the position was decided.
#[inline(always)]
fn forward_step(words: &[AtomicU32], at: Level, own: usize, quiet: &[u64]) -> bool {
    let (mut lost, mut won) = (false, 0u8);
    for &q in quiet {
        let v = word_value(words[q as usize].load(Relaxed));
        lost |= v == at.prev_loss;
        won += (Some(v) == at.prev_win) as u8;
    }
    let w = &words[own];
    if lost {
        w.store(word(Packed(at.win_now), 0), Relaxed);
        return true;
    }
    if won > 0 {
        let count = word_count(w.load(Relaxed)) - won;
        if count == 0 {
            w.store(word(Packed(at.loss_now), 0), Relaxed);
            return true;
        }
        w.store(word(Packed::NONE, count), Relaxed);
    }
    false
}

/// One round run forwards: every undecided position of the pair looks at its quiet
/// successor classes. It becomes `Win(level)` if one of them is `Loss(level - 1)`;
/// otherwise its counter loses the classes that are `Win(level - 1)`, and it
/// becomes `Loss(level)` when the counter reaches zero. This is exactly what the
/// backward round does to the same position, so either may run any round. Only a
/// position's own word is written, and only values of level `level - 1` are read,
/// which no one writes in this round. Returns the positions decided.
fn forward_round(
    rules: &RuleSet,
    space: &PairSpace,
    words: &[AtomicU32],
    at: Level,
    marked: &Touched,
    observer: &dyn Observer,
) -> u64 {
    let mut tally = 0;
    for (p, (idx, start)) in space.parts.iter().enumerate() {
        let (next_idx, next_start) = &space.parts[(p + 1) % space.parts.len()];
        let chunks = idx.slots().div_ceil(CHUNK as u64);
        tally += (0..chunks)
            .into_par_iter()
            .map(|c| {
                let range = c * CHUNK as u64..((c + 1) * CHUNK as u64).min(idx.slots());
                let mut decided = 0u64;
                // A two-stage pipeline, as in the backward rounds: the successor
                // words of one undecided position are prefetched while those of
                // the undecided position before it are read. Positions of a
                // forward round are independent of each other (each writes only
                // its own word and reads only level k - 1), so the order is free.
                let mut sets = [SlotSet::new(), SlotSet::new()];
                let mut owners: [Option<usize>; 2] = [None, None];
                let mut cur = 0;
                let mut visit = |own: usize, board: Board| {
                    let class = next_idx.mover_class(board.opponent);
                    let quiet = &mut sets[cur];
                    quiet.clear();
                    board.for_each_successor(rules, |s| {
                        if let Successor::Quiet(next) | Successor::Pass(next) = s {
                            quiet.push(next_start + next_idx.index_with(class, next.opponent));
                        }
                    });
                    for &q in quiet.distinct() {
                        prefetch(&words[q as usize]);
                    }
                    owners[cur] = Some(own);
                    cur ^= 1;
                    if let Some(own) = owners[cur].take() {
                        if forward_step(words, at, own, sets[cur].distinct()) {
                            marked.mark(own);
                            decided += 1;
                        }
                    }
                };
                // Which positions of the chunk are undecided, from the words alone.
                let first = (start + range.start) as usize;
                let chunk = &words[first..first + (range.end - range.start) as usize];
                let mut open = 0usize;
                for w in chunk {
                    let w = w.load(Relaxed);
                    open += (word_value(w) == NONE && word_count(w) != PADDING) as usize;
                }
                if open * SPARSE < chunk.len() {
                    // Few undecided: decode just those boards, not the whole chunk.
                    for (i, w) in chunk.iter().enumerate() {
                        let w = w.load(Relaxed);
                        if word_value(w) == NONE && word_count(w) != PADDING {
                            let board = idx
                                .board(range.start + i as u64)
                                .expect("a slot with a counter holds a position");
                            visit(first + i, board);
                        }
                    }
                } else {
                    for (slot, board) in idx.boards(range.clone()) {
                        let own = (start + slot) as usize;
                        if word_value(words[own].load(Relaxed)) == NONE {
                            visit(own, board);
                        }
                    }
                }
                if let Some(own) = owners[cur ^ 1].take() {
                    if forward_step(words, at, own, sets[cur ^ 1].distinct()) {
                        marked.mark(own);
                        decided += 1;
                    }
                }
                observer.advance(range.end - range.start);
                decided
            })
            .sum::<u64>();
    }
    tally
}
