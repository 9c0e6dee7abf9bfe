//! What the commands on written moves share (`apply`, `verify`,
//! `analyse`, `simplify`, `invert`, `transpose`): the arguments, reading
//! the moves, and exact distances within a budget.

use super::input::ProblemArgs;
use super::Failure;
use npuzzle::{parse_moves, Board, Dir, InputError, Metric, Notation, Problem, Shape};
use npuzzle::{Algorithm, Budget, SearchError, SolveOptions, TableSet};
use std::fmt;
use std::ops::Range;
use std::time::{Duration, Instant};

/// The largest board whose distances are searched for (a 4x4): beyond it
/// one exact search may take far longer than anyone waits.
pub const MAX_EXACT_CELLS: usize = 16;

/// Seconds the exact searches of one command may take in all, unless
/// `--timeout` says otherwise.
pub const DEFAULT_TIMEOUT: f64 = 10.0;

/// The moves as typed and how to read them.
#[derive(clap::Args, Debug, Clone)]
pub struct MovesArgs {
    /// The moves: letters U, D, L, R in either case, each optionally with
    /// a count (R2 = RR), spaces anywhere between moves; as one argument
    /// or several.
    #[arg(value_name = "MOVES", num_args = 1.., required = true)]
    pub moves: Vec<String>,

    /// How the letters are read and written: blank (the way the blank
    /// moves) or tile (the way the tiles move, the speedsolvers' notation:
    /// blank U is tile D).
    #[arg(long, value_name = "NOTATION", default_value = "blank")]
    pub notation: Notation,

    /// How moves are counted: stm (each tile slid one cell is a move) or
    /// mtm (a push of several tiles of a row or column is one move).
    #[arg(long, value_name = "METRIC", default_value = "stm")]
    pub metric: Metric,
}

impl MovesArgs {
    /// The blank's steps the moves come to.
    pub fn path(&self) -> Result<Vec<Dir>, Failure> {
        Ok(parse_moves(&self.moves.join(" "), self.notation)?)
    }

    /// `path` written as these arguments write moves.
    pub fn format(&self, path: &[Dir]) -> String {
        npuzzle::format_moves(path, self.notation, self.metric, false)
    }
}

/// The start (one argument) and, for the commands that need one, the goal.
#[derive(clap::Args, Debug, Clone)]
pub struct StartArgs {
    /// The start board, as one argument (quote it: "1 2 3/4 5 6/7 8 0").
    #[arg(value_name = "START")]
    pub start: String,

    /// Board size as RxC (e.g. 2x4), needed when it cannot be inferred.
    #[arg(short, long, value_name = "RxC")]
    pub size: Option<Shape>,
}

/// `--goal`, as `solve` takes it.
#[derive(clap::Args, Debug, Clone)]
pub struct GoalArgs {
    /// The goal: blank-last (default), blank-first, spiral, or a board as
    /// one argument (quoted).
    #[arg(short, long, value_name = "GOAL")]
    pub goal: Option<String>,

    /// Most seconds the exact searches for optimal lengths may take in all.
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_TIMEOUT)]
    pub timeout: f64,
}

/// The problem of a start and a goal, read as `solve` reads them.
pub fn problem(start: &StartArgs, goal: &GoalArgs) -> Result<Problem, Failure> {
    ProblemArgs {
        start: vec![start.start.clone()],
        goal: goal.goal.clone(),
        size: start.size,
    }
    .problem()
}

/// `7 moves stm, 5 mtm`.
pub fn lengths(path: &[Dir]) -> String {
    let stm = Metric::Stm.length(path);
    let mtm = Metric::Mtm.length(path);
    format!("{} stm, {mtm} mtm", super::count(stm as u64, "move"))
}

/// The moves of `path` in `metric`, as ranges of its steps: one step each
/// in STM, each run of equal steps (a push) in MTM.
pub fn spans(path: &[Dir], metric: Metric) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut at = 0;
    for (_, len) in npuzzle::metric_runs(path) {
        match metric {
            Metric::Stm => out.extend((at..at + len).map(|i| i..i + 1)),
            Metric::Mtm => out.push(at..at + len),
        }
        at += len;
    }
    out
}

/// Why a distance is not known.
#[derive(Debug)]
pub enum Unknown {
    /// The board has more cells than an exact search is run on.
    TooLarge(usize),
    /// The solver answered, counting in another metric.
    OtherMetric(Metric),
    /// The search stopped (its budget, Ctrl-C) or could not run.
    Search(SearchError),
    /// The boards do not make a problem.
    Input(InputError),
}

impl fmt::Display for Unknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unknown::TooLarge(cells) => write!(
                f,
                "exact distances are searched for on boards of at most {MAX_EXACT_CELLS} cells, and this one has {cells}"
            ),
            Unknown::OtherMetric(m) => write!(
                f,
                "no exact solver counts {} yet (the solver answered in {m})",
                m.describe()
            ),
            Unknown::Search(e) => write!(f, "{e}"),
            Unknown::Input(e) => write!(f, "{e}"),
        }
    }
}

/// Exact distances in one metric, within one time budget for them all.
pub struct Exact {
    metric: Metric,
    deadline: Instant,
}

impl Exact {
    /// Distances in `metric`, all found within `seconds`.
    pub fn new(metric: Metric, seconds: f64) -> Result<Exact, Failure> {
        let timeout = super::solve::parse_timeout(Some(seconds))?.unwrap_or(Duration::MAX);
        Ok(Exact {
            metric,
            deadline: Instant::now()
                .checked_add(timeout)
                .unwrap_or_else(far_future),
        })
    }

    /// The fewest moves from `start` to `goal`, `None` when unreachable.
    pub fn distance(&self, start: &Board, goal: &Board) -> Result<Option<u32>, Unknown> {
        let shape = start.shape();
        if start.len() > MAX_EXACT_CELLS {
            return Err(Unknown::TooLarge(start.len()));
        }
        if self.metric == Metric::Stm && TableSet::covers(shape) {
            // the complete table answers at once (and is built once)
            return Ok(TableSet::global().distance(shape, start.tiles(), goal.tiles()));
        }
        let problem = Problem::new(start.clone(), goal.clone()).map_err(Unknown::Input)?;
        let left = self.deadline.saturating_duration_since(Instant::now());
        let opts = SolveOptions::default()
            .with_metric(self.metric)
            .with_algorithm(Algorithm::Auto)
            .with_optimal(true)
            .with_budget(
                Budget::default()
                    .with_timeout(Some(left.max(Duration::from_millis(1))))
                    .with_cancel(Some(super::ctrl_c())),
            );
        let sol = npuzzle::solve(&problem, &opts).map_err(Unknown::Search)?;
        if sol.moves.is_some() && sol.metric != self.metric {
            return Err(Unknown::OtherMetric(self.metric));
        }
        Ok(sol.moves)
    }
}

/// A deadline no command reaches (a timeout too long for the clock).
fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(365 * 24 * 3600)
}

/// A failure of exit status `code`.
pub fn fail(code: u8, error: anyhow::Error) -> Failure {
    Failure { code, error }
}

/// What a distance that is not known means for a command that needs it:
/// its exit status and message.
pub fn unknown_failure(u: Unknown) -> Failure {
    match u {
        Unknown::Search(e) => e.into(),
        Unknown::Input(e) => e.into(),
        other => fail(super::EXIT_BAD_INPUT, anyhow::anyhow!("{other}")),
    }
}
