//! One writer per rule-set directory: an advisory lock that `solve` (or any other
//! job that writes tables) holds while it works, naming its process id, so that a
//! second run into the same directory refuses clearly instead of deleting the
//! first one's temporary files.

use crate::error::TablebaseError;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// File name of the lock inside a rule set's directory. It stays after the run
/// (removing a lock file while others wait on it races); only the lock on it
/// matters, and the operating system drops that when its holder exits, however it
/// exits.
pub const LOCK_FILE: &str = ".lock";

/// An exclusive advisory lock on a rule set's directory, held until dropped.
#[derive(Debug)]
pub struct DirLock {
    // Closing the file releases the lock.
    _file: File,
    path: PathBuf,
}

impl DirLock {
    /// Takes the lock of directory `dir` (created if needed), without waiting.
    /// When another process holds it, the error names that process's id.
    pub fn acquire(dir: &Path) -> Result<DirLock, TablebaseError> {
        std::fs::create_dir_all(dir).map_err(|e| TablebaseError::io(dir, e))?;
        let path = dir.join(LOCK_FILE);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| TablebaseError::io(&path, e))?;
        if let Err(e) = try_lock(&file) {
            if e.kind() != std::io::ErrorKind::WouldBlock {
                return Err(TablebaseError::io(&path, e));
            }
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            let holder = match holder.trim().parse::<u32>() {
                Ok(pid) => format!("process {pid}"),
                Err(_) => "another process".to_string(),
            };
            let e = std::io::Error::new(
                std::io::ErrorKind::WouldBlock,
                format!(
                    "{holder} is writing tables in {} (it holds {LOCK_FILE}); \
                     wait for it to finish or use another directory",
                    dir.display()
                ),
            );
            return Err(TablebaseError::io(dir, e));
        }
        let pid = format!("{}\n", std::process::id());
        file.set_len(0)
            .and_then(|_| file.rewind())
            .and_then(|_| file.write_all(pid.as_bytes()))
            .map_err(|e| TablebaseError::io(&path, e))?;
        Ok(DirLock { _file: file, path })
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(unix)]
fn try_lock(file: &File) -> std::io::Result<()> {
    use std::os::unix::io::AsRawFd;
    // SAFETY: flock on a file descriptor this function borrows for the call.
    let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if r == 0 {
        return Ok(());
    }
    let e = std::io::Error::last_os_error();
    if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
        return Err(std::io::Error::from(std::io::ErrorKind::WouldBlock));
    }
    Err(e)
}

#[cfg(not(unix))]
fn try_lock(_file: &File) -> std::io::Result<()> {
    // No advisory locks here: runs must not share a directory.
    Ok(())
}

/// Is the process `pid` still running? (On systems where this cannot be asked,
/// every process is taken to be running, so nothing of another run is removed.)
pub(crate) fn process_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return true;
        };
        // SAFETY: signal 0 only asks whether the process exists.
        let r = unsafe { libc::kill(pid, 0) };
        r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_and_names_the_holder() {
        let dir = tempfile::tempdir().unwrap();
        let first = DirLock::acquire(dir.path()).unwrap();
        // flock locks belong to the open file, so a second open in this process
        // conflicts as another process would.
        let e = DirLock::acquire(dir.path()).unwrap_err().to_string();
        assert!(
            e.contains(&format!("process {}", std::process::id())),
            "{e}"
        );
        drop(first);
        DirLock::acquire(dir.path()).expect("free again once dropped");
    }

    #[test]
    fn liveness_of_processes() {
        assert!(process_alive(std::process::id()));
        // Process ids are below 2^22 on Linux; this one cannot exist.
        #[cfg(target_os = "linux")]
        assert!(!process_alive(i32::MAX as u32));
    }
}
