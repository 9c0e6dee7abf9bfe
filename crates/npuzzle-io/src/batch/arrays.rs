//! Answering boards held in memory as flat arrays of tiles (one board after
//! another, in reading order), for callers that have many boards already:
//! a NumPy array, a generated set.
//!
//! Every board is checked before any is answered, so bad input is reported
//! (naming the first bad board) without work thrown away. The planner
//! decides per shape, for many queries ([`Workload::Many`]): boards with
//! complete tables are looked up exactly as the batch runner's
//! [`Answerer`](super::Answerer) looks them up, a few thousand per task on
//! every core; larger boards are searched, one board per task.
//!
//! ```
//! use npuzzle_io::batch::arrays::answer_boards;
//! use npuzzle::Shape;
//! use npuzzle::SolveOptions;
//!
//! // Two starts; the second is the goal with two tiles swapped: unreachable.
//! let starts = [2, 8, 3, 1, 6, 4, 7, 0, 5, /**/ 2, 1, 3, 8, 0, 4, 7, 6, 5];
//! let goal = [1, 2, 3, 8, 0, 4, 7, 6, 5]; // one goal for every start
//! let moves = answer_boards(Shape::new(3, 3), &starts, &goal, &SolveOptions::default())?;
//! assert_eq!(moves, [5, -1]);
//! # Ok::<(), npuzzle_io::batch::arrays::ArrayError>(())
//! ```

use super::table_answer;
use npuzzle::{Board, BoardError, Role, Shape};

const MAX_SIDE: usize = Board::MAX_SIDE;
use npuzzle::{Algorithm, ErrorKind, Problem, SearchError, SolveOptions, Stats, Workload};
use rayon::prelude::*;
use thiserror::Error;

/// Boards looked up per task: a few hundred microseconds of lookups, so
/// the cancel flag is seen often and tasks still cost little to hand out.
const CHUNK: usize = 4096;

/// Why an array of boards got no answers.
#[derive(Debug, Clone, Error)]
#[non_exhaustive]
pub enum ArrayError {
    /// The shape is not a supported board.
    #[error(transparent)]
    Shape(BoardError),
    /// The starts do not fill a whole number of boards.
    #[error("{len} start tiles do not fill whole {shape} boards ({cells} cells each)", cells = shape.cells())]
    Length {
        /// Tiles given.
        len: usize,
        /// The boards' shape.
        shape: Shape,
    },
    /// The goals are neither one board nor one per start.
    #[error("{goals} goal tiles are neither one {shape} goal ({cells} cells) nor one per start ({starts} boards)", cells = shape.cells())]
    GoalCount {
        /// Goal tiles given.
        goals: usize,
        /// Start boards given.
        starts: usize,
        /// The boards' shape.
        shape: Shape,
    },
    /// A board is not a permutation of its tiles (0-based index).
    #[error("{role} {index}: {error}")]
    Board {
        /// Whether a start or a goal.
        role: Role,
        /// Its index among the starts (or goals), from 0.
        index: usize,
        /// What is wrong with it.
        error: BoardError,
    },
    /// The options cannot answer boards of this shape (an algorithm that
    /// does not apply, or is not exact).
    #[error(transparent)]
    Options(SearchError),
    /// The search for one start gave no answer (0-based index).
    #[error("start {index}: {error}")]
    Search {
        /// Its index among the starts, from 0.
        index: usize,
        /// Why.
        error: SearchError,
    },
}

impl ArrayError {
    /// The kind of failure, as [`SearchError::kind`] gives it.
    pub fn kind(&self) -> ErrorKind {
        match self {
            ArrayError::Search { error, .. } | ArrayError::Options(error) => error.kind(),
            _ => ErrorKind::BadInput,
        }
    }
}

/// The fewest moves from each start to its goal, `-1` where the goal
/// cannot be reached.
///
/// `starts` holds boards of `shape` one after another (tiles in reading
/// order, `0` the blank); `goals` holds either one goal, for every start,
/// or one goal per start. Every board must be a permutation of
/// `0..cells`: the first that is not is reported (starts before goals)
/// before anything is answered.
///
/// Answers are always proven optimal: the options insist on it
/// ([`SolveOptions::optimal`]), so the planner never falls back to a
/// bounded-suboptimal algorithm, and asking for one is an error. Each
/// search runs within `opts.budget`; the first start whose search fails
/// (its budget spent, the cancel flag raised) is the error. Boards with
/// complete tables are answered on every core of rayon's pool, a few
/// thousand at a time, and see the cancel flag between those.
pub fn answer_boards(
    shape: Shape,
    starts: &[u8],
    goals: &[u8],
    opts: &SolveOptions,
) -> Result<Vec<i32>, ArrayError> {
    Board::check_shape(shape.rows, shape.cols).map_err(ArrayError::Shape)?;
    let cells = shape.cells();
    if !starts.len().is_multiple_of(cells) {
        return Err(ArrayError::Length {
            len: starts.len(),
            shape,
        });
    }
    let count = starts.len() / cells;
    let one_goal = goals.len() == cells;
    if !one_goal && goals.len() != starts.len() {
        return Err(ArrayError::GoalCount {
            goals: goals.len(),
            starts: count,
            shape,
        });
    }
    check_boards(shape, starts, Role::Start)?;
    check_boards(shape, goals, Role::Goal)?;
    let goal = |i: usize| {
        if one_goal {
            goals
        } else {
            &goals[i * cells..(i + 1) * cells]
        }
    };
    let opts = opts
        .clone()
        .with_workload(Workload::Many)
        .with_optimal(true);
    // With many queries the planner's choice depends on the shape alone.
    let (algorithm, _) = opts.algorithm_for(shape, 0).map_err(ArrayError::Options)?;
    let mut out = vec![0i32; count];
    if algorithm == Algorithm::Table {
        let lengths = opts.clone().with_path(false);
        out.par_chunks_mut(CHUNK)
            .enumerate()
            .try_for_each(|(c, chunk)| {
                if opts.budget.cancelled() {
                    return Err(ArrayError::Search {
                        index: c * CHUNK,
                        error: SearchError::Cancelled {
                            algorithm: "table",
                            stats: Stats::default(),
                        },
                    });
                }
                for (j, o) in chunk.iter_mut().enumerate() {
                    let i = c * CHUNK + j;
                    let start = &starts[i * cells..(i + 1) * cells];
                    *o = moves_i32(table_answer(&lengths, shape, start, goal(i)).moves);
                }
                Ok(())
            })?;
        return Ok(out);
    }
    // Searches take milliseconds to hours: one board per task.
    out.par_iter_mut()
        .enumerate()
        .with_max_len(1)
        .try_for_each(|(i, o)| {
            let problem = checked_problem(shape, &starts[i * cells..(i + 1) * cells], goal(i));
            let sol = npuzzle::solve(&problem, &opts)
                .map_err(|error| ArrayError::Search { index: i, error })?;
            *o = moves_i32(sol.moves);
            Ok(())
        })?;
    Ok(out)
}

/// The problem of two boards of `shape` that [`check_boards`] has passed.
fn checked_problem(shape: Shape, start: &[u8], goal: &[u8]) -> Problem {
    let board = |tiles: &[u8]| Board::from_tiles(shape.rows, shape.cols, tiles);
    match (board(start), board(goal)) {
        (Ok(s), Ok(g)) => match Problem::new(s, g) {
            Ok(p) => p,
            Err(e) => unreachable!("two boards of one shape make no problem: {e}"),
        },
        (Err(e), _) | (_, Err(e)) => unreachable!("a checked board is not a board: {e}"),
    }
}

fn moves_i32(moves: Option<u32>) -> i32 {
    moves.map_or(-1, |m| i32::try_from(m).unwrap_or(i32::MAX))
}

/// Checks that every board in `tiles` (boards of `shape`, one after
/// another, `role` saying what they are) is a permutation of `0..cells`;
/// the error names the first that is not. [`answer_boards`] checks its
/// boards with it; a caller that converts boards from wider numbers can
/// check the boards before a number that does not fit.
pub fn check_boards(shape: Shape, tiles: &[u8], role: Role) -> Result<(), ArrayError> {
    let cells = shape.cells();
    let bad = tiles
        .par_chunks(cells)
        .with_min_len(CHUNK)
        .position_first(|b| !is_permutation(b));
    match bad {
        None => Ok(()),
        Some(index) => {
            let b = &tiles[index * cells..(index + 1) * cells];
            let error = match Board::from_tiles(shape.rows, shape.cols, b) {
                Err(e) => e,
                // `is_permutation` and `Board` agree; should they not, the
                // board is still reported rather than answered.
                Ok(_) => BoardError::NoBlank,
            };
            Err(ArrayError::Board { role, index, error })
        }
    }
}

/// Whether `board` holds each of `0..board.len()` once (at most 256 cells).
#[inline]
fn is_permutation(board: &[u8]) -> bool {
    let mut seen = [0u64; MAX_SIDE * MAX_SIDE / 64];
    for &t in board {
        let t = usize::from(t);
        if t >= board.len() {
            return false;
        }
        seen[t / 64] |= 1 << (t % 64);
    }
    // n values below n, all distinct, exactly when n bits are set.
    seen.iter().map(|w| w.count_ones() as usize).sum::<usize>() == board.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::{Generator, Mode};
    use npuzzle::Budget;
    use npuzzle::Dir;
    use npuzzle::HeuristicKind;
    use proptest::prelude::*;
    use std::collections::{HashMap, VecDeque};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    /// Distances to `goal` from every board within `depth` moves, by a plain
    /// BFS over tile vectors (independent of the tables and the searches).
    fn bfs_from(goal: &Board, depth: u32) -> HashMap<Vec<u8>, u32> {
        let mut dist = HashMap::from([(goal.tiles().to_vec(), 0)]);
        let mut queue = VecDeque::from([goal.clone()]);
        while let Some(b) = queue.pop_front() {
            let d = dist[b.tiles()];
            if d == depth {
                continue;
            }
            for dir in Dir::ALL {
                if let Some(n) = b.moved(dir) {
                    dist.entry(n.tiles().to_vec()).or_insert_with(|| {
                        queue.push_back(n.clone());
                        d + 1
                    });
                }
            }
        }
        dist
    }

    /// `count` random start/goal pairs of `shape`, flattened.
    fn pairs(shape: Shape, count: usize, seed: u64) -> (Vec<u8>, Vec<u8>) {
        let mut g = Generator::new(Board::blank_last(shape).unwrap(), Mode::Pairs, seed, true);
        let (mut s, mut t) = (Vec::new(), Vec::new());
        for _ in 0..count {
            let (a, b) = g.next_tiles();
            s.extend(a.iter().map(|&x| x as u8));
            t.extend(b.iter().map(|&x| x as u8));
        }
        (s, t)
    }

    fn board(shape: Shape, tiles: &[u8]) -> Board {
        Board::from_tiles(shape.rows, shape.cols, tiles).unwrap()
    }

    #[test]
    fn random_pairs_match_a_plain_bfs_from_every_goal() {
        let shape = Shape::new(2, 3);
        let (starts, goals) = pairs(shape, 3000, 5);
        let got = answer_boards(shape, &starts, &goals, &SolveOptions::default()).unwrap();
        let mut by_goal: HashMap<Vec<u8>, HashMap<Vec<u8>, u32>> = HashMap::new();
        let mut unreachable = 0;
        for (i, &m) in got.iter().enumerate() {
            let (s, g) = (&starts[i * 6..i * 6 + 6], &goals[i * 6..i * 6 + 6]);
            let dist = by_goal
                .entry(g.to_vec())
                .or_insert_with(|| bfs_from(&board(shape, g), u32::MAX));
            let want = dist.get(s).map_or(-1, |&d| d as i32);
            assert_eq!(m, want, "pair {i}");
            unreachable += usize::from(m == -1);
        }
        // Random pairs: about half cannot be reached.
        assert!((1000..2000).contains(&unreachable), "{unreachable}");
    }

    #[test]
    fn one_goal_for_every_start_on_3x3() {
        let shape = Shape::new(3, 3);
        let goal = Board::spiral(shape).unwrap();
        let mut g = Generator::new(goal.clone(), Mode::Solvable, 2, false);
        let mut starts = Vec::new();
        for _ in 0..500 {
            starts.extend(g.next_tiles().0.iter().map(|&x| x as u8));
        }
        let got = answer_boards(shape, &starts, goal.tiles(), &SolveOptions::default()).unwrap();
        let dist = bfs_from(&goal, u32::MAX);
        for (i, s) in starts.chunks(9).enumerate() {
            assert_eq!(got[i], dist[s] as i32, "start {i}");
        }
    }

    #[test]
    fn boards_beyond_the_tables_are_searched() {
        let shape = Shape::new(4, 4);
        let goal = Board::blank_last(shape).unwrap();
        let mut g = Generator::new(goal.clone(), Mode::Walk(14), 3, false);
        let mut starts = Vec::new();
        for _ in 0..12 {
            starts.extend(g.next_tiles().0.iter().map(|&x| x as u8));
        }
        // Linear conflict: no pattern database is built (or cached).
        let opts = SolveOptions::default().with_heuristic(HeuristicKind::LinearConflict);
        let got = answer_boards(shape, &starts, goal.tiles(), &opts).unwrap();
        let dist = bfs_from(&goal, 14);
        for (i, s) in starts.chunks(16).enumerate() {
            assert_eq!(got[i], dist[s] as i32, "start {i}");
        }
    }

    #[test]
    fn the_first_bad_board_is_named_before_anything_is_answered() {
        let shape = Shape::new(3, 3);
        let ok = [1, 2, 3, 4, 5, 6, 7, 8, 0];
        let mut starts = ok.repeat(10_000);
        starts[7003 * 9 + 4] = 1; // tile 1 twice in start 7003
        starts[9001 * 9] = 9; // out of range in start 9001
        let e = answer_boards(shape, &starts, &ok, &SolveOptions::default()).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::BadInput);
        assert_eq!(
            e.to_string(),
            "start 7003: tile 1 appears twice (row 1, column 1 and row 2, column 2)"
        );
        let mut goals = ok.repeat(10_000);
        goals[5 * 9 + 8] = 8;
        let e =
            answer_boards(shape, &ok.repeat(10_000), &goals, &SolveOptions::default()).unwrap_err();
        assert!(
            e.to_string().starts_with("goal 5: tile 8 appears twice"),
            "{e}"
        );
    }

    #[test]
    fn lengths_and_shapes_are_checked() {
        let opts = SolveOptions::default();
        let e = answer_boards(Shape::new(3, 3), &[0; 10], &[0; 9], &opts).unwrap_err();
        assert!(matches!(e, ArrayError::Length { len: 10, .. }), "{e}");
        let ok = [1, 2, 3, 4, 5, 6, 7, 8, 0];
        let e = answer_boards(Shape::new(3, 3), &ok.repeat(3), &ok.repeat(2), &opts).unwrap_err();
        assert_eq!(
            e.to_string(),
            "18 goal tiles are neither one 3x3 goal (9 cells) nor one per start (3 boards)"
        );
        let e = answer_boards(Shape::new(1, 4), &[1, 2, 3, 0], &[1, 2, 3, 0], &opts).unwrap_err();
        assert!(
            matches!(e, ArrayError::Shape(BoardError::BadSize { .. })),
            "{e}"
        );
        // No boards: no answers.
        assert_eq!(
            answer_boards(Shape::new(3, 3), &[], &ok, &opts).unwrap(),
            Vec::<i32>::new()
        );
    }

    #[test]
    fn answers_are_never_bounded_suboptimal() {
        let shape = Shape::new(4, 4);
        let goal = Board::blank_last(shape).unwrap();
        let opts = SolveOptions::default().with_algorithm(Algorithm::Wastar);
        let e = answer_boards(shape, goal.tiles(), goal.tiles(), &opts).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::BadInput);
        assert!(e.to_string().contains("not proven optimal"), "{e}");
    }

    #[test]
    fn budgets_and_the_cancel_flag_stop_the_answers() {
        let shape = Shape::new(3, 3);
        let (starts, goals) = pairs(shape, 50_000, 9);
        let flag = Arc::new(AtomicBool::new(true));
        let opts = SolveOptions::default().with_budget(Budget::default().with_cancel(Some(flag)));
        let e = answer_boards(shape, &starts, &goals, &opts).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Cancelled);
        // A search whose budget runs out names its start.
        let shape = Shape::new(4, 4);
        let goal = Board::blank_last(shape).unwrap();
        // A random solvable 15-puzzle: some fifty moves, far beyond 1000 nodes.
        let mut g = Generator::new(goal.clone(), Mode::Solvable, 1, false);
        let mut starts = goal.tiles().repeat(3);
        starts.extend(g.next_tiles().0.iter().map(|&x| x as u8));
        let opts = SolveOptions::default()
            .with_heuristic(HeuristicKind::Manhattan)
            .with_budget(Budget::default().with_max_nodes(1000));
        let e = answer_boards(shape, &starts, goal.tiles(), &opts).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Budget);
        assert!(e.to_string().starts_with("start 3: idastar stopped"), "{e}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// On every small shape, the answers agree with a plain BFS from
        /// each goal, whatever the pairs.
        #[test]
        fn small_boards_agree_with_bfs(seed in any::<u64>(), which in 0usize..3, count in 0usize..200) {
            let shape = [Shape::new(2, 2), Shape::new(2, 3), Shape::new(3, 2)][which];
            let (starts, goals) = pairs(shape, count, seed);
            let got = answer_boards(shape, &starts, &goals, &SolveOptions::default()).unwrap();
            prop_assert_eq!(got.len(), count);
            let n = shape.cells();
            for (i, &m) in got.iter().enumerate() {
                let (s, g) = (&starts[i * n..(i + 1) * n], &goals[i * n..(i + 1) * n]);
                let want = bfs_from(&board(shape, g), u32::MAX).get(s).map_or(-1, |&d| d as i32);
                prop_assert_eq!(m, want);
            }
        }
    }
}
