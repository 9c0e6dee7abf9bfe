//! The web server: a page to set up a board, solve it and watch the
//! solution, over a small JSON API. A thin layer over the library: boards
//! are read by [`npuzzle_io::input::problem_from_text`] and answers are
//! [`npuzzle_io::report::Report`] / [`npuzzle::Comparison`], exactly
//! what the command line prints as JSON.
//!
//! Safe to leave running, whatever clients send ([`Config`] holds every
//! limit):
//! * requests: bodies are capped and must arrive within a time limit,
//!   headers too; boards are capped in cells;
//! * time: each request has one budget, counted from when its headers were
//!   read, that its body, its wait for a heavy slot, its database builds and
//!   its search all spend; a client that goes away cancels its search or
//!   build;
//! * work: at most [`Config::heavy_slots`] heavy searches run at once (on
//!   the blocking pool), the rest wait briefly and then get 503;
//! * memory and disk: pattern databases only for allow-listed boards, kept
//!   in a memory cache of bounded bytes, saved under a disk cap;
//! * connections: at most a bounded number, below the descriptor limit;
//!   shutdown cancels running searches and closes slow connections after a
//!   grace period.

mod api;
mod assets;
mod config;
mod conn;
mod error;
mod limits;
mod moves;
mod pdb;
mod trace;

pub use config::{Config, ConfigError, PdbAllow};
pub use error::ApiError;
pub use limits::Limiter;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use npuzzle::pdb::PdbCache;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

/// The address to listen on when none is given: this machine only, port
/// 8080.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";

/// What every handler shares.
#[derive(Debug)]
pub(crate) struct AppState {
    pub(crate) config: Config,
    pub(crate) limiter: Limiter,
    /// The server's own pattern databases in memory (never the
    /// process-wide cache, which has no bound).
    pub(crate) pdb_cache: Arc<PdbCache>,
    pub(crate) connections: conn::Connections,
}

/// The application: page, assets and API, with its limits. Keep the
/// returned [`Limiter`] to cancel every running search (on shutdown).
pub fn app(config: Config) -> (Router, Limiter) {
    let (router, state) = build(config);
    (router, state.limiter.clone())
}

fn build(config: Config) -> (Router, Arc<AppState>) {
    let limiter = Limiter::new(config.heavy_slots, config.queue_wait);
    let state = Arc::new(AppState {
        pdb_cache: Arc::new(PdbCache::new(config.pdb_memory)),
        connections: conn::Connections::new(conn::connection_cap(config.max_connections)),
        config,
        limiter,
    });
    let router = Router::new()
        .route("/", get(assets::index))
        .route("/index.html", get(assets::index))
        .route("/app.css", get(assets::css))
        .route("/app.js", get(assets::js))
        .route("/i18n.js", get(assets::js))
        .route("/boards.js", get(assets::js))
        .route("/compare.js", get(assets::js))
        .route("/trace-views.js", get(assets::js))
        .route("/trace-pane.js", get(assets::js))
        .route("/explore.js", get(assets::js))
        .route("/play.js", get(assets::js))
        .route("/favicon.ico", get(assets::favicon))
        .route("/api/health", get(api::health))
        .route("/api/solve", post(api::solve).fallback(api::use_post))
        .route("/api/compare", post(api::compare).fallback(api::use_post))
        .route("/api/trace", post(trace::trace).fallback(api::use_post))
        .route("/api/parse", post(api::parse).fallback(api::use_post))
        .route("/api/analyse", post(moves::analyse).fallback(api::use_post))
        .route("/api/verify", post(moves::verify).fallback(api::use_post))
        .route("/api/apply", post(moves::apply).fallback(api::use_post))
        .route("/api/rewrite", post(moves::rewrite).fallback(api::use_post))
        .fallback(api::not_found)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            request_budget,
        ))
        .with_state(state.clone());
    (router, state)
}

/// Time allowed past a request's budget for its answer to be made, before
/// the request is cut short.
const ANSWER_GRACE: Duration = Duration::from_secs(2);

/// Starts each request's budget when its headers have been read, and cuts
/// short a request still running past that budget (a backstop: searches
/// and builds stop at the budget themselves).
async fn request_budget(
    State(app): State<Arc<AppState>>,
    mut req: Request,
    next: Next,
) -> Response {
    let budget = app.config.budget.clone().with_cancel(None).started_now();
    req.extensions_mut().insert(api::RequestBudget(budget));
    let Some(limit) = app.config.budget.timeout.map(|t| t + ANSWER_GRACE) else {
        return next.run(req).await;
    };
    match tokio::time::timeout(limit, next.run(req)).await {
        Ok(res) => res,
        // Dropping the request raised its search's cancel flag.
        Err(_) => ApiError::too_long(limit).into_response(),
    }
}

/// The router alone, without its [`Limiter`] (for tests).
pub fn router(config: Config) -> Router {
    app(config).0
}

/// Serves on `listener` until `shutdown` completes; then stops accepting,
/// cancels every running search, waits at most [`Config::shutdown_grace`]
/// for open requests to end and closes the connections still open.
///
/// A configuration that [`Config::validate`] refuses is an error of kind
/// `InvalidInput`, before anything is served.
pub async fn serve<F>(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: F,
) -> std::io::Result<()>
where
    F: Future<Output = ()> + Send + 'static,
{
    config
        .validate()
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
    let timeouts = conn::Timeouts {
        header: config.header_timeout,
        write: config.write_timeout,
        shutdown_grace: config.shutdown_grace,
    };
    let (router, state) = build(config);
    conn::serve(
        listener,
        router,
        state.connections.clone(),
        state.limiter.clone(),
        timeouts,
        shutdown,
    )
    .await
}
