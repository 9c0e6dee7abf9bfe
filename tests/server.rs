//! The JSON API, in process (tower `oneshot`) and over a real socket on
//! 127.0.0.1: answers checked against a plain BFS written here and against
//! `npuzzle solve --json`, every kind of bad input, the body limit, many
//! requests at once with one hard search among them, and cancellation when
//! the client goes away.

use assert_cmd::Command;
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use npuzzle::server::{self, Config};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};
use tower::ServiceExt;

/// Korf's instance 3 (59 moves, 566 million nodes for IDA* with Manhattan
/// distance): far beyond a few seconds' budget.
const HARD_4X4: &str = "14 7 8 2 13 11 10 4 9 12 5 0 3 6 1 15";

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

/// Fewest moves by breadth-first search over whole boards: slow and plain,
/// sharing no code with the library's searches.
fn bfs_moves(rows: usize, cols: usize, start: &[u8], goal: &[u8]) -> Option<u32> {
    let mut dist: HashMap<Vec<u8>, u32> = HashMap::from([(start.to_vec(), 0)]);
    let mut queue = VecDeque::from([start.to_vec()]);
    while let Some(b) = queue.pop_front() {
        let d = dist[&b];
        if b == goal {
            return Some(d);
        }
        let z = b.iter().position(|&t| t == 0).unwrap();
        let (r, c) = (z / cols, z % cols);
        let mut next = Vec::new();
        if r > 0 {
            next.push(z - cols);
        }
        if r + 1 < rows {
            next.push(z + cols);
        }
        if c > 0 {
            next.push(z - 1);
        }
        if c + 1 < cols {
            next.push(z + 1);
        }
        for n in next {
            let mut s = b.clone();
            s.swap(z, n);
            if !dist.contains_key(&s) {
                dist.insert(s.clone(), d + 1);
                queue.push_back(s);
            }
        }
    }
    None
}

fn tiles(v: &Value) -> Vec<u8> {
    serde_json::from_value(v.clone()).unwrap()
}

/// Checks a solve answer: the boards follow the path one legal move at a
/// time from the start to the goal, and the length is BFS's.
fn check_report(r: &Value) {
    let (rows, cols) = (
        r["rows"].as_u64().unwrap() as usize,
        r["cols"].as_u64().unwrap() as usize,
    );
    let (start, goal) = (tiles(&r["start"]), tiles(&r["goal"]));
    let want = bfs_moves(rows, cols, &start, &goal);
    assert_eq!(r["moves"].as_i64(), Some(want.map_or(-1, i64::from)), "{r}");
    assert_eq!(r["solvable"], json!(want.is_some()));
    let Some(m) = want else {
        assert!(r["path"].is_null());
        return;
    };
    let path = r["path"].as_str().unwrap();
    assert_eq!(path.len(), m as usize);
    let boards: Vec<Vec<u8>> = serde_json::from_value(r["boards"].clone()).unwrap();
    assert_eq!(boards.len(), path.len() + 1);
    assert_eq!(boards[0], start);
    assert_eq!(boards[boards.len() - 1], goal);
    for (i, d) in path.chars().enumerate() {
        let z = boards[i].iter().position(|&t| t == 0).unwrap();
        let to = match d {
            'U' => z - cols,
            'D' => z + cols,
            'L' => z - 1,
            'R' => z + 1,
            _ => panic!("bad move {d}"),
        };
        let mut b = boards[i].clone();
        b.swap(z, to);
        assert_eq!(b, boards[i + 1], "move {} ({d})", i + 1);
    }
}

#[tokio::test]
async fn seed_examples_and_an_unreachable_pair() {
    let app = server::router(Config::default());
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
    }
}

#[tokio::test]
async fn accepts_every_board_form_and_named_goals() {
    let app = server::router(Config::default());
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

/// `/api/solve` answers what `npuzzle solve --json --boards` prints.
#[tokio::test]
async fn solve_answers_what_the_command_line_prints() {
    let app = server::router(Config::default());
    let (_, mut api) = post(
        &app,
        "/api/solve",
        json!({"start": "2 6 4 1 3 7 0 5 8", "goal": "8 1 5 7 3 6 4 0 2"}),
    )
    .await;
    let out = Command::cargo_bin("npuzzle")
        .unwrap()
        .args([
            "solve",
            "--json",
            "--boards",
            "2 6 4 1 3 7 0 5 8",
            "--goal",
            "8 1 5 7 3 6 4 0 2",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let mut cli: Value = serde_json::from_slice(&out.stdout).unwrap();
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
    let app = server::router(Config::default());
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
        let out = Command::cargo_bin("npuzzle")
            .unwrap()
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(
            format!("npuzzle: {}\n", r["error"].as_str().unwrap()),
            stderr,
            "{args:?}"
        );
    }
}

#[tokio::test]
async fn bad_requests_answer_400_naming_the_problem() {
    let app = server::router(Config::default());
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
            json!({"start": (0..36).rev().collect::<Vec<u32>>()}).to_string(),
            "a 6x6 board (36 cells) is larger than this server searches (at most 25 cells",
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
    let app = server::router(Config::default());
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
    let app = server::router(Config::default());
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

// ---- Over a real socket ---------------------------------------------------

/// A server on 127.0.0.1 with a free port.
struct Running {
    addr: std::net::SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
}

impl Running {
    async fn start(config: Config) -> Running {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(server::serve(listener, config, async {
            let _ = rx.await;
        }));
        Running {
            addr,
            stop: Some(tx),
            task: Some(task),
        }
    }

    async fn stop(mut self) {
        let _ = self.stop.take().map(|s| s.send(()));
        let task = self.task.take().unwrap();
        tokio::time::timeout(Duration::from_secs(10), task)
            .await
            .expect("graceful shutdown within 10 s")
            .unwrap()
            .unwrap();
    }
}

/// One request on its own connection: the status and the JSON answer.
async fn request(addr: std::net::SocketAddr, method: &str, path: &str, body: &str) -> (u16, Value) {
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    raw(addr, &[head.as_bytes(), body.as_bytes()].concat()).await
}

async fn raw(addr: std::net::SocketAddr, bytes: &[u8]) -> (u16, Value) {
    // Plain blocking sockets on the blocking pool: a client as dumb as curl.
    let bytes = bytes.to_vec();
    tokio::task::spawn_blocking(move || {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        s.write_all(&bytes).unwrap();
        let mut out = Vec::new();
        // The server may close early (413) while we still write: read what came.
        let _ = s.read_to_end(&mut out);
        let text = String::from_utf8_lossy(&out);
        let status = text.get(9..12).and_then(|c| c.parse().ok()).unwrap_or(0);
        let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        (status, serde_json::from_str(body).unwrap_or(Value::Null))
    })
    .await
    .unwrap()
}

async fn health(addr: std::net::SocketAddr) -> Value {
    request(addr, "GET", "/api/health", "").await.1
}

/// A random 3x3 start (a walk from the goal) for the cheap requests.
fn cheap_board(rng: &mut ChaCha8Rng) -> String {
    let mut b: Vec<u8> = vec![1, 2, 3, 4, 5, 6, 7, 8, 0];
    for _ in 0..60 {
        let z = b.iter().position(|&t| t == 0).unwrap();
        let mut opts = Vec::new();
        if z >= 3 {
            opts.push(z - 3);
        }
        if z + 3 < 9 {
            opts.push(z + 3);
        }
        if z % 3 > 0 {
            opts.push(z - 1);
        }
        if z % 3 < 2 {
            opts.push(z + 1);
        }
        let n = opts[rng.gen_range(0..opts.len())];
        b.swap(z, n);
    }
    b.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
}

fn hard_body(heuristic: &str, timeout: u32) -> String {
    json!({"start": HARD_4X4, "goal": "blank-first", "algo": "idastar",
           "heuristic": heuristic, "timeout": timeout})
    .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streamed_bodies_over_the_limit_answer_413() {
    let srv = Running::start(Config::default()).await;
    let mut req = b"POST /api/solve HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".to_vec();
    for _ in 0..10 {
        req.extend_from_slice(format!("{:x}\r\n{}\r\n", 8000, " ".repeat(8000)).as_bytes());
    }
    req.extend_from_slice(b"0\r\n\r\n");
    let (status, r) = raw(srv.addr, &req).await;
    assert_eq!(status, 413, "{r}");
    assert_eq!(
        r["error"],
        json!("the request body is larger than 65536 bytes")
    );
    srv.stop().await;
}

/// Many cheap requests at once with one hard search among them: the cheap
/// ones are answered while the hard one runs, and the hard one stops at its
/// budget with a clear error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cheap_requests_are_answered_while_a_hard_one_runs() {
    let srv = Running::start(Config::default()).await;
    let addr = srv.addr;
    let hard = tokio::spawn(async move {
        let t = Instant::now();
        let (s, r) = request(addr, "POST", "/api/solve", &hard_body("manhattan", 3)).await;
        (s, r, t.elapsed())
    });
    // Let the hard one start first.
    tokio::time::sleep(Duration::from_millis(150)).await;
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let mut cheap = Vec::new();
    for i in 0..40 {
        let start = cheap_board(&mut rng);
        let uri = if i % 4 == 3 {
            "/api/compare"
        } else {
            "/api/solve"
        };
        cheap.push(tokio::spawn(async move {
            let t = Instant::now();
            let body = json!({"start": start, "goal": "blank-last"}).to_string();
            let (s, r) = request(addr, "POST", uri, &body).await;
            (uri, start, s, r, t.elapsed())
        }));
    }
    let mut slowest = Duration::ZERO;
    for c in cheap {
        let (uri, start, s, r, took) = c.await.unwrap();
        assert_eq!(s, 200, "{uri} {start}: {r}");
        if uri == "/api/solve" {
            check_report(&r);
        } else {
            let b: Vec<u8> = start.split(' ').map(|t| t.parse().unwrap()).collect();
            let want = bfs_moves(3, 3, &b, &[1, 2, 3, 4, 5, 6, 7, 8, 0]).unwrap();
            let rows = r["rows"].as_array().unwrap();
            assert!(rows.iter().any(|row| row["moves"] == json!(want)), "{r}");
            assert_eq!(r["agree"], json!(true), "{r}");
        }
        slowest = slowest.max(took);
    }
    let (s, r, hard_took) = hard.await.unwrap();
    match s {
        // Spent its budget: a clear error naming the budget.
        422 => {
            let msg = r["error"].as_str().unwrap();
            assert!(msg.contains("budget"), "{msg}");
            assert!(
                slowest < hard_took,
                "cheap requests waited for the hard one: slowest {slowest:?}, hard {hard_took:?}"
            );
        }
        // An IDA* fast enough to finish: then it must be right.
        200 => assert_eq!(r["moves"], json!(59)),
        // No 4x4 search on this build yet.
        400 => {
            let msg = r["error"].as_str().unwrap();
            assert!(msg.contains("not supported"), "{msg}");
            println!("note: 4x4 search unsupported on this build ({msg}); checked the cheap requests only");
        }
        other => panic!("hard request answered {other}: {r}"),
    }
    let h = health(addr).await;
    assert_eq!(h["searches"]["running"], 0, "{h}");
    srv.stop().await;
}

/// A client that goes away cancels its search (the cancel flag of its
/// budget is raised when the request future is dropped).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_disconnects_cancels_its_search() {
    use std::io::Write;
    let srv = Running::start(Config::default()).await;
    let body = hard_body("misplaced", 60);
    let mut s = std::net::TcpStream::connect(srv.addr).unwrap();
    let head = format!(
        "POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    if health(srv.addr).await["searches"]["running"] == 0 {
        println!(
            "note: the hard search did not run on this build (no 4x4 IDA*?); nothing to cancel"
        );
        drop(s);
        srv.stop().await;
        return;
    }
    drop(s);
    let t = Instant::now();
    loop {
        let h = health(srv.addr).await;
        let q = &h["searches"];
        if q["running"] == 0 && q["heavy_free"] == q["heavy_slots"] {
            assert_eq!(q["abandoned"], 1, "{h}");
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "search still running: {h}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    srv.stop().await;
}

/// Ctrl-C (here: the shutdown future) cancels running searches, so the
/// server stops promptly even mid-search.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_cancels_running_searches() {
    let srv = Running::start(Config::default()).await;
    let addr = srv.addr;
    let pending = tokio::spawn(async move {
        request(addr, "POST", "/api/solve", &hard_body("misplaced", 60)).await
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let t = Instant::now();
    srv.stop().await;
    assert!(t.elapsed() < Duration::from_secs(10));
    let (status, r) = pending.await.unwrap();
    // 503 cancelled (it was running), or 400 when this build has no 4x4 search.
    assert!(status == 503 || status == 400, "{status} {r}");
}
