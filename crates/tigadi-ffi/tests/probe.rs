//! The C library answers as the Rust prober does, through its Rust symbols and
//! through a C program compiled with the system C compiler (`cc`) against
//! `include/tigadi.h` and the static library.
//!
//! Input: `tigadi` solved up to 7 gotis on the board (3v3, 3v4, 4v3) into a
//! temporary directory, once per run.

use std::ffi::{c_char, CStr, CString};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use tigadi::*;
use tigadi_rules::{Board, Position, RuleSet, Side};
use tigadi_solve::{retrograde::Quiet, solve_up_to, Value, Wdl};
use tigadi_tablebase::{write_subspace, Tablebase};

const RULES: RuleSet = RuleSet::TIGADI;
const MAX_GOTIS: u32 = 7;

/// The solved tablebase directory (solved once per test binary).
fn tables() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temporary directory");
        solve_up_to(&RULES, MAX_GOTIS, &Quiet, |_, solved, _| {
            for s in solved {
                write_subspace(dir.path(), &RULES, s.subspace, &s.values).expect("writes");
            }
        });
        dir
    })
    .path()
}

fn c_string(s: &str) -> CString {
    CString::new(s).unwrap()
}

/// A handle on the solved tables (leaked: the tests share it).
fn handle() -> *const TigadiTablebase {
    struct Shared(*mut TigadiTablebase);
    unsafe impl Send for Shared {}
    unsafe impl Sync for Shared {}
    static TB: OnceLock<Shared> = OnceLock::new();
    TB.get_or_init(|| {
        let mut tb = std::ptr::null_mut();
        let dir = c_string(tables().to_str().unwrap());
        let code = unsafe { tigadi_open(dir.as_ptr(), c"tigadi".as_ptr(), &mut tb) };
        assert_eq!(code, TIGADI_OK);
        Shared(tb)
    })
    .0
}

/// splitmix64, so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A random position of a solved subspace: `(bone, seed, side)`.
    fn position(&mut self) -> Position {
        let (m, o) = [(3, 3), (3, 4), (4, 3)][(self.next() % 3) as usize];
        let mut points: Vec<u32> = (0..24).collect();
        for i in 0..points.len() {
            let j = i + (self.next() % (24 - i as u64)) as usize;
            points.swap(i, j);
        }
        let set = |p: &[u32]| p.iter().fold(0, |a, &b| a | 1 << b);
        let board = Board {
            mover: set(&points[..m]),
            opponent: set(&points[m..m + o]),
        };
        let side = if self.next() & 1 == 0 {
            Side::Bone
        } else {
            Side::Seed
        };
        Position::from_board(board, side, 0)
    }
}

fn side_code(side: Side) -> u32 {
    match side {
        Side::Bone => TIGADI_BONE,
        Side::Seed => TIGADI_SEED,
    }
}

/// The expected C value of a Rust value (independently of the library's mapping).
fn expected(v: Value) -> TigadiValue {
    let (wdl, dtc) = match v {
        Value::Win(d) => (TIGADI_WIN, d as u32),
        Value::Draw => (TIGADI_DRAW, 0),
        Value::Loss(d) => (TIGADI_LOSS, d as u32),
    };
    TigadiValue { wdl, dtc }
}

fn message(code: i32) -> String {
    unsafe { CStr::from_ptr(tigadi_error_message(code)) }
        .to_str()
        .unwrap()
        .to_string()
}

#[test]
fn rust_symbols_agree_with_the_prober() {
    let rust = Tablebase::open(tables(), &RULES);
    let tb = handle();
    let mut rng = Rng(11);
    let mut root = vec![TigadiRootMove::default(); TIGADI_MAX_MOVES];
    let mut legal = vec![TigadiMove::default(); TIGADI_MAX_MOVES];
    for _ in 0..2000 {
        let p = rng.position();
        let board = p.to_board();
        let (bone, seed, side) = (p.bone, p.seed, side_code(p.side));
        let value = rust.probe(board).unwrap();
        let (mut wdl, mut v) = (-1, TigadiValue::default());
        unsafe {
            assert_eq!(tigadi_probe_wdl(tb, bone, seed, side, &mut wdl), TIGADI_OK);
            assert_eq!(tigadi_probe(tb, bone, seed, side, &mut v), TIGADI_OK);
        }
        assert_eq!(v, expected(value), "{p}");
        assert_eq!(wdl, expected(value).wdl, "{p}");
        assert_eq!(rust.probe_wdl(board).unwrap(), value.wdl());

        let moves = rust.probe_moves(board).unwrap();
        let mut n = 0;
        let code = unsafe {
            tigadi_probe_root(tb, bone, seed, side, root.as_mut_ptr(), root.len(), &mut n)
        };
        assert_eq!(code, TIGADI_OK);
        assert_eq!(n, moves.len());
        for (c, (turn, v)) in root.iter().zip(&moves) {
            assert_eq!(c.value, expected(*v), "{p} {turn}");
            assert_eq!(move_text(c.mv), turn.to_string(), "{p}");
        }
        let (mut best, mut best_value) = (TigadiMove::default(), TigadiValue::default());
        let code = unsafe { tigadi_best_move(tb, bone, seed, side, &mut best, &mut best_value) };
        if moves.is_empty() {
            assert_eq!(code, TIGADI_ERR_NO_MOVE);
        } else {
            assert_eq!(code, TIGADI_OK);
            assert_eq!(move_text(best), moves[0].0.to_string());
            assert_eq!(best_value, expected(value), "the best move keeps the value");
        }

        let legal_moves = p.legal_moves(&RULES);
        let code = unsafe {
            tigadi_legal_moves(
                tb,
                bone,
                seed,
                side,
                legal.as_mut_ptr(),
                legal.len(),
                &mut n,
            )
        };
        assert_eq!(code, TIGADI_OK);
        let names: Vec<String> = legal[..n].iter().map(|&m| move_text(m)).collect();
        let want: Vec<String> = legal_moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(names, want, "{p}");
    }
}

/// A move in docs/RULES.md notation, from the documented encoding of `TigadiMove`.
fn move_text(m: TigadiMove) -> String {
    let name = |p: u8| tigadi_rules::Point::new(p as usize).unwrap().name();
    if m.from == TIGADI_NO_POINT {
        assert_eq!((m.to, m.capture), (TIGADI_NO_POINT, TIGADI_NO_POINT));
        return "pass".into();
    }
    let mut s = format!("{}-{}", name(m.from), name(m.to));
    if m.capture != TIGADI_NO_POINT {
        s += &format!("x{}", name(m.capture));
    }
    s
}

#[test]
fn bad_input_gets_a_code_never_a_panic() {
    let tb = handle();
    let bit = |n: &str| tigadi_rules::Point::parse(n).unwrap().bit();
    let three = bit("a7") | bit("d7") | bit("g7");
    let other = bit("a1") | bit("d1") | bit("g1");
    let mut v = TigadiValue::default();
    let probe =
        |bone, seed, side, v: &mut TigadiValue| unsafe { tigadi_probe(tb, bone, seed, side, v) };
    assert_eq!(probe(three, other, TIGADI_BONE, &mut v), TIGADI_OK);
    assert_eq!(probe(three, other, 2, &mut v), TIGADI_ERR_BAD_SIDE);
    assert_eq!(
        probe(three, three, TIGADI_BONE, &mut v),
        TIGADI_ERR_INVALID_POSITION
    );
    assert_eq!(
        probe(three | 1 << 24, other, TIGADI_BONE, &mut v),
        TIGADI_ERR_INVALID_POSITION
    );
    assert_eq!(
        probe(three & !bit("a7"), other, TIGADI_SEED, &mut v),
        TIGADI_ERR_INVALID_POSITION
    );
    // 4v4 was not solved.
    assert_eq!(
        probe(three | bit("g4"), other | bit("a4"), TIGADI_BONE, &mut v),
        TIGADI_ERR_MISSING_TABLE
    );
    unsafe {
        assert_eq!(
            tigadi_probe(tb, three, other, 0, std::ptr::null_mut()),
            TIGADI_ERR_NULL_ARGUMENT
        );
        assert_eq!(
            tigadi_probe(std::ptr::null(), three, other, 0, &mut v),
            TIGADI_ERR_NULL_ARGUMENT
        );
        let mut wdl = 0;
        assert_eq!(
            tigadi_probe_wdl(std::ptr::null(), three, other, 0, &mut wdl),
            TIGADI_ERR_NULL_ARGUMENT
        );
        let mut n = 0;
        assert_eq!(
            tigadi_legal_moves(tb, three, other, 0, std::ptr::null_mut(), 5, &mut n),
            TIGADI_ERR_NULL_ARGUMENT
        );
        // Too small a buffer: the count needed, and the first entries.
        let mut all = vec![TigadiMove::default(); TIGADI_MAX_MOVES];
        assert_eq!(
            tigadi_legal_moves(tb, three, other, 0, all.as_mut_ptr(), all.len(), &mut n),
            TIGADI_OK
        );
        assert!(n > 2);
        let mut two = [TigadiMove::default(); 2];
        let mut needed = 0;
        assert_eq!(
            tigadi_legal_moves(tb, three, other, 0, two.as_mut_ptr(), 2, &mut needed),
            TIGADI_ERR_BUFFER_TOO_SMALL
        );
        assert_eq!((needed, &two[..]), (n, &all[..2]));
        assert_eq!(
            tigadi_probe_root(tb, three, other, 0, std::ptr::null_mut(), 0, &mut needed),
            TIGADI_ERR_BUFFER_TOO_SMALL
        );
        assert_eq!(needed, n);

        // Opening.
        let mut out = std::ptr::dangling_mut::<TigadiTablebase>();
        let dir = c_string(tables().to_str().unwrap());
        assert_eq!(
            tigadi_open(dir.as_ptr(), c"chess".as_ptr(), &mut out),
            TIGADI_ERR_BAD_RULES
        );
        assert!(out.is_null());
        assert_eq!(
            tigadi_open(dir.as_ptr(), c"morris".as_ptr(), &mut out),
            TIGADI_ERR_NO_DIRECTORY
        );
        let missing = c_string(tables().join("nowhere").to_str().unwrap());
        assert_eq!(
            tigadi_open(missing.as_ptr(), c"tigadi".as_ptr(), &mut out),
            TIGADI_ERR_NO_DIRECTORY
        );
        assert_eq!(
            tigadi_open(std::ptr::null(), c"tigadi".as_ptr(), &mut out),
            TIGADI_ERR_NULL_ARGUMENT
        );
        assert_eq!(
            tigadi_open(dir.as_ptr(), c"tigadi".as_ptr(), std::ptr::null_mut()),
            TIGADI_ERR_NULL_ARGUMENT
        );
        let bad_utf8 = [0xFFu8, 0];
        assert_eq!(
            tigadi_open(dir.as_ptr(), bad_utf8.as_ptr() as *const c_char, &mut out),
            TIGADI_ERR_BAD_STRING
        );
        tigadi_close(std::ptr::null_mut());

        // Position strings.
        let (mut b, mut s, mut side) = (0, 0, 9);
        let text = c"BB./S../.../...S../.../.../SB. S";
        assert_eq!(
            tigadi_parse_position(text.as_ptr(), &mut b, &mut s, &mut side),
            TIGADI_OK
        );
        assert_eq!(
            (b, s, side),
            (
                bit("a7") | bit("d7") | bit("d1"),
                bit("b6") | bit("e4") | bit("a1"),
                TIGADI_SEED
            )
        );
        for bad in [
            c"BB./S../...",
            c".../.../.../....../.../.../... B 9 9",
            c"BB./S../.../...S../.../.../SB. X",
        ] {
            assert_eq!(
                tigadi_parse_position(bad.as_ptr(), &mut b, &mut s, &mut side),
                TIGADI_ERR_BAD_POSITION_STRING
            );
        }
    }
    // Every code has its own message.
    let codes = [
        TIGADI_OK,
        TIGADI_ERR_NULL_ARGUMENT,
        TIGADI_ERR_BAD_STRING,
        TIGADI_ERR_BAD_RULES,
        TIGADI_ERR_NO_DIRECTORY,
        TIGADI_ERR_BAD_SIDE,
        TIGADI_ERR_INVALID_POSITION,
        TIGADI_ERR_MISSING_TABLE,
        TIGADI_ERR_CORRUPT_TABLE,
        TIGADI_ERR_RULES_MISMATCH,
        TIGADI_ERR_IO,
        TIGADI_ERR_BUFFER_TOO_SMALL,
        TIGADI_ERR_NO_MOVE,
        TIGADI_ERR_BAD_POSITION_STRING,
        TIGADI_ERR_INTERNAL,
    ];
    let messages: std::collections::HashSet<String> = codes.iter().map(|&c| message(c)).collect();
    assert_eq!(messages.len(), codes.len());
    assert_eq!(message(-7), "unknown status code");
}

#[test]
fn a_damaged_table_is_reported() {
    let copy = tempfile::tempdir().unwrap();
    let rules_dir = tigadi_tablebase::rules_dir(copy.path(), &RULES);
    std::fs::create_dir_all(&rules_dir).unwrap();
    let file = tigadi_tablebase::rules_dir(tables(), &RULES).join("3v3.tgtb");
    let mut bytes = std::fs::read(file).unwrap();
    bytes[40] ^= 1; // a class count in the header, under the head checksum
    std::fs::write(rules_dir.join("3v3.tgtb"), bytes).unwrap();
    let dir = c_string(copy.path().to_str().unwrap());
    let mut tb = std::ptr::null_mut();
    let mut v = TigadiValue::default();
    let bit = |n: &str| tigadi_rules::Point::parse(n).unwrap().bit();
    unsafe {
        assert_eq!(
            tigadi_open(dir.as_ptr(), c"tigadi".as_ptr(), &mut tb),
            TIGADI_OK
        );
        let code = tigadi_probe(
            tb,
            bit("a7") | bit("d7") | bit("g7"),
            bit("a1") | bit("d1") | bit("g1"),
            0,
            &mut v,
        );
        assert_eq!(code, TIGADI_ERR_CORRUPT_TABLE);
        tigadi_close(tb);
    }
}

#[test]
fn one_handle_serves_many_threads() {
    let rust = Tablebase::open(tables(), &RULES);
    struct Handle(*const TigadiTablebase);
    unsafe impl Sync for Handle {}
    let tb = Handle(handle());
    std::thread::scope(|scope| {
        for t in 0..4 {
            let (tb, rust) = (&tb, &rust);
            scope.spawn(move || {
                let mut rng = Rng(100 + t);
                for _ in 0..2000 {
                    let p = rng.position();
                    let mut v = TigadiValue::default();
                    let code =
                        unsafe { tigadi_probe(tb.0, p.bone, p.seed, side_code(p.side), &mut v) };
                    assert_eq!(code, TIGADI_OK);
                    assert_eq!(v, expected(rust.probe(p.to_board()).unwrap()));
                }
            });
        }
    });
}

/// The static library this test binary was built with (cargo builds the library's
/// `staticlib` beside the `rlib` the test links).
fn static_library() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    for dir in [deps, deps.parent().unwrap()] {
        let lib = dir.join("libtigadi.a");
        if lib.is_file() {
            return lib;
        }
    }
    panic!("libtigadi.a not found beside {}", deps.display());
}

#[test]
fn the_c_example_agrees_with_the_prober() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = tempfile::tempdir().unwrap();
    let exe = out.path().join("probe");
    let status = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-O2", "-I"])
        .arg(root.join("crates/tigadi-ffi/include"))
        .arg(root.join("examples/c/probe.c"))
        .arg(static_library())
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&exe)
        .status()
        .expect("the system C compiler (cc) runs");
    assert!(status.success(), "probe.c compiles and links");

    let rust = Tablebase::open(tables(), &RULES);
    let mut rng = Rng(7);
    let positions: Vec<Position> = (0..300).map(|_| rng.position()).collect();
    let input: String = positions.iter().map(|p| format!("{p}\n")).collect();
    let mut child = Command::new(&exe)
        .arg(tables())
        .arg("tigadi")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
    }
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "probe exits 0");
    let text = String::from_utf8(output.stdout).unwrap();

    // What the program should print, from the Rust prober and rules engine.
    let mut want = String::new();
    for p in &positions {
        let board = p.to_board();
        let value = rust.probe(board).unwrap();
        let wdl = |w: Wdl| w.to_string();
        want += &format!(
            "position {p}\nwdl {}\n",
            wdl(rust.probe_wdl(board).unwrap())
        );
        want += &format!("value {} {}\n", wdl(value.wdl()), value.dtc().unwrap_or(0));
        let moves = rust.probe_moves(board).unwrap();
        match moves.first() {
            Some((t, _)) => want += &format!("best {t}\n"),
            None => want += "best none\n",
        }
        for (t, v) in &moves {
            want += &format!("move {t} {} {}\n", wdl(v.wdl()), v.dtc().unwrap_or(0));
        }
        want += "legal";
        for m in p.legal_moves(&RULES) {
            want += &format!(" {m}");
        }
        want += "\n";
    }
    assert_eq!(text, want);
    // The sample has every kind of value.
    for word in ["value win", "value draw", "value loss"] {
        assert!(text.contains(word), "no '{word}' among the positions");
    }

    // Errors come out as codes with their messages, and a non-zero exit.
    let bad = Command::new(&exe)
        .arg(tables())
        .arg("tigadi")
        .arg("BBB/.../.../....../.../.../SS. B")
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(1));
    let line = String::from_utf8(bad.stdout).unwrap();
    assert!(
        line.contains(&format!(
            "error {TIGADI_ERR_BAD_POSITION_STRING} {}",
            message(TIGADI_ERR_BAD_POSITION_STRING)
        )),
        "{line}"
    );
    let no_dir = Command::new(&exe)
        .arg(out.path())
        .arg("tigadi")
        .output()
        .unwrap();
    assert_eq!(no_dir.status.code(), Some(2));
}

/// The whole game of `tigadi,pieces=3` (moving phase and every placing table) in a
/// temporary directory, solved once per test binary, and a handle on it.
fn whole_game() -> (*const TigadiTablebase, &'static Tablebase) {
    struct Shared(*mut TigadiTablebase, Tablebase);
    unsafe impl Send for Shared {}
    unsafe impl Sync for Shared {}
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    static TB: OnceLock<Shared> = OnceLock::new();
    let rules = RuleSet::parse("tigadi,pieces=3").unwrap();
    let shared = TB.get_or_init(|| {
        let dir = DIR.get_or_init(|| {
            let dir = tempfile::tempdir().expect("temporary directory");
            let moving = solve_up_to(&rules, 6, &Quiet, |_, solved, _| {
                for s in solved {
                    write_subspace(dir.path(), &rules, s.subspace, &s.values).expect("writes");
                }
            });
            let tables = tigadi_solve::SolvedTable::views(&moving);
            let layers =
                tigadi_solve::placing::solve_placing(&rules, &tables, &Quiet, |_, _| {}).unwrap();
            for (placed, layer) in layers.iter().enumerate() {
                for s in layer {
                    tigadi_tablebase::write_placing(
                        dir.path(),
                        &rules,
                        placed as u8,
                        s.subspace,
                        &s.values,
                    )
                    .expect("writes");
                }
            }
            dir
        });
        let mut tb = std::ptr::null_mut();
        let path = c_string(dir.path().to_str().unwrap());
        let code = unsafe { tigadi_open(path.as_ptr(), c"tigadi,pieces=3".as_ptr(), &mut tb) };
        assert_eq!(code, TIGADI_OK);
        Shared(tb, Tablebase::open(dir.path(), &rules))
    });
    (shared.0, &shared.1)
}

/// `tigadi_probe_any` answers every position of random games from the empty board,
/// placing phase and moving phase, as the Rust prober does, and
/// `tigadi_parse_any_position` reads their strings back; bad hands get a code.
#[test]
fn positions_of_either_phase_are_probed_as_the_prober_does() {
    let (tb, rust) = whole_game();
    let rules = *rust.rules();
    let mut rng = Rng(21);
    let (mut placing, mut moving) = (0, 0);
    for _ in 0..60 {
        let mut p = Position::start(&rules);
        for _ in 0..40 {
            if p.decided(&rules).is_some() {
                break;
            }
            let text = c_string(&p.to_string());
            let (mut bone, mut seed, mut side, mut bh, mut sh) = (0, 0, 9, 99, 99);
            let code = unsafe {
                tigadi_parse_any_position(
                    text.as_ptr(),
                    &mut bone,
                    &mut seed,
                    &mut side,
                    &mut bh,
                    &mut sh,
                )
            };
            assert_eq!(code, TIGADI_OK, "{p}");
            assert_eq!(
                (bone, seed, side, bh, sh),
                (
                    p.bone,
                    p.seed,
                    side_code(p.side),
                    p.bone_hand as u32,
                    p.seed_hand as u32
                )
            );
            let mut v = TigadiValue::default();
            let code = unsafe { tigadi_probe_any(tb, bone, seed, side, bh, sh, &mut v) };
            assert_eq!(code, TIGADI_OK, "{p}: {}", message(code));
            let p0 = Position {
                quiet_turns: 0,
                ..p
            };
            assert_eq!(v, expected(rust.probe_position_value(&p0).unwrap()), "{p}");
            if bh + sh > 0 {
                placing += 1;
            } else {
                moving += 1;
            }
            let moves = p.legal_moves(&rules);
            if moves.is_empty() {
                break;
            }
            p = p.apply(moves[(rng.next() % moves.len() as u64) as usize]);
        }
    }
    assert!(placing > 200 && moving > 200, "{placing} {moving}");

    // Hands that do not fit the side to move, or too large, or a bad side.
    let mut v = TigadiValue::default();
    let empty =
        |side, bh, sh, v: &mut TigadiValue| unsafe { tigadi_probe_any(tb, 0, 0, side, bh, sh, v) };
    assert_eq!(empty(TIGADI_BONE, 3, 3, &mut v), TIGADI_OK);
    assert_eq!(
        empty(TIGADI_SEED, 3, 3, &mut v),
        TIGADI_ERR_INVALID_POSITION
    );
    assert_eq!(
        empty(TIGADI_BONE, 300, 300, &mut v),
        TIGADI_ERR_INVALID_POSITION
    );
    assert_eq!(
        empty(TIGADI_BONE, 4, 4, &mut v),
        TIGADI_ERR_INVALID_POSITION
    );
    assert_eq!(empty(7, 3, 3, &mut v), TIGADI_ERR_BAD_SIDE);
    let code = unsafe { tigadi_probe_any(tb, 0, 0, TIGADI_BONE, 3, 3, std::ptr::null_mut()) };
    assert_eq!(code, TIGADI_ERR_NULL_ARGUMENT);
    let code = unsafe {
        tigadi_parse_any_position(c"nonsense".as_ptr(), &mut 0, &mut 0, &mut 0, &mut 0, &mut 0)
    };
    assert_eq!(code, TIGADI_ERR_BAD_POSITION_STRING);
}
