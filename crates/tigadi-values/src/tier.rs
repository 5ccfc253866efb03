//! Tiers: the one key of the whole game. A position's tier is the gotis each
//! player holds in hand ([`Hands`]) and the goti counts on the board
//! ([`Subspace`]); a table, a job step, a verify step and a progress line are one
//! tier each. A tier with both hands empty is a moving-phase tier.
//!
//! [`successor_tiers`] is the one place that knows which tiers a tier's moves
//! lead to; everything that orders or loads tiers asks it ([`reached_tiers`],
//! [`tier_steps`], [`Tier::has_moves_inside`]). Without Lasker's rule a tier with
//! a goti in hand has no moves inside it (every turn is a placement, which empties
//! a hand by one), and a tier with empty hands has slides (and passes) inside it,
//! between the board counts `m v o` and `o v m`, which are solved together as one
//! pair. Under Lasker's rule (`slides=always`) a player with gotis in hand may
//! slide instead of placing, so `h1,h2 m v o` and `h2,h1 o v m` reach each other
//! whenever both sides have a goti on the board, and the hands no longer follow
//! from the placements made ([`reached_tiers`] lists the tiers a game reaches).

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

    /// The placements `k` made when these hands are those of the standard
    /// alternation after `k` placements ([`Hands::after_placements`]); `None` for
    /// empty hands and for hands no alternate placing gives (under Lasker's rule,
    /// where a turn may slide instead: `9,10` in hand, say). File names and table
    /// headers spell the first by `k` and the others by both hands.
    pub fn standard_placements(self, rules: &RuleSet) -> Option<u32> {
        let total = self.mover as u32 + self.opponent as u32;
        if self.is_empty() || total > 2 * rules.pieces as u32 {
            return None;
        }
        let k = self.placements(rules);
        (Hands::after_placements(rules, k) == self).then_some(k)
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

    /// The tier with the roles swapped, the hands and the board counts alike:
    /// where a slide or a pass leads (`h1,h2 m v o` to `h2,h1 o v m`).
    pub fn flipped(self) -> Tier {
        Tier::new(
            Hands::new(self.hands.opponent, self.hands.mover),
            self.subspace.flipped(),
        )
    }

    /// Where a slide of this tier's player to move that closes a line leads:
    /// the flipped hands, the opponent one goti fewer on the board, the mover's
    /// gotis as they were. `None` when such a capture ends the game, the
    /// opponent left fewer than three gotis on the board and in hand (or it
    /// has none on the board to take).
    pub fn slide_capture(self) -> Option<Tier> {
        let (h, s) = (self.hands, self.subspace);
        (s.opponent > 0 && s.opponent - 1 + h.opponent >= MIN_GOTIS).then(|| {
            let after = Subspace::new(s.opponent - 1, s.mover);
            Tier::new(Hands::new(h.opponent, h.mover), after)
        })
    }

    /// Do some moves of this tier lead back into its step (itself, or its
    /// [`Tier::flipped`] partner when each reaches the other)? Then it is solved
    /// by rounds; otherwise by one pass over its successors' values. Read off the
    /// rules' moves ([`successor_tiers`]): the moving-phase tiers of every rule
    /// set (slides and passes swap the roles), and under Lasker's rule
    /// (`slides=always`) also every tier with gotis in hand where both sides have
    /// a goti on the board.
    pub fn has_moves_inside(self, rules: &RuleSet) -> bool {
        tier_moves(rules, self).contains(&self) || step_partner(rules, self).is_some()
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
/// Under Lasker's rule: the [`reached_tiers`] with these hands.
pub fn tiers_with_hands(rules: &RuleSet, hands: Hands) -> Vec<Tier> {
    if rules.slides_in_hand {
        // Lasker's rule: hands do not follow from the placements made.
        return reached_tiers(rules)
            .into_iter()
            .filter(|t| t.hands == hands)
            .collect();
    }
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
/// sorted: the one place that knows the tier graph ([`tier_moves`] less the tier
/// itself).
///
/// - A placement: the placer's hand one smaller and the roles swapped
///   ([`Hands::after_placement`]), `(o, m + 1)` on the board, and for a capture
///   `(o - 1, m + 1)` (when the placer then has three gotis on the board, the
///   other player one, and keeps three or more in all: a capture below three ends
///   the game and leads to no tier).
/// - A slide or a pass (with an empty hand, or under Lasker's rule
///   `slides_in_hand` with a goti on the board whatever the hand): the roles
///   swap, hands and board counts alike ([`Tier::flipped`]), and a capture, when
///   the slider has three gotis on the board, leaves `(o - 1) v m`. So the
///   moving-phase tiers `m v o` and `o v m` reach each other and are solved as a
///   pair; under Lasker's rule so are `h1,h2 m v o` and `h2,h1 o v m` when both
///   sides have a goti on the board.
/// - A tier whose game has ended (a side below three gotis in all, or the full
///   board, a draw by docs/RULES.md §8) is no successor.
pub fn successor_tiers(rules: &RuleSet, tier: Tier) -> Vec<Tier> {
    let mut out = tier_moves(rules, tier);
    out.retain(|&t| t != tier);
    out
}

/// The tiers the moves of `tier` lead to, `tier` itself included when a move
/// stays in it, each once, sorted (see [`successor_tiers`]). Nothing for a tier
/// whose game has ended.
fn tier_moves(rules: &RuleSet, tier: Tier) -> Vec<Tier> {
    let (h, s) = (tier.hands, tier.subspace);
    if tier_ended(tier) {
        return Vec::new();
    }
    // A capture of one of `o` enemy gotis on the board, the enemy holding `hand`:
    // only while the game goes on after it.
    let captures = |o: u8, hand: u8| o > 0 && o - 1 + hand >= MIN_GOTIS;
    let mut out = Vec::new();
    if h.mover > 0 {
        let next = h.after_placement();
        out.push(Tier::new(next, Subspace::new(s.opponent, s.mover + 1)));
        if s.mover + 1 >= MIN_GOTIS && captures(s.opponent, h.opponent) {
            out.push(Tier::new(next, Subspace::new(s.opponent - 1, s.mover + 1)));
        }
    }
    if s.mover > 0 && (h.mover == 0 || rules.slides_in_hand) {
        out.push(tier.flipped());
        if s.mover >= MIN_GOTIS {
            out.extend(tier.slide_capture());
        }
    }
    out.retain(|&t| !tier_ended(t));
    out.sort();
    out.dedup();
    out
}

/// Has the game ended in every position of `t`, before anyone moves: a side
/// with fewer than three gotis in all (board and hand), or every point taken
/// (only after the last placement of 12 a side, a draw by docs/RULES.md §8)?
fn tier_ended(t: Tier) -> bool {
    let (h, s) = (t.hands, t.subspace);
    s.mover + h.mover < MIN_GOTIS
        || s.opponent + h.opponent < MIN_GOTIS
        || (s.mover + s.opponent) as usize == tigadi_rules::POINTS
}

/// The other tier of `tier`'s step, if it has one: its [`Tier::flipped`]
/// partner when each reaches the other (by slides or passes). Moves lead out of
/// a step only to tiers with fewer gotis in hand or on the board, so a step is
/// one tier or such a pair, and the tier graph has no other cycle.
fn step_partner(rules: &RuleSet, tier: Tier) -> Option<Tier> {
    let other = tier.flipped();
    (other != tier
        && tier_moves(rules, tier).contains(&other)
        && tier_moves(rules, other).contains(&tier))
    .then_some(other)
}

/// Every tier a game under `rules` reaches from the start, sorted: the start
/// and everything [`successor_tiers`] leads to from it. Under Lasker's rule the
/// hands no longer follow from the placements made, and this is the one list of
/// its tiers.
pub fn reached_tiers(rules: &RuleSet) -> BTreeSet<Tier> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![Tier::start(rules)];
    while let Some(t) = todo.pop() {
        if seen.insert(t) {
            todo.extend(successor_tiers(rules, t));
        }
    }
    seen
}

/// Every tier a game under `rules` reaches ([`reached_tiers`]) in steps, in
/// dependency order: [`tier_steps_from`] the start.
pub fn tier_steps(rules: &RuleSet) -> Vec<Vec<Tier>> {
    tier_steps_from(rules, Tier::start(rules))
}

/// `tier` and every tier its moves lead to, directly or through others, in
/// steps, in dependency order: a step is one tier, or a tier and its
/// [`Tier::flipped`] partner that reach each other (solved together, like the
/// moving-phase pairs), the greater [`Tier`] first (its head: of a hands-empty
/// pair, the side with more gotis on the board to move), and every tier a
/// step's moves lead to out of it is in an earlier step. The order is fixed by
/// the rules alone (a depth-first walk, the successors in sorted order).
pub fn tier_steps_from(rules: &RuleSet, tier: Tier) -> Vec<Vec<Tier>> {
    fn visit(rules: &RuleSet, tier: Tier, done: &mut BTreeSet<Tier>, out: &mut Vec<Vec<Tier>>) {
        let mut step = vec![tier];
        step.extend(step_partner(rules, tier));
        step.sort_by(|a, b| b.cmp(a));
        if !done.insert(step[0]) {
            return;
        }
        for &t in &step {
            for s in successor_tiers(rules, t) {
                if !step.contains(&s) {
                    visit(rules, s, done, out);
                }
            }
        }
        out.push(step);
    }
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    visit(rules, tier, &mut done, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subspaces(rules: &RuleSet, placed: u32) -> Vec<Subspace> {
        tiers_after(rules, placed)
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

    #[test]
    fn steps_order_every_tier_after_its_successors() {
        for spec in ["tigadi", "navakankari", "morris", "morabaraba", "lasker"] {
            for n in [3, 4, 9] {
                let r = RuleSet::parse(&format!("{spec},pieces={n}")).unwrap();
                let mut done = BTreeSet::new();
                for step in tier_steps(&r) {
                    for &t in &step {
                        // Without Lasker's rule, rounds exactly where the hands are empty.
                        if !r.slides_in_hand {
                            assert_eq!(t.has_moves_inside(&r), t.is_moving(), "{spec} {t}");
                        }
                        for s in successor_tiers(&r, t) {
                            assert!(step.contains(&s) || done.contains(&s), "{spec} {t} {s}");
                        }
                    }
                    for t in step {
                        assert!(done.insert(t), "{spec} {t}");
                    }
                }
                assert_eq!(done, reached_tiers(&r), "{spec},pieces={n}");
            }
        }
    }
}
