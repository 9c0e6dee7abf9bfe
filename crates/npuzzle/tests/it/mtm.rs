//! The multi-tile metric, checked against answers found independently: the
//! published whole-space distributions, and a plain breadth-first search
//! over whole boards whose pushes are single steps repeated.

use npuzzle_testkit as common;

use common::published::mtm_distribution;
use common::reference::{bfs_all_in, bfs_distance_in, neighbours_in, random_walk, rng};
use npuzzle::board::{Board, Dir, Metric, Problem, Shape};
use npuzzle::heuristic::pdb::PdbOptions;
use npuzzle::heuristic::HeuristicKind;
use npuzzle::search::{Algorithm, SolveOptions};
use npuzzle::table::{DistanceTable, TableSet};
use rand::Rng;

fn mtm() -> SolveOptions {
    SolveOptions::default()
        .with_metric(Metric::Mtm)
        .with_path(true)
}

/// A board about `pushes` random pushes from `goal` (fewer, when some
/// undo others).
fn pushed(goal: &Board, pushes: usize, seed: u64) -> Board {
    let mut r = rng(seed);
    let mut b = goal.clone();
    for _ in 0..pushes {
        let next = neighbours_in(&b, Metric::Mtm);
        b = next[r.gen_range(0..next.len())].clone();
    }
    b
}

/// The solution replays to the goal and its length, recounted, is what it
/// says.
fn check_path(p: &Problem, moves: Option<u32>, path: Option<&Vec<Dir>>) {
    let path = path.expect("a path");
    assert_eq!(p.start().apply_path(path).unwrap(), *p.goal());
    assert_eq!(Some(Metric::Mtm.length(path) as u32), moves);
}

#[test]
fn the_tables_match_the_published_distributions() {
    for (rows, cols) in [
        (2, 2),
        (2, 3),
        (3, 2),
        (2, 4),
        (4, 2),
        (3, 3),
        (2, 5),
        (5, 2),
    ] {
        let (r, c) = (rows.min(cols), rows.max(cols));
        let want = mtm_distribution(&format!("{r}x{c}")).expect("a published list");
        let table = DistanceTable::build_in(Shape::new(rows, cols), 0, Metric::Mtm);
        assert_eq!(table.histogram(), &want[..], "{rows}x{cols}");
        assert_eq!(table.max_distance() as usize, want.len() - 1);
    }
}

#[test]
fn the_tables_match_a_plain_bfs_for_every_board_and_blank() {
    for shape in [Shape::new(2, 3), Shape::new(3, 3)] {
        let tables = TableSet::global_in(Metric::Mtm);
        // goals with the blank in a corner, on an edge and in the middle
        for blank in [0, 1, shape.cells() / 2] {
            let mut tiles: Vec<u8> = (1..shape.cells() as u8).collect();
            tiles.insert(blank, 0);
            let goal = Board::from_tiles(shape.rows, shape.cols, &tiles).unwrap();
            let dist = bfs_all_in(&goal, Metric::Mtm);
            assert_eq!(dist.len(), npuzzle::rank::FACT[shape.cells()] as usize / 2);
            for (board, d) in &dist {
                assert_eq!(
                    tables.distance(shape, board, goal.tiles()),
                    Some(*d),
                    "{board:?}"
                );
            }
        }
    }
}

#[test]
fn every_answer_on_small_boards_matches_a_plain_bfs_and_replays() {
    // Boards the tables do not cover, as the 3x4 and 2x6; and 3x3
    // through both the table and IDA*.
    let cases = [(3, 4, 12), (4, 3, 12), (2, 6, 14), (3, 3, 20)];
    for (k, &(rows, cols, pushes)) in cases.iter().enumerate() {
        let goal = Board::blank_last(Shape::new(rows, cols)).unwrap();
        for seed in 0..6 {
            let start = pushed(&goal, pushes, 1000 * k as u64 + seed);
            let p = Problem::new(start.clone(), goal.clone()).unwrap();
            let want = bfs_distance_in(&start, &goal, Metric::Mtm, 20_000_000);
            assert!(want.is_some(), "the reference BFS gave up on {start:?}");
            for algo in [Algorithm::Auto, Algorithm::Idastar] {
                for h in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict] {
                    let o = mtm().with_algorithm(algo).with_heuristic(h);
                    let sol = npuzzle::search::solve(&p, &o).unwrap();
                    assert_eq!(sol.moves, want, "{rows}x{cols} {start:?} {algo} {h}");
                    assert!(sol.optimal && sol.metric == Metric::Mtm);
                    check_path(&p, sol.moves, sol.path.as_ref());
                }
            }
        }
    }
}

#[test]
fn colour_pattern_databases_stay_exact_on_the_15_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    // in pushes a partition names colours: three of five tiles each, one
    // database of 756,756 arrangements
    let pdb = PdbOptions::default()
        .with_partition("5-5-5".parse().unwrap())
        .with_dir(Some(dir.path().to_path_buf()));
    let goal = Board::blank_last(Shape::new(4, 4)).unwrap();
    for seed in 0..4 {
        let start = pushed(&goal, 9, 77 + seed);
        let p = Problem::new(start.clone(), goal.clone()).unwrap();
        let want = bfs_distance_in(&start, &goal, Metric::Mtm, 20_000_000);
        assert!(want.is_some());
        for (h, threads) in [
            (HeuristicKind::Manhattan, 1),
            (HeuristicKind::Pdb, 1),
            // the iterations cut into subtrees for two threads
            (HeuristicKind::Pdb, 2),
        ] {
            let o = mtm()
                .with_heuristic(h)
                .with_pdb(pdb.clone())
                .with_threads(threads);
            let sol = npuzzle::search::solve(&p, &o).unwrap();
            assert_eq!(sol.moves, want, "{start:?} {h} {threads}");
            check_path(&p, sol.moves, sol.path.as_ref());
        }
    }
}

#[test]
fn the_split_search_in_pushes_agrees_and_keeps_its_budgets() {
    let dir = tempfile::tempdir().unwrap();
    let pdb = PdbOptions::default()
        .with_partition("5-5-5".parse().unwrap())
        .with_dir(Some(dir.path().to_path_buf()));
    let goal = Board::blank_last(Shape::new(4, 4)).unwrap();
    let o = |threads| {
        mtm()
            .with_heuristic(HeuristicKind::Pdb)
            .with_pdb(pdb.clone())
            .with_threads(threads)
    };
    for seed in 0..6 {
        // deeper boards than a BFS reaches: the serial search is the
        // reference, itself checked against the BFS above
        let start = pushed(&goal, 30, 500 + seed);
        let p = Problem::new(start.clone(), goal.clone()).unwrap();
        let one = npuzzle::search::solve(&p, &o(1)).unwrap();
        let two = npuzzle::search::solve(&p, &o(2)).unwrap();
        assert_eq!(one.moves, two.moves, "{start:?}");
        assert!(two.optimal);
        check_path(&p, two.moves, two.path.as_ref());
    }
    // a node budget spent by the subtrees together stops the search
    let start = random_walk(&goal, 400, &mut rng(9));
    let p = Problem::new(start, goal.clone()).unwrap();
    let tight = o(2).with_budget(npuzzle::budget::Budget::default().with_max_nodes(20_000));
    let e = npuzzle::search::solve(&p, &tight).unwrap_err();
    assert!(e.to_string().contains("node"), "{e}");
}

#[test]
fn the_fast_solver_counts_its_pushes_and_never_claims_optimal_wrongly() {
    let goal = Board::blank_last(Shape::new(6, 6)).unwrap();
    let start = random_walk(&goal, 400, &mut rng(5));
    let p = Problem::new(start, goal).unwrap();
    let sol = npuzzle::search::solve(&p, &mtm()).unwrap();
    assert_eq!(sol.algorithm, "fast");
    check_path(&p, sol.moves, sol.path.as_ref());
    let (moves, bound) = (
        sol.moves.unwrap(),
        sol.lower_bound.unwrap_or(sol.moves.unwrap()),
    );
    assert!(bound <= moves);
    assert_eq!(sol.optimal, bound == moves);
}

#[test]
fn the_planner_runs_what_counts_pushes_and_refuses_the_rest() {
    let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
    let start = goal.moved(Dir::Up).unwrap();
    let p = Problem::new(start, goal).unwrap();
    let plan = npuzzle::search::plan(&p, &mtm()).unwrap();
    assert_eq!(plan.algorithm, Algorithm::Table);
    assert!(plan.to_string().contains("multi-tile moves"), "{plan}");
    for a in Algorithm::ALL {
        let r = npuzzle::search::plan(&p, &mtm().with_algorithm(a));
        assert_eq!(r.is_ok(), a.counts(Metric::Mtm), "{a}");
        if let Err(e) = r {
            assert!(e.to_string().contains("table, idastar, fast"), "{e}");
        }
    }
    let g4 = Board::blank_last(Shape::new(4, 4)).unwrap();
    let p4 = Problem::new(g4.moved(Dir::Left).unwrap(), g4).unwrap();
    let plan = npuzzle::search::plan(&p4, &mtm()).unwrap();
    assert_eq!(
        (plan.algorithm, plan.metric),
        (Algorithm::Idastar, Metric::Mtm)
    );
    // unreachable stays unreachable in any metric
    let swapped = Board::from_tiles(3, 3, &[2, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
    let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
    let sol = npuzzle::search::solve(&Problem::new(swapped, goal).unwrap(), &mtm()).unwrap();
    assert_eq!(sol.moves, None);
}
