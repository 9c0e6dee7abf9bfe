//! Every search is bounded: a byte budget stops the memory-bound searches
//! before the allocator does, database builds obey the time budget and
//! leave nothing half-written, and absurd thread counts still answer.

use crate::support::cli;
use cli::*;

use npuzzle::{Board, Dir, Shape};
use predicates::prelude::*;
use std::time::{Duration, Instant};

/// A uniformly random solvable 16x16 board: none of these searches can
/// finish on it.
fn big_board() -> String {
    let out = npuzzle()
        .args(["random", "--size", "16x16", "--count", "1", "--seed", "7"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

#[test]
fn bfs_under_a_memory_limit_stops_with_its_budget_not_the_allocator() {
    // 400 MB of address space; the default budget is a share of it.
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(
            "ulimit -v 400000; exec \"$0\" solve --algo bfs '{}'",
            big_board()
        ))
        .arg(env!("CARGO_BIN_EXE_npuzzle"))
        .env("XDG_CACHE_HOME", test_cache_home())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("bfs stopped: its memory budget ("),
        "{stderr}"
    );
    assert!(stderr.contains("--max-memory"), "{stderr}");
}

#[test]
fn every_memory_bound_search_obeys_max_memory() {
    let board = big_board();
    for algo in ["bfs", "bfs-hash", "bfs-set", "bibfs", "astar"] {
        npuzzle()
            .args(["solve", &board, "--algo", algo, "--max-memory", "32M"])
            .args(["--heuristic", "manhattan"])
            .assert()
            .code(3)
            .stderr(predicate::str::contains(format!(
                "{algo} stopped: its memory budget (32.0 MiB)"
            )));
    }
    npuzzle()
        .args(["solve", &board, "--max-memory", "lots"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("'lots' is not a size"));
}

#[test]
fn a_database_build_obeys_the_time_budget_and_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    // One move from the goal, but the 24-puzzle's databases are not built.
    let mut start = Board::blank_last(Shape::new(5, 5)).unwrap();
    start.apply(Dir::Up);
    let t = Instant::now();
    npuzzle()
        .args(["solve", &start.to_flat_string(), "--timeout", "0.1"])
        .args(["--heuristic", "pdb", "--pdb-dir"])
        .arg(dir.path())
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "stopped: its time budget (0.1 s) ran out",
        ));
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "a stopped build left {left:?}");
}

#[test]
fn a_build_that_cannot_fit_is_refused_with_the_figure() {
    let dir = tempfile::tempdir().unwrap();
    npuzzle()
        .args(["pdb", "build", "--size", "5x5", "--partition", "6-6-6-6"])
        .args(["--max-memory", "100M", "--pdb-dir"])
        .arg(dir.path())
        .assert()
        .code(3)
        .stderr(predicate::str::contains("needs"))
        .stderr(predicate::str::contains(
            "over the memory budget of 100 MiB",
        ));
}

#[test]
fn a_fifo_in_the_cache_is_skipped_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    // Learn the database's file name from a first build, then put a FIFO
    // in its place.
    let goal = "8 1 5 7 3 6 4 0 2";
    npuzzle()
        .args([
            "pdb",
            "build",
            "--size",
            "3x3",
            "--partition",
            "8",
            "--goal",
            goal,
            "--pdb-dir",
        ])
        .arg(dir.path())
        .assert()
        .success();
    let file = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "pdb"))
        .unwrap();
    std::fs::remove_file(&file).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(&file)
        .status()
        .unwrap();
    assert!(made.success());
    let t = Instant::now();
    npuzzle()
        .args(["solve", "2 6 4 1 3 7 0 5 8", "--goal", goal])
        .args([
            "--algo",
            "idastar",
            "--heuristic",
            "pdb",
            "--pdb",
            "8",
            "--pdb-dir",
        ])
        .arg(dir.path())
        .timeout(Duration::from_secs(60))
        .assert()
        .success()
        .stdout("31\n")
        .stderr(predicate::str::contains("is not a regular file"));
    assert!(t.elapsed() < Duration::from_secs(30));
}
