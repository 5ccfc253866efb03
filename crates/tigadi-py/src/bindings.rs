//! The PyO3 classes and functions of `tigadi._tigadi`.

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyDict, PyList, PyString, PyType};
use rayon::prelude::*;
use serde_json::Value as Json;
use std::path::PathBuf;
use tigadi_rules::notation::shown;
use tigadi_rules::{check_move, diagram, parse_move, parse_reached_position, Phase, RuleSet, Side};
use tigadi_tablebase::{result_json, standing, ProbeReport, ReportTurn, RuleValues};
use tigadi_values::{Metric, Value};

create_exception!(
    tigadi,
    TablebaseError,
    PyException,
    "A table could not be found, read or trusted (the base of MissingTableError and CorruptTableError; also I/O errors)."
);
create_exception!(
    tigadi,
    MissingTableError,
    TablebaseError,
    "No table file for the position's subspace in the tablebase directory."
);
create_exception!(
    tigadi,
    CorruptTableError,
    TablebaseError,
    "A table file failed a checksum, is malformed, or belongs to another rule set or subspace."
);

/// A Rust tablebase error as a Python exception: bad positions are `ValueError`,
/// missing tables `MissingTableError`, damaged or mismatched ones
/// `CorruptTableError`, anything else `TablebaseError`.
fn tablebase_error(e: tigadi_tablebase::TablebaseError, context: &str) -> PyErr {
    use tigadi_tablebase::TablebaseError as E;
    let message = format!("{context}{e}");
    match e {
        E::InvalidPosition(_) | E::InvalidValues(_) => PyValueError::new_err(message),
        E::MissingSubspace { .. } => MissingTableError::new_err(message),
        E::Corrupt { .. } | E::RulesMismatch { .. } => CorruptTableError::new_err(message),
        _ => TablebaseError::new_err(message),
    }
}

fn parse_rules(text: &str) -> PyResult<RuleSet> {
    RuleSet::parse(text).map_err(PyValueError::new_err)
}

/// Parses a position string under `rules` (the rule set it will be played or
/// probed under), with the error message `position '…': what is wrong`.
fn parse_text(rules: &RuleSet, text: &str) -> Result<tigadi_rules::Position, String> {
    parse_reached_position(rules, text).map_err(|e| format!("position '{}': {e}", shown(text)))
}

/// A position string argument: a `str` (ValueError naming the problem when it
/// cannot be UTF-8, as a lone surrogate), anything else a TypeError.
fn text_arg(obj: &Bound<'_, PyAny>) -> PyResult<PyBackedStr> {
    match obj.extract::<PyBackedStr>() {
        Ok(s) => Ok(s),
        Err(e) if obj.is_instance_of::<PyString>() => Err(PyValueError::new_err(format!(
            "position string is not valid Unicode text: {}",
            e.value(obj.py())
        ))),
        Err(_) => Err(PyTypeError::new_err(format!(
            "expected a position string or a tigadi.Position, got {}",
            obj.get_type().name()?
        ))),
    }
}

fn side_letter(side: Side) -> String {
    side.letter().to_string()
}

/// A Tigadi position: gotis on the board, the player to move, gotis in hand and
/// the 100-turn counter (docs/RULES.md §9), under a rule set.
///
/// Immutable and hashable: `play` returns a new position.
#[pyclass(frozen, eq, hash, module = "tigadi", name = "Position")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct PyPosition {
    position: tigadi_rules::Position,
    rules: RuleSet,
}

#[pymethods]
impl PyPosition {
    /// Parses a position string `RANKS SIDE [BONE_HAND SEED_HAND [QUIET_TURNS]]`
    /// under rule set `rules` (hands of at most its gotis per side, and so on);
    /// with no string, the start of a game under `rules` (`Position.start`).
    /// Raises ValueError naming the problem for a string that does not parse or
    /// that no game under `rules` can produce, or for an unknown rule set.
    #[new]
    #[pyo3(signature = (text = None, rules = "tigadi"))]
    fn new(text: Option<&Bound<'_, PyAny>>, rules: &str) -> PyResult<PyPosition> {
        let rules = parse_rules(rules)?;
        let position = match text {
            Some(t) => parse_text(&rules, &text_arg(t)?).map_err(PyValueError::new_err)?,
            None => tigadi_rules::Position::start(&rules),
        };
        Ok(PyPosition { position, rules })
    }

    /// The start of a game under rule set `rules`: the empty board, Bone to move,
    /// each player holding the rule set's gotis (`".../.../.../....../.../.../... B
    /// 9 9"` for `tigadi`). Raises ValueError for an unknown rule set.
    #[classmethod]
    #[pyo3(signature = (rules = "tigadi"))]
    fn start(_cls: &Bound<'_, PyType>, rules: &str) -> PyResult<PyPosition> {
        let rules = parse_rules(rules)?;
        Ok(PyPosition {
            position: tigadi_rules::Position::start(&rules),
            rules,
        })
    }

    /// The rule set's canonical name (`tigadi`, `morris`, `morabaraba,pieces=4`, or
    /// switches).
    #[getter]
    fn rules(&self) -> String {
        self.rules.name()
    }

    /// The player to move: `"B"` (Bone) or `"S"` (Seed).
    #[getter]
    fn side(&self) -> String {
        side_letter(self.position.side)
    }

    /// `"placing"` while the player to move holds gotis in hand, else `"moving"`.
    #[getter]
    fn phase(&self) -> &'static str {
        match self.position.phase() {
            Phase::Placing => "placing",
            Phase::Moving => "moving",
        }
    }

    /// Points holding Bone gotis, in point order (`["a7", "d7", ...]`).
    #[getter]
    fn bone(&self) -> Vec<&'static str> {
        point_names(self.position.bone)
    }

    /// Points holding Seed gotis, in point order.
    #[getter]
    fn seed(&self) -> Vec<&'static str> {
        point_names(self.position.seed)
    }

    /// Bone's gotis in hand.
    #[getter]
    fn bone_hand(&self) -> u8 {
        self.position.bone_hand
    }

    /// Seed's gotis in hand.
    #[getter]
    fn seed_hand(&self) -> u8 {
        self.position.seed_hand
    }

    /// Turns since the last capture (the 100-turn counter).
    #[getter]
    fn quiet_turns(&self) -> u16 {
        self.position.quiet_turns
    }

    /// The winner (`"B"` or `"S"`) when the game is already decided here (a side
    /// with fewer than three gotis, or a blocked player where that loses), else
    /// None. Draws by repetition or the turn limit need a game's history and are
    /// not reported.
    #[getter]
    fn winner(&self) -> Option<String> {
        self.position
            .decided(&self.rules)
            .map(|(w, _)| side_letter(w))
    }

    /// Every legal move in notation (`"d5"`, `"a1-a4"`, `"a1-a4xg7"`, `"pass"`),
    /// one per capture choice, in generation order; empty when the game is decided.
    fn legal_moves(&self) -> Vec<String> {
        self.position
            .legal_moves(&self.rules)
            .into_iter()
            .map(|m| m.to_string())
            .collect()
    }

    /// The position after `move` (notation), as a new Position; this one is not
    /// changed. Raises ValueError naming the problem when the move does not parse
    /// or is illegal here.
    #[pyo3(signature = (r#move))]
    fn play(&self, r#move: &str) -> PyResult<PyPosition> {
        let mv = parse_move(r#move).map_err(|e| PyValueError::new_err(e.to_string()))?;
        check_move(&self.rules, &self.position, mv)
            .map_err(|e| PyValueError::new_err(format!("move '{}' is illegal: {e}", r#move)))?;
        Ok(PyPosition {
            position: self.position.apply(mv),
            rules: self.rules,
        })
    }

    /// The board drawn as text, as `tigadi show` draws it.
    fn diagram(&self) -> String {
        diagram(&self.position, self.rules.board)
    }

    fn __str__(&self) -> String {
        self.position.to_string()
    }

    fn __repr__(&self) -> String {
        if self.rules == RuleSet::TIGADI {
            format!("Position('{}')", self.position)
        } else {
            format!("Position('{}', rules='{}')", self.position, self.rules)
        }
    }
}

fn point_names(bits: u32) -> Vec<&'static str> {
    tigadi_rules::Point::all()
        .filter(|p| bits & p.bit() != 0)
        .map(|p| p.name())
        .collect()
}

/// `"win"`, `"draw"` or `"loss"`.
fn wdl_name(v: Value) -> String {
    v.wdl().to_string()
}

/// The 100-turn fields of a position or turn as `tigadi probe --json` gives them:
/// `category`, `rule_value` and `dtc100`, all None without the horizon tables.
fn category(rule: Option<&RuleValues>) -> Option<String> {
    rule.map(|r| r.category.to_string())
}

fn rule_value(rule: Option<&RuleValues>) -> Option<String> {
    rule.map(|r| wdl_name(r.rule_value))
}

/// The depth under the rule where it counts by `want` (`dtc100`: to the next
/// capture; `dtz100`: under Lasker's rule, to the next capture or placement):
/// `metric` is the report's [`ProbeReport::rule_metric`], so that of the two
/// properties exactly the one the JSON keys is ever set.
fn depth_under_rule(rule: Option<&RuleValues>, metric: Metric, want: Metric) -> Option<u16> {
    rule.filter(|_| metric == want).and_then(|r| r.dtc100.dtc())
}

/// A JSON value as the Python object `json.loads` would make of it.
fn json_to_py<'py>(py: Python<'py>, value: &Json) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Json::Null => py.None().into_bound(py),
        Json::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Json::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Json::String(s) => PyString::new(py, s).into_any(),
        Json::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Json::Object(map) => {
            let d = PyDict::new(py);
            for (k, v) in map {
                d.set_item(k, json_to_py(py, v)?)?;
            }
            d.into_any()
        }
    })
}

/// One legal turn of a probed position and the values it leads to, counted from
/// the probed position for its player to move.
#[pyclass(frozen, module = "tigadi", name = "ProbeMove")]
struct ProbeMove {
    turn: ReportTurn,
    /// What the depth under the rule counts to ([`ProbeReport::rule_metric`]).
    metric: Metric,
}

#[pymethods]
impl ProbeMove {
    /// The move in notation (`"a1-a4"`, `"a1-a4xg7"`, `"pass"`; placing: `"d7"`,
    /// `"d7xg1"`).
    #[getter(r#move)]
    fn get_move(&self) -> String {
        self.turn.turn.to_string()
    }

    /// `"win"`, `"draw"` or `"loss"` for the player to move if they play this move
    /// (game-theoretic: the 100-turn rule ignored).
    #[getter]
    fn value(&self) -> String {
        wdl_name(self.turn.value)
    }

    /// Turns to the next capture counted from the probed position (so the best
    /// move's dtc equals the position's), None for a draw.
    #[getter]
    fn dtc(&self) -> Option<u16> {
        self.turn.value.dtc()
    }

    /// The class under the 100-turn rule (`"win"`, `"cursed-win"`, `"draw"`,
    /// `"blessed-loss"`, `"loss"`); None without the horizon tables.
    #[getter]
    fn category(&self) -> Option<String> {
        category(self.turn.rule.as_ref())
    }

    /// `"win"`, `"draw"` or `"loss"` under the 100-turn rule at the probed
    /// position's counter; None without the horizon tables.
    #[getter]
    fn rule_value(&self) -> Option<String> {
        rule_value(self.turn.rule.as_ref())
    }

    /// Turns within which the win or loss is forced under the 100-turn rule
    /// (DTC₁₀₀, from counter 0); None for a draw under the rule, without the
    /// horizon tables, or under Lasker's rule (see `dtz100`).
    #[getter]
    fn dtc100(&self) -> Option<u16> {
        depth_under_rule(self.turn.rule.as_ref(), self.metric, Metric::Dtc)
    }

    /// Under Lasker's rule, turns within which the win or loss is forced under
    /// the 100-turn rule counted to the next capture or placement (DTZ₁₀₀, from
    /// counter 0); None for a draw under the rule, without the horizon tables,
    /// or under other rule sets (see `dtc100`).
    #[getter]
    fn dtz100(&self) -> Option<u16> {
        depth_under_rule(self.turn.rule.as_ref(), self.metric, Metric::Dtz)
    }

    /// Depth to win: turns to the end of the game under perfect play, counted
    /// from the probed position (docs/RULES.md §7); None for a draw or without
    /// the DTW tables (solved without `--dtw`).
    #[getter]
    fn dtw(&self) -> Option<u16> {
        self.turn.dtw.and_then(|v| v.dtc())
    }

    /// `ProbeMove('d5', 'wins in 7 turns, captures in 3')`: the value in the words
    /// of docs/USAGE.md ("Depths in words"), the depth to win first where known.
    fn __repr__(&self) -> String {
        format!(
            "ProbeMove('{}', '{}')",
            self.turn.turn,
            tigadi_values::both_in_words(self.turn.value, self.turn.dtw)
        )
    }

    /// The value in words, as `repr` shows it: `wins in 7 turns, captures in 3`.
    fn __str__(&self) -> String {
        format!(
            "{}: {}",
            self.turn.turn,
            tigadi_values::both_in_words(self.turn.value, self.turn.dtw)
        )
    }
}

/// The answer for one position (`tigadi_tablebase::Tablebase::answer`): its
/// values ignoring and under the 100-turn rule and, unless probed with
/// `moves=False`, every legal turn best first; or how the game already ended.
#[pyclass(frozen, module = "tigadi", name = "Probe")]
struct Probe {
    report: ProbeReport,
    /// False when probed with `moves=False` (`report.moves` is then empty).
    with_moves: bool,
}

impl Probe {
    fn over(&self) -> bool {
        self.report.over.is_some()
    }

    /// The depth under the rule where it counts by `want` (None for a finished
    /// game): see [`depth_under_rule`].
    fn depth_under_rule(&self, want: Metric) -> Option<u16> {
        match self.over() {
            true => None,
            false => depth_under_rule(self.report.rule.as_ref(), self.report.rule_metric, want),
        }
    }
}

#[pymethods]
impl Probe {
    /// The probed position in notation: the string as given, or a Position's own.
    #[getter]
    fn position(&self) -> String {
        self.report.text.clone()
    }

    /// The 100-turn counter of the probed position.
    #[getter]
    fn quiet_turns(&self) -> u16 {
        self.report.position.quiet_turns
    }

    /// `"win"`, `"draw"` or `"loss"` for the player to move (game-theoretic: the
    /// 100-turn rule is ignored, docs/RULES.md §7); for a finished game, its result.
    #[getter]
    fn value(&self) -> String {
        wdl_name(self.report.value)
    }

    /// Depth to capture in turns (docs/RULES.md §7), None for a draw or a
    /// finished game.
    #[getter]
    fn dtc(&self) -> Option<u16> {
        match self.over() {
            true => None,
            false => self.report.value.dtc(),
        }
    }

    /// The class under the 100-turn rule (`"win"`, `"cursed-win"`, `"draw"`,
    /// `"blessed-loss"`, `"loss"`); None without the horizon tables or for a
    /// finished game.
    #[getter]
    fn category(&self) -> Option<String> {
        match self.over() {
            true => None,
            false => category(self.report.rule.as_ref()),
        }
    }

    /// `"win"`, `"draw"` or `"loss"` under the 100-turn rule at the position's
    /// counter; None without the horizon tables; for a finished game, its result.
    #[getter]
    fn rule_value(&self) -> Option<String> {
        match self.over() {
            true => Some(wdl_name(self.report.value)),
            false => rule_value(self.report.rule.as_ref()),
        }
    }

    /// DTC₁₀₀: turns within which the win or loss is forced under the 100-turn
    /// rule (from counter 0); None for a draw under the rule, without the horizon
    /// tables, for a finished game, or under Lasker's rule (see `dtz100`).
    #[getter]
    fn dtc100(&self) -> Option<u16> {
        self.depth_under_rule(Metric::Dtc)
    }

    /// Under Lasker's rule, DTZ₁₀₀: turns within which the win or loss is forced
    /// under the 100-turn rule, counted to the next capture or placement (from
    /// counter 0); None for a draw under the rule, without the horizon tables,
    /// for a finished game, or under other rule sets (see `dtc100`).
    #[getter]
    fn dtz100(&self) -> Option<u16> {
        self.depth_under_rule(Metric::Dtz)
    }

    /// Depth to win: turns to the end of the game under perfect play (the winner
    /// hurrying, the loser resisting; docs/RULES.md §7); None for a draw, a
    /// finished game, or without the DTW tables (solved without `--dtw`).
    #[getter]
    fn dtw(&self) -> Option<u16> {
        self.report.dtw.and_then(|v| v.dtc())
    }

    /// How the game already ended in this position (a player blocked where that
    /// loses, or the 100-turn draw), as `tigadi probe --json`'s `game_over`:
    /// `{"state", "winner", "reason", "text"}`; None while the game goes on.
    #[getter]
    fn game_over<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.report
            .over
            .map(|r| json_to_py(py, &result_json(r)))
            .transpose()
    }

    /// Every legal move with its values, best first: by the value under the
    /// 100-turn rule at the position's counter where the horizon tables exist
    /// (as `tigadi probe` ranks them), else by the game-theoretic value (quickest
    /// win, then draws, then slowest loss; ties in generation order). None when
    /// probed with `moves=False`; empty for a finished game.
    #[getter]
    fn moves(&self) -> Option<Vec<ProbeMove>> {
        self.with_moves.then(|| {
            self.report
                .moves
                .iter()
                .map(|&turn| ProbeMove {
                    turn,
                    metric: self.report.rule_metric,
                })
                .collect()
        })
    }

    /// The object `tigadi probe --json` prints for this position, as `json.loads`
    /// gives it: `position`, `quiet_turns`, `value`, `dtc`, `category`,
    /// `rule_value`, `dtc100`, `game_over` (only for a finished game) and, unless
    /// probed with `moves=False`, `moves` (each with `move` and the same value
    /// fields).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut json = self.report.to_json();
        if !self.with_moves {
            if let Json::Object(map) = &mut json {
                map.remove("moves");
            }
        }
        json_to_py(py, &json)
    }

    fn __repr__(&self) -> String {
        match self.report.over {
            Some(r) => format!("Probe('{}', 'game over: {r}')", self.report.text),
            None => format!(
                "Probe('{}', '{}')",
                self.report.text,
                tigadi_values::both_in_words(self.report.value, self.report.dtw)
            ),
        }
    }
}

/// A position argument: a `Position` (with its rule set), or a string to parse
/// under the tablebase's rule set.
enum PositionArg {
    Parsed(tigadi_rules::Position, RuleSet),
    Text(PyBackedStr),
}

impl PositionArg {
    fn extract(obj: &Bound<'_, PyAny>) -> PyResult<PositionArg> {
        if let Ok(p) = obj.downcast::<PyPosition>() {
            let p = p.get();
            return Ok(PositionArg::Parsed(p.position, p.rules));
        }
        text_arg(obj).map(PositionArg::Text)
    }

    /// The position to probe under `rules`, and the string given for it: a string
    /// is parsed under `rules`; a Position made under another rule set is
    /// refused, naming both.
    fn position(&self, rules: &RuleSet) -> Result<(tigadi_rules::Position, Option<&str>), String> {
        match self {
            PositionArg::Parsed(p, made) if made == rules => Ok((*p, None)),
            PositionArg::Parsed(p, made) => Err(format!(
                "Position('{p}') was made under rules '{made}' but the tablebase's \
                 rules are '{rules}'; make it with rules='{rules}'"
            )),
            PositionArg::Text(s) => Ok((parse_text(rules, s)?, Some(s))),
        }
    }
}

/// Why one position of a batch has no answer.
enum Failure {
    /// The string does not parse (message names the problem).
    Parse(String),
    /// The prober's error.
    Tablebase(tigadi_tablebase::TablebaseError),
}

impl Failure {
    fn into_py(self, context: &str) -> PyErr {
        match self {
            Failure::Parse(m) => PyValueError::new_err(format!("{context}{m}")),
            Failure::Tablebase(e) => tablebase_error(e, context),
        }
    }
}

/// The tablebase files of one rule set in a directory (`DIRECTORY/<rules>/`), as
/// `tigadi solve` writes them. Tables open lazily on first use and are shared by
/// all threads; probing is thread-safe.
#[pyclass(frozen, module = "tigadi", name = "Tablebase")]
struct PyTablebase {
    inner: tigadi_tablebase::Tablebase,
}

impl PyTablebase {
    /// Probes one position through the one door (`Tablebase::answer`, or
    /// `answer_value` without the moves).
    fn answer(&self, arg: &PositionArg, moves: bool) -> Result<Probe, Failure> {
        let (position, text) = arg.position(self.inner.rules()).map_err(Failure::Parse)?;
        let mut report = match moves {
            true => self.inner.answer(&position),
            false => self.inner.answer_value(&position),
        }
        .map_err(Failure::Tablebase)?;
        if let Some(text) = text {
            report.text = text.to_string();
        }
        Ok(Probe {
            report,
            with_moves: moves,
        })
    }
}

#[pymethods]
impl PyTablebase {
    /// Opens the tablebase of rule set `rules` (`"tigadi"`, `"navakankari"`,
    /// `"morris"`, `"morabaraba"` or switches such as `"lines=16,blocked=loses"`) in
    /// `directory`.
    /// Reads nothing yet: a missing table raises MissingTableError when a position
    /// needs it. Raises ValueError for an unknown rule set.
    #[new]
    #[pyo3(signature = (directory, rules = "tigadi"))]
    fn new(directory: PathBuf, rules: &str) -> PyResult<PyTablebase> {
        let rules = parse_rules(rules)?;
        Ok(PyTablebase {
            inner: tigadi_tablebase::Tablebase::open(&directory, &rules),
        })
    }

    /// The rule set's canonical name.
    #[getter]
    fn rules(&self) -> String {
        self.inner.rules().name()
    }

    /// The tablebase directory.
    #[getter]
    fn directory(&self) -> PathBuf {
        self.inner.dir().to_path_buf()
    }

    /// Everything the tables say about a position of either phase (a string,
    /// parsed under the tablebase's rule set, or a Position of that rule set), as
    /// `tigadi probe --json` does: see Probe. A placing position is answered from
    /// the placing tables (`tigadi solve` writes them after the moving phase),
    /// with every placement and capture choice as a move. Raises ValueError for a
    /// string that does not parse under the rule set, a position no game under it
    /// reaches, or a Position of another rule set; MissingTableError or
    /// CorruptTableError when the tables needed are absent or damaged.
    fn probe(&self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<Probe> {
        let arg = PositionArg::extract(position)?;
        py.allow_threads(|| self.answer(&arg, true))
            .map_err(|f| f.into_py(""))
    }

    /// `"win"`, `"draw"` or `"loss"` for the player to move, as `probe(...).value`:
    /// for a moving-phase position in play it reads only the win/draw/loss section
    /// of its table (cheaper than probe). Errors as probe.
    fn probe_wdl(&self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<String> {
        let arg = PositionArg::extract(position)?;
        let wdl = py.allow_threads(|| {
            let rules = self.inner.rules();
            let (p, _) = arg.position(rules).map_err(Failure::Parse)?;
            let in_play = p.validate(rules).is_ok() && !standing(rules, &p).is_over();
            match p.phase() {
                Phase::Moving if in_play => self.inner.probe_wdl(p.to_board()),
                // Placing positions, finished games and positions the door refuses.
                _ => self.inner.answer_value(&p).map(|r| r.value.wdl()),
            }
            .map_err(Failure::Tablebase)
        });
        Ok(wdl.map_err(|f| f.into_py(""))?.to_string())
    }

    /// probe for each position of an iterable (strings or Positions), in order,
    /// in parallel on all cores with the GIL released. With `moves=False` only
    /// the value and DTC are probed (each Probe's `moves` is None). The first
    /// failing position (in input order) raises as probe would, its message
    /// starting `positions[i]: `.
    #[pyo3(signature = (positions, *, moves = true))]
    fn probe_many(
        &self,
        py: Python<'_>,
        positions: &Bound<'_, PyAny>,
        moves: bool,
    ) -> PyResult<Vec<Probe>> {
        let args = positions
            .try_iter()?
            .map(|item| PositionArg::extract(&item?))
            .collect::<PyResult<Vec<_>>>()?;
        let answers: Vec<Result<Probe, Failure>> = py.allow_threads(|| {
            args.par_iter()
                .with_min_len(BATCH_GRAIN)
                .map(|a| self.answer(a, moves))
                .collect()
        });
        answers
            .into_iter()
            .enumerate()
            .map(|(i, a)| a.map_err(|f| f.into_py(&format!("positions[{i}]: "))))
            .collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "Tablebase('{}', rules='{}')",
            self.inner.dir().display(),
            self.inner.rules()
        )
    }
}

/// Positions per rayon task in `probe_many`: a probe takes about a microsecond,
/// so smaller tasks would cost more in scheduling than they save.
const BATCH_GRAIN: usize = 256;

/// The extension module `tigadi._tigadi`.
#[pymodule]
fn _tigadi(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPosition>()?;
    m.add_class::<PyTablebase>()?;
    m.add_class::<Probe>()?;
    m.add_class::<ProbeMove>()?;
    let py = m.py();
    m.add("TablebaseError", py.get_type::<TablebaseError>())?;
    m.add("MissingTableError", py.get_type::<MissingTableError>())?;
    m.add("CorruptTableError", py.get_type::<CorruptTableError>())?;
    Ok(())
}
