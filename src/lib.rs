//! npuzzle: exact solver for sliding-tile puzzles (the 8-puzzle, the
//! 15-puzzle, any R×C board from 2×2 to 16×16).
//!
//! Data flows one way: text → [`board::Board`] → a [`search::Solver`] →
//! [`search::Solution`] (length, path, statistics) → a formatter.

pub mod batch;
pub mod board;
pub mod heuristic;
pub mod input;
pub mod instances;
pub mod large;
pub mod random;
pub mod rank;
pub mod report;
pub mod search;
pub mod server;

pub use board::{Board, Dir, Shape};
pub use search::{solve, Algorithm, Budget, Problem, SearchError, Solution, SolveOptions};
