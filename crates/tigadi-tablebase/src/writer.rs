//! Writing tablebase files: encoding a table's values into the format of
//! `docs/FORMAT.md` (the same for every kind; what each kind stores is in
//! [`crate::kind`]), and writing files atomically.

use crate::dir::TableId;
use crate::error::TablebaseError;
use crate::format::*;
use crate::kind::{horizon_entries, value_entries, Entries, Section, TableData, ZstdLevels};
use rayon::prelude::*;
use std::fs;
use std::io::Write;
use std::path::Path;
use tigadi_rules::RuleSet;

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

/// Encodes `data` as the bytes of the complete file of table `id` under
/// `rules` (`docs/FORMAT.md`): the header, the kind's two sections
/// ([`crate::TableKind::sections`]) in compressed, checksummed blocks, the checksums.
/// Fails on data of another kind than `id`'s or values the kind cannot hold; does
/// not check the slot count against the index ([`crate::TablebaseDir::write`]
/// does). The sections are at the default levels ([`ZstdLevels::DEFAULT`]).
pub fn encode(rules: &RuleSet, id: TableId, data: TableData) -> Result<Vec<u8>, TablebaseError> {
    Ok(compress(rules, id, data, ZstdLevels::DEFAULT)?.into_bytes())
}

/// A table's file before assembly: its header and its two sections' compressed
/// blocks ([`compress`]). Owns everything it needs, so the assembly and the write
/// can happen on another thread.
pub struct Compressed {
    header: Header,
    first: Blocks,
    second: Blocks,
}

impl Compressed {
    /// The bytes of the complete file.
    pub fn into_bytes(self) -> Vec<u8> {
        assemble(self.header, &self.first, &self.second)
    }
}

/// The compression half of [`encode`], with the sections at `levels`: every block
/// of both sections compressed (in parallel), the header filled in. The file's
/// bytes are [`Compressed::into_bytes`].
pub fn compress(
    rules: &RuleSet,
    id: TableId,
    data: TableData,
    levels: ZstdLevels,
) -> Result<Compressed, TablebaseError> {
    if data.kind() != id.kind {
        return Err(TablebaseError::InvalidValues(format!(
            "{:?} values for {}, a {:?} table",
            data.kind(),
            id.file_name(rules),
            id.kind
        )));
    }
    let slots = data.slots()?;
    let (counts, entries, fill) = data.entries(dtc100_limit(rules, id.tier.hands))?;
    let sections = id.kind.sections();
    // One copy of the section loop per kind of data, each reading its slots'
    // entries inline.
    let (first, second) = match entries {
        Entries::Values(values) => {
            compress_sections(slots, sections, levels, |i| value_entries(values[i]), fill)
        }
        Entries::Horizon { game, dtc100 } => compress_sections(
            slots,
            sections,
            levels,
            |i| horizon_entries(game[i], dtc100[i]),
            fill,
        ),
    };
    let (first, second) = (first?, second?);
    let header = Header {
        kind: id.kind,
        rules: id.kind.recorded_rules(rules),
        rules_name: rules.name(),
        subspace: id.tier.subspace,
        hands: id.tier.hands,
        slots: slots as u64,
        counts,
        wdl: first.desc(),
        dtc: second.desc(),
    };
    Ok(Compressed {
        header,
        first,
        second,
    })
}

/// One section's compressed blocks, in block order, at zstd level `level`.
struct Blocks {
    section: Section,
    level: i32,
    blocks: Vec<Vec<u8>>,
}

impl Blocks {
    /// The section's descriptor, offsets still 0 ([`assemble`] sets them).
    fn desc(&self) -> SectionDesc {
        SectionDesc {
            kind: self.section.code(),
            encoding: self.section.encoding(),
            compression: COMPRESSION_ZSTD,
            level: self.level as u8,
            slots_per_block: self.section.slots_per_block(),
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
                raw_len: blocks.section.raw_len(n) as u32,
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

/// [`compress_section`] of both sections, `entry(i)` giving slot `i`'s entries.
fn compress_sections(
    slots: usize,
    sections: [Section; 2],
    levels: ZstdLevels,
    entry: impl Fn(usize) -> Option<[u16; 2]> + Sync,
    fill: [u16; 2],
) -> (
    Result<Blocks, TablebaseError>,
    Result<Blocks, TablebaseError>,
) {
    (
        compress_section(
            slots,
            sections[0],
            levels,
            |i| entry(i).map(|e| e[0]),
            fill[0],
        ),
        compress_section(
            slots,
            sections[1],
            levels,
            |i| entry(i).map(|e| e[1]),
            fill[1],
        ),
    )
}

thread_local! {
    /// Each thread's zstd compression context, kept between blocks and tables.
    static COMPRESSOR: std::cell::RefCell<Option<(i32, zstd::bulk::Compressor<'static>)>> =
        const { std::cell::RefCell::new(None) };
}

/// Compresses `raw` at zstd level `level` with this thread's context.
fn zstd_compress(raw: &[u8], level: i32) -> std::io::Result<Vec<u8>> {
    COMPRESSOR.with(|c| {
        let mut c = c.borrow_mut();
        if !matches!(&*c, Some((l, _)) if *l == level) {
            *c = Some((level, zstd::bulk::Compressor::new(level)?));
        }
        let (_, compressor) = c.as_mut().expect("just made");
        compressor.compress(raw)
    })
}

/// Encodes and compresses every block of one section of `slots` slots, in
/// parallel, in block order. `entry(i)` is slot `i`'s entry, `None` for padding:
/// a padding slot is written as the nearest real slot before it (`fill` when there
/// is none), which keeps runs unbroken.
fn compress_section(
    slots: usize,
    section: Section,
    levels: ZstdLevels,
    entry: impl Fn(usize) -> Option<u16> + Sync,
    fill: u16,
) -> Result<Blocks, TablebaseError> {
    let spb = section.slots_per_block();
    let level = levels.of(section);
    let blocks = (slots as u64).div_ceil(spb as u64);
    let blocks = (0..blocks)
        .into_par_iter()
        .map(|b| {
            let start = (b * spb as u64) as usize;
            let n = block_slots(slots as u64, spb, b) as usize;
            let mut prev = (0..=start).rev().find_map(&entry).unwrap_or(fill);
            let words: Vec<u16> = (start..start + n)
                .map(|i| {
                    if let Some(e) = entry(i) {
                        prev = e;
                    }
                    prev
                })
                .collect();
            zstd_compress(&section.pack(&words), level)
                .map_err(|e| TablebaseError::InvalidValues(format!("zstd compression failed: {e}")))
        })
        .collect::<Result<_, _>>()?;
    Ok(Blocks {
        section,
        level,
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
