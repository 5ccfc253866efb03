//! Playing and analysing games from the tablebases: the principal variation of a
//! position ([`line()`]), a move chooser at four strengths ([`choose()`]), the
//! analysis of a game record turn by turn ([`analyze()`]), and self-play matches
//! between the levels ([`play_match`]).
//!
//! Every value comes from the one answer door of `tigadi-tablebase`
//! ([`Tablebase::answer`](tigadi_tablebase::Tablebase::answer)), for positions of
//! both phases: this crate orders no moves and computes no values of its own, it
//! only picks among the turns the prober ranks first. Where the tables say nothing
//! (a tier whose table is missing) the answer says so
//! ([`NoTable`]); only the move chooser then plays by a small depth-limited search
//! ([`search()`]), and its [`Choice`] says that it did.
//!
//! Results are plain data that serialise with serde, so the CLI, a server or a
//! binding print them as they like. Randomness (ties between equally good moves,
//! match games) comes from a seeded [`Rng`] (`tigadi_rules::Rng`, re-exported
//! here): the same seed gives the same games on every machine, whatever the number
//! of threads.
//!
//! Not here: reading input or drawing boards (the `tigadi` command does that).

#![warn(missing_docs)]

pub mod analyze;
pub mod choose;
pub mod error;
pub mod line;
pub mod matches;
pub mod search;
mod ser;
pub mod table;

pub use analyze::{analyze, Analysis, Assessment, PlayerSummary, TurnAnalysis, Verdict};
pub use choose::{choose, choose_in_game, fallible_chance, hint, Choice, Hint, How, Level};
pub use error::PlayError;
pub use line::{line, line_with, Line, LineEnd, Step};
pub use matches::{lost_start, play_game, play_match, MatchGame, MatchReport, MatchSettings};
pub use search::{search, Searched};
pub use table::{table_answer, NoTable};
pub use tigadi_rules::Rng;
