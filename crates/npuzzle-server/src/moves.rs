//! The API on written moves, answering as the commands of the same names
//! do with `--json`:
//! - `POST /api/analyse`: the exact distance to the goal after each of a
//!   person's moves, the moves that did not bring it closer and the
//!   detours ([`npuzzle_io::analysis::Analysis`]); the page's Play tab
//!   asks it when a board is solved;
//! - `POST /api/verify`: whether the moves solve it, their lengths, how
//!   far from the fewest ([`npuzzle_io::verdict::Verdict`]);
//! - `POST /api/apply`: the board the moves reach;
//! - `POST /api/rewrite`: the moves simplified, inverted or transposed
//!   ([`Rewrite`]), written in a notation and metric.

use super::api::{heavy, ApiJson, Job, ProblemRequest, RequestBudget};
use super::{ApiError, AppState};
use axum::extract::{Extension, State};
use axum::Json;
use npuzzle::{parse_moves, Board, Dir, Metric, Notation, Rewrite};
use npuzzle_io::analysis::{self, Analysis, AnalysisError};
use npuzzle_io::verdict::{self, Verdict};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::Arc;

/// What `/api/analyse`, `/api/verify` and `/api/apply` take:
/// `/api/solve`'s board fields, the moves as text and how to read and
/// count them.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct MovesRequest {
    pub start: Option<Value>,
    pub goal: Option<Value>,
    pub size: Option<Value>,
    /// `"UULDR"`, `"D2 R U L"`: letters with optional counts.
    pub moves: Option<Value>,
    /// `blank` (the default: the way the blank travels) or `tile`.
    pub notation: Option<String>,
    /// `stm` (the default) or `mtm`: how the moves are counted.
    pub metric: Option<String>,
    /// Seconds for all the exact searches; at most the server's own.
    pub timeout: Option<f64>,
}

impl MovesRequest {
    /// The problem part, as `/api/solve` reads it.
    fn problem(&self) -> ProblemRequest {
        ProblemRequest {
            start: self.start.clone(),
            goal: self.goal.clone(),
            size: self.size.clone(),
            algo: None,
            heuristic: None,
            timeout: self.timeout,
            metric: self.metric.clone(),
        }
    }

    fn notation(&self) -> Result<Notation, ApiError> {
        notation(self.notation.as_deref(), "notation")
    }

    /// The blank's steps the moves come to.
    fn path(&self, notation: Notation) -> Result<Vec<Dir>, ApiError> {
        path(self.moves.as_ref(), notation)
    }
}

/// A notation field (`field` names it), `blank` when absent.
fn notation(text: Option<&str>, field: &str) -> Result<Notation, ApiError> {
    match text {
        None => Ok(Notation::Blank),
        Some(n) => n
            .parse::<Notation>()
            .map_err(|e| ApiError::bad_request(format!("{field}: {e}"))),
    }
}

/// The blank's steps the `moves` field comes to, read in `notation`.
fn path(moves: Option<&Value>, notation: Notation) -> Result<Vec<Dir>, ApiError> {
    let text = match moves {
        None | Some(Value::Null) => {
            return Err(ApiError::bad_request(
                "no moves: send {\"start\": \"2 8 3 1 6 4 7 0 5\", \"goal\": \"spiral\", \"moves\": \"UULDR\"}",
            ))
        }
        Some(Value::String(s)) => s,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "moves: write them as text (\"UULDR\", \"D2 R U L\"), not {other}"
            )))
        }
    };
    parse_moves(text, notation).map_err(|e| ApiError::bad_request(format!("moves: {e}")))
}

/// Runs `work` on the request's problem, moves and options, with the
/// slot and deadline the planner's choice for the start needs: every
/// position an analysis or a verdict searches has the start's shape, so
/// what runs on the start (a table, or a heavy search) runs on them all.
async fn exact<T: Send + 'static>(
    app: &AppState,
    budget: npuzzle::Budget,
    req: &MovesRequest,
    work: impl FnOnce(&npuzzle::Problem, &[Dir], Notation, &npuzzle::SolveOptions) -> Result<T, ApiError>
        + Send
        + 'static,
) -> Result<T, ApiError> {
    let notation = req.notation()?;
    let mut job = Job::new(app, budget, &req.problem(), false)?;
    let path = req.path(notation)?;
    let plan = job.plan(&app.config)?;
    let deadline = job.deadline();
    let Job { problem, mut opts } = job;
    app.limiter
        .run(heavy(&plan), deadline, move |flag| {
            opts.budget.cancel = Some(flag);
            work(&problem, &path, notation, &opts)
        })
        .await?
}

/// `POST /api/analyse`: the [`Analysis`] of the moves from the start.
pub async fn analyse(
    State(app): State<Arc<AppState>>,
    Extension(RequestBudget(budget)): Extension<RequestBudget>,
    ApiJson(req): ApiJson<MovesRequest>,
) -> Result<Json<Analysis>, ApiError> {
    let answer = exact(&app, budget, &req, |problem, path, notation, opts| {
        analysis::analyse(problem, path, notation, opts).map_err(api_error)
    })
    .await?;
    Ok(Json(answer))
}

/// An analysis that could not be made, as the API answers it: a spent
/// budget as `/api/solve`'s, the rest the request's fault.
fn api_error(e: AnalysisError) -> ApiError {
    match e {
        AnalysisError::Search(e) => e.into(),
        AnalysisError::Input(e) => e.into(),
        AnalysisError::Move(e) => ApiError::bad_request(format!("moves: {e}")),
        other => ApiError::bad_request(other.to_string()),
    }
}

/// `POST /api/verify`: the [`Verdict`] on the moves (`optimal` from an
/// exact search within the request's budget, for a solution).
pub async fn verify(
    State(app): State<Arc<AppState>>,
    Extension(RequestBudget(budget)): Extension<RequestBudget>,
    ApiJson(req): ApiJson<MovesRequest>,
) -> Result<Json<Verdict>, ApiError> {
    let answer = exact(&app, budget, &req, |problem, path, notation, opts| {
        verdict::verify(problem, path, notation, opts)
            .map_err(|e| ApiError::bad_request(format!("moves: {e}")))
    })
    .await?;
    Ok(Json(answer))
}

/// What `/api/apply` answers: the board reached, and the moves' lengths.
#[derive(Serialize, Debug)]
pub struct Applied {
    /// The board reached, as rows.
    pub board: String,
    /// Its tiles, row by row (0 the blank).
    pub tiles: Vec<u8>,
    /// The metric asked for, and the length in it.
    pub metric: Metric,
    pub moves: usize,
    pub stm: usize,
    pub mtm: usize,
}

/// `POST /api/apply`: the board the moves reach from the start (no
/// search; `goal` is not used).
pub async fn apply(
    State(app): State<Arc<AppState>>,
    Extension(RequestBudget(budget)): Extension<RequestBudget>,
    ApiJson(req): ApiJson<MovesRequest>,
) -> Result<Json<Applied>, ApiError> {
    let notation = req.notation()?;
    let job = Job::new(&app, budget, &req.problem(), true)?;
    let path = req.path(notation)?;
    let metric = job.opts.metric;
    let end: Board = job
        .problem
        .start()
        .apply_moves(&path, notation, metric)
        .map_err(|e| ApiError::bad_request(format!("moves: {e}")))?;
    Ok(Json(Applied {
        board: end.to_row_string(),
        tiles: end.tiles().to_vec(),
        metric,
        moves: metric.length(&path),
        stm: Metric::Stm.length(&path),
        mtm: Metric::Mtm.length(&path),
    }))
}

/// What `/api/rewrite` takes: moves, the rewrite, how to read and write
/// them.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct RewriteRequest {
    pub moves: Option<Value>,
    /// `simplify`, `invert` or `transpose`.
    pub rewrite: Option<String>,
    /// How the moves are read: `blank` (the default) or `tile`.
    pub notation: Option<String>,
    /// How they are written (default: as read).
    pub to: Option<String>,
    /// `stm` (the default: a letter a step) or `mtm` (a letter and a
    /// count a push).
    pub metric: Option<String>,
    /// Whether the moves written are separated by spaces.
    pub spaced: Option<bool>,
}

/// What `/api/rewrite` answers.
#[derive(Serialize, Debug)]
pub struct Rewritten {
    pub moves: String,
    pub stm: usize,
    pub mtm: usize,
}

/// `POST /api/rewrite`: the moves rewritten (no board needed).
pub async fn rewrite(ApiJson(req): ApiJson<RewriteRequest>) -> Result<Json<Rewritten>, ApiError> {
    let rewrite = match &req.rewrite {
        None => {
            return Err(ApiError::bad_request(
                "no rewrite: send {\"moves\": \"UULDR\", \"rewrite\": \"invert\"} (simplify, invert or transpose)",
            ))
        }
        Some(r) => r
            .parse::<Rewrite>()
            .map_err(|e| ApiError::bad_request(format!("rewrite: {e}")))?,
    };
    let read = notation(req.notation.as_deref(), "notation")?;
    let write = match &req.to {
        None => read,
        Some(_) => notation(req.to.as_deref(), "to")?,
    };
    let metric = match &req.metric {
        None => Metric::Stm,
        Some(m) => m
            .parse::<Metric>()
            .map_err(|e| ApiError::bad_request(format!("metric: {e}")))?,
    };
    let out = rewrite.apply(&path(req.moves.as_ref(), read)?);
    Ok(Json(Rewritten {
        moves: npuzzle::format_moves(&out, write, metric, req.spaced.unwrap_or(false)),
        stm: Metric::Stm.length(&out),
        mtm: Metric::Mtm.length(&out),
    }))
}
