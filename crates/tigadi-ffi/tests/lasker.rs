//! Issue 53: the C library on Lasker positions (`slides=always`) without
//! tables: a position whose hands no alternate placing gives parses, and its
//! probe and answer report the missing table (`TIGADI_ERR_MISSING_TABLE`),
//! never an invalid position, a crash or a value; hands no game reaches are
//! still an invalid position. On solved `lasker,pieces=3` tables, a position
//! whose player may place or slide is answered with both kinds of turn.

use std::ffi::CString;
use tigadi::*;

/// Bone has placed two, Seed one and slid once (8 and 9 in hand), Bone to move.
const SLID: &str = ".../.../.../BB..../.../.../S.. B 8 9";

#[test]
fn a_lasker_position_without_its_table_is_a_missing_table() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("lasker")).unwrap();
    let path = CString::new(dir.path().to_str().unwrap()).unwrap();
    let mut tb = std::ptr::null_mut();
    unsafe {
        assert_eq!(
            tigadi_open(path.as_ptr(), c"lasker".as_ptr(), &mut tb),
            TIGADI_OK
        );
        let mut p = TigadiPosition::default();
        let text = CString::new(SLID).unwrap();
        assert_eq!(
            tigadi_parse_any_position(tb, text.as_ptr(), &mut p),
            TIGADI_OK
        );
        assert_eq!((p.bone_hand, p.seed_hand), (8, 9));
        let mut value = TigadiValue::default();
        let probe = |p: &TigadiPosition, value: &mut TigadiValue| {
            tigadi_probe_any(tb, p.bone, p.seed, p.side, p.bone_hand, p.seed_hand, value)
        };
        assert_eq!(probe(&p, &mut value), TIGADI_ERR_MISSING_TABLE);
        let mut answer = TigadiAnswer::default();
        assert_eq!(tigadi_answer(tb, &p, &mut answer), TIGADI_ERR_MISSING_TABLE);
        // Seed holding all ten with a goti on the board: no game reaches it.
        let mut q = p;
        q.seed_hand = 10;
        assert_eq!(probe(&q, &mut value), TIGADI_ERR_INVALID_POSITION);
        tigadi_close(tb);
    }
}

struct Silent;
impl tigadi_solve::Observer for Silent {}
impl tigadi_jobs::JobObserver for Silent {}

/// On solved `lasker,pieces=3` tables (game values), `tigadi_answer_root`
/// answers a position whose player has one goti on the board and two in hand
/// (so may place, or fly): its value and every turn, placements and slides, as
/// the Rust prober gives them (which `lasker_oracle` checks against the naive
/// oracle).
#[test]
fn a_lasker_position_with_slides_in_hand_is_answered() {
    let rules = tigadi_rules::RuleSet::parse("lasker,pieces=3").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let steps = tigadi_jobs::steps(&rules, tigadi_jobs::Scope::Whole);
    let kinds = [tigadi_tablebase::TableKind::GameTheoretic];
    tigadi_jobs::solve(
        dir.path(),
        &rules,
        &steps,
        &kinds,
        &Default::default(),
        &Silent,
    )
    .unwrap();
    let text = "B../.../.../....../.../.../..S B 2 2";
    let position = tigadi_rules::parse_position(&rules, text).unwrap();
    let prober = tigadi_tablebase::Tablebase::open(dir.path(), &rules);
    let want = prober
        .probe_moves(tigadi_tablebase::hands_of(&position), position.to_board())
        .unwrap();
    let path = CString::new(dir.path().to_str().unwrap()).unwrap();
    let mut tb = std::ptr::null_mut();
    unsafe {
        assert_eq!(
            tigadi_open(path.as_ptr(), c"lasker,pieces=3".as_ptr(), &mut tb),
            TIGADI_OK
        );
        let mut p = TigadiPosition::default();
        let c_text = CString::new(text).unwrap();
        assert_eq!(
            tigadi_parse_any_position(tb, c_text.as_ptr(), &mut p),
            TIGADI_OK
        );
        let mut answer = TigadiAnswer::default();
        let mut moves = vec![TigadiAnswerMove::default(); 64];
        let mut count = 0;
        let code = tigadi_answer_root(
            tb,
            &p,
            &mut answer,
            moves.as_mut_ptr(),
            moves.len(),
            &mut count,
        );
        assert_eq!(code, TIGADI_OK);
        assert_eq!(count, want.len());
        let c_value = |v: tigadi_values::Value| match v {
            tigadi_values::Value::Win(d) => (TIGADI_WIN, d as u32),
            tigadi_values::Value::Draw => (TIGADI_DRAW, 0),
            tigadi_values::Value::Loss(d) => (TIGADI_LOSS, d as u32),
        };
        assert_eq!((answer.value.wdl, answer.value.dtc), c_value(want[0].1));
        let slides = moves[..count]
            .iter()
            .filter(|m| m.mv.from != TIGADI_NO_POINT)
            .count();
        assert!(slides > 0 && slides < count, "{slides} slides of {count}");
        let mut got: Vec<_> = moves[..count]
            .iter()
            .map(|m| (m.mv.from, m.mv.to, (m.value.wdl, m.value.dtc)))
            .collect();
        let mut expected: Vec<_> = want
            .iter()
            .map(|(m, v)| {
                let (from, to) = match *m {
                    tigadi_rules::Move::Slide { from, to, .. } => {
                        (from.index() as u8, to.index() as u8)
                    }
                    tigadi_rules::Move::Place { to, .. } => (TIGADI_NO_POINT, to.index() as u8),
                    tigadi_rules::Move::Pass => unreachable!(),
                };
                (from, to, c_value(*v))
            })
            .collect();
        got.sort();
        expected.sort();
        assert_eq!(got, expected);
        tigadi_close(tb);
    }
}
