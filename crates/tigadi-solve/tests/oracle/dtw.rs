//! An independent, deliberately naive oracle for the depth to win (DTW, docs/RULES.md
//! §7) of a **whole game**: every position of both phases, from the empty board to
//! every moving-phase position, as one game graph solved by plain value iteration.
//!
//! It shares with the toolkit only the board geometry (through the parent oracle's
//! own move generator, [`super::for_each_turn`], its line and capture tests, and
//! [`transform_point`] for the symmetries). It has its own placement generator
//! (written here from docs/RULES.md §3, §5 and §6), its own symmetry classes (the
//! least of a board's 16 images, from tables built point by point), its own numbering,
//! and no pairs, layers, capture targets or counter tricks: captures and the step
//! from the last placement into the moving phase are edges like any other.
//!
//! # Semantics
//!
//! A node is a symmetry class of positions: a placing position (placements made,
//! the mover's and the opponent's points; the hands follow) or a moving-phase
//! position (no counter: values are game-theoretic). Every turn is an edge of length
//! one to the position it leads to, with the other player to move. Two more nodes
//! end the game: **over**, where the player to move has lost (a capture left them
//! two gotis in all), and **full**, the full board after the last placement (a draw,
//! docs/RULES.md §8). A moving-phase position whose player is blocked where that
//! loses has no edge: lost at once.
//!
//! DTW is then the plain minimax distance to *over*: a node with no edge (and *over*
//! itself) is lost in 0; a node with an edge into a node lost in `d` is won, in `1 +`
//! the least such `d`; a node all of whose edges lead into won nodes is lost, in `1
//! +` the greatest of their depths; every other node is a draw (play that never
//! ends).
//!
//! # Algorithm
//!
//! The graph is built explicitly: every node's successors, one entry per turn.
//! Then plain value iteration by depth: round `k = 0, 1, 2, …` looks at every node
//! still undecided and decides it if its depth is `k`, from the values decided in
//! the rounds before (a Jacobi sweep: what this round writes is not read this
//! round, so the order does not matter): won in `k` if a successor is lost in
//! `k - 1`, lost in `k` if every successor is won, the deepest in `k - 1` (and lost
//! in 0 with no successor). A round that decides nothing ends it: with every turn
//! one step long, nothing can be `k` deep when nothing is `k - 1` deep. What is
//! left undecided is a draw.
//!
//! Time (2 cores, test profile, `pieces=4`: about 6.3 million nodes and 72 million
//! edges): about 25 s of CPU, half of it building the graph; 0.4 GB.

use super::{
    colex, colex_within, for_each_turn, points, NaiveBoard, StepKind, ALL_POINTS, BINOMIAL,
    LOST_COUNT, POINTS,
};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, AtomicU32, Ordering::Relaxed};
use tigadi_rules::geometry::{transform_point, Point, SYMMETRIES};
use tigadi_rules::RuleSet;
use tigadi_solve::value::Value;

/// Fewest gotis (board and hand) a player needs to stay in the game.
const ALIVE: u32 = LOST_COUNT + 1;
/// Most gotis a side can have under `pieces=N` (docs/RULES.md §8).
const MOST_PIECES: usize = 12;

/// Value codes, the oracle's own: a win in `d` is `d`, a loss in `d` is `LOSS | d`.
const LOSS: u16 = 0x8000;
const UNDECIDED: u16 = 0xFFFF;
/// A number no class holds (the padding of a run).
const NO_NODE: u16 = 0xFFFE;

/// Which phase a group of nodes belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// A placing position after this many placements.
    Placing(u32),
    /// A moving-phase position.
    Moving,
}

/// The nodes of one phase with `m` gotis on the board for the player to move and
/// `o` for the other player: one run of `C(24 - m, o)` numbers per canonical mover
/// set (a set that is the least of its 16 images), numbered by the colex rank of
/// the opponent's set among the points the mover leaves free. Numbers whose board
/// is not the least of its images hold no node.
struct Group {
    phase: Phase,
    m: u32,
    o: u32,
    /// First node number.
    base: u32,
    /// Per colex rank of a mover set: its run, or `u32::MAX` if not canonical.
    run_of: Vec<u32>,
    /// The canonical mover sets, by run.
    movers: Vec<u32>,
    /// Numbers per run: C(24 - m, o).
    per_run: u32,
}

impl Group {
    fn len(&self) -> u32 {
        self.movers.len() as u32 * self.per_run
    }
}

/// The sets of `k` points among `within`, in increasing colex order of their rank
/// among the subsets of `within`.
fn subsets(k: u32, within: u32) -> impl Iterator<Item = u32> {
    let free: Vec<u32> = points(within).collect();
    let n = free.len() as u32;
    let mut c: u64 = (1u64 << k) - 1;
    std::iter::from_fn(move || {
        if c >= 1u64 << n {
            return None;
        }
        let set = points(c as u32).fold(0, |acc, i| acc | (1 << free[i as usize]));
        if c == 0 {
            c = 1u64 << n; // the empty set is the only one
        } else {
            // Gosper's hack: the next set of k bits.
            let lowest = c & c.wrapping_neg();
            let ripple = c + lowest;
            c = (((ripple ^ c) >> 2) / lowest) | ripple;
        }
        Some(set)
    })
}

/// The whole game's DTW, one value per symmetry class.
pub struct DtwOracle {
    rules: RuleSet,
    board: NaiveBoard,
    pieces: u32,
    /// `images[s][i][b]`: the image under symmetry `s` of the set whose byte `i`
    /// (points `8i..8i + 8`) is `b` and whose other bytes are empty, built point by
    /// point with [`transform_point`].
    images: Vec<[[u32; 256]; 3]>,
    groups: Vec<Group>,
    /// Group of (phase, m, o): see [`DtwOracle::group_index`].
    group_at: Vec<u32>,
    /// The node *over* (the player to move has lost) and *full* (a draw).
    over: u32,
    full: u32,
    /// Per node: its value code, [`NO_NODE`] for numbers that hold none.
    values: Vec<u16>,
}

impl DtwOracle {
    /// Builds the whole game of `rules` (with `rules.pieces` gotis a side) and
    /// solves it.
    pub fn solve(rules: RuleSet) -> DtwOracle {
        let pieces = rules.pieces as u32;
        let images = (0..SYMMETRIES)
            .map(|s| {
                std::array::from_fn(|i| {
                    std::array::from_fn(|b| {
                        points((b as u32) << (8 * i)).fold(0, |acc, p| {
                            let q = transform_point(s, Point::new(p as usize).expect("a point"));
                            acc | 1 << q.index()
                        })
                    })
                })
            })
            .collect();
        let mut oracle = DtwOracle {
            rules,
            board: NaiveBoard::new(&rules),
            pieces,
            images,
            groups: Vec::new(),
            group_at: vec![u32::MAX; (2 * MOST_PIECES + 1) * (MOST_PIECES + 1) * (MOST_PIECES + 1)],
            over: 0,
            full: 0,
            values: Vec::new(),
        };
        oracle.make_groups();
        oracle.solve_graph();
        oracle
    }

    /// The position's index into `group_at`: phases `0..2N` placing, `2N` moving.
    fn group_index(&self, phase: Phase, m: u32, o: u32) -> usize {
        let p = match phase {
            Phase::Placing(k) => k,
            Phase::Moving => 2 * self.pieces,
        } as usize;
        (p * (MOST_PIECES + 1) + m as usize) * (MOST_PIECES + 1) + o as usize
    }

    /// Every group of positions a game can be in: placing positions after `k`
    /// placements with at most the gotis each side has placed on the board and
    /// both sides alive (counting the hands), and moving-phase positions with
    /// 3 to N gotis a side (not the full board). Some placing groups hold
    /// positions no game reaches; they are solved all the same.
    fn make_groups(&mut self) {
        let n = self.pieces;
        let mut shapes = Vec::new();
        for k in 0..2 * n {
            let (mover_placed, opponent_placed) = (k / 2, k.div_ceil(2));
            for m in 0..=mover_placed {
                for o in 0..=opponent_placed {
                    if m + n - mover_placed >= ALIVE && o + n - opponent_placed >= ALIVE {
                        shapes.push((Phase::Placing(k), m, o));
                    }
                }
            }
        }
        for m in ALIVE..=n {
            for o in ALIVE..=n {
                if m + o < POINTS {
                    shapes.push((Phase::Moving, m, o));
                }
            }
        }
        let mut base = 0u32;
        for (phase, m, o) in shapes {
            let mut run_of = vec![u32::MAX; BINOMIAL[POINTS as usize][m as usize] as usize];
            let mut movers = Vec::new();
            for mover in subsets(m, ALL_POINTS) {
                if (0..SYMMETRIES).all(|s| self.image(s, mover) >= mover) {
                    run_of[colex(mover) as usize] = movers.len() as u32;
                    movers.push(mover);
                }
            }
            let group = Group {
                phase,
                m,
                o,
                base,
                run_of,
                movers,
                per_run: BINOMIAL[(POINTS - m) as usize][o as usize] as u32,
            };
            base += group.len();
            let at = self.group_index(phase, m, o);
            self.group_at[at] = self.groups.len() as u32;
            self.groups.push(group);
        }
        self.over = base;
        self.full = base + 1;
    }

    /// The image of a set of points under symmetry `s`.
    fn image(&self, s: usize, set: u32) -> u32 {
        let t = &self.images[s];
        t[0][(set & 0xFF) as usize] | t[1][(set >> 8 & 0xFF) as usize] | t[2][(set >> 16) as usize]
    }

    /// The least of the 16 images of the board (mover's set first).
    fn canonical(&self, mover: u32, opponent: u32) -> (u32, u32) {
        let mut least = (u32::MAX, u32::MAX);
        for s in 0..SYMMETRIES {
            let m = self.image(s, mover);
            // The opponent's image matters only where the mover's ties the least.
            if m <= least.0 {
                least = least.min((m, self.image(s, opponent)));
            }
        }
        least
    }

    /// The node of a board of phase `phase` (any of its images).
    fn node(&self, phase: Phase, mover: u32, opponent: u32) -> u32 {
        let (m, o) = (mover.count_ones(), opponent.count_ones());
        let g = self.group_at[self.group_index(phase, m, o)];
        assert_ne!(g, u32::MAX, "no group {phase:?} {m}v{o}");
        let group = &self.groups[g as usize];
        let (mover, opponent) = self.canonical(mover, opponent);
        let run = group.run_of[colex(mover) as usize];
        group.base + run * group.per_run + colex_within(opponent, ALL_POINTS & !mover) as u32
    }

    /// Calls `f(node, mover, opponent)` for every node of a group (the canonical
    /// boards), in parallel over its mover sets.
    fn for_each_node(&self, group: &Group, f: impl Fn(u32, u32, u32) + Sync) {
        (0..group.movers.len()).into_par_iter().for_each(|run| {
            let mover = group.movers[run];
            let first = group.base + run as u32 * group.per_run;
            for (node, opponent) in (first..).zip(subsets(group.o, ALL_POINTS & !mover)) {
                if self.canonical(mover, opponent) == (mover, opponent) {
                    f(node, mover, opponent);
                }
            }
        });
    }

    /// Calls `f(next)` with the node every turn of the position leads to, one call
    /// per turn (docs/RULES.md §3–§6).
    fn for_each_edge(&self, phase: Phase, mover: u32, opponent: u32, mut f: impl FnMut(u32)) {
        match phase {
            Phase::Moving => {
                for_each_turn(&self.board, &self.rules, mover, opponent, |t| {
                    f(match t.kind {
                        StepKind::Capture if t.next_mover.count_ones() == LOST_COUNT => self.over,
                        _ => self.node(Phase::Moving, t.next_mover, t.next_opponent),
                    });
                    true
                });
            }
            Phase::Placing(k) => {
                // The player to move has placed k / 2 gotis, the other (k + 1) / 2.
                let opponent_hand = self.pieces - k.div_ceil(2);
                let last = k + 1 == 2 * self.pieces;
                let next_phase = if last {
                    Phase::Moving
                } else {
                    Phase::Placing(k + 1)
                };
                for p in points(ALL_POINTS & !(mover | opponent)) {
                    let placed = mover | 1 << p;
                    // A placement that closes a line takes one enemy goti from the
                    // board, when there is one (§5).
                    if opponent != 0 && self.board.closes_line(placed, p) {
                        for taken in points(self.board.capturable(opponent)) {
                            let left = opponent & !(1 << taken);
                            f(if left.count_ones() + opponent_hand < ALIVE {
                                self.over
                            } else {
                                self.node(next_phase, left, placed)
                            });
                        }
                    } else if last && (placed | opponent) == ALL_POINTS {
                        f(self.full);
                    } else {
                        f(self.node(next_phase, opponent, placed));
                    }
                }
            }
        }
    }

    /// Builds the graph (every node's successors, one entry per turn) and runs the
    /// rounds.
    fn solve_graph(&mut self) {
        let nodes = self.full as usize + 1;
        // Out-degrees first (no look-ups), then the edges, each node's in a range
        // of its own.
        let degree: Vec<AtomicU32> = (0..nodes).map(|_| AtomicU32::new(0)).collect();
        for g in &self.groups {
            self.for_each_node(g, |node, mover, opponent| {
                let mut d = 0;
                self.for_each_edge(g.phase, mover, opponent, |_| d += 1);
                // Not 0: a real node with no edge is marked apart.
                degree[node as usize].store(d + 1, Relaxed);
            });
        }
        let mut first = Vec::with_capacity(nodes + 1);
        let mut values = vec![NO_NODE; nodes];
        let mut total = 0u64;
        for (node, d) in degree.iter().enumerate() {
            first.push(total);
            let d = d.load(Relaxed);
            if d > 0 {
                values[node] = UNDECIDED;
                total += d as u64 - 1;
            }
        }
        first.push(total);
        values[self.over as usize] = LOSS; // lost in 0
        values[self.full as usize] = UNDECIDED; // a draw: never decided
        let successors: Vec<AtomicU32> = (0..total).map(|_| AtomicU32::new(0)).collect();
        for g in &self.groups {
            self.for_each_node(g, |node, mover, opponent| {
                let mut at = first[node as usize] as usize;
                self.for_each_edge(g.phase, mover, opponent, |next| {
                    successors[at].store(next, Relaxed);
                    at += 1;
                });
            });
        }
        let successors: Vec<u32> = successors.into_iter().map(AtomicU32::into_inner).collect();
        // Round k decides the nodes whose DTW is k from the values decided in the
        // rounds before (a value of depth k, written this round, counts as
        // undecided: the result does not depend on the order of the nodes).
        let values: Vec<AtomicU16> = values.into_iter().map(AtomicU16::new).collect();
        let mut open: Vec<u32> = (0..nodes as u32)
            .filter(|&n| values[n as usize].load(Relaxed) == UNDECIDED && n != self.full)
            .collect();
        let mut round: u16 = 0;
        loop {
            let decided: Vec<bool> = open
                .par_iter()
                .map(|&node| {
                    let edges = &successors
                        [first[node as usize] as usize..first[node as usize + 1] as usize];
                    // The quickest win and the slowest loss among the turns whose
                    // value is known.
                    let mut quickest: Option<u16> = None;
                    let mut all_won = true;
                    let mut deepest = 0;
                    for &next in edges {
                        match values[next as usize].load(Relaxed) {
                            v if v == UNDECIDED || v & !LOSS >= round => all_won = false,
                            v if v & LOSS != 0 => {
                                let d = (v & !LOSS) + 1;
                                quickest = Some(quickest.map_or(d, |q| q.min(d)));
                            }
                            v => deepest = deepest.max(v + 1),
                        }
                    }
                    let v = if let Some(d) = quickest {
                        // A quicker win would have been decided in an earlier round.
                        assert_eq!(d, round, "node {node}");
                        d
                    } else if edges.is_empty() {
                        LOSS // no turn: lost in 0
                    } else if all_won {
                        // The deepest was decided last round (else this node would
                        // have been decided before).
                        assert_eq!(deepest, round, "node {node}");
                        LOSS | deepest
                    } else {
                        return false;
                    };
                    values[node as usize].store(v, Relaxed);
                    true
                })
                .collect();
            let before = open.len();
            open = open
                .into_iter()
                .zip(decided)
                .filter_map(|(n, d)| (!d).then_some(n))
                .collect();
            if round >= 1 && open.len() == before {
                break; // nothing decided: nothing at this depth, so none deeper
            }
            round += 1;
        }
        self.values = values.into_iter().map(AtomicU16::into_inner).collect();
    }

    fn value_of(&self, node: u32) -> Value {
        match self.values[node as usize] {
            NO_NODE => panic!("node {node} holds no position"),
            UNDECIDED => Value::Draw,
            v if v & LOSS != 0 => Value::Loss(v & !LOSS),
            v => Value::Win(v),
        }
    }

    /// The rule set solved.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The value with its DTW of a moving-phase position (any image).
    pub fn moving(&self, mover: u32, opponent: u32) -> Value {
        self.value_of(self.node(Phase::Moving, mover, opponent))
    }

    /// The value with its DTW of a placing position after `placed` placements.
    pub fn placing(&self, placed: u32, mover: u32, opponent: u32) -> Value {
        self.value_of(self.node(Phase::Placing(placed), mover, opponent))
    }

    /// Number of classes (nodes) of phase `phase` with goti counts `m` and `o`; 0
    /// when the oracle has no such group.
    pub fn classes(&self, phase: Phase, m: u32, o: u32) -> u64 {
        let g = self.group_at[self.group_index(phase, m, o)];
        if g == u32::MAX {
            return 0;
        }
        let g = &self.groups[g as usize];
        self.values[g.base as usize..(g.base + g.len()) as usize]
            .iter()
            .filter(|&&v| v != NO_NODE)
            .count() as u64
    }

    /// The value of a node recomputed from its successors' (one Bellman step over
    /// the oracle's own edges); equal to the stored value everywhere when the sweep
    /// is right. For the oracle's self-test.
    pub fn bellman(&self, phase: Phase, mover: u32, opponent: u32) -> Value {
        let mut best: Option<Value> = None;
        self.for_each_edge(phase, mover, opponent, |next| {
            let v = match self.value_of(next) {
                Value::Win(d) => Value::Loss(d + 1),
                Value::Loss(d) => Value::Win(d + 1),
                Value::Draw => Value::Draw,
            };
            if best.is_none_or(|b| v.better_than(b)) {
                best = Some(v);
            }
        });
        best.unwrap_or(Value::Loss(0))
    }

    /// Calls `f(phase, mover, opponent, value)` for every class (in parallel).
    pub fn par_for_each_class(&self, f: impl Fn(Phase, u32, u32, Value) + Sync) {
        for g in &self.groups {
            self.for_each_node(g, |node, mover, opponent| {
                f(g.phase, mover, opponent, self.value_of(node))
            });
        }
    }
}
