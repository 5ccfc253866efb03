//! "The 100-turn table follows from the game table", written once: the value
//! under the 100-turn rule that a position takes from its game value where
//! nothing its moves lead to changes under the rule ([`from_game`]); whether a
//! table's values under the rule are all so ([`follows_from_game`]); and where
//! they differ from its game values, which its predecessors read
//! ([`differing_slots`]). The pair solver starts from it
//! ([`crate::solve_pair_horizon_from_game`]), the job writes a tier with gotis in
//! hand from its game table where no successor differs, and `verify` checks a
//! horizon table's category section alone where its values follow.
//!
//! - A tier with moves inside it (slides and passes count quiet turns): a win or
//!   loss whose DTC exceeds the turn limit is a draw under the rule, every other
//!   value is its game value ([`capped`]).
//! - A tier whose moves all leave it (placements, with no quiet-turn counter):
//!   its value under the rule is a function of its successors' values alone, so
//!   it is its game value wherever theirs are.

use rayon::prelude::*;
use tigadi_rules::RuleSet;
use tigadi_values::Packed;
use tigadi_values::Tier;

/// A pair's game-theoretic values with every win and loss whose DTC exceeds the
/// turn limit made a draw, the rest (padding too) as it is: its DTC₁₀₀ values
/// where no capture target's win, draw or loss changes under the rule, and where
/// [`crate::solve_pair_horizon_from_game`] starts. Returns the number of rounds the
/// pass would report: the longest DTC left, capped at the limit, plus the one
/// that finds nothing.
pub fn cap_at_limit(rules: &RuleSet, values: &mut [Packed]) -> u32 {
    values
        .par_iter_mut()
        .map(|v| {
            let rounds = v
                .get()
                .and_then(|x| x.dtc())
                .map_or(1, |d| d.min(rules.quiet) as u32 + 1);
            *v = capped(rules, *v);
            rounds
        })
        .max()
        .unwrap_or(1)
}

/// One value as [`cap_at_limit`] leaves it: a draw if its DTC exceeds the turn
/// limit, else itself (padding too).
#[inline]
pub fn capped(rules: &RuleSet, v: Packed) -> Packed {
    match v.get().and_then(|x| x.dtc()) {
        Some(d) if d > rules.quiet => Packed::DRAW,
        _ => v,
    }
}

/// The value under the rule that a position whose game value is `game` takes
/// when nothing its moves lead to changes under the rule (see the module doc):
/// [`capped`] in a tier with moves inside it (`inside`, the tier's
/// `has_moves_inside`, which walks the tier's moves: ask it once per table, not
/// once per slot), `game` itself otherwise.
#[inline]
pub fn from_game(rules: &RuleSet, inside: bool, game: Packed) -> Packed {
    if inside {
        capped(rules, game)
    } else {
        game
    }
}

/// Do `rule` (a table of `tier`'s values under the rule) and `game` (its game
/// values) agree at every slot as [`from_game`] says, padding too?
pub fn follows_from_game(rules: &RuleSet, tier: Tier, rule: &[Packed], game: &[Packed]) -> bool {
    let inside = tier.has_moves_inside(rules);
    rule.len() == game.len()
        && rule
            .par_iter()
            .zip(game.par_iter())
            .all(|(&r, &g)| from_game(rules, inside, g) == r)
}

/// The slots at which `rule` (a table's values under the rule) holds a value
/// other than `game` (its game values, as loaded: fillers in padding), in order;
/// a padding slot may be among them. A position whose moves lead into none of
/// these slots has its game value under the rule too, when its tier's moves all
/// leave it ([`from_game`]): the list is taken against the game values as they
/// are, not as [`from_game`] gives them, because that is what the position's own
/// game value was computed from.
pub fn differing_slots(rule: &[Packed], game: &[Packed]) -> Vec<u64> {
    rule.par_iter()
        .zip(game.par_iter())
        .enumerate()
        .filter(|(_, (r, g))| r.is_some() && r != g)
        .map(|(i, _)| i as u64)
        .collect()
}
