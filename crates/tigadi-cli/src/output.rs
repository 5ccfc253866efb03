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

/// A value whose depth is the DTW in words: `win in 41 turns` (to the end of the
/// game), `loss in 40 turns`, `draw`.
pub fn dtw_text(v: tigadi_solve::Value) -> String {
    let turns = |d: u16| format!("{d} turn{}", if d == 1 { "" } else { "s" });
    match v {
        tigadi_solve::Value::Win(d) => format!("win in {}", turns(d)),
        tigadi_solve::Value::Draw => "draw".into(),
        tigadi_solve::Value::Loss(d) => format!("loss in {}", turns(d)),
    }
}
