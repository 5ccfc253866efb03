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
//! A step of tiers with gotis in hand under Lasker's rule ([`crate::in_hand`])
//! runs the same rounds with **exits**: per position the best value of its
//! moves that leave the step, of any depth (a quiet placement counts one turn
//! more than its target). Its rounds run either way too: forwards each position
//! takes its exit ([`forward_step`]); backwards the predecessor updates leave a
//! position whose counter ran out before its loss exit's depth waiting, and a
//! sweep of the exits ([`exit_round`]) decides what the exits decide in the
//! round. The rounds go on at least to the deepest exit.
//!
//! Counting distinct successor *classes* forward and distinct predecessor *classes*
//! backward is what keeps the counters right under symmetry reduction: a position
//! whose orbit is smaller than its neighbour's would otherwise be decremented more
//! (or fewer) times than it was counted.

use crate::memory::prefetch;
use crate::value::{Packed, Value, Wdl};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
use tigadi_index::{FreeSets, Images, Subspace, SubspaceIndex};
use tigadi_rules::geometry::{Bits, POINTS};
use tigadi_rules::{Board, RuleSet};

use crate::plan::Pair;
use crate::runs::{run_tasks, Lagged, RunMoves, SlotSet};
use crate::tables::{Observer, SolveError, SolvedSubspace, SolvedTable, TableSet};

/// Counter value marking a padding slot (no position): never a real count, since a
/// position has at most 63 quiet successors (three flying gotis, 21 empty points).
pub(crate) const PADDING: u8 = u8::MAX;

/// A round runs forwards (each undecided position looks at its successors) rather
/// than backwards (each position of the previous level updates its predecessors)
/// when the undecided positions number fewer than `times / over` times the
/// previous level. Per position a forward step reads about 20 random words; a
/// backward step gathers its predecessors in its run and updates each distinct
/// one once, which costs a little more per position (`pair_times … rounds` on
/// the pairs up to 10 gotis: about 200 ns per undecided position forwards,
/// 130–400 ns per position of the level backwards, one core).
pub const FORWARD_RATIO: (u64, u64) = (5, 4);

/// Slots handed to one rayon task at a time.
pub(crate) const CHUNK: usize = 1 << 12;

/// A forward round decodes only the undecided boards of a chunk, one by one
/// ([`SubspaceIndex::board`]), rather than sweeping the whole chunk
/// ([`SubspaceIndex::boards`]) when fewer than one slot in this many is undecided:
/// a sweep costs about a sixth of a decoding per slot.
const SPARSE: usize = 6;

/// Slots of the pair laid end to end: `(m, o)` first, then `(o, m)` if different.
pub(crate) struct PairSpace {
    pub(crate) parts: Vec<(SubspaceIndex, u64)>, // index and first global slot
    pub(crate) total: u64,
}

impl PairSpace {
    pub(crate) fn new(pair: Pair) -> PairSpace {
        PairSpace::of_subspaces(pair.subspaces())
    }

    /// The slots of `subspaces` laid end to end, in their order (a step of
    /// tiers: two parts may share a subspace and differ in their hands).
    pub(crate) fn of_subspaces(subspaces: impl IntoIterator<Item = Subspace>) -> PairSpace {
        let mut parts = Vec::new();
        let mut total = 0;
        for s in subspaces {
            let idx = SubspaceIndex::new(s);
            let n = idx.slots();
            parts.push((idx, total));
            total += n;
        }
        PairSpace { parts, total }
    }

    /// The other part of the pair (the part itself when the pair is one
    /// subspace), where part `p`'s quiet successors and predecessors lie: its
    /// index and first global slot.
    pub(crate) fn other(&self, p: usize) -> (SubspaceIndex, u64) {
        self.parts[(p + 1) % self.parts.len()]
    }

    /// Runs `task(p, runs)` in parallel over the runs of every part `p`, part
    /// after part ([`sweep_part_runs`](Self::sweep_part_runs)), and returns the
    /// sums of what the tasks return.
    pub(crate) fn sweep_runs(
        &self,
        observer: &dyn Observer,
        task: impl Fn(usize, std::ops::Range<u64>) -> (u64, u64, u64) + Sync,
    ) -> (u64, u64, u64) {
        (0..self.parts.len()).fold((0, 0, 0), |total, p| {
            let (a, b, c) = self.sweep_part_runs(p, observer, |runs| task(p, runs));
            (total.0 + a, total.1 + b, total.2 + c)
        })
    }

    /// Runs `task(runs)` in parallel over the runs of part `p` (in tasks of
    /// whole runs, [`run_tasks`](crate::runs::run_tasks)), reports each task's
    /// slots to `observer` as done, and returns the sums of what the tasks
    /// return.
    pub(crate) fn sweep_part_runs(
        &self,
        p: usize,
        observer: &dyn Observer,
        task: impl Fn(std::ops::Range<u64>) -> (u64, u64, u64) + Sync,
    ) -> (u64, u64, u64) {
        let idx = &self.parts[p].0;
        let run = idx.run_length();
        run_tasks(idx, CHUNK as u64)
            .into_par_iter()
            .map(|runs| {
                let out = task(runs.clone());
                observer.advance((runs.end - runs.start) * run);
                out
            })
            .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2))
    }

    /// The board at global slot `g` of the pair, which must hold a position.
    pub(crate) fn board(&self, g: u64) -> Board {
        let (idx, start) = self
            .parts
            .iter()
            .rev()
            .find(|(_, start)| *start <= g)
            .expect("the first part starts at 0");
        idx.board(g - start)
            .expect("a slot of the pair that holds a position")
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
}

/// Per-slot solver state, one word: the [`Packed`] value in the low 16 bits and the
/// counter of undecided quiet successor classes in bits 16..24. One word per slot
/// means one cache miss per predecessor update, not two.
const COUNT_SHIFT: u32 = 16;
const COUNT_ONE: u32 = 1 << COUNT_SHIFT;
const VALUE_MASK: u32 = 0xFFFF;

#[inline(always)]
pub(crate) fn word(value: Packed, count: u8) -> u32 {
    value.0 as u32 | (count as u32) << COUNT_SHIFT
}

#[inline(always)]
pub(crate) fn word_value(w: u32) -> u16 {
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
    solve_pair_capped(
        rules,
        pair,
        targets,
        observer,
        rounds_mode,
        tigadi_values::MAX_DTC,
    )
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
    let target_idx = TableSet::new(targets, &pair.capture_targets())?.tables;

    let n = space.total as usize;
    let mut words_raw = crate::memory::filled_vec(n, word(Packed::NONE, PADDING));
    let words = atomic_u32(&mut words_raw);

    // 1. Initialise, sweeping each subspace of the pair in slot order.
    observer.phase("init", n as u64);
    let (undecided, first_level, touched) =
        initial_pass(rules, &space, words, &target_idx, observer);
    observer.touched(touched);

    // 2. Rounds; 3. the rest are draws.
    let start = Start {
        undecided,
        first_level,
        exits: None,
    };
    let level = run_rounds(
        rules,
        &space,
        words,
        start,
        observer,
        rounds_mode,
        max_level,
    );
    Ok(space.solved(words_raw, level))
}

/// Where the rounds start: the positions the initial pass left undecided,
/// those it decided at level 1, and the exits of a step with gotis in hand.
pub(crate) struct Start<'a> {
    pub(crate) undecided: u64,
    pub(crate) first_level: u64,
    pub(crate) exits: Option<&'a Exits>,
}

/// The moves that leave a step of tiers with gotis in hand (Lasker's rule,
/// [`crate::in_hand`]), which unlike a moving pair's captures may have any
/// depth: a quiet placement is worth its target's value one turn later.
pub(crate) struct Exits {
    /// Per slot of the step: the packed best value of its moves that leave the
    /// step, [`Packed::NONE`] for none.
    pub(crate) values: Vec<u16>,
    /// Per part of the step: the gotis in the mover's hand.
    pub(crate) hands: Vec<u8>,
    /// The largest depth among `values`: rounds go on at least this far.
    pub(crate) deepest: u16,
    /// Per round `k`, the chunks holding a position that the initial pass
    /// decided at level `k - 1` or one it left undecided whose exit has depth
    /// `k`: with the chunks the round before decided positions in, all that a
    /// backward round `k` must sweep (its level `k - 1`, and what
    /// [`exit_round`] may decide).
    at_round: Vec<Touched>,
}

impl Exits {
    /// The exits `values` of a step whose initial pass wrote `words`, its
    /// parts' movers holding `hands`.
    ///
    /// Where a moving pair's level `k - 1` was all decided in round `k - 1`,
    /// a step's initial pass decides positions at any level (those whose
    /// every move leaves the step), and its exits decide positions in the
    /// round of their depth: an exit `Win(k)` in round `k`, and a loss exit
    /// `Loss(e)` in round `e` when the position's counter ran out earlier
    /// (a counter that runs out in a round `k >= e` decides it then, in that
    /// round's update). So a round `k` needs, besides the chunks of round
    /// `k - 1`, only those of `at_round[k]`, found here in one sweep; without
    /// them each of a step's many late rounds, which decide few positions,
    /// swept the whole step twice.
    pub(crate) fn new(values: Vec<u16>, hands: Vec<u8>, words: &[AtomicU32]) -> Exits {
        let depth = |v: u16| Packed(v).get().and_then(Value::dtc);
        let deepest = values
            .par_iter()
            .filter_map(|&v| depth(v))
            .max()
            .unwrap_or(0);
        // Levels reach at most the deepest exit, `Win(1)` and `Loss(1)` aside:
        // a round past `deepest + 2` has nothing here.
        let rounds = deepest as usize + 3;
        let at_round: Vec<Touched> = (0..rounds).map(|_| Touched::new(words.len())).collect();
        words
            .par_chunks(CHUNK)
            .zip(values.par_chunks(CHUNK))
            .enumerate()
            .for_each(|(c, (words, exits))| {
                // The rounds this chunk is needed in, marked once each.
                let mut needed = vec![0u64; rounds.div_ceil(64)];
                for (w, &exit) in words.iter().zip(exits) {
                    let w = w.load(Relaxed);
                    let round = if word_value(w) != NONE {
                        depth(word_value(w)).map(|d| d + 1)
                    } else if word_count(w) != PADDING {
                        depth(exit)
                    } else {
                        None
                    };
                    if let Some(k) = round.map(usize::from).filter(|&k| k < rounds) {
                        needed[k / 64] |= 1 << (k % 64);
                    }
                }
                for (i, mut bits) in needed.into_iter().enumerate() {
                    while bits != 0 {
                        let k = i * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        at_round[k].mark(c * CHUNK);
                    }
                }
            });
        Exits {
            values,
            hands,
            deepest,
            at_round,
        }
    }

    /// The chunks a backward round `level` sweeps besides those of the round
    /// before ([`Exits::new`]).
    fn at_round(&self, level: u16) -> Option<&Touched> {
        self.at_round.get(level as usize)
    }
}

/// Step 2 of the module docs: level k from level k - 1, until a round decides
/// nothing (and, with exits, no exit is deeper than the round) or after round
/// `max_level`. Returns the level reached.
pub(crate) fn run_rounds(
    rules: &RuleSet,
    space: &PairSpace,
    words: &[AtomicU32],
    start: Start<'_>,
    observer: &dyn Observer,
    rounds_mode: Rounds,
    max_level: u16,
) -> u16 {
    let n = space.total as usize;
    let Start {
        mut undecided,
        first_level,
        exits,
    } = start;
    // Exits may decide positions at their own depth after rounds that decided
    // nothing.
    let exit_max = exits.map_or(0, |e| e.deepest);
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
            Rounds::Adaptive => {
                let (times, over) = FORWARD_RATIO;
                undecided.saturating_mul(over) < previous_level.saturating_mul(times)
            }
            Rounds::Backward => false,
            Rounds::Forward => true,
        };
        marked.clear();
        let (decided, touched) = if forward {
            forward_round(rules, space, words, at, exits, &marked, observer)
        } else {
            // Levels 0 and 1 come from the initial pass too: rounds 1 and 2 sweep
            // every chunk. With exits the initial pass decides positions at any
            // level: their chunks are swept in the round after their level.
            let only = (level > 2).then(|| Sweep {
                read: &read,
                also: exits.and_then(|e| e.at_round(level)),
            });
            backward_round(rules, space, words, at, exits, only, &marked, observer)
        };
        std::mem::swap(&mut read, &mut marked);
        observer.touched(touched);
        observer.round_done(level, forward, decided);
        // Level k holds what round k decided, and at level 1 also what the initial
        // pass did; nothing else writes it. Counted exactly (not by looking at the
        // words while other threads write them), so the choice of direction, too,
        // is the same on every run and thread count.
        previous_level = decided + if level == 1 { first_level } else { 0 };
        if previous_level == 0 && level > exit_max {
            // Nothing at level k and no exit deeper: no later round can decide
            // anything.
            break;
        }
        undecided -= decided;
        level += 1;
    }
    level
}

impl PairSpace {
    /// Step 3 of the module docs: the words after the rounds, which reached
    /// `level`, as each part's values, the undecided positions draws. Each
    /// part's values go into an array of their own, in huge pages as the tables
    /// read from files are (the job hands a pair's values to the next pair as
    /// capture targets, read at random).
    pub(crate) fn solved(&self, words_raw: Vec<u32>, level: u16) -> Vec<SolvedSubspace> {
        let value_of = |w: u32| {
            let v = word_value(w);
            if v == NONE && word_count(w) != PADDING {
                Packed::DRAW
            } else {
                Packed(v)
            }
        };
        let rounds = level as u32;
        let mut out = Vec::new();
        let mut end = self.total as usize;
        for (idx, start) in self.parts.iter().rev() {
            let start = *start as usize;
            let part = &words_raw[start..end];
            out.push(SolvedSubspace {
                subspace: idx.subspace(),
                values: crate::memory::vec_from_fn(part.len(), |i| value_of(part[i])),
                rounds,
            });
            end = start;
        }
        drop(words_raw);
        out.reverse();
        out
    }
}

/// Solves every pair with at most `max_gotis` on the board in memory, in dependency
/// order ([`crate::plan::pairs_up_to_pieces`] for `rules.pieces`), and returns every subspace's values. `each` is
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
    for pair in crate::plan::pairs_up_to_pieces(pieces, max_gotis) {
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

/// The memo's value of a capture target as the initial pass reads it: 1 if it is
/// lost for its player to move (the capture wins), 2 if drawn, 0 if won.
#[inline(always)]
fn capture_code(v: Packed) -> u8 {
    match v
        .get()
        .expect("solved table has a value at a canonical slot")
        .wdl()
    {
        Wdl::Loss => 1,
        Wdl::Draw => 2,
        Wdl::Win => 0,
    }
}

/// The initial value and counter of the board `(M, opponent)` of the run
/// prepared in `moves` (see the module docs): a capture is a win at DTC 1 if it
/// ends the game or leads to a position lost for the opponent; a blocked player
/// that loses has `Loss(0)`; a position whose every option is a losing capture
/// has `Loss(1)`. The counter is the number of distinct quiet successor classes
/// (and pass), plus one that is never taken away when a capture reaches a draw.
/// `next_idx` indexes the quiet successors, whose mover set is `opponent`;
/// `ends_game` says captures end the game.
#[inline]
fn initial(
    moves: &RunMoves,
    rules: &RuleSet,
    next_idx: &SubspaceIndex,
    opponent: Bits,
    ends_game: bool,
    keys: &mut SlotSet,
) -> (Packed, u8) {
    let count = moves.quiet_classes(rules, next_idx, opponent, keys);
    let (mut win, mut draw) = (false, false);
    let capturing = moves.captures(rules, opponent, ends_game, |target| {
        match target.map(capture_code) {
            None | Some(1) => win = true,
            Some(2) => draw = true,
            _ => {}
        }
        !win
    });
    let any = count > 0 || capturing;
    let count = count + draw as usize;
    let value = if !any {
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

/// The initial pass (step 1 of the module docs): every position's value where
/// its captures or a block decide it at once, and otherwise its counter.
/// Returns the positions left undecided, those decided at level 1 (`Win(1)`,
/// `Loss(1)`) and the capture targets' values read.
fn initial_pass(
    rules: &RuleSet,
    space: &PairSpace,
    words: &[AtomicU32],
    target_idx: &[(SubspaceIndex, &[Packed])],
    observer: &dyn Observer,
) -> (u64, u64, u64) {
    let level_one = (Packed::new(Value::Win(1)), Packed::new(Value::Loss(1)));
    space.sweep_runs(observer, |p, runs| {
        let (idx, start) = space.parts[p];
        // Quiet moves and passes lead into the other subspace of the pair, all to
        // boards whose mover set is this board's opponent set.
        let (next_idx, _) = space.other(p);
        // Captures that do not end the game all lead into one subspace: the
        // opponent, one goti fewer, to move.
        let sub = idx.subspace();
        let target = capture_table(target_idx, sub);
        let ends_game = target.is_none();
        let run = idx.run_length();
        let (mut open, mut at_one, mut read) = (0u64, 0u64, 0u64);
        let mut moves = RunMoves::default();
        let mut keys = SlotSet::new();
        for r in runs {
            let (mover, _) = idx.run_mover(r);
            read += moves.prepare(rules, mover, sub.opponent as u32, target);
            for (slot, board) in idx.boards(r * run..(r + 1) * run) {
                let (value, count) = initial(
                    &moves,
                    rules,
                    &next_idx,
                    board.opponent,
                    ends_game,
                    &mut keys,
                );
                open += (value == Packed::NONE) as u64;
                at_one += (value == level_one.0 || value == level_one.1) as u64;
                words[(start + slot) as usize].store(word(value, count), Relaxed);
            }
        }
        (open, at_one, read)
    })
}

/// The table that the captures from subspace `sub` lead into (the opponent, one
/// goti fewer, to move), among `targets`, the capture targets' tables that
/// [`TableSet::new`] checked; `None` when
/// every capture ends the game (the opponent left with fewer than three gotis).
pub(crate) fn capture_table<'a>(
    targets: &[(SubspaceIndex, &'a [Packed])],
    sub: Subspace,
) -> Option<(SubspaceIndex, &'a [Packed])> {
    let to = sub.capture_target()?;
    let table = targets.iter().find(|(i, _)| i.subspace() == to).copied();
    assert!(table.is_some(), "capture targets were checked");
    table
}

/// The packed values a round reads and writes: level `k - 1` (read) and `k` (written).
#[derive(Clone, Copy)]
struct Level {
    /// `k`.
    k: u16,
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
            k,
            prev_win: (k > 1).then(|| Packed::new(Value::Win(k - 1)).0),
            prev_loss: Packed::new(Value::Loss(k - 1)).0,
            win_now: Packed::new(Value::Win(k)).0,
            loss_now: Packed::new(Value::Loss(k)).0,
        }
    }
}

/// The value bits of an undecided (or padding) slot.
const NONE: u16 = Packed::NONE.0;

/// The chunks a backward round sweeps for its level: those marked in `read`
/// (decided in the round before) or in `also` ([`Exits::at_round`]).
#[derive(Clone, Copy)]
struct Sweep<'a> {
    read: &'a Touched,
    also: Option<&'a Touched>,
}

impl Sweep<'_> {
    /// Does chunk `c` hold no position the round needs?
    #[inline]
    fn skips(&self, c: usize) -> bool {
        !self.read.has(c) && !self.also.is_some_and(|t| t.has(c))
    }
}

/// One round run backwards: every position at level `k - 1` updates its quiet
/// predecessor classes (see the module docs). Returns the positions decided and
/// the predecessor words updated.
///
/// With `only`, the chunks it skips hold no position of level `k - 1` and
/// are not swept. Every chunk in which this round decides a position is marked in
/// `marked`.
///
/// The positions are taken a run at a time (the slots of one canonical mover set
/// `M`). Every quiet predecessor of a board `(M, O)` of the run is a board `(O',
/// M)`, `O'` a set of as many points among those `M` leaves free, and one such
/// board is a predecessor of up to ~20 boards of the run. Where no symmetry fixes
/// `M`, distinct boards `(O', M)` are distinct classes, so the run first
/// gathers, per `O'` (numbered as the run numbers its opponent sets,
/// [`FreeSets`]), how many of its successors in the run are `Win(k - 1)` and
/// whether one is `Loss(k - 1)`, and then updates each predecessor once: one
/// canonical form and one random word per distinct predecessor instead of per
/// edge. Runs of symmetric mover sets update edge by edge ([`update_edges`]).
#[allow(clippy::too_many_arguments)]
fn backward_round(
    rules: &RuleSet,
    space: &PairSpace,
    words: &[AtomicU32],
    at: Level,
    exits: Option<&Exits>,
    only: Option<Sweep<'_>>,
    marked: &Touched,
    observer: &dyn Observer,
) -> (u64, u64) {
    let exit_of = |q: usize| exits.map_or(NONE, |e| e.values[q]);
    let (decided, _, touched) = space.sweep_runs(observer, |p, runs| {
        let (idx, start) = space.parts[p];
        let run = idx.run_length();
        // The predecessors' player to move holds the other part's hand.
        let hand = exits.map_or(0, |e| e.hands[(p + 1) % space.parts.len()]);
        let mut apply = Applier::new(words, |q, tally| {
            update_value(words, at, marked, q, tally, || exit_of(q))
        });
        let mut gathered = Gathered::default();
        let mut level = Vec::new();
        for r in runs {
            let first = (start + r * run) as usize;
            let slots = &words[first..first + run as usize];
            // The level's positions of the run, by their number in it.
            level.clear();
            for c in (first / CHUNK)..(first + slots.len()).div_ceil(CHUNK) {
                if only.is_some_and(|t| t.skips(c)) {
                    continue;
                }
                let lo = (c * CHUNK).max(first) - first;
                let hi = ((c + 1) * CHUNK).min(first + slots.len()) - first;
                for (i, w) in slots[lo..hi].iter().enumerate() {
                    let v = word_value(w.load(Relaxed));
                    if v == at.prev_loss || Some(v) == at.prev_win {
                        level.push(((lo + i) as u32, v == at.prev_loss));
                    }
                }
            }
            space.run_predecessors(rules, p, r, hand, &level, &mut gathered, &mut apply);
        }
        apply.finish();
        (apply.done, 0, apply.pushed)
    });
    let by_exits = exits.map_or(0, |e| exit_round(words, at, e, marked));
    (decided + by_exits, touched)
}

/// The part of a backward round `k` that the exits decide ([`Exits`], after the
/// predecessor updates of the round, which decide no position these decide
/// otherwise): an undecided position whose exit is `Win(k)` becomes `Win(k)`,
/// and one whose counter is zero and whose exit is a loss no deeper than `k`
/// (it waited since its counter reached zero) becomes `Loss(k)`, as
/// [`forward_step`] decides them. Only the chunks of [`Exits::at_round`] hold
/// such positions. Marks their chunks; returns how many.
fn exit_round(words: &[AtomicU32], at: Level, exits: &Exits, marked: &Touched) -> u64 {
    let Some(needed) = exits.at_round(at.k) else {
        return 0;
    };
    words
        .par_chunks(CHUNK)
        .zip(exits.values.par_chunks(CHUNK))
        .enumerate()
        .filter(|(c, _)| needed.has(*c))
        .map(|(c, (words, exits))| {
            let mut decided = 0;
            for (i, (w, &exit)) in words.iter().zip(exits).enumerate() {
                let old = w.load(Relaxed);
                if word_value(old) != NONE || exit == NONE || word_count(old) == PADDING {
                    continue;
                }
                let value = if exit == at.win_now {
                    at.win_now
                } else if word_count(old) == 0 && exit <= at.loss_now {
                    at.loss_now
                } else {
                    continue;
                };
                w.store(word(Packed(value), 0), Relaxed);
                marked.mark(c * CHUNK + i);
                decided += 1;
            }
            decided
        })
        .sum()
}

impl PairSpace {
    /// The backward step of the positions `level` of run `r` of part `p` (their
    /// numbers in the run, each with whether it is lost): each distinct quiet
    /// predecessor class of theirs (a slot of the other part) is pushed to `apply`
    /// once per run with its tally, bit [`LOST`] set when one of its successors
    /// among them is lost, otherwise the number of its successor classes among
    /// them (see [`backward_round`]). The retrograde rounds and the DTW levels
    /// ([`crate::dtw`]) both take their positions this way.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run_predecessors<U: FnMut(usize, u8) -> u64>(
        &self,
        rules: &RuleSet,
        p: usize,
        r: u64,
        hand: u8,
        level: &[(u32, bool)],
        gathered: &mut Gathered,
        apply: &mut Applier<'_, U>,
    ) {
        if level.is_empty() {
            return;
        }
        let (idx, _) = self.parts[p];
        // The predecessors, with the other player to move, are in the other part.
        let (prev_idx, prev_start) = self.other(p);
        let run = idx.run_length();
        let opponent = idx.subspace().opponent as u32;
        let (mover, symmetric) = idx.run_mover(r);
        // The run's mover set is its predecessors' opponent set.
        let images = Images::of(mover);
        if symmetric {
            let prev = (&prev_idx, prev_start, &images);
            update_edges(rules, hand, prev, apply, level, |i| {
                idx.board(r * run + i as u64)
                    .expect("settled slots hold positions")
            });
            return;
        }
        let free = FreeSets::new(mover);
        gathered.start(run as usize, mover);
        if level.len() * SPARSE < run as usize {
            for &(i, was_loss) in level {
                let board = idx
                    .board(r * run + i as u64)
                    .expect("settled slots hold positions");
                gathered.add(rules, hand, board, free.compress(board.opponent), was_loss);
            }
        } else {
            // Dense: walk the run's opponent sets in order instead.
            let mut next = level.iter().peekable();
            let mut i = 0u32;
            free.for_each_compressed(opponent, |o, set| {
                if let Some(&(_, was_loss)) = next.next_if(|l| l.0 == i) {
                    let board = Board {
                        mover,
                        opponent: set,
                    };
                    gathered.add(rules, hand, board, o, was_loss);
                }
                i += 1;
            });
        }
        // Each predecessor once, its word prefetched APPLY_LAG ahead.
        for &(number, o) in &gathered.touched {
            let o = free.expand(o);
            let class = prev_idx.mover_class_of(&Images::of(o));
            let slot = prev_start + prev_idx.index_with_images(class, &images);
            apply.push(slot as usize, gathered.tally[number as usize]);
        }
    }
}

/// Updates of predecessor words, each prefetched [`APPLY_LAG`] updates before
/// `update(word, tally)` makes it. An update is a tally: bit 7 ([`LOST`]) set
/// when a successor is lost, otherwise the number of successors that are won
/// (at the level being taken: `k - 1` in a retrograde round, `k` in a DTW
/// level). `update` returns the positions it decided.
pub(crate) struct Applier<'a, U> {
    words: &'a [AtomicU32],
    update: U,
    ring: [(usize, u8); APPLY_LAG],
    n: usize,
    /// Updates queued so far.
    pub(crate) pushed: u64,
    /// Positions decided by the updates made so far.
    pub(crate) done: u64,
}

/// Predecessor updates in flight (prefetched, not yet made).
const APPLY_LAG: usize = 16;

/// How many undecided positions [`forward_round`] keeps in flight: their
/// successors' words are read `FORWARD_LAG - 1` positions after their
/// prefetch.
const FORWARD_LAG: usize = 4;

/// The [`Applier`] tally of a lost successor.
pub(crate) const LOST: u8 = 0x80;

impl<'a, U: FnMut(usize, u8) -> u64> Applier<'a, U> {
    pub(crate) fn new(words: &'a [AtomicU32], update: U) -> Applier<'a, U> {
        Applier {
            words,
            update,
            ring: [(0, 0); APPLY_LAG],
            n: 0,
            pushed: 0,
            done: 0,
        }
    }

    /// Queues the update of word `p` and makes the one queued `APPLY_LAG` before.
    #[inline]
    fn push(&mut self, p: usize, tally: u8) {
        prefetch(&self.words[p]);
        self.pushed += 1;
        let r = std::mem::replace(&mut self.ring[self.n % APPLY_LAG], (p, tally));
        self.n += 1;
        if self.n > APPLY_LAG {
            self.done += (self.update)(r.0, r.1);
        }
    }

    /// Makes the updates still queued.
    pub(crate) fn finish(&mut self) {
        for i in self.n.saturating_sub(APPLY_LAG)..self.n {
            let (p, tally) = self.ring[i % APPLY_LAG];
            self.done += (self.update)(p, tally);
        }
        self.n = 0;
    }
}

/// A retrograde round's update of predecessor word `p` with `tally` (see
/// [`Applier`]): returns 1 if that decided it, and marks its chunk in `marked`.
/// `exit()` is `p`'s exit ([`Exits`], `NONE` for none): a counter that reaches
/// zero with a loss exit deeper than the round leaves `p` waiting for it
/// ([`exit_round`]), as [`forward_step`] does. It is read only then: the exits
/// lie in an array of their own, and reading one for every update was a
/// second cache miss beside the word's (which the [`Applier`] prefetches).
#[inline(always)]
fn update_value(
    words: &[AtomicU32],
    at: Level,
    marked: &Touched,
    p: usize,
    tally: u8,
    exit: impl FnOnce() -> u16,
) -> u64 {
    let w = &words[p];
    // A decided word never becomes undecided again, and its counter no
    // longer matters: skip the locked update.
    if word_value(w.load(Relaxed)) != NONE {
        return 0;
    }
    if tally & LOST != 0 {
        // Only a win can be written here concurrently: a position with a lost
        // successor never runs out of successors. Clearing the bits of `NONE`
        // (all ones) that `Win(k)` lacks writes it atomically, counters
        // untouched, and exactly one thread finds `NONE` there first: the
        // count of decided positions is exact.
        let old = w.fetch_and(!VALUE_MASK | at.win_now as u32, Relaxed);
        if word_value(old) == NONE {
            marked.mark(p);
            return 1;
        }
    } else {
        let old = w.fetch_sub(tally as u32 * COUNT_ONE, Relaxed);
        if word_value(old) == NONE
            && word_count(old) == tally
            && matches!(exit(), e if e == NONE || e <= at.loss_now)
        {
            // The last quiet successors turned out won for the opponent;
            // nothing else writes this word any more.
            w.store(word(Packed(at.loss_now), 0), Relaxed);
            marked.mark(p);
            return 1;
        }
    }
    0
}

/// A run's predecessors gathered by [`PairSpace::run_predecessors`]: per
/// opponent-set number of the run, the tally of its board's successors at the
/// level taken (see [`Applier`]), and the numbers touched, with their
/// compressed sets, in the order first touched.
#[derive(Default)]
pub(crate) struct Gathered {
    tally: Vec<u8>,
    touched: Vec<(u32, Bits)>,
    /// The number of each point among the points the run's mover set leaves
    /// free, as a bit of the compressed form (0 for its own points).
    bit: [Bits; POINTS],
}

impl Gathered {
    /// Empties the tallies for a run of `run` slots with mover set `mover`.
    fn start(&mut self, run: usize, mover: Bits) {
        if self.tally.len() < run {
            self.tally.resize(run, 0);
        }
        for &(n, _) in &self.touched {
            self.tally[n as usize] = 0;
        }
        self.touched.clear();
        for (p, b) in self.bit.iter_mut().enumerate() {
            *b = if mover & 1 << p != 0 {
                0
            } else {
                1 << (!mover & ((1 << p) - 1)).count_ones()
            };
        }
    }

    /// Adds the predecessors of `board`, a board of the run whose opponent set
    /// has the compressed form `o`, lost (`was_loss`) or won for its player to
    /// move; the predecessors' player to move holds `hand` gotis in hand.
    #[inline]
    fn add(&mut self, rules: &RuleSet, hand: u8, board: Board, o: Bits, was_loss: bool) {
        let (tally, touched, bit) = (&mut self.tally, &mut self.touched, &self.bit);
        board.for_each_quiet_predecessor_slide_holding(rules, hand, |from, to| {
            let key = o ^ bit[from] ^ bit[to];
            let n = FreeSets::number(key) as usize;
            let t = tally[n];
            if t == 0 {
                touched.push((n as u32, key));
            }
            tally[n] = if was_loss { t | LOST } else { t + 1 };
        });
    }
}

/// The edge-by-edge backward update of the positions `level` (numbers in a run,
/// with whether each is lost) whose boards `board(number)` gives: every position's
/// distinct predecessor classes, each updated once per position. The
/// predecessors lie in the part `prev` (its index, its first global slot and
/// the images of their opponent set, the run's mover set), their player to
/// move holding `hand` gotis in hand.
fn update_edges<U: FnMut(usize, u8) -> u64>(
    rules: &RuleSet,
    hand: u8,
    prev: (&SubspaceIndex, u64, &Images),
    apply: &mut Applier<'_, U>,
    level: &[(u32, bool)],
    board: impl Fn(u32) -> Board,
) {
    let (prev_idx, prev_start, prev_opponent) = prev;
    let mut preds = SlotSet::new();
    for &(i, was_loss) in level {
        preds.clear();
        let b = board(i);
        // A predecessor's mover set is `b`'s opponent set with one goti moved
        // back, so its images are `b.opponent`'s with two points toggled.
        let opponent = Images::of(b.opponent);
        b.for_each_quiet_predecessor_slide_holding(rules, hand, |from, to| {
            let moved = opponent
                .toggled(Images::point(from))
                .toggled(Images::point(to));
            let class = prev_idx.mover_class_of(&moved);
            preds.push(prev_start + prev_idx.index_with_images(class, prev_opponent))
        });
        let tally = if was_loss { LOST } else { 1 };
        for &p in preds.distinct() {
            apply.push(p as usize, tally);
        }
    }
}

/// The forward rule for the undecided position in slot `own`, whose distinct quiet
/// successor slots are `quiet`: `Win(k)` if one is `Loss(k - 1)`; otherwise its
/// counter loses those that are `Win(k - 1)`, and it is `Loss(k)` at zero. The
/// slots `quiet` count from global slot `next`. Returns
/// whether the position was decided.
///
/// `exit` is the best value of the moves leaving the step ([`Exits`]), `NONE`
/// for none (every moving-phase position: its captures were all taken by the
/// initial pass). A `Win(k)` exit makes the position `Win(k)`; a position whose
/// counter is zero loses at the later of `k` and its exit's `Loss(e)`, and until
/// round `e` it waits with its counter at zero (exits that draw or win hold one
/// in the counter that is never taken away).
#[inline(always)]
fn forward_step(
    words: &[AtomicU32],
    at: Level,
    own: usize,
    next: u64,
    quiet: &[u64],
    exit: u16,
) -> bool {
    let (mut lost, mut won) = (false, 0u8);
    for &q in quiet {
        let v = word_value(words[(next + q) as usize].load(Relaxed));
        lost |= v == at.prev_loss;
        won += (Some(v) == at.prev_win) as u8;
    }
    let w = &words[own];
    if lost || exit == at.win_now {
        w.store(word(Packed(at.win_now), 0), Relaxed);
        return true;
    }
    if won > 0 || exit != NONE {
        let count = word_count(w.load(Relaxed)) - won;
        // A loss exit deeper than `k` (packed above `Loss(k)`) waits.
        if count == 0 && (exit == NONE || exit <= at.loss_now) {
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
/// which no one writes in this round. Returns the positions decided and the
/// successor words read.
///
/// Positions are taken a run at a time: the slides of the run's mover set are
/// listed once, and where no symmetry fixes a position's opponent set (the
/// successors' mover set), its successors' slots come from one precomputed form
/// by toggling the slide's two points ([`tigadi_index::Near`]).
///
/// With `exits` (a step with gotis in hand) each position's exit takes part
/// ([`forward_step`]), and the mover's hand decides its flying.
fn forward_round(
    rules: &RuleSet,
    space: &PairSpace,
    words: &[AtomicU32],
    at: Level,
    exits: Option<&Exits>,
    marked: &Touched,
    observer: &dyn Observer,
) -> (u64, u64) {
    let exit_of = |own: usize| exits.map_or(NONE, |e| e.values[own]);
    let (decided, _, touched) = space.sweep_runs(observer, |p, runs| {
        let (idx, start) = space.parts[p];
        let (next_idx, next_start) = space.other(p);
        let hand = exits.map_or(0, |e| e.hands[p]);
        let run = idx.run_length();
        let opponent = idx.subspace().opponent as u32;
        let (mut decided, mut read) = (0u64, 0u64);
        let mut moves = RunMoves::default();
        // The successor words of an undecided position are read
        // FORWARD_LAG - 1 undecided positions after their prefetch.
        // Positions of a forward round are independent of each other (each
        // writes only its own word and reads only level k - 1), so the
        // order is free.
        let mut lagged = Lagged::<usize, FORWARD_LAG>::default();
        // The forward rule for a position whose successors' words have arrived.
        let mut step = |own: usize, quiet: &SlotSet| {
            if forward_step(words, at, own, next_start, quiet.distinct(), exit_of(own)) {
                marked.mark(own);
                decided += 1;
            }
        };
        for r in runs {
            let first = (start + r * run) as usize;
            let chunk = &words[first..first + run as usize];
            // Which positions of the run are undecided, from the words alone.
            let mut open = 0usize;
            for w in chunk {
                let w = w.load(Relaxed);
                open += (word_value(w) == NONE && word_count(w) != PADDING) as usize;
            }
            if open == 0 {
                continue;
            }
            let (mover, _) = idx.run_mover(r);
            moves.prepare_holding(rules, mover, opponent, hand);
            let mut visit = |own: usize, board: Board| {
                let quiet = lagged.set();
                moves.quiet_successors(rules, &next_idx, board.opponent, quiet);
                for &q in quiet.distinct() {
                    let q = next_start + q;
                    prefetch(&words[q as usize]);
                }
                read += quiet.distinct().len() as u64;
                if let Some((own, quiet)) = lagged.push(own) {
                    step(own, quiet);
                }
            };
            if open * SPARSE < chunk.len() {
                // Few undecided: decode just those boards, not the whole run.
                for (i, w) in chunk.iter().enumerate() {
                    let w = w.load(Relaxed);
                    if word_value(w) == NONE && word_count(w) != PADDING {
                        let board = idx
                            .board(r * run + i as u64)
                            .expect("a slot with a counter holds a position");
                        visit(first + i, board);
                    }
                }
            } else {
                for (slot, board) in idx.boards(r * run..(r + 1) * run) {
                    let own = (start + slot) as usize;
                    if word_value(words[own].load(Relaxed)) == NONE {
                        visit(own, board);
                    }
                }
            }
        }
        lagged.drain(&mut step);
        (decided, 0, read)
    });
    (decided, touched)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tigadi_rules::Rng;

    /// A packed win or loss of depth `d`.
    fn level(win: bool, d: u16) -> Packed {
        Packed::new(if win { Value::Win(d) } else { Value::Loss(d) })
    }

    /// [`Exits::at_round`] marks exactly the chunks a backward round needs
    /// besides the round before's: for round `k`, those holding a position
    /// decided (by the initial pass) at level `k - 1`, or an undecided one
    /// whose exit has depth `k`. Positions are scattered sparsely over many
    /// chunks, so that leaving either kind out, or marking every chunk,
    /// changes the marks. (The solver's tests run on sets too small to have
    /// chunks a round skips.)
    #[test]
    fn exits_mark_the_chunks_each_round_needs() {
        let chunks = 300;
        let n = chunks * CHUNK;
        let mut rng = Rng::seeded(7);
        let mut raw = vec![word(Packed::NONE, PADDING); n];
        let mut exits = vec![NONE; n];
        let mut needed = std::collections::BTreeSet::new();
        for _ in 0..1200 {
            let slot = rng.below(n);
            let d = 1 + rng.below(40) as u16;
            let win = rng.below(2) == 0;
            match rng.below(4) {
                // Decided by the initial pass at level d: read in round d + 1.
                0 => {
                    raw[slot] = word(level(win, d), 0);
                    needed.insert((d + 1, slot / CHUNK));
                }
                // Undecided with an exit of depth d: decided by it in round d
                // at the latest.
                1 => {
                    raw[slot] = word(Packed::NONE, 2);
                    exits[slot] = level(win, d).0;
                    needed.insert((d, slot / CHUNK));
                }
                // Undecided with a drawn exit, or none: no round of its own.
                2 => {
                    raw[slot] = word(Packed::NONE, 3);
                    exits[slot] = if win { Packed::DRAW.0 } else { NONE };
                }
                // A decided draw: never a level.
                _ => raw[slot] = word(Packed::DRAW, 0),
            }
        }
        // Slots written twice keep their last write: recompute what is needed
        // from the final contents, as the rounds would meet them.
        needed.retain(|&(k, c)| {
            (c * CHUNK..(c + 1) * CHUNK).any(|s| {
                let (v, e) = (word_value(raw[s]), exits[s]);
                let depth = |p: u16| Packed(p).get().and_then(Value::dtc);
                if v != NONE {
                    depth(v) == Some(k - 1)
                } else {
                    word_count(raw[s]) != PADDING && depth(e) == Some(k)
                }
            })
        });
        let words = atomic_u32(&mut raw);
        let e = Exits::new(exits, vec![0], words);
        let mut marked = std::collections::BTreeSet::new();
        for k in 0..=e.deepest + 3 {
            for c in 0..chunks {
                if e.at_round(k).is_some_and(|t| t.has(c)) {
                    marked.insert((k, c));
                }
            }
        }
        assert!(needed.len() > 500, "the test marks many chunks");
        assert!(marked.len() < chunks * 10, "not every chunk in every round");
        assert_eq!(marked, needed);
    }
}
