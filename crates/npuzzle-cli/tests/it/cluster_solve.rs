//! `npuzzle solve --engine timely` as several processes on 127.0.0.1:
//! optimal lengths checked against the published ones (Korf's 15-puzzles)
//! and against the local search (whose exhausted iterations it must match
//! node for node), paths replayed, a process that dies, processes asked
//! different things, and what the engine refuses.

use crate::support::cli::{npuzzle, stdout_of};
use crate::support::ports::hostfile;
use crate::support::procs::{cluster_process, wait};
use npuzzle::{parse_board, Dir};
use predicates::prelude::*;
use std::path::{Path, PathBuf};
use std::process::{Child, Output};
use std::time::Duration;

/// Far more than any of these runs takes; only a hang reaches it.
const LIMIT: Duration = Duration::from_secs(120);
const KORF_GOAL: &str = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";

fn spawn(hosts: &Path, n: usize, i: usize, args: &[&str]) -> Child {
    cluster_process(&["solve", "--workers", "1"], hosts, n, i, args)
}

/// `npuzzle solve --engine timely ARGS` as `n` processes of one worker
/// each; every process's output, in process order.
fn cluster(n: usize, args: &[&str]) -> Vec<Output> {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let (hosts, _) = hostfile(dir.path(), n);
    let children: Vec<Child> = (0..n).map(|i| spawn(&hosts, n, i, args)).collect();
    children.into_iter().map(|c| wait(c, LIMIT)).collect()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Asserts that `out`'s standard error says `what`.
fn says(out: &Output, what: &str) {
    let err = text(&out.stderr);
    assert!(err.contains(what), "not '{what}' in:\n{err}");
}

/// Process 0's standard output of a run every process of which
/// succeeded; the others print nothing.
fn answer(outs: &[Output]) -> String {
    for (i, o) in outs.iter().enumerate() {
        assert!(o.status.success(), "process {i}: {}", text(&o.stderr));
        if i > 0 {
            assert!(
                o.stdout.is_empty(),
                "process {i} printed {}",
                text(&o.stdout)
            );
        }
    }
    text(&outs[0].stdout)
}

/// Plays `path` (blank letters) from `start`; the board reached.
fn replay(start: &str, path: &str) -> npuzzle::Board {
    let mut b = parse_board(start, None).unwrap();
    for c in path.chars() {
        let d = Dir::from_letter(c).unwrap();
        b = b.moved(d).unwrap();
    }
    b
}

/// The bounds and node counts of `--stats`' iterations but the last (the
/// exhausted ones, which every search of them must count alike).
fn exhausted(stats: &str) -> Vec<String> {
    let its: Vec<String> = stats
        .lines()
        .filter(|l| l.trim_start().starts_with("bound "))
        .map(|l| l.split(" nodes").next().unwrap_or("").trim().to_string())
        .collect();
    its[..its.len().saturating_sub(1)].to_vec()
}

/// Korf's instance `i` (from 1): its tiles and published length.
fn korf(i: usize) -> (String, u32) {
    let data =
        std::fs::read_to_string(crate::support::cli::root().join("data/korf100.txt")).unwrap();
    let line = data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .nth(i - 1)
        .unwrap();
    let f: Vec<&str> = line.split_whitespace().collect();
    (f[..16].join(" "), f[16].parse().unwrap())
}

#[test]
fn korf_instances_on_two_and_four_processes_have_the_published_lengths() {
    // the five with the fewest nodes in Korf's table
    for i in [79, 12, 42, 55, 97] {
        let (start, length) = korf(i);
        let args = ["--goal", KORF_GOAL, "--path", "--stats", start.as_str()];
        // builds the databases in the test cache first, and is the
        // sequential search whose exhausted iterations are compared
        let local = stdout_of(&[
            "solve", "--algo", "idastar", "--goal", KORF_GOAL, "--stats", &start,
        ]);
        assert_eq!(local.lines().next(), Some(length.to_string().as_str()));
        for n in [2, 4] {
            let out = answer(&cluster(n, &args));
            let mut lines = out.lines();
            assert_eq!(
                lines.next(),
                Some(length.to_string().as_str()),
                "#{i}, {n} processes"
            );
            let path = lines.next().unwrap();
            assert_eq!(path.len() as u32, length);
            assert_eq!(
                replay(&start, path),
                parse_board(KORF_GOAL, None).unwrap(),
                "#{i}"
            );
            assert_eq!(exhausted(&out), exhausted(&local), "#{i}, {n} processes");
        }
    }
}

#[test]
fn small_boards_and_five_by_five_walks_match_the_local_search() {
    let walks = stdout_of(&[
        "random", "--size", "5x5", "--moves", "36", "--count", "3", "--seed", "29",
    ]);
    let mut boards: Vec<(String, String)> = walks
        .lines()
        .map(|l| {
            (
                l.to_string(),
                "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 0".to_string(),
            )
        })
        .collect();
    // the 8-puzzle's hardest and an unreachable one
    boards.push(("8 6 7 2 5 4 3 0 1".into(), "1 2 3 4 5 6 7 8 0".into()));
    boards.push(("2 1 3 4 5 6 7 8 0".into(), "1 2 3 4 5 6 7 8 0".into()));
    for (start, goal) in &boards {
        let common = ["--heuristic", "linear-conflict", "--goal", goal, "--stats"];
        let local = stdout_of(&[&["solve", "--algo", "idastar"][..], &common, &[start]].concat());
        let args = [&common[..], &["--path", start]].concat();
        let out = answer(&cluster(2, &args));
        let length = local.lines().next().unwrap();
        assert_eq!(out.lines().next(), Some(length), "{start}");
        if length != "-1" {
            let path = out.lines().nth(1).unwrap();
            assert_eq!(
                replay(start, path),
                parse_board(goal, None).unwrap(),
                "{start}"
            );
        }
        assert_eq!(exhausted(&out), exhausted(&local), "{start}");
    }
}

#[test]
fn a_process_that_dies_ends_the_other_with_one_error() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let (hosts, _) = hostfile(dir.path(), 2);
    // a search of hours: misplaced tiles on a deep 5x5 walk
    let walk = stdout_of(&[
        "random", "--size", "5x5", "--moves", "200", "--count", "1", "--seed", "3",
    ]);
    // The checkpoint, written after the first round, says the search is
    // under way (a process killed before it connected would leave the
    // other waiting for it: a peer that never came).
    let ck = dir.path().join("dies.ckpt");
    let ck = ck.to_str().unwrap();
    let args = [
        "--heuristic",
        "misplaced",
        "--checkpoint",
        ck,
        "--checkpoint-every",
        "0",
        walk.trim(),
    ];
    let zero = spawn(&hosts, 2, 0, &args);
    let mut one = spawn(&hosts, 2, 1, &args);
    // both have saved: the hint names process 0's file
    let parts = [0, 1].map(|i| PathBuf::from(format!("{ck}.p{i}-of-2")));
    let t0 = std::time::Instant::now();
    while !parts.iter().all(|p| p.exists()) && t0.elapsed() < LIMIT {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(
        one.try_wait().unwrap().is_none(),
        "the search ended before the kill"
    );
    one.kill().unwrap();
    let _ = one.wait();
    let t0 = std::time::Instant::now();
    let out = wait(zero, Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    // the error, and how to go on from the checkpoint
    let (hint, lines): (Vec<&str>, Vec<&str>) = err
        .lines()
        .partition(|l| l.starts_with("npuzzle: the search is saved in"));
    assert_eq!(lines.len(), 1, "one error line, not:\n{err}");
    assert!(lines[0].contains("lost process 1"), "{err}");
    assert_eq!(hint.len(), 1, "{err}");
    assert!(
        hint[0].contains("p0-of-2") && hint[0].contains("--resume"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(t0.elapsed() < Duration::from_secs(20), "{:?}", t0.elapsed());
}

#[test]
fn processes_asked_different_boards_refuse_alike() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let (hosts, _) = hostfile(dir.path(), 2);
    let zero = spawn(&hosts, 2, 0, &["8 6 7 2 5 4 3 0 1"]);
    let one = spawn(&hosts, 2, 1, &["8 6 7 2 5 4 3 1 0"]);
    for out in [wait(zero, LIMIT), wait(one, LIMIT)] {
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        says(&out, "processes 0 and 1 disagree on the start");
    }
}

#[test]
fn what_the_timely_engine_refuses() {
    let board = "8 6 7 2 5 4 3 0 1";
    for (args, what) in [
        (
            &["--workers", "2"][..],
            "--workers is an option of --engine timely",
        ),
        (&["--engine", "timely", "--algo", "astar"][..], "runs IDA*"),
        (
            &["--engine", "timely", "--metric", "mtm"][..],
            "single-tile moves",
        ),
        (
            &["--engine", "timely", "--threads", "2"][..],
            "does not take --threads",
        ),
        (&["--engine", "timely", "--all"][..], "does not take --all"),
        (
            &["--processes", "2"][..],
            "--processes is an option of --engine timely",
        ),
        (
            &["--engine", "timely", "--processes", "2", "--process", "2"][..],
            "is not below",
        ),
        (
            &["--engine", "timely", "--goal", "1 2 3/* * */* * 0"][..],
            "not a partial goal",
        ),
    ] {
        npuzzle()
            .arg("solve")
            .args(args)
            .arg(board)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(what));
    }
}

#[test]
fn one_process_of_two_workers_answers_as_the_local_search() {
    let board = "5 1 2 3 9 6 7 4 13 10 11 8 0 14 15 12";
    let out = stdout_of(&[
        "solve",
        "--engine",
        "timely",
        "--workers",
        "2",
        "--heuristic",
        "manhattan",
        "--json",
        board,
    ]);
    let local = stdout_of(&[
        "solve",
        "--heuristic",
        "manhattan",
        "--algo",
        "idastar",
        "--json",
        board,
    ]);
    let moves = |s: &str| serde_json::from_str::<serde_json::Value>(s).unwrap()["moves"].clone();
    assert_eq!(moves(&out), moves(&local));
}

/// A 58-move 5x5 walk that Manhattan-distance IDA* takes about 146
/// million nodes to solve (a few seconds on two cores).
fn long_walk() -> String {
    stdout_of(&[
        "random", "--size", "5x5", "--moves", "100", "--count", "1", "--seed", "1",
    ])
    .trim()
    .to_string()
}

#[test]
fn a_run_stopped_by_its_budget_resumes_from_its_checkpoints() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let ck = dir.path().join("walk.ckpt");
    let ck = ck.to_str().unwrap();
    let walk = stdout_of(&[
        "random", "--size", "5x5", "--moves", "100", "--count", "1", "--seed", "3",
    ]);
    let walk = walk.trim();
    let local = stdout_of(&[
        "solve",
        "--algo",
        "idastar",
        "--heuristic",
        "linear-conflict",
        "--stats",
        walk,
    ]);
    let common = [
        "--heuristic",
        "linear-conflict",
        "--stats",
        "--checkpoint",
        ck,
        "--checkpoint-every",
        "0",
    ];
    let stopped = cluster(
        2,
        &[&common[..], &["--max-nodes", "1000000", walk]].concat(),
    );
    let parts = [format!("{ck}.p0-of-2"), format!("{ck}.p1-of-2")];
    for (i, out) in stopped.iter().enumerate() {
        assert_eq!(
            out.status.code(),
            Some(3),
            "process {i}: {}",
            text(&out.stderr)
        );
        says(out, &parts[i]);
        assert!(Path::new(&parts[i]).exists());
    }
    // a damaged part is refused by both, and left as it is
    let whole = std::fs::read(&parts[1]).unwrap();
    let damaged = &whole[..whole.len() - 3];
    std::fs::write(&parts[1], damaged).unwrap();
    let refused = cluster(2, &[&common[..], &["--resume", walk]].concat());
    assert_eq!(
        refused[1].status.code(),
        Some(2),
        "{}",
        text(&refused[1].stderr)
    );
    says(&refused[1], "checksum");
    assert_eq!(
        refused[0].status.code(),
        Some(2),
        "{}",
        text(&refused[0].stderr)
    );
    says(&refused[0], "process 1 cannot resume");
    assert_eq!(std::fs::read(&parts[1]).unwrap(), damaged);
    // whole again, the run goes on to the local search's answer and counts
    std::fs::write(&parts[1], &whole).unwrap();
    let out = answer(&cluster(
        2,
        &[&common[..], &["--resume", "--path", walk]].concat(),
    ));
    assert_eq!(out.lines().next(), local.lines().next());
    let path = out.lines().nth(1).unwrap();
    let goal = parse_board(
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 0",
        None,
    );
    assert_eq!(replay(walk, path), goal.unwrap());
    assert_eq!(exhausted(&out), exhausted(&local));
    assert!(
        parts.iter().all(|p| !Path::new(p).exists()),
        "the answer removes the checkpoints"
    );
}

#[test]
fn a_process_killed_mid_search_and_both_resumed_end_with_the_optimal_length() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let (hosts, _) = hostfile(dir.path(), 2);
    let ck = dir.path().join("walk.ckpt");
    let ck = ck.to_str().unwrap();
    let walk = long_walk();
    let args = [
        "--heuristic",
        "manhattan",
        "--checkpoint",
        ck,
        "--checkpoint-every",
        "0",
    ];
    let args = [&args[..], &[walk.as_str()]].concat();
    let zero = spawn(&hosts, 2, 0, &args);
    let mut one = spawn(&hosts, 2, 1, &args);
    // killed as soon as it has saved (after its first round: the search
    // has seconds to go)
    let part = PathBuf::from(format!("{ck}.p1-of-2"));
    let t0 = std::time::Instant::now();
    while !part.exists() && t0.elapsed() < LIMIT {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(
        one.try_wait().unwrap().is_none(),
        "the search ended before the kill"
    );
    one.kill().unwrap();
    let _ = one.wait();
    let out = wait(zero, LIMIT);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    says(&out, "process 1");
    // Process 0 may not have saved before the kill: a process without a
    // file goes on from another's, and one file is enough.
    std::fs::remove_file(format!("{ck}.p0-of-2")).ok();
    let (hosts, _) = hostfile(dir.path(), 2);
    let resumed = [&args[..], &["--resume"]].concat();
    let children: Vec<Child> = (0..2).map(|i| spawn(&hosts, 2, i, &resumed)).collect();
    let outs: Vec<Output> = children.into_iter().map(|c| wait(c, LIMIT)).collect();
    assert_eq!(answer(&outs).trim(), "58");
}

#[test]
fn report_says_how_the_processes_connect() {
    let outs = cluster(2, &["--report", "8 6 7 2 5 4 3 0 1"]);
    assert_eq!(answer(&outs).trim(), "31");
    let err = text(&outs[0].stderr);
    assert!(
        err.contains("npuzzle: solve: process 1") && err.contains("connected"),
        "{err}"
    );
}

#[test]
fn a_peer_that_never_comes_ends_the_wait_at_the_timeout() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let (hosts, _) = hostfile(dir.path(), 2);
    let out = wait(
        spawn(&hosts, 2, 0, &["--timeout", "1", "8 6 7 2 5 4 3 0 1"]),
        LIMIT,
    );
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    says(&out, "never came: process 1");
}

#[test]
fn a_run_stopped_by_its_timeout_resumes_and_counts_as_one_never_stopped() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let ck = dir.path().join("timeout.ckpt");
    let ck = ck.to_str().unwrap();
    let walk = long_walk();
    let local = stdout_of(&[
        "solve",
        "--algo",
        "idastar",
        "--heuristic",
        "manhattan",
        "--stats",
        &walk,
    ]);
    let common = ["--heuristic", "manhattan", "--stats", "--checkpoint", ck];
    let first = cluster(2, &[&common[..], &["--timeout", "1", &walk]].concat());
    // a machine fast enough to finish within the second has nothing to resume
    let out = if first[0].status.success() {
        answer(&first)
    } else {
        for (i, out) in first.iter().enumerate() {
            assert_eq!(
                out.status.code(),
                Some(3),
                "process {i}: {}",
                text(&out.stderr)
            );
        }
        // (under load the first run may have spent its second meeting,
        // before any process saved: then it starts again)
        let saved = (0..2).any(|i| Path::new(&format!("{ck}.p{i}-of-2")).exists());
        let resume: &[&str] = if saved { &["--resume"] } else { &[] };
        answer(&cluster(2, &[&common[..], resume, &[&walk]].concat()))
    };
    assert_eq!(out.lines().next(), local.lines().next());
    // tasks cut short by the timeout are searched again, and counted once
    assert_eq!(exhausted(&out), exhausted(&local));
}

#[test]
fn resuming_with_no_checkpoint_anywhere_names_the_file() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let ck = dir.path().join("none.ckpt");
    let ck = ck.to_str().unwrap();
    let outs = cluster(2, &["--checkpoint", ck, "--resume", "8 6 7 2 5 4 3 0 1"]);
    for (i, out) in outs.iter().enumerate() {
        assert_eq!(
            out.status.code(),
            Some(1),
            "process {i}: {}",
            text(&out.stderr)
        );
        let want = format!("cannot read checkpoint {ck}.p{i}-of-2");
        says(out, &want);
    }
}
