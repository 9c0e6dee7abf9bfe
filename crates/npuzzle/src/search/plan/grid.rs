//! Planning and solving a pair of [`Grid`]s of any size: boards exact
//! search holds go through [`plan()`](super::plan()), bigger ones get the
//! fast constructive solver, whose moves are streamed to a [`MoveSink`].

use super::plan;
use crate::board::Grid;
use crate::large::MoveSink;
use crate::search::{fast, Algorithm, Plan, Problem, SearchError, SolveOptions, Solver, Stats};
use std::fmt::Display;

/// The answer of [`solve_grid`]: the moves went to the sink.
///
/// ```
/// use npuzzle::{solve_grid, Dir, Discard, Grid, Shape, SolveOptions};
///
/// // 20×20, beyond exact search: the fast solver answers, not proven optimal.
/// let goal = Grid::blank_last(Shape::new(20, 20));
/// let mut start = goal.clone();
/// for dir in [Dir::Up, Dir::Left, Dir::Up, Dir::Left] {
///     start.apply(dir);
/// }
/// let answer = solve_grid(&start, &goal, &SolveOptions::default(), &mut Discard)?;
/// assert_eq!((answer.algorithm, answer.optimal), ("fast", false));
/// assert_eq!(answer.lower_bound, Some(4)); // the Manhattan distance
/// assert!(answer.max_ratio().unwrap() > 1.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
///
/// ```
/// use npuzzle::{plan_grid, Algorithm, Dir, Grid, Shape, SolveOptions};
///
/// let goal = Grid::blank_last(Shape::new(100, 100));
/// let mut start = goal.clone();
/// start.apply(Dir::Left);
/// let p = plan_grid(&start, &goal, &SolveOptions::default())?;
/// assert_eq!(p.algorithm, Algorithm::Fast);
/// // No exact search takes 10,000 cells.
/// let ida = SolveOptions::default().with_algorithm(Algorithm::Idastar);
/// assert!(plan_grid(&start, &goal, &ida).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
    if opts.metric == crate::board::Metric::Mtm {
        return Err(refuse(
            "mtm",
            "boards beyond 16x16 are counted in single-tile moves only".to_string(),
        ));
    }
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
        metric: crate::board::Metric::Stm,
    })
}

/// Solves a pair of grids of any size, handing the moves to `sink` as they
/// are produced (for the fast solver) or at the end (for the others, which
/// run only on boards of at most 16×16, whose paths are short). An
/// unreachable goal is answered from parity, in O(cells), with no move.
///
/// ```
/// use npuzzle::{solve_grid, Letters, Scan, SolveOptions};
///
/// // A small pair is solved exactly; the letters go to the writer.
/// let (start, goal) = Scan::new().grids("2 8 3 / 1 6 4 / 7 0 5 | spiral", None)?;
/// let mut sink = Letters::new(Vec::new());
/// let answer = solve_grid(&start, &goal.unwrap(), &SolveOptions::default(), &mut sink)?;
/// assert_eq!((answer.moves, answer.optimal), (Some(5), true));
/// assert_eq!(sink.into_inner(), b"UULDR");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
    let opts = plan.resolved(opts);
    let (report, stats) = fast::solve_streamed(start, goal, &opts.budget, sink)?;
    let optimal = report.moves == report.lower_bound;
    Ok(GridAnswer {
        moves: Some(report.moves),
        optimal,
        lower_bound: (!optimal).then_some(report.lower_bound),
        algorithm: fast::Fast.name(),
        plan,
        stats,
    })
}

/// The pair as a [`Problem`], when exact search can hold it.
fn small_problem(start: &Grid, goal: &Grid) -> Option<Problem> {
    if !(start.is_small() && goal.is_small()) {
        return None;
    }
    Problem::new(start.to_board().ok()?, goal.to_board().ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Dir, Shape};
    use crate::search::{Budget, Limit};

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
