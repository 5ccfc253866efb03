//! A step of the one job ([`crate::solve`]) for a tier whose moves all leave it
//! (today a tier with gotis in hand): one pass over its successors' values of
//! the pass's kind, read from their files. Memory stays at about three tables:
//! the step reads only the one or two tables its moves lead into, and
//! neighbouring steps share them. The steps with the same hands form a group:
//! its tables are listed in the manifest as soon as the last of them is written,
//! so a stopped run leaves them listed.

use crate::changed_lists::changed_slots;
use crate::observer::{JobError, JobObserver, TierReport};
use crate::writing::finish_writing;
use std::collections::HashMap;
use std::time::Instant;
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_solve::horizon_shortcut::differing_slots;
use tigadi_solve::leaving::{recompute_by_board, solve_tier_changed, solve_tier_with};
use tigadi_solve::{Packed, SolvedTable};
use tigadi_tablebase::{mark_padding, PendingWrite, TableId, TableKind, TablebaseDir};
use tigadi_values::{successor_tiers, Hands, Tier};

/// One pass's state over its one-pass steps.
pub(crate) struct OnePass<'t> {
    tables: &'t TablebaseDir,
    kind: TableKind,
    /// The successor tables read last: neighbouring tiers share one.
    cache: Vec<(TableId, Vec<Packed>)>,
    /// Horizon tables: the slots where a successor's values under the rule
    /// differ from its game-theoretic values.
    changed: HashMap<TableId, Vec<u64>>,
    /// The steps of the current hands solved so far.
    group: Option<Group>,
}

/// The steps of one hands that a pass solves.
struct Group {
    hands: Hands,
    started: Instant,
    slots: u64,
    /// The tables written, for the manifest.
    written: Vec<TableId>,
    /// The table written last, still being assembled and written on a thread of
    /// its own while the next tier is solved.
    writing: Option<PendingWrite>,
}

impl<'t> OnePass<'t> {
    /// A pass over tables of `kind` in `tables`.
    pub(crate) fn new(tables: &'t TablebaseDir, kind: TableKind) -> OnePass<'t> {
        OnePass {
            tables,
            kind,
            cache: Vec::new(),
            changed: HashMap::new(),
            group: None,
        }
    }

    /// Solves `tier` from its successors' tables and starts writing its table.
    pub(crate) fn step<O: JobObserver>(
        &mut self,
        tier: Tier,
        observer: &O,
    ) -> Result<(), JobError> {
        let started = Instant::now();
        if self.group.as_ref().is_some_and(|g| g.hands != tier.hands) {
            self.close(observer)?;
        }
        if self.group.is_none() {
            // Only the next hands' lists are read from here on.
            let next = tier.hands.after_placement();
            self.changed.retain(|id, _| id.tier.hands == next);
            self.group = Some(Group {
                hands: tier.hands,
                started,
                slots: 0,
                written: Vec::new(),
                writing: None,
            });
        }
        self.load_successors(tier)?;
        let id = TableId::new(self.kind, tier);
        // A horizon table is written with its game values (for the categories),
        // which the shortcut loaded already.
        let (values, game, from_game) = if self.kind == TableKind::Horizon {
            let (values, game, from_game) = self.horizon_values(tier, observer)?;
            // The tiers before read where this table differs from its game values.
            let differing = differing_slots(&values, &game);
            self.changed.insert(id, differing);
            (values, Some(game), from_game)
        } else {
            (self.pass(tier, observer)?.values, None, false)
        };
        let group = self.group.as_mut().expect("opened above");
        finish_writing(&mut group.writing)?;
        group.writing = Some(match &game {
            Some(game) => {
                let data = self.kind.data(&values, Some(game));
                self.tables
                    .write_in_background(id, data.expect("a horizon table's base"))?
            }
            None => self.tables.write_values_in_background(id, &values)?,
        });
        group.written.push(id);
        let slots = SubspaceIndex::new(tier.subspace).slots();
        group.slots += slots;
        observer.tier_solved(&TierReport {
            kind: self.kind,
            tier,
            slots,
            seconds: started.elapsed().as_secs_f64(),
            from_game,
        });
        Ok(())
    }

    /// Waits for the current hands' tables to be written, lists them in the
    /// manifest and says so.
    pub(crate) fn close<O: JobObserver>(&mut self, observer: &O) -> Result<(), JobError> {
        let Some(mut group) = self.group.take() else {
            return Ok(());
        };
        finish_writing(&mut group.writing)?;
        self.tables.update_manifest(&group.written, &[])?;
        observer.hands_solved(
            self.kind,
            group.hands,
            group.written.len(),
            group.slots,
            group.started.elapsed().as_secs_f64(),
        );
        Ok(())
    }

    /// Loads the tables of `tier`'s successors into the cache (the others go).
    fn load_successors(&mut self, tier: Tier) -> Result<(), JobError> {
        let rules = self.tables.rules();
        let needed: Vec<TableId> = successor_tiers(rules, tier)
            .into_iter()
            .map(|t| TableId::new(self.kind, t))
            .collect();
        self.cache.retain(|(k, _)| needed.contains(k));
        for &id in &needed {
            if self.cache.iter().any(|(k, _)| *k == id) {
                continue;
            }
            self.cache.push((id, self.tables.load(id)?));
        }
        Ok(())
    }

    /// The successors' tables as the solver reads them.
    fn next_tables(&self) -> Vec<SolvedTable<'_>> {
        SolvedTable::views(self.cache.iter().map(|(id, v)| (&id.tier.subspace, v)))
    }

    /// The one pass over the successors' tables of this pass's kind.
    fn pass<O: JobObserver>(
        &self,
        tier: Tier,
        observer: &O,
    ) -> Result<tigadi_solve::SolvedSubspace, JobError> {
        let rules = self.tables.rules();
        solve_tier_with(
            rules,
            self.kind.metric(),
            tier,
            &self.next_tables(),
            observer,
        )
        .map_err(|e| JobError::Solve(tier, e))
    }

    /// `tier`'s values under the rule, its game values as loaded, and whether
    /// they are its game values taken whole: where the successors' values under
    /// the rule differ from their game values, only the boards moving into those
    /// are recomputed, or the pass runs when that is cheaper
    /// ([`recompute_by_board`]); all three give the same bytes.
    fn horizon_values<O: JobObserver>(
        &mut self,
        tier: Tier,
        observer: &O,
    ) -> Result<(Vec<Packed>, Vec<Packed>, bool), JobError> {
        let rules = self.tables.rules();
        for (nid, rule) in &self.cache {
            changed_slots(self.tables, &mut self.changed, *nid, rule)?;
        }
        let lists: Vec<(Subspace, &[u64])> = self
            .cache
            .iter()
            .map(|(nid, _)| (nid.tier.subspace, &self.changed[nid][..]))
            .filter(|(_, l)| !l.is_empty())
            .collect();
        let sub = tier.subspace;
        let game = self
            .tables
            .load(TableId::new(TableKind::GameTheoretic, tier))?;
        // The game values as the solver gives them (padding marked).
        let mut known = game.clone();
        mark_padding(sub, &mut known);
        if lists.is_empty() {
            observer.advance(game.len() as u64);
            return Ok((known, game, true));
        }
        let values = if recompute_by_board(rules, tier, &lists) {
            solve_tier_changed(rules, tier, known, &self.next_tables(), &lists, observer)
                .map_err(|e| JobError::Solve(tier, e))?
                .0
                .values
        } else {
            self.pass(tier, observer)?.values
        };
        Ok((values, game, false))
    }
}
