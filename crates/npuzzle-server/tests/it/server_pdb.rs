//! The server's pattern-database policy, in process (tower `oneshot`):
//! boards off the allow-list fall back to linear conflict (heuristic
//! `auto`) or are refused (`pdb` by name), new goals build within the
//! memory cache and the disk cap, and a build cut short by its request's
//! time budget leaves no file. Answers are checked against a plain BFS
//! (tests/support/api.rs).

use npuzzle_testkit::api as support;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use npuzzle::pdb::PartitionSpec;
use npuzzle::Shape;
use npuzzle_server::{self as server, PdbAllow};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::path::Path;
use std::time::{Duration, Instant};
use support::{check_report, test_config};
use tower::ServiceExt;

async fn call(app: &Router, method: &str, uri: &str, body: Value) -> (StatusCode, Value) {
    let req = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(if method == "GET" {
            Body::empty()
        } else {
            Body::from(body.to_string())
        })
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

async fn health(app: &Router) -> Value {
    call(app, "GET", "/api/health", Value::Null).await.1
}

/// The database files in `dir`.
fn pdb_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

fn text(tiles: &[u8]) -> String {
    tiles
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A random goal on a `rows`x`cols` board and a start `steps` random moves
/// away from it.
fn goal_and_start(
    rng: &mut ChaCha8Rng,
    rows: usize,
    cols: usize,
    steps: usize,
) -> (String, String) {
    let n = rows * cols;
    let mut goal: Vec<u8> = (0..n as u8).collect();
    goal.shuffle(rng);
    let mut b = goal.clone();
    for _ in 0..steps {
        let z = b.iter().position(|&t| t == 0).unwrap();
        let mut next = Vec::new();
        if z >= cols {
            next.push(z - cols);
        }
        if z + cols < n {
            next.push(z + cols);
        }
        if z % cols > 0 {
            next.push(z - 1);
        }
        if z % cols + 1 < cols {
            next.push(z + 1);
        }
        let to = next[rng.gen_range(0..next.len())];
        b.swap(z, to);
    }
    (text(&goal), text(&b))
}

/// A 4x4 start a few moves from blank-last.
const NEAR_4X4: &str = "1 2 3 4 5 6 7 8 9 10 0 11 13 14 15 12";

#[tokio::test]
async fn boards_off_the_allow_list_fall_back_or_are_refused() {
    let (mut config, cache) = test_config();
    config.pdb_allow = vec![PdbAllow::new(Shape::new(3, 3), PartitionSpec::Auto)];
    let app = server::router(config);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (goal, start) = goal_and_start(&mut rng, 4, 4, 8);

    // `auto`: linear conflict instead, and the plan says why.
    let (s, r) = call(
        &app,
        "POST",
        "/api/solve",
        json!({"start": start, "goal": goal}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{r}");
    check_report(&r);
    assert_eq!(r["heuristic"], json!("linear-conflict"), "{r}");
    let plan = r["plan"].as_str().unwrap();
    assert!(plan.starts_with("idastar + linear-conflict"), "{plan}");
    assert!(
        plan.contains("linear conflict, since pattern databases for 4x4 boards are not on this server's allow-list"),
        "{plan}"
    );

    // `pdb` by name: a clear 400, for solve and for A*.
    for algo in ["idastar", "astar"] {
        let body = json!({"start": NEAR_4X4, "algo": algo, "heuristic": "pdb"});
        let (s, r) = call(&app, "POST", "/api/solve", body).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{r}");
        let msg = r["error"].as_str().unwrap();
        assert!(
            msg.starts_with("heuristic pdb: pattern databases for 4x4 boards are not on this server's allow-list"),
            "{msg}"
        );
    }

    // Compare: the pattern-database rows say why they did not run.
    let (s, r) = call(&app, "POST", "/api/compare", json!({"start": NEAR_4X4})).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    let rows = r["rows"].as_array().unwrap();
    let pdb_rows: Vec<&Value> = rows.iter().filter(|r| r["heuristic"] == "pdb").collect();
    assert_eq!(pdb_rows.len(), 2, "{r}");
    for row in pdb_rows {
        let why = row["skipped"].as_str().unwrap();
        assert!(why.contains("not on this server's allow-list"), "{why}");
    }
    let tiles: Vec<u8> = NEAR_4X4.split(' ').map(|t| t.parse().unwrap()).collect();
    let goal_tiles: Vec<u8> = (1..16).chain([0]).collect();
    let want = support::bfs_moves(4, 4, &tiles, &goal_tiles).unwrap();
    assert!(rows.iter().any(|r| r["moves"] == want), "{r}");
    assert_eq!(r["agree"], json!(true));
    assert!(
        pdb_files(cache.path()).is_empty(),
        "{:?}",
        pdb_files(cache.path())
    );

    // An allowed board still gets its databases.
    let (goal, start) = goal_and_start(&mut rng, 3, 3, 10);
    let body = json!({"start": start, "goal": goal, "algo": "idastar", "heuristic": "pdb"});
    let (s, r) = call(&app, "POST", "/api/solve", body).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    check_report(&r);
    assert!(r["plan"].as_str().unwrap().contains("+ pdb"), "{r}");
    let h = health(&app).await;
    assert_eq!(h["pdb"]["allow"], json!(["3x3:auto"]), "{h}");
}

/// A new goal builds its own databases; with a memory cache of room for
/// two 3x3 4-4 databases and a disk cap of three, goal after goal never
/// takes more.
#[tokio::test]
async fn new_goals_stay_within_the_memory_cache_and_the_disk_cap() {
    // 126 subsets of 4 cells with 230 regions of the blank among them, 4!
    // orders each: half a byte an entry on disk, one bit in memory
    const ONE_DB: u64 = 230 * 24 / 2;
    const ONE_IN_MEMORY: u64 = 230 * 24 / 8;
    let (mut config, cache) = test_config();
    config.pdb_allow = vec![PdbAllow::new(
        Shape::new(3, 3),
        PartitionSpec::Sizes(vec![4, 4]),
    )];
    config.pdb_memory = 2 * ONE_IN_MEMORY + ONE_IN_MEMORY / 2;
    config.pdb_disk = Some(3 * ONE_DB + 1000);
    let app = server::router(config);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for i in 0..6 {
        let (goal, start) = goal_and_start(&mut rng, 3, 3, 14);
        let body = json!({"start": start, "goal": goal, "algo": "idastar", "heuristic": "pdb"});
        let (s, r) = call(&app, "POST", "/api/solve", body).await;
        assert_eq!(s, StatusCode::OK, "goal {i}: {r}");
        check_report(&r);
        assert!(r["plan"].as_str().unwrap().contains("pdb 4-4"), "{r}");
        let p = &health(&app).await["pdb"];
        let memory = p["memory_bytes"].as_u64().unwrap();
        assert!(
            memory <= 2 * ONE_IN_MEMORY + ONE_IN_MEMORY / 2,
            "goal {i}: {p}"
        );
        assert!(
            memory >= ONE_IN_MEMORY,
            "goal {i}: the last database is kept: {p}"
        );
        assert!(p["databases"].as_u64().unwrap() <= 2, "{p}");
        let disk = p["disk_bytes"].as_u64().unwrap();
        assert!(disk <= 3 * ONE_DB + 1000, "goal {i}: {p}");
        let files = pdb_files(cache.path()).len();
        assert_eq!(files, (2 * (i + 1)).min(3), "goal {i}: {p}");
    }
}

/// A new 15-puzzle goal with a 0.05 s timeout: the build (seconds) stops
/// at the request's deadline, the answer says so, and no file is left.
#[tokio::test]
async fn a_build_cut_short_by_the_timeout_leaves_no_file() {
    let (config, cache) = test_config();
    let app = server::router(config);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let (goal, start) = goal_and_start(&mut rng, 4, 4, 30);
    let t = Instant::now();
    let body = json!({"start": start, "goal": goal, "timeout": 0.05});
    let (s, r) = call(&app, "POST", "/api/solve", body).await;
    let took = t.elapsed();
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{r}");
    let msg = r["error"].as_str().unwrap();
    assert!(
        msg.contains("building the database for tiles") && msg.contains("time budget"),
        "{msg}"
    );
    assert!(took < Duration::from_secs(3), "{took:?}");
    assert_eq!(pdb_files(cache.path()), Vec::<String>::new());
    let h = health(&app).await;
    assert_eq!(h["pdb"]["databases"], 0, "{h}");
    assert_eq!(h["searches"]["running"], 0, "{h}");
}
