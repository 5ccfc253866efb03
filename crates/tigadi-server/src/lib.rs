//! The tablebase server behind `tigadi serve`: a JSON API over one shared
//! [`tigadi_tablebase::Tablebase`] per rule set, and a web explorer (a clickable
//! board that plays against the tables) served from the same binary.
//!
//! Endpoints (all `GET`; `{rules}` is a rule-set name as `--rules` takes it):
//!
//! - `/api/v1/{rules}?position=P`: the object of `tigadi probe --json` for `P`
//!   (built by [`tigadi_tablebase::ProbeReport::to_json`], the same code);
//! - `/api/v1/{rules}/explore?position=P` (or `?record=R`): what the web page needs
//!   about any position, placing phase included: the board, the game state and
//!   every legal move with the position it leads to (`next`) and its values where
//!   the tables know them (see [`explore`]);
//! - `/api/v1/{rules}/board`: the board's points (with grid coordinates), lines and
//!   connections, for drawing it;
//! - `/api/v1/rulesets`: the rule sets whose directories the table directory
//!   holds, by canonical name;
//! - `/health`: `{"status": "ok", ...}` while the table directory can be listed,
//!   503 with the reason otherwise;
//! - `/`: the explorer page.
//!
//! Errors are JSON `{"error": MESSAGE}`, every one of them (see
//! [`error::json_errors`] and [`conn`]): 400 for bad input, 404 for a missing table
//! or an unknown path, 405 for a method other than GET, 500 for a damaged table
//! (the message names the file), 408 past the time limit, 413 past the size limit,
//! 414 and 431 for a request target or head too long, 503 past the connection cap.
//! Messages quote at most a short prefix of long input. Answers carry `Cache-Control`
//! (tables do not change under a running server); errors are not cached.
//!
//! Not here: the rules (`tigadi-rules`), probing (`tigadi-tablebase`) or argument
//! parsing (the CLI).

#![warn(missing_docs)]

pub mod api;
pub mod conn;
pub mod error;
pub mod explore;
pub mod web;

use axum::Router;
use std::collections::HashMap;
use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};
use tigadi_rules::RuleSet;
use tigadi_tablebase::{CacheSize, Tablebase};

/// Longest time one request may take before it is answered 408: far beyond any
/// probe on warm tables (microseconds), room for a first probe that opens and
/// checks a large table file on a busy machine.
pub const REQUEST_TIME_LIMIT: Duration = Duration::from_secs(30);

/// Largest request body accepted (the API takes none; a body this large is a
/// mistake or an attack).
pub const REQUEST_BODY_LIMIT: usize = 16 * 1024;

/// Memory for decompressed blocks each rule set's tablebase keeps, by default
/// (`tigadi serve --cache-mib`), in MiB: a server answers many positions, each
/// reading the blocks of all its successors, and a block it has to decompress
/// again costs it more than anything else (docs/PERFORMANCE.md, "A stream of
/// random positions the cache has not seen").
pub const DEFAULT_CACHE_MIB: usize = 1024;

/// The cache of `mib` MiB of decompressed blocks (at least one block): as many
/// blocks as fit, whatever block size the tables were written with.
pub fn cache_mib(mib: usize) -> CacheSize {
    CacheSize::Bytes(mib.saturating_mul(1024 * 1024))
}

/// Most rule sets whose tablebases are kept open at once; requests for further
/// rule sets are answered from a tablebase opened for them alone.
const MAX_OPEN_RULE_SETS: usize = 32;

/// The tablebases a server answers from: one shared [`Tablebase`] per rule set,
/// opened on its first request.
pub struct Tablebases {
    dir: PathBuf,
    open: RwLock<HashMap<RuleSet, Arc<Tablebase>>>,
    /// The cache of decompressed blocks each rule set's tablebase keeps.
    cache: CacheSize,
}

impl Tablebases {
    /// The tablebases in directory `dir` (files in `dir/<rules>/`), each rule
    /// set's with a cache of [`DEFAULT_CACHE_MIB`].
    pub fn new(dir: &Path) -> Tablebases {
        Tablebases::with_cache(dir, cache_mib(DEFAULT_CACHE_MIB))
    }

    /// [`Tablebases::new`], each rule set's tablebase keeping a cache of
    /// decompressed blocks of `cache` ([`cache_mib`]).
    pub fn with_cache(dir: &Path, cache: CacheSize) -> Tablebases {
        Tablebases {
            dir: dir.to_path_buf(),
            open: RwLock::new(HashMap::new()),
            cache,
        }
    }

    /// The tablebase directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The rule sets whose directories `dir` holds, sorted by canonical name: each
    /// subdirectory whose name is a rule set's directory name
    /// ([`tigadi_tablebase::TablebaseDir::name_of`]: `tigadi`, `tigadi_pieces-4`,
    /// `lines-16_flying-3_blocked-loses`), with the name; other entries are left
    /// out. An error when `dir` cannot be listed (missing, not a directory,
    /// unreadable), in words naming it.
    pub fn rule_sets(&self) -> Result<Vec<(RuleSet, String)>, String> {
        let entries = std::fs::read_dir(&self.dir)
            .map_err(|e| format!("table directory '{}': {e}", self.dir.display()))?;
        let mut found = Vec::new();
        for entry in entries {
            let entry =
                entry.map_err(|e| format!("table directory '{}': {e}", self.dir.display()))?;
            if !entry.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                continue;
            };
            if let Some(rules) = tigadi_tablebase::TablebaseDir::rules_named(&name) {
                found.push((rules, name));
            }
        }
        found.sort_by_key(|(r, _)| r.name());
        Ok(found)
    }

    /// The shared tablebase of `rules` (one opened for this call alone when the
    /// table directory has no directory for `rules`, or when
    /// [`MAX_OPEN_RULE_SETS`] are kept already).
    pub fn get(&self, rules: &RuleSet) -> Arc<Tablebase> {
        if let Some(tb) = self
            .open
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(rules)
        {
            return tb.clone();
        }
        let mut open = self.open.write().unwrap_or_else(|e| e.into_inner());
        let open_one = || {
            Arc::new(
                Tablebase::with_cache(&self.dir, rules, self.cache).with_rule_values_from_game(),
            )
        };
        // A rule set without a directory of tables is not kept: asking about
        // many such rule sets must cost the server nothing (issue 54).
        let has_tables = || {
            self.dir
                .join(tigadi_tablebase::TablebaseDir::name_of(rules))
                .is_dir()
        };
        if !open.contains_key(rules) && (open.len() >= MAX_OPEN_RULE_SETS || !has_tables()) {
            return open_one();
        }
        open.entry(*rules).or_insert_with(open_one).clone()
    }
}

/// What every handler shares.
pub type AppState = Arc<Tablebases>;

/// The whole service: API, page, health, limits, cache headers and the request
/// log, answering from the tables in `dir` with the default cache.
pub fn app(dir: &Path) -> Router {
    app_with(Tablebases::new(dir))
}

/// [`app`], answering from `tables`.
pub fn app_with(tables: Tablebases) -> Router {
    use axum::http::StatusCode;
    use tower_http::limit::RequestBodyLimitLayer;
    use tower_http::timeout::TimeoutLayer;
    let state: AppState = Arc::new(tables);
    Router::new()
        .nest("/api/v1", api::routes())
        .merge(web::routes())
        .fallback(error::not_found)
        .with_state(state)
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIME_LIMIT,
        ))
        .layer(RequestBodyLimitLayer::new(REQUEST_BODY_LIMIT))
        .layer(axum::middleware::from_fn(error::json_errors))
        .layer(axum::middleware::from_fn(head_limit))
        .layer(axum::middleware::from_fn(log_request))
}

/// Answers 431 to a request whose head is longer than [`conn::MAX_HEAD_BYTES`]
/// ([`conn::head_len`]), however it arrived.
async fn head_limit(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    if conn::head_len(&request) > conn::MAX_HEAD_BYTES {
        return error::ApiError {
            status: axum::http::StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            message: conn::head_too_large(),
        }
        .into_response();
    }
    next.run(request).await
}

/// Writes one line per request to standard error: method, path and query, status,
/// time taken.
async fn log_request(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let start = Instant::now();
    let method = request.method().clone();
    let uri = request.uri().clone();
    let response = next.run(request).await;
    let line = format!(
        "{method} {uri} {} {}us\n",
        response.status().as_u16(),
        start.elapsed().as_micros()
    );
    // One write per line, so that lines of concurrent requests do not interleave;
    // a closed standard error must not stop the server.
    let _ = std::io::stderr().write_all(line.as_bytes());
    response
}

/// Serves [`app`] for `dir` on `bind` until interrupted (Ctrl-C or SIGTERM),
/// calling `listening` with the address actually bound (port 0 picks a free one)
/// once connections are accepted.
pub fn run(
    tables: Tablebases,
    bind: SocketAddr,
    listening: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(bind).await?;
        listening(listener.local_addr()?);
        conn::serve(listener, app_with(tables), shutdown_signal()).await
    })
}

/// Resolves on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}
