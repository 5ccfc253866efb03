//! Issue 53: the C library on Lasker positions (`slides=always`) without
//! tables: a position whose hands no alternate placing gives parses, and its
//! probe and answer report the missing table (`TIGADI_ERR_MISSING_TABLE`),
//! never an invalid position, a crash or a value; hands no game reaches are
//! still an invalid position.

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
