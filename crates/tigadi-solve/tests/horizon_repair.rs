//! The DTC₁₀₀ tables found from the game-theoretic ones
//! (`solve_pair_horizon_from_game`, what `tigadi solve` runs) against the
//! horizon pass (`solve_pair_horizon`, checked against the naive oracle at every
//! counter in tests/horizon_agreement.rs): the same values in every slot and the
//! same round count, pair by pair, each pair's targets taken from its own
//! earlier results. Small turn limits make the rule change values in many
//! pairs (the tests assert that some pairs are recomputed and that those
//! recomputations change values beyond capping the DTCs), and both blocked-player
//! rules and flying are covered.

use std::collections::HashMap;
use tigadi_index::Subspace;
use tigadi_rules::RuleSet;
use tigadi_solve::Quiet;
use tigadi_solve::{
    cap_at_limit, pairs_up_to_pieces, solve_pair_horizon, solve_pair_horizon_from_game,
    solve_up_to, Packed, SolvedTable,
};

/// What one rule set's comparison saw.
#[derive(Debug, Default)]
struct Seen {
    pairs: usize,
    /// Pairs with a capture target whose win, draw or loss the rule changes.
    recomputed: usize,
    /// Slots whose DTC₁₀₀ differs from the capped game value.
    repaired: u64,
}

fn as_views(v: &[(Subspace, Vec<Packed>)]) -> Vec<SolvedTable<'_>> {
    SolvedTable::views(v.iter().map(|(s, t)| (s, t)))
}

fn compare(rules: &str, max_gotis: u32) -> Seen {
    let rules = RuleSet::parse(rules).unwrap();
    let game = solve_up_to(&rules, max_gotis, &Quiet, |_, _, _| {});
    let mut pass: HashMap<Subspace, Vec<Packed>> = HashMap::new();
    let mut ours: HashMap<Subspace, Vec<Packed>> = HashMap::new();
    let mut seen = Seen::default();
    for pair in pairs_up_to_pieces(rules.pieces, max_gotis) {
        let targets = pair.capture_targets();
        let view = |m: &HashMap<Subspace, Vec<Packed>>| -> Vec<(Subspace, Vec<Packed>)> {
            targets.iter().map(|t| (*t, m[t].clone())).collect()
        };
        let (game_t, pass_t, ours_t) = (view(&game), view(&pass), view(&ours));
        let reference = solve_pair_horizon(&rules, pair, &as_views(&pass_t), &Quiet).unwrap();
        let own: Vec<Vec<Packed>> = pair.subspaces().iter().map(|s| game[s].clone()).collect();
        let found = solve_pair_horizon_from_game(
            &rules,
            pair,
            own,
            game_t.clone(),
            &as_views(&ours_t),
            &Quiet,
        )
        .unwrap();
        seen.pairs += 1;
        if pass_t.iter().zip(&game_t).any(|((_, h), (_, g))| {
            h.iter()
                .zip(g)
                .any(|(h, g)| h.get().map(|v| v.wdl()) != g.get().map(|v| v.wdl()))
        }) {
            seen.recomputed += 1;
        }
        assert_eq!(found.len(), reference.len());
        for (f, r) in found.into_iter().zip(reference) {
            assert_eq!(f.subspace, r.subspace);
            let wrong = f
                .values
                .iter()
                .zip(&r.values)
                .filter(|(a, b)| a != b)
                .count();
            assert_eq!(wrong, 0, "{rules} {}: {wrong} slots differ", f.subspace);
            assert_eq!(f.rounds, r.rounds, "{rules} {}: rounds", f.subspace);
            let mut capped = game[&f.subspace].clone();
            cap_at_limit(&rules, &mut capped);
            seen.repaired += capped.iter().zip(&f.values).filter(|(a, b)| a != b).count() as u64;
            pass.insert(r.subspace, r.values);
            ours.insert(f.subspace, f.values);
        }
    }
    // Each pair's targets came from this function's own results, so a slip
    // anywhere would have carried into the pairs above it.
    seen
}

/// [`compare`] for each rule set, each required to have pairs whose targets
/// the rule changes and values beyond the capped DTCs.
fn agree(rule_sets: &[&str], max_gotis: u32) {
    for rules in rule_sets {
        let seen = compare(rules, max_gotis);
        assert!(seen.recomputed > 0, "{rules} {seen:?}: no pair recomputed");
        assert!(
            seen.repaired > 0,
            "{rules} {seen:?}: nothing beyond capping"
        );
    }
}

#[test]
fn tigadi_quiet_5_and_10_up_to_8_gotis() {
    agree(&["tigadi,quiet=5", "tigadi,quiet=10"], 8);
}

#[test]
fn navakankari_quiet_12_up_to_8_gotis() {
    // Blocked players lose; no flying.
    agree(&["navakankari,quiet=12"], 8);
}

#[test]
fn morris_quiet_8_and_20_up_to_8_gotis() {
    // Flying at three, blocked players lose.
    agree(&["morris,quiet=8", "morris,quiet=20"], 8);
}

#[test]
fn morabaraba_quiet_9_up_to_7_gotis() {
    agree(&["morabaraba,quiet=9"], 7);
}
