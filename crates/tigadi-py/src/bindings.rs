//! The PyO3 classes and functions of `tigadi._tigadi`.

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyDict, PyList};
use rayon::prelude::*;
use std::path::PathBuf;
use tigadi_rules::Move;
use tigadi_rules::{check_move, diagram, parse_move, parse_position, Phase, RuleSet, Side};
use tigadi_tablebase::ProbeAnswer;
use tigadi_values::Value;

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
        E::InvalidPosition(_) | E::NotMovingPhase | E::InvalidValues(_) => {
            PyValueError::new_err(message)
        }
        E::MissingSubspace { .. } => MissingTableError::new_err(message),
        E::Corrupt { .. } | E::RulesMismatch { .. } => CorruptTableError::new_err(message),
        _ => TablebaseError::new_err(message),
    }
}

fn parse_rules(text: &str) -> PyResult<RuleSet> {
    RuleSet::parse(text).map_err(PyValueError::new_err)
}

/// Parses a position string, with the error message `position '…': what is wrong`.
fn parse_text(text: &str) -> Result<tigadi_rules::Position, String> {
    parse_position(&tigadi_rules::RuleSet::TIGADI, text)
        .map_err(|e| format!("position '{text}': {e}"))
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
    /// Parses a position string `RANKS SIDE [BONE_HAND SEED_HAND [QUIET_TURNS]]`;
    /// with no string, the empty board at the start of a game. Raises ValueError
    /// naming the problem for a string that does not parse or that no game can
    /// produce, or for an unknown rule set.
    #[new]
    #[pyo3(signature = (text = None, rules = "tigadi"))]
    fn new(text: Option<&str>, rules: &str) -> PyResult<PyPosition> {
        let rules = parse_rules(rules)?;
        let position = match text {
            Some(t) => parse_text(t).map_err(PyValueError::new_err)?,
            None => tigadi_rules::Position::start(&rules),
        };
        Ok(PyPosition { position, rules })
    }

    /// The rule set's canonical name (`tigadi`, `morris`, or switches).
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

/// One legal move of a probed position and the value it leads to.
#[pyclass(frozen, module = "tigadi", name = "ProbeMove")]
struct ProbeMove {
    turn: Move,
    outcome: Value,
}

#[pymethods]
impl ProbeMove {
    /// The move in notation (`"a1-a4"`, `"a1-a4xg7"`, `"pass"`; placing: `"d7"`,
    /// `"d7xg1"`).
    #[getter(r#move)]
    fn get_move(&self) -> String {
        self.turn.to_string()
    }

    /// `"win"`, `"draw"` or `"loss"` for the player to move if they play this move.
    #[getter]
    fn value(&self) -> String {
        self.outcome.wdl().to_string()
    }

    /// Turns to the next capture counted from the probed position (so the best
    /// move's dtc equals the position's), None for a draw.
    #[getter]
    fn dtc(&self) -> Option<u16> {
        self.outcome.dtc()
    }

    fn __repr__(&self) -> String {
        format!("ProbeMove('{}', {})", self.turn, self.outcome)
    }
}

/// The answer for one position: `value` and `dtc` for the player to move and,
/// unless probed with `moves=False`, every legal move with its value, best first.
#[pyclass(frozen, module = "tigadi", name = "Probe")]
struct Probe {
    position: tigadi_rules::Position,
    value: Value,
    /// `None` when probed without moves.
    moves: Option<Vec<(Move, Value)>>,
}

impl Probe {
    fn move_dict<'py>(py: Python<'py>, turn: &Move, v: Value) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("move", turn.to_string())?;
        d.set_item("value", v.wdl().to_string())?;
        d.set_item("dtc", v.dtc())?;
        Ok(d)
    }
}

#[pymethods]
impl Probe {
    /// The probed position in notation.
    #[getter]
    fn position(&self) -> String {
        self.position.to_string()
    }

    /// `"win"`, `"draw"` or `"loss"` for the player to move (game-theoretic: the
    /// 100-turn rule is ignored, docs/RULES.md §7).
    #[getter]
    fn value(&self) -> String {
        self.value.wdl().to_string()
    }

    /// Depth to capture in turns (docs/RULES.md §7), None for a draw.
    #[getter]
    fn dtc(&self) -> Option<u16> {
        self.value.dtc()
    }

    /// Every legal move with its value, best first (quickest win, then draws,
    /// then slowest loss; ties in generation order); None when probed with
    /// `moves=False`. Empty only for a blocked player where that loses.
    #[getter]
    fn moves(&self) -> Option<Vec<ProbeMove>> {
        self.moves.as_ref().map(|m| {
            m.iter()
                .map(|&(turn, outcome)| ProbeMove { turn, outcome })
                .collect()
        })
    }

    /// The fields of `tigadi probe --json`: `position`, `value`, `dtc` and (unless
    /// probed with `moves=False`) `moves`, a list of `{"move", "value", "dtc"}`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("position", self.position.to_string())?;
        d.set_item("value", self.value.wdl().to_string())?;
        d.set_item("dtc", self.value.dtc())?;
        if let Some(moves) = &self.moves {
            let list = PyList::empty(py);
            for (t, v) in moves {
                list.append(Probe::move_dict(py, t, *v)?)?;
            }
            d.set_item("moves", list)?;
        }
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!("Probe('{}', {})", self.position, self.value)
    }
}

/// A position argument: a `Position`, or a string to parse.
enum PositionArg {
    Parsed(tigadi_rules::Position),
    Text(PyBackedStr),
}

impl PositionArg {
    fn extract(obj: &Bound<'_, PyAny>) -> PyResult<PositionArg> {
        if let Ok(p) = obj.downcast::<PyPosition>() {
            return Ok(PositionArg::Parsed(p.get().position));
        }
        match obj.extract::<PyBackedStr>() {
            Ok(s) => Ok(PositionArg::Text(s)),
            Err(_) => Err(PyTypeError::new_err(format!(
                "expected a position string or a tigadi.Position, got {}",
                obj.get_type().name()?
            ))),
        }
    }

    fn position(&self) -> Result<tigadi_rules::Position, String> {
        match self {
            PositionArg::Parsed(p) => Ok(*p),
            PositionArg::Text(s) => parse_text(s),
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
    /// Probes one position: value, and every move unless `moves` is false.
    fn answer(&self, arg: &PositionArg, moves: bool) -> Result<Probe, Failure> {
        let position = arg.position().map_err(Failure::Parse)?;
        let (value, moves) = if moves {
            let ProbeAnswer { value, moves } = self
                .inner
                .probe_position(&position)
                .map_err(Failure::Tablebase)?;
            (value, Some(moves))
        } else {
            let value = self
                .inner
                .probe_position_value(&position)
                .map_err(Failure::Tablebase)?;
            (value, None)
        };
        Ok(Probe {
            position,
            value,
            moves,
        })
    }
}

#[pymethods]
impl PyTablebase {
    /// Opens the tablebase of rule set `rules` (`"tigadi"`, `"navakankari"`,
    /// `"morris"` or switches such as `"lines=16,blocked=loses"`) in `directory`.
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

    /// Value, DTC and every legal move's value of a position of either phase (a
    /// string or a Position); see Probe. A placing position is answered from the
    /// placing tables (`tigadi solve` writes them after the moving phase), with
    /// every placement and capture choice as a move. Raises ValueError for a
    /// string that does not parse, MissingTableError or CorruptTableError when the
    /// tables needed are absent or damaged.
    fn probe(&self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<Probe> {
        let arg = PositionArg::extract(position)?;
        py.allow_threads(|| self.answer(&arg, true))
            .map_err(|f| f.into_py(""))
    }

    /// `"win"`, `"draw"` or `"loss"` for the player to move, reading only the
    /// win/draw/loss section of a moving-phase table (cheaper than probe; a
    /// placing position reads its value). Errors as probe.
    fn probe_wdl(&self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<String> {
        let arg = PositionArg::extract(position)?;
        let wdl = py.allow_threads(|| {
            let p = arg.position().map_err(Failure::Parse)?;
            match p.phase() {
                Phase::Moving => self.inner.probe_wdl(p.to_board()),
                Phase::Placing => self.inner.probe_position_value(&p).map(|v| v.wdl()),
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
