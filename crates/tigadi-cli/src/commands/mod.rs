//! One module per subcommand. Each `run` returns the exit code on success, or a
//! message naming the problem (printed by `main`, exit code 2).

pub mod analyze;
pub mod index_stats;
pub mod line;
pub mod matches;
pub mod moves;
pub mod perft;
pub mod play;
pub mod probe;
pub mod replay;
pub mod serve;
pub mod show;
pub mod solve;
pub mod stats;
pub mod tables;
pub mod verify;

/// What a command returns: an exit code, or an error message (exit code 2).
pub type CmdResult = Result<u8, String>;
