//! Traces of the searches (`npuzzle::trace`), checked against independent
//! answers: BFS layers against a plain BFS over whole boards from the
//! start, A*'s expansions in non-decreasing `f` with a consistent
//! heuristic, IDA*'s bounds rising to the fewest moves with its
//! iterations adding up to the total.

use npuzzle_testkit as common;

use npuzzle::{trace, Algorithm, Board, Event, HeuristicKind, Problem, SearchError, Shape};
use npuzzle::{SolveOptions, Trace};

/// Random reachable pairs of `shape`: (start, goal).
fn pairs(shape: Shape, n: usize, seed: u64) -> Vec<(Board, Board)> {
    let mut rng = common::rng(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let (s, g) = (
            common::random_board(shape, &mut rng),
            common::random_board(shape, &mut rng),
        );
        if s.can_reach(&g) {
            out.push((s, g));
        }
    }
    out
}

fn traced(s: &Board, g: &Board, opts: &SolveOptions) -> Trace {
    let p = Problem::new(s.clone(), g.clone()).unwrap();
    trace(&p, opts, usize::MAX).unwrap()
}

#[test]
fn bfs_layers_are_a_plain_bfs_from_the_start() {
    for shape in [Shape::new(3, 3), Shape::new(2, 4), Shape::new(2, 3)] {
        for (s, g) in pairs(shape, 12, 27) {
            // distances from the start (moves are reversible)
            let dist = common::bfs_all(&s);
            let want = dist[g.tiles()];
            let mut per_depth = vec![0u64; want as usize + 1];
            for &d in dist.values().filter(|&&d| d <= want) {
                per_depth[d as usize] += 1;
            }
            for algo in [Algorithm::Bfs, Algorithm::BfsHash, Algorithm::BfsSet] {
                let t = traced(&s, &g, &SolveOptions::default().with_algorithm(algo));
                assert_eq!(t.moves, Some(want), "{algo} {s} → {g}");
                let n = want as usize;
                assert_eq!(t.layers.len(), n + 1, "{algo} {s} → {g}");
                // every layer before the goal's complete; the goal's cut short
                assert_eq!(t.layers[..n], per_depth[..n], "{algo} {s} → {g}");
                if n > 0 {
                    assert!((1..=per_depth[n]).contains(&t.layers[n]));
                }
                let expanded = t
                    .events
                    .iter()
                    .filter(|e| matches!(e, Event::Expanded { .. }))
                    .count() as u64;
                assert_eq!(expanded, t.expanded);
            }
        }
    }
}

#[test]
fn astar_expands_in_non_decreasing_f_with_a_consistent_heuristic() {
    for (s, g) in pairs(Shape::new(3, 3), 20, 28) {
        for h in [HeuristicKind::Manhattan, HeuristicKind::Misplaced] {
            let opts = SolveOptions::default()
                .with_algorithm(Algorithm::Astar)
                .with_heuristic(h);
            let t = traced(&s, &g, &opts);
            let want = common::bfs_all(&g)[s.tiles()];
            assert_eq!(t.moves, Some(want));
            let fs: Vec<u32> = t
                .events
                .iter()
                .filter_map(|e| match e {
                    Event::Expanded {
                        g,
                        h: Some(h),
                        goal: false,
                        ..
                    } => Some(g + h),
                    _ => None,
                })
                .collect();
            assert_eq!(fs.len() as u64, t.expanded);
            assert!(fs.windows(2).all(|w| w[0] <= w[1]), "{h:?}: {fs:?}");
            assert!(fs.iter().all(|&f| f <= want), "no f past the answer");
            let by_f: u64 = t.expanded_by_f.iter().map(|&(_, n)| n).sum();
            assert_eq!(by_f, t.expanded);
        }
    }
}

#[test]
fn idastar_bounds_rise_to_the_answer_and_add_up() {
    for (s, g) in pairs(Shape::new(3, 3), 20, 29)
        .into_iter()
        .chain(pairs(Shape::new(2, 4), 10, 30))
    {
        let want = common::bfs_all(&g)[s.tiles()];
        for h in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict] {
            let opts = SolveOptions::default()
                .with_algorithm(Algorithm::Idastar)
                .with_heuristic(h);
            let t = traced(&s, &g, &opts);
            assert_eq!(t.moves, Some(want));
            let bounds: Vec<u32> = t.iterations.iter().map(|it| it.bound).collect();
            assert!(bounds.windows(2).all(|w| w[0] < w[1]), "{bounds:?}");
            assert_eq!(bounds.last(), Some(&want));
            let sum: u64 = t.iterations.iter().map(|it| it.expanded).sum();
            assert_eq!(sum, t.expanded);
            // each iteration names the next one's bound
            let nexts: Vec<Option<u32>> = t
                .events
                .iter()
                .filter_map(|e| match e {
                    Event::Iteration { next, .. } => Some(*next),
                    _ => None,
                })
                .collect();
            let mut expect: Vec<Option<u32>> = bounds[1..].iter().copied().map(Some).collect();
            expect.push(None);
            assert_eq!(nexts, expect);
        }
    }
}

#[test]
fn bibfs_meets_on_a_shortest_path() {
    for shape in [Shape::new(3, 3), Shape::new(2, 4)] {
        for (s, g) in pairs(shape, 15, 32) {
            let from_start = common::bfs_all(&s);
            let from_goal = common::bfs_all(&g);
            let want = from_start[g.tiles()];
            let t = traced(
                &s,
                &g,
                &SolveOptions::default().with_algorithm(Algorithm::Bibfs),
            );
            assert_eq!(t.moves, Some(want));
            let m = t.meet.expect("a meeting");
            assert_eq!(m.forward + m.backward, want, "{s} → {g}");
            // the meeting board lies on a shortest path, at those depths
            assert_eq!(from_start[&m.board], m.forward);
            assert_eq!(from_goal[&m.board], m.backward);
        }
    }
}

#[test]
fn the_events_kept_are_capped_and_the_totals_still_count() {
    let (s, g) = pairs(Shape::new(3, 3), 1, 31).remove(0);
    let p = Problem::new(s, g).unwrap();
    let opts = SolveOptions::default().with_algorithm(Algorithm::Bfs);
    let all = trace(&p, &opts, usize::MAX).unwrap();
    let few = trace(&p, &opts, 10).unwrap();
    assert_eq!(few.events.len(), 10);
    assert_eq!(few.events[..], all.events[..10]);
    assert_eq!(few.events_dropped, all.events.len() as u64 - 10);
    assert_eq!(
        (few.expanded, few.layers.clone()),
        (all.expanded, all.layers)
    );
}

#[test]
fn other_algorithms_are_refused_and_unreachable_goals_answered() {
    let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
    let start = goal.moved(npuzzle::Dir::Up).unwrap();
    let p = Problem::new(start, goal.clone()).unwrap();
    for algo in [Algorithm::Anytime, Algorithm::Fast, Algorithm::Table] {
        let opts = SolveOptions::default().with_algorithm(algo);
        assert!(matches!(
            trace(&p, &opts, 10),
            Err(SearchError::NotObservable { .. })
        ));
    }
    let odd = Board::from_tiles(3, 3, &[2, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
    let p = Problem::new(odd, goal).unwrap();
    let bfs = SolveOptions::default().with_algorithm(Algorithm::Bfs);
    let t = trace(&p, &bfs, 10).unwrap();
    assert_eq!((t.moves, t.expanded), (None, 0));
}

#[test]
fn what_can_be_watched_is_what_the_algorithm_says() {
    let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
    let start = goal.moved(npuzzle::Dir::Up).unwrap();
    let p = Problem::new(start, goal).unwrap();
    for algo in Algorithm::ALL.into_iter().filter(|&a| a != Algorithm::Auto) {
        let opts = SolveOptions::default().with_algorithm(algo);
        match trace(&p, &opts, 10) {
            Ok(t) => assert!(algo.watchable() && t.moves == Some(1), "{algo}"),
            Err(e) => {
                assert!(!algo.watchable(), "{algo}: {e}");
                assert!(e.to_string().contains("greedy, dfid"), "{e}");
            }
        }
    }
}
