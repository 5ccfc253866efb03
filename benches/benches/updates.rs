//! The memory floor of the solver (issue 31): what one random update of a slot
//! word costs, at the solver's access pattern, on this machine.
//!
//! The retrograde solver's rounds and its initial pass touch one random 4-byte
//! word of a multi-gigabyte array per predecessor (backward rounds: read, then an
//! atomic read-modify-write), per successor (forward rounds: a read) or per
//! capture (the initial pass: a 2-byte read of a target table). They come in
//! groups of about 20 (one position's neighbours), and the solver prefetches the
//! words of one group while it works on the group before. This measures that
//! pattern with no other work: random slots from a multiply-shift hash, groups of
//! `GROUP` words, each group prefetched `ahead` groups before it is used, on one
//! and on two threads, for
//!
//! - `update`: load the word, and if it is still "undecided" (always, here) an
//!   atomic `fetch_sub` (a backward round's update);
//! - `plain`: load and store without a locked instruction (what an update would
//!   cost if no other thread could touch the word);
//! - `read`: a load (a forward round's or the initial pass's look-up).
//!
//! The result is nanoseconds per word, per thread and for the process (the
//! floor is the second: both cores busy). Multiplied by the number of updates a
//! run makes it gives the time a run cannot go below with this memory system
//! (the count of a whole run is not made yet: issue 31).
//!
//! `cargo bench -p tigadi-benches --bench updates -- [MIB] [MILLIONS]`: array
//! size in MiB (default 2048, about the largest pairs' half) and millions of
//! words touched per measurement (default 40).

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::time::Instant;

/// Words per group: about the quiet predecessors (or successors) of one position.
const GROUP: usize = 20;

/// A slot in `0..n` from counter `i`: a multiply-shift hash, cheap enough not to
/// be measured.
#[inline(always)]
fn slot(i: u64, n: u64) -> usize {
    let h = (i ^ 0x9E37_79B9_7F4A_7C15).wrapping_mul(0xD1B5_4A32_D192_ED03);
    let h = (h ^ (h >> 29)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (((h ^ (h >> 32)) as u128 * n as u128) >> 64) as usize
}

#[inline(always)]
fn prefetch(x: &AtomicU32) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint; any address is allowed.
    unsafe {
        std::arch::x86_64::_mm_prefetch(
            x as *const AtomicU32 as *const i8,
            std::arch::x86_64::_MM_HINT_T0,
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Update,
    Plain,
    Read,
}

/// Runs `f` and returns its result and the thread's CPU nanoseconds for it (wall
/// nanoseconds where the system does not report CPU time).
fn timed<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let (cpu, wall) = (tigadi_benches::thread_cpu_ns(), Instant::now());
    let out = std::hint::black_box(f());
    let ns = match (cpu, tigadi_benches::thread_cpu_ns()) {
        (Some(a), Some(b)) => b - a,
        _ => wall.elapsed().as_nanos() as u64,
    };
    (out, ns)
}

/// Touches `groups` groups of words of `words` from thread `t`, each group
/// prefetched `ahead` groups early; returns a checksum.
fn run(words: &[AtomicU32], kind: Kind, ahead: usize, groups: u64, t: u64) -> u64 {
    let n = words.len() as u64;
    let base = t << 40;
    let mut sum = 0u64;
    let at = |g: u64, k: usize| slot(base + g * GROUP as u64 + k as u64, n);
    for g in 0..groups {
        if ahead > 0 {
            for k in 0..GROUP {
                prefetch(&words[at(g + ahead as u64, k)]);
            }
        }
        for k in 0..GROUP {
            let w = &words[at(g, k)];
            let v = w.load(Relaxed);
            match kind {
                Kind::Read => sum = sum.wrapping_add(v as u64),
                Kind::Plain => {
                    if v & 0xFFFF == 0xFFFF {
                        w.store(v.wrapping_sub(1 << 16), Relaxed);
                    }
                }
                Kind::Update => {
                    if v & 0xFFFF == 0xFFFF {
                        let old = w.fetch_sub(1 << 16, Relaxed);
                        sum = sum.wrapping_add(old as u64 >> 16 & 1);
                    }
                }
            }
        }
    }
    sum
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let mib: usize = args.first().map_or(2048, |a| a.parse().expect("MiB"));
    let millions: u64 = args.get(1).map_or(40, |a| a.parse().expect("millions"));
    let n = mib << 18;
    let mut raw = vec![0u32; 0];
    raw.reserve_exact(n);
    #[cfg(target_os = "linux")]
    // SAFETY: advice on memory we own, before it is first touched.
    unsafe {
        let huge = 2usize << 20;
        let p = raw.as_mut_ptr() as usize;
        let start = p.div_ceil(huge) * huge;
        let end = (p + n * 4) / huge * huge;
        if end > start {
            libc_madvise(start, end - start);
        }
    }
    raw.resize(n, 0xFF_FFFF);
    // SAFETY: AtomicU32 has the layout of u32, and `raw` is not used otherwise.
    let words: &[AtomicU32] = unsafe { &*(raw.as_mut_slice() as *mut [u32] as *const [AtomicU32]) };
    let groups = millions * 1_000_000 / GROUP as u64;
    println!(
        "{mib} MiB of words, {} M words per measurement, groups of {GROUP}; ns per word",
        millions
    );
    println!("CPU ns per word on one thread, on each of two threads, and per word for the");
    println!("process with both (the floor); last, wall ns per word with two threads");
    println!("kind    ahead      1 thread      2 threads          floor        wall");
    for kind in [Kind::Update, Kind::Plain, Kind::Read] {
        for ahead in [0usize, 1, 2, 4] {
            let per_word = |ns: u64| ns as f64 / (groups * GROUP as u64) as f64;
            let one = per_word(timed(|| run(words, kind, ahead, groups, 1)).1);
            let (two_wall, two) = std::thread::scope(|s| {
                let start = Instant::now();
                let a = s.spawn(|| timed(|| run(words, kind, ahead, groups, 2)));
                let b = s.spawn(|| timed(|| run(words, kind, ahead, groups, 3)));
                let (a, b) = (a.join().unwrap(), b.join().unwrap());
                (start.elapsed(), per_word(a.1.max(b.1)))
            });
            let two_wall = per_word(two_wall.as_nanos() as u64);
            let name = match kind {
                Kind::Update => "update",
                Kind::Plain => "plain",
                Kind::Read => "read",
            };
            println!(
                "{name:<7} {ahead:>5}  {one:>12.2}  {two:>13.2}  {:>13.2}  {two_wall:>10.2}",
                two / 2.0
            );
        }
    }
}

#[cfg(target_os = "linux")]
unsafe fn libc_madvise(start: usize, len: usize) {
    extern "C" {
        fn madvise(addr: *mut u8, len: usize, advice: i32) -> i32;
    }
    const MADV_HUGEPAGE: i32 = 14;
    madvise(start as *mut u8, len, MADV_HUGEPAGE);
}
