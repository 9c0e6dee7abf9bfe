//! The planner: the one place that decides what runs.
//!
//! Given a problem and the caller's options it resolves `auto` — the
//! algorithm, the heuristic, the pattern-database partition, sequential or
//! parallel, table or search — and says why. [`super::solve`], the batch
//! runner, [`compare`](super::compare), the web server and the command
//! line's benchmarks all ask it; none decides by itself, so a rule changed
//! here changes everywhere at once.
//!
//! The rules:
//! * `auto` on a board of at most [`crate::table::MAX_CELLS`] cells answers from
//!   the complete table when the caller answers many queries (a batch, a
//!   server) or the table is already built; a single query gets IDA* with
//!   linear conflict instead, which answers in microseconds what the table
//!   would first spend milliseconds building.
//! * `auto` on a board of up to [`EXACT_MAX_CELLS`] cells (every 4×4) is
//!   IDA*; on up to [`ANYTIME_MAX_CELLS`] cells (5×5) anytime search (an
//!   answer at once, improved while time remains, with a proven lower
//!   bound); on bigger boards the fast constructive solver (`fast`: an
//!   answer at once, not optimal, with the Manhattan lower bound) unless
//!   a heuristic is named (it is for a search: anytime then). With
//!   `optimal` it is always IDA*.
//! * Boards beyond 16×16 (up to [`MAX_GRID_CELLS`] cells) are
//!   [`Grid`](crate::board::Grid)s, planned by [`plan_grid`]: only `fast`
//!   runs on them.
//! * The `auto` heuristic is pattern databases on boards of 11 to
//!   [`pdb::MAX_CELLS`] cells, linear conflict elsewhere.
//! * IDA* runs in parallel when more than one thread is asked for, never on
//!   more threads than the machine has cores.

use super::{
    anytime, astar, bfs, bibfs, fast, idastar, parallel, push, table, Algorithm, Problem, SearchError,
    SolveOptions, Solver,
};
use crate::board::{Metric, Shape};
#[cfg(doc)]
use crate::board::MAX_GRID_CELLS;
use crate::heuristic::pdb::{self, PdbLayout};
use crate::heuristic::HeuristicKind;
use serde::Serialize;
use std::fmt;

mod check;
mod grid;
mod metric;
pub use check::check_options;
pub use grid::{plan_grid, solve_grid, GridAnswer};
pub(crate) use metric::MTM_ALGORITHMS;

/// Largest board `auto` searches exactly without being told to: every
/// 15-puzzle (and 3×5, 2×8 …) is solved optimally in about a second with
/// pattern databases; beyond, exact search can take hours.
pub const EXACT_MAX_CELLS: usize = 16;

/// Largest board `auto` gives anytime search (weighted A* with falling
/// weights beside IDA*): on 5×5 it answers within a few percent of optimal
/// in a second; beyond, its memory grows faster than its answers improve,
/// and the fast solver answers at once.
pub const ANYTIME_MAX_CELLS: usize = 25;

/// Whether the caller answers one query or many: a complete table costs
/// milliseconds to build and then answers in nanoseconds, so it pays for
/// many queries and not for one.
///
/// ```
/// use npuzzle::{parse_board, Problem, SolveOptions, Workload};
///
/// let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
/// let goal = parse_board("1 2 3 / 8 0 4 / 7 6 5", None)?;
/// let problem = Problem::new(start, goal)?;
/// let many = SolveOptions::default().with_workload(Workload::Many);
/// let answer = npuzzle::solve(&problem, &many)?;
/// assert_eq!((answer.algorithm, answer.moves), ("table", Some(5)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Workload {
    /// One query (a single problem solved).
    #[default]
    Single,
    /// Many queries (a batch, a server).
    Many,
}

/// What will run, and why.
///
/// ```
/// use npuzzle::{parse_board, plan, Algorithm, HeuristicKind, Problem, SolveOptions};
///
/// let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
/// let goal = parse_board("1 2 3 / 8 0 4 / 7 6 5", None)?;
/// let p = plan(&Problem::new(start, goal)?, &SolveOptions::default())?;
/// assert!(p.solvable && !p.is_table());
/// assert_eq!(p.algorithm, Algorithm::Idastar);
/// assert_eq!(p.heuristic, Some(HeuristicKind::LinearConflict));
/// assert!(p.to_string().starts_with("idastar + linear-conflict, 1 thread: "));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Plan {
    /// Whether the goal can be reached at all (when not, nothing runs).
    pub solvable: bool,
    /// The algorithm (never `auto`).
    pub algorithm: Algorithm,
    /// The heuristic of an informed search (never `auto`).
    pub heuristic: Option<HeuristicKind>,
    /// The pattern databases, as `pdb 6-6-3 zero-aware + reflection`.
    pub pdb: Option<String>,
    /// Worker threads of the search.
    pub threads: usize,
    /// Why this was chosen.
    pub reason: String,
    /// How the answer's moves are counted.
    pub metric: Metric,
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.solvable {
            return write!(
                f,
                "no search: the goal cannot be reached from this start (permutation parity)"
            );
        }
        write!(f, "{}", self.algorithm)?;
        match (&self.pdb, self.heuristic) {
            (Some(label), _) => write!(f, " + {label}")?,
            (None, Some(h)) => write!(f, " + {h}")?,
            (None, None) => {}
        }
        if self.algorithm == Algorithm::Idastar {
            let s = if self.threads == 1 { "" } else { "s" };
            write!(f, ", {} thread{s}", self.threads)?;
        }
        if self.metric == Metric::Mtm {
            write!(f, ", {}", self.metric.describe())?;
        }
        write!(f, ": {}", self.reason)
    }
}

impl Plan {
    /// The solver that carries the plan out.
    pub(crate) fn solver(&self) -> &'static dyn Solver {
        static BFS: bfs::Bfs = bfs::Bfs::AUTO;
        static BFS_HASH: bfs::Bfs = bfs::Bfs::HASH;
        static BFS_SET: bfs::Bfs = bfs::Bfs::ORDERED;
        match self.algorithm {
            Algorithm::Idastar if self.metric == Metric::Mtm => &push::MtmIdastar,
            Algorithm::Table => &table::TableSolver,
            Algorithm::Bfs => &BFS,
            Algorithm::BfsHash => &BFS_HASH,
            Algorithm::BfsSet => &BFS_SET,
            Algorithm::Bibfs => &bibfs::Bibfs,
            Algorithm::Astar => &astar::Astar,
            Algorithm::Wastar => &astar::Wastar,
            Algorithm::Greedy => &astar::Greedy,
            Algorithm::Dfid => &idastar::Dfid,
            Algorithm::Anytime => &anytime::Anytime,
            Algorithm::Fast => &fast::Fast,
            Algorithm::Idastar | Algorithm::Auto if self.threads > 1 => &parallel::ParallelIdastar,
            Algorithm::Idastar | Algorithm::Auto => &idastar::Idastar,
        }
    }

    /// Whether the answer comes from a complete table (a lookup, not a
    /// search).
    pub fn is_table(&self) -> bool {
        self.solvable && self.algorithm == Algorithm::Table
    }

    /// The caller's options with what the plan resolved filled in.
    /// The pattern-database options the chosen algorithm runs with (what
    /// a caller that loads the databases ahead should load).
    pub fn pdb_options(&self, opts: &SolveOptions) -> crate::heuristic::pdb::PdbOptions {
        pdb_options(self.algorithm, &opts.pdb)
    }

    /// Builds ahead what every search of the plan on `goal`'s shape
    /// shares, so that a benchmark's clock times the searches alone: the
    /// pattern databases (loaded, or built into the cache; every
    /// partition; in pushes the colour databases and the walking
    /// distance's tables) and the move-pruning automaton of IDA* (which
    /// anytime search runs too), built once a shape and kept: on 4×4 it
    /// takes longer than a typical search.
    pub fn prepare(
        &self,
        goal: &crate::board::Board,
        opts: &SolveOptions,
    ) -> Result<(), SearchError> {
        if !self.solvable {
            return Ok(());
        }
        if opts.metric == crate::board::Metric::Mtm {
            // IDA* in pushes: the colour databases (kept in the process
            // once loaded) and the walking distance's tables (kept too).
            if self.heuristic == Some(HeuristicKind::Pdb) {
                let o = self.pdb_options(opts);
                crate::heuristic::pdb::colour::ColourHeuristic::load(goal, opts.metric, &o, &opts.budget)?;
            }
            crate::heuristic::WalkingDistance::new(goal, opts.metric);
            return Ok(());
        }
        if self.heuristic == Some(HeuristicKind::Pdb) {
            let reporter = opts.pdb.reporter();
            let mut next = Some(self.pdb_options(opts));
            while let Some(o) = next {
                crate::heuristic::pdb::PdbHeuristic::new(goal, &o, reporter, &opts.budget)?;
                next = o.also_options();
            }
        }
        if matches!(self.algorithm, Algorithm::Idastar | Algorithm::Anytime) {
            super::prune::MovePruner::shared(goal.shape(), opts.pruning);
        }
        Ok(())
    }

    pub(crate) fn resolved(&self, opts: &SolveOptions) -> SolveOptions {
        let mut o = opts.clone();
        o.algorithm = self.algorithm;
        if let Some(h) = self.heuristic {
            o.heuristic = h;
        }
        o.threads = self.threads;
        o.pdb = pdb_options(self.algorithm, &o.pdb);
        o.budget = o.budget.started_now();
        o
    }
}

/// The pattern-database options `algorithm` runs with: the A* family
/// (A*, weighted A*, and anytime's upper side) evaluates every node it
/// takes from its queue afresh, so it wants whole values (on 5×5 with
/// weighted A*, one-bit databases took 30 times as long).
fn pdb_options(algorithm: Algorithm, pdb: &pdb::PdbOptions) -> pdb::PdbOptions {
    let whole = matches!(
        algorithm,
        Algorithm::Astar | Algorithm::Wastar | Algorithm::Greedy | Algorithm::Anytime
    );
    pdb.clone().with_whole_values(whole)
}

/// Decides what runs for `problem` under `opts`. Nothing is built or
/// searched: a pattern-database partition is resolved and checked against
/// its limits, not loaded.
///
/// ```
/// use npuzzle::{Board, Shape};
/// use npuzzle::HeuristicKind;
/// use npuzzle::{plan, Algorithm, SolveOptions, Workload};
/// use npuzzle::{Dir, Problem};
///
/// let goal = Board::blank_last(Shape::new(4, 4)).unwrap();
/// let start = goal.moved(Dir::Up).unwrap();
/// let p = plan(&Problem::new(start, goal)?, &SolveOptions::default())?;
/// assert_eq!(p.algorithm, Algorithm::Idastar);
/// assert_eq!(p.heuristic, Some(HeuristicKind::Pdb));
/// assert_eq!(p.pdb.as_deref(), Some("pdb 6-6-3 zero-aware (1 bit) + reflection"));
///
/// // Many queries on a small board are answered from the complete table.
/// let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
/// let start = goal.moved(Dir::Left).unwrap();
/// let many = SolveOptions::default().with_workload(Workload::Many);
/// let p = plan(&Problem::new(start, goal)?, &many)?;
/// assert!(p.is_table());
/// println!("{p}"); // table: 9 cells, within the complete tables; …
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn plan(problem: &Problem, opts: &SolveOptions) -> Result<Plan, SearchError> {
    if opts.metric == Metric::Mtm {
        check_options(opts)?;
        return metric::plan_mtm(problem, opts);
    }
    let shape = problem.shape();
    let goal_blank = problem.goal().blank();
    let (algorithm, mut reason) = algorithm_for(shape, goal_blank, opts)?;
    let mut heuristic = None;
    let mut pdb = None;
    if algorithm.informed() {
        let (mut h, mut why) = heuristic_for(opts.heuristic, shape)?;
        if h == HeuristicKind::Pdb {
            let pdb_opts = pdb_options(algorithm, &opts.pdb);
            let layout = PdbLayout::resolve(problem.goal(), &pdb_opts)?;
            // A quick answer must not wait minutes for a build: without
            // the databases at hand, an inexact search makes do with
            // linear conflict (an exact one builds them).
            if opts.heuristic == HeuristicKind::Auto
                && !algorithm.exact()
                && !pdb::is_cached(problem.goal(), &layout, &pdb_opts)
            {
                h = HeuristicKind::LinearConflict;
                why = format!(
                    "linear conflict, as the pattern databases ({}) are not built yet",
                    layout.label()
                );
            } else {
                pdb = Some(layout.label());
            }
        }
        heuristic = Some(h);
        if !why.is_empty() {
            reason = format!("{reason}; {why}");
        }
    }
    let mut threads = 1;
    if algorithm == Algorithm::Idastar {
        let (t, why) = threads_for(opts.threads);
        threads = t;
        if let Some(why) = why {
            reason = format!("{reason}; {why}");
        }
    }
    Ok(Plan {
        solvable: problem.solvable(),
        algorithm,
        heuristic,
        pdb,
        threads,
        reason,
        metric: Metric::Stm,
    })
}

/// The algorithm for boards of `shape` whose goal has its blank on
/// `goal_blank`, and why. Callers that answer many boards of one shape
/// (the batch runner) ask this once per shape.
pub fn algorithm_for(
    shape: Shape,
    goal_blank: usize,
    opts: &SolveOptions,
) -> Result<(Algorithm, String), SearchError> {
    check_options(opts)?;
    if opts.metric == Metric::Mtm {
        return metric::algorithm_mtm(shape, opts);
    }
    let cells = shape.cells();
    let covered = crate::table::TableSet::covers(shape);
    match opts.algorithm {
        Algorithm::Auto if covered => {
            if opts.workload == Workload::Many {
                Ok((
                    Algorithm::Table,
                    format!("{cells} cells, within the complete tables; many queries share them"),
                ))
            } else if crate::table::TableSet::global_in(opts.metric).is_built(shape, goal_blank) {
                Ok((
                    Algorithm::Table,
                    format!("{cells} cells, and the complete table is already built"),
                ))
            } else {
                Ok((
                    Algorithm::Idastar,
                    format!(
                        "{cells} cells, one query: a direct search answers faster than building the complete table"
                    ),
                ))
            }
        }
        Algorithm::Auto if cells <= EXACT_MAX_CELLS || opts.optimal => Ok((
            Algorithm::Idastar,
            if cells <= EXACT_MAX_CELLS {
                format!(
                    "{cells} cells, beyond the complete tables (at most {} cells)",
                    crate::table::MAX_CELLS
                )
            } else {
                format!("{cells} cells, an optimal answer insisted on")
            },
        )),
        // A heuristic named by the caller is for a search: anytime uses it.
        Algorithm::Auto if cells > ANYTIME_MAX_CELLS && opts.heuristic == HeuristicKind::Auto => Ok((
            Algorithm::Fast,
            format!(
                "{cells} cells: exact search can take hours here, so the fast constructive solver, an answer at once, not optimal, with the Manhattan lower bound"
            ),
        )),
        Algorithm::Auto => Ok((
            Algorithm::Anytime,
            format!(
                "{cells} cells: exact search can take hours here, so an answer at once, improved while time remains, with its distance from optimal"
            ),
        )),
        a if opts.optimal && !a.exact() => Err(SearchError::NotApplicable {
            algorithm: a.name(),
            shape,
            reason: "its answers are not proven optimal, and an optimal answer was insisted on"
                .to_string(),
        }),
        Algorithm::Table if !covered => Err(SearchError::NotApplicable {
            algorithm: "table",
            shape,
            reason: format!(
                "complete tables cover boards of at most {} cells",
                crate::table::MAX_CELLS
            ),
        }),
        a => Ok((a, "asked for".to_string())),
    }
}

/// The heuristic for an informed search on `shape`, and why (empty when
/// asked for by name).
pub fn heuristic_for(
    kind: HeuristicKind,
    shape: Shape,
) -> Result<(HeuristicKind, String), SearchError> {
    let cells = shape.cells();
    let pdb_fits = cells <= pdb::MAX_CELLS;
    match kind {
        HeuristicKind::Auto if cells > crate::table::MAX_CELLS && pdb_fits => Ok((
            HeuristicKind::Pdb,
            "pattern databases, the strongest heuristic for this size".to_string(),
        )),
        HeuristicKind::Auto if !pdb_fits => Ok((
            HeuristicKind::LinearConflict,
            "linear conflict: pattern databases cover boards of at most 64 cells".to_string(),
        )),
        HeuristicKind::Auto => Ok((HeuristicKind::LinearConflict, String::new())),
        HeuristicKind::Pdb if !pdb_fits => Err(SearchError::NotApplicable {
            algorithm: "pdb",
            shape,
            reason: format!(
                "pattern databases cover boards of at most {} cells",
                pdb::MAX_CELLS
            ),
        }),
        h => Ok((h, String::new())),
    }
}

/// Threads for one IDA* search: `0` is every core, and never more than the
/// machine has (more workers than cores only add scheduling). The second
/// value says why when the request was changed.
fn threads_for(asked: usize) -> (usize, Option<String>) {
    // One thread needs no count of the cores: counting reads the cgroup
    // files, tens of microseconds, more than a whole 3x3 search.
    if asked == 1 {
        return (1, None);
    }
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    match asked {
        0 => (cores, None),
        n if n > cores => (
            cores,
            Some(format!(
                "{n} threads asked for, {cores} used (the machine's cores)"
            )),
        ),
        n => (n, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    fn problem(rows: usize, cols: usize) -> Problem {
        let goal = Board::blank_last(Shape::new(rows, cols)).unwrap();
        let mut start = goal.clone();
        start.apply(crate::board::Dir::Up);
        Problem::new(start, goal).unwrap()
    }

    #[test]
    fn auto_on_small_boards_depends_on_the_workload() {
        let p = problem(3, 3);
        let one = plan(&p, &SolveOptions::default()).unwrap();
        // a single query does not build a table (unless another test did)
        assert!(matches!(
            one.algorithm,
            Algorithm::Idastar | Algorithm::Table
        ));
        let many = plan(&p, &SolveOptions::default().with_workload(Workload::Many)).unwrap();
        assert_eq!(many.algorithm, Algorithm::Table);
        assert!(many.is_table());
        assert_eq!(many.heuristic, None);
    }

    #[test]
    fn auto_on_the_15_puzzle_is_idastar_with_pattern_databases() {
        let p = problem(4, 4);
        let pl = plan(&p, &SolveOptions::default()).unwrap();
        assert_eq!(pl.algorithm, Algorithm::Idastar);
        assert_eq!(pl.heuristic, Some(HeuristicKind::Pdb));
        // blank-last: the goal's blank is on the diagonal, so reflection applies
        assert_eq!(
            pl.pdb.as_deref(),
            Some("pdb 6-6-3 zero-aware (1 bit) + reflection")
        );
        let text = pl.to_string();
        assert!(text.starts_with("idastar + pdb 6-6-3"), "{text}");
        assert!(text.contains("1 thread: 16 cells"), "{text}");
        // the A* family evaluates nodes afresh: whole values, not one bit
        for algo in [Algorithm::Astar, Algorithm::Wastar, Algorithm::Anytime] {
            let o = SolveOptions::default()
                .with_algorithm(algo)
                .with_heuristic(HeuristicKind::Pdb);
            let pl = plan(&p, &o).unwrap();
            assert_eq!(pl.pdb.as_deref(), Some("pdb 6-6-3 zero-aware + reflection"));
            assert!(!pl.pdb_options(&o).compact());
        }
    }

    #[test]
    fn auto_by_size_exact_then_anytime_then_fast() {
        let algo = |r, c, optimal| {
            plan(
                &problem(r, c),
                &SolveOptions::default().with_optimal(optimal),
            )
            .unwrap()
            .algorithm
        };
        assert_eq!(algo(4, 4, false), Algorithm::Idastar);
        assert_eq!(algo(3, 6, false), Algorithm::Anytime);
        assert_eq!(algo(5, 5, false), Algorithm::Anytime);
        assert_eq!(algo(2, 13, false), Algorithm::Fast);
        assert_eq!(algo(16, 16, false), Algorithm::Fast);
        assert_eq!(algo(5, 5, true), Algorithm::Idastar);
        assert_eq!(algo(10, 10, true), Algorithm::Idastar);
        let e = plan(
            &problem(3, 3),
            &SolveOptions::default()
                .with_algorithm(Algorithm::Fast)
                .with_optimal(true),
        )
        .unwrap_err();
        assert!(e.to_string().contains("not proven optimal"), "{e}");
    }

    #[test]
    fn big_boards_get_linear_conflict_and_tables_are_refused() {
        let p = problem(9, 9);
        let pl = plan(
            &p,
            &SolveOptions::default().with_algorithm(Algorithm::Idastar),
        )
        .unwrap();
        assert_eq!(pl.heuristic, Some(HeuristicKind::LinearConflict));
        let e = plan(
            &p,
            &SolveOptions::default().with_algorithm(Algorithm::Table),
        )
        .unwrap_err();
        assert!(matches!(e, SearchError::NotApplicable { .. }), "{e}");
        let e = plan(
            &p,
            &SolveOptions::default()
                .with_algorithm(Algorithm::Idastar)
                .with_heuristic(HeuristicKind::Pdb),
        )
        .unwrap_err();
        assert!(e.to_string().contains("at most 64 cells"), "{e}");
    }

    #[test]
    fn threads_never_exceed_the_cores() {
        let p = problem(4, 4);
        let pl = plan(
            &p,
            &SolveOptions::default()
                .with_threads(100_000)
                .with_heuristic(HeuristicKind::Manhattan),
        )
        .unwrap();
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        assert_eq!(pl.threads, cores);
        assert!(
            pl.reason.contains("100000 threads asked for"),
            "{}",
            pl.reason
        );
    }

    #[test]
    fn unreachable_goals_plan_no_search() {
        let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
        let start = Board::from_tiles(3, 3, &[2, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
        let pl = plan(
            &Problem::new(start, goal).unwrap(),
            &SolveOptions::default(),
        )
        .unwrap();
        assert!(!pl.solvable);
        assert!(!pl.is_table());
        assert!(pl.to_string().starts_with("no search"));
    }
}
