//! What the commands on written moves share (`apply`, `verify`,
//! `analyse`, `simplify`, `invert`, `transpose`): the arguments, reading
//! the moves, and the options of their exact searches (the distances
//! themselves are `npuzzle_io::analysis`).

use super::input::ProblemArgs;
use super::Failure;
use npuzzle::{parse_moves, Budget, Dir, Metric, Notation, Problem, Shape, SolveOptions};
use npuzzle_io::analysis::AnalysisError;

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

/// What the exact searches of one command run with: moves counted in
/// `metric`, all within `seconds` (one deadline), stopped by Ctrl-C.
pub fn exact_options(metric: Metric, seconds: f64) -> Result<SolveOptions, Failure> {
    let timeout = super::solve::parse_timeout(Some(seconds))?;
    Ok(SolveOptions::default().with_metric(metric).with_budget(
        Budget::default()
            .with_timeout(timeout)
            .with_cancel(Some(super::ctrl_c()))
            .started_now(),
    ))
}

/// A failure of exit status `code`.
pub fn fail(code: u8, error: anyhow::Error) -> Failure {
    Failure { code, error }
}

/// What moves that cannot be analysed, or a distance that is not known,
/// mean for a command that needs them: its exit status and message.
pub fn analysis_failure(e: AnalysisError) -> Failure {
    match e {
        AnalysisError::Search(e) => e.into(),
        AnalysisError::Input(e) => e.into(),
        AnalysisError::Move(e) => e.into(),
        other => fail(super::EXIT_BAD_INPUT, anyhow::anyhow!("{other}")),
    }
}
