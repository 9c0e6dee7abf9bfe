//! Solving to a partial goal ([`PartialGoal`]): the fewest moves that put
//! the placed tiles (and the blank, if placed) on their cells.
//!
//! Where the placed tiles are few, a breadth-first search over their cells
//! and the blank's alone answers ([`super::pattern`]: exact, as the free
//! tiles are interchangeable). Beyond its budget,
//! IDA* in either metric ([`super::push`]) runs from the start with a goal
//! test on the placed cells only, toward a whole goal that completes the
//! partial one and is reachable (so that the search ends); its estimate is
//! the placed tiles' Manhattan distance (split by axis in pushes), which
//! never counts a free tile. Every board that meets the goal passes the
//! test, whichever completion was chosen, so the answer is the fewest moves
//! to any of them.

use super::{pattern, push, Algorithm, Problem, SearchError, Solution, SolveOptions};
use crate::board::{Board, PartialGoal};

const NAME: &str = "idastar";

/// The fewest moves in `opts.metric` from `start` to any board that meets
/// `goal`; `moves: None` when no such board can be reached. Runs IDA*
/// (`opts.algorithm` `auto` or `idastar`) within `opts.budget`.
///
/// ```
/// use npuzzle::{parse_board, solve_partial, PartialGoal, SolveOptions};
///
/// let start = parse_board("2 1 3/4 5 6/7 8 0", None)?;
/// let first_row = PartialGoal::parse("1 2 3/* * */* * *", None)?;
/// let sol = solve_partial(&start, &first_row, &SolveOptions::default().with_path(true))?;
/// let end = start.apply_path(sol.path.as_ref().unwrap())?;
/// assert!(first_row.is_met_by(&end) && sol.optimal);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve_partial(
    start: &Board,
    goal: &PartialGoal,
    opts: &SolveOptions,
) -> Result<Solution, SearchError> {
    if !matches!(opts.algorithm, Algorithm::Auto | Algorithm::Bfs | Algorithm::Idastar) {
        return Err(SearchError::NotApplicable {
            algorithm: opts.algorithm.name(),
            shape: start.shape(),
            reason: "partial goals are solved by BFS over the placed tiles' cells or by IDA* (auto: BFS where it fits)".to_string(),
        });
    }
    if start.shape() != goal.shape() {
        return Err(SearchError::NotApplicable {
            algorithm: NAME,
            shape: start.shape(),
            reason: format!("the partial goal is a {} board", goal.shape()),
        });
    }
    let space = match opts.algorithm {
        Algorithm::Idastar => None,
        _ => pattern::Space::new(goal, opts.budget.max_states, opts.budget.max_bytes),
    };
    if space.is_none() && opts.algorithm == Algorithm::Bfs {
        return Err(SearchError::NotApplicable {
            algorithm: "bfs",
            shape: start.shape(),
            reason: format!(
                "the placed tiles' {} placements exceed the state budget ({}) or the memory budget (9 bytes a state); raise --max-states or use idastar",
                crate::rank::partial_count(start.len(), goal.named_tiles() + 1).map_or("many".to_string(), |c| c.to_string()),
                opts.budget.max_states
            ),
        });
    }
    if let Some(space) = space {
        let (path, stats) = space.search(start, opts.metric)?;
        let moves = path.as_ref().map(|p| opts.metric.length(p) as u32);
        let path = path.filter(|_| opts.want_path);
        let mut sol = Solution::found("bfs", None, moves, path, stats);
        sol.metric = opts.metric;
        return Ok(sol);
    }
    let Some(whole) = goal.completion(start) else {
        let mut sol = Solution::unreachable("parity");
        sol.metric = opts.metric;
        return Ok(sol);
    };
    let problem = Problem::new(start.clone(), whole).map_err(|e| SearchError::NotApplicable {
        algorithm: NAME,
        shape: start.shape(),
        reason: e.to_string(),
    })?;
    let found = push::search_partial(&problem, &opts.clone().with_budget(opts.budget.clone().started_now()), goal.mask())?;
    let path = if opts.want_path { found.paths.into_iter().next() } else { None };
    let mut sol = Solution::found(NAME, Some("manhattan of the placed tiles"), found.moves, path, found.stats)
        .with_iterations(found.iterations);
    sol.metric = opts.metric;
    Ok(sol)
}
