//! The integration tests of `tigadi-ffi`, one module per file, in one
//! test binary: built and linked once, their fixtures shared, and run two at a
//! time across files (`cargo test -p tigadi-ffi -- MODULE::` runs one file).

mod header;
mod lasker;
mod probe;
