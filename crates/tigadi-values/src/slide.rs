//! The one definition of a slide's (or a blocked player's pass's) value from
//! the position it leads to, in either phase, shared by the solver, `verify`
//! and probers: the counterpart of [`crate::placement`] for the turns that
//! move a goti on the board.

use crate::tier::Hands;
use crate::value::{Metric, Value};
use tigadi_rules::position::MIN_GOTIS;
use tigadi_rules::{Board, RuleSet, Slide, Successor};

/// Where a slide or a pass leads, before any value is read: what
/// [`for_each_slide_target`] gives, and [`SlideTarget::value`] turns into the
/// turn's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlideTarget {
    /// A capture that leaves the other player two gotis in all (board and
    /// hand): won at once, depth 1.
    Won,
    /// A capture: the position reached, for the other player to move, the
    /// hands swapped (its player to move's first).
    Capture(Board),
    /// A quiet slide or a pass: as [`SlideTarget::Capture`], nothing captured.
    Quiet(Board),
}

impl SlideTarget {
    /// The turn's value for the player who made it, in `metric`: `lookup(next)`
    /// is the value of the position reached for its player to move, in the
    /// same metric (called only where a position is reached).
    #[inline]
    pub fn value(self, metric: Metric, lookup: impl FnOnce(Board) -> Value) -> Value {
        match self {
            SlideTarget::Won => Value::Win(1),
            SlideTarget::Capture(next) => metric.before_turn(lookup(next), true),
            SlideTarget::Quiet(next) => metric.before_turn(lookup(next), false),
        }
    }
}

/// Calls `f` with every slide of the player to move of `board`, who holds
/// `hands.mover` gotis while the other holds `hands.opponent` ([`Hands::EMPTY`]
/// in the moving phase; gotis in hand only under Lasker's rule, docs/RULES.md
/// §8, which flies when the gotis on the board and in hand are three), and where
/// it leads, in move-generation order; then, where that player has no slide, an
/// empty hand and blocked players pass (`blocked=passes`), the pass (`None`).
/// A blocked player in a rule set where that loses gets no call.
pub fn for_each_slide_target(
    rules: &RuleSet,
    hands: Hands,
    board: Board,
    mut f: impl FnMut(Option<Slide>, SlideTarget),
) {
    let mut slides = false;
    board.for_each_slide_holding(rules, hands.mover, |slide, s| {
        slides = true;
        f(
            Some(slide),
            match s {
                Successor::Capture(next)
                    if next.mover.count_ones() + u32::from(hands.opponent) < MIN_GOTIS =>
                {
                    SlideTarget::Won
                }
                Successor::Capture(next) => SlideTarget::Capture(next),
                Successor::Quiet(next) | Successor::Pass(next) => SlideTarget::Quiet(next),
            },
        )
    });
    if !slides && hands.mover == 0 && !rules.blocked_loses {
        f(None, SlideTarget::Quiet(board.flipped()));
    }
}
