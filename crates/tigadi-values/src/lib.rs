//! What a Tigadi position is worth, as the solver computes it, the files store it
//! and the prober answers it: win/draw/loss with the DTC or the DTW ([`Value`],
//! [`Wdl`], [`Metric`]) and their 16-bit packing ([`Packed`]), the values under
//! the 100-turn rule ([`value_at_counter`], [`Category`]), the tiers that key the
//! whole game ([`Tier`], [`successor_tiers`]), and the one definition of a
//! turn's value from the position it leads to ([`placement`], [`slide`]).
//!
//! This crate sits between the index and the solver, so that a program that only
//! reads tables (the prober, the C and Python bindings, the server) needs no solver.
//!
//! Not here: solving (`tigadi-solve`) or files (`tigadi-tablebase`).

pub mod category;
pub mod memory;
pub mod placement;
pub mod slide;
pub mod tier;
pub mod value;
pub mod words;

pub use category::{value_at_counter, Category};
pub use tier::{
    placing_turns, reached_tiers, successor_tiers, tier_steps, tier_steps_from, tiers_after,
    tiers_with_hands, Hands, Tier,
};
pub use value::{Metric, Packed, Value, Wdl, MAX_DTC};
pub use words::{both_in_words, in_words, start_in_words};
