//! Compressed, checksummed tablebase files of both phases of Tigadi: the format,
//! writing them ([`write_subspace`], [`write_manifest`]), reading them back whole
//! ([`load_values`]) and probing positions ([`Tablebase`], whose one answer door is
//! [`Tablebase::answer`]). This is all a program that reads tables needs: it does
//! not depend on the solver.
//!
//! One file per rule set and subspace, `DIR/<rules>/<m>v<o>.tgtb`, with a WDL
//! section (what a program that needs only win/draw/loss reads) and a DTC section,
//! each in independently zstd-compressed, checksummed blocks; beside it, when solved,
//! `DIR/<rules>/<m>v<o>.tghz` holds the values under the 100-turn rule (a category
//! section and a DTC₁₀₀ section). `docs/FORMAT.md` is the byte-level specification.
//!
//! Not here: solving (`tigadi-solve`), the jobs that solve into files and verify
//! them (`tigadi-jobs`), or position strings (`tigadi-rules`).

#![warn(missing_docs)]

pub mod answer;
pub mod error;
pub mod format;
pub mod lock;
pub mod manifest;
pub mod reader;
pub mod tablebase;
pub mod writer;

pub use answer::{
    game_after_record, position_after_record, result_json, standing, CounterAnswer, ProbeReport,
    ReportError, ReportTurn,
};
pub use error::TablebaseError;
pub use format::{
    any_kind_path, any_table_path, kind_table_path, list_placing_tables, list_subspaces,
    placing_table_path, rules_dir, rules_dir_name, table_path, ClassCounts, Header, TableKind,
};
pub use lock::DirLock;
pub use manifest::{
    read_manifest, update_manifest, write_manifest, write_manifest_with_seconds, Manifest,
    ManifestEntry,
};
pub use reader::table::{
    load_dtc100, load_placing_dtc100, load_placing_values, load_values, mark_padding,
    open_any_table, open_kind, open_table_of, read_header, Section, Table,
};
pub use tablebase::{RuleValues, Tablebase, Turn};
pub use writer::{
    encode_horizon_table, encode_horizon_table_with, encode_table, encode_table_with,
    remove_stale_temporaries, write_horizon_subspace, write_placing, write_placing_horizon,
    write_subspace,
};
