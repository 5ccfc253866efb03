//! The Tigadi rules engine: board geometry and symmetries, rule sets, the
//! moving-phase primitives shared by the index, solver and prober, full-game
//! positions with legal-move generation for both phases, a refereed game, and the
//! notation of docs/RULES.md §9, and the seeded random generator ([`Rng`]) that
//! play, matches and the tests' random inputs share.
//!
//! It knows nothing of indexing, solving or files; every later stage builds on it.

pub mod game;
pub mod geometry;
pub mod moving;
pub mod notation;
pub mod position;
pub mod rng;
pub mod rules;

pub use game::{check_move, DrawReason, Game, GameResult, IllegalMove, REPETITION_LIMIT};
pub use geometry::{Bits, BoardKind, Geometry, Point, POINTS, SYMMETRIES};
pub use moving::{Board, Placement, Slide, Successor};
pub use notation::{
    diagram, format_record, parse_move, parse_point, parse_position, parse_reached_position,
    parse_record, NotationError,
};
pub use position::{InvalidPosition, Move, Phase, Position, Side, WinReason};
pub use rng::Rng;
pub use rules::{RuleSet, DEFAULT_QUIET, MAX_QUIET};
