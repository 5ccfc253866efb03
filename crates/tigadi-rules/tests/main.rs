//! The integration tests of `tigadi-rules`, one module per file, in one
//! test binary: built and linked once, their fixtures shared, and run two at a
//! time across files (`cargo test -p tigadi-rules -- MODULE::` runs one file).

mod clauses;
mod finished;
mod lasker;
mod layout;
mod support {
    pub mod lasker;
}
mod properties;
