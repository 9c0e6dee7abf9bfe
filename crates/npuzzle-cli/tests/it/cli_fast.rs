//! Big boards through the command line: `random` of any size, `solve` with
//! the fast solver (count, streamed path, streamed JSON), unreachable pairs
//! at once, refusals with clear messages, and batch lines.

use crate::support::cli;
use cli::*;

use npuzzle::{parse_path, Grid, Shape};
use predicates::prelude::*;

/// `npuzzle random --size RxC` (one line) with `seed`.
fn random_line(size: &str, seed: u64) -> String {
    let out = npuzzle()
        .args([
            "random",
            "--size",
            size,
            "-n",
            "1",
            "--seed",
            &seed.to_string(),
        ])
        .output()
        .expect("npuzzle runs");
    assert!(out.status.success());
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Replays `path` from `start` and checks it ends on `goal`.
fn replays(start: &Grid, goal: &Grid, path: &str) -> bool {
    let Ok(moves) = parse_path(path) else {
        return false;
    };
    let mut b = start.clone();
    moves.iter().all(|&d| b.apply(d)) && b == *goal
}

fn grid_of(line: &str, shape: Shape) -> Grid {
    let tiles: Vec<u32> = line
        .split_whitespace()
        .filter(|&t| t != "/")
        .map(|t| t.parse().expect("a number"))
        .collect();
    Grid::new(shape.rows, shape.cols, tiles).expect("a board")
}

#[test]
fn solve_streams_a_path_that_replays_on_big_and_rectangular_boards() {
    for (size, shape) in [
        ("40x40", Shape::new(40, 40)),
        ("2x300", Shape::new(2, 300)),
        ("300x2", Shape::new(300, 2)),
        ("17x23", Shape::new(17, 23)),
    ] {
        let line = random_line(size, 5);
        let start = grid_of(&line, shape);
        let goal = Grid::blank_last(shape);
        let out = npuzzle()
            .args(["solve", "--path", "--size", size])
            .write_stdin(line.clone())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        let mut lines = text.lines();
        let moves: usize = lines.next().unwrap().parse().unwrap();
        let path = lines.next().unwrap_or("");
        assert_eq!(path.len(), moves, "{size}");
        assert!(replays(&start, &goal, path), "{size}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("not proven optimal"), "{err}");
    }
}

#[test]
fn json_streams_with_the_bound_and_random_goals() {
    let shape = Shape::new(20, 30);
    let pair = npuzzle()
        .args([
            "random", "--size", "20x30", "--pairs", "-n", "6", "--seed", "9",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(pair.stdout).unwrap();
    let mut solved = 0;
    for line in text.lines() {
        let (s, g) = line.split_once('|').unwrap();
        let (start, goal) = (grid_of(s, shape), grid_of(g, shape));
        let out = npuzzle()
            .args(["solve", "--json", "--path", "--size", "20x30"])
            .write_stdin(line.to_string())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
        if !start.can_reach(&goal) {
            assert_eq!(r["moves"], -1);
            assert_eq!(r["solvable"], false);
            continue;
        }
        solved += 1;
        assert_eq!(r["algorithm"], "fast");
        assert_eq!(r["optimal"], false);
        let moves = r["moves"].as_u64().unwrap();
        let lower = r["lower_bound"].as_u64().unwrap();
        assert!(lower <= moves);
        let ratio = r["ratio"].as_f64().unwrap();
        assert!((ratio - moves as f64 / lower as f64).abs() < 1e-9);
        let path = r["path"].as_str().unwrap();
        assert_eq!(path.len() as u64, moves);
        assert!(replays(&start, &goal, path));
    }
    assert!(solved > 0);
}

#[test]
fn unreachable_big_pairs_answer_minus_one_at_once() {
    // 300x300 with two tiles swapped: the other parity class
    let shape = Shape::new(300, 300);
    let mut tiles = Grid::blank_last(shape).tiles().to_vec();
    tiles.swap(0, 1);
    let text: Vec<String> = tiles.iter().map(u32::to_string).collect();
    npuzzle()
        .args(["solve", "--path"])
        .write_stdin(text.join(" "))
        .assert()
        .success()
        .stdout("-1\n");
}

#[test]
fn big_boards_refuse_what_cannot_run() {
    let line = random_line("20x20", 1);
    npuzzle()
        .args(["solve", "--algo", "idastar"])
        .write_stdin(line.clone())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("fast solver only"));
    npuzzle()
        .args(["solve", "--optimal"])
        .write_stdin(line.clone())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not proven optimal"));
    npuzzle()
        .args(["solve", "--boards"])
        .write_stdin(line.clone())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--boards"));
    npuzzle()
        .args(["solve", "--explain"])
        .write_stdin(line)
        .assert()
        .success()
        .stdout(predicate::str::starts_with("fast: 400 cells"));
    // a board beyond any grid
    npuzzle()
        .args(["random", "--size", "5000x5000"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("5000x5000"));
}

#[test]
fn auto_on_boards_exact_search_holds_but_cannot_finish_is_fast() {
    let line = random_line("7x7", 3);
    let out = npuzzle()
        .args(["solve", "--path", "--stats"])
        .write_stdin(line.clone())
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let moves: usize = lines.next().unwrap().parse().unwrap();
    let path = lines.next().unwrap();
    assert_eq!(path.len(), moves);
    assert!(replays(
        &grid_of(&line, Shape::new(7, 7)),
        &Grid::blank_last(Shape::new(7, 7)),
        path
    ));
    assert!(text.contains("algorithm: fast"), "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("not proven optimal"));
}

#[test]
fn batch_lines_with_big_boards_are_marked_not_optimal() {
    let input = format!("{}{}", random_line("30x30", 2), random_line("3x3", 2));
    let out = npuzzle()
        .args(["batch", "--path"])
        .write_stdin(input.clone())
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    // `~MOVES PATH`: not proven optimal
    let big = lines.next().unwrap();
    let (count, path) = big.split_once(' ').unwrap();
    let moves: usize = count.strip_prefix('~').expect("marked ~").parse().unwrap();
    assert_eq!(path.len(), moves);
    let start = grid_of(input.lines().next().unwrap(), Shape::new(30, 30));
    assert!(replays(&start, &Grid::blank_last(Shape::new(30, 30)), path));
    assert!(!lines.next().unwrap().starts_with('~'));
}
