//! The partition estimator of the public API (`npuzzle::pdb::Estimator`)
//! against a complete breadth-first search: every estimate is a lower
//! bound, the goal's is zero, partitions maxed give the larger estimate,
//! and a board of another size gets none.

use npuzzle_testkit as common;

use npuzzle::pdb::{Estimator, PdbOptions};
use npuzzle::{Board, Budget, Shape};

fn estimator(goal: &Board, partition: &str, also: &[&str]) -> Estimator {
    let opts = PdbOptions::default()
        .with_partition(partition.parse().unwrap())
        .with_also(also.iter().map(|p| p.parse().unwrap()).collect())
        .with_cache(false);
    Estimator::new(goal, &opts, &(), &Budget::default()).unwrap()
}

#[test]
fn estimates_are_lower_bounds_and_maxed_partitions_their_maximum() {
    for (goal, first, second) in [
        (
            Board::blank_last(Shape::new(3, 3)).unwrap(),
            "4-4",
            "1,5,6/2,3,4,7,8",
        ),
        (
            Board::blank_first(Shape::new(2, 4)).unwrap(),
            "3-4",
            "1,2,5,6/3,4,7",
        ),
    ] {
        let a = estimator(&goal, first, &[]);
        let b = estimator(&goal, second, &[]);
        let both = estimator(&goal, first, &[second]);
        assert!(both.label().contains("max with"), "{}", both.label());
        let dist = common::bfs_all(&goal);
        let (rows, cols) = (goal.rows(), goal.cols());
        let mut tighter = 0;
        for (tiles, &d) in &dist {
            let board = Board::from_tiles(rows, cols, tiles).unwrap();
            let (ea, eb) = (a.estimate(&board).unwrap(), b.estimate(&board).unwrap());
            let e = both.estimate(&board).unwrap();
            assert!(ea <= d && eb <= d, "{tiles:?}: {ea} / {eb} over {d}");
            assert_eq!(e, ea.max(eb), "{tiles:?}");
            tighter += usize::from(e > ea);
            if d == 0 {
                assert_eq!(e, 0);
            }
        }
        // the second partition sees what the first does not, somewhere
        assert!(tighter > 0, "{first} / {second}");
        let other = Board::blank_last(Shape::new(4, 4)).unwrap();
        assert_eq!(a.estimate(&other), None);
    }
}
