//! The explorer page and the health check: plain HTML, CSS and JavaScript built
//! into the binary (no build step, nothing fetched from elsewhere). The page holds
//! no game rules: it draws what `/api/v1/{rules}/board` and `/explore` send.

use crate::AppState;
use axum::extract::State;
use axum::http::header;
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

/// `GET /health`: `{"status": "ok", "dir": ..., "version": ...}`.
async fn health(State(tables): State<AppState>) -> Response {
    (
        [(header::CACHE_CONTROL, "no-store")],
        axum::Json(json!({
            "status": "ok",
            "dir": tables.dir().display().to_string(),
            "version": env!("CARGO_PKG_VERSION"),
        })),
    )
        .into_response()
}
