//! Searches behind one trait, [`Solver`], and one way in, [`solve`]: the
//! [planner](mod@plan) decides what runs (algorithm, heuristic, threads,
//! table or search), and every caller — the command line, the batch runner,
//! the web server, [`compare`](mod@compare) — asks it rather than deciding
//! by itself.
//!
//! ```
//! use npuzzle::{Algorithm, SolveOptions};
//! use npuzzle::{Board, Problem};
//!
//! let start = Board::from_tiles(3, 3, &[2, 8, 3, 1, 6, 4, 7, 0, 5]).unwrap();
//! let goal = Board::from_tiles(3, 3, &[1, 2, 3, 8, 0, 4, 7, 6, 5]).unwrap();
//! let problem = Problem::new(start, goal).unwrap();
//! let opts = SolveOptions::default().with_path(true);
//! let answer = npuzzle::solve(&problem, &opts).unwrap();
//! assert_eq!(answer.moves, Some(5));
//! assert!(npuzzle::verify_path(problem.start(), problem.goal(), answer.path.as_deref().unwrap()));
//!
//! // Any algorithm can be asked for by name.
//! let bfs = npuzzle::solve(&problem, &opts.clone().with_algorithm(Algorithm::Bfs)).unwrap();
//! assert_eq!(bfs.moves, Some(5));
//! ```

mod all;
mod anytime;
mod astar;
mod bfs;
mod bibfs;
internal!(compare, plan, prune);
mod error;
mod fast;
mod checkpoint;
mod forecast;
mod frontier;
mod ida;
mod idastar;
mod moves;
mod push;
mod events;
mod observe;
mod parallel;
mod partial;
mod pattern;
mod states;
mod subtrees;
mod table;
mod trace;

pub use crate::board::Problem;
pub use crate::budget::{Budget, Limit};
pub use all::{solve_all, Solutions};
pub use partial::solve_partial;
pub use error::{ErrorKind, SearchError};
pub use idastar::idastar_with;
pub use compare::{compare, compare_refusing, CompareRow, Comparison};
pub use plan::{plan, plan_grid, solve_grid, GridAnswer, Plan, Workload};
pub use observe::{Fate, Observer, Side, Visit};
pub use events::{Event, IterationSummary, Meeting, Memory, Trace};
pub use trace::{observe, trace};
pub use checkpoint::{CheckpointError, Checkpointing};
pub use prune::Pruning;
pub use subtrees::{with_subtrees, IterationCut, SubtreeSource, Subtrees, TaskEnd, TaskResult};

use crate::board::{Board, Dir, Metric, Shape};
use crate::heuristic::pdb::PdbOptions;
use crate::heuristic::HeuristicKind;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// What one search cost.
///
/// ```
/// use npuzzle::{parse_board, Algorithm, Problem, SolveOptions};
///
/// let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
/// let goal = parse_board("1 2 3 / 8 0 4 / 7 6 5", None)?;
/// let bfs = SolveOptions::default().with_algorithm(Algorithm::Bfs);
/// let stats = npuzzle::solve(&Problem::new(start, goal)?, &bfs)?.stats;
/// assert!(stats.expanded > 0 && stats.generated >= stats.expanded);
/// assert!(stats.peak_states > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Nodes whose successors were generated.
    pub expanded: u64,
    /// Successors generated (including duplicates that were then dropped).
    pub generated: u64,
    /// Largest number of states held in memory at once.
    pub peak_states: u64,
    /// Wall-clock time of the search.
    #[serde(rename = "seconds", serialize_with = "ser_secs")]
    pub elapsed: Duration,
}

fn ser_secs<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

impl Stats {
    /// The figures a search ends with: `held` states at the peak (for the
    /// searches that never drop one), and the time since `clock` started.
    pub(crate) fn finish(&mut self, held: usize, clock: &crate::budget::Clock<'_>) -> Stats {
        self.peak_states = held as u64;
        self.elapsed = clock.start.elapsed();
        *self
    }
}

/// The answer to a problem.
///
/// ```
/// use npuzzle::{parse_board, Problem, SolveOptions};
///
/// let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
/// let goal = parse_board("1 2 3 / 8 0 4 / 7 6 5", None)?;
/// let answer = npuzzle::solve(&Problem::new(start, goal)?, &SolveOptions::default())?;
/// assert_eq!(answer.moves, Some(5));
/// assert!(answer.optimal && answer.lower_bound.is_none());
/// assert_eq!(answer.path, None); // not asked for
/// assert!(answer.plan.is_some());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Solution {
    /// Fewest moves, or `None` when the goal cannot be reached.
    pub moves: Option<u32>,
    /// The optimal moves (blank directions), when asked for and reachable.
    pub path: Option<Vec<Dir>>,
    /// The algorithm that answered (`table`, `idastar`, …; `parity` when
    /// the goal was found unreachable without a search).
    pub algorithm: &'static str,
    /// The heuristic it used, if any.
    pub heuristic: Option<&'static str>,
    /// What the search cost.
    pub stats: Stats,
    /// Whether `moves` is proven to be the fewest. Exact searches always
    /// prove it; bounded-suboptimal ones (`wastar`, `anytime`, `fast`) say
    /// how far from optimal they can be in `lower_bound`.
    pub optimal: bool,
    /// For an answer not proven optimal: the best proven lower bound on
    /// the fewest moves (so `moves / lower_bound` bounds the ratio to
    /// optimal). `None` when optimal or unreachable.
    pub lower_bound: Option<u32>,
    /// What the planner chose and why (set by [`solve`]).
    pub plan: Option<Plan>,
    /// How `moves` and `lower_bound` are counted (the path is always the
    /// blank's single steps).
    pub metric: Metric,
    /// IDA*'s iterations in order, each bound with the nodes it expanded
    /// (they sum to `stats.expanded`); empty for the other searches.
    pub iterations: Vec<IterationSummary>,
}

impl Solution {
    /// An answer found by `algorithm` (with `heuristic`, if any).
    pub(crate) fn found(
        algorithm: &'static str,
        heuristic: Option<&'static str>,
        moves: Option<u32>,
        path: Option<Vec<Dir>>,
        stats: Stats,
    ) -> Solution {
        Solution {
            moves,
            path,
            algorithm,
            heuristic,
            stats,
            optimal: true,
            lower_bound: None,
            plan: None,
            metric: Metric::Stm,
            iterations: Vec::new(),
        }
    }

    /// The same answer, with IDA*'s iterations.
    pub(crate) fn with_iterations(mut self, iterations: Vec<IterationSummary>) -> Solution {
        self.iterations = iterations;
        self
    }

    /// An answer of `moves` moves not proven optimal: the fewest is at
    /// least `lower_bound`.
    pub(crate) fn bounded(
        algorithm: &'static str,
        heuristic: Option<&'static str>,
        moves: u32,
        path: Option<Vec<Dir>>,
        stats: Stats,
        lower_bound: u32,
    ) -> Solution {
        let mut s = Solution::found(algorithm, heuristic, Some(moves), path, stats);
        // A lower bound equal to the length proves it optimal after all.
        if lower_bound < moves {
            s.optimal = false;
            s.lower_bound = Some(lower_bound);
        }
        s
    }

    /// For an answer not proven optimal, how many times the fewest moves
    /// it can be at most (`moves / lower_bound`).
    pub fn max_ratio(&self) -> Option<f64> {
        match (self.moves, self.lower_bound) {
            (Some(m), Some(l)) if l > 0 => Some(f64::from(m) / f64::from(l)),
            _ => None,
        }
    }

    /// The answer for an unreachable goal: no search was started.
    pub(crate) fn unreachable(algorithm: &'static str) -> Solution {
        Solution::found(algorithm, None, None, None, Stats::default())
    }
}

/// How to solve: what to run (or `auto`), what to produce, within what.
///
/// Build one from [`SolveOptions::default`] with the `with_*` methods; the
/// planner ([`plan()`]) turns it into what actually runs.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct SolveOptions {
    /// The algorithm (`auto`: the planner's choice).
    pub algorithm: Algorithm,
    /// Heuristic for informed searches (`auto`: the planner's choice).
    pub heuristic: HeuristicKind,
    /// Produce the optimal path, not only its length.
    pub want_path: bool,
    /// Limits on states, nodes, time, and a cancel flag.
    pub budget: Budget,
    /// Which pattern databases to use, and where they are cached.
    pub pdb: PdbOptions,
    /// Worker threads for one search (parallel IDA*): 1 is sequential, 0
    /// every core; never more than the machine has.
    pub threads: usize,
    /// Whether the caller answers one query or many (see [`Workload`]).
    pub workload: Workload,
    /// The answer's length when already known: a search then gives up at
    /// once ([`SearchError::Forecast`]) when the growth it has seen plainly
    /// needs more than its budget to get that deep ([`compare`](crate::compare())
    /// uses it).
    pub forecast: Option<u32>,
    /// The weight `W` of weighted A* (`wastar`): answers at most `W` times
    /// the fewest moves (at least 1).
    pub weight: f64,
    /// Insist on a proven-optimal answer: `auto` then never falls back to a
    /// bounded-suboptimal algorithm, and asking for one is refused.
    pub optimal: bool,
    /// How IDA* prunes moves (`auto`: the planner's choice).
    pub pruning: prune::Pruning,
    /// How moves are counted: single-tile (the default) or multi-tile.
    pub metric: Metric,
    /// Where IDA* saves itself now and then, and whether it goes on from
    /// there ([`Checkpointing`]); other algorithms refuse it.
    pub checkpoint: Option<Checkpointing>,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            algorithm: Algorithm::Auto,
            heuristic: HeuristicKind::Auto,
            want_path: false,
            budget: Budget::default(),
            pdb: PdbOptions::default(),
            threads: 1,
            workload: Workload::Single,
            forecast: None,
            weight: SolveOptions::DEFAULT_WEIGHT,
            optimal: false,
            pruning: prune::Pruning::Auto,
            metric: Metric::Stm,
            checkpoint: None,
        }
    }
}

impl SolveOptions {
    /// The weight of weighted A* unless given: answers within 1.5 times
    /// the fewest moves, usually much closer.
    pub const DEFAULT_WEIGHT: f64 = 1.5;

    /// With the weight `w` for weighted A*.
    pub fn with_weight(mut self, w: f64) -> SolveOptions {
        self.weight = w;
        self
    }

    /// With IDA*'s move pruning `p`.
    pub fn with_pruning(mut self, p: prune::Pruning) -> SolveOptions {
        self.pruning = p;
        self
    }

    /// Saving IDA*'s place as `c` says (or not).
    pub fn with_checkpoint(mut self, c: Option<Checkpointing>) -> SolveOptions {
        self.checkpoint = c;
        self
    }

    /// Counting moves in `metric`.
    pub fn with_metric(mut self, metric: Metric) -> SolveOptions {
        self.metric = metric;
        self
    }

    /// Insisting on a proven-optimal answer, or not.
    pub fn with_optimal(mut self, optimal: bool) -> SolveOptions {
        self.optimal = optimal;
        self
    }

    /// With the algorithm `a`.
    pub fn with_algorithm(mut self, a: Algorithm) -> SolveOptions {
        self.algorithm = a;
        self
    }

    /// With the heuristic `h`.
    pub fn with_heuristic(mut self, h: HeuristicKind) -> SolveOptions {
        self.heuristic = h;
        self
    }

    /// Producing the path (or only its length).
    pub fn with_path(mut self, want: bool) -> SolveOptions {
        self.want_path = want;
        self
    }

    /// Within `budget`.
    pub fn with_budget(mut self, budget: Budget) -> SolveOptions {
        self.budget = budget;
        self
    }

    /// With these pattern-database options.
    pub fn with_pdb(mut self, pdb: PdbOptions) -> SolveOptions {
        self.pdb = pdb;
        self
    }

    /// With `n` worker threads (0: every core).
    pub fn with_threads(mut self, n: usize) -> SolveOptions {
        self.threads = n;
        self
    }

    /// For one query or many.
    pub fn with_workload(mut self, w: Workload) -> SolveOptions {
        self.workload = w;
        self
    }

    /// Giving up early when the growth so far cannot reach depth `d`.
    pub fn with_forecast(mut self, d: Option<u32>) -> SolveOptions {
        self.forecast = d;
        self
    }

    /// Refuses combinations of options no search can honour (a dual
    /// lookup on one-bit databases, …) before any work: what the planner
    /// checks first, for callers that want to say so before reading input.
    ///
    /// ```
    /// use npuzzle::pdb::{BlankMode, PdbOptions};
    /// use npuzzle::SolveOptions;
    ///
    /// let opts = SolveOptions::default()
    ///     .with_pdb(PdbOptions::default().with_dual(true).with_blank(BlankMode::Bits));
    /// assert!(opts.check().is_err());
    /// assert!(SolveOptions::default().check().is_ok());
    /// ```
    pub fn check(&self) -> Result<(), SearchError> {
        plan::check_options(self)
    }

    /// The algorithm the planner runs on boards of `shape` whose goal has
    /// its blank on cell `goal_blank`, and why: for callers that answer
    /// many boards of one shape and ask once.
    ///
    /// ```
    /// use npuzzle::{Algorithm, Shape, SolveOptions, Workload};
    ///
    /// // Many boards to answer: the 8-puzzle's complete table pays.
    /// let many = SolveOptions::default().with_workload(Workload::Many);
    /// let (algorithm, why) = many.algorithm_for(Shape::new(3, 3), 8)?;
    /// assert_eq!(algorithm, Algorithm::Table);
    /// assert!(!why.is_empty());
    /// # Ok::<(), npuzzle::SearchError>(())
    /// ```
    pub fn algorithm_for(
        &self,
        shape: Shape,
        goal_blank: usize,
    ) -> Result<(Algorithm, String), SearchError> {
        plan::algorithm_for(shape, goal_blank, self)
    }
}

/// One search algorithm.
pub trait Solver: Send + Sync {
    /// Short name, as [`Algorithm::name`] gives it (the sequential and the
    /// parallel IDA* are both `idastar`).
    fn name(&self) -> &'static str;

    /// Finds the fewest moves from `problem.start()` to `problem.goal()`.
    /// Called by [`solve`] for solvable problems, with the options the
    /// planner resolved (no `auto` algorithm; an informed search gets a
    /// concrete heuristic).
    fn solve(&self, problem: &Problem, opts: &SolveOptions) -> Result<Solution, SearchError>;
}

/// The search algorithms. Parsed from their names (and a few aliases:
/// `ida*`, `a*`, `bidirectional`, …) in any case.
///
/// ```
/// use npuzzle::Algorithm;
///
/// let a: Algorithm = "IDA*".parse()?;
/// assert_eq!(a, Algorithm::Idastar);
/// assert_eq!(a.name(), "idastar");
/// assert!(a.exact() && a.informed());
/// assert!(!Algorithm::Fast.exact());
/// assert!("dijkstra".parse::<Algorithm>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(into = "&'static str")]
pub enum Algorithm {
    /// The planner's choice.
    #[default]
    Auto,
    /// The complete distance tables (boards of at most 10 cells).
    Table,
    /// BFS; visited set = rank bit array (≤ 12 cells) or hash set.
    Bfs,
    /// BFS with a hash set of visited states.
    BfsHash,
    /// BFS with an ordered set (B-tree) of visited states.
    BfsSet,
    /// Bidirectional BFS, a whole layer of the smaller frontier at a time.
    Bibfs,
    /// A* with a binary heap and a closed set.
    Astar,
    /// IDA*, sequential or parallel.
    Idastar,
    /// Weighted A*: answers within the weight times the fewest moves.
    Wastar,
    /// Greedy best-first on the heuristic alone, a teaching contrast: fast
    /// to an answer, not optimal.
    Greedy,
    /// Depth-first iterative deepening, IDA* without a heuristic, a
    /// teaching contrast: optimal, and blind.
    Dfid,
    /// A first answer at once, improved while time remains, with a proven
    /// lower bound.
    Anytime,
    /// The constructive solver: any size, an answer at
    /// once, not optimal (the lower bound is the Manhattan distance).
    Fast,
}

impl From<Algorithm> for &'static str {
    fn from(a: Algorithm) -> &'static str {
        a.name()
    }
}

impl Algorithm {
    /// Every algorithm, `auto` first.
    pub const ALL: [Algorithm; 13] = [
        Algorithm::Auto,
        Algorithm::Table,
        Algorithm::Bfs,
        Algorithm::BfsHash,
        Algorithm::BfsSet,
        Algorithm::Bibfs,
        Algorithm::Astar,
        Algorithm::Idastar,
        Algorithm::Wastar,
        Algorithm::Greedy,
        Algorithm::Dfid,
        Algorithm::Anytime,
        Algorithm::Fast,
    ];

    /// The short name, as printed and parsed (`auto`, `bfs-hash`,
    /// `idastar`, …).
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::Table => "table",
            Algorithm::Bfs => "bfs",
            Algorithm::BfsHash => "bfs-hash",
            Algorithm::BfsSet => "bfs-set",
            Algorithm::Bibfs => "bibfs",
            Algorithm::Astar => "astar",
            Algorithm::Idastar => "idastar",
            Algorithm::Wastar => "wastar",
            Algorithm::Greedy => "greedy",
            Algorithm::Dfid => "dfid",
            Algorithm::Anytime => "anytime",
            Algorithm::Fast => "fast",
        }
    }

    /// Whether its answers are proven optimal (the others say how far from
    /// optimal they can be).
    pub fn exact(self) -> bool {
        !matches!(
            self,
            Algorithm::Wastar | Algorithm::Greedy | Algorithm::Anytime | Algorithm::Fast
        )
    }

    /// Whether [`observe`] and [`trace`] can watch it (every search but
    /// the tables, anytime search and the fast solver; `auto` is watched
    /// when the planner chooses one that can be).
    ///
    /// ```
    /// use npuzzle::Algorithm;
    ///
    /// assert!(Algorithm::Dfid.watchable() && Algorithm::Greedy.watchable());
    /// assert!(!Algorithm::Fast.watchable());
    /// ```
    pub fn watchable(self) -> bool {
        !matches!(
            self,
            Algorithm::Auto | Algorithm::Table | Algorithm::Anytime | Algorithm::Fast
        )
    }

    /// Whether the algorithm can count moves in `metric`: every one counts
    /// single-tile moves; in the multi-tile metric the complete tables,
    /// IDA* (in pushes) and the fast solver (its path counted in pushes)
    /// do, and `auto` chooses among them.
    ///
    /// ```
    /// use npuzzle::{Algorithm, Metric};
    ///
    /// assert!(Algorithm::Bfs.counts(Metric::Stm));
    /// assert!(Algorithm::Idastar.counts(Metric::Mtm) && !Algorithm::Astar.counts(Metric::Mtm));
    /// ```
    pub fn counts(self, metric: Metric) -> bool {
        match metric {
            Metric::Stm => true,
            Metric::Mtm => self == Algorithm::Auto || plan::MTM_ALGORITHMS.contains(&self),
        }
    }

    /// The names of the algorithms [`Algorithm::watchable`] says can be
    /// watched, for messages.
    pub(crate) fn watchable_names() -> String {
        let names: Vec<&str> = Algorithm::ALL
            .into_iter()
            .filter(|a| a.watchable())
            .map(Algorithm::name)
            .collect();
        names.join(", ")
    }

    /// Whether the algorithm takes a heuristic.
    pub fn informed(self) -> bool {
        matches!(
            self,
            Algorithm::Astar
                | Algorithm::Idastar
                | Algorithm::Wastar
                | Algorithm::Greedy
                | Algorithm::Anytime
        )
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;

    fn from_str(s: &str) -> Result<Algorithm, String> {
        let l = s.trim().to_ascii_lowercase();
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == l)
            .or(match l.as_str() {
                "ida*" | "ida" => Some(Algorithm::Idastar),
                "a*" => Some(Algorithm::Astar),
                "bidirectional" | "bi-bfs" => Some(Algorithm::Bibfs),
                "bfs-rank" => Some(Algorithm::Bfs),
                "bfs-btree" | "bfs-ordered" => Some(Algorithm::BfsSet),
                "wa*" | "weighted-astar" | "weighted" => Some(Algorithm::Wastar),
                "constructive" | "large" => Some(Algorithm::Fast),
                "best-first" | "gbfs" | "greedy-best-first" => Some(Algorithm::Greedy),
                "iddfs" | "id" | "iterative-deepening" => Some(Algorithm::Dfid),
                _ => None,
            })
            .ok_or_else(|| {
                let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
                format!(
                    "'{}' is not an algorithm; use one of {}",
                    crate::board::printable(s),
                    names.join(", ")
                )
            })
    }
}

/// Solves a problem: asks the planner what runs, then runs it. An
/// unreachable goal is answered at once from parity on any board size (no
/// search; the algorithm reported is `parity`).
///
/// ```
/// use npuzzle::{parse_board, path_string, Problem, SolveOptions};
///
/// let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
/// let goal = parse_board("1 2 3 / 8 0 4 / 7 6 5", None)?;
/// let opts = SolveOptions::default().with_path(true);
/// let answer = npuzzle::solve(&Problem::new(start, goal)?, &opts)?;
/// assert_eq!(answer.moves, Some(5));
/// assert_eq!(path_string(&answer.path.unwrap()), "UULDR");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve(problem: &Problem, opts: &SolveOptions) -> Result<Solution, SearchError> {
    let plan = plan::plan(problem, opts)?;
    if opts.checkpoint.is_some() {
        checkpoint_applies(&plan, problem.shape())?;
    }
    let mut sol = if !plan.solvable {
        Solution::unreachable("parity")
    } else if plan.metric == Metric::Mtm && plan.algorithm == Algorithm::Fast {
        pushes_of_fast(problem, &plan, opts)?
    } else {
        plan.solver().solve(problem, &plan.resolved(opts))?
    };
    sol.metric = plan.metric;
    sol.plan = Some(plan);
    Ok(sol)
}

/// Refuses checkpoints for a plan that keeps none: only IDA* in single-tile
/// moves saves its place (a complete table's lookup has nothing to save).
fn checkpoint_applies(plan: &Plan, shape: crate::board::Shape) -> Result<(), SearchError> {
    let saves = plan.algorithm == Algorithm::Idastar && plan.metric == crate::board::Metric::Stm;
    if !plan.solvable || saves || plan.algorithm == Algorithm::Table {
        return Ok(());
    }
    Err(SearchError::NotApplicable {
        algorithm: plan.algorithm.name(),
        shape,
        reason: format!(
            "checkpoints are kept by IDA* in single-tile moves only; this search is {} in {}",
            plan.algorithm,
            plan.metric.describe()
        ),
    })
}

/// The fast solver's answer counted in pushes: its path's runs, with the
/// split Manhattan distance as the lower bound (never presented as optimal
/// unless the two meet).
fn pushes_of_fast(problem: &Problem, plan: &Plan, opts: &SolveOptions) -> Result<Solution, SearchError> {
    let mut o = plan.resolved(opts);
    o.want_path = true;
    let mut sol = plan.solver().solve(problem, &o)?;
    let path = sol.path.take().unwrap_or_default();
    let moves = Metric::Mtm.length(&path) as u32;
    let split = push::SplitManhattan::new(problem.goal());
    let bound = split.value(split.init(problem.start().tiles()));
    let mut pushed = Solution::bounded(sol.algorithm, None, moves, None, sol.stats, bound);
    pushed.path = opts.want_path.then_some(path);
    Ok(pushed)
}

/// Checks that `path` is legal from `start` and ends at `goal`.
///
/// ```
/// use npuzzle::{parse_board, parse_path, verify_path};
///
/// let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
/// let goal = parse_board("1 2 3 / 8 0 4 / 7 6 5", None)?;
/// assert!(verify_path(&start, &goal, &parse_path("UULDR")?));
/// assert!(!verify_path(&start, &goal, &parse_path("UULD")?)); // one short
/// assert!(!verify_path(&start, &goal, &parse_path("D")?)); // off the board
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verify_path(start: &Board, goal: &Board, path: &[Dir]) -> bool {
    matches!(start.apply_path(path), Ok(end) if end == *goal)
}
