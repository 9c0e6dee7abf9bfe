//! `POST /api/verify`, `/api/apply` and `/api/rewrite`: verdicts checked
//! against a plain breadth-first search in both metrics, boards reached
//! against a replay of the steps, rewrites against what they mean (an
//! inverse undoes, a transpose solves the transposed board); bad fields
//! and impossible moves answered as 400 naming them.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use npuzzle::{format_moves, invert, Board, Dir, Metric, Notation, Shape};
use npuzzle_server as server;
use npuzzle_testkit::api::test_config;
use npuzzle_testkit::reference::{bfs_distance_in, rng};
use rand::Rng;
use serde_json::{json, Value};
use tower::ServiceExt;

async fn post(app: &Router, uri: &str, body: Value) -> (StatusCode, Value) {
    let req = Request::builder()
        .method("POST")
        .uri(uri)
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

/// A random legal path of `n` steps from `b`, and the board it reaches.
fn walk(b: &Board, n: usize, r: &mut impl Rng) -> (Vec<Dir>, Board) {
    let mut cur = b.clone();
    let mut path = Vec::new();
    while path.len() < n {
        let d = Dir::ALL[r.gen_range(0..4)];
        if cur.apply(d) {
            path.push(d);
        }
    }
    (path, cur)
}

#[tokio::test]
async fn verdicts_agree_with_a_plain_bfs_in_both_metrics() {
    let (config, _dir) = test_config();
    let app = server::router(config);
    let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
    let mut r = rng(29);
    for i in 0..10 {
        // a start some moves from the goal, solved by undoing them
        let (there, start) = walk(&goal, 6 + 2 * i, &mut r);
        let solution = invert(&there);
        for metric in Metric::ALL {
            let notation = [Notation::Blank, Notation::Tile][i % 2];
            let moves = format_moves(&solution, notation, metric, i % 3 == 0);
            let body = json!({"start": start.to_row_string(), "moves": moves,
                "notation": notation.name(), "metric": metric.name()});
            let (status, v) = post(&app, "/api/verify", body).await;
            assert_eq!(status, StatusCode::OK, "{v}");
            let fewest = bfs_distance_in(&start, &goal, metric, 200_000).unwrap();
            let length = metric.length(&solution);
            assert_eq!(v["solves"], true, "{v}");
            assert_eq!(v["moves"], length, "{v}");
            assert_eq!(v["stm"], Metric::Stm.length(&solution), "{v}");
            assert_eq!(v["mtm"], Metric::Mtm.length(&solution), "{v}");
            assert_eq!(v["optimal"], fewest, "{v}");
            assert_eq!(v["wasted"], length as i64 - i64::from(fewest), "{v}");
            assert_eq!(v["end"], goal.to_row_string(), "{v}");
            // one step short is no solution, and needs no search
            let short = format_moves(&solution[..solution.len() - 1], notation, metric, false);
            let body = json!({"start": start.to_row_string(), "moves": short,
                "notation": notation.name(), "metric": metric.name()});
            let (status, v) = post(&app, "/api/verify", body).await;
            assert_eq!(status, StatusCode::OK, "{v}");
            assert_eq!(v["solves"], false, "{v}");
            assert_eq!(v["optimal"], Value::Null, "{v}");
        }
    }
}

#[tokio::test]
async fn apply_reaches_the_board_a_replay_reaches() {
    let (config, _dir) = test_config();
    let app = server::router(config);
    let mut r = rng(31);
    for shape in [Shape::new(3, 3), Shape::new(4, 4), Shape::new(2, 5)] {
        let start = Board::blank_last(shape).unwrap();
        let (path, end) = walk(&start, 25, &mut r);
        for notation in Notation::ALL {
            let moves = format_moves(&path, notation, Metric::Mtm, false);
            let body = json!({"start": start.to_row_string(), "size": shape.to_string(),
                "moves": moves, "notation": notation.name()});
            let (status, v) = post(&app, "/api/apply", body).await;
            assert_eq!(status, StatusCode::OK, "{v}");
            assert_eq!(v["board"], end.to_row_string(), "{v}");
            assert_eq!(v["tiles"], json!(end.tiles()), "{v}");
            assert_eq!(v["stm"], 25, "{v}");
            assert_eq!(v["mtm"], Metric::Mtm.length(&path), "{v}");
        }
    }
}

/// `b` mirrored in its main diagonal.
fn transposed(b: &Board) -> Board {
    let (rows, cols) = (b.rows(), b.cols());
    let tiles: Vec<u8> = (0..rows * cols)
        .map(|i| b.tiles()[(i % rows) * cols + i / rows])
        .collect();
    Board::from_tiles(cols, rows, &tiles).unwrap()
}

#[tokio::test]
async fn rewrites_mean_what_they_say() {
    let (config, _dir) = test_config();
    let app = server::router(config);
    let mut r = rng(37);
    let goal = Board::blank_last(Shape::new(4, 4)).unwrap();
    for _ in 0..6 {
        let (path, end) = walk(&goal, 30, &mut r);
        let moves = format_moves(&path, Notation::Blank, Metric::Stm, false);
        // the inverse, applied after the moves, comes back to the start
        let body = json!({"moves": moves, "rewrite": "invert", "to": "tile", "metric": "mtm"});
        let (status, v) = post(&app, "/api/rewrite", body).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let back = npuzzle::parse_moves(v["moves"].as_str().unwrap(), Notation::Tile).unwrap();
        assert_eq!(end.apply_path(&back).unwrap(), goal);
        // simplified, the moves reach the same board in no more steps
        let body = json!({"moves": moves, "rewrite": "simplify"});
        let (_, v) = post(&app, "/api/rewrite", body).await;
        let short = npuzzle::parse_moves(v["moves"].as_str().unwrap(), Notation::Blank).unwrap();
        assert!(short.len() <= path.len());
        assert_eq!(goal.apply_path(&short).unwrap(), end);
        // transposed, they take the transposed goal to the transposed end
        let body = json!({"moves": moves, "rewrite": "transpose", "spaced": true});
        let (_, v) = post(&app, "/api/rewrite", body).await;
        let t = npuzzle::parse_moves(v["moves"].as_str().unwrap(), Notation::Blank).unwrap();
        assert_eq!(transposed(&goal).apply_path(&t).unwrap(), transposed(&end));
    }
}

#[tokio::test]
async fn bad_requests_name_what_is_wrong() {
    let (config, _dir) = test_config();
    let app = server::router(config);
    let cases = [
        (
            "/api/verify",
            json!({"start": "1 2 3/4 5 6/7 8 0", "moves": "D"}),
            "move 1 (D",
        ),
        (
            "/api/apply",
            json!({"start": "1 2 3/4 5 6/7 8 0", "moves": "UX"}),
            "moves:",
        ),
        (
            "/api/apply",
            json!({"start": "1 2 3/4 5 6/7 8 0", "moves": "U", "notation": "blnk"}),
            "notation:",
        ),
        ("/api/rewrite", json!({"moves": "UL"}), "no rewrite"),
        (
            "/api/rewrite",
            json!({"moves": "UL", "rewrite": "reverse"}),
            "rewrite:",
        ),
        (
            "/api/rewrite",
            json!({"moves": "UL", "rewrite": "invert", "to": "tiles"}),
            "to:",
        ),
        (
            "/api/verify",
            json!({"start": "1 2 3/4 5 6/7 8 0"}),
            "no moves",
        ),
    ];
    for (uri, body, says) in cases {
        let (status, v) = post(&app, uri, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri} {body}: {v}");
        let msg = v["error"].as_str().unwrap_or_default();
        assert!(msg.contains(says), "{uri} {body}: {msg}");
    }
}
