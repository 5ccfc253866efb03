//! An independent, deliberately naive oracle for the moving phase (STYLE.md, "An
//! independent oracle"): win/draw/loss and DTC of every *raw* position (no symmetry
//! reduction) of a pair of subspaces, by plain forward value iteration.
//!
//! It shares only the board geometry with the real solver: it reads
//! [`Geometry::lines`] and [`Geometry::neighbours`] (and [`transform_point`] for
//! counting symmetry classes) and nothing else of `tigadi_rules`; it has its own
//! move generator, its own line and capture tests, its own position ranking and its
//! own value encoding. Only the result type [`Value`] comes from `tigadi_solve`.
//!
//! # Semantics (docs/RULES.md §4–§7)
//!
//! A position is `(mover, opponent)`, two disjoint sets of points as `u32` bitmasks
//! in the geometry's bit layout (bit `8 * ring + k`), the player owning `mover` to
//! move. A turn slides one of the mover's gotis to an adjacent empty point, or, when
//! `rules.flying` and the mover has exactly 3 gotis, to any empty point. If the
//! arriving goti then lies on a line whose three points all hold the mover's gotis,
//! the turn captures exactly one opponent goti: any that is not on a complete line of
//! the opponent's own gotis, or any at all if every one is; each choice is a
//! separate turn. A capture that leaves the opponent two gotis ends the game (the
//! mover has won). A mover with no legal turn loses at once (terminal, DTC 0) when
//! `rules.blocked_loses`, and otherwise passes (the same sets, the other side to
//! move).
//!
//! Values are for the player to move; play that never ends is a draw. DTC is counted
//! in turns (moves and passes): the winner minimises it, the loser maximises it. A
//! capturing turn counts 1 whatever follows it: it is `Win(1)` when it ends the game
//! or leads to a position lost for the opponent, `Loss(1)` when it leads to a
//! position won for the opponent, a draw when it leads to a draw. A quiet turn or a
//! pass into a position the opponent loses in `d` gives `Win(d + 1)`, into one the
//! opponent wins in `d` gives `Loss(d + 1)`.
//!
//! # Algorithm
//!
//! Every raw position of subspace `(m, o)` (`m` gotis to move, `o` for the other
//! side) has a dense rank: the colex rank of the mover's set among all `m`-subsets of
//! the 24 points, times `C(24 - m, o)`, plus the colex rank of the opponent's set
//! among the `o`-subsets of the `24 - m` points the mover leaves empty. Quiet turns
//! and passes lead from `(m, o)` to `(o, m)`, so the two are solved together (`(m,
//! m)` alone); captures lead into `(o - 1, m)`, solved first by the oracle itself
//! (nothing to solve when `o - 1 == 2`: the game is over).
//!
//! Round `k = 0, 1, 2, ...` looks at every position still undecided and at the value
//! each of its turns has, using only successors decided with a DTC below `k` (values
//! decided in earlier rounds: a Jacobi sweep, whatever order the threads run in) and
//! the finished capture subspaces. The position becomes `Win(k)` if some turn gives a
//! win in `k`, `Loss(k)` if every turn is known and loses, the slowest in `k`. A round
//! (from round 1 on) that decides nothing ends the iteration; every position still
//! undecided is a draw.
//!
//! Two things make it fast enough without making it clever. A round visits the
//! positions grouped by the opponent's set `O`, because all quiet turns and the pass
//! of such a position lead into the same block of the other table (the positions
//! whose mover set is `O`), which then stays in cache. And from round 2 on a whole
//! group is skipped when no position of that block was decided in the round before:
//! from round 2 on only a quiet turn or a pass into a position decided in the round
//! before can decide a position (captures give DTC 1).
//! [`OracleSolution::solve_exhaustively`] leaves this shortcut out; a self-test
//! checks that both agree.
//!
//! Time (2 cores, test profile): tigadi 3v3 about 9 s of CPU, 3v4 with 4v3 (and 3v3)
//! about 45 s; morris 3v3 about 10 s, 3v4 with 4v3 about 45 s.
//!
//! # Use from a test file in `crates/tigadi-solve/tests/`
//!
//! ```ignore
//! mod oracle;
//! use oracle::OracleSolution;
//!
//! let sol = OracleSolution::solve(RuleSet::TIGADI, 3, 4); // also solves 4v3 and 3v3
//! let v = sol.value(mover_bits, opponent_bits); // any raw position of 3v4, 4v3, 3v3
//! sol.par_for_each_position(3, 4, |mover, opponent, value| { /* compare */ });
//! let counts = sol.class_counts(3, 4); // over symmetry classes
//! assert_eq!(sol.evaluate(mover_bits, opponent_bits), v); // one Bellman step
//! let moves = oracle::turns(RuleSet::TIGADI, mover_bits, opponent_bits); // movegen
//! ```
//!
//! [`solved`] solves each rule set's subspaces once per test binary, for the
//! tests that compare the same ones.
#![allow(dead_code)]

pub mod dtw;
pub mod horizon;
#[path = "../../../tigadi-rules/tests/support/memo.rs"]
mod memo;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering};
use std::time::Instant;

use memo::Memo;
use rayon::prelude::*;
use tigadi_rules::geometry::{transform_point, Geometry, Point, SYMMETRIES};
use tigadi_rules::RuleSet;
use tigadi_solve::value::Value;

/// The oracle's solution of `(m, o)` under `rules`, solved once per test binary and
/// kept for its life: for the small subspaces several tests compare (the 4-a-side
/// oracles are solved with [`OracleSolution::solve`] and dropped after use).
/// The cache's lock is held only to find the solution's cell, so tests that need
/// different solutions solve them at the same time (the two largest, tigadi's and
/// morris's 3v4, take about a minute each); a test that needs one being solved
/// waits for it.
pub fn solved(rules: RuleSet, m: u32, o: u32) -> &'static OracleSolution {
    static SOLVED: Memo<(String, u32, u32), OracleSolution> = Memo::new();
    SOLVED.get((rules.name(), m, o), || {
        let t = Instant::now();
        let sol = OracleSolution::solve(rules, m, o);
        eprintln!(
            "oracle solve {rules} {m}v{o}: {:.1} s",
            t.elapsed().as_secs_f64()
        );
        sol
    })
}

/// Number of points on the board.
const POINTS: u32 = 24;
/// All 24 points.
const ALL_POINTS: u32 = (1 << POINTS) - 1;
/// Goti count at which a side is reduced to too few to play: the game is over.
const LOST_COUNT: u32 = 2;
/// Goti count at which a side flies, when the rule set has flying (docs/RULES.md §8).
const FLYING_AT: u32 = 3;

/// `BINOMIAL[n][k]` = C(n, k) for `n, k <= 24`.
const BINOMIAL: [[u64; 25]; 25] = binomials();

const fn binomials() -> [[u64; 25]; 25] {
    let mut t = [[0u64; 25]; 25];
    let mut n = 0;
    while n < 25 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
}

// ---------------------------------------------------------------------------------
// The oracle's own value encoding (deliberately not `tigadi_solve::Packed`).

/// Not decided (yet).
const UNDECIDED: u16 = 0xFFFF;
/// A draw (only written once the iteration has ended).
const DRAW: u16 = 0xFFFE;
/// Flag of a loss; a win with DTC `d` is stored as `d` itself.
const LOSS: u16 = 0x8000;
/// Largest DTC the encoding holds without touching `DRAW` / `UNDECIDED`.
const MAX_DTC: u16 = 0x7000;

fn encode(v: Value) -> u16 {
    match v {
        Value::Win(d) => {
            assert!((1..MAX_DTC).contains(&d));
            d
        }
        Value::Loss(d) => {
            assert!(d < MAX_DTC);
            LOSS | d
        }
        Value::Draw => DRAW,
    }
}

fn decode(x: u16) -> Option<Value> {
    match x {
        UNDECIDED => None,
        DRAW => Some(Value::Draw),
        x if x & LOSS != 0 => Some(Value::Loss(x & !LOSS)),
        x => Some(Value::Win(x)),
    }
}

/// The value of the position before a turn, given the value `next` of the position
/// after it for the other player; `capture` says the turn captured (DTC restarts at 1).
fn through_turn(next: Value, capture: bool) -> Value {
    let dtc = |d: u16| if capture { 1 } else { d + 1 };
    match next {
        Value::Win(d) => Value::Loss(dtc(d)),
        Value::Loss(d) => Value::Win(dtc(d)),
        Value::Draw => Value::Draw,
    }
}

/// Is `a` better than `b` for the player choosing: a quicker win, a draw over a loss,
/// a slower loss?
fn prefer(a: Value, b: Value) -> bool {
    let score = |v: Value| match v {
        Value::Win(d) => 1_000_000 - d as i64,
        Value::Draw => 0,
        Value::Loss(d) => -1_000_000 + d as i64,
    };
    score(a) > score(b)
}

// ---------------------------------------------------------------------------------
// Geometry, recomputed naively from the lines and the adjacency.

/// Room for the lines through one point (at most 3 on either board).
const MAX_LINES_AT: usize = 4;
/// Padding of [`NaiveBoard::lines_at`]: a "line" no set of points contains.
const NO_LINE: u32 = u32::MAX;

/// The lines and adjacency of one board, as the oracle uses them.
#[derive(Clone, Debug)]
struct NaiveBoard {
    /// Every line as a three-point set (straight from [`Geometry::lines`]).
    lines: Vec<u32>,
    /// `lines_at[p]`: the lines through point `p`, found by scanning `lines`, padded
    /// with [`NO_LINE`].
    lines_at: [[u32; MAX_LINES_AT]; POINTS as usize],
    /// `neighbours[p]`: the points adjacent to `p` (straight from the geometry).
    neighbours: [u32; POINTS as usize],
}

impl NaiveBoard {
    fn new(rules: &RuleSet) -> NaiveBoard {
        let g = Geometry::of(rules.board);
        let lines = g.lines.clone();
        let mut lines_at = [[NO_LINE; MAX_LINES_AT]; POINTS as usize];
        for (p, at) in lines_at.iter_mut().enumerate() {
            let through: Vec<u32> = lines
                .iter()
                .copied()
                .filter(|l| l & (1 << p) != 0)
                .collect();
            assert!(through.len() <= MAX_LINES_AT);
            at[..through.len()].copy_from_slice(&through);
        }
        NaiveBoard {
            lines,
            lines_at,
            neighbours: g.neighbours,
        }
    }

    /// Does the goti on `point` stand on a line all of whose points are in `own`?
    fn closes_line(&self, own: u32, point: u32) -> bool {
        let [a, b, c, d] = self.lines_at[point as usize];
        own & a == a || own & b == b || own & c == c || own & d == d
    }

    /// The gotis of `own` that may be captured: those on no complete line of `own`,
    /// or all of them when every one is on such a line.
    fn capturable(&self, own: u32) -> u32 {
        let mut protected = 0;
        for &l in &self.lines {
            if own & l == l {
                protected |= l;
            }
        }
        let free = own & !protected;
        if free == 0 {
            own
        } else {
            free
        }
    }
}

/// The points of a set, lowest first.
fn points(mut bits: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if bits == 0 {
            None
        } else {
            let p = bits.trailing_zeros();
            bits &= bits - 1;
            Some(p)
        }
    })
}

fn point(p: u32) -> Point {
    Point::new(p as usize).expect("a point index below 24")
}

/// One turn of the player to move, and the position it leads to, seen from the
/// *other* player (who moves next): `next_mover` are that player's gotis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// A slide (or flight) that completes no line.
    Quiet {
        from: Point,
        to: Point,
        next_mover: u32,
        next_opponent: u32,
    },
    /// A slide that completes a line and captures `taken`. When `next_mover` has two
    /// gotis the game is over: the player who captured has won.
    Capture {
        from: Point,
        to: Point,
        taken: Point,
        next_mover: u32,
        next_opponent: u32,
    },
    /// The player to move cannot move and passes (only where blocked players pass).
    Pass { next_mover: u32, next_opponent: u32 },
}

/// What kind of turn a [`Step`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StepKind {
    Quiet,
    Capture,
    Pass,
}

/// A [`Turn`] in plain words for the hot loop: point indices instead of [`Point`]s.
#[derive(Clone, Copy, Debug)]
struct Step {
    kind: StepKind,
    /// Point the goti leaves and arrives on (unused for a pass).
    from: u32,
    to: u32,
    /// The captured point (captures only).
    taken: u32,
    /// The position after the turn, from the other player's side.
    next_mover: u32,
    next_opponent: u32,
}

impl Step {
    fn turn(self) -> Turn {
        let (next_mover, next_opponent) = (self.next_mover, self.next_opponent);
        match self.kind {
            StepKind::Quiet => Turn::Quiet {
                from: point(self.from),
                to: point(self.to),
                next_mover,
                next_opponent,
            },
            StepKind::Capture => Turn::Capture {
                from: point(self.from),
                to: point(self.to),
                taken: point(self.taken),
                next_mover,
                next_opponent,
            },
            StepKind::Pass => Turn::Pass {
                next_mover,
                next_opponent,
            },
        }
    }
}

/// Calls `f` for every legal turn of the player owning `mover` (naive generator)
/// until `f` returns `false`. Calls nothing when the player is blocked and blocked
/// players lose. Returns `false` when `f` stopped it.
fn for_each_turn(
    board: &NaiveBoard,
    rules: &RuleSet,
    mover: u32,
    opponent: u32,
    mut f: impl FnMut(Step) -> bool,
) -> bool {
    let empty = ALL_POINTS & !(mover | opponent);
    let flies = rules.flying && mover.count_ones() == FLYING_AT;
    let mut any = false;
    for from in points(mover) {
        let targets = if flies {
            empty
        } else {
            board.neighbours[from as usize] & empty
        };
        for to in points(targets) {
            any = true;
            let moved = (mover & !(1 << from)) | (1 << to);
            if board.closes_line(moved, to) {
                for taken in points(board.capturable(opponent)) {
                    let step = Step {
                        kind: StepKind::Capture,
                        from,
                        to,
                        taken,
                        next_mover: opponent & !(1 << taken),
                        next_opponent: moved,
                    };
                    if !f(step) {
                        return false;
                    }
                }
            } else {
                let step = Step {
                    kind: StepKind::Quiet,
                    from,
                    to,
                    taken: 0,
                    next_mover: opponent,
                    next_opponent: moved,
                };
                if !f(step) {
                    return false;
                }
            }
        }
    }
    if !any && !rules.blocked_loses {
        return f(Step {
            kind: StepKind::Pass,
            from: 0,
            to: 0,
            taken: 0,
            next_mover: opponent,
            next_opponent: mover,
        });
    }
    true
}

/// Every legal turn of the player owning `mover` in `(mover, opponent)` under `rules`,
/// from the oracle's own move generator (empty for a blocked player who loses).
pub fn turns(rules: RuleSet, mover: u32, opponent: u32) -> Vec<Turn> {
    let board = NaiveBoard::new(&rules);
    let mut v = Vec::new();
    for_each_turn(&board, &rules, mover, opponent, |t| {
        v.push(t.turn());
        true
    });
    v
}

// ---------------------------------------------------------------------------------
// Dense raw ranking of one subspace.

/// Colex rank of a `k`-set among the `k`-subsets of `0..24`.
fn colex(mut set: u32) -> u64 {
    let mut rank = 0;
    let mut i = 1;
    while set != 0 {
        rank += BINOMIAL[set.trailing_zeros() as usize][i];
        set &= set - 1;
        i += 1;
    }
    rank
}

/// Colex rank of `set` among the subsets of the points of `within` of its size, the
/// points of `within` renumbered `0, 1, ...` in increasing order.
fn colex_within(set: u32, within: u32) -> u64 {
    points(set)
        .enumerate()
        .map(|(i, p)| BINOMIAL[(within & ((1u32 << p) - 1)).count_ones() as usize][i + 1])
        .sum()
}

/// The `k`-subset of `0..24` with colex rank `rank`.
fn colex_unrank(mut rank: u64, k: u32) -> u32 {
    let mut set = 0;
    for i in (1..=k as usize).rev() {
        let mut p = i - 1;
        while BINOMIAL[p + 1][i] <= rank {
            p += 1;
        }
        rank -= BINOMIAL[p][i];
        set |= 1 << p;
    }
    set
}

/// The raw positions of subspace `(mover, opponent)` goti counts, densely ranked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Layout {
    mover: u32,
    opponent: u32,
}

impl Layout {
    /// Number of opponent sets per mover set: C(24 - mover, opponent).
    fn per_mover(self) -> u64 {
        BINOMIAL[(POINTS - self.mover) as usize][self.opponent as usize]
    }

    /// Number of mover sets: C(24, mover).
    fn mover_sets(self) -> u64 {
        BINOMIAL[POINTS as usize][self.mover as usize]
    }

    /// Number of raw positions.
    fn len(self) -> u64 {
        self.mover_sets() * self.per_mover()
    }

    #[inline]
    fn rank(self, mover: u32, opponent: u32) -> usize {
        debug_assert_eq!(mover.count_ones(), self.mover);
        debug_assert_eq!(opponent.count_ones(), self.opponent);
        debug_assert_eq!(mover & opponent, 0);
        (colex(mover) * self.per_mover() + colex_within(opponent, ALL_POINTS & !mover)) as usize
    }

    /// Calls `f(rank, mover, opponent)` for every position whose mover set has colex
    /// rank `mover_rank`, in increasing rank.
    fn for_each_with_mover(self, mover_rank: u64, mut f: impl FnMut(usize, u32, u32)) {
        assert!(self.opponent >= 1);
        let mover = colex_unrank(mover_rank, self.mover);
        let free: Vec<u32> = points(ALL_POINTS & !mover).collect();
        let n = free.len() as u32;
        let mut index = (mover_rank * self.per_mover()) as usize;
        // Gosper's hack: the o-subsets of 0..n in increasing numeric order, which is
        // colex order.
        let mut c: u32 = (1 << self.opponent) - 1;
        while c < (1 << n) {
            let opponent = points(c).fold(0, |acc, i| acc | (1 << free[i as usize]));
            f(index, mover, opponent);
            index += 1;
            let lowest = c & c.wrapping_neg();
            let ripple = c + lowest;
            c = (((ripple ^ c) >> 2) / lowest) | ripple;
        }
    }

    /// Number of opponent sets: C(24, opponent).
    fn opponent_sets(self) -> u64 {
        BINOMIAL[POINTS as usize][self.opponent as usize]
    }

    /// Calls `f(rank, mover, opponent)` for every position whose opponent set has
    /// colex rank `opponent_rank` (in no particular rank order). The solver sweeps in
    /// this order because every quiet successor of these positions lies in one block
    /// of the other table, the one of mover set `opponent`.
    fn for_each_with_opponent(self, opponent_rank: u64, mut f: impl FnMut(usize, u32, u32)) {
        assert!(self.mover >= 1);
        let opponent = colex_unrank(opponent_rank, self.opponent);
        let free: Vec<u32> = points(ALL_POINTS & !opponent).collect();
        let n = free.len() as u32;
        let mut c: u32 = (1 << self.mover) - 1;
        while c < (1 << n) {
            let mover = points(c).fold(0, |acc, i| acc | (1 << free[i as usize]));
            f(self.rank(mover, opponent), mover, opponent);
            let lowest = c & c.wrapping_neg();
            let ripple = c + lowest;
            c = (((ripple ^ c) >> 2) / lowest) | ripple;
        }
    }
}

/// Checks the oracle's raw ranking of subspace `(m, o)` (panics on a fault): both
/// enumeration orders visit every rank in `0..C(24, m)·C(24 − m, o)` exactly once,
/// with the position that [`Layout::rank`] gives that rank, and colex ranks invert.
pub fn check_ranking(m: u32, o: u32) {
    let layout = Layout {
        mover: m,
        opponent: o,
    };
    for k in 0..=POINTS.min(6) {
        for r in (0..BINOMIAL[POINTS as usize][k as usize]).step_by(97) {
            let set = colex_unrank(r, k);
            assert_eq!((set.count_ones(), colex(set)), (k, r));
        }
    }
    let mut seen = vec![false; layout.len() as usize];
    let mut next = 0;
    for r in 0..layout.mover_sets() {
        layout.for_each_with_mover(r, |i, mover, opponent| {
            assert_eq!(i, next, "mover-major order is rank order");
            next += 1;
            assert_eq!(mover.count_ones(), m);
            assert_eq!(opponent.count_ones(), o);
            assert_eq!(mover & opponent, 0);
            assert_eq!(layout.rank(mover, opponent), i);
        });
    }
    assert_eq!(next as u64, layout.len());
    for r in 0..layout.opponent_sets() {
        layout.for_each_with_opponent(r, |i, mover, opponent| {
            assert_eq!(colex(opponent), r);
            assert_eq!(layout.rank(mover, opponent), i);
            assert!(
                !std::mem::replace(&mut seen[i], true),
                "rank {i} visited twice"
            );
        });
    }
    assert!(seen.iter().all(|&x| x), "a rank not visited");
}

// ---------------------------------------------------------------------------------
// The solution.

/// Counts over the symmetry classes of one subspace (each class counted once, by
/// the value of its positions, which all share it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ClassCounts {
    /// Classes won for the player to move.
    pub wins: u64,
    /// Drawn classes.
    pub draws: u64,
    /// Classes lost for the player to move.
    pub losses: u64,
    /// Largest DTC (turns) of a won class; 0 when there is none.
    pub max_win_dtc: u16,
    /// Largest DTC (turns) of a lost class; 0 when there is none.
    pub max_loss_dtc: u16,
}

impl ClassCounts {
    /// Total number of symmetry classes.
    pub fn classes(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// `(wins, draws, losses, max_win_dtc, max_loss_dtc)`.
    pub fn as_tuple(&self) -> (u64, u64, u64, u16, u16) {
        (
            self.wins,
            self.draws,
            self.losses,
            self.max_win_dtc,
            self.max_loss_dtc,
        )
    }
}

/// The oracle's values for every raw position of the subspaces it has solved: the
/// requested pair `(m, o)` and `(o, m)` and every subspace their captures reach.
pub struct OracleSolution {
    rules: RuleSet,
    board: NaiveBoard,
    /// Per subspace `(mover count, opponent count)`: one encoded value per raw rank.
    tables: BTreeMap<(u32, u32), Vec<u16>>,
    /// Per subspace: the number of value-iteration rounds it took (for reports).
    rounds: BTreeMap<(u32, u32), u16>,
    /// Skip, from round 2 on, the positions none of whose quiet successors was
    /// decided in the round before (they cannot be decided now).
    skip_unchanged: bool,
}

impl OracleSolution {
    /// Solves subspaces `(m, o)` and `(o, m)` (goti counts of the player to move and
    /// of the other player) under `rules`, and first, recursively, every subspace
    /// their captures lead to. Needs `m, o >= 3`.
    pub fn solve(rules: RuleSet, m: u32, o: u32) -> OracleSolution {
        OracleSolution::solve_with(rules, m, o, true)
    }

    /// [`Self::solve`] without its one shortcut: every round re-examines every
    /// undecided position, even those none of whose successors changed in the round
    /// before. Slower; the same values (a self-test checks this).
    pub fn solve_exhaustively(rules: RuleSet, m: u32, o: u32) -> OracleSolution {
        OracleSolution::solve_with(rules, m, o, false)
    }

    fn solve_with(rules: RuleSet, m: u32, o: u32, skip_unchanged: bool) -> OracleSolution {
        let mut sol = OracleSolution {
            rules,
            board: NaiveBoard::new(&rules),
            tables: BTreeMap::new(),
            rounds: BTreeMap::new(),
            skip_unchanged,
        };
        sol.ensure(m, o);
        sol
    }

    /// The rule set solved.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// Has subspace `(m, o)` been solved?
    pub fn has(&self, m: u32, o: u32) -> bool {
        self.tables.contains_key(&(m, o))
    }

    /// The subspaces solved, `(mover count, opponent count)`, sorted.
    pub fn subspaces(&self) -> Vec<(u32, u32)> {
        let mut v: Vec<_> = self.tables.keys().copied().collect();
        v.sort();
        v
    }

    /// Number of value-iteration rounds subspace `(m, o)` (solved with `(o, m)`) took.
    pub fn rounds(&self, m: u32, o: u32) -> u16 {
        self.rounds[&(m, o)]
    }

    /// Number of raw positions of subspace `(m, o)`: C(24, m) · C(24 − m, o).
    pub fn raw_positions(m: u32, o: u32) -> u64 {
        Layout {
            mover: m,
            opponent: o,
        }
        .len()
    }

    /// The value for the player to move of the raw position with the player to move
    /// owning `mover` and the other player `opponent` (bitmasks, bit `8*ring+k`).
    /// Panics unless its subspace was solved.
    pub fn value(&self, mover: u32, opponent: u32) -> Value {
        assert_eq!(
            mover & opponent,
            0,
            "overlapping sets {mover:#x} {opponent:#x}"
        );
        assert_eq!((mover | opponent) & !ALL_POINTS, 0, "points beyond 24");
        let key = (mover.count_ones(), opponent.count_ones());
        let table = self
            .tables
            .get(&key)
            .unwrap_or_else(|| panic!("subspace {key:?} not solved"));
        let layout = Layout {
            mover: key.0,
            opponent: key.1,
        };
        decode(table[layout.rank(mover, opponent)]).expect("solved")
    }

    /// Calls `f(mover, opponent, value)` for every raw position of subspace `(m, o)`
    /// (in the oracle's rank order). Panics unless it was solved.
    pub fn for_each_position(&self, m: u32, o: u32, mut f: impl FnMut(u32, u32, Value)) {
        let table = &self.tables[&(m, o)];
        let layout = Layout {
            mover: m,
            opponent: o,
        };
        for r in 0..layout.mover_sets() {
            layout.for_each_with_mover(r, |i, mover, opponent| {
                f(mover, opponent, decode(table[i]).unwrap())
            });
        }
    }

    /// Like [`Self::for_each_position`], but in parallel over the mover sets (`f` may
    /// run on several threads at once).
    pub fn par_for_each_position(&self, m: u32, o: u32, f: impl Fn(u32, u32, Value) + Sync) {
        let table = &self.tables[&(m, o)];
        let layout = Layout {
            mover: m,
            opponent: o,
        };
        (0..layout.mover_sets()).into_par_iter().for_each(|r| {
            layout.for_each_with_mover(r, |i, mover, opponent| {
                f(mover, opponent, decode(table[i]).unwrap())
            })
        });
    }

    /// The value of `(mover, opponent)` recomputed from the stored values of its
    /// successors (one Bellman step: the best turn, `Loss(0)` for a blocked player who
    /// loses). Equal to [`Self::value`] for every position of a correct solution.
    pub fn evaluate(&self, mover: u32, opponent: u32) -> Value {
        let mut best: Option<Value> = None;
        for_each_turn(&self.board, &self.rules, mover, opponent, |t| {
            let v = match t.kind {
                StepKind::Capture if t.next_mover.count_ones() == LOST_COUNT => Value::Win(1),
                StepKind::Capture => through_turn(self.value(t.next_mover, t.next_opponent), true),
                StepKind::Quiet | StepKind::Pass => {
                    through_turn(self.value(t.next_mover, t.next_opponent), false)
                }
            };
            if best.is_none_or(|b| prefer(v, b)) {
                best = Some(v);
            }
            true
        });
        best.unwrap_or(Value::Loss(0))
    }

    /// Counts subspace `(m, o)` over symmetry classes: a raw position is counted when
    /// it is its own class representative, the least of its 16 images (each computed
    /// point by point with [`transform_point`]) ordered by `(mover, opponent)`.
    pub fn class_counts(&self, m: u32, o: u32) -> ClassCounts {
        let perm: Vec<[u32; POINTS as usize]> = (0..SYMMETRIES)
            .map(|s| std::array::from_fn(|p| transform_point(s, point(p as u32)).index() as u32))
            .collect();
        let image =
            |s: usize, set: u32| points(set).fold(0u32, |acc, p| acc | (1 << perm[s][p as usize]));
        let [wins, draws, losses, max_win, max_loss] = [(); 5].map(|_| AtomicU64::new(0));
        self.par_for_each_position(m, o, |mover, opponent, v| {
            let key = ((mover as u64) << 32) | opponent as u64;
            let smallest = (0..SYMMETRIES).all(|s| {
                let img = ((image(s, mover) as u64) << 32) | image(s, opponent) as u64;
                img >= key
            });
            if !smallest {
                return;
            }
            match v {
                Value::Win(d) => {
                    wins.fetch_add(1, Ordering::Relaxed);
                    max_win.fetch_max(d as u64, Ordering::Relaxed);
                }
                Value::Draw => {
                    draws.fetch_add(1, Ordering::Relaxed);
                }
                Value::Loss(d) => {
                    losses.fetch_add(1, Ordering::Relaxed);
                    max_loss.fetch_max(d as u64, Ordering::Relaxed);
                }
            }
        });
        ClassCounts {
            wins: wins.into_inner(),
            draws: draws.into_inner(),
            losses: losses.into_inner(),
            max_win_dtc: max_win.into_inner() as u16,
            max_loss_dtc: max_loss.into_inner() as u16,
        }
    }

    /// Number of raw positions whose values differ between `self` and `other`, over
    /// every subspace both solved.
    pub fn differences(&self, other: &OracleSolution) -> u64 {
        let mut n = 0;
        for (key, table) in &self.tables {
            if let Some(theirs) = other.tables.get(key) {
                n += table.iter().zip(theirs).filter(|(a, b)| a != b).count() as u64;
            }
        }
        n
    }

    /// Counts subspace `(m, o)` over raw positions (no symmetry reduction).
    pub fn raw_counts(&self, m: u32, o: u32) -> ClassCounts {
        let mut c = ClassCounts::default();
        for &x in &self.tables[&(m, o)] {
            match decode(x).unwrap() {
                Value::Win(d) => {
                    c.wins += 1;
                    c.max_win_dtc = c.max_win_dtc.max(d);
                }
                Value::Draw => c.draws += 1,
                Value::Loss(d) => {
                    c.losses += 1;
                    c.max_loss_dtc = c.max_loss_dtc.max(d);
                }
            }
        }
        c
    }

    /// Solves `(m, o)` with `(o, m)` unless done, after what their captures reach.
    fn ensure(&mut self, m: u32, o: u32) {
        if self.has(m, o) {
            return;
        }
        assert!(
            m >= FLYING_AT && o >= FLYING_AT && m + o <= POINTS,
            "no such subspace {m}v{o}"
        );
        // Captures from (m, o) lead to (o - 1, m), from (o, m) to (m - 1, o).
        if o - 1 > LOST_COUNT {
            self.ensure(o - 1, m);
        }
        if m - 1 > LOST_COUNT {
            self.ensure(m - 1, o);
        }
        self.solve_pair(m, o);
    }

    /// Forward value iteration over `(m, o)` and `(o, m)` together.
    fn solve_pair(&mut self, m: u32, o: u32) {
        let subspaces: Vec<(u32, u32)> = if m == o {
            vec![(m, o)]
        } else {
            vec![(m, o), (o, m)]
        };
        let work: Vec<Vec<AtomicU16>> = subspaces
            .iter()
            .map(|&(a, b)| {
                let len = Layout {
                    mover: a,
                    opponent: b,
                }
                .len();
                (0..len).map(|_| AtomicU16::new(UNDECIDED)).collect()
            })
            .collect();
        // Per subspace and mover set (a block of `per_mover()` consecutive ranks): one
        // more than the last round that decided a position of the block (0: none yet).
        let changed: Vec<Vec<AtomicU16>> = subspaces
            .iter()
            .map(|&(a, b)| {
                let blocks = Layout {
                    mover: a,
                    opponent: b,
                }
                .mover_sets();
                (0..blocks).map(|_| AtomicU16::new(0)).collect()
            })
            .collect();
        let verbose = std::env::var_os("ORACLE_VERBOSE").is_some();
        let mut round: u16 = 0;
        loop {
            let started = std::time::Instant::now();
            let mut decided = 0u64;
            for (s, &(a, b)) in subspaces.iter().enumerate() {
                let sweep = Sweep {
                    rules: &self.rules,
                    board: &self.board,
                    round,
                    layout: Layout {
                        mover: a,
                        opponent: b,
                    },
                    this: &work[s],
                    this_changed: &changed[s],
                    // Quiet turns and passes lead into (b, a): the other table (or this one).
                    quiet: &work[if subspaces.len() == 1 { 0 } else { 1 - s }],
                    quiet_changed: &changed[if subspaces.len() == 1 { 0 } else { 1 - s }],
                    skip_unchanged: self.skip_unchanged,
                    quiet_layout: Layout {
                        mover: b,
                        opponent: a,
                    },
                    captures: self.tables.get(&(b - 1, a)).map(Vec::as_slice),
                    capture_layout: Layout {
                        mover: b - 1,
                        opponent: a,
                    },
                };
                assert!(b - 1 == LOST_COUNT || sweep.captures.is_some());
                decided += (0..sweep.layout.opponent_sets())
                    .into_par_iter()
                    .map(|r| sweep.run(r))
                    .sum::<u64>();
            }
            if verbose {
                eprintln!(
                    "oracle {} {m}v{o} round {round}: {decided} decided in {:.2} s",
                    self.rules,
                    started.elapsed().as_secs_f64()
                );
            }
            if round >= 1 && decided == 0 {
                break;
            }
            round += 1;
            assert!(round < MAX_DTC, "value iteration does not end");
        }
        for (s, &key) in subspaces.iter().enumerate() {
            let table: Vec<u16> = work[s]
                .iter()
                .map(|x| match x.load(Ordering::Relaxed) {
                    UNDECIDED => DRAW,
                    v => v,
                })
                .collect();
            self.tables.insert(key, table);
            self.rounds.insert(key, round);
        }
    }
}

/// One round of value iteration over one subspace.
struct Sweep<'a> {
    rules: &'a RuleSet,
    board: &'a NaiveBoard,
    /// The round: decides the positions whose DTC is `round`.
    round: u16,
    layout: Layout,
    /// This subspace's values (being decided).
    this: &'a [AtomicU16],
    /// Per mover set of this subspace: one more than the last round that decided a
    /// position with that mover set.
    this_changed: &'a [AtomicU16],
    /// The values of the subspace quiet turns and passes lead to (being decided).
    quiet: &'a [AtomicU16],
    /// Per mover set of that subspace, as `this_changed`.
    quiet_changed: &'a [AtomicU16],
    /// Skip the positions that cannot be decided this round (see below).
    skip_unchanged: bool,
    quiet_layout: Layout,
    /// The finished values of the subspace captures lead to (`None`: game over).
    captures: Option<&'a [u16]>,
    capture_layout: Layout,
}

impl Sweep<'_> {
    /// Decides what can be decided this round among the positions whose opponent set
    /// has colex rank `opponent_rank`; returns how many it decided.
    fn run(&self, opponent_rank: u64) -> u64 {
        // From round 2 on a position is decided only through a quiet turn or a pass
        // into a position decided in the round before (captures give DTC 1, decided
        // by round 1). All quiet turns and the pass of a position whose opponent has
        // set `O` lead into the block of mover set `O` of the quiet subspace. If no
        // position of that block was decided last round, none here can be now.
        // (Markers only grow, so a concurrent write of this round can only stop a skip.)
        if self.skip_unchanged
            && self.round >= 2
            && self.quiet_changed[opponent_rank as usize].load(Ordering::Relaxed) < self.round
        {
            return 0;
        }
        let mut decided = 0;
        self.layout
            .for_each_with_opponent(opponent_rank, |i, mover, opponent| {
                if self.this[i].load(Ordering::Relaxed) != UNDECIDED {
                    return;
                }
                if let Some(v) = self.judge(mover, opponent) {
                    // Everything decided in round k has DTC k (by induction on k).
                    assert_eq!(
                        v.dtc(),
                        Some(self.round),
                        "{v:?} decided in round {}",
                        self.round
                    );
                    self.this[i].store(encode(v), Ordering::Relaxed);
                    self.this_changed[colex(mover) as usize]
                        .fetch_max(self.round + 1, Ordering::Relaxed);
                    decided += 1;
                }
            });
        decided
    }

    /// The value of an undecided position if this round decides it.
    fn judge(&self, mover: u32, opponent: u32) -> Option<Value> {
        let round = self.round;
        if round == 0 {
            // Only a terminal loss has DTC 0: a blocked player who loses.
            let blocked = for_each_turn(self.board, self.rules, mover, opponent, |_| false);
            return blocked.then_some(Value::Loss(0));
        }
        // Every quiet turn and the pass lead to (opponent, _) in the quiet subspace:
        // the rank there is `base` plus the colex rank of the second set among the
        // points the opponent leaves empty, numbered by `index_within`.
        let base = colex(opponent) * self.quiet_layout.per_mover();
        let mut index_within = [0u8; POINTS as usize];
        let mut below = 0u8;
        for (p, slot) in index_within.iter_mut().enumerate() {
            *slot = p as u8 - below;
            below += (opponent >> p & 1) as u8;
        }
        let quiet_rank = |mut set: u32| -> usize {
            let mut rank = base;
            let mut i = 1;
            while set != 0 {
                rank += BINOMIAL[index_within[set.trailing_zeros() as usize] as usize][i];
                set &= set - 1;
                i += 1;
            }
            rank as usize
        };
        let mut best_win: Option<u16> = None;
        let mut all_lose = true;
        let mut slowest_loss = 0u16;
        for_each_turn(self.board, self.rules, mover, opponent, |t| {
            let v = match t.kind {
                StepKind::Capture if t.next_mover.count_ones() == LOST_COUNT => Some(Value::Win(1)),
                StepKind::Capture => {
                    let table = self.captures.expect("capture subspace solved");
                    let x = table[self.capture_layout.rank(t.next_mover, t.next_opponent)];
                    Some(through_turn(decode(x).expect("solved"), true))
                }
                StepKind::Quiet | StepKind::Pass => {
                    let x = self.quiet[quiet_rank(t.next_opponent)].load(Ordering::Relaxed);
                    // Only values decided in earlier rounds (DTC below this round); no
                    // draw is stored before the iteration ends.
                    if x != UNDECIDED && x & !LOSS < round {
                        decode(x).map(|v| through_turn(v, false))
                    } else {
                        None
                    }
                }
            };
            match v {
                Some(Value::Win(d)) => {
                    best_win = Some(best_win.map_or(d, |w| w.min(d)));
                    // A win this round cannot be bettered (none is quicker): stop.
                    d > round
                }
                Some(Value::Loss(d)) => {
                    slowest_loss = slowest_loss.max(d);
                    true
                }
                Some(Value::Draw) | None => {
                    all_lose = false;
                    true
                }
            }
        });
        match best_win {
            Some(d) if d <= round => Some(Value::Win(d)),
            _ if all_lose && slowest_loss <= round => Some(Value::Loss(slowest_loss)),
            _ => None,
        }
    }
}
