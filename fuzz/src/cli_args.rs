//! `cli_args`: any bytes as the argument vector of the `npuzzle` command,
//! run in process through the command's own entry point (`cli::run`, the
//! binary's `src/cli/` included as a module, see `lib.rs`).
//!
//! The input is the arguments after the program's name, separated by NUL
//! bytes (which no argument can hold); they need not be UTF-8. Checked:
//! nothing panics, and the exit status is 0, 1, 2 or 3.
//!
//! Each execution must be quick and leave the machine alone, so before it
//! runs, the vector is bounded:
//! * a search gets `--timeout 0.01`, `--max-nodes 20000`, `--max-states
//!   5000` and every command that holds memory `--max-memory 1M` (`pdb`
//!   `256K`), unless
//!   the input gives its own; an input asking for more of any of these (or
//!   for more threads, instances, walk moves or cells than a few, or for
//!   a whole space of more than 8 cells) is not run;
//! * not run either: `serve` (it would listen until stopped), a command
//!   that would read standard input, `space --timeout` (its watchdog ends
//!   the process), `space` over several processes (they wait for their
//!   peers), and any absolute path or `..` (files stay in the target's
//!   temporary working directory, which is also `HOME` and
//!   `XDG_CACHE_HOME` and holds a few files to read: `boards.txt`,
//!   `bench.txt`, `empty.txt`).

use super::cli::{self, Cli, Command};
use clap::{CommandFactory, FromArgMatches};
use std::cell::RefCell;
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};

/// Caps added where the input gives none: (flag, value, subcommands).
const CAPS: &[(&str, &str, &[&str])] = &[
    ("--timeout", "0.01", &["solve", "compare", "batch", "bench"]),
    (
        "--max-nodes",
        "20000",
        &["solve", "compare", "batch", "bench"],
    ),
    (
        "--max-states",
        "5000",
        &["solve", "compare", "batch", "bench"],
    ),
    (
        "--max-memory",
        "1M",
        &["solve", "compare", "batch", "bench", "space"],
    ),
    // a build of 8 MiB of databases takes seconds, of 1 MiB milliseconds
    ("--max-memory", "256K", &["build", "verify"]),
];

/// The largest values an input may ask for itself.
const MAX_SECONDS: f64 = 0.01;
const MAX_NODES: u64 = 20_000;
const MAX_STATES: u64 = 5_000;
const MAX_BYTES: u64 = 1 << 20;
const MAX_PDB_BYTES: u64 = 256 << 10;
const MAX_THREADS: usize = 2;
const MAX_COUNT: u64 = 100;
const MAX_MOVES: u32 = 10_000;
const MAX_RANDOM_CELLS: usize = 10_000;
/// A whole space of 9 cells (181,440 positions) took most of the target's
/// time; 8 cells are 20,160.
const MAX_SPACE_CELLS: usize = 8;

/// The target's working directory, made once per process.
pub struct CliFuzz {
    _dir: tempfile::TempDir,
}

impl Default for CliFuzz {
    fn default() -> CliFuzz {
        let dir = super::common::tempdir("npuzzle-fuzz-cli-");
        let p = dir.path();
        let write = |name: &str, text: &str| std::fs::write(p.join(name), text).expect(name);
        write(
            "boards.txt",
            "1 2 3 4 5 6 7 0 8\n2 8 3 1 6 4 7 0 5 | spiral\n1 2 3 x\n",
        );
        write("bench.txt", "1 0 2 3 4 5 6 7 8 1\n1 2 0 3 4 5 6 7 8 2\n");
        write("empty.txt", "");
        std::env::set_current_dir(p).expect("the working directory");
        std::env::set_var("HOME", p);
        std::env::set_var("XDG_CACHE_HOME", p.join("cache"));
        CliFuzz { _dir: dir }
    }
}

/// Runs every check on the fuzzer's bytes, in a directory kept for the
/// whole process.
pub fn check(data: &[u8]) {
    thread_local! {
        static FUZZ: CliFuzz = CliFuzz::default();
    }
    FUZZ.with(|f| f.check(data));
}

impl CliFuzz {
    /// Runs every check on the fuzzer's bytes.
    pub fn check(&self, data: &[u8]) {
        let Some(args) = bounded(split(data)) else {
            return;
        };
        let argv = std::iter::once(OsString::from("npuzzle")).chain(args.iter().cloned());
        let code = cli::run(argv);
        assert!(code <= 3, "exit status {code} for {args:?}");
    }
}

/// The arguments: the input split at NUL bytes (none: no arguments).
pub fn split(data: &[u8]) -> Vec<OsString> {
    if data.is_empty() {
        return Vec::new();
    }
    data.split(|&b| b == 0)
        .map(|a| OsString::from_vec(a.to_vec()))
        .collect()
}

/// The arguments with the caps added, or `None` when they must not run
/// (see the module's documentation).
pub fn bounded(mut args: Vec<OsString>) -> Option<Vec<OsString>> {
    let words: Vec<&[u8]> = args.iter().map(|a| a.as_bytes()).collect();
    let escapes = |a: &[u8]| {
        let value = a.splitn(2, |&b| b == b'=').last().unwrap_or(a);
        a.starts_with(b"/") || value.starts_with(b"/") || a.windows(2).any(|w| w == b"..")
    };
    if words.iter().any(|a| escapes(a)) {
        return None;
    }
    // where the subcommand's own options start, and its name
    let (at, name): (usize, &[u8]) = match words.first() {
        Some(&b"pdb") => (2, words.get(1).copied().unwrap_or(b"")),
        Some(w) => (1, w),
        None => (0, b""),
    };
    let name = String::from_utf8_lossy(name).into_owned();
    let mut insert = Vec::new();
    for (flag, value, commands) in CAPS {
        let given = words
            .iter()
            .any(|a| a == &flag.as_bytes() || a.starts_with(format!("{flag}=").as_bytes()));
        if commands.contains(&name.as_str()) && !given {
            insert.push(OsString::from(format!("{flag}={value}")));
        }
    }
    let at = at.min(args.len());
    args.splice(at..at, insert);
    let argv = std::iter::once(OsStr::new("npuzzle")).chain(args.iter().map(OsString::as_os_str));
    // clap's command built once: building and dropping it took a quarter
    // of the target's time
    thread_local! {
        static CLAP: RefCell<clap::Command> = RefCell::new(Cli::command());
    }
    let parsed = CLAP.with(|c| {
        let matches = c.borrow_mut().try_get_matches_from_mut(argv)?;
        Cli::from_arg_matches(&matches)
    });
    match parsed {
        // a usage error, --help or --version: quick
        Err(_) => Some(args),
        Ok(cli) => quick(&cli.command, &args).then_some(args),
    }
}

/// The value given to `flag` (`--flag=V` or `--flag V`), if any.
fn value_of<'a>(args: &'a [OsString], flag: &str) -> Option<&'a OsStr> {
    let eq = format!("{flag}=");
    args.iter().enumerate().find_map(|(i, a)| {
        let b = a.as_bytes();
        if b == flag.as_bytes() {
            args.get(i + 1).map(OsString::as_os_str)
        } else {
            b.strip_prefix(eq.as_bytes()).map(OsStr::from_bytes)
        }
    })
}

/// Whether a goal's words name at most `MAX_SPACE_CELLS` cells: one word
/// of digits is a cell a digit, else a cell a word.
fn small_goal(words: &[String]) -> bool {
    let words: Vec<&str> = words.iter().flat_map(|w| w.split_whitespace()).collect();
    match words.as_slice() {
        [one] => one.len() <= MAX_SPACE_CELLS,
        many => many.len() <= MAX_SPACE_CELLS,
    }
}

/// Whether a parsed command stays within the caps and reads no standard
/// input.
fn quick(command: &Command, args: &[OsString]) -> bool {
    // NaN, negative: refused at once by the command
    let seconds = |t: Option<f64>| t.is_some_and(|t| t.is_nan() || t <= MAX_SECONDS);
    let bytes = |b: Option<u64>| b.is_none_or(|b| b <= MAX_BYTES);
    match command {
        Command::Solve(a) => {
            !a.problem.start.is_empty()
                && seconds(a.search.timeout)
                && a.search.max_nodes <= MAX_NODES
                && a.search.max_states <= MAX_STATES
                && a.search.max_memory.is_some()
                && bytes(a.search.max_memory)
                && a.search.threads <= MAX_THREADS
                // more processes wait for peers that never come
                && a.cluster.processes == 1
                && a.workers.is_none_or(|w| w <= MAX_THREADS)
        }
        Command::Compare(a) => {
            !a.problem.start.is_empty()
                && seconds(a.timeout)
                && a.max_nodes <= MAX_NODES
                && a.max_states <= MAX_STATES
                && a.max_memory.is_some()
                && bytes(a.max_memory)
        }
        Command::Batch(a) => {
            a.file.as_ref().is_some_and(|f| f.as_os_str() != "-")
                && seconds(a.search.timeout)
                && a.search.max_nodes <= MAX_NODES
                && a.search.max_states <= MAX_STATES
                && a.search.max_memory.is_some()
                && bytes(a.search.max_memory)
                && a.search.threads <= MAX_THREADS
                && a.jobs.is_none_or(|j| usize::from(j) <= MAX_THREADS)
        }
        Command::Bench(a) => {
            seconds(a.search.timeout)
                && a.search.max_nodes <= MAX_NODES
                && a.search.max_states <= MAX_STATES
                && a.search.max_memory.is_some()
                && bytes(a.search.max_memory)
                && a.search.threads <= MAX_THREADS
        }
        Command::Random(a) => {
            a.count <= MAX_COUNT
                && a.moves.is_none_or(|m| m <= MAX_MOVES)
                && a.size.cells() <= MAX_RANDOM_CELLS
        }
        // `build` and `verify` got --max-memory; `list` takes none
        Command::Pdb(_) => value_of(args, "--max-memory").is_none_or(|v| {
            v.to_str()
                .and_then(|v| cli::parse_size(v).ok())
                .is_some_and(|b| b <= MAX_PDB_BYTES)
        }),
        Command::Space(s) => {
            s.size.cells() <= MAX_SPACE_CELLS
                && s.goal.as_ref().is_none_or(|g| small_goal(g))
                && s.timeout.is_none()
                && s.max_memory.is_some()
                && bytes(s.max_memory)
                && s.cluster.processes == 1
                && s.workers.is_none_or(|w| w <= MAX_THREADS)
        }
        #[allow(unreachable_patterns)]
        _ => false,
    }
}
