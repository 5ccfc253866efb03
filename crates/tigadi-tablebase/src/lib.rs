//! Compressed, checksummed tablebase files of both phases of Tigadi: the kinds of
//! table ([`kind`]), their file format, where they live ([`TableId`],
//! [`TablebaseDir`]: naming, opening, reading, writing, listing, the manifest)
//! and probing positions ([`Tablebase`], whose one answer door is
//! [`Tablebase::answer`]). This is all a program that reads tables needs: it does
//! not depend on the solver.
//!
//! One file per rule set, kind and tier: `DIR/<rules>/<m>v<o>.tgtb`
//! (game-theoretic values of a moving-phase tier: a WDL section, what a program
//! that needs only win/draw/loss reads, and a DTC section) and beside it
//! `<m>v<o>.tghz` (the values under the 100-turn rule: a category section and a
//! DTC₁₀₀ section), `p<k>-<m>v<o>.tgtb` and `.tghz` for a tier with gotis in
//! hand after `k` placements (`h<a>-<b>-…` for hands no alternate placing
//! gives); each section in independently zstd-compressed, checksummed blocks.
//! `docs/FORMAT.md` is the byte-level specification.
//!
//! Not here: solving (`tigadi-solve`), the jobs that solve into files and verify
//! them (`tigadi-jobs`), or position strings (`tigadi-rules`).

#![warn(missing_docs)]

pub mod answer;
pub mod dir;
pub mod error;
pub mod format;
pub mod kind;
pub mod lock;
pub mod manifest;
pub mod reader;
pub mod tablebase;
pub mod writer;

pub use answer::{
    game_after_record, position_after_record, result_json, standing, ProbeReport, ReportError,
    ReportTurn,
};
pub use dir::{PendingWrite, TableId, TablebaseDir};
pub use error::TablebaseError;
pub use format::{ClassCounts, Header};
pub use kind::{field, BlockSize, Entry, Field, Section, TableData, TableKind, ZstdLevels};
pub use lock::DirLock;
pub use manifest::{Manifest, ManifestEntry};
pub use reader::cache::CacheSize;
pub use reader::table::{mark_padding, position_counts, same_values, Table};
pub use tablebase::{hands_of, RuleValues, Tablebase};
pub use tigadi_values::{
    placing_turns, successor_tiers, tiers_after, tiers_with_hands, Hands, Tier,
};
pub use writer::{compress, encode, reblock, Compressed};
