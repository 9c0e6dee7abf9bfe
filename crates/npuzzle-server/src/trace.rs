//! `POST /api/trace`: a search watched, for the page's Explore view. The
//! answer is [`npuzzle::Trace`]'s summary with its events, at most
//! [`Config::max_trace_events`] of them.

use super::api::{heavy, ApiJson, Job, ProblemRequest, RequestBudget};
use super::{ApiError, AppState, Config};
use axum::extract::{Extension, State};
use axum::Json;
use npuzzle::Algorithm;
use serde::Deserialize;
use serde_json::{Map, Value};
use std::sync::Arc;

/// What `/api/trace` takes: `/api/solve`'s body and how many events to
/// record (at most the server's cap, which is also the default).
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct TraceRequest {
    pub start: Option<Value>,
    pub goal: Option<Value>,
    pub size: Option<Value>,
    pub algo: Option<String>,
    pub heuristic: Option<String>,
    pub timeout: Option<f64>,
    /// A whole number; larger than the server's cap, it is the cap.
    pub max_events: Option<Value>,
}

impl TraceRequest {
    /// The problem part, as `/api/solve` reads it.
    fn problem(&self) -> ProblemRequest {
        ProblemRequest {
            start: self.start.clone(),
            goal: self.goal.clone(),
            size: self.size.clone(),
            // Only some searches can be watched; `auto` would often pick
            // the complete table, which cannot.
            algo: match self.algo.as_deref() {
                None | Some("auto") => Some(Algorithm::Astar.name().to_string()),
                Some(a) => Some(a.to_string()),
            },
            heuristic: self.heuristic.clone(),
            timeout: self.timeout,
            metric: None,
        }
    }

    /// The events to record: as asked, within the server's cap.
    fn max_events(&self, config: &Config) -> Result<usize, ApiError> {
        let cap = config.max_trace_events;
        match &self.max_events {
            None | Some(Value::Null) => Ok(cap),
            Some(v) => v
                .as_u64()
                .map(|asked| usize::try_from(asked).map_or(cap, |a| a.min(cap)))
                .ok_or_else(|| {
                    ApiError::bad_request(format!(
                        "max_events: write a whole number of events (this server records at most {cap}), not {v}"
                    ))
                }),
        }
    }
}

/// `POST /api/trace`: the search `algo` (default `astar`) watched: its
/// summary ([`npuzzle::Trace`]) and its first `max_events` events.
pub async fn trace(
    State(app): State<Arc<AppState>>,
    Extension(RequestBudget(budget)): Extension<RequestBudget>,
    ApiJson(req): ApiJson<TraceRequest>,
) -> Result<Json<Value>, ApiError> {
    let max_events = req.max_events(&app.config)?;
    let mut job = Job::new(&app, budget, &req.problem(), false)?;
    let plan = job.plan(&app.config)?;
    let deadline = job.deadline();
    let Job { problem, mut opts } = job;
    let answer = app
        .limiter
        .run(heavy(&plan), deadline, move |flag| {
            opts.budget.cancel = Some(flag);
            npuzzle::trace(&problem, &opts, max_events).map(|t| answer(&t))
        })
        .await??;
    Ok(Json(answer))
}

/// The summary as JSON with the events beside it (`Trace` leaves them out
/// of its own serialization).
fn answer(t: &npuzzle::Trace) -> Value {
    let mut v = match serde_json::to_value(t) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    v.insert(
        "events".into(),
        serde_json::to_value(&t.events).unwrap_or_default(),
    );
    Value::Object(v)
}
