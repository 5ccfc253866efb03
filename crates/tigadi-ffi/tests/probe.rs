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
use tigadi_rules::{Board, Position, Rng, RuleSet, Side};
use tigadi_solve::{solve_up_to, Quiet, Value, Wdl};
use tigadi_tablebase::{field, TableData, TableId, TableKind, Tablebase, TablebaseDir};

const RULES: RuleSet = RuleSet::TIGADI;
const MAX_GOTIS: u32 = 7;

/// The solved tablebase directory (solved once per test binary).
fn tables() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temporary directory");
        solve_up_to(&RULES, MAX_GOTIS, &Quiet, |_, solved, _| {
            for s in solved {
                TablebaseDir::new(dir.path(), &RULES)
                    .write(
                        TableId::moving(TableKind::GameTheoretic, s.subspace),
                        TableData::Game(&s.values),
                    )
                    .expect("writes");
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

/// A random position of a solved subspace: `(bone, seed, side)`, from the seeded
/// generator, so failures reproduce.
fn random_position(rng: &mut Rng) -> Position {
    let (m, o) = [(3, 3), (3, 4), (4, 3)][rng.below(3)];
    let mut points: Vec<u32> = (0..24).collect();
    for i in 0..points.len() {
        let j = i + rng.below(24 - i);
        points.swap(i, j);
    }
    let set = |p: &[u32]| p.iter().fold(0, |a, &b| a | 1 << b);
    let board = Board {
        mover: set(&points[..m]),
        opponent: set(&points[m..m + o]),
    };
    let side = if rng.below(2) == 0 {
        Side::Bone
    } else {
        Side::Seed
    };
    Position::from_board(board, side, 0)
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
    let mut rng = Rng::seeded(11);
    let mut root = vec![TigadiRootMove::default(); TIGADI_MAX_MOVES];
    let mut legal = vec![TigadiMove::default(); TIGADI_MAX_MOVES];
    for _ in 0..2000 {
        let p = random_position(&mut rng);
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

        let moves = rust
            .probe_moves(tigadi_tablebase::Hands::EMPTY, board)
            .unwrap();
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
            tigadi_parse_position(tb, text.as_ptr(), &mut b, &mut s, &mut side),
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
                tigadi_parse_position(tb, bad.as_ptr(), &mut b, &mut s, &mut side),
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
    let rules_dir = TablebaseDir::new(copy.path(), &RULES).path().to_path_buf();
    std::fs::create_dir_all(&rules_dir).unwrap();
    let file = TablebaseDir::new(tables(), &RULES).path().join("3v3.tgtb");
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
                let mut rng = Rng::seeded(100 + t);
                for _ in 0..2000 {
                    let p = random_position(&mut rng);
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
    let mut rng = Rng::seeded(7);
    let positions: Vec<Position> = (0..300).map(|_| random_position(&mut rng)).collect();
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
        let moves = rust
            .probe_moves(tigadi_tablebase::Hands::EMPTY, board)
            .unwrap();
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
                    TablebaseDir::new(dir.path(), &rules)
                        .write(
                            TableId::moving(TableKind::GameTheoretic, s.subspace),
                            TableData::Game(&s.values),
                        )
                        .expect("writes");
                }
            });
            let tables = tigadi_solve::SolvedTable::views(&moving);
            let layers =
                tigadi_solve::leaving::solve_placing(&rules, &tables, &Quiet, |_, _| {}).unwrap();
            for (placed, layer) in layers.iter().enumerate() {
                for s in layer {
                    TablebaseDir::new(dir.path(), &rules)
                        .write(
                            TableId::new(
                                TableKind::GameTheoretic,
                                tigadi_tablebase::Tier::after_placements(
                                    &rules,
                                    placed as u32,
                                    s.subspace,
                                ),
                            ),
                            TableData::Game(&s.values),
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
    let mut rng = Rng::seeded(21);
    let (mut placing, mut moving) = (0, 0);
    for _ in 0..60 {
        let mut p = Position::start(&rules);
        for _ in 0..40 {
            if p.decided(&rules).is_some() {
                break;
            }
            let text = c_string(&p.to_string());
            let mut c = TigadiPosition::default();
            let code = unsafe { tigadi_parse_any_position(tb, text.as_ptr(), &mut c) };
            assert_eq!(code, TIGADI_OK, "{p}");
            let (bone, seed, side, bh, sh) = (c.bone, c.seed, c.side, c.bone_hand, c.seed_hand);
            assert_eq!(
                (bone, seed, side, bh, sh, c.quiet_turns),
                (
                    p.bone,
                    p.seed,
                    side_code(p.side),
                    p.bone_hand as u32,
                    p.seed_hand as u32,
                    p.quiet_turns as u32
                )
            );
            let mut v = TigadiValue::default();
            let code = unsafe { tigadi_probe_any(tb, bone, seed, side, bh, sh, &mut v) };
            assert_eq!(code, TIGADI_OK, "{p}: {}", message(code));
            let p0 = Position {
                quiet_turns: 0,
                ..p
            };
            let value = rust.get_position::<field::Dtc>(&p0).unwrap();
            assert_eq!(v, expected(value), "{p}");
            if bh + sh > 0 {
                placing += 1;
            } else {
                moving += 1;
            }
            let moves = p.legal_moves(&rules);
            if moves.is_empty() {
                break;
            }
            p = p.apply(moves[rng.below(moves.len())]);
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
    // The message of the code for bad hands says so, whatever the phase.
    let said = message(TIGADI_ERR_INVALID_POSITION);
    assert!(
        said.starts_with("invalid position") && said.contains("hands"),
        "{said}"
    );
    assert!(!said.contains("moving-phase"), "{said}");
    assert_eq!(empty(7, 3, 3, &mut v), TIGADI_ERR_BAD_SIDE);
    let code = unsafe { tigadi_probe_any(tb, 0, 0, TIGADI_BONE, 3, 3, std::ptr::null_mut()) };
    assert_eq!(code, TIGADI_ERR_NULL_ARGUMENT);
    let mut c = TigadiPosition::default();
    let code = unsafe { tigadi_parse_any_position(tb, c"nonsense".as_ptr(), &mut c) };
    assert_eq!(code, TIGADI_ERR_BAD_POSITION_STRING);
}

/// The rule set solved whole by [`four_a_side`], with its horizon tables.
const PIECES4: &str = "tigadi,pieces=4";

/// The `tigadi` command of this build (`$TIGADI_BIN`, else `tigadi` beside the test
/// binary's folder, where `cargo build --release -p tigadi-cli` puts it): the
/// independent source the answers are compared with.
fn tigadi_bin() -> PathBuf {
    if let Some(path) = std::env::var_os("TIGADI_BIN") {
        return path.into();
    }
    let exe = std::env::current_exe().unwrap();
    let path = exe.parent().unwrap().parent().unwrap().join("tigadi");
    assert!(
        path.is_file(),
        "the tigadi command is needed at {}: run `cargo build --release -p tigadi-cli` \
         or set TIGADI_BIN",
        path.display()
    );
    path
}

/// Runs `command` with `input` on its standard input, written from another thread
/// while its output is read (so that neither pipe can fill and block both).
fn run_with_input(command: &mut Command, input: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the command runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().expect("writes the input");
    output
}

/// Runs the CLI with `args` and `stdin`, returning its standard output.
fn run_cli(args: &[&str], stdin: &str) -> String {
    let out = run_with_input(Command::new(tigadi_bin()).args(args), stdin);
    String::from_utf8(out.stdout).unwrap()
}

/// The whole game of `tigadi,pieces=4` (moving and placing tables, each with its
/// horizon table) solved by the CLI into a temporary directory once per test
/// binary, and a handle on it.
fn four_a_side() -> (*const TigadiTablebase, &'static Path) {
    struct Shared(*mut TigadiTablebase, tempfile::TempDir);
    unsafe impl Send for Shared {}
    unsafe impl Sync for Shared {}
    static TB: OnceLock<Shared> = OnceLock::new();
    let shared = TB.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = dir.path().to_str().unwrap();
        let status = Command::new(tigadi_bin())
            .args(["--rules", PIECES4, "solve", "--dtw", "--dir", path])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("the tigadi command runs");
        assert!(status.success(), "tigadi solve {PIECES4}");
        let mut tb = std::ptr::null_mut();
        let c_path = c_string(path);
        let code = unsafe { tigadi_open(c_path.as_ptr(), c"tigadi,pieces=4".as_ptr(), &mut tb) };
        assert_eq!(code, TIGADI_OK);
        Shared(tb, dir)
    });
    (shared.0, shared.1.path())
}

/// Every position of random games from the start of `rules` (both phases) up to
/// the end or 60 turns, as strings; moving-phase ones also at random 100-turn
/// counters, some at the limit (a game the rule has drawn).
fn game_positions(rules: &RuleSet, games: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng::seeded(seed);
    let mut texts = Vec::new();
    for _ in 0..games {
        let mut p = Position::start(rules);
        for _ in 0..60 {
            if p.decided(rules).is_some() {
                break;
            }
            texts.push(p.to_string());
            if p.bone_hand + p.seed_hand == 0 && p.quiet_turns == 0 {
                let counter = [1, 40, 90, 99, 100][rng.below(5)];
                texts.push(
                    Position {
                        quiet_turns: counter,
                        ..p
                    }
                    .to_string(),
                );
            }
            let moves = p.legal_moves(rules);
            if moves.is_empty() {
                break;
            }
            p = p.apply(moves[rng.below(moves.len())]);
        }
    }
    texts
}

/// `tigadi probe --json` of every string, one object each.
fn cli_probe_json(dir: &Path, texts: &[String]) -> Vec<serde_json::Value> {
    let input: String = texts.iter().map(|t| format!("{t}\n")).collect();
    let dir = dir.to_str().unwrap();
    let out = run_cli(
        &["--rules", PIECES4, "probe", "--dir", dir, "--json"],
        &input,
    );
    let objects: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), texts.len());
    objects
}

/// `"win"`, `"draw"`, `"loss"` of a C code, as JSON (null for `TIGADI_UNKNOWN`).
fn wdl_json(code: i32) -> serde_json::Value {
    match code {
        TIGADI_WIN => "win".into(),
        TIGADI_DRAW => "draw".into(),
        TIGADI_LOSS => "loss".into(),
        TIGADI_UNKNOWN => serde_json::Value::Null,
        _ => panic!("no value code {code}"),
    }
}

/// The DTC of a C value as JSON: the number for a win or a loss, else null.
fn dtc_json(v: TigadiValue) -> serde_json::Value {
    match v.wdl {
        TIGADI_WIN | TIGADI_LOSS => v.dtc.into(),
        _ => serde_json::Value::Null,
    }
}

/// The fields of `probe --json` for a C answer (and its moves, when given).
fn answer_json(a: &TigadiAnswer) -> serde_json::Value {
    let category = match a.rule.category {
        TIGADI_WIN => "win".into(),
        TIGADI_CURSED_WIN => "cursed-win".into(),
        TIGADI_DRAW => "draw".into(),
        TIGADI_BLESSED_LOSS => "blessed-loss".into(),
        TIGADI_LOSS => "loss".into(),
        TIGADI_UNKNOWN => serde_json::Value::Null,
        c => panic!("no category code {c}"),
    };
    serde_json::json!({
        "value": wdl_json(a.value.wdl),
        "dtc": if a.game_over == 1 { serde_json::Value::Null } else { dtc_json(a.value) },
        "category": category,
        "rule_value": wdl_json(a.rule.rule_value),
        "dtc100": dtc_json(a.rule.dtc100),
        "game_over": a.game_over == 1,
    })
}

/// The same fields of a `probe --json` object (`game_over`: whether it is there).
fn cli_fields(j: &serde_json::Value) -> serde_json::Value {
    let mut f = serde_json::json!({ "game_over": j.get("game_over").is_some() });
    for key in ["value", "dtc", "category", "rule_value", "dtc100"] {
        f[key] = j[key].clone();
    }
    f
}

/// Every position of random `tigadi,pieces=4` games, both phases, at various
/// counters: `tigadi_answer` and `tigadi_probe_any` give the values of `tigadi
/// probe --json` (with the 100-turn fields), `tigadi_probe_root` and
/// `tigadi_best_move` its moves in its order; and a C program compiled with `cc`
/// prints, from `tigadi_answer_root`, its very objects.
#[test]
fn answers_of_both_phases_are_the_cli_objects() {
    let (tb, dir) = four_a_side();
    let rules = RuleSet::parse(PIECES4).unwrap();
    let texts = game_positions(&rules, 40, 41);
    let cli = cli_probe_json(dir, &texts);
    let (mut placing, mut moving, mut over, mut with_dtw) = (0, 0, 0, 0);
    let mut root = vec![TigadiRootMove::default(); TIGADI_MAX_MOVES];
    for (text, j) in texts.iter().zip(&cli) {
        let mut c = TigadiPosition::default();
        let code = unsafe { tigadi_parse_any_position(tb, c_string(text).as_ptr(), &mut c) };
        assert_eq!(code, TIGADI_OK, "{text}");
        let mut a = TigadiAnswer::default();
        assert_eq!(
            unsafe { tigadi_answer(tb, &c, &mut a) },
            TIGADI_OK,
            "{text}"
        );
        assert_eq!(answer_json(&a), cli_fields(j), "{text}");
        // The depth to win (the tables are solved with --dtw): `dtw` of the CLI,
        // never below the DTC.
        let mut d = TigadiValue::default();
        assert_eq!(unsafe { tigadi_dtw(tb, &c, &mut d) }, TIGADI_OK, "{text}");
        let got = (d.wdl != TIGADI_UNKNOWN).then(|| dtc_json(d));
        assert_eq!(got.as_ref(), j.get("dtw"), "{text}");
        if d.wdl != TIGADI_UNKNOWN {
            with_dtw += 1;
            assert_eq!(d.wdl, a.value.wdl, "{text}");
            assert!(d.dtc >= a.value.dtc, "{text}");
        }
        if a.game_over == 1 {
            over += 1;
        }
        if c.bone_hand + c.seed_hand > 0 {
            placing += 1;
        } else {
            moving += 1;
        }
        if c.quiet_turns != 0 || a.game_over == 1 {
            continue;
        }
        let mut v = TigadiValue::default();
        let code = unsafe {
            tigadi_probe_any(tb, c.bone, c.seed, c.side, c.bone_hand, c.seed_hand, &mut v)
        };
        assert_eq!(code, TIGADI_OK, "{text}");
        assert_eq!(
            (wdl_json(v.wdl), dtc_json(v)),
            (j["value"].clone(), j["dtc"].clone())
        );
        if c.bone_hand + c.seed_hand > 0 {
            continue;
        }
        // A moving position at counter 0: the root moves in the CLI's order.
        let mut n = 0;
        let code = unsafe {
            tigadi_probe_root(
                tb,
                c.bone,
                c.seed,
                c.side,
                root.as_mut_ptr(),
                root.len(),
                &mut n,
            )
        };
        assert_eq!(code, TIGADI_OK, "{text}");
        let got: Vec<serde_json::Value> = root[..n]
            .iter()
            .map(|m| serde_json::json!([move_text(m.mv), wdl_json(m.value.wdl), dtc_json(m.value)]))
            .collect();
        let want: Vec<serde_json::Value> = j["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| serde_json::json!([m["move"], m["value"], m["dtc"]]))
            .collect();
        assert_eq!(got, want, "{text}");
        let mut best = TigadiMove::default();
        let code = unsafe { tigadi_best_move(tb, c.bone, c.seed, c.side, &mut best, &mut v) };
        match want.first() {
            Some(first) => {
                assert_eq!(code, TIGADI_OK);
                assert_eq!(first[0], move_text(best), "{text}");
            }
            None => assert_eq!(code, TIGADI_ERR_NO_MOVE),
        }
    }
    assert!(
        placing > 100 && moving > 100 && over > 0 && with_dtw + over == texts.len(),
        "{placing} {moving} {over} {with_dtw}"
    );
    let categories: std::collections::HashSet<String> =
        cli.iter().map(|j| j["category"].to_string()).collect();
    assert!(categories.len() >= 3, "{categories:?}");

    // The C program prints the CLI's objects.
    let root_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = tempfile::tempdir().unwrap();
    let exe = out.path().join("answer_json");
    let status = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-O2", "-I"])
        .arg(root_dir.join("crates/tigadi-ffi/include"))
        .arg(root_dir.join("crates/tigadi-ffi/tests/answer_json.c"))
        .arg(static_library())
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&exe)
        .status()
        .expect("the system C compiler (cc) runs");
    assert!(status.success(), "answer_json.c compiles and links");
    let input: String = texts.iter().map(|t| format!("{t}\n")).collect();
    let output = run_with_input(Command::new(&exe).arg(dir).arg(PIECES4), &input);
    assert!(output.status.success(), "answer_json exits 0");
    let printed = String::from_utf8(output.stdout).unwrap();
    let printed: Vec<serde_json::Value> = printed
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    assert_eq!(printed.len(), cli.len());
    for ((text, mut want), got) in texts.iter().zip(cli).zip(printed) {
        if want.get("game_over").is_some() {
            want["game_over"] = true.into();
        }
        assert_eq!(got, want, "{text}");
    }
}

/// Strings are read and starts made under the handle's rule set, and a board no
/// game of it reaches is an invalid position, never a missing table.
#[test]
fn the_handle_rules_parse_and_check_positions() {
    let (tb, _) = four_a_side();
    let tigadi = handle();
    // The start: the empty board, Bone to move, the rule set's gotis in hand
    // (docs/RULES.md §9), as the string reads.
    for (tb, pieces) in [(tb, 4), (tigadi, 9)] {
        let mut start = TigadiPosition {
            bone: 7,
            ..Default::default()
        };
        assert_eq!(unsafe { tigadi_start_position(tb, &mut start) }, TIGADI_OK);
        let text = c_string(&format!(
            ".../.../.../....../.../.../... B {pieces} {pieces}"
        ));
        let mut parsed = TigadiPosition::default();
        let code = unsafe { tigadi_parse_any_position(tb, text.as_ptr(), &mut parsed) };
        assert_eq!(code, TIGADI_OK);
        assert_eq!(start, parsed);
        assert_eq!(
            (
                start.bone,
                start.seed,
                start.side,
                start.bone_hand,
                start.seed_hand
            ),
            (0, 0, TIGADI_BONE, pieces, pieces)
        );
    }
    assert_eq!(
        unsafe { tigadi_start_position(std::ptr::null(), &mut TigadiPosition::default()) },
        TIGADI_ERR_NULL_ARGUMENT
    );
    // Hands of 9 are no position of four gotis a side; of 4, one of both.
    let nine = c".../.../.../....../.../.../... B 9 9";
    let four = c".../.../.../....../.../.../... B 4 4";
    let mut c = TigadiPosition::default();
    let parse_any = |tb, text: &CStr, c: &mut TigadiPosition| unsafe {
        tigadi_parse_any_position(tb, text.as_ptr(), c)
    };
    assert_eq!(parse_any(tb, nine, &mut c), TIGADI_ERR_BAD_POSITION_STRING);
    assert_eq!(parse_any(tigadi, four, &mut c), TIGADI_OK);
    assert_eq!(parse_any(tb, four, &mut c), TIGADI_OK);

    // Five Bone gotis against three: a string of tigadi, not of four a side.
    let bit = |n: &str| tigadi_rules::Point::parse(n).unwrap().bit();
    let five = ["a7", "d7", "g7", "b6", "d6"]
        .iter()
        .map(|p| bit(p))
        .sum::<u32>();
    let three = bit("a1") | bit("d1") | bit("g1");
    let text = c"BBB/BB./.../....../.../.../SSS B";
    let (mut b, mut s, mut side) = (0, 0, 0);
    unsafe {
        assert_eq!(
            tigadi_parse_position(tb, text.as_ptr(), &mut b, &mut s, &mut side),
            TIGADI_ERR_BAD_POSITION_STRING
        );
        assert_eq!(
            tigadi_parse_position(tigadi, text.as_ptr(), &mut b, &mut s, &mut side),
            TIGADI_OK
        );
        assert_eq!((b, s, side), (five, three, TIGADI_BONE));
    }
    assert_eq!(parse_any(tb, text, &mut c), TIGADI_ERR_BAD_POSITION_STRING);
    let mut v = TigadiValue::default();
    let mut wdl = 0;
    let mut n = 0;
    let mut mv = TigadiMove::default();
    let mut root = vec![TigadiRootMove::default(); TIGADI_MAX_MOVES];
    let mut legal = vec![TigadiMove::default(); TIGADI_MAX_MOVES];
    let mut a = TigadiAnswer::default();
    let mut moves = vec![TigadiAnswerMove::default(); TIGADI_MAX_MOVES];
    let position = TigadiPosition {
        bone: five,
        seed: three,
        side: TIGADI_BONE,
        ..Default::default()
    };
    for side in [TIGADI_BONE, TIGADI_SEED] {
        let position = TigadiPosition { side, ..position };
        let codes = unsafe {
            [
                tigadi_probe(tb, five, three, side, &mut v),
                tigadi_probe_wdl(tb, five, three, side, &mut wdl),
                tigadi_probe_root(tb, five, three, side, root.as_mut_ptr(), root.len(), &mut n),
                tigadi_best_move(tb, five, three, side, &mut mv, &mut v),
                tigadi_legal_moves(
                    tb,
                    five,
                    three,
                    side,
                    legal.as_mut_ptr(),
                    legal.len(),
                    &mut n,
                ),
                tigadi_probe_any(tb, five, three, side, 0, 0, &mut v),
                tigadi_answer(tb, &position, &mut a),
                tigadi_answer_root(
                    tb,
                    &position,
                    &mut a,
                    moves.as_mut_ptr(),
                    moves.len(),
                    &mut n,
                ),
            ]
        };
        assert_eq!(codes, [TIGADI_ERR_INVALID_POSITION; 8], "side {side}");
    }
    // On the 9-a-side handle the same board is only a table that was not solved.
    let code = unsafe { tigadi_probe(tigadi, five, three, TIGADI_BONE, &mut v) };
    assert_eq!(code, TIGADI_ERR_MISSING_TABLE);
    // A counter above the limit, or hands beyond a byte.
    for bad in [
        TigadiPosition {
            quiet_turns: 101,
            ..Default::default()
        },
        TigadiPosition {
            quiet_turns: 1 << 20,
            ..Default::default()
        },
        TigadiPosition {
            bone_hand: 260,
            seed_hand: 260,
            ..Default::default()
        },
    ] {
        let p = TigadiPosition {
            bone: bit("a7") | bit("d7") | bit("g7"),
            seed: three,
            ..bad
        };
        assert_eq!(
            unsafe { tigadi_answer(tb, &p, &mut a) },
            TIGADI_ERR_INVALID_POSITION
        );
    }
    unsafe {
        assert_eq!(
            tigadi_answer(tb, std::ptr::null(), &mut a),
            TIGADI_ERR_NULL_ARGUMENT
        );
        let p = TigadiPosition::default();
        assert_eq!(
            tigadi_answer_root(tb, &p, &mut a, moves.as_mut_ptr(), 1, std::ptr::null_mut()),
            TIGADI_ERR_NULL_ARGUMENT
        );
    }
}

/// The `morabaraba` preset opens by name: twelve gotis in each hand at the
/// start, and the full board after the last placement is answered as a finished
/// game, a draw (docs/RULES.md §8), with no table needed.
#[test]
fn the_morabaraba_preset_opens_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = c_string(dir.path().to_str().unwrap());
    let mut tb = std::ptr::null_mut();
    let code = unsafe { tigadi_open(path.as_ptr(), c"morabaraba".as_ptr(), &mut tb) };
    assert_eq!(code, TIGADI_ERR_NO_DIRECTORY, "{}", message(code));
    std::fs::create_dir(dir.path().join("morabaraba")).unwrap();
    let code = unsafe { tigadi_open(path.as_ptr(), c"morabaraba".as_ptr(), &mut tb) };
    assert_eq!(code, TIGADI_OK, "{}", message(code));
    let mut start = TigadiPosition::default();
    assert_eq!(unsafe { tigadi_start_position(tb, &mut start) }, TIGADI_OK);
    assert_eq!((start.bone_hand, start.seed_hand), (12, 12));
    let full = c_string("SBB/SBS/BSB/BBSBSS/BSS/SBB/SSB B");
    let mut p = TigadiPosition::default();
    assert_eq!(
        unsafe { tigadi_parse_any_position(tb, full.as_ptr(), &mut p) },
        TIGADI_OK
    );
    let mut answer = TigadiAnswer::default();
    let code = unsafe { tigadi_answer(tb, &p, &mut answer) };
    assert_eq!(code, TIGADI_OK, "{}", message(code));
    assert_eq!((answer.game_over, answer.value.wdl), (1, TIGADI_DRAW));
    unsafe { tigadi_close(tb) };
}

/// The position right after the capture that ends a game is read as every door
/// of the toolkit reads it (issue 54); a position no game reaches is still
/// refused.
#[test]
fn a_finished_game_is_read() {
    let rules = RuleSet::parse("tigadi,pieces=3").unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(TablebaseDir::name_of(&rules))).unwrap();
    let d = c_string(dir.path().to_str().unwrap());
    let mut tb = std::ptr::null_mut();
    let code = unsafe { tigadi_open(d.as_ptr(), c"tigadi,pieces=3".as_ptr(), &mut tb) };
    assert_eq!(code, TIGADI_OK);
    let finished = "BBB/.../.../....../.../.../..S S 0 1";
    let p = tigadi_rules::parse_reached_position(&rules, finished).unwrap();
    assert!(p.decided(&rules).is_some(), "{p}");
    let mut c = TigadiPosition::default();
    let code = unsafe { tigadi_parse_any_position(tb, c_string(finished).as_ptr(), &mut c) };
    assert_eq!(code, TIGADI_OK, "{}", message(code));
    let (bone, seed, bh, sh) = (c.bone, c.seed, c.bone_hand, c.seed_hand);
    assert_eq!(
        (bone, seed, c.side, bh, sh),
        (p.bone, p.seed, side_code(p.side), 0, 1)
    );
    // Two gotis a side less than the rule set's: no capture leaves that.
    let never = c_string("BB./.../.../....../.../.../..S S 0 0");
    let code = unsafe { tigadi_parse_any_position(tb, never.as_ptr(), &mut c) };
    assert_eq!(code, TIGADI_ERR_BAD_POSITION_STRING);
    unsafe { tigadi_close(tb) };
}
