//! One position's value from its successors' values: the consistency check that
//! `verify` runs over finished tables, and the reduction the solvers' results
//! satisfy everywhere.

use tigadi_rules::{Board, RuleSet};
use tigadi_values::placement::{for_each_placement_target, PlacementTarget};
use tigadi_values::slide::{self, SlideTarget};
use tigadi_values::{Hands, Metric, Value};

/// The value of `board` for the player to move, recomputed from the values of its
/// successors: `lookup(next)` gives the value of a successor board for *its* player
/// to move (captures lead into other subspaces, quiet moves and passes into the
/// flipped one). A capture that leaves the opponent with two gotis wins at once
/// (DTC 1); a blocked player in a rule set where that loses has lost (DTC 0).
///
/// The solver's results satisfy `evaluate(b) == stored(b)` for every position; this
/// is what `verify` checks.
pub fn evaluate(rules: &RuleSet, board: Board, lookup: impl FnMut(Board) -> Value) -> Value {
    evaluate_with(rules, Metric::Dtc, board, lookup)
}

/// [`evaluate`] for values whose depth is `metric` (the lookup gives the
/// successors' values in the same metric): with [`Metric::Dtw`], a position's depth
/// to win from its successors' (a capture that does not end the game adds one turn
/// to the target's DTW). The DTW pass's results satisfy it everywhere ([`crate::dtw`]).
pub fn evaluate_with(
    rules: &RuleSet,
    metric: Metric,
    board: Board,
    mut lookup: impl FnMut(Board) -> Value,
) -> Value {
    let mut best = Best::default();
    slide::for_each_slide_target(rules, Hands::EMPTY, board, |_, t| {
        best.add(t.value(metric, &mut lookup))
    });
    best.value()
}

/// The reduction of [`evaluate`] on its own, for callers that read the successors'
/// values in another order than they are generated (`verify` prefetches them):
/// [`add`](Best::add) each successor's value from the mover's point of view
/// (`Value::Win(1)` for a capture that ends the game, otherwise the successor's
/// value `before_turn`), then [`value`](Best::value).
#[derive(Clone, Copy, Debug, Default)]
pub struct Best(Option<Value>);

impl Best {
    /// Takes one successor's value into account.
    #[inline]
    pub fn add(&mut self, v: Value) {
        if self.0.is_none_or(|b| v.better_than(b)) {
            self.0 = Some(v);
        }
    }

    /// The best value added; `Loss(0)` when none was (no move and no pass).
    #[inline]
    pub fn value(self) -> Value {
        self.0.unwrap_or(Value::Loss(0))
    }
}

/// A turn of a position with gotis in hand under Lasker's rule, as
/// [`for_each_turn_in_hand`] gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnInHand {
    /// A quiet slide, or the pass of a blocked player with an empty hand where
    /// blocked players pass: the board that follows, the other player to move
    /// with the hands swapped ([`tigadi_values::Tier::flipped`]).
    Quiet(Board),
    /// A capture or a placement: its value for the player to move, from the
    /// lookup (`Win(1)` for a capture that leaves the other player two gotis in
    /// all).
    Valued(Value),
}

/// Calls `f` with every turn of `board` whose player to move holds
/// `hands.mover` gotis and the other player `hands.opponent`, under a rule set
/// with Lasker's rule (`slides_in_hand`): the slides (flying when the gotis on
/// the board and in hand are three), the pass of a blocked player with nothing
/// in hand where blocked players pass, and the placements with each capture
/// choice ([`for_each_placement_target`]). `lookup(hands, next)` gives the
/// value, in `metric`, of `next` for its player to move holding `hands`. The
/// one list of such a position's turns ([`for_each_turn_target`] with the
/// values read at once): `verify` ([`evaluate_in_hand`]) reads it so.
pub fn for_each_turn_in_hand(
    rules: &RuleSet,
    metric: Metric,
    hands: Hands,
    board: Board,
    lookup: &impl Fn(Hands, Board) -> Value,
    mut f: impl FnMut(TurnInHand),
) {
    for_each_turn_target(rules, hands, board, |t| {
        f(match t {
            TurnTarget::Quiet(next) => TurnInHand::Quiet(next),
            TurnTarget::Valued(v) => TurnInHand::Valued(v),
            TurnTarget::Exit { hands, board, step } => {
                TurnInHand::Valued(step.value(metric, lookup(hands, board)))
            }
        })
    });
}

/// A turn of a position with gotis in hand under Lasker's rule before any
/// value is read, as [`for_each_turn_target`] gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnTarget {
    /// A quiet slide, or the pass of a blocked player with an empty hand where
    /// blocked players pass: as [`TurnInHand::Quiet`].
    Quiet(Board),
    /// A turn whose value needs no lookup: `Win(1)` for a capture that leaves
    /// the other player two gotis in all, a draw for the last placement that
    /// fills the board.
    Valued(Value),
    /// A capture by a slide, or a placement: `board` for its player to move
    /// holding `hands`, the turn worth [`Step::value`] of its value.
    Exit {
        /// The hands of the position reached, its player to move's first.
        hands: Hands,
        /// The position reached.
        board: Board,
        /// How the turn's value follows from the position's.
        step: Step,
    },
}

/// How a turn's value, for the player who makes it, follows from the value of
/// the position it leads to (for the other player).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A slide, capturing or not ([`Metric::before_turn`]).
    Slide {
        /// Did the slide capture?
        capture: bool,
    },
    /// A placement, capturing or not ([`Metric::before_placement`]).
    Placement {
        /// Did the placement capture?
        capture: bool,
    },
}

impl Step {
    /// The turn's value in `metric`, `next` the value (in the same metric) of
    /// the position it leads to.
    #[inline]
    pub fn value(self, metric: Metric, next: Value) -> Value {
        match self {
            Step::Slide { capture } => metric.before_turn(next, capture),
            Step::Placement { capture } => metric.before_placement(next, capture),
        }
    }
}

/// The turns of [`for_each_turn_in_hand`], in the same order, with where they
/// lead instead of their values: for callers that read the values later than
/// the turns are generated (the solver's initial pass, [`crate::in_hand`],
/// prefetches them).
pub fn for_each_turn_target(
    rules: &RuleSet,
    hands: Hands,
    board: Board,
    mut f: impl FnMut(TurnTarget),
) {
    for_each_slide_target(rules, hands, board, &mut f);
    if hands.mover > 0 {
        let after = hands.after_placement();
        for_each_placement_target(rules, hands, board, |_, t| {
            f(match t {
                PlacementTarget::Next { board, capture } => TurnTarget::Exit {
                    hands: after,
                    board,
                    step: Step::Placement { capture },
                },
                // Won or a full board: valued without a lookup, in any metric.
                t => TurnTarget::Valued(t.value(Metric::Dtc, |_| {
                    unreachable!("only a placement's next position is looked up")
                })),
            })
        });
    }
}

/// The turns of [`for_each_turn_target`] that are not placements (slides, and
/// the pass of a blocked player), in the same order: what the solver's initial
/// pass generates board by board, its placements' best coming from one pass
/// grouped by opponent set ([`crate::in_hand`]).
pub fn for_each_slide_target(
    rules: &RuleSet,
    hands: Hands,
    board: Board,
    mut f: impl FnMut(TurnTarget),
) {
    let slid = Hands::new(hands.opponent, hands.mover);
    slide::for_each_slide_target(rules, hands, board, |_, t| {
        f(match t {
            SlideTarget::Won => TurnTarget::Valued(Value::Win(1)),
            SlideTarget::Capture(next) => TurnTarget::Exit {
                hands: slid,
                board: next,
                step: Step::Slide { capture: true },
            },
            SlideTarget::Quiet(next) => TurnTarget::Quiet(next),
        })
    });
}

/// The value of `board` with `hands` in hand under Lasker's rule, recomputed
/// from its successors' values ([`for_each_turn_in_hand`]; a quiet turn counts
/// one turn more than its successor's depth). The solver's results satisfy it
/// everywhere; `verify` checks it on the tables of tiers with gotis in hand.
pub fn evaluate_in_hand(
    rules: &RuleSet,
    metric: Metric,
    hands: Hands,
    board: Board,
    lookup: &impl Fn(Hands, Board) -> Value,
) -> Value {
    let slid = Hands::new(hands.opponent, hands.mover);
    let mut best = Best::default();
    for_each_turn_in_hand(rules, metric, hands, board, lookup, |t| {
        best.add(match t {
            TurnInHand::Quiet(next) => metric.before_turn(lookup(slid, next), false),
            TurnInHand::Valued(v) => v,
        })
    });
    best.value()
}
