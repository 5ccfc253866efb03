//! The jobs that turn the solver's results into tablebase files and check them:
//! the resumable solve of pairs of moving-phase subspaces ([`solve_pairs`]), of the
//! placing layers ([`solve_placing`], [`solve_placing_horizon`]), and the
//! consistency scan that recomputes every stored value from its successors'
//! ([`verify()`]).
//!
//! This is the one crate that joins the solver (`tigadi-solve`) and the file
//! format (`tigadi-tablebase`); programs that only read tables depend on the
//! latter alone.
//!
//! Not here: the format, reading or probing (`tigadi-tablebase`), or progress bars
//! (the CLI observes the jobs through [`JobObserver`], [`PlacingObserver`] and
//! [`VerifyObserver`]).

#![warn(missing_docs)]

pub mod job;
pub mod placing_job;
pub mod verify;

pub use job::{solve_pairs, DtwReport, HorizonReport, JobError, JobObserver, PairReport};
pub use placing_job::{solve_placing, solve_placing_dtw, solve_placing_horizon, PlacingObserver};
pub use verify::{
    verify, verify_kinds, verify_with, Mismatch, SubspaceReport, SumsReport, VerifyObserver,
    VerifyReport,
};
