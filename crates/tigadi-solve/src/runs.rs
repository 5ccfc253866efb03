//! The moves of a run (the slots of one subspace that share a canonical mover
//! set `M`), listed once for all its boards: the solver's initial pass and
//! forward rounds, and `verify`'s recomputation of stored values, all take
//! positions a run at a time through [`RunMoves`].
//!
//! A board `(M, O)` of the run has the quiet successors `(O, M')`, `M'` the
//! mover's set after a non-capturing slide of `M` to a point `O` leaves free:
//! they share the mover set `O`, so their slots come from one precomputed form
//! by toggling the slide's two points ([`tigadi_index::Near`]) unless a symmetry
//! fixes `O`. Its captures lead to `(O - x, M_s)`, `M_s` the mover's set after a
//! capturing slide `s`: their values are read once per run into a memo.

use crate::memory::prefetch;
use crate::value::Packed;
use tigadi_index::{binomial, FreeSets, Images, SubspaceIndex};
use tigadi_rules::geometry::{Bits, POINTS};
use tigadi_rules::{Board, RuleSet};

/// The runs of subspace `idx` in tasks of whole runs of at least `chunk` slots
/// (the unit of the parallel sweeps that share work between the boards of a
/// run): each task is a range of run numbers, run `r` holding the slots
/// `r * run_length()..(r + 1) * run_length()`.
pub fn run_tasks(idx: &SubspaceIndex, chunk: u64) -> Vec<std::ops::Range<u64>> {
    let per_task = chunk.div_ceil(idx.run_length().max(1));
    let runs = idx.mover_classes();
    (0..runs.div_ceil(per_task))
        .map(|t| t * per_task..((t + 1) * per_task).min(runs))
        .collect()
}

/// A capturing slide of a run's canonical mover set `M`.
struct Closing {
    /// The point reached, as a bit (the slide needs it empty).
    to: Bits,
    /// Its number among the points `M` leaves free.
    at: u32,
    /// The mover's set after the slide: the opponent set of its capture targets.
    after: Bits,
    /// Where the values of its capture targets start in the run's memo.
    memo: usize,
}

/// What every board of one run shares: the slides of the canonical mover set
/// `M` (each legal on the boards whose opponent leaves its point free), and the
/// stored value of every capture target the run's captures reach. A capture
/// from `(M, O)` by slide `s`, taking the goti on `x`, leads to `(O - x, M_s)`,
/// `M_s` the mover's set after `s`: for one `s` the targets differ only in
/// `O - x`, a set of `o - 1` of the points `M + to_s` leaves free, and each is
/// reached from up to `24 - m - o` boards of the run. So their values are read
/// once per run, in the order of those sets' numbers ([`FreeSets`]), into the
/// memo, and each capture is one colex rank and one read of it.
#[derive(Default)]
pub struct RunMoves {
    /// The run's canonical mover set.
    mover: Bits,
    /// Non-capturing slides: the points left and reached.
    quiet: Vec<(u8, u8)>,
    /// The points some slide reaches: a board whose opponent holds them all is
    /// blocked.
    reach: Bits,
    /// Capturing slides.
    closing: Vec<Closing>,
    /// The stored value of every capture target, in each of the run's
    /// `tables` target tables: target `t`'s values at `t * tables..`.
    memo: Vec<Packed>,
    /// How many target tables the memo holds values of (one for the solver,
    /// one per kind of table for `verify`'s fused check).
    tables: usize,
    /// The number of each point among the points `M` leaves free.
    free_number: [u32; POINTS],
    /// Gotis the mover holds in hand (Lasker's rule: flying counts them, and a
    /// player with one in hand places rather than passes).
    hand: u8,
}

/// Capture targets whose values are being read, prefetched this many ahead.
const MEMO_LAG: usize = 16;

impl RunMoves {
    /// Prepares the run whose canonical mover set is `mover`, on boards with
    /// `opponent` gotis; `target` is the capture targets' subspace and values
    /// (a value at every slot holding a position), `None` when captures end the
    /// game or are not looked at ([`captures`](Self::captures) needs it).
    /// Returns how many capture targets' values it read.
    pub fn prepare(
        &mut self,
        rules: &RuleSet,
        mover: Bits,
        opponent: u32,
        target: Option<(SubspaceIndex, &[Packed])>,
    ) -> u64 {
        match target {
            Some((idx, values)) => {
                self.prepare_many(rules, mover, opponent, Some((idx, &[values])))
            }
            None => self.prepare_many(rules, mover, opponent, None),
        }
    }

    /// [`prepare`](Self::prepare) with several tables over the same capture
    /// targets (`target`'s index, one slice of values per table, at least
    /// one): each target is indexed once and its value read from every table
    /// ([`captures_many`](Self::captures_many)). Returns how many capture
    /// targets it indexed.
    pub fn prepare_many(
        &mut self,
        rules: &RuleSet,
        mover: Bits,
        opponent: u32,
        target: Option<(SubspaceIndex, &[&[Packed]])>,
    ) -> u64 {
        self.prepare_many_holding(rules, mover, opponent, target, 0)
    }

    /// [`prepare`](Self::prepare) without capture targets for a mover that
    /// also holds `hand` gotis (Lasker's rule, docs/RULES.md §8.2): it flies
    /// when its gotis on the board and in hand are three, and with a goti in
    /// hand it is never blocked (it may place), so it never passes.
    pub fn prepare_holding(&mut self, rules: &RuleSet, mover: Bits, opponent: u32, hand: u8) {
        self.prepare_many_holding(rules, mover, opponent, None, hand);
    }

    /// [`prepare_many`](Self::prepare_many) for a mover that also holds
    /// `hand` gotis (Lasker's rule, docs/RULES.md §8.2), as in
    /// [`prepare_holding`](Self::prepare_holding). With no opponent goti on the
    /// board (`opponent` 0, possible only while placing) a slide that closes a
    /// line has nothing to take and is no move (docs/RULES.md §8, as the rules'
    /// move generation has it).
    pub fn prepare_many_holding(
        &mut self,
        rules: &RuleSet,
        mover: Bits,
        opponent: u32,
        target: Option<(SubspaceIndex, &[&[Packed]])>,
        hand: u8,
    ) -> u64 {
        self.mover = mover;
        self.hand = hand;
        self.quiet.clear();
        self.closing.clear();
        self.reach = 0;
        for (p, n) in self.free_number.iter_mut().enumerate() {
            *n = (!mover & ((1 << p) - 1)).count_ones();
        }
        let targets_per_slide = match opponent {
            0 => 0,
            o => binomial(POINTS as u32 - mover.count_ones() - 1, o - 1),
        };
        let mut memo_len = 0;
        Board { mover, opponent: 0 }.for_each_step_holding(rules, hand, |from, to, closes| {
            if closes && opponent == 0 {
                return;
            }
            let after = mover ^ (1 << from) ^ (1 << to);
            self.reach |= 1 << to;
            if closes {
                self.closing.push(Closing {
                    to: 1 << to,
                    at: self.free_number[to],
                    after,
                    memo: memo_len,
                });
                memo_len += targets_per_slide as usize;
            } else {
                self.quiet.push((from as u8, to as u8));
            }
        });
        let Some((tidx, tables)) = target else {
            self.tables = 1;
            return 0;
        };
        assert!(!tables.is_empty(), "no target table");
        let k = tables.len();
        self.tables = k;
        // Every target of every capturing slide, its values read MEMO_LAG targets
        // after their words were prefetched.
        self.memo.resize(memo_len * k, Packed::NONE);
        let memo = &mut self.memo;
        let mut ring = [(0usize, 0usize); MEMO_LAG];
        let mut n = 0usize;
        let read = |memo: &mut [Packed], (at, slot): (usize, usize)| {
            for (j, t) in tables.iter().enumerate() {
                memo[at * k + j] = t[slot];
            }
        };
        for c in &self.closing {
            let after = Images::of(c.after);
            FreeSets::new(mover | c.to).for_each(opponent - 1, |rest| {
                let class = tidx.mover_class_of(&Images::of(rest));
                let at = tidx.index_with_images(class, &after) as usize;
                for t in tables {
                    prefetch(&t[at]);
                }
                let r = &mut ring[n % MEMO_LAG];
                if n >= MEMO_LAG {
                    read(memo, *r);
                }
                *r = (n, at);
                n += 1;
            });
        }
        for i in n.saturating_sub(MEMO_LAG)..n {
            read(memo, ring[i % MEMO_LAG]);
        }
        n as u64
    }

    /// The capture targets' values that the last [`prepare`](Self::prepare)
    /// given a target table read, in no particular order.
    pub(crate) fn memo(&self) -> &[Packed] {
        &self.memo
    }

    /// The run's canonical mover set.
    pub fn mover(&self) -> Bits {
        self.mover
    }

    /// The number of quiet successor classes of the board `(M, opponent)` (and
    /// one for the pass of a blocked player who passes; none for a player who
    /// has only captures or is blocked and loses): the successors all have the
    /// mover set `opponent`, so distinct slides leave distinct classes unless a
    /// symmetry fixes that set. `next_idx` indexes them.
    #[inline]
    pub(crate) fn quiet_classes(
        &self,
        rules: &RuleSet,
        next_idx: &SubspaceIndex,
        opponent: Bits,
        keys: &mut SlotSet,
    ) -> usize {
        let (_, syms) = Images::of(opponent).least();
        let count = if syms & (syms - 1) == 0 {
            self.quiet
                .iter()
                .filter(|&&(_, to)| opponent & 1 << to == 0)
                .count()
        } else {
            let class = next_idx.mover_class(opponent);
            keys.clear();
            for &(from, to) in &self.quiet {
                if opponent & 1 << to == 0 {
                    keys.push(class.opponent_key(self.mover ^ 1 << from ^ 1 << to) as u64);
                }
            }
            keys.distinct().len()
        };
        count + self.passes(rules, opponent) as usize
    }

    /// Is the player to move on `(M, opponent)` blocked, with nothing in hand,
    /// and do blocked players pass?
    #[inline]
    fn passes(&self, rules: &RuleSet, opponent: Bits) -> bool {
        self.reach & !opponent == 0 && !rules.blocked_loses && self.hand == 0
    }

    /// Puts in `set` the slots (in `next_idx`, the flipped subspace) of the quiet
    /// successors of the board `(M, opponent)` and of its pass when it is blocked
    /// and blocked players pass: each class once.
    #[inline]
    pub fn quiet_successors(
        &self,
        rules: &RuleSet,
        next_idx: &SubspaceIndex,
        opponent: Bits,
        set: &mut SlotSet,
    ) {
        set.clear();
        let class = next_idx.mover_class(opponent);
        if let Some(near) = class.near(self.mover) {
            // Distinct slides, distinct classes.
            for &(from, to) in &self.quiet {
                if opponent & 1 << to == 0 {
                    set.push_new(near.toggled(from as usize, to as usize));
                }
            }
            if self.passes(rules, opponent) {
                set.push_new(near.slot());
            }
        } else {
            for &(from, to) in &self.quiet {
                if opponent & 1 << to == 0 {
                    set.push(next_idx.index_with(class, self.mover ^ 1 << from ^ 1 << to));
                }
            }
            if self.passes(rules, opponent) {
                set.push(next_idx.index_with(class, self.mover));
            }
        }
    }

    /// Calls `f` with every capture of the board `(M, opponent)`: `None` when it
    /// ends the game (`ends_game`: the opponent has three gotis), otherwise the
    /// capture target's value from the memo (the run must have been prepared with
    /// its targets). Stops when `f` returns `false`. Returns whether the board has
    /// a capturing slide.
    #[inline]
    pub fn captures(
        &self,
        rules: &RuleSet,
        opponent: Bits,
        ends_game: bool,
        mut f: impl FnMut(Option<Packed>) -> bool,
    ) -> bool {
        debug_assert_eq!(self.tables, 1, "prepared with several tables");
        self.capture_targets(rules, opponent, ends_game, |at| {
            f(at.map(|at| self.memo[at]))
        })
    }

    /// [`captures`](Self::captures) for a run prepared with several tables
    /// ([`prepare_many`](Self::prepare_many)): `f` gets the capture target's
    /// value in each table, in their order.
    #[inline]
    pub fn captures_many(
        &self,
        rules: &RuleSet,
        opponent: Bits,
        ends_game: bool,
        mut f: impl FnMut(Option<&[Packed]>) -> bool,
    ) -> bool {
        let k = self.tables;
        self.capture_targets(rules, opponent, ends_game, |at| {
            f(at.map(|at| &self.memo[at * k..(at + 1) * k]))
        })
    }

    /// Calls `f` with every capture of the board `(M, opponent)`: `None` when it
    /// ends the game, otherwise the capture target's number in the memo.
    #[inline]
    fn capture_targets(
        &self,
        rules: &RuleSet,
        opponent: Bits,
        ends_game: bool,
        mut f: impl FnMut(Option<usize>) -> bool,
    ) -> bool {
        let mut any = false;
        let mut capturable = None;
        let mut packed = None;
        for c in &self.closing {
            if opponent & c.to != 0 {
                continue;
            }
            any = true;
            if ends_game {
                if !f(None) {
                    return true;
                }
                continue;
            }
            let capturable =
                *capturable.get_or_insert_with(|| rules.geometry().capturable(opponent));
            // The opponent's set numbered among the points `M` leaves free, then
            // among those `M + to` leaves free (`to` is not in it).
            let packed = *packed.get_or_insert_with(|| {
                let mut p = 0;
                let mut rest = opponent;
                while rest != 0 {
                    p |= 1 << self.free_number[rest.trailing_zeros() as usize];
                    rest &= rest - 1;
                }
                p
            });
            let low = (1u32 << c.at) - 1;
            let base = (packed & low) | ((packed >> 1) & !low);
            let mut taken = capturable;
            while taken != 0 {
                let x = self.free_number[taken.trailing_zeros() as usize];
                taken &= taken - 1;
                let x = x - (x > c.at) as u32;
                if !f(Some(c.memo + FreeSets::number(base ^ 1 << x) as usize)) {
                    return true;
                }
            }
        }
        any
    }
}

/// Most quiet predecessors or successors one position can have: flying with three
/// gotis onto 21 empty points gives 63 slides, plus a pass.
const MAX_NEIGHBOURS: usize = 64;

/// The distinct slots among those pushed, in first-pushed order (a small fixed
/// buffer). A 64-bit filter of hashed slots makes the common case, a slot not seen
/// before, cost no search.
pub struct SlotSet {
    buf: [u64; MAX_NEIGHBOURS],
    len: usize,
    filter: u64,
}

impl Default for SlotSet {
    fn default() -> SlotSet {
        SlotSet::new()
    }
}

impl SlotSet {
    /// An empty set.
    pub fn new() -> SlotSet {
        SlotSet {
            buf: [0; MAX_NEIGHBOURS],
            len: 0,
            filter: 0,
        }
    }

    /// Empties the set.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
        self.filter = 0;
    }

    /// Adds `s` unless it is already present.
    #[inline]
    pub fn push(&mut self, s: u64) {
        // Fibonacci hashing: the top 6 bits of the product pick a filter bit.
        let bit = 1u64 << (s.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58);
        if self.filter & bit != 0 && self.buf[..self.len].contains(&s) {
            return;
        }
        self.filter |= bit;
        self.buf[self.len] = s;
        self.len += 1;
    }

    /// Adds `s`, known not to be present.
    #[inline]
    pub(crate) fn push_new(&mut self, s: u64) {
        self.buf[self.len] = s;
        self.len += 1;
    }

    /// The distinct slots pushed.
    #[inline]
    pub fn distinct(&self) -> &[u64] {
        &self.buf[..self.len]
    }
}

/// A prefetch pipeline of `N` items, each with the slots whose words it will
/// read: the caller fills [`set`](Self::set) (and prefetches its slots), then
/// [`push`](Self::push)es the item and gets back the one pushed `N - 1` pushes
/// before, whose slots' words have had that long to arrive. Items come back in
/// the order they were pushed, [`drain`](Self::drain) included.
pub struct Lagged<T, const N: usize> {
    sets: [SlotSet; N],
    items: [Option<T>; N],
    cur: usize,
}

impl<T, const N: usize> Default for Lagged<T, N> {
    fn default() -> Self {
        Lagged {
            sets: std::array::from_fn(|_| SlotSet::new()),
            items: std::array::from_fn(|_| None),
            cur: 0,
        }
    }
}

impl<T, const N: usize> Lagged<T, N> {
    /// The set of the item to be pushed next (as the last item left it).
    #[inline]
    pub fn set(&mut self) -> &mut SlotSet {
        &mut self.sets[self.cur]
    }

    /// Queues `item` with [`set`](Self::set)'s slots and returns the oldest
    /// item queued, with its slots, once `N - 1` are in flight.
    #[inline]
    pub fn push(&mut self, item: T) -> Option<(T, &SlotSet)> {
        self.items[self.cur] = Some(item);
        self.cur = (self.cur + 1) % N;
        let oldest = self.items[self.cur].take()?;
        Some((oldest, &self.sets[self.cur]))
    }

    /// Hands `f` every item still queued, oldest first.
    pub fn drain(&mut self, mut f: impl FnMut(T, &SlotSet)) {
        for i in 0..N {
            let k = (self.cur + i) % N;
            if let Some(item) = self.items[k].take() {
                f(item, &self.sets[k]);
            }
        }
    }
}
