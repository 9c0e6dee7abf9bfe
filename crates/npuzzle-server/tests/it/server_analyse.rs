//! `POST /api/analyse`: every distance of the answer checked against a
//! plain breadth-first search (in single moves and in pushes), the detours
//! against the distances, the length and waste against the moves sent;
//! bad fields, illegal moves and a spent budget answered as errors.

use npuzzle_testkit::reference::{bfs_all_in, bfs_distance_in, random_walk, rng};

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use npuzzle::{format_moves, Board, Dir, Metric, Notation, Shape};
use npuzzle_server as server;
use npuzzle_testkit::api::test_config;
use rand::Rng;
use serde_json::{json, Value};
use std::collections::HashMap;
use tower::ServiceExt;

async fn analyse(app: &Router, body: Value) -> (StatusCode, Value) {
    let req = Request::builder()
        .method("POST")
        .uri("/api/analyse")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 1 << 22)
        .await
        .unwrap();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// A random legal path of `n` steps from `b`, with some steps straight
/// back (detours) and some repeated (pushes).
fn random_path(b: &Board, n: usize, r: &mut impl Rng) -> Vec<Dir> {
    let mut cur = b.clone();
    let mut path = Vec::new();
    while path.len() < n {
        let d = if r.gen_bool(0.3) && !path.is_empty() {
            path[path.len() - 1]
        } else {
            Dir::ALL[r.gen_range(0..4)]
        };
        if cur.apply(d) {
            path.push(d);
        }
    }
    path
}

/// The positions between the moves of `path` in `metric`: the start, then
/// after each step (STM) or each run of equal steps (MTM).
fn positions(start: &Board, path: &[Dir], metric: Metric) -> Vec<Board> {
    let mut out = vec![start.clone()];
    let mut b = start.clone();
    for (i, &d) in path.iter().enumerate() {
        assert!(b.apply(d));
        let run_ends = metric == Metric::Stm || path.get(i + 1) != Some(&d);
        if run_ends {
            out.push(b.clone());
        }
    }
    out
}

/// Checks an answer against the distances `dist` gives each position.
fn check(j: &Value, start: &Board, path: &[Dir], metric: Metric, dist: &dyn Fn(&Board) -> u32) {
    let want: Vec<u32> = positions(start, path, metric).iter().map(dist).collect();
    let per_move = j["per_move"].as_array().expect("per_move");
    assert_eq!(per_move.len() + 1, want.len(), "{j}");
    assert_eq!(j["moves"].as_u64(), Some(per_move.len() as u64));
    assert_eq!(j["metric"], metric.name());
    assert_eq!(j["optimal"].as_u64(), Some(u64::from(want[0])));
    assert_eq!(j["to_go"].as_u64(), Some(u64::from(want[want.len() - 1])));
    for (i, m) in per_move.iter().enumerate() {
        assert_eq!(m["index"].as_u64(), Some(i as u64 + 1));
        assert_eq!(
            m["distance_before"].as_u64(),
            Some(u64::from(want[i])),
            "{m}"
        );
        assert_eq!(
            m["distance_after"].as_u64(),
            Some(u64::from(want[i + 1])),
            "{m}"
        );
        assert_eq!(m["progress"].as_bool(), Some(want[i + 1] < want[i]), "{m}");
        // a move that did not bring the goal closer is always in a detour
        if want[i + 1] >= want[i] {
            assert_eq!(m["detour"], true, "{m}");
        }
    }
    let written: Vec<&str> = per_move
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(
        written.concat(),
        format_moves(path, Notation::Blank, metric, false)
    );
    let solved = want[want.len() - 1] == 0;
    let wasted = solved.then(|| per_move.len() as u64 - u64::from(want[0]));
    assert_eq!(j["wasted"].as_u64(), wasted, "{j}");
    if solved {
        // on a solution the detours' moves are exactly the wasted ones
        let in_detours: u64 = j["detours"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["last"].as_u64().unwrap() - t["first"].as_u64().unwrap() + 1)
            .sum();
        assert_eq!(Some(in_detours), wasted, "{j}");
    }
}

#[tokio::test]
async fn distances_are_a_plain_bfs_in_both_metrics() {
    let (config, _dir) = test_config();
    let app = server::router(config);
    let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
    for metric in Metric::ALL {
        let dist: HashMap<Vec<u8>, u32> = bfs_all_in(&goal, metric);
        let mut r = rng(17);
        for i in 0..8 {
            let start = random_walk(&goal, 10 + 3 * i, &mut r);
            let path = random_path(&start, 12 + i, &mut r);
            let body = json!({
                "start": start.tiles(),
                "moves": npuzzle::path_string(&path),
                "metric": metric.name(),
            });
            let (status, j) = analyse(&app, body).await;
            assert_eq!(status, StatusCode::OK, "{j}");
            check(&j, &start, &path, metric, &|b| dist[b.tiles()]);
        }
    }
}

#[tokio::test]
async fn a_solution_with_a_detour_in_tile_notation() {
    let (config, _dir) = test_config();
    let app = server::router(config);
    let goal = npuzzle::parse_board("1 2 3/8 0 4/7 6 5", None).unwrap();
    let start = npuzzle::parse_board("2 8 3/1 6 4/7 0 5", None).unwrap();
    let dist = bfs_all_in(&goal, Metric::Stm);
    // blank UULRLDR, tiles DDRLRUL: the optimal UULDR with a detour
    let path = npuzzle::parse_path("UULRLDR").unwrap();
    let body = json!({
        "start": "2 8 3/1 6 4/7 0 5", "goal": "spiral",
        "moves": "D D R L R U L", "notation": "tile",
    });
    let (status, j) = analyse(&app, body).await;
    assert_eq!(status, StatusCode::OK, "{j}");
    assert_eq!(j["per_move"][3]["move"], "L", "tile notation as written");
    let want_tile = format_moves(&path, Notation::Tile, Metric::Stm, false);
    let got: String = j["per_move"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(got, want_tile);
    assert_eq!(j["optimal"].as_u64(), Some(u64::from(dist[start.tiles()])));
    assert!(j["wasted"].as_u64().unwrap() > 0);
    assert!(!j["detours"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn beyond_the_tables_distances_are_searched_for() {
    // 3x4: 12 cells, no complete table; each distance by IDA*
    let (config, _dir) = test_config();
    let app = server::router(config);
    let goal = Board::blank_last(Shape::new(3, 4)).unwrap();
    let mut r = rng(5);
    for metric in Metric::ALL {
        let start = random_walk(&goal, 8, &mut r);
        let path = random_path(&start, 8, &mut r);
        let body = json!({
            "start": start.tiles(), "size": "3x4",
            "moves": npuzzle::path_string(&path), "metric": metric.name(),
        });
        let (status, j) = analyse(&app, body).await;
        assert_eq!(status, StatusCode::OK, "{j}");
        let dist = |b: &Board| bfs_distance_in(b, &goal, metric, 2_000_000).expect("within reach");
        check(&j, &start, &path, metric, &dist);
    }
}

#[tokio::test]
async fn bad_fields_and_illegal_moves_are_named() {
    let (config, _dir) = test_config();
    let app = server::router(config);
    let goal = "1 2 3/4 5 6/7 8 0";
    for (body, says) in [
        (
            json!({"start": goal, "moves": "UUU"}),
            "move 3 (U, blank notation) cannot be made on 1 2 0/4 5 3/7 8 6",
        ),
        (
            json!({"start": goal, "moves": "D R3", "notation": "tile", "metric": "mtm"}),
            "move 2 (R3, tile notation)",
        ),
        (json!({"start": goal, "moves": "UX"}), "moves:"),
        (json!({"start": goal, "moves": 3}), "moves:"),
        (json!({"start": goal}), "no moves"),
        (
            json!({"start": goal, "moves": "U", "notation": "blanks"}),
            "notation:",
        ),
        (
            json!({"start": goal, "moves": "U", "metric": "ptm"}),
            "metric:",
        ),
        (json!({"moves": "U"}), "no start"),
        (
            json!({"start": "2 1 3/4 5 6/7 8 0", "moves": "U"}),
            "parity",
        ),
        (
            json!({"start": goal, "moves": "U", "algo": "bfs"}),
            "unknown field",
        ),
    ] {
        let (status, j) = analyse(&app, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {j}");
        let msg = j["error"].as_str().unwrap_or_default();
        assert!(msg.contains(says), "{body}: {msg}");
    }
}

#[tokio::test]
async fn a_spent_budget_is_the_solvers_status() {
    let (config, _dir) = test_config();
    let app = server::router(config);
    // Korf's first instance (blank-first goal): far beyond a millisecond
    let body = json!({
        "start": "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", "goal": "blank-first",
        "moves": "U", "timeout": 0.001,
    });
    let (status, j) = analyse(&app, body).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{j}");
    let (status, j) = analyse(
        &app,
        json!({"start": "1 2 3 4 5 6 7 8 0", "moves": "U", "timeout": -1}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{j}");
    // GET is refused with the usual message
    let req = Request::builder()
        .uri("/api/analyse")
        .body(Body::empty())
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED);
}
