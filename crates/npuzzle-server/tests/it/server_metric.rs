//! `POST /api/solve` with `"metric": "mtm"`: the fewest pushes, checked
//! against a plain breadth-first search in pushes, the path (single steps)
//! replayed and its pushes counted; an unknown metric is a bad request.

use npuzzle_testkit::reference::{bfs_all_in, random_walk, rng};

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use npuzzle::{parse_path, Board, Metric, Shape};
use npuzzle_server as server;
use npuzzle_testkit::api::test_config;
use serde_json::{json, Value};
use tower::ServiceExt;

async fn solve(app: &Router, body: Value) -> (StatusCode, Value) {
    let req = Request::builder()
        .method("POST")
        .uri("/api/solve")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 1 << 20)
        .await
        .unwrap();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

#[tokio::test]
async fn the_api_answers_in_pushes() {
    let (config, _dir) = test_config();
    let app = server::router(config);
    let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
    let dist = bfs_all_in(&goal, Metric::Mtm);
    let mut r = rng(9);
    for i in 0..10 {
        let start = random_walk(&goal, 4 + 3 * i, &mut r);
        let (status, j) = solve(&app, json!({"start": start.tiles(), "metric": "mtm"})).await;
        assert_eq!(status, StatusCode::OK, "{j}");
        assert_eq!(j["moves"].as_u64(), Some(u64::from(dist[start.tiles()])));
        assert_eq!(j["metric"], "mtm");
        let path = parse_path(j["path"].as_str().unwrap()).unwrap();
        assert_eq!(start.apply_path(&path).unwrap(), goal);
        assert_eq!(
            Metric::Mtm.length(&path) as u64,
            j["moves"].as_u64().unwrap()
        );
    }
    let (status, j) = solve(&app, json!({"start": goal.tiles(), "metric": "ptm"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(j.to_string().contains("metric"), "{j}");
}
