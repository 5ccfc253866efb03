//! The integration tests of `tigadi-cli`, one module per file, in one
//! test binary: built and linked once, their fixtures shared, and run two at a
//! time across files (`cargo test -p tigadi-cli -- MODULE::` runs one file).

mod both_phases_commands;
mod browser;
mod common;
mod depth_words;
mod doc_examples;
mod fuzz;
mod hardening;
mod hardening3;
mod horizon_commands;
mod index_stats;
mod lasker_doors;
mod lasker_oracle;
mod missing_tables;
mod morabaraba_commands;
mod placing_commands;
mod play_commands;
mod probe_pipe;
mod rules_commands;
mod serve;
mod serve_limits;
mod solve_plan;
mod solve_resume;
mod terminal;
