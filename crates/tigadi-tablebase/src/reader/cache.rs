//! A small shared cache of decompressed blocks, so that repeated probes into the
//! same region of a table do not decompress again.
//!
//! Direct-mapped: a block's key hashes to one of a fixed number of entries, each
//! behind its own mutex, so threads only contend when they touch the same entry.

use crate::error::TablebaseError;
use crate::kind::{Section, TableKind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// Default number of cached blocks (WDL blocks are 8 KiB decompressed, DTC blocks
/// 16 KiB, so at most 32 MiB when full).
pub const DEFAULT_CACHE_BLOCKS: usize = 2048;

/// How large a [`BlockCache`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheSize {
    /// About this many blocks (rounded up to a power of two, at least 1),
    /// whatever their size.
    Blocks(usize),
    /// At most this many bytes of decompressed blocks: as many entries (a power
    /// of two, at least 1) as blocks of the largest size of the first table read
    /// fit, so a set written with smaller blocks (`solve --block-kib`,
    /// [`crate::writer::reblock`]) keeps more of them in the same memory.
    Bytes(usize),
}

/// What a cached block is: which table (its kind, and a number for its phase and
/// subspace), which section of it, which block. Compared whole, so no two blocks
/// can share a key however many tables, kinds or sections there are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    kind: TableKind,
    table: u32,
    section: Section,
    block: u64,
}

struct Entry {
    key: Key,
    raw: Vec<u8>,
}

/// The entries, a power of two of them, and the shift that maps a mixed key
/// onto one.
struct Entries {
    entries: Box<[Mutex<Option<Entry>>]>,
    shift: u32,
}

/// A direct-mapped cache of decompressed blocks shared by all threads. Its
/// entries are made on the first block read, so that a tablebase that never
/// reads one (a rule set without tables, asked about on a server) costs nothing.
pub struct BlockCache {
    entries: OnceLock<Entries>,
    size: CacheSize,
    /// Blocks decompressed so far (misses), for measurements.
    loads: AtomicU64,
}

impl BlockCache {
    /// A cache of about `blocks` entries (rounded up to a power of two, at least 1).
    pub fn new(blocks: usize) -> BlockCache {
        BlockCache::sized(CacheSize::Blocks(blocks))
    }

    /// A cache of size `size`.
    pub fn sized(size: CacheSize) -> BlockCache {
        BlockCache {
            entries: OnceLock::new(),
            size,
            loads: AtomicU64::new(0),
        }
    }

    /// The number of entries for blocks of at most `largest` bytes.
    fn entry_count(&self, largest: usize) -> usize {
        match self.size {
            CacheSize::Blocks(n) => n.max(1).next_power_of_two(),
            CacheSize::Bytes(b) => {
                let n = (b / largest.max(1)).max(1);
                // The largest power of two not above `n`: never over the bytes.
                1 << (usize::BITS - 1 - n.leading_zeros())
            }
        }
    }

    /// The number of entries, once a block has been read (0 before).
    pub fn len(&self) -> usize {
        self.entries.get().map_or(0, |e| e.entries.len())
    }

    /// Whether no block has been read yet (the entries are not made).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of blocks decompressed so far: the cache's misses.
    pub fn loads(&self) -> u64 {
        self.loads.load(Ordering::Relaxed)
    }

    fn slot(entries: &Entries, key: Key) -> usize {
        if entries.entries.len() == 1 {
            return 0;
        }
        // Only picks the entry; the whole key is compared on a hit. The kind is
        // left out: sections of different kinds differ, and a plain multiply of
        // these keys spreads the blocks that probes read together better than a
        // full mix or a table number per kind does (measured: with either, the
        // answers to random 4v4 positions of a `--max-pieces 10` set took 25% to
        // 2 times longer, from more cache misses).
        let mixed = ((key.table as u64) << 40) ^ ((key.section as u64) << 36) ^ key.block;
        (mixed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> entries.shift) as usize
    }

    /// Calls `read` on block `block` of section `section` of the table of kind
    /// `kind` numbered `table` (a number per phase and subspace), decompressing it
    /// with `load` unless it is cached. `load` fills the buffer it is given (the
    /// evicted block's, reused: no allocation per miss once the cache is full).
    /// `largest` is the size of the table's largest decompressed block, which
    /// sizes a cache given in bytes at the first read.
    #[allow(clippy::too_many_arguments)]
    pub fn with_block<R>(
        &self,
        largest: usize,
        kind: TableKind,
        table: u32,
        section: Section,
        block: u64,
        load: impl FnOnce(&mut Vec<u8>) -> Result<(), TablebaseError>,
        read: impl FnOnce(&[u8]) -> R,
    ) -> Result<R, TablebaseError> {
        let key = Key {
            kind,
            table,
            section,
            block,
        };
        let entries = self.entries.get_or_init(|| {
            let n = self.entry_count(largest);
            Entries {
                entries: (0..n).map(|_| Mutex::new(None)).collect(),
                shift: 64 - n.trailing_zeros(),
            }
        });
        let entry = &entries.entries[BlockCache::slot(entries, key)];
        let mut raw = {
            let mut guard = entry.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(e) = guard.as_ref().filter(|e| e.key == key) {
                return Ok(read(&e.raw));
            }
            // Evicted now rather than after the load, so that its buffer is reused.
            guard.take().map_or_else(Vec::new, |e| e.raw)
        };
        self.loads.fetch_add(1, Ordering::Relaxed);
        load(&mut raw)?;
        let r = read(&raw);
        *entry.lock().unwrap_or_else(|p| p.into_inner()) = Some(Entry { key, raw });
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three tables × every kind × every section × a few blocks in one small
    /// cache: each read returns the block asked for, never another table's,
    /// kind's or section's (a kind that shares a section with another included).
    #[test]
    fn blocks_of_different_tables_and_sections_never_collide() {
        let sections = [
            Section::Wdl,
            Section::Dtc,
            Section::Category,
            Section::Dtc100,
        ];
        let id =
            |k: TableKind, t: u32, s: Section, b: u64| format!("{k:?}/{t}/{s:?}/{b}").into_bytes();
        for size in [1, 4, 64] {
            let cache = BlockCache::new(size);
            for round in 0..2 {
                for kind in TableKind::ALL {
                    for t in [0u32, 1, 168] {
                        for s in sections {
                            for b in [0u64, 1, 1 << 36, 1 << 39] {
                                let got = cache
                                    .with_block(
                                        64,
                                        kind,
                                        t,
                                        s,
                                        b,
                                        |raw| {
                                            *raw = id(kind, t, s, b);
                                            Ok(())
                                        },
                                        |raw| raw.to_vec(),
                                    )
                                    .unwrap();
                                assert_eq!(
                                    got,
                                    id(kind, t, s, b),
                                    "cache of {size}, round {round}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// A cache given in bytes holds as many blocks as fit at the first table's
    /// largest block size (a power of two of them, never more bytes than given);
    /// one given in blocks holds that many whatever their size.
    #[test]
    fn a_cache_in_bytes_counts_the_blocks_of_the_first_table_read() {
        let read = |cache: &BlockCache, largest: usize| {
            cache
                .with_block(
                    largest,
                    TableKind::GameTheoretic,
                    0,
                    Section::Dtc,
                    0,
                    |raw| {
                        raw.resize(largest, 0);
                        Ok(())
                    },
                    |raw| raw.len(),
                )
                .unwrap()
        };
        let mib = 1024 * 1024;
        for (bytes, largest, entries) in [
            (mib, 16 * 1024, 64),
            (mib, 4 * 1024, 256),
            (mib + mib / 2, 16 * 1024, 64),
            (1000, 16 * 1024, 1),
            (1024 * mib, 16 * 1024, 65_536),
        ] {
            let cache = BlockCache::sized(CacheSize::Bytes(bytes));
            assert!(cache.is_empty());
            assert_eq!(read(&cache, largest), largest);
            assert_eq!(
                cache.len(),
                entries,
                "{bytes} bytes of {largest}-byte blocks"
            );
            // A later table's other block size does not resize it.
            read(&cache, largest / 4);
            assert_eq!(cache.len(), entries);
        }
        for largest in [4 * 1024, 16 * 1024] {
            let cache = BlockCache::new(100);
            read(&cache, largest);
            assert_eq!(cache.len(), 128);
        }
    }
}
