//! `verify` catches one altered value in every kind of table (game-theoretic,
//! 100-turn, DTW) of both shapes of tier (a tier with moves inside it, both
//! hands empty; a tier whose moves all leave it, gotis in hand, at the last
//! placement and before it), names the altered table in the reports of the
//! tables that read it, and reports the slot with its stored and recomputed
//! values. Each altered table is re-encoded with valid checksums and listed in
//! `SHA256SUMS`, so only the recomputation can see the change. The same for
//! tiers with gotis in hand under Lasker's rule (`slides=always`).

use crate::common;

use std::path::Path;
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_jobs::{steps, verify, verify_kinds, Scope, VerifyObserver};
use tigadi_rules::{Board, RuleSet};
use tigadi_solve::evaluate::Step;
use tigadi_solve::{evaluate_in_hand, for_each_turn_target, Metric, Packed, TurnTarget, Value};
use tigadi_tablebase::{TableId, TableKind, TablebaseDir, Tier};
use tigadi_values::{successor_tiers, Hands};

fn no_progress(_: u64, _: u64) {}

/// Three gotis a side, a turn limit short enough to matter.
fn rules() -> RuleSet {
    RuleSet::parse("tigadi,pieces=3,quiet=8").unwrap()
}

/// Solves the whole game into `dir` with every kind of table.
fn solve_all(dir: &Path, rules: &RuleSet) {
    let steps = steps(rules, Scope::Whole);
    let kinds = [TableKind::GameTheoretic, TableKind::Horizon, TableKind::Dtw];
    common::job(dir, rules, &steps, &kinds);
}

/// How a test alters a win of depth `d`, and the kinds of table it alters.
type Change = (fn(u16) -> Value, &'static [TableKind]);

/// [`longer`] in every kind.
const LONGER: Change = (longer, &TableKind::ALL);

/// [`flipped`] in the game tables: the writer of the others refuses a value
/// that contradicts the game value.
const FLIPPED: Change = (flipped, &[TableKind::GameTheoretic]);

/// One turn longer: a win still, within the limit, so the first section
/// agrees and only the depth is wrong.
fn longer(d: u16) -> Value {
    Value::Win(d + 1)
}

/// Flipped into a loss of the same depth (both sections rewritten with it).
fn flipped(d: u16) -> Value {
    Value::Loss(d)
}

/// Rewrites table `id` with the first win of depth 2 to 6 one turn longer (a
/// win still, within the limit: the first section agrees), lists it in
/// `SHA256SUMS`, and returns the slot and the value written.
fn alter_one_win(store: &TablebaseDir, id: TableId) -> (u64, Value) {
    alter_one_win_with(store, id, longer)
}

/// [`alter_one_win`] with the win changed by `change`.
fn alter_one_win_with(store: &TablebaseDir, id: TableId, change: fn(u16) -> Value) -> (u64, Value) {
    let mut values = store.load(id).unwrap();
    tigadi_tablebase::mark_padding(id.tier.subspace, &mut values);
    let slot = (0..values.len())
        .find(|&i| matches!(values[i].get(), Some(Value::Win(d)) if (2..=6).contains(&d)))
        .expect("a win of depth 2 to 6");
    let Some(Value::Win(d)) = values[slot].get() else {
        unreachable!()
    };
    let altered = change(d);
    values[slot] = Packed::new(altered);
    let base = id.kind.derived_from().map(|k| {
        let mut v = store.load(id.with_kind(k)).unwrap();
        tigadi_tablebase::mark_padding(id.tier.subspace, &mut v);
        v
    });
    let data = id.kind.data(&values, base.as_deref()).unwrap();
    store.write(id, data).unwrap();
    store.update_manifest(&[id], &[]).unwrap();
    (slot as u64, altered)
}

#[test]
fn one_altered_value_is_caught_in_every_kind_and_shape_of_tier() {
    let rules = rules();
    altered_values_are_caught(
        &rules,
        &[LONGER],
        &[
            Tier::moving(Subspace::new(3, 3)),
            // The last placement (into the moving phase) and the one before it.
            Tier::after_placements(&rules, 5, Subspace::new(2, 3)),
            Tier::after_placements(&rules, 4, Subspace::new(2, 2)),
        ],
    );
}

/// Under Lasker's rule (issue 53): tiers with gotis in hand and slides, whose
/// 100-turn tables count to the next capture or placement; a win made longer
/// and a win flipped into a loss (`verify` checks every kind of such a tier
/// in one sweep, so each kind's report must hold its own table's mismatch).
#[test]
fn one_altered_value_is_caught_in_every_kind_of_lasker_tier_in_hand() {
    let rules = RuleSet::parse("lasker,pieces=3,quiet=8").unwrap();
    altered_values_are_caught(
        &rules,
        &[LONGER, FLIPPED],
        &[
            // Solved with its flipped partner 2v3 with 1+0 in hand.
            Tier::new(Hands::new(0, 1), Subspace::new(3, 2)),
            // Both with a goti in hand, placements and slides.
            Tier::new(Hands::new(1, 1), Subspace::new(2, 2)),
        ],
    );
}

/// Under Lasker's rule, a wrong value that a tier in hand reaches only by a
/// placement (issue 56: `verify` takes a board's placements' best from the
/// solver's pass grouped by opponent set, not board by board): one value of
/// the quiet placements' target tier of `1,1 2v2` is flipped where it is the
/// unique best turn of a board of that tier. `verify` must report, besides
/// the altered table, exactly the boards of `1,1 2v2` whose value the change
/// alters (each recomputed on its own here with `evaluate_in_hand`), naming
/// the altered table.
#[test]
fn a_wrong_value_read_only_by_placements_is_caught_in_a_lasker_tier_in_hand() {
    let rules = RuleSet::parse("lasker,pieces=3,quiet=8").unwrap();
    let solved = tempfile::tempdir().unwrap();
    solve_all(solved.path(), &rules);
    let store = TablebaseDir::new(solved.path(), &rules);
    let tier = Tier::new(Hands::new(1, 1), Subspace::new(2, 2));
    assert_eq!(tier.flipped(), tier, "a step of one tier");
    let kind = TableKind::GameTheoretic;
    let id = |t: Tier| TableId::new(kind, t);
    // Every table a board of the tier reads, by tier, with its index.
    let mut tables: Vec<(Tier, SubspaceIndex, Vec<Packed>)> = std::iter::once(tier)
        .chain(successor_tiers(&rules, tier))
        .map(|t| {
            (
                t,
                SubspaceIndex::new(t.subspace),
                store.load(id(t)).unwrap(),
            )
        })
        .collect();
    let value_in = |tables: &[(Tier, SubspaceIndex, Vec<Packed>)], hands: Hands, b: Board| {
        let t = Tier::new(hands, Subspace::of(b));
        let (_, idx, v) = tables.iter().find(|(u, _, _)| *u == t).unwrap();
        v[idx.index(b) as usize].get().unwrap()
    };
    let evaluate = |tables: &[(Tier, SubspaceIndex, Vec<Packed>)], b: Board| {
        evaluate_in_hand(&rules, Metric::Dtc, tier.hands, b, &|h, n| {
            value_in(tables, h, n)
        })
    };
    let opposite = |v: Value| match v {
        Value::Win(d) => Value::Loss(d),
        Value::Loss(d) => Value::Win(d.max(1)),
        Value::Draw => Value::Loss(1),
    };
    // The first board with a quiet placement whose target, flipped, changes
    // the board's value.
    let own = SubspaceIndex::new(tier.subspace);
    let boards: Vec<(u64, Board)> = (0..own.slots())
        .filter_map(|s| own.board(s).map(|b| (s, b)))
        .collect();
    let mut altered = None;
    'boards: for &(_, b) in &boards {
        let before = evaluate(&tables, b);
        let mut targets = Vec::new();
        for_each_turn_target(&rules, tier.hands, b, |t| {
            if let TurnTarget::Exit {
                hands,
                board,
                step: Step::Placement { capture: false },
            } = t
            {
                targets.push((hands, board));
            }
        });
        for (hands, next) in targets {
            let at = Tier::new(hands, Subspace::of(next));
            let p = tables.iter().position(|(u, _, _)| *u == at).unwrap();
            let slot = tables[p].1.index(next) as usize;
            let was = tables[p].2[slot];
            tables[p].2[slot] = Packed::new(opposite(was.get().unwrap()));
            if evaluate(&tables, b) != before {
                altered = Some((at, slot as u64));
                break 'boards;
            }
            tables[p].2[slot] = was;
        }
    }
    let (target, slot) = altered.expect("a board whose value a placement decides");
    assert_ne!(target.hands, tier.hands, "read by placements only");
    // The boards of the tier whose value the flipped target changes.
    let stored = store.load(id(tier)).unwrap();
    let changed: Vec<u64> = boards
        .iter()
        .filter(|&&(s, b)| stored[s as usize].get() != Some(evaluate(&tables, b)))
        .map(|&(s, _)| s)
        .collect();
    assert!(!changed.is_empty());
    // Written with valid checksums: only the recomputation can tell.
    let p = tables.iter().position(|(u, _, _)| *u == target).unwrap();
    tigadi_tablebase::mark_padding(target.subspace, &mut tables[p].2);
    let data = kind.data(&tables[p].2, None).unwrap();
    store.write(id(target), data).unwrap();
    store.update_manifest(&[id(target)], &[]).unwrap();
    let report = verify(solved.path(), &rules, &no_progress).unwrap();
    let of = |t: Tier| report.subspaces.iter().find(|r| r.id() == id(t)).unwrap();
    let own = of(target);
    assert!(own.examples.iter().any(|m| m.slot == slot), "{own:?}");
    let reader = of(tier);
    assert_eq!(reader.mismatches, changed.len() as u64, "{reader:?}");
    assert!(
        reader.examples.iter().all(|m| changed.contains(&m.slot)),
        "{reader:?}"
    );
    let name = id(target).file_name(&rules);
    assert!(reader.culprits.contains(&name), "{reader:?}");
}

/// Solves the whole game of `rules`, checks that `verify` passes it, then, in
/// a copy for each table of every kind of `tiers` and each of `changes`,
/// alters one win and checks that `verify` reports it.
fn altered_values_are_caught(rules: &RuleSet, changes: &[Change], tiers: &[Tier]) {
    let rules = *rules;
    let solved = tempfile::tempdir().unwrap();
    solve_all(solved.path(), &rules);
    let report = verify(solved.path(), &rules, &no_progress).unwrap();
    assert!(report.is_ok(), "{report:#?}");
    let cases = tiers
        .iter()
        .flat_map(|&t| TableKind::ALL.map(|k| TableId::new(k, t)))
        .flat_map(|id| changes.iter().map(move |&c| (id, c)))
        .filter(|(id, (_, kinds))| kinds.contains(&id.kind));
    for (id, (change, _)) in cases {
        let dir = tempfile::tempdir().unwrap();
        common::copy_dir(solved.path(), dir.path());
        let store = TablebaseDir::new(dir.path(), &rules);
        let (slot, altered) = alter_one_win_with(&store, id, change);
        let report = verify(dir.path(), &rules, &no_progress).unwrap();
        assert!(!report.is_ok(), "{id:?} altered, verify passed");
        let own = report
            .subspaces
            .iter()
            .find(|r| r.id() == id)
            .unwrap_or_else(|| panic!("{id:?} not reported"));
        assert!(own.error.is_none(), "{own:?}");
        assert!(own.mismatches >= 1, "{own:?}");
        // The one table it may name is its flipped partner's: a tier and its
        // partner in hand read each other, and the partner, checked first,
        // fails too when the change reaches its values.
        let partner = TableId::new(id.kind, id.tier.flipped());
        let partner_name = partner.file_name(&rules);
        assert!(own.culprits.iter().all(|c| *c == partner_name), "{own:?}");
        let name = id.file_name(&rules);
        let m = own
            .examples
            .iter()
            .find(|m| m.slot == slot && !m.wdl_section)
            .unwrap_or_else(|| panic!("slot {slot} of {id:?} not among {own:?}"));
        assert_eq!(m.stored, altered);
        assert_ne!(m.recomputed, altered);
        // Every other table that fails read the altered one, and says so
        // (but the partner: it was checked before the altered table failed).
        for r in report
            .subspaces
            .iter()
            .filter(|r| !r.is_ok() && r.id() != id && r.id() != partner)
        {
            assert!(r.culprits.contains(&name), "{id:?}: {r:?}");
        }
        // Its kind verified alone (a tier in hand then checks that one kind
        // in its sweep, not every kind at once) reports the same.
        let alone = verify_kinds(dir.path(), &rules, false, &[id.kind], &Nothing).unwrap();
        let mine = alone.subspaces.iter().find(|r| r.id() == id).unwrap();
        assert_eq!(
            (mine.checked, mine.mismatches, &mine.examples),
            (own.checked, own.mismatches, &own.examples),
            "{id:?} verified alone"
        );
    }
}

/// Counts nothing: `verify_kinds`' observer.
struct Nothing;
impl VerifyObserver for Nothing {}

/// The same check on a solved directory given by `TIGADI_ALTER_DIR` (the rule
/// set by `TIGADI_ALTER_RULES`), which it alters in place: per kind present, one
/// win in the moving tier 4v4 and one in a tier of the last placement, all in
/// one run. For the reference outputs of a release (copy them first):
/// `TIGADI_ALTER_DIR=/tmp/p5 TIGADI_ALTER_RULES=tigadi,pieces=5 cargo test
/// --release -p tigadi-jobs --test jobs -- --ignored verify_every_kind::`.
#[test]
#[ignore]
fn altered_values_in_a_given_directory_are_caught() {
    let (Ok(dir), Ok(rules)) = (
        std::env::var("TIGADI_ALTER_DIR"),
        std::env::var("TIGADI_ALTER_RULES"),
    ) else {
        panic!("set TIGADI_ALTER_DIR and TIGADI_ALTER_RULES");
    };
    let rules = RuleSet::parse(&rules).unwrap();
    let store = TablebaseDir::new(Path::new(&dir), &rules);
    let all = store.list().unwrap();
    let last = all.iter().filter_map(|id| id.tier.placements(&rules)).max();
    let mut altered = Vec::new();
    for kind in TableKind::ALL {
        let of_kind = |t: &&TableId| t.kind == kind;
        let moving = all
            .iter()
            .filter(of_kind)
            .find(|id| id.tier == Tier::moving(Subspace::new(4, 4)));
        let placing = all
            .iter()
            .filter(of_kind)
            .find(|id| last.is_some() && id.tier.placements(&rules) == last);
        for &id in moving.into_iter().chain(placing) {
            let (slot, value) = alter_one_win(&store, id);
            eprintln!("altered {} slot {slot}: {value}", id.file_name(&rules));
            altered.push((id, slot, value));
        }
    }
    assert!(!altered.is_empty());
    let report = verify(Path::new(&dir), &rules, &no_progress).unwrap();
    for (id, slot, value) in &altered {
        let own = report.subspaces.iter().find(|r| r.id() == *id).unwrap();
        assert!(own.error.is_none(), "{own:?}");
        let m = own.examples.iter().find(|m| m.slot == *slot).unwrap();
        assert_eq!((m.stored, m.wdl_section), (*value, false));
        assert_ne!(m.recomputed, *value);
    }
    let names: Vec<String> = altered.iter().map(|a| a.0.file_name(&rules)).collect();
    for r in report.subspaces.iter().filter(|r| !r.is_ok()) {
        let own = altered.iter().any(|a| a.0 == r.id());
        assert!(own || r.culprits.iter().any(|c| names.contains(c)), "{r:?}");
    }
}
