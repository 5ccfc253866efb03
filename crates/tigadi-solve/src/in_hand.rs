//! The steps of tiers with gotis in hand under Lasker's rule (`slides=always`,
//! docs/RULES.md §8.2): a player with gotis in hand places one **or** slides, so
//! `h1,h2 m v o` and `h2,h1 o v m` reach each other by slides whenever both
//! sides have a goti on the board, and are solved together by the rounds of
//! [`crate::retrograde`] like a moving pair ([`tigadi_values::tier_steps`]).
//!
//! # Method
//!
//! What differs from a moving pair is what leaves the step: captures by slides
//! (depth 1, as in a moving pair), placements, quiet or capturing, into tiers
//! with one goti fewer in the placer's hand, and (in a step of one tier whose
//! flipped tier is solved already) quiet slides. A quiet placement's value is its
//! target's one turn later ([`Value::before_turn`]), an **exit of any depth**.
//!
//! 1. **Initialise**: per position, the best value among its moves that leave
//!    the step (its *exit*, read from the solved tables of the tiers they lead
//!    to) and the number of its distinct quiet successor classes inside the
//!    step. The placements' part of the exits comes first, from one pass over
//!    the boards grouped by the opponent's set, in which a board's placements
//!    all read one run of their tables ([`crate::leaving`]'s
//!    `best_placements`, as for the tiers without moves inside); the slides'
//!    part a run at a time, as a moving pair's initial pass takes it
//!    ([`RunMoves`]: the mover set's slides listed once per run, the capture
//!    targets' values read once per run into a memo, each capture one rank
//!    and one read of it). A position without a move is `Loss(0)`; one whose exit is `Win(1)`
//!    is decided; one without moves inside the step is its exit (at once: the
//!    forward rounds read a level only after it is complete, so an early value
//!    is read in the round it belongs to). Otherwise the counter is its inside
//!    classes, plus one never taken away when the exit draws or wins.
//! 2. **Rounds**, each forwards or backwards as in a moving pair
//!    ([`crate::retrograde`]'s `forward_step`, or its backward rounds over the
//!    quiet predecessors inside the step, slides by the other side, which flies
//!    when its gotis on the board and in hand are three): in round `k` a
//!    position becomes `Win(k)` if an inside successor is `Loss(k - 1)` or its
//!    exit is `Win(k)`; its counter loses the inside successors that are
//!    `Win(k - 1)`, and at zero it becomes `Loss(max(k, e))` for a loss exit
//!    `Loss(e)` (waiting, counter at zero, until round `e`) or `Loss(k)` without
//!    exit. A backward round ends with a sweep of the exits for the positions
//!    they decide in round `k` (`exit_round`). The rounds go on at least to the
//!    deepest exit.
//! 3. The rest are draws.
//!
//! So every value is the best over its moves of the successor's value one turn
//! later (a capture counting 1), what `evaluate` from the successors gives.
//!
//! The values under the 100-turn rule ([`crate::horizon::solve_step_in_hand_horizon`])
//! are the same rounds with two parameters changed: the exits read from the exit
//! tiers' tables under the rule in [`Metric::Dtz`] (a placement restarts the
//! counter as a capture does, so it counts 1 and leads to its target's value at
//! counter 0), and the rounds capped at the turn limit (an exit or a position
//! deeper than that is a draw). `tigadi solve` runs them with the step's game
//! draws decided as draws before the rounds, their moves never generated
//! ([`crate::horizon::solve_step_in_hand_horizon_from_game`]).
//!
//! # Memory
//!
//! The rounds hold 6 bytes a slot of the step: a word (value and counter) and
//! an exit. The exit tiers' tables (2 bytes a slot each, together up to about
//! three times the step's slots) are read only by the placements pass and the
//! initial pass, so they come from a [`TableSource`] one phase at a time: the
//! placements of a part with only their two tables and the exits (before the
//! words are made), then the initial pass part by part with only that part's
//! slides' tables (and, in the horizon pass, its game table), never all of
//! the exit tables with the words. Finding the game values and the 100-turn
//! values together ([`crate::solve_step_in_hand_game_and_horizon`]) holds both
//! kinds' words and exits (12 bytes a slot) and each part's tables of both
//! kinds ([`step_in_hand_bytes`]).

use crate::evaluate::Step;
use crate::leaving::{best_placements_into, PlacementGroups, PlacementTables, SuccessorKeys};
use crate::retrograde::{run_rounds, word, Exits, PairSpace, Rounds, Start, PADDING};
use crate::runs::{RunMoves, SlotSet};
use crate::tables::{Observer, SolveError, SolvedSubspace};
use crate::value::Metric;
use crate::value::{Packed, Value};
use rayon::prelude::*;
use std::borrow::Cow;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, Ordering::Relaxed};
use tigadi_index::SubspaceIndex;
use tigadi_rules::geometry::Bits;
use tigadi_rules::RuleSet;
use tigadi_values::{successor_tiers, value_at_counter, Hands, Tier};

/// The values of a solved tier, as a step with gotis in hand reads them.
#[derive(Clone, Copy)]
pub struct TierTable<'a> {
    /// The tier.
    pub tier: Tier,
    /// One value per slot of its subspace's index.
    pub values: &'a [Packed],
}

/// The tiers of the step `tier` heads: `tier` and, when they reach each other,
/// its [`Tier::flipped`] partner (the order of the parts of the step and of
/// [`solve_step_in_hand`]'s results).
pub fn step_tiers(rules: &RuleSet, tier: Tier) -> Vec<Tier> {
    let mut step = vec![tier];
    if tier.has_moves_inside(rules) && tier.flipped() != tier {
        step.push(tier.flipped());
    }
    step
}

/// The tiers the moves of `step` lead to out of it, sorted: the tables
/// [`solve_step_in_hand`] reads.
pub fn exit_tiers(rules: &RuleSet, step: &[Tier]) -> Vec<Tier> {
    let mut out: Vec<Tier> = step
        .iter()
        .flat_map(|&t| successor_tiers(rules, t))
        .filter(|t| !step.contains(t))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Where a step with gotis in hand reads the solved tables it needs:
/// `source(tier)` is the table of `tier`, one value per slot of its subspace's
/// index, borrowed or owned. The solve asks for a table when a phase needs it
/// and drops it when that phase ends (see "Memory" in the module docs), so a
/// job that loads each from its file then holds one phase's tables at a time.
pub type TableSource<'s, 'a> = dyn FnMut(Tier) -> Result<Cow<'a, [Packed]>, SolveError> + 's;

/// The tables `tables` as a [`TableSource`]: borrowed, and
/// [`SolveError::MissingTier`] for a tier not among them.
pub fn given<'a>(
    tables: &'a [TierTable<'a>],
) -> impl FnMut(Tier) -> Result<Cow<'a, [Packed]>, SolveError> + 'a {
    move |tier| {
        tables
            .iter()
            .find(|t| t.tier == tier)
            .map(|t| Cow::Borrowed(t.values))
            .ok_or(SolveError::MissingTier(tier))
    }
}

/// The table of `tier` from `source`, checked to hold one value per slot of
/// its subspace's index.
pub(crate) fn ask<'a>(
    source: &mut TableSource<'_, 'a>,
    tier: Tier,
) -> Result<Cow<'a, [Packed]>, SolveError> {
    let values = source(tier)?;
    if values.len() as u64 != SubspaceIndex::new(tier.subspace).slots() {
        return Err(SolveError::WrongSize(tier.subspace));
    }
    Ok(values)
}

/// The exit tiers of part `p` of `step` that its moves leaving the hands
/// `hands` lead to: with [`Hands::after_placement`] its placements', with the
/// flipped hands its slides' (a player's slide leaves the hands as they are,
/// and the other side moves next). The two never meet, and over the parts
/// they are [`exit_tiers`]: the tables one phase of the solve reads.
pub fn part_exits(rules: &RuleSet, step: &[Tier], p: usize, hands: Hands) -> Vec<Tier> {
    let mut out: Vec<Tier> = successor_tiers(rules, step[p])
        .into_iter()
        .filter(|t| t.hands == hands && !step.contains(t))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Some exit tiers' tables, from a [`TableSource`], checked, each with its
/// index.
struct Targets<'a>(Vec<(Tier, SubspaceIndex, Cow<'a, [Packed]>)>);

impl<'a> Targets<'a> {
    /// The tables of `tiers`, asked of `source`.
    fn load(tiers: &[Tier], source: &mut TableSource<'_, 'a>) -> Result<Self, SolveError> {
        let mut out = Vec::new();
        for &tier in tiers {
            out.push((tier, SubspaceIndex::new(tier.subspace), ask(source, tier)?));
        }
        Ok(Targets(out))
    }

    /// The place of `tier`'s table among these, when it is one of them.
    fn place(&self, tier: Tier) -> Option<usize> {
        self.0.iter().position(|(t, _, _)| *t == tier)
    }

    /// The table of `tier`, with its index, when it is among these.
    fn table(&self, tier: Tier) -> Option<(SubspaceIndex, &[Packed])> {
        let (_, idx, values) = &self.0[self.place(tier)?];
        Some((*idx, &values[..]))
    }

    /// The tables the placements of `tier` lead to ([`best_placements`]).
    fn placements(&self, tier: Tier) -> PlacementTables<'_> {
        PlacementTables::of(tier, |t| self.table(t))
    }
}

/// About the most bytes the solve of `step` holds at once when it finds
/// `kinds` kinds of values together (see "Memory" in the module docs): per
/// kind, 6 bytes a slot of the step (its words and exits), and one part's
/// tables at a time (2 bytes a slot each), of its placements' or its slides'
/// exit tiers, whichever is larger.
pub fn step_in_hand_bytes(rules: &RuleSet, step: &[Tier], kinds: u64) -> u64 {
    let slots = |tiers: Vec<Tier>| -> u64 {
        tiers
            .iter()
            .map(|t| SubspaceIndex::new(t.subspace).slots())
            .sum()
    };
    let own = slots(step.to_vec());
    let part_tables = (0..step.len())
        .flat_map(|p| {
            let placed = part_exits(rules, step, p, step[p].hands.after_placement());
            let slid = part_exits(rules, step, p, step[p].flipped().hands);
            [slots(placed), slots(slid)]
        })
        .max()
        .unwrap_or(0);
    kinds * (6 * own + 2 * part_tables)
}

/// Solves a step of tiers with gotis in hand ([`step_tiers`]) under a rule set
/// with Lasker's rule: `tables` must give the solved tables of its
/// [`exit_tiers`], their depths in `metric`. Returns the values of its tiers'
/// subspaces, in `step`'s order, their depths in `metric`. See the module docs.
///
/// With [`Metric::Dtw`] and the exit tiers' DTW tables this is the depth to
/// win: the same rounds, a capture counting one turn more than its target's
/// depth (as every other turn does) instead of restarting at 1.
pub fn solve_step_in_hand(
    rules: &RuleSet,
    metric: Metric,
    step: &[Tier],
    tables: &mut TableSource<'_, '_>,
    observer: &dyn Observer,
) -> Result<Vec<SolvedSubspace>, SolveError> {
    let rounds = Rounds::Adaptive;
    let limit = crate::MAX_DTC;
    solve_step_in_hand_capped(rules, metric, step, tables, None, observer, rounds, limit)
}

/// [`solve_step_in_hand`] from tables in memory, with a choice of how the
/// rounds run (for tests and measurements): all give the same values.
pub fn solve_step_in_hand_with(
    rules: &RuleSet,
    metric: Metric,
    step: &[Tier],
    tables: &[TierTable<'_>],
    observer: &dyn Observer,
    rounds: Rounds,
) -> Result<Vec<SolvedSubspace>, SolveError> {
    let limit = crate::MAX_DTC;
    let tables = &mut given(tables);
    solve_step_in_hand_capped(rules, metric, step, tables, None, observer, rounds, limit)
}

/// [`solve_step_in_hand`] that stops after round `limit`: a move whose
/// value takes more than `limit` turns counts as a draw, and the positions not
/// decided within `limit` turns are draws. With `limit` the turn limit,
/// [`Metric::Dtz`] and the exit tiers' tables under the rule, this is the
/// horizon pass of a step with gotis in hand ([`crate::horizon`]).
///
/// `draws`, when given, gives the table of each tier of the step whose draws
/// are known to be draws of the result: those positions are draws from the
/// start, without their moves generated (the horizon pass from the game
/// values, [`crate::horizon::solve_step_in_hand_horizon_from_game`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_step_in_hand_capped(
    rules: &RuleSet,
    metric: Metric,
    step: &[Tier],
    tables: &mut TableSource<'_, '_>,
    draws: Option<&mut TableSource<'_, '_>>,
    observer: &dyn Observer,
    rounds: Rounds,
    limit: u16,
) -> Result<Vec<SolvedSubspace>, SolveError> {
    let space = PairSpace::of_subspaces(step.iter().map(|t| t.subspace));
    let kind = Kind {
        metric,
        limit,
        tables,
        // A shorter-lived borrow of the same source (the coercion does not
        // reach inside the `Option` by itself).
        draws: draws.map(|d| d as &mut TableSource<'_, '_>),
    };
    let [start] = initialise(rules, step, &space, [kind], observer)?;
    Ok(start.rounds(rules, step, &space, observer, rounds))
}

/// One kind of values that the rounds of a step with gotis in hand find: its
/// depths in `metric`, a win or loss deeper than `limit` a draw, its exit
/// tiers' tables from `tables` and, when given, the step's own tables whose
/// draws are known draws of this kind (`draws`: those positions are draws
/// from the start).
pub(crate) struct Kind<'k, 'a, 'b> {
    pub(crate) metric: Metric,
    pub(crate) limit: u16,
    pub(crate) tables: &'k mut TableSource<'k, 'a>,
    pub(crate) draws: Option<&'k mut TableSource<'k, 'b>>,
}

/// One kind's words and exits after the initial pass (step 1 of the module
/// docs), before its rounds.
pub(crate) struct Initial {
    /// Per slot of the step: the value and counter.
    words: Vec<u32>,
    /// Per slot: the packed best value of its moves that leave the step.
    exits: Vec<u16>,
    /// The positions the initial pass left undecided.
    undecided: u64,
    /// The positions it decided at level one (`Win(1)`, `Loss(1)`).
    first_level: u64,
    /// The kind's turn limit.
    limit: u16,
}

impl Initial {
    /// Steps 2 and 3 of the module docs: the kind's values, in `step`'s order.
    pub(crate) fn rounds(
        mut self,
        rules: &RuleSet,
        step: &[Tier],
        space: &PairSpace,
        observer: &dyn Observer,
        rounds: Rounds,
    ) -> Vec<SolvedSubspace> {
        let words = crate::retrograde::atomic_u32(&mut self.words);
        let level = if step.iter().any(|t| t.has_moves_inside(rules)) {
            let hands = step.iter().map(|t| t.hands.mover).collect();
            let exits = Exits::new(self.exits, hands, words);
            let start = Start {
                undecided: self.undecided,
                first_level: self.first_level,
                exits: Some(&exits),
            };
            run_rounds(rules, space, words, start, observer, rounds, self.limit)
        } else {
            // Every move leaves the step: the initial pass decided everything.
            0
        };
        space.solved(self.words, level)
    }

    /// Makes the position in every slot where `draws` holds a draw a draw
    /// from the start, as if this kind's `draws` had named it before the
    /// initial pass (which gave it no exit and left it out of the counts).
    /// `draws` holds the step's tables in `step`'s order, as
    /// [`Initial::rounds`] returns them (padding holds no value).
    pub(crate) fn settle_draws(&mut self, space: &PairSpace, draws: &[SolvedSubspace]) {
        let level_one = [Packed::new(Value::Win(1)), Packed::new(Value::Loss(1))];
        let mut start = 0;
        for (part, d) in space.parts.iter().zip(draws) {
            debug_assert_eq!(part.1, start, "parts in order");
            let words = &mut self.words[start as usize..start as usize + d.values.len()];
            let exits = &mut self.exits[start as usize..start as usize + d.values.len()];
            let (undecided, at_one) = words
                .par_iter_mut()
                .zip(exits.par_iter_mut())
                .zip(d.values.par_iter())
                .filter(|(_, v)| v.get() == Some(Value::Draw))
                .map(|((w, e), _)| {
                    let before = Packed(crate::retrograde::word_value(*w));
                    *w = word(Packed::DRAW, 0);
                    *e = Packed::NONE.0;
                    (
                        (before == Packed::NONE) as u64,
                        level_one.contains(&before) as u64,
                    )
                })
                .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
            self.undecided -= undecided;
            self.first_level -= at_one;
            start += d.values.len() as u64;
        }
    }
}

/// Step 1 of the module docs for every kind of `kinds` at once: the
/// placements' best of each kind from its own grouped pass, then one initial
/// pass in which each board's slides are generated and their exits found
/// once, and read in every kind's tables. Returns each kind's words and exits.
pub(crate) fn initialise<const K: usize>(
    rules: &RuleSet,
    step: &[Tier],
    space: &PairSpace,
    mut kinds: [Kind<'_, '_, '_>; K],
    observer: &dyn Observer,
) -> Result<[Initial; K], SolveError> {
    assert!(
        step.iter().all(|t| !t.is_moving()),
        "a step with gotis in hand"
    );
    assert!(K > 0, "at least one kind");
    let n = space.total as usize;
    // In huge pages, as the words ([`best_placements_into`]).
    let exit_values: [Vec<AtomicU16>; K] =
        std::array::from_fn(|_| crate::memory::vec_from_fn(n, |_| AtomicU16::new(Packed::NONE.0)));
    // Quiet slides stay in the step when it has moves inside (into the flipped
    // tier, which is then in the step); otherwise they leave it, if any.
    let inside = |p: usize| step[p].has_moves_inside(rules);

    // Every placement leaves the step: the best of each board's, as a choice
    // key, from one pass grouped by opponent set (where a board's placements
    // read one run of their tables, not one cache miss each), kept in the
    // board's exit until the initial pass adds its slides. Before the words
    // exist: the placements' tables are the step's largest.
    let placing: Vec<bool> = step.iter().map(|t| t.hands.mover > 0).collect();
    let placed_slots = space.parts.iter().zip(&placing).filter(|(_, &p)| p);
    observer.phase(
        "placements",
        placed_slots.map(|((idx, _), _)| idx.slots()).sum(),
    );
    for (p, tier) in step.iter().enumerate().filter(|&(p, _)| placing[p]) {
        let start = space.parts[p].1;
        let exits = part_exits(rules, step, p, tier.hands.after_placement());
        let mut targets = Vec::with_capacity(K);
        for kind in kinds.iter_mut() {
            targets.push(Targets::load(&exits, kind.tables)?);
        }
        // Every kind's placements in one pass: the boards, free sets and
        // slots found once, each kind's tables read at the same slots.
        let passes: Vec<PlacementGroups> = kinds
            .iter()
            .zip(&targets)
            .map(|(kind, t)| PlacementGroups::new(rules, kind.metric, *tier, t.placements(*tier)))
            .collect();
        best_placements_into(&passes, observer, &exit_values, start);
    }

    let mut words_raw: [Vec<u32>; K] =
        std::array::from_fn(|_| crate::memory::filled_vec(n, word(Packed::NONE, PADDING)));
    let words: Vec<&[AtomicU32]> = words_raw
        .iter_mut()
        .map(|w| crate::retrograde::atomic_u32(w))
        .collect();
    observer.phase("init", n as u64);
    let level_one = [Packed::new(Value::Win(1)), Packed::new(Value::Loss(1))];
    let undecided: [AtomicU64; K] = std::array::from_fn(|_| AtomicU64::new(0));
    let first_level: [AtomicU64; K] = std::array::from_fn(|_| AtomicU64::new(0));
    for (p, tier) in step.iter().enumerate() {
        // Part by part, each with its slides' tables and its known draws only.
        let exits_of_part = part_exits(rules, step, p, tier.flipped().hands);
        let mut targets = Vec::with_capacity(K);
        let mut known = Vec::with_capacity(K);
        for kind in kinds.iter_mut() {
            targets.push(Targets::load(&exits_of_part, kind.tables)?);
            known.push(kind.draws.as_mut().map(|d| ask(d, *tier)).transpose()?);
        }
        // Is the position in this slot a draw known in advance to kind `k`?
        // Only slots holding a position are asked (padding keeps its mark).
        let known_draw = |k: usize, slot: u64| {
            known[k]
                .as_ref()
                .is_some_and(|d| d[slot as usize].get() == Some(Value::Draw))
        };
        let (idx, start) = space.parts[p];
        let slides = SlideExits::new(*tier, &targets, inside(p).then(|| space.other(p).0));
        let ways: [(Metric, u16); K] = std::array::from_fn(|k| (kinds[k].metric, kinds[k].limit));
        space.sweep_part_runs(p, observer, |runs| {
            let run = idx.run_length();
            let mut keys = SlotSet::new();
            let mut moves = RunMoves::default();
            let (mut open, mut at_one) = ([0u64; K], [0u64; K]);
            for r in runs {
                let (mover, _) = idx.run_mover(r);
                slides.prepare(rules, &mut moves, mover);
                for (slot, board) in idx.boards(r * run..(r + 1) * run) {
                    let g = (start + slot) as usize;
                    let mut knows = [false; K];
                    for (k, knows) in knows.iter_mut().enumerate() {
                        *knows = known_draw(k, slot);
                        if *knows {
                            // Decided before the rounds and never by them:
                            // no exit, no counter, never undecided.
                            words[k][g].store(word(Packed::DRAW, 0), Relaxed);
                            exit_values[k][g].store(Packed::NONE.0, Relaxed);
                        }
                    }
                    if knows.iter().all(|&d| d) {
                        continue;
                    }
                    // Each kind's exit starts from its best placement, if any.
                    let mut best: [Option<Value>; K] = std::array::from_fn(|k| {
                        (placing[p] && !knows[k]).then(|| {
                            let key = exit_values[k][g].load(Relaxed);
                            debug_assert_ne!(
                                key, 0,
                                "a board with gotis in hand has an empty point"
                            );
                            SuccessorKeys::value(key)
                        })
                    });
                    let classes =
                        slides.exits(rules, &moves, board.opponent, &ways, &mut keys, &mut best);
                    for (k, &(_, limit)) in ways.iter().enumerate() {
                        if knows[k] {
                            continue;
                        }
                        let (value, count, exit) = initial(best[k], classes, limit);
                        open[k] += (value == Packed::NONE) as u64;
                        at_one[k] += level_one.contains(&value) as u64;
                        words[k][g].store(word(value, count), Relaxed);
                        exit_values[k][g].store(exit.0, Relaxed);
                    }
                }
            }
            for k in 0..K {
                undecided[k].fetch_add(open[k], Relaxed);
                first_level[k].fetch_add(at_one[k], Relaxed);
            }
            (0, 0, 0)
        });
    }
    drop(words);
    let mut exit_values = exit_values.into_iter();
    let mut words_raw = words_raw.into_iter();
    Ok(std::array::from_fn(|k| Initial {
        words: words_raw.next().expect("one per kind"),
        exits: exit_values
            .next()
            .expect("one per kind")
            .into_iter()
            .map(|v| v.into_inner())
            .collect(),
        undecided: undecided[k].load(Relaxed),
        first_level: first_level[k].load(Relaxed),
        limit: kinds[k].limit,
    }))
}

/// Where the slides of one part of a step lead, and the tables that value
/// those that leave it: the part's tier, the tier its captures lead to (none
/// when they end the game) and, when its quiet slides leave the step, the
/// flipped tier's tables; otherwise the index of the part they lead to.
struct SlideExits<'t> {
    /// The part's tier.
    tier: Tier,
    /// Does a capture leave the opponent fewer than three gotis?
    ends_game: bool,
    /// The capture targets' index and their table in every kind, when a
    /// capture does not end the game and a slide can capture.
    captures: Option<(SubspaceIndex, Vec<&'t [Packed]>)>,
    /// Where the quiet slides lead.
    quiet: QuietSlides<'t>,
}

/// Where the quiet slides (and a blocked player's pass) of a part lead.
enum QuietSlides<'t> {
    /// Into the step, to the part this index indexes: only their classes
    /// are counted.
    Inside(SubspaceIndex),
    /// Out of the step, into the flipped tier solved before it: its index
    /// and its table in every kind (none when the part has no slide).
    Exit(SubspaceIndex, Vec<&'t [Packed]>),
}

impl<'t> SlideExits<'t> {
    /// The slides of part tier `tier`, its exits' tables among `targets`
    /// (one per kind), `inside` the index of the part its quiet slides lead
    /// to when they stay in the step.
    fn new(
        tier: Tier,
        targets: &'t [Targets<'_>],
        inside: Option<SubspaceIndex>,
    ) -> SlideExits<'t> {
        let tables = |exit: Tier| -> Option<(SubspaceIndex, Vec<&'t [Packed]>)> {
            let idx = targets[0].table(exit)?.0;
            let tables = targets
                .iter()
                .map(|t| t.table(exit).expect("every kind's exit").1);
            Some((idx, tables.collect()))
        };
        // No target table when no slide can capture (fewer than three of the
        // mover's gotis on the board).
        let capture = tier.slide_capture();
        let ends_game = capture.is_none();
        let captures = capture.and_then(tables);
        let quiet = match inside {
            Some(idx) => QuietSlides::Inside(idx),
            None => {
                let flipped = tier.flipped();
                let (idx, tables) =
                    tables(flipped).unwrap_or((SubspaceIndex::new(flipped.subspace), Vec::new()));
                QuietSlides::Exit(idx, tables)
            }
        };
        SlideExits {
            tier,
            ends_game,
            captures,
            quiet,
        }
    }

    /// Prepares `moves` for the run of mover set `mover`: its slides, and
    /// its capture targets' values in every kind.
    fn prepare(&self, rules: &RuleSet, moves: &mut RunMoves, mover: Bits) {
        let target = self.captures.as_ref().map(|(idx, t)| (*idx, &t[..]));
        let (o, hand) = (self.tier.subspace.opponent as u32, self.tier.hands.mover);
        moves.prepare_many_holding(rules, mover, o, target, hand);
    }

    /// The slides of the board `(M, opponent)` of the run prepared in
    /// `moves`: each kind's value of its best slide that leaves the step,
    /// taken into `best` (kind `k` valued in `ways[k]`'s metric), and the
    /// number of distinct classes its quiet slides inside the step lead to
    /// (`keys` is scratch).
    #[inline]
    fn exits<const K: usize>(
        &self,
        rules: &RuleSet,
        moves: &RunMoves,
        opponent: Bits,
        ways: &[(Metric, u16); K],
        keys: &mut SlotSet,
        best: &mut [Option<Value>; K],
    ) -> usize {
        let better = |b: &mut Option<Value>, v: Value| {
            if b.is_none_or(|b| v.better_than(b)) {
                *b = Some(v);
            }
        };
        let win = Some(Value::Win(1));
        moves.captures_many(rules, opponent, self.ends_game, |next| {
            for (k, b) in best.iter_mut().enumerate() {
                better(
                    b,
                    match next {
                        None => Value::Win(1),
                        Some(next) => {
                            let next = next[k]
                                .get()
                                .expect("a solved table has a value at every position");
                            Step::Slide { capture: true }.value(ways[k].0, next)
                        }
                    },
                );
            }
            // Nothing is better than a win at once.
            best.iter().any(|&b| b != win)
        });
        match &self.quiet {
            QuietSlides::Inside(idx) => moves.quiet_classes(rules, idx, opponent, keys),
            QuietSlides::Exit(idx, tables) => {
                moves.quiet_successors(rules, idx, opponent, keys);
                for &slot in keys.distinct() {
                    for (k, b) in best.iter_mut().enumerate() {
                        let next = tables[k][slot as usize]
                            .get()
                            .expect("a solved table has a value at every position");
                        better(b, Step::Slide { capture: false }.value(ways[k].0, next));
                    }
                }
                0
            }
        }
    }
}

/// Step 1 of the module docs for one board: its initial value (or
/// [`Packed::NONE`]), its counter and its exit in one kind, from the best
/// value among its turns that leave the step (`exit`, its placements' and
/// slides') and the number of classes its quiet slides inside the step lead
/// to. An exit deeper than `limit` is a draw.
fn initial(exit: Option<Value>, classes: usize, limit: u16) -> (Packed, u8, Packed) {
    // Capping the best exit caps every exit: a win or loss past the limit
    // becomes a draw, which keeps the order of the others.
    let exit = exit.map(|v| value_at_counter(v, 0, limit).expect("counter 0"));
    let exit_packed = exit.map_or(Packed::NONE, Packed::new);
    let value = match exit {
        None if classes == 0 => Packed::new(Value::Loss(0)),
        Some(Value::Win(1)) => Packed::new(Value::Win(1)),
        Some(v) if classes == 0 => Packed::new(v),
        _ => Packed::NONE,
    };
    let holds = matches!(exit, Some(Value::Draw | Value::Win(_))) as usize;
    let count = if value == Packed::NONE {
        classes + holds
    } else {
        0
    };
    (value, count as u8, exit_packed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{solve_pair, solve_pair_horizon, Pair, Quiet, SolvedTable};
    use std::collections::HashMap;
    use tigadi_values::tier_steps;

    type Tables = HashMap<Tier, Vec<Packed>>;

    /// Every tier's game values (`horizon` false) or DTZ₁₀₀ values under
    /// `rules`, in memory, each step from the tables of the steps before it.
    fn solve_all(rules: &RuleSet, horizon: bool) -> Tables {
        let mut tables = Tables::new();
        for step in tier_steps(rules) {
            let step = match step[0].is_moving() {
                true => step,
                false => step_tiers(rules, step[0]),
            };
            let solved = if step[0].is_moving() {
                let pair = Pair::of(step[0].subspace);
                let targets: Vec<SolvedTable> = pair
                    .capture_targets()
                    .into_iter()
                    .map(|s| SolvedTable {
                        subspace: s,
                        values: &tables[&Tier::moving(s)],
                    })
                    .collect();
                let solved = if horizon {
                    solve_pair_horizon(rules, pair, &targets, &Quiet)
                } else {
                    solve_pair(rules, pair, &targets, &Quiet)
                };
                solved.unwrap()
            } else {
                let exits = of(&tables, &exit_tiers(rules, &step));
                let (metric, limit) = if horizon {
                    (Metric::Dtz, rules.quiet)
                } else {
                    (Metric::Dtc, crate::MAX_DTC)
                };
                let tables = &mut given(&exits);
                let rounds = Rounds::Adaptive;
                solve_step_in_hand_capped(rules, metric, &step, tables, None, &Quiet, rounds, limit)
                    .unwrap()
            };
            for (p, s) in solved.into_iter().enumerate() {
                // A pair's subspaces in its order, a step's tiers in `step`'s.
                let tier = match step[0].is_moving() {
                    true => Tier::moving(s.subspace),
                    false => step[p],
                };
                tables.insert(tier, s.values);
            }
        }
        tables
    }

    fn of<'t>(tables: &'t Tables, tiers: &[Tier]) -> Vec<TierTable<'t>> {
        let table = |&tier| TierTable {
            tier,
            values: &tables[&tier],
        };
        tiers.iter().map(table).collect()
    }

    /// The 100-turn kind's words and exits found beside the game's, with the
    /// game's draws settled after its rounds, are those of the kind alone
    /// with the game's draws known before its initial pass: the same words,
    /// exits and counts, so the same rounds.
    #[test]
    fn settled_draws_start_the_rounds_as_known_draws_do() {
        let mut settled = 0;
        for spec in ["lasker,pieces=3,quiet=4", "lasker,pieces=4"] {
            let rules = RuleSet::parse(spec).unwrap();
            let (game, rule) = (solve_all(&rules, false), solve_all(&rules, true));
            for step in tier_steps(&rules) {
                if step[0].is_moving() {
                    continue;
                }
                let step = step_tiers(&rules, step[0]);
                let space = PairSpace::of_subspaces(step.iter().map(|t| t.subspace));
                let exits = exit_tiers(&rules, &step);
                let (game_exits, rule_exits) = (of(&game, &exits), of(&rule, &exits));
                let own = of(&game, &step);
                let kind = |metric, limit, tables| Kind {
                    metric,
                    limit,
                    tables,
                    draws: None,
                };
                let (g, r) = (&mut given(&game_exits), &mut given(&rule_exits));
                let both = [
                    kind(Metric::Dtc, crate::MAX_DTC, g),
                    kind(Metric::Dtz, rules.quiet, r),
                ];
                let [g, mut fused] = initialise(&rules, &step, &space, both, &Quiet).unwrap();
                let game_found = g.rounds(&rules, &step, &space, &Quiet, Rounds::Adaptive);
                let undecided = fused.undecided;
                fused.settle_draws(&space, &game_found);
                settled += undecided - fused.undecided;
                let (r, d) = (&mut given(&rule_exits), &mut given(&own));
                let mut alone = kind(Metric::Dtz, rules.quiet, r);
                alone.draws = Some(d);
                let [alone] = initialise(&rules, &step, &space, [alone], &Quiet).unwrap();
                let what = format!("{spec} {}", step[0]);
                assert!(fused.words == alone.words, "{what}: words");
                assert!(fused.exits == alone.exits, "{what}: exits");
                assert_eq!(fused.undecided, alone.undecided, "{what}");
                assert_eq!(fused.first_level, alone.first_level, "{what}");
            }
        }
        assert!(settled > 0, "no undecided position was a game draw");
    }
}
