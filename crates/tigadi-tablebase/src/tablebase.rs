//! The collection of tables a prober holds: [`Tablebase`] opens files lazily and
//! reads any field of any table through one generic path ([`Tablebase::get`]),
//! and lists every turn of a position of either phase with the values it leads
//! to.

use crate::dir::{TableId, TablebaseDir};
use crate::error::TablebaseError;
use crate::kind::{field, Entry, Field, TableKind};
use crate::reader::cache::{BlockCache, CacheSize, DEFAULT_CACHE_BLOCKS};
use crate::reader::table::Table;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Mutex, OnceLock};
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::geometry::ALL;
use tigadi_rules::{Board, Move, Position, RuleSet};
use tigadi_values::placement::for_each_placement_value_with;
use tigadi_values::slide::for_each_slide_target;
use tigadi_values::{reached_tiers, successor_tiers, Hands, Tier};
use tigadi_values::{value_at_counter, Category, Packed, Value, Wdl};

/// Most gotis a side may have for the index (and so for a table file).
const MAX_SIDE: u8 = 12;

/// An opened table with its index.
struct Loaded {
    table: Table,
    index: SubspaceIndex,
}

/// What tells a table file's versions apart without reading it: its length,
/// modification time and inode (`None` when it cannot be looked at). A file
/// copied or written over changes at least its modification time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileStamp(Option<(u64, Option<std::time::SystemTime>, u64)>);

impl FileStamp {
    fn of(path: &Path) -> FileStamp {
        FileStamp(std::fs::metadata(path).ok().map(|m| {
            #[cfg(unix)]
            let inode = std::os::unix::fs::MetadataExt::ino(&m);
            #[cfg(not(unix))]
            let inode = 0;
            (m.len(), m.modified().ok(), inode)
        }))
    }

    /// Has the file not been modified for [`SETTLED`] before `now`? Only then can
    /// a change after `now` be told apart by its modification time, which the
    /// file system takes from a clock that may run a tick or two behind.
    fn settled(&self, now: std::time::SystemTime) -> bool {
        matches!(self.0, Some((_, Some(t), _)) if t + SETTLED <= now)
    }
}

/// How long a directory must have stayed unchanged before a table found missing
/// in it is remembered as missing ([`Tablebase::loaded`]).
const SETTLED: std::time::Duration = std::time::Duration::from_secs(2);

/// A position's (or a turn's) values under the 100-turn rule, with the
/// game-theoretic value for comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleValues {
    /// The game-theoretic value (ignoring the rule), with its DTC.
    pub value: Value,
    /// The class at counter 0: win, cursed win, draw, blessed loss, loss.
    pub category: Category,
    /// DTC₁₀₀: the value under the rule at counter 0, with the turns within which
    /// the win or loss is forced (a draw: not within the turn limit).
    pub dtc100: Value,
    /// The value under the rule at the counter asked for (a draw when the turns left
    /// are fewer than DTC₁₀₀).
    pub rule_value: Value,
}

/// The tablebase of one rule set in one directory, as probers use it: tables are
/// opened on first use (header and block tables checked and kept in memory) and
/// shared by all threads; blocks are read with positioned reads, checked, and kept
/// decompressed in a small shared cache.
pub struct Tablebase {
    dir: TablebaseDir,
    /// Every table it may open, by [`TableId::number`], once opened and checked.
    /// Boxed: an opened table takes a few hundred bytes, and most of the
    /// numbers are never opened (a slot is a pointer, not a table, so that
    /// making a prober touches about 1 MB, not 30).
    tables: Box<[OnceLock<Box<Loaded>>]>,
    /// The tables found damaged or mismatched, by [`TableId::number`], with the
    /// stamp their file had then: asked again only once the file changes.
    bad: Mutex<HashMap<usize, (FileStamp, TablebaseError)>>,
    /// The tables found missing, by [`TableId::number`], with the stamp the rule
    /// set's directory had just before: while it keeps that stamp, no file has
    /// been put into it, so they are still missing. A server answering from a
    /// directory without horizon or DTW tables asks for them on every probe; this
    /// spares it a look at each file (two system calls and a path) for one look
    /// at the directory.
    missing: Mutex<HashMap<usize, FileStamp>>,
    cache: BlockCache,
    /// Every tier with gotis in hand that the rule set's game reaches
    /// ([`reached_tiers`]), made on first use: a placing answer
    /// checks the tier of every placement it reads, and building the list each
    /// time cost more than the reads.
    placing_tiers: OnceLock<HashSet<Tier>>,
    /// Answer the 100-turn values of a tier whose 100-turn table equals its
    /// game table from the game table ([`Tablebase::with_rule_values_from_game`]).
    rule_values_from_game: bool,
    /// By the [`TableId::number`] of a tier's 100-turn table: does it equal
    /// the tier's game table ([`Tablebase::horizon_is_game`]), once decided.
    horizon_is_game: Box<[OnceLock<bool>]>,
}

impl Tablebase {
    /// The tablebase of rule set `rules` in tablebase directory `dir` (files in
    /// `dir/<rules>/`). Opens nothing yet; a missing directory shows up as
    /// [`TablebaseError::MissingSubspace`] on the first probe.
    pub fn open(dir: &Path, rules: &RuleSet) -> Tablebase {
        Tablebase::with_cache_blocks(dir, rules, DEFAULT_CACHE_BLOCKS)
    }

    /// Like [`Tablebase::open`], with room for `blocks` decompressed blocks (8 KiB
    /// for WDL, 16 KiB for DTC) in the cache.
    pub fn with_cache_blocks(dir: &Path, rules: &RuleSet, blocks: usize) -> Tablebase {
        Tablebase::with_cache(dir, rules, CacheSize::Blocks(blocks))
    }

    /// Like [`Tablebase::open`], with a cache of decompressed blocks of `size`
    /// (a number of blocks, or bytes whatever the tables' block size).
    pub fn with_cache(dir: &Path, rules: &RuleSet, size: CacheSize) -> Tablebase {
        Tablebase {
            dir: TablebaseDir::new(dir, rules),
            tables: (0..TableId::COUNT).map(|_| OnceLock::new()).collect(),
            bad: Mutex::new(HashMap::new()),
            missing: Mutex::new(HashMap::new()),
            cache: BlockCache::sized(size),
            placing_tiers: OnceLock::new(),
            rule_values_from_game: false,
            horizon_is_game: (0..TableId::COUNT).map(|_| OnceLock::new()).collect(),
        }
    }

    /// This tablebase, answering the values under the 100-turn rule of every
    /// tier whose 100-turn table equals its game table from the game table
    /// alone: the same answers from about half the blocks where the rule
    /// changes nothing (in all of Tigadi, for one). Whether a tier's tables are
    /// so is decided from the checked headers of its own tables and of every
    /// tier downstream of it ([`Tablebase::horizon_is_game`]), which the first
    /// probe of a tier opens: worth it for a server or a long analysis, not for
    /// a single probe.
    pub fn with_rule_values_from_game(mut self) -> Tablebase {
        self.rule_values_from_game = true;
        self
    }

    /// Does the 100-turn table of `tier` hold exactly its game table's values
    /// (so that they may be read there)? True when both tables of the tier
    /// (and of its partner, where its moves reach it) are present and agree in
    /// their counts of wins, draws and losses at counter 0, every tier their
    /// moves leave for is so, and where moves stay inside the step no game DTC
    /// exceeds the turn limit: the 100-turn rounds then decide exactly what the
    /// game rounds decide by then, from the same exits (docs/RULES.md §7). (A
    /// DTC above the limit makes a cursed win or a blessed loss, so the counts
    /// already differ; the limit is checked as well.) A tier whose moves all
    /// leave it has its successors' values either way. The counts alone would
    /// not do: an exit's changed value can lengthen a win without losing it.
    /// Never under Lasker's rule with gotis in hand, whose 100-turn depths
    /// count to a placement too. Decided once per tier.
    pub fn horizon_is_game(&self, tier: Tier) -> bool {
        let rules = self.rules();
        let cell = &self.horizon_is_game[TableId::new(TableKind::Horizon, tier).number(rules)];
        if let Some(&known) = cell.get() {
            return known;
        }
        let decided = self.decide_horizon_is_game(tier);
        let _ = cell.set(decided);
        decided
    }

    /// [`Tablebase::horizon_is_game`], not remembered.
    fn decide_horizon_is_game(&self, tier: Tier) -> bool {
        let rules = self.rules();
        if rules.slides_in_hand && !tier.is_moving() {
            return false;
        }
        let inside = tier.has_moves_inside(rules);
        let step = match inside && tier.flipped() != tier {
            true => vec![tier, tier.flipped()],
            false => vec![tier],
        };
        step.iter().all(|&t| {
            let game = self.loaded(TableId::new(TableKind::GameTheoretic, t));
            let rule = self.loaded(TableId::new(TableKind::Horizon, t));
            let (Ok(game), Ok(rule)) = (game, rule) else {
                return false;
            };
            let (g, r) = (&game.table.header().counts, &rule.table.header().counts);
            (g.wins, g.draws, g.losses) == (r.wins, r.draws, r.losses)
                && (!inside || g.max_dtc_win.max(g.max_dtc_loss) <= rules.quiet)
                && successor_tiers(rules, t)
                    .into_iter()
                    .filter(|s| !step.contains(s))
                    .all(|s| self.horizon_is_game(s))
        })
    }

    /// The number of blocks read and decompressed so far (the block cache's
    /// misses), for measurements.
    pub fn blocks_read(&self) -> u64 {
        self.cache.loads()
    }

    /// The rule set.
    pub fn rules(&self) -> &RuleSet {
        self.dir.rules()
    }

    /// The tablebase directory.
    pub fn dir(&self) -> &Path {
        self.dir.root()
    }

    /// The rule set's directory of tables.
    pub fn table_dir(&self) -> &TablebaseDir {
        &self.dir
    }

    /// Table `id`, opened on first use.
    ///
    /// A good table is kept open for good (the probe path reads one `OnceLock`). A
    /// damaged or mismatched file is remembered with its [`FileStamp`], so that it
    /// is not read again on every probe, until the file changes (a table copied in
    /// while it was probed, issue 54): then it is opened and checked again. A
    /// missing table is remembered with the stamp of the directory it would be
    /// in, once that directory has not changed for [`SETTLED`], and looked for
    /// again as soon as the directory changes (a file written, copied, renamed
    /// or linked into it).
    fn loaded(&self, id: TableId) -> Result<&Loaded, TablebaseError> {
        let number = id.number(self.rules());
        let cell = &self.tables[number];
        if let Some(l) = cell.get() {
            return Ok(l);
        }
        let path = self.dir.table_path(id);
        // The stamp of the directory the file would be in, taken before the file
        // is looked for: a file put in afterwards changes it.
        let dir_stamp = FileStamp::of(path.parent().unwrap_or(self.dir.path()));
        let known_missing = self
            .missing
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&number)
            .is_some_and(|was| *was == dir_stamp);
        if known_missing {
            return Err(TablebaseError::MissingSubspace {
                subspace: id.tier.subspace,
                path,
            });
        }
        let stamp = FileStamp::of(&path);
        {
            let mut bad = self.bad.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((was, e)) = bad.get(&number) {
                if *was == stamp {
                    return Err(e
                        .duplicate_permanent()
                        .expect("only permanent errors are kept"));
                }
                bad.remove(&number);
            }
        }
        match self.open_table(id) {
            // Another thread may have won the race; either copy is fine.
            Ok(l) => {
                let _ = cell.set(Box::new(l));
            }
            // A damaged or mismatched file stays so until it changes: remember it
            // with the stamp it had before it was read (a change while it was
            // read shows as a new stamp next time). A missing one may yet be
            // written: remembered as missing only while the directory is unchanged,
            // and only once it has settled (a change within the same clock tick
            // would not show in its stamp).
            Err(e) => {
                let mut missing = self.missing.lock().unwrap_or_else(|e| e.into_inner());
                match &e {
                    TablebaseError::MissingSubspace { .. }
                        if dir_stamp.settled(std::time::SystemTime::now()) =>
                    {
                        missing.insert(number, dir_stamp);
                    }
                    _ => {
                        missing.remove(&number);
                    }
                }
                drop(missing);
                if let Some(copy) = e.duplicate_permanent() {
                    let mut bad = self.bad.lock().unwrap_or_else(|e| e.into_inner());
                    bad.insert(number, (stamp, copy));
                }
                return Err(e);
            }
        }
        Ok(cell.get().expect("the cell was just set"))
    }

    fn open_table(&self, id: TableId) -> Result<Loaded, TablebaseError> {
        let table = self.dir.open(id)?;
        // Probes read single blocks at scattered offsets: no readahead
        // (docs/PERFORMANCE.md, "Serving the whole set").
        table.advise_random();
        let index = SubspaceIndex::new(id.tier.subspace);
        if index.slots() != table.header().slots {
            return Err(TablebaseError::corrupt(
                table.path(),
                format!(
                    "{} slots, the index of {} has {}",
                    table.header().slots,
                    id.tier.subspace,
                    index.slots()
                ),
            ));
        }
        Ok(Loaded { table, index })
    }

    /// The subspace of `board`, after checking that it is a moving-phase board the
    /// tables can hold.
    pub fn check_board(board: Board) -> Result<Subspace, TablebaseError> {
        if (board.mover | board.opponent) & !ALL != 0 {
            return Err(TablebaseError::InvalidPosition(
                "gotis off the board".into(),
            ));
        }
        if board.mover & board.opponent != 0 {
            return Err(TablebaseError::InvalidPosition(
                "two gotis on one point".into(),
            ));
        }
        let sub = Subspace::of(board);
        if sub.mover < 3 || sub.opponent < 3 {
            return Err(TablebaseError::InvalidPosition(format!(
                "a side with fewer than three gotis ({sub}): the game is over"
            )));
        }
        if sub.mover > MAX_SIDE || sub.opponent > MAX_SIDE {
            return Err(TablebaseError::InvalidPosition(format!(
                "too many gotis ({sub})"
            )));
        }
        Ok(sub)
    }

    /// Checks that `board` with gotis in hand `hands` can be a position of a
    /// placing tier; its subspace. Under Lasker's rule the hands need not be
    /// those of the standard alternation: any tier a game reaches is one
    /// ([`reached_tiers`]).
    fn check_placing(&self, hands: Hands, board: Board) -> Result<Subspace, TablebaseError> {
        let rules = self.rules();
        // Checked before `placements` subtracts the hands from the gotis a side.
        if hands.mover > rules.pieces
            || hands.opponent > rules.pieces
            || hands.is_empty()
            || (!rules.slides_in_hand && hands.standard_placements(rules).is_none())
        {
            return Err(TablebaseError::InvalidPosition(format!(
                "{}+{} gotis in hand: no game under {rules} reaches them",
                hands.mover, hands.opponent,
            )));
        }
        if (board.mover | board.opponent) & !ALL != 0 || board.mover & board.opponent != 0 {
            return Err(TablebaseError::InvalidPosition(
                "gotis off the board or two on one point".into(),
            ));
        }
        let sub = Subspace::of(board);
        let placed = hands.placements(rules);
        // Every tier with gotis in hand that a game reaches, built once.
        let tiers = self.placing_tiers.get_or_init(|| {
            reached_tiers(rules)
                .into_iter()
                .filter(|t| !t.is_moving())
                .collect()
        });
        let tier = Tier::new(hands, sub);
        if !tiers.contains(&tier) {
            return Err(TablebaseError::InvalidPosition(if rules.slides_in_hand {
                format!("no game under {rules} reaches {tier}")
            } else {
                format!("no game reaches {sub} after {placed} placements")
            }));
        }
        Ok(sub)
    }

    /// The tier of `board` with gotis in hand `hands` ([`Hands::EMPTY`] in the
    /// moving phase), after checking that it can be a position of a tier.
    fn tier(&self, hands: Hands, board: Board) -> Result<Tier, TablebaseError> {
        let sub = if hands.is_empty() {
            Tablebase::check_board(board)?
        } else {
            self.check_placing(hands, board)?
        };
        Ok(Tier::new(hands, sub))
    }

    /// The entry of field `F` (see [`field`]) for `board` (seen from the player to
    /// move) with gotis in hand `hands` ([`Hands::EMPTY`] in the moving phase):
    /// the one path by which every probe reads a table.
    /// `get::<field::Dtc>(Hands::EMPTY, board)` is the game-theoretic value,
    /// `get::<field::Dtc100>(Hands::new(6, 5), board)` the value under the
    /// 100-turn rule of a position after seven placements of nine a side.
    pub fn get<F: Field>(
        &self,
        hands: Hands,
        board: Board,
    ) -> Result<<F::Entry as Entry>::Value, TablebaseError> {
        let tier = self.tier(hands, board)?;
        if F::KIND == TableKind::Horizon && self.rule_values_from_game && self.horizon_is_game(tier)
        {
            if let Some(v) = F::from_game(self.read::<field::Dtc>(tier, board)?) {
                return Ok(v);
            }
        }
        self.read::<F>(tier, board)
    }

    /// The entry of field `F` for `board` in its table of `tier` (checked by
    /// [`Tablebase::get`]).
    fn read<F: Field>(
        &self,
        tier: Tier,
        board: Board,
    ) -> Result<<F::Entry as Entry>::Value, TablebaseError> {
        let id = TableId::new(F::KIND, tier);
        let l = self.loaded(id)?;
        l.table
            .get::<F>(&self.cache, id.place(self.rules()), l.index.index(board))
    }

    /// Checks that `board` with gotis in hand `hands` can be a position of a tier
    /// and that the table of field `F` for it is there and the one asked for
    /// (opened and checked as [`Tablebase::get`] does), without reading a block.
    pub(crate) fn check_table<F: Field>(
        &self,
        hands: Hands,
        board: Board,
    ) -> Result<(), TablebaseError> {
        self.loaded(TableId::new(F::KIND, self.tier(hands, board)?))
            .map(|_| ())
    }

    /// The entry of field `F` for position `p` of either phase, from its own
    /// table: [`Tablebase::get`] with `p`'s hands and board. Reads no counter; the position is not checked against the
    /// rules beyond what its table holds ([`Tablebase::answer`] checks it).
    pub fn get_position<F: Field>(
        &self,
        p: &Position,
    ) -> Result<<F::Entry as Entry>::Value, TablebaseError> {
        self.get::<F>(hands_of(p), p.to_board())
    }

    /// The game-theoretic value of the moving-phase `board` for the player to move
    /// (win/draw/loss and DTC in turns): `get::<field::Dtc>(Hands::EMPTY, board)`.
    pub fn probe(&self, board: Board) -> Result<Value, TablebaseError> {
        self.get::<field::Dtc>(Hands::EMPTY, board)
    }

    /// Win, draw or loss of the moving-phase `board` for the player to move, reading
    /// only the WDL section: `get::<field::Wdl>(Hands::EMPTY, board)`.
    pub fn probe_wdl(&self, board: Board) -> Result<Wdl, TablebaseError> {
        self.get::<field::Wdl>(Hands::EMPTY, board)
    }

    /// Every legal turn from `board` with gotis in hand `hands` ([`Hands::EMPTY`]
    /// in the moving phase) with the value of field `F` ([`field::Dtc`],
    /// [`field::Dtc100`] or [`field::Dtw`], counted in its kind's
    /// [`TableKind::metric`]) it leads to, from the player to move's point of view and
    /// counted from `board`, in move-generation order: placements with each
    /// capture choice while the player to move holds gotis (read from the tier
    /// each leads to, the moving phase's after the last placement), then slides
    /// (in the moving phase, and under Lasker's rule also with gotis in hand,
    /// flying when the gotis on the board and in hand are three; read from the
    /// tier with the same hands; a capture that leaves the opponent two gotis in
    /// all is `Win(1)`) or a pass. No turns when the player to move is blocked in
    /// a rule set where that loses.
    pub fn turns<F: Field<Entry = Packed>>(
        &self,
        hands: Hands,
        board: Board,
    ) -> Result<Vec<(Move, Value)>, TablebaseError> {
        self.tier(hands, board)?;
        let rules = self.rules();
        // Under Lasker's rule a placement restarts the 100-turn counter.
        let metric = F::KIND.metric_under(rules);
        let mut turns = Vec::new();
        let mut error = None;
        if hands.mover > 0 {
            let next = hands.after_placement();
            let lookup = |b: Board| {
                self.get::<F>(next, b).unwrap_or_else(|e| {
                    error.get_or_insert(e);
                    Value::Draw
                })
            };
            for_each_placement_value_with(rules, metric, hands, board, lookup, |p, v| {
                let turn = Move::Place {
                    to: p.to,
                    capture: p.capture,
                };
                turns.push((turn, v))
            });
        }
        // Slides: in the moving phase, and under Lasker's rule (docs/RULES.md §8)
        // also while gotis are in hand, flying when the gotis on the board and in
        // hand are three. A slide keeps the hands (the other player's first now).
        if hands.mover == 0 || rules.slides_in_hand {
            let slid = Hands::new(hands.opponent, hands.mover);
            for_each_slide_target(rules, hands, board, |slide, target| {
                if error.is_some() {
                    return;
                }
                let turn = slide.map_or(Move::Pass, |s| Move::Slide {
                    from: s.from,
                    to: s.to,
                    capture: s.capture,
                });
                let v = target.value(metric, |next| {
                    self.get::<F>(slid, next).unwrap_or_else(|e| {
                        error = Some(e);
                        Value::Draw
                    })
                });
                if error.is_none() {
                    turns.push((turn, v));
                }
            });
        }
        match error {
            Some(e) => Err(e),
            None => Ok(turns),
        }
    }

    /// Every legal turn from `board` (see [`Tablebase::turns`]) with the
    /// game-theoretic value it leads to, best first; equal values in
    /// move-generation order. The best turn's value is the position's.
    pub fn probe_moves(
        &self,
        hands: Hands,
        board: Board,
    ) -> Result<Vec<(Move, Value)>, TablebaseError> {
        let mut turns = self.turns::<field::Dtc>(hands, board)?;
        // Stable: equal values keep move-generation order.
        sort_best_first(&mut turns);
        Ok(turns)
    }

    /// The values under the 100-turn rule of `board` (of the moving phase,
    /// `hands` empty, or under Lasker's rule of any tier, at 100-turn counter
    /// `counter`; or of a placing tier of another rule set, where no counter
    /// runs yet and `counter` is not used), with its
    /// game-theoretic value, from the tables of both kinds. A counter above the
    /// rule set's turn limit is refused.
    pub fn probe_rule(
        &self,
        hands: Hands,
        board: Board,
        counter: u16,
    ) -> Result<RuleValues, TablebaseError> {
        let at_counter = self.at_counter(hands, counter)?;
        let dtc100 = self.get::<field::Dtc100>(hands, board)?;
        Ok(RuleValues {
            value: self.get::<field::Dtc>(hands, board)?,
            category: self.get::<field::Category>(hands, board)?,
            dtc100,
            rule_value: at_counter(dtc100),
        })
    }

    /// Every legal turn of `board` (see [`Tablebase::probe_rule`] for `hands` and
    /// `counter`) with its values under the rule and ignoring it, counted from
    /// `board`, best first for a player who must win under the rule: by the value
    /// under the rule at this counter (a kept win first, the quickest first), then
    /// by category, then by the game-theoretic value. The best turn's values are
    /// `probe_rule`'s.
    pub fn probe_moves_rule(
        &self,
        hands: Hands,
        board: Board,
        counter: u16,
    ) -> Result<Vec<(Move, RuleValues)>, TablebaseError> {
        let at_counter = self.at_counter(hands, counter)?;
        let game = self.turns::<field::Dtc>(hands, board)?;
        let rule = self.turns::<field::Dtc100>(hands, board)?;
        let mut turns = Vec::with_capacity(game.len());
        for ((turn, value), (_, through)) in game.into_iter().zip(rule) {
            // Where the counter runs, decided only if within the limit from
            // counter 0 (a placing table's DTC₁₀₀ counts the placements still
            // to come).
            let dtc100 = match self.counter_runs(hands) {
                true => at_counter_zero(through, self.rules().quiet),
                false => through,
            };
            let category = Category::of(value.wdl(), dtc100.wdl()).ok_or_else(|| {
                let id = TableId::new(TableKind::Horizon, Tier::new(hands, Subspace::of(board)));
                let what = if !hands.is_empty() {
                    "placement"
                } else {
                    "turn"
                };
                TablebaseError::Corrupt {
                    file: self.dir.table_path(id),
                    what: format!(
                        "{what} {turn}: {dtc100:?} under the rule but {value:?} ignoring it"
                    ),
                }
            })?;
            turns.push((
                turn,
                RuleValues {
                    value,
                    category,
                    dtc100,
                    rule_value: at_counter(through),
                },
            ));
        }
        sort_best_under_rule(&mut turns);
        Ok(turns)
    }

    /// The function that turns a DTC₁₀₀ value into the value under the rule at
    /// `counter` (where the counter runs, after refusing a counter above the
    /// turn limit; in a placing phase without Lasker's rule the value itself).
    fn at_counter(
        &self,
        hands: Hands,
        counter: u16,
    ) -> Result<impl Fn(Value) -> Value, TablebaseError> {
        let quiet = self.rules().quiet;
        let runs = self.counter_runs(hands);
        if runs && counter > quiet {
            return Err(TablebaseError::InvalidPosition(format!(
                "quiet-turn counter {counter} is above the turn limit {quiet} of {}",
                self.rules()
            )));
        }
        Ok(move |v| match runs {
            true => value_at_counter(v, counter, quiet).expect("counter checked"),
            false => v,
        })
    }

    /// Does the 100-turn counter run in positions with gotis in hand `hands`:
    /// in the moving phase, and under Lasker's rule (`slides=always`, docs/RULES.md
    /// §8: the turns since the last capture or placement) with gotis in hand
    /// too? Elsewhere every turn with gotis in hand is a placement, so the
    /// counter is 0 there.
    fn counter_runs(&self, hands: Hands) -> bool {
        hands.is_empty() || self.rules().slides_in_hand
    }
}

/// The gotis in hand of `p`: the player to move's, then the other player's.
pub fn hands_of(p: &Position) -> Hands {
    Hands::new(p.hand(p.side), p.hand(p.side.other()))
}

/// A DTC₁₀₀ value where the counter runs, counted from a turn before it, at
/// counter 0.
fn at_counter_zero(v: Value, quiet: u16) -> Value {
    value_at_counter(v, 0, quiet).expect("counter 0")
}

/// Sorts turns best first for a player who must win under the 100-turn rule: by the
/// value under the rule at the counter asked for (a kept win first, the quickest
/// first), then by class, then by the game-theoretic value; stable.
fn sort_best_under_rule<T>(turns: &mut [(T, RuleValues)]) {
    turns.sort_by(|a, b| {
        let key = |r: &RuleValues| (r.rule_value, r.category, r.value);
        let (x, y) = (key(&a.1), key(&b.1));
        if x.0.better_than(y.0) {
            std::cmp::Ordering::Less
        } else if y.0.better_than(x.0) {
            std::cmp::Ordering::Greater
        } else {
            y.1.cmp(&x.1).then_with(|| {
                if x.2.better_than(y.2) {
                    std::cmp::Ordering::Less
                } else if y.2.better_than(x.2) {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
        }
    });
}

/// Sorts moves best first for the player to move; stable, so equal values keep
/// move-generation order.
fn sort_best_first<T>(moves: &mut [(T, Value)]) {
    moves.sort_by(|a, b| {
        if a.1.better_than(b.1) {
            std::cmp::Ordering::Less
        } else if b.1.better_than(a.1) {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kind::TableData;
    use crate::reader::table::mark_padding;
    use std::time::{Duration, SystemTime};
    use tigadi_values::tiers_with_hands;

    /// Sets the modification time of directory `dir` to `t`.
    fn set_mtime(dir: &Path, t: SystemTime) {
        std::fs::File::open(dir).unwrap().set_modified(t).unwrap();
    }

    /// The placing tiers a tablebase accepts are exactly [`tiers_with_hands`]'s
    /// (the plain definition, built anew for each hand), for every pair of
    /// hands and every count of gotis on the board.
    #[test]
    fn placing_tiers_are_the_reached_ones() {
        for name in ["tigadi,pieces=4", "morris", "morabaraba", "lasker,pieces=4"] {
            let rules = RuleSet::parse(name).unwrap();
            let tb = Tablebase::open(Path::new("/nonexistent"), &rules);
            let (mut accepted, mut refused) = (0, 0);
            let every_hand =
                (0..=rules.pieces + 1).flat_map(|m| (0..=rules.pieces + 1).map(move |o| (m, o)));
            for hands in every_hand
                .map(|(m, o)| Hands::new(m, o))
                .filter(|h| !h.is_empty())
            {
                // Hands no alternate placing gives are reached only under Lasker's rule.
                // More gotis in a hand than a side has are refused, never counted.
                let in_range = hands.mover.max(hands.opponent) <= rules.pieces;
                let possible = in_range
                    && (rules.slides_in_hand || hands.standard_placements(&rules).is_some());
                let reached = if possible {
                    tiers_with_hands(&rules, hands)
                } else {
                    Vec::new()
                };
                for m in 0..=rules.pieces {
                    for o in 0..=rules.pieces {
                        let board = Board {
                            mover: (1 << m) - 1,
                            opponent: ((1 << o) - 1) << m,
                        };
                        if m + o > 24 {
                            continue;
                        }
                        let tier = Tier::new(hands, Subspace::new(m, o));
                        let ok = tb.tier(hands, board).is_ok();
                        let want = possible && reached.contains(&tier);
                        assert_eq!(ok, want, "{name}: {tier:?}");
                        accepted += usize::from(ok);
                        refused += usize::from(!ok);
                    }
                }
            }
            assert!(accepted > 0 && refused > 0, "{name}");
        }
    }

    /// A table missing from a directory that has settled is remembered as
    /// missing, and found as soon as it is written; in a directory that changed
    /// just now it is looked for every time. Every answer equals a fresh
    /// tablebase's (the plain definition: look at the file each time).
    #[test]
    fn a_missing_table_is_found_once_written() {
        let root = tempfile::tempdir().unwrap();
        let rules = RuleSet::TIGADI;
        let dir = TablebaseDir::new(root.path(), &rules);
        std::fs::create_dir_all(dir.path()).unwrap();
        let sub = Subspace::new(3, 3);
        let id = TableId::new(TableKind::GameTheoretic, Tier::new(Hands::EMPTY, sub));
        let number = id.number(&rules);
        let board = Board {
            mover: 0b111,
            opponent: 0b111 << 8,
        };
        assert_eq!(Subspace::of(board), sub);
        let is_missing = |r: Result<Value, TablebaseError>| matches!(r, Err(TablebaseError::MissingSubspace { subspace, .. }) if subspace == sub);
        let remembered = |tb: &Tablebase| tb.missing.lock().unwrap().contains_key(&number);
        let an_hour_ago = SystemTime::now() - Duration::from_secs(3600);

        // Changed just now: not remembered, and found once written.
        let tb = Tablebase::open(root.path(), &rules);
        set_mtime(dir.path(), SystemTime::now());
        assert!(is_missing(tb.probe(board)));
        assert!(!remembered(&tb));

        // Settled: remembered, and asked again, still missing.
        set_mtime(dir.path(), an_hour_ago);
        assert!(is_missing(tb.probe(board)));
        assert!(remembered(&tb));
        assert!(is_missing(tb.probe(board)));

        // Another file put into the directory: looked for again (still missing).
        std::fs::write(dir.path().join("unrelated"), b"x").unwrap();
        set_mtime(dir.path(), an_hour_ago + Duration::from_secs(1));
        assert!(is_missing(tb.probe(board)));
        assert!(remembered(&tb));

        // The table written: found at once.
        let mut values = vec![Packed::new(Value::Win(5)); SubspaceIndex::new(sub).slots() as usize];
        mark_padding(sub, &mut values);
        dir.write(id, TableData::Game(&values)).unwrap();
        assert_eq!(tb.probe(board).unwrap(), Value::Win(5));
        assert_eq!(
            Tablebase::open(root.path(), &rules).probe(board).unwrap(),
            Value::Win(5)
        );
    }
}
