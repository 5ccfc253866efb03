//! `Tablebase::with_rule_values_from_game` (the server's prober) answers the
//! values under the 100-turn rule of a tier whose 100-turn table equals its
//! game table from the game table alone. Checked on whole small games where
//! the rule changes nothing (`tigadi,pieces=4`), where it changes values
//! (`quiet=10`) and under Lasker's rule (whose tiers in hand never qualify):
//!
//! - every tier it judges so holds, in its two files, the same value in every
//!   slot with a board (read back whole, not through the prober);
//! - `probe_rule` and `probe_moves_rule` (every turn's values) answer as the
//!   plain prober does on a sample of every tier's positions;
//! - and the shortcut is taken: where the rule changes nothing every tier
//!   qualifies and the answers read fewer blocks, and where it changes values
//!   some tier does not.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;
use tigadi_index::SubspaceIndex;
use tigadi_jobs::{steps, Scope};
use tigadi_rules::RuleSet;
use tigadi_tablebase::{TableData, TableId, TableKind, Tablebase, TablebaseDir, TablebaseError};
use tigadi_values::{reached_tiers, successor_tiers, Packed, Tier, Value};

/// Every `SAMPLE`-th slot of each tier is answered both ways.
const SAMPLE: u64 = 37;

/// `rules` solved whole, game and 100-turn tables, into `dir`.
fn solve_whole(dir: &Path, rules: &RuleSet) {
    let kinds = [TableKind::GameTheoretic, TableKind::Horizon];
    common::job(dir, rules, &steps(rules, Scope::Whole), &kinds);
}

/// The tiers of `rules` that `tb` judges to hold their game values in their
/// 100-turn tables, after checking each against its two files read back whole.
fn judged_equal(tb: &Tablebase, dir: &Path, rules: &RuleSet) -> Vec<Tier> {
    let files = TablebaseDir::new(dir, rules);
    let mut equal = Vec::new();
    for tier in reached_tiers(rules) {
        if !tb.horizon_is_game(tier) {
            continue;
        }
        let game = files
            .load(TableId::new(TableKind::GameTheoretic, tier))
            .unwrap();
        let rule = files.load(TableId::new(TableKind::Horizon, tier)).unwrap();
        let index = SubspaceIndex::new(tier.subspace);
        for slot in 0..index.slots() {
            if index.board(slot).is_some() {
                assert_eq!(
                    game[slot as usize], rule[slot as usize],
                    "{rules} {tier} slot {slot}: judged equal, but the files differ"
                );
            }
        }
        equal.push(tier);
    }
    equal
}

/// Both answers are the same (an error the same error, field for field).
fn same<T: PartialEq + std::fmt::Debug>(
    plain: Result<T, TablebaseError>,
    shortcut: Result<T, TablebaseError>,
    what: impl Fn() -> String,
) {
    let equal = match (&plain, &shortcut) {
        (Ok(p), Ok(s)) => p == s,
        (Err(p), Err(s)) => format!("{p:?}") == format!("{s:?}"),
        _ => false,
    };
    assert!(equal, "{}: {plain:?} plain, {shortcut:?} shortcut", what());
}

/// Answers a sample of every tier's positions with `plain` and `shortcut`,
/// which must agree; the blocks each read.
fn compare_answers(plain: &Tablebase, shortcut: &Tablebase, rules: &RuleSet) -> (u64, u64) {
    let mut answered = 0;
    for tier in reached_tiers(rules) {
        let index = SubspaceIndex::new(tier.subspace);
        for slot in (0..index.slots()).step_by(SAMPLE as usize) {
            let Some(board) = index.board(slot) else {
                continue;
            };
            for counter in [0, rules.quiet / 2] {
                let position = (tier.hands, board, counter);
                same(
                    plain.probe_rule(tier.hands, board, counter),
                    shortcut.probe_rule(tier.hands, board, counter),
                    || format!("{rules} {tier} slot {slot}: {position:?}"),
                );
                same(
                    plain.probe_moves_rule(tier.hands, board, counter),
                    shortcut.probe_moves_rule(tier.hands, board, counter),
                    || format!("{rules} {tier} slot {slot}, its turns: {position:?}"),
                );
                answered += 1;
            }
        }
    }
    assert!(answered > 1000, "{rules}: only {answered} answers");
    (plain.blocks_read(), shortcut.blocks_read())
}

/// How many tiers a set is expected to have judged equal.
enum Judged {
    All,
    Some,
    NotAll,
}

#[test]
fn answers_from_the_game_tables_equal_the_100_turn_tables() {
    let tmp = tempfile::tempdir().unwrap();
    // How many tiers hold their game values in their 100-turn tables: all
    // where the rule changes nothing; some (those whose DTCs stay within the
    // limit, downstream too) at a turn limit of 30; none at 10; under Lasker's
    // rule never the tiers in hand.
    for (spec, expected) in [
        ("tigadi,pieces=4", Judged::All),
        ("tigadi,pieces=4,quiet=30", Judged::Some),
        ("tigadi,pieces=4,quiet=10", Judged::NotAll),
        ("lasker,pieces=4", Judged::Some),
    ] {
        let rules = RuleSet::parse(spec).unwrap();
        let dir = tmp.path().join(spec);
        solve_whole(&dir, &rules);
        let plain = Tablebase::open(&dir, &rules);
        let shortcut = Tablebase::open(&dir, &rules).with_rule_values_from_game();
        let equal = judged_equal(&shortcut, &dir, &rules);
        let tiers = reached_tiers(&rules).len();
        let (plain_blocks, shortcut_blocks) = compare_answers(&plain, &shortcut, &rules);
        match expected {
            Judged::All => {
                assert_eq!(equal.len(), tiers, "{spec}: a tier not judged equal");
                assert!(
                    shortcut_blocks < plain_blocks,
                    "{spec}: {shortcut_blocks} blocks with the shortcut, {plain_blocks} without"
                );
            }
            Judged::Some => assert!(
                !equal.is_empty() && equal.len() < tiers,
                "{spec}: {} of {tiers} tiers judged equal",
                equal.len()
            ),
            Judged::NotAll => assert!(equal.len() < tiers, "{spec}: every tier judged equal"),
        }
    }
}

/// A tier is judged to hold its game values in its 100-turn table only when
/// every tier downstream of it is: with one value of 3v3's 100-turn table
/// changed (a win made a draw, as a turn limit would), exactly 3v3 and the
/// tiers that reach it (found here by walking `successor_tiers`) are not.
#[test]
fn a_changed_tier_downstream_is_seen_upstream() {
    let tmp = tempfile::tempdir().unwrap();
    let rules = RuleSet::parse("tigadi,pieces=4").unwrap();
    let dir = tmp.path();
    solve_whole(dir, &rules);
    let target = Tier::moving(tigadi_index::Subspace::new(3, 3));
    let files = TablebaseDir::new(dir, &rules);
    let (game_id, rule_id) = (
        TableId::new(TableKind::GameTheoretic, target),
        TableId::new(TableKind::Horizon, target),
    );
    let mut game = files.load(game_id).unwrap();
    let mut rule = files.load(rule_id).unwrap();
    tigadi_tablebase::mark_padding(target.subspace, &mut game);
    tigadi_tablebase::mark_padding(target.subspace, &mut rule);
    let won = rule
        .iter()
        .position(|v| matches!(v.get(), Some(Value::Win(_))))
        .unwrap();
    rule[won] = Packed::new(Value::Draw);
    let data = TableData::Horizon {
        game: &game,
        dtc100: &rule,
    };
    files.write(rule_id, data).unwrap();

    let reaches = |from: Tier| {
        let mut seen = BTreeSet::from([from]);
        let mut todo = vec![from];
        while let Some(t) = todo.pop() {
            for s in successor_tiers(&rules, t) {
                if seen.insert(s) {
                    todo.push(s);
                }
            }
        }
        seen.contains(&target)
    };
    let tb = Tablebase::open(dir, &rules).with_rule_values_from_game();
    let mut upstream = 0;
    for tier in reached_tiers(&rules) {
        let expected = !reaches(tier);
        assert_eq!(tb.horizon_is_game(tier), expected, "{tier}");
        upstream += usize::from(!expected);
    }
    assert!(upstream > 1, "no tier reaches 3v3 but itself");
    let plain = Tablebase::open(dir, &rules);
    compare_answers(&plain, &tb, &rules);
}
