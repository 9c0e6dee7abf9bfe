//! `POST /api/trace` in process (tower `oneshot`): A*'s expansions come in
//! order of `f`, BFS's layers are a plain breadth-first count's, IDA*'s
//! bounds rise to the answer, the event cap is honoured and reported, and
//! bad requests name what is wrong.

use npuzzle_testkit::api as support;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use npuzzle_server::{self as server, Config};
use serde_json::{json, Value};
use std::collections::HashSet;
use support::{bfs_moves, test_config, tiles};
use tower::ServiceExt;

const START: &str = "2 6 4 1 3 7 0 5 8";
const GOAL: &str = "8 1 5 7 3 6 4 0 2";

async fn post(app: &Router, body: Value) -> (StatusCode, Value) {
    let req = Request::builder()
        .method("POST")
        .uri("/api/trace")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 64 << 20)
        .await
        .unwrap();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

fn app_with(f: impl FnOnce(&mut Config)) -> (Router, tempfile::TempDir) {
    let (mut config, dir) = test_config();
    f(&mut config);
    (server::router(config), dir)
}

/// States first reached at each distance from `start` (a plain
/// breadth-first count, sharing no code with the library), up to `depth`.
fn plain_layers(cols: usize, start: &[u8], depth: usize) -> Vec<u64> {
    let rows = start.len() / cols;
    let mut seen = HashSet::from([start.to_vec()]);
    let mut layer = vec![start.to_vec()];
    let mut counts = vec![1];
    for _ in 0..depth {
        let mut next = Vec::new();
        for b in &layer {
            let z = b.iter().position(|&t| t == 0).unwrap();
            let (r, c) = (z / cols, z % cols);
            let around = [
                (r > 0).then(|| z - cols),
                (r + 1 < rows).then(|| z + cols),
                (c > 0).then(|| z - 1),
                (c + 1 < cols).then(|| z + 1),
            ];
            for n in around.into_iter().flatten() {
                let mut s = b.clone();
                s.swap(z, n);
                if seen.insert(s.clone()) {
                    next.push(s);
                }
            }
        }
        counts.push(next.len() as u64);
        layer = next;
    }
    counts
}

/// The path's moves (of the blank) applied to `start`.
fn walk(cols: usize, start: &[u8], path: &str) -> Vec<u8> {
    let mut b = start.to_vec();
    for d in path.chars() {
        let z = b.iter().position(|&t| t == 0).unwrap();
        let to = match d {
            'U' => z - cols,
            'D' => z + cols,
            'L' => z - 1,
            'R' => z + 1,
            other => panic!("move {other}"),
        };
        b.swap(z, to);
    }
    b
}

fn expanded(t: &Value) -> Vec<&Value> {
    t["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["event"] == "expanded")
        .collect()
}

#[tokio::test]
async fn astar_expands_in_order_of_f_and_its_path_is_the_fewest() {
    let (app, _dir) = app_with(|_| {});
    let body = json!({"start": START, "goal": GOAL, "algo": "astar", "heuristic": "manhattan"});
    let (status, t) = post(&app, body).await;
    assert_eq!(status, StatusCode::OK, "{t}");
    let (start, goal) = (tiles(&t["start"]), tiles(&t["goal"]));
    let want = bfs_moves(3, 3, &start, &goal).unwrap();
    assert_eq!(t["moves"], json!(want));
    assert_eq!(t["algorithm"], "astar");
    let path = t["path"].as_str().unwrap();
    assert_eq!(path.len(), want as usize);
    assert_eq!(walk(3, &start, path), goal);
    let ex = expanded(&t);
    // The goal comes to be expanded last, flagged, and is not counted.
    let counted = ex.iter().filter(|e| e.get("goal").is_none()).count();
    assert_eq!(counted as u64, t["expanded"].as_u64().unwrap(), "all kept");
    assert_eq!(tiles(&ex[0]["tiles"]), start);
    assert_eq!(tiles(&ex[ex.len() - 1]["tiles"]), goal, "the goal last");
    assert_eq!(ex[ex.len() - 1]["goal"], true);
    // Every child comes after its parent's expansion, one move from it.
    let mut parent: Option<Vec<u8>> = None;
    for e in t["events"].as_array().unwrap() {
        let b = tiles(&e["tiles"]);
        match e["event"].as_str() {
            Some("expanded") => parent = Some(b),
            Some("generated") => {
                let p = parent.as_deref().expect("a child after an expansion");
                let via = e["via"].as_str().unwrap();
                assert_eq!(walk(3, p, via), b, "{e}");
            }
            _ => {}
        }
    }
    let f: Vec<u64> = ex
        .iter()
        .map(|e| e["g"].as_u64().unwrap() + e["h"].as_u64().unwrap())
        .collect();
    assert!(f.windows(2).all(|w| w[0] <= w[1]), "f never falls: {f:?}");
    let by_f: u64 = t["expanded_by_f"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p[1].as_u64().unwrap())
        .sum();
    assert_eq!(by_f, t["expanded"].as_u64().unwrap());
    assert_eq!(t["events_dropped"], 0);
}

#[tokio::test]
async fn bfs_layers_are_a_plain_breadth_first_count() {
    let (app, _dir) = app_with(|_| {});
    let body = json!({"start": "2 8 3 1 6 4 7 0 5", "goal": "1 2 3 8 0 4 7 6 5", "algo": "bfs"});
    let (status, t) = post(&app, body).await;
    assert_eq!(status, StatusCode::OK, "{t}");
    let d = t["moves"].as_u64().unwrap() as usize;
    assert_eq!(d, 5);
    let layers: Vec<u64> = serde_json::from_value(t["layers"].clone()).unwrap();
    let plain = plain_layers(3, &tiles(&t["start"]), d);
    assert_eq!(layers.len(), d + 1, "{layers:?}");
    // Every layer before the goal's is complete; the goal's is cut short.
    assert_eq!(layers[..d], plain[..d], "{layers:?} vs {plain:?}");
    assert!(
        (1..=plain[d]).contains(&layers[d]),
        "{layers:?} vs {plain:?}"
    );
    let from_events: Vec<u64> = t["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["event"] == "layer")
        .map(|e| e["states"].as_u64().unwrap())
        .collect();
    assert_eq!(from_events, layers, "the layer events say the same");
}

#[tokio::test]
async fn idastar_bounds_rise_to_the_answer() {
    let (app, _dir) = app_with(|_| {});
    let body = json!({"start": START, "goal": GOAL, "algo": "idastar", "heuristic": "manhattan"});
    let (status, t) = post(&app, body).await;
    assert_eq!(status, StatusCode::OK, "{t}");
    let bounds: Vec<u64> = t["iterations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|it| it["bound"].as_u64().unwrap())
        .collect();
    assert!(bounds.windows(2).all(|w| w[0] < w[1]), "{bounds:?}");
    assert_eq!(bounds.last().copied(), t["moves"].as_u64());
    let path = t["path"].as_str().unwrap();
    assert_eq!(walk(3, &tiles(&t["start"]), path), tiles(&t["goal"]));
}

#[tokio::test]
async fn the_event_cap_is_honoured_and_reported() {
    let (app, _dir) = app_with(|c| c.max_trace_events = 50);
    let base = json!({"start": START, "goal": GOAL, "algo": "bfs"});
    let mut asked = base.clone();
    asked["max_events"] = json!(10);
    let (status, t) = post(&app, asked).await;
    assert_eq!(status, StatusCode::OK, "{t}");
    assert_eq!(t["events"].as_array().unwrap().len(), 10);
    assert_eq!(t["max_events"], 10);
    let dropped = t["events_dropped"].as_u64().unwrap();
    assert!(dropped > 0);
    // Past the server's cap: the cap, said in the answer.
    let mut greedy = base.clone();
    greedy["max_events"] = json!(1_000_000_000u64);
    let (_, t2) = post(&app, greedy).await;
    assert_eq!(t2["events"].as_array().unwrap().len(), 50);
    assert_eq!(t2["max_events"], 50);
    assert_eq!(t2["events_dropped"].as_u64().unwrap(), dropped + 10 - 50);
    // Not asked: the cap too; the totals count every node all the same.
    let (_, t3) = post(&app, base).await;
    assert_eq!(t3["max_events"], 50);
    assert_eq!(t3["expanded"], t["expanded"]);
    let health = {
        let req = Request::builder()
            .uri("/api/health")
            .body(Body::empty())
            .unwrap();
        let res = app.clone().oneshot(req).await.unwrap();
        let bytes = axum::body::to_bytes(res.into_body(), 1 << 20)
            .await
            .unwrap();
        serde_json::from_slice::<Value>(&bytes).unwrap()
    };
    assert_eq!(health["limits"]["max_trace_events"], 50);
}

#[tokio::test]
async fn bad_requests_name_what_is_wrong() {
    let (app, _dir) = app_with(|_| {});
    let cases = [
        (
            json!({"start": START, "goal": GOAL, "max_events": "lots"}),
            "max_events: write a whole number",
        ),
        (
            json!({"start": START, "goal": GOAL, "max_events": -1}),
            "max_events:",
        ),
        (
            json!({"start": START, "goal": GOAL, "algo": "table"}),
            "table cannot be watched",
        ),
        (
            json!({"start": START, "goal": GOAL, "algo": "fast"}),
            "cannot be watched",
        ),
        (
            json!({"start": START, "goal": GOAL, "algo": "anytime"}),
            "cannot be watched",
        ),
        (
            json!({"start": START, "goal": GOAL, "algo": "dijkstra"}),
            "algo:",
        ),
        (
            json!({"start": "2 6 4 1 3 7 0 5 9", "goal": GOAL}),
            "start board:",
        ),
        (json!({"goal": GOAL}), "no start board"),
        (
            json!({"start": START, "goal": GOAL, "events": 3}),
            "unknown field `events`",
        ),
    ];
    for (body, want) in cases {
        let (status, r) = post(&app, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {r}");
        let msg = r["error"].as_str().unwrap_or_default();
        assert!(msg.contains(want), "{body}: {msg}");
    }
}

#[tokio::test]
async fn unreachable_goals_and_the_default_algorithm() {
    let (app, _dir) = app_with(|_| {});
    let body = json!({"start": "1 2 3 4 5 6 8 7 0", "goal": "blank-last"});
    let (status, t) = post(&app, body).await;
    assert_eq!(status, StatusCode::OK, "{t}");
    assert_eq!(t["moves"], Value::Null);
    assert!(t.get("path").is_none(), "{t}");
    // Left out, the algorithm is A* (auto would pick the table, which
    // cannot be watched).
    let (_, t) = post(&app, json!({"start": START, "goal": GOAL})).await;
    assert_eq!(t["algorithm"], "astar", "{t}");
}

/// The plain count itself: every 8-puzzle position within 31 moves.
#[test]
fn the_plain_count_reaches_every_position() {
    let counts = plain_layers(3, &[2, 8, 3, 1, 6, 4, 7, 0, 5], 31);
    assert_eq!(counts.iter().sum::<u64>(), 181_440);
}
