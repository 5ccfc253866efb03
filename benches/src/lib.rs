//! Shared inputs for the benchmarks: fixed, seeded sets of positions, so that every
//! run measures the same work.

use tigadi_rules::{Position, RuleSet, Side, POINTS};

/// A small deterministic generator (xorshift64), so the inputs never change.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value; 0 is mapped to a nonzero state).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// `count` moving-phase positions with `bone` Bone and `seed` Seed gotis on random
/// points, the player to move random, drawn from `rng_seed`. Not every one is
/// reachable in play, but each is a valid position string.
pub fn random_moving_positions(rng_seed: u64, count: usize, bone: u32, seed: u32) -> Vec<Position> {
    let mut r = Rng::new(rng_seed);
    (0..count)
        .map(|_| {
            let mut p = Position {
                bone_hand: 0,
                seed_hand: 0,
                ..Position::START
            };
            p.side = if r.below(2) == 0 {
                Side::Bone
            } else {
                Side::Seed
            };
            while p.bone.count_ones() < bone {
                p.bone |= 1 << r.below(POINTS as u64);
            }
            while p.seed.count_ones() < seed {
                p.seed |= (1 << r.below(POINTS as u64)) & !p.bone;
            }
            p
        })
        .collect()
}

/// `count` placing-phase positions reached by random legal play from the empty board
/// under `rules` (0 to 17 placements), drawn from `rng_seed`.
pub fn random_placing_positions(rng_seed: u64, count: usize, rules: &RuleSet) -> Vec<Position> {
    let mut r = Rng::new(rng_seed);
    (0..count)
        .map(|_| {
            let plies = r.below(18);
            let mut p = Position::START;
            for _ in 0..plies {
                let moves = p.legal_moves(rules);
                if moves.is_empty() {
                    break;
                }
                p = p.apply(moves[r.below(moves.len() as u64) as usize]);
            }
            p
        })
        .collect()
}
