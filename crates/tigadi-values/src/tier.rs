//! Tiers: the one key of the whole game. A position's tier is the gotis each
//! player holds in hand ([`Hands`]) and the goti counts on the board
//! ([`Subspace`]); a table, a job step, a verify step and a progress line are one
//! tier each. A tier with both hands empty is a moving-phase tier.
//!
//! [`successor_tiers`] is the one place that knows which tiers a tier's moves
//! lead to; everything that orders or loads tiers asks it. Under the rule sets of
//! today a tier with a goti in hand has no moves inside it (every turn is a
//! placement, which empties a hand by one), and a tier with empty hands has slides
//! (and passes) inside it, between the board counts `m v o` and `o v m`, which are
//! solved together as one pair.

use std::collections::BTreeSet;
use tigadi_index::{Subspace, MIN_GOTIS};
use tigadi_rules::RuleSet;

/// Gotis still in hand: `mover` for the player to move, `opponent` for the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Hands {
    /// Gotis the player to move holds.
    pub mover: u8,
    /// Gotis the other player holds.
    pub opponent: u8,
}

impl Hands {
    /// Both hands empty: the moving phase.
    pub const EMPTY: Hands = Hands {
        mover: 0,
        opponent: 0,
    };

    /// The hands `(mover, opponent)`.
    pub fn new(mover: u8, opponent: u8) -> Hands {
        Hands { mover, opponent }
    }

    /// Are both hands empty (a moving-phase position)?
    pub fn is_empty(self) -> bool {
        self == Hands::EMPTY
    }

    /// The hands after `placements` placements made alternately from the start
    /// (`pieces` each, the first player to move): the player to move has placed
    /// `placements / 2`, the other `(placements + 1) / 2`.
    pub fn after_placements(rules: &RuleSet, placements: u32) -> Hands {
        let n = rules.pieces as u32;
        Hands::new(
            (n - placements / 2) as u8,
            (n - placements.div_ceil(2)) as u8,
        )
    }

    /// The placements made to reach these hands from the start: `2 * pieces` less
    /// the gotis in hand.
    pub fn placements(self, rules: &RuleSet) -> u32 {
        2 * rules.pieces as u32 - self.mover as u32 - self.opponent as u32
    }

    /// The hands after the player to move places a goti: the roles swap and the
    /// placer holds one fewer.
    pub fn after_placement(self) -> Hands {
        Hands::new(self.opponent, self.mover - 1)
    }
}

/// A tier: the hands and the goti counts on the board (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tier {
    /// Gotis in hand.
    pub hands: Hands,
    /// Gotis on the board.
    pub subspace: Subspace,
}

impl Tier {
    /// The tier of `hands` and `subspace`.
    pub fn new(hands: Hands, subspace: Subspace) -> Tier {
        Tier { hands, subspace }
    }

    /// The moving-phase tier of `subspace` (both hands empty).
    pub fn moving(subspace: Subspace) -> Tier {
        Tier::new(Hands::EMPTY, subspace)
    }

    /// The tier of `subspace` after `placed` placements made alternately from the
    /// start ([`Hands::after_placements`]).
    pub fn after_placements(rules: &RuleSet, placed: u32, subspace: Subspace) -> Tier {
        Tier::new(Hands::after_placements(rules, placed), subspace)
    }

    /// The placements made to reach this tier (see [`Hands::placements`]); `None`
    /// for a moving-phase tier.
    pub fn placements(self, rules: &RuleSet) -> Option<u32> {
        (!self.is_moving()).then(|| self.hands.placements(rules))
    }

    /// The first tier of the game: the empty board, every goti in hand.
    pub fn start(rules: &RuleSet) -> Tier {
        Tier::new(Hands::after_placements(rules, 0), Subspace::new(0, 0))
    }

    /// Is this a moving-phase tier (both hands empty)?
    pub fn is_moving(self) -> bool {
        self.hands.is_empty()
    }

    /// Do some moves of this tier lead to positions of the same tier? Then it is
    /// solved by rounds; otherwise by one pass over its successors' values. Under
    /// the rule sets of today: the moving-phase tiers (slides and passes swap the
    /// roles, so `m v o` and `o v m` reach each other and are solved as a pair).
    pub fn has_moves_inside(self) -> bool {
        self.is_moving()
    }
}

impl std::fmt::Display for Tier {
    /// `4v3` for a moving-phase tier, `4v3 with 2+3 in hand` otherwise.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_moving() {
            write!(f, "{}", self.subspace)
        } else {
            let h = self.hands;
            write!(
                f,
                "{} with {}+{} in hand",
                self.subspace, h.mover, h.opponent
            )
        }
    }
}

/// Number of placements in a game under `rules`: `2 * pieces`. The placing tiers
/// are those after `0..placing_turns(rules)` placements.
pub fn placing_turns(rules: &RuleSet) -> u32 {
    2 * rules.pieces as u32
}

/// The tiers a game reaches with `hands` in hand (those reached from the start by
/// alternate placements, hands after [`Hands::after_placements`]): each
/// placement a quiet one or (when the placer then has three gotis or more and the
/// other player has one on the board) a capture that leaves the captured side three
/// gotis or more in all. Sorted by subspace. With empty hands: the tiers after the
/// last placement that the moving phase plays on (see [`successor_tiers`]).
pub fn tiers_with_hands(rules: &RuleSet, hands: Hands) -> Vec<Tier> {
    let placements = hands.placements(rules);
    let mut boards = BTreeSet::from([Subspace::new(0, 0)]);
    for k in 0..placements {
        let hand = Hands::after_placements(rules, k);
        boards = boards
            .into_iter()
            .flat_map(|s| placement_subspaces(hand, s))
            .collect();
    }
    boards
        .into_iter()
        .map(|s| Tier::new(hands, s))
        .filter(|t| !t.is_moving() || reached_moving(*t))
        .collect()
}

/// The tiers after `placed` placements made alternately from the start
/// ([`tiers_with_hands`] of [`Hands::after_placements`]).
pub fn tiers_after(rules: &RuleSet, placed: u32) -> Vec<Tier> {
    tiers_with_hands(rules, Hands::after_placements(rules, placed))
}

/// The board counts the placements from board counts `sub` with `hands` lead to:
/// `(o, m + 1)` for quiet placements and `(o - 1, m + 1)` for captures, when a
/// capture leaves the captured side three gotis or more in all.
fn placement_subspaces(hands: Hands, sub: Subspace) -> Vec<Subspace> {
    let placer = sub.mover + 1;
    let mut out = vec![Subspace::new(sub.opponent, placer)];
    if placer >= MIN_GOTIS && sub.opponent > 0 && sub.opponent - 1 + hands.opponent >= MIN_GOTIS {
        out.push(Subspace::new(sub.opponent - 1, placer));
    }
    out
}

/// Is the moving-phase tier `t`, reached by the last placement, one the tables
/// hold: both sides three gotis or more, the board not full (a full board after
/// the last placement is a draw, docs/RULES.md §8)?
fn reached_moving(t: Tier) -> bool {
    let s = t.subspace;
    s.mover >= MIN_GOTIS
        && s.opponent >= MIN_GOTIS
        && (s.mover + s.opponent) as usize != tigadi_rules::POINTS
}

/// The tiers the moves of `tier` lead to, other than `tier` itself, each once,
/// sorted: the one place that knows the tier graph.
///
/// - A placing tier (a goti in hand): its placements lead to the hands
///   [`Hands::after_placement`] with `(o, m + 1)` on the board, and its captures
///   to `(o - 1, m + 1)`, among the tiers a game reaches ([`tiers_with_hands`]);
///   after the last placement, the moving-phase tiers (both sides three or more,
///   the full board left out).
/// - A moving-phase tier `m v o`: slides and passes lead to `o v m` (solved with
///   it as a pair), captures to `(o - 1) v m` when the opponent keeps three gotis
///   or more ([`Subspace::capture_target`]).
pub fn successor_tiers(rules: &RuleSet, tier: Tier) -> Vec<Tier> {
    let sub = tier.subspace;
    if tier.is_moving() {
        let mut out = vec![Tier::moving(sub.flipped())];
        out.extend(sub.capture_target().map(Tier::moving));
        out.retain(|&t| t != tier);
        out.sort();
        out.dedup();
        return out;
    }
    let next = tier.hands.after_placement();
    let reached = tiers_with_hands(rules, next);
    let mut out: Vec<Tier> = placement_subspaces(tier.hands, sub)
        .into_iter()
        .map(|s| Tier::new(next, s))
        .filter(|t| reached.contains(t))
        .collect();
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subspaces(rules: &RuleSet, placed: u32) -> Vec<Subspace> {
        let hands = Hands::after_placements(rules, placed);
        tiers_with_hands(rules, hands)
            .into_iter()
            .map(|t| t.subspace)
            .collect()
    }

    #[test]
    fn hands_and_tiers_after_placements() {
        let r = RuleSet::parse("tigadi,pieces=4").unwrap();
        assert_eq!(placing_turns(&r), 8);
        assert_eq!(Hands::after_placements(&r, 0), Hands::new(4, 4));
        assert_eq!(Hands::after_placements(&r, 1), Hands::new(4, 3));
        assert_eq!(Hands::after_placements(&r, 7), Hands::new(1, 0));
        assert_eq!(Hands::after_placements(&r, 8), Hands::EMPTY);
        for k in 0..=8 {
            assert_eq!(Hands::after_placements(&r, k).placements(&r), k);
        }
        assert_eq!(subspaces(&r, 0), [Subspace::new(0, 0)]);
        assert_eq!(subspaces(&r, 1), [Subspace::new(0, 1)]);
        // No capture before a side's third placement.
        assert_eq!(subspaces(&r, 4), [Subspace::new(2, 2)]);
        // Bone's third placement (the 5th) may capture one of Seed's two.
        assert_eq!(subspaces(&r, 5), [Subspace::new(1, 3), Subspace::new(2, 3)]);
        // Every tier's successors are tiers of the next hands.
        for placed in 0..placing_turns(&r) {
            let hands = Hands::after_placements(&r, placed);
            let next = tiers_with_hands(&r, hands.after_placement());
            for t in tiers_with_hands(&r, hands) {
                let succ = successor_tiers(&r, t);
                assert!(!succ.is_empty(), "{t}");
                assert!(succ.iter().all(|s| next.contains(s)), "{t}");
            }
        }
    }
}
