//! `--metric mtm` as a user runs it: solve, batch, analyse and verify in
//! pushes, every length checked against a plain breadth-first search in
//! pushes (`npuzzle_testkit::reference::bfs_all_in`), never against the
//! program's own numbers; and the commands that count single moves only
//! refuse it.

use crate::support::cli;
use cli::*;

use npuzzle::{parse_board, Metric};
use npuzzle_testkit::reference::{bfs_all_in, neighbours_in, rng};
use predicates::prelude::*;
use rand::Rng;
use serde_json::Value;

const GOAL: &str = "1 2 3 4 5 6 7 8 0";

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout_of(args)).expect("JSON")
}

/// Random 8-puzzles some pushes from the goal, and their distances.
fn boards(count: usize) -> Vec<(String, u32)> {
    let goal = parse_board(GOAL, None).unwrap();
    let dist = bfs_all_in(&goal, Metric::Mtm);
    let mut r = rng(41);
    (0..count)
        .map(|i| {
            let mut b = goal.clone();
            for _ in 0..(5 + i * 3) {
                let next = neighbours_in(&b, Metric::Mtm);
                b = next[r.gen_range(0..next.len())].clone();
            }
            let text = b
                .tiles()
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(" ");
            (text, dist[b.tiles()])
        })
        .collect()
}

#[test]
fn solve_counts_pushes_and_its_path_replays() {
    for (start, want) in boards(8) {
        for algo in ["auto", "idastar"] {
            let j = json(&["solve", &start, "--metric", "mtm", "--algo", algo, "--json"]);
            assert_eq!(j["moves"].as_u64(), Some(u64::from(want)), "{start} {algo}");
            assert_eq!(j["metric"], "mtm");
            let path = npuzzle::parse_moves(j["path"].as_str().unwrap(), npuzzle::Notation::Blank)
                .unwrap();
            assert_eq!(Metric::Mtm.length(&path) as u32, want);
            let b = parse_board(&start, None)
                .unwrap()
                .apply_path(&path)
                .unwrap();
            assert_eq!(b, parse_board(GOAL, None).unwrap());
        }
    }
    let stm = json(&["solve", "1 2 3 4 5 6 0 7 8", "--json"]);
    assert_eq!(
        (stm["moves"].as_u64(), &stm["metric"]),
        (Some(2), &Value::from("stm"))
    );
}

#[test]
fn batch_answers_every_line_in_pushes() {
    let cases = boards(12);
    let input: String = cases.iter().map(|(b, _)| format!("{b}\n")).collect();
    let out = npuzzle()
        .args(["batch", "-", "--metric", "mtm"])
        .write_stdin(input)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let lines: Vec<u32> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| l.trim().parse().expect("a length"))
        .collect();
    assert_eq!(lines, cases.iter().map(|c| c.1).collect::<Vec<_>>());
}

#[test]
fn analyse_and_verify_measure_in_pushes() {
    let (start, want) = boards(6).pop().unwrap();
    let path = json(&["solve", &start, "--metric", "mtm", "--json"])["path"]
        .as_str()
        .unwrap()
        .to_string();
    let j = json(&["analyse", &start, &path, "--metric", "mtm", "--json"]);
    assert_eq!(j["optimal"].as_u64(), Some(u64::from(want)));
    assert_eq!(j["wasted"].as_u64(), Some(0));
    npuzzle()
        .args(["verify", &start, &path, "--metric", "mtm"])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!("{want} mtm")));
}

#[test]
fn what_counts_single_moves_only_refuses_the_multi_tile_metric() {
    for args in [
        vec!["solve", GOAL, "--metric", "mtm", "--algo", "bfs"],
        vec!["trace", GOAL, "--metric", "mtm", "--algo", "bfs"],
        vec!["solve", GOAL, "--metric", "ptm"],
    ] {
        npuzzle()
            .current_dir(root())
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("mtm").or(predicate::str::contains("metric")));
    }
}

/// The number of optimal paths from `b`, from the reference distances.
fn paths_count(
    b: &npuzzle::Board,
    metric: Metric,
    dist: &std::collections::HashMap<Vec<u8>, u32>,
) -> u64 {
    let d = dist[b.tiles()];
    if d == 0 {
        return 1;
    }
    neighbours_in(b, metric)
        .iter()
        .filter(|n| dist[n.tiles()] + 1 == d)
        .map(|n| paths_count(n, metric, dist))
        .sum()
}

#[test]
fn solve_all_lists_every_optimal_solution_in_either_metric() {
    let goal = parse_board(GOAL, None).unwrap();
    for (metric, name) in [(Metric::Stm, "stm"), (Metric::Mtm, "mtm")] {
        let dist = bfs_all_in(&goal, metric);
        for (start, _) in boards(5) {
            let b = parse_board(&start, None).unwrap();
            let j = json(&[
                "solve",
                &start,
                "--all",
                "--metric",
                name,
                "--json",
                "--notation",
                "tile",
            ]);
            let want = paths_count(&b, metric, &dist);
            assert_eq!(j["solution_count"].as_u64(), Some(want), "{start} {name}");
            assert_eq!(j["moves"].as_u64(), Some(u64::from(dist[b.tiles()])));
            let listed = j["solutions"].as_array().unwrap();
            assert_eq!(listed.len() as u64, want.min(100));
            let mut seen = std::collections::HashSet::new();
            for s in listed {
                let path =
                    npuzzle::parse_moves(s.as_str().unwrap(), npuzzle::Notation::Tile).unwrap();
                assert_eq!(b.apply_path(&path).unwrap(), goal);
                assert_eq!(metric.length(&path) as u64, j["moves"].as_u64().unwrap());
                assert!(seen.insert(path), "a solution listed twice");
            }
        }
    }
    // a cap prints fewer lines but says how many there are
    npuzzle()
        .args([
            "solve",
            "8 6 7 2 5 4 3 0 1",
            "--all",
            "--max-solutions",
            "2",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains("the first 2 are printed"))
        .stdout(predicate::function(|s: &str| s.lines().count() == 3));
}

#[test]
fn random_walks_in_pushes_are_at_most_that_many_pushes_away() {
    let lines = stdout_of(&[
        "random", "--moves", "6", "--metric", "mtm", "--seed", "4", "-n", "40",
    ]);
    let goal = parse_board(GOAL, None).unwrap();
    let dist = bfs_all_in(&goal, Metric::Mtm);
    for line in lines.lines() {
        let b = parse_board(line, None).unwrap();
        assert!(dist[b.tiles()] <= 6, "{line}");
    }
}

#[test]
fn compare_in_pushes_runs_what_counts_them_and_agrees_with_a_plain_bfs() {
    let dir = tempfile::tempdir().unwrap();
    let pdb_dir = dir.path().to_str().unwrap();
    for (board, want) in boards(4) {
        let v = json(&[
            "compare",
            &board,
            "--goal",
            GOAL,
            "--metric",
            "mtm",
            "--json",
            "--pdb-dir",
            pdb_dir,
        ]);
        let rows = v.as_array().expect("rows");
        let answered: Vec<&Value> = rows.iter().filter(|r| r["moves"].is_i64()).collect();
        assert!(answered.len() >= 2, "{v}");
        for r in &answered {
            assert_eq!(r["moves"], i64::from(want), "{board}: {r}");
        }
        let bfs = rows.iter().find(|r| r["algorithm"] == "bfs").unwrap();
        assert!(
            bfs["skipped"].as_str().unwrap().contains("single-tile"),
            "{bfs}"
        );
    }
}

#[test]
fn bench_in_pushes_checks_answers_against_the_files_single_tile_lengths() {
    let goal = parse_board(GOAL, None).unwrap();
    let stm = bfs_all_in(&goal, Metric::Stm);
    let dir = tempfile::tempdir().unwrap();
    let lines: Vec<String> = boards(5)
        .into_iter()
        .map(|(b, _)| {
            let tiles = parse_board(&b, None).unwrap();
            format!("{b} {}", stm[tiles.tiles()])
        })
        .collect();
    let good = dir.path().join("good.txt");
    std::fs::write(&good, lines.join("\n")).unwrap();
    let g = good.to_str().unwrap();
    npuzzle()
        .args(["bench", g, "--goal", GOAL, "--metric", "mtm"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "agree with the file's single-tile lengths",
        ));
    // a single-tile length shorter than the pushes found cannot be right
    let bad = dir.path().join("bad.txt");
    let (b, _) = boards(3).pop().unwrap();
    std::fs::write(&bad, format!("{b} 1\n")).unwrap();
    npuzzle()
        .args([
            "bench",
            bad.to_str().unwrap(),
            "--goal",
            GOAL,
            "--metric",
            "mtm",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("WRONG"));
}
