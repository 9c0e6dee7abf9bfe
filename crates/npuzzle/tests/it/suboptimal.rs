//! The bounded-suboptimal algorithms against independent answers: weighted
//! A* within its weight of the complete tables and of Korf's published
//! lengths, anytime never below the fewest moves and never claiming more
//! than it proved, and `auto` and `--optimal` choosing as documented.

use npuzzle_testkit as common;

use npuzzle::board::{Board, Shape};
use npuzzle::heuristic::pdb::PdbOptions;
use npuzzle::heuristic::HeuristicKind;
use npuzzle::search::{self, verify_path, Algorithm, Budget, Problem, SearchError, SolveOptions};
use npuzzle::table::TableSet;
use proptest::prelude::*;
use std::time::Duration;

fn random_pair(shape: Shape, rng: &mut impl rand::Rng) -> Problem {
    loop {
        let p = Problem::new(
            common::random_board(shape, rng),
            common::random_board(shape, rng),
        )
        .unwrap();
        if p.solvable() {
            return p;
        }
    }
}

fn wastar(w: f64, h: HeuristicKind) -> SolveOptions {
    SolveOptions::default()
        .with_algorithm(Algorithm::Wastar)
        .with_heuristic(h)
        .with_weight(w)
        .with_path(true)
        .with_pdb(PdbOptions::default().with_cache(false))
}

/// Checks one bounded answer against the fewest moves `best`.
fn check_bounded(p: &Problem, sol: &search::Solution, best: u32, w: f64) {
    let moves = sol.moves.unwrap();
    let path = sol.path.as_ref().unwrap();
    assert_eq!(path.len() as u32, moves);
    assert!(verify_path(p.start(), p.goal(), path), "path replays");
    assert!(moves >= best, "{moves} < the fewest {best}");
    assert!(
        f64::from(moves) <= w * f64::from(best) + 1e-9,
        "{moves} > {w} × {best}"
    );
    match sol.lower_bound {
        Some(l) => {
            assert!(!sol.optimal);
            assert!(l <= best, "lower bound {l} above the fewest {best}");
            assert!(l < moves);
        }
        None => {
            assert!(sol.optimal);
            assert_eq!(moves, best, "claimed optimal");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn wastar_is_within_its_weight_of_the_tables(
        seed in any::<u64>(),
        shape_i in 0usize..4,
        w_i in 0usize..4,
        h_i in 0usize..4,
    ) {
        let shape = [Shape::new(3, 3), Shape::new(2, 5), Shape::new(5, 2), Shape::new(2, 4)][shape_i];
        let w = [1.2, 1.5, 2.0, 3.0][w_i];
        let h = [
            HeuristicKind::Misplaced,
            HeuristicKind::Manhattan,
            HeuristicKind::LinearConflict,
            HeuristicKind::Pdb,
        ][h_i];
        let mut rng = common::rng(seed);
        let p = random_pair(shape, &mut rng);
        let best = TableSet::global()
            .distance(shape, p.start().tiles(), p.goal().tiles())
            .unwrap();
        let sol = search::solve(&p, &wastar(w, h)).unwrap();
        check_bounded(&p, &sol, best, w);
    }
}

/// Korf's instances (the easiest 20 by Korf's node counts): weighted A*
/// with linear conflict, against the published optimal lengths.
#[test]
fn wastar_is_within_its_weight_on_korf_instances() {
    let mut all =
        npuzzle_io::instances::parse(include_str!("../../../../data/korf100.txt"), None).unwrap();
    all.sort_by_key(|i| i.extra.first().copied().unwrap_or(u64::MAX));
    let goal = Board::blank_first(Shape::new(4, 4)).unwrap();
    for inst in all.iter().take(20) {
        let p = Problem::new(inst.start.clone(), goal.clone()).unwrap();
        for w in [1.5, 2.0] {
            let sol = search::solve(&p, &wastar(w, HeuristicKind::LinearConflict)).unwrap();
            check_bounded(&p, &sol, inst.length.unwrap(), w);
        }
    }
}

#[test]
fn anytime_proves_small_boards_and_bounds_hard_ones() {
    // 3x3: proven optimal, equal to the table.
    let mut rng = common::rng(7);
    for _ in 0..20 {
        let p = random_pair(Shape::new(3, 3), &mut rng);
        let best = TableSet::global()
            .distance(Shape::new(3, 3), p.start().tiles(), p.goal().tiles())
            .unwrap();
        let opts = SolveOptions::default()
            .with_algorithm(Algorithm::Anytime)
            .with_heuristic(HeuristicKind::Manhattan)
            .with_path(true);
        let sol = search::solve(&p, &opts).unwrap();
        assert!(sol.optimal, "{:?}", sol.lower_bound);
        assert_eq!(sol.moves, Some(best));
        assert!(verify_path(p.start(), p.goal(), sol.path.as_ref().unwrap()));
    }
    // Korf #1 (57 moves) with Manhattan and a short budget: an answer, a
    // lower bound at most 57, never fewer moves than 57.
    let start = Board::from_tiles(
        4,
        4,
        &[14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3],
    )
    .unwrap();
    let p = Problem::new(start, Board::blank_first(Shape::new(4, 4)).unwrap()).unwrap();
    let opts = SolveOptions::default()
        .with_algorithm(Algorithm::Anytime)
        .with_heuristic(HeuristicKind::Manhattan)
        .with_path(true)
        .with_budget(Budget::default().with_timeout(Some(Duration::from_millis(500))));
    let sol = search::solve(&p, &opts).unwrap();
    check_bounded(&p, &sol, 57, f64::INFINITY);
}

#[test]
fn auto_and_optimal_choose_as_documented() {
    let goal = Board::blank_first(Shape::new(5, 5)).unwrap();
    let mut start = goal.clone();
    start.apply(npuzzle::Dir::Right);
    let p = Problem::new(start, goal).unwrap();
    let plan = search::plan(&p, &SolveOptions::default()).unwrap();
    assert_eq!(plan.algorithm, Algorithm::Anytime);
    let plan = search::plan(&p, &SolveOptions::default().with_optimal(true)).unwrap();
    assert_eq!(plan.algorithm, Algorithm::Idastar);
    let e = search::plan(
        &p,
        &SolveOptions::default()
            .with_optimal(true)
            .with_algorithm(Algorithm::Wastar),
    )
    .unwrap_err();
    assert!(matches!(e, SearchError::NotApplicable { .. }), "{e}");
    // 4x4 stays exact without being told.
    let goal = Board::blank_first(Shape::new(4, 4)).unwrap();
    let p = Problem::new(goal.clone(), goal).unwrap();
    let plan = search::plan(&p, &SolveOptions::default()).unwrap();
    assert_eq!(plan.algorithm, Algorithm::Idastar);
}
