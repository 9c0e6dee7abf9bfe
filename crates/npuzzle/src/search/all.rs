//! Every optimal solution of one problem, in either metric.
//!
//! Boards with complete tables walk down them: every neighbour one move
//! nearer continues an optimal path, so the paths are listed by a
//! depth-first walk and counted by summing over those neighbours (each
//! position's count remembered), which is exact however many there are.
//! Larger boards finish IDA*'s last iteration in [`super::push`], whose
//! pruning (no move straight back; in pushes, no two along one line) drops
//! no optimal path, and count every path that reaches the goal.

use super::{plan, push, Algorithm, Problem, SearchError, SolveOptions, Stats};
use crate::board::{Dir, Metric};
use crate::rank;
use crate::table::{canonical, for_each_neighbour, DistanceTable, TableSet};
use std::collections::HashMap;
use std::time::Instant;

/// Every optimal solution ([`solve_all`]): the fewest moves, how many
/// optimal paths there are, and the first of them.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Solutions {
    /// Fewest moves in `metric`, or `None` when the goal cannot be reached.
    pub moves: Option<u32>,
    /// How many distinct optimal paths there are (exact).
    pub count: u64,
    /// The first of them (at most the cap asked for), each as the blank's
    /// single steps.
    pub paths: Vec<Vec<Dir>>,
    /// How moves are counted.
    pub metric: Metric,
    /// What listed them: `table` or `idastar` (`parity` when unreachable).
    pub algorithm: &'static str,
    /// What the search cost.
    pub stats: Stats,
}

/// Lists every optimal solution from `problem.start()` to its goal in
/// `opts.metric`, keeping at most `max_solutions` of them while counting
/// all. Answered from the complete tables where they cover the board,
/// else by IDA* (`opts.algorithm` `auto` or `idastar`; its heuristic and
/// budget as for [`solve`](super::solve)).
///
/// ```
/// use npuzzle::{parse_board, solve_all, Metric, Problem, SolveOptions};
///
/// let start = parse_board("1 2 3 4 0 5 7 8 6", None)?;
/// let goal = parse_board("1 2 3 4 5 6 7 8 0", None)?;
/// let p = Problem::new(start, goal)?;
/// let all = solve_all(&p, &SolveOptions::default(), 10)?;
/// assert_eq!((all.moves, all.count), (Some(2), 1)); // RD, the one way
/// let pushes = solve_all(&p, &SolveOptions::default().with_metric(Metric::Mtm), 10)?;
/// assert_eq!((pushes.moves, pushes.count), (Some(2), 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve_all(
    problem: &Problem,
    opts: &SolveOptions,
    max_solutions: usize,
) -> Result<Solutions, SearchError> {
    let t0 = Instant::now();
    let metric = opts.metric;
    let shape = problem.shape();
    let unreachable = |algorithm| Solutions {
        moves: None,
        count: 0,
        paths: Vec::new(),
        metric,
        algorithm,
        stats: Stats::default(),
    };
    if !problem.solvable() {
        return Ok(unreachable("parity"));
    }
    let tables = TableSet::global_in(metric);
    let by_table = matches!(opts.algorithm, Algorithm::Auto | Algorithm::Table);
    if let (true, Some(table)) = (by_table, tables.table(shape, problem.goal().blank())) {
        let mut q = vec![0u8; shape.cells()];
        canonical(problem.start().tiles(), problem.goal().tiles(), &mut q);
        let d = table.at(&q);
        let mut memo = HashMap::new();
        let count = count_paths(table, &mut q, d, &mut memo);
        let mut paths = Vec::new();
        list_paths(table, &mut q, d, &mut Vec::new(), &mut paths, max_solutions);
        let stats = Stats {
            expanded: memo.len() as u64,
            generated: memo.len() as u64,
            peak_states: table.len() as u64,
            elapsed: t0.elapsed(),
        };
        return Ok(Solutions {
            moves: Some(d),
            count,
            paths,
            metric,
            algorithm: "table",
            stats,
        });
    }
    if !matches!(opts.algorithm, Algorithm::Auto | Algorithm::Idastar) {
        return Err(SearchError::NotApplicable {
            algorithm: opts.algorithm.name(),
            shape,
            reason: "every optimal solution is listed by the complete tables (boards of up to 10 cells) and by IDA*".to_string(),
        });
    }
    let planned = plan(problem, &opts.clone().with_algorithm(Algorithm::Idastar))?;
    let found = push::search(problem, &planned.resolved(opts), Some(max_solutions))?;
    Ok(Solutions {
        moves: found.moves,
        count: found.count,
        paths: found.paths,
        metric,
        algorithm: "idastar",
        stats: found.stats,
    })
}

/// The number of optimal paths from `q`, `d` moves from the goal.
fn count_paths(table: &DistanceTable, q: &mut [u8], d: u32, memo: &mut HashMap<u64, u64>) -> u64 {
    if d == 0 {
        return 1;
    }
    let key = rank::rank(q);
    if let Some(&n) = memo.get(&key) {
        return n;
    }
    let mut total = 0u64;
    for_each_neighbour(table.shape(), table.metric(), q, |next, _, _| {
        if table.at(next) + 1 == d {
            total = total.saturating_add(count_paths(table, next, d - 1, memo));
        }
        false
    });
    memo.insert(key, total);
    total
}

/// Appends to `out` the optimal paths from `q` (after `prefix`), until it
/// holds `cap`; says whether it is full.
fn list_paths(
    table: &DistanceTable,
    q: &mut [u8],
    d: u32,
    prefix: &mut Vec<Dir>,
    out: &mut Vec<Vec<Dir>>,
    cap: usize,
) -> bool {
    if out.len() >= cap {
        return true;
    }
    if d == 0 {
        out.push(prefix.clone());
        return out.len() >= cap;
    }
    let mut full = false;
    for_each_neighbour(table.shape(), table.metric(), q, |next, dir, k| {
        if table.at(next) + 1 == d {
            let len = prefix.len();
            prefix.extend(std::iter::repeat_n(dir, k));
            full = list_paths(table, next, d - 1, prefix, out, cap);
            prefix.truncate(len);
        }
        full
    });
    full
}
