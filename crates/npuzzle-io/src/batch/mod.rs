//! Answering files of instances: one problem per line, in order, on all
//! cores.
//!
//! [`stream`] reads the input in chunks of whole lines ([`ChunkReader`]),
//! answers them in small tasks on worker threads, and writes each answer in
//! input order as soon as it and all before it are done. A task keeps its
//! own [`Answerer`] (a
//! reusable [`Scan`], the resolved default goals and, per board shape, the
//! planner's choice), so the hot path — boards the planner answers from the
//! complete tables — parses, ranks, looks up and formats without building a
//! [`Problem`].

pub mod arrays;
mod format;
mod read;
mod simple;
mod stream;

pub(crate) use format::push_u64;
use format::{write_answer, write_error};
pub use read::{Chunk, ChunkReader, LineRef, DEFAULT_MAX_LINE};
pub use stream::{run as stream, Progress, StreamError, StreamOptions};

use npuzzle::{Algorithm, Problem, SearchError, SolveOptions, Workload};
use npuzzle::{Board, BoardError, Dir, GoalSpec, InputError, Notation, Scan, Shape};
use npuzzle::{Lookup, TableSet};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A share of a batch for one of several processes, written `I/N`: the
/// instances whose 0-based index among the instance lines is `I` modulo
/// `N`. Line numbers in the output stay those of the whole input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard's number, `0..count`.
    pub index: u64,
    /// Number of shards; at least 1 ([`Shard::owns`] divides by it).
    pub count: u64,
}

impl Shard {
    /// Every instance.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Whether instance `i` (0-based, counting instance lines only) is ours.
    #[inline]
    pub fn owns(&self, i: u64) -> bool {
        i % self.count == self.index
    }
}

impl Default for Shard {
    fn default() -> Self {
        Shard::ALL
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N` with `0 ≤ I < N`.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || {
            format!(
                "'{}' is not a shard; write I/N with 0 <= I < N, e.g. 0/4",
                npuzzle::printable(text)
            )
        };
        let (i, n) = text.trim().split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 {
            return Err(format!(
                "shard '{text}': the number of shards must be at least 1"
            ));
        }
        if index >= count {
            return Err(format!(
                "shard '{text}': the shard index must be below {count} (shards are numbered from 0)"
            ));
        }
        Ok(Shard { index, count })
    }
}

/// How every line of a batch is read and answered.
#[derive(Clone, Debug)]
pub struct BatchConfig {
    /// The goal of lines that do not give one.
    pub goal: GoalSpec,
    /// The shape of every board, when given; else each line's own.
    pub size: Option<Shape>,
    /// Per-instance options (algorithm, heuristic, `want_path`, budgets);
    /// the workload is always [`Workload::Many`].
    pub opts: SolveOptions,
    /// Count the start as step 1 (`-1` stays `-1`).
    pub count_start: bool,
    /// One JSON object per line instead of plain answers.
    pub jsonl: bool,
    /// How paths are written: the blank's letters (the default) or the
    /// tiles'; in MTM each push with its count (`R2`), as `solve` writes.
    pub notation: Notation,
    /// Moves of a path separated by spaces.
    pub spaced: bool,
    /// Longest line read, in bytes; a longer one is that line's error.
    pub max_line: usize,
}

impl Default for BatchConfig {
    fn default() -> BatchConfig {
        BatchConfig {
            goal: GoalSpec::default(),
            size: None,
            opts: SolveOptions::default(),
            count_start: false,
            jsonl: false,
            notation: Notation::Blank,
            spaced: false,
            max_line: DEFAULT_MAX_LINE,
        }
    }
}

/// Why a line got no answer.
#[derive(Debug, Clone, Error)]
pub enum LineError {
    /// The line's bytes are not UTF-8.
    #[error("the line is not valid UTF-8")]
    NotUtf8,
    /// The line is longer than this many bytes; its text was not kept.
    #[error("the line is longer than {0} bytes")]
    TooLong(usize),
    /// The line holds no valid problem.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The search found no answer (a budget, a heuristic that cannot be
    /// had, …).
    #[error(transparent)]
    Search(#[from] SearchError),
}

/// The answer to one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Fewest moves (or, when `lower_bound` is set, the moves of an answer
    /// not proven optimal); `None` when the goal cannot be reached.
    pub moves: Option<u32>,
    /// The path, when asked for and reachable.
    pub path: Option<Vec<Dir>>,
    /// For an answer not proven optimal, the proven lower bound on the
    /// fewest moves.
    pub lower_bound: Option<u32>,
}

/// Counts of what a batch (or part of one) produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Lines answered (moves or -1).
    pub answered: u64,
    /// Of those, the ones whose goal cannot be reached.
    pub unreachable: u64,
    /// Lines that got an error.
    pub errors: u64,
}

impl Tally {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: Tally) {
        self.answered += other.answered;
        self.unreachable += other.unreachable;
        self.errors += other.errors;
    }

    /// Instance lines handled (answered or not).
    pub fn lines(&self) -> u64 {
        self.answered + self.errors
    }
}

/// One worker's reusable state.
pub struct Answerer<'a> {
    cfg: &'a BatchConfig,
    /// `cfg.opts` for many queries.
    opts: SolveOptions,
    scan: Scan,
    /// `cfg.goal` resolved per shape, as lines need them.
    goals: Vec<(Shape, Board)>,
    /// Per shape, whether the planner answers it from the complete tables.
    by_table: Vec<(Shape, bool)>,
    simple: Box<simple::Simple>,
}

impl<'a> Answerer<'a> {
    /// A worker for `cfg`.
    pub fn new(cfg: &'a BatchConfig) -> Answerer<'a> {
        Answerer {
            cfg,
            opts: cfg.opts.clone().with_workload(Workload::Many),
            scan: Scan::new(),
            goals: Vec::new(),
            by_table: Vec::new(),
            simple: Box::default(),
        }
    }

    /// Whether the planner answers boards of `shape` from the complete
    /// tables (asked once per shape: with many queries its choice does not
    /// depend on the boards).
    fn by_table(&mut self, shape: Shape) -> bool {
        if let Some(&(_, t)) = self.by_table.iter().find(|(s, _)| *s == shape) {
            return t;
        }
        let t = matches!(self.opts.algorithm_for(shape, 0), Ok((Algorithm::Table, _)));
        self.by_table.push((shape, t));
        t
    }

    /// Answers one line's text.
    pub fn answer(&mut self, text: &str) -> Result<Answer, LineError> {
        // The common case: plain numbers, a board with a table.
        if self.simple.read(text.as_bytes(), self.cfg.size) {
            let shape = self.simple.shape;
            if self.by_table(shape) {
                let n = shape.cells();
                let goal = if self.simple.has_goal {
                    None
                } else {
                    Some(self.default_goal(shape)?)
                };
                let goal = match goal {
                    Some(i) => self.goals[i].1.tiles(),
                    None => &self.simple.goal[..n],
                };
                let start = &self.simple.start[..n];
                return Ok(table_answer(&self.opts, shape, start, goal));
            }
        }
        let (start, inline_goal) = match self.scan.start_and_goal(text, self.cfg.size) {
            Err(InputError::Board {
                error: BoardError::BadSize { .. },
                ..
            }) => return self.answer_grid(text),
            other => other?,
        };
        let shape = start.shape();
        let by_table = self.by_table(shape);
        let goal = match inline_goal {
            Some(g) => GoalRef::Owned(g),
            None => GoalRef::Cached(self.default_goal(shape)?),
        };
        let goal_board = match &goal {
            GoalRef::Owned(g) => g,
            GoalRef::Cached(i) => &self.goals[*i].1,
        };
        if by_table {
            let (s, g) = (start.tiles(), goal_board.tiles());
            return Ok(table_answer(&self.opts, shape, s, g));
        }
        let goal = match goal {
            GoalRef::Owned(g) => g,
            GoalRef::Cached(i) => self.goals[i].1.clone(),
        };
        let problem = Problem::new(start, goal)?;
        let sol = npuzzle::solve(&problem, &self.opts)?;
        Ok(Answer {
            moves: sol.moves,
            path: if self.opts.want_path { sol.path } else { None },
            lower_bound: sol.lower_bound,
        })
    }

    /// Answers a line whose boards are beyond 16×16 (the fast solver). The
    /// line's length bounds the board (a 64 KiB line holds about 110×110)
    /// and so the path held for `--path`.
    fn answer_grid(&mut self, text: &str) -> Result<Answer, LineError> {
        let (start, goal) = match self.scan.grids(text, self.cfg.size)? {
            (s, Some(g)) => (s, g),
            (s, None) => {
                let g = self.cfg.goal.resolve_grid(s.shape(), &mut self.scan)?;
                (s, g)
            }
        };
        let mut path = Vec::new();
        let a = if self.opts.want_path {
            npuzzle::solve_grid(&start, &goal, &self.opts, &mut path)?
        } else {
            npuzzle::solve_grid(&start, &goal, &self.opts, &mut npuzzle::Discard)?
        };
        let fits = |m: u64| u32::try_from(m).unwrap_or(u32::MAX);
        Ok(Answer {
            moves: a.moves.map(fits),
            path: (self.opts.want_path && a.moves.is_some()).then_some(path),
            lower_bound: a.lower_bound.map(fits),
        })
    }

    /// Index in `self.goals` of the default goal for `shape`.
    fn default_goal(&mut self, shape: Shape) -> Result<usize, InputError> {
        if let Some(i) = self.goals.iter().position(|(s, _)| *s == shape) {
            return Ok(i);
        }
        let goal = self.cfg.goal.resolve(shape, &mut self.scan)?;
        self.goals.push((shape, goal));
        Ok(self.goals.len() - 1)
    }

    /// Answers a line as read and appends its output line to `out`.
    pub fn answer_line(&mut self, chunk: &Chunk, line: &LineRef, out: &mut Vec<u8>) -> Tally {
        let result = if line.too_long {
            Err(LineError::TooLong(self.cfg.max_line))
        } else {
            match std::str::from_utf8(chunk.text(line)) {
                Ok(text) => self.answer(text),
                Err(_) => Err(LineError::NotUtf8),
            }
        };
        match result {
            Ok(answer) => {
                write_answer(out, line.line, &answer, self.cfg);
                Tally {
                    answered: 1,
                    unreachable: u64::from(answer.moves.is_none()),
                    errors: 0,
                }
            }
            Err(e) => {
                write_error(out, line.line, &e, self.cfg.jsonl);
                Tally {
                    errors: 1,
                    ..Tally::default()
                }
            }
        }
    }
}

/// The answer from the complete tables of `opts`' metric (start and goal
/// of `shape`, which has tables).
fn table_answer(opts: &SolveOptions, shape: Shape, start: &[u8], goal: &[u8]) -> Answer {
    match TableSet::global_in(opts.metric).query(shape, start, goal, opts.want_path) {
        Lookup::Found { moves, path, .. } => Answer {
            moves: Some(moves),
            path,
            lower_bound: None,
        },
        Lookup::Unreachable | Lookup::NoTable => Answer {
            moves: None,
            path: None,
            lower_bound: None,
        },
    }
}

enum GoalRef {
    Owned(Board),
    Cached(usize),
}

/// Answers a whole text (convenience for tests and small inputs): the
/// output text and the tally.
pub fn answer_text(text: &str, cfg: &BatchConfig, shard: Shard) -> (String, Tally) {
    let mut out = Vec::new();
    let input = std::io::Cursor::new(text.as_bytes().to_vec());
    let opts = StreamOptions::default().with_shard(shard);
    // Reading a byte buffer and writing to a vector cannot fail.
    let tally = stream::run(input, &mut out, cfg, &opts, &mut |_| {}).unwrap_or_default();
    (String::from_utf8_lossy(&out).into_owned(), tally)
}

/// The batch runner's fast line reader, reachable from the fuzz targets
/// (`fuzzing` feature) so that they can check it against the general
/// reader directly; not a supported API.
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing {
    use npuzzle::Shape;

    /// What the fast reader makes of one line: its shape, the start's tiles
    /// and the goal's when the line gives one; `None` when it leaves the
    /// line to the general reader ([`npuzzle::Scan::start_and_goal`]).
    pub fn simple_read(
        text: &[u8],
        size: Option<Shape>,
    ) -> Option<(Shape, Vec<u8>, Option<Vec<u8>>)> {
        let mut s = super::simple::Simple::default();
        if !s.read(text, size) {
            return None;
        }
        let n = s.shape.cells();
        let goal = s.has_goal.then(|| s.goal[..n].to_vec());
        Some((s.shape, s.start[..n].to_vec(), goal))
    }
}

#[cfg(test)]
mod tests;
