//! Values written with `TablebaseDir::write` come back unchanged through `load`,
//! `Tablebase::probe`, `probe_wdl` and `probe_moves`, for every position.

use crate::common;

use common::*;
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::geometry::transform_pair;
use tigadi_rules::Move;
use tigadi_rules::{Board, Rng, RuleSet};
use tigadi_solve::{evaluate, Packed, Value};
use tigadi_tablebase::{mark_padding, TableData, Tablebase, TablebaseDir, TablebaseError};

fn check_rules(rules: RuleSet, max_gotis: u32) {
    let dir = tempfile::tempdir().unwrap();
    let tables = solve_and_write(dir.path(), rules, max_gotis);
    let tb = Tablebase::with_cache_blocks(dir.path(), &rules, 64);
    let mut rng = Rng::seeded(0x1234_5678_9ABC_DEF1);
    for (&sub, values) in &tables {
        let store = TablebaseDir::new(dir.path(), &rules);
        let loaded = store.load(game(sub)).unwrap();
        assert_eq!(loaded.len(), values.len());
        let table = store.open(game(sub)).unwrap();
        let h = table.header();
        let (mut w, mut d, mut l) = (0, 0, 0);
        for (slot, board) in boards(sub) {
            let v = values[slot as usize].get().unwrap();
            match v {
                Value::Win(_) => w += 1,
                Value::Draw => d += 1,
                Value::Loss(_) => l += 1,
            }
            assert_eq!(loaded[slot as usize], values[slot as usize]);
            assert_eq!(tb.probe(board).unwrap(), v, "{rules} {sub} slot {slot}");
            assert_eq!(tb.probe_wdl(board).unwrap(), v.wdl());
            // Any symmetric image probes the same.
            let s = rng.below(16);
            let x = transform_pair(s, board.mover as u64 | (board.opponent as u64) << 32);
            let image = Board {
                mover: x as u32,
                opponent: (x >> 32) as u32,
            };
            assert_eq!(tb.probe(image).unwrap(), v);
        }
        assert_eq!((h.counts.wins, h.counts.draws, h.counts.losses), (w, d, l));
        // Padding slots hold filler, never NONE; the rest is identical, and
        // mark_padding restores the solver's output exactly.
        for (slot, p) in loaded.iter().enumerate() {
            assert!(p.is_some());
            if values[slot].is_some() {
                assert_eq!(*p, values[slot]);
            }
        }
        let mut restored = loaded;
        mark_padding(sub, &mut restored);
        assert_eq!(&restored, values);
    }
    // The consistency scan passes the solver's output.
    let report = tigadi_jobs::verify(dir.path(), &rules, &|_, _| {}).unwrap();
    assert!(report.is_ok(), "{rules}: {report:#?}");
    // probe_moves: best first, the best equals the position's value, and each
    // move's value is what evaluate would give it.
    for &sub in tables.keys() {
        for (_, board) in boards(sub).into_iter().step_by(7) {
            let moves = tb
                .probe_moves(tigadi_tablebase::Hands::EMPTY, board)
                .unwrap();
            let v = tb.probe(board).unwrap();
            let expect = evaluate(&rules, board, |b| tb.probe(b).unwrap());
            assert_eq!(v, expect);
            match moves.first() {
                Some((_, best)) => assert_eq!(*best, v, "{rules} {board:?}"),
                None => assert_eq!(v, Value::Loss(0)),
            }
            for pair in moves.windows(2) {
                assert!(!pair[1].1.better_than(pair[0].1));
            }
            for (t, _) in &moves {
                let text = t.to_string();
                assert!(text == "pass" || text.contains('-'));
                if let Move::Pass = t {
                    assert_eq!(moves.len(), 1);
                }
            }
        }
    }
}

#[test]
fn tigadi_round_trip() {
    check_rules(RuleSet::TIGADI, 7);
}

#[test]
fn morris_round_trip() {
    check_rules(RuleSet::MORRIS, 7);
}

#[test]
fn custom_rules_get_a_safe_directory() {
    // No preset has these board switches (morabaraba's block the blocked
    // player), so the directory is named by the switches.
    let rules = RuleSet::parse("lines=20,flying=3").unwrap();
    let dir = tempfile::tempdir().unwrap();
    solve_and_write(dir.path(), rules, 6);
    assert!(dir
        .path()
        .join("lines-20_flying-3_blocked-passes/3v3.tgtb")
        .is_file());
    let h = TablebaseDir::new(dir.path(), &rules)
        .open(game(Subspace::new(3, 3)))
        .unwrap()
        .header()
        .clone();
    assert_eq!(h.rules_name, "lines=20,flying=3,blocked=passes");
    assert_eq!(h.rules, rules);
}

#[test]
fn typed_errors() {
    let dir = tempfile::tempdir().unwrap();
    solve_and_write(dir.path(), RuleSet::TIGADI, 6);
    let tb = Tablebase::open(dir.path(), &RuleSet::TIGADI);
    let b = boards(Subspace::new(3, 3))[0].1;
    // 3v4: one more goti for the opponent, on the first free point.
    let free = (!(b.mover | b.opponent) & 0xFF_FFFF).trailing_zeros();
    let four = Board {
        mover: b.mover,
        opponent: b.opponent | 1 << free,
    };
    assert!(matches!(
        tb.probe(four),
        Err(TablebaseError::MissingSubspace { .. })
    ));
    assert!(matches!(
        tb.probe(Board {
            mover: 1,
            opponent: 1
        }),
        Err(TablebaseError::InvalidPosition(_))
    ));
    assert!(matches!(
        tb.probe(Board {
            mover: 3,
            opponent: 0x700
        }),
        Err(TablebaseError::InvalidPosition(_))
    ));
    assert!(matches!(
        tb.probe(Board {
            mover: 7 << 24,
            opponent: 0x700
        }),
        Err(TablebaseError::InvalidPosition(_))
    ));
    // A tigadi table put where morris tables belong.
    let morris_dir = dir.path().join("morris");
    std::fs::create_dir_all(&morris_dir).unwrap();
    std::fs::copy(
        dir.path().join("tigadi/3v3.tgtb"),
        morris_dir.join("3v3.tgtb"),
    )
    .unwrap();
    let tbm = Tablebase::open(dir.path(), &RuleSet::MORRIS);
    assert!(matches!(
        tbm.probe(b),
        Err(TablebaseError::RulesMismatch { .. })
    ));
    // A file under the wrong subspace name.
    let idx = SubspaceIndex::new(Subspace::new(3, 3));
    assert!(idx.slots() > 0);
    std::fs::copy(
        dir.path().join("tigadi/3v3.tgtb"),
        dir.path().join("tigadi/4v3.tgtb"),
    )
    .unwrap();
    let tb = Tablebase::open(dir.path(), &RuleSet::TIGADI);
    assert!(matches!(
        tb.probe(four.flipped()),
        Err(TablebaseError::RulesMismatch { .. })
    ));
    assert!(matches!(
        TablebaseDir::new(dir.path(), &RuleSet::TIGADI).load(game(Subspace::new(5, 5))),
        Err(TablebaseError::MissingSubspace { .. })
    ));
    // Errors name the problem.
    let e = tb
        .probe(Board {
            mover: 1,
            opponent: 1,
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("invalid position"), "{e}");
}

#[test]
fn write_rejects_wrong_lengths_and_bad_words() {
    let dir = tempfile::tempdir().unwrap();
    let sub = Subspace::new(3, 3);
    let n = SubspaceIndex::new(sub).slots() as usize;
    let store = TablebaseDir::new(dir.path(), &RuleSet::TIGADI);
    let r = store.write(game(sub), TableData::Game(&vec![Packed::DRAW; n - 1]));
    assert!(matches!(r, Err(TablebaseError::InvalidValues(_))));
    // Bad words in two of the stretches checked in parallel: the first is named.
    let mut v = vec![Packed::DRAW; n];
    v[n - 3] = Packed(0xFFFE);
    v[5] = Packed(0x7FFF);
    let r = store.write(game(sub), TableData::Game(&v));
    match r {
        Err(TablebaseError::InvalidValues(e)) => {
            assert!(e.contains("slot 5 holds 0x7fff"), "{e}")
        }
        other => panic!("{other:?}"),
    }
    // A horizon table: a DTC100 past the limit, and before it a game value
    // missing where the DTC100 has one.
    let mut dtc100 = vec![Packed::DRAW; n];
    dtc100[n - 3] = Packed::new(Value::Win(101));
    let mut game_values = vec![Packed::DRAW; n];
    game_values[7] = Packed::NONE;
    let horizon = tigadi_tablebase::TableId::moving(tigadi_tablebase::TableKind::Horizon, sub);
    match store.write(
        horizon,
        TableData::Horizon {
            game: &game_values,
            dtc100: &dtc100,
        },
    ) {
        Err(TablebaseError::InvalidValues(e)) => {
            assert!(e.contains("slot 7: padding in the game"), "{e}")
        }
        other => panic!("{other:?}"),
    }
    game_values[7] = Packed::DRAW;
    match store.write(
        horizon,
        TableData::Horizon {
            game: &game_values,
            dtc100: &dtc100,
        },
    ) {
        Err(TablebaseError::InvalidValues(e)) => assert!(
            e.contains(&format!("slot {}: DTC100", n - 3)) && e.contains("beyond the turn limit"),
            "{e}"
        ),
        other => panic!("{other:?}"),
    }
}
