//! Horizon tables (values under the 100-turn rule): probes at several counters agree
//! with the independent oracle over (position, counter) states, `verify` catches an
//! altered DTC₁₀₀ (re-encoded with valid checksums), a table solved under another
//! turn limit is refused with a message that says so, and a directory without
//! horizon tables still probes (the values under the rule reported missing).

use crate::common;
#[path = "../../tigadi-solve/tests/oracle/mod.rs"]
mod oracle;

use common::*;
use oracle::horizon::{HorizonOracle, DRAW, LOSS, WIN};
use std::path::Path;
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_jobs::verify;
use tigadi_rules::{Board, Rng, RuleSet};
use tigadi_solve::Quiet;
use tigadi_solve::{solve_up_to_horizon, Packed, Value, Wdl};
use tigadi_tablebase::{
    encode, field, TableData, TableId, TableKind, Tablebase, TablebaseDir, TablebaseError,
};

/// The horizon table of `s` of the moving phase.
fn horizon_table(s: Subspace) -> TableId {
    TableId::moving(TableKind::Horizon, s)
}

fn no_progress(_: u64, _: u64) {}

/// Solves `rules` up to `max_gotis` (both kinds of table) into `dir`; returns the
/// game-theoretic and the DTC₁₀₀ tables.
fn solve_both(
    dir: &Path,
    rules: RuleSet,
    max_gotis: u32,
) -> Vec<(Subspace, Vec<Packed>, Vec<Packed>)> {
    let game = solve_and_write(dir, rules, max_gotis);
    let horizon = solve_up_to_horizon(&rules, max_gotis, &Quiet, |_, _, _| {});
    let mut out = Vec::new();
    for (s, h) in horizon {
        let data = TableData::Horizon {
            game: &game[&s],
            dtc100: &h,
        };
        TablebaseDir::new(dir, &rules)
            .write(horizon_table(s), data)
            .unwrap();
        out.push((s, game[&s].clone(), h));
    }
    out.sort_by_key(|t| (t.0.mover, t.0.opponent));
    out
}

fn code(v: Value) -> u8 {
    match v.wdl() {
        Wdl::Win => WIN,
        Wdl::Draw => DRAW,
        Wdl::Loss => LOSS,
    }
}

#[test]
fn probes_at_several_counters_agree_with_the_oracle() {
    let rules = RuleSet::parse("tigadi,quiet=10").unwrap();
    let dir = tempfile::tempdir().unwrap();
    solve_both(dir.path(), rules, 6);
    let tb = Tablebase::open(dir.path(), &rules);
    let naive = HorizonOracle::solve(rules, 3, 3);
    let mut rng = Rng::seeded(0x9E37_79B9_7F4A_7C15);
    let (mut probed, mut cursed) = (0, 0);
    let idx = SubspaceIndex::new(Subspace::new(3, 3));
    while probed < 3000 {
        let Some(b) = idx.board(rng.next_u64() % idx.slots()) else {
            continue;
        };
        // A random symmetric image: the oracle works on raw positions.
        let s = rng.below(16);
        let b = Board {
            mover: tigadi_rules::geometry::transform(s, b.mover),
            opponent: tigadi_rules::geometry::transform(s, b.opponent),
        };
        for counter in [0u16, 1, 4, 9, 10] {
            let r = tb
                .probe_rule(tigadi_tablebase::Hands::EMPTY, b, counter)
                .unwrap();
            assert_eq!(
                code(r.rule_value),
                naive.value(b.mover, b.opponent, counter),
                "{b:?} at counter {counter}: {r:?}"
            );
            // The best move's values under the rule are the position's.
            let moves = tb
                .probe_moves_rule(tigadi_tablebase::Hands::EMPTY, b, counter)
                .unwrap();
            if let Some((_, best)) = moves.first() {
                assert_eq!(best.rule_value, r.rule_value, "{b:?} at {counter}");
                assert_eq!(best.category, r.category, "{b:?} at {counter}");
            }
            probed += 1;
        }
        cursed += (r_category(&tb, b) == tigadi_solve::Category::CursedWin) as u32;
    }
    assert!(cursed > 0, "no cursed win among the probes");
    assert!(tb
        .probe_rule(
            tigadi_tablebase::Hands::EMPTY,
            Board {
                mover: 0b111,
                opponent: 0b111 << 8
            },
            11
        )
        .is_err());
}

fn r_category(tb: &Tablebase, b: Board) -> tigadi_solve::Category {
    tb.get::<field::Category>(tigadi_tablebase::Hands::EMPTY, b)
        .unwrap()
}

#[test]
fn verify_fails_on_an_altered_dtc100() {
    let rules = RuleSet::parse("tigadi,quiet=10").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let tables = solve_both(dir.path(), rules, 7);
    assert!(verify(dir.path(), &rules, &no_progress).unwrap().is_ok());
    // Alter one win's DTC100 by one turn (still a win, still within the limit, the
    // category unchanged) and re-encode it with valid checksums.
    let (sub, game, mut h) = tables
        .into_iter()
        .find(|t| t.0 == Subspace::new(4, 3))
        .unwrap();
    let slot = h
        .iter()
        .position(|v| matches!(v.get(), Some(Value::Win(d)) if (2..10).contains(&d)))
        .unwrap();
    let Some(Value::Win(d)) = h[slot].get() else {
        unreachable!()
    };
    h[slot] = Packed::new(Value::Win(d + 1));
    let store = TablebaseDir::new(dir.path(), &rules);
    let data = TableData::Horizon {
        game: &game,
        dtc100: &h,
    };
    store.write(horizon_table(sub), data).unwrap();
    let report = verify(dir.path(), &rules, &no_progress).unwrap();
    assert!(!report.is_ok());
    let bad: Vec<_> = report.subspaces.iter().filter(|s| !s.is_ok()).collect();
    assert!(bad.iter().all(|s| s.kind == TableKind::Horizon), "{bad:?}");
    assert!(bad.iter().any(|s| s
        .examples
        .iter()
        .any(|m| m.slot == slot as u64 && !m.wdl_section)));
    // The encoder itself refuses a DTC100 beyond the limit or against the game value.
    let encodes = |id: TableId, h: &[Packed]| {
        let data = TableData::Horizon {
            game: &game,
            dtc100: h,
        };
        encode(&rules, id, data).is_ok()
    };
    assert!(encodes(horizon_table(sub), &h));
    h[slot] = Packed::new(Value::Win(11));
    assert!(!encodes(horizon_table(sub), &h));
    h[slot] = Packed::new(Value::Loss(3));
    assert!(!encodes(horizon_table(sub), &h));
    // Values of another kind than the table's are refused too.
    h[slot] = Packed::new(Value::Win(d));
    assert!(!encodes(common::game(sub), &h));
}

#[test]
fn another_turn_limit_is_refused_and_missing_horizon_tables_are_absent() {
    let rules = RuleSet::parse("tigadi,quiet=10").unwrap();
    let dir = tempfile::tempdir().unwrap();
    solve_both(dir.path(), rules, 6);
    // Pretend the directory belongs to quiet=12: the game-theoretic tables are
    // valid (they ignore the limit), the horizon tables are refused by name.
    let other = RuleSet::parse("tigadi,quiet=12").unwrap();
    let root = TablebaseDir::new(dir.path(), &rules);
    std::fs::rename(root.path(), TablebaseDir::new(dir.path(), &other).path()).unwrap();
    let tb = Tablebase::open(dir.path(), &other);
    let b = Board {
        mover: 0b111,
        opponent: 0b111 << 8,
    };
    assert!(tb.probe(b).is_ok());
    let e = tb
        .probe_rule(tigadi_tablebase::Hands::EMPTY, b, 0)
        .unwrap_err();
    assert!(matches!(e, TablebaseError::RulesMismatch { .. }), "{e}");
    assert!(
        e.to_string().contains("quiet=10") && e.to_string().contains("quiet=12"),
        "{e}"
    );
    // Without horizon tables (as in a directory of version-1 files only), the
    // game-theoretic probe works and the values under the rule are missing.
    let plain = tempfile::tempdir().unwrap();
    solve_and_write(plain.path(), RuleSet::TIGADI, 6);
    let tb = Tablebase::open(plain.path(), &RuleSet::TIGADI);
    assert!(tb.probe(b).is_ok());
    assert!(matches!(
        tb.probe_rule(tigadi_tablebase::Hands::EMPTY, b, 0),
        Err(TablebaseError::MissingSubspace { .. })
    ));
    assert!(verify(plain.path(), &RuleSet::TIGADI, &no_progress)
        .unwrap()
        .is_ok());
}

/// The solve job's horizon tables, found from the game-theoretic ones
/// (`solve_pair_horizon_from_game`), are the horizon pass's in every slot.
/// Under the default limit they are the game's as they are (Tigadi's DTCs stay
/// far below 100 up to 7 gotis); under `quiet=5` the rule changes values
/// beyond capping the DTCs above 5 (asserted, so that the job's recomputation
/// is exercised; under `quiet=10` capping alone gives them up to 7 gotis). tests/horizon_repair.rs in tigadi-solve
/// compares the two pair by pair for more rule sets.
#[test]
fn the_jobs_horizon_tables_are_the_passes() {
    let limited = RuleSet::parse("tigadi,quiet=5").unwrap();
    for (rules, unchanged) in [(RuleSet::TIGADI, true), (limited, false)] {
        let dir = tempfile::tempdir().unwrap();
        let steps = tigadi_jobs::steps(&rules, tigadi_jobs::Scope::BoardUpTo(7));
        let kinds = [TableKind::GameTheoretic, TableKind::Horizon];
        common::job(dir.path(), &rules, &steps, &kinds);
        let game = solve(rules, 7);
        let pass = solve_up_to_horizon(&rules, 7, &Quiet, |_, _, _| {});
        let mut beyond_capping = 0;
        assert_eq!(pass.len(), 3, "3v3, 3v4 and 4v3");
        for (&s, pass) in &pass {
            let mut stored = TablebaseDir::new(dir.path(), &rules)
                .load(horizon_table(s))
                .unwrap();
            tigadi_tablebase::mark_padding(s, &mut stored);
            assert_eq!(&stored, pass, "{rules} {s}: the job's table differs");
            let mut capped = game[&s].clone();
            tigadi_solve::cap_at_limit(&rules, &mut capped);
            if unchanged {
                assert_eq!(stored, game[&s], "{rules} {s}");
            }
            beyond_capping += capped.iter().zip(&stored).filter(|(a, b)| a != b).count();
        }
        assert_eq!(beyond_capping == 0, unchanged, "{rules}: {beyond_capping}");
    }
}
