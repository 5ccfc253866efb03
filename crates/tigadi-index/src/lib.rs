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
//! slots over the 49 standard subspaces).
//!
//! Not here: anything about values, solving or files.

mod classes;
mod index;
mod mover;
mod subspace;
mod tables;

pub use classes::classes;
pub use index::{canonical, orbit_size, Boards, MoverClass, SubspaceIndex};
pub use subspace::{Subspace, MAX_GOTIS, MIN_GOTIS};
