//! Symmetry-reduced perfect-hash index of moving-phase positions.
//!
//! A moving-phase [`Board`](tigadi_rules::Board) (gotis of the player to move and of
//! the other player) belongs to the [`Subspace`] `(mover, opponent)` of its goti
//! counts. Within a subspace every board gets a dense slot number; the 16 symmetric
//! images of a board share one slot. Some slots hold no canonical board (padding);
//! [`SubspaceIndex::board`] returns `None` for them.
//!
//! The slot of a board is `rank(canonical mover set) * C(24 - mover, opponent) +
//! colex rank of the opponent set among the points the mover leaves free`; padding
//! comes from mover sets that some symmetry maps to themselves (about 3.25% of the
//! slots over the 49 standard subspaces; [`classes`] gives the exact class counts).
//!
//! Canonical boards: among the 16 images, the least mover set, then the least
//! opponent set (sets compared as `u32`); see [`canonical`].
//!
//! # Speed
//!
//! Measured by `cargo bench -p tigadi-benches --bench index` (thread CPU time, one
//! core, random 9v9 and 8v8 boards, on a busy shared machine):
//! [`SubspaceIndex::index`] 40–50 million boards per second (canonicalisation
//! included), [`SubspaceIndex::index_with`] for a precomputed [`MoverClass`] 100–130
//! million, [`SubspaceIndex::board`] 25–34 million, and the in-order sweep
//! [`SubspaceIndex::boards`] 170–290 million slots
//! per second. The tables (built once per goti count, on first use) stay in L2:
//! `index` reads 0.3 MiB of rank blocks for 9 gotis (decoding also reads the 0.6 MiB
//! list of canonical mover sets) and about 0.1 MiB of constant byte tables. No BMI2
//! or `popcnt` is assumed.
//!
//! Not here: anything about values, solving or files.

mod classes;
mod free;
mod images;
mod index;
mod mover;
mod subspace;
mod tables;

pub use classes::classes;
pub use free::FreeSets;
pub use images::Images;
pub use index::{canonical, orbit_size, Boards, MoverClass, Near, SubspaceIndex};
pub use subspace::{Subspace, MAX_GOTIS, MIN_GOTIS};
pub use tables::binomial;
