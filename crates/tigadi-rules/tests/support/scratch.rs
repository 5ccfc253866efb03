//! Scratch directories for tests, removed when the test process exits.
//!
//! A fixture solved once per test binary lives in a `static` (which is never
//! dropped), so a `tempfile::TempDir` would not remove it, and every run left its
//! tables in the system's temporary directory. [`scratch_dir`] names the
//! directory after the test and the process and removes it at exit, whether the
//! tests passed or failed (`atexit`: the test harness ends through the C
//! library's `exit`). Set `TIGADI_KEEP_TEST_DIRS` to keep them for a look after a
//! failure. Crates' tests include this file with `#[path]`.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::{Mutex, Once};

/// Every directory [`scratch_dir`] made in this process.
static MADE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

extern "C" {
    fn atexit(f: extern "C" fn()) -> std::os::raw::c_int;
}

extern "C" fn remove_made() {
    let made = std::mem::take(&mut *MADE.lock().unwrap_or_else(|e| e.into_inner()));
    for d in made {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// A fresh empty directory `tigadi-NAME-PID` in the system's temporary
/// directory, removed when this process exits.
pub fn scratch_dir(name: &str) -> PathBuf {
    static REGISTER: Once = Once::new();
    if std::env::var_os("TIGADI_KEEP_TEST_DIRS").is_none() {
        // SAFETY: `remove_made` is an `extern "C" fn()` that neither unwinds
        // (it ignores every error) nor calls `exit`.
        REGISTER.call_once(|| unsafe {
            atexit(remove_made);
        });
    }
    let d = std::env::temp_dir().join(format!("tigadi-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    MADE.lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(d.clone());
    d
}
