//! The load test's clients: requests and their answers, the mix of
//! requests, slow-loris connections.

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Longest any one exchange may take before it counts as lost.
const EXCHANGE_LIMIT: Duration = Duration::from_secs(60);

/// What one request was, for the tallies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Kind {
    Solve3,
    Solve4,
    Compare,
    Bad,
}

/// A complete response, or why there was none.
type Exchange = Result<(u16, Value), String>;

/// Sends one request on its own connection and reads the whole response.
pub(crate) async fn exchange(addr: SocketAddr, request: Vec<u8>) -> Exchange {
    let run = async {
        let mut s = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
        // A server that refuses early may close while we still write; the
        // answer is what counts.
        let _ = s.write_all(&request).await;
        let mut buf = Vec::new();
        s.read_to_end(&mut buf).await.map_err(|e| e.to_string())?;
        parse_response(&buf)
    };
    tokio::time::timeout(EXCHANGE_LIMIT, run)
        .await
        .unwrap_or_else(|_| Err("no answer within 60 s".into()))
}

fn parse_response(buf: &[u8]) -> Exchange {
    let text = std::str::from_utf8(buf).map_err(|_| "not UTF-8".to_string())?;
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("incomplete head ({} bytes)", buf.len()))?;
    let status: u16 = head
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .ok_or("no status")?;
    let length: usize = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse().ok())?
        })
        .ok_or("no content-length")?;
    if body.len() != length {
        return Err(format!("body of {} bytes, announced {length}", body.len()));
    }
    let v = serde_json::from_str(body).map_err(|e| format!("body not JSON: {e}"))?;
    Ok((status, v))
}

pub(crate) fn post(path: &str, body: &str) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nHost: load\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

pub(crate) fn get(path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: load\r\nConnection: close\r\n\r\n").into_bytes()
}

fn text(tiles: &[u8]) -> String {
    tiles
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `steps` random moves of the blank from `goal`.
fn walk(rng: &mut ChaCha8Rng, goal: &[u8], cols: usize, steps: usize) -> Vec<u8> {
    let n = goal.len();
    let mut b = goal.to_vec();
    let mut last = usize::MAX;
    for _ in 0..steps {
        let z = b.iter().position(|&t| t == 0).unwrap_or(0);
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
        // no immediate undo, so that walks go somewhere
        next.retain(|&c| c != last);
        let to = next[rng.gen_range(0..next.len())];
        b.swap(z, to);
        last = z;
    }
    b
}

fn blank_last(n: usize) -> Vec<u8> {
    (1..n as u8).chain([0]).collect()
}

/// The i-th request of the mix: 45% 3x3 solves, 35% 4x4 solves, 10% 3x3
/// compares, 10% bad input of several kinds.
pub(crate) fn mixed(i: usize, rng: &mut ChaCha8Rng) -> (Kind, Vec<u8>) {
    match i % 20 {
        0..=8 => {
            let b = walk(rng, &blank_last(9), 3, 40);
            (
                Kind::Solve3,
                post("/api/solve", &json!({"start": text(&b)}).to_string()),
            )
        }
        9..=15 => {
            let b = walk(rng, &blank_last(16), 4, 30);
            (
                Kind::Solve4,
                post("/api/solve", &json!({"start": text(&b)}).to_string()),
            )
        }
        16 | 17 => {
            let b = walk(rng, &blank_last(9), 3, 40);
            (
                Kind::Compare,
                post("/api/compare", &json!({"start": text(&b)}).to_string()),
            )
        }
        _ => {
            let bad = match (i / 20) % 7 {
                0 => post("/api/solve", "{\"start\": "),
                1 => post("/api/solve", r#"{"start": "1 2 3 4 5 6 7 8 8"}"#),
                2 => post(
                    "/api/solve",
                    &json!({"start": (0..36).rev().collect::<Vec<u32>>()}).to_string(),
                ),
                3 => post("/api/compare", r#"{"start": "1 2 3", "algorithm": "bfs"}"#),
                4 => get("/api/solve"),
                5 => get("/api/nothing"),
                // Declares a body over the limit (and sends none of it).
                _ => b"POST /api/solve HTTP/1.1\r\nHost: load\r\nContent-Length: 70000\r\nConnection: close\r\n\r\n".to_vec(),
            };
            (Kind::Bad, bad)
        }
    }
}

/// A new 4x4 goal and a start 25 moves from it.
pub(crate) fn new_goal(rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut goal: Vec<u8> = (0..16).collect();
    goal.shuffle(rng);
    let start = walk(rng, &goal, 4, 25);
    post(
        "/api/solve",
        &json!({"start": text(&start), "goal": text(&goal)}).to_string(),
    )
}

/// How slow connections ended.
#[derive(Default, Debug)]
pub(crate) struct SlowTally {
    pub(crate) opened: usize,
    /// Closed by the server with a 408 answer (dribbled body).
    pub(crate) answered_408: usize,
    /// Closed by the server without an answer (dribbled headers).
    pub(crate) closed: usize,
    /// Still open when the test ended.
    pub(crate) cut_by_us: usize,
    pub(crate) longest: Duration,
}

/// One slow-loris client: dribbles headers (or a body) a byte every
/// 500 ms until the server closes, then starts again, until `done`.
pub(crate) async fn slow_client(
    addr: SocketAddr,
    body: bool,
    done: Arc<AtomicBool>,
    tally: Arc<Mutex<SlowTally>>,
) {
    let head: &[u8] = b"POST /api/solve HTTP/1.1\r\nHost: load\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n";
    while !done.load(Ordering::Relaxed) {
        let Ok(mut s) = TcpStream::connect(addr).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        tally.lock().unwrap().opened += 1;
        let t = Instant::now();
        let (sent_at_once, dribble): (&[u8], &[u8]) = if body {
            (head, b"{\"start\": \"1 2 3 4 5 6 7 8 0\"                                                            ")
        } else {
            (b"", head)
        };
        let mut closed = s.write_all(sent_at_once).await.is_err();
        let mut i = 0;
        let mut buf = [0u8; 4096];
        let mut got = Vec::new();
        while !closed && !done.load(Ordering::Relaxed) {
            if i < dribble.len() && s.write_all(&dribble[i..i + 1]).await.is_err() {
                closed = true;
                break;
            }
            i += 1;
            // Anything from the server (an answer, or EOF) within 500 ms?
            match tokio::time::timeout(Duration::from_millis(500), s.read(&mut buf)).await {
                Ok(Ok(0)) | Ok(Err(_)) => closed = true,
                Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
                Err(_) => {}
            }
        }
        let mut t_ = tally.lock().unwrap();
        if closed {
            if got.starts_with(b"HTTP/1.1 408") {
                t_.answered_408 += 1;
            } else {
                t_.closed += 1;
            }
            t_.longest = t_.longest.max(t.elapsed());
        } else {
            t_.cut_by_us += 1;
        }
    }
}
