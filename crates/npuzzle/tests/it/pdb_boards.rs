//! Pattern databases on boards other than 3x3/4x4: rectangular and 5x5
//! boards with small groups, against IDA* with linear conflict.

use npuzzle_testkit as common;

use npuzzle::board::{Board, Shape};
use npuzzle::heuristic::pdb::PdbOptions;
use npuzzle::heuristic::HeuristicKind;
use npuzzle::search::{self, Algorithm, Problem, SolveOptions};

fn pdb(partition: &str) -> SolveOptions {
    SolveOptions::default()
        .with_algorithm(Algorithm::Idastar)
        .with_heuristic(HeuristicKind::Pdb)
        .with_pdb(
            PdbOptions::default()
                .with_partition(partition.parse().unwrap())
                .with_cache(false),
        )
        .with_path(true)
}

#[test]
fn small_groups_on_5x5_and_3x5_agree_with_linear_conflict() {
    let mut r = common::rng(21);
    for (shape, partition) in [
        (Shape::new(5, 5), "4-4-4-4-4-4"),
        (Shape::new(3, 5), "auto"),
        (Shape::new(5, 3), "5-5-4"),
    ] {
        for goal in [
            Board::blank_first(shape).unwrap(),
            Board::blank_last(shape).unwrap(),
        ] {
            for _ in 0..3 {
                let start = common::random_walk(&goal, 36, &mut r);
                let p = Problem::new(start.clone(), goal.clone()).unwrap();
                let lc = SolveOptions::default()
                    .with_algorithm(Algorithm::Idastar)
                    .with_heuristic(HeuristicKind::LinearConflict);
                let want = search::solve(&p, &lc).unwrap().moves;
                let got = search::solve(&p, &pdb(partition)).unwrap();
                assert_eq!(got.moves, want, "{shape} {partition}");
                assert!(search::verify_path(&start, &goal, &got.path.unwrap()));
            }
        }
    }
}
