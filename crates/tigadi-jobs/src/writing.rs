//! The one wait for a table written on a thread of its own, shared by the
//! job's two kinds of step.

use tigadi_tablebase::{PendingWrite, TablebaseError};

/// Waits for the table being written in the background, if any, and reports how
/// its writing went.
pub(crate) fn finish_writing(writing: &mut Option<PendingWrite>) -> Result<(), TablebaseError> {
    match writing.take() {
        Some(w) => w.wait().map(|_| ()),
        None => Ok(()),
    }
}
