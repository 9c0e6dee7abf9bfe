//! The web server: a page to set up a board, solve it and watch the
//! solution, over a small JSON API. A thin layer over the library: boards
//! are read by [`crate::input::problem_from_text`] and answers are
//! [`crate::report::Report`] / [`crate::search::compare::Comparison`], exactly
//! what the command line prints as JSON.
//!
//! Safe to leave running: bodies are capped ([`Config::body_limit`]), boards
//! are capped ([`Config::max_cells`]), every search runs on the blocking pool
//! under a [`Budget`] whose cancel flag is raised when the client goes away,
//! and at most [`Config::heavy_slots`] heavy searches run at once.

mod api;
mod assets;
mod error;
mod limits;

pub use error::ApiError;
pub use limits::Limiter;

use crate::search::Budget;
use axum::routing::{get, post};
use axum::Router;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

/// The address to listen on when none is given: this machine only, port
/// 8080.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";

/// Limits of a running server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Largest request body, in bytes; larger ones get 413.
    pub body_limit: usize,
    /// Largest board (cells) the server will search; larger ones get 400.
    pub max_cells: usize,
    /// The budget of every search. A request may ask for a shorter
    /// `timeout`, never a longer one. `cancel` is ignored (each request
    /// gets its own flag).
    pub budget: Budget,
    /// Heavy searches (anything but a complete-table lookup) allowed at once.
    pub heavy_slots: usize,
    /// How long a heavy request waits for a slot before it gets 503.
    pub queue_wait: Duration,
    /// Pattern-database cache directory; `None` for the default
    /// (`$XDG_CACHE_HOME/npuzzle`).
    pub pdb_dir: Option<std::path::PathBuf>,
}

impl Config {
    /// 64 KiB: a 16×16 board written generously is a few KiB.
    pub const DEFAULT_BODY_LIMIT: usize = 64 * 1024;
    /// 5×5: beyond it even IDA* with the best heuristic can take hours.
    pub const DEFAULT_MAX_CELLS: usize = 25;
    /// Time budget of one search.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(20);
    /// About 10–20 seconds of IDA*.
    pub const DEFAULT_MAX_NODES: u64 = 400_000_000;
    /// A few hundred MiB for BFS / A*.
    pub const DEFAULT_MAX_STATES: u64 = 4_000_000;
    /// Most bytes one search may hold (less where the machine has less
    /// per heavy slot).
    pub const DEFAULT_MAX_BYTES: u64 = 1 << 30;
}

impl Default for Config {
    fn default() -> Config {
        let heavy_slots = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        Config {
            body_limit: Config::DEFAULT_BODY_LIMIT,
            max_cells: Config::DEFAULT_MAX_CELLS,
            budget: Budget::default()
                .with_max_states(Config::DEFAULT_MAX_STATES)
                .with_max_nodes(Config::DEFAULT_MAX_NODES)
                // every heavy slot may be busy at once
                .with_max_bytes(
                    (crate::system::default_memory_budget() / heavy_slots as u64)
                        .min(Config::DEFAULT_MAX_BYTES),
                )
                .with_timeout(Some(Config::DEFAULT_TIMEOUT)),
            heavy_slots,
            queue_wait: Duration::from_secs(2),
            pdb_dir: None,
        }
    }
}

/// What every handler shares.
#[derive(Debug)]
pub(crate) struct AppState {
    pub(crate) config: Config,
    pub(crate) limiter: Limiter,
}

/// The application: page, assets and API, with its limits. Keep the
/// returned [`Limiter`] to cancel every running search (on shutdown).
pub fn app(config: Config) -> (Router, Limiter) {
    let limiter = Limiter::new(config.heavy_slots, config.queue_wait);
    let state = Arc::new(AppState {
        config,
        limiter: limiter.clone(),
    });
    let router = Router::new()
        .route("/", get(assets::index))
        .route("/index.html", get(assets::index))
        .route("/app.css", get(assets::css))
        .route("/app.js", get(assets::js))
        .route("/favicon.ico", get(assets::favicon))
        .route("/api/health", get(api::health))
        .route("/api/solve", post(api::solve).fallback(api::use_post))
        .route("/api/compare", post(api::compare).fallback(api::use_post))
        .route("/api/parse", post(api::parse).fallback(api::use_post))
        .fallback(api::not_found)
        .with_state(state);
    (router, limiter)
}

/// The router alone, without its [`Limiter`] (for tests).
pub fn router(config: Config) -> Router {
    app(config).0
}

/// Serves on `listener` until `shutdown` completes, then cancels every
/// running search and waits for the open requests to end.
pub async fn serve<F>(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: F,
) -> std::io::Result<()>
where
    F: Future<Output = ()> + Send + 'static,
{
    let (router, limiter) = app(config);
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            shutdown.await;
            limiter.cancel_all();
        })
        .await
}
