//! The whole game against a deliberately naive, independent full-game solver.
//!
//! The naive solver is plain minimax with memoisation over raw placing positions
//! (Bone's and Seed's point sets, the player to move, both hands; no symmetry, no
//! layers, no index), recursing from the empty board through every placement of
//! docs/RULES.md §3 and §5, written here from the rules text. It shares only the board's
//! lines with the toolkit. Where the last placement leads into the moving phase it
//! asks the naive moving-phase oracle (`tests/oracle`: forward value iteration over
//! raw positions with its own move generator), never the fast solver, except in the
//! five-a-side tests marked `Leaves::Toolkit`, which check the placing phase alone
//! over the toolkit's moving-phase tables (quicker: the naive 5v5 moving phase
//! takes most of an hour on two cores).
//!
//! Every placing position the naive solver reaches from the empty board (all of
//! them that a game can reach) is then compared, value and depth, with the
//! toolkit's placing tables, which are solved from the toolkit's own moving-phase
//! tables.
//!
//! Values (docs/RULES.md §7, extended to placing as `tigadi_solve::leaving` documents):
//! win/draw/loss for the player to move with the depth to the next capture in turns;
//! a placement that captures counts 1, any other adds 1 to what follows; the winner
//! takes the quickest win, the loser the slowest loss.

use crate::oracle;

use oracle::horizon::{HorizonOracle, DRAW, LOSS, WIN};
use oracle::OracleSolution;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::geometry::transform;
use tigadi_rules::{Board, Geometry, RuleSet, SYMMETRIES};
use tigadi_solve::leaving::{evaluate_placing, solve_placing, successor_subspaces};
use tigadi_solve::Quiet;
use tigadi_solve::{
    pairs_up_to_pieces, solve_up_to, solve_up_to_horizon, Category, Packed, SolvedTable, TableSet,
    Value,
};

/// One whole-game comparison at a time: each holds a few hundred MB.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The naive full-game solver of one rule set.
struct Naive<'a> {
    pieces: u32,
    lines: Vec<u32>,
    /// The moving-phase value of (Bone's points, Seed's points), Bone to move at
    /// counter 0: the naive oracle's, or in [`Leaves::Toolkit`] the toolkit's.
    moving: &'a dyn Fn(u32, u32) -> Value,
    /// The value of every placing position met, one entry per raw position.
    memo: Memo,
    /// The keys ([`key`]) of the positions met with at most this many placements
    /// made, for the comparison with the toolkit.
    record_up_to: u32,
    recorded: Vec<u64>,
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

/// The position of a [`key`].
fn unkey(k: u64) -> Raw {
    Raw {
        bone: (k & 0xFF_FFFF) as u32,
        seed: ((k >> 24) & 0xFF_FFFF) as u32,
        bone_to_move: (k >> 48) & 1 == 1,
        bone_hand: ((k >> 49) & 0x1F) as u32,
        seed_hand: ((k >> 54) & 0x1F) as u32,
    }
}

impl Raw {
    /// Its layer (placements made, under `pieces` a side) and its board seen from
    /// the player to move, as the toolkit's tables hold it.
    fn placed_and_board(&self, pieces: u32) -> (u32, Board) {
        let placed = 2 * pieces - self.bone_hand - self.seed_hand;
        let (mover, opponent) = if self.bone_to_move {
            (self.bone, self.seed)
        } else {
            (self.seed, self.bone)
        };
        (placed, Board { mover, opponent })
    }
}

/// C(n, k) for `n, k <= 24`.
fn binomial(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i + 1) as u64)
}

/// A memo with one entry per raw placing position (no hashing, no symmetry): per
/// (hands, goti counts) a dense table indexed by the colex rank of Bone's points
/// times the ranks of Seed's among the points Bone leaves empty. Who is to move
/// follows from the hands (Bone places first). Entry 0: not met yet.
struct Memo {
    groups: HashMap<(u32, u32, u32, u32), Vec<u16>>,
    binomial: [[u64; 25]; 25],
}

impl Memo {
    fn new() -> Memo {
        Memo {
            groups: HashMap::new(),
            binomial: std::array::from_fn(|n| {
                std::array::from_fn(|k| binomial(n as u32, k as u32))
            }),
        }
    }

    /// Colex rank of `set` among the subsets of its size of the points `within`.
    fn rank_within(&self, set: u32, within: u32) -> u64 {
        let mut rank = 0;
        for (i, p) in (0..24).filter(|p| set & (1 << p) != 0).enumerate() {
            let below = (within & ((1u32 << p) - 1)).count_ones();
            rank += self.binomial[below as usize][i + 1];
        }
        rank
    }

    fn slot(&mut self, p: &Raw) -> &mut u16 {
        let (b, s) = (p.bone.count_ones(), p.seed.count_ones());
        let size = self.binomial[24][b as usize] * self.binomial[24 - b as usize][s as usize];
        let rank = self.rank_within(p.bone, (1 << 24) - 1)
            * self.binomial[24 - b as usize][s as usize]
            + self.rank_within(p.seed, !p.bone & ((1 << 24) - 1));
        let table = self
            .groups
            .entry((p.bone_hand, p.seed_hand, b, s))
            .or_insert_with(|| vec![0; size as usize]);
        &mut table[rank as usize]
    }

    fn get(&mut self, p: &Raw) -> Option<Value> {
        match *self.slot(p) {
            0 => None,
            1 => Some(Value::Draw),
            x if x % 2 == 0 => Some(Value::Win(x / 2 - 1)),
            x => Some(Value::Loss(x / 2 - 1)),
        }
    }

    fn insert(&mut self, p: &Raw, v: Value) {
        *self.slot(p) = match v {
            Value::Draw => 1,
            Value::Win(d) => 2 * d + 2,
            Value::Loss(d) => 2 * d + 3,
        };
    }

    /// Number of positions met.
    fn len(&self) -> usize {
        self.groups
            .values()
            .map(|t| t.iter().filter(|&&x| x != 0).count())
            .sum()
    }
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
            return (self.moving)(p.bone, p.seed);
        }
        if let Some(v) = self.memo.get(&p) {
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
        self.memo.insert(&p, v);
        if 2 * self.pieces - p.bone_hand - p.seed_hand <= self.record_up_to {
            self.recorded.push(key(&p));
        }
        v
    }
}

/// Where the naive placing search takes the values after the last placement from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Leaves {
    /// The naive moving-phase oracle: the whole game naive.
    Oracle,
    /// The toolkit's moving-phase tables: checks the placing phase alone, where the
    /// naive moving phase is too big for the machine (every raw position of 5v5).
    Toolkit,
}

/// Solves `rules` whole both ways and compares every placing position the naive
/// solver reaches from the empty board with at most `compare_up_to` placements made
/// (all of them when that is `2N`), and the empty board itself; returns (positions
/// compared, positions the naive solver met, the empty board's value).
fn agree(rules: RuleSet, compare_up_to: u32, leaves: Leaves) -> (usize, usize, Value) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let n = rules.pieces as u32;
    let t0 = Instant::now();
    // The toolkit: moving phase, then the placing layers.
    let moving = solve_up_to(&rules, 2 * n, &Quiet, |_, _, _| {});
    let tables = SolvedTable::views(&moving);
    let mut layers = solve_placing(&rules, &tables, &Quiet, |_, _| {}).unwrap();
    layers.truncate(compare_up_to as usize + 1);
    let toolkit_seconds = t0.elapsed().as_secs_f64();
    // The naive solver.
    let t1 = Instant::now();
    let oracle_moving;
    let toolkit_moving;
    let moving_value: &dyn Fn(u32, u32) -> Value = match leaves {
        Leaves::Oracle => {
            drop(tables);
            drop(moving);
            oracle_moving = OracleSolution::solve(rules, n, n);
            &|bone, seed| oracle_moving.value(bone, seed)
        }
        Leaves::Toolkit => {
            let subs: Vec<Subspace> = tables.iter().map(|t| t.subspace).collect();
            toolkit_moving = TableSet::new(&tables, &subs).unwrap();
            &|bone, seed| {
                toolkit_moving
                    .value(Board {
                        mover: bone,
                        opponent: seed,
                    })
                    .expect("a moving-phase position after the last placement")
            }
        }
    };
    let oracle_seconds = t1.elapsed().as_secs_f64();
    let t2 = Instant::now();
    let mut naive = Naive {
        pieces: n,
        lines: Geometry::of(rules.board).lines.clone(),
        moving: moving_value,
        memo: Memo::new(),
        record_up_to: compare_up_to,
        recorded: Vec::new(),
    };
    let start = naive.value(Raw {
        bone: 0,
        seed: 0,
        bone_to_move: true,
        bone_hand: n,
        seed_hand: n,
    });
    let search_seconds = t2.elapsed().as_secs_f64();
    let lookups: Vec<TableSet> = layers
        .iter()
        .map(|l| {
            let t = SolvedTable::views(l.iter().map(|s| (&s.subspace, &s.values)));
            let subs: Vec<Subspace> = l.iter().map(|s| s.subspace).collect();
            TableSet::new(&t, &subs).unwrap()
        })
        .collect();
    let mut wrong = 0;
    for &k in &naive.recorded {
        let raw = unkey(k);
        let expected = naive
            .memo
            .get(&raw)
            .expect("recorded positions were solved");
        let (placed, board) = raw.placed_and_board(naive.pieces);
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
    let met = naive.memo.len();
    eprintln!(
        "{rules}: empty board {start} both ways; {} placing positions agree (of {met} the \
         naive solver met); leaves from {leaves:?}; toolkit {toolkit_seconds:.0} s, \
         naive moving phase {oracle_seconds:.0} s, naive placing search {search_seconds:.0} s",
        naive.recorded.len()
    );
    (naive.recorded.len(), met, start)
}

/// Four a side: every placing position a game reaches (all of them), value and
/// depth, over the naive 4v4 moving phase.
fn four_a_side(name: &str) {
    let rules = RuleSet::parse(&format!("{name},pieces=4")).unwrap();
    let (compared, _, _) = agree(rules, 8, Leaves::Oracle);
    assert!(compared > 1_000_000);
}

#[test]
#[ignore = "minutes of CPU and about 1 GB (naive 4v4 moving phase); run with -- --ignored"]
fn tigadi_4_a_side_agrees_with_naive_solver() {
    four_a_side("tigadi");
}

#[test]
#[ignore = "minutes of CPU and about 1 GB (naive 4v4 moving phase); run with -- --ignored"]
fn navakankari_4_a_side_agrees_with_naive_solver() {
    four_a_side("navakankari");
}

#[test]
#[ignore = "minutes of CPU and about 1 GB (naive 4v4 moving phase); run with -- --ignored"]
fn morris_4_a_side_agrees_with_naive_solver() {
    four_a_side("morris");
}

#[test]
#[ignore = "minutes of CPU and about 1 GB (naive 4v4 moving phase); run with -- --ignored"]
fn morabaraba_4_a_side_agrees_with_naive_solver() {
    four_a_side("morabaraba");
}

/// Five a side (issue 10's test of the whole game): the empty board's value both
/// ways, and every position after at most four placements. The naive solver's
/// moving phase is every raw position up to 5v5 (about a billion, 2 GB): its value
/// iteration took 14 (`morris`) to 45 minutes wall on two cores shared with other
/// work, each whole test 26 to 62 minutes and 3 GB, so the `Leaves::Oracle` tests
/// are `#[ignore]`d; the `Leaves::Toolkit` ones check the placing phase alone in
/// about 20 minutes (naive search over raw positions, the toolkit's moving phase
/// as leaves).
fn five_a_side(name: &str, leaves: Leaves) {
    let rules = RuleSet::parse(&format!("{name},pieces=5")).unwrap();
    let (compared, met, _) = agree(rules, 4, leaves);
    // No capture is possible in the first four placements (a mill needs a third
    // goti of one colour), so every placement of k is one of the boards with
    // ceil(k/2) Bone and floor(k/2) Seed gotis: all of them are compared.
    let choose = |n: u64, k: u64| (0..k).fold(1u64, |c, i| c * (n - i) / (i + 1));
    let boards: u64 = (0..=4u64)
        .map(|k| choose(24, k.div_ceil(2)) * choose(24 - k.div_ceil(2), k / 2))
        .sum();
    assert_eq!(compared as u64, boards);
    assert!(met > 100_000_000, "{met}");
}

#[test]
#[ignore = "up to an hour of CPU and 3 GB (naive 5v5 moving phase); run with -- --ignored"]
fn tigadi_5_a_side_empty_board_agrees_with_naive_solver() {
    five_a_side("tigadi", Leaves::Oracle);
}

#[test]
#[ignore = "up to an hour of CPU and 3 GB (naive 5v5 moving phase); run with -- --ignored"]
fn navakankari_5_a_side_empty_board_agrees_with_naive_solver() {
    five_a_side("navakankari", Leaves::Oracle);
}

#[test]
#[ignore = "up to an hour of CPU and 3 GB (naive 5v5 moving phase); run with -- --ignored"]
fn morris_5_a_side_empty_board_agrees_with_naive_solver() {
    five_a_side("morris", Leaves::Oracle);
}

#[test]
#[ignore = "up to an hour of CPU and 3 GB (naive 5v5 moving phase); run with -- --ignored"]
fn morabaraba_5_a_side_empty_board_agrees_with_naive_solver() {
    five_a_side("morabaraba", Leaves::Oracle);
}

#[test]
#[ignore = "many minutes of CPU and about 1 GB (naive placing search); run with -- --ignored"]
fn tigadi_5_a_side_placing_agrees_with_naive_search() {
    five_a_side("tigadi", Leaves::Toolkit);
}

#[test]
#[ignore = "many minutes of CPU and about 1 GB (naive placing search); run with -- --ignored"]
fn navakankari_5_a_side_placing_agrees_with_naive_search() {
    five_a_side("navakankari", Leaves::Toolkit);
}

#[test]
#[ignore = "many minutes of CPU and about 1 GB (naive placing search); run with -- --ignored"]
fn morris_5_a_side_placing_agrees_with_naive_search() {
    five_a_side("morris", Leaves::Toolkit);
}

/// The whole game under the 100-turn rule (docs/RULES.md §6, §7) both ways: the
/// naive placing search run twice, once over the naive moving-phase oracle's
/// game-theoretic values and once over the naive 100-turn oracle's values at
/// counter 0 (`tests/oracle/horizon.rs`: raw (position, counter) states; no counter
/// runs while placing, so every moving phase starts at 0), against the toolkit's
/// placing layers solved over its game-theoretic and its horizon (DTC₁₀₀) tables.
/// Every placing position a game reaches is compared: its game-theoretic value
/// (with depth), and its class (win, cursed win, draw, blessed loss, loss) from
/// the two win/draw/loss values. The naive oracle has no DTC₁₀₀, so the depth
/// under the rule is not compared here (`verify` recomputes it; the moving
/// phase's is checked at every counter by `horizon_agreement`). Returns how many
/// positions fell in each class (`Category::code` order).
fn agree_under_rule(rules: RuleSet) -> [usize; 5] {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let n = rules.pieces as u32;
    // The toolkit: both moving phases, and the placing layers over each.
    let game_layers;
    let rule_layers;
    {
        let moving = solve_up_to(&rules, 2 * n, &Quiet, |_, _, _| {});
        let horizon = solve_up_to_horizon(&rules, 2 * n, &Quiet, |_, _, _| {});
        let place = |t: &HashMap<Subspace, Vec<Packed>>| {
            solve_placing(&rules, &SolvedTable::views(t), &Quiet, |_, _| {}).unwrap()
        };
        game_layers = place(&moving);
        rule_layers = place(&horizon);
    }
    let lookups =
        |layers: &[Vec<tigadi_solve::SolvedSubspace>]| -> Vec<Vec<(Subspace, Vec<Packed>)>> {
            layers
                .iter()
                .map(|l| l.iter().map(|s| (s.subspace, s.values.clone())).collect())
                .collect()
        };
    let (game_tables, rule_tables) = (lookups(&game_layers), lookups(&rule_layers));
    drop((game_layers, rule_layers));
    let value_in = |tables: &[Vec<(Subspace, Vec<Packed>)>], placed: u32, board: Board| {
        let t: Vec<SolvedTable> =
            SolvedTable::views(tables[placed as usize].iter().map(|(s, v)| (s, v)));
        let subs: Vec<Subspace> = t.iter().map(|t| t.subspace).collect();
        TableSet::new(&t, &subs).unwrap().value(board)
    };
    // The naive solver, both ways.
    let game_oracle = OracleSolution::solve(rules, n, n);
    let rule_oracle = HorizonOracle::solve(rules, n, n);
    let naive = |moving: &dyn Fn(u32, u32) -> Value| {
        let mut naive = Naive {
            pieces: n,
            lines: Geometry::of(rules.board).lines.clone(),
            moving,
            memo: Memo::new(),
            record_up_to: 2 * n,
            recorded: Vec::new(),
        };
        naive.value(Raw {
            bone: 0,
            seed: 0,
            bone_to_move: true,
            bone_hand: n,
            seed_hand: n,
        });
        (naive.memo, naive.recorded)
    };
    let (mut game_memo, recorded) = naive(&|bone, seed| game_oracle.value(bone, seed));
    // The 100-turn oracle has win/draw/loss only: a stand-in depth of 1 leaves the
    // naive search's win/draw/loss as it is.
    let (mut rule_memo, rule_recorded) =
        naive(&|bone, seed| match rule_oracle.value(bone, seed, 0) {
            WIN => Value::Win(1),
            DRAW => Value::Draw,
            LOSS => Value::Loss(1),
            c => panic!("oracle code {c}"),
        });
    assert_eq!(
        recorded.len(),
        rule_recorded.len(),
        "{rules}: both searches meet every position"
    );
    let mut classes = [0usize; 5];
    let mut wrong = 0;
    for &k in &recorded {
        let raw = unkey(k);
        let (placed, board) = raw.placed_and_board(n);
        let game = game_memo.get(&raw).expect("recorded positions were solved");
        let rule = rule_memo
            .get(&raw)
            .expect("both searches meet every position");
        let expected = Category::of(game.wdl(), rule.wdl()).unwrap_or_else(|| {
            panic!("{rules} {board:?}: naive {rule:?} under the rule, {game:?} ignoring it")
        });
        classes[expected.code() as usize] += 1;
        let got_game = value_in(&game_tables, placed, board);
        let got_rule = value_in(&rule_tables, placed, board);
        let got = got_game
            .zip(got_rule)
            .and_then(|(g, r)| Category::of(g.wdl(), r.wdl()));
        if got_game != Some(game) || got != Some(expected) {
            wrong += 1;
            if wrong <= 10 {
                eprintln!(
                    "{rules} layer {placed} {board:?}: toolkit {got_game:?} / {got_rule:?} ({got:?}), \
                     naive {game:?} ({expected:?})"
                );
            }
        }
    }
    assert_eq!(
        wrong, 0,
        "{rules}: toolkit and naive solver disagree under the rule"
    );
    eprintln!(
        "{rules}: {} placing positions agree; classes {classes:?}",
        recorded.len()
    );
    classes
}

/// Three a side (any capture while placing wins at once; the whole game is tiny):
/// every placing position's game-theoretic value and, under short turn limits, its
/// class, both ways. The limits are chosen so that classes beyond win/draw/loss
/// occur (asserted, so the test cannot pass by comparing game-theoretic values
/// alone).
#[test]
fn three_a_side_agrees_with_naive_solver() {
    let mut cursed_or_blessed = 0;
    for name in [
        "tigadi,quiet=4",
        "navakankari,quiet=6",
        "morris,quiet=4",
        "morabaraba,quiet=4",
    ] {
        let classes = agree_under_rule(RuleSet::parse(&format!("{name},pieces=3")).unwrap());
        cursed_or_blessed += classes[Category::CursedWin.code() as usize]
            + classes[Category::BlessedLoss.code() as usize];
    }
    assert!(
        cursed_or_blessed > 0,
        "no placing position is a cursed win or blessed loss"
    );
}

#[test]
#[ignore = "half an hour of CPU and 1.3 GB (naive 4v4 moving phase at 11 counters); run with -- --ignored"]
fn tigadi_4_a_side_classes_agree_with_naive_solver() {
    let classes = agree_under_rule(RuleSet::parse("tigadi,pieces=4,quiet=10").unwrap());
    assert!(
        classes[Category::CursedWin.code() as usize]
            + classes[Category::BlessedLoss.code() as usize]
            > 0
    );
}

/// The memo's ranking numbers the raw positions of a group 0, 1, 2, ... without
/// gaps or collisions.
#[test]
fn memo_ranks_are_a_bijection() {
    let memo = Memo::new();
    for (b, s) in [(2, 2), (3, 1), (0, 3), (1, 0)] {
        fn sets(k: u32, within: u32) -> Vec<u32> {
            if k == 0 {
                return vec![0];
            }
            let mut out = Vec::new();
            for p in (0..24).filter(|p| within & (1 << p) != 0) {
                let above = within & !((2u32 << p) - 1);
                out.extend(sets(k - 1, above).into_iter().map(|x| x | 1 << p));
            }
            out
        }
        let size = binomial(24, b) * binomial(24 - b, s);
        let mut seen = vec![false; size as usize];
        for bone in sets(b, (1 << 24) - 1) {
            let free = !bone & ((1 << 24) - 1);
            for seed in sets(s, free) {
                let r = memo.rank_within(bone, (1 << 24) - 1) * binomial(24 - b, s)
                    + memo.rank_within(seed, free);
                assert!(
                    !std::mem::replace(&mut seen[r as usize], true),
                    "{b}v{s} {r}"
                );
            }
        }
        assert!(seen.iter().all(|&x| x), "{b}v{s}");
    }
}

/// The middle square's points (bits 8..16): every symmetry keeps them there.
const MIDDLE_RING: u32 = 0xFF << 8;

/// Made-up moving-phase values for the twelve-a-side tests below, the same on
/// every symmetric image of a board (as the index needs): from the lines each side
/// holds whole or two of, and the mover's middle-square gotis.
fn made_up(lines: &[u32], b: Board) -> Value {
    let count = |f: &dyn Fn(u32) -> bool| lines.iter().filter(|&&l| f(l)).count() as u32;
    let whole = count(&|l| b.mover & l == l);
    let two = count(&|l| (b.mover & l).count_ones() == 2);
    let theirs = count(&|l| (b.opponent & l).count_ones() >= 2);
    let middle = (b.mover & MIDDLE_RING).count_ones();
    let h = whole * 7 + two * 3 + theirs * 5 + middle * 11;
    match h % 5 {
        0 => Value::Draw,
        1 | 2 => Value::Win(1 + (h % 17) as u16),
        _ => Value::Loss((h % 13) as u16),
    }
}

#[test]
fn made_up_values_ignore_symmetries() {
    let lines = Geometry::of(RuleSet::MORABARABA.board).lines.clone();
    let mut rng = tigadi_rules::Rng::seeded(29);
    for _ in 0..2000 {
        let mut b = Board::default();
        let (m, o) = (3 + rng.below(10) as u32, 3 + rng.below(10) as u32);
        while b.mover.count_ones() < m {
            b.mover |= 1 << rng.below(24);
        }
        while b.opponent.count_ones() < o {
            b.opponent |= (1 << rng.below(24)) & !b.mover;
        }
        for s in 0..SYMMETRIES {
            let image = Board {
                mover: transform(s, b.mover),
                opponent: transform(s, b.opponent),
            };
            assert_eq!(
                made_up(&lines, image),
                made_up(&lines, b),
                "{b:?} symmetry {s}"
            );
        }
    }
}

/// Twelve a side (`morabaraba`, issue 29): the last placement of a game without
/// captures fills the board, a draw by docs/RULES.md §8 (Malom's
/// `FULL_BOARD_IS_DRAW 1`) whatever the blocked switch says, unless it closes a
/// tigadi and captures. A whole 12-a-side game is far too big for a test, so the
/// moving-phase values after the last placement are [`made_up`]: the toolkit's
/// pass reads them from a table through its index, the naive solver above calls
/// the function on the raw board. Every position of layer 23 with 23 gotis on the
/// board (Seed to place its last goti on the one empty point) is compared, and
/// one in 64 with `evaluate_placing` too (what `verify` recomputes).
#[test]
fn twelve_a_side_last_placement_agrees_with_naive_solver() {
    let rules = RuleSet::MORABARABA;
    let lines = Geometry::of(rules.board).lines.clone();
    let last = tigadi_values::placing_turns(&rules) - 1;
    let sub = Subspace::new(11, 12);
    assert!(tigadi_values::tiers_after(&rules, last)
        .into_iter()
        .map(|t| t.subspace)
        .collect::<Vec<_>>()
        .contains(&sub));
    let next: Vec<(Subspace, Vec<Packed>)> = successor_subspaces(
        &rules,
        tigadi_values::Tier::after_placements(&rules, last, sub),
    )
    .into_iter()
    .map(|s| {
        let idx = SubspaceIndex::new(s);
        let values = (0..idx.slots())
            .map(|i| {
                idx.board(i)
                    .map_or(Packed::NONE, |b| Packed::new(made_up(&lines, b)))
            })
            .collect();
        (s, values)
    })
    .collect();
    let tables = SolvedTable::views(next.iter().map(|(s, v)| (s, v)));
    let solved = tigadi_solve::solve_tier(
        &rules,
        tigadi_values::Tier::after_placements(&rules, last, sub),
        &tables,
        &Quiet,
    )
    .unwrap();
    let leaves = |bone: u32, seed: u32| {
        made_up(
            &lines,
            Board {
                mover: bone,
                opponent: seed,
            },
        )
    };
    let mut naive = Naive {
        pieces: 12,
        lines: lines.clone(),
        moving: &leaves,
        memo: Memo::new(),
        record_up_to: 0,
        recorded: Vec::new(),
    };
    let idx = SubspaceIndex::new(sub);
    let (mut positions, mut filled) = (0u64, 0u64);
    for slot in 0..idx.slots() {
        let Some(b) = idx.board(slot) else { continue };
        positions += 1;
        let expected = naive.value(Raw {
            bone: b.opponent,
            seed: b.mover,
            bone_to_move: false,
            bone_hand: 0,
            seed_hand: 1,
        });
        assert_eq!(
            solved.values[slot as usize].get(),
            Some(expected),
            "slot {slot} {b:?}"
        );
        if slot % 64 == 0 {
            let slow = evaluate_placing(
                &rules,
                tigadi_values::Hands::after_placements(&rules, last),
                b,
                |n| made_up(&lines, n),
            );
            assert_eq!(slow, expected, "evaluate_placing, slot {slot} {b:?}");
        }
        // The one placement closes no line: it fills the board.
        let empty = !(b.mover | b.opponent) & ((1 << 24) - 1);
        if !lines
            .iter()
            .any(|&l| l & empty != 0 && (b.mover | empty) & l == l)
        {
            filled += 1;
            assert_eq!(expected, Value::Draw, "slot {slot} {b:?}");
        }
    }
    // Both kinds of last placement occur, many of each.
    assert!(positions > 2_000_000, "{positions}");
    assert!(
        filled > 100_000 && positions - filled > 100_000,
        "{filled} of {positions}"
    );
}

/// The plan of a 12-a-side game: the last layer reads every moving-phase subspace
/// but the full board, and the moving phase solves exactly those.
#[test]
fn twelve_a_side_plan_leaves_out_only_the_full_board() {
    let rules = RuleSet::MORABARABA;
    let leaves = tigadi_values::tiers_with_hands(&rules, tigadi_values::Hands::EMPTY)
        .into_iter()
        .map(|t| t.subspace)
        .collect::<Vec<_>>();
    let moving: Vec<Subspace> = pairs_up_to_pieces(rules.pieces, 24)
        .iter()
        .flat_map(|p| p.subspaces())
        .collect();
    assert_eq!(tigadi_values::placing_turns(&rules), 24);
    assert_eq!(leaves.len(), 99);
    assert_eq!(moving.len(), 99);
    assert!(leaves.iter().all(|s| moving.contains(s)));
    assert!(!leaves.contains(&Subspace::new(12, 12)));
}
