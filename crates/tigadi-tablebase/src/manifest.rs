//! The manifest of a rule set's directory: `SHA256SUMS` (for `sha256sum -c`) and
//! `manifest.json` (per-subspace counts, tool version, format settings, solve
//! times). Timing lives only here, so table files stay byte-for-byte
//! deterministic.

use crate::dir::{TableId, TablebaseDir};
use crate::error::TablebaseError;
use crate::format::INDEX_SCHEME;
use crate::kind::*;
use crate::writer::write_atomically;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;
use tigadi_index::Subspace;
use tigadi_rules::BoardKind;

/// File name of the JSON manifest inside a rule set's directory.
pub const MANIFEST_JSON: &str = "manifest.json";
/// File name of the checksum list inside a rule set's directory.
pub const SHA256SUMS: &str = "SHA256SUMS";

/// `manifest.json`: what a rule set's directory holds and how it was made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The rule set's name (`RuleSet::name()`).
    pub rules: String,
    /// Version of the `tigadi-tablebase` crate that wrote the manifest.
    pub tool_version: String,
    /// Format settings of the files.
    pub settings: Settings,
    /// One entry per table file, ordered by subspace.
    pub subspaces: Vec<ManifestEntry>,
    /// Files named like tables that could not be read (damaged, of another rule
    /// set, not a regular file), each as "name: why"; left out of the entries and
    /// of `SHA256SUMS`. Absent from the JSON when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
}

/// The rule switches and format settings recorded in the manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// Lines on the board: 20 or 16.
    pub lines: u8,
    /// `"never"` or `"3"`.
    pub flying: String,
    /// `"passes"` or `"loses"`.
    pub blocked: String,
    /// File format version.
    pub format_version: u16,
    /// Index scheme version of the slot numbering.
    pub index_scheme: u16,
    /// Slots per WDL block.
    pub wdl_slots_per_block: u32,
    /// Slots per DTC block.
    pub dtc_slots_per_block: u32,
    /// zstd level of WDL blocks.
    pub wdl_zstd_level: i32,
    /// zstd level of DTC blocks.
    pub dtc_zstd_level: i32,
    /// The checksum of blocks and files (`"xxh3-64"`).
    pub checksum: String,
}

/// One table file in the manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ManifestEntry {
    /// Gotis of the player to move.
    pub mover: u8,
    /// Gotis of the other player.
    pub opponent: u8,
    /// File name inside the rule set's directory.
    pub file: String,
    /// File size in bytes.
    pub bytes: u64,
    /// Slots of the index (classes plus padding).
    pub slots: u64,
    /// Canonical positions (symmetry classes): `win + draw + loss`.
    pub classes: u64,
    /// Classes won for the player to move.
    pub win: u64,
    /// Drawn classes.
    pub draw: u64,
    /// Classes lost for the player to move.
    pub loss: u64,
    /// Largest DTC of a win, in turns.
    pub max_dtc_win: u16,
    /// Largest DTC of a loss, in turns.
    pub max_dtc_loss: u16,
    /// SHA-256 of the file, lowercase hex.
    pub sha256: String,
    /// Wall-clock seconds the solver spent on the subspace, if recorded.
    pub seconds: Option<f64>,
}

impl ManifestEntry {
    /// The entry's subspace.
    pub fn subspace(&self) -> Subspace {
        Subspace::new(self.mover, self.opponent)
    }
}

impl TablebaseDir {
    /// Writes `SHA256SUMS` and `manifest.json` for every table file of the
    /// directory (each header and head checksum is checked on the way; a file that
    /// fails is listed in [`Manifest::skipped`], since the manifest only describes,
    /// and `verify` reports the damage). Solve times recorded in an existing
    /// `manifest.json` are kept for files whose SHA-256 is unchanged.
    /// `SHA256SUMS` lists every table file, in listing order ([`TableId`]'s): the
    /// moving-phase tables, their horizon tables, then the placing tables of both
    /// kinds; `manifest.json` has an entry per moving-phase game-theoretic table.
    pub fn write_manifest(&self) -> Result<Manifest, TablebaseError> {
        self.write_manifest_with_seconds(&[])
    }

    /// Like [`TablebaseDir::write_manifest`], also recording solve times in seconds
    /// for the given subspaces (these replace any recorded before).
    pub fn write_manifest_with_seconds(
        &self,
        seconds: &[(Subspace, f64)],
    ) -> Result<Manifest, TablebaseError> {
        self.write_manifest_keeping(seconds, None)
    }

    /// Like [`TablebaseDir::write_manifest_with_seconds`], for a job that has just
    /// written the tables `written`: their SHA-256 and that of every file
    /// `SHA256SUMS` does not list yet are computed; every other file keeps the
    /// SHA-256 listed for it. So the list keeps recording what the toolkit wrote: a
    /// file damaged after it was listed is not blessed again by the next run
    /// (`verify` and `sha256sum -c` still catch it), and a run does not read back
    /// gigabytes of unchanged tables after every pair.
    /// [`TablebaseDir::write_manifest`] hashes every file afresh.
    pub fn update_manifest(
        &self,
        written: &[TableId],
        seconds: &[(Subspace, f64)],
    ) -> Result<Manifest, TablebaseError> {
        let listed = self.listed_sums();
        let written: Vec<String> = written
            .iter()
            .map(|id| id.file_name(self.rules()))
            .collect();
        self.write_manifest_keeping(seconds, Some((&listed, &written)))
    }

    /// The manifest writer: `keep` holds the listed sums that may be reused and
    /// the files whose sums may not (written since); `None` hashes every file.
    fn write_manifest_keeping(
        &self,
        seconds: &[(Subspace, f64)],
        keep: Option<(&BTreeMap<String, String>, &[String])>,
    ) -> Result<Manifest, TablebaseError> {
        let rules = self.rules();
        let sum_of = |name: &str, path: &Path| -> Result<String, TablebaseError> {
            match keep {
                Some((listed, written)) if !written.iter().any(|w| w == name) => {
                    match listed.get(name) {
                        Some(h) => Ok(h.clone()),
                        None => sha256_file(path),
                    }
                }
                _ => sha256_file(path),
            }
        };
        let old = self.read_manifest().ok().flatten();
        let tables = self.list()?;
        let mut entries = Vec::new();
        let mut skipped = Vec::new();
        let moving = |kind| {
            tables
                .iter()
                .filter(move |id| id.kind == kind && id.tier.is_moving())
        };
        for &id in moving(TableKind::GameTheoretic) {
            let s = id.tier.subspace;
            let name = id.file_name(self.rules());
            let table = match self.open(id) {
                Ok(t) => t,
                Err(e) => {
                    skipped.push(format!("{name}: {e}"));
                    continue;
                }
            };
            let h = table.header();
            let sha256 = sum_of(&name, table.path())?;
            let mut secs = seconds.iter().rev().find(|(t, _)| *t == s).map(|(_, x)| *x);
            if secs.is_none() {
                secs = old.as_ref().and_then(|m| {
                    m.subspaces
                        .iter()
                        .find(|e| e.subspace() == s && e.sha256 == sha256)
                        .and_then(|e| e.seconds)
                });
            }
            entries.push(ManifestEntry {
                mover: s.mover,
                opponent: s.opponent,
                file: name,
                bytes: h.file_len(),
                slots: h.slots,
                classes: h.counts.classes(),
                win: h.counts.wins,
                draw: h.counts.draws,
                loss: h.counts.losses,
                max_dtc_win: h.counts.max_dtc_win,
                max_dtc_loss: h.counts.max_dtc_loss,
                sha256,
                seconds: secs,
            });
        }
        let mut manifest = Manifest {
            rules: rules.name(),
            tool_version: env!("CARGO_PKG_VERSION").to_string(),
            settings: Settings {
                lines: if rules.board == BoardKind::Diagonals {
                    20
                } else {
                    16
                },
                flying: if rules.flying { "3" } else { "never" }.into(),
                blocked: if rules.blocked_loses {
                    "loses"
                } else {
                    "passes"
                }
                .into(),
                format_version: FORMAT_VERSION,
                index_scheme: INDEX_SCHEME,
                wdl_slots_per_block: self.block_size().slots_per_block(Section::Wdl),
                dtc_slots_per_block: self.block_size().slots_per_block(Section::Dtc),
                wdl_zstd_level: self.levels().wdl,
                dtc_zstd_level: self.levels().dtc,
                checksum: "xxh3-64".into(),
            },
            subspaces: entries,
            skipped,
        };
        let mut sums: String = manifest
            .subspaces
            .iter()
            .map(|e| format!("{}  {}\n", e.sha256, e.file))
            .collect();
        // The moving phase's other kinds of table (values under the 100-turn rule),
        // of the subspaces listed, after them.
        for kind in TableKind::ALL.into_iter().skip(1) {
            for &id in moving(kind) {
                let path = self.table_path(id);
                let listed = manifest
                    .subspaces
                    .iter()
                    .any(|e| e.subspace() == id.tier.subspace);
                if listed && path.is_file() {
                    let name = id.file_name(self.rules());
                    sums.push_str(&format!("{}  {name}\n", sum_of(&name, &path)?));
                }
            }
        }
        // Then the placing tables of every kind, by kind, placements made and subspace. One
        // that cannot be read is left out and named, as a damaged moving-phase
        // table is.
        for &id in tables.iter().filter(|id| !id.tier.is_moving()) {
            let name = id.file_name(self.rules());
            match sum_of(&name, &self.table_path(id)) {
                Ok(h) => sums.push_str(&format!("{h}  {name}\n")),
                Err(e) => manifest.skipped.push(format!("{name}: {e}")),
            }
        }
        write_atomically(&self.path().join(SHA256SUMS), sums.as_bytes())?;
        let mut json = serde_json::to_string_pretty(&manifest).expect("manifest serialises");
        json.push('\n');
        write_atomically(&self.path().join(MANIFEST_JSON), json.as_bytes())?;
        Ok(manifest)
    }

    /// Reads `manifest.json`; `Ok(None)` when there is none.
    pub fn read_manifest(&self) -> Result<Option<Manifest>, TablebaseError> {
        let path = self.path().join(MANIFEST_JSON);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(TablebaseError::io(&path, e)),
        };
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| TablebaseError::corrupt(&path, format!("bad manifest: {e}")))
    }

    /// `SHA256SUMS` as file name to hash: `Err(None)` when there is none,
    /// `Err(Some(problem))` when it cannot be read or a line is not `HASH  NAME`
    /// (the `sha256sum` format).
    pub fn read_sums(&self) -> Result<BTreeMap<String, String>, Option<String>> {
        read_sums(self.path())
    }

    /// `SHA256SUMS` as read by [`TablebaseDir::read_sums`], or an empty list when
    /// it is missing or unreadable (`verify` reports its problems once, with the
    /// moving-phase tables).
    pub fn listed_sums(&self) -> BTreeMap<String, String> {
        self.read_sums().unwrap_or_default()
    }
}

/// [`TablebaseDir::read_sums`] of the rule set's directory `rdir`.
fn read_sums(rdir: &Path) -> Result<BTreeMap<String, String>, Option<String>> {
    let path = rdir.join(SHA256SUMS);
    if crate::reader::table::is_missing(&path) {
        return Err(None);
    }
    let text = crate::reader::table::open_regular_file(&path)
        .and_then(|mut f| {
            let mut t = String::new();
            std::io::Read::read_to_string(&mut f, &mut t)
                .map(|_| t)
                .map_err(|e| TablebaseError::io(&path, e))
        })
        .map_err(|e| Some(e.to_string()))?;
    let mut sums = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let parsed = line.split_once(' ').and_then(|(hash, name)| {
            let name = name.strip_prefix([' ', '*'])?;
            let hex = hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit());
            hex.then(|| (name.to_string(), hash.to_ascii_lowercase()))
        });
        match parsed {
            Some((name, hash)) => {
                sums.insert(name, hash);
            }
            None => return Err(Some(format!("{SHA256SUMS} line {} is malformed", i + 1))),
        }
    }
    Ok(sums)
}

/// SHA-256 of the file at `path`, lowercase hex.
pub fn sha256_file(path: &Path) -> Result<String, TablebaseError> {
    let mut f = crate::reader::table::open_regular_file(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf).map_err(|e| TablebaseError::io(path, e))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}
