//! The integration tests of `tigadi-values`, one module per file, in one
//! test binary: built and linked once, their fixtures shared, and run two at a
//! time across files (`cargo test -p tigadi-values -- MODULE::` runs one file).

mod lasker_tiers;
mod tiers;
