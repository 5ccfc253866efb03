//! The whole game against a deliberately naive, independent full-game solver.
//!
//! The naive solver is plain minimax with memoisation over raw placing positions
//! (Bone's and Seed's point sets, the player to move, both hands; no symmetry, no
//! layers, no index), recursing from the empty board through every placement of
//! docs/RULES.md §3 and §5, written here from the rules text. It shares only the board's
//! lines with the toolkit. Where the last placement leads into the moving phase it
//! asks the naive moving-phase oracle (`tests/oracle`: forward value iteration over
//! raw positions with its own move generator), never the fast solver.
//!
//! Every placing position the naive solver reaches from the empty board (all of
//! them that a game can reach) is then compared, value and depth, with the
//! toolkit's placing tables, which are solved from the toolkit's own moving-phase
//! tables.
//!
//! Values (docs/RULES.md §7, extended to placing as `tigadi_solve::placing` documents):
//! win/draw/loss for the player to move with the depth to the next capture in turns;
//! a placement that captures counts 1, any other adds 1 to what follows; the winner
//! takes the quickest win, the loser the slowest loss.

mod oracle;

use oracle::OracleSolution;
use std::collections::HashMap;
use std::sync::Mutex;
use tigadi_index::Subspace;
use tigadi_rules::{Board, Geometry, RuleSet};
use tigadi_solve::placing::{solve_placing, LayerValues};
use tigadi_solve::retrograde::Quiet;
use tigadi_solve::{solve_up_to, Packed, SolvedTable, Value};

/// One whole-game comparison at a time: each holds a few hundred MB.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The naive full-game solver of one rule set.
struct Naive<'a> {
    pieces: u32,
    lines: Vec<u32>,
    moving: &'a OracleSolution,
    /// Value of every placing position met, keyed by [`key`].
    memo: HashMap<u64, Value>,
}

/// A placing position: Bone's and Seed's points, who places next, both hands.
#[derive(Clone, Copy, Debug)]
struct Raw {
    bone: u32,
    seed: u32,
    bone_to_move: bool,
    bone_hand: u32,
    seed_hand: u32,
}

fn key(p: &Raw) -> u64 {
    p.bone as u64
        | (p.seed as u64) << 24
        | (p.bone_to_move as u64) << 48
        | (p.bone_hand as u64) << 49
        | (p.seed_hand as u64) << 54
}

fn through(next: Value, capture: bool) -> Value {
    let d = |d: u16| if capture { 1 } else { d + 1 };
    match next {
        Value::Win(x) => Value::Loss(d(x)),
        Value::Loss(x) => Value::Win(d(x)),
        Value::Draw => Value::Draw,
    }
}

fn score(v: Value) -> i64 {
    match v {
        Value::Win(d) => 1_000_000 - d as i64,
        Value::Draw => 0,
        Value::Loss(d) => -1_000_000 + d as i64,
    }
}

impl Naive<'_> {
    /// Does the goti just placed on `p` complete a line of `own` (which holds it)?
    fn completes(&self, own: u32, p: u32) -> bool {
        self.lines
            .iter()
            .any(|&l| l & (1 << p) != 0 && own & l == l)
    }

    /// The enemy gotis a capture may take (docs/RULES.md §5).
    fn takeable(&self, enemy: u32) -> Vec<u32> {
        let on_line = |x: u32| {
            self.lines
                .iter()
                .any(|&l| l & (1 << x) != 0 && enemy & l == l)
        };
        let all: Vec<u32> = (0..24).filter(|x| enemy & (1 << x) != 0).collect();
        let free: Vec<u32> = all.iter().copied().filter(|&x| !on_line(x)).collect();
        if free.is_empty() {
            all
        } else {
            free
        }
    }

    fn value(&mut self, p: Raw) -> Value {
        if p.bone_hand == 0 && p.seed_hand == 0 {
            // The moving phase: Bone moves first, counter 0.
            if (p.bone | p.seed).count_ones() == 24 {
                return Value::Draw; // the full board (docs/RULES.md §8)
            }
            return self.moving.value(p.bone, p.seed);
        }
        if let Some(&v) = self.memo.get(&key(&p)) {
            return v;
        }
        let (own, enemy, enemy_hand) = if p.bone_to_move {
            (p.bone, p.seed, p.seed_hand)
        } else {
            (p.seed, p.bone, p.bone_hand)
        };
        let mut best: Option<Value> = None;
        for point in 0..24 {
            if (own | enemy) & (1 << point) != 0 {
                continue;
            }
            let own2 = own | 1 << point;
            let mut outcomes = Vec::new();
            if enemy != 0 && self.completes(own2, point) {
                for x in self.takeable(enemy) {
                    outcomes.push((enemy & !(1 << x), true));
                }
            } else {
                outcomes.push((enemy, false));
            }
            for (enemy2, capture) in outcomes {
                let v = if enemy2.count_ones() + enemy_hand < 3 {
                    Value::Win(1)
                } else {
                    let next = if p.bone_to_move {
                        Raw {
                            bone: own2,
                            seed: enemy2,
                            bone_to_move: false,
                            bone_hand: p.bone_hand - 1,
                            seed_hand: p.seed_hand,
                        }
                    } else {
                        Raw {
                            bone: enemy2,
                            seed: own2,
                            bone_to_move: true,
                            bone_hand: p.bone_hand,
                            seed_hand: p.seed_hand - 1,
                        }
                    };
                    through(self.value(next), capture)
                };
                if best.is_none_or(|b| score(v) > score(b)) {
                    best = Some(v);
                }
            }
        }
        let v = best.expect("a placing position has an empty point");
        self.memo.insert(key(&p), v);
        v
    }
}

/// Solves `rules` whole both ways and compares every placing position reached from
/// the empty board; returns (positions compared, the empty board's value).
fn agree(rules: RuleSet) -> (usize, Value) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let n = rules.pieces as u32;
    // The toolkit: moving phase, then the placing layers.
    let moving = solve_up_to(&rules, 2 * n, &Quiet, |_, _, _| {});
    let tables: Vec<SolvedTable> = moving
        .iter()
        .map(|(s, v)| SolvedTable {
            subspace: *s,
            values: v,
        })
        .collect();
    let layers = solve_placing(&rules, &tables, &Quiet, |_, _| {}).unwrap();
    drop(tables);
    drop(moving);
    // The naive solver.
    let oracle_moving = OracleSolution::solve(rules, n, n);
    let mut naive = Naive {
        pieces: n,
        lines: Geometry::of(rules.board).lines.clone(),
        moving: &oracle_moving,
        memo: HashMap::new(),
    };
    let start = naive.value(Raw {
        bone: 0,
        seed: 0,
        bone_to_move: true,
        bone_hand: n,
        seed_hand: n,
    });
    let lookups: Vec<LayerValues> = layers
        .iter()
        .map(|l| {
            let t: Vec<SolvedTable> = l
                .iter()
                .map(|s| SolvedTable {
                    subspace: s.subspace,
                    values: &s.values,
                })
                .collect();
            let subs: Vec<Subspace> = l.iter().map(|s| s.subspace).collect();
            LayerValues::new(&t, &subs).unwrap()
        })
        .collect();
    let mut wrong = 0;
    for (&k, &expected) in &naive.memo {
        let bone = (k & 0xFF_FFFF) as u32;
        let seed = ((k >> 24) & 0xFF_FFFF) as u32;
        let bone_to_move = (k >> 48) & 1 == 1;
        let hands = ((k >> 49) & 0x1F) as u32 + ((k >> 54) & 0x1F) as u32;
        let placed = 2 * naive.pieces - hands;
        let board = if bone_to_move {
            Board {
                mover: bone,
                opponent: seed,
            }
        } else {
            Board {
                mover: seed,
                opponent: bone,
            }
        };
        let got = lookups[placed as usize].value(board);
        if got != Some(expected) {
            wrong += 1;
            if wrong <= 10 {
                eprintln!("{rules} layer {placed} {board:?}: toolkit {got:?}, naive {expected:?}");
            }
        }
    }
    assert_eq!(wrong, 0, "{rules}: toolkit and naive solver disagree");
    // The toolkit's empty board, read the way `stats` reads it.
    assert_eq!(
        layers[0][0].values,
        vec![Packed::new(start)],
        "{rules}: empty board"
    );
    eprintln!(
        "{rules}: {} placing positions agree; empty board {start}",
        naive.memo.len()
    );
    (naive.memo.len(), start)
}

#[test]
#[ignore = "minutes of CPU and about 1 GB (naive 4v4 moving phase); run with -- --ignored"]
fn tigadi_4_a_side_agrees_with_naive_solver() {
    let (compared, _) = agree(RuleSet::parse("tigadi,pieces=4").unwrap());
    assert!(compared > 1_000_000);
}

#[test]
#[ignore = "minutes of CPU and about 1 GB (naive 4v4 moving phase); run with -- --ignored"]
fn navakankari_4_a_side_agrees_with_naive_solver() {
    let (compared, _) = agree(RuleSet::parse("navakankari,pieces=4").unwrap());
    assert!(compared > 1_000_000);
}

#[test]
#[ignore = "minutes of CPU and about 1 GB (naive 4v4 moving phase); run with -- --ignored"]
fn morris_4_a_side_agrees_with_naive_solver() {
    let (compared, _) = agree(RuleSet::parse("morris,pieces=4").unwrap());
    assert!(compared > 1_000_000);
}

/// Three a side: any capture while placing wins at once; the whole game is tiny.
#[test]
fn three_a_side_agrees_with_naive_solver() {
    for name in ["tigadi", "navakankari", "morris"] {
        agree(RuleSet::parse(&format!("{name},pieces=3")).unwrap());
    }
}
