//! The fast constructive solver (`npuzzle::large`): every path is replayed
//! and checked against the goal and the reported length; boards of at most
//! 10 cells are checked against the complete distance tables.

use npuzzle::board::{parse_path, Dir, Grid, Shape};
use npuzzle::large::{self, Discard, Error, Letters, MoveSink, Options};
use npuzzle::table::TableSet;
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// Both boards as grids (valid permutations in these tests).
fn grids(rows: usize, cols: usize, start: &[u32], goal: &[u32]) -> (Grid, Grid) {
    let g = |t: &[u32]| Grid::new(rows, cols, t.to_vec()).expect("a valid board");
    (g(start), g(goal))
}

/// Whether `goal` can be reached: `Err(Unsolvable)` when not.
fn check(rows: usize, cols: usize, start: &[u32], goal: &[u32]) -> Result<(), Error> {
    let (s, g) = grids(rows, cols, start, goal);
    if s.can_reach(&g) {
        Ok(())
    } else {
        Err(Error::Unsolvable)
    }
}

/// [`large::solve`] on boards given as tiles.
fn solve<S: MoveSink>(
    rows: usize,
    cols: usize,
    start: &[u32],
    goal: &[u32],
    opts: &Options,
    sink: &mut S,
) -> Result<large::Report, Error<S::Error>> {
    let (s, g) = grids(rows, cols, start, goal);
    large::solve(&s, &g, opts, sink)
}

/// A random goal and a random start that can reach it (blank anywhere).
fn random_pair(rows: usize, cols: usize, rng: &mut ChaCha8Rng) -> (Vec<u32>, Vec<u32>) {
    let n = (rows * cols) as u32;
    let mut goal: Vec<u32> = (0..n).collect();
    goal.shuffle(rng);
    let mut start: Vec<u32> = (0..n).collect();
    start.shuffle(rng);
    if check(rows, cols, &start, &goal).is_err() {
        swap_two_tiles(&mut start);
    }
    (start, goal)
}

/// Swaps two tiles (not the blank): flips whether the goal is reachable.
fn swap_two_tiles(tiles: &mut [u32]) {
    let a = tiles.iter().position(|&t| t != 0).unwrap();
    let b = tiles.iter().rposition(|&t| t != 0).unwrap();
    tiles.swap(a, b);
}

/// Applies `path` to `start`: the board reached, or the index of the first
/// move off the board.
fn replay(rows: usize, cols: usize, start: &[u32], path: &[Dir]) -> Result<Vec<u32>, usize> {
    let mut b = start.to_vec();
    let mut blank = b.iter().position(|&t| t == 0).unwrap();
    for (i, d) in path.iter().enumerate() {
        let to = d.step(blank, rows, cols).ok_or(i)?;
        b.swap(blank, to);
        blank = to;
    }
    Ok(b)
}

/// Solves, replays the path and checks it against the goal, the reported
/// length and the Manhattan lower bound (also in parity).
fn solve_and_check(
    rows: usize,
    cols: usize,
    start: &[u32],
    goal: &[u32],
) -> (Vec<Dir>, large::Report) {
    solve_and_check_with(rows, cols, start, goal, &once())
}

/// Solving once: small boards are otherwise solved up to 64 times, which
/// would make the suite slow (that is tested on its own).
fn once() -> Options {
    Options {
        max_runs: 1,
        ..Options::default()
    }
}

fn solve_and_check_with(
    rows: usize,
    cols: usize,
    start: &[u32],
    goal: &[u32],
    opts: &Options,
) -> (Vec<Dir>, large::Report) {
    let (s, g) = grids(rows, cols, start, goal);
    let (path, report) = large::solve_path(&s, &g, opts)
        .unwrap_or_else(|e| panic!("{rows}x{cols}: {e}\nstart {start:?}\ngoal {goal:?}"));
    assert_eq!(
        path.len() as u64,
        report.moves,
        "{rows}x{cols}: reported length"
    );
    let end = replay(rows, cols, start, &path)
        .unwrap_or_else(|i| panic!("{rows}x{cols}: move {i} leaves the board"));
    assert_eq!(end, goal, "{rows}x{cols}: the path does not reach the goal");
    // only boards of at most 10 cells are solved exactly
    assert_eq!(report.optimal, rows * cols <= 10, "{rows}x{cols}");
    assert!(
        report.moves >= report.lower_bound,
        "{rows}x{cols}: below the lower bound"
    );
    // every move changes the Manhattan distance by one
    assert_eq!(
        report.moves % 2,
        report.lower_bound % 2,
        "{rows}x{cols}: parity"
    );
    (path, report)
}

#[test]
fn random_square_boards_with_random_goals() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    for n in 2..=30 {
        for _ in 0..3 {
            let (s, g) = random_pair(n, n, &mut rng);
            solve_and_check(n, n, &s, &g);
        }
    }
}

/// Past 65,536 cells the solver drops only inverse pairs (no cycle check)
/// and its routes look one move ahead (not two): both ways are replayed,
/// the second on a board just past the limit, the first on small boards.
#[test]
fn boards_past_the_thorough_size_and_without_the_cycle_check() {
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    let (n, m) = (257, 256);
    let limit = large::CYCLE_CHECK_MAX_CELLS.max(large::LOOK_AHEAD_MAX_CELLS);
    assert!(n * m > limit);
    let (s, g) = random_pair(n, m, &mut rng);
    solve_and_check(n, m, &s, &g);
    let plain = Options {
        drop_cycles: false,
        ..once()
    };
    for (r, c) in [(7, 7), (12, 9), (30, 30)] {
        let (s, g) = random_pair(r, c, &mut rng);
        solve_and_check_with(r, c, &s, &g, &plain);
    }
}

/// Small boards are solved several times, each path is valid, and the
/// shortest is kept: never longer than solving once.
#[test]
fn several_runs_keep_the_shortest() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for (r, c) in [(4, 4), (5, 5), (3, 8), (9, 6), (20, 20), (32, 32)] {
        let (s, g) = random_pair(r, c, &mut rng);
        let (_, one) = solve_and_check(r, c, &s, &g);
        let (_, best) = solve_and_check_with(r, c, &s, &g, &Options::default());
        assert!(
            best.moves <= one.moves,
            "{r}x{c}: {} > {}",
            best.moves,
            one.moves
        );
    }
}

#[test]
fn rectangular_boards() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let shapes = [
        (2, 3),
        (3, 2),
        (2, 6),
        (6, 2),
        (2, 11),
        (11, 2),
        (2, 40),
        (40, 2),
        (3, 7),
        (7, 3),
        (3, 4),
        (4, 3),
        (3, 12),
        (12, 3),
        (4, 9),
        (9, 4),
        (5, 17),
        (17, 5),
        (8, 13),
        (13, 8),
        (2, 120),
        (120, 2),
    ];
    for (r, c) in shapes {
        for _ in 0..4 {
            let (s, g) = random_pair(r, c, &mut rng);
            solve_and_check(r, c, &s, &g);
        }
    }
}

#[test]
fn standard_goals_and_already_solved_boards() {
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    for (r, c) in [(4, 4), (5, 5), (10, 10), (6, 9)] {
        let n = (r * c) as u32;
        let blank_last: Vec<u32> = (1..n).chain([0]).collect();
        let blank_first: Vec<u32> = (0..n).collect();
        for goal in [blank_last, blank_first] {
            let (_, report) = solve_and_check(r, c, &goal, &goal);
            assert_eq!(report.moves, 0);
            let mut start = goal.clone();
            start.shuffle(&mut rng);
            if check(r, c, &start, &goal).is_err() {
                swap_two_tiles(&mut start);
            }
            solve_and_check(r, c, &start, &goal);
        }
    }
}

/// Boards of at most 10 cells are one final region: the answer is the
/// complete table's optimal length.
#[test]
fn small_boards_are_solved_optimally() {
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    let tables = TableSet::global();
    for (r, c, samples) in [
        (2, 2, 50),
        (2, 3, 100),
        (3, 2, 100),
        (2, 4, 100),
        (4, 2, 100),
        (3, 3, 300),
        (2, 5, 60),
        (5, 2, 60),
    ] {
        for _ in 0..samples {
            let (s, g) = random_pair(r, c, &mut rng);
            let (_, report) = solve_and_check(r, c, &s, &g);
            let narrow = |t: &[u32]| t.iter().map(|&x| x as u8).collect::<Vec<u8>>();
            let optimal = tables
                .distance(Shape::new(r, c), &narrow(&s), &narrow(&g))
                .expect("a table for a board of at most 10 cells");
            assert_eq!(report.moves, u64::from(optimal), "{r}x{c}: {s:?} -> {g:?}");
            assert_eq!(report.final_region, (r, c));
            assert!(report.optimal);
        }
    }
}

/// Larger boards are not optimal, but never beat the optimum: checked on
/// 3×4 and 4×3 boards a few moves from the goal, whose optimal length a
/// breadth-first search finds.
#[test]
fn never_shorter_than_optimal() {
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    for (r, c) in [(3, 4), (4, 3)] {
        let n = (r * c) as u32;
        let goal: Vec<u32> = (1..n).chain([0]).collect();
        for walk in [6usize, 10, 14] {
            // a random walk from the goal; its length bounds the optimum
            let mut start = goal.clone();
            let mut blank = start.iter().position(|&t| t == 0).unwrap();
            let dirs = Dir::ALL;
            for _ in 0..walk {
                let d = *dirs.choose(&mut rng).unwrap();
                if let Some(to) = d.step(blank, r, c) {
                    start.swap(blank, to);
                    blank = to;
                }
            }
            let optimal = bfs_distance(r, c, &start, &goal);
            let (_, report) = solve_and_check(r, c, &start, &goal);
            assert!(
                report.moves >= optimal,
                "{r}x{c}: {} < optimal {optimal}",
                report.moves
            );
        }
    }
}

/// Fewest moves by plain breadth-first search (small distances only).
fn bfs_distance(rows: usize, cols: usize, start: &[u32], goal: &[u32]) -> u64 {
    use std::collections::{HashSet, VecDeque};
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([(start.to_vec(), 0u64)]);
    seen.insert(start.to_vec());
    while let Some((b, d)) = queue.pop_front() {
        if b == goal {
            return d;
        }
        let blank = b.iter().position(|&t| t == 0).unwrap();
        for dir in Dir::ALL {
            if let Some(to) = dir.step(blank, rows, cols) {
                let mut next = b.clone();
                next.swap(blank, to);
                if seen.insert(next.clone()) {
                    queue.push_back((next, d + 1));
                }
            }
        }
    }
    unreachable!("the goal is reachable")
}

/// A sink that counts the moves it is handed and fails if any arrive.
struct MustStayEmpty(u64);

impl MoveSink for MustStayEmpty {
    type Error = std::convert::Infallible;
    fn moves(&mut self, moves: &[Dir]) -> Result<(), Self::Error> {
        self.0 += moves.len() as u64;
        Ok(())
    }
}

#[test]
fn unreachable_goals_are_answered_before_any_move() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    for (r, c) in [
        (2, 2),
        (3, 3),
        (4, 4),
        (2, 9),
        (17, 3),
        (100, 100),
        (1000, 1000),
        (2, 500_000),
    ] {
        let n = (r * c) as u32;
        let goal: Vec<u32> = (1..n).chain([0]).collect();
        let mut start = goal.clone();
        start.shuffle(&mut rng);
        if check(r, c, &start, &goal).is_ok() {
            swap_two_tiles(&mut start);
        }
        let mut sink = MustStayEmpty(0);
        let e = solve(r, c, &start, &goal, &once(), &mut sink).unwrap_err();
        assert!(matches!(e, Error::Unsolvable), "{r}x{c}: {e}");
        assert_eq!(sink.0, 0);
        assert!(matches!(check(r, c, &start, &goal), Err(Error::Unsolvable)));
    }
}

#[test]
fn bad_input_gets_a_clear_error() {
    let (g3, g4) = (
        Grid::blank_last(Shape::new(3, 3)),
        Grid::blank_last(Shape::new(4, 4)),
    );
    let e = large::solve(&g3, &g4, &Options::default(), &mut Discard).unwrap_err();
    assert!(matches!(e, Error::ShapeMismatch { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        "the start is 3x3 and the goal 4x4: they must have the same size"
    );
    let opts = Options {
        max_cells: 100,
        ..Options::default()
    };
    let big = Grid::blank_last(Shape::new(11, 11));
    let e = large::solve(&big, &big, &opts, &mut Discard).unwrap_err();
    assert!(matches!(e, Error::TooLarge { limit: 100, .. }), "{e}");
    assert!(large::manhattan(&g3, &g4).is_err());
}

/// A sink that fails on its second chunk.
struct FailsLater(u32);

impl MoveSink for FailsLater {
    type Error = std::io::Error;
    fn moves(&mut self, _: &[Dir]) -> std::io::Result<()> {
        self.0 += 1;
        if self.0 >= 2 {
            return Err(std::io::Error::other("disk full"));
        }
        Ok(())
    }
}

#[test]
fn stops_on_sink_errors_cancellation_and_deadlines() {
    let mut rng = ChaCha8Rng::seed_from_u64(18);
    let (s, g) = random_pair(40, 40, &mut rng);
    // a small board's answer is handed over once chosen: the sink's error
    // comes back all the same
    let (s2, g2) = random_pair(30, 30, &mut rng);
    let e = solve(30, 30, &s2, &g2, &Options::default(), &mut FailsLater(1)).unwrap_err();
    assert!(matches!(e, Error::Sink { moves: 0, .. }), "{e}");
    let e = solve(40, 40, &s, &g, &Options::default(), &mut FailsLater(0)).unwrap_err();
    match e {
        Error::Sink { moves, source } => {
            assert!(moves > 0);
            assert_eq!(source.to_string(), "disk full");
        }
        e => panic!("{e}"),
    }
    let cancelled = Options {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..Options::default()
    };
    let e = solve(40, 40, &s, &g, &cancelled, &mut Discard).unwrap_err();
    assert!(matches!(e, Error::Cancelled { .. }), "{e}");
    let late = Options {
        deadline: Some(Instant::now()),
        ..Options::default()
    };
    let e = solve(40, 40, &s, &g, &late, &mut Discard).unwrap_err();
    assert!(matches!(e, Error::Deadline { .. }), "{e}");
}

#[test]
fn letters_stream_the_same_path() {
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    let (s, g) = random_pair(12, 9, &mut rng);
    let (path, _) = solve_and_check(12, 9, &s, &g);
    let mut sink = Letters::new(Vec::new());
    let report = solve(12, 9, &s, &g, &once(), &mut sink).unwrap();
    let text = String::from_utf8(sink.into_inner()).unwrap();
    assert_eq!(text.len() as u64, report.moves);
    assert_eq!(parse_path(&text).unwrap(), path);
}

fn shape_and_pair() -> impl Strategy<Value = (usize, usize, Vec<u32>, Vec<u32>)> {
    (2usize..=9, 2usize..=9).prop_flat_map(|(r, c)| {
        let tiles: Vec<u32> = (0..(r * c) as u32).collect();
        (
            Just(r),
            Just(c),
            Just(tiles.clone()).prop_shuffle(),
            Just(tiles).prop_shuffle(),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Reachable pairs are solved (the path replays to the goal with the
    /// reported length, at least the Manhattan distance, of its parity);
    /// the others are refused.
    #[test]
    fn solves_exactly_the_reachable_pairs((r, c, s, g) in shape_and_pair()) {
        match check(r, c, &s, &g) {
            Ok(()) => {
                solve_and_check(r, c, &s, &g);
            }
            Err(Error::Unsolvable) => {
                let e = solve(r, c, &s, &g, &once(), &mut Discard).unwrap_err();
                prop_assert!(matches!(e, Error::Unsolvable));
            }
            Err(e) => panic!("{e}"),
        }
    }

    /// Renaming the tiles (the same way in start and goal) changes nothing:
    /// the solver only sees which goal cell each tile belongs to.
    #[test]
    fn renaming_tiles_gives_the_same_path((r, c, s, g) in shape_and_pair(), seed in any::<u64>()) {
        prop_assume!(check(r, c, &s, &g).is_ok());
        let n = (r * c) as u32;
        let mut rename: Vec<u32> = (1..n).collect();
        rename.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        rename.insert(0, 0);
        let s2: Vec<u32> = s.iter().map(|&t| rename[t as usize]).collect();
        let g2: Vec<u32> = g.iter().map(|&t| rename[t as usize]).collect();
        let (p1, _) = solve_and_check(r, c, &s, &g);
        let (p2, _) = solve_and_check(r, c, &s2, &g2);
        prop_assert_eq!(p1, p2);
    }
}
