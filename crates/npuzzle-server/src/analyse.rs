//! `POST /api/analyse`: the exact distance to the goal after each of a
//! person's moves, the moves that did not bring it closer and the detours
//! ([`npuzzle_io::analysis::Analysis`], the JSON `npuzzle analyse --json`
//! prints). The page's Play tab asks it when a board is solved.

use super::api::{heavy, ApiJson, Job, ProblemRequest, RequestBudget};
use super::{ApiError, AppState};
use axum::extract::{Extension, State};
use axum::Json;
use npuzzle::{parse_moves, Notation};
use npuzzle_io::analysis::{self, Analysis, AnalysisError};
use serde::Deserialize;
use serde_json::Value;
use std::sync::Arc;

/// What `/api/analyse` takes: `/api/solve`'s board fields, the moves as
/// text and how to read and count them.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct AnalyseRequest {
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

impl AnalyseRequest {
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
        match &self.notation {
            None => Ok(Notation::Blank),
            Some(n) => n
                .parse::<Notation>()
                .map_err(|e| ApiError::bad_request(format!("notation: {e}"))),
        }
    }

    /// The blank's steps the moves come to.
    fn path(&self, notation: Notation) -> Result<Vec<npuzzle::Dir>, ApiError> {
        let text = match &self.moves {
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
}

/// `POST /api/analyse`: the [`Analysis`] of the moves from the start.
pub async fn analyse(
    State(app): State<Arc<AppState>>,
    Extension(RequestBudget(budget)): Extension<RequestBudget>,
    ApiJson(req): ApiJson<AnalyseRequest>,
) -> Result<Json<Analysis>, ApiError> {
    let notation = req.notation()?;
    let mut job = Job::new(&app, budget, &req.problem(), false)?;
    let path = req.path(notation)?;
    // Every position analysed has the start's shape: what the planner
    // runs on the start (a table, or a heavy search) it runs on them all.
    let plan = job.plan(&app.config)?;
    let deadline = job.deadline();
    let Job { problem, mut opts } = job;
    let answer = app
        .limiter
        .run(heavy(&plan), deadline, move |flag| {
            opts.budget.cancel = Some(flag);
            analysis::analyse(&problem, &path, notation, &opts)
        })
        .await?
        .map_err(api_error)?;
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
