//! Why a search gave no answer, typed by kind so that each caller maps it
//! to its own terms (an exit status, an HTTP status) in one place.

use super::{Limit, Stats};
use crate::board::Shape;
use crate::budget::{Budget, Interrupt};
use crate::heuristic::pdb::PdbError;
use std::sync::Arc;
use thiserror::Error;

/// What kind of failure an error is, for callers that map errors to
/// statuses: a user's request that cannot be met, a budget, the
/// environment, or a cancellation.
///
/// ```
/// use npuzzle::{parse_board, Algorithm, ErrorKind, Problem, SolveOptions};
///
/// // The complete tables stop at ten cells: asking for one on 4×4 is wrong.
/// let goal = parse_board("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", None)?;
/// let problem = Problem::new(goal.clone(), goal)?;
/// let opts = SolveOptions::default().with_algorithm(Algorithm::Table);
/// let err = npuzzle::solve(&problem, &opts).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::BadInput);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The request itself is wrong: a board, a partition, a combination
    /// that cannot run.
    BadInput,
    /// A budget ran out, or would plainly run out.
    Budget,
    /// The machine failed the program: a file, threads.
    Environment,
    /// Stopped from outside.
    Cancelled,
}

/// Why a search gave no answer.
///
/// ```
/// use npuzzle::{parse_board, Algorithm, Budget, ErrorKind, Limit, Problem};
/// use npuzzle::{SearchError, SolveOptions};
///
/// // One of the hardest 8-puzzles (31 moves), with room for 1000 states.
/// let start = parse_board("8 6 7 2 5 4 3 0 1", None)?;
/// let goal = parse_board("1 2 3 4 5 6 7 8 0", None)?;
/// let opts = SolveOptions::default()
///     .with_algorithm(Algorithm::Bfs)
///     .with_budget(Budget::default().with_max_states(1000));
/// let err = npuzzle::solve(&Problem::new(start, goal)?, &opts).unwrap_err();
/// assert!(matches!(err, SearchError::Budget { limit: Limit::States, .. }));
/// assert_eq!(err.kind(), ErrorKind::Budget);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Error)]
#[non_exhaustive]
pub enum SearchError {
    /// A budget ran out before the goal was reached.
    #[error("{algorithm} stopped: its {limit} ({limit_value}) was spent after {} nodes expanded, searched to depth {depth} without reaching the goal", stats.expanded)]
    Budget {
        /// The algorithm that stopped.
        algorithm: &'static str,
        /// Which budget.
        limit: Limit,
        /// The budget's value, as the user gave it (`40000000`, `2 s`).
        limit_value: String,
        /// Depth fully searched (a lower bound on the answer).
        depth: u32,
        /// What the search cost until it stopped.
        stats: Stats,
    },
    /// The growth seen so far, carried on to the known depth of the
    /// answer, plainly needs more than the budget: the search gave up at
    /// once instead of filling memory or running for hours.
    #[error("{algorithm} skipped: the growth over its first {} expansions forecasts about {forecast:.1e} {} to reach depth {depth}, over its {limit} of {budget}", stats.expanded, if matches!(limit, Limit::States) { "states" } else { "node expansions" })]
    Forecast {
        /// The algorithm that gave up.
        algorithm: &'static str,
        /// The budget the forecast exceeds.
        limit: Limit,
        /// Its value.
        budget: u64,
        /// States or expansions forecast.
        forecast: f64,
        /// The depth the answer has.
        depth: u32,
        /// What the search cost until it gave up.
        stats: Stats,
    },
    /// Stopped from outside (a closed connection, Ctrl-C, shutdown).
    #[error("{algorithm} was cancelled after {} nodes expanded", stats.expanded)]
    Cancelled {
        /// The algorithm that was stopped.
        algorithm: &'static str,
        /// What the search cost until then.
        stats: Stats,
    },
    /// The combination asked for cannot run on this board.
    #[error("{algorithm} cannot solve a {shape} board: {reason}")]
    NotApplicable {
        /// The algorithm (or heuristic) asked for.
        algorithm: &'static str,
        /// The board's shape.
        shape: Shape,
        /// Why not.
        reason: String,
    },
    /// [`observe`](crate::observe) or [`trace`](crate::trace) was asked to
    /// watch a search that does not report its work.
    #[error("{algorithm} cannot be watched: {} report their work; choose one of them", super::Algorithm::watchable_names())]
    NotObservable {
        /// The algorithm the planner chose or was asked for.
        algorithm: &'static str,
    },
    /// The heuristic could not be built (a bad partition, a board too big
    /// for pattern databases, a build that failed).
    #[error("pattern databases: {0}")]
    Heuristic(Arc<PdbError>),
    /// The moves could not be handed over (a write to standard output or a
    /// file failed).
    #[error("{message}")]
    Output {
        /// What failed, and how far it got.
        message: String,
    },
    /// A checkpoint could not be read, trusted or written.
    #[error("{0}")]
    Checkpoint(Arc<super::CheckpointError>),
    /// A bug: a solver's own check failed.
    #[error("internal error (please report it): {message}")]
    Internal {
        /// What the check found.
        message: String,
    },
    /// Worker threads could not be started.
    #[error("cannot start {threads} worker threads: {message}")]
    Threads {
        /// How many were asked for.
        threads: usize,
        /// What the system said.
        message: String,
    },
}

impl From<super::CheckpointError> for SearchError {
    fn from(e: super::CheckpointError) -> SearchError {
        SearchError::Checkpoint(Arc::new(e))
    }
}

impl From<PdbError> for SearchError {
    fn from(e: PdbError) -> SearchError {
        SearchError::Heuristic(Arc::new(e))
    }
}

impl SearchError {
    /// The kind of failure.
    pub fn kind(&self) -> ErrorKind {
        match self {
            SearchError::Budget { .. } | SearchError::Forecast { .. } => ErrorKind::Budget,
            SearchError::Cancelled { .. } => ErrorKind::Cancelled,
            SearchError::NotApplicable { .. } | SearchError::NotObservable { .. } => {
                ErrorKind::BadInput
            }
            SearchError::Heuristic(e) if e.is_environment() => ErrorKind::Environment,
            SearchError::Heuristic(e) if e.is_budget() => ErrorKind::Budget,
            SearchError::Heuristic(e) if e.is_cancelled() => ErrorKind::Cancelled,
            SearchError::Heuristic(_) => ErrorKind::BadInput,
            SearchError::Checkpoint(e) if e.is_environment() => ErrorKind::Environment,
            SearchError::Checkpoint(_) => ErrorKind::BadInput,
            SearchError::Threads { .. }
            | SearchError::Output { .. }
            | SearchError::Internal { .. } => ErrorKind::Environment,
        }
    }

    /// The statistics of a search that ran before it stopped, if one did.
    pub fn stats(&self) -> Option<&Stats> {
        match self {
            SearchError::Budget { stats, .. }
            | SearchError::Forecast { stats, .. }
            | SearchError::Cancelled { stats, .. } => Some(stats),
            _ => None,
        }
    }

    /// The budget that ran out (or would), if one did.
    pub fn limit(&self) -> Option<Limit> {
        match self {
            SearchError::Budget { limit, .. } | SearchError::Forecast { limit, .. } => Some(*limit),
            SearchError::Heuristic(e) => match &**e {
                PdbError::Memory { .. } => Some(Limit::Memory),
                PdbError::Stopped {
                    interrupt: crate::budget::Interrupt::Limit(l),
                    ..
                } => Some(*l),
                _ => None,
            },
            _ => None,
        }
    }
}

impl Interrupt {
    /// The error `algorithm` reports, having searched to `depth` at the
    /// cost `stats`, with the budget's value as given.
    pub fn error(
        self,
        algorithm: &'static str,
        budget: &Budget,
        depth: u32,
        stats: Stats,
    ) -> SearchError {
        match self {
            Interrupt::Cancelled => SearchError::Cancelled { algorithm, stats },
            Interrupt::Limit(limit) => SearchError::Budget {
                algorithm,
                limit,
                limit_value: budget.value_of(limit),
                depth,
                stats,
            },
        }
    }
}
