//! npuzzle: a solver for sliding-tile puzzles (the 8-puzzle, the
//! 15-puzzle, the 24-puzzle, any R×C board from 2×2 up to 16,777,216
//! cells).
//!
//! Exact search (complete tables, BFS, A*, IDA*) covers boards up to
//! 16×16 and proves its answers optimal; the fast constructive solver
//! answers any board up to 16,777,216 cells (4096×4096, 2×1000, …) at once,
//! not optimally, as do weighted A* and the anytime search. Every
//! [`Solution`] says which: `optimal`, and otherwise a `lower_bound` on
//! the fewest moves.
//!
//! Data flows one way: text → [`Board`] → the planner
//! ([`npuzzle::plan()`](crate::plan())) → a solver → [`Solution`]
//! (length, path, statistics) → a formatter (the JSON report of
//! `npuzzle-io`, the batch runner, the web server).
//!
//! # Solving a puzzle
//!
//! ```
//! use npuzzle::{parse_board, GoalSpec, Scan};
//! use npuzzle::{Problem, SolveOptions};
//!
//! // Boards parse from any format people type; goals have names.
//! let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
//! let goal = GoalSpec::Spiral.resolve(start.shape(), &mut Scan::new())?;
//! let problem = Problem::new(start, goal)?;
//!
//! let answer = npuzzle::solve(&problem, &SolveOptions::default().with_path(true))?;
//! assert_eq!(answer.moves, Some(5));
//! let path: String = answer.path.unwrap().iter().map(|d| d.letter()).collect();
//! assert_eq!(path, "UULDR");
//! // The planner says what ran, and why.
//! println!("{}", answer.plan.unwrap());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Comparing algorithms
//!
//! ```
//! use npuzzle::parse_board;
//! use npuzzle::pdb::PdbOptions;
//! use npuzzle::compare;
//! use npuzzle::{Problem, SolveOptions};
//!
//! let start = parse_board("2 6 4 1 3 7 0 5 8", None)?;
//! let goal = parse_board("8 1 5 7 3 6 4 0 2", None)?;
//! // (pattern databases built in memory only, not cached on disk)
//! let opts = SolveOptions::default().with_pdb(PdbOptions::default().with_cache(false));
//! let cmp = compare(&Problem::new(start, goal)?, &opts);
//! assert!(cmp.agree);
//! assert_eq!(cmp.answer(), Some(31));
//! for row in &cmp.rows {
//!     println!("{} {:?}: {} expanded", row.algorithm, row.heuristic, row.expanded);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The crates above this one
//!
//! The `npuzzle` command (`npuzzle-cli`), the web server
//! (`npuzzle-server`) and the whole-space search (`npuzzle-space`) are
//! crates of their own on top of this one; none of their dependencies
//! (clap, axum, tokio, timely, …) is beneath it.

#![warn(missing_docs)]
// Every type a public item shows is one a caller can name.
#![warn(unnameable_types)]
// The library reports through its return values; printing is the
// command line's business.
#![deny(clippy::print_stdout, clippy::print_stderr)]
// Nothing a caller passes may panic the library.
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

/// The modules behind the front door: private, except to this
/// workspace's own tests and fuzz targets (feature `internals`, not a
/// supported API).
macro_rules! internal {
    ($($m:ident),*) => {
        $(
            #[cfg(feature = "internals")]
            #[doc(hidden)]
            pub mod $m;
            #[cfg(not(feature = "internals"))]
            mod $m;
        )*
    };
}
internal!(board, budget, codec, heuristic, large, search, system, table);
pub mod rank;

// Boards, goals and problems.
pub use board::{
    metric_runs, parse_board, parse_path, path_string, printable, Board, BoardError, Cell, Dir,
    GoalSpec, Grid, InputError, Metric, PartialGoal, Problem, Role, Scan, Shape, UnknownMetric,
};
// Moves as people write them (blank or tile notation, with counts), and
// the paths' algebra.
pub use board::{
    format_moves, invert, parse_moves, simplify, transpose, Notation, Rewrite, UnknownNotation,
    UnknownRewrite, MAX_STEPS,
};
// Solving: the planner's one way in, its options and its answers.
pub use budget::{Budget, Interrupt, Limit, Progress, ProgressSnapshot};
pub use search::{
    compare, compare_refusing, idastar_with, observe, plan, plan_grid, solve, solve_all,
    solve_grid, solve_partial, trace, verify_path, Algorithm, CheckpointError, Checkpointing,
    CompareRow, Comparison, ErrorKind, Event, Fate, GridAnswer, IterationSummary, Meeting, Memory,
    Observer, Plan, Pruning, SearchError, Side, Solution, Solutions, SolveOptions, Stats, Trace,
    Visit, Workload,
};
// The distributed search's side in the library: iterations cut into subtrees.
pub use search::{with_subtrees, IterationCut, SubtreeSource, Subtrees, TaskEnd, TaskResult};
// Heuristics: the selector, and the trait for writing one's own.
pub use heuristic::{Heuristic, HeuristicKind, WalkingDistance};
// Where the fast solver and `solve_grid` send their moves.
pub use large::{Discard, Letters, MoveSink};
// Complete distance tables (boards of up to ten cells), and byte sizes.
pub use system::Bytes;
pub use table::{DistanceTable, Lookup, Standing, TableSet};

pub mod pdb {
    //! Pattern databases: how the searches' strongest heuristic is chosen
    //! ([`PdbOptions`], [`PartitionSpec`], [`BlankMode`]), shared in memory
    //! ([`PdbCache`]), built ahead of time ([`build`]), and the files of its
    //! disk cache listed and checked ([`list`], [`verify`]).
    //!
    //! ```
    //! use npuzzle::pdb::{build, PdbOptions, PartitionSpec};
    //! use npuzzle::{Board, Budget, Shape};
    //!
    //! // The 8-puzzle's databases, groups of 4 and 4 tiles, in memory only.
    //! let goal = Board::blank_last(Shape::new(3, 3))?;
    //! let opts = PdbOptions::default()
    //!     .with_partition("4-4".parse::<PartitionSpec>()?)
    //!     .with_cache(false);
    //! let built = build(&goal, &opts, &(), &Budget::default())?;
    //! assert_eq!(built.databases.len(), 2);
    //! assert!(built.databases.iter().all(|db| db.tiles.len() == 4));
    //! # Ok::<(), Box<dyn std::error::Error>>(())
    //! ```
    pub use crate::heuristic::pdb::colour::store::{list as list_colour, ColourFile};
    pub use crate::heuristic::pdb::store::{default_dir, list, CachedFile};
    pub use crate::heuristic::pdb::{
        branching_factor, build, verify, BlankMode, Built, BuiltDb, Combine, Estimator,
        PartitionError, PartitionSpec, PdbCache, PdbError, PdbOptions, PdbReporter, SharedReporter,
        Verdict,
    };
}
