//! Writing tablebase files: encoding a table's values into the format of
//! `docs/FORMAT.md` (the same for every kind; what each kind stores is in
//! [`crate::kind`]), and writing files atomically.

use crate::dir::TableId;
use crate::error::TablebaseError;
use crate::format::*;
use crate::kind::{
    horizon_entries, value_entries, BlockSize, Entries, Section, TableData, ZstdLevels,
};
use crate::reader::table::Table;
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
/// does). The sections are at the default levels ([`ZstdLevels::DEFAULT`]) and
/// block sizes ([`BlockSize::Default`]).
pub fn encode(rules: &RuleSet, id: TableId, data: TableData) -> Result<Vec<u8>, TablebaseError> {
    Ok(compress(rules, id, data, ZstdLevels::DEFAULT, BlockSize::Default)?.into_bytes())
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

/// The compression half of [`encode`], with the sections at `levels` in blocks of
/// `size`: every block of both sections compressed (in parallel), the header
/// filled in. The file's bytes are [`Compressed::into_bytes`].
pub fn compress(
    rules: &RuleSet,
    id: TableId,
    data: TableData,
    levels: ZstdLevels,
    size: BlockSize,
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
        Entries::Values(values) => compress_sections(
            slots,
            sections,
            (levels, size),
            |i| value_entries(values[i]),
            fill,
        ),
        Entries::Horizon { game, dtc100 } => compress_sections(
            slots,
            sections,
            (levels, size),
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
    slots_per_block: u32,
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
    encoding: (ZstdLevels, BlockSize),
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
            encoding,
            |i| entry(i).map(|e| e[0]),
            fill[0],
        ),
        compress_section(
            slots,
            sections[1],
            encoding,
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
    (levels, size): (ZstdLevels, BlockSize),
    entry: impl Fn(usize) -> Option<u16> + Sync,
    fill: u16,
) -> Result<Blocks, TablebaseError> {
    let spb = size.slots_per_block(section);
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
            compress_block(section, &words, level)
        })
        .collect::<Result<_, _>>()?;
    Ok(Blocks {
        section,
        level,
        slots_per_block: spb,
        blocks,
    })
}

/// One block of `section` holding the entries `words`, packed and compressed at
/// zstd level `level`: the one encoding of a block that writing and
/// [`reblock`] share.
fn compress_block(section: Section, words: &[u16], level: i32) -> Result<Vec<u8>, TablebaseError> {
    zstd_compress(&section.pack(words), level)
        .map_err(|e| TablebaseError::InvalidValues(format!("zstd compression failed: {e}")))
}

/// The bytes of `table`'s file with the blocks of both its sections holding
/// `block_bytes` decompressed bytes each ([`BlockSize::bytes`]): `solve` writes
/// [`BlockSize::Default`] unless told otherwise (`--block-kib`). Every slot keeps
/// its entry (padding its filler, which does not depend on where blocks start)
/// and every block the zstd level its section was written at; a section whose
/// blocks already have that size is copied as it is, so with a table's own sizes
/// the result is its own bytes. Every block is read and its checksum checked.
/// A table solved with [`BlockSize::Bytes`] of that size has these bytes too.
pub fn reblock(table: &Table, block_bytes: u32) -> Result<Vec<u8>, TablebaseError> {
    let size = BlockSize::bytes(block_bytes).map_err(TablebaseError::InvalidValues)?;
    let mut header = table.header().clone();
    let slots = header.slots;
    let sections = header.kind.sections();
    let mut rewritten = Vec::with_capacity(2);
    for (section, desc) in sections.into_iter().zip([&header.wdl, &header.dtc]) {
        let old = desc.slots_per_block as u64;
        let new = size.slots_per_block(section) as u64;
        let level = desc.level as i32;
        let blocks = if new == old {
            (0..desc.block_count)
                .into_par_iter()
                .map(|b| table.compressed_block(section, b))
                .collect::<Result<_, _>>()?
        } else {
            // Groups of slots that start an old and a new block alike, decoded
            // and compressed again in parallel: both sizes are powers of two
            // (the writer's are); any other old size makes a group of their
            // least common multiple.
            let group = old / gcd(old, new) * new;
            if group > 1 << 26 {
                return Err(TablebaseError::InvalidValues(format!(
                    "{section:?} blocks of {old} slots cannot be regrouped into blocks of {new}"
                )));
            }
            let groups: Vec<Vec<Vec<u8>>> = (0..slots.div_ceil(group))
                .into_par_iter()
                .map(|g| {
                    let (start, end) = (g * group, ((g + 1) * group).min(slots));
                    let mut words = Vec::with_capacity((end - start) as usize);
                    for b in start / old..end.div_ceil(old) {
                        let raw = table.read_block(section, b)?;
                        let n = block_slots(slots, old as u32, b) as usize;
                        words.extend((0..n).map(|j| section.get(&raw, j, n)));
                    }
                    words
                        .chunks(new as usize)
                        .map(|w| compress_block(section, w, level))
                        .collect()
                })
                .collect::<Result<_, _>>()?;
            groups.into_iter().flatten().collect()
        };
        rewritten.push(Blocks {
            section,
            level,
            slots_per_block: new as u32,
            blocks,
        });
    }
    let second = rewritten.pop().expect("two sections");
    let first = rewritten.pop().expect("two sections");
    header.wdl = first.desc();
    header.dtc = second.desc();
    Ok(assemble(header, &first, &second))
}

/// Greatest common divisor.
fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values of every kind of slot of the subspace of `index`, padding
    /// where the index has no board: wins, losses and draws at depths up to
    /// 100 in an irregular pattern, so that no two blocks are alike.
    fn varied_values(index: &tigadi_index::SubspaceIndex, salt: u64) -> Vec<tigadi_values::Packed> {
        use tigadi_values::{Packed, Value};
        (0..index.slots())
            .map(|slot| {
                let h = (slot ^ salt).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
                match (index.board(slot), h % 3) {
                    (None, _) => Packed::NONE,
                    (Some(_), 0) => Packed::new(Value::Win(1 + (h >> 4) as u16 % 100)),
                    (Some(_), 1) => Packed::new(Value::Loss((h >> 4) as u16 % 100)),
                    _ => Packed::DRAW,
                }
            })
            .collect()
    }

    /// `reblock` with a table's own block sizes gives its own bytes, and with
    /// other sizes a file whose every slot holds the entries written (the test's
    /// values, the oracle), for each kind of table, read both whole and slot by
    /// slot through the cache; sizes that are no power of two, or out of range,
    /// are refused.
    #[test]
    fn reblock_keeps_every_entry_at_any_block_size() {
        use crate::dir::{TableId, TablebaseDir};
        use crate::kind::Entry;
        use crate::kind::{field, TableKind};
        use crate::reader::cache::BlockCache;
        use tigadi_index::{Subspace, SubspaceIndex};
        use tigadi_values::{Category, Packed, Value};

        let rules = RuleSet::parse("tigadi").unwrap();
        let subspace = Subspace::new(3, 3);
        let index = SubspaceIndex::new(subspace);
        let game = varied_values(&index, 1);
        // Under the rule: a win or loss kept or drawn, a draw drawn.
        let dtc100: Vec<Packed> = game
            .iter()
            .enumerate()
            .map(|(i, &v)| match v.get() {
                Some(Value::Win(n)) if i % 5 != 0 => Packed::new(Value::Win(n)),
                Some(Value::Loss(n)) if i % 7 != 0 => Packed::new(Value::Loss(n)),
                Some(_) => Packed::DRAW,
                None => Packed::NONE,
            })
            .collect();
        let dtw = varied_values(&index, 2);
        let root = tempfile::tempdir().unwrap();
        let dir = TablebaseDir::new(root.path(), &rules);
        let written = [
            (TableKind::GameTheoretic, TableData::Game(&game)),
            (
                TableKind::Horizon,
                TableData::Horizon {
                    game: &game,
                    dtc100: &dtc100,
                },
            ),
            (TableKind::Dtw, TableData::Dtw(&dtw)),
        ];
        let real = |slot: u64| index.board(slot).is_some();
        for (kind, data) in written {
            let id = TableId::moving(kind, subspace);
            let path = dir.write(id, data).unwrap();
            let own = fs::read(&path).unwrap();
            let table = Table::open(&path).unwrap();
            let reblocked = |t: &Table, bytes: u32| {
                let file = reblock(t, bytes).unwrap();
                (file.clone(), Table::from_bytes(&path, file).unwrap())
            };
            if kind == TableKind::Horizon {
                // Both its sections have 16 KiB blocks.
                assert!(
                    reblock(&table, 16_384).unwrap() == own,
                    "own sizes, own bytes"
                );
            }
            // The result does not depend on the blocks it was read from.
            let direct = reblock(&table, 1024).unwrap();
            for via in [4096, 65_536] {
                let (file, t) = reblocked(&table, via);
                assert!(reblock(&t, 1024).unwrap() == direct, "{kind:?} via {via}");
                assert!(reblock(&t, via).unwrap() == file, "{kind:?} again at {via}");
            }
            for bytes in [1024, 4096, 65_536] {
                let (_, t) = reblocked(&table, bytes);
                t.check_file_checksum().unwrap();
                let (h, old) = (t.header(), table.header());
                for (section, desc) in kind.sections().into_iter().zip([&h.wdl, &h.dtc]) {
                    let raw = section.raw_len(desc.slots_per_block as u64);
                    assert_eq!(raw, bytes as u64, "{kind:?} {section:?}");
                }
                assert_eq!((h.dtc.level, h.wdl.level), (old.dtc.level, old.wdl.level));
                // Whole: every real slot holds what was written.
                let (read, wanted): (Vec<Value>, Vec<Value>) = match kind {
                    TableKind::Horizon => {
                        let classes = t.decode::<field::Category>().unwrap();
                        let read = t.decode::<field::Dtc100>().unwrap();
                        for slot in (0..index.slots()).filter(|&s| real(s)) {
                            let (g, r) = (game[slot as usize], dtc100[slot as usize]);
                            let class =
                                Category::of(g.get().unwrap().wdl(), r.get().unwrap().wdl());
                            assert!(
                                Some(classes[slot as usize]) == class,
                                "{bytes}: class {slot}"
                            );
                        }
                        (
                            read.iter().map(|p| p.value()).collect(),
                            dtc100
                                .iter()
                                .map(|p| p.get().unwrap_or(Value::Draw))
                                .collect(),
                        )
                    }
                    _ => {
                        let values = if kind == TableKind::Dtw { &dtw } else { &game };
                        (
                            t.values().unwrap().iter().map(|p| p.value()).collect(),
                            values
                                .iter()
                                .map(|p| p.get().unwrap_or(Value::Draw))
                                .collect(),
                        )
                    }
                };
                for slot in (0..index.slots()).filter(|&s| real(s)) {
                    let i = slot as usize;
                    assert!(
                        read[i] == wanted[i],
                        "{kind:?} at {bytes} bytes a block: slot {slot}"
                    );
                }
                // Slot by slot through the cache, as a probe reads.
                let cache = BlockCache::new(4);
                for slot in (0..index.slots()).filter(|&s| real(s)).step_by(97) {
                    let got = match kind {
                        TableKind::GameTheoretic => t.get::<field::Dtc>(&cache, 0, slot),
                        TableKind::Horizon => t.get::<field::Dtc100>(&cache, 0, slot),
                        TableKind::Dtw => t.get::<field::Dtw>(&cache, 0, slot),
                    };
                    assert!(
                        got.unwrap() == wanted[slot as usize],
                        "{kind:?} at {bytes}: probe {slot}"
                    );
                }
                // Padding keeps its filler too: the whole sections decode alike.
                let same = match kind {
                    TableKind::Horizon => {
                        t.decode::<field::Dtc100>().unwrap()
                            == table.decode::<field::Dtc100>().unwrap()
                    }
                    _ => t.values().unwrap() == table.values().unwrap(),
                };
                assert!(same, "{kind:?} at {bytes} bytes a block: padding");
            }
            for bad in [512, 3000, 1 << 21] {
                assert!(reblock(&table, bad).is_err(), "{bad} bytes a block");
            }
        }
    }

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
