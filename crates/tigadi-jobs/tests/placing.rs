//! Placing tables: written, read back, probed and verified; `verify` fails on an
//! altered placing value; version-1 moving-phase headers of the standard game are
//! unchanged by the new header fields.

use crate::common;

use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_jobs::{verify, verify_with, VerifyObserver};
use tigadi_rules::{Position, RuleSet};
use tigadi_solve::leaving::successor_subspaces;
use tigadi_solve::leaving::{evaluate_placing, solve_placing, start_value};
use tigadi_solve::{Packed, Quiet, SolvedTable, Value};
use tigadi_tablebase::{
    encode, field, Header, TableData, TableId, TableKind, Tablebase, TablebaseDir,
};

/// The game-theoretic table of `sub` after `placed` placements under `rules`.
fn layer_table(rules: &RuleSet, placed: u8, sub: Subspace) -> TableId {
    let rules = *rules;
    TableId::new(
        TableKind::GameTheoretic,
        tigadi_tablebase::Tier::after_placements(&rules, placed as u32, sub),
    )
}

fn no_progress(_: u64, _: u64) {}

/// Solves the whole game of `rules` in memory and writes every table into `dir`;
/// returns the placing layers.
fn solve_and_write_all(
    dir: &std::path::Path,
    rules: RuleSet,
) -> Vec<Vec<tigadi_solve::SolvedSubspace>> {
    let moving = common::solve_and_write(dir, rules, 2 * rules.pieces as u32);
    let tables = SolvedTable::views(&moving);
    let layers = solve_placing(&rules, &tables, &Quiet, |_, _| {}).unwrap();
    for (placed, layer) in layers.iter().enumerate() {
        for s in layer {
            TablebaseDir::new(dir, &rules)
                .write(
                    layer_table(&rules, placed as u8, s.subspace),
                    TableData::Game(&s.values),
                )
                .unwrap();
        }
    }
    layers
}

#[test]
fn placing_tables_round_trip_probe_and_verify() {
    let rules = RuleSet::parse("morris,pieces=3").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let layers = solve_and_write_all(dir.path(), rules);
    assert_eq!(layers.len() as u32, tigadi_tablebase::placing_turns(&rules));
    let tb = Tablebase::open(dir.path(), &rules);
    for (placed, layer) in layers.iter().enumerate() {
        for s in layer {
            let mut read = TablebaseDir::new(dir.path(), &rules)
                .load(layer_table(&rules, placed as u8, s.subspace))
                .unwrap();
            tigadi_tablebase::mark_padding(s.subspace, &mut read);
            assert_eq!(read, s.values, "layer {placed} {}", s.subspace);
            // The prober agrees slot by slot, and its best placement is the value.
            let idx = SubspaceIndex::new(s.subspace);
            for (slot, board) in idx.boards(0..idx.slots()).step_by(7) {
                let v = tb
                    .get::<field::Dtc>(
                        tigadi_tablebase::Hands::after_placements(&rules, placed as u32),
                        board,
                    )
                    .unwrap();
                assert_eq!(Some(v), s.values[slot as usize].get());
                let moves = tb
                    .probe_moves(
                        tigadi_tablebase::Hands::after_placements(&rules, placed as u32),
                        board,
                    )
                    .unwrap();
                assert_eq!(moves[0].1, v);
            }
        }
    }
    let start = tb
        .get_position::<field::Dtc>(&Position::start(&rules))
        .unwrap();
    assert_eq!(Some(start), start_value(&layers[0]));
    let report = verify(dir.path(), &rules, &no_progress).unwrap();
    assert!(report.is_ok(), "{report:?}");
    assert!(report
        .subspaces
        .iter()
        .any(|s| s.tier.placements(&rules) == Some(0)));
    // A position that no game reaches after 2 placements is refused, not answered.
    let tb_err = tb.get::<field::Dtc>(
        tigadi_tablebase::Hands::after_placements(&rules, 2_u32),
        tigadi_rules::Board {
            mover: 7,
            opponent: 0,
        },
    );
    assert!(tb_err.is_err());
}

#[test]
fn verify_catches_an_altered_placing_value() {
    let rules = RuleSet::parse("tigadi,pieces=3").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let layers = solve_and_write_all(dir.path(), rules);
    // Change one value of a middle layer to another value and rewrite the file
    // with good checksums: only recomputation can notice.
    let placed = 3u8;
    let table = &layers[placed as usize][0];
    let mut values = table.values.clone();
    let slot = values.iter().position(|v| v.is_some()).unwrap();
    // A loss in one turn: the placements into it become quick wins, so the
    // tables before it that read it fail too.
    let altered = match values[slot].get().unwrap() {
        Value::Loss(_) => Value::Win(1),
        _ => Value::Loss(1),
    };
    values[slot] = Packed::new(altered);
    TablebaseDir::new(dir.path(), &rules)
        .write(
            layer_table(&rules, placed, table.subspace),
            TableData::Game(&values),
        )
        .unwrap();
    let report = verify(dir.path(), &rules, &no_progress).unwrap();
    assert!(!report.is_ok());
    let bad: Vec<_> = report.subspaces.iter().filter(|s| !s.is_ok()).collect();
    // The altered table itself, and the layer before it reads the altered value.
    assert!(bad
        .iter()
        .any(|s| s.tier.placements(&rules) == Some(placed as u32)
            && s.tier.subspace == table.subspace
            && s.mismatches == 1));
    let ex = &bad
        .iter()
        .find(|s| s.tier.placements(&rules) == Some(placed as u32))
        .unwrap()
        .examples[0];
    assert_eq!(ex.stored, altered);
    assert_eq!(ex.slot, slot as u64);
    assert_ne!(ex.recomputed, altered);
    // The table before it that fails by reading the altered value names it as
    // the culprit; the altered table itself names none.
    let altered_name = layer_table(&rules, placed, table.subspace).file_name(&rules);
    let own = bad
        .iter()
        .find(|s| {
            s.tier.placements(&rules) == Some(placed as u32) && s.tier.subspace == table.subspace
        })
        .unwrap();
    assert!(own.culprits.is_empty(), "{:?}", own.culprits);
    let readers: Vec<_> = bad
        .iter()
        .filter(|s| s.tier.placements(&rules) == Some(placed as u32 - 1))
        .collect();
    assert!(!readers.is_empty(), "{bad:?}");
    for r in readers {
        assert_eq!(r.culprits, std::slice::from_ref(&altered_name), "{r:?}");
    }
}

/// Placing tables that passed are not recomputed by a resumed verify while every
/// file their check reads is unchanged; altering one rechecks it and the tables
/// of the layer before that read it, and nothing else.
#[test]
fn verify_resumes_placing_tables_and_rechecks_what_changed() {
    struct Nothing;
    impl VerifyObserver for Nothing {}
    let rules = RuleSet::parse("tigadi,pieces=3").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let layers = solve_and_write_all(dir.path(), rules);
    let placing_earlier = |resume: bool| {
        let report = verify_with(dir.path(), &rules, resume, &Nothing).unwrap();
        let placing: Vec<_> = report
            .subspaces
            .iter()
            .filter(|s| !s.tier.is_moving())
            .map(|s| {
                (
                    s.tier.placements(&rules).unwrap() as u8,
                    s.tier.subspace,
                    s.earlier,
                    s.is_ok(),
                )
            })
            .collect();
        assert!(!placing.is_empty());
        placing
    };
    let first = placing_earlier(true);
    assert!(first.iter().all(|&(_, _, earlier, ok)| !earlier && ok));
    let second = placing_earlier(true);
    assert!(second.iter().all(|&(_, _, earlier, ok)| earlier && ok));
    // Without resuming, everything is recomputed.
    assert!(placing_earlier(false)
        .iter()
        .all(|&(_, _, earlier, _)| !earlier));

    // Alter a value of one table of layer 3, with good checksums.
    let placed = 3u8;
    let table = &layers[placed as usize][0];
    let mut values = table.values.clone();
    let slot = values.iter().position(|v| v.is_some()).unwrap();
    values[slot] = Packed::new(match values[slot].get().unwrap() {
        Value::Win(_) => Value::Draw,
        _ => Value::Win(1),
    });
    TablebaseDir::new(dir.path(), &rules)
        .write(
            layer_table(&rules, placed, table.subspace),
            TableData::Game(&values),
        )
        .unwrap();
    let third = placing_earlier(true);
    for &(p, s, earlier, ok) in &third {
        let reads_altered = p == placed - 1
            && successor_subspaces(
                &rules,
                tigadi_tablebase::Tier::after_placements(&rules, p as u32, s),
            )
            .contains(&table.subspace);
        let altered = p == placed && s == table.subspace;
        assert_eq!(earlier, !(altered || reads_altered), "layer {p} {s}");
        if altered {
            assert!(!ok);
        }
    }
    assert!(third
        .iter()
        .any(|&(p, _, earlier, _)| p == placed - 1 && !earlier));
}

/// `answer` (what the bindings' probes call) answers placing positions:
/// `get::<field::Dtc>` and every placement of `probe_moves`, as moves of the
/// notation, and agrees with `report` (what `tigadi probe` prints);
/// `answer_value` is the same without the moves.
#[test]
fn answer_answers_placing_positions() {
    let rules = RuleSet::parse("tigadi,pieces=3").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let layers = solve_and_write_all(dir.path(), rules);
    let tb = Tablebase::open(dir.path(), &rules);
    let mut checked = 0;
    for (placed, layer) in layers.iter().enumerate() {
        for s in layer {
            let idx = SubspaceIndex::new(s.subspace);
            for (_, board) in idx.boards(0..idx.slots()).step_by(11) {
                let side = if placed % 2 == 0 {
                    tigadi_rules::Side::Bone
                } else {
                    tigadi_rules::Side::Seed
                };
                let mut position = Position::from_board(board, side, 0);
                let hands = tigadi_tablebase::Hands::after_placements(&rules, placed as u32);
                let (mover_hand, other_hand) = (hands.mover, hands.opponent);
                (position.bone_hand, position.seed_hand) = match side {
                    tigadi_rules::Side::Bone => (mover_hand, other_hand),
                    tigadi_rules::Side::Seed => (other_hand, mover_hand),
                };
                if position.validate(&rules).is_err() {
                    // A slot no game reaches (a tigadi no capture accounts for):
                    // the door refuses it.
                    assert!(matches!(
                        tb.answer(&position),
                        Err(tigadi_tablebase::TablebaseError::InvalidPosition(_))
                    ));
                    continue;
                }
                let answer = tb.answer(&position).unwrap();
                assert_eq!(
                    answer.value,
                    tb.get::<field::Dtc>(
                        tigadi_tablebase::Hands::after_placements(&rules, placed as u32),
                        board
                    )
                    .unwrap()
                );
                let value_only = tb.answer_value(&position).unwrap();
                assert_eq!(
                    (value_only.value, value_only.rule),
                    (answer.value, answer.rule)
                );
                assert!(value_only.moves.is_empty());
                let placements = tb
                    .probe_moves(
                        tigadi_tablebase::Hands::after_placements(&rules, placed as u32),
                        board,
                    )
                    .unwrap();
                assert_eq!(answer.moves.len(), placements.len());
                for (t, (p, w)) in answer.moves.iter().zip(&placements) {
                    assert_eq!(&t.value, w);
                    assert_eq!(t.turn, *p);
                    assert!(matches!(p, tigadi_rules::Move::Place { .. }));
                }
                // The index holds boards no game reaches (a tigadi while placing that
                // no capture accounts for, docs/RULES.md §9): `report` refuses them.
                if position.validate(&rules).is_err() {
                    assert!(tb.report(&position.to_string()).is_err(), "{position}");
                    continue;
                }
                let report = tb.report(&position.to_string()).unwrap();
                assert_eq!(report, answer);
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn evaluate_placing_matches_the_solver() {
    let rules = RuleSet::parse("navakankari,pieces=3").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let layers = solve_and_write_all(dir.path(), rules);
    let tb = Tablebase::open(dir.path(), &rules);
    let last = tigadi_tablebase::placing_turns(&rules) - 1;
    for (placed, layer) in layers.iter().enumerate() {
        let placed = placed as u32;
        for s in layer {
            let idx = SubspaceIndex::new(s.subspace);
            for (slot, board) in idx.boards(0..idx.slots()) {
                let v = evaluate_placing(
                    &rules,
                    tigadi_values::Hands::after_placements(&rules, placed),
                    board,
                    |b| {
                        if placed == last {
                            tb.probe(b).unwrap()
                        } else {
                            tb.get::<field::Dtc>(
                                tigadi_tablebase::Hands::after_placements(
                                    &rules,
                                    (placed as u8 + 1) as u32,
                                ),
                                b,
                            )
                            .unwrap()
                        }
                    },
                );
                assert_eq!(Some(v), s.values[slot as usize].get());
            }
        }
    }
}

/// The default rule sets' moving-phase headers keep the reserved bytes 22 and 23
/// at 0 (pieces 9, moving phase): files of milestone 1 are byte-identical.
#[test]
fn standard_moving_headers_are_unchanged() {
    let rules = RuleSet::TIGADI;
    let tables = common::solve(rules, 6);
    let sub = Subspace::new(3, 3);
    let id = common::game(sub);
    let bytes = encode(&rules, id, TableData::Game(&tables[&sub])).unwrap();
    assert_eq!(&bytes[22..24], &[0, 0]);
    let h = Header::parse(&bytes, std::path::Path::new("3v3.tgtb")).unwrap();
    assert_eq!((h.hands, h.rules), (tigadi_tablebase::Hands::EMPTY, rules));
    // pieces=4 is recorded, and read back.
    let four = RuleSet::parse("tigadi,pieces=4").unwrap();
    let bytes = encode(&four, id, TableData::Game(&tables[&sub])).unwrap();
    assert_eq!(bytes[22], 4);
    let h = Header::parse(&bytes, std::path::Path::new("3v3.tgtb")).unwrap();
    assert_eq!(h.rules, four);
    let dir = tempfile::tempdir().unwrap();
    let path = TablebaseDir::new(dir.path(), &four)
        .write(id, TableData::Game(&tables[&sub]))
        .unwrap();
    assert!(path.to_string_lossy().contains("tigadi_pieces-4"));
}
