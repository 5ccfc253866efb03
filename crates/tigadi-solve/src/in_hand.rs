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
//!    part board by board. A position without a move is `Loss(0)`; one whose exit is `Win(1)`
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
//! the exit tables with the words.

use crate::evaluate::{for_each_slide_target, Step, TurnTarget};
use crate::leaving::{best_placements, PlacementTables, SuccessorKeys};
use crate::retrograde::{run_rounds, word, Exits, PairSpace, Rounds, Start, PADDING};
use crate::runs::SlotSet;
use crate::tables::{Observer, SolveError, SolvedSubspace};
use crate::value::Metric;
use crate::value::{Packed, Value};
use std::borrow::Cow;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU16, Ordering::Relaxed};
use tigadi_index::{MoverClass, SlotFinder, Subspace, SubspaceIndex};
use tigadi_rules::{Board, RuleSet};
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

    /// The table of `tier`, with its index, when it is among these.
    fn table(&self, tier: Tier) -> Option<(SubspaceIndex, &[Packed])> {
        self.0
            .iter()
            .find(|(t, _, _)| *t == tier)
            .map(|(_, idx, values)| (*idx, &values[..]))
    }

    /// The tables the placements of `tier` lead to ([`best_placements`]).
    fn placements(&self, tier: Tier) -> PlacementTables<'_> {
        PlacementTables::of(tier, |t| self.table(t))
    }

    /// Where the value of `board` (its player to move holding `hands`) lies in
    /// its tier's table. `last` is the last target's tier's place among these
    /// and the slot finder of its index: a board's successive exits often
    /// lead to one tier and one mover set (its slides that capture one goti,
    /// or its quiet slides when they leave the step), whose slots
    /// [`SlotFinder`] finds by toggling two points.
    fn entry(
        &self,
        hands: tigadi_values::Hands,
        board: Board,
        last: &mut (usize, SlotFinder),
    ) -> &Packed {
        let tier = Tier::new(hands, Subspace::of(board));
        if self.0.get(last.0).is_none_or(|(t, _, _)| *t != tier) {
            last.0 = self
                .0
                .iter()
                .position(|(t, _, _)| *t == tier)
                .unwrap_or_else(|| panic!("{tier} is an exit tier of the step"));
            last.1.reset();
        }
        let (_, idx, values) = &self.0[last.0];
        &values[last.1.slot(idx, board) as usize]
    }

    /// The slides of `board` of `tier` ([`for_each_slide_target`]; its
    /// placements' best comes from [`best_placements`]), generated
    /// once and gathered for [`initial`] to take [`AHEAD`] boards later: the
    /// number of distinct classes its quiet turns inside the step lead to
    /// (`inside` indexes the part they lead to when that is in the step;
    /// `keys` is scratch), the best value of its turns valued without a
    /// lookup, and, appended to `ahead` in the order of the turns, the place
    /// of every other turn's target value in its exit table (the quiet
    /// slides' too when they leave the step) with how the turn's value
    /// follows from it. Those places are prefetched: each read is a cache
    /// miss in a large table.
    fn gather<'s>(
        &'s self,
        rules: &RuleSet,
        tier: Tier,
        board: Board,
        inside: Option<&SubspaceIndex>,
        keys: &mut SlotSet,
        ahead: &mut VecDeque<Entry<'s>>,
    ) -> Gathered {
        let before = ahead.len();
        let slid = tier.flipped().hands;
        let mut last = (usize::MAX, SlotFinder::default());
        let mut exit = |hands, next, step| {
            let e = self.entry(hands, next, &mut last);
            crate::memory::prefetch(e);
            ahead.push_back((e, step));
        };
        // Every quiet turn (a slide, or the pass of a blocked player) leads
        // to a board whose mover set is this board's opponent set, so only
        // the count of their classes is needed, not their slots: when no
        // symmetry but the identity fixes that set, distinct slides lead to
        // distinct classes and are counted; otherwise each class is told by
        // its opponent key (as `RunMoves::quiet_classes` counts them).
        let mut quiet_class: Option<MoverClass> = None;
        let mut distinct = 0usize;
        keys.clear();
        let mut valued: Option<Value> = None;
        for_each_slide_target(rules, tier.hands, board, |t| match (t, inside) {
            (TurnTarget::Quiet(next), Some(idx)) => {
                debug_assert_eq!(next.mover, board.opponent, "a quiet turn's mover set");
                let c = *quiet_class.get_or_insert_with(|| idx.mover_class(board.opponent));
                if c.is_symmetric() {
                    keys.push(c.opponent_key(next.opponent) as u64);
                } else {
                    distinct += 1;
                }
            }
            (TurnTarget::Quiet(next), None) => exit(slid, next, Step::Slide { capture: false }),
            (TurnTarget::Exit { hands, board, step }, _) => exit(hands, board, step),
            (TurnTarget::Valued(v), _) => {
                if valued.is_none_or(|b| v.better_than(b)) {
                    valued = Some(v);
                }
            }
        });
        Gathered {
            exits: ahead.len() - before,
            classes: distinct + keys.distinct().len(),
            valued,
        }
    }
}

/// The place of a turn's target value in its exit table, and how the turn's
/// value follows from it: what [`Targets::gather`] appends.
type Entry<'a> = (&'a Packed, Step);

/// What [`Targets::gather`] found of one board's turns besides its entries.
struct Gathered {
    /// How many entries it appended.
    exits: usize,
    /// The distinct classes its quiet turns inside the step lead to.
    classes: usize,
    /// The best value of its turns valued without a lookup.
    valued: Option<Value>,
}

/// How many boards ahead of [`initial`] the entries are found and prefetched.
const AHEAD: usize = 2;

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
    mut draws: Option<&mut TableSource<'_, '_>>,
    observer: &dyn Observer,
    rounds: Rounds,
    limit: u16,
) -> Result<Vec<SolvedSubspace>, SolveError> {
    assert!(
        step.iter().all(|t| !t.is_moving()),
        "a step with gotis in hand"
    );
    let space = PairSpace::of_subspaces(step.iter().map(|t| t.subspace));
    let n = space.total as usize;
    let exit_values: Vec<AtomicU16> = (0..n).map(|_| AtomicU16::new(Packed::NONE.0)).collect();
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
        let targets = Targets::load(
            &part_exits(rules, step, p, tier.hands.after_placement()),
            tables,
        )?;
        best_placements(
            rules,
            metric,
            *tier,
            targets.placements(*tier),
            observer,
            |slot, key| exit_values[(start + slot) as usize].store(key, Relaxed),
        );
    }

    let mut words_raw = crate::memory::filled_vec(n, word(Packed::NONE, PADDING));
    let words = crate::retrograde::atomic_u32(&mut words_raw);
    observer.phase("init", n as u64);
    let level_one = [Packed::new(Value::Win(1)), Packed::new(Value::Loss(1))];
    let (mut undecided, mut first_level) = (0, 0);
    for (p, tier) in step.iter().enumerate() {
        // Part by part, each with its slides' tables and its known draws only.
        let targets = Targets::load(&part_exits(rules, step, p, tier.flipped().hands), tables)?;
        let known = draws.as_mut().map(|d| ask(d, *tier)).transpose()?;
        // Is the position in this slot a draw known in advance? Only slots
        // holding a position are asked (padding keeps its mark).
        let known_draw = |slot: u64| {
            known
                .as_ref()
                .is_some_and(|d| d[slot as usize].get() == Some(Value::Draw))
        };
        let (idx, start) = space.parts[p];
        let next_idx = inside(p).then(|| space.other(p).0);
        let (open, at_one, _) = space.sweep_part_runs(p, observer, |runs| {
            let run = idx.run_length();
            let mut keys = SlotSet::new();
            let (mut open, mut at_one) = (0u64, 0u64);
            let (mut ahead, mut gathered, mut current) =
                (VecDeque::new(), VecDeque::new(), Vec::new());
            for r in runs {
                let mut boards = idx.boards(r * run..(r + 1) * run);
                let mut queue = VecDeque::with_capacity(AHEAD + 1);
                loop {
                    while queue.len() <= AHEAD {
                        let Some((slot, board)) = boards.next() else {
                            break;
                        };
                        if known_draw(slot) {
                            // Decided before the rounds and never by them: no
                            // exit, no counter, never undecided.
                            let g = (start + slot) as usize;
                            words[g].store(word(Packed::DRAW, 0), Relaxed);
                            exit_values[g].store(Packed::NONE.0, Relaxed);
                            continue;
                        }
                        gathered.push_back(targets.gather(
                            rules,
                            *tier,
                            board,
                            next_idx.as_ref(),
                            &mut keys,
                            &mut ahead,
                        ));
                        queue.push_back(slot);
                    }
                    let Some(slot) = queue.pop_front() else {
                        break;
                    };
                    let turns = gathered.pop_front().expect("gathered per board");
                    current.clear();
                    current.extend(ahead.drain(..turns.exits));
                    let g = (start + slot) as usize;
                    let placed = placing[p].then(|| {
                        let key = exit_values[g].load(Relaxed);
                        debug_assert_ne!(key, 0, "a board with gotis in hand has an empty point");
                        SuccessorKeys::value(key)
                    });
                    let (value, count, exit) = initial(metric, &turns, placed, &current, limit);
                    open += (value == Packed::NONE) as u64;
                    at_one += level_one.contains(&value) as u64;
                    words[g].store(word(value, count), Relaxed);
                    exit_values[g].store(exit.0, Relaxed);
                }
            }
            (open, at_one, 0)
        });
        undecided += open;
        first_level += at_one;
    }
    let level = if (0..step.len()).any(inside) {
        let values: Vec<u16> = exit_values.into_iter().map(|v| v.into_inner()).collect();
        let hands = step.iter().map(|t| t.hands.mover).collect();
        let exits = Exits::new(values, hands, words);
        let start = Start {
            undecided,
            first_level,
            exits: Some(&exits),
        };
        run_rounds(rules, &space, words, start, observer, rounds, limit)
    } else {
        // Every move leaves the step: the initial pass decided everything.
        0
    };
    Ok(space.solved(words_raw, level))
}

/// Step 1 of the module docs for one board: its initial value (or
/// [`Packed::NONE`]), its counter and its exit, from what
/// [`Targets::gather`] found of its slides (`turns`, and `exits` the entries it
/// appended, now in the cache) and its best placement (`placed`, when its
/// player holds a goti). An exit deeper than `limit` is a draw.
fn initial(
    metric: Metric,
    turns: &Gathered,
    placed: Option<Value>,
    exits: &[Entry<'_>],
    limit: u16,
) -> (Packed, u8, Packed) {
    let mut exit = turns.valued;
    if let Some(v) = placed {
        if exit.is_none_or(|b| v.better_than(b)) {
            exit = Some(v);
        }
    }
    for &(entry, step) in exits {
        let next = entry
            .get()
            .expect("a solved table has a value at every position");
        let v = step.value(metric, next);
        if exit.is_none_or(|b| v.better_than(b)) {
            exit = Some(v);
        }
    }
    // Capping the best exit caps every exit: a win or loss past the limit
    // becomes a draw, which keeps the order of the others.
    let exit = exit.map(|v| value_at_counter(v, 0, limit).expect("counter 0"));
    let classes = turns.classes;
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
