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
//! Data flows one way: text → [`Board`] → the planner ([`search::plan()`])
//! → a [`search::Solver`] → [`Solution`] (length, path, statistics) → a
//! formatter (the JSON report of `npuzzle-io`, the batch runner, the web
//! server).
//!
//! # Solving a puzzle
//!
//! ```
//! use npuzzle::board::{parse_board, GoalSpec, Scan};
//! use npuzzle::{search, Problem, SolveOptions};
//!
//! // Boards parse from any format people type; goals have names.
//! let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
//! let goal = GoalSpec::Spiral.resolve(start.shape(), &mut Scan::new())?;
//! let problem = Problem::new(start, goal)?;
//!
//! let answer = search::solve(&problem, &SolveOptions::default().with_path(true))?;
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
//! use npuzzle::board::parse_board;
//! use npuzzle::heuristic::pdb::PdbOptions;
//! use npuzzle::search::compare::compare;
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
// The library reports through its return values; printing is the
// command line's business.
#![deny(clippy::print_stdout, clippy::print_stderr)]
// Nothing a caller passes may panic the library.
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub mod batch;
pub mod board;
pub mod budget;
mod codec;
pub mod heuristic;
pub mod large;
pub mod random;
pub mod rank;
pub mod search;
pub mod system;
pub mod table;

pub use board::{Board, Dir, Problem, Shape};
pub use search::{solve, Algorithm, Budget, SearchError, Solution, SolveOptions};
