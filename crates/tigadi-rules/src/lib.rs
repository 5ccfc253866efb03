//! The Tigadi rules engine: board geometry and symmetries, rule sets, the
//! moving-phase primitives shared by the index, solver and prober, full-game
//! positions with legal-move generation for both phases, and the notation of
//! RULES.md §9.
//!
//! It knows nothing of indexing, solving or files; every later stage builds on it.

pub mod geometry;
pub mod moving;
pub mod rules;

pub use geometry::{Bits, BoardKind, Geometry, Point, POINTS, SYMMETRIES};
pub use moving::{Board, Slide, Successor};
pub use rules::RuleSet;
