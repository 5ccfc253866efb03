//! The integration tests of `tigadi-index`, one module per file, in one
//! test binary: built and linked once, their fixtures shared, and run two at a
//! time across files (`cargo test -p tigadi-index -- MODULE::` runs one file).

mod index;
mod index_doc;
