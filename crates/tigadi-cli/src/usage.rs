//! This process's CPU time and peak resident memory, for the per-pair lines of
//! `solve` (the per-pair figures of docs/PERFORMANCE.md) and the closing line
//! of `solve` and `verify` (the whole run's). Peak memory is Linux only
//! (`VmHWM`, reset per pair through `/proc/self/clear_refs`); elsewhere it is
//! not shown.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The largest peak before the last [`reset_peak`]: with the peak since,
/// the whole run's ([`run_peak_bytes`]).
static EARLIER_PEAK: AtomicU64 = AtomicU64::new(0);

/// CPU seconds (user + system, all threads) this process has used so far.
pub fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } != 0 {
        return 0.0;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(u.ru_utime) + secs(u.ru_stime)
}

/// Starts a new peak: from now on [`peak_bytes`] reports the most memory resident
/// since this call (the kernel's "reset peak RSS", `5` to `clear_refs`).
pub fn reset_peak() {
    if let Some(b) = peak_bytes() {
        EARLIER_PEAK.fetch_max(b, Relaxed);
    }
    // Not possible (not Linux, or an old kernel): the peak then covers the whole run.
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The most memory resident since the last [`reset_peak`] (or since the start),
/// in bytes; `None` where the system does not say.
pub fn peak_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The most memory resident at any time of this run, resets by
/// [`reset_peak`] included; `None` where the system does not say.
pub fn run_peak_bytes() -> Option<u64> {
    peak_bytes().map(|b| b.max(EARLIER_PEAK.load(Relaxed)))
}

/// `done in S s (C CPU s, peak M GB)`: the closing line of a run that began
/// at `started`, its CPU time that of the whole process (every thread).
pub fn run_summary(started: std::time::Instant) -> String {
    let (wall, cpu) = (started.elapsed().as_secs_f64(), cpu_seconds());
    match run_peak_bytes() {
        Some(b) => format!(
            "done in {wall:.1} s ({cpu:.1} CPU s, peak {:.2} GB)",
            b as f64 / 1e9
        ),
        None => format!("done in {wall:.1} s ({cpu:.1} CPU s)"),
    }
}
