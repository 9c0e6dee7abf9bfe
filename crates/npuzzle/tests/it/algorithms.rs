//! Every algorithm × heuristic against independent answers: the complete
//! distance tables (boards of at most 10 cells) and, beyond them, a second
//! algorithm.

use npuzzle::board::{Board, Dir, Shape};
use npuzzle::heuristic::pdb::PdbOptions;
use npuzzle::heuristic::{Heuristic, HeuristicKind, LinearConflict, Manhattan, Misplaced};
use npuzzle::search::{self, verify_path, Algorithm, Problem, SearchError, SolveOptions};
use npuzzle::table::TableSet;
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Every searching algorithm with every heuristic it takes.
fn combos() -> Vec<(Algorithm, HeuristicKind)> {
    let mut v = vec![
        (Algorithm::Bfs, HeuristicKind::Auto),
        (Algorithm::BfsHash, HeuristicKind::Auto),
        (Algorithm::BfsSet, HeuristicKind::Auto),
        (Algorithm::Bibfs, HeuristicKind::Auto),
    ];
    for a in [Algorithm::Astar, Algorithm::Idastar] {
        for h in [
            HeuristicKind::Misplaced,
            HeuristicKind::Manhattan,
            HeuristicKind::LinearConflict,
            HeuristicKind::Auto,
        ] {
            v.push((a, h));
        }
    }
    v
}

/// Where this test binary's pattern databases go: cargo's temporary folder
/// for tests, never the user's cache.
fn pdb_dir() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("algorithms-pdb")
}

/// Default options, with the databases kept in [`pdb_dir`].
fn defaults() -> SolveOptions {
    SolveOptions::default().with_pdb(PdbOptions::default().with_dir(Some(pdb_dir())))
}

/// `algo` with `h`, producing the path.
fn opts(algo: Algorithm, h: HeuristicKind) -> SolveOptions {
    defaults()
        .with_algorithm(algo)
        .with_heuristic(h)
        .with_path(true)
}

/// Solves with one combination and checks the answer against `want`
/// (`None`: unreachable) and the path for legality.
fn check(p: &Problem, algo: Algorithm, h: HeuristicKind, want: Option<u32>) {
    let sol = search::solve(p, &opts(algo, h)).unwrap_or_else(|e| {
        panic!(
            "{algo} {h} failed on {} -> {}: {e}",
            p.start().to_flat_string(),
            p.goal().to_flat_string()
        )
    });
    assert_eq!(
        sol.moves,
        want,
        "{algo} {h}: {} -> {}",
        p.start().to_flat_string(),
        p.goal().to_flat_string()
    );
    if let Some(m) = want {
        let path = sol.path.expect("path asked for");
        assert_eq!(path.len() as u32, m);
        assert!(
            verify_path(p.start(), p.goal(), &path),
            "{algo} {h}: illegal path"
        );
    }
    let s = sol.stats;
    if want.is_some_and(|m| m > 0) {
        assert!(
            s.expanded > 0 && s.generated > 0 && s.peak_states > 0,
            "{algo} {h}: {s:?}"
        );
    }
}

fn random_board(shape: Shape, rng: &mut impl Rng) -> Board {
    let mut t: Vec<u8> = (0..shape.cells() as u8).collect();
    t.shuffle(rng);
    Board::from_tiles(shape.rows, shape.cols, &t).unwrap()
}

/// A random solvable pair (random goal too).
fn random_pair(shape: Shape, rng: &mut impl Rng) -> Problem {
    let goal = random_board(shape, rng);
    let mut start = random_board(shape, rng);
    if !start.can_reach(&goal) {
        // swapping two tiles flips the parity
        let t = start.tiles();
        let (a, b) = match (t[0], t[1]) {
            (0, _) => (1, 2),
            (_, 0) => (0, 2),
            _ => (0, 1),
        };
        let mut v = t.to_vec();
        v.swap(a, b);
        start = Board::from_tiles(shape.rows, shape.cols, &v).unwrap();
    }
    Problem::new(start, goal).unwrap()
}

fn random_pairs_3x3(algos: &[Algorithm], seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let shape = Shape::new(3, 3);
    let tables = TableSet::global();
    for _ in 0..1000 {
        let p = random_pair(shape, &mut rng);
        let want = tables.distance(shape, p.start().tiles(), p.goal().tiles());
        assert!(want.is_some());
        for (a, h) in combos().into_iter().filter(|(a, _)| algos.contains(a)) {
            check(&p, a, h, want);
        }
    }
}

// The 1,000 random 3×3 pairs, split so the test harness runs them in parallel.
#[test]
fn random_3x3_pairs_bfs() {
    random_pairs_3x3(&[Algorithm::Bfs, Algorithm::BfsHash], 1);
}

#[test]
fn random_3x3_pairs_bfs_set_and_bibfs() {
    random_pairs_3x3(&[Algorithm::BfsSet, Algorithm::Bibfs], 1);
}

#[test]
fn random_3x3_pairs_astar() {
    random_pairs_3x3(&[Algorithm::Astar], 1);
}

#[test]
fn random_3x3_pairs_idastar() {
    random_pairs_3x3(&[Algorithm::Idastar], 1);
}

/// Calls `f` with every permutation of `0..n`.
fn permutations(n: usize, mut f: impl FnMut(&[u8])) {
    let mut p: Vec<u8> = (0..n as u8).collect();
    // Heap's algorithm
    let mut c = vec![0usize; n];
    f(&p);
    let mut i = 0;
    while i < n {
        if c[i] < i {
            if i % 2 == 0 {
                p.swap(0, i);
            } else {
                p.swap(c[i], i);
            }
            f(&p);
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
}

#[test]
fn every_2x3_and_3x2_position() {
    let tables = TableSet::global();
    for shape in [Shape::new(2, 3), Shape::new(3, 2)] {
        for goal in [
            Board::blank_last(shape).unwrap(),
            Board::blank_first(shape).unwrap(),
            Board::spiral(shape).unwrap(),
        ] {
            let mut count = 0;
            permutations(6, |t| {
                let start = Board::from_tiles(shape.rows, shape.cols, t).unwrap();
                let p = Problem::new(start, goal.clone()).unwrap();
                let want = tables.distance(shape, t, goal.tiles());
                if want.is_some() {
                    count += 1;
                }
                for (a, h) in combos() {
                    check(&p, a, h, want);
                }
            });
            assert_eq!(count, 360);
        }
    }
}

#[test]
fn heuristics_are_admissible_on_every_3x3_state() {
    let shape = Shape::new(3, 3);
    let tables = TableSet::global();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let goals = [
        Board::blank_last(shape).unwrap(),
        Board::spiral(shape).unwrap(),
        random_board(shape, &mut rng),
        random_board(shape, &mut rng),
    ];
    for goal in goals {
        let (mis, md, lc) = (
            Misplaced::new(&goal),
            Manhattan::new(&goal),
            LinearConflict::new(&goal),
        );
        let (mut states, mut lc_better) = (0, 0);
        permutations(9, |t| {
            let Some(d) = tables.distance(shape, t, goal.tiles()) else {
                return;
            };
            states += 1;
            let (hm, hd, hl) = (mis.estimate(t), md.estimate(t), lc.estimate(t));
            assert!(hm <= d, "misplaced {hm} > {d} on {t:?}");
            assert!(hd <= d, "manhattan {hd} > {d} on {t:?}");
            assert!(
                hl <= d,
                "linear conflict {hl} > {d} on {t:?} (goal {goal:?})"
            );
            assert!(hl >= hd, "linear conflict below manhattan on {t:?}");
            assert_eq!(hl % 2, d % 2, "parity");
            if hl > hd {
                lc_better += 1;
            }
        });
        assert_eq!(states, 181_440);
        assert!(
            lc_better > 10_000,
            "linear conflict should often beat manhattan"
        );
    }
}

/// A board `moves` random moves (never straight back) from `goal`.
fn random_walk(goal: &Board, moves: usize, rng: &mut impl Rng) -> Board {
    let mut b = goal.clone();
    let mut last: Option<Dir> = None;
    let mut done = 0;
    while done < moves {
        let d = Dir::ALL[rng.gen_range(0..4)];
        if last == Some(d.opposite()) || !b.apply(d) {
            continue;
        }
        last = Some(d);
        done += 1;
    }
    b
}

#[test]
fn astar_and_idastar_agree_beyond_the_tables() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for shape in [Shape::new(3, 4), Shape::new(4, 3), Shape::new(4, 4)] {
        for i in 0..12 {
            let goal = if i % 3 == 0 {
                random_board(shape, &mut rng)
            } else {
                Board::blank_first(shape).unwrap()
            };
            let len = rng.gen_range(20..=40);
            let start = random_walk(&goal, len, &mut rng);
            let p = Problem::new(start, goal).unwrap();
            let reference =
                search::solve(&p, &opts(Algorithm::Astar, HeuristicKind::LinearConflict))
                    .unwrap()
                    .moves;
            assert!(reference.is_some_and(|m| m as usize <= len));
            for (a, h) in [
                (Algorithm::Idastar, HeuristicKind::LinearConflict),
                (Algorithm::Idastar, HeuristicKind::Manhattan),
                (Algorithm::Astar, HeuristicKind::Manhattan),
                (Algorithm::Auto, HeuristicKind::Auto),
            ] {
                check(&p, a, h, reference);
            }
            // Short ones also against bidirectional BFS (uninformed).
            if reference.is_some_and(|m| m <= 24) {
                check(&p, Algorithm::Bibfs, HeuristicKind::Auto, reference);
            }
        }
    }
}

#[test]
fn unreachable_goals_start_no_search() {
    let shape = Shape::new(4, 4);
    let goal = Board::blank_last(shape).unwrap();
    let start = Board::from_tiles(
        4,
        4,
        &[2, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0],
    )
    .unwrap();
    let p = Problem::new(start, goal).unwrap();
    for (a, h) in combos() {
        let s = search::solve(&p, &opts(a, h)).unwrap();
        assert_eq!(s.moves, None);
        assert_eq!(s.stats.expanded, 0);
    }
}

/// Korf #1 (57 moves): far too hard for small budgets.
const HARD: [u8; 16] = [14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3];

fn hard() -> Problem {
    Problem::new(
        Board::from_tiles(4, 4, &HARD).unwrap(),
        Board::blank_first(Shape::new(4, 4)).unwrap(),
    )
    .unwrap()
}

#[test]
fn memory_searches_stop_at_max_states() {
    let p = hard();
    for a in [
        Algorithm::Bfs,
        Algorithm::BfsHash,
        Algorithm::BfsSet,
        Algorithm::Bibfs,
        Algorithm::Astar,
    ] {
        let mut o = opts(Algorithm::Auto, HeuristicKind::Manhattan);
        o.budget.max_states = 20_000;
        match search::solve(&p, &o.clone().with_algorithm(a)) {
            Err(SearchError::Budget { limit, stats, .. }) => {
                assert_eq!(limit, search::Limit::States, "{a}");
                assert!(stats.peak_states <= 20_000, "{a}: {stats:?}");
                assert!(stats.expanded > 0);
            }
            other => panic!("{a}: {other:?}"),
        }
    }
}

#[test]
fn idastar_stops_at_max_nodes_timeout_and_cancel() {
    let p = hard();
    let mut o = opts(Algorithm::Auto, HeuristicKind::Manhattan);
    o.budget.max_nodes = 100_000;
    match search::solve(&p, &o.clone().with_algorithm(Algorithm::Idastar)) {
        Err(SearchError::Budget {
            limit,
            stats,
            depth,
            ..
        }) => {
            assert_eq!(limit, search::Limit::Nodes);
            assert_eq!(stats.expanded, 100_000);
            assert!(depth >= 41);
        }
        other => panic!("{other:?}"),
    }
    let mut o = opts(Algorithm::Auto, HeuristicKind::Misplaced);
    o.budget.timeout = Some(std::time::Duration::from_millis(50));
    let t = std::time::Instant::now();
    match search::solve(&p, &o.clone().with_algorithm(Algorithm::Idastar)) {
        Err(SearchError::Budget { limit, .. }) => assert_eq!(limit, search::Limit::Time),
        other => panic!("{other:?}"),
    }
    assert!(t.elapsed().as_secs() < 5);
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let mut o = opts(Algorithm::Auto, HeuristicKind::Manhattan);
    o.budget.cancel = Some(flag);
    assert!(matches!(
        search::solve(&p, &o.clone().with_algorithm(Algorithm::Idastar)),
        Err(SearchError::Cancelled { .. })
    ));
}

#[test]
fn compare_agrees_with_the_table_on_the_seed_instance() {
    let start = Board::from_tiles(3, 3, &[2, 6, 4, 1, 3, 7, 0, 5, 8]).unwrap();
    let goal = Board::from_tiles(3, 3, &[8, 1, 5, 7, 3, 6, 4, 0, 2]).unwrap();
    let p = Problem::new(start, goal).unwrap();
    let c = search::compare::compare(&p, &defaults());
    assert!(c.agree);
    assert_eq!(c.rows.len(), search::compare::combinations().len());
    assert!(c.rows.iter().all(|r| r.moves == Some(31)), "{:?}", c.rows);
}

#[test]
fn compare_skips_what_plainly_cannot_fit() {
    // 4x4, 30 moves from the goal: IDA* answers; BFS is skipped by forecast.
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let goal = Board::blank_first(Shape::new(4, 4)).unwrap();
    let start = random_walk(&goal, 36, &mut rng);
    let p = Problem::new(start, goal).unwrap();
    let mut o = defaults();
    o.budget.max_states = 200_000;
    let c = search::compare::compare(&p, &o);
    assert!(c.agree);
    let row = |a: &str, h: Option<&str>| {
        c.rows
            .iter()
            .find(|r| r.algorithm == a && r.heuristic == h)
            .unwrap()
            .clone()
    };
    let table = row("table", None);
    assert!(table
        .skipped
        .as_deref()
        .is_some_and(|s| s.contains("complete tables cover boards of at most 10 cells")));
    let bfs = row("bfs", None);
    assert!(bfs.moves.is_none());
    assert!(
        bfs.skipped
            .as_deref()
            .is_some_and(|s| s.contains("forecast")),
        "{bfs:?}"
    );
    assert!(bfs.peak_states < 200_000);
    assert!(row("idastar", Some("linear-conflict")).moves.is_some());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn all_algorithms_agree(seed in any::<u64>(), shape_i in 0usize..6) {
        let shapes = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)];
        let (r, c) = shapes[shape_i];
        let shape = Shape::new(r, c);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let p = random_pair(shape, &mut rng);
        let want = TableSet::global().distance(shape, p.start().tiles(), p.goal().tiles());
        let cmp = search::compare::compare(&p, &defaults());
        prop_assert!(cmp.agree);
        for row in &cmp.rows {
            prop_assert_eq!(row.moves, want.map(i64::from), "{:?}", row);
        }
    }
}
