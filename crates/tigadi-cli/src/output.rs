//! Standard output that reports a failed write as an error (exit 2) instead of
//! panicking as `println!` does. A closed pipe (`tigadi stats | head`) still ends
//! the process quietly through SIGPIPE, as set up in `main`.

use std::io::Write;

/// The message of a failed write to standard output.
pub fn write_error(e: std::io::Error) -> String {
    format!("writing standard output: {e}")
}

/// Writes `args` and a newline to standard output.
pub fn line(args: std::fmt::Arguments) -> Result<(), String> {
    writeln!(std::io::stdout().lock(), "{args}").map_err(write_error)
}

/// Writes `text` as it is to standard output.
pub fn text(text: &str) -> Result<(), String> {
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .map_err(write_error)
}

/// Flushes standard output.
pub fn flush() -> Result<(), String> {
    std::io::stdout().flush().map_err(write_error)
}
