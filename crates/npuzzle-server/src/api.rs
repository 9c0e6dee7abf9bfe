//! The JSON API: `/api/solve`, `/api/compare`, `/api/parse`, `/api/health`
//! (and `/api/trace`, in `trace.rs`; the API on written moves, in
//! `moves.rs`).

use super::{pdb, ApiError, AppState, Config};
use axum::extract::{Extension, FromRequest, Request, State};
use axum::http::{header, StatusCode, Uri};
use axum::Json;
use npuzzle::Comparison;
use npuzzle::HeuristicKind;
use npuzzle::TableSet;
use npuzzle::{Algorithm, Budget, Plan, Problem, SolveOptions, Workload};
use npuzzle::{GoalSpec, InputError, Shape};
use npuzzle_io::input::problem_from_text;
use npuzzle_io::report::Report;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::Arc;
use std::time::Instant;

type App = State<Arc<AppState>>;

/// What `/api/solve`, `/api/compare` and `/api/parse` take. Boards are text
/// in any format the command line accepts (or an array of numbers, or an
/// array of rows); `goal` may also name a layout (`blank-last`,
/// `blank-first`, `spiral`).
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct ProblemRequest {
    pub start: Option<Value>,
    pub goal: Option<Value>,
    /// `RxC` (or `4` for 4x4), when the tile count does not tell.
    pub size: Option<Value>,
    pub algo: Option<String>,
    pub heuristic: Option<String>,
    /// Seconds; at most the server's own timeout.
    pub timeout: Option<f64>,
    /// `stm` (the default) or `mtm`: how moves are counted.
    pub metric: Option<String>,
}

/// A request's budget, started when its headers were read (by the
/// server's middleware), so that every later phase spends the one
/// deadline.
#[derive(Clone, Debug)]
pub(crate) struct RequestBudget(pub(crate) Budget);

/// A validated request, ready to search.
pub(crate) struct Job {
    pub(crate) problem: Problem,
    pub(crate) opts: SolveOptions,
}

impl Job {
    /// `fast_ok`: whether the fast solver may answer boards beyond
    /// `max_cells` (not for a comparison of every search).
    pub(crate) fn new(
        app: &AppState,
        budget: Budget,
        req: &ProblemRequest,
        fast_ok: bool,
    ) -> Result<Job, ApiError> {
        let config = &app.config;
        let mut algo = match &req.algo {
            Some(a) => a
                .parse::<Algorithm>()
                .map_err(|e| ApiError::bad_request(format!("algo: {e}")))?,
            None => Algorithm::Auto,
        };
        let fast_ok = fast_ok && matches!(algo, Algorithm::Auto | Algorithm::Fast);
        let problem = read_problem(config, req, fast_ok)?;
        if problem.start().len() > config.max_cells {
            // only the fast solver answers at once on boards this big
            algo = Algorithm::Fast;
        }
        let heuristic = match &req.heuristic {
            Some(h) => h
                .parse::<HeuristicKind>()
                .map_err(|e| ApiError::bad_request(format!("heuristic: {e}")))?,
            None => HeuristicKind::Auto,
        };
        let metric = match &req.metric {
            Some(m) => m
                .parse::<npuzzle::Metric>()
                .map_err(|e| ApiError::bad_request(format!("metric: {e}")))?,
            None => npuzzle::Metric::Stm,
        };
        let mut budget = budget.with_cancel(None);
        if let Some(t) = req.timeout {
            let asked =
                Budget::seconds(t).map_err(|e| ApiError::bad_request(format!("timeout {e}")))?;
            budget.timeout = Some(budget.timeout.map_or(asked, |max| max.min(asked)));
        }
        let pdb = pdb::options(config, &app.pdb_cache, problem.start().shape());
        Ok(Job {
            problem,
            opts: SolveOptions::default()
                .with_algorithm(algo)
                .with_heuristic(heuristic)
                .with_metric(metric)
                .with_pdb(pdb)
                .with_path(true)
                .with_budget(budget)
                // One thread per search: the heavy slots already use every core.
                .with_threads(1)
                // A server answers many queries: the tables pay for themselves.
                .with_workload(Workload::Many),
        })
    }

    /// Whether pattern databases may be loaded or built for this board.
    fn pdb_allowed(&self, config: &Config) -> bool {
        config.pdb_partition(self.problem.shape()).is_some()
    }

    /// What the planner will run (a combination that cannot run is the
    /// request's error). Pattern databases off the allow-list are replaced
    /// by linear conflict when the heuristic was left to the planner (the
    /// plan's reason then says so), and refused when asked for by name.
    pub(crate) fn plan(&mut self, config: &Config) -> Result<Plan, ApiError> {
        let plan = npuzzle::plan(&self.problem, &self.opts)?;
        if plan.heuristic != Some(HeuristicKind::Pdb) || self.pdb_allowed(config) {
            return Ok(plan);
        }
        let why = pdb::not_allowed(self.problem.shape());
        if self.opts.heuristic == HeuristicKind::Pdb {
            return Err(ApiError::bad_request(format!(
                "heuristic pdb: {why}; use linear-conflict, or auto to let the server choose"
            )));
        }
        self.opts.heuristic = HeuristicKind::LinearConflict;
        let mut plan = npuzzle::plan(&self.problem, &self.opts)?;
        plan.reason = format!("{}; linear conflict, since {why}", plan.reason);
        Ok(plan)
    }

    /// The request's deadline (no waiting for a heavy slot past it).
    pub(crate) fn deadline(&self) -> Option<Instant> {
        self.opts.budget.deadline_from_start()
    }
}

/// Anything but a complete-table lookup (or no search at all) takes a
/// heavy slot.
pub(crate) fn heavy(plan: &Plan) -> bool {
    plan.solvable && !plan.is_table()
}

/// Reads start, goal and size as the command line reads them (through
/// [`problem_from_text`]), and refuses boards larger than the server
/// searches.
fn read_problem(config: &Config, req: &ProblemRequest, fast_ok: bool) -> Result<Problem, ApiError> {
    let start = match &req.start {
        None | Some(Value::Null) => {
            return Err(ApiError::bad_request(
                "no start board: send {\"start\": \"2 8 3 1 6 4 7 0 5\", \"goal\": \"spiral\"}",
            ))
        }
        Some(v) => board_text(v, "start")?,
    };
    let goal = match &req.goal {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            board_text(v, "goal")?
                .parse::<GoalSpec>()
                .map_err(InputError::goal)?,
        ),
    };
    let size = match &req.size {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.parse::<Shape>()),
        Some(Value::Number(n)) => Some(n.to_string().parse::<Shape>()),
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "size: write it as \"RxC\", e.g. \"3x3\" or \"2x4\", not {other}"
            )))
        }
    }
    .transpose()
    .map_err(|e| ApiError::bad_request(format!("size: {e}")))?;
    let problem = problem_from_text(&start, goal.as_ref(), size)?;
    let cells = problem.start().len();
    let fast_limit = config.max_fast_cells.max(config.max_cells);
    if cells > config.max_cells && !(fast_ok && cells <= fast_limit) {
        return Err(ApiError::bad_request(format!(
            "a {}x{} board ({cells} cells) is larger than this server searches (at most {} cells, e.g. 5x5; the fast solver, algo auto or fast, answers up to {fast_limit} cells); use `npuzzle solve` on the command line",
            problem.rows(),
            problem.cols(),
            config.max_cells
        )));
    }
    Ok(problem)
}

/// A board as the text the parser reads: a string as it is, `[2, 8, 3, …]`
/// as numbers separated by spaces, `[[2, 8, 3], …]` as rows separated by `/`.
fn board_text(v: &Value, role: &str) -> Result<String, ApiError> {
    fn item(v: &Value, role: &str) -> Result<String, ApiError> {
        match v {
            Value::Number(n) => Ok(n.to_string()),
            Value::String(s) => Ok(s.clone()),
            Value::Null => Ok("_".to_string()),
            other => Err(ApiError::bad_request(format!(
                "{role} board: {other} is not a tile; tiles are numbers, the blank is 0, _ or ."
            ))),
        }
    }
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Array(items) if !items.is_empty() && items.iter().all(Value::is_array) => {
            let rows: Vec<String> = items
                .iter()
                .map(|row| match row {
                    Value::Array(cells) => cells
                        .iter()
                        .map(|c| item(c, role))
                        .collect::<Result<Vec<_>, _>>()
                        .map(|v| v.join(" ")),
                    _ => unreachable!("checked: every item is an array"),
                })
                .collect::<Result<_, _>>()?;
            Ok(rows.join(" / "))
        }
        Value::Array(items) => Ok(items
            .iter()
            .map(|c| item(c, role))
            .collect::<Result<Vec<_>, _>>()?
            .join(" ")),
        other => Err(ApiError::bad_request(format!(
            "{role} board: write it as text (\"2 8 3 1 6 4 7 0 5\") or an array of numbers, not {other}"
        ))),
    }
}

/// JSON from a body of at most [`Config::body_limit`] bytes; anything else
/// is an [`ApiError`] (413 too large, 400 not JSON or not a problem).
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned> FromRequest<Arc<AppState>> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &Arc<AppState>) -> Result<Self, ApiError> {
        let limit = state.config.body_limit;
        let too_large = || {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the request body is larger than {limit} bytes"),
            )
        };
        let declared = req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|n| n > limit as u64) {
            return Err(too_large());
        }
        // A client dribbling its body must not hold the request open.
        let wait = state.config.body_timeout;
        let bytes = tokio::time::timeout(wait, axum::body::to_bytes(req.into_body(), limit))
            .await
            .map_err(|_| ApiError::body_timeout(wait))?
            .map_err(|_| too_large())?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Err(ApiError::bad_request(
                "the request body is empty: send {\"start\": \"2 8 3 1 6 4 7 0 5\", \"goal\": \"spiral\"}",
            ));
        }
        serde_json::from_slice(&bytes)
            .map(ApiJson)
            .map_err(|e| ApiError::bad_request(format!("the request body is not a problem: {e}")))
    }
}

/// What `/api/solve` answers: the [`Report`] the command line prints as
/// JSON (with every board along the path), and for boards with complete
/// tables where each of those boards stands among all of its puzzle's.
#[derive(Serialize, Debug)]
pub struct Solved {
    #[serde(flatten)]
    pub report: Report,
    /// `null` on boards beyond the complete tables, or when unreachable.
    pub distribution: Option<Distribution>,
}

/// The distance distribution of a small puzzle (from the problem's goal)
/// and where each board along the answer falls in it.
#[derive(Serialize, Debug)]
pub struct Distribution {
    /// Positions from which the goal can be reached.
    pub positions: u64,
    /// Positions at each distance `0..`.
    pub histogram: Vec<u64>,
    /// The fewest moves from each board along the path (from the start
    /// alone when there is no path) to the goal.
    pub distances: Vec<u32>,
}

impl Distribution {
    /// From the complete tables, which exist for boards of at most
    /// [`MAX_CELLS`](npuzzle::TableSet::MAX_CELLS) cells and take
    /// milliseconds to build.
    fn of(report: &Report) -> Option<Distribution> {
        let shape = Shape::new(report.rows, report.cols);
        if !report.solvable || !TableSet::covers(shape) {
            return None;
        }
        let tables = TableSet::global();
        let blank = report.goal.iter().position(|&t| t == 0)?;
        let histogram = tables.table(shape, blank)?.histogram().to_vec();
        let boards = report
            .boards
            .as_deref()
            .unwrap_or(std::slice::from_ref(&report.start));
        let distances = boards
            .iter()
            .map(|b| tables.distance(shape, b, &report.goal))
            .collect::<Option<Vec<u32>>>()?;
        Some(Distribution {
            positions: histogram.iter().sum(),
            histogram,
            distances,
        })
    }
}

/// `POST /api/solve`: the fewest moves, the path and every board along it
/// (a [`Report`] with its boards, as the command line prints it in JSON),
/// and on small boards where they stand ([`Solved`]).
pub async fn solve(
    State(app): App,
    Extension(RequestBudget(budget)): Extension<RequestBudget>,
    ApiJson(req): ApiJson<ProblemRequest>,
) -> Result<Json<Solved>, ApiError> {
    let mut job = Job::new(&app, budget, &req, true)?;
    let plan = job.plan(&app.config)?;
    let deadline = job.deadline();
    let Job { problem, mut opts } = job;
    let report = app
        .limiter
        .run(heavy(&plan), deadline, move |flag| {
            opts.budget.cancel = Some(flag);
            npuzzle::solve(&problem, &opts).map(|mut sol| {
                // The planner was asked again with the fallback; report
                // why, as planned.
                sol.plan = Some(plan);
                let report = Report::new(&problem, &sol, false, true);
                let distribution = Distribution::of(&report);
                Solved {
                    report,
                    distribution,
                }
            })
        })
        .await??;
    Ok(Json(report))
}

/// `POST /api/compare`: every algorithm on the board ([`Comparison`]);
/// pattern databases only where the allow-list has the board.
pub async fn compare(
    State(app): App,
    Extension(RequestBudget(budget)): Extension<RequestBudget>,
    ApiJson(req): ApiJson<ProblemRequest>,
) -> Result<Json<Comparison>, ApiError> {
    let job = Job::new(&app, budget, &req, false)?;
    let refused = (!job.pdb_allowed(&app.config)).then(|| pdb::not_allowed(job.problem.shape()));
    let deadline = job.deadline();
    let Job { problem, mut opts } = job;
    opts.want_path = false;
    let cmp = app
        .limiter
        .run(true, deadline, move |flag| {
            opts.budget.cancel = Some(flag);
            npuzzle::compare_refusing(&problem, &opts, &|_, h| {
                if h == Some(HeuristicKind::Pdb) {
                    refused.clone()
                } else {
                    None
                }
            })
        })
        .await?;
    Ok(Json(cmp))
}

/// What `/api/parse` answers: the boards as read, without searching.
#[derive(Serialize, Debug)]
pub struct Parsed {
    pub rows: usize,
    pub cols: usize,
    pub start: Vec<u8>,
    pub goal: Vec<u8>,
    /// Decided from parity.
    pub solvable: bool,
}

/// `POST /api/parse`: reads the boards (the page shows what it understood).
pub async fn parse(
    State(app): App,
    Extension(RequestBudget(budget)): Extension<RequestBudget>,
    ApiJson(req): ApiJson<ProblemRequest>,
) -> Result<Json<Parsed>, ApiError> {
    // Checks the whole request, as solve would, without searching.
    let p = Job::new(&app, budget, &req, true)?.problem;
    Ok(Json(Parsed {
        rows: p.rows(),
        cols: p.cols(),
        start: p.start().tiles().to_vec(),
        goal: p.goal().tiles().to_vec(),
        solvable: p.solvable(),
    }))
}

/// `GET /api/health`.
pub async fn health(State(app): App) -> Json<Value> {
    let c = &app.config;
    Json(serde_json::json!({
        "status": "ok",
        "version": env!("CARGO_PKG_VERSION"),
        "limits": {
            "body_bytes": c.body_limit,
            "max_cells": c.max_cells,
            "max_fast_cells": c.max_fast_cells.max(c.max_cells),
            "timeout_seconds": c.budget.timeout.map(|t| t.as_secs_f64()),
            "max_nodes": c.budget.max_nodes,
            "max_states": c.budget.max_states,
            "max_trace_events": c.max_trace_events,
            "queue_wait_seconds": c.queue_wait.as_secs_f64(),
            "header_timeout_seconds": c.header_timeout.as_secs_f64(),
            "body_timeout_seconds": c.body_timeout.as_secs_f64(),
            "write_timeout_seconds": c.write_timeout.as_secs_f64(),
        },
        "searches": app.limiter.stats(),
        "connections": {
            "open": app.connections.open(),
            "cap": app.connections.cap(),
        },
        "pdb": pdb::health(c, &app.pdb_cache),
    }))
}

/// Any other path.
pub async fn not_found(uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!(
            "no such page: {}; the API is POST /api/solve, /api/compare, /api/trace, /api/analyse, /api/verify, /api/apply, /api/rewrite, /api/parse and GET /api/health",
            uri.path()
        ),
    )
}

/// A known path with the wrong method.
pub async fn use_post(uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{} takes POST with a JSON body", uri.path()),
    )
}
