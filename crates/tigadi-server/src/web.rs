//! The explorer page and the health check: plain HTML, CSS and JavaScript built
//! into the binary (no build step, nothing fetched from elsewhere). The page holds
//! no game rules: it draws what `/api/v1/{rules}/board` and `/explore` send.

use crate::AppState;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde_json::json;

/// The page.
const INDEX_HTML: &str = include_str!("../web/index.html");
/// Its script.
const APP_JS: &str = include_str!("../web/app.js");
/// Its style sheet.
const STYLE_CSS: &str = include_str!("../web/style.css");

/// `Cache-Control` of the page's files: short, so that a new binary's page is
/// picked up soon.
const PAGE_CACHE_CONTROL: &str = "public, max-age=300";

/// `/`, its files and `/health`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/",
            get(|| async { page("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/app.js",
            get(|| async { page("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/style.css",
            get(|| async { page("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .route("/health", get(health))
}

fn page(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, PAGE_CACHE_CONTROL),
        ],
        body,
    )
        .into_response()
}

/// `GET /health`: whether the server can answer from its tables. It checks that
/// the table directory can be listed, and lists the rule sets it holds a
/// directory for: `{"status": "ok", "dir", "checks", "rulesets", "version"}`, or
/// 503 with `{"status": "unavailable", "error": REASON, ...}` when the directory
/// is missing or unreadable. It reads no table (a damaged table fails only its
/// own positions, with a 500 that names the file).
async fn health(State(tables): State<AppState>) -> Response {
    let dir = tables.dir().display().to_string();
    let checks = "the table directory can be listed";
    let version = env!("CARGO_PKG_VERSION");
    match tables.rule_sets() {
        Ok(found) => {
            let names: Vec<String> = found.iter().map(|(r, _)| r.name()).collect();
            (
                [(header::CACHE_CONTROL, "no-store")],
                axum::Json(json!({
                    "status": "ok",
                    "dir": dir,
                    "checks": checks,
                    "rulesets": names,
                    "version": version,
                })),
            )
                .into_response()
        }
        Err(error) => (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::CACHE_CONTROL, "no-store")],
            axum::Json(json!({
                "status": "unavailable",
                "error": error,
                "dir": dir,
                "checks": checks,
                "version": version,
            })),
        )
            .into_response(),
    }
}
