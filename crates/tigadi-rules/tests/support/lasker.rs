//! A naive Lasker morris, written from docs/RULES.md §1–§6 and §8.2 alone (not from
//! the rules crate's move generation), as test infrastructure: a move generator over
//! plain arrays and a whole-game oracle by value iteration over raw states (no
//! symmetry, no counters). The tier solver's comparison test (issue 53) includes
//! this file with `#[path]`; the rules crate's tests check the generator against
//! the fast one and the oracle on small games.
//!
//! Everything here names points by their names; [`Naive::to_position`] is the one
//! bridge to the toolkit's types.

#![allow(dead_code)]

use std::collections::HashMap;
use tigadi_rules::{Point, Position, Side};

/// The 24 points, in this file's own order.
pub const NAMES: [&str; 24] = [
    "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4", "e4", "f4", "g4", "c3",
    "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1",
];

/// The 16 lines of the board without diagonals (docs/RULES.md §1, §8 `lines=16`).
pub const LINES16: [[&str; 3]; 16] = [
    ["a1", "d1", "g1"],
    ["g1", "g4", "g7"],
    ["a7", "d7", "g7"],
    ["a1", "a4", "a7"],
    ["b2", "d2", "f2"],
    ["f2", "f4", "f6"],
    ["b6", "d6", "f6"],
    ["b2", "b4", "b6"],
    ["c3", "d3", "e3"],
    ["e3", "e4", "e5"],
    ["c5", "d5", "e5"],
    ["c3", "c4", "c5"],
    ["d1", "d2", "d3"],
    ["g4", "f4", "e4"],
    ["d7", "d6", "d5"],
    ["a4", "b4", "c4"],
];

fn at(name: &str) -> usize {
    NAMES.iter().position(|n| *n == name).unwrap()
}

/// The lines as index triples, and which points are neighbours (consecutive on a
/// line), worked out once.
struct Board16 {
    lines: Vec<[usize; 3]>,
    adjacent: [[bool; 24]; 24],
}

fn board() -> &'static Board16 {
    static BOARD: std::sync::OnceLock<Board16> = std::sync::OnceLock::new();
    BOARD.get_or_init(|| {
        let lines: Vec<[usize; 3]> = LINES16.iter().map(|l| l.map(at)).collect();
        let mut adjacent = [[false; 24]; 24];
        for l in &lines {
            for (a, b) in [(l[0], l[1]), (l[1], l[2])] {
                adjacent[a][b] = true;
                adjacent[b][a] = true;
            }
        }
        Board16 { lines, adjacent }
    })
}

/// Are `a` and `b` consecutive on a line?
fn adjacent(a: usize, b: usize) -> bool {
    board().adjacent[a][b]
}

/// A raw Lasker state: the board (0 empty, 1 Bone, 2 Seed), the player to move
/// (1 or 2) and both hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Naive {
    /// Who stands on each point of [`NAMES`].
    pub cell: [u8; 24],
    /// 1 (Bone) or 2 (Seed) to move.
    pub side: u8,
    /// Gotis in hand: `hand[0]` Bone's, `hand[1]` Seed's.
    pub hand: [u8; 2],
}

/// A naive move: where from (a slide) or nothing (a placement), where to, what
/// is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NaiveMove {
    /// Start point of a slide; `None` for a placement.
    pub from: Option<usize>,
    /// Arrival point.
    pub to: usize,
    /// Captured point.
    pub capture: Option<usize>,
}

impl Naive {
    /// The empty board, `pieces` in each hand, Bone to move.
    pub fn start(pieces: u8) -> Naive {
        Naive {
            cell: [0; 24],
            side: 1,
            hand: [pieces, pieces],
        }
    }

    fn count(&self, who: u8) -> usize {
        self.cell.iter().filter(|&&c| c == who).count()
    }

    /// Gotis of `who` on the board and in hand.
    pub fn total(&self, who: u8) -> usize {
        self.count(who) + self.hand[who as usize - 1] as usize
    }

    /// Does the goti of `who` on `p` stand in a line of three of `who`?
    fn in_line(&self, p: usize, who: u8) -> bool {
        board()
            .lines
            .iter()
            .any(|l| l.contains(&p) && l.iter().all(|&q| self.cell[q] == who))
    }

    /// Every legal move under Lasker's rules (docs/RULES.md §8.2): none when a side
    /// has fewer than 3 gotis in all; otherwise every placement (with gotis in hand)
    /// and every slide of a goti to a neighbouring empty point, or to any empty
    /// point when the mover's gotis on the board and in hand are exactly 3; a move
    /// that completes a line through its goti takes one enemy goti not in a line,
    /// or any when all are in lines. No pass: a blocked player loses.
    pub fn moves(&self) -> Vec<NaiveMove> {
        let me = self.side;
        let you = 3 - me;
        if self.total(me) < 3 || self.total(you) < 3 {
            return vec![];
        }
        let mut arrivals = vec![];
        if self.hand[me as usize - 1] > 0 {
            for to in 0..24 {
                if self.cell[to] == 0 {
                    arrivals.push((None, to));
                }
            }
        }
        let flies = self.total(me) == 3;
        for from in 0..24 {
            if self.cell[from] != me {
                continue;
            }
            for to in 0..24 {
                if self.cell[to] == 0 && (flies || adjacent(from, to)) {
                    arrivals.push((Some(from), to));
                }
            }
        }
        let mut out = vec![];
        for (from, to) in arrivals {
            let mut after = *self;
            if let Some(f) = from {
                after.cell[f] = 0;
            }
            after.cell[to] = me;
            if after.in_line(to, me) {
                let enemy: Vec<usize> = (0..24).filter(|&q| self.cell[q] == you).collect();
                let free: Vec<usize> = enemy
                    .iter()
                    .copied()
                    .filter(|&q| !self.in_line(q, you))
                    .collect();
                let takeable = if free.is_empty() { enemy } else { free };
                for x in takeable {
                    out.push(NaiveMove {
                        from,
                        to,
                        capture: Some(x),
                    });
                }
            } else {
                out.push(NaiveMove {
                    from,
                    to,
                    capture: None,
                });
            }
        }
        out
    }

    /// The state after `m`.
    pub fn play(&self, m: NaiveMove) -> Naive {
        let mut n = *self;
        let me = self.side;
        match m.from {
            Some(f) => n.cell[f] = 0,
            None => n.hand[me as usize - 1] -= 1,
        }
        n.cell[m.to] = me;
        if let Some(x) = m.capture {
            n.cell[x] = 0;
        }
        n.side = 3 - me;
        n
    }

    /// The number of move sequences of `depth` turns (a state without moves ends one).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .iter()
            .map(|&m| self.play(m).perft(depth - 1))
            .sum()
    }

    /// The same state as the toolkit's [`Position`] (100-turn counter 0).
    pub fn to_position(self) -> Position {
        let bits = |who: u8| {
            (0..24)
                .filter(|&i| self.cell[i] == who)
                .map(|i| Point::parse(NAMES[i]).unwrap().bit())
                .fold(0, |a, b| a | b)
        };
        Position {
            bone: bits(1),
            seed: bits(2),
            side: if self.side == 1 {
                Side::Bone
            } else {
                Side::Seed
            },
            bone_hand: self.hand[0],
            seed_hand: self.hand[1],
            quiet_turns: 0,
        }
    }

    /// The toolkit's name for a naive move (docs/RULES.md §9: `d5`, `a1-a4`, `xg7`).
    pub fn notation(m: NaiveMove) -> String {
        let mut s = match m.from {
            Some(f) => format!("{}-{}", NAMES[f], NAMES[m.to]),
            None => NAMES[m.to].to_string(),
        };
        if let Some(x) = m.capture {
            s += &format!("x{}", NAMES[x]);
        }
        s
    }
}

/// A game-theoretic value for the player to move, with the number of turns to the
/// end under play that wins fastest and loses slowest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// Won in this many turns.
    Win(u32),
    /// Lost in this many turns (0: the game is already lost, or no move).
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

/// The whole game of Lasker morris from `start`: [`solve_graph`] with
/// [`Naive::moves`].
pub fn solve(start: Naive) -> HashMap<Naive, Value> {
    solve_graph(start, |s| {
        s.moves().into_iter().map(|m| s.play(m)).collect()
    })
}

/// Any game from `start` (its moves given by `children`) solved by value iteration
/// over every state reachable from it: round 0 marks the states without a move
/// lost (in Lasker: a side below 3 gotis, or the mover blocked); round k marks won
/// every state with a move to a state lost in an earlier round, and lost every
/// state all of whose moves lead to states won in earlier rounds. What no round
/// marks is a draw.
pub fn solve_graph<S: Copy + Eq + std::hash::Hash>(
    start: S,
    children: impl Fn(&S) -> Vec<S>,
) -> HashMap<S, Value> {
    let mut states = vec![start];
    let mut id: HashMap<S, u32> = HashMap::from([(start, 0)]);
    let mut edges: Vec<Vec<u32>> = vec![];
    let mut i = 0;
    while i < states.len() {
        let mut kids = vec![];
        for c in children(&states[i]) {
            let n = id.len() as u32;
            let k = *id.entry(c).or_insert_with(|| {
                states.push(c);
                n
            });
            kids.push(k);
        }
        edges.push(kids);
        i += 1;
    }
    let mut value: Vec<Option<Value>> = edges
        .iter()
        .map(|k| k.is_empty().then_some(Value::Loss(0)))
        .collect();
    for round in 1.. {
        let mut new = vec![];
        for (s, kids) in edges.iter().enumerate() {
            if value[s].is_some() {
                continue;
            }
            if kids
                .iter()
                .any(|&c| matches!(value[c as usize], Some(Value::Loss(_))))
            {
                new.push((s, Value::Win(round)));
            } else if kids
                .iter()
                .all(|&c| matches!(value[c as usize], Some(Value::Win(_))))
            {
                new.push((s, Value::Loss(round)));
            }
        }
        if new.is_empty() {
            break;
        }
        for (s, v) in new {
            value[s] = Some(v);
        }
    }
    states
        .into_iter()
        .zip(value)
        .map(|(s, v)| (s, v.unwrap_or(Value::Draw)))
        .collect()
}

/// The 16 symmetries of the board (docs/RULES.md §1) as permutations of
/// [`NAMES`]: the 8 of the square acting on the coordinates (files a–g and ranks
/// 1–7 read as -3..=3), each with and without the swap of the inner and outer
/// squares (a point at distance `r` from the centre, 1 to 3, goes to the point in
/// the same direction at distance `4 - r`).
pub fn symmetries() -> Vec<[usize; 24]> {
    let coords = |i: usize| {
        let b = NAMES[i].as_bytes();
        ((b[0] - b'a') as i32 - 3, (b[1] - b'1') as i32 - 3)
    };
    let named = |(x, y): (i32, i32)| {
        let name = format!("{}{}", (b'a' + (x + 3) as u8) as char, y + 4);
        at(&name)
    };
    type Map = fn(i32, i32) -> (i32, i32);
    let square: [Map; 8] = [
        |x, y| (x, y),
        |x, y| (-y, x),
        |x, y| (-x, -y),
        |x, y| (y, -x),
        |x, y| (-x, y),
        |x, y| (x, -y),
        |x, y| (y, x),
        |x, y| (-y, -x),
    ];
    let mut out = vec![];
    for f in square {
        for swap in [false, true] {
            let mut perm = [0; 24];
            for (i, p) in perm.iter_mut().enumerate() {
                let (mut x, mut y) = coords(i);
                if swap {
                    let r = x.abs().max(y.abs());
                    (x, y) = (x / r * (4 - r), y / r * (4 - r));
                }
                *p = named(f(x, y));
            }
            out.push(perm);
        }
    }
    out
}

/// A state seen from the player to move, one per class of the 16 symmetries and
/// of the two colours (the rules treat both players alike once the game is under
/// way): the mover's points and the other player's as bit sets over [`NAMES`],
/// and the hands, the mover's first. [`Naive::class`] makes one, and
/// [`Class::to_naive`] gives back a state of the class with Bone to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Class {
    /// The player to move's points.
    pub mover: u32,
    /// The other player's points.
    pub opponent: u32,
    /// Gotis in hand: the player to move's, the other's.
    pub hands: [u8; 2],
}

impl Naive {
    /// The class of this state: of its images under the 16 symmetries, seen
    /// from the player to move, the least.
    pub fn class(&self) -> Class {
        // Each symmetry as three tables mapping a byte of a point set (points
        // 8k..8k+8 of NAMES) to its image: a set's image is three look-ups.
        type Tables = Vec<[[u32; 256]; 3]>;
        static TABLES: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
        let tables = TABLES.get_or_init(|| {
            symmetries()
                .iter()
                .map(|perm| {
                    let mut t = [[0u32; 256]; 3];
                    for (k, table) in t.iter_mut().enumerate() {
                        for (byte, image) in table.iter_mut().enumerate() {
                            for bit in 0..8 {
                                if byte >> bit & 1 == 1 {
                                    *image |= 1 << perm[8 * k + bit];
                                }
                            }
                        }
                    }
                    t
                })
                .collect()
        });
        let me = self.side;
        let set = |who: u8| {
            (0..24)
                .filter(|&i| self.cell[i] == who)
                .fold(0u32, |a, i| a | 1 << i)
        };
        let (mover, opponent) = (set(me), set(3 - me));
        let image = |t: &[[u32; 256]; 3], s: u32| {
            t[0][(s & 0xFF) as usize] | t[1][(s >> 8 & 0xFF) as usize] | t[2][(s >> 16) as usize]
        };
        let hands = [self.hand[me as usize - 1], self.hand[2 - me as usize]];
        tables
            .iter()
            .map(|t| Class {
                mover: image(t, mover),
                opponent: image(t, opponent),
                hands,
            })
            .min()
            .unwrap()
    }
}

impl Class {
    /// A state of this class: the player to move as Bone.
    pub fn to_naive(self) -> Naive {
        let mut cell = [0; 24];
        for (i, c) in cell.iter_mut().enumerate() {
            if self.mover >> i & 1 == 1 {
                *c = 1;
            } else if self.opponent >> i & 1 == 1 {
                *c = 2;
            }
        }
        Naive {
            cell,
            side: 1,
            hand: self.hands,
        }
    }

    /// Gotis on the board and in hand, both players together.
    fn gotis(self) -> u32 {
        self.mover.count_ones()
            + self.opponent.count_ones()
            + self.hands[0] as u32
            + self.hands[1] as u32
    }
}

/// A capture edge's flag in [`solve_classes`]'s edge list.
const CAPTURE: u32 = 1 << 31;

/// The whole game of Lasker morris of `pieces` a side, every class of state
/// ([`Class`]) a game reaches from the empty board with its value for the player
/// to move, the depth counted as the tables count it: turns to the next capture
/// (docs/FORMAT.md: placements and slides count as turns, a capture counts 1,
/// the winner hurries and the loser delays), so `Win(1)` is a capture into a
/// position lost for the other player (one that ends the game included) and
/// `Loss(0)` a state without a move (a side below three gotis, or the mover
/// blocked with an empty hand).
///
/// Plain retrograde by rounds: a capture leaves fewer gotis in all, a placement
/// or slide the same, so the classes are solved in groups by their gotis in all,
/// fewest first. In a group, round 0 marks the classes without a move lost;
/// round `r` marks won every class with a move worth `Win(r)` (a capture into a
/// lost class when `r` is 1, a placement or slide into a class lost in round
/// `r - 1`), and lost every class all of whose moves are known losses (a capture
/// into a won class, `Loss(1)`; a placement or slide into a won class `Win(d)`,
/// `Loss(d + 1)`), with the largest of those depths. What no round marks is a
/// draw. Written from docs/RULES.md with [`Naive::moves`]; nothing of the
/// toolkit but the rules' text.
pub fn solve_classes(pieces: u8) -> HashMap<Class, Value> {
    let start = Naive::start(pieces).class();
    let mut id: HashMap<Class, u32> = HashMap::from([(start, 0)]);
    let mut classes = vec![start];
    let mut offsets = vec![0usize];
    let mut edges: Vec<u32> = vec![];
    let mut i = 0;
    while i < classes.len() {
        let state = classes[i].to_naive();
        let mut kids: Vec<u32> = state
            .moves()
            .into_iter()
            .map(|m| {
                let child = state.play(m).class();
                let n = classes.len() as u32;
                let k = *id.entry(child).or_insert_with(|| {
                    classes.push(child);
                    n
                });
                if m.capture.is_some() {
                    k | CAPTURE
                } else {
                    k
                }
            })
            .collect();
        kids.sort_unstable();
        kids.dedup();
        edges.extend(kids);
        offsets.push(edges.len());
        i += 1;
    }
    drop(id);
    let kids = |s: usize| edges[offsets[s]..offsets[s + 1]].iter();
    let mut value: Vec<Option<Value>> = vec![None; classes.len()];
    let mut groups: std::collections::BTreeMap<u32, Vec<usize>> = Default::default();
    for (s, c) in classes.iter().enumerate() {
        groups.entry(c.gotis()).or_default().push(s);
    }
    for (_, group) in groups {
        let mut pending = vec![];
        for s in group {
            if kids(s).len() == 0 {
                value[s] = Some(Value::Loss(0));
            } else {
                pending.push(s);
            }
        }
        for round in 1.. {
            let mut new = vec![];
            for &s in &pending {
                // A move's value for the mover when known: Some(Win(d)) or
                // Some(Loss(d)), Some(Draw), or None (not decided yet).
                let mut win = u32::MAX;
                let mut worst_loss = 0;
                let mut all_lost = true;
                for &e in kids(s) {
                    let capture = e & CAPTURE != 0;
                    let child = value[(e & !CAPTURE) as usize];
                    match child {
                        Some(Value::Loss(d)) => win = win.min(if capture { 1 } else { d + 1 }),
                        Some(Value::Win(d)) => {
                            worst_loss = worst_loss.max(if capture { 1 } else { d + 1 })
                        }
                        _ => all_lost = false,
                    }
                }
                if win == round {
                    new.push((s, Value::Win(round)));
                } else if win == u32::MAX && all_lost {
                    new.push((s, Value::Loss(worst_loss)));
                }
            }
            if new.is_empty() {
                break;
            }
            for &(s, v) in &new {
                value[s] = Some(v);
            }
            pending.retain(|&s| value[s].is_none());
        }
    }
    classes
        .into_iter()
        .zip(value)
        .map(|(c, v)| (c, v.unwrap_or(Value::Draw)))
        .collect()
}

/// A class's values under the 100-turn rule with turn limit `quiet`
/// (docs/RULES.md §6–§8): win, draw or loss for the player to move at every
/// counter from 0 to `quiet`, `at[c]` at counter `c` (the turns played since
/// the last capture or placement).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnderRule {
    /// `Value::Win(0)`, `Value::Draw` or `Value::Loss(0)` (no depths) per counter.
    pub at: Vec<Value>,
}

/// The whole game of Lasker morris of `pieces` a side under the 100-turn rule
/// with turn limit `quiet`: every class a game reaches ([`Class`]) with its
/// win, draw or loss at every counter ([`UnderRule`]). Written from
/// docs/RULES.md alone, with nothing of the toolkit and no depths: the state is
/// the class **and the counter**; a capture or a placement leads to its target
/// at counter 0 (§8: the counter counts the turns since the last capture or
/// placement), a slide to its target at the counter plus one; at counter
/// `quiet` the game is drawn (the turn limit has been played) unless the player
/// to move has no move (the turn that blocked it won, §7: decided within 0
/// turns); a state without a move is lost (a side below three gotis in all, or
/// the mover blocked). A state is won when a move leads to a state lost for the
/// other player, lost when every move leads to one won for it, drawn
/// otherwise: plain minimax, which ends because a capture lowers the gotis in
/// all, a placement the gotis in hand, and a slide raises the counter, which
/// stops at `quiet`.
pub fn solve_classes_under_rule(pieces: u8, quiet: usize) -> HashMap<Class, UnderRule> {
    // The classes and their moves: (target, resets the counter).
    let start = Naive::start(pieces).class();
    let mut id: HashMap<Class, usize> = HashMap::from([(start, 0)]);
    let mut classes = vec![start];
    let mut moves: Vec<Vec<(usize, bool)>> = vec![];
    let mut i = 0;
    while i < classes.len() {
        let state = classes[i].to_naive();
        let mut out = vec![];
        for m in state.moves() {
            let child = state.play(m).class();
            let n = classes.len();
            let k = *id.entry(child).or_insert_with(|| {
                classes.push(child);
                n
            });
            out.push((k, m.capture.is_some() || m.from.is_none()));
        }
        moves.push(out);
        i += 1;
    }
    // Fewest gotis in all first, then fewest in hand: every capture or
    // placement leads into an earlier group, every slide into its own.
    let mut order: Vec<usize> = (0..classes.len()).collect();
    let key = |c: &Class| (c.gotis(), c.hands[0] as u32 + c.hands[1] as u32);
    order.sort_by_key(|&s| key(&classes[s]));
    // value[s * (quiet + 1) + c]: 0 unknown, 1 win, 2 draw, 3 loss.
    let width = quiet + 1;
    let mut value = vec![0u8; classes.len() * width];
    let mut g = 0;
    while g < order.len() {
        let k = key(&classes[order[g]]);
        let end = g + order[g..]
            .iter()
            .take_while(|&&s| key(&classes[s]) == k)
            .count();
        for c in (0..=quiet).rev() {
            for &s in &order[g..end] {
                let v = if moves[s].is_empty() {
                    3
                } else if c == quiet {
                    2
                } else {
                    let mut any_lost = false;
                    let mut all_won = true;
                    for &(t, reset) in &moves[s] {
                        let tv = value[t * width + if reset { 0 } else { c + 1 }];
                        assert_ne!(tv, 0, "a move's target is solved first");
                        any_lost |= tv == 3;
                        all_won &= tv == 1;
                    }
                    if any_lost {
                        1
                    } else if all_won {
                        3
                    } else {
                        2
                    }
                };
                value[s * width + c] = v;
            }
        }
        g = end;
    }
    classes
        .into_iter()
        .enumerate()
        .map(|(s, class)| {
            let at = value[s * width..(s + 1) * width]
                .iter()
                .map(|v| match v {
                    1 => Value::Win(0),
                    2 => Value::Draw,
                    _ => Value::Loss(0),
                })
                .collect();
            (class, UnderRule { at })
        })
        .collect()
}
