//! Partial goals against a plain breadth-first search from the start that
//! stops at the first board meeting the goal, in both metrics.

use npuzzle_testkit as common;

use common::reference::{bfs_until, random_board, random_walk, rng};
use npuzzle::board::{Board, Metric, PartialGoal, Shape};
use npuzzle::search::{solve_partial, Algorithm, SolveOptions};

fn check(start: &Board, goal: &PartialGoal, metric: Metric) {
    let want = bfs_until(start, |b| goal.is_met_by(b), metric, 30_000_000);
    assert!(want.is_some(), "the reference gave up on {start:?}");
    // BFS over the placed tiles' cells where they fit the default budget
    let placements = npuzzle::rank::partial_count(start.len(), goal.named_tiles() + 1).unwrap();
    let fits = placements <= npuzzle::budget::Budget::DEFAULT_MAX_STATES;
    for algo in [Algorithm::Auto, Algorithm::Bfs, Algorithm::Idastar] {
        if algo != Algorithm::Bfs || fits {
            check_with(start, goal, metric, algo, want);
        }
    }
}

fn check_with(
    start: &Board,
    goal: &PartialGoal,
    metric: Metric,
    algo: Algorithm,
    want: Option<u32>,
) {
    let o = SolveOptions::default()
        .with_metric(metric)
        .with_path(true)
        .with_algorithm(algo);
    let sol = solve_partial(start, goal, &o).unwrap();
    assert_eq!(sol.moves, want, "{metric} {algo} {start:?} {goal:?}");
    let path = sol.path.expect("a path");
    let end = start.apply_path(&path).unwrap();
    assert!(goal.is_met_by(&end));
    assert_eq!(Some(metric.length(&path) as u32), sol.moves);
}

#[test]
fn partial_goals_on_small_boards_match_a_plain_bfs() {
    let s3 = Shape::new(3, 3);
    let goals = [
        PartialGoal::parse("1 2 3/* * */* * *", None).unwrap(),
        PartialGoal::parse("1 * */4 * */7 * 0", None).unwrap(),
        PartialGoal::named("first-row-column", s3).unwrap().unwrap(),
        PartialGoal::parse("* * */* 5 */* * *", None).unwrap(),
    ];
    let mut r = rng(12);
    for metric in Metric::ALL {
        for goal in &goals {
            for _ in 0..8 {
                let mut start = random_board(s3, &mut r);
                // half of them the other parity: partial goals reach both
                if !s3.can_reach(start.tiles(), Board::blank_last(s3).unwrap().tiles()) {
                    start = random_board(s3, &mut r);
                }
                check(&start, goal, metric);
            }
        }
    }
}

#[test]
fn the_first_rows_of_bigger_boards_match_a_plain_bfs() {
    for (shape, name) in [
        (Shape::new(3, 4), "first-row"),
        (Shape::new(4, 4), "first-row"),
        (Shape::new(4, 4), "first-rows:2"),
    ] {
        let goal = PartialGoal::named(name, shape).unwrap().unwrap();
        let home = Board::blank_last(shape).unwrap();
        let mut r = rng(3);
        for metric in Metric::ALL {
            for k in 0..3 {
                let start = random_walk(&home, 10 + 6 * k, &mut r);
                check(&start, &goal, metric);
            }
        }
    }
}

#[test]
fn a_goal_no_board_can_reach_is_minus_one() {
    // Every tile placed but two swapped, the blank free in one cell: no
    // reachable board meets it.
    let goal = PartialGoal::parse("2 1 3/4 5 6/7 8 *", None).unwrap();
    let start = Board::blank_last(Shape::new(3, 3)).unwrap();
    let sol = solve_partial(&start, &goal, &SolveOptions::default()).unwrap();
    assert_eq!(sol.moves, None);
}
