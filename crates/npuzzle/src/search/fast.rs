//! `fast`: the constructive solver of [`crate::large`] behind the planner.
//!
//! On boards exact search holds (at most 16×16) it is a [`Solver`] like
//! the others, keeping the path in memory (a 16×16 path has some tens of
//! thousands of moves). Bigger boards, up to [`MAX_GRID_CELLS`] cells, are
//! [`Grid`]s and go through [`solve_grid`](super::solve_grid), which streams the moves to a
//! [`MoveSink`] as they are produced: a 1000×1000 path has billions.
//!
//! Its answers are never presented as optimal: the lower bound is the
//! Manhattan distance (equal to the length only when the path is
//! optimal after all).
//!
//! [`MAX_GRID_CELLS`]: crate::board::MAX_GRID_CELLS

use super::{Budget, Limit, Problem, SearchError, Solution, SolveOptions, Solver, Stats};
use crate::board::{Grid, Shape};
use crate::large::{self, MoveSink};
use std::fmt::Display;
use std::time::Instant;

const NAME: &str = "fast";

/// The `fast` solver.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fast;

impl Solver for Fast {
    fn name(&self) -> &'static str {
        NAME
    }

    fn solve(&self, problem: &Problem, opts: &SolveOptions) -> Result<Solution, SearchError> {
        let t0 = Instant::now();
        let (start, goal) = (Grid::from(problem.start()), Grid::from(problem.goal()));
        let lopts = options(&opts.budget, start.shape())?;
        let mut path = Vec::new();
        let report = large::solve(&start, &goal, &lopts, &mut path)
            .map_err(|e| error(e, &opts.budget, t0))?;
        let stats = stats(t0);
        // A Board holds at most 256 cells: its paths are far below u32::MAX.
        let moves = u32::try_from(report.moves).unwrap_or(u32::MAX);
        let bound = u32::try_from(report.lower_bound).unwrap_or(u32::MAX);
        let path = opts.want_path.then_some(path);
        Ok(Solution::bounded(NAME, None, moves, path, stats, bound))
    }
}

/// Solves a pair of grids with the constructive solver within `budget`,
/// streaming the moves to `sink` (for [`super::solve_grid`] on boards
/// beyond exact search).
pub(super) fn solve_streamed<S>(
    start: &Grid,
    goal: &Grid,
    budget: &Budget,
    sink: &mut S,
) -> Result<(large::Report, Stats), SearchError>
where
    S: MoveSink,
    S::Error: Display,
{
    let t0 = Instant::now();
    let lopts = options(budget, start.shape())?;
    let report = large::solve(start, goal, &lopts, sink).map_err(|e| error(e, budget, t0))?;
    Ok((report, stats(t0)))
}

/// The solver's options from a budget: its time and cancel flag, and its
/// memory checked before anything is allocated.
fn options(budget: &Budget, shape: Shape) -> Result<large::Options, SearchError> {
    let bytes = large::bytes_needed(shape.cells());
    budget.check_bytes(bytes).map_err(|_| SearchError::Budget {
        algorithm: NAME,
        limit: Limit::Memory,
        limit_value: format!(
            "{} bytes; the board needs {bytes}",
            budget.value_of(Limit::Memory)
        ),
        depth: 0,
        stats: Stats::default(),
    })?;
    Ok(large::Options {
        cancel: budget.cancel.clone(),
        // the deadline counts from when the answer started (a plan's
        // budget is started; a bare one starts now)
        deadline: budget.deadline(crate::budget::Clock::new(budget).start),
        ..large::Options::default()
    })
}

fn stats(t0: Instant) -> Stats {
    Stats {
        elapsed: t0.elapsed(),
        ..Stats::default()
    }
}

/// The solver's error in the planner's terms.
fn error<E: Display>(e: large::Error<E>, budget: &Budget, t0: Instant) -> SearchError {
    let stats = stats(t0);
    match e {
        large::Error::Cancelled { .. } => SearchError::Cancelled {
            algorithm: NAME,
            stats,
        },
        large::Error::Deadline { .. } => SearchError::Budget {
            algorithm: NAME,
            limit: Limit::Time,
            limit_value: budget.value_of(Limit::Time),
            depth: 0,
            stats,
        },
        large::Error::Sink { moves, source } => SearchError::Output {
            message: format!("writing the moves failed after {moves} moves: {source}"),
        },
        large::Error::TooLarge { .. } => SearchError::Budget {
            algorithm: NAME,
            limit: Limit::Memory,
            limit_value: e.to_string(),
            depth: 0,
            stats,
        },
        other => SearchError::Internal {
            message: other.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Dir;
    use crate::search::solve;

    fn walk(shape: Shape, moves: usize) -> (Grid, Grid) {
        let goal = Grid::blank_last(shape);
        let mut start = goal.clone();
        let mut x = 7u64;
        for _ in 0..moves {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            start.apply(Dir::ALL[(x >> 62) as usize]);
        }
        (start, goal)
    }

    #[test]
    fn fast_on_a_board_is_bounded_and_replays() {
        let (s, g) = walk(Shape::new(6, 6), 400);
        let p = Problem::new(s.to_board().unwrap(), g.to_board().unwrap()).unwrap();
        let sol = solve(&p, &SolveOptions::default().with_path(true)).unwrap();
        assert_eq!(sol.algorithm, "fast");
        assert!(!sol.optimal);
        let path = sol.path.as_deref().unwrap();
        assert_eq!(path.len() as u32, sol.moves.unwrap());
        assert!(crate::search::verify_path(p.start(), p.goal(), path));
        assert!(sol.lower_bound.unwrap() <= sol.moves.unwrap());
        assert!(sol.max_ratio().unwrap() >= 1.0);
    }
}
