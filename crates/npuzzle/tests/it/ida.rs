//! IDA*'s move pruning, dual lookups with pathmax, and parallel search:
//! every answer against an independent method (the complete tables, the
//! published lengths of Korf's instances, IDA* without the new pieces),
//! every path replayed.

use npuzzle_testkit as common;

use npuzzle::board::{Board, Shape};
use npuzzle::budget::{Budget, Progress};
use npuzzle::heuristic::pdb::{BlankMode, PdbHeuristic, PdbOptions};
use npuzzle::heuristic::{Heuristic, HeuristicKind, TableHooks};
use npuzzle::search::prune::Pruning;
use npuzzle::search::{self, Algorithm, Problem, SolveOptions};
use npuzzle::table::TableSet;
use std::sync::Arc;

fn pdb(partition: &str, blank: BlankMode, dual: bool) -> PdbOptions {
    PdbOptions::default()
        .with_partition(partition.parse().unwrap())
        .with_cache(false)
        .with_blank(blank)
        .with_dual(dual)
}

fn ida(
    heuristic: HeuristicKind,
    pdb: PdbOptions,
    pruning: Pruning,
    threads: usize,
) -> SolveOptions {
    SolveOptions::default()
        .with_algorithm(Algorithm::Idastar)
        .with_heuristic(heuristic)
        .with_pdb(pdb)
        .with_pruning(pruning)
        .with_threads(threads)
        .with_path(true)
}

/// The length found, after replaying the path.
fn solve_len(p: &Problem, o: &SolveOptions) -> u32 {
    let sol = search::solve(p, o).unwrap();
    let path = sol.path.unwrap();
    assert!(search::verify_path(p.start(), p.goal(), &path));
    assert_eq!(path.len() as u32, sol.moves.unwrap());
    sol.moves.unwrap()
}

/// The dual lookups never exceed the distance, on every position of the
/// small boards, for several goals, partitions and both blank modes; and
/// they do say more than the regular lookups somewhere.
#[test]
fn dual_lookups_are_admissible_on_every_small_position() {
    let set = TableSet::global();
    let cases = [
        (Shape::new(3, 3), "4-4"),
        (Shape::new(3, 3), "2-3-3"),
        (Shape::new(3, 3), "3-5"),
        (Shape::new(2, 4), "3-4"),
        (Shape::new(4, 2), "2-2-3"),
    ];
    for (shape, partition) in cases {
        let mut r = common::rng(5);
        let goals = [
            Board::blank_last(shape).unwrap(),
            Board::blank_first(shape).unwrap(),
            common::random_board(shape, &mut r),
        ];
        for goal in &goals {
            for blank in [BlankMode::Min, BlankMode::Regions] {
                let o = pdb(partition, blank, true);
                let h = PdbHeuristic::new(goal, &o, &(), &Budget::unlimited()).unwrap();
                assert!(h.has_second());
                let mut better = 0;
                for b in common::all_boards(shape) {
                    let Some(d) = set.distance(shape, b.tiles(), goal.tiles()) else {
                        continue;
                    };
                    let st = h.init(b.tiles());
                    let dual = h.second(&st);
                    assert!(
                        dual <= d,
                        "{shape} {partition} {blank:?} goal {}: dual {dual} > {d} for {}",
                        goal.to_row_string(),
                        b.to_row_string()
                    );
                    better += usize::from(dual > h.value(&st));
                }
                assert!(better > 0, "{shape} {partition}: the dual never helps");
            }
        }
    }
}

/// IDA* with the automaton, the dual lookups and both together finds the
/// tables' lengths (sequential and parallel).
#[test]
fn optimal_against_the_tables() {
    let set = TableSet::global();
    let mut r = common::rng(21);
    for (shape, partition, also) in [
        (Shape::new(3, 3), "4-4", "3-5"),
        (Shape::new(2, 4), "3-4", "4-3"),
        (Shape::new(2, 5), "4-5", "5-4"),
        (Shape::new(5, 2), "3-3-3", "2-3-4"),
    ] {
        for _ in 0..2 {
            let goal = common::random_board(shape, &mut r);
            let variants = [
                ida(
                    HeuristicKind::Manhattan,
                    PdbOptions::default(),
                    Pruning::Automaton,
                    1,
                ),
                ida(
                    HeuristicKind::LinearConflict,
                    PdbOptions::default(),
                    Pruning::Automaton,
                    2,
                ),
                ida(
                    HeuristicKind::Pdb,
                    pdb(partition, BlankMode::Auto, true),
                    Pruning::Automaton,
                    1,
                ),
                ida(
                    HeuristicKind::Pdb,
                    pdb(partition, BlankMode::Min, true),
                    Pruning::Parent,
                    2,
                ),
                ida(
                    HeuristicKind::Pdb,
                    pdb(partition, BlankMode::Auto, true),
                    Pruning::Automaton,
                    2,
                ),
                ida(
                    HeuristicKind::Pdb,
                    pdb(partition, BlankMode::Bits, false),
                    Pruning::Automaton,
                    1,
                ),
                ida(
                    HeuristicKind::Pdb,
                    pdb(partition, BlankMode::Bits, false),
                    Pruning::Automaton,
                    2,
                ),
                // the larger of two partitions' bounds
                ida(
                    HeuristicKind::Pdb,
                    pdb(partition, BlankMode::Auto, false).with_also(vec![also.parse().unwrap()]),
                    Pruning::Automaton,
                    1,
                ),
                ida(
                    HeuristicKind::Pdb,
                    pdb(partition, BlankMode::Min, true).with_also(vec![also.parse().unwrap()]),
                    Pruning::Automaton,
                    2,
                ),
                ida(
                    HeuristicKind::Pdb,
                    pdb(partition, BlankMode::Bits, false)
                        .with_also(vec![also.parse().unwrap(), "auto".parse().unwrap()]),
                    Pruning::Automaton,
                    1,
                ),
                // four partitions, the most that can be maxed
                ida(
                    HeuristicKind::Pdb,
                    pdb(partition, BlankMode::Auto, true).with_also(vec![
                        also.parse().unwrap(),
                        "auto".parse().unwrap(),
                        partition.parse().unwrap(),
                    ]),
                    Pruning::Automaton,
                    2,
                ),
            ];
            let mut n = 0;
            while n < 40 {
                let start = common::random_board(shape, &mut r);
                let Some(d) = set.distance(shape, start.tiles(), goal.tiles()) else {
                    continue;
                };
                let p = Problem::new(start, goal.clone()).unwrap();
                for o in &variants {
                    assert_eq!(solve_len(&p, o), d, "{shape} {partition} {:?}", o.pruning);
                }
                n += 1;
            }
        }
    }
}

/// On every fifth 3×3 position (for the goals of Korf's and the usual
/// convention), the automaton keeps an optimal path: IDA* with linear
/// conflict and the automaton finds the table's length.
#[test]
fn automaton_keeps_an_optimal_path_for_every_3x3_position() {
    let shape = Shape::new(3, 3);
    let set = TableSet::global();
    let o = ida(
        HeuristicKind::LinearConflict,
        PdbOptions::default(),
        Pruning::Automaton,
        1,
    );
    for goal in [
        Board::blank_first(shape).unwrap(),
        Board::blank_last(shape).unwrap(),
    ] {
        for start in common::all_boards(shape).into_iter().step_by(5) {
            let Some(d) = set.distance(shape, start.tiles(), goal.tiles()) else {
                continue;
            };
            let p = Problem::new(start, goal.clone()).unwrap();
            let sol = search::solve(&p, &o.clone().with_path(false)).unwrap();
            assert_eq!(sol.moves, Some(d), "{}", p.start().to_row_string());
        }
    }
}

/// 4×4: the pieces against plain IDA* (no move but the one back pruned,
/// linear conflict) on random positions, and against the published
/// lengths of the easiest of Korf's instances.
#[test]
fn agrees_with_plain_ida_on_4x4() {
    let shape = Shape::new(4, 4);
    let goal = Board::blank_first(shape).unwrap();
    let plain = ida(
        HeuristicKind::LinearConflict,
        PdbOptions::default(),
        Pruning::Parent,
        1,
    );
    let pieces = [
        ida(
            HeuristicKind::LinearConflict,
            PdbOptions::default(),
            Pruning::Automaton,
            1,
        ),
        ida(
            HeuristicKind::Pdb,
            pdb("5-5-5", BlankMode::Auto, true),
            Pruning::Automaton,
            1,
        ),
        ida(
            HeuristicKind::Pdb,
            pdb("5-5-5", BlankMode::Auto, true),
            Pruning::Automaton,
            2,
        ),
    ];
    let mut r = common::rng(31);
    let mut cases: Vec<(Board, Option<u32>)> = (0..25)
        .map(|_| (common::random_walk(&goal, 45, &mut r), None))
        .collect();
    let text = include_str!("../../../../data/korf100.txt");
    let mut korf = npuzzle_io::instances::parse(text, None).unwrap();
    korf.sort_by_key(|i| i.length);
    cases.extend(korf.into_iter().take(5).map(|i| (i.start, i.length)));
    for (start, published) in cases {
        let p = Problem::new(start, goal.clone()).unwrap();
        let want = solve_len(&p, &plain);
        if let Some(l) = published {
            assert_eq!(want, l);
        }
        for o in &pieces {
            assert_eq!(solve_len(&p, o), want, "{}", p.start().to_row_string());
        }
    }
}

/// Heavy: all of Korf's 100 with the automaton, the dual lookups and two
/// threads against the published lengths (6-6-3 built in memory; about
/// a minute). `cargo test --release -p npuzzle --test it -- --ignored ida::`.
#[test]
#[ignore]
fn korf100_with_every_piece() {
    let goal = Board::blank_first(Shape::new(4, 4)).unwrap();
    let o = ida(
        HeuristicKind::Pdb,
        pdb("6-6-3", BlankMode::Auto, true),
        Pruning::Automaton,
        2,
    );
    let text = include_str!("../../../../data/korf100.txt");
    for i in npuzzle_io::instances::parse(text, None).unwrap() {
        let p = Problem::new(i.start, goal.clone()).unwrap();
        assert_eq!(Some(solve_len(&p, &o)), i.length);
    }
}

/// A heuristic of the caller's, through `search::idastar_with`: a weak
/// one (tiles out of their goal row, plus out of their goal column), a
/// zero one (IDA* then is iterative deepening), and one that reads the
/// board (linear conflict, through the reference), each against a plain
/// BFS over every board of 2×3 and a sample of 3×3, paths replayed.
#[test]
fn idastar_with_a_callers_heuristic_against_bfs() {
    struct RowsCols(Vec<u8>, usize);
    impl Heuristic for RowsCols {
        type State = u32;
        fn name(&self) -> &'static str {
            "rows-cols"
        }
        fn init(&self, tiles: &[u8]) -> u32 {
            let c = self.1;
            tiles
                .iter()
                .enumerate()
                .filter(|&(_, &t)| t != 0)
                .map(|(cell, &t)| {
                    let g = usize::from(self.0[usize::from(t)]);
                    u32::from(g / c != cell / c) + u32::from(g % c != cell % c)
                })
                .sum()
        }
        fn value(&self, s: &u32) -> u32 {
            *s
        }
        fn update(&self, _: &u32, tiles: &[u8], _: u8, _: usize, _: usize) -> u32 {
            self.init(tiles)
        }
    }
    struct Zero;
    impl Heuristic for Zero {
        type State = ();
        fn name(&self) -> &'static str {
            "zero"
        }
        fn init(&self, _: &[u8]) {}
        fn value(&self, _: &()) -> u32 {
            0
        }
        fn update(&self, _: &(), _: &[u8], _: u8, _: usize, _: usize) {}
        const READS_TILES: bool = false;
    }
    let opts = SolveOptions::default().with_path(true);
    let mut r = common::rng(44);
    for (shape, sample) in [(Shape::new(2, 3), usize::MAX), (Shape::new(3, 3), 40)] {
        let goal = common::random_board(shape, &mut r);
        let dist = common::bfs_all(&goal);
        let rows_cols = RowsCols(goal.positions(), shape.cols);
        let lc = npuzzle::heuristic::LinearConflict::new(&goal);
        let boards = common::all_boards(shape);
        let step = (boards.len() / sample.min(boards.len())).max(1);
        for start in boards.into_iter().step_by(step) {
            let p = Problem::new(start.clone(), goal.clone()).unwrap();
            let want = dist.get(start.tiles()).copied();
            let check = |sol: search::Solution, name: &str| {
                assert_eq!(sol.moves, want, "{name} from {start:?}");
                assert_eq!(sol.heuristic, want.map(|_| name));
                if let Some(path) = sol.path {
                    assert!(search::verify_path(&start, &goal, &path));
                    assert!(sol.optimal);
                }
            };
            check(
                search::idastar_with(&p, &rows_cols, &opts).unwrap(),
                "rows-cols",
            );
            check(
                search::idastar_with(&p, &lc, &opts).unwrap(),
                "linear-conflict",
            );
            if shape.cells() <= 6 {
                check(search::idastar_with(&p, &Zero, &opts).unwrap(), "zero");
            }
        }
    }
}

/// Every IDA* driver (one thread and several, single-tile and in pushes,
/// Manhattan and databases) lists its iterations, and tells the same to a
/// watching [`npuzzle::Progress`]: bounds rising, the last
/// one the fewest moves (from the complete table), and their nodes summing
/// to the total.
#[test]
fn iterations_rise_to_the_answer_and_sum_to_the_nodes() {
    use npuzzle::board::Metric;
    let shape = Shape::new(3, 3);
    let goal = Board::blank_last(shape).unwrap();
    let mut rng = common::rng(29);
    for metric in [Metric::Stm, Metric::Mtm] {
        let dist = common::reference::bfs_all_in(&goal, metric);
        for _ in 0..6 {
            let start = common::random_walk(&goal, 60, &mut rng);
            let p = Problem::new(start.clone(), goal.clone()).unwrap();
            let want = dist.get(start.tiles()).copied();
            for (h, threads) in [
                (HeuristicKind::Manhattan, 1),
                (HeuristicKind::Manhattan, 2),
                (HeuristicKind::Pdb, 1),
                (HeuristicKind::Pdb, 2),
            ] {
                let o = ida(
                    h,
                    PdbOptions::default().with_cache(false),
                    Pruning::Auto,
                    threads,
                )
                .with_metric(metric);
                let progress = Arc::new(Progress::default());
                let o = o.with_budget(Budget::default().with_progress(Some(progress.clone())));
                let sol = search::solve(&p, &o).unwrap();
                let what = format!("{metric:?} {h:?} {threads} threads from {start}");
                assert_eq!(sol.moves, want, "{what}");
                let its = &sol.iterations;
                assert!(!its.is_empty(), "{what}: {} {:?}", sol.algorithm, sol.plan);
                assert!(
                    its.windows(2).all(|w| w[0].bound < w[1].bound),
                    "{what}: {its:?}"
                );
                assert_eq!(its.last().map(|i| i.bound), want, "{what}: {its:?}");
                let sum: u64 = its.iter().map(|i| i.expanded).sum();
                assert_eq!(sum, sol.stats.expanded, "{what}: {its:?}");
                // What a watcher saw is what the answer says.
                let seen = progress.snapshot();
                let pairs: Vec<(u32, u64)> = its.iter().map(|i| (i.bound, i.expanded)).collect();
                assert_eq!(seen.iterations, pairs, "{what}");
                assert_eq!(seen.nodes, sol.stats.expanded, "{what}");
                assert_eq!(Some(seen.bound), want, "{what}");
            }
        }
    }
}
