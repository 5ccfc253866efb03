//! The tier graph against the games themselves: every position a game of a
//! small rule set reaches by legal placements, played out with the rules crate's
//! referee (`Position::for_each_move`, `apply`), one position per symmetry class.
//! The tiers of the positions after `k` placements are [`tiers_after`]`(k)`, and
//! every move leads into one of [`successor_tiers`] of its tier (or ends the game).
//! The oracle knows nothing of tiers: only positions and moves.

use std::collections::{BTreeSet, HashMap};
use tigadi_index::{canonical, Subspace};
use tigadi_rules::{Board, Position, RuleSet};
use tigadi_values::{placing_turns, successor_tiers, tiers_after, Hands, Tier};

/// The tier a position is in, read off the position.
fn tier_of(p: &Position) -> Tier {
    let hands = Hands::new(p.hand(p.side), p.hand(p.side.other()));
    Tier::new(hands, Subspace::of(p.to_board()))
}

/// One position per class of board and hands.
fn key(p: &Position) -> (Board, Hands) {
    (canonical(p.to_board()), tier_of(p).hands)
}

fn check(spec: &str) {
    let rules = RuleSet::parse(spec).unwrap();
    let mut level: HashMap<(Board, Hands), Position> = HashMap::new();
    let start = Position::start(&rules);
    level.insert(key(&start), start);
    for k in 0..=placing_turns(&rules) {
        let reached: BTreeSet<Tier> = level
            .values()
            .filter(|p| p.ended(&rules).is_none())
            .map(tier_of)
            .collect();
        let expected: BTreeSet<Tier> = tiers_after(&rules, k).into_iter().collect();
        assert_eq!(reached, expected, "{spec}: tiers after {k} placements");
        if k == placing_turns(&rules) {
            break;
        }
        let mut next = HashMap::new();
        for p in level.values().filter(|p| p.ended(&rules).is_none()) {
            let tier = tier_of(p);
            let successors = successor_tiers(&rules, tier);
            p.for_each_move(&rules, |mv| {
                let q = p.apply(mv);
                if q.ended(&rules).is_none() {
                    let t = tier_of(&q);
                    assert!(
                        successors.contains(&t),
                        "{spec}: {p} ({tier}) moves {mv} into {t}, not in {successors:?}"
                    );
                }
                next.entry(key(&q)).or_insert(q);
            });
        }
        level = next;
    }
}

#[test]
fn tiers_match_the_positions_games_reach() {
    // Captures while placing (three gotis make a line before the hands empty).
    check("tigadi,pieces=4");
}
