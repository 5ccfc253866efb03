//! Where tables live: a table's identity ([`TableId`]: kind and tier) and
//! the directory of one rule set's tables ([`TablebaseDir`]), which names,
//! opens, reads, writes, lists and checks them. Every path to a table file is
//! made here, from a `TableId`; the manifest of the directory is in
//! [`crate::manifest`], as methods of the same type.

use crate::error::TablebaseError;
use crate::kind::{BlockSize, Section, TableData, TableKind, ZstdLevels};
use crate::lock::DirLock;
use crate::reader::table::{is_missing, Table};
use crate::writer::{compress, write_atomically, Compressed};
use std::path::{Path, PathBuf};
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::RuleSet;
use tigadi_values::{placing_turns, Hands, Packed, Tier};

/// Most gotis a side may have for the index (and so for a table file).
const MAX_SIDE: usize = 12;
/// Tables per kind and hands: one per subspace `(m, o)`, `m, o <= MAX_SIDE`.
const PER_HANDS: usize = (MAX_SIDE + 1) * (MAX_SIDE + 1);
/// Hands a prober tells apart: `(mover, opponent)`, each at most `MAX_SIDE` (under
/// Lasker's rule any pair, not only those of the standard alternation).
const HANDS: usize = (MAX_SIDE + 1) * (MAX_SIDE + 1);

/// Which table: its kind and its tier (hands and subspace). One file per table,
/// named by [`TableId::file_name`]: `<m>v<o>.<ext>` for a tier with empty hands,
/// `p<k>-<m>v<o>.<ext>` for one with `k` placements made (the hands those of the
/// standard alternation, [`Hands::after_placements`]), `h<a>-<b>-<m>v<o>.<ext>`
/// for one with `a` gotis in the mover's hand and `b` in the other's that no
/// alternate placing gives (Lasker's rule, where a turn may slide instead of
/// placing), the extension the kind's ([`TableKind::extension`]).
///
/// Ordered as a directory lists its tables: the moving-phase tiers before the
/// placing ones, then by kind, placements made and subspace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableId {
    /// What the table holds.
    pub kind: TableKind,
    /// The positions it holds.
    pub tier: Tier,
}

impl TableId {
    /// The table of `kind` of `tier`.
    pub fn new(kind: TableKind, tier: Tier) -> TableId {
        TableId { kind, tier }
    }

    /// A moving-phase table (empty hands).
    pub fn moving(kind: TableKind, subspace: Subspace) -> TableId {
        TableId::new(kind, Tier::moving(subspace))
    }

    /// The table of another kind of the same tier.
    pub fn with_kind(self, kind: TableKind) -> TableId {
        TableId { kind, ..self }
    }

    /// The goti counts on the board.
    pub fn subspace(&self) -> Subspace {
        self.tier.subspace
    }

    /// The file name inside the directory of `rules` (whose `pieces` give the
    /// placements made from the hands): `3v4.tgtb`, `3v4.tghz`, `p7-3v4.tgtb`,
    /// and under Lasker's rule also `h9-10-1v0.tgtb`.
    pub fn file_name(&self, rules: &RuleSet) -> String {
        let s = self.tier.subspace;
        let ext = self.kind.extension();
        let h = self.tier.hands;
        if h.is_empty() {
            format!("{}v{}.{ext}", s.mover, s.opponent)
        } else if let Some(k) = h.standard_placements(rules) {
            format!("p{k}-{}v{}.{ext}", s.mover, s.opponent)
        } else {
            format!(
                "h{}-{}-{}v{}.{ext}",
                h.mover, h.opponent, s.mover, s.opponent
            )
        }
    }

    /// The table a file name in the directory of `rules` names
    /// ([`TableId::file_name`] back), `None` for any other name (numbers with
    /// leading zeros, more placements than the rule set makes, and an `h` name
    /// whose hands another spelling names or the rule set never gives, included).
    pub fn parse(name: &str, rules: &RuleSet) -> Option<TableId> {
        let (kind, stem) = TableKind::ALL.into_iter().find_map(|k| {
            let stem = name.strip_suffix(k.extension())?.strip_suffix('.')?;
            Some((k, stem))
        })?;
        let (hands, stem) = if let Some(rest) = stem.strip_prefix('p') {
            let (made, stem) = rest.split_once('-')?;
            let made = canonical_number(made)? as u32;
            if made >= placing_turns(rules) {
                return None;
            }
            (Hands::after_placements(rules, made), stem)
        } else if let Some(rest) = stem.strip_prefix('h') {
            let (mover, rest) = rest.split_once('-')?;
            let (opponent, stem) = rest.split_once('-')?;
            let hands = Hands::new(canonical_number(mover)?, canonical_number(opponent)?);
            let fits = hands.mover.max(hands.opponent) <= rules.pieces;
            if !rules.slides_in_hand || !fits || hands.is_empty() {
                return None;
            }
            if hands.standard_placements(rules).is_some() {
                return None;
            }
            (hands, stem)
        } else {
            (Hands::EMPTY, stem)
        };
        let (m, o) = stem.split_once('v')?;
        let subspace = Subspace::new(canonical_number(m)?, canonical_number(o)?);
        Some(TableId::new(kind, Tier::new(hands, subspace)))
    }

    /// How many table numbers there are ([`TableId::number`]).
    pub(crate) const COUNT: usize = TableKind::ALL.len() * HANDS * PER_HANDS;

    /// A number below [`TableId::COUNT`] per table a prober of `rules` can hold
    /// (at most 12 gotis a side on the board and in each hand), different for
    /// every table.
    pub(crate) fn number(&self, rules: &RuleSet) -> usize {
        let kind = TableKind::ALL
            .iter()
            .position(|&k| k == self.kind)
            .expect("every kind is listed");
        kind * HANDS * PER_HANDS + self.place(rules) as usize
    }

    /// A number per tier (below `13^4`), the same for every kind and every rule
    /// set: what names the table in the prober's block cache, beside its kind.
    pub fn place(&self, _rules: &RuleSet) -> u32 {
        let h = self.tier.hands;
        let hands = h.mover as usize * (MAX_SIDE + 1) + h.opponent as usize;
        let (m, o) = (
            self.tier.subspace.mover as usize,
            self.tier.subspace.opponent as usize,
        );
        debug_assert!(hands < HANDS && m.max(o) <= MAX_SIDE);
        (hands * PER_HANDS + m * (MAX_SIDE + 1) + o) as u32
    }

    /// The listing order's key: moving tiers first, then by kind, most gotis in
    /// hand first (fewest placements made), subspace.
    fn order(
        &self,
    ) -> (
        bool,
        TableKind,
        std::cmp::Reverse<u8>,
        std::cmp::Reverse<Hands>,
        Subspace,
    ) {
        let h = self.tier.hands;
        (
            !h.is_empty(),
            self.kind,
            std::cmp::Reverse(h.mover + h.opponent),
            std::cmp::Reverse(h),
            self.tier.subspace,
        )
    }
}

impl PartialOrd for TableId {
    fn partial_cmp(&self, other: &TableId) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for TableId {
    fn cmp(&self, other: &TableId) -> std::cmp::Ordering {
        self.order().cmp(&other.order())
    }
}

/// A decimal number written without leading zeros.
fn canonical_number(text: &str) -> Option<u8> {
    let n: u8 = text.parse().ok()?;
    (n.to_string() == text).then_some(n)
}

/// A table being written on a thread of its own
/// ([`TablebaseDir::write_in_background`]).
#[derive(Debug)]
pub struct PendingWrite {
    handle: Option<std::thread::JoinHandle<Result<PathBuf, TablebaseError>>>,
}

impl PendingWrite {
    /// Runs `work` (writing files) on a thread of its own named `name`; `dir` is
    /// the directory named if the thread cannot be started.
    pub fn spawn(
        name: String,
        dir: &Path,
        work: impl FnOnce() -> Result<PathBuf, TablebaseError> + Send + 'static,
    ) -> Result<PendingWrite, TablebaseError> {
        let handle = std::thread::Builder::new()
            .name(name)
            .spawn(work)
            .map_err(|e| TablebaseError::io(dir, e))?;
        Ok(PendingWrite {
            handle: Some(handle),
        })
    }

    /// Waits for the file to be written and synced; its path, or what failed.
    pub fn wait(mut self) -> Result<PathBuf, TablebaseError> {
        let handle = self.handle.take().expect("waited for once");
        match handle.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }
}

impl Drop for PendingWrite {
    /// A dropped write is still finished (or its temporary file removed) before
    /// the caller goes on, so nothing is left half-written behind a released lock.
    fn drop(&mut self) {
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

/// The tables of one rule set in a tablebase directory: `ROOT/<rules>/`, holding
/// every table file, the manifest (`manifest.json`, `SHA256SUMS`) and the lock of
/// the jobs that write there.
#[derive(Clone, Debug)]
pub struct TablebaseDir {
    root: PathBuf,
    rules: RuleSet,
    path: PathBuf,
    levels: ZstdLevels,
    block_size: BlockSize,
}

impl TablebaseDir {
    /// The tables of `rules` under tablebase directory `root`, written at the
    /// default zstd levels. Touches nothing on disk.
    pub fn new(root: &Path, rules: &RuleSet) -> TablebaseDir {
        TablebaseDir {
            root: root.to_path_buf(),
            rules: *rules,
            path: root.join(TablebaseDir::name_of(rules)),
            levels: ZstdLevels::DEFAULT,
            block_size: BlockSize::Default,
        }
    }

    /// The same directory, its tables (and its manifest's settings) written at
    /// zstd levels `levels`.
    pub fn with_levels(mut self, levels: ZstdLevels) -> TablebaseDir {
        self.levels = levels;
        self
    }

    /// The same directory, its tables (and its manifest's settings) written in
    /// blocks of `size`.
    pub fn with_block_size(mut self, size: BlockSize) -> TablebaseDir {
        self.block_size = size;
        self
    }

    /// The same directory, written at the zstd levels and in the block size it
    /// was started with ([`TablebaseDir::recorded_levels`],
    /// [`TablebaseDir::recorded_block_size`]), or at the defaults when it has no
    /// manifest and no table yet. The jobs write through this, so a resumed run
    /// writes the same bytes as an uninterrupted one.
    pub fn with_recorded_encoding(self) -> TablebaseDir {
        let levels = self.recorded_levels().unwrap_or(ZstdLevels::DEFAULT);
        let size = self.recorded_block_size().unwrap_or(BlockSize::Default);
        self.with_levels(levels).with_block_size(size)
    }

    /// The block size the directory was started with: the one its manifest
    /// records, or, when the manifest is missing or damaged, the one in the
    /// section descriptors of the first table that opens; `None` for a directory
    /// with neither, or whose record is no size this writer makes (a hand-edited
    /// manifest).
    pub fn recorded_block_size(&self) -> Option<BlockSize> {
        match self.read_manifest() {
            Ok(Some(m)) => BlockSize::of_sections([
                (Section::Wdl, m.settings.wdl_slots_per_block),
                (Section::Dtc, m.settings.dtc_slots_per_block),
            ]),
            _ => self.list().unwrap_or_default().into_iter().find_map(|id| {
                let table = self.open(id).ok()?;
                let h = table.header();
                let [a, b] = h.kind.sections();
                BlockSize::of_sections([(a, h.wdl.slots_per_block), (b, h.dtc.slots_per_block)])
            }),
        }
    }

    /// The block size this directory's tables are written in.
    pub fn block_size(&self) -> BlockSize {
        self.block_size
    }

    /// The zstd levels the directory was started with: those its manifest
    /// records, or, when the manifest is missing or damaged, those in the section
    /// descriptors of the first table that opens; `None` for a directory with
    /// neither. A level outside [`ZstdLevels::RANGE`] (a hand-edited manifest) is
    /// brought into it.
    pub fn recorded_levels(&self) -> Option<ZstdLevels> {
        let (wdl, dtc) = match self.read_manifest() {
            Ok(Some(m)) => (m.settings.wdl_zstd_level, m.settings.dtc_zstd_level),
            _ => {
                let ids = self.list().unwrap_or_default();
                ids.into_iter().find_map(|id| {
                    let table = self.open(id).ok()?;
                    let h = table.header();
                    Some((h.wdl.level as i32, h.dtc.level as i32))
                })?
            }
        };
        let (lo, hi) = (*ZstdLevels::RANGE.start(), *ZstdLevels::RANGE.end());
        Some(ZstdLevels {
            wdl: wdl.clamp(lo, hi),
            dtc: dtc.clamp(lo, hi),
        })
    }

    /// The zstd levels this directory's tables are written at.
    pub fn levels(&self) -> ZstdLevels {
        self.levels
    }

    /// The directory name of a rule set inside a tablebase directory: the preset
    /// name, or for other rule sets the switches with `=` written `-` and `,`
    /// written `_` (`lines-20_flying-3_blocked-passes`), so that it is a safe file
    /// name everywhere.
    pub fn name_of(rules: &RuleSet) -> String {
        rules.name().replace('=', "-").replace(',', "_")
    }

    /// The rule set whose directory is named `name` ([`TablebaseDir::name_of`]
    /// back), `None` for any other name.
    pub fn rules_named(name: &str) -> Option<RuleSet> {
        let rules = RuleSet::parse(&name.replace('-', "=").replace('_', ",")).ok()?;
        (TablebaseDir::name_of(&rules) == name).then_some(rules)
    }

    /// The tablebase directory (holding one directory per rule set).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The rule set.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The rule set's directory, `ROOT/<rules>`.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Where table `id` is (or would be).
    pub fn table_path(&self, id: TableId) -> PathBuf {
        self.path.join(id.file_name(&self.rules))
    }

    /// Opens table `id` (header, layout, head checksum and block tables checked)
    /// and checks that it is the one asked for: kind, rule set (and turn limit for
    /// a kind that records it), tier (hands and subspace). Nothing at its path is
    /// [`TablebaseError::MissingSubspace`].
    pub fn open(&self, id: TableId) -> Result<Table, TablebaseError> {
        let path = self.table_path(id);
        if is_missing(&path) {
            return Err(TablebaseError::MissingSubspace {
                subspace: id.tier.subspace,
                path,
            });
        }
        let table = Table::open(&path)?;
        table.expect(&self.rules, id)?;
        Ok(table)
    }

    /// Every value of table `id` (the entries of its kind's value section, the
    /// second of [`TableKind::sections`]: values with their DTC, DTC₁₀₀ or DTW), one
    /// [`Packed`] per slot of the subspace index, with every checksum checked; so
    /// "present and readable" means "solved". Padding slots hold a filler value (a
    /// copy of a neighbour's), not [`Packed::NONE`]: read only slots that the index
    /// gives for real boards, or call [`crate::mark_padding`] first.
    pub fn load(&self, id: TableId) -> Result<Vec<Packed>, TablebaseError> {
        self.open(id)?.values()
    }

    /// Is table `id` present, the one asked for, with every checksum right? Then a
    /// job does not solve it again.
    pub fn is_solved(&self, id: TableId) -> bool {
        self.open(id).and_then(|t| t.check_file_checksum()).is_ok()
    }

    /// Writes table `id` from `data` (of `id`'s kind, one entry per slot of the
    /// subspace index) and returns its path, creating directories as needed. The
    /// file is written to a temporary file in the same directory, synced, and
    /// renamed over the final name, so a reader sees either no file or the
    /// complete one; the bytes depend only on the arguments (not on the thread
    /// count).
    pub fn write(&self, id: TableId, data: TableData) -> Result<PathBuf, TablebaseError> {
        let compressed = self.compress(id, data)?;
        self.store(id, compressed)
    }

    /// [`TablebaseDir::write`], the file assembled and written on a thread of its
    /// own: returns once the blocks are compressed (in parallel, on the caller's
    /// pool), so the caller's next work overlaps the writing and syncing.
    /// [`PendingWrite::wait`] gives the outcome; dropping it waits too.
    pub fn write_in_background(
        &self,
        id: TableId,
        data: TableData,
    ) -> Result<PendingWrite, TablebaseError> {
        let compressed = self.compress(id, data)?;
        let dir = self.clone();
        PendingWrite::spawn(
            format!("write {}", id.file_name(&self.rules)),
            &self.path,
            move || dir.store(id, compressed),
        )
    }

    /// `data` checked against `id`'s slot count and compressed at this
    /// directory's levels and block size.
    fn compress(&self, id: TableId, data: TableData) -> Result<Compressed, TablebaseError> {
        let slots = SubspaceIndex::new(id.tier.subspace).slots();
        if data.slots()? as u64 != slots {
            return Err(TablebaseError::InvalidValues(format!(
                "{} values for subspace {}, which has {slots} slots",
                data.slots()?,
                id.tier.subspace
            )));
        }
        compress(&self.rules, id, data, self.levels, self.block_size)
    }

    /// Assembles and atomically writes a compressed table `id`.
    fn store(&self, id: TableId, compressed: Compressed) -> Result<PathBuf, TablebaseError> {
        let bytes = compressed.into_bytes();
        std::fs::create_dir_all(&self.path).map_err(|e| TablebaseError::io(&self.path, e))?;
        let path = self.table_path(id);
        write_atomically(&path, &bytes)?;
        Ok(path)
    }

    /// Writes table `id` from its pass's values (one per slot, [`Packed::NONE`] in
    /// padding), as [`TablebaseDir::write`] does, reading the table it is derived
    /// from ([`TableKind::derived_from`]: a horizon table's game-theoretic table)
    /// from the directory.
    pub fn write_values(&self, id: TableId, values: &[Packed]) -> Result<PathBuf, TablebaseError> {
        self.with_values_data(id, values, |data| self.write(id, data))
    }

    /// [`TablebaseDir::write_values`], written in the background as
    /// [`TablebaseDir::write_in_background`] does.
    pub fn write_values_in_background(
        &self,
        id: TableId,
        values: &[Packed],
    ) -> Result<PendingWrite, TablebaseError> {
        self.with_values_data(id, values, |data| self.write_in_background(id, data))
    }

    /// `write(data)` with table `id`'s data made from its pass's `values` and,
    /// for a derived kind, the table it is derived from, read from here.
    fn with_values_data<R>(
        &self,
        id: TableId,
        values: &[Packed],
        write: impl FnOnce(TableData) -> Result<R, TablebaseError>,
    ) -> Result<R, TablebaseError> {
        let base = match id.kind.derived_from() {
            Some(kind) => Some(self.load(id.with_kind(kind))?),
            None => None,
        };
        let data = id
            .kind
            .data(values, base.as_deref())
            .expect("the base its kind needs");
        write(data)
    }

    /// Every table file in the rule set's directory (every name [`TableId::parse`]
    /// reads), in listing order. A missing directory is an error.
    pub fn list(&self) -> Result<Vec<TableId>, TablebaseError> {
        let entries =
            std::fs::read_dir(&self.path).map_err(|e| TablebaseError::io(&self.path, e))?;
        let mut out = Vec::new();
        for e in entries {
            let e = e.map_err(|e| TablebaseError::io(&self.path, e))?;
            if let Some(id) = e
                .file_name()
                .to_str()
                .and_then(|n| TableId::parse(n, &self.rules))
            {
                out.push(id);
            }
        }
        out.sort();
        Ok(out)
    }

    /// The subspaces that have a moving-phase table of `kind`, in order.
    pub fn moving_subspaces(&self, kind: TableKind) -> Result<Vec<Subspace>, TablebaseError> {
        Ok(self
            .list()?
            .into_iter()
            .filter(|id| id.kind == kind && id.tier.is_moving())
            .map(|id| id.tier.subspace)
            .collect())
    }

    /// The bytes free to an unprivileged writer on the file system that holds
    /// (or will hold) the rule set's directory: that of its nearest existing
    /// ancestor (`None` where the system does not say).
    #[cfg(unix)]
    pub fn free_bytes(&self) -> Option<u64> {
        use std::os::unix::ffi::OsStrExt;
        let existing = self
            .path
            .ancestors()
            .map(|p| {
                if p.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    p
                }
            })
            .find(|p| p.exists())?;
        let path = std::ffi::CString::new(existing.as_os_str().as_bytes()).ok()?;
        // SAFETY: `path` is a NUL-terminated string and `stat` a plain struct
        // that the call fills in.
        let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
        let ok = unsafe { libc::statvfs(path.as_ptr(), &mut stat) } == 0;
        #[allow(clippy::unnecessary_cast)] // their widths differ between systems
        ok.then(|| stat.f_bavail as u64 * stat.f_frsize as u64)
    }

    /// Elsewhere the system is not asked.
    #[cfg(not(unix))]
    pub fn free_bytes(&self) -> Option<u64> {
        None
    }

    /// Takes the directory's lock ([`DirLock`]), creating the directory if
    /// needed: what a job that writes tables holds while it runs.
    pub fn lock(&self) -> Result<DirLock, TablebaseError> {
        DirLock::acquire(&self.path)
    }

    /// Removes the temporary files whose writer is gone
    /// ([`crate::writer::remove_stale_temporaries`]); their names.
    pub fn remove_stale_temporaries(&self) -> Vec<String> {
        crate::writer::remove_stale_temporaries(&self.path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of `kind` of subspace `sub` after `placed` placements.
    fn placing_id(rules: &RuleSet, kind: TableKind, placed: u32, sub: Subspace) -> TableId {
        TableId::new(kind, Tier::new(Hands::after_placements(rules, placed), sub))
    }

    #[test]
    fn file_names_round_trip() {
        let r = RuleSet::TIGADI;
        let s = Subspace::new(9, 3);
        let game = TableId::moving(TableKind::GameTheoretic, s);
        assert_eq!(game.file_name(&r), "9v3.tgtb");
        assert_eq!(
            TableId::moving(TableKind::Horizon, s).file_name(&r),
            "9v3.tghz"
        );
        // After 17 placements of nine a side: the player to move holds one goti
        // (placed 8), the other none (placed 9).
        let placing = placing_id(&r, TableKind::Horizon, 17, Subspace::new(0, 12));
        assert_eq!(placing.tier.hands, Hands::new(1, 0));
        assert_eq!(placing.file_name(&r), "p17-0v12.tghz");
        for id in [
            game,
            placing,
            TableId::new(TableKind::GameTheoretic, Tier::start(&r)),
        ] {
            assert_eq!(TableId::parse(&id.file_name(&r), &r), Some(id));
        }
        for bad in [
            "09v3.tgtb",
            "9v3.tgtb.tmp",
            "9v3.tgt",
            "9v3",
            "p07-3v4.tgtb",
            "p7_3v4.tgtb",
            "q7-3v4.tgtb",
            "9v.tgtb",
            "manifest.json",
            "p18-3v4.tgtb",
        ] {
            assert_eq!(TableId::parse(bad, &r), None, "{bad}");
        }
        let custom = RuleSet::parse("lines=20,flying=3").unwrap();
        assert_eq!(
            TablebaseDir::name_of(&custom),
            "lines-20_flying-3_blocked-passes"
        );
        assert_eq!(TablebaseDir::name_of(&RuleSet::MORRIS), "morris");
        for rules in [custom, RuleSet::MORRIS, RuleSet::TIGADI] {
            let name = TablebaseDir::name_of(&rules);
            assert_eq!(TablebaseDir::rules_named(&name), Some(rules), "{name}");
        }
        for bad in ["lines=20", "Morris", "lines-20_flying-3", "tigadi "] {
            assert_eq!(TablebaseDir::rules_named(bad), None, "{bad}");
        }
    }

    /// The listing order: moving tiers first (game-theoretic, then horizon, each by
    /// subspace), then the placing tables by kind, placements made and subspace.
    #[test]
    fn listing_order() {
        let r = RuleSet::TIGADI;
        let (a, b) = (Subspace::new(3, 4), Subspace::new(4, 3));
        let g = TableKind::GameTheoretic;
        let h = TableKind::Horizon;
        let mut ids = [
            placing_id(&r, h, 0, a),
            placing_id(&r, g, 5, a),
            TableId::moving(h, a),
            placing_id(&r, g, 2, b),
            TableId::moving(g, b),
            TableId::moving(g, a),
        ];
        ids.sort();
        let names: Vec<String> = ids.iter().map(|i| i.file_name(&r)).collect();
        assert_eq!(
            names,
            [
                "3v4.tgtb",
                "4v3.tgtb",
                "3v4.tghz",
                "p2-4v3.tgtb",
                "p5-3v4.tgtb",
                "p0-3v4.tghz"
            ]
        );
    }

    /// Every table a prober can hold has its own number, whatever its hands
    /// (under Lasker's rule any pair).
    #[test]
    fn numbers_are_distinct() {
        let r = RuleSet::parse("lasker,pieces=12").unwrap();
        let mut seen = vec![false; TableId::COUNT];
        for kind in TableKind::ALL {
            let hands = (0..=12).flat_map(|a| (0..=12).map(move |b| Hands::new(a, b)));
            for hands in hands {
                for m in 0..=12 {
                    for o in 0..=12 {
                        let tier = Tier::new(hands, Subspace::new(m, o));
                        let n = TableId::new(kind, tier).number(&r);
                        assert!(!std::mem::replace(&mut seen[n], true));
                    }
                }
            }
        }
    }

    /// Without Lasker's rule every name and header byte 23 is what it was: empty
    /// hands `<m>v<o>` and 0, the others `p<k>-<m>v<o>` and `k + 1` with `k` the
    /// gotis placed (`2 * pieces` less those in hand), for every tier a game
    /// reaches.
    #[test]
    fn names_without_lasker_are_unchanged() {
        for preset in ["tigadi", "navakankari", "morris", "morabaraba"] {
            for n in 3..=12 {
                let r = RuleSet::parse(&format!("{preset},pieces={n}")).unwrap();
                for tier in tigadi_values::reached_tiers(&r) {
                    let (h, s) = (tier.hands, tier.subspace);
                    let placed = 2 * n as u32 - h.mover as u32 - h.opponent as u32;
                    let (name, byte) = if h.is_empty() {
                        (format!("{}v{}.tgtb", s.mover, s.opponent), 0)
                    } else {
                        let name = format!("p{placed}-{}v{}.tgtb", s.mover, s.opponent);
                        (name, placed as u8 + 1)
                    };
                    let id = TableId::new(TableKind::GameTheoretic, tier);
                    assert_eq!(id.file_name(&r), name, "{preset},pieces={n}");
                    assert_eq!(crate::format::hands_byte(h, &r), byte, "{name}");
                    let back = crate::format::hands_from_byte(byte, &r);
                    assert_eq!(back, Some(h), "{name}");
                }
            }
        }
    }

    /// Under Lasker's rule every tier a game reaches has its own name and header
    /// byte 23, each read back to the tier; the hands no alternate placing gives
    /// are spelled by both counts, and no other rule set reads those names.
    #[test]
    fn lasker_names_and_hands_bytes_round_trip() {
        for n in [3, 4, 10, 12] {
            let r = RuleSet::parse(&format!("lasker,pieces={n}")).unwrap();
            let mut names = std::collections::BTreeSet::new();
            let mut bytes = std::collections::BTreeSet::new();
            let mut both = 0;
            for tier in tigadi_values::reached_tiers(&r) {
                let byte = crate::format::hands_byte(tier.hands, &r);
                assert_eq!(crate::format::hands_from_byte(byte, &r), Some(tier.hands));
                bytes.insert((byte, tier.subspace));
                for kind in TableKind::ALL {
                    let id = TableId::new(kind, tier);
                    let name = id.file_name(&r);
                    assert_eq!(TableId::parse(&name, &r), Some(id), "{name}");
                    assert!(names.insert(name.clone()), "{name} twice");
                    if name.starts_with('h') {
                        both += 1;
                        let other = RuleSet::parse(&format!("morris,pieces={n}")).unwrap();
                        assert_eq!(TableId::parse(&name, &other), None, "{name}");
                    }
                }
            }
            assert!(both > 0, "lasker,pieces={n}");
            assert_eq!(bytes.len() * TableKind::ALL.len(), names.len());
        }
        let r = RuleSet::LASKER;
        let tier = Tier::new(Hands::new(9, 10), Subspace::new(1, 0));
        let id = TableId::new(TableKind::GameTheoretic, tier);
        assert_eq!(id.file_name(&r), "h9-10-1v0.tgtb");
        for bad in [
            "h10-9-0v1.tgtb",  // the hands after one placement: p1-0v1
            "h0-0-3v3.tgtb",   // empty hands: 3v3
            "h11-9-0v1.tgtb",  // more than 10 in hand
            "h09-10-1v0.tgtb", // a leading zero
            "h9-10-1v0",
            "h9_10-1v0.tgtb",
        ] {
            assert_eq!(TableId::parse(bad, &r), None, "{bad}");
        }
        for bad in [25, 31, 255] {
            assert_eq!(crate::format::hands_from_byte(bad, &r), None, "{bad}");
        }
        // Both hands spelled out, where the placements code spells them.
        let standard = Hands::after_placements(&r, 3);
        let spelled = 32 + 13 * standard.mover + standard.opponent;
        assert_eq!(crate::format::hands_from_byte(spelled, &r), None);
        assert_eq!(
            crate::format::hands_from_byte(spelled, &RuleSet::MORRIS),
            None
        );
    }

    /// A table of a Lasker tier with hands no alternate placing gives is written
    /// under its `h` name and opens as that tier, its rule set Lasker's.
    #[test]
    fn lasker_table_writes_and_opens() {
        let r = RuleSet::parse("lasker,pieces=3").unwrap();
        let tier = tigadi_values::reached_tiers(&r)
            .into_iter()
            .find(|t| !t.is_moving() && t.hands.standard_placements(&r).is_none())
            .expect("a tier no alternate placing reaches");
        let id = TableId::new(TableKind::GameTheoretic, tier);
        let index = SubspaceIndex::new(tier.subspace);
        let values: Vec<Packed> = (0..index.slots())
            .map(|slot| match index.board(slot) {
                Some(_) => Packed::DRAW,
                None => Packed::NONE,
            })
            .collect();
        let root = tempfile::tempdir().unwrap();
        let dir = TablebaseDir::new(root.path(), &r);
        let path = dir.write_values(id, &values).unwrap();
        assert!(path.ends_with(id.file_name(&r)), "{path:?}");
        let table = dir.open(id).unwrap();
        assert_eq!(table.header().hands, tier.hands);
        assert!(table.header().rules.slides_in_hand);
        let loaded = dir.load(id).unwrap();
        let real = |v: &[Packed]| -> Vec<Packed> {
            (0..index.slots())
                .filter(|&slot| index.board(slot).is_some())
                .map(|slot| v[slot as usize])
                .collect()
        };
        assert!(real(&loaded) == real(&values), "the values read back");
        assert_eq!(dir.list().unwrap(), [id]);
        // The same file under the rule set without Lasker's rule is refused.
        let plain = TablebaseDir::new(root.path(), &RuleSet::parse("morris,pieces=3").unwrap());
        assert!(plain.open(id).is_err());
    }
}
