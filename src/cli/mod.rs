//! Argument parsing (clap derive), input reading and output formatting.
//! No algorithm code lives here.

mod batch;
mod bench;
mod compare;
mod input;
mod pdb;
mod random;
#[cfg(feature = "server")]
mod serve;
mod solve;

use clap::{Parser, Subcommand};
use npuzzle::board::{BoardError, InputError};
use npuzzle::heuristic::pdb::PdbError;
use npuzzle::search::{ErrorKind, Limit, SearchError};
use std::io::Write;
use std::process::ExitCode;

/// Exit status for a failure of the environment (a file that cannot be
/// written, threads that cannot start).
pub const EXIT_ENVIRONMENT: u8 = 1;
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
    #[cfg(feature = "server")]
    Serve(serve::ServeArgs),
    /// Build or list cached pattern databases.
    Pdb(pdb::PdbArgs),
    /// Solve every instance of a benchmark file and check the lengths.
    Bench(bench::BenchArgs),
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
/// budget (or a cancelled search), 1 for the environment and anything else.
fn exit_code(e: &anyhow::Error) -> u8 {
    if e.downcast_ref::<InputError>().is_some() || e.downcast_ref::<BoardError>().is_some() {
        return EXIT_BAD_INPUT;
    }
    if let Some(p) = e.downcast_ref::<PdbError>() {
        return if p.is_environment() {
            EXIT_ENVIRONMENT
        } else if p.is_budget() || p.is_cancelled() {
            EXIT_BUDGET
        } else {
            EXIT_BAD_INPUT
        };
    }
    match e.downcast_ref::<SearchError>().map(SearchError::kind) {
        Some(ErrorKind::Budget | ErrorKind::Cancelled) => EXIT_BUDGET,
        Some(ErrorKind::BadInput) => EXIT_BAD_INPUT,
        Some(ErrorKind::Environment) | None => EXIT_ENVIRONMENT,
    }
}

/// What to type to get further, for errors whose library message (written
/// for every caller) cannot name this command's flags.
fn flag_hint(e: &anyhow::Error) -> Option<&'static str> {
    if let Some(s) = e.downcast_ref::<SearchError>() {
        return match s.limit() {
            Some(Limit::States) => Some("raise it with --max-states N"),
            Some(Limit::Nodes) => Some("raise it with --max-nodes N"),
            Some(Limit::Time) => Some("raise it with --timeout SECONDS"),
            Some(Limit::Memory) => Some("raise it with --max-memory SIZE, e.g. --max-memory 8G"),
            None => None,
        };
    }
    let board = e
        .downcast_ref::<InputError>()
        .and_then(|i| match i {
            InputError::Board { error, .. } => Some(error),
            _ => None,
        })
        .or_else(|| e.downcast_ref::<BoardError>());
    match board {
        Some(BoardError::CannotInferSize { .. }) => Some("give --size RxC, e.g. --size 2x4"),
        _ => None,
    }
}

/// `--max-memory SIZE`: bytes, or a number with a unit (`512M`, `8G`).
pub fn parse_size(text: &str) -> Result<u64, String> {
    npuzzle::system::parse_bytes(text)
}

/// `budget` with `--max-memory`, when given.
pub fn with_memory(budget: npuzzle::Budget, max_memory: Option<u64>) -> npuzzle::Budget {
    match max_memory {
        Some(bytes) => budget.with_max_bytes(bytes),
        None => budget,
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
        #[cfg(feature = "server")]
        Command::Serve(args) => serve::run(args),
        Command::Pdb(args) => pdb::run(args),
        Command::Bench(args) => bench::run(args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            let _ = std::io::stdout().flush();
            match flag_hint(&f.error) {
                Some(hint) => eprintln!("npuzzle: {:#} ({hint})", f.error),
                None => eprintln!("npuzzle: {:#}", f.error),
            }
            ExitCode::from(f.code)
        }
    }
}
