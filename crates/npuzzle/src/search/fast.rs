//! `fast`: the constructive solver of [`crate::large`] behind the planner.
//!
//! On boards exact search holds (at most 16×16) it is a [`Solver`] like
//! the others, keeping the path in memory (a 16×16 path has some tens of
//! thousands of moves). Bigger boards, up to [`MAX_GRID_CELLS`] cells, are
//! [`Grid`]s and go through [`solve_grid`], which streams the moves to a
//! [`MoveSink`] as they are produced: a 1000×1000 path has billions.
//!
//! Its answers are never presented as optimal: the lower bound is the
//! Manhattan distance (equal to the length only when the path is
//! optimal after all).
//!
//! [`MAX_GRID_CELLS`]: crate::board::MAX_GRID_CELLS

use super::{plan, Algorithm, Limit, Plan, Problem, SearchError, Solution, SolveOptions, Solver};
use super::{Budget, Stats};
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

/// The answer of [`solve_grid`]: the moves went to the sink.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct GridAnswer {
    /// Moves handed to the sink, or `None` when the goal cannot be reached
    /// (nothing was handed over).
    pub moves: Option<u64>,
    /// Whether `moves` is proven to be the fewest.
    pub optimal: bool,
    /// For an answer not proven optimal, a lower bound on the fewest moves
    /// (the Manhattan distance for `fast`).
    pub lower_bound: Option<u64>,
    /// The algorithm that answered (`parity` when no search was needed).
    pub algorithm: &'static str,
    /// What the planner chose and why.
    pub plan: Plan,
    /// What the search cost.
    pub stats: Stats,
}

impl GridAnswer {
    /// For an answer not proven optimal, how many times the fewest moves
    /// it can be at most (`moves / lower_bound`).
    pub fn max_ratio(&self) -> Option<f64> {
        match (self.moves, self.lower_bound) {
            (Some(m), Some(l)) if l > 0 => Some(m as f64 / l as f64),
            _ => None,
        }
    }
}

/// What runs for a pair of grids. Boards exact search holds are planned as
/// [`plan()`] plans them; bigger ones get `fast` (or `auto`, which means
/// it), and anything else is refused: no other algorithm can take them.
pub fn plan_grid(start: &Grid, goal: &Grid, opts: &SolveOptions) -> Result<Plan, SearchError> {
    if let Some(problem) = small_problem(start, goal) {
        return plan(&problem, opts);
    }
    let shape = start.shape();
    let refuse = |algorithm: &'static str, reason: String| SearchError::NotApplicable {
        algorithm,
        shape,
        reason,
    };
    if opts.optimal {
        return Err(refuse(
            "exact search",
            "boards beyond 16x16 are solved by the fast solver only, whose answers are not proven optimal"
                .to_string(),
        ));
    }
    let reason = match opts.algorithm {
        Algorithm::Auto => format!(
            "{} cells, beyond exact search (at most 16 on a side): the fast constructive solver, an answer at once, not optimal",
            shape.cells()
        ),
        Algorithm::Fast => "asked for".to_string(),
        a => {
            return Err(refuse(
                a.name(),
                "boards beyond 16x16 are solved by the fast solver only"
                    .to_string(),
            ))
        }
    };
    Ok(Plan {
        solvable: start.can_reach(goal),
        algorithm: Algorithm::Fast,
        heuristic: None,
        pdb: None,
        threads: 1,
        reason,
    })
}

/// Solves a pair of grids of any size, handing the moves to `sink` as they
/// are produced (for the fast solver) or at the end (for the others, which
/// run only on boards of at most 16×16, whose paths are short). An
/// unreachable goal is answered from parity, in O(cells), with no move.
pub fn solve_grid<S>(
    start: &Grid,
    goal: &Grid,
    opts: &SolveOptions,
    sink: &mut S,
) -> Result<GridAnswer, SearchError>
where
    S: MoveSink,
    S::Error: Display,
{
    let plan = plan_grid(start, goal, opts)?;
    if !plan.solvable {
        return Ok(GridAnswer {
            moves: None,
            optimal: true,
            lower_bound: None,
            algorithm: "parity",
            plan,
            stats: Stats::default(),
        });
    }
    if let Some(problem) = small_problem(start, goal) {
        let sol = plan
            .solver()
            .solve(&problem, &plan.resolved(&opts.clone().with_path(true)))?;
        let path = sol.path.unwrap_or_default();
        sink.moves(&path).map_err(|e| SearchError::Output {
            message: format!("writing the moves failed: {e}"),
        })?;
        return Ok(GridAnswer {
            moves: sol.moves.map(u64::from),
            optimal: sol.optimal,
            lower_bound: sol.lower_bound.map(u64::from),
            algorithm: sol.algorithm,
            plan,
            stats: sol.stats,
        });
    }
    let t0 = Instant::now();
    let opts = plan.resolved(opts);
    let lopts = options(&opts.budget, start.shape())?;
    let report = large::solve(start, goal, &lopts, sink).map_err(|e| error(e, &opts.budget, t0))?;
    let optimal = report.moves == report.lower_bound;
    Ok(GridAnswer {
        moves: Some(report.moves),
        optimal,
        lower_bound: (!optimal).then_some(report.lower_bound),
        algorithm: NAME,
        plan,
        stats: stats(t0),
    })
}

/// The pair as a [`Problem`], when exact search can hold it.
fn small_problem(start: &Grid, goal: &Grid) -> Option<Problem> {
    if !(start.is_small() && goal.is_small()) {
        return None;
    }
    Problem::new(start.to_board().ok()?, goal.to_board().ok()?).ok()
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

    #[test]
    fn grids_beyond_16x16_get_fast_only() {
        let (s, g) = walk(Shape::new(20, 17), 3000);
        let mut path = Vec::new();
        let a = solve_grid(&s, &g, &SolveOptions::default(), &mut path).unwrap();
        assert_eq!(a.algorithm, "fast");
        assert_eq!(a.moves, Some(path.len() as u64));
        let mut end = s.clone();
        assert!(path.iter().all(|&d| end.apply(d)));
        assert_eq!(end, g);
        for a in [Algorithm::Idastar, Algorithm::Table, Algorithm::Anytime] {
            let opts = SolveOptions::default().with_algorithm(a);
            let e = plan_grid(&s, &g, &opts).unwrap_err();
            assert!(e.to_string().contains("fast solver only"), "{e}");
        }
        let e = plan_grid(&s, &g, &SolveOptions::default().with_optimal(true)).unwrap_err();
        assert!(e.to_string().contains("not proven optimal"), "{e}");
        // a small grid goes through the usual planner
        let (s, g) = walk(Shape::new(3, 3), 30);
        let mut path = Vec::new();
        let a = solve_grid(&s, &g, &SolveOptions::default(), &mut path).unwrap();
        assert!(a.optimal);
        let b = s.to_board().unwrap();
        assert!(crate::search::verify_path(
            &b,
            &g.to_board().unwrap(),
            &path
        ));
    }

    #[test]
    fn unreachable_grids_answer_at_once_and_budgets_apply() {
        let shape = Shape::new(300, 300);
        let goal = Grid::blank_last(shape);
        let mut t = goal.tiles().to_vec();
        t.swap(0, 1);
        let start = Grid::new(300, 300, t).unwrap();
        let mut path = Vec::new();
        let a = solve_grid(&start, &goal, &SolveOptions::default(), &mut path).unwrap();
        assert_eq!((a.moves, a.algorithm), (None, "parity"));
        assert!(path.is_empty());
        let (s, g) = walk(shape, 100);
        let tiny = SolveOptions::default().with_budget(Budget::default().with_max_bytes(1000));
        let e = solve_grid(&s, &g, &tiny, &mut Vec::new()).unwrap_err();
        assert_eq!(e.limit(), Some(Limit::Memory), "{e}");
    }
}
