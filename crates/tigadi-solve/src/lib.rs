//! Parallel retrograde analysis of the moving phase: win/draw/loss and DTC for
//! every position of a pair of subspaces, given the solved subspaces its captures
//! lead to.

pub mod value;

pub use value::{Packed, Value, Wdl, MAX_DTC};
