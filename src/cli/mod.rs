//! Argument parsing (clap derive), input reading and output formatting.
//! No algorithm code lives here.

mod batch;
mod bench;
mod compare;
mod input;
mod pdb;
mod random;
mod serve;
mod solve;
mod space;

use clap::{Parser, Subcommand};
use npuzzle::board::{BoardError, InputError};
use npuzzle::search::SearchError;
use std::io::Write;
use std::process::ExitCode;

/// Exit status for bad input.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit status when a search budget was spent.
pub const EXIT_BUDGET: u8 = 3;

#[derive(Parser, Debug)]
#[command(
    name = "npuzzle",
    version,
    about = "Exact solver for sliding-tile puzzles (8-puzzle, 15-puzzle, any RxC board)",
    long_about = "Exact solver for sliding-tile puzzles. Answers the fewest moves from a start \
                  board to a goal board (-1 when the goal cannot be reached) and, when asked, an \
                  optimal sequence of moves, written as the directions the blank travels (U, D, L, R)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve one puzzle: print the fewest moves (or -1), optionally the path.
    Solve(solve::SolveArgs),
    /// Answer a file of instances, one per line, in order, on every core.
    Batch(batch::BatchArgs),
    /// Write random instances as batch lines (deterministic for a --seed).
    Random(random::RandomArgs),
    /// Run every algorithm and heuristic on one puzzle and compare their
    /// costs; exits 1 if their answers disagree.
    Compare(compare::CompareArgs),
    /// Serve the web page and JSON API (http://127.0.0.1:8080/ by default).
    Serve(serve::ServeArgs),
    /// Build or list cached pattern databases.
    Pdb(pdb::PdbArgs),
    /// Solve every instance of a benchmark file and check the lengths.
    Bench(bench::BenchArgs),
    /// Count every position reachable from a goal by its distance: the
    /// radius (God's number), the antipodes, the mean distance.
    Space(space::SpaceArgs),
}

/// An error with the exit status it maps to.
pub struct Failure {
    pub code: u8,
    pub error: anyhow::Error,
}

impl<E: Into<anyhow::Error>> From<E> for Failure {
    fn from(e: E) -> Failure {
        let error = e.into();
        Failure {
            code: exit_code(&error),
            error,
        }
    }
}

/// Maps library errors to exit statuses: 2 for bad input, 3 for a spent
/// budget, 1 otherwise.
fn exit_code(e: &anyhow::Error) -> u8 {
    if e.downcast_ref::<InputError>().is_some() || e.downcast_ref::<BoardError>().is_some() {
        return EXIT_BAD_INPUT;
    }
    if let Some(npuzzle::heuristic::pdb::PdbError::Partition(_)) = e.downcast_ref() {
        return EXIT_BAD_INPUT;
    }
    match e.downcast_ref::<SearchError>() {
        Some(SearchError::Budget { .. }) | Some(SearchError::Cancelled { .. }) => EXIT_BUDGET,
        Some(SearchError::Input(_)) | Some(SearchError::Unsupported(_)) => EXIT_BAD_INPUT,
        None => 1,
    }
}

/// `1 error`, `2 errors`: a count with its noun in the right number.
pub fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Batch(args) => batch::run(args),
        Command::Random(args) => random::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Pdb(args) => pdb::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Space(args) => space::run(args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            let _ = std::io::stdout().flush();
            eprintln!("npuzzle: {:#}", f.error);
            ExitCode::from(f.code)
        }
    }
}
