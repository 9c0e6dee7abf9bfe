//! Load test of `npuzzle serve`, on 127.0.0.1 only and bounded in count
//! and time (run by `benches/server_load.sh`).
//!
//! Starts the server binary with a fresh pattern-database directory and
//! the caps given, then at once:
//! * REQUESTS mixed requests from WORKERS clients, one connection each:
//!   mostly cheap solves (3x3, and 4x4 a random walk of 30 moves from
//!   blank-last), some 3x3 compares, some bad input;
//! * SLOW slow-loris connections, kept up until the requests are done:
//!   half dribble their headers, half their body, a byte every 500 ms;
//! * GOALS requests, one after another, each for a new 4x4 goal (each
//!   builds that goal's databases).
//!
//! Then it reports cheap-request latency (p50/p99), answers lost (a request
//! without a complete response), how the slow connections ended, the
//! server's peak memory (VmHWM) and the growth of its cache directory
//! against the caps, and how long Ctrl-C took to stop the server.
//!
//! `server_load --npuzzle target/release/npuzzle [--requests 10000]
//! [--slow 200] [--goals 7] [--workers 16] [--pdb-memory 256M]
//! [--pdb-disk 512M] [--seed 1]`

mod client;

use client::{exchange, get, mixed, new_goal, post, slow_client, Kind, SlowTally};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::io::BufRead;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

struct Args {
    npuzzle: PathBuf,
    requests: usize,
    slow: usize,
    goals: usize,
    workers: usize,
    pdb_memory: String,
    pdb_disk: String,
    seed: u64,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        npuzzle: PathBuf::from("target/release/npuzzle"),
        requests: 10_000,
        slow: 200,
        goals: 7,
        workers: 16,
        pdb_memory: "256M".into(),
        pdb_disk: "512M".into(),
        seed: 1,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let num = || {
            value
                .parse::<usize>()
                .map_err(|_| format!("{flag}: '{value}' is not a number"))
        };
        match flag.as_str() {
            "--npuzzle" => a.npuzzle = PathBuf::from(&value),
            "--requests" => a.requests = num()?,
            "--slow" => a.slow = num()?,
            "--goals" => a.goals = num()?,
            "--workers" => a.workers = num()?.max(1),
            "--pdb-memory" => a.pdb_memory = value,
            "--pdb-disk" => a.pdb_disk = value,
            "--seed" => a.seed = num()? as u64,
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    Ok(a)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir).map_or(0, |d| {
        d.flatten()
            .filter_map(|e| e.metadata().ok())
            .map(|m| m.len())
            .sum()
    })
}

/// `VmHWM` (peak resident memory) of process `pid`, in bytes.
fn peak_rss(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

fn mib(b: u64) -> String {
    format!("{:.0} MiB", b as f64 / (1 << 20) as f64)
}

fn main() -> Result<(), String> {
    let a = args()?;
    let scratch = tempfile::tempdir().map_err(|e| e.to_string())?;
    let pdb_dir = scratch.path().join("pdb");
    std::fs::create_dir_all(&pdb_dir).map_err(|e| e.to_string())?;
    let mut server = Command::new(&a.npuzzle)
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--pdb-memory",
            &a.pdb_memory,
            "--pdb-disk",
            &a.pdb_disk,
        ])
        .arg("--pdb-dir")
        .arg(&pdb_dir)
        // Nothing of the server may land in the user's cache.
        .env("XDG_CACHE_HOME", scratch.path())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", a.npuzzle.display()))?;
    let mut out = std::io::BufReader::new(server.stdout.take().ok_or("no stdout")?);
    let mut line = String::new();
    out.read_line(&mut line).map_err(|e| e.to_string())?;
    let addr: SocketAddr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|a| a.parse().ok())
        .ok_or_else(|| format!("no address in {line:?}"))?;
    // Keep reading the server's output so that it never blocks on it.
    std::thread::spawn(move || for _ in out.lines() {});

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let report = rt.block_on(load(&a, addr, &pdb_dir, server));
    print!("{report}");
    Ok(())
}

/// Tries of a new-goal request that the server answers 503 (busy).
const GOAL_TRIES: usize = 40;

/// Largest size of the cache directory seen while the test ran.
static DISK_PEAK: AtomicUsize = AtomicUsize::new(0);

async fn load(
    a: &Args,
    addr: SocketAddr,
    pdb_dir: &Path,
    mut server: std::process::Child,
) -> String {
    let pid = server.id();
    // The 15-puzzle's usual goal first (its databases built, as they would
    // be cached on a server that has run before).
    let t = Instant::now();
    let warm = exchange(
        addr,
        post(
            "/api/solve",
            r#"{"start": "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"}"#,
        ),
    )
    .await;
    let warm = format!(
        "warm-up: blank-last 4x4 databases built and a solve answered ({}) in {:.1} s\n",
        warm.map_or_else(|e| format!("lost: {e}"), |(status, _)| status.to_string()),
        t.elapsed().as_secs_f64()
    );
    let t0 = Instant::now();
    let done = Arc::new(AtomicBool::new(false));
    let slow_tally = Arc::new(Mutex::new(SlowTally::default()));
    let mut slow = Vec::new();
    for i in 0..a.slow {
        slow.push(tokio::spawn(slow_client(
            addr,
            i % 2 == 1,
            done.clone(),
            slow_tally.clone(),
        )));
    }
    // The disk, sampled while everything runs.
    let watch_dir = pdb_dir.to_path_buf();
    let watching = done.clone();
    let disk = tokio::spawn(async move {
        while !watching.load(Ordering::Relaxed) {
            DISK_PEAK.fetch_max(dir_bytes(&watch_dir) as usize, Ordering::Relaxed);
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });

    // New goals, one after another, spread over the run.
    let mut rng = ChaCha8Rng::seed_from_u64(a.seed);
    let goal_requests: Vec<Vec<u8>> = (0..a.goals).map(|_| new_goal(&mut rng)).collect();
    let goals = tokio::spawn(async move {
        let mut out = Vec::new();
        for r in goal_requests {
            tokio::time::sleep(Duration::from_secs(2)).await;
            let t = Instant::now();
            // A busy server says so (503); a client tries again shortly.
            let mut tries = 0;
            let answer = loop {
                tries += 1;
                let a = exchange(addr, r.clone()).await;
                match &a {
                    Ok((503, _)) if tries < GOAL_TRIES => {
                        tokio::time::sleep(Duration::from_millis(500)).await;
                    }
                    _ => break a,
                }
            };
            out.push((answer, tries, t.elapsed()));
        }
        out
    });

    // The mixed requests, from a shared queue.
    let queue: Vec<(Kind, Vec<u8>)> = (0..a.requests).map(|i| mixed(i, &mut rng)).collect();
    let queue = Arc::new(Mutex::new(queue.into_iter()));
    let mut workers = Vec::new();
    for _ in 0..a.workers {
        let queue = queue.clone();
        workers.push(tokio::spawn(async move {
            let mut out = Vec::new();
            loop {
                let next = queue.lock().unwrap().next();
                let Some((kind, req)) = next else { break };
                let t = Instant::now();
                let r = exchange(addr, req).await;
                out.push((kind, r, t.elapsed()));
            }
            out
        }));
    }
    let mut results = Vec::new();
    for w in workers {
        results.extend(w.await.unwrap_or_default());
    }
    let mixed_secs = t0.elapsed().as_secs_f64();
    let goal_results = goals.await.unwrap_or_default();
    let health = exchange(addr, get("/api/health")).await;
    let peak = peak_rss(pid);
    let disk_end = dir_bytes(pdb_dir);
    // Ctrl-C with the slow connections still open: how long until the
    // server has stopped.
    let t = Instant::now();
    let _ = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status();
    let stopped = tokio::task::spawn_blocking(move || server.wait()).await;
    let stop = t.elapsed();
    done.store(true, Ordering::Relaxed);
    for s in slow {
        let _ = s.await;
    }
    let _ = disk.await;

    // Tallies.
    let mut lost = Vec::new();
    let mut statuses: BTreeMap<(Kind, u16), usize> = BTreeMap::new();
    let mut cheap: Vec<Duration> = Vec::new();
    let mut per_kind: BTreeMap<Kind, Vec<Duration>> = BTreeMap::new();
    let mut wrong = 0;
    for (kind, r, took) in &results {
        match r {
            Ok((status, v)) => {
                *statuses.entry((*kind, *status)).or_default() += 1;
                per_kind.entry(*kind).or_default().push(*took);
                if matches!(kind, Kind::Solve3 | Kind::Solve4) && *status == 200 {
                    cheap.push(*took);
                    let moves = v["moves"].as_u64();
                    let path = v["path"].as_str().map(str::len);
                    if moves.is_none() || moves.map(|m| m as usize) != path {
                        wrong += 1;
                    }
                }
            }
            Err(e) => lost.push(format!("{kind:?}: {e}")),
        }
    }
    cheap.sort();
    let mut s = warm;
    use std::fmt::Write;
    let _ = writeln!(
        s,
        "mixed requests: {} in {:.1} s from {} clients ({:.0}/s), with {} slow connections and {} new 4x4 goals alongside",
        results.len(),
        mixed_secs,
        a.workers,
        results.len() as f64 / mixed_secs,
        a.slow,
        a.goals
    );
    let _ = writeln!(
        s,
        "cheap solves answered 200: {}; latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        cheap.len(),
        percentile(&cheap, 0.5).as_secs_f64() * 1e3,
        percentile(&cheap, 0.99).as_secs_f64() * 1e3,
        cheap.last().copied().unwrap_or_default().as_secs_f64() * 1e3
    );
    for (kind, mut v) in per_kind {
        v.sort();
        let _ = writeln!(
            s,
            "  {kind:?}: {} requests, p50 {:.1} ms, p99 {:.1} ms",
            v.len(),
            percentile(&v, 0.5).as_secs_f64() * 1e3,
            percentile(&v, 0.99).as_secs_f64() * 1e3
        );
    }
    let st: Vec<String> = statuses
        .iter()
        .map(|((k, c), n)| format!("{k:?} {c}: {n}"))
        .collect();
    let _ = writeln!(s, "statuses: {}", st.join(", "));
    let _ = writeln!(
        s,
        "answers lost: {} {:?}",
        lost.len(),
        &lost[..lost.len().min(5)]
    );
    let _ = writeln!(
        s,
        "solve answers whose path does not match its length: {wrong}"
    );
    for (i, (r, tries, took)) in goal_results.iter().enumerate() {
        let what = match r {
            Ok((status, v)) => format!(
                "{status} {}",
                if *status == 200 {
                    format!("{} moves", v["moves"])
                } else {
                    v["error"].to_string()
                }
            ),
            Err(e) => {
                lost.push(format!("new goal {i}: {e}"));
                format!("lost: {e}")
            }
        };
        let _ = writeln!(
            s,
            "new goal {}: {what} in {:.1} s ({tries} tr{})",
            i + 1,
            took.as_secs_f64(),
            if *tries == 1 { "y" } else { "ies" }
        );
    }
    let t = slow_tally.lock().unwrap();
    let _ = writeln!(
        s,
        "slow connections: {} opened; closed by the server: {} with 408 (body), {} without an answer (headers, or at shutdown); {} still open when the test ended; longest {:.1} s",
        t.opened,
        t.answered_408,
        t.closed,
        t.cut_by_us,
        t.longest.as_secs_f64()
    );
    if let Ok((_, h)) = health {
        let p = &h["pdb"];
        let _ = writeln!(
            s,
            "server at the end: {} databases, {} in memory, {} on disk; searches {}; connections {}",
            p["databases"],
            mib(p["memory_bytes"].as_u64().unwrap_or(0)),
            mib(p["disk_bytes"].as_u64().unwrap_or(0)),
            h["searches"],
            h["connections"]
        );
    }
    let _ = writeln!(
        s,
        "total answers lost (mixed and new goals): {}",
        lost.len()
    );
    let _ = writeln!(
        s,
        "server: peak RSS (VmHWM) {}; cache directory grew by {} (peak seen {}) against --pdb-disk {}; --pdb-memory {}",
        peak.map_or("unknown".into(), mib),
        mib(disk_end),
        mib(DISK_PEAK.load(Ordering::Relaxed) as u64),
        a.pdb_disk,
        a.pdb_memory
    );
    let _ = writeln!(
        s,
        "server: stopped {:.2} s after Ctrl-C with the slow connections open ({})",
        stop.as_secs_f64(),
        match stopped {
            Ok(Ok(status)) => status.to_string(),
            Ok(Err(e)) => e.to_string(),
            Err(e) => e.to_string(),
        }
    );
    s
}
