//! Errors as the API answers them: an HTTP status and `{"error": MESSAGE}`.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
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
        TablebaseError::InvalidPosition(_)
        | TablebaseError::NotMovingPhase
        | TablebaseError::InvalidValues(_) => StatusCode::BAD_REQUEST,
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
        message: format!("no such endpoint: {}", uri.path()),
    }
}
