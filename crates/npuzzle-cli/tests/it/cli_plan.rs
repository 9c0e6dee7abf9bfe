//! The planner as users meet it: one plan whoever asks (`solve --explain`,
//! `solve --json`, `bench`), boards beyond the pattern databases, and a
//! cache that cannot be written.

use crate::support::cli;
use cli::*;

use npuzzle_testkit as common;

use npuzzle::{Board, Dir, Shape};
use predicates::prelude::*;
use std::collections::{HashSet, VecDeque};

/// Korf #1 (57 moves from `0 1 2 … 15`).
const HARD: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

#[test]
fn solve_explain_json_and_bench_report_the_same_plan() {
    let explain = stdout_of(&[
        "solve",
        HARD,
        "--goal",
        "blank-first",
        "--heuristic",
        "linear-conflict",
        "--explain",
    ]);
    let plan = explain.trim_end().to_string();
    assert_eq!(
        plan,
        "idastar + linear-conflict, 1 thread: 16 cells, beyond the complete tables (at most 10 cells)"
    );
    // The JSON plan of the same problem, solved under a small budget, is
    // not needed: --explain --json gives the plan as data.
    let json: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "solve",
        HARD,
        "--goal",
        "blank-first",
        "--heuristic",
        "linear-conflict",
        "--explain",
        "--json",
    ]))
    .unwrap();
    assert_eq!(json["algorithm"], "idastar");
    assert_eq!(json["heuristic"], "linear-conflict");
    assert_eq!(json["threads"], 1);
    assert_eq!(json["solvable"], true);

    // An easy instance: solved, and its report carries the same plan.
    let easy = "4 1 2 3 5 0 6 7 8 9 10 11 12 13 14 15";
    let report: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "solve",
        easy,
        "--goal",
        "blank-first",
        "--heuristic",
        "linear-conflict",
        "--json",
    ]))
    .unwrap();
    assert_eq!(report["moves"], 2);
    assert_eq!(report["plan"].as_str(), Some(plan.as_str()));

    // bench names the plan in its header.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("one.txt");
    std::fs::write(&file, format!("{easy} 2\n")).unwrap();
    let bench = stdout_of(&[
        "bench",
        file.to_str().unwrap(),
        "--heuristic",
        "linear-conflict",
    ]);
    assert!(bench.lines().next().unwrap().ends_with(&plan), "{bench}");
    assert!(bench.contains("the length matches the file"), "{bench}");
}

/// Fewest moves by plain breadth-first search over whole boards (no code
/// shared with the library's searches), for boards a few moves apart.
fn bfs_distance(start: &Board, goal: &Board) -> u32 {
    let mut seen: HashSet<Vec<u8>> = HashSet::from([start.tiles().to_vec()]);
    let mut queue = VecDeque::from([(start.clone(), 0u32)]);
    while let Some((b, d)) = queue.pop_front() {
        if b == *goal {
            return d;
        }
        for dir in Dir::ALL {
            if let Some(n) = b.moved(dir) {
                if seen.insert(n.tiles().to_vec()) {
                    queue.push_back((n, d + 1));
                }
            }
        }
    }
    unreachable!("a random walk's start reaches its goal")
}

#[test]
fn bench_runs_a_9x9_instance_file() {
    // 81 cells: beyond pattern databases; the planner picks linear conflict
    // (bench used to try building databases that cannot exist here).
    let shape = Shape::new(9, 9);
    let goal = Board::blank_first(shape).unwrap();
    let mut rng = common::rng(9);
    let mut text = String::from("# 9x9 random walks from 0 1 2 ... 80, with BFS distances\n");
    for _ in 0..3 {
        let start = common::random_walk(&goal, 10, &mut rng);
        let d = bfs_distance(&start, &goal);
        text.push_str(&format!("{} {d}\n", start.to_flat_string()));
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("9x9.txt");
    std::fs::write(&file, text).unwrap();
    let out = stdout_of(&["bench", file.to_str().unwrap()]);
    assert!(
        out.lines()
            .next()
            .unwrap()
            .contains("idastar + linear-conflict"),
        "{out}"
    );
    assert!(out.contains("all 3 lengths match the file"), "{out}");
}

#[test]
fn a_cache_that_cannot_be_written() {
    let dir = tempfile::tempdir().unwrap();
    // A regular file where the cache directory should be: no one, not even
    // root, can create databases inside it.
    let blocked = dir.path().join("not-a-directory");
    std::fs::write(&blocked, "").unwrap();
    let blocked = blocked.to_str().unwrap();

    // Building ahead of time is for the cache: failing to save is a failure
    // of the environment, exit 1, naming the path.
    npuzzle()
        .args([
            "pdb",
            "build",
            "--size",
            "3x3",
            "--partition",
            "4-4",
            "--pdb-dir",
            blocked,
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(blocked))
        .stderr(predicate::str::contains(
            "cannot write the pattern database cache",
        ));

    // Solving needs only the databases in memory: a warning, and the answer.
    npuzzle()
        .args([
            "solve",
            "2 6 4 1 3 7 0 5 8",
            "--goal",
            "8 1 5 7 3 6 4 0 2",
            "--algo",
            "idastar",
            "--heuristic",
            "pdb",
            "--pdb",
            "4-4",
            "--pdb-dir",
            blocked,
        ])
        .assert()
        .success()
        .stdout("31\n")
        .stderr(predicate::str::contains(
            "cannot write the pattern database cache",
        ))
        .stderr(predicate::str::contains("using the database from memory"));
}

#[test]
fn combinations_that_cannot_run_are_bad_input_with_the_reason() {
    npuzzle()
        .args(["solve", HARD, "--goal", "blank-first", "--algo", "table"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "table cannot solve a 4x4 board: complete tables cover boards of at most 10 cells",
        ));
    let big = Board::blank_first(Shape::new(9, 9))
        .unwrap()
        .to_flat_string();
    npuzzle()
        .args(["solve", &big, "--heuristic", "pdb", "--explain"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at most 64 cells"));
}

#[test]
fn threads_beyond_the_cores_still_answer() {
    let out = stdout_of(&[
        "solve",
        "4 1 2 3 5 0 6 7 8 9 10 11 12 13 14 15",
        "--goal",
        "blank-first",
        "--heuristic",
        "linear-conflict",
        "--threads",
        "100000",
        "--stats",
    ]);
    assert!(out.starts_with("2\n"), "{out}");
    assert!(out.contains("100000 threads asked for"), "{out}");
}
