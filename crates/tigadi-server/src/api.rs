//! The JSON API under `/api/v1` (see the crate docs for the endpoints).

use crate::error::ApiError;
use crate::explore::explore;
use crate::AppState;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Deserialize;
use serde_json::{json, Value as Json};
use tigadi_rules::notation::shown;
use tigadi_rules::{Game, Geometry, Point, Position, RuleSet};

/// `Cache-Control` of a successful answer: a table never changes under a running
/// server, so an answer stays true for as long as the server runs; a day bounds
/// what a client keeps across a restart with other tables.
pub const ANSWER_CACHE_CONTROL: &str = "public, max-age=86400";

/// The routes below `/api/v1`, one line per endpoint.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/rulesets", get(rulesets))
        .route("/{rules}", get(probe))
        .route("/{rules}/line", get(line))
        .route("/{rules}/explore", get(explore_position))
        .route("/{rules}/board", get(board))
}

/// The query string of a position endpoint: a position string, or (where the
/// endpoint takes one) a game record from the empty board.
#[derive(Debug, Deserialize)]
pub struct PositionQuery {
    /// A position string (docs/RULES.md §9).
    pub position: Option<String>,
    /// A game record from the empty board.
    pub record: Option<String>,
}

/// A JSON answer with [`ANSWER_CACHE_CONTROL`].
pub fn answer(body: Json) -> Response {
    (
        [(header::CACHE_CONTROL, ANSWER_CACHE_CONTROL)],
        axum::Json(body),
    )
        .into_response()
}

/// The rule set named in the path (a message quoting at most a short prefix of a
/// long name).
pub fn rule_set(name: &str) -> Result<RuleSet, ApiError> {
    RuleSet::parse(name).map_err(|e| ApiError::bad_request(format!("rules '{}': {e}", shown(name))))
}

/// The rule set of the path segment `{rules}`, or a 400 saying why not (a name
/// that is no rule set, or bytes that are not UTF-8).
fn path_rules(p: Result<Path<String>, PathRejection>) -> Result<RuleSet, ApiError> {
    match p {
        Ok(Path(name)) => rule_set(&name),
        Err(e) => Err(ApiError::bad_request(format!(
            "rules in the path: {}",
            shown(&e.body_text())
        ))),
    }
}

/// `GET /api/v1/rulesets`: the rule sets the table directory holds a directory
/// for, as `{"rulesets": [{"name", "dir", "pieces"}, ...]}` sorted by name (a
/// directory may hold only some of a rule set's tables; `/explore` says which
/// values are known). 503 when the directory cannot be listed.
async fn rulesets(State(tables): State<AppState>) -> Result<Response, ApiError> {
    let found = tables.rule_sets().map_err(|message| ApiError {
        status: axum::http::StatusCode::SERVICE_UNAVAILABLE,
        message,
    })?;
    let list: Vec<Json> = found
        .iter()
        .map(|(r, dir)| json!({ "name": r.name(), "dir": dir, "pieces": r.pieces }))
        .collect();
    Ok((
        [(header::CACHE_CONTROL, "no-store")],
        axum::Json(json!({ "rulesets": list })),
    )
        .into_response())
}

/// What a position endpoint was asked about.
enum Asked {
    /// A position string, not yet parsed (the probe quotes it as given).
    Text(String),
    /// The game a record plays (every move checked; it may be over).
    Replayed(Game),
}

/// The position asked about in the query (`None` when the query names none), or a
/// 400 that says what is wrong with the query or the record.
fn asked(
    rules: RuleSet,
    q: Result<Query<PositionQuery>, QueryRejection>,
) -> Result<Option<Asked>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::bad_request(format!("query: {}", e.body_text())))?;
    match (q.position, q.record) {
        (Some(p), None) => Ok(Some(Asked::Text(p))),
        (None, Some(r)) => tigadi_tablebase::game_after_record(rules, &r)
            .map(|g| Some(Asked::Replayed(g)))
            .map_err(ApiError::bad_request),
        (Some(_), Some(_)) => Err(ApiError::bad_request(
            "give either position or record, not both",
        )),
        (None, None) => Ok(None),
    }
}

/// A position string parsed under `rules` (hands up to its gotis a side), the
/// position right after a game-ending capture included; a 400 naming the problem
/// otherwise.
fn parse(rules: RuleSet, text: &str) -> Result<Position, ApiError> {
    tigadi_rules::parse_reached_position(&rules, text)
        .map_err(|e| ApiError::bad_request(format!("position '{}': {e}", shown(text))))
}

/// [`asked`] as a game: a position string parsed (see [`parse`]) and started
/// from, or the game a record plays; `None` when the query names neither.
fn asked_game(
    rules: RuleSet,
    q: Result<Query<PositionQuery>, QueryRejection>,
) -> Result<Option<Game>, ApiError> {
    Ok(match asked(rules, q)? {
        Some(Asked::Text(p)) => Some(
            Game::from_reached_position(rules, parse(rules, &p)?)
                .map_err(|e| ApiError::bad_request(format!("position '{}': {e}", shown(&p))))?,
        ),
        Some(Asked::Replayed(g)) => Some(g),
        None => None,
    })
}

/// `GET /api/v1/{rules}?position=P`: the object of `tigadi probe --json`; for the
/// position after the last move of a finished game (or a record that ends one),
/// how the game ended (`game_over`, no moves).
async fn probe(
    State(tables): State<AppState>,
    rules: Result<Path<String>, PathRejection>,
    q: Result<Query<PositionQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let rules = path_rules(rules)?;
    let tb = tables.get(&rules);
    let report = match asked(rules, q)? {
        Some(Asked::Text(text)) => {
            let mut report = tb.answer(&parse(rules, &text)?)?;
            report.text = text;
            report
        }
        Some(Asked::Replayed(game)) => {
            let mut report = tb.answer(game.position())?;
            // A record may end the game where the position alone does not show it
            // (a repetition).
            if game.result().is_over() && report.over.is_none() {
                report.over = Some(game.result());
                report.value = tigadi_values::Value::Draw;
                report.moves.clear();
            }
            report
        }
        None => {
            return Err(ApiError::bad_request(
                "missing query parameter: position (a position string, docs/RULES.md §9)",
            ))
        }
    };
    // Serialised directly: the bytes of `report.to_json()` printed, without the tree.
    let body = serde_json::to_vec(&report).expect("a probe report is plain JSON");
    Ok((
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, ANSWER_CACHE_CONTROL),
        ],
        body,
    )
        .into_response())
}

/// The longest principal variation `/line` follows (`max_turns` above it is cut
/// down to it), so that one request stays cheap.
pub const MAX_LINE_TURNS: usize = 500;

/// The query string of `/line`: a position (or record) and a turn limit.
#[derive(Debug, Deserialize)]
pub struct LineQuery {
    /// A position string (docs/RULES.md §9).
    pub position: Option<String>,
    /// A game record from the empty board.
    pub record: Option<String>,
    /// Stop after this many turns (default and maximum [`MAX_LINE_TURNS`]).
    pub max_turns: Option<usize>,
    /// The depth both sides play by: `dtc` (default) or `dtw` (the DTW tables).
    pub metric: Option<String>,
}

/// `GET /api/v1/{rules}/line?position=P|record=R[&max_turns=N][&metric=dtc|dtw]`:
/// the principal variation under perfect play (`tigadi line --json [--metric
/// dtw]`, [`tigadi_play::line_with`]); every value's depth under its metric's key
/// (`dtw` steps carry `dtw`).
async fn line(
    State(tables): State<AppState>,
    rules: Result<Path<String>, PathRejection>,
    q: Result<Query<LineQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let rules = path_rules(rules)?;
    let Query(q) = q.map_err(|e| ApiError::bad_request(format!("query: {}", e.body_text())))?;
    let max_turns = q.max_turns.unwrap_or(MAX_LINE_TURNS).min(MAX_LINE_TURNS);
    let metric = match q.metric.as_deref() {
        None | Some("dtc") => tigadi_values::Metric::Dtc,
        Some("dtw") => tigadi_values::Metric::Dtw,
        Some(m) => {
            return Err(ApiError::bad_request(format!(
                "metric '{}': expected dtc or dtw",
                tigadi_rules::notation::shown(m)
            )))
        }
    };
    let game = asked_game(
        rules,
        Ok(Query(PositionQuery {
            position: q.position,
            record: q.record,
        })),
    )?
    .ok_or_else(|| ApiError::bad_request("missing query parameter: position"))?;
    if game.result().is_over() {
        return Err(tigadi_play::PlayError::GameOver(game.result()).into());
    }
    let position = *game.position();
    let l = tigadi_play::line_with(&tables.get(&rules), &position, max_turns, metric)?;
    Ok(answer(
        serde_json::to_value(&l).expect("a line is plain JSON"),
    ))
}

/// `GET /api/v1/{rules}/explore?position=P|record=R` (neither: the start of the rule
/// set's game, `Position::start`):
/// see [`explore`].
async fn explore_position(
    State(tables): State<AppState>,
    rules: Result<Path<String>, PathRejection>,
    q: Result<Query<PositionQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let rules = path_rules(rules)?;
    let game = asked_game(rules, q)?.unwrap_or_else(|| Game::new(rules));
    Ok(answer(explore(&tables.get(&rules), &game)?))
}

/// `GET /api/v1/{rules}/board`: the board of the rule set for drawing: `points`
/// (name, column `x` 0..6 for files a..g, row `y` 0..6 from rank 7 down to rank
/// 1), `lines` (three point names each) and `connections` (pairs of neighbours).
async fn board(rules: Result<Path<String>, PathRejection>) -> Result<Response, ApiError> {
    let rules = path_rules(rules)?;
    Ok(answer(board_json(rules.geometry())))
}

/// See `board`.
pub fn board_json(g: &Geometry) -> Json {
    let points: Vec<Json> = Point::all()
        .map(|p| {
            let name = p.name().as_bytes();
            json!({
                "name": p.name(),
                "x": name[0] - b'a',
                "y": b'7' - name[1],
            })
        })
        .collect();
    let names = |bits| Point::iter(bits).map(Point::name).collect::<Vec<_>>();
    let lines: Vec<Json> = g.lines.iter().map(|&l| json!(names(l))).collect();
    let mut connections = Vec::new();
    for p in Point::all() {
        for q in Point::iter(g.neighbours[p.index()]) {
            if p < q {
                connections.push(json!([p.name(), q.name()]));
            }
        }
    }
    json!({
        "kind": match g.kind {
            tigadi_rules::BoardKind::Diagonals => "diagonals",
            tigadi_rules::BoardKind::Plain => "plain",
        },
        "points": points,
        "lines": lines,
        "connections": connections,
    })
}
