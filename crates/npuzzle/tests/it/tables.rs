//! The complete tables against an independent method: plain BFS over whole
//! boards, no ranking, no tile renaming.

use npuzzle_testkit as common;

use common::{all_boards, bfs_all, random_board, rng};
use npuzzle::board::{Board, Shape};
use npuzzle::search::verify_path;
use npuzzle::table::TableSet;
use rand::Rng;

/// Checks every board of `shape` against BFS from `goal`.
fn check_all(shape: Shape, goal: &Board, all: &[Board]) {
    let reference = bfs_all(goal);
    let set = TableSet::global();
    let mut reachable = 0;
    for b in all {
        let got = set.distance(shape, b.tiles(), goal.tiles());
        let want = reference.get(b.tiles()).copied();
        assert_eq!(
            got,
            want,
            "{shape} start {} goal {}",
            b.to_row_string(),
            goal.to_row_string()
        );
        assert_eq!(b.can_reach(goal), want.is_some(), "parity vs BFS");
        reachable += usize::from(want.is_some());
    }
    assert_eq!(reachable, all.len() / 2);
}

#[test]
fn every_2x3_and_2x4_position_every_goal_blank_cell() {
    for shape in [
        Shape::new(2, 3),
        Shape::new(3, 2),
        Shape::new(2, 4),
        Shape::new(2, 2),
    ] {
        let all = all_boards(shape);
        for blank in 0..shape.cells() {
            // a goal with the blank on `blank` and the tiles scrambled, so
            // the renaming is exercised too
            let mut r = rng(blank as u64);
            let goal = loop {
                let g = random_board(shape, &mut r);
                if g.blank() == blank {
                    break g;
                }
            };
            check_all(shape, &goal, &all);
        }
    }
}

#[test]
fn every_3x3_position_for_three_goal_blank_cells() {
    let shape = Shape::new(3, 3);
    let all = all_boards(shape);
    let goals = [
        Board::blank_last(shape).unwrap(),
        Board::spiral(shape).unwrap(),
        Board::from_tiles(3, 3, &[3, 0, 7, 1, 8, 2, 6, 5, 4]).unwrap(),
    ];
    for g in &goals {
        check_all(shape, g, &all);
    }
}

#[test]
fn random_pairs_with_random_goals_and_paths() {
    let set = TableSet::global();
    let mut r = rng(7);
    // 2x5 has 1.8M states: one goal each way is enough there.
    for (shape, goals) in [
        (Shape::new(3, 3), 4),
        (Shape::new(4, 2), 4),
        (Shape::new(2, 5), 1),
        (Shape::new(5, 2), 1),
    ] {
        for _ in 0..goals {
            let goal = random_board(shape, &mut r);
            let reference = bfs_all(&goal);
            for _ in 0..300 {
                let start = random_board(shape, &mut r);
                let want = reference.get(start.tiles()).copied();
                assert_eq!(set.distance(shape, start.tiles(), goal.tiles()), want);
                if r.gen_bool(0.2) {
                    let path = set.path(shape, start.tiles(), goal.tiles());
                    assert_eq!(path.as_ref().map(|p| p.len() as u32), want);
                    if let Some(p) = path {
                        assert!(verify_path(&start, &goal, &p));
                    }
                }
            }
        }
    }
}
