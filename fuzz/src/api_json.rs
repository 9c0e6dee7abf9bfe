//! `api_json`: any bytes as the JSON body of a request to the web API
//! (`npuzzle_server::router` through `tower::ServiceExt::oneshot`, on a
//! current-thread runtime built once per process), with small budgets.
//!
//! The input is a selector byte and the body: the selector's low two bits
//! pick the endpoint (`/api/solve`, `/api/compare`, `/api/parse`,
//! `/api/solve`), bit 2 leaves out the `Content-Type` header. Checked:
//!
//! * nothing panics (libFuzzer's panic hook aborts even on a panic the
//!   server would catch);
//! * no 5xx but 503 (busy, cancelled);
//! * every body is a JSON object: an error (`{"error": "…"}`, free of raw
//!   control characters) unless the status is 200, else the answer: a
//!   solve's path leads from its start to its goal in the moves announced
//!   (-1 exactly when parity says the goal cannot be reached), a parse's
//!   boards are boards with parity's verdict, and a comparison's
//!   algorithms agree.

use super::common::{assert_printable, split};
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use npuzzle::board::parse_path;
use npuzzle::{Board, Budget};
use npuzzle_server::{self as server, Config};
use serde_json::Value;
use std::time::Duration;
use tower::ServiceExt;

/// The router, its runtime and its pattern-database directory.
pub struct ApiFuzz {
    runtime: tokio::runtime::Runtime,
    router: Router,
    _dir: tempfile::TempDir,
}

impl Default for ApiFuzz {
    fn default() -> ApiFuzz {
        let dir = super::common::tempdir("npuzzle-fuzz-api-");
        let config = Config {
            pdb_dir: Some(dir.path().to_path_buf()),
            body_limit: 2048,
            heavy_slots: 1,
            queue_wait: Duration::from_secs(5),
            budget: Budget::default()
                .with_max_nodes(5_000)
                .with_max_states(5_000)
                .with_max_bytes(16 << 20)
                .with_timeout(Some(Duration::from_millis(20))),
            ..Config::default()
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("a runtime");
        ApiFuzz {
            runtime,
            router: server::router(config),
            _dir: dir,
        }
    }
}

/// Runs every check on the fuzzer's bytes, with one server for the whole
/// process.
pub fn check(data: &[u8]) {
    thread_local! {
        static FUZZ: ApiFuzz = ApiFuzz::default();
    }
    FUZZ.with(|f| f.check(data));
}

impl ApiFuzz {
    /// Runs every check on the fuzzer's bytes.
    pub fn check(&self, data: &[u8]) {
        let (selector, body) = split(data);
        let endpoint =
            ["/api/solve", "/api/compare", "/api/parse", "/api/solve"][usize::from(selector & 3)];
        let mut req = Request::builder().method("POST").uri(endpoint);
        if selector & 4 == 0 {
            req = req.header(header::CONTENT_TYPE, "application/json");
        }
        let req = req.body(Body::from(body.to_vec())).expect("a request");
        let (status, bytes) = self.runtime.block_on(async {
            let res = self.router.clone().oneshot(req).await.expect("infallible");
            let status = res.status();
            let bytes = axum::body::to_bytes(res.into_body(), 16 << 20)
                .await
                .expect("the response body");
            (status, bytes)
        });
        let show = String::from_utf8_lossy(body);
        let v: Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
            panic!("{status} with a body that is not JSON ({e}): {bytes:?} for {show:?}")
        });
        assert!(v.is_object(), "{status}: {v} for {show:?}");
        assert!(
            !status.is_server_error() || status == StatusCode::SERVICE_UNAVAILABLE,
            "{status}: {v} for {endpoint} {show:?}"
        );
        if status != StatusCode::OK {
            let msg = v["error"]
                .as_str()
                .unwrap_or_else(|| panic!("{status} without an error: {v} for {show:?}"));
            assert_printable("API error", msg, &show);
            return;
        }
        assert!(v.get("error").is_none(), "200 with an error: {v}");
        match endpoint {
            "/api/solve" => check_report(&v, &show),
            "/api/parse" => check_parsed(&v, &show),
            _ => assert_eq!(v["agree"], Value::Bool(true), "{v} for {show:?}"),
        }
    }
}

/// The start and goal of an answer, as boards.
fn boards(v: &Value, input: &str) -> (Board, Board) {
    let dim = |k: &str| v[k].as_u64().unwrap_or_else(|| panic!("no {k}: {v}")) as usize;
    let (rows, cols) = (dim("rows"), dim("cols"));
    let tiles = |k: &str| -> Board {
        let t: Vec<u8> = serde_json::from_value(v[k].clone())
            .unwrap_or_else(|e| panic!("{k} is not tiles ({e}): {v}"));
        Board::from_tiles(rows, cols, &t)
            .unwrap_or_else(|e| panic!("{k} is not a board ({e}): {v} for {input:?}"))
    };
    (tiles("start"), tiles("goal"))
}

/// A solve's answer: the moves, the path and the boards along it fit.
fn check_report(v: &Value, input: &str) {
    let (start, goal) = boards(v, input);
    let reachable = start.can_reach(&goal);
    let moves = v["moves"]
        .as_i64()
        .unwrap_or_else(|| panic!("no moves: {v}"));
    assert_eq!(v["solvable"], Value::Bool(reachable), "{v} for {input:?}");
    if !reachable {
        assert_eq!(moves, -1, "{v}");
        assert!(v["path"].is_null(), "{v}");
        return;
    }
    let path = v["path"].as_str().unwrap_or_else(|| panic!("no path: {v}"));
    let dirs = parse_path(path).unwrap_or_else(|e| panic!("{e}: {v}"));
    assert_eq!(dirs.len() as i64, moves, "{v} for {input:?}");
    let along = start
        .trajectory(&dirs)
        .unwrap_or_else(|e| panic!("{e}: {v} for {input:?}"));
    assert_eq!(along.last(), Some(&goal), "{v} for {input:?}");
    let shown: Vec<Vec<u8>> =
        serde_json::from_value(v["boards"].clone()).unwrap_or_else(|e| panic!("boards ({e}): {v}"));
    let want: Vec<Vec<u8>> = along.iter().map(|b| b.tiles().to_vec()).collect();
    assert_eq!(shown, want, "{v} for {input:?}");
}

/// A parse's answer: two boards of one shape, and parity's verdict.
fn check_parsed(v: &Value, input: &str) {
    let (start, goal) = boards(v, input);
    assert_eq!(
        v["solvable"],
        Value::Bool(start.can_reach(&goal)),
        "{v} for {input:?}"
    );
}
