//! The integration tests of `tigadi-jobs`, one module per file, in one
//! test binary: built and linked once, their fixtures shared, and run two at a
//! time across files (`cargo test -p tigadi-jobs -- MODULE::` runs one file).

mod answer;
mod changed_while_open;
mod common;
mod dtw;
mod fuzz;
mod horizon;
mod integrity;
mod lasker;
mod placing;
mod placing_horizon;
mod reblocked;
mod room;
mod round_trip;
mod rule_from_game;
mod stop;
mod verify_every_kind;
mod verify_fused;
mod verify_runs;
