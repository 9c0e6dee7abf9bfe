//! `npuzzle solve --goal PARTIAL`: lengths against a plain breadth-first
//! search from the start to the first board meeting the goal, the path
//! replayed to such a board; bad partial goals are named.

use crate::support::cli;
use cli::*;

use npuzzle::{parse_board, parse_moves, Metric, Notation, PartialGoal, Shape};
use npuzzle_testkit::reference::{bfs_until, random_board, rng};
use predicates::prelude::*;
use serde_json::Value;

#[test]
fn partial_goals_are_solved_in_either_metric() {
    let mut r = rng(21);
    let shape = Shape::new(3, 3);
    for (goal_text, metric) in [
        ("1 2 3/* * */* * *", "stm"),
        ("1 * */4 * */7 * *", "mtm"),
        ("first-row-column", "stm"),
    ] {
        let goal = PartialGoal::named(goal_text, shape)
            .unwrap_or_else(|| PartialGoal::parse(goal_text, Some(shape)))
            .unwrap();
        let m: Metric = metric.parse().unwrap();
        for _ in 0..4 {
            let start = random_board(shape, &mut r);
            let text = start.to_row_string();
            let out = stdout_of(&[
                "solve", &text, "--goal", goal_text, "--metric", metric, "--json",
            ]);
            let j: Value = serde_json::from_str(&out).unwrap();
            let want = bfs_until(&start, |b| goal.is_met_by(b), m, 10_000_000).unwrap();
            assert_eq!(
                j["moves"].as_u64(),
                Some(u64::from(want)),
                "{text} {goal_text}"
            );
            let path = parse_moves(j["path"].as_str().unwrap(), Notation::Blank).unwrap();
            let end = start.apply_path(&path).unwrap();
            assert!(goal.is_met_by(&end));
            assert_eq!(j["reached"].as_array().unwrap().len(), 9);
        }
    }
}

#[test]
fn bad_partial_goals_are_bad_input() {
    for (goal, says) in [
        ("1 2 3/* * */* * 9", "cell 9 holds '9'"),
        ("1 1 */* * */* * *", "placed twice"),
        ("first-rows:3", "give 1 to 2"),
    ] {
        npuzzle()
            .args(["solve", "8 6 7 2 5 4 3 0 1", "--goal", goal])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
    let start = parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
    assert_eq!(start.len(), 9);
}
