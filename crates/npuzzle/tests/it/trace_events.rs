//! The events of every watched search, checked for what a student reading
//! them relies on: each node and child told once, each child one move from
//! the node expanded before it, each node expanded after it was queued,
//! the estimates those of the heuristic (computed here again), the fates
//! adding up to the states found, the answers replayed and marked optimal
//! only where they are; and the teaching contrasts (greedy best-first,
//! depth-first iterative deepening), the two frontiers of bidirectional
//! BFS and the visited sets' memory against independent answers.

use npuzzle_testkit as common;

use npuzzle::{parse_path, trace, verify_path, Algorithm, Board, Event, Fate, HeuristicKind};
use npuzzle::{Problem, Shape, Side, SolveOptions, Trace};
use std::collections::HashSet;

/// Random reachable pairs of `shape` at most `most` moves apart.
fn pairs(shape: Shape, n: usize, most: u32, seed: u64) -> Vec<(Board, Board, u32)> {
    let mut rng = common::rng(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let (s, g) = (
            common::random_board(shape, &mut rng),
            common::random_board(shape, &mut rng),
        );
        if s.can_reach(&g) {
            let d = common::bfs_all(&g)[s.tiles()];
            if d <= most {
                out.push((s, g, d));
            }
        }
    }
    out
}

fn traced(s: &Board, g: &Board, opts: &SolveOptions) -> Trace {
    let p = Problem::new(s.clone(), g.clone()).unwrap();
    trace(&p, opts, usize::MAX).unwrap()
}

/// `tiles` with the blank moved by the letter `via` (`back`: the other
/// way), on a board of `shape`.
fn moved(shape: Shape, tiles: &[u8], via: char, back: bool) -> Vec<u8> {
    let b = Board::from_tiles(shape.rows, shape.cols, tiles).unwrap();
    let d = parse_path(&via.to_string()).unwrap()[0];
    let d = if back { d.opposite() } else { d };
    b.moved(d).expect("a legal move").tiles().to_vec()
}

/// The Manhattan distance of `tiles` to `goal`, from scratch.
fn manhattan(shape: Shape, tiles: &[u8], goal: &[u8]) -> u32 {
    let at = |t: u8, b: &[u8]| b.iter().position(|&x| x == t).unwrap();
    (1..tiles.len() as u8)
        .map(|t| {
            let (a, b) = (at(t, tiles), at(t, goal));
            ((a / shape.cols).abs_diff(b / shape.cols) + (a % shape.cols).abs_diff(b % shape.cols))
                as u32
        })
        .sum()
}

/// The checks every search's events pass.
fn check_events(t: &Trace, shape: Shape, with_manhattan: bool) {
    let what = format!("{} {:?} → {:?}", t.algorithm, t.start, t.goal);
    let mut queued: HashSet<(Option<Side>, Vec<u8>, u32)> = HashSet::new();
    let mut last: std::collections::HashMap<Option<Side>, (Vec<u8>, u32)> = Default::default();
    let (mut expanded, mut generated, mut fresh) = (0u64, 0u64, 0u64);
    for e in &t.events {
        match e {
            Event::Expanded {
                tiles,
                g,
                h,
                via,
                side,
                goal,
                ..
            } => {
                // (the search from the goal starts there)
                let at_goal = tiles[..] == t.goal[..] && *side != Some(Side::Backward);
                assert_eq!(*goal, at_goal, "{what}");
                expanded += u64::from(!goal);
                match via {
                    None => assert!(tiles[..] == t.start[..] || tiles[..] == t.goal[..]),
                    Some(_) => assert!(
                        queued.contains(&(*side, tiles.clone(), *g)),
                        "{what}: {tiles:?} expanded at {g} before it was queued"
                    ),
                }
                if with_manhattan {
                    assert_eq!(*h, Some(manhattan(shape, tiles, &t.goal)), "{what}");
                }
                last.insert(*side, (tiles.clone(), *g));
            }
            Event::Generated {
                tiles,
                g,
                h,
                via,
                fate,
                side,
            } => {
                generated += 1;
                let (parent, pg) = last.get(side).expect("a child after its parent");
                assert_eq!(moved(shape, parent, *via, false), *tiles, "{what}");
                assert_eq!(*g, pg + 1, "{what}");
                if with_manhattan {
                    assert_eq!(*h, Some(manhattan(shape, tiles, &t.goal)), "{what}");
                }
                if *fate == Fate::Queued {
                    fresh += 1;
                    queued.insert((*side, tiles.clone(), *g));
                }
            }
            _ => {}
        }
    }
    assert_eq!(t.events_dropped, 0);
    assert_eq!((expanded, generated), (t.expanded, t.generated), "{what}");
    if t.algorithm.starts_with("bfs") {
        // every state found was queued once, the start aside
        assert_eq!(fresh + 1, t.layers.iter().sum::<u64>(), "{what}");
    }
    let start = Board::from_tiles(shape.rows, shape.cols, &t.start).unwrap();
    let goal = Board::from_tiles(shape.rows, shape.cols, &t.goal).unwrap();
    let path = parse_path(t.path.as_deref().expect("a path")).unwrap();
    assert!(
        verify_path(&start, &goal, &path),
        "{what}: the path replays"
    );
    assert_eq!(t.moves, Some(path.len() as u32));
}

#[test]
fn every_search_tells_each_node_and_child_once_and_in_order() {
    let shape = Shape::new(3, 3);
    let md = HeuristicKind::Manhattan;
    for (s, g, want) in
        pairs(shape, 6, 20, 40)
            .into_iter()
            .chain(pairs(Shape::new(2, 3), 4, 21, 41))
    {
        let shape = s.shape();
        for algo in [
            Algorithm::Bfs,
            Algorithm::BfsHash,
            Algorithm::BfsSet,
            Algorithm::Bibfs,
            Algorithm::Astar,
            Algorithm::Wastar,
            Algorithm::Greedy,
            Algorithm::Idastar,
            Algorithm::Dfid,
        ] {
            let opts = SolveOptions::default()
                .with_algorithm(algo)
                .with_heuristic(md);
            let t = traced(&s, &g, &opts);
            check_events(&t, shape, algo.informed());
            // (a bounded answer is proven optimal only when its bound
            // meets it)
            assert!(t.optimal || !algo.exact(), "{algo}");
            if t.optimal {
                assert_eq!(t.moves, Some(want), "{algo} {s} → {g}");
            } else {
                // a length of the right parity, never shorter
                let m = t.moves.unwrap();
                assert!(
                    m >= want && (m - want).is_multiple_of(2),
                    "{algo}: {m} against {want}"
                );
            }
        }
    }
}

#[test]
fn greedy_heads_for_the_goal_and_says_its_answer_may_be_long() {
    // the seeds' example: greedy expands a few dozen nodes where A* needs
    // hundreds, and answers with more moves than the fewest
    let s = npuzzle::parse_board("2 6 4 1 3 7 0 5 8", None).unwrap();
    let g = npuzzle::parse_board("8 1 5 7 3 6 4 0 2", None).unwrap();
    let want = common::bfs_all(&g)[s.tiles()];
    let md = SolveOptions::default().with_heuristic(HeuristicKind::Manhattan);
    let greedy = traced(&s, &g, &md.clone().with_algorithm(Algorithm::Greedy));
    let astar = traced(&s, &g, &md.with_algorithm(Algorithm::Astar));
    assert_eq!(astar.moves, Some(want));
    assert!(!greedy.optimal && greedy.moves.unwrap() > want);
    assert!(
        greedy.expanded * 5 < astar.expanded,
        "{} {}",
        greedy.expanded,
        astar.expanded
    );
}

#[test]
fn dfid_deepens_by_the_parity_step_to_the_fewest_moves() {
    for (s, g, want) in pairs(Shape::new(3, 3), 8, 16, 42) {
        let t = traced(
            &s,
            &g,
            &SolveOptions::default().with_algorithm(Algorithm::Dfid),
        );
        assert_eq!((t.moves, t.heuristic), (Some(want), None));
        let bounds: Vec<u32> = t.iterations.iter().map(|it| it.bound).collect();
        let expect: Vec<u32> = (want % 2..=want).step_by(2).collect();
        assert_eq!(bounds, expect);
        let sum: u64 = t.iterations.iter().map(|it| it.expanded).sum();
        assert_eq!(sum, t.expanded);
        assert!(t
            .events
            .iter()
            .all(|e| !matches!(e, Event::Expanded { h: Some(_), .. })));
    }
}

#[test]
fn bibfs_layers_from_each_side_are_plain_bfs_layers() {
    for (s, g, want) in pairs(Shape::new(3, 3), 10, 31, 43) {
        let t = traced(
            &s,
            &g,
            &SolveOptions::default().with_algorithm(Algorithm::Bibfs),
        );
        assert_eq!(t.moves, Some(want));
        for (root, layers) in [(&s, &t.forward_layers), (&g, &t.backward_layers)] {
            let dist = common::bfs_all(root);
            for (d, &n) in layers.iter().enumerate() {
                let plain = dist.values().filter(|&&x| x as usize == d).count() as u64;
                assert_eq!(n, plain, "layer {d} from {root}");
            }
        }
        // the searches met between their last layers
        let m = t.meet.unwrap();
        assert!(m.forward as usize <= t.forward_layers.len());
        assert!(m.backward as usize <= t.backward_layers.len());
    }
}

#[test]
fn the_open_list_sizes_follow_from_the_events() {
    for (s, g, _) in pairs(Shape::new(3, 3), 5, 31, 44) {
        let t = traced(
            &s,
            &g,
            &SolveOptions::default().with_algorithm(Algorithm::Bfs),
        );
        // breadth-first: open = found − expanded − the one expanded now,
        // closed = expanded
        let (mut found, mut k, mut max) = (1u64, 0u64, 0u64);
        for e in &t.events {
            match e {
                Event::Expanded { open, closed, .. } => {
                    assert_eq!((*open, *closed), (Some(found - k - 1), Some(k)));
                    max = max.max(found - k - 1);
                    k += 1;
                }
                Event::Generated {
                    fate: Fate::Queued, ..
                } => found += 1,
                _ => {}
            }
        }
        assert_eq!(t.max_open, Some(max));
        let astar = traced(
            &s,
            &g,
            &SolveOptions::default().with_algorithm(Algorithm::Astar),
        );
        let closed: Vec<u64> = astar
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Expanded { closed, .. } => *closed,
                _ => None,
            })
            .collect();
        assert!(closed.iter().enumerate().all(|(i, &c)| c == i as u64));
    }
}

#[test]
fn the_three_visited_sets_report_their_memory() {
    let (s, g, _) = pairs(Shape::new(3, 3), 1, 31, 45).remove(0);
    let runs: Vec<Trace> = [Algorithm::Bfs, Algorithm::BfsHash, Algorithm::BfsSet]
        .into_iter()
        .map(|a| traced(&s, &g, &SolveOptions::default().with_algorithm(a)))
        .collect();
    let m: Vec<_> = runs.iter().map(|t| t.memory.unwrap()).collect();
    let sets: Vec<&str> = m.iter().map(|m| m.set).collect();
    assert_eq!(sets, ["rank bit array", "hash set", "ordered set"]);
    assert_eq!(m[0].visited_bytes, 362_880 / 8); // 9! bits
    let found = runs[0].layers.iter().sum::<u64>();
    for m in &m[1..] {
        // a key of 8 bytes at least per state found, in either set
        assert!(m.visited_bytes >= 8 * found, "{m:?}");
        assert_eq!(m.nodes_bytes, runs[0].memory.unwrap().nodes_bytes);
    }
}

#[test]
fn pattern_database_idastar_tells_each_groups_part_of_the_estimate() {
    use npuzzle::pdb::PdbOptions;
    let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
    let dist = common::bfs_all(&goal);
    let pdb = PdbOptions::default()
        .with_partition("4-4".parse().unwrap())
        .with_cache(false);
    let opts = SolveOptions::default()
        .with_algorithm(Algorithm::Idastar)
        .with_heuristic(HeuristicKind::Pdb)
        .with_pdb(pdb);
    let mut rng = common::rng(46);
    for _ in 0..6 {
        let s = common::random_board(goal.shape(), &mut rng);
        if !s.can_reach(&goal) {
            continue;
        }
        let t = traced(&s, &goal, &opts);
        assert_eq!(t.moves, Some(dist[s.tiles()]));
        let mut told = 0;
        for e in &t.events {
            let Event::Expanded {
                tiles,
                h,
                parts,
                reflected,
                ..
            } = e
            else {
                continue;
            };
            let (parts, reflected) = (parts.as_ref().unwrap(), reflected.as_ref().unwrap());
            assert_eq!(parts.len(), 2);
            let (plain, mirrored): (u32, u32) = (parts.iter().sum(), reflected.iter().sum());
            // the estimate is the larger sum, and neither passes the true
            // distance (each group's part is a lower bound of its own)
            assert_eq!(*h, Some(plain.max(mirrored)), "{tiles:?}");
            assert!(plain.max(mirrored) <= dist[&tiles[..]], "{tiles:?}");
            told += 1;
        }
        assert!(told > 0);
    }
}
