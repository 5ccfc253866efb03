//! The JSON API under `/api/v1` (see the crate docs for the endpoints).

use crate::error::ApiError;
use crate::explore::explore;
use crate::AppState;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Deserialize;
use serde_json::{json, Value as Json};
use tigadi_rules::{Geometry, Point, Position, RuleSet};

/// `Cache-Control` of a successful answer: a table never changes under a running
/// server, so an answer stays true for as long as the server runs; a day bounds
/// what a client keeps across a restart with other tables.
pub const ANSWER_CACHE_CONTROL: &str = "public, max-age=86400";

/// The routes below `/api/v1`, one line per endpoint.
pub fn routes() -> Router<AppState> {
    Router::new()
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

/// The rule set named in the path.
pub fn rule_set(name: &str) -> Result<RuleSet, ApiError> {
    RuleSet::parse(name).map_err(|e| ApiError::bad_request(format!("rules '{name}': {e}")))
}

/// What a position endpoint was asked about.
enum Asked {
    /// A position string, not yet parsed (the probe quotes it as given).
    Text(String),
    /// The position a game record reaches (every move checked).
    Replayed(Position),
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
        (None, Some(r)) => tigadi_tablebase::position_after_record(rules, &r)
            .map(|p| Some(Asked::Replayed(p)))
            .map_err(ApiError::bad_request),
        (Some(_), Some(_)) => Err(ApiError::bad_request(
            "give either position or record, not both",
        )),
        (None, None) => Ok(None),
    }
}

/// [`asked`], with a position string parsed under `rules` (hands up to its gotis a
/// side) into the position: for the endpoints that need the position itself, not
/// the text `probe` quotes.
fn asked_position(
    rules: RuleSet,
    q: Result<Query<PositionQuery>, QueryRejection>,
) -> Result<Option<Position>, ApiError> {
    Ok(match asked(rules, q)? {
        Some(Asked::Text(p)) => Some(tigadi_rules::parse_position(&rules, &p).map_err(|e| {
            ApiError::bad_request(format!(
                "position '{}': {e}",
                tigadi_rules::notation::shown(&p)
            ))
        })?),
        Some(Asked::Replayed(p)) => Some(p),
        None => None,
    })
}

/// `GET /api/v1/{rules}?position=P`: the object of `tigadi probe --json`.
async fn probe(
    State(tables): State<AppState>,
    Path(rules): Path<String>,
    q: Result<Query<PositionQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let rules = rule_set(&rules)?;
    let text = match asked(rules, q)? {
        Some(Asked::Text(p)) => p,
        Some(Asked::Replayed(p)) => p.to_string(),
        None => {
            return Err(ApiError::bad_request(
                "missing query parameter: position (a position string, docs/RULES.md §9)",
            ))
        }
    };
    let report = tables.get(&rules).report(&text)?;
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
}

/// `GET /api/v1/{rules}/line?position=P|record=R[&max_turns=N]`: the principal
/// variation under perfect play (`tigadi line --json`, [`tigadi_play::line`]).
async fn line(
    State(tables): State<AppState>,
    Path(rules): Path<String>,
    q: Result<Query<LineQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let rules = rule_set(&rules)?;
    let Query(q) = q.map_err(|e| ApiError::bad_request(format!("query: {}", e.body_text())))?;
    let max_turns = q.max_turns.unwrap_or(MAX_LINE_TURNS).min(MAX_LINE_TURNS);
    let position = asked_position(
        rules,
        Ok(Query(PositionQuery {
            position: q.position,
            record: q.record,
        })),
    )?
    .ok_or_else(|| ApiError::bad_request("missing query parameter: position"))?;
    let l = tigadi_play::line(&tables.get(&rules), &position, max_turns)?;
    Ok(answer(
        serde_json::to_value(&l).expect("a line is plain JSON"),
    ))
}

/// `GET /api/v1/{rules}/explore?position=P|record=R` (neither: the empty board):
/// see [`explore`].
async fn explore_position(
    State(tables): State<AppState>,
    Path(rules): Path<String>,
    q: Result<Query<PositionQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let rules = rule_set(&rules)?;
    let position = asked_position(rules, q)?.unwrap_or(Position::start(&rules));
    Ok(answer(explore(&tables.get(&rules), &position)?))
}

/// `GET /api/v1/{rules}/board`: the board of the rule set for drawing: `points`
/// (name, column `x` 0..6 for files a..g, row `y` 0..6 from rank 7 down to rank
/// 1), `lines` (three point names each) and `connections` (pairs of neighbours).
async fn board(Path(rules): Path<String>) -> Result<Response, ApiError> {
    let rules = rule_set(&rules)?;
    Ok(answer(board_json(rules.geometry())))
}

/// See [`board`].
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
