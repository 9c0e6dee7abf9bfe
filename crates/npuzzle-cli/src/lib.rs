//! Argument parsing (clap derive), input reading and output formatting.
//! No algorithm code lives here.

mod all;
mod analyse;
mod apply;
mod batch;
mod bench;
mod bench_rows;
mod checkpoint;
mod cluster;
mod compare;
mod ctrl_c;
mod input;
mod large;
mod moves;
mod partial;
mod paths;
mod pdb;
mod pdb_score;
mod progress;
mod random;
mod serve;
mod solve;
mod solve_timely;
mod space;
mod trace;
mod unused;
mod verify;

pub use ctrl_c::{ctrl_c, interrupted};

use clap::{Parser, Subcommand};
use npuzzle::pdb::PdbError;
use npuzzle::{BoardError, InputError};
use npuzzle::{ErrorKind, Limit, SearchError};
use std::io::Write;
use std::process::ExitCode;

/// Exit status for a failure of the environment (a file that cannot be
/// written, threads that cannot start).
pub const EXIT_ENVIRONMENT: u8 = 1;
/// Exit status for bad input.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit status when a search budget was spent.
pub const EXIT_BUDGET: u8 = 3;
/// Exit status of `npuzzle verify` when the moves, all legal, do not
/// reach the goal.
pub const EXIT_NOT_SOLVED: u8 = 4;

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
    /// Watch a search work: BFS layers, A*'s expansions by f, IDA*'s
    /// iterations, the effective branching factor (--jsonl: every event).
    Trace(trace::TraceArgs),
    /// Print the board a sequence of moves reaches.
    Apply(apply::ApplyArgs),
    /// Check that a sequence of moves solves a puzzle, and how far from
    /// the fewest it is; exits 4 if it does not solve it.
    Verify(verify::VerifyArgs),
    /// The distance to the goal after each move of a sequence, and the
    /// moves that did not bring it closer.
    Analyse(analyse::AnalyseArgs),
    /// A sequence of moves with every step its next one undoes cancelled.
    Simplify(paths::PathArgs),
    /// The sequence of moves that undoes one.
    Invert(paths::PathArgs),
    /// A sequence of moves mirrored in the main diagonal (U and L, D and R
    /// swapped): a solution of the transposed puzzle.
    Transpose(paths::PathArgs),
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
    if e.downcast_ref::<CtrlC>().is_some() {
        return EXIT_BUDGET;
    }
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
    npuzzle::Bytes::parse(text)
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
    let broken = Some(std::io::ErrorKind::BrokenPipe);
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>().map(std::io::Error::kind) == broken
            // JSON written straight to standard output keeps the I/O error inside
            || c.downcast_ref::<serde_json::Error>().and_then(serde_json::Error::io_error_kind) == broken
    })
}

/// A command-line error as one line: clap's own message (its first
/// paragraph: the first line, and the arguments it lists on the lines
/// after, such as the ones missing), control characters escaped, and where
/// to read more.
fn usage_error(e: &clap::Error) -> String {
    let text = e.to_string();
    let mut parts = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            break;
        }
        parts.push(line);
    }
    let message = match parts.split_first() {
        Some((first, rest)) => {
            let first = first.strip_prefix("error: ").unwrap_or(first);
            if rest.is_empty() {
                first.to_string()
            } else {
                // `...were not provided:` then one argument a line.
                format!("{} {}", first, rest.join(", "))
            }
        }
        None => String::new(),
    };
    let escaped: String = message
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

/// An error and its causes as one line. The causes are joined as `{:#}`
/// joins them, except a cause whose text the message already holds: many
/// errors say what the system said (`cannot open FILE: No such file or
/// directory`) and keep it as their source too, and that must not be
/// printed twice.
fn one_line(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if out.is_empty() {
            out = text;
        } else if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
    }
    out
}

/// Work that Ctrl-C stopped, saying how far it got (`batch stopped by
/// Ctrl-C after 120 lines answered`): exit 3.
#[derive(Debug)]
pub struct CtrlC(pub String);

impl std::fmt::Display for CtrlC {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CtrlC {}

/// For an error that Ctrl-C caused (a search or build cancelled while the
/// flag is raised), what to say instead: how far the work got, as a
/// budget's message does.
fn ctrl_c_message(e: &anyhow::Error) -> Option<String> {
    if let Some(c) = e.downcast_ref::<CtrlC>() {
        return Some(c.0.clone());
    }
    if !interrupted() {
        return None;
    }
    let search = e.downcast_ref::<SearchError>();
    let pdb = e.downcast_ref::<PdbError>().or(match search {
        Some(SearchError::Heuristic(p)) => Some(&**p),
        _ => None,
    });
    match (search, pdb) {
        (_, Some(p @ PdbError::Stopped { tiles, .. })) if p.is_cancelled() => Some(format!(
            "building the pattern database for tiles {tiles} stopped by Ctrl-C; nothing of it is kept"
        )),
        (Some(SearchError::Cancelled { algorithm, stats }), _) => Some(format!(
            "{algorithm} stopped by Ctrl-C after {} nodes expanded ({} states held at most, {:.1} s) without reaching the goal",
            stats.expanded,
            stats.peak_states,
            stats.elapsed.as_secs_f64()
        )),
        _ => None,
    }
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
        Command::Serve(args) => serve::run(args),
        Command::Pdb(args) => pdb::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Space(args) => space::run(args),
        Command::Trace(args) => trace::run(args),
        Command::Apply(args) => apply::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Analyse(args) => analyse::run(args),
        Command::Simplify(args) => paths::run(args, npuzzle::Rewrite::Simplify),
        Command::Invert(args) => paths::run(args, npuzzle::Rewrite::Invert),
        Command::Transpose(args) => paths::run(args, npuzzle::Rewrite::Transpose),
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
            if let Some(stopped) = ctrl_c_message(&f.error) {
                eprintln!("npuzzle: {stopped}");
                return EXIT_BUDGET;
            }
            match flag_hint(&f.error) {
                Some(hint) => eprintln!("npuzzle: {} ({hint})", one_line(&f.error)),
                None => eprintln!("npuzzle: {}", one_line(&f.error)),
            }
            f.code
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error that says what the system said and keeps it as its source
    /// too, as many do.
    #[derive(Debug)]
    struct Open(std::io::Error);

    impl std::fmt::Display for Open {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "cannot open f.txt: {}", self.0)
        }
    }

    impl std::error::Error for Open {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn a_cause_already_in_the_message_is_not_repeated() {
        let io = || std::io::Error::from(std::io::ErrorKind::NotFound);
        let e = anyhow::Error::new(Open(io()));
        let said = io().to_string();
        assert_eq!(one_line(&e), format!("cannot open f.txt: {said}"));
        // a cause the message does not hold is still joined on
        let e = anyhow::Error::new(io()).context("reading the list");
        assert_eq!(one_line(&e), format!("reading the list: {said}"));
    }

    #[test]
    fn usage_errors_keep_the_arguments_clap_lists() {
        let e = Cli::try_parse_from(["npuzzle", "space", "--size", "3x3", "--resume"]).unwrap_err();
        let line = usage_error(&e);
        assert!(line.contains("--checkpoint <FILE>"), "{line}");
        assert!(!line.contains('\n'), "{line}");
    }
}
