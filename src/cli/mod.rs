//! Argument parsing (clap derive), input reading and output formatting.
//! No algorithm code lives here.

mod batch;
mod bench;
mod compare;
mod input;
mod large;
mod pdb;
mod random;
#[cfg(feature = "server")]
mod serve;
mod solve;
mod space;

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

/// Whether standard output was closed when the program started (`>&-`).
///
/// Rust's runtime reopens a closed standard descriptor on `/dev/null` before
/// `main`, so that writes to it succeed silently and a command would exit 0
/// having printed nothing. It opens it read-write, which no shell
/// redirection does (`>/dev/null` is write-only): that tells the two
/// apart. Linux only (it reads `/proc`); elsewhere the check is skipped.
fn stdout_closed() -> bool {
    let Ok(target) = std::fs::read_link("/proc/self/fd/1") else {
        return false;
    };
    if target != std::path::Path::new("/dev/null") {
        return false;
    }
    let Ok(info) = std::fs::read_to_string("/proc/self/fdinfo/1") else {
        return false;
    };
    info.lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
        // O_ACCMODE = 3, O_RDWR = 2
        .is_some_and(|flags| flags & 3 == 2)
}

/// Whether the error is standard output closed by its reader.
fn broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// A command-line error as one line: clap's own message (its first line),
/// control characters escaped, and where to read more.
fn usage_error(e: &clap::Error) -> String {
    let text = e.to_string();
    let first = text.lines().next().unwrap_or("").trim();
    let first = first.strip_prefix("error: ").unwrap_or(first);
    let escaped: String = first
        .chars()
        .flat_map(|c| {
            let esc: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            esc
        })
        .collect();
    format!("npuzzle: {escaped} (see npuzzle --help)")
}

pub fn main() -> ExitCode {
    ExitCode::from(run(std::env::args_os()))
}

/// The command for the argument vector `args` (the program's name first),
/// run to its exit status without exiting the process.
pub fn run<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            eprintln!("{}", usage_error(&e));
            return EXIT_BAD_INPUT;
        }
        // --help and --version
        Err(e) => {
            let _ = e.print();
            return 0;
        }
    };
    if stdout_closed() {
        eprintln!("npuzzle: standard output is closed; nothing could be written");
        return EXIT_ENVIRONMENT;
    }
    let result = match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Batch(args) => batch::run(args),
        Command::Random(args) => random::run(args),
        Command::Compare(args) => compare::run(args),
        #[cfg(feature = "server")]
        Command::Serve(args) => serve::run(args),
        Command::Pdb(args) => pdb::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Space(args) => space::run(args),
    };
    match result {
        Ok(code) => code,
        Err(f) if broken_pipe(&f.error) => {
            eprintln!(
                "npuzzle: standard output was closed by its reader before everything was written"
            );
            EXIT_ENVIRONMENT
        }
        Err(f) => {
            let _ = std::io::stdout().flush();
            match flag_hint(&f.error) {
                Some(hint) => eprintln!("npuzzle: {:#} ({hint})", f.error),
                None => eprintln!("npuzzle: {:#}", f.error),
            }
            f.code
        }
    }
}
