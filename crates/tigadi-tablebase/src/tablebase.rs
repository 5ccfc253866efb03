//! The collection of tables a prober holds: [`Tablebase`] opens files lazily and
//! answers value, WDL and per-move queries for moving-phase boards, and value and
//! per-placement queries for placing positions.

use crate::error::TablebaseError;
use crate::format::{any_kind_path, TableKind};
use crate::reader::cache::{BlockCache, DEFAULT_CACHE_BLOCKS};
use crate::reader::table::Table;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::geometry::ALL;
use tigadi_rules::{Board, Move, Phase, Placement, Position, RuleSet, Slide, Successor};
use tigadi_values::placing::{for_each_placement_value, layer_count, layer_subspaces};
use tigadi_values::{value_at_counter, Category, Value, Wdl};

/// Most gotis a side may have for the index (and so for a table file).
const MAX_SIDE: usize = 12;
/// Tables per phase part: one per subspace `(m, o)`, `m, o <= MAX_SIDE`.
const PER_PART: usize = (MAX_SIDE + 1) * (MAX_SIDE + 1);
/// The moving phase and at most 24 placing layers.
const PARTS: usize = 1 + 2 * MAX_SIDE;

/// One turn of the player to move: a slide (with its capture, if any) or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// A slide of one goti, possibly closing a tigadi and capturing.
    Slide(Slide),
    /// The player to move is blocked and passes.
    Pass,
}

impl From<Turn> for Move {
    /// [`Turn::to_move`].
    fn from(t: Turn) -> Move {
        t.to_move()
    }
}

impl fmt::Display for Turn {
    /// docs/RULES.md §9 notation: `a1-a4`, `a1-a4xg7` or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Turn::Slide(s) => {
                write!(f, "{}-{}", s.from, s.to)?;
                if let Some(c) = s.capture {
                    write!(f, "x{c}")?;
                }
                Ok(())
            }
            Turn::Pass => f.write_str("pass"),
        }
    }
}

impl Turn {
    /// The same turn as the full-game referee's [`Move`].
    pub fn to_move(self) -> Move {
        match self {
            Turn::Slide(s) => Move::Slide {
                from: s.from,
                to: s.to,
                capture: s.capture,
            },
            Turn::Pass => Move::Pass,
        }
    }
}

/// An opened subspace table with its index.
struct Loaded {
    table: Table,
    index: SubspaceIndex,
}

/// A subspace's table once opened, or why it could not be (damaged or mismatched
/// files only; missing ones are looked for again).
type Opened = Result<Loaded, TablebaseError>;

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
    dir: PathBuf,
    rules: RuleSet,
    tables: Box<[OnceLock<Opened>]>,
    /// The horizon tables (values under the 100-turn rule), opened as `tables`.
    horizon: Box<[OnceLock<Opened>]>,
    cache: BlockCache,
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
        Tablebase {
            dir: dir.to_path_buf(),
            rules: *rules,
            tables: (0..PARTS * PER_PART).map(|_| OnceLock::new()).collect(),
            horizon: (0..PARTS * PER_PART).map(|_| OnceLock::new()).collect(),
            cache: BlockCache::new(blocks),
        }
    }

    /// The rule set.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The tablebase directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn key(sub: Subspace) -> usize {
        Tablebase::key_of(None, sub)
    }

    /// The table number of a moving-phase (`None`) or placing-layer table.
    fn key_of(placing: Option<u8>, sub: Subspace) -> usize {
        placing.map_or(0, |p| p as usize + 1) * PER_PART
            + sub.mover as usize * (MAX_SIDE + 1)
            + sub.opponent as usize
    }

    fn loaded(&self, kind: TableKind, sub: Subspace) -> Result<&Loaded, TablebaseError> {
        self.loaded_table(kind, None, sub)
    }

    /// A game-theoretic or horizon table (of the moving phase when `placing` is
    /// `None`, else of that placing layer), opened on first use.
    fn loaded_table(
        &self,
        kind: TableKind,
        placing: Option<u8>,
        sub: Subspace,
    ) -> Result<&Loaded, TablebaseError> {
        let cell = match kind {
            TableKind::GameTheoretic => &self.tables[Tablebase::key_of(placing, sub)],
            TableKind::Horizon => &self.horizon[Tablebase::key_of(placing, sub)],
        };
        if let Some(l) = cell.get() {
            return match l {
                Ok(l) => Ok(l),
                Err(e) => Err(e
                    .duplicate_permanent()
                    .expect("only permanent errors are kept")),
            };
        }
        match self.open_subspace(kind, placing, sub) {
            // Another thread may have won the race; either copy is fine.
            Ok(l) => {
                let _ = cell.set(Ok(l));
            }
            // A damaged or mismatched file stays so: remember it rather than
            // re-reading it on every probe. A missing one may yet be written.
            Err(e) => match e.duplicate_permanent() {
                Some(copy) => {
                    let _ = cell.set(Err(copy));
                    return Err(e);
                }
                None => return Err(e),
            },
        }
        match cell.get() {
            Some(Ok(l)) => Ok(l),
            Some(Err(e)) => Err(e
                .duplicate_permanent()
                .expect("only permanent errors are kept")),
            None => unreachable!("the cell was just set"),
        }
    }

    fn open_subspace(
        &self,
        kind: TableKind,
        placing: Option<u8>,
        sub: Subspace,
    ) -> Result<Loaded, TablebaseError> {
        let path = any_kind_path(&self.dir, &self.rules, kind, placing, sub);
        let table =
            crate::reader::table::open_table_of(&self.dir, &self.rules, kind, placing, sub)?;
        let index = SubspaceIndex::new(sub);
        if index.slots() != table.header().slots {
            return Err(TablebaseError::corrupt(
                &path,
                format!(
                    "{} slots, the index of {sub} has {}",
                    table.header().slots,
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
        if sub.mover as usize > MAX_SIDE || sub.opponent as usize > MAX_SIDE {
            return Err(TablebaseError::InvalidPosition(format!(
                "too many gotis ({sub})"
            )));
        }
        Ok(sub)
    }

    /// The value of `board` for the player to move (win/draw/loss and DTC in turns).
    pub fn probe(&self, board: Board) -> Result<Value, TablebaseError> {
        let sub = Tablebase::check_board(board)?;
        let l = self.loaded(TableKind::GameTheoretic, sub)?;
        l.table.value(
            &self.cache,
            Tablebase::key(sub) as u32,
            l.index.index(board),
        )
    }

    /// Win, draw or loss of `board` for the player to move, reading only the WDL
    /// section of the table.
    pub fn probe_wdl(&self, board: Board) -> Result<Wdl, TablebaseError> {
        let sub = Tablebase::check_board(board)?;
        let l = self.loaded(TableKind::GameTheoretic, sub)?;
        l.table.wdl(
            &self.cache,
            Tablebase::key(sub) as u32,
            l.index.index(board),
        )
    }

    /// The value of the placing position `board` (seen from the player to move) of
    /// layer `placed` (placements made) for the player to move.
    pub fn probe_placing(&self, placed: u32, board: Board) -> Result<Value, TablebaseError> {
        let sub = self.check_placing(placed, board)?;
        let l = self.loaded_table(TableKind::GameTheoretic, Some(placed as u8), sub)?;
        let key = Tablebase::key_of(Some(placed as u8), sub) as u32;
        l.table.value(&self.cache, key, l.index.index(board))
    }

    /// The value of a position of either phase for the player to move: placing
    /// positions from the placing tables, moving-phase ones from the moving-phase
    /// tables (game-theoretic, so the 100-turn counter is not used);
    /// [`Tablebase::answer`] adds the values under the 100-turn rule and every
    /// legal turn.
    pub fn probe_any_phase(&self, position: &Position) -> Result<Value, TablebaseError> {
        match position.phase() {
            Phase::Moving => self.probe(position.to_board()),
            Phase::Placing => {
                self.probe_placing(position.placements(&self.rules), position.to_board())
            }
        }
    }

    /// Every placement (with each capture choice) of the placing position `board` of
    /// layer `placed`, with the value it leads to from the placer's point of view
    /// (so the best equals `probe_placing`), best first; equal values in
    /// move-generation order.
    pub fn probe_placements(
        &self,
        placed: u32,
        board: Board,
    ) -> Result<Vec<(Placement, Value)>, TablebaseError> {
        let mut out = self.probe_placements_unsorted(placed, board, TableKind::GameTheoretic)?;
        sort_best_first(&mut out);
        Ok(out)
    }

    /// The DTC₁₀₀ value of the placing position `board` of layer `placed` (its value
    /// under the 100-turn rule, whose counter starts with the moving phase, with the
    /// turns to the next capture counting the placements), from the placing horizon
    /// table.
    pub fn probe_placing_dtc100(&self, placed: u32, board: Board) -> Result<Value, TablebaseError> {
        let sub = self.check_placing(placed, board)?;
        let l = self.loaded_table(TableKind::Horizon, Some(placed as u8), sub)?;
        let key = Tablebase::key_of(Some(placed as u8), sub) as u32;
        l.table.dtc100(&self.cache, key, l.index.index(board))
    }

    /// The placing position `board` of layer `placed`: its game-theoretic value, its
    /// class and its value under the 100-turn rule (which is also `rule_value`: no
    /// counter runs while placing), from the placing tables of both kinds.
    pub fn probe_placing_rule(
        &self,
        placed: u32,
        board: Board,
    ) -> Result<RuleValues, TablebaseError> {
        let sub = self.check_placing(placed, board)?;
        let l = self.loaded_table(TableKind::Horizon, Some(placed as u8), sub)?;
        let key = Tablebase::key_of(Some(placed as u8), sub) as u32;
        let slot = l.index.index(board);
        let dtc100 = l.table.dtc100(&self.cache, key, slot)?;
        Ok(RuleValues {
            value: self.probe_placing(placed, board)?,
            category: l.table.category(&self.cache, key, slot)?,
            dtc100,
            rule_value: dtc100,
        })
    }

    /// Every placement of the placing position `board` of layer `placed` with its
    /// values ignoring and under the 100-turn rule, counted from `board`, best first
    /// for a player who must win under the rule (by the value under the rule, then
    /// the class, then the game-theoretic value, as [`Tablebase::probe_moves_rule`]
    /// orders turns). The best one's values are `probe_placing_rule(placed, board)`'s.
    pub fn probe_placements_rule(
        &self,
        placed: u32,
        board: Board,
    ) -> Result<Vec<(Placement, RuleValues)>, TablebaseError> {
        let game = self.probe_placements_unsorted(placed, board, TableKind::GameTheoretic)?;
        let rule = self.probe_placements_unsorted(placed, board, TableKind::Horizon)?;
        let mut out = Vec::with_capacity(game.len());
        for ((p, value), (_, dtc100)) in game.into_iter().zip(rule) {
            let turn = Move::Place {
                to: p.to,
                capture: p.capture,
            };
            let category = self.category_of(
                value,
                dtc100,
                Some(placed as u8),
                board,
                format!("placement {turn}"),
            )?;
            out.push((
                p,
                RuleValues {
                    value,
                    category,
                    dtc100,
                    rule_value: dtc100,
                },
            ));
        }
        sort_best_under_rule(&mut out);
        Ok(out)
    }

    /// Every placement of `board` of layer `placed` with its value counted from
    /// `board`, in move-generation order: game-theoretic, or under the 100-turn rule
    /// (`kind`), read from the next layer's tables of that kind (the moving phase's
    /// after the last placement, at counter 0).
    fn probe_placements_unsorted(
        &self,
        placed: u32,
        board: Board,
        kind: TableKind,
    ) -> Result<Vec<(Placement, Value)>, TablebaseError> {
        self.check_placing(placed, board)?;
        let last = placed + 1 == layer_count(&self.rules);
        let mut error = None;
        let mut out = Vec::new();
        let lookup = |b: Board| {
            match (kind, last) {
                (TableKind::GameTheoretic, true) => self.probe(b),
                (TableKind::GameTheoretic, false) => self.probe_placing(placed + 1, b),
                (TableKind::Horizon, true) => self.probe_dtc100(b),
                (TableKind::Horizon, false) => self.probe_placing_dtc100(placed + 1, b),
            }
            .unwrap_or_else(|e| {
                error.get_or_insert(e);
                Value::Draw
            })
        };
        for_each_placement_value(&self.rules, placed, board, lookup, |p, v| out.push((p, v)));
        match error {
            Some(e) => Err(e),
            None => Ok(out),
        }
    }

    /// Checks that `board` can be a position of placing layer `placed`; its subspace.
    fn check_placing(&self, placed: u32, board: Board) -> Result<Subspace, TablebaseError> {
        if placed >= layer_count(&self.rules) {
            return Err(TablebaseError::InvalidPosition(format!(
                "{placed} placements made: the placing phase has {} under {}",
                layer_count(&self.rules),
                self.rules
            )));
        }
        if (board.mover | board.opponent) & !ALL != 0 || board.mover & board.opponent != 0 {
            return Err(TablebaseError::InvalidPosition(
                "gotis off the board or two on one point".into(),
            ));
        }
        let sub = Subspace::of(board);
        if !layer_subspaces(&self.rules, placed).contains(&sub) {
            return Err(TablebaseError::InvalidPosition(format!(
                "no game reaches {sub} after {placed} placements"
            )));
        }
        Ok(sub)
    }

    /// Every legal turn of the player to move with the value it leads to, from the
    /// player to move's point of view and counted from `board` (so the best turn's
    /// value equals `probe(board)`), best first. A capture that leaves the
    /// opponent two gotis is `Win(1)`. Empty when the player to move is blocked in a
    /// rule set where that loses.
    pub fn probe_moves(&self, board: Board) -> Result<Vec<(Turn, Value)>, TablebaseError> {
        let mut turns = self.turn_values(board, |n| self.probe(n))?;
        // Stable: equal values keep move-generation order.
        sort_best_first(&mut turns);
        Ok(turns)
    }

    /// Every legal turn with the value it leads to, counted from `board` (in
    /// move-generation order), `lookup` giving a successor's value for its player to
    /// move (a capture's successor is read as it is, counter reset).
    fn turn_values(
        &self,
        board: Board,
        lookup: impl Fn(Board) -> Result<Value, TablebaseError>,
    ) -> Result<Vec<(Turn, Value)>, TablebaseError> {
        Tablebase::check_board(board)?;
        let mut turns = Vec::new();
        let mut error = None;
        board.for_each_slide(&self.rules, |slide, next| {
            if error.is_some() {
                return;
            }
            let v = match next {
                Successor::Capture(n) if n.is_game_over() => Ok(Value::Win(1)),
                Successor::Capture(n) => lookup(n).map(|v| v.before_turn(true)),
                Successor::Quiet(n) | Successor::Pass(n) => lookup(n).map(|v| v.before_turn(false)),
            };
            match v {
                Ok(v) => turns.push((Turn::Slide(slide), v)),
                Err(e) => error = Some(e),
            }
        });
        if let Some(e) = error {
            return Err(e);
        }
        if turns.is_empty() && !self.rules.blocked_loses {
            turns.push((Turn::Pass, lookup(board.flipped())?.before_turn(false)));
        }
        Ok(turns)
    }

    /// The DTC₁₀₀ value of `board` (its value under the 100-turn rule at counter 0,
    /// with the turns within which it is forced), from the horizon table.
    pub fn probe_dtc100(&self, board: Board) -> Result<Value, TablebaseError> {
        let sub = Tablebase::check_board(board)?;
        let l = self.loaded(TableKind::Horizon, sub)?;
        l.table.dtc100(
            &self.cache,
            Tablebase::key(sub) as u32,
            l.index.index(board),
        )
    }

    /// The class of `board` at counter 0 (win, cursed win, draw, blessed loss,
    /// loss), reading only the category section of the horizon table.
    pub fn probe_category(&self, board: Board) -> Result<Category, TablebaseError> {
        let sub = Tablebase::check_board(board)?;
        let l = self.loaded(TableKind::Horizon, sub)?;
        l.table.category(
            &self.cache,
            Tablebase::key(sub) as u32,
            l.index.index(board),
        )
    }

    /// `board`'s values under the 100-turn rule at counter `counter` (turns since the
    /// last capture), with its game-theoretic value. A counter above the rule set's
    /// turn limit is refused.
    pub fn probe_rule(&self, board: Board, counter: u16) -> Result<RuleValues, TablebaseError> {
        let rule_value = self.check_counter(counter)?;
        let dtc100 = self.probe_dtc100(board)?;
        Ok(RuleValues {
            value: self.probe(board)?,
            category: self.probe_category(board)?,
            dtc100,
            rule_value: rule_value(dtc100),
        })
    }

    /// Every legal turn of `board` at counter `counter` with its values under the rule
    /// and ignoring it, counted from `board`, best first for a player who must win
    /// under the rule: by the value under the rule at this counter (a kept win first,
    /// the quickest first), then by category, then by the game-theoretic value. The
    /// best turn's values are `probe_rule(board, counter)`'s.
    pub fn probe_moves_rule(
        &self,
        board: Board,
        counter: u16,
    ) -> Result<Vec<(Turn, RuleValues)>, TablebaseError> {
        let rule_value = self.check_counter(counter)?;
        let game = self.turn_values(board, |n| self.probe(n))?;
        let rule = self.turn_values(board, |n| self.probe_dtc100(n))?;
        let mut turns = Vec::with_capacity(game.len());
        for ((turn, value), (_, through)) in game.into_iter().zip(rule) {
            // Decided only if within the limit from counter 0.
            let dtc100 = value_at_counter(through, 0, self.rules.quiet).expect("counter 0");
            let category = self.category_of(value, dtc100, None, board, format!("turn {turn}"))?;
            let rule_value = rule_value(through);
            turns.push((
                turn,
                RuleValues {
                    value,
                    category,
                    dtc100,
                    rule_value,
                },
            ));
        }
        sort_best_under_rule(&mut turns);
        Ok(turns)
    }

    /// The class of a turn from `board` (of the moving phase, or of placing layer
    /// `placing`) from its values ignoring and under the rule; a pair no class has
    /// (a win under the rule that is no win ignoring it) is a corrupt horizon table,
    /// the error naming `turn` (`turn a1-a4`, `placement d7`).
    fn category_of(
        &self,
        value: Value,
        dtc100: Value,
        placing: Option<u8>,
        board: Board,
        turn: impl fmt::Display,
    ) -> Result<Category, TablebaseError> {
        Category::of(value.wdl(), dtc100.wdl()).ok_or_else(|| TablebaseError::Corrupt {
            file: any_kind_path(
                &self.dir,
                &self.rules,
                TableKind::Horizon,
                placing,
                Subspace::of(board),
            ),
            what: format!("{turn}: {dtc100:?} under the rule but {value:?} ignoring it"),
        })
    }

    /// Refuses a counter above the turn limit; otherwise the function that turns a
    /// DTC₁₀₀ value into the value at that counter.
    fn check_counter(&self, counter: u16) -> Result<impl Fn(Value) -> Value, TablebaseError> {
        let quiet = self.rules.quiet;
        if counter > quiet {
            return Err(TablebaseError::InvalidPosition(format!(
                "quiet-turn counter {counter} is above the turn limit {quiet} of {}",
                self.rules
            )));
        }
        Ok(move |v| value_at_counter(v, counter, quiet).expect("counter checked"))
    }
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
