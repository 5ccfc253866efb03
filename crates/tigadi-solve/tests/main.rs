//! The integration tests of `tigadi-solve`, one module per file, in one
//! test binary: built and linked once, their fixtures shared, and run two at a
//! time across files (`cargo test -p tigadi-solve -- MODULE::` runs one file).

mod common;
mod dtw_agreement;
mod dtw_pass;
mod horizon_agreement;
mod horizon_repair;
#[path = "../../tigadi-rules/tests/support/lasker.rs"]
mod lasker;
mod lasker_game_and_horizon;
mod lasker_horizon_from_game;
mod lasker_oracle_self;
mod lasker_tiers;
mod oracle;
mod oracle_agreement;
mod oracle_self;
mod placing_oracle;
mod placing_pass;
mod solver;
