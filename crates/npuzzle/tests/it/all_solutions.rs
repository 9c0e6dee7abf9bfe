//! Every optimal solution, against counts found independently: a plain
//! breadth-first search over whole boards gives each board's distance, and
//! the number of optimal paths is summed over the neighbours one nearer.

use npuzzle_testkit as common;

use common::reference::{bfs_all_in, neighbours_in, random_walk, rng};
use npuzzle::board::{Board, Metric, Problem, Shape};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::search::{solve_all, Algorithm, SolveOptions};
use std::collections::{HashMap, HashSet};

/// The number of optimal paths from `b`, by the reference distances.
fn count(
    b: &Board,
    metric: Metric,
    dist: &HashMap<Vec<u8>, u32>,
    memo: &mut HashMap<Vec<u8>, u64>,
) -> u64 {
    let d = dist[b.tiles()];
    if d == 0 {
        return 1;
    }
    if let Some(&n) = memo.get(b.tiles()) {
        return n;
    }
    let n = neighbours_in(b, metric)
        .iter()
        .filter(|n| dist[n.tiles()] + 1 == d)
        .map(|n| count(n, metric, dist, memo))
        .sum();
    memo.insert(b.tiles().to_vec(), n);
    n
}

#[test]
fn every_optimal_solution_is_listed_and_counted_on_3x3_boards() {
    let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
    for metric in Metric::ALL {
        let dist = bfs_all_in(&goal, metric);
        let mut memo = HashMap::new();
        let mut r = rng(7);
        for i in 0..12 {
            let start = random_walk(&goal, 6 + 2 * i, &mut r);
            let p = Problem::new(start.clone(), goal.clone()).unwrap();
            let want = count(&start, metric, &dist, &mut memo);
            let ways = [
                (Algorithm::Auto, HeuristicKind::Auto),
                (Algorithm::Idastar, HeuristicKind::Manhattan),
                (Algorithm::Idastar, HeuristicKind::LinearConflict),
            ];
            for (algo, h) in ways {
                let o = SolveOptions::default()
                    .with_metric(metric)
                    .with_algorithm(algo)
                    .with_heuristic(h);
                let all = solve_all(&p, &o, 50).unwrap();
                assert_eq!(all.moves, Some(dist[start.tiles()]), "{metric} {algo}");
                assert_eq!(all.count, want, "{metric} {algo} {start:?}");
                assert_eq!(all.paths.len() as u64, want.min(50));
                let distinct: HashSet<_> = all.paths.iter().collect();
                assert_eq!(distinct.len(), all.paths.len(), "repeated paths");
                for path in &all.paths {
                    assert_eq!(start.apply_path(path).unwrap(), goal);
                    assert_eq!(metric.length(path) as u32, all.moves.unwrap());
                }
            }
        }
    }
}

#[test]
fn the_15_puzzle_lists_them_by_search_and_unreachable_has_none() {
    let goal = Board::blank_last(Shape::new(4, 4)).unwrap();
    let start = random_walk(&goal, 14, &mut rng(3));
    let p = Problem::new(start.clone(), goal.clone()).unwrap();
    for metric in Metric::ALL {
        let o = SolveOptions::default()
            .with_metric(metric)
            .with_heuristic(HeuristicKind::Manhattan);
        let all = solve_all(&p, &o, 1000).unwrap();
        let one = npuzzle::search::solve(&p, &o).unwrap();
        assert_eq!((all.algorithm, all.moves), ("idastar", one.moves));
        assert!(all.count >= 1 && all.paths.len() as u64 == all.count.min(1000));
        for path in &all.paths {
            assert_eq!(start.apply_path(path).unwrap(), goal);
        }
    }
    let swapped = Board::from_tiles(3, 3, &[2, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
    let g3 = Board::blank_last(Shape::new(3, 3)).unwrap();
    let none = solve_all(
        &Problem::new(swapped, g3).unwrap(),
        &SolveOptions::default(),
        5,
    )
    .unwrap();
    assert_eq!((none.moves, none.count), (None, 0));
}
