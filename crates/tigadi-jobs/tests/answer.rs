//! `Tablebase::answer` on tables without horizon tables is `probe` plus
//! `probe_moves` (placing positions: `tests/placing.rs`), `answer_value` the
//! same without the moves, and both serialise to the fields `tigadi probe --json`
//! documents.

use crate::common;

use common::{boards, solve_and_write};
use tigadi_index::Subspace;
use tigadi_rules::{Position, Rng, RuleSet, Side};
use tigadi_solve::Value;
use tigadi_tablebase::{Tablebase, TablebaseError};

#[test]
fn answer_is_probe_and_probe_moves() {
    let dir = tempfile::tempdir().unwrap();
    solve_and_write(dir.path(), RuleSet::TIGADI, 6);
    let tb = Tablebase::open(dir.path(), &RuleSet::TIGADI);
    let all = boards(Subspace::new(3, 3));
    let mut rng = Rng::seeded(0x5eed);
    let mut kinds = [0usize; 3];
    for _ in 0..2000 {
        let (_, board) = all[rng.below(all.len())];
        let side = if rng.below(2) == 0 {
            Side::Bone
        } else {
            Side::Seed
        };
        let quiet = rng.below(100) as u16;
        let position = Position::from_board(board, side, quiet);
        let answer = tb.answer(&position).unwrap();
        assert_eq!(answer.value, tb.probe(board).unwrap());
        assert_eq!((answer.rule, answer.over), (None, None));
        let moves: Vec<(tigadi_rules::Move, Value)> = tb
            .probe_moves(tigadi_tablebase::Hands::EMPTY, board)
            .unwrap();
        let turns: Vec<(tigadi_rules::Move, Value)> =
            answer.moves.iter().map(|t| (t.turn, t.value)).collect();
        assert_eq!(turns, moves);
        assert!(answer.moves.iter().all(|t| t.rule.is_none()));
        let value_only = tb.answer_value(&position).unwrap();
        assert_eq!(
            value_only,
            tigadi_tablebase::ProbeReport {
                moves: Vec::new(),
                ..answer.clone()
            }
        );

        let json = serde_json::to_value(&answer).unwrap();
        let name = |v: Value| match v {
            Value::Win(_) => "win",
            Value::Draw => "draw",
            Value::Loss(_) => "loss",
        };
        kinds[answer.value.wdl() as usize] += 1;
        assert_eq!(json["value"], name(answer.value));
        assert_eq!(json["dtc"], serde_json::json!(answer.value.dtc()));
        let moves = json["moves"].as_array().unwrap();
        assert_eq!(moves.len(), answer.moves.len());
        for (m, t) in moves.iter().zip(&answer.moves) {
            let (turn, v) = (t.turn, &t.value);
            assert_eq!(m["move"], turn.to_string());
            assert_eq!(m["value"], name(*v));
            match v {
                Value::Draw => assert!(m["dtc"].is_null()),
                Value::Win(d) | Value::Loss(d) => assert_eq!(m["dtc"], *d),
            }
        }
    }
    assert!(kinds.iter().all(|&k| k > 100), "{kinds:?}");

    // A placing position is answered from the placing tables, absent here.
    let placing = tigadi_rules::parse_position(
        &tigadi_rules::RuleSet::TIGADI,
        "BB./S../.../...S../.../.../SB. S 1 2",
    )
    .unwrap();
    for answer in [tb.answer(&placing), tb.answer_value(&placing)] {
        assert!(matches!(
            answer,
            Err(TablebaseError::MissingSubspace { .. })
        ));
    }
}
