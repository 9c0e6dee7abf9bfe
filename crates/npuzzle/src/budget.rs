//! Budgets: what a search (or a database build) may spend — states held,
//! node expansions, bytes, wall-clock time — and a cancel flag, checked as
//! it goes so that it stops with a message instead of exhausting the
//! machine.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Limits that stop a search cleanly before it exhausts the machine.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Budget {
    /// Most states a memory-bound search (BFS, bidirectional BFS, A*) may hold.
    pub max_states: u64,
    /// Most node expansions a depth-first search (IDA*) may make.
    pub max_nodes: u64,
    /// Most bytes a search may hold (its states, or a database build's
    /// scratch space), checked before each growth.
    pub max_bytes: u64,
    /// Wall-clock limit.
    pub timeout: Option<Duration>,
    /// Set from outside (a closed connection, Ctrl-C) to stop the search.
    pub cancel: Option<Arc<AtomicBool>>,
    /// When the time budget started counting, if it already has: every
    /// phase of one answer (a database build, then the search) shares one
    /// deadline.
    started: Option<Instant>,
    /// Where a long search tells how far it is (read from another
    /// thread: see [`Progress`]).
    pub progress: Option<Arc<Progress>>,
}

impl Budget {
    /// Sized so that a search holding `max_states` states stays well under
    /// 4 GiB of memory.
    pub const DEFAULT_MAX_STATES: u64 = 40_000_000;
    /// About half an hour of IDA* at full speed.
    pub const DEFAULT_MAX_NODES: u64 = 100_000_000_000;

    /// No limit at all (benchmarks and tests).
    pub fn unlimited() -> Budget {
        Budget {
            max_states: u64::MAX,
            max_nodes: u64::MAX,
            max_bytes: u64::MAX,
            timeout: None,
            cancel: None,
            started: None,
            progress: None,
        }
    }

    /// With the time budget counting from `start` (a search that hands
    /// its budget on to workers keeps its own deadline so).
    pub fn counting_from(mut self, start: Instant) -> Budget {
        self.started = Some(start);
        self
    }

    /// With the time budget counting from now (unless it already counts),
    /// so that every phase after this shares one deadline.
    pub fn started_now(mut self) -> Budget {
        self.started.get_or_insert_with(Instant::now);
        self
    }

    /// With at most `n` states held at once.
    pub fn with_max_states(mut self, n: u64) -> Budget {
        self.max_states = n;
        self
    }

    /// With at most `n` node expansions.
    pub fn with_max_nodes(mut self, n: u64) -> Budget {
        self.max_nodes = n;
        self
    }

    /// With at most `n` bytes held at once.
    pub fn with_max_bytes(mut self, n: u64) -> Budget {
        self.max_bytes = n;
        self
    }

    /// The value of the budget `limit`, as a message shows it (`40000000`,
    /// `2 s`, `1.5 GiB`).
    pub fn value_of(&self, limit: Limit) -> String {
        match limit {
            Limit::States => self.max_states.to_string(),
            Limit::Nodes => self.max_nodes.to_string(),
            Limit::Time => format!("{} s", self.timeout.map_or(0.0, |t| t.as_secs_f64())),
            Limit::Memory => crate::system::Bytes::from(self.max_bytes).to_string(),
        }
    }

    /// `Err` when holding `bytes` would exceed the byte budget: to be asked
    /// before an allocation, not after.
    pub(crate) fn check_bytes(&self, bytes: u64) -> Result<(), Interrupt> {
        if bytes > self.max_bytes {
            Err(Interrupt::Limit(Limit::Memory))
        } else {
            Ok(())
        }
    }

    /// A time limit given in seconds, as people type it: a positive, finite
    /// number (longer than about 30 years is taken as 30 years). The error
    /// says what is wrong, for the caller to prefix with the name of its
    /// field or flag.
    pub fn seconds(secs: f64) -> Result<Duration, String> {
        if secs.is_finite() && secs > 0.0 {
            Ok(Duration::from_secs_f64(secs.min(1e9)))
        } else {
            Err(format!("must be a positive number of seconds, not {secs}"))
        }
    }

    /// With a wall-clock limit (`None`: none).
    pub fn with_timeout(mut self, t: Option<Duration>) -> Budget {
        self.timeout = t;
        self
    }

    /// Stopped when `flag` is raised.
    pub fn with_cancel(mut self, flag: Option<Arc<AtomicBool>>) -> Budget {
        self.cancel = flag;
        self
    }

    /// With `progress` told how IDA* goes (its bound, its nodes, its
    /// finished iterations).
    pub fn with_progress(mut self, progress: Option<Arc<Progress>>) -> Budget {
        self.progress = progress;
        self
    }

    /// Tells the progress, if any, that an iteration under `bound` begins.
    pub(crate) fn iteration_begins(&self, bound: u32) {
        if let Some(p) = &self.progress {
            p.begin(bound);
        }
    }

    /// Tells the progress, if any, that the iteration under `bound` ended
    /// having expanded `nodes`.
    pub(crate) fn iteration_ends(&self, bound: u32, nodes: u64) {
        if let Some(p) = &self.progress {
            p.end(bound, nodes);
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

    /// The instant the timeout expires, measured from the budget's own
    /// start ([`Budget::started_now`], [`Budget::counting_from`]) or, when
    /// it has none, from now: the deadline a search started now would
    /// keep.
    ///
    /// ```
    /// use npuzzle::Budget;
    /// use std::time::{Duration, Instant};
    ///
    /// let b = Budget::default().with_timeout(Some(Duration::from_secs(2))).started_now();
    /// assert!(b.deadline_from_start().unwrap() <= Instant::now() + Duration::from_secs(2));
    /// assert_eq!(Budget::default().deadline_from_start(), None);
    /// ```
    pub fn deadline_from_start(&self) -> Option<Instant> {
        self.deadline(self.started.unwrap_or_else(Instant::now))
    }
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            max_states: Budget::DEFAULT_MAX_STATES,
            max_nodes: Budget::DEFAULT_MAX_NODES,
            // A share of what the machine has (see `system`).
            max_bytes: crate::system::default_memory_budget(),
            timeout: None,
            cancel: None,
            started: None,
            progress: None,
        }
    }
}

/// Which budget ran out.
///
/// ```
/// use npuzzle::{parse_board, Algorithm, Budget, Limit, Problem, SolveOptions};
///
/// let start = parse_board("8 6 7 2 5 4 3 0 1", None)?; // 31 moves
/// let goal = parse_board("1 2 3 4 5 6 7 8 0", None)?;
/// let opts = SolveOptions::default()
///     .with_algorithm(Algorithm::Idastar)
///     .with_budget(Budget::default().with_max_nodes(100));
/// let err = npuzzle::solve(&Problem::new(start, goal)?, &opts).unwrap_err();
/// assert_eq!(err.limit(), Some(Limit::Nodes));
/// assert_eq!(Limit::Nodes.to_string(), "node budget");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// States held at once (BFS, bidirectional BFS, A*).
    States,
    /// Node expansions (IDA*).
    Nodes,
    /// Wall-clock time.
    Time,
    /// Bytes held at once.
    Memory,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Limit::States => "state budget",
            Limit::Nodes => "node budget",
            Limit::Time => "time budget",
            Limit::Memory => "memory budget",
        })
    }
}

/// Whether a budget's deadline or cancel flag stops a search now.
#[derive(Clone, Copy, Debug)]
pub struct Clock<'a> {
    /// When the search started (the deadline counts from here).
    pub start: Instant,
    deadline: Option<Instant>,
    budget: &'a Budget,
}

/// How often (in expansions) searches look at the clock and cancel flag.
pub const POLL_EVERY: u64 = 4096;

impl<'a> Clock<'a> {
    /// Starts the clock of `budget` now.
    pub fn new(budget: &'a Budget) -> Clock<'a> {
        let start = budget.started.unwrap_or_else(Instant::now);
        Clock {
            start,
            deadline: budget.deadline(start),
            budget,
        }
    }

    /// `Err(Interrupt::Cancelled)` once the cancel flag is raised,
    /// `Err(Interrupt::Limit(Limit::Time))` past the deadline.
    pub fn poll(&self) -> Result<(), Interrupt> {
        if self.budget.cancelled() {
            return Err(Interrupt::Cancelled);
        }
        match self.deadline {
            Some(d) if Instant::now() >= d => Err(Interrupt::Limit(Limit::Time)),
            _ => Ok(()),
        }
    }

    /// Tells the budget's [`Progress`], if any, that `nodes` more were
    /// expanded.
    #[inline]
    pub(crate) fn tell(&self, nodes: u64) {
        if let Some(p) = &self.budget.progress {
            p.add(nodes);
        }
    }

    /// The budget this clock watches.
    pub fn budget(&self) -> &'a Budget {
        self.budget
    }
}

/// What stopped a search or a database build: a limit of the
/// [`Budget`], or its cancel flag.
///
/// ```
/// use npuzzle::pdb::{build, PdbError, PdbOptions};
/// use npuzzle::{Board, Budget, Interrupt, Shape};
/// use std::sync::{atomic::AtomicBool, Arc};
///
/// // The cancel flag raised before the build starts.
/// let budget = Budget::default().with_cancel(Some(Arc::new(AtomicBool::new(true))));
/// let goal = Board::blank_last(Shape::new(3, 3))?;
/// let opts = PdbOptions::default().with_cache(false);
/// let err = build(&goal, &opts, &(), &budget).unwrap_err();
/// assert!(matches!(err, PdbError::Stopped { interrupt: Interrupt::Cancelled, .. }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupt {
    /// A budget ran out.
    Limit(Limit),
    /// The cancel flag was raised.
    Cancelled,
}

/// How far a long IDA* search is, shared with whoever watches it (the
/// command line's progress line): the searches store into it at their
/// budget polls and at each iteration's end, and never wait on it, so a
/// watched search runs as fast as an unwatched one.
///
/// ```
/// use npuzzle::{parse_board, solve, Budget, Problem, Progress, SolveOptions};
/// use std::sync::Arc;
///
/// let start = parse_board("8 6 7 2 5 4 3 0 1", None)?;
/// let goal = parse_board("1 2 3 4 5 6 7 8 0", None)?;
/// let progress = Arc::new(Progress::default());
/// let budget = Budget::default().with_progress(Some(Arc::clone(&progress)));
/// let opts = SolveOptions::default().with_algorithm(npuzzle::Algorithm::Idastar).with_budget(budget);
/// let sol = solve(&Problem::new(start, goal)?, &opts)?;
/// let seen = progress.snapshot();
/// assert_eq!(seen.iterations.len(), sol.iterations.len());
/// assert_eq!(seen.nodes, sol.stats.expanded);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct Progress {
    bound: AtomicU32,
    /// Nodes of the finished iterations.
    finished: AtomicU64,
    /// Nodes of the current iteration told so far (a worker adds what it
    /// expanded since its last poll).
    current: AtomicU64,
    iterations: Mutex<Vec<(u32, u64)>>,
}

/// What a [`Progress`] holds at one moment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProgressSnapshot {
    /// The current iteration's bound (0 before the first).
    pub bound: u32,
    /// Nodes expanded so far, all iterations (the current one's lags by at
    /// most a poll interval a thread).
    pub nodes: u64,
    /// The finished iterations: each bound and the nodes it expanded.
    pub iterations: Vec<(u32, u64)>,
}

impl Progress {
    /// An iteration under `bound` begins.
    pub(crate) fn begin(&self, bound: u32) {
        self.current.store(0, Ordering::Relaxed);
        self.bound.store(bound, Ordering::Relaxed);
    }

    /// `nodes` more were expanded in the current iteration.
    pub(crate) fn add(&self, nodes: u64) {
        self.current.fetch_add(nodes, Ordering::Relaxed);
    }

    /// The iteration under `bound` ended, having expanded `nodes` (the
    /// exact count, replacing what was added as it went).
    pub(crate) fn end(&self, bound: u32, nodes: u64) {
        self.finished.fetch_add(nodes, Ordering::Relaxed);
        self.current.store(0, Ordering::Relaxed);
        let mut its = self.iterations.lock().unwrap_or_else(PoisonError::into_inner);
        its.push((bound, nodes));
    }

    /// What it holds now.
    pub fn snapshot(&self) -> ProgressSnapshot {
        let its = self.iterations.lock().unwrap_or_else(PoisonError::into_inner);
        ProgressSnapshot {
            bound: self.bound.load(Ordering::Relaxed),
            nodes: self.finished.load(Ordering::Relaxed) + self.current.load(Ordering::Relaxed),
            iterations: its.clone(),
        }
    }
}
