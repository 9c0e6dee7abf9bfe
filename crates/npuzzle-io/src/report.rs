//! The answer to one problem as data: what the command line prints as JSON
//! and what the web API returns, built in one place so they cannot drift
//! apart.

use npuzzle::{path_string, Board, Metric};
use npuzzle::{IterationSummary, Problem, Solution, Stats};
use serde::Serialize;

/// One solved (or unreachable) problem.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Rows of both boards.
    pub rows: usize,
    /// Columns of both boards.
    pub cols: usize,
    /// Start tiles in reading order, 0 for the blank.
    pub start: Vec<u8>,
    /// Goal tiles in reading order, 0 for the blank.
    pub goal: Vec<u8>,
    /// Whether the goal can be reached (false: `moves` is -1).
    pub solvable: bool,
    /// Fewest moves (plus one with `count_start`), or -1 when unreachable.
    pub moves: i64,
    /// The optimal moves as a `UDLR` string (the blank's direction), when
    /// asked for; `null` when not asked for or unreachable.
    pub path: Option<String>,
    /// Every board along the path, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boards: Option<Vec<Vec<u8>>>,
    /// The algorithm that answered (`parity` when no search was needed).
    pub algorithm: &'static str,
    /// The heuristic it used, if any.
    pub heuristic: Option<&'static str>,
    /// Whether `moves` is proven to be the fewest (false for the
    /// bounded-suboptimal algorithms unless they proved it).
    pub optimal: bool,
    /// For an answer not proven optimal: the fewest moves are at least
    /// this many (`null` otherwise).
    pub lower_bound: Option<u32>,
    /// For an answer not proven optimal: it is at most this many times the
    /// fewest (`moves / lower_bound`; `null` otherwise).
    pub ratio: Option<f64>,
    /// What the planner chose, and why.
    pub plan: Option<String>,
    /// What the search cost.
    pub stats: Stats,
    /// How `moves` is counted: `stm` (single-tile moves) or `mtm`
    /// (multi-tile moves: a push of several tiles in a line is one).
    pub metric: Metric,
    /// IDA*'s iterations, each bound with the nodes it expanded (left out
    /// for the other searches).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub iterations: Vec<IterationSummary>,
}

impl Report {
    /// Builds the report; `count_start` counts the start itself as a step
    /// (the length is then the number of boards along the path), leaving -1
    /// as -1; `boards` fills in every board along the path.
    pub fn new(problem: &Problem, sol: &Solution, count_start: bool, boards: bool) -> Report {
        let moves = match sol.moves {
            Some(m) => i64::from(m) + i64::from(count_start),
            None => -1,
        };
        let boards = match (&sol.path, boards) {
            (Some(p), true) => problem
                .start()
                .trajectory(p)
                .ok()
                .map(|bs| bs.iter().map(|b: &Board| b.tiles().to_vec()).collect()),
            _ => None,
        };
        Report {
            rows: problem.rows(),
            cols: problem.cols(),
            start: problem.start().tiles().to_vec(),
            goal: problem.goal().tiles().to_vec(),
            solvable: sol.moves.is_some(),
            moves,
            path: sol.path.as_deref().map(path_string),
            boards,
            algorithm: sol.algorithm,
            heuristic: sol.heuristic,
            optimal: sol.optimal,
            lower_bound: sol.lower_bound.map(|l| l + u32::from(count_start)),
            ratio: sol.max_ratio(),
            plan: sol.plan.as_ref().map(ToString::to_string),
            stats: sol.stats,
            metric: sol.metric,
            iterations: sol.iterations.clone(),
        }
    }
}
