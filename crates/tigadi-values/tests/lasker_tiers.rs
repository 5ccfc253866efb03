//! The tier graph of Lasker's rule (`slides=always`) against the game itself:
//! every position a game of `lasker,pieces=N` reaches from the empty board, one
//! per symmetry class of board and hands, played out with the rules crate's
//! referee (`Position::for_each_move`, `apply`, `ended`). The oracle knows
//! nothing of tiers: only positions and moves. It checks that the tiers the game
//! reaches are [`reached_tiers`], that the tiers each tier's moves reach (other
//! than itself) are exactly [`successor_tiers`], that [`Tier::has_moves_inside`]
//! says whether a move stays in the tier's step, and that [`tier_steps`] lists
//! every tier once, after every tier its moves lead to out of its step.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use tigadi_index::{canonical, Subspace};
use tigadi_rules::{Board, Position, RuleSet};
use tigadi_values::{reached_tiers, successor_tiers, tier_steps, Hands, Tier};

/// The tier a position is in, read off the position.
fn tier_of(p: &Position) -> Tier {
    let hands = Hands::new(p.hand(p.side), p.hand(p.side.other()));
    Tier::new(hands, Subspace::of(p.to_board()))
}

/// One position per class of board and hands.
fn key(p: &Position) -> (Board, Hands) {
    (canonical(p.to_board()), tier_of(p).hands)
}

/// Every tier the game reaches, with the tiers its moves reach (itself
/// included), from a walk over every position a game reaches.
fn played_tier_graph(rules: &RuleSet) -> BTreeMap<Tier, BTreeSet<Tier>> {
    let start = Position::start(rules);
    let mut seen = HashSet::from([key(&start)]);
    let mut todo = vec![start];
    let mut graph: BTreeMap<Tier, BTreeSet<Tier>> = BTreeMap::new();
    while let Some(p) = todo.pop() {
        if p.ended(rules).is_some() {
            continue;
        }
        let reached = graph.entry(tier_of(&p)).or_default();
        p.for_each_move(rules, |mv| {
            let q = p.apply(mv);
            if q.ended(rules).is_none() {
                reached.insert(tier_of(&q));
            }
            if seen.insert(key(&q)) {
                todo.push(q);
            }
        });
    }
    graph
}

fn check(spec: &str) {
    let rules = RuleSet::parse(spec).unwrap();
    assert!(rules.slides_in_hand, "{spec}");
    let graph = played_tier_graph(&rules);
    let played: BTreeSet<Tier> = graph.keys().copied().collect();
    assert_eq!(
        reached_tiers(&rules),
        played,
        "{spec}: the tiers a game reaches"
    );
    let mut with_gotis_in_hand_inside = 0;
    for (&t, reached) in &graph {
        let mut out = reached.clone();
        out.remove(&t);
        let listed: BTreeSet<Tier> = successor_tiers(&rules, t).into_iter().collect();
        assert_eq!(listed, out, "{spec}: the tiers the moves of {t} lead to");
        let flipped = t.flipped();
        let inside = reached.contains(&t)
            || (flipped != t && reached.contains(&flipped) && graph[&flipped].contains(&t));
        assert_eq!(
            t.has_moves_inside(&rules),
            inside,
            "{spec}: moves inside {t}"
        );
        if inside && !t.is_moving() {
            with_gotis_in_hand_inside += 1;
        }
    }
    // Lasker's point: tiers with gotis in hand that need rounds.
    assert!(with_gotis_in_hand_inside > 0, "{spec}");
    let steps = tier_steps(&rules);
    let mut done = BTreeSet::new();
    for step in &steps {
        assert!(!step.is_empty() && step.len() <= 2, "{spec}: step {step:?}");
        if let [a, b] = step[..] {
            assert_eq!(a.flipped(), b, "{spec}: a step of two is a flipped pair");
            assert!(a.has_moves_inside(&rules), "{spec}: step {step:?}");
        }
        for t in step {
            for s in &graph[t] {
                assert!(
                    step.contains(s) || done.contains(s),
                    "{spec}: {t} leads to {s}, not solved before its step"
                );
            }
        }
        for &t in step {
            assert!(done.insert(t), "{spec}: {t} in two steps");
        }
    }
    assert_eq!(done, played, "{spec}: the steps hold every tier");
}

#[test]
fn lasker_tiers_match_the_positions_games_reach_3() {
    check("lasker,pieces=3");
}

#[test]
#[ignore = "walks every position of four a side: about 36 s and 350 MB in release; run with --ignored"]
fn lasker_tiers_match_the_positions_games_reach_4() {
    // Captures that leave the game going on (four a side).
    check("lasker,pieces=4");
}
