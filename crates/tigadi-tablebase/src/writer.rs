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
use tigadi_solve::{Packed, Value, MAX_DTC};

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
    let rdir = rules_dir(dir, rules);
    fs::create_dir_all(&rdir).map_err(|e| TablebaseError::io(&rdir, e))?;
    let path = any_table_path(dir, rules, placing, subspace);
    write_atomically(&path, &bytes)?;
    Ok(path)
}

/// Writes `bytes` to `path` atomically: a temporary file beside it, fsync, rename,
/// fsync of the directory.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), TablebaseError> {
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

/// The value of slot `i` as written: padding slots take the value of the nearest
/// real slot before them (a draw when there is none), which keeps runs unbroken.
fn filled(values: &[Packed], i: usize) -> u16 {
    values[..=i]
        .iter()
        .rev()
        .find(|v| v.is_some())
        .map_or(Packed::DRAW.0, |v| v.0)
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
    let slots = values.len() as u64;
    let wdl_blocks = compress_section(values, SECTION_WDL, WDL_SLOTS_PER_BLOCK, WDL_ZSTD_LEVEL)?;
    let dtc_blocks = compress_section(values, SECTION_DTC, DTC_SLOTS_PER_BLOCK, DTC_ZSTD_LEVEL)?;

    let section = |kind, encoding, level: i32, spb: u32, blocks: &[Vec<u8>]| SectionDesc {
        kind,
        encoding,
        compression: COMPRESSION_ZSTD,
        level: level as u8,
        slots_per_block: spb,
        block_count: blocks.len() as u64,
        table_offset: 0,
        data_offset: 0,
        data_len: blocks.iter().map(|b| b.len() as u64).sum(),
    };
    let mut header = Header {
        rules: *rules,
        rules_name: rules.name(),
        subspace,
        placing,
        slots,
        counts,
        wdl: section(
            SECTION_WDL,
            ENCODING_WDL_2BIT,
            WDL_ZSTD_LEVEL,
            WDL_SLOTS_PER_BLOCK,
            &wdl_blocks,
        ),
        dtc: section(
            SECTION_DTC,
            ENCODING_DTC_U16_PLANES,
            DTC_ZSTD_LEVEL,
            DTC_SLOTS_PER_BLOCK,
            &dtc_blocks,
        ),
    };
    header.wdl.table_offset = HEADER_LEN as u64;
    header.dtc.table_offset = header.wdl.table_offset + header.wdl.block_count * ENTRY_LEN as u64;
    header.wdl.data_offset = header.head_len() + 8;
    header.dtc.data_offset = header.wdl.data_offset + header.wdl.data_len;

    let mut out = Vec::with_capacity(header.file_len() as usize);
    out.extend_from_slice(&header.to_bytes());
    for (desc, blocks) in [(&header.wdl, &wdl_blocks), (&header.dtc, &dtc_blocks)] {
        let mut offset = desc.data_offset;
        for (b, data) in blocks.iter().enumerate() {
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
    for data in wdl_blocks.iter().chain(&dtc_blocks) {
        out.extend_from_slice(data);
    }
    let whole = checksum(&out);
    out.extend_from_slice(&whole.to_le_bytes());
    debug_assert_eq!(out.len() as u64, header.file_len());
    Ok(out)
}

/// Encodes and compresses every block of one section, in parallel, in block order.
fn compress_section(
    values: &[Packed],
    kind: u8,
    spb: u32,
    level: i32,
) -> Result<Vec<Vec<u8>>, TablebaseError> {
    let slots = values.len() as u64;
    let blocks = slots.div_ceil(spb as u64);
    (0..blocks)
        .into_par_iter()
        .map_init(
            || zstd::bulk::Compressor::new(level),
            |compressor, b| {
                let start = (b * spb as u64) as usize;
                let n = block_slots(slots, spb, b) as usize;
                let mut raw = vec![0u8; raw_block_len(kind, n as u64) as usize];
                let mut prev = filled(values, start);
                for j in 0..n {
                    let v = values[start + j];
                    if v.is_some() {
                        prev = v.0;
                    }
                    if kind == SECTION_WDL {
                        raw[j / 4] |= wdl_code(prev) << (2 * (j % 4));
                    } else {
                        raw[j] = prev as u8;
                        raw[n + j] = (prev >> 8) as u8;
                    }
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
        .collect()
}
