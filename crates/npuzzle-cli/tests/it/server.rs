//! The JSON API in process (tower `oneshot`): answers checked against a
//! plain BFS (tests/support/api.rs) and against `npuzzle solve --json`,
//! every kind of bad input, the body limit. Over a real socket:
//! tests/server_socket.rs.

use crate::support::cli;
use cli::*;

use npuzzle_testkit::api as support;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use npuzzle_server as server;
use serde_json::{json, Value};
use support::{check_report, test_config};
use tower::ServiceExt;

async fn call(app: &Router, method: &str, uri: &str, body: Body) -> (StatusCode, Value) {
    let req = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(body)
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 1 << 20)
        .await
        .unwrap();
    let v = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, v)
}

async fn post(app: &Router, uri: &str, body: Value) -> (StatusCode, Value) {
    call(app, "POST", uri, Body::from(body.to_string())).await
}

#[tokio::test]
async fn seed_examples_and_an_unreachable_pair() {
    let (config, _cache) = test_config();
    let app = server::router(config);
    for (start, goal, moves) in [
        ("2 8 3 1 6 4 7 0 5", "1 2 3 8 0 4 7 6 5", 5),
        ("2 6 4 1 3 7 0 5 8", "8 1 5 7 3 6 4 0 2", 31),
        ("1 2 3 4 5 6 8 7 0", "1 2 3 4 5 6 7 8 0", -1),
        ("1 2 3 4 5 6 7 8 0", "1 2 3 4 5 6 7 8 0", 0),
    ] {
        let (s, r) = post(&app, "/api/solve", json!({"start": start, "goal": goal})).await;
        assert_eq!(s, StatusCode::OK, "{r}");
        assert_eq!(r["moves"], json!(moves), "{start} -> {goal}: {r}");
        check_report(&r);
        check_distribution(&r);
    }
}

/// On boards with complete tables the answer says where each board along
/// the path stands: its distance (which falls by one per optimal move) and
/// the whole distribution, which must count every reachable position.
fn check_distribution(r: &Value) {
    let d = &r["distribution"];
    if r["moves"] == json!(-1) {
        assert!(d.is_null(), "no distribution when unreachable: {r}");
        return;
    }
    let cells = r["rows"].as_u64().unwrap() * r["cols"].as_u64().unwrap();
    let half: u64 = (1..=cells).product::<u64>() / 2;
    assert_eq!(d["positions"], json!(half), "{r}");
    let hist: Vec<u64> = serde_json::from_value(d["histogram"].clone()).unwrap();
    assert_eq!(hist.iter().sum::<u64>(), half);
    assert_eq!(hist[0], 1, "one goal");
    let dist: Vec<u64> = serde_json::from_value(d["distances"].clone()).unwrap();
    let moves = r["moves"].as_u64().unwrap();
    let want: Vec<u64> = (0..=moves).rev().collect();
    assert_eq!(dist, want, "distances along an optimal path: {r}");
}

#[tokio::test]
async fn distribution_only_where_tables_exist() {
    let (config, _cache) = test_config();
    let app = server::router(config);
    // 2x4: 20,160 positions; its hardest needs 36 moves (a published value).
    let (s, r) = post(
        &app,
        "/api/solve",
        json!({"start": "1 2 3 4 5 6 0 7", "goal": "1 2 3 4 5 6 7 0", "size": "2x4"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{r}");
    check_distribution(&r);
    assert_eq!(r["distribution"]["histogram"].as_array().unwrap().len(), 37);
    // 4x4 has no complete table.
    let (s, r) = post(
        &app,
        "/api/solve",
        json!({"start": "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", "algo": "idastar", "heuristic": "manhattan"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(r["moves"], json!(1));
    assert!(r["distribution"].is_null(), "{r}");
}

#[tokio::test]
async fn accepts_every_board_form_and_named_goals() {
    let (config, _cache) = test_config();
    let app = server::router(config);
    let cases = [
        json!({"start": "283164705", "goal": "spiral"}),
        json!({"start": "2 8 3 / 1 6 4 / 7 0 5", "goal": "snail"}),
        json!({"start": [[2, 8, 3], [1, 6, 4], [7, 0, 5]], "goal": [1, 2, 3, 8, 0, 4, 7, 6, 5]}),
        json!({"start": [2, 8, 3, 1, 6, 4, "_", 7, 5], "goal": "blank-last", "algo": "table"}),
        json!({"start": "283164705 | spiral"}),
        json!({"start": "2 8 3 1 6 4 7 0 5 1 2 3 8 0 4 7 6 5"}),
        json!({"start": "1 2 3 4 5 6 0 7", "size": "2x4"}),
        json!({"start": "0 1 2 3 5 4 6 7 8", "goal": "blank-first", "heuristic": "manhattan"}),
        json!({"start": "2 8 3 1 6 4 7 0 5", "goal": "spiral", "timeout": 5}),
    ];
    for body in cases {
        let (s, r) = post(&app, "/api/solve", body.clone()).await;
        assert_eq!(s, StatusCode::OK, "{body}: {r}");
        check_report(&r);
    }
    let (s, r) = post(
        &app,
        "/api/parse",
        json!({"start": "1 2 3 4 5 6 0 7", "size": "2x4", "goal": "spiral"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        r,
        json!({"rows": 2, "cols": 4, "start": [1, 2, 3, 4, 5, 6, 0, 7], "goal": [1, 2, 3, 4, 0, 7, 6, 5], "solvable": false})
    );
}

/// `/api/solve` answers what `npuzzle solve --json --boards` prints, for
/// the same algorithm (by default the server, answering many queries,
/// uses the tables, and one `solve` a direct search).
#[tokio::test]
async fn solve_answers_what_the_command_line_prints() {
    let (config, _cache) = test_config();
    let app = server::router(config);
    let (_, mut api) = post(
        &app,
        "/api/solve",
        json!({"start": "2 6 4 1 3 7 0 5 8", "goal": "8 1 5 7 3 6 4 0 2", "algo": "table"}),
    )
    .await;
    let out = npuzzle()
        .args([
            "solve",
            "--json",
            "--boards",
            "2 6 4 1 3 7 0 5 8",
            "--goal",
            "8 1 5 7 3 6 4 0 2",
            "--algo",
            "table",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let mut cli: Value = serde_json::from_slice(&out.stdout).unwrap();
    // The page's extra: where each board stands (checked elsewhere).
    assert!(api["distribution"].is_object());
    api.as_object_mut().unwrap().remove("distribution");
    for v in [&mut api, &mut cli] {
        v["stats"]["seconds"] = json!(null);
        // The first table lookup reports the table it built.
        v["stats"]["peak_states"] = json!(null);
    }
    assert_eq!(api, cli);
}

/// Every kind of bad input: 400 and the very message the command line
/// prints (after `npuzzle: `).
#[tokio::test]
async fn bad_boards_answer_400_with_the_command_line_message() {
    let (config, _cache) = test_config();
    let app = server::router(config);
    let cases: &[(&str, Option<&str>)] = &[
        ("2 8 3 1 6 4 7 0 x", None),
        ("2 8 3 1 6 4 7 0 2", None),
        ("2 8 3 1 6 4 7 0 9", None),
        ("1 2 3 4 5 6 7 8 9", None),
        ("1 2 3 4 5 6 7 0", None),
        ("1 2 3 / 4 5 / 6 7 0", None),
        ("1 2 3 4 5 6 7 8 0 9 10 11 12 13 14 15 16 17", None),
        ("2 8 3 1 6 4 7 0 5", Some("blank-middle")),
        ("2 8 3 1 6 4 7 0 5", Some("1 2 3 0")),
        ("2 8 3 1 6 4 7 0 5", Some("1 2 3 4 5 6 7 8 8")),
        ("283164705 | spiral", Some("spiral")),
        (",,,", None),
    ];
    for &(start, goal) in cases {
        let body = match goal {
            Some(g) => json!({"start": start, "goal": g}),
            None => json!({"start": start}),
        };
        let (s, r) = post(&app, "/api/solve", body).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{start} / {goal:?}: {r}");
        let mut args = vec!["solve", start];
        if let Some(g) = goal {
            args.extend(["--goal", g]);
        }
        let out = npuzzle().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        // The command line may add a hint naming its own flag.
        let message = format!("npuzzle: {}", r["error"].as_str().unwrap());
        let rest = stderr
            .strip_prefix(&message)
            .unwrap_or_else(|| panic!("{args:?}: the CLI said {stderr:?}, the API {message:?}"));
        assert!(
            rest == "\n" || (rest.starts_with(" (") && rest.ends_with(")\n")),
            "{args:?}: {rest:?}"
        );
    }
}

#[tokio::test]
async fn bad_requests_answer_400_naming_the_problem() {
    let (config, _cache) = test_config();
    let app = server::router(config);
    let seed = "2 8 3 1 6 4 7 0 5";
    let cases: Vec<(String, &str)> = vec![
        ("{\"start\": ".into(), "not a problem: EOF while parsing"),
        (
            "[1, 2]".into(),
            "the request body is not a problem: invalid length 2",
        ),
        ("".into(), "the request body is empty"),
        (json!({"goal": "spiral"}).to_string(), "no start board"),
        (
            json!({"start": seed, "algorithm": "bfs"}).to_string(),
            "unknown field `algorithm`",
        ),
        (
            json!({"start": seed, "algo": "dijkstra"}).to_string(),
            "algo: 'dijkstra' is not an algorithm; use one of auto, table",
        ),
        (
            json!({"start": seed, "heuristic": "magic"}).to_string(),
            "heuristic: 'magic' is not a heuristic",
        ),
        (
            json!({"start": seed, "size": "3y3"}).to_string(),
            "size: '3y3' is not a size",
        ),
        (
            json!({"start": seed, "size": "1x9"}).to_string(),
            "size: a 1x9 board is not supported",
        ),
        (
            json!({"start": seed, "size": [3, 3]}).to_string(),
            "size: write it as \"RxC\"",
        ),
        (
            json!({"start": seed, "timeout": -1}).to_string(),
            "timeout must be a positive number of seconds, not -1",
        ),
        (
            json!({"start": {"tiles": 9}}).to_string(),
            "start board: write it as text",
        ),
        (
            json!({"start": [[1, 2], [3, [0]]]}).to_string(),
            "start board: [0] is not a tile",
        ),
        (
            json!({"start": (0..121).rev().collect::<Vec<u32>>()}).to_string(),
            "a 11x11 board (121 cells) is larger than this server searches (at most 25 cells",
        ),
    ];
    for (body, want) in &cases {
        for uri in ["/api/solve", "/api/compare", "/api/parse"] {
            let (s, r) = call(&app, "POST", uri, Body::from(body.clone())).await;
            assert_eq!(s, StatusCode::BAD_REQUEST, "{uri} {want}: {r}");
            let msg = r["error"].as_str().unwrap();
            assert!(msg.contains(want), "{uri}: {msg:?} should say {want:?}");
        }
    }
    // Wrong method and unknown paths answer JSON too.
    let (s, r) = call(&app, "GET", "/api/solve", Body::empty()).await;
    assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED);
    assert!(r["error"].as_str().unwrap().contains("POST"));
    let (s, r) = call(&app, "GET", "/api/nothing", Body::empty()).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(r["error"].as_str().unwrap().contains("/api/nothing"));
}

#[tokio::test]
async fn serves_the_page_and_health() {
    let (config, _cache) = test_config();
    let app = server::router(config);
    for (path, kind, needle) in [
        ("/", "text/html", "id=\"board\""),
        ("/app.js", "text/javascript", "/api/parse"),
        ("/app.css", "text/css", ".board"),
    ] {
        let res = app
            .clone()
            .oneshot(Request::get(path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        let h = res.headers();
        assert!(h[header::CONTENT_TYPE].to_str().unwrap().starts_with(kind));
        let csp = h[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
        assert!(csp.contains("default-src 'self'"));
        let body = axum::body::to_bytes(res.into_body(), 1 << 20)
            .await
            .unwrap();
        let text = String::from_utf8(body.to_vec()).unwrap();
        assert!(text.contains(needle), "{path}");
        // Nothing from elsewhere: no CDN, no remote fonts.
        assert!(
            !text.contains("http://") && !text.contains("https://"),
            "{path}"
        );
    }
    let (s, r) = call(&app, "GET", "/api/health", Body::empty()).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(r["status"], "ok");
    assert_eq!(r["limits"]["body_bytes"], 65536);
    assert_eq!(r["searches"]["running"], 0);
}

#[tokio::test]
async fn bodies_over_64_kib_answer_413() {
    let (config, _cache) = test_config();
    let app = server::router(config);
    let big = format!("{{\"start\": \"{}\"}}", " ".repeat(70_000));
    // With a Content-Length header: refused before reading.
    let req = Request::post("/api/solve")
        .header(header::CONTENT_LENGTH, big.len())
        .body(Body::from(big.clone()))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
    // Without one: refused once 64 KiB have been read.
    let (s, r) = call(&app, "POST", "/api/compare", Body::from(big)).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(
        r["error"],
        json!("the request body is larger than 65536 bytes")
    );
    // Just under the limit is read (and then judged on its content).
    let ok = json!({"start": format!("2 8 3 1 6 4 7 0 5{}", " ".repeat(60_000))});
    let (s, r) = post(&app, "/api/solve", ok).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    check_report(&r);
}

/// The server asks the same planner as the command line: for a board
/// beyond the tables, the same plan whoever asks.
#[tokio::test]
async fn the_server_reports_the_command_lines_plan() {
    let (config, _cache) = test_config();
    let app = server::router(config);
    let start = "4 1 2 3 5 0 6 7 8 9 10 11 12 13 14 15";
    let (s, api) = post(
        &app,
        "/api/solve",
        json!({"start": start, "goal": "blank-first", "heuristic": "linear-conflict"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{api}");
    let out = npuzzle()
        .args([
            "solve",
            start,
            "--goal",
            "blank-first",
            "--heuristic",
            "linear-conflict",
            "--explain",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let cli = String::from_utf8(out.stdout).unwrap();
    assert_eq!(api["plan"].as_str(), Some(cli.trim_end()));
}

/// `npuzzle serve` with its caps as flags: `/api/health` shows them, and
/// Ctrl-C stops it promptly with exit 0.
#[test]
fn serve_takes_its_caps_as_flags_and_stops_on_ctrl_c() {
    use std::io::{BufRead, Read, Write};
    /// Kills the server if the test fails before stopping it.
    struct Server(std::process::Child);
    impl Drop for Server {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let cache = tempfile::tempdir().unwrap();
    let mut server = Server(
        npuzzle_process()
            .args(["serve", "--addr", "127.0.0.1:0", "--pdb-memory", "300M"])
            .args([
                "--pdb-disk",
                "1G",
                "--pdb-allow",
                "3x3:4-4",
                "--pdb-allow",
                "4x4:auto",
            ])
            .args(["--max-connections", "7", "--pdb-dir"])
            .arg(cache.path())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut out = std::io::BufReader::new(server.0.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("{line:?}"))
        .to_string();
    line.clear();
    out.read_line(&mut line).unwrap();
    assert_eq!(
        line,
        "pattern databases: at most 300 MiB in memory, 1.0 GiB on disk\n"
    );
    let mut s = std::net::TcpStream::connect(&addr).unwrap();
    s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let h: Value = serde_json::from_str(text.split_once("\r\n\r\n").unwrap().1).unwrap();
    assert_eq!(h["pdb"]["memory_cap"], 300 << 20, "{h}");
    assert_eq!(h["pdb"]["disk_cap"], 1 << 30, "{h}");
    assert_eq!(h["pdb"]["allow"], json!(["3x3:4-4", "4x4:auto"]), "{h}");
    assert_eq!(h["connections"]["cap"], 7, "{h}");
    let t = std::time::Instant::now();
    let killed = std::process::Command::new("kill")
        .args(["-INT", &server.0.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = server.0.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    assert!(t.elapsed() < std::time::Duration::from_secs(5));
}

/// Boards beyond 5x5 and up to 10x10 get the fast solver's answer (not the
/// fewest, with its lower bound); every board along it is a legal move.
#[tokio::test]
async fn big_boards_get_the_fast_answer() {
    let (config, _cache) = test_config();
    let app = server::router(config);
    // 10x10, reversed tiles (49 swaps) and one more swap, the blank last:
    // reachable
    let mut start: Vec<u32> = (1..100).rev().collect();
    start.swap(0, 1);
    start.push(0);
    let (s, r) = post(&app, "/api/solve", json!({ "start": start })).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(r["algorithm"], json!("fast"), "{r}");
    assert_eq!(r["optimal"], json!(false));
    let (moves, lower) = (
        r["moves"].as_u64().unwrap(),
        r["lower_bound"].as_u64().unwrap(),
    );
    assert!(lower > 0 && lower < moves, "{r}");
    let path = r["path"].as_str().unwrap();
    assert_eq!(path.len() as u64, moves);
    let boards: Vec<Vec<u32>> = serde_json::from_value(r["boards"].clone()).unwrap();
    assert_eq!(boards.len() as u64, moves + 1);
    assert_eq!(boards[0], start);
    let goal: Vec<u32> = (1..100).chain([0]).collect();
    assert_eq!(boards[boards.len() - 1], goal);
    for (i, d) in path.chars().enumerate() {
        let z = boards[i].iter().position(|&t| t == 0).unwrap();
        let to = match d {
            'U' => z - 10,
            'D' => z + 10,
            'L' => z - 1,
            'R' => z + 1,
            _ => panic!("bad move {d}"),
        };
        assert!(d != 'L' || z % 10 > 0);
        assert!(d != 'R' || z % 10 < 9);
        let mut b = boards[i].clone();
        b.swap(z, to);
        assert_eq!(b, boards[i + 1], "move {} ({d})", i + 1);
    }
    // a search by name is refused beyond 25 cells; compare too
    let (s, r) = post(
        &app,
        "/api/solve",
        json!({ "start": start, "algo": "idastar" }),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{r}");
    assert!(
        r["error"].as_str().unwrap().contains("up to 100 cells"),
        "{r}"
    );
    let (s, _) = post(&app, "/api/compare", json!({ "start": start })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
}
