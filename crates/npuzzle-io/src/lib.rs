//! What npuzzle's front ends share above the core: the command line, the
//! web server and the Python package read the same text into problems
//! ([`input`]), the same benchmark instance files ([`instances`]), and
//! write the same JSON form of an answer ([`report`]). The core
//! (`npuzzle`) stays the solver's API; nothing here solves.
//!
//! ```
//! use npuzzle::GoalSpec;
//! use npuzzle::{SolveOptions};
//! use npuzzle_io::{input::problem_from_text, report::Report};
//!
//! // A start and a goal as people type them, apart.
//! let goal: GoalSpec = "1 2 3 8 0 4 7 6 5".parse()?;
//! let problem = problem_from_text("2 8 3 1 6 4 7 0 5", Some(&goal), None)?;
//! let answer = npuzzle::solve(&problem, &SolveOptions::default().with_path(true))?;
//! let report = Report::new(&problem, &answer, false, false);
//! assert_eq!(report.moves, 5);
//! assert_eq!(report.path.as_deref(), Some("UULDR"));
//!
//! // A benchmark file: tiles, then the optimal length.
//! let korf = npuzzle_io::instances::parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3 57", None)?;
//! assert_eq!(korf[0].length, Some(57));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]
#![deny(clippy::print_stdout, clippy::print_stderr)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub mod analysis;
pub mod batch;
pub mod input;
pub mod instances;
pub mod random;
pub mod report;
pub mod verdict;
