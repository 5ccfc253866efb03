//! The on-disk layout of a tablebase file (`docs/FORMAT.md` is the full
//! specification): constants, the fixed header, section descriptors, block table
//! entries, the checksum, and where files live.
//!
//! Everything here is plain data and byte (de)serialisation; nothing reads files.

use crate::error::TablebaseError;
use std::path::{Path, PathBuf};
use tigadi_index::Subspace;
use tigadi_rules::rules::{DEFAULT_PIECES, MAX_PIECES, MIN_PIECES};
use tigadi_rules::{BoardKind, RuleSet};

/// The first eight bytes of every tablebase file.
pub const MAGIC: [u8; 8] = *b"TIGADITB";
/// Version of the file layout described in `docs/FORMAT.md`, as written in
/// game-theoretic tables (`.tgtb`, unchanged since version 1).
pub const FORMAT_VERSION: u16 = 1;
/// Format version of horizon tables (`.tghz`, values under the 100-turn rule), new
/// in version 2 of `docs/FORMAT.md`.
pub const HORIZON_FORMAT_VERSION: u16 = 2;
/// Version of the slot numbering (`tigadi_index::SubspaceIndex`) the values are
/// stored in. A change of the index scheme makes old files unreadable by design.
pub const INDEX_SCHEME: u16 = 1;
/// Value encoding of the file: `1` = WDL codes `0` loss, `1` draw, `2` win, and
/// DTC entries as `tigadi_values::Packed` words.
pub const VALUE_ENCODING: u8 = 1;
/// Value encoding of horizon tables: category codes (4 bits) and DTC₁₀₀ bytes.
pub const HORIZON_VALUE_ENCODING: u8 = 2;
/// File name extension of tablebase files (game-theoretic values).
pub const EXTENSION: &str = "tgtb";
/// File name extension of horizon tables (values under the 100-turn rule).
pub const HORIZON_EXTENSION: &str = "tghz";

/// Bytes of the fixed header, before the first block table.
pub const HEADER_LEN: usize = 224;
/// Bytes of one block table entry.
pub const ENTRY_LEN: usize = 24;
/// Bytes of one section descriptor inside the header.
const SECTION_DESC_LEN: usize = 48;
/// Offset of the first section descriptor inside the header.
const SECTIONS_AT: usize = 128;
/// Room for the rule set's name in the header.
const RULES_NAME_MAX: usize = 67;

/// Slots per WDL block: 2 bits a slot, so 8 KiB before compression. Large enough
/// that the block table costs under 0.01 bits a slot, small enough that a cold
/// probe decompresses a block in a few microseconds.
pub const WDL_SLOTS_PER_BLOCK: u32 = 32_768;
/// Slots per DTC block: 2 bytes a slot, so 16 KiB before compression (measured on
/// tigadi up to 8 gotis: 6% smaller than 4096-slot blocks, still a cold probe of
/// about ten microseconds).
pub const DTC_SLOTS_PER_BLOCK: u32 = 8_192;
/// Largest `slots_per_block` a reader accepts (bounds the memory a corrupt header
/// can make it allocate for one block).
pub const MAX_SLOTS_PER_BLOCK: u32 = 1 << 22;
/// zstd level of WDL blocks: fixed, so output is deterministic. Measured on the
/// tigadi tables 6v4, 4v6 and 5v5 (`examples/encodings.rs`): level 15 is 5%
/// smaller and 5 times slower to write (24.6 s against 5.0 s), which made
/// compression a fifth of a full solve's CPU time; level 19 gains nothing more.
pub const WDL_ZSTD_LEVEL: i32 = 9;
/// zstd level of DTC blocks: fixed, so output is deterministic. Measured on the same
/// tables: level 9 is 4.5% smaller and 2.9 times slower (48.9 s against 17.1 s);
/// level 3 is 14% larger and 3 times faster again.
pub const DTC_ZSTD_LEVEL: i32 = 6;

/// Section kind code of the WDL section.
pub const SECTION_WDL: u8 = 1;
/// Section kind code of the DTC section.
pub const SECTION_DTC: u8 = 2;
/// Section kind code of the category section of a horizon table (the five classes
/// at counter 0).
pub const SECTION_CATEGORY: u8 = 3;
/// Section kind code of the DTC₁₀₀ section of a horizon table.
pub const SECTION_DTC100: u8 = 4;
/// Section encoding: categories, 4-bit codes, two slots a byte, low nibble first.
pub const ENCODING_CATEGORY_4BIT: u8 = 1;
/// Section encoding: DTC₁₀₀, one byte per slot.
pub const ENCODING_DTC100_U8: u8 = 1;
/// Slots per category block: half a byte a slot, so 16 KiB before compression.
pub const CATEGORY_SLOTS_PER_BLOCK: u32 = 32_768;
/// Slots per DTC₁₀₀ block: a byte a slot, so 16 KiB before compression.
pub const DTC100_SLOTS_PER_BLOCK: u32 = 16_384;
/// DTC₁₀₀ byte of a position drawn under the rule at counter 0.
pub const DTC100_DRAW: u8 = 0;
/// Flag of a DTC₁₀₀ byte for a loss: `0x80 | h`; a win is `h` itself (1..=100).
pub const DTC100_LOSS: u8 = 0x80;
/// Section encoding: WDL, 2-bit codes, four slots a byte, lowest bits first.
pub const ENCODING_WDL_2BIT: u8 = 1;
/// Section encoding: DTC, `Packed` u16 per slot, split per block into a plane of
/// low bytes followed by a plane of high bytes.
pub const ENCODING_DTC_U16_PLANES: u8 = 1;
/// Compression code: zstd, one frame per block.
pub const COMPRESSION_ZSTD: u8 = 1;

/// WDL code of a loss for the player to move.
pub const WDL_LOSS: u8 = 0;
/// WDL code of a draw.
pub const WDL_DRAW: u8 = 1;
/// WDL code of a win for the player to move.
pub const WDL_WIN: u8 = 2;

/// The checksum used everywhere in the format: XXH3-64 with seed 0.
#[inline]
pub fn checksum(bytes: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(bytes)
}

/// Class counts of a table: canonical (non-padding) slots by value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ClassCounts {
    /// Positions won for the player to move (symmetry classes, not raw positions).
    pub wins: u64,
    /// Drawn positions (classes).
    pub draws: u64,
    /// Positions lost for the player to move (classes).
    pub losses: u64,
    /// Largest DTC (turns) of a won position, 0 if none.
    pub max_dtc_win: u16,
    /// Largest DTC (turns) of a lost position, 0 if none.
    pub max_dtc_loss: u16,
}

impl ClassCounts {
    /// All classes: wins + draws + losses (padding slots excluded).
    pub fn classes(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

/// One section's descriptor in the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SectionDesc {
    /// [`SECTION_WDL`] or [`SECTION_DTC`].
    pub kind: u8,
    /// Encoding code of the values inside a block.
    pub encoding: u8,
    /// Compression code ([`COMPRESSION_ZSTD`]).
    pub compression: u8,
    /// The zstd level the writer used (informational).
    pub level: u8,
    /// Slots per block (the last block may hold fewer).
    pub slots_per_block: u32,
    /// Number of blocks: `ceil(slots / slots_per_block)`.
    pub block_count: u64,
    /// File offset of this section's block table.
    pub table_offset: u64,
    /// File offset of this section's first compressed block.
    pub data_offset: u64,
    /// Total bytes of this section's compressed blocks.
    pub data_len: u64,
}

/// The fixed header of a tablebase file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// What the file holds (and so its format version and sections).
    pub kind: TableKind,
    /// The rule set the values were solved under. Game-theoretic tables do not
    /// record the turn limit (their values do not depend on it): theirs reads
    /// [`tigadi_rules::DEFAULT_QUIET`]; horizon tables record it.
    pub rules: RuleSet,
    /// The rule set's name as written (`RuleSet::name()`).
    pub rules_name: String,
    /// The subspace (goti counts of the player to move and the other player).
    pub subspace: Subspace,
    /// `None` for a moving-phase table; `Some(placed)` for a table of placing
    /// layer `placed` (placements made; the hands follow from it).
    pub placing: Option<u8>,
    /// Slots of the subspace index (classes plus padding).
    pub slots: u64,
    /// Class counts and largest DTCs; in a horizon table, the values under the rule
    /// at counter 0 and the largest DTC₁₀₀ of a win and of a loss.
    pub counts: ClassCounts,
    /// The first section: WDL, or in a horizon table the categories.
    pub wdl: SectionDesc,
    /// The second section: DTC, or in a horizon table DTC₁₀₀.
    pub dtc: SectionDesc,
}

/// One block table entry: where a compressed block is and how to check it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockEntry {
    /// File offset of the compressed block.
    pub offset: u64,
    /// Bytes of the compressed block.
    pub compressed_len: u32,
    /// Bytes of the block once decompressed.
    pub raw_len: u32,
    /// [`checksum`] of the compressed bytes.
    pub checksum: u64,
}

impl BlockEntry {
    /// Serialises the entry (little-endian, [`ENTRY_LEN`] bytes).
    pub fn to_bytes(&self) -> [u8; ENTRY_LEN] {
        let mut b = [0u8; ENTRY_LEN];
        b[0..8].copy_from_slice(&self.offset.to_le_bytes());
        b[8..12].copy_from_slice(&self.compressed_len.to_le_bytes());
        b[12..16].copy_from_slice(&self.raw_len.to_le_bytes());
        b[16..24].copy_from_slice(&self.checksum.to_le_bytes());
        b
    }

    /// Parses an entry from [`ENTRY_LEN`] bytes.
    pub fn from_bytes(b: &[u8]) -> BlockEntry {
        BlockEntry {
            offset: u64_at(b, 0),
            compressed_len: u32_at(b, 8),
            raw_len: u32_at(b, 12),
            checksum: u64_at(b, 16),
        }
    }
}

/// Decompressed bytes of a block of `n` slots in a section of kind `kind`.
pub fn raw_block_len(kind: u8, n: u64) -> u64 {
    match kind {
        SECTION_WDL => n.div_ceil(4),
        SECTION_CATEGORY => n.div_ceil(2),
        SECTION_DTC100 => n,
        _ => 2 * n,
    }
}

/// What a table file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// Game-theoretic values (`.tgtb`, format version 1): a WDL and a DTC section.
    GameTheoretic,
    /// Values under the 100-turn rule (`.tghz`, format version 2): a category
    /// section and a DTC₁₀₀ section; the header records the turn limit.
    Horizon,
}

impl TableKind {
    /// The format version written in the header.
    pub fn version(self) -> u16 {
        match self {
            TableKind::GameTheoretic => FORMAT_VERSION,
            TableKind::Horizon => HORIZON_FORMAT_VERSION,
        }
    }

    /// The value encoding written in the header.
    pub fn value_encoding(self) -> u8 {
        match self {
            TableKind::GameTheoretic => VALUE_ENCODING,
            TableKind::Horizon => HORIZON_VALUE_ENCODING,
        }
    }

    /// The file name extension.
    pub fn extension(self) -> &'static str {
        match self {
            TableKind::GameTheoretic => EXTENSION,
            TableKind::Horizon => HORIZON_EXTENSION,
        }
    }

    /// (kind code, encoding, name) of the first and the second section.
    fn sections(self) -> [(u8, u8, &'static str); 2] {
        match self {
            TableKind::GameTheoretic => [
                (SECTION_WDL, ENCODING_WDL_2BIT, "WDL"),
                (SECTION_DTC, ENCODING_DTC_U16_PLANES, "DTC"),
            ],
            TableKind::Horizon => [
                (SECTION_CATEGORY, ENCODING_CATEGORY_4BIT, "category"),
                (SECTION_DTC100, ENCODING_DTC100_U8, "DTC100"),
            ],
        }
    }
}

/// Slots in block `block` of a section with `slots_per_block` over `slots` slots.
pub fn block_slots(slots: u64, slots_per_block: u32, block: u64) -> u64 {
    let start = block * slots_per_block as u64;
    (slots - start).min(slots_per_block as u64)
}

#[inline]
pub(crate) fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

#[inline]
pub(crate) fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

#[inline]
pub(crate) fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

impl SectionDesc {
    fn write(&self, b: &mut [u8]) {
        b[0] = self.kind;
        b[1] = self.encoding;
        b[2] = self.compression;
        b[3] = self.level;
        b[4..8].copy_from_slice(&self.slots_per_block.to_le_bytes());
        b[8..16].copy_from_slice(&self.block_count.to_le_bytes());
        b[16..24].copy_from_slice(&self.table_offset.to_le_bytes());
        b[24..32].copy_from_slice(&self.data_offset.to_le_bytes());
        b[32..40].copy_from_slice(&self.data_len.to_le_bytes());
        b[40..48].fill(0);
    }

    fn read(b: &[u8]) -> SectionDesc {
        SectionDesc {
            kind: b[0],
            encoding: b[1],
            compression: b[2],
            level: b[3],
            slots_per_block: u32_at(b, 4),
            block_count: u64_at(b, 8),
            table_offset: u64_at(b, 16),
            data_offset: u64_at(b, 24),
            data_len: u64_at(b, 32),
        }
    }
}

impl Header {
    /// Serialises the header ([`HEADER_LEN`] bytes, little-endian).
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut b = [0u8; HEADER_LEN];
        b[0..8].copy_from_slice(&MAGIC);
        b[8..10].copy_from_slice(&self.kind.version().to_le_bytes());
        b[10..12].copy_from_slice(&INDEX_SCHEME.to_le_bytes());
        b[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
        b[16] = if self.rules.board == BoardKind::Diagonals {
            20
        } else {
            16
        };
        b[17] = if self.rules.flying { 3 } else { 0 };
        b[18] = self.rules.blocked_loses as u8;
        b[19] = self.subspace.mover;
        b[20] = self.subspace.opponent;
        b[21] = self.kind.value_encoding();
        match self.kind {
            // Version 2: byte 22 the turn limit and byte 23 the placing layer + 1
            // (0 for the moving phase, so that bytes 22..24 of a moving-phase table
            // read as a u16 are the turn limit, as they were first written); the
            // gotis per side are carried by the rule set name only.
            TableKind::Horizon => {
                b[22] = self.rules.quiet as u8;
                b[23] = self.placing.map_or(0, |placed| placed + 1);
            }
            // Version 1: byte 22 the gotis per side, 0 for the default 9, and byte 23
            // the placing layer + 1, 0 for the moving phase, so those files are
            // those of milestone 1.
            TableKind::GameTheoretic => {
                b[22] = if self.rules.pieces == DEFAULT_PIECES {
                    0
                } else {
                    self.rules.pieces
                };
                b[23] = self.placing.map_or(0, |placed| placed + 1);
            }
        }
        b[24..32].copy_from_slice(&self.slots.to_le_bytes());
        b[32..40].copy_from_slice(&self.counts.wins.to_le_bytes());
        b[40..48].copy_from_slice(&self.counts.draws.to_le_bytes());
        b[48..56].copy_from_slice(&self.counts.losses.to_le_bytes());
        b[56..58].copy_from_slice(&self.counts.max_dtc_win.to_le_bytes());
        b[58..60].copy_from_slice(&self.counts.max_dtc_loss.to_le_bytes());
        let name = self.rules_name.as_bytes();
        assert!(
            name.len() <= RULES_NAME_MAX,
            "rule set name too long for the header"
        );
        b[60] = name.len() as u8;
        b[61..61 + name.len()].copy_from_slice(name);
        self.wdl
            .write(&mut b[SECTIONS_AT..SECTIONS_AT + SECTION_DESC_LEN]);
        self.dtc
            .write(&mut b[SECTIONS_AT + SECTION_DESC_LEN..SECTIONS_AT + 2 * SECTION_DESC_LEN]);
        b
    }

    /// Parses and sanity-checks a header from the start of `bytes` (which must hold
    /// at least [`HEADER_LEN`] bytes). `file` names the file in errors. The header
    /// checksum is checked separately, by the reader.
    pub fn parse(bytes: &[u8], file: &Path) -> Result<Header, TablebaseError> {
        let bad = |what: String| Err(TablebaseError::corrupt(file, what));
        if bytes.len() < HEADER_LEN {
            return bad(format!("{} bytes is too short for a header", bytes.len()));
        }
        if bytes[0..8] != MAGIC {
            return bad("not a tigadi tablebase file (bad magic)".into());
        }
        let version = u16_at(bytes, 8);
        let kind = match version {
            FORMAT_VERSION => TableKind::GameTheoretic,
            HORIZON_FORMAT_VERSION => TableKind::Horizon,
            _ => {
                return bad(format!(
                    "format version {version}, this reader knows {FORMAT_VERSION} \
                     (game-theoretic tables) and {HORIZON_FORMAT_VERSION} (horizon tables)"
                ))
            }
        };
        let scheme = u16_at(bytes, 10);
        if scheme != INDEX_SCHEME {
            return bad(format!(
                "index scheme {scheme}, this reader knows {INDEX_SCHEME}"
            ));
        }
        if u32_at(bytes, 12) as usize != HEADER_LEN {
            return bad(format!("header length {}", u32_at(bytes, 12)));
        }
        let board = match bytes[16] {
            20 => BoardKind::Diagonals,
            16 => BoardKind::Plain,
            n => return bad(format!("board of {n} lines")),
        };
        let flying = match bytes[17] {
            0 => false,
            3 => true,
            n => return bad(format!("flying code {n}")),
        };
        let blocked_loses = match bytes[18] {
            0 => false,
            1 => true,
            n => return bad(format!("blocked-player code {n}")),
        };
        let name_len = bytes[60] as usize;
        if name_len > RULES_NAME_MAX {
            return bad(format!("rule set name of {name_len} bytes"));
        }
        let Ok(rules_name) = std::str::from_utf8(&bytes[61..61 + name_len]) else {
            return bad("rule set name is not UTF-8".into());
        };
        // Bytes 22..24 depend on the version (docs/FORMAT.md).
        // Byte 23: the placing layer + 1, 0 for the moving phase, in both versions.
        let placing_code = |pieces: u8| match bytes[23] {
            0 => Ok(None),
            n if (n as u32) <= 2 * pieces as u32 => Ok(Some(n - 1)),
            n => Err(TablebaseError::corrupt(
                file,
                format!("placing layer code {n}"),
            )),
        };
        let (quiet, pieces, placing) = match kind {
            TableKind::GameTheoretic => {
                let pieces = match bytes[22] {
                    0 => DEFAULT_PIECES,
                    n if (MIN_PIECES..=MAX_PIECES).contains(&n) && n != DEFAULT_PIECES => n,
                    n => return bad(format!("gotis-per-side code {n}")),
                };
                (tigadi_rules::DEFAULT_QUIET, pieces, placing_code(pieces)?)
            }
            TableKind::Horizon => {
                let quiet = match bytes[22] as u16 {
                    q @ 1..=tigadi_rules::MAX_QUIET => q,
                    q => return bad(format!("turn limit {q}")),
                };
                // The gotis per side of a version 2 file are in its rule set name only.
                let pieces = match RuleSet::parse(rules_name) {
                    Ok(r) => r.pieces,
                    Err(_) => return bad(format!("rule set name {rules_name:?}")),
                };
                (quiet, pieces, placing_code(pieces)?)
            }
        };
        let rules = RuleSet {
            board,
            flying,
            blocked_loses,
            quiet,
            pieces,
        };
        let (mover, opponent) = (bytes[19], bytes[20]);
        // Placing layers hold positions with fewer than three gotis a side (and
        // fewer than 24 gotis in all).
        let least = if placing.is_some() { 0 } else { 3 };
        if !(least..=12).contains(&mover)
            || !(least..=12).contains(&opponent)
            || mover + opponent > 24
            || (placing.is_some() && mover + opponent >= 24)
        {
            return bad(format!("subspace {mover}v{opponent}"));
        }
        if bytes[21] != kind.value_encoding() {
            return bad(format!("value encoding {}", bytes[21]));
        }
        let header = Header {
            kind,
            rules,
            rules_name: rules_name.to_string(),
            subspace: Subspace::new(mover, opponent),
            placing,
            slots: u64_at(bytes, 24),
            counts: ClassCounts {
                wins: u64_at(bytes, 32),
                draws: u64_at(bytes, 40),
                losses: u64_at(bytes, 48),
                max_dtc_win: u16_at(bytes, 56),
                max_dtc_loss: u16_at(bytes, 58),
            },
            wdl: SectionDesc::read(&bytes[SECTIONS_AT..]),
            dtc: SectionDesc::read(&bytes[SECTIONS_AT + SECTION_DESC_LEN..]),
        };
        header.check_layout(file)?;
        Ok(header)
    }

    /// The largest DTC₁₀₀ a horizon table may hold: the turn limit for the moving
    /// phase, and for placing layer `k` the turn limit plus the `2N - k` placements
    /// still to come (a placing table's DTC₁₀₀ counts them, as its DTC does).
    pub fn dtc100_limit(&self) -> u16 {
        dtc100_limit(&self.rules, self.placing)
    }

    /// Where the head (header and both block tables) ends; the head checksum
    /// follows it.
    pub fn head_len(&self) -> u64 {
        HEADER_LEN as u64 + (self.wdl.block_count + self.dtc.block_count) * ENTRY_LEN as u64
    }

    /// The file length the header implies: head, head checksum, both sections'
    /// data, file checksum.
    pub fn file_len(&self) -> u64 {
        self.dtc.data_offset + self.dtc.data_len + 8
    }

    /// Checks that the section descriptors describe the one layout docs/FORMAT.md allows.
    fn check_layout(&self, file: &Path) -> Result<(), TablebaseError> {
        let bad = |what: String| Err(TablebaseError::corrupt(file, what));
        if self.counts.classes() > self.slots {
            return bad(format!(
                "{} classes in {} slots",
                self.counts.classes(),
                self.slots
            ));
        }
        if self.slots == 0 || self.slots > 1 << 40 {
            return bad(format!("slot count {}", self.slots));
        }
        let [first, second] = self.kind.sections();
        for (s, (kind, encoding, name)) in [(self.wdl, first), (self.dtc, second)] {
            if s.kind != kind || s.encoding != encoding || s.compression != COMPRESSION_ZSTD {
                return bad(format!(
                    "{name} section: kind {}, encoding {}, compression {}",
                    s.kind, s.encoding, s.compression
                ));
            }
            if s.slots_per_block == 0 || s.slots_per_block > MAX_SLOTS_PER_BLOCK {
                return bad(format!(
                    "{name} section: {} slots per block",
                    s.slots_per_block
                ));
            }
            if s.block_count != self.slots.div_ceil(s.slots_per_block as u64) {
                return bad(format!("{name} section: {} blocks", s.block_count));
            }
        }
        let wdl_table = HEADER_LEN as u64;
        let dtc_table = wdl_table + self.wdl.block_count * ENTRY_LEN as u64;
        let data = self.head_len() + 8;
        if self.wdl.table_offset != wdl_table
            || self.dtc.table_offset != dtc_table
            || self.wdl.data_offset != data
            || Some(self.dtc.data_offset) != data.checked_add(self.wdl.data_len)
            || self
                .dtc
                .data_offset
                .checked_add(self.dtc.data_len)
                .is_none_or(|e| e > u64::MAX - 8)
        {
            return bad("section offsets do not follow each other".into());
        }
        Ok(())
    }
}

/// The directory name of a rule set inside a tablebase directory: the preset
/// name, or for other rule sets the switches with `=` written `-` and `,` written
/// `_` (`lines-20_flying-3_blocked-passes`), so that it is a safe file name
/// everywhere.
pub fn rules_dir_name(rules: &RuleSet) -> String {
    rules.name().replace('=', "-").replace(',', "_")
}

/// The directory holding a rule set's files inside tablebase directory `dir`.
pub fn rules_dir(dir: &Path, rules: &RuleSet) -> PathBuf {
    dir.join(rules_dir_name(rules))
}

/// The file name of a subspace's table: `<mover>v<opponent>.tgtb`.
pub fn file_name(subspace: Subspace) -> String {
    kind_file_name(TableKind::GameTheoretic, subspace)
}

/// The file name of a subspace's table of kind `kind`: `<mover>v<opponent>.tgtb`
/// or `<mover>v<opponent>.tghz`.
pub fn kind_file_name(kind: TableKind, subspace: Subspace) -> String {
    format!(
        "{}v{}.{}",
        subspace.mover,
        subspace.opponent,
        kind.extension()
    )
}

/// The path of a subspace's table inside tablebase directory `dir`.
pub fn table_path(dir: &Path, rules: &RuleSet, subspace: Subspace) -> PathBuf {
    kind_table_path(dir, rules, TableKind::GameTheoretic, subspace)
}

/// The path of a subspace's table of kind `kind` inside tablebase directory `dir`.
pub fn kind_table_path(
    dir: &Path,
    rules: &RuleSet,
    kind: TableKind,
    subspace: Subspace,
) -> PathBuf {
    rules_dir(dir, rules).join(kind_file_name(kind, subspace))
}

/// The largest DTC₁₀₀ of a horizon table of `rules` for the moving phase
/// (`placing == None`: the turn limit) or placing layer `placing` (the turn limit
/// plus the placements still to come); see [`Header::dtc100_limit`].
pub fn dtc100_limit(rules: &RuleSet, placing: Option<u8>) -> u16 {
    rules.quiet + placing.map_or(0, |k| 2 * rules.pieces as u16 - k as u16)
}

/// The file name of a placing-layer table: `p<placed>-<mover>v<opponent>.tgtb`.
pub fn placing_file_name(placed: u8, subspace: Subspace) -> String {
    any_file_name(TableKind::GameTheoretic, Some(placed), subspace)
}

/// The file name of any table: [`kind_file_name`] for the moving phase
/// (`placing == None`), with `p<placed>-` in front for placing layer `placed`
/// (`p7-3v4.tgtb`, `p7-3v4.tghz`).
pub fn any_file_name(kind: TableKind, placing: Option<u8>, subspace: Subspace) -> String {
    match placing {
        None => kind_file_name(kind, subspace),
        Some(placed) => format!("p{placed}-{}", kind_file_name(kind, subspace)),
    }
}

/// The path of a placing-layer table inside tablebase directory `dir`.
pub fn placing_table_path(dir: &Path, rules: &RuleSet, placed: u8, subspace: Subspace) -> PathBuf {
    any_table_path(dir, rules, Some(placed), subspace)
}

/// The path of a moving-phase (`placing == None`) or placing-layer table.
pub fn any_table_path(
    dir: &Path,
    rules: &RuleSet,
    placing: Option<u8>,
    subspace: Subspace,
) -> PathBuf {
    any_kind_path(dir, rules, TableKind::GameTheoretic, placing, subspace)
}

/// The path of a table of kind `kind` of the moving phase (`placing == None`) or
/// of placing layer `placing` inside tablebase directory `dir`.
pub fn any_kind_path(
    dir: &Path,
    rules: &RuleSet,
    kind: TableKind,
    placing: Option<u8>,
    subspace: Subspace,
) -> PathBuf {
    rules_dir(dir, rules).join(any_file_name(kind, placing, subspace))
}

/// Parses a placing table's file name `p<placed>-<m>v<o>.tgtb` back into its layer
/// and subspace.
pub fn parse_placing_file_name(name: &str) -> Option<(u8, Subspace)> {
    match parse_placing_kind_file_name(name)? {
        (TableKind::GameTheoretic, placed, s) => Some((placed, s)),
        _ => None,
    }
}

/// Parses a placing table's file name of either kind (`p<placed>-<m>v<o>.tgtb`,
/// `p<placed>-<m>v<o>.tghz`) back into its kind, layer and subspace.
pub fn parse_placing_kind_file_name(name: &str) -> Option<(TableKind, u8, Subspace)> {
    let (layer, rest) = name.strip_prefix('p')?.split_once('-')?;
    let placed: u8 = layer.parse().ok()?;
    (placed.to_string() == layer).then_some(())?;
    let (kind, s) = parse_kind_file_name(rest)?;
    Some((kind, placed, s))
}

/// The placing tables of either kind in the rule set's directory, as (kind, layer,
/// subspace), sorted: game-theoretic tables first, then by layer and subspace.
pub fn list_placing_tables(
    dir: &Path,
    rules: &RuleSet,
) -> Result<Vec<(TableKind, u8, Subspace)>, TablebaseError> {
    let rdir = rules_dir(dir, rules);
    let entries = match std::fs::read_dir(&rdir) {
        Ok(e) => e,
        Err(e) => return Err(TablebaseError::io(&rdir, e)),
    };
    let mut out = Vec::new();
    for e in entries {
        let e = e.map_err(|e| TablebaseError::io(&rdir, e))?;
        if let Some(t) = e
            .file_name()
            .to_str()
            .and_then(parse_placing_kind_file_name)
        {
            out.push(t);
        }
    }
    out.sort_by_key(|&(k, p, s)| (k == TableKind::Horizon, p, s));
    Ok(out)
}

/// Parses a table file name `<m>v<o>.tgtb` back into its subspace.
pub fn parse_file_name(name: &str) -> Option<Subspace> {
    match parse_kind_file_name(name)? {
        (TableKind::GameTheoretic, s) => Some(s),
        _ => None,
    }
}

/// Parses a table file name of either kind (`<m>v<o>.tgtb`, `<m>v<o>.tghz`) back
/// into its kind and subspace.
pub fn parse_kind_file_name(name: &str) -> Option<(TableKind, Subspace)> {
    let (stem, kind) = [TableKind::GameTheoretic, TableKind::Horizon]
        .into_iter()
        .find_map(|k| Some((name.strip_suffix(k.extension())?.strip_suffix('.')?, k)))?;
    let (m, o) = stem.split_once('v')?;
    let (m, o): (u8, u8) = (m.parse().ok()?, o.parse().ok()?);
    (m.to_string() + "v" + &o.to_string() == stem).then_some((kind, Subspace::new(m, o)))
}

/// The subspaces that have a table file in the rule set's directory, in order.
pub fn list_subspaces(dir: &Path, rules: &RuleSet) -> Result<Vec<Subspace>, TablebaseError> {
    let rdir = rules_dir(dir, rules);
    let entries = std::fs::read_dir(&rdir).map_err(|e| TablebaseError::io(&rdir, e))?;
    let mut subs = Vec::new();
    for e in entries {
        let e = e.map_err(|e| TablebaseError::io(&rdir, e))?;
        if let Some(s) = e.file_name().to_str().and_then(parse_file_name) {
            subs.push(s);
        }
    }
    subs.sort();
    Ok(subs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_round_trip() {
        let s = Subspace::new(9, 3);
        assert_eq!(file_name(s), "9v3.tgtb");
        assert_eq!(parse_file_name("9v3.tgtb"), Some(s));
        assert_eq!(parse_file_name("09v3.tgtb"), None);
        assert_eq!(parse_file_name("9v3.tgtb.tmp"), None);
        let custom = RuleSet::parse("lines=20,flying=3").unwrap();
        assert_eq!(rules_dir_name(&custom), "lines-20_flying-3_blocked-passes");
        assert_eq!(rules_dir_name(&RuleSet::MORRIS), "morris");
    }
}
