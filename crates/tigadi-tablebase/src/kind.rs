//! The kinds of table and what each stores: the one module a new kind of table
//! touches. A kind ([`TableKind`]) is its file name extension, its format version
//! and value encoding, the rule switches its header records, and its two
//! [`Section`]s; a section is its codes, block size, zstd level and how one
//! slot's entry sits in a decompressed block; [`TableData`] is what a table of
//! each kind is written from and how its entries and class counts follow; a
//! [`Field`] is one thing a prober reads from a section, slot by slot.
//!
//! Everything else is generic over these: the header and block layout
//! (`format`), the writer's compression and file assembly, the reader's block
//! access and checks, file names and directories ([`crate::TableId`],
//! [`crate::TablebaseDir`]), the prober ([`crate::Tablebase::get`]) and the
//! manifest.

use crate::error::TablebaseError;
use crate::format::{ClassCounts, Header};
use crate::reader::table::Table;
use rayon::prelude::*;
use tigadi_rules::rules::{DEFAULT_PIECES, MAX_PIECES, MIN_PIECES};
use tigadi_rules::RuleSet;
use tigadi_values::{Category as Class, Metric, Packed, Value, Wdl as WinDrawLoss, MAX_DTC};

/// Version of the file layout described in `docs/FORMAT.md`, as written in
/// game-theoretic tables (`.tgtb`, unchanged since version 1).
pub const FORMAT_VERSION: u16 = 1;
/// Format version of horizon tables (`.tghz`, values under the 100-turn rule), new
/// in version 2 of `docs/FORMAT.md`.
pub const HORIZON_FORMAT_VERSION: u16 = 2;
/// Format version of DTW tables (`.tgdw`, depth to win), new in version 3 of
/// `docs/FORMAT.md`.
pub const DTW_FORMAT_VERSION: u16 = 3;
/// Value encoding of the file: `1` = WDL codes `0` loss, `1` draw, `2` win, and
/// DTC entries as `tigadi_values::Packed` words.
pub const VALUE_ENCODING: u8 = 1;
/// Value encoding of horizon tables: category codes (4 bits) and DTC₁₀₀ bytes.
pub const HORIZON_VALUE_ENCODING: u8 = 2;
/// Value encoding of DTW tables: WDL codes as in version 1, DTW entries as
/// `tigadi_values::Packed` words whose depth is the DTW.
pub const DTW_VALUE_ENCODING: u8 = 3;
/// File name extension of tablebase files (game-theoretic values).
pub const EXTENSION: &str = "tgtb";
/// File name extension of horizon tables (values under the 100-turn rule).
pub const HORIZON_EXTENSION: &str = "tghz";
/// File name extension of DTW tables (depth to win).
pub const DTW_EXTENSION: &str = "tgdw";

/// Slots per WDL block: 2 bits a slot, so 8 KiB before compression. Large enough
/// that the block table costs under 0.01 bits a slot, small enough that a cold
/// probe decompresses a block in a few microseconds.
pub const WDL_SLOTS_PER_BLOCK: u32 = 32_768;
/// Slots per DTC block: 2 bytes a slot, so 16 KiB before compression (measured on
/// tigadi up to 8 gotis: 6% smaller than 4096-slot blocks, still a cold probe of
/// about ten microseconds).
pub const DTC_SLOTS_PER_BLOCK: u32 = 8_192;
/// zstd level of WDL blocks in the small levels ([`ZstdLevels::SMALL`], the
/// first default): higher levels make files only a few percent smaller and
/// several times slower to write (`tigadi-jobs/examples/encodings.rs`; the
/// measurements are in docs/PERFORMANCE.md, *History of the architecture*).
pub const WDL_ZSTD_LEVEL: i32 = 9;
/// zstd level of DTC blocks in the small levels, chosen the same way: one level
/// up is a few percent smaller and about three times slower, level 3 larger and
/// faster (docs/PERFORMANCE.md).
pub const DTC_ZSTD_LEVEL: i32 = 6;

/// The zstd levels a tablebase directory's tables are written at: one for the
/// sections of 2- and 4-bit codes (WDL, category), one for the sections of 8- and
/// 16-bit entries (DTC, DTC₁₀₀, DTW). Fixed per directory (recorded in its
/// manifest), so output is deterministic and a resumed run writes the same bytes.
/// The level is informational in the file: any level reads the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZstdLevels {
    /// Level of the WDL and category sections.
    pub wdl: i32,
    /// Level of the DTC, DTC₁₀₀ and DTW sections.
    pub dtc: i32,
}

impl ZstdLevels {
    /// Smaller files, slower writing: [`WDL_ZSTD_LEVEL`] and [`DTC_ZSTD_LEVEL`],
    /// the levels of the first directories (which are still written at them:
    /// [`crate::TablebaseDir::with_recorded_encoding`]).
    pub const SMALL: ZstdLevels = ZstdLevels {
        wdl: WDL_ZSTD_LEVEL,
        dtc: DTC_ZSTD_LEVEL,
    };

    /// Faster writing, larger files: level 3 for both; against
    /// [`ZstdLevels::SMALL`], about twice as fast to write for files about a
    /// tenth larger (measured in docs/PERFORMANCE.md).
    pub const FAST: ZstdLevels = ZstdLevels { wdl: 3, dtc: 3 };

    /// The levels a new directory is written at: [`ZstdLevels::FAST`].
    pub const DEFAULT: ZstdLevels = ZstdLevels::FAST;

    /// The levels zstd accepts here (and the file's one-byte level field holds).
    pub const RANGE: std::ops::RangeInclusive<i32> = 1..=19;

    /// The level of `section`'s blocks.
    pub fn of(self, section: Section) -> i32 {
        match section {
            Section::Wdl | Section::Category => self.wdl,
            Section::Dtc | Section::Dtc100 | Section::Dtw => self.dtc,
        }
    }

    /// Parses `fast` (or `default`, the same), `small` or `WDL,DTC` (two levels
    /// in [`ZstdLevels::RANGE`]).
    pub fn parse(s: &str) -> Result<ZstdLevels, String> {
        match s {
            "fast" | "default" => return Ok(ZstdLevels::FAST),
            "small" => return Ok(ZstdLevels::SMALL),
            _ => {}
        }
        let level = |t: &str| -> Result<i32, String> {
            match t.trim().parse::<i32>() {
                Ok(l) if ZstdLevels::RANGE.contains(&l) => Ok(l),
                _ => Err(format!(
                    "zstd level {t:?} is not a whole number from {} to {}",
                    ZstdLevels::RANGE.start(),
                    ZstdLevels::RANGE.end()
                )),
            }
        };
        match s.split_once(',') {
            Some((w, d)) => Ok(ZstdLevels {
                wdl: level(w)?,
                dtc: level(d)?,
            }),
            None => Err(format!(
                "{s:?}: expected fast, small, or two zstd levels WDL,DTC such as 9,6"
            )),
        }
    }
}

impl std::fmt::Display for ZstdLevels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{}", self.wdl, self.dtc)
    }
}

/// How many slots a table's blocks hold: the format's own sizes, or blocks of one
/// decompressed size for every section. Smaller blocks cost a random probe less
/// to decompress, at some file size (docs/PERFORMANCE.md, "Serving the whole
/// set"); readers take any size the header records (docs/FORMAT.md, "Blocks of
/// another size"). Fixed per directory (recorded in its manifest), as the zstd
/// levels are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockSize {
    /// [`Section::slots_per_block`]: 16 KiB decompressed (8 KiB for WDL).
    Default,
    /// This many decompressed bytes a block in every section, a power of two in
    /// [`BlockSize::BYTES`].
    Bytes(u32),
}

impl BlockSize {
    /// The decompressed sizes a block may be given.
    pub const BYTES: std::ops::RangeInclusive<u32> = 1024..=(1 << 20);

    /// Blocks of `bytes` decompressed bytes, or an error naming a size that is
    /// not a power of two in [`BlockSize::BYTES`].
    pub fn bytes(bytes: u32) -> Result<BlockSize, String> {
        if bytes.is_power_of_two() && BlockSize::BYTES.contains(&bytes) {
            Ok(BlockSize::Bytes(bytes))
        } else {
            Err(format!(
                "blocks of {bytes} bytes: expected a power of two from {} to {}",
                BlockSize::BYTES.start(),
                BlockSize::BYTES.end()
            ))
        }
    }

    /// Slots in a (full) block of `section`: a power of two for every encoding
    /// (2, 4, 8 or 16 bits a slot).
    pub fn slots_per_block(self, section: Section) -> u32 {
        match self {
            BlockSize::Default => section.slots_per_block(),
            BlockSize::Bytes(b) => (b as u64 * 8 / section.bits_per_slot()) as u32,
        }
    }

    /// The block size whose slots per block the two `sections` have, if one
    /// does ([`BlockSize::Default`] first).
    pub fn of_sections(sections: [(Section, u32); 2]) -> Option<BlockSize> {
        let (second, spb) = sections[1];
        let bytes = second.raw_len(spb as u64);
        [BlockSize::Default]
            .into_iter()
            .chain(
                u32::try_from(bytes)
                    .ok()
                    .and_then(|b| BlockSize::bytes(b).ok()),
            )
            .find(|b| sections.iter().all(|&(s, n)| b.slots_per_block(s) == n))
    }
}

impl std::fmt::Display for BlockSize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BlockSize::Default => write!(f, "16 KiB (8 KiB for WDL)"),
            BlockSize::Bytes(b) if b % 1024 == 0 => write!(f, "{} KiB", b / 1024),
            BlockSize::Bytes(b) => write!(f, "{b} bytes"),
        }
    }
}

/// Section kind code of the WDL section.
pub const SECTION_WDL: u8 = 1;
/// Section kind code of the DTC section.
pub const SECTION_DTC: u8 = 2;
/// Section kind code of the category section of a horizon table (the five classes
/// at counter 0).
pub const SECTION_CATEGORY: u8 = 3;
/// Section kind code of the DTC₁₀₀ section of a horizon table.
pub const SECTION_DTC100: u8 = 4;
/// Section kind code of the DTW section of a DTW table.
pub const SECTION_DTW: u8 = 5;
/// Section encoding: WDL, 2-bit codes, four slots a byte, lowest bits first.
pub const ENCODING_WDL_2BIT: u8 = 1;
/// Section encoding: DTC, `Packed` u16 per slot, split per block into a plane of
/// low bytes followed by a plane of high bytes.
pub const ENCODING_DTC_U16_PLANES: u8 = 1;
/// Section encoding: categories, 4-bit codes, two slots a byte, low nibble first.
pub const ENCODING_CATEGORY_4BIT: u8 = 1;
/// Section encoding: DTC₁₀₀, one byte per slot.
pub const ENCODING_DTC100_U8: u8 = 1;
/// Slots per category block: half a byte a slot, so 16 KiB before compression.
pub const CATEGORY_SLOTS_PER_BLOCK: u32 = 32_768;
/// Slots per DTC₁₀₀ block: a byte a slot, so 16 KiB before compression.
pub const DTC100_SLOTS_PER_BLOCK: u32 = 16_384;

/// WDL code of a loss for the player to move.
pub const WDL_LOSS: u8 = 0;
/// WDL code of a draw.
pub const WDL_DRAW: u8 = 1;
/// WDL code of a win for the player to move.
pub const WDL_WIN: u8 = 2;
/// DTC₁₀₀ byte of a position drawn under the rule at counter 0.
pub const DTC100_DRAW: u8 = 0;
/// Flag of a DTC₁₀₀ byte for a loss: `0x80 | h`; a win is `h` itself (1..=100).
pub const DTC100_LOSS: u8 = 0x80;

/// What a table file holds. With its tier (hands and subspace) it names a file
/// ([`crate::TableId`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TableKind {
    /// Game-theoretic values (`.tgtb`, format version 1): a WDL and a DTC section.
    GameTheoretic,
    /// Values under the 100-turn rule (`.tghz`, format version 2): a category
    /// section and a DTC₁₀₀ section; the header records the turn limit.
    Horizon,
    /// Depth to win (`.tgdw`, format version 3): a WDL section (as in a
    /// game-theoretic table) and a DTW section, `Packed` words whose depth is the
    /// DTW (docs/RULES.md §7). Computed after the values, on request.
    Dtw,
}

impl TableKind {
    /// Every kind, in listing order (a directory's game-theoretic tables first).
    pub const ALL: [TableKind; 3] = [TableKind::GameTheoretic, TableKind::Horizon, TableKind::Dtw];

    /// The format version written in the header.
    pub fn version(self) -> u16 {
        match self {
            TableKind::GameTheoretic => FORMAT_VERSION,
            TableKind::Horizon => HORIZON_FORMAT_VERSION,
            TableKind::Dtw => DTW_FORMAT_VERSION,
        }
    }

    /// The kind a header's format version says, if this reader knows it.
    pub fn from_version(version: u16) -> Option<TableKind> {
        TableKind::ALL.into_iter().find(|k| k.version() == version)
    }

    /// The value encoding written in the header.
    pub fn value_encoding(self) -> u8 {
        match self {
            TableKind::GameTheoretic => VALUE_ENCODING,
            TableKind::Horizon => HORIZON_VALUE_ENCODING,
            TableKind::Dtw => DTW_VALUE_ENCODING,
        }
    }

    /// The file name extension.
    pub fn extension(self) -> &'static str {
        match self {
            TableKind::GameTheoretic => EXTENSION,
            TableKind::Horizon => HORIZON_EXTENSION,
            TableKind::Dtw => DTW_EXTENSION,
        }
    }

    /// The word that names the kind on the command line (`verify --kind`):
    /// `game`, `horizon`, `dtw`.
    pub fn name(self) -> &'static str {
        match self {
            TableKind::GameTheoretic => "game",
            TableKind::Horizon => "horizon",
            TableKind::Dtw => "dtw",
        }
    }

    /// The kind [`TableKind::name`] names, `None` for any other word.
    pub fn named(name: &str) -> Option<TableKind> {
        TableKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// What a report adds to a table's or a pass's name to tell the kind apart:
    /// nothing for the game-theoretic values, `100-turn` or `DTW` for the others.
    pub fn label(self) -> Option<&'static str> {
        match self {
            TableKind::GameTheoretic => None,
            TableKind::Horizon => Some("100-turn"),
            TableKind::Dtw => Some("DTW"),
        }
    }

    /// What `verify` checks the first section against, as its report says when
    /// the check fails.
    pub fn first_section_check(self) -> &'static str {
        match self {
            TableKind::GameTheoretic => "WDL section disagrees with DTC section",
            TableKind::Horizon => {
                "category section disagrees with the DTC100 and game-theoretic values"
            }
            TableKind::Dtw => "WDL section disagrees with the DTW or game-theoretic values",
        }
    }

    /// The first and the second section, in file order.
    pub fn sections(self) -> [Section; 2] {
        match self {
            TableKind::GameTheoretic => [Section::Wdl, Section::Dtc],
            TableKind::Horizon => [Section::Category, Section::Dtc100],
            TableKind::Dtw => [Section::Wdl, Section::Dtw],
        }
    }

    /// Do the values depend on the rule set's turn limit? Then the header records
    /// it and a table solved under another limit is refused.
    pub fn has_turn_limit(self) -> bool {
        match self {
            TableKind::GameTheoretic | TableKind::Dtw => false,
            TableKind::Horizon => true,
        }
    }

    /// The depth its values carry ([`Metric`]): DTC (to the next capture, or
    /// DTC₁₀₀ for horizon tables) or DTW; the pass that computes a table of this
    /// kind evaluates positions in it.
    pub fn metric(self) -> Metric {
        match self {
            TableKind::GameTheoretic | TableKind::Horizon => Metric::Dtc,
            TableKind::Dtw => Metric::Dtw,
        }
    }

    /// [`TableKind::metric`] under `rules`: under Lasker's rule (`slides=always`)
    /// a horizon table's depth counts to the next capture **or placement**
    /// ([`Metric::Dtz`]: a placement restarts the 100-turn counter, docs/RULES.md
    /// §8), which is the DTC in the tiers with empty hands.
    pub fn metric_under(self, rules: &RuleSet) -> Metric {
        match self {
            TableKind::Horizon if rules.slides_in_hand => Metric::Dtz,
            k => k.metric(),
        }
    }

    /// The rule set as a table of this kind records it: game-theoretic values
    /// ignore the turn limit, so theirs reads [`tigadi_rules::DEFAULT_QUIET`].
    pub fn recorded_rules(self, rules: &RuleSet) -> RuleSet {
        if self.has_turn_limit() {
            *rules
        } else {
            rules.without_quiet_limit()
        }
    }

    /// Header byte 22: in version 1 the gotis per side (0 for the default 9), so
    /// that those files are those of milestone 1; in version 2 the turn limit (and
    /// bytes 22..24 of a moving-phase table read as a u16 are the turn limit, as
    /// they were first written; the gotis per side are in the rule set name only);
    /// in version 3 as in version 1.
    pub(crate) fn rules_byte(self, rules: &RuleSet) -> u8 {
        match self {
            TableKind::GameTheoretic | TableKind::Dtw if rules.pieces == DEFAULT_PIECES => 0,
            TableKind::GameTheoretic | TableKind::Dtw => rules.pieces,
            TableKind::Horizon => rules.quiet as u8,
        }
    }

    /// The turn limit and the gotis per side from header byte 22
    /// ([`TableKind::rules_byte`]) and the rule set's name; what is wrong otherwise.
    pub(crate) fn rules_from_byte(self, byte: u8, rules_name: &str) -> Result<(u16, u8), String> {
        match self {
            TableKind::GameTheoretic | TableKind::Dtw => {
                let pieces = match byte {
                    0 => DEFAULT_PIECES,
                    n if (MIN_PIECES..=MAX_PIECES).contains(&n) && n != DEFAULT_PIECES => n,
                    n => return Err(format!("gotis-per-side code {n}")),
                };
                Ok((tigadi_rules::DEFAULT_QUIET, pieces))
            }
            TableKind::Horizon => {
                let quiet = match byte as u16 {
                    q @ 1..=tigadi_rules::MAX_QUIET => q,
                    q => return Err(format!("turn limit {q}")),
                };
                match RuleSet::parse(rules_name) {
                    Ok(r) => Ok((quiet, r.pieces)),
                    Err(_) => Err(format!("rule set name {rules_name:?}")),
                }
            }
        }
    }

    /// The kind whose table of the same phase and subspace a table of this kind
    /// is derived from besides its pass's values (the horizon tables' classes come
    /// from the game-theoretic values), if any.
    pub fn derived_from(self) -> Option<TableKind> {
        match self {
            TableKind::GameTheoretic | TableKind::Dtw => None,
            TableKind::Horizon => Some(TableKind::GameTheoretic),
        }
    }

    /// What a table of this kind is written from: `values`, its pass's output (one
    /// per slot, [`Packed::NONE`] in padding), and `base`, the values of the table
    /// it is derived from ([`TableKind::derived_from`]; fillers in padding slots
    /// are fine). `None` when `base` is missing or not needed.
    pub fn data<'a>(
        self,
        values: &'a [Packed],
        base: Option<&'a [Packed]>,
    ) -> Option<TableData<'a>> {
        match (self, base) {
            (TableKind::GameTheoretic, None) => Some(TableData::Game(values)),
            (TableKind::Dtw, None) => Some(TableData::Dtw(values)),
            (TableKind::Horizon, Some(game)) => Some(TableData::Horizon {
                game,
                dtc100: values,
            }),
            _ => None,
        }
    }

    /// The kind whose table of the same tier `verify` checks a table's first
    /// section against, if any: a horizon table's classes and a DTW table's
    /// win, draw or loss must be those of the game-theoretic values.
    pub fn first_section_reads(self) -> Option<TableKind> {
        match self {
            TableKind::GameTheoretic => None,
            TableKind::Horizon | TableKind::Dtw => Some(TableKind::GameTheoretic),
        }
    }

    /// The slots of `table` (of this kind, its values decoded as `values`), in
    /// order, whose first section disagrees with its values, as `verify` checks
    /// it ([`TableKind::first_section_check`]): a WDL code that is not the
    /// stored value's win, draw or loss (and, in a DTW table, not `base`'s); a
    /// horizon class that is not the one of `base`'s win, draw or loss and the
    /// value under the rule. `base` is the table of the same tier of the kind
    /// [`TableKind::first_section_reads`] names, required when it names one.
    /// Read block by block: no more memory than the answer.
    pub fn first_section_mismatches(
        self,
        table: &Table,
        values: &[Packed],
        base: Option<&[Packed]>,
    ) -> Result<Vec<u64>, TablebaseError> {
        let base = match (self.first_section_reads(), base) {
            (None, _) => None,
            (Some(_), Some(b)) if b.len() == values.len() => Some(b),
            (Some(kind), _) => {
                return Err(TablebaseError::corrupt(
                    table.path(),
                    format!("its {} table is missing or of another size", kind.name()),
                ))
            }
        };
        if table.header().slots != values.len() as u64 {
            return Err(TablebaseError::corrupt(
                table.path(),
                format!("{} values for {} slots", values.len(), table.header().slots),
            ));
        }
        let value = |i: usize| values[i].get();
        let base_wdl = |i: usize| base.and_then(|b| b[i].get()).map(|v| v.wdl());
        match self {
            TableKind::GameTheoretic => {
                table.slots_where::<field::Wdl>(|i, wdl| value(i).map(|v| v.wdl()) != Some(wdl))
            }
            TableKind::Horizon => {
                table.slots_where::<field::Category>(|i, class| match (base_wdl(i), value(i)) {
                    (Some(g), Some(h)) => Class::of(g, h.wdl()) != Some(class),
                    _ => true,
                })
            }
            TableKind::Dtw => {
                table.slots_where::<field::Wdl>(|i, wdl| match (value(i), base_wdl(i)) {
                    (Some(v), Some(g)) => v.wdl() != wdl || v.wdl() != g,
                    _ => true,
                })
            }
        }
    }

    /// The value a position of a table of this kind holds when `best` is the
    /// value recomputed from its successors' stored values (each turn counted):
    /// `best` itself, or under the turn limit its value at counter 0
    /// ([`tigadi_values::value_at_counter`]).
    pub fn recomputed(self, rules: &RuleSet, best: Value) -> Value {
        if self.has_turn_limit() {
            tigadi_values::value_at_counter(best, 0, rules.quiet)
                .expect("counter 0 is within every limit")
        } else {
            best
        }
    }

    /// Decodes a table's values, as [`crate::TablebaseDir::load`] returns them:
    /// its DTC section (game-theoretic values), its DTC₁₀₀ section or its DTW
    /// section.
    pub fn decode_values(self, table: &Table) -> Result<Vec<Packed>, TablebaseError> {
        match self {
            TableKind::GameTheoretic => table.decode::<field::Dtc>(),
            TableKind::Horizon => table.decode::<field::Dtc100>(),
            TableKind::Dtw => table.decode::<field::Dtw>(),
        }
    }
}

/// One section of a table file: what its entries are and how they are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    /// Win/draw/loss codes only (game-theoretic tables).
    Wdl,
    /// Full values with DTC (game-theoretic tables).
    Dtc,
    /// The five classes at counter 0 (horizon tables).
    Category,
    /// DTC₁₀₀ values (horizon tables).
    Dtc100,
    /// Values whose depth is the DTW (DTW tables): laid out as [`Section::Dtc`]
    /// (two byte planes per block, so while every DTW of a block is below 256
    /// its plane of high bytes is zeros and compresses to almost nothing).
    Dtw,
}

impl Section {
    /// The section's kind code in the file.
    pub fn code(self) -> u8 {
        match self {
            Section::Wdl => SECTION_WDL,
            Section::Dtc => SECTION_DTC,
            Section::Category => SECTION_CATEGORY,
            Section::Dtc100 => SECTION_DTC100,
            Section::Dtw => SECTION_DTW,
        }
    }

    /// The section's encoding code in the file.
    pub fn encoding(self) -> u8 {
        match self {
            Section::Wdl => ENCODING_WDL_2BIT,
            Section::Dtc | Section::Dtw => ENCODING_DTC_U16_PLANES,
            Section::Category => ENCODING_CATEGORY_4BIT,
            Section::Dtc100 => ENCODING_DTC100_U8,
        }
    }

    /// Its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Section::Wdl => "WDL",
            Section::Dtc => "DTC",
            Section::Category => "category",
            Section::Dtc100 => "DTC100",
            Section::Dtw => "DTW",
        }
    }

    /// Slots per block as the writer makes them.
    pub fn slots_per_block(self) -> u32 {
        match self {
            Section::Wdl => WDL_SLOTS_PER_BLOCK,
            Section::Dtc | Section::Dtw => DTC_SLOTS_PER_BLOCK,
            Section::Category => CATEGORY_SLOTS_PER_BLOCK,
            Section::Dtc100 => DTC100_SLOTS_PER_BLOCK,
        }
    }

    /// Bits a slot takes in a decompressed block.
    pub fn bits_per_slot(self) -> u64 {
        match self {
            Section::Wdl => 2,
            Section::Category => 4,
            Section::Dtc100 => 8,
            Section::Dtc | Section::Dtw => 16,
        }
    }

    /// Decompressed bytes of a block of `n` slots.
    pub fn raw_len(self, n: u64) -> u64 {
        (n * self.bits_per_slot()).div_ceil(8)
    }

    /// The decompressed block of the entries `words` (one per slot, in order).
    pub(crate) fn pack(self, words: &[u16]) -> Vec<u8> {
        let n = words.len();
        let mut raw = vec![0u8; self.raw_len(n as u64) as usize];
        match self {
            Section::Wdl => {
                for (byte, w) in raw.iter_mut().zip(words.chunks(4)) {
                    *byte = w
                        .iter()
                        .enumerate()
                        .fold(0, |b, (k, &e)| b | (e as u8) << (2 * k));
                }
            }
            Section::Category => {
                for (byte, w) in raw.iter_mut().zip(words.chunks(2)) {
                    *byte = w
                        .iter()
                        .enumerate()
                        .fold(0, |b, (k, &e)| b | (e as u8) << (4 * k));
                }
            }
            Section::Dtc100 => {
                for (byte, &e) in raw.iter_mut().zip(words) {
                    *byte = e as u8;
                }
            }
            Section::Dtc | Section::Dtw => {
                let (low, high) = raw.split_at_mut(n);
                for ((l, h), &e) in low.iter_mut().zip(high.iter_mut()).zip(words) {
                    *l = e as u8;
                    *h = (e >> 8) as u8;
                }
            }
        }
        raw
    }

    /// The entry of slot `j` of a decompressed block of `n` slots.
    #[inline]
    pub(crate) fn get(self, raw: &[u8], j: usize, n: usize) -> u16 {
        match self {
            Section::Wdl => ((raw[j / 4] >> (2 * (j % 4))) & 3) as u16,
            Section::Category => ((raw[j / 2] >> (4 * (j % 2))) & 0xF) as u16,
            Section::Dtc100 => raw[j] as u16,
            Section::Dtc | Section::Dtw => u16::from_le_bytes([raw[j], raw[n + j]]),
        }
    }
}

/// One thing a prober reads from one section of one kind of table, slot by slot
/// ([`crate::Tablebase::get`], [`crate::Table::get`]) or whole
/// ([`crate::Table::decode`]). The types in [`field`] are the fields there are.
pub trait Field {
    /// The kind of table it is read from.
    const KIND: TableKind;
    /// The section it is read from.
    const SECTION: Section;
    /// One slot's entry as a whole-table decode keeps it.
    type Entry: Entry;
    /// The entry a stored word means in a table with this header; `None` if the
    /// encoding or the header rules it out (a corrupt table).
    fn entry(header: &Header, word: u16) -> Option<Self::Entry>;
    /// What a probe of this field answers for a slot whose game value is
    /// `game`, in a tier whose 100-turn values are its game values
    /// ([`crate::Tablebase::with_rule_values_from_game`]); `None` for a field
    /// that is not read from a 100-turn table.
    fn from_game(_game: Value) -> Option<<Self::Entry as Entry>::Value> {
        None
    }
}

/// One slot's entry of a [`Field`] as held in memory (two bytes for a value), and
/// what a probe answers for it.
pub trait Entry: Copy + Send + Sync {
    /// What a probe answers.
    type Value;
    /// An entry to fill memory with before decoding into it.
    const FILLER: Self;
    /// The entry as a probe answers it.
    fn value(self) -> Self::Value;
}

impl Entry for Packed {
    type Value = Value;
    const FILLER: Packed = Packed::DRAW;
    /// The value; only entries that hold one are decoded ([`Field::entry`]).
    fn value(self) -> Value {
        self.get().expect("a decoded entry holds a value")
    }
}

impl Entry for WinDrawLoss {
    type Value = WinDrawLoss;
    const FILLER: WinDrawLoss = WinDrawLoss::Draw;
    fn value(self) -> WinDrawLoss {
        self
    }
}

impl Entry for Class {
    type Value = Class;
    const FILLER: Class = Class::Draw;
    fn value(self) -> Class {
        self
    }
}

/// The fields of the table kinds ([`Field`]).
pub mod field {
    use super::*;

    /// The game-theoretic value with its DTC (DTC section).
    pub struct Dtc;
    /// Win, draw or loss only (WDL section: the cheap probe).
    pub struct Wdl;
    /// The class at counter 0: win, cursed win, draw, blessed loss, loss
    /// (category section of a horizon table).
    pub struct Category;
    /// The value under the 100-turn rule at counter 0 with the turns within which
    /// it is forced (DTC₁₀₀ section of a horizon table).
    pub struct Dtc100;
    /// The game-theoretic value with its depth to win (DTW section of a DTW
    /// table).
    pub struct Dtw;

    impl Field for Dtc {
        const KIND: TableKind = TableKind::GameTheoretic;
        const SECTION: Section = Section::Dtc;
        type Entry = Packed;
        fn entry(_: &Header, word: u16) -> Option<Packed> {
            let v = Packed(word).get()?;
            (v.dtc().unwrap_or(0) <= MAX_DTC).then_some(Packed(word))
        }
    }

    impl Field for Dtw {
        const KIND: TableKind = TableKind::Dtw;
        const SECTION: Section = Section::Dtw;
        type Entry = Packed;
        fn entry(header: &Header, word: u16) -> Option<Packed> {
            Dtc::entry(header, word)
        }
    }

    impl Field for Wdl {
        const KIND: TableKind = TableKind::GameTheoretic;
        const SECTION: Section = Section::Wdl;
        type Entry = WinDrawLoss;
        fn entry(_: &Header, word: u16) -> Option<WinDrawLoss> {
            [WinDrawLoss::Loss, WinDrawLoss::Draw, WinDrawLoss::Win]
                .into_iter()
                .find(|&w| wdl_code(w) as u16 == word)
        }
    }

    impl Field for Category {
        const KIND: TableKind = TableKind::Horizon;
        const SECTION: Section = Section::Category;
        type Entry = Class;
        fn entry(_: &Header, word: u16) -> Option<Class> {
            Class::from_code(word as u8)
        }
        fn from_game(game: Value) -> Option<Class> {
            Class::of(game.wdl(), game.wdl())
        }
    }

    impl Field for Dtc100 {
        const KIND: TableKind = TableKind::Horizon;
        const SECTION: Section = Section::Dtc100;
        type Entry = Packed;
        fn entry(header: &Header, word: u16) -> Option<Packed> {
            let byte = word as u8;
            let h = (byte & !DTC100_LOSS) as u16;
            let v = match byte {
                DTC100_DRAW => Value::Draw,
                b if b & DTC100_LOSS != 0 => Value::Loss(h),
                _ => Value::Win(h),
            };
            (h <= header.dtc100_limit()).then_some(Packed::new(v))
        }
        fn from_game(game: Value) -> Option<Value> {
            Some(game)
        }
    }
}

/// What a table of each kind is written from: one entry per slot of the
/// subspace index, [`Packed::NONE`] in padding slots (and nowhere else).
#[derive(Clone, Copy, Debug)]
pub enum TableData<'a> {
    /// Game-theoretic values (a [`TableKind::GameTheoretic`] table).
    Game(&'a [Packed]),
    /// Values whose depth is the DTW (a [`TableKind::Dtw`] table).
    Dtw(&'a [Packed]),
    /// Values under the 100-turn rule (a [`TableKind::Horizon`] table): the
    /// horizon pass's DTC₁₀₀ values, and the game-theoretic values of the same
    /// slots for the classes. Padding is where `dtc100` has it; `game` may hold
    /// anything there (a table read back from its file holds fillers).
    Horizon {
        /// The game-theoretic values.
        game: &'a [Packed],
        /// The DTC₁₀₀ values.
        dtc100: &'a [Packed],
    },
}

/// Where a table's entries come from once [`TableData::entries`] has checked
/// them; the writer reads them slot by slot ([`value_entries`],
/// [`horizon_entries`]).
#[derive(Clone, Copy)]
pub(crate) enum Entries<'a> {
    /// Game-theoretic or DTW values: the WDL code and the packed value.
    Values(&'a [Packed]),
    /// Values under the 100-turn rule: the class code and the DTC₁₀₀ byte.
    Horizon {
        /// The game-theoretic values.
        game: &'a [Packed],
        /// The DTC₁₀₀ values.
        dtc100: &'a [Packed],
    },
}

/// The entries of the two sections of a checked game-theoretic or DTW value,
/// `None` for padding: read from the packed bits without decoding the value.
#[inline]
pub(crate) fn value_entries(p: Packed) -> Option<[u16; 2]> {
    let code = match p.0 {
        0xFFFF => return None,
        0 => WDL_DRAW,
        d if d & 0x8000 != 0 => WDL_LOSS,
        _ => WDL_WIN,
    };
    Some([code as u16, p.0])
}

/// The entries of the two sections of a checked horizon slot (its game value
/// and its DTC₁₀₀ value), `None` for padding.
#[inline]
pub(crate) fn horizon_entries(game: Packed, dtc100: Packed) -> Option<[u16; 2]> {
    let h = dtc100.get()?;
    let class = Class::of(game.get()?.wdl(), h.wdl())?;
    Some([class.code() as u16, dtc100_byte(h) as u16])
}

impl<'a> TableData<'a> {
    /// The kind of table written from it.
    pub fn kind(&self) -> TableKind {
        match self {
            TableData::Game(_) => TableKind::GameTheoretic,
            TableData::Dtw(_) => TableKind::Dtw,
            TableData::Horizon { .. } => TableKind::Horizon,
        }
    }

    /// The slot count of every array it holds, or what is wrong.
    pub(crate) fn slots(&self) -> Result<usize, TablebaseError> {
        let n = match *self {
            TableData::Game(v) | TableData::Dtw(v) => v.len(),
            TableData::Horizon { game, dtc100 } if game.len() == dtc100.len() => game.len(),
            TableData::Horizon { game, dtc100 } => {
                return Err(TablebaseError::InvalidValues(format!(
                    "{} game-theoretic and {} DTC100 values",
                    game.len(),
                    dtc100.len()
                )))
            }
        };
        match n {
            0 => Err(TablebaseError::InvalidValues("no slots".into())),
            n => Ok(n),
        }
    }

    /// Checks every slot and counts the classes for the header (with `limit` the
    /// largest DTC₁₀₀ the table may hold); the entries of both sections per slot
    /// and the filler entries written before the first real slot.
    pub(crate) fn entries(
        &self,
        limit: u16,
    ) -> Result<(ClassCounts, Entries<'a>, [u16; 2]), TablebaseError> {
        match *self {
            TableData::Game(values) | TableData::Dtw(values) => {
                let counts = count_checked(values.len(), |slot, counts| {
                    let v = values[slot];
                    match v.get() {
                        None => Ok(()),
                        Some(v) if v.dtc().unwrap_or(0) <= MAX_DTC => {
                            counts.add(v);
                            Ok(())
                        }
                        Some(_) => Err(format!(
                            "slot {slot} holds {:#06x}, not a packed value",
                            v.0
                        )),
                    }
                })?;
                let fill = [WDL_DRAW as u16, Packed::DRAW.0];
                Ok((counts, Entries::Values(values), fill))
            }
            TableData::Horizon { game, dtc100 } => {
                let counts = count_checked(game.len(), |slot, counts| {
                    let (g, h) = (game[slot], dtc100[slot]);
                    let Some(h) = h.get() else { return Ok(()) };
                    let Some(g) = g.get() else {
                        return Err(format!(
                            "slot {slot}: padding in the game-theoretic values only"
                        ));
                    };
                    let bad = |what: &str| {
                        Err(format!(
                            "slot {slot}: DTC100 {h:?} {what} (game-theoretic value {g:?})"
                        ))
                    };
                    if h.dtc().is_some_and(|d| d > limit) {
                        return bad("beyond the turn limit");
                    }
                    if Class::of(g.wdl(), h.wdl()).is_none() {
                        return bad("contradicts the game-theoretic value");
                    }
                    counts.add(h);
                    Ok(())
                })?;
                let fill = [Class::Draw.code() as u16, DTC100_DRAW as u16];
                Ok((counts, Entries::Horizon { game, dtc100 }, fill))
            }
        }
    }
}

/// The class counts of slots `0..slots`, `check(slot, counts)` counting each
/// (or saying what is wrong with it), in parallel stretches; the error is the
/// first slot's that has one, whatever the threads.
fn count_checked(
    slots: usize,
    check: impl Fn(usize, &mut ClassCounts) -> Result<(), String> + Sync,
) -> Result<ClassCounts, TablebaseError> {
    const STRETCH: usize = 1 << 16;
    let stretches: Vec<Result<ClassCounts, String>> = (0..slots.div_ceil(STRETCH))
        .into_par_iter()
        .map(|c| {
            let mut counts = ClassCounts::default();
            for slot in c * STRETCH..((c + 1) * STRETCH).min(slots) {
                check(slot, &mut counts)?;
            }
            Ok(counts)
        })
        .collect();
    let mut counts = ClassCounts::default();
    for stretch in stretches {
        counts.merge(&stretch.map_err(TablebaseError::InvalidValues)?);
    }
    Ok(counts)
}

/// The WDL code of a win, draw or loss.
fn wdl_code(w: WinDrawLoss) -> u8 {
    match w {
        WinDrawLoss::Win => WDL_WIN,
        WinDrawLoss::Draw => WDL_DRAW,
        WinDrawLoss::Loss => WDL_LOSS,
    }
}

/// The DTC₁₀₀ byte of a value under the rule at counter 0 (`docs/FORMAT.md`).
fn dtc100_byte(v: Value) -> u8 {
    match v {
        Value::Draw => DTC100_DRAW,
        Value::Win(h) => h as u8,
        Value::Loss(h) => DTC100_LOSS | h as u8,
    }
}
