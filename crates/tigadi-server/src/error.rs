//! Errors as the API answers them: an HTTP status and `{"error": MESSAGE}`.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use tigadi_rules::notation::shown;
use tigadi_tablebase::{ReportError, TablebaseError};

/// A failed request: its status and a message naming the problem.
#[derive(Debug)]
pub struct ApiError {
    /// 400 bad input, 404 missing table or path, 500 damaged table.
    pub status: StatusCode,
    /// What went wrong, in words (names the input or the file).
    pub message: String,
}

impl ApiError {
    /// A 400 with `message`.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }
}

/// The status of a table error: 404 when the table is missing, 400 when the
/// position is one no table can hold, 500 when a file is damaged or unreadable.
pub fn table_status(e: &TablebaseError) -> StatusCode {
    match e {
        TablebaseError::MissingSubspace { .. } => StatusCode::NOT_FOUND,
        TablebaseError::InvalidPosition(_) | TablebaseError::InvalidValues(_) => {
            StatusCode::BAD_REQUEST
        }
        TablebaseError::Corrupt { .. }
        | TablebaseError::RulesMismatch { .. }
        | TablebaseError::Io { .. } => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl From<ReportError> for ApiError {
    fn from(e: ReportError) -> ApiError {
        let status = match &e {
            ReportError::Input(_) => StatusCode::BAD_REQUEST,
            ReportError::Table(t) => table_status(t),
        };
        ApiError {
            status,
            message: e.to_string(),
        }
    }
}

impl From<TablebaseError> for ApiError {
    fn from(e: TablebaseError) -> ApiError {
        ReportError::Table(e).into()
    }
}

impl From<tigadi_play::PlayError> for ApiError {
    /// Bad input (a finished game, an illegal record, a position the rules
    /// cannot hold) is 400; a table the line needs and the directory lacks (or the
    /// placing phase, which `line` does not follow) 404; a damaged table 500.
    fn from(e: tigadi_play::PlayError) -> ApiError {
        use tigadi_play::PlayError as P;
        let status = match &e {
            P::Table(t) => table_status(t),
            P::NoTable(_) => StatusCode::NOT_FOUND,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError {
            status,
            message: e.to_string(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            [(header::CACHE_CONTROL, "no-store")],
            Json(json!({ "error": self.message })),
        )
            .into_response()
    }
}

/// The answer for a path that names nothing.
pub async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError {
        status: StatusCode::NOT_FOUND,
        message: format!("no such endpoint: {}", shown(uri.path())),
    }
}

/// Longest error body of a layer below read to quote it (plain-text rejections
/// are short; anything longer is cut).
const QUOTED_BODY_LIMIT: usize = 4096;

/// Makes every error answer JSON: an answer of status 400 or above whose body is
/// not JSON (axum's 405 and plain-text rejections, the 408 of the time limit, the
/// 413 of the size limit) becomes `{"error": MESSAGE}` with the same status and
/// headers (`Allow` kept), the message saying what went wrong and quoting at most
/// a short prefix of the text it replaces.
pub async fn json_errors(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if status.as_u16() < 400 || is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, QUOTED_BODY_LIMIT)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let allow = parts
        .headers
        .get(header::ALLOW)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let message = match status {
        StatusCode::METHOD_NOT_ALLOWED => format!(
            "method not allowed: this path answers {}",
            allow.as_deref().unwrap_or("GET")
        ),
        StatusCode::REQUEST_TIMEOUT => format!(
            "request timed out: no answer within {} s",
            crate::REQUEST_TIME_LIMIT.as_secs()
        ),
        StatusCode::PAYLOAD_TOO_LARGE => format!(
            "request body too large: at most {} bytes (the API takes no body)",
            crate::REQUEST_BODY_LIMIT
        ),
        _ if text.is_empty() => status.canonical_reason().unwrap_or("error").to_lowercase(),
        _ => shown(&text),
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.remove(header::CONTENT_TYPE);
    parts.headers.insert(
        header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
    let json = Json(json!({ "error": message })).into_response();
    let (json_parts, json_body) = json.into_parts();
    parts.headers.extend(json_parts.headers);
    Response::from_parts(parts, json_body)
}
