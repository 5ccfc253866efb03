//! Ctrl-C and SIGTERM during `solve` and `verify`: the first stops the run
//! after the step (or table) in progress, once every table solved is written
//! and listed (so nothing is solved or checked twice when the run is started
//! again); the second stops it at once, as without this module (the step in
//! progress, and one still being written, are then solved again on resume).
//! Elsewhere than Unix the signals keep their default action.

use std::sync::atomic::{AtomicI32, Ordering};

/// The signal that asked for the stop, 0 while none has.
static ASKED: AtomicI32 = AtomicI32::new(0);

/// The handler: the first signal is only recorded; a second one (of either
/// kind) takes the default action, ending the process. Async-signal-safe: an
/// atomic swap, `signal` and `raise`.
#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    if ASKED.swap(signal, Ordering::SeqCst) != 0 {
        // SAFETY: both are async-signal-safe.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }
}

/// Takes over SIGINT and SIGTERM for the rest of the process.
pub fn install() {
    #[cfg(unix)]
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        // SAFETY: installs a handler that is async-signal-safe (above).
        unsafe {
            libc::signal(signal, handler);
        }
    }
}

/// The number of the signal that asked the run to stop, if one has.
pub fn asked() -> Option<i32> {
    match ASKED.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// The exit code of a run stopped by `signal`, as the shell reports a process
/// the signal ended: 128 plus its number (130 for Ctrl-C, 143 for SIGTERM).
pub fn exit_code(signal: i32) -> u8 {
    u8::try_from(128 + signal).unwrap_or(u8::MAX)
}

/// The signal's name for messages (by its POSIX number).
pub fn name(signal: i32) -> &'static str {
    match signal {
        2 => "Ctrl-C (SIGINT)",
        15 => "SIGTERM",
        _ => "a signal",
    }
}

/// How often [`stoppable`]'s watch looks for a stop request.
const WATCH: std::time::Duration = std::time::Duration::from_millis(50);

/// Runs `work` with SIGINT and SIGTERM taken over ([`install`]; `work` asks
/// [`asked`] between its items), and says on `progress`, as soon as a signal
/// asks it to stop, that it stops after `item` (e.g. "the step in progress"),
/// and what stopping at once would cost (`at_once`).
pub fn stoppable<T>(
    progress: &crate::progress::Progress,
    item: &str,
    at_once: &str,
    work: impl FnOnce() -> T,
) -> T {
    install();
    let running = std::sync::atomic::AtomicBool::new(true);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while running.load(Ordering::Relaxed) {
                if let Some(signal) = asked() {
                    progress.warn(&format!(
                        "{}: stopping after {item}; send it again to stop at once ({at_once})",
                        name(signal)
                    ));
                    return;
                }
                std::thread::sleep(WATCH);
            }
        });
        // Ends the watch however `work` ends: the scope waits for the watch,
        // so a panic in `work` would otherwise hang the process.
        let _stop_watch = StopOnDrop(&running);
        work()
    })
}

/// Sets its flag to false when dropped.
struct StopOnDrop<'a>(&'a std::sync::atomic::AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A panic in the work stops the watch, so the panic goes on (here,
    /// caught) instead of the process hanging on the watch's thread. Fails
    /// (after 10 s) when only a normal return stops it.
    #[test]
    fn a_panic_in_the_work_ends_the_watch() {
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let progress = crate::progress::Progress::new("slots");
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                stoppable(&progress, "the step", "nothing", || panic!("work failed"))
            }));
            let _ = done.send(caught.is_err());
        });
        let panicked = finished.recv_timeout(std::time::Duration::from_secs(10));
        assert_eq!(panicked, Ok(true), "the watch kept running");
    }
}
