//! The `compare` command and search budgets, end to end.

use crate::support::cli;
use cli::*;

use predicates::prelude::*;

const SEED: &str = "2 6 4 1 3 7 0 5 8";
const SEED_GOAL: &str = "8 1 5 7 3 6 4 0 2";
/// Korf #1: 57 moves from `0 1 2 … 15`.
const HARD: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

#[test]
fn compare_on_the_31_move_seed_instance_agrees() {
    let out = npuzzle()
        .args(["compare", SEED, "--goal", SEED_GOAL])
        .assert()
        .success()
        .stdout(predicate::str::contains("all 13 answers agree: 31 moves"))
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let rows: Vec<&str> = text
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with("all"))
        .collect();
    assert_eq!(rows.len(), 13, "{text}");
    for algo in [
        "table", "bfs ", "bfs-hash", "bfs-set", "bibfs", "astar", "idastar",
    ] {
        assert!(
            rows.iter().any(|r| r.starts_with(algo)),
            "{algo} missing:\n{text}"
        );
    }
    for r in rows {
        let cols: Vec<&str> = r.split_whitespace().collect();
        assert_eq!(cols[2], "31", "{r}");
    }
}

#[test]
fn compare_json_is_an_array_of_rows() {
    let out = npuzzle()
        .args(["compare", SEED, "--goal", SEED_GOAL, "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 13);
    for r in rows {
        assert_eq!(r["moves"], 31);
        assert!(r["expanded"].is_u64() && r["generated"].is_u64() && r["peak_states"].is_u64());
        assert!(r["seconds"].is_f64());
    }
}

#[test]
fn compare_on_an_unreachable_goal_agrees_on_minus_one() {
    npuzzle()
        .args(["compare", "1 2 3 4 5 6 8 7 0"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "all 13 answers agree: the goal is unreachable (-1)",
        ))
        .stdout(predicate::str::contains(
            "idastar   linear-conflict      -1",
        ));
}

#[test]
fn compare_on_a_hard_15_puzzle_skips_and_says_why() {
    npuzzle()
        .args([
            "compare",
            HARD,
            "--goal",
            "blank-first",
            "--max-states",
            "100000",
            "--max-nodes",
            "2000000",
            // one-tile groups: as weak as Manhattan, so the pdb rows are
            // skipped too
            "--pdb",
            "1-1-1-1-1-1-1-1-1-1-1-1-1-1-1",
        ])
        .assert()
        .code(3)
        .stdout(predicate::str::contains(
            "skipped: complete tables cover boards of at most 10 cells",
        ))
        .stdout(predicate::str::contains("skipped: the growth"))
        .stdout(predicate::str::contains("no algorithm answered"));
}

#[test]
fn bfs_on_a_hard_15_puzzle_stops_at_max_states() {
    npuzzle()
        .args([
            "solve",
            HARD,
            "--goal",
            "blank-first",
            "--algo",
            "bfs",
            "--max-states",
            "50000",
        ])
        .assert()
        .code(3)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains(
            "bfs stopped: its state budget (50000)",
        ))
        .stderr(predicate::str::contains("(raise it with --max-states N)"))
        .stderr(predicate::str::contains("searched to depth"));
}

#[test]
fn idastar_stops_at_max_nodes_and_timeout() {
    npuzzle()
        .args([
            "solve",
            HARD,
            "--goal",
            "blank-first",
            "--algo",
            "idastar",
            "--heuristic",
            "manhattan",
            "--max-nodes",
            "10000",
        ])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "node budget (10000) was spent after 10000 nodes",
        ))
        .stderr(predicate::str::contains("(raise it with --max-nodes N)"));
    npuzzle()
        .args([
            "solve",
            HARD,
            "--goal",
            "blank-first",
            "--algo",
            "idastar",
            "--heuristic",
            "misplaced",
            "--timeout",
            "0.2",
        ])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("time budget (0.2 s)"))
        .stderr(predicate::str::contains("--timeout"));
}

#[test]
fn stats_and_every_algorithm_name() {
    for algo in [
        "bfs", "bfs-hash", "bfs-set", "bibfs", "astar", "idastar", "auto",
    ] {
        npuzzle()
            .args([
                "solve", SEED, "--goal", SEED_GOAL, "--algo", algo, "--stats",
            ])
            .assert()
            .success()
            .stdout(predicate::str::starts_with("31\n"))
            .stdout(predicate::str::contains("nodes expanded:"))
            .stdout(predicate::str::contains("peak states:"));
    }
}

#[test]
fn auto_on_a_15_puzzle_uses_idastar() {
    npuzzle()
        .args([
            "solve",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15",
            "--stats",
            "--heuristic",
            "lc",
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("2\n"))
        .stdout(predicate::str::contains("algorithm: idastar"))
        .stdout(predicate::str::contains("heuristic: linear-conflict"));
}
