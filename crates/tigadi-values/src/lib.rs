//! What a Tigadi position is worth, as the solver computes it, the files store it
//! and the prober answers it: win/draw/loss with the DTC or the DTW ([`Value`],
//! [`Wdl`], [`Metric`]) and their 16-bit packing ([`Packed`]), the values under
//! the 100-turn rule ([`value_at_counter`], [`Category`]), and the placing phase's layers with the one
//! definition of a placing position's value from its successors' ([`placing`]).
//!
//! This crate sits between the index and the solver, so that a program that only
//! reads tables (the prober, the C and Python bindings, the server) needs no solver.
//!
//! Not here: solving (`tigadi-solve`) or files (`tigadi-tablebase`).

pub mod category;
pub mod memory;
pub mod placing;
pub mod value;
pub mod words;

pub use category::{value_at_counter, Category};
pub use value::{Metric, Packed, Value, Wdl, MAX_DTC};
pub use words::{both_in_words, in_words};
