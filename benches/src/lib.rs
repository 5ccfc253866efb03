//! Shared inputs for the benchmarks.

use tigadi_index::Subspace;
use tigadi_rules::geometry::{Bits, POINTS};
use tigadi_rules::Board;

/// A small seeded xorshift generator, so every run measures the same inputs.
pub struct Rng(u64);

impl Rng {
    /// A generator from a nonzero seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A uniformly random set of `k` points avoiding `taken`.
    pub fn set(&mut self, k: u8, taken: Bits) -> Bits {
        let mut set: Bits = 0;
        while set.count_ones() < k as u32 {
            let p = (self.next_u64() % POINTS as u64) as u32;
            if (set | taken) & (1 << p) == 0 {
                set |= 1 << p;
            }
        }
        set
    }
}

/// `n` uniformly random boards of `sub` (raw boards, any symmetric image), from
/// `seed`.
pub fn random_boards(sub: Subspace, n: usize, seed: u64) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let mover = rng.set(sub.mover, 0);
            Board {
                mover,
                opponent: rng.set(sub.opponent, mover),
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
