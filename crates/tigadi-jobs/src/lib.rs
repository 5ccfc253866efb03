//! The jobs that turn the solver's results into tablebase files and check them:
//! the one resumable solve ([`solve`]), which walks the tiers in dependency
//! order once per kind of table, and the consistency scan that recomputes every
//! stored value from its successors' ([`verify()`]).
//!
//! This is the one crate that joins the solver (`tigadi-solve`) and the file
//! format (`tigadi-tablebase`); programs that only read tables depend on the
//! latter alone.
//!
//! Modules, each importing only those listed after it: [`job`] (the loop) →
//! `rounds_step`, `pass_step` (the two shapes of step) → `changed_lists`,
//! `writing`, [`observer`]; [`verify`] → `changed_lists`.
//!
//! Not here: the format, reading or probing (`tigadi-tablebase`), or progress bars
//! (the CLI observes the jobs through [`JobObserver`] and [`VerifyObserver`]).

#![warn(missing_docs)]

mod changed_lists;
pub mod job;
pub mod observer;
mod pass_step;
mod rounds_step;
pub mod verify;
mod writing;

pub use job::{plan, solve, start_value, steps, JobOptions, KindPlan, Plan, Scope};
pub use observer::{
    step_name, DtwReport, GameReport, HorizonReport, JobError, JobObserver, TierReport,
};
pub use verify::{
    verify, verify_kinds, verify_tables, verify_with, Mismatch, SubspaceReport, SumsReport,
    VerifyObserver, VerifyReport,
};
