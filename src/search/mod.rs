//! Search algorithms behind one small trait, [`Solver`], so the command
//! line, the batch runner and the web server call them the same way and get
//! the same statistics back.

pub mod astar;
pub mod bfs;
pub mod bibfs;
pub mod compare;
pub mod idastar;
pub mod parallel;
pub mod support;
pub mod table;

use crate::board::{Board, Dir, InputError};
use crate::heuristic::HeuristicKind;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use thiserror::Error;

/// A start and a goal of the same shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub start: Board,
    pub goal: Board,
}

impl Problem {
    pub fn new(start: Board, goal: Board) -> Result<Problem, InputError> {
        crate::board::check_same_shape(&start, &goal)?;
        Ok(Problem { start, goal })
    }

    /// Decided from permutation parity, in O(n).
    pub fn solvable(&self) -> bool {
        self.start.can_reach(&self.goal)
    }

    pub fn rows(&self) -> usize {
        self.start.rows()
    }

    pub fn cols(&self) -> usize {
        self.start.cols()
    }
}

/// What one search cost.
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

/// The answer to a problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Fewest moves, or `None` when the goal cannot be reached.
    pub moves: Option<u32>,
    /// The optimal moves (blank directions), when asked for and reachable.
    pub path: Option<Vec<Dir>>,
    /// The algorithm that answered (`table`, `idastar`, …).
    pub algorithm: &'static str,
    /// The heuristic it used, if any.
    pub heuristic: Option<&'static str>,
    pub stats: Stats,
}

impl Solution {
    /// The answer for an unreachable goal: no search was started.
    pub fn unreachable(algorithm: &'static str) -> Solution {
        Solution {
            moves: None,
            path: None,
            algorithm,
            heuristic: None,
            stats: Stats::default(),
        }
    }
}

/// Limits that stop a search cleanly before it exhausts the machine.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Most states a memory-bound search (BFS, bidirectional BFS, A*) may hold.
    pub max_states: u64,
    /// Most node expansions a depth-first search (IDA*) may make.
    pub max_nodes: u64,
    /// Wall-clock limit.
    pub timeout: Option<Duration>,
    /// Set from outside (a closed connection, Ctrl-C) to stop the search.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// Sized so that a search holding `max_states` states stays well under
    /// 4 GiB of memory.
    pub const DEFAULT_MAX_STATES: u64 = 40_000_000;
    /// About half an hour of IDA* at full speed.
    pub const DEFAULT_MAX_NODES: u64 = 100_000_000_000;

    pub fn unlimited() -> Budget {
        Budget {
            max_states: u64::MAX,
            max_nodes: u64::MAX,
            timeout: None,
            cancel: None,
        }
    }

    /// Whether the cancel flag has been raised.
    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// The instant the timeout expires, measured from `start`.
    pub fn deadline(&self, start: Instant) -> Option<Instant> {
        self.timeout.map(|t| start + t)
    }
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            max_states: Budget::DEFAULT_MAX_STATES,
            max_nodes: Budget::DEFAULT_MAX_NODES,
            timeout: None,
            cancel: None,
        }
    }
}

/// How a search was asked to run.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Produce the optimal path, not only its length.
    pub want_path: bool,
    pub budget: Budget,
    /// Heuristic for informed searches (`auto` picks the strongest).
    pub heuristic: HeuristicKind,
    /// Which pattern databases to use, and where they are cached.
    pub pdb: crate::heuristic::pdb::PdbOptions,
    /// Worker threads for a single search (parallel IDA*); 1 = sequential.
    pub threads: usize,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            want_path: false,
            budget: Budget::default(),
            heuristic: HeuristicKind::Auto,
            pdb: Default::default(),
            threads: 1,
        }
    }
}

/// Which budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    States,
    Nodes,
    Time,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Limit::States => "--max-states",
            Limit::Nodes => "--max-nodes",
            Limit::Time => "--timeout",
        })
    }
}

/// Why a search gave no answer.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SearchError {
    #[error("{algorithm} stopped: the {limit} budget ({limit_value}) was spent after {} nodes expanded, searched to depth {depth} without reaching the goal", stats.expanded)]
    Budget {
        algorithm: &'static str,
        limit: Limit,
        limit_value: String,
        depth: u32,
        stats: Stats,
    },
    #[error("{algorithm} was cancelled after {} nodes expanded", stats.expanded)]
    Cancelled {
        algorithm: &'static str,
        stats: Stats,
    },
    #[error("{0}")]
    Unsupported(String),
    #[error(transparent)]
    Input(#[from] InputError),
}

/// One search algorithm.
pub trait Solver: Send + Sync {
    /// Short name, as `--algo` takes it.
    fn name(&self) -> &'static str;

    /// Finds the fewest moves from `problem.start` to `problem.goal`.
    /// Called only for solvable problems (see [`solve`]).
    fn solve(&self, problem: &Problem, opts: &SolveOptions) -> Result<Solution, SearchError>;
}

/// The algorithms `--algo` can name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// The complete table where one exists, else IDA* with the strongest
    /// heuristic.
    #[default]
    Auto,
    Table,
    /// BFS; visited set = rank bit array (≤ 12 cells) or hash set.
    Bfs,
    /// BFS with a hash set of visited states.
    BfsHash,
    /// BFS with an ordered set (B-tree) of visited states.
    BfsSet,
    Bibfs,
    Astar,
    Idastar,
}

impl Algorithm {
    pub const ALL: [Algorithm; 8] = [
        Algorithm::Auto,
        Algorithm::Table,
        Algorithm::Bfs,
        Algorithm::BfsHash,
        Algorithm::BfsSet,
        Algorithm::Bibfs,
        Algorithm::Astar,
        Algorithm::Idastar,
    ];

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
        }
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
                _ => None,
            })
            .ok_or_else(|| {
                let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
                format!("'{s}' is not an algorithm; use one of {}", names.join(", "))
            })
    }
}

/// The solver for an algorithm on a board of this shape. `auto` is the
/// complete table where one exists, else IDA* (which takes the strongest
/// heuristic for `HeuristicKind::Auto`).
pub fn solver_for(algo: Algorithm, problem: &Problem) -> Result<Box<dyn Solver>, SearchError> {
    let cells = problem.start.len();
    Ok(match algo {
        Algorithm::Table => Box::new(table::TableSolver::global()),
        Algorithm::Auto if cells <= table::MAX_CELLS => Box::new(table::TableSolver::global()),
        Algorithm::Auto | Algorithm::Idastar => Box::new(idastar::Idastar),
        Algorithm::Bfs => Box::new(bfs::Bfs {
            visited: bfs::Visited::Auto,
        }),
        Algorithm::BfsHash => Box::new(bfs::Bfs {
            visited: bfs::Visited::Hash,
        }),
        Algorithm::BfsSet => Box::new(bfs::Bfs {
            visited: bfs::Visited::Ordered,
        }),
        Algorithm::Bibfs => Box::new(bibfs::Bibfs),
        Algorithm::Astar => Box::new(astar::Astar),
    })
}

/// Solves a problem: answers an unreachable goal at once from parity (no
/// search is started, on any board size; the algorithm reported is
/// `parity`), else runs the chosen algorithm.
pub fn solve(
    problem: &Problem,
    algo: Algorithm,
    opts: &SolveOptions,
) -> Result<Solution, SearchError> {
    if !problem.solvable() {
        return Ok(Solution::unreachable("parity"));
    }
    solver_for(algo, problem)?.solve(problem, opts)
}

/// Checks that `path` is legal from `start` and ends at `goal`.
pub fn verify_path(start: &Board, goal: &Board, path: &[Dir]) -> bool {
    matches!(start.apply_path(path), Ok(end) if end == *goal)
}
