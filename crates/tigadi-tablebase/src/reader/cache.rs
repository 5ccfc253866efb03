//! A small shared cache of decompressed blocks, so that repeated probes into the
//! same region of a table do not decompress again.
//!
//! Direct-mapped: a block's key hashes to one of a fixed number of entries, each
//! behind its own mutex, so threads only contend when they touch the same entry.

use crate::error::TablebaseError;
use crate::reader::table::Section;
use std::sync::Mutex;

/// Default number of cached blocks (WDL blocks are 8 KiB decompressed, DTC blocks
/// 16 KiB, so at most 32 MiB when full).
pub const DEFAULT_CACHE_BLOCKS: usize = 2048;

struct Entry {
    key: u64,
    raw: Vec<u8>,
}

/// A direct-mapped cache of decompressed blocks shared by all threads.
pub struct BlockCache {
    entries: Box<[Mutex<Option<Entry>>]>,
    shift: u32,
}

impl BlockCache {
    /// A cache of about `blocks` entries (rounded up to a power of two, at least 1).
    pub fn new(blocks: usize) -> BlockCache {
        let n = blocks.max(1).next_power_of_two();
        BlockCache {
            entries: (0..n).map(|_| Mutex::new(None)).collect(),
            shift: 64 - n.trailing_zeros(),
        }
    }

    fn slot(&self, key: u64) -> usize {
        if self.entries.len() == 1 {
            return 0;
        }
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Calls `read` on block `block` of section `section` of table `table`,
    /// decompressing it with `load` unless it is cached.
    pub fn with_block<R>(
        &self,
        table: u32,
        section: Section,
        block: u64,
        load: impl FnOnce() -> Result<Vec<u8>, TablebaseError>,
        read: impl FnOnce(&[u8]) -> R,
    ) -> Result<R, TablebaseError> {
        let key = ((table as u64) << 40) ^ ((section as u64) << 39) ^ block;
        let entry = &self.entries[self.slot(key)];
        {
            let guard = entry.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(e) = guard.as_ref().filter(|e| e.key == key) {
                return Ok(read(&e.raw));
            }
        }
        let raw = load()?;
        let r = read(&raw);
        *entry.lock().unwrap_or_else(|p| p.into_inner()) = Some(Entry { key, raw });
        Ok(r)
    }
}
