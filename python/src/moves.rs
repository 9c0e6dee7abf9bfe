//! Python on written moves, answering as the commands of the same names:
//! `analyse` (the exact distance to the goal after each move, the moves
//! that did not bring it closer and the detours, `npuzzle_io::analysis`)
//! and `verify` (`npuzzle_io::verdict`) as the dicts their `--json`
//! prints; `simplify`, `invert`, `transpose` and `length` on the text.

use crate::args::{self, budget_arg, problem, Choices, Notes};
use crate::errors::search_error;
use crate::run;
use npuzzle::{parse_moves, Dir, Metric, Notation, Rewrite, SolveOptions};
use npuzzle_io::analysis::{self, AnalysisError};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde::Serialize;

/// After each of `moves` from `start`, the exact distance still to go,
/// whether the move brought the goal closer, and the detours.
#[pyfunction]
#[pyo3(signature = (start, moves, goal=None, *, metric="stm", notation="blank", shape=None, budget=None))]
#[allow(clippy::too_many_arguments)]
pub fn analyse<'py>(
    py: Python<'py>,
    start: &Bound<'py, PyAny>,
    moves: &str,
    goal: Option<&Bound<'py, PyAny>>,
    metric: &str,
    notation: &str,
    shape: Option<&Bound<'py, PyAny>>,
    budget: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let problem = problem(start, goal, shape)?;
    let result = exact(
        py,
        &problem,
        moves,
        notation,
        metric,
        budget,
        analysis::analyse,
    )?;
    let answer = result.map_err(|e| match e {
        AnalysisError::Search(e) => search_error(py, &e, ""),
        other => PyValueError::new_err(other.to_string()),
    })?;
    to_dict(py, &answer)
}

/// Whether `moves` take `start` to the goal, their length in both metrics
/// and, for a solution, the fewest moves (`optimal`, or `None` with the
/// reason in `optimal_unknown` when the search stops at its budget).
#[pyfunction]
#[pyo3(signature = (start, moves, goal=None, *, metric="stm", notation="blank", shape=None, budget=None))]
#[allow(clippy::too_many_arguments)]
pub fn verify<'py>(
    py: Python<'py>,
    start: &Bound<'py, PyAny>,
    moves: &str,
    goal: Option<&Bound<'py, PyAny>>,
    metric: &str,
    notation: &str,
    shape: Option<&Bound<'py, PyAny>>,
    budget: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let problem = problem(start, goal, shape)?;
    let verify = npuzzle_io::verdict::verify;
    let result = exact(py, &problem, moves, notation, metric, budget, verify)?;
    let answer = result.map_err(|e| PyValueError::new_err(format!("moves: {e}")))?;
    to_dict(py, &answer)
}

/// Reads `moves` in `notation` and runs `work` on them from the problem's
/// start, with the exact searches' options of one call (see
/// [`exact_options`]), off the interpreter's thread and stopped by Ctrl-C.
fn exact<T: Send>(
    py: Python<'_>,
    problem: &npuzzle::Problem,
    moves: &str,
    notation: &str,
    metric: &str,
    budget: Option<&Bound<'_, PyAny>>,
    work: impl FnOnce(&npuzzle::Problem, &[Dir], Notation, &SolveOptions) -> T + Send,
) -> PyResult<T> {
    let notation = notation_arg(notation, "notation")?;
    let path = moves_arg(moves, notation)?;
    let notes = Notes::default();
    let opts = exact_options(metric, budget, &notes)?;
    let (opts, flag) = run::cancellable(opts);
    let result = run::interruptible(py, &flag, || work(problem, &path, notation, &opts))?;
    notes.warn(py)?;
    Ok(result)
}

/// `moves` simplified: every step the next one undoes cancelled.
#[pyfunction]
#[pyo3(signature = (moves, *, notation="blank", to=None, metric="stm", spaced=false))]
pub fn simplify(
    moves: &str,
    notation: &str,
    to: Option<&str>,
    metric: &str,
    spaced: bool,
) -> PyResult<String> {
    rewrite(Rewrite::Simplify, moves, notation, to, metric, spaced)
}

/// The moves that undo `moves`.
#[pyfunction]
#[pyo3(signature = (moves, *, notation="blank", to=None, metric="stm", spaced=false))]
pub fn invert(
    moves: &str,
    notation: &str,
    to: Option<&str>,
    metric: &str,
    spaced: bool,
) -> PyResult<String> {
    rewrite(Rewrite::Invert, moves, notation, to, metric, spaced)
}

/// `moves` mirrored in the main diagonal: a solution of the transposed
/// puzzle.
#[pyfunction]
#[pyo3(signature = (moves, *, notation="blank", to=None, metric="stm", spaced=false))]
pub fn transpose(
    moves: &str,
    notation: &str,
    to: Option<&str>,
    metric: &str,
    spaced: bool,
) -> PyResult<String> {
    rewrite(Rewrite::Transpose, moves, notation, to, metric, spaced)
}

/// The number of moves in `moves`, counted in `metric`.
#[pyfunction]
#[pyo3(signature = (moves, *, metric="stm", notation="blank"))]
pub fn length(moves: &str, metric: &str, notation: &str) -> PyResult<usize> {
    let path = moves_arg(moves, notation_arg(notation, "notation")?)?;
    Ok(metric_arg(metric)?.length(&path))
}

fn rewrite(
    rewrite: Rewrite,
    moves: &str,
    notation: &str,
    to: Option<&str>,
    metric: &str,
    spaced: bool,
) -> PyResult<String> {
    let read = notation_arg(notation, "notation")?;
    let write = match to {
        Some(t) => notation_arg(t, "to")?,
        None => read,
    };
    let path = rewrite.apply(&moves_arg(moves, read)?);
    Ok(npuzzle::format_moves(
        &path,
        write,
        metric_arg(metric)?,
        spaced,
    ))
}

fn notation_arg(text: &str, name: &str) -> PyResult<Notation> {
    text.parse()
        .map_err(|e| PyValueError::new_err(format!("{name}: {e}")))
}

fn metric_arg(text: &str) -> PyResult<Metric> {
    text.parse()
        .map_err(|e| PyValueError::new_err(format!("metric: {e}")))
}

fn moves_arg(moves: &str, notation: Notation) -> PyResult<Vec<Dir>> {
    parse_moves(moves, notation).map_err(|e| PyValueError::new_err(format!("moves: {e}")))
}

/// The options of the exact searches of one call: the planner's choices,
/// optimal, within one budget.
fn exact_options(
    metric: &str,
    budget: Option<&Bound<'_, PyAny>>,
    notes: &Notes,
) -> PyResult<SolveOptions> {
    let choices = Choices {
        algorithm: "auto",
        heuristic: "auto",
        partition: "auto",
        also: Vec::new(),
        pdb_dir: None,
        threads: 1,
        weight: SolveOptions::DEFAULT_WEIGHT,
        optimal: true,
        metric,
    };
    choices.options(budget_arg(budget, args::default_budget())?, notes)
}

/// The same dict as the JSON the command line and the server write.
fn to_dict<'py>(py: Python<'py>, answer: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(answer)
        .map_err(|e| PyValueError::new_err(format!("internal error: {e}")))?;
    py.import("json")?.call_method1("loads", (text,))
}
