//! The integration tests of `tigadi-play`, one module per file, in one
//! test binary: built and linked once, their fixtures shared, and run two at a
//! time across files (`cargo test -p tigadi-play -- MODULE::` runs one file).

mod both_phases;
mod common;
mod play;
