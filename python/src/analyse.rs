//! `npuzzle.analyse`: the exact distance to the goal after each move of a
//! sequence, the moves that did not bring it closer and the detours, as
//! the dict of `npuzzle analyse --json` (`npuzzle_io::analysis`).

use crate::args::{self, budget_arg, problem, Choices, Notes};
use crate::errors::search_error;
use crate::run;
use npuzzle::{parse_moves, Notation, SolveOptions};
use npuzzle_io::analysis::{self, AnalysisError};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

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
    let notation: Notation = notation
        .parse()
        .map_err(|e| PyValueError::new_err(format!("notation: {e}")))?;
    let path =
        parse_moves(moves, notation).map_err(|e| PyValueError::new_err(format!("moves: {e}")))?;
    let notes = Notes::default();
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
    let opts = choices.options(budget_arg(budget, args::default_budget())?, &notes)?;
    let (opts, flag) = run::cancellable(opts);
    let result = run::interruptible(py, &flag, || {
        analysis::analyse(&problem, &path, notation, &opts)
    })?;
    notes.warn(py)?;
    let answer = result.map_err(|e| match e {
        AnalysisError::Search(e) => search_error(py, &e, ""),
        other => PyValueError::new_err(other.to_string()),
    })?;
    // The same dict as the JSON the command line and the server write.
    let text = serde_json::to_string(&answer)
        .map_err(|e| PyValueError::new_err(format!("internal error: {e}")))?;
    py.import("json")?.call_method1("loads", (text,))
}
