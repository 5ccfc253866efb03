//! Shared inputs for the benchmarks: fixed, seeded sets of positions and boards,
//! so that every run measures the same work.

use tigadi_index::Subspace;
use tigadi_rules::{Board, Position, Rng, RuleSet, Side, POINTS};

/// `count` moving-phase positions with `bone` Bone and `seed` Seed gotis on random
/// points, the player to move random, drawn from `rng_seed`. Not every one is
/// reachable in play, but each is a valid position string.
pub fn random_moving_positions(rng_seed: u64, count: usize, bone: u32, seed: u32) -> Vec<Position> {
    let mut r = Rng::seeded(rng_seed);
    (0..count)
        .map(|_| {
            let mut p = Position {
                bone_hand: 0,
                seed_hand: 0,
                ..Position::start(&tigadi_rules::RuleSet::TIGADI)
            };
            p.side = if r.below(2) == 0 {
                Side::Bone
            } else {
                Side::Seed
            };
            while p.bone.count_ones() < bone {
                p.bone |= 1 << r.below(POINTS);
            }
            while p.seed.count_ones() < seed {
                p.seed |= (1 << r.below(POINTS)) & !p.bone;
            }
            p
        })
        .collect()
}

/// `count` placing-phase positions reached by random legal play from the empty board
/// under `rules` (0 to 17 placements), drawn from `rng_seed`.
pub fn random_placing_positions(rng_seed: u64, count: usize, rules: &RuleSet) -> Vec<Position> {
    let mut r = Rng::seeded(rng_seed);
    (0..count)
        .map(|_| {
            let plies = r.below(18);
            let mut p = Position::start(&tigadi_rules::RuleSet::TIGADI);
            for _ in 0..plies {
                let moves = p.legal_moves(rules);
                if moves.is_empty() {
                    break;
                }
                p = p.apply(moves[r.below(moves.len())]);
            }
            p
        })
        .collect()
}

/// `n` uniformly random boards of `sub` (raw boards, any symmetric image), from
/// `seed`.
pub fn random_boards(sub: Subspace, n: usize, seed: u64) -> Vec<Board> {
    let mut rng = Rng::seeded(seed);
    (0..n)
        .map(|_| {
            let mover = rng.points(sub.mover, 0);
            Board {
                mover,
                opponent: rng.points(sub.opponent, mover),
            }
        })
        .collect()
}

/// Nanoseconds this thread has run on a CPU (Linux `schedstat`), or `None` where that
/// is not available. Benchmarks on a shared machine time with this, so that time
/// spent waiting for a core does not count.
pub fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Runs `f` `iters` times and returns the thread's CPU time for it (wall time where
/// CPU time is not available): for criterion's `iter_custom`.
pub fn cpu_time<O>(iters: u64, mut f: impl FnMut() -> O) -> std::time::Duration {
    let start_cpu = thread_cpu_ns();
    let start_wall = std::time::Instant::now();
    for _ in 0..iters {
        std::hint::black_box(f());
    }
    match (start_cpu, thread_cpu_ns()) {
        (Some(a), Some(b)) => std::time::Duration::from_nanos(b - a),
        _ => start_wall.elapsed(),
    }
}
