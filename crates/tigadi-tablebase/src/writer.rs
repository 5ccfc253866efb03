//! Writing tablebase files: encoding a subspace's values into the format of
//! `docs/FORMAT.md`, and writing the file atomically.

use crate::error::TablebaseError;
use crate::format::*;
use rayon::prelude::*;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::RuleSet;
use tigadi_values::{Category, Packed, Value, MAX_DTC};

/// Writes the table of `subspace` under rule set `rules` into tablebase directory
/// `dir` (as `dir/<rules>/<m>v<o>.tgtb`, creating directories as needed) and returns
/// its path.
///
/// `values` holds one entry per slot of `SubspaceIndex::new(subspace)`, with
/// [`Packed::NONE`] in padding slots (and nowhere else). The file is written to a
/// temporary file in the same directory, synced, and renamed over the final name,
/// so a reader sees either no file or the complete one; the output bytes depend
/// only on the arguments (not on the thread count).
pub fn write_subspace(
    dir: &Path,
    rules: &RuleSet,
    subspace: Subspace,
    values: &[Packed],
) -> Result<PathBuf, TablebaseError> {
    write_table(dir, rules, None, subspace, values)
}

/// Writes the table of `subspace` of placing layer `placed` (placements made) as
/// `dir/<rules>/p<placed>-<m>v<o>.tgtb`, atomically, as [`write_subspace`] does.
pub fn write_placing(
    dir: &Path,
    rules: &RuleSet,
    placed: u8,
    subspace: Subspace,
    values: &[Packed],
) -> Result<PathBuf, TablebaseError> {
    write_table(dir, rules, Some(placed), subspace, values)
}

fn write_table(
    dir: &Path,
    rules: &RuleSet,
    placing: Option<u8>,
    subspace: Subspace,
    values: &[Packed],
) -> Result<PathBuf, TablebaseError> {
    let slots = SubspaceIndex::new(subspace).slots();
    if values.len() as u64 != slots {
        return Err(TablebaseError::InvalidValues(format!(
            "{} values for subspace {subspace}, which has {slots} slots",
            values.len()
        )));
    }
    let bytes = encode_table_with(rules, placing, subspace, values)?;
    write_table_file(
        dir,
        rules,
        TableKind::GameTheoretic,
        placing,
        subspace,
        &bytes,
    )
}

/// Writes the horizon table (values under the 100-turn rule of `rules`, turn limit
/// `rules.quiet`) of `subspace` into tablebase directory `dir`, as
/// `dir/<rules>/<m>v<o>.tghz`, atomically, and returns its path. `game` are the
/// subspace's game-theoretic values and `dtc100` its DTC₁₀₀ values (the horizon
/// pass's output), one per slot each, [`Packed::NONE`] in the padding slots.
pub fn write_horizon_subspace(
    dir: &Path,
    rules: &RuleSet,
    subspace: Subspace,
    game: &[Packed],
    dtc100: &[Packed],
) -> Result<PathBuf, TablebaseError> {
    write_horizon_table(dir, rules, None, subspace, game, dtc100)
}

/// Writes the horizon table of `subspace` of placing layer `placed` (its values
/// under the 100-turn rule, from the moving phase's at counter 0) as
/// `dir/<rules>/p<placed>-<m>v<o>.tghz`, atomically, as
/// [`write_horizon_subspace`] does; `game` are the layer's game-theoretic values.
pub fn write_placing_horizon(
    dir: &Path,
    rules: &RuleSet,
    placed: u8,
    subspace: Subspace,
    game: &[Packed],
    dtc100: &[Packed],
) -> Result<PathBuf, TablebaseError> {
    write_horizon_table(dir, rules, Some(placed), subspace, game, dtc100)
}

fn write_horizon_table(
    dir: &Path,
    rules: &RuleSet,
    placing: Option<u8>,
    subspace: Subspace,
    game: &[Packed],
    dtc100: &[Packed],
) -> Result<PathBuf, TablebaseError> {
    let slots = SubspaceIndex::new(subspace).slots();
    if game.len() as u64 != slots || dtc100.len() as u64 != slots {
        return Err(TablebaseError::InvalidValues(format!(
            "{} and {} values for subspace {subspace}, which has {slots} slots",
            game.len(),
            dtc100.len()
        )));
    }
    let bytes = encode_horizon_table_with(rules, placing, subspace, game, dtc100)?;
    write_table_file(dir, rules, TableKind::Horizon, placing, subspace, &bytes)
}

fn write_table_file(
    dir: &Path,
    rules: &RuleSet,
    kind: TableKind,
    placing: Option<u8>,
    subspace: Subspace,
    bytes: &[u8],
) -> Result<PathBuf, TablebaseError> {
    let rdir = rules_dir(dir, rules);
    fs::create_dir_all(&rdir).map_err(|e| TablebaseError::io(&rdir, e))?;
    let path = any_kind_path(dir, rules, kind, placing, subspace);
    write_atomically(&path, bytes)?;
    Ok(path)
}

/// Writes `bytes` to `path` atomically: a temporary file beside it, fsync, rename,
/// fsync of the directory.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), TablebaseError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("table");
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    let result = (|| {
        let mut f = fs::File::create(&tmp).map_err(|e| TablebaseError::io(&tmp, e))?;
        f.write_all(bytes)
            .map_err(|e| TablebaseError::io(&tmp, e))?;
        f.sync_all().map_err(|e| TablebaseError::io(&tmp, e))?;
        drop(f);
        fs::rename(&tmp, path).map_err(|e| TablebaseError::io(path, e))?;
        // Make the rename itself durable. Directories cannot be opened for syncing
        // on every platform; failing to is not an error there.
        if let Ok(d) = fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Removes from directory `dir` the temporary files ([`write_atomically`]'s
/// `.NAME.tmpPID`) whose writing process is gone: a killed run's half-written
/// files. A temporary of a process that still runs is left alone, whoever it is.
/// Returns the names removed.
pub fn remove_stale_temporaries(dir: &Path) -> Vec<String> {
    let mut removed = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return removed;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = temporary_owner(&name) else {
            continue;
        };
        if !crate::lock::process_alive(pid) && fs::remove_file(e.path()).is_ok() {
            removed.push(name);
        }
    }
    removed
}

/// The process id in a temporary file's name `.NAME.tmpPID`, if it is one.
fn temporary_owner(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?;
    let (_, pid) = rest.rsplit_once(".tmp")?;
    pid.parse().ok()
}

fn wdl_code(p: u16) -> u8 {
    match Packed(p).get() {
        Some(Value::Win(_)) => WDL_WIN,
        Some(Value::Loss(_)) => WDL_LOSS,
        _ => WDL_DRAW,
    }
}

/// Encodes `values` (one per slot, [`Packed::NONE`] for padding) as the bytes of a
/// complete tablebase file for `subspace` under `rules`. Does not check the slot
/// count against the index; [`write_subspace`] does.
pub fn encode_table(
    rules: &RuleSet,
    subspace: Subspace,
    values: &[Packed],
) -> Result<Vec<u8>, TablebaseError> {
    encode_table_with(rules, None, subspace, values)
}

/// [`encode_table`] for a moving-phase table (`placing == None`) or a table of
/// placing layer `placing`.
pub fn encode_table_with(
    rules: &RuleSet,
    placing: Option<u8>,
    subspace: Subspace,
    values: &[Packed],
) -> Result<Vec<u8>, TablebaseError> {
    if values.is_empty() {
        return Err(TablebaseError::InvalidValues("no slots".into()));
    }
    let mut counts = ClassCounts::default();
    for (slot, v) in values.iter().enumerate() {
        match v.get() {
            None => {}
            Some(Value::Draw) => counts.draws += 1,
            Some(Value::Win(d)) if d <= MAX_DTC => {
                counts.wins += 1;
                counts.max_dtc_win = counts.max_dtc_win.max(d);
            }
            Some(Value::Loss(d)) if d <= MAX_DTC => {
                counts.losses += 1;
                counts.max_dtc_loss = counts.max_dtc_loss.max(d);
            }
            Some(_) => {
                return Err(TablebaseError::InvalidValues(format!(
                    "slot {slot} holds {:#06x}, not a packed value",
                    v.0
                )))
            }
        }
    }
    let first = compress_section(
        values.len(),
        WDL_SLOTS_PER_BLOCK,
        WDL_ZSTD_LEVEL,
        SECTION_WDL,
        |i| values[i].is_some().then_some(values[i].0),
        Packed::DRAW.0,
        |raw, j, _, p| raw[j / 4] |= wdl_code(p) << (2 * (j % 4)),
    )?;
    let second = compress_section(
        values.len(),
        DTC_SLOTS_PER_BLOCK,
        DTC_ZSTD_LEVEL,
        SECTION_DTC,
        |i| values[i].is_some().then_some(values[i].0),
        Packed::DRAW.0,
        |raw, j, n, p| {
            raw[j] = p as u8;
            raw[n + j] = (p >> 8) as u8;
        },
    )?;
    let header = Header {
        kind: TableKind::GameTheoretic,
        rules: rules.without_quiet_limit(),
        rules_name: rules.name(),
        subspace,
        placing,
        slots: values.len() as u64,
        counts,
        wdl: first.desc(SECTION_WDL, ENCODING_WDL_2BIT, WDL_ZSTD_LEVEL),
        dtc: second.desc(SECTION_DTC, ENCODING_DTC_U16_PLANES, DTC_ZSTD_LEVEL),
    };
    Ok(assemble(header, &first, &second))
}

/// The DTC₁₀₀ byte of a value under the rule at counter 0 (`docs/FORMAT.md`).
fn dtc100_byte(v: Value) -> u8 {
    match v {
        Value::Draw => DTC100_DRAW,
        Value::Win(h) => h as u8,
        Value::Loss(h) => DTC100_LOSS | h as u8,
    }
}

/// Encodes a horizon table (see [`write_horizon_subspace`]) as the bytes of a
/// complete file. Fails when a DTC₁₀₀ value exceeds the turn limit or contradicts
/// the game-theoretic value (a win under the rule that is not a win ignoring it).
pub fn encode_horizon_table(
    rules: &RuleSet,
    subspace: Subspace,
    game: &[Packed],
    dtc100: &[Packed],
) -> Result<Vec<u8>, TablebaseError> {
    encode_horizon_table_with(rules, None, subspace, game, dtc100)
}

/// [`encode_horizon_table`] for the moving phase (`placing == None`) or placing
/// layer `placing`, whose DTC₁₀₀ may exceed the turn limit by the placements still
/// to come ([`dtc100_limit`]).
pub fn encode_horizon_table_with(
    rules: &RuleSet,
    placing: Option<u8>,
    subspace: Subspace,
    game: &[Packed],
    dtc100: &[Packed],
) -> Result<Vec<u8>, TablebaseError> {
    let limit = dtc100_limit(rules, placing);
    if game.is_empty() || game.len() != dtc100.len() {
        return Err(TablebaseError::InvalidValues(format!(
            "{} game-theoretic and {} DTC100 values",
            game.len(),
            dtc100.len()
        )));
    }
    let mut counts = ClassCounts::default();
    for (slot, (g, h)) in game.iter().zip(dtc100).enumerate() {
        let (Some(g), Some(h)) = (g.get(), h.get()) else {
            if g.is_some() != h.is_some() {
                return Err(TablebaseError::InvalidValues(format!(
                    "slot {slot}: padding in one table only"
                )));
            }
            continue;
        };
        let bad = |what: &str| {
            Err(TablebaseError::InvalidValues(format!(
                "slot {slot}: DTC100 {h:?} {what} (game-theoretic value {g:?})"
            )))
        };
        if h.dtc().is_some_and(|d| d > limit) {
            return bad("beyond the turn limit");
        }
        if Category::of(g.wdl(), h.wdl()).is_none() {
            return bad("contradicts the game-theoretic value");
        }
        match h {
            Value::Draw => counts.draws += 1,
            Value::Win(d) => {
                counts.wins += 1;
                counts.max_dtc_win = counts.max_dtc_win.max(d);
            }
            Value::Loss(d) => {
                counts.losses += 1;
                counts.max_dtc_loss = counts.max_dtc_loss.max(d);
            }
        }
    }
    // The category of a real slot, or None for padding.
    let category = |i: usize| {
        let (g, h) = (game[i].get()?, dtc100[i].get()?);
        Category::of(g.wdl(), h.wdl())
    };
    let first = compress_section(
        game.len(),
        CATEGORY_SLOTS_PER_BLOCK,
        WDL_ZSTD_LEVEL,
        SECTION_CATEGORY,
        |i| category(i).map(Category::code),
        Category::Draw.code(),
        |raw, j, _, code| raw[j / 2] |= code << (4 * (j % 2)),
    )?;
    let second = compress_section(
        game.len(),
        DTC100_SLOTS_PER_BLOCK,
        DTC_ZSTD_LEVEL,
        SECTION_DTC100,
        |i| dtc100[i].get().map(dtc100_byte),
        DTC100_DRAW,
        |raw, j, _, b| raw[j] = b,
    )?;
    let header = Header {
        kind: TableKind::Horizon,
        rules: *rules,
        rules_name: rules.name(),
        subspace,
        placing,
        slots: game.len() as u64,
        counts,
        wdl: first.desc(SECTION_CATEGORY, ENCODING_CATEGORY_4BIT, WDL_ZSTD_LEVEL),
        dtc: second.desc(SECTION_DTC100, ENCODING_DTC100_U8, DTC_ZSTD_LEVEL),
    };
    Ok(assemble(header, &first, &second))
}

/// One section's compressed blocks, in block order.
struct Blocks {
    slots_per_block: u32,
    blocks: Vec<Vec<u8>>,
}

impl Blocks {
    /// The section's descriptor, offsets still 0 ([`assemble`] sets them).
    fn desc(&self, kind: u8, encoding: u8, level: i32) -> SectionDesc {
        SectionDesc {
            kind,
            encoding,
            compression: COMPRESSION_ZSTD,
            level: level as u8,
            slots_per_block: self.slots_per_block,
            block_count: self.blocks.len() as u64,
            table_offset: 0,
            data_offset: 0,
            data_len: self.blocks.iter().map(|b| b.len() as u64).sum(),
        }
    }
}

/// The bytes of a whole file: header, both block tables, head checksum, both
/// sections' blocks, file checksum (`docs/FORMAT.md`).
fn assemble(mut header: Header, first: &Blocks, second: &Blocks) -> Vec<u8> {
    let slots = header.slots;
    header.wdl.table_offset = HEADER_LEN as u64;
    header.dtc.table_offset = header.wdl.table_offset + header.wdl.block_count * ENTRY_LEN as u64;
    header.wdl.data_offset = header.head_len() + 8;
    header.dtc.data_offset = header.wdl.data_offset + header.wdl.data_len;

    let mut out = Vec::with_capacity(header.file_len() as usize);
    out.extend_from_slice(&header.to_bytes());
    for (desc, blocks) in [(&header.wdl, first), (&header.dtc, second)] {
        let mut offset = desc.data_offset;
        for (b, data) in blocks.blocks.iter().enumerate() {
            let n = block_slots(slots, desc.slots_per_block, b as u64);
            let entry = BlockEntry {
                offset,
                compressed_len: data.len() as u32,
                raw_len: raw_block_len(desc.kind, n) as u32,
                checksum: checksum(data),
            };
            out.extend_from_slice(&entry.to_bytes());
            offset += data.len() as u64;
        }
    }
    debug_assert_eq!(out.len() as u64, header.head_len());
    let head = checksum(&out);
    out.extend_from_slice(&head.to_le_bytes());
    for data in first.blocks.iter().chain(&second.blocks) {
        out.extend_from_slice(data);
    }
    let whole = checksum(&out);
    out.extend_from_slice(&whole.to_le_bytes());
    debug_assert_eq!(out.len() as u64, header.file_len());
    out
}

/// Encodes and compresses every block of one section of `slots` slots, in
/// parallel, in block order. `value(i)` is slot `i`'s value, `None` for padding:
/// a padding slot is written as the nearest real slot before it (`fill` when there
/// is none), which keeps runs unbroken. `put(raw, j, n, v)` encodes value `v` of
/// slot `j` of a block of `n` slots into the block's bytes.
fn compress_section<T: Copy + Send + Sync>(
    slots: usize,
    spb: u32,
    level: i32,
    kind: u8,
    value: impl Fn(usize) -> Option<T> + Sync,
    fill: T,
    put: impl Fn(&mut [u8], usize, usize, T) + Sync,
) -> Result<Blocks, TablebaseError> {
    let blocks = (slots as u64).div_ceil(spb as u64);
    let blocks = (0..blocks)
        .into_par_iter()
        .map_init(
            || zstd::bulk::Compressor::new(level),
            |compressor, b| {
                let start = (b * spb as u64) as usize;
                let n = block_slots(slots as u64, spb, b) as usize;
                let mut raw = vec![0u8; raw_block_len(kind, n as u64) as usize];
                let mut prev = (0..=start).rev().find_map(&value).unwrap_or(fill);
                for j in 0..n {
                    if let Some(v) = value(start + j) {
                        prev = v;
                    }
                    put(&mut raw, j, n, prev);
                }
                let failed = |e: std::io::Error| {
                    TablebaseError::InvalidValues(format!("zstd compression failed: {e}"))
                };
                match compressor {
                    Ok(c) => c.compress(&raw).map_err(failed),
                    Err(e) => Err(failed(std::io::Error::new(e.kind(), e.to_string()))),
                }
            },
        )
        .collect::<Result<_, _>>()?;
    Ok(Blocks {
        slots_per_block: spb,
        blocks,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_temporaries_go_and_live_ones_stay() {
        let dir = tempfile::tempdir().unwrap();
        let own = format!(".3v3.tgtb.tmp{}", std::process::id());
        // No process has this id (Linux ids stay below 2^22).
        let dead = format!(".4v3.tgtb.tmp{}", i32::MAX);
        for name in [&own, &dead, &"3v3.tgtb".to_string(), &".lock".to_string()] {
            fs::write(dir.path().join(name), b"x").unwrap();
        }
        let removed = remove_stale_temporaries(dir.path());
        assert_eq!(removed, vec![dead.clone()]);
        assert!(dir.path().join(&own).exists());
        assert!(dir.path().join("3v3.tgtb").exists());
        assert_eq!(temporary_owner(".manifest.json.tmp12"), Some(12));
        assert_eq!(temporary_owner("3v3.tgtb"), None);
    }
}
