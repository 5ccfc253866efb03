//! Compressed, checksummed tablebase files of the Tigadi moving phase: writing
//! them ([`write_subspace`], [`write_manifest`]), reading them back whole
//! ([`load_values`]), probing single positions ([`Tablebase`]) and the consistency
//! scan ([`verify`]), and the resumable job that solves pairs into files
//! ([`solve_pairs`]).
//!
//! One file per rule set and subspace, `DIR/<rules>/<m>v<o>.tgtb`, with a WDL
//! section (what a program that needs only win/draw/loss reads) and a DTC section,
//! each in independently zstd-compressed, checksummed blocks; beside it, when solved,
//! `DIR/<rules>/<m>v<o>.tghz` holds the values under the 100-turn rule (a category
//! section and a DTC₁₀₀ section). `docs/FORMAT.md` is the byte-level specification.
//!
//! Not here: solving (that is `tigadi-solve`) or position strings (`tigadi-rules`).

#![warn(missing_docs)]

pub mod answer;
pub mod error;
pub mod format;
pub mod job;
pub mod lock;
pub mod manifest;
pub mod placing_job;
pub mod reader;
pub mod tablebase;
pub mod verify;
pub mod writer;

pub use answer::{
    position_after_record, result_json, standing, CounterAnswer, ProbeReport, ReportError,
    ReportTurn,
};
pub use error::TablebaseError;
pub use format::{
    any_kind_path, any_table_path, kind_table_path, list_placing_tables, list_subspaces,
    placing_table_path, rules_dir, rules_dir_name, table_path, ClassCounts, Header, TableKind,
};
pub use job::{
    is_horizon_solved, is_solved, solve_pairs, HorizonReport, JobError, JobObserver, PairReport,
};
pub use lock::DirLock;
pub use manifest::{
    read_manifest, update_manifest, write_manifest, write_manifest_with_seconds, Manifest,
    ManifestEntry,
};
pub use placing_job::{
    is_placing_kind_solved, is_placing_solved, solve_placing, solve_placing_horizon,
    PlacingObserver,
};
pub use reader::table::{
    load_dtc100, load_placing_dtc100, load_placing_values, load_values, mark_padding,
    open_any_table, open_kind, open_table_of, read_header, Section, Table,
};
pub use tablebase::{RuleValues, Tablebase, Turn};
pub use verify::{
    verify, verify_with, Mismatch, SubspaceReport, SumsReport, VerifyObserver, VerifyReport,
};
pub use writer::{
    encode_horizon_table, encode_horizon_table_with, encode_table, encode_table_with,
    remove_stale_temporaries, write_horizon_subspace, write_placing, write_placing_horizon,
    write_subspace,
};
