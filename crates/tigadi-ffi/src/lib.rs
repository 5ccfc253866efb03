//! A C library for probing Tigadi tablebases, in the spirit of Fathom: one header
//! (`include/tigadi.h`), plain integer bitmasks in, small integer codes out.
//!
//! - [`tigadi_open`] / [`tigadi_close`]: a tablebase directory for one rule set;
//! - [`tigadi_probe_wdl`] (reads only the WDL section), [`tigadi_probe`] (value and
//!   DTC), [`tigadi_probe_root`] (every move with its value, best first) and
//!   [`tigadi_best_move`];
//! - [`tigadi_answer`] and [`tigadi_answer_root`]: a position of either phase
//!   ([`TigadiPosition`], with hands and the 100-turn counter) with its values
//!   under the 100-turn rule and every turn best first, as `tigadi probe --json`
//!   gives them; [`tigadi_probe_any`] its value alone;
//! - [`tigadi_legal_moves`], [`tigadi_parse_position`], [`tigadi_parse_any_position`]
//!   and [`tigadi_start_position`], so that a caller needs no rules engine of its
//!   own; strings are read and starts made under the handle's rule set;
//! - [`tigadi_error_message`]: a static message for every status code.
//!
//! A position is two point sets, `bone` and `seed` (bit `i` is point `i` in the
//! numbering of `docs/INDEX.md`: `a7 d7 g7 g4 g1 d1 a1 a4` are bits 0..8, the middle
//! ring `b6 …` bits 8..16, the inner ring `c5 …` bits 16..24) and the side to move.
//! Values are from the point of view of the side to move, as in docs/RULES.md §7.
//!
//! Every entry point catches panics ([`TIGADI_ERR_INTERNAL`]); nothing unwinds into
//! C. A `TigadiTablebase` is `Send + Sync`: any number of threads may probe one
//! handle at once; only [`tigadi_close`] needs exclusive use. Probing the value of a
//! position allocates nothing once its block is cached (the files are read with
//! positioned reads, decompressed blocks kept in a shared cache); the move lists
//! are written into caller buffers.
//!
//! All logic is the Rust prober's ([`tigadi_tablebase::Tablebase`], whose one door
//! `Tablebase::answer` gives every ranked move list here) and the rules engine's;
//! this crate only converts. Every position is checked under the handle's rule set
//! (its gotis per side, its board) before a table is read.
//!
//! Not here: solving or writing tables (use the `tigadi` CLI).

use std::ffi::{c_char, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use tigadi_rules::{parse_position, Bits, Board, Move, Phase, Point, Position, RuleSet, Side};
use tigadi_tablebase::{ProbeReport, RuleValues, Tablebase, TablebaseDir, TablebaseError};
use tigadi_values::{Category, Value, Wdl};

/// Success.
pub const TIGADI_OK: i32 = 0;
/// A pointer argument that must not be NULL was NULL.
pub const TIGADI_ERR_NULL_ARGUMENT: i32 = 1;
/// A string argument is not valid UTF-8.
pub const TIGADI_ERR_BAD_STRING: i32 = 2;
/// The rule set name does not parse (see docs/RULES.md §8 for the names and switches).
pub const TIGADI_ERR_BAD_RULES: i32 = 3;
/// The tablebase directory has no folder for this rule set.
pub const TIGADI_ERR_NO_DIRECTORY: i32 = 4;
/// The side to move is neither `TIGADI_BONE` nor `TIGADI_SEED`.
pub const TIGADI_ERR_BAD_SIDE: i32 = 5;
/// Invalid position: no game under the handle's rule set reaches it (gotis off the
/// board (bits above 23) or on one point twice, fewer than three gotis for a side
/// (the game is over), more gotis on the board and in hand than the rule set's
/// gotis per side, hands that do not fit the side to move, a 100-turn counter
/// above the limit or while placing).
pub const TIGADI_ERR_INVALID_POSITION: i32 = 6;
/// The table of the position's subspace (or of one that its moves lead to) is not in the
/// directory.
pub const TIGADI_ERR_MISSING_TABLE: i32 = 7;
/// A table file failed a checksum or is malformed.
pub const TIGADI_ERR_CORRUPT_TABLE: i32 = 8;
/// A table file belongs to another rule set or subspace.
pub const TIGADI_ERR_RULES_MISMATCH: i32 = 9;
/// An I/O error while reading a table file.
pub const TIGADI_ERR_IO: i32 = 10;
/// The caller's move buffer is too small; the count written is the number needed.
pub const TIGADI_ERR_BUFFER_TOO_SMALL: i32 = 11;
/// The side to move has no legal move (it is blocked where that loses).
pub const TIGADI_ERR_NO_MOVE: i32 = 12;
/// A position string does not parse, no game under the handle's rule set reaches
/// it, or (for `tigadi_parse_position`) it is in the placing phase.
pub const TIGADI_ERR_BAD_POSITION_STRING: i32 = 13;
/// A bug in the library (a caught panic); please report it.
pub const TIGADI_ERR_INTERNAL: i32 = 14;

/// Side to move: Bone (moves first).
pub const TIGADI_BONE: u32 = 0;
/// Side to move: Seed.
pub const TIGADI_SEED: u32 = 1;

/// Value for the side to move: a loss.
pub const TIGADI_LOSS: i32 = 0;
/// Category under the 100-turn rule: lost ignoring the rule, drawn under it.
pub const TIGADI_BLESSED_LOSS: i32 = 1;
/// Value for the side to move: a draw.
pub const TIGADI_DRAW: i32 = 2;
/// Category under the 100-turn rule: won ignoring the rule, drawn under it.
pub const TIGADI_CURSED_WIN: i32 = 3;
/// Value for the side to move: a win.
pub const TIGADI_WIN: i32 = 4;
/// A value under the 100-turn rule the tables do not give: the directory has no
/// horizon tables (solved with `--no-horizon`), or the game is already over.
pub const TIGADI_UNKNOWN: i32 = -1;

/// The `from`, `to` or `capture` of a move that has none (a pass, a slide that
/// captures nothing).
pub const TIGADI_NO_POINT: u8 = 255;
/// A move buffer of this many entries always suffices: at most 63 slides (three
/// flying gotis, 21 empty points) times at most 12 capture choices is 756; without
/// flying at most 40 slides (one per connection).
pub const TIGADI_MAX_MOVES: usize = 1024;

/// A tablebase directory opened for one rule set (opaque).
pub struct TigadiTablebase {
    inner: Tablebase,
}

/// The value of a position for the side to move.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TigadiValue {
    /// `TIGADI_WIN`, `TIGADI_DRAW` or `TIGADI_LOSS`.
    pub wdl: i32,
    /// Depth to capture in turns (docs/RULES.md §7; a capture now is 1, a pass is a
    /// turn; 0 for a blocked player who loses); 0 for a draw.
    pub dtc: u32,
}

/// One turn: a slide (or flight) `from` → `to` capturing `capture`, or a pass.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TigadiMove {
    /// Point the goti leaves (0..24), `TIGADI_NO_POINT` for a pass.
    pub from: u8,
    /// Point the goti arrives on (0..24), `TIGADI_NO_POINT` for a pass.
    pub to: u8,
    /// Captured enemy goti (0..24), `TIGADI_NO_POINT` when nothing is captured.
    pub capture: u8,
}

/// A move with the value it leads to, counted from the position before it and from
/// the point of view of the side that makes it (so the best move's value is the
/// position's value).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TigadiRootMove {
    /// The move.
    pub mv: TigadiMove,
    /// Its value.
    pub value: TigadiValue,
}

/// A position of either phase, as a docs/RULES.md §9 string gives it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TigadiPosition {
    /// Bone's gotis on the board (point set).
    pub bone: u32,
    /// Seed's gotis on the board (point set).
    pub seed: u32,
    /// The side to move: `TIGADI_BONE` or `TIGADI_SEED`.
    pub side: u32,
    /// Gotis Bone still has to place (0 in the moving phase).
    pub bone_hand: u32,
    /// Gotis Seed still has to place (0 in the moving phase).
    pub seed_hand: u32,
    /// Turns since the last capture (the 100-turn counter; 0 while placing).
    pub quiet_turns: u32,
}

/// Values under the 100-turn rule (docs/RULES.md §7), as `tigadi probe --json`
/// gives them; every field `TIGADI_UNKNOWN` (and `dtc100.dtc` 0) where the
/// tables do not give them.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TigadiRuleValues {
    /// The class at counter 0: `TIGADI_WIN`, `TIGADI_CURSED_WIN`, `TIGADI_DRAW`,
    /// `TIGADI_BLESSED_LOSS` or `TIGADI_LOSS`.
    pub category: i32,
    /// Win, draw or loss under the rule at the position's counter (a draw when
    /// fewer turns are left than `dtc100` needs).
    pub rule_value: i32,
    /// DTC₁₀₀: the value under the rule at counter 0 with the turns within which
    /// the win or loss is forced (0 for a draw), counted to the next capture; under
    /// Lasker's rule to the next capture or placement (DTZ₁₀₀, which `tigadi probe
    /// --json` keys `dtz100`).
    pub dtc100: TigadiValue,
}

/// Everything the tables say about one position (`tigadi_answer`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TigadiAnswer {
    /// The game-theoretic value (the 100-turn rule ignored); for a finished game
    /// its result (DTC 0).
    pub value: TigadiValue,
    /// The values under the 100-turn rule; for a finished game `rule_value` is
    /// its result and the rest `TIGADI_UNKNOWN`.
    pub rule: TigadiRuleValues,
    /// 1 when the game is already over in this position (a player blocked where
    /// that loses, the full board, or the 100-turn counter at the limit): `value`
    /// says how, and there are no moves; else 0.
    pub game_over: i32,
}

/// A turn of a position with the values it leads to, counted from the position
/// and from the point of view of its side to move (`tigadi_answer_root`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TigadiAnswerMove {
    /// The turn: a slide, a pass, or a placement (`from` is `TIGADI_NO_POINT`,
    /// `to` the point placed on, `capture` the goti it takes or `TIGADI_NO_POINT`).
    pub mv: TigadiMove,
    /// Its game-theoretic value.
    pub value: TigadiValue,
    /// Its values under the 100-turn rule.
    pub rule: TigadiRuleValues,
}

/// Runs `f`, turning a panic into [`TIGADI_ERR_INTERNAL`]: the one place where
/// nothing may unwind past.
fn guard(f: impl FnOnce() -> Result<(), i32>) -> i32 {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => TIGADI_OK,
        Ok(Err(code)) => code,
        Err(_) => TIGADI_ERR_INTERNAL,
    }
}

/// The status code of a prober error.
fn code_of(e: &TablebaseError) -> i32 {
    match e {
        TablebaseError::MissingSubspace { .. } => TIGADI_ERR_MISSING_TABLE,
        TablebaseError::Corrupt { .. } => TIGADI_ERR_CORRUPT_TABLE,
        TablebaseError::RulesMismatch { .. } => TIGADI_ERR_RULES_MISMATCH,
        TablebaseError::InvalidPosition(_) => TIGADI_ERR_INVALID_POSITION,
        TablebaseError::Io { .. } => TIGADI_ERR_IO,
        TablebaseError::InvalidValues(_) => TIGADI_ERR_INTERNAL,
    }
}

/// A required pointer argument as a reference.
///
/// # Safety
/// `p` is NULL or valid for the use the caller makes of it.
unsafe fn required<'a, T>(p: *mut T) -> Result<&'a mut T, i32> {
    p.as_mut().ok_or(TIGADI_ERR_NULL_ARGUMENT)
}

/// A C string argument as `&str`.
///
/// # Safety
/// `p` is NULL or a NUL-terminated string.
unsafe fn string<'a>(p: *const c_char) -> Result<&'a str, i32> {
    if p.is_null() {
        return Err(TIGADI_ERR_NULL_ARGUMENT);
    }
    CStr::from_ptr(p)
        .to_str()
        .map_err(|_| TIGADI_ERR_BAD_STRING)
}

/// The side to move and the board seen from it (the prober checks the board
/// itself: see [`Tablebase::check_board`]).
fn board(bone: u32, seed: u32, side: u32) -> Result<(Board, Side), i32> {
    let side = match side {
        TIGADI_BONE => Side::Bone,
        TIGADI_SEED => Side::Seed,
        _ => return Err(TIGADI_ERR_BAD_SIDE),
    };
    let (mover, opponent) = match side {
        Side::Bone => (bone, seed),
        Side::Seed => (seed, bone),
    };
    Ok((Board { mover, opponent }, side))
}

/// A moving-phase board (counter 0) checked under the handle's rule set
/// ([`TIGADI_ERR_INVALID_POSITION`] for one no game reaches, as five gotis of a
/// side where the rule set has four), with its position.
fn moving(tb: &Tablebase, bone: u32, seed: u32, side: u32) -> Result<(Board, Position), i32> {
    let (board, side) = board(bone, seed, side)?;
    let position = Position::from_board(board, side, 0);
    position
        .validate(tb.rules())
        .map_err(|_| TIGADI_ERR_INVALID_POSITION)?;
    Ok((board, position))
}

/// A [`TigadiPosition`] as a position (not yet checked under any rule set).
fn position_of(p: &TigadiPosition) -> Result<Position, i32> {
    let (_, side) = board(p.bone, p.seed, p.side)?;
    let small = |n: u32| u8::try_from(n).map_err(|_| TIGADI_ERR_INVALID_POSITION);
    Ok(Position {
        bone: p.bone,
        seed: p.seed,
        side,
        bone_hand: small(p.bone_hand)?,
        seed_hand: small(p.seed_hand)?,
        quiet_turns: u16::try_from(p.quiet_turns).map_err(|_| TIGADI_ERR_INVALID_POSITION)?,
    })
}

/// A position as its [`TigadiPosition`].
fn c_position(p: &Position) -> TigadiPosition {
    let sets: (Bits, Bits) = (p.bone, p.seed);
    TigadiPosition {
        bone: sets.0,
        seed: sets.1,
        side: side_code(p.side),
        bone_hand: p.bone_hand as u32,
        seed_hand: p.seed_hand as u32,
        quiet_turns: p.quiet_turns as u32,
    }
}

/// The C code of a side (the inverse of [`board`]'s reading of `side`).
fn side_code(side: Side) -> u32 {
    match side {
        Side::Bone => TIGADI_BONE,
        Side::Seed => TIGADI_SEED,
    }
}

fn wdl_code(wdl: Wdl) -> i32 {
    match wdl {
        Wdl::Win => TIGADI_WIN,
        Wdl::Draw => TIGADI_DRAW,
        Wdl::Loss => TIGADI_LOSS,
    }
}

impl From<Value> for TigadiValue {
    fn from(v: Value) -> TigadiValue {
        TigadiValue {
            wdl: wdl_code(v.wdl()),
            dtc: v.dtc().unwrap_or(0) as u32,
        }
    }
}

fn category_code(c: Category) -> i32 {
    match c {
        Category::Loss => TIGADI_LOSS,
        Category::BlessedLoss => TIGADI_BLESSED_LOSS,
        Category::Draw => TIGADI_DRAW,
        Category::CursedWin => TIGADI_CURSED_WIN,
        Category::Win => TIGADI_WIN,
    }
}

impl TigadiRuleValues {
    const UNKNOWN: TigadiRuleValues = TigadiRuleValues {
        category: TIGADI_UNKNOWN,
        rule_value: TIGADI_UNKNOWN,
        dtc100: TigadiValue {
            wdl: TIGADI_UNKNOWN,
            dtc: 0,
        },
    };

    fn of(r: Option<&RuleValues>) -> TigadiRuleValues {
        r.map_or(TigadiRuleValues::UNKNOWN, |r| TigadiRuleValues {
            category: category_code(r.category),
            rule_value: wdl_code(r.rule_value.wdl()),
            dtc100: r.dtc100.into(),
        })
    }
}

impl From<&ProbeReport> for TigadiAnswer {
    fn from(r: &ProbeReport) -> TigadiAnswer {
        match r.over {
            Some(_) => TigadiAnswer {
                value: r.value.into(),
                rule: TigadiRuleValues {
                    rule_value: wdl_code(r.value.wdl()),
                    ..TigadiRuleValues::UNKNOWN
                },
                game_over: 1,
            },
            None => TigadiAnswer {
                value: r.value.into(),
                rule: TigadiRuleValues::of(r.rule.as_ref()),
                game_over: 0,
            },
        }
    }
}

fn point_code(p: Option<Point>) -> u8 {
    p.map_or(TIGADI_NO_POINT, |p| p.index() as u8)
}

impl From<Move> for TigadiMove {
    fn from(m: Move) -> TigadiMove {
        TigadiMove {
            from: point_code(m.from()),
            to: point_code(m.to()),
            capture: point_code(m.capture()),
        }
    }
}

/// Writes `items` into the caller's buffer of `capacity` entries and the count
/// into `*count`; too small a buffer gets the first `capacity` entries and
/// [`TIGADI_ERR_BUFFER_TOO_SMALL`], with the count needed in `*count`.
///
/// # Safety
/// `buf` is NULL (then `capacity` must be 0) or valid for `capacity` writes.
unsafe fn fill<T: Copy>(
    items: impl Iterator<Item = T>,
    buf: *mut T,
    capacity: usize,
    count: *mut usize,
) -> Result<(), i32> {
    let count = required(count)?;
    if buf.is_null() && capacity != 0 {
        return Err(TIGADI_ERR_NULL_ARGUMENT);
    }
    let mut n = 0;
    for item in items {
        if n < capacity {
            buf.add(n).write(item);
        }
        n += 1;
    }
    *count = n;
    if n > capacity {
        return Err(TIGADI_ERR_BUFFER_TOO_SMALL);
    }
    Ok(())
}

/// Opens the tablebase of rule set `rules` (a name such as `"tigadi"`,
/// `"navakankari"`, `"morris"`, `"morabaraba"` or switches such as
/// `"lines=16,blocked=loses"`,
/// docs/RULES.md §8) in directory `dir` (the folder that holds `<rules-dir>/`, as given
/// to `tigadi solve --dir`). Files are opened on first use. On success `*out` holds
/// a handle to free with `tigadi_close`; on failure `*out` is NULL.
///
/// # Safety
/// `dir` and `rules` are NUL-terminated strings; `out` is valid for one write.
#[no_mangle]
pub unsafe extern "C" fn tigadi_open(
    dir: *const c_char,
    rules: *const c_char,
    out: *mut *mut TigadiTablebase,
) -> i32 {
    guard(|| {
        let out = required(out)?;
        *out = std::ptr::null_mut();
        let dir = Path::new(string(dir)?);
        let rules = RuleSet::parse(string(rules)?).map_err(|_| TIGADI_ERR_BAD_RULES)?;
        if !TablebaseDir::new(dir, &rules).path().is_dir() {
            return Err(TIGADI_ERR_NO_DIRECTORY);
        }
        let inner = Tablebase::open(dir, &rules);
        *out = Box::into_raw(Box::new(TigadiTablebase { inner }));
        Ok(())
    })
}

/// Frees a handle from `tigadi_open` (NULL is ignored). No other thread may be
/// using it.
///
/// # Safety
/// `tb` is NULL or a handle from `tigadi_open` not yet closed.
#[no_mangle]
pub unsafe extern "C" fn tigadi_close(tb: *mut TigadiTablebase) {
    if !tb.is_null() {
        // Dropping frees memory maps and the cache; a panic there is caught too.
        let _ = guard(|| {
            drop(Box::from_raw(tb));
            Ok(())
        });
    }
}

/// The handle as a reference.
///
/// # Safety
/// `tb` is NULL or a live handle.
unsafe fn handle<'a>(tb: *const TigadiTablebase) -> Result<&'a Tablebase, i32> {
    tb.as_ref()
        .map(|t| &t.inner)
        .ok_or(TIGADI_ERR_NULL_ARGUMENT)
}

/// Win, draw or loss for the side to move (`TIGADI_BONE` or `TIGADI_SEED`) of the
/// moving-phase position with Bone's gotis on `bone` and Seed's on `seed`, into
/// `*wdl`. Reads only the WDL section: the cheap probe for a search.
///
/// # Safety
/// `tb` is a live handle; `wdl` is valid for one write.
#[no_mangle]
pub unsafe extern "C" fn tigadi_probe_wdl(
    tb: *const TigadiTablebase,
    bone: u32,
    seed: u32,
    side: u32,
    wdl: *mut i32,
) -> i32 {
    guard(|| {
        let tb = handle(tb)?;
        let out = required(wdl)?;
        let (board, _) = moving(tb, bone, seed, side)?;
        *out = wdl_code(tb.probe_wdl(board).map_err(|e| code_of(&e))?);
        Ok(())
    })
}

/// The value (win/draw/loss and DTC) of a position for the side to move, into
/// `*value`.
///
/// # Safety
/// `tb` is a live handle; `value` is valid for one write.
#[no_mangle]
pub unsafe extern "C" fn tigadi_probe(
    tb: *const TigadiTablebase,
    bone: u32,
    seed: u32,
    side: u32,
    value: *mut TigadiValue,
) -> i32 {
    guard(|| {
        let tb = handle(tb)?;
        let out = required(value)?;
        let (board, _) = moving(tb, bone, seed, side)?;
        *out = tb.probe(board).map_err(|e| code_of(&e))?.into();
        Ok(())
    })
}

/// Every legal move of a moving-phase position (counter 0) with the
/// game-theoretic value it leads to, best first as `tigadi probe` ranks them
/// (`tigadi_answer_root`'s order: by the values under the 100-turn rule where the
/// horizon tables exist, else a quicker win, a draw before a loss, a slower loss;
/// ties in generation order), into `moves[0..*count]`. A pass is one move when the side to move is blocked
/// where blocked players pass; no move where they lose. `TIGADI_MAX_MOVES` entries
/// always suffice; with `capacity` 0 and `moves` NULL only the count is returned
/// (as `TIGADI_ERR_BUFFER_TOO_SMALL` when there are moves).
///
/// # Safety
/// `tb` is a live handle; `moves` is NULL or valid for `capacity` writes; `count` is
/// valid for one write.
#[no_mangle]
pub unsafe extern "C" fn tigadi_probe_root(
    tb: *const TigadiTablebase,
    bone: u32,
    seed: u32,
    side: u32,
    moves: *mut TigadiRootMove,
    capacity: usize,
    count: *mut usize,
) -> i32 {
    guard(|| {
        let tb = handle(tb)?;
        let (_, position) = moving(tb, bone, seed, side)?;
        let report = tb.answer(&position).map_err(|e| code_of(&e))?;
        let items = report.moves.iter().map(|t| TigadiRootMove {
            mv: t.turn.into(),
            value: t.value.into(),
        });
        fill(items, moves, capacity, count)
    })
}

/// The best move of a position (the first of `tigadi_probe_root`) into `*mv`, and
/// its game-theoretic value into `*value` (may be NULL): the position's value
/// without horizon tables; with them the best move under the 100-turn rule, whose
/// DTC may be longer.
/// `TIGADI_ERR_NO_MOVE` when the side to move is blocked where that loses.
///
/// # Safety
/// `tb` is a live handle; `mv` is valid for one write; `value` is NULL or valid for
/// one write.
#[no_mangle]
pub unsafe extern "C" fn tigadi_best_move(
    tb: *const TigadiTablebase,
    bone: u32,
    seed: u32,
    side: u32,
    mv: *mut TigadiMove,
    value: *mut TigadiValue,
) -> i32 {
    guard(|| {
        let tb = handle(tb)?;
        let out = required(mv)?;
        let (_, position) = moving(tb, bone, seed, side)?;
        let report = tb.answer(&position).map_err(|e| code_of(&e))?;
        let best = report.moves.first().ok_or(TIGADI_ERR_NO_MOVE)?;
        *out = best.turn.into();
        if let Some(value) = value.as_mut() {
            *value = best.value.into();
        }
        Ok(())
    })
}

/// The legal moves of a moving-phase position under the handle's rule set, in
/// generation order, into `moves[0..*count]` (a pass when blocked where blocked
/// players pass; none where they lose). Reads no table. Buffer rules as for
/// `tigadi_probe_root`.
///
/// # Safety
/// `tb` is a live handle; `moves` is NULL or valid for `capacity` writes; `count` is
/// valid for one write.
#[no_mangle]
pub unsafe extern "C" fn tigadi_legal_moves(
    tb: *const TigadiTablebase,
    bone: u32,
    seed: u32,
    side: u32,
    moves: *mut TigadiMove,
    capacity: usize,
    count: *mut usize,
) -> i32 {
    guard(|| {
        let tb = handle(tb)?;
        let (_, position) = moving(tb, bone, seed, side)?;
        let mut list = Vec::with_capacity(64);
        position.for_each_move(tb.rules(), |m| list.push(m));
        fill(
            list.into_iter().map(TigadiMove::from),
            moves,
            capacity,
            count,
        )
    })
}

/// Parses a moving-phase position string (docs/RULES.md §9, e.g.
/// `"BB./S../.../...S../.../.../SB. S"`) under the handle's rule set into Bone's
/// and Seed's point sets and the side to move (a counter in the string is read
/// and dropped). `TIGADI_ERR_BAD_POSITION_STRING` for a string that does not
/// parse, that no game under the rule set can reach (as five gotis of a side
/// where it has four), or that is in the placing phase.
///
/// # Safety
/// `tb` is a live handle; `text` is a NUL-terminated string; `bone`, `seed` and
/// `side` are valid for one write each.
#[no_mangle]
pub unsafe extern "C" fn tigadi_parse_position(
    tb: *const TigadiTablebase,
    text: *const c_char,
    bone: *mut u32,
    seed: *mut u32,
    side: *mut u32,
) -> i32 {
    guard(|| {
        let tb = handle(tb)?;
        let (bone, seed, side) = (required(bone)?, required(seed)?, required(side)?);
        let p = parse_position(tb.rules(), string(text)?)
            .map_err(|_| TIGADI_ERR_BAD_POSITION_STRING)?;
        if p.phase() != Phase::Moving {
            return Err(TIGADI_ERR_BAD_POSITION_STRING);
        }
        let sets: (Bits, Bits) = (p.bone, p.seed);
        (*bone, *seed) = sets;
        *side = side_code(p.side);
        Ok(())
    })
}

/// The value (win/draw/loss and DTC) of a position of either phase for the side to
/// move, into `*value`. `bone_hand` and `seed_hand` are the gotis each player still
/// has to place: with either above 0 the position is in the placing phase and is
/// answered from the placing tables (`tigadi solve` writes them after the moving
/// phase); with both 0 this is `tigadi_probe`. The DTC of a placing position counts
/// the placements as turns. `TIGADI_ERR_INVALID_POSITION` for a position no game
/// under the handle's rule set reaches (hands that do not fit the side to move or
/// above its gotis per side, too many gotis of a colour). `tigadi_answer` gives
/// the values under the 100-turn rule too.
///
/// # Safety
/// `tb` is a live handle; `value` is valid for one write.
#[no_mangle]
pub unsafe extern "C" fn tigadi_probe_any(
    tb: *const TigadiTablebase,
    bone: u32,
    seed: u32,
    side: u32,
    bone_hand: u32,
    seed_hand: u32,
    value: *mut TigadiValue,
) -> i32 {
    guard(|| {
        let tb = handle(tb)?;
        let out = required(value)?;
        let position = position_of(&TigadiPosition {
            bone,
            seed,
            side,
            bone_hand,
            seed_hand,
            quiet_turns: 0,
        })?;
        let report = tb.answer_value(&position).map_err(|e| code_of(&e))?;
        *out = report.value.into();
        Ok(())
    })
}

/// Parses a position string of either phase (docs/RULES.md §9; a placing position
/// gives both hands, as `".../.../.../....../.../.../... B 9 9"` for the empty
/// board of `tigadi`) under the handle's rule set into `*position` (point sets,
/// side to move, hands, 100-turn counter). `TIGADI_ERR_BAD_POSITION_STRING` for a
/// string that does not parse or that no game under the rule set can reach (as
/// hands above its gotis per side); the position right after the capture that
/// ends a game is accepted, as every door of the toolkit accepts it.
///
/// # Safety
/// `tb` is a live handle; `text` is a NUL-terminated string; `position` is valid
/// for one write.
#[no_mangle]
pub unsafe extern "C" fn tigadi_parse_any_position(
    tb: *const TigadiTablebase,
    text: *const c_char,
    position: *mut TigadiPosition,
) -> i32 {
    guard(|| {
        let tb = handle(tb)?;
        let out = required(position)?;
        let p = tigadi_rules::parse_reached_position(tb.rules(), string(text)?)
            .map_err(|_| TIGADI_ERR_BAD_POSITION_STRING)?;
        *out = c_position(&p);
        Ok(())
    })
}

/// The start of a game under the handle's rule set into `*position`: the empty
/// board, Bone to move, each player holding the rule set's gotis per side.
///
/// # Safety
/// `tb` is a live handle; `position` is valid for one write.
#[no_mangle]
pub unsafe extern "C" fn tigadi_start_position(
    tb: *const TigadiTablebase,
    position: *mut TigadiPosition,
) -> i32 {
    guard(|| {
        let tb = handle(tb)?;
        *required(position)? = c_position(&Position::start(tb.rules()));
        Ok(())
    })
}

/// Everything the tables say about a position of either phase, without its moves,
/// into `*answer`: its game-theoretic value and its values under the 100-turn rule
/// at its counter (`TIGADI_UNKNOWN` without the horizon tables), or how the game
/// already ended there; the fields of `tigadi probe --json`. A placing position
/// is answered from the placing tables. `TIGADI_ERR_INVALID_POSITION` for a
/// position no game under the handle's rule set reaches.
///
/// # Safety
/// `tb` is a live handle; `position` is valid for one read; `answer` for one write.
#[no_mangle]
pub unsafe extern "C" fn tigadi_answer(
    tb: *const TigadiTablebase,
    position: *const TigadiPosition,
    answer: *mut TigadiAnswer,
) -> i32 {
    guard(|| {
        let (report, out) = report_into(tb, position, answer, None)?;
        *out = (&report).into();
        Ok(())
    })
}

/// `tigadi_answer` and every legal turn with its values into `moves[0..*count]`,
/// best first as `tigadi probe` ranks them: by the values under the 100-turn rule
/// at the position's counter where the horizon tables exist, else by the
/// game-theoretic value (ties in generation order). A placing position's turns are
/// its placements with each capture choice. No turns for a finished game. Buffer
/// rules as for `tigadi_probe_root` (`*answer` is written when the buffer is too
/// small).
///
/// # Safety
/// `tb` is a live handle; `position` is valid for one read; `answer` for one
/// write; `moves` is NULL or valid for `capacity` writes; `count` is valid for one
/// write.
#[no_mangle]
pub unsafe extern "C" fn tigadi_answer_root(
    tb: *const TigadiTablebase,
    position: *const TigadiPosition,
    answer: *mut TigadiAnswer,
    moves: *mut TigadiAnswerMove,
    capacity: usize,
    count: *mut usize,
) -> i32 {
    guard(|| {
        let (report, out) = report_into(tb, position, answer, Some(count))?;
        *out = (&report).into();
        let items = report.moves.iter().map(|t| TigadiAnswerMove {
            mv: t.turn.into(),
            value: t.value.into(),
            rule: TigadiRuleValues::of(t.rule.as_ref()),
        });
        fill(items, moves, capacity, count)
    })
}

/// The prober's answer for `position` and the output `out`, checked to be
/// non-NULL: the common part of the `tigadi_answer*` and `tigadi_dtw*` calls. With
/// `count` (checked too, after `out`) the answer has the moves
/// (`Tablebase::answer`), without it not (`answer_value`).
///
/// # Safety
/// As theirs: `tb` a live handle, `position` valid for one read, `out` NULL or
/// valid for one write, `count` NULL or valid for one write.
unsafe fn report_into<'a, T>(
    tb: *const TigadiTablebase,
    position: *const TigadiPosition,
    out: *mut T,
    count: Option<*mut usize>,
) -> Result<(ProbeReport, &'a mut T), i32> {
    let tb = handle(tb)?;
    let p = position_of(position.as_ref().ok_or(TIGADI_ERR_NULL_ARGUMENT)?)?;
    let out = required(out)?;
    let report = match count {
        Some(count) => {
            required(count)?;
            tb.answer(&p)
        }
        None => tb.answer_value(&p),
    };
    Ok((report.map_err(|e| code_of(&e))?, out))
}

/// A depth to win as C gives it: the value with the DTW in its `dtc` field, or
/// `TIGADI_UNKNOWN` (and 0) where it is not known.
fn dtw_value(v: Option<Value>) -> TigadiValue {
    v.map_or(
        TigadiValue {
            wdl: TIGADI_UNKNOWN,
            dtc: 0,
        },
        TigadiValue::from,
    )
}

/// The depth to win (DTW, docs/RULES.md §7: turns to the end of the game under
/// perfect play, the winner hurrying, the loser resisting) of a position of either
/// phase into `*dtw`: a `TigadiValue` whose `dtc` field holds the DTW (0 for a
/// draw). `dtw->wdl` is `TIGADI_UNKNOWN` (and `dtc` 0) where the directory has no
/// DTW tables (solved without `tigadi solve --dtw`) and for a finished game. New
/// in the DTW tables' version; `TigadiAnswer` is unchanged.
///
/// # Safety
/// `tb` is a live handle; `position` is valid for one read; `dtw` for one write.
#[no_mangle]
pub unsafe extern "C" fn tigadi_dtw(
    tb: *const TigadiTablebase,
    position: *const TigadiPosition,
    dtw: *mut TigadiValue,
) -> i32 {
    guard(|| {
        let (report, out) = report_into(tb, position, dtw, None)?;
        *out = dtw_value(report.dtw);
        Ok(())
    })
}

/// `tigadi_dtw` and the DTW of every legal turn into `dtws[0..*count]`, counted
/// from the position (so the best turn's is the position's), in the order of
/// `tigadi_answer_root`'s moves: `dtws[i]` belongs to its `moves[i]`. Buffer
/// rules as for `tigadi_probe_root` (`*dtw` is written when the buffer is too
/// small).
///
/// # Safety
/// `tb` is a live handle; `position` is valid for one read; `dtw` for one write;
/// `dtws` is NULL or valid for `capacity` writes; `count` is valid for one write.
#[no_mangle]
pub unsafe extern "C" fn tigadi_dtw_root(
    tb: *const TigadiTablebase,
    position: *const TigadiPosition,
    dtw: *mut TigadiValue,
    dtws: *mut TigadiValue,
    capacity: usize,
    count: *mut usize,
) -> i32 {
    guard(|| {
        let (report, out) = report_into(tb, position, dtw, Some(count))?;
        *out = dtw_value(report.dtw);
        fill(
            report.moves.iter().map(|t| dtw_value(t.dtw)),
            dtws,
            capacity,
            count,
        )
    })
}

/// A static, NUL-terminated English message for a status code (never NULL; an
/// unknown code gets "unknown status code").
#[no_mangle]
pub extern "C" fn tigadi_error_message(code: i32) -> *const c_char {
    let text: &'static CStr = match code {
        TIGADI_OK => c"success",
        TIGADI_ERR_NULL_ARGUMENT => c"a required pointer argument is NULL",
        TIGADI_ERR_BAD_STRING => c"a string argument is not valid UTF-8",
        TIGADI_ERR_BAD_RULES => c"unknown rule set (expected tigadi, navakankari, morris, morabaraba or switches such as lines=16,flying=3,blocked=loses)",
        TIGADI_ERR_NO_DIRECTORY => c"the tablebase directory has no folder for this rule set",
        TIGADI_ERR_BAD_SIDE => c"the side to move is neither TIGADI_BONE nor TIGADI_SEED",
        TIGADI_ERR_INVALID_POSITION => c"invalid position: no game under the rule set reaches it (gotis off the board or on one point twice, fewer than 3 gotis for a side, more gotis or larger hands than the rule set's gotis per side, hands that do not fit the side to move, a bad 100-turn counter)",
        TIGADI_ERR_MISSING_TABLE => c"a table this probe needs is not in the directory",
        TIGADI_ERR_CORRUPT_TABLE => c"a table file failed a checksum or is malformed",
        TIGADI_ERR_RULES_MISMATCH => c"a table file belongs to another rule set or subspace",
        TIGADI_ERR_IO => c"an I/O error while reading a table file",
        TIGADI_ERR_BUFFER_TOO_SMALL => c"the move buffer is too small (the count says how many are needed)",
        TIGADI_ERR_NO_MOVE => c"the side to move has no legal move",
        TIGADI_ERR_BAD_POSITION_STRING => c"the position string does not parse, no game under the rule set reaches it, or (tigadi_parse_position) it is in the placing phase",
        TIGADI_ERR_INTERNAL => c"internal error in the tigadi library (please report it)",
        _ => c"unknown status code",
    };
    text.as_ptr()
}

/// A handle may be shared between threads (C callers rely on it).
const _: () = {
    const fn shared<T: Send + Sync>() {}
    shared::<TigadiTablebase>()
};
