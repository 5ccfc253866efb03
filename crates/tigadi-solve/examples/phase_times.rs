//! Where a solve's time goes: solves every pair up to N gotis in memory and prints,
//! per pair, the CPU seconds (user + system, all threads: stable on a busy machine,
//! unlike wall time) of its initial pass, its backward and its forward rounds, and
//! the wall time, and the random words of memory each touched (the initial pass's
//! capture-target reads, the backward rounds' predecessor updates, the forward
//! rounds' successor reads: [`Observer::touched`]), with their totals at the end,
//! for the model of the solver's memory floor (`benches/benches/updates.rs`).
//!
//! `cargo run --release -p tigadi-solve --example phase_times -- N [THREADS] [RULES]`

use std::sync::Mutex;
use std::time::Instant;
use tigadi_rules::RuleSet;
use tigadi_solve::{solve_up_to, Observer};

/// CPU seconds used by this process so far.
pub fn cpu_seconds() -> f64 {
    // SAFETY: getrusage writes into the struct we pass.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 * 1e-6;
    t(u.ru_utime) + t(u.ru_stime)
}

/// The arguments `DIR LAYER SUBSPACE [RULES]` of the placing examples (in
/// tigadi-jobs): a tablebase directory, the placements made (`17`), a subspace
/// (`4v8`) and a rule set (Tigadi's when left out).
pub fn placing_args() -> (std::path::PathBuf, u32, tigadi_index::Subspace, RuleSet) {
    let args: Vec<String> = std::env::args().collect();
    let dir = std::path::PathBuf::from(&args[1]);
    let placed: u32 = args[2].parse().expect("a layer such as 17");
    let (m, o) = args[3].split_once('v').expect("a subspace such as 4v8");
    let sub = tigadi_index::Subspace::new(m.parse().unwrap(), o.parse().unwrap());
    let rules = args
        .get(4)
        .map_or(RuleSet::TIGADI, |r| RuleSet::parse(r).unwrap());
    (dir, placed, sub, rules)
}

#[derive(Default)]
struct Split {
    /// CPU seconds at the start of the current phase.
    mark: f64,
    /// A Lasker step's placements' pass (0 elsewhere), and whether it runs.
    placements: f64,
    placing: bool,
    init: f64,
    backward: (u32, f64),
    forward: (u32, f64),
    /// Words touched: by the initial pass (once it is over), and by the round
    /// running now (reported just before it ends).
    init_words: Option<u64>,
    round_words: u64,
    /// Words touched by the backward and by the forward rounds.
    words: (u64, u64),
}

/// An observer that splits a pair's CPU time into its initial pass and rounds.
#[derive(Default)]
pub struct Timer(Mutex<Split>);

impl Timer {
    /// The split of the pair solved since the last call, as text, and the words
    /// its initial pass, backward and forward rounds touched; starts afresh.
    pub fn take(&self) -> (String, [u64; 3]) {
        let s = std::mem::take(&mut *self.0.lock().unwrap());
        let words = [s.init_words.unwrap_or(0), s.words.0, s.words.1];
        let text = format!(
            "placements {:.2}, init {:.2} ({} reads), {} backward rounds {:.2} ({} updates), {} forward rounds {:.2} ({} reads)",
            s.placements, s.init, words[0], s.backward.0, s.backward.1, words[1], s.forward.0, s.forward.1, words[2]
        );
        (text, words)
    }
}

impl Observer for Timer {
    fn phase(&self, name: &str, _work: u64) {
        let mut s = self.0.lock().unwrap();
        let now = cpu_seconds();
        if name == "placements" {
            // A Lasker step's placements' pass (one per kind solved), before
            // its initial pass.
            if s.placing {
                s.placements += now - s.mark;
            }
            s.placing = true;
            s.mark = now;
        } else if name == "init" {
            if std::mem::take(&mut s.placing) {
                s.placements += now - s.mark;
            }
            s.mark = now;
        } else if s.backward.0 + s.forward.0 == 0 && s.init == 0.0 {
            // The first round begins: the initial pass is over.
            s.init = now - s.mark;
            s.mark = now;
        }
    }
    fn round_done(&self, _k: u16, forward: bool, _decided: u64) {
        let mut guard = self.0.lock().unwrap();
        let s = &mut *guard;
        let now = cpu_seconds();
        let spent = now - s.mark;
        let words = std::mem::take(&mut s.round_words);
        let (r, w) = if forward {
            (&mut s.forward, &mut s.words.1)
        } else {
            (&mut s.backward, &mut s.words.0)
        };
        r.0 += 1;
        r.1 += spent;
        *w += words;
        s.mark = now;
    }
    fn touched(&self, words: u64) {
        let mut s = self.0.lock().unwrap();
        if s.init_words.is_none() {
            s.init_words = Some(words);
        } else {
            s.round_words = words;
        }
    }
}

/// An observer that prints each round of a pair as it ends: its direction,
/// the positions it decided and its CPU seconds (the initial pass's first).
#[derive(Default)]
pub struct RoundPrinter(Mutex<f64>);

impl Observer for RoundPrinter {
    fn phase(&self, name: &str, _work: u64) {
        let mut mark = self.0.lock().unwrap();
        let now = cpu_seconds();
        if name == "round 1" {
            println!("  init: cpu {:.2} s", now - *mark);
        }
        if name == "init" || name == "round 1" {
            *mark = now;
        }
    }
    fn round_done(&self, k: u16, forward: bool, decided: u64) {
        let mut mark = self.0.lock().unwrap();
        let now = cpu_seconds();
        let direction = if forward { "forward" } else { "backward" };
        println!(
            "  round {k} {direction}: {decided} decided, cpu {:.2} s",
            now - *mark
        );
        *mark = now;
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let max: u32 = args.get(1).map_or(8, |a| a.parse().unwrap());
    let threads: usize = args.get(2).map_or(0, |a| a.parse().unwrap());
    let rules = args
        .get(3)
        .map_or(RuleSet::TIGADI, |r| RuleSet::parse(r).unwrap());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let timer = Timer::default();
    let started = (Instant::now(), cpu_seconds());
    let mut pair_cpu = cpu_seconds();
    let mut words = [0u64; 3];
    pool.install(|| {
        solve_up_to(&rules, max, &timer, |pair, solved, seconds| {
            let now = cpu_seconds();
            let slots: usize = solved.iter().map(|s| s.values.len()).sum();
            let (split, touched) = timer.take();
            for (total, w) in words.iter_mut().zip(touched) {
                *total += w;
            }
            println!(
                "{pair}: {slots} slots, wall {seconds:.2} s, cpu {:.2} s: {split}",
                now - pair_cpu,
            );
            pair_cpu = now;
        })
    });
    println!(
        "total: wall {:.2} s, cpu {:.2} s; words touched: {} initial-pass reads, {} backward updates, {} forward reads",
        started.0.elapsed().as_secs_f64(),
        cpu_seconds() - started.1,
        words[0],
        words[1],
        words[2]
    );
}
