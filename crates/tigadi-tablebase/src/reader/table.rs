//! One tablebase file: opening and validating it, reading single values (through
//! the block cache) and decoding whole sections.
//!
//! On opening, the header and both block tables are checked against the head
//! checksum and the layout rules and then kept in memory: later reads use only
//! these checked copies, never the file's block tables again. Every block is read
//! with a positioned read (never memory-mapped: a mapped file that shrinks kills the
//! process with SIGBUS) and its checksum checked against the kept block table
//! before it is decompressed. So no byte a value is decoded from is trusted
//! unchecked, even if the file is rewritten or truncated while it is open: a block
//! that changed is [`TablebaseError::Corrupt`], one that is gone an error naming
//! the file.

use crate::dir::TableId;
use crate::error::TablebaseError;
use crate::format::*;
use crate::kind::{Entry, Field, Section};
use crate::reader::cache::BlockCache;
use rayon::prelude::*;
use std::cell::RefCell;
use std::fs::File;
use std::path::{Path, PathBuf};
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::RuleSet;
use tigadi_values::{Packed, Tier};

/// Where a table's bytes are read from.
enum Source {
    /// An open file, read with positioned reads.
    File(File),
    /// Bytes held in memory (tests, in-memory tables).
    Owned(Vec<u8>),
}

impl Source {
    /// Fills `buf` from `offset`, or `Ok(false)` if the source ends first.
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<bool> {
        match self {
            Source::File(f) => match read_exact_at(f, buf, offset) {
                Ok(()) => Ok(true),
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(false),
                Err(e) => Err(e),
            },
            Source::Owned(v) => {
                let range = usize::try_from(offset)
                    .ok()
                    .and_then(|start| Some(start..start.checked_add(buf.len())?))
                    .filter(|r| r.end <= v.len());
                match range {
                    Some(r) => {
                        buf.copy_from_slice(&v[r]);
                        Ok(true)
                    }
                    None => Ok(false),
                }
            }
        }
    }
}

#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(windows)]
fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, offset) {
            Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

thread_local! {
    /// One zstd decompression context per thread: creating one per block would
    /// cost more than the decompression itself.
    static DECOMPRESSOR: RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        RefCell::new(zstd::bulk::Decompressor::new().ok());
    /// The compressed bytes of the block being read, per thread (one allocation
    /// per thread rather than one per block).
    static COMPRESSED: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Bytes read at a time when checking the whole-file checksum.
const CHECKSUM_CHUNK: usize = 1 << 20;

/// One section's block table as checked at opening: where each compressed block
/// starts and ends, and its checksum.
struct Blocks {
    /// `block_count + 1` file offsets: block `b` is `offsets[b]..offsets[b + 1]`, all
    /// inside the section's data.
    offsets: Box<[u64]>,
    /// The checksum of each compressed block.
    checksums: Box<[u64]>,
}

/// One opened and validated tablebase file.
pub struct Table {
    path: PathBuf,
    source: Source,
    /// The file's length when it was opened (what the header describes).
    len: u64,
    /// The head checksum read at opening.
    head_checksum: u64,
    header: Header,
    /// The first and second sections' block tables, as checked at opening.
    blocks: [Blocks; 2],
}

impl Table {
    /// Opens and validates the file at `path` (header, layout, head checksum,
    /// block table), keeping the header and block tables. Does not read the blocks.
    pub fn open(path: &Path) -> Result<Table, TablebaseError> {
        let file = open_regular_file(path)?;
        let len = file
            .metadata()
            .map_err(|e| TablebaseError::io(path, e))?
            .len();
        Table::validate(path.to_path_buf(), Source::File(file), len)
    }

    /// Validates a file held in memory; `path` only names it in errors.
    pub fn from_bytes(path: &Path, bytes: Vec<u8>) -> Result<Table, TablebaseError> {
        let len = bytes.len() as u64;
        Table::validate(path.to_path_buf(), Source::Owned(bytes), len)
    }

    /// Reads `n` bytes at `offset` of `source` (a file of `len` bytes when opened).
    fn read_head(
        path: &Path,
        source: &Source,
        len: u64,
        offset: u64,
        n: u64,
    ) -> Result<Vec<u8>, TablebaseError> {
        if offset.checked_add(n).is_none_or(|end| end > len) {
            return Err(TablebaseError::corrupt(
                path,
                format!("{n} bytes at offset {offset} lie outside the file ({len} bytes)"),
            ));
        }
        let mut buf = vec![0u8; n as usize];
        match source.read_at(offset, &mut buf) {
            Ok(true) => Ok(buf),
            Ok(false) => Err(shrank(path, len, offset, n)),
            Err(e) => Err(TablebaseError::io(path, e)),
        }
    }

    fn validate(path: PathBuf, source: Source, len: u64) -> Result<Table, TablebaseError> {
        if len < HEADER_LEN as u64 {
            return Err(TablebaseError::corrupt(
                &path,
                format!("{len} bytes is too short for a header"),
            ));
        }
        let first = Table::read_head(&path, &source, len, 0, HEADER_LEN as u64)?;
        let header = Header::parse(&first, &path)?;
        if header.file_len() != len {
            return Err(TablebaseError::corrupt(
                &path,
                format!(
                    "{len} bytes, but the header describes {}",
                    header.file_len()
                ),
            ));
        }
        // The layout puts the head (header, block tables, head checksum) before the
        // data, so inside the `len` bytes just checked; read_head checks it again.
        let head_len = header.head_len();
        let head = Table::read_head(&path, &source, len, 0, head_len + 8)?;
        let head_len = head_len as usize;
        let head_checksum = u64_at(&head, head_len);
        if head[..HEADER_LEN] != first[..] || checksum(&head[..head_len]) != head_checksum {
            return Err(TablebaseError::corrupt(
                &path,
                "header or block table checksum mismatch",
            ));
        }
        let descs = [header.wdl, header.dtc];
        let blocks = [0, 1].map(|i| {
            section_blocks(&head, &header, header.kind.sections()[i], &descs[i])
                .map_err(|what| TablebaseError::corrupt(&path, what))
        });
        let [wdl, dtc] = blocks;
        Ok(Table {
            path,
            source,
            len,
            head_checksum,
            header,
            blocks: [wdl?, dtc?],
        })
    }

    fn corrupt(&self, what: impl Into<String>) -> TablebaseError {
        TablebaseError::corrupt(&self.path, what)
    }

    /// Calls `f` on the `n` bytes at `offset`, which must lie inside the file as it
    /// was opened (checked again here); read from the file now, not trusted.
    fn with_bytes<R>(
        &self,
        offset: u64,
        n: u64,
        f: impl FnOnce(&[u8]) -> Result<R, TablebaseError>,
    ) -> Result<R, TablebaseError> {
        if offset.checked_add(n).is_none_or(|end| end > self.len) {
            return Err(self.corrupt(format!(
                "{n} bytes at offset {offset} lie outside the file ({} bytes)",
                self.len
            )));
        }
        match &self.source {
            // In memory: no copy.
            Source::Owned(v) => f(&v[offset as usize..(offset + n) as usize]),
            Source::File(_) => COMPRESSED.with(|buf| {
                let mut buf = buf.borrow_mut();
                buf.resize(n as usize, 0);
                match self.source.read_at(offset, &mut buf) {
                    Ok(true) => f(&buf),
                    Ok(false) => Err(shrank(&self.path, self.len, offset, n)),
                    Err(e) => Err(TablebaseError::io(&self.path, e)),
                }
            }),
        }
    }
    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The parsed header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Checks the header's class counts against `values`, the table's values
    /// as [`Table::values`] decodes them: they must be the counts of its real
    /// boards ([`position_counts`]), padding left out.
    pub fn check_counts(&self, values: &[Packed]) -> Result<(), TablebaseError> {
        let counted = position_counts(self.header.subspace, values);
        if counted == self.header.counts {
            Ok(())
        } else {
            Err(self.corrupt(format!(
                "its header counts {:?} differ from its positions' {counted:?}",
                self.header.counts
            )))
        }
    }

    /// Tells the kernel that this file will be read at random, one block at a
    /// time (`POSIX_FADV_RANDOM`): no readahead around each block read. A prober
    /// reads a few kilobytes at scattered offsets, and the kernel's default
    /// readahead (up to 128 KiB after a cold read) reads pages that are never
    /// used and pushes used ones out of the page cache. A hint only: the bytes
    /// read are the same, and where it is not available nothing changes.
    pub fn advise_random(&self) {
        #[cfg(target_os = "linux")]
        if let Source::File(f) = &self.source {
            use std::os::fd::AsRawFd;
            // SAFETY: a valid open descriptor; the call only sets a hint.
            unsafe {
                libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_RANDOM);
            }
        }
    }

    /// The subspace the file holds.
    pub fn subspace(&self) -> Subspace {
        self.header.subspace
    }

    /// Checks that this is table `id` under `rules`: its kind, rule set (and turn
    /// limit, for a kind whose values depend on it), tier.
    pub fn expect(&self, rules: &RuleSet, id: TableId) -> Result<(), TablebaseError> {
        let subspace = id.tier.subspace;
        if self.header.kind != id.kind {
            return Err(self.corrupt(format!(
                "format version {} is a {:?} table, expected a {:?} one",
                self.header.kind.version(),
                self.header.kind,
                id.kind
            )));
        }
        let h = &self.header;
        if h.kind.has_turn_limit() && h.rules.quiet != rules.quiet {
            return Err(TablebaseError::RulesMismatch {
                file: self.path.clone(),
                what: format!(
                    "the values under the 100-turn rule were solved with turn limit quiet={}, \
                     not quiet={} as asked",
                    h.rules.quiet, rules.quiet
                ),
            });
        }
        if h.hands != id.tier.hands {
            return Err(TablebaseError::RulesMismatch {
                file: self.path.clone(),
                what: format!(
                    "expected {}, the file holds {}",
                    id.tier,
                    Tier::new(h.hands, h.subspace)
                ),
            });
        }
        if h.rules.without_quiet_limit() != rules.without_quiet_limit() || h.subspace != subspace {
            return Err(TablebaseError::RulesMismatch {
                file: self.path.clone(),
                what: format!(
                    "expected {subspace} under {rules}, the file holds {} under {} ({})",
                    h.subspace,
                    h.rules.name(),
                    h.rules_name
                ),
            });
        }
        Ok(())
    }

    /// Checks the whole-file checksum (every byte of the file, read now) and that
    /// the head is still the one checked at opening.
    pub fn check_file_checksum(&self) -> Result<(), TablebaseError> {
        let head_len = self.header.head_len();
        let body = self.len - 8;
        let (mut whole, mut head) = (
            xxhash_rust::xxh3::Xxh3::new(),
            xxhash_rust::xxh3::Xxh3::new(),
        );
        let mut at = 0;
        while at < body {
            let n = (body - at).min(CHECKSUM_CHUNK as u64);
            self.with_bytes(at, n, |chunk| {
                whole.update(chunk);
                if at < head_len {
                    head.update(&chunk[..(head_len - at).min(n) as usize]);
                }
                Ok(())
            })?;
            at += n;
        }
        let stored = self.with_bytes(body, 8, |b| Ok(u64_at(b, 0)))?;
        if head.digest() != self.head_checksum {
            return Err(self.corrupt("header or block table changed since the file was opened"));
        }
        if whole.digest() != stored {
            return Err(self.corrupt("whole-file checksum mismatch"));
        }
        Ok(())
    }

    /// Which of the file's two sections `section` is, or an error naming a
    /// section this kind of table does not have.
    fn section_number(&self, section: Section) -> Result<usize, TablebaseError> {
        match self
            .header
            .kind
            .sections()
            .iter()
            .position(|&s| s == section)
        {
            Some(i) => Ok(i),
            None => Err(TablebaseError::RulesMismatch {
                file: self.path.clone(),
                what: format!("a {:?} table has no {section:?} section", self.header.kind),
            }),
        }
    }

    fn desc(&self, i: usize) -> &SectionDesc {
        [&self.header.wdl, &self.header.dtc][i]
    }

    /// Bytes of the table's largest decompressed block (of either section).
    pub fn largest_block_bytes(&self) -> usize {
        let sections = self.header.kind.sections();
        (0..2)
            .map(|i| sections[i].raw_len(self.desc(i).slots_per_block as u64) as usize)
            .max()
            .unwrap_or(1)
    }

    /// Reads, checks and decompresses one block. Where the block is and its
    /// checksum come from the block table checked at opening; the block's bytes are
    /// read from the file now and checked against that checksum.
    pub fn read_block(&self, section: Section, block: u64) -> Result<Vec<u8>, TablebaseError> {
        let mut raw = Vec::new();
        self.read_block_into(section, block, &mut raw)?;
        Ok(raw)
    }

    /// [`Table::read_block`] into `raw`, whose earlier contents are dropped and
    /// whose allocation is reused (no allocation, and no zeroing, when it is large
    /// enough: the block cache recycles the blocks it evicts this way).
    pub fn read_block_into(
        &self,
        section: Section,
        block: u64,
        raw: &mut Vec<u8>,
    ) -> Result<(), TablebaseError> {
        let i = self.section_number(section)?;
        let desc = self.desc(i);
        if block >= desc.block_count {
            return Err(self.corrupt(format!("{section:?} block {block} out of range")));
        }
        let blocks = &self.blocks[i];
        let b = block as usize;
        let (start, end) = (blocks.offsets[b], blocks.offsets[b + 1]);
        let raw_len = section.raw_len(block_slots(self.header.slots, desc.slots_per_block, block));
        raw.clear();
        raw.reserve_exact(raw_len as usize);
        self.with_bytes(start, end - start, |data| {
            if checksum(data) != blocks.checksums[b] {
                return Err(self.corrupt(format!("{section:?} block {block}: checksum mismatch")));
            }
            // Into the spare capacity: at most its size (a frame that claims more
            // fails), and every byte of the result written by zstd.
            let result = DECOMPRESSOR.with(|d| match &mut *d.borrow_mut() {
                Some(d) => d.decompress_to_buffer(data, raw),
                None => zstd::bulk::Decompressor::new()?.decompress_to_buffer(data, raw),
            });
            match result {
                Ok(n) if n as u64 == raw_len && raw.len() as u64 == raw_len => Ok(()),
                Ok(n) => Err(self.corrupt(format!(
                    "{section:?} block {block}: {n} bytes decompressed, expected {raw_len}"
                ))),
                Err(e) => Err(self.corrupt(format!("{section:?} block {block}: zstd: {e}"))),
            }
        })
    }

    /// The compressed bytes of one block, checked against its checksum (for
    /// [`crate::reblock`], which copies a block whose size it keeps).
    pub(crate) fn compressed_block(
        &self,
        section: Section,
        block: u64,
    ) -> Result<Vec<u8>, TablebaseError> {
        let i = self.section_number(section)?;
        if block >= self.desc(i).block_count {
            return Err(self.corrupt(format!("{section:?} block {block} out of range")));
        }
        let blocks = &self.blocks[i];
        let b = block as usize;
        let (start, end) = (blocks.offsets[b], blocks.offsets[b + 1]);
        self.with_bytes(start, end - start, |data| {
            if checksum(data) != blocks.checksums[b] {
                return Err(self.corrupt(format!("{section:?} block {block}: checksum mismatch")));
            }
            Ok(data.to_vec())
        })
    }

    /// The entry of field `F` in `slot`, through `cache` (`key` identifies this
    /// table among the tables of its kind there, [`crate::TableId::place`]): the
    /// one way a probe reads a table.
    pub fn get<F: Field>(
        &self,
        cache: &BlockCache,
        key: u32,
        slot: u64,
    ) -> Result<<F::Entry as Entry>::Value, TablebaseError> {
        if slot >= self.header.slots {
            return Err(TablebaseError::InvalidPosition(format!(
                "slot {slot} outside subspace {} ({} slots)",
                self.header.subspace, self.header.slots
            )));
        }
        let section = F::SECTION;
        let spb = self.desc(self.section_number(section)?).slots_per_block as u64;
        let (block, j) = (slot / spb, (slot % spb) as usize);
        let n = block_slots(self.header.slots, spb as u32, block) as usize;
        let word = cache.with_block(
            self.largest_block_bytes(),
            self.header.kind,
            key,
            section,
            block,
            |raw| self.read_block_into(section, block, raw),
            |raw| section.get(raw, j, n),
        )?;
        match F::entry(&self.header, word) {
            Some(e) => Ok(e.value()),
            None => Err(self.corrupt(format!("slot {slot}: {} entry {word:#06x}", section.name()))),
        }
    }

    /// Decodes every slot of field `F`'s section, checking every block's checksum
    /// (not the whole-file checksum: [`Table::values`] does that too). Padding
    /// slots hold the filler the writer chose.
    pub fn decode<F: Field>(&self) -> Result<Vec<F::Entry>, TablebaseError> {
        let spb = self.desc(self.section_number(F::SECTION)?).slots_per_block;
        // Huge pages: the solver reads these values at random.
        let mut out =
            tigadi_values::memory::filled_vec(self.header.slots as usize, F::Entry::FILLER);
        out.par_chunks_mut(spb.max(1) as usize)
            .enumerate()
            .try_for_each(|(b, chunk)| {
                self.for_each_entry_of_block::<F>(b as u64, |j, e| chunk[j] = e)
            })?;
        Ok(out)
    }

    /// The slots, in order, whose entry of field `F` makes `bad(slot, entry)`
    /// true: [`Table::decode`] and a filter, block by block in parallel, without
    /// holding the whole section.
    pub fn slots_where<F: Field>(
        &self,
        bad: impl Fn(usize, F::Entry) -> bool + Sync,
    ) -> Result<Vec<u64>, TablebaseError> {
        let desc = *self.desc(self.section_number(F::SECTION)?);
        let spb = desc.slots_per_block as usize;
        let found: Vec<Vec<u64>> = (0..desc.block_count)
            .into_par_iter()
            .map(|b| {
                let mut found = Vec::new();
                self.for_each_entry_of_block::<F>(b, |j, e| {
                    let slot = b as usize * spb + j;
                    if bad(slot, e) {
                        found.push(slot as u64);
                    }
                })?;
                Ok(found)
            })
            .collect::<Result<_, TablebaseError>>()?;
        Ok(found.concat())
    }

    /// Calls `f(j, entry)` for the `j`th slot of block `b` of field `F`'s
    /// section, reading and checking the block; an entry the field cannot hold
    /// is an error naming its slot.
    fn for_each_entry_of_block<F: Field>(
        &self,
        b: u64,
        mut f: impl FnMut(usize, F::Entry),
    ) -> Result<(), TablebaseError> {
        let section = F::SECTION;
        let spb = self.desc(self.section_number(section)?).slots_per_block;
        let raw = self.read_block(section, b)?;
        let n = block_slots(self.header.slots, spb, b) as usize;
        for j in 0..n {
            let word = section.get(&raw, j, n);
            let e = F::entry(&self.header, word).ok_or_else(|| {
                self.corrupt(format!(
                    "{section:?} block {b}, slot {}: {} entry {word:#06x}",
                    b * spb as u64 + j as u64,
                    section.name()
                ))
            })?;
            f(j, e);
        }
        Ok(())
    }

    /// Every value of the table ([`crate::TableKind::decode_values`]: values with
    /// their DTC, DTC₁₀₀ or DTW), one [`Packed`] per slot (padding slots hold the
    /// filler value the writer chose, not [`Packed::NONE`]). Checks the whole-file
    /// checksum and every block's.
    pub fn values(&self) -> Result<Vec<Packed>, TablebaseError> {
        self.check_file_checksum()?;
        self.header.kind.decode_values(self)
    }
}

/// Puts [`Packed::NONE`] back into the padding slots of `values` (a whole table of
/// `subspace`, as [`crate::TablebaseDir::load`] returns it), so that it looks exactly like the
/// solver's output again. Sweeps the index's classes ([`SubspaceIndex::boards`]:
/// padding only where a symmetry fixes a run's mover set), in parallel; callers
/// that only look values up through the index do not need it.
///
/// # Panics
///
/// If `values` does not have one entry per slot of the subspace.
pub fn mark_padding(subspace: Subspace, values: &mut [Packed]) {
    let index = whole_table_index(subspace, values.len());
    values
        .par_chunks_mut(PADDING_CHUNK)
        .enumerate()
        .for_each(|(c, chunk)| empty_padding(&index, (c * PADDING_CHUNK) as u64, chunk));
}

/// The index of `subspace`, whose whole table has `len` slots.
///
/// # Panics
///
/// If it has not.
fn whole_table_index(subspace: Subspace, len: usize) -> SubspaceIndex {
    let index = SubspaceIndex::new(subspace);
    assert_eq!(len as u64, index.slots(), "a whole table of {subspace}");
    index
}

/// Puts [`Packed::NONE`] into the padding slots of `chunk`, the slots from
/// `start` on. Only runs whose canonical mover set a symmetry fixes have padding;
/// their real boards are found by sweeping them.
fn empty_padding(index: &SubspaceIndex, start: u64, chunk: &mut [Packed]) {
    let run = index.run_length();
    let end = start + chunk.len() as u64;
    for r in (start / run..end.div_ceil(run)).filter(|&r| index.run_mover(r).1) {
        let range = (r * run).max(start)..((r + 1) * run).min(end);
        let mut next = range.start;
        for (slot, _) in index.boards(range.clone()) {
            chunk[(next - start) as usize..(slot - start) as usize].fill(Packed::NONE);
            next = slot + 1;
        }
        chunk[(next - start) as usize..(range.end - start) as usize].fill(Packed::NONE);
    }
}

/// The class counts of the real boards of a whole table of `subspace` (as
/// [`crate::TablebaseDir::load`] returns it, fillers in padding, or as a solver
/// leaves it): what the header's counts must be ([`Table::check_counts`]).
/// Padding is found as [`mark_padding`] finds it, on a copy of each stretch.
pub fn position_counts(subspace: Subspace, values: &[Packed]) -> ClassCounts {
    let index = whole_table_index(subspace, values.len());
    values
        .par_chunks(PADDING_CHUNK)
        .enumerate()
        .map(|(c, chunk)| {
            let mut real = chunk.to_vec();
            empty_padding(&index, (c * PADDING_CHUNK) as u64, &mut real);
            let mut counts = ClassCounts::default();
            real.iter()
                .filter_map(|v| v.get())
                .for_each(|v| counts.add(v));
            counts
        })
        .reduce(ClassCounts::default, |mut a, b| {
            a.merge(&b);
            a
        })
}

/// Slots per parallel task of [`mark_padding`] and [`same_values`].
const PADDING_CHUNK: usize = 1 << 14;

/// Do two whole tables of `subspace` (as [`crate::TablebaseDir::load`] returns them)
/// hold the same value at every slot that is a real board? Padding slots, whose
/// fillers each writer chooses, are ignored: where a stretch of slots differs, it
/// is compared again with its padding emptied as [`mark_padding`] does, in
/// parallel.
///
/// # Panics
///
/// If `a` is not a whole table of `subspace`.
pub fn same_values(subspace: Subspace, a: &[Packed], b: &[Packed]) -> bool {
    let index = SubspaceIndex::new(subspace);
    assert_eq!(a.len() as u64, index.slots(), "a whole table of {subspace}");
    a.len() == b.len()
        && a.par_chunks(PADDING_CHUNK)
            .zip(b.par_chunks(PADDING_CHUNK))
            .enumerate()
            .all(|(c, (x, y))| {
                x == y || {
                    // Compared again with the padding emptied in both.
                    let start = (c * PADDING_CHUNK) as u64;
                    let (mut x, mut y) = (x.to_vec(), y.to_vec());
                    empty_padding(&index, start, &mut x);
                    empty_padding(&index, start, &mut y);
                    x == y
                }
            })
}

/// Is there nothing at all under `path` (not even a dangling symbolic link)? Anything
/// else, readable or not, is reported by `open_regular_file` for what it is.
pub fn is_missing(path: &Path) -> bool {
    matches!(std::fs::symlink_metadata(path), Err(e) if e.kind() == std::io::ErrorKind::NotFound)
}

/// Opens `path` for reading and checks that it is a regular file (after following
/// symbolic links). A named pipe would block a plain open until a writer came, so
/// on Unix the file is opened without blocking and its type checked on the handle.
pub(crate) fn open_regular_file(path: &Path) -> Result<File, TablebaseError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options
        .open(path)
        .map_err(|e| TablebaseError::io(path, e))?;
    let kind = file
        .metadata()
        .map_err(|e| TablebaseError::io(path, e))?
        .file_type();
    if kind.is_file() {
        return Ok(file);
    }
    let what = if kind.is_dir() {
        "a directory"
    } else {
        special_file_kind(kind)
    };
    let e = std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("is {what}, not a regular table file"),
    );
    Err(TablebaseError::io(path, e))
}

#[cfg(unix)]
fn special_file_kind(kind: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        "a named pipe (FIFO)"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else {
        "not a regular file"
    }
}

#[cfg(not(unix))]
fn special_file_kind(_kind: std::fs::FileType) -> &'static str {
    "not a regular file"
}

/// The error for a read that found the file shorter than when it was opened.
fn shrank(path: &Path, len: u64, offset: u64, n: u64) -> TablebaseError {
    TablebaseError::corrupt(
        path,
        format!(
            "the file ends before byte {} ({n} bytes read at offset {offset}): it was \
             {len} bytes when opened and has been truncated or replaced since",
            offset + n
        ),
    )
}

/// Parses and checks the block table of `section` (descriptor `desc`) from the head
/// bytes `head`: each block follows the one before, has the decompressed length its
/// slots need and no more compressed bytes than zstd can produce from them, and the
/// blocks fill the section's data exactly.
fn section_blocks(
    head: &[u8],
    header: &Header,
    section: Section,
    desc: &SectionDesc,
) -> Result<Blocks, String> {
    let count = desc.block_count as usize;
    let mut offsets = Vec::with_capacity(count + 1);
    let mut checksums = Vec::with_capacity(count);
    let section_end = desc.data_offset.checked_add(desc.data_len);
    let mut offset = desc.data_offset;
    for b in 0..desc.block_count {
        let at = desc.table_offset as usize + b as usize * ENTRY_LEN;
        let e = BlockEntry::from_bytes(&head[at..at + ENTRY_LEN]);
        let n = block_slots(header.slots, desc.slots_per_block, b);
        let raw_len = section.raw_len(n);
        let end = offset.checked_add(e.compressed_len as u64);
        if e.offset != offset
            || e.raw_len as u64 != raw_len
            || e.compressed_len as usize > zstd::zstd_safe::compress_bound(raw_len as usize)
            || end.is_none()
            || end > section_end
        {
            return Err(format!("{section:?} block {b}: bad table entry"));
        }
        offsets.push(offset);
        checksums.push(e.checksum);
        offset = end.unwrap_or(offset);
    }
    if Some(offset) != section_end {
        return Err(format!("{section:?} blocks do not fill the section"));
    }
    offsets.push(offset);
    Ok(Blocks {
        offsets: offsets.into(),
        checksums: checksums.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tigadi_values::Value;

    /// `mark_padding` empties exactly the slots that hold no board
    /// (`SubspaceIndex::board` slot by slot, the plain definition), and
    /// `same_values` ignores exactly those: subspaces with symmetric mover sets
    /// (padding) and without, one of them over several parallel chunks.
    #[test]
    fn padding_is_what_the_index_decodes_no_board_at() {
        for (m, o) in [(3, 3), (4, 4), (0, 0), (1, 0), (5, 3), (4, 5)] {
            let sub = Subspace::new(m, o);
            let index = SubspaceIndex::new(sub);
            let n = index.slots() as usize;
            let filler = Packed::new(Value::Win(3));
            let mut values = vec![filler; n];
            mark_padding(sub, &mut values);
            let mut padding = 0;
            for (slot, v) in values.iter().enumerate() {
                let real = index.board(slot as u64).is_some();
                assert_eq!(*v == filler, real, "{sub} slot {slot}");
                padding += usize::from(!real);
            }
            // Another filler in the padding only: still the same values.
            let other: Vec<Packed> = values
                .iter()
                .map(|v| {
                    if v.is_some() {
                        *v
                    } else {
                        Packed::new(Value::Draw)
                    }
                })
                .collect();
            assert!(same_values(sub, &values, &other), "{sub}");
            if padding > 0 {
                assert_ne!(values, other);
            }
            // One real board's value changed: no longer the same.
            let mut changed = other.clone();
            let last_real = (0..n).rev().find(|&s| values[s].is_some()).unwrap();
            changed[last_real] = Packed::new(Value::Loss(2));
            assert!(!same_values(sub, &values, &changed), "{sub}");
        }
    }
}
