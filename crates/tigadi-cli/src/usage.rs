//! This process's CPU time and peak resident memory, for the per-pair lines of
//! `solve` (the per-pair figures of docs/PERFORMANCE.md). Peak memory is Linux only (`VmHWM`,
//! reset per pair through `/proc/self/clear_refs`); elsewhere it is not shown.

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
