//! The on-disk layout of a tablebase file (`docs/FORMAT.md` is the full
//! specification): the fixed header, section descriptors, block table entries
//! and the checksum, the same for every kind of table (what each kind stores is
//! in [`crate::kind`]).
//!
//! Everything here is plain data and byte (de)serialisation; nothing reads files.

use crate::error::TablebaseError;
use crate::kind::TableKind;
use std::path::Path;
use tigadi_index::Subspace;
use tigadi_rules::{BoardKind, RuleSet};
use tigadi_values::Value;
use tigadi_values::{placing_turns, Hands};

/// The first eight bytes of every tablebase file.
pub const MAGIC: [u8; 8] = *b"TIGADITB";
/// Version of the slot numbering (`tigadi_index::SubspaceIndex`) the values are
/// stored in. A change of the index scheme makes old files unreadable by design.
pub const INDEX_SCHEME: u16 = 1;

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

/// Largest `slots_per_block` a reader accepts (bounds the memory a corrupt header
/// can make it allocate for one block).
pub const MAX_SLOTS_PER_BLOCK: u32 = 1 << 22;
/// Compression code: zstd, one frame per block.
pub const COMPRESSION_ZSTD: u8 = 1;

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

    /// Adds the counts of `other` (of other slots of the same table).
    pub fn merge(&mut self, other: &ClassCounts) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.max_dtc_win = self.max_dtc_win.max(other.max_dtc_win);
        self.max_dtc_loss = self.max_dtc_loss.max(other.max_dtc_loss);
    }

    /// Counts one class of value `v`.
    pub fn add(&mut self, v: Value) {
        match v {
            Value::Draw => self.draws += 1,
            Value::Win(d) => {
                self.wins += 1;
                self.max_dtc_win = self.max_dtc_win.max(d);
            }
            Value::Loss(d) => {
                self.losses += 1;
                self.max_dtc_loss = self.max_dtc_loss.max(d);
            }
        }
    }
}

/// One section's descriptor in the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SectionDesc {
    /// The section's kind code ([`crate::Section::code`]).
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
    /// The gotis in hand ([`Hands::EMPTY`] for a moving-phase table): with the
    /// subspace, the table's tier. Byte 23 writes it ([`hands_byte`]): 0 for empty
    /// hands, the placements made + 1 for the hands of the standard alternation,
    /// and both hands for the others (Lasker's rule).
    pub hands: Hands,
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

/// Header byte 23's first code for hands spelled by both counts
/// ([`hands_byte`]).
const BOTH_HANDS: u8 = 32;

/// Header byte 23, the hands of a table's tier (docs/FORMAT.md): 0 for empty
/// hands; `k + 1` for the hands of the standard alternation after `k`
/// placements ([`Hands::standard_placements`]); `32 + 13 * mover + opponent`
/// for any other hands (Lasker's rule, where a turn may slide instead of
/// placing).
pub(crate) fn hands_byte(hands: Hands, rules: &RuleSet) -> u8 {
    if hands.is_empty() {
        0
    } else if let Some(k) = hands.standard_placements(rules) {
        k as u8 + 1
    } else {
        BOTH_HANDS + 13 * hands.mover + hands.opponent
    }
}

/// The hands header byte 23 writes under `rules` ([`hands_byte`] back), `None`
/// for a code it never writes (more placements than the rule set makes, both
/// hands spelled out where the rule set has no such tier, or where the
/// placements code is the spelling).
pub(crate) fn hands_from_byte(byte: u8, rules: &RuleSet) -> Option<Hands> {
    match byte {
        0 => Some(Hands::EMPTY),
        n if (n as u32) <= placing_turns(rules) => {
            Some(Hands::after_placements(rules, n as u32 - 1))
        }
        n if n >= BOTH_HANDS && rules.slides_in_hand => {
            let code = n - BOTH_HANDS;
            let hands = Hands::new(code / 13, code % 13);
            let fits = hands.mover.max(hands.opponent) <= rules.pieces;
            (fits && hands_byte(hands, rules) == n).then_some(hands)
        }
        _ => None,
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
        // Byte 22 depends on the kind; byte 23 is the hands, in every version.
        b[22] = self.kind.rules_byte(&self.rules);
        b[23] = hands_byte(self.hands, &self.rules);
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
        let Some(kind) = TableKind::from_version(version) else {
            let known: Vec<String> = TableKind::ALL
                .iter()
                .map(|k| format!("{} ({k:?} tables)", k.version()))
                .collect();
            return bad(format!(
                "format version {version}, this reader knows {}",
                known.join(", ")
            ));
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
        // Byte 22 depends on the kind (docs/FORMAT.md); byte 23 is the hands, in
        // every version.
        let (quiet, pieces) = match kind.rules_from_byte(bytes[22], rules_name) {
            Ok(r) => r,
            Err(what) => return bad(what),
        };
        let rules = RuleSet {
            board,
            flying,
            blocked_loses,
            quiet,
            pieces,
            // Lasker's rule has no byte of its own: the rule set's name records it.
            slides_in_hand: RuleSet::parse(rules_name).is_ok_and(|r| r.slides_in_hand),
        };
        let Some(hands) = hands_from_byte(bytes[23], &rules) else {
            return bad(format!("hands code {}", bytes[23]));
        };
        let placing = !hands.is_empty();
        let (mover, opponent) = (bytes[19], bytes[20]);
        // Tiers with gotis in hand hold positions with fewer than three gotis a side (and
        // fewer than 24 gotis in all).
        let least = if placing { 0 } else { 3 };
        if !(least..=12).contains(&mover)
            || !(least..=12).contains(&opponent)
            || mover + opponent > 24
            || (placing && mover + opponent >= 24)
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
            hands,
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

    /// The largest DTC₁₀₀ a horizon table may hold ([`dtc100_limit`]).
    pub fn dtc100_limit(&self) -> u16 {
        dtc100_limit(&self.rules, self.hands)
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
        for (s, section) in [(self.wdl, first), (self.dtc, second)] {
            let name = section.name();
            if s.kind != section.code()
                || s.encoding != section.encoding()
                || s.compression != COMPRESSION_ZSTD
            {
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

/// The largest DTC₁₀₀ of a horizon table of `rules` whose positions hold `hands`:
/// the turn limit plus the placements still to come, one per goti in hand (a
/// placing table's DTC₁₀₀ counts them, as its DTC does).
pub fn dtc100_limit(rules: &RuleSet, hands: Hands) -> u16 {
    rules.quiet + hands.mover as u16 + hands.opponent as u16
}
