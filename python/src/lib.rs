//! The `npuzzle` Python package: the library's answers, algorithms and
//! statistics for Python callers (`npuzzle._npuzzle`, re-exported by the
//! package's `__init__.py`).
//!
//! This crate only converts: Python values to the library's types
//! (`args`, boards as text by `tiles`), answers and errors back (`solution`, `errors`), and runs the
//! work without the GIL, interruptible by Ctrl-C (`run`).

mod args;
mod arrays;
mod bad_input;
mod board;
mod errors;
mod moves;
mod pyboard;
mod run;
mod solution;
mod svg;
mod tiles;
mod trace;

use args::{budget_arg, problem, shape_arg, Choices, Notes};
use errors::{search_error, BudgetExceeded};
use npuzzle::compare as compare_all;
use npuzzle::SolveOptions;
use numpy::PyArray1;
use pyboard::PyBoard;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use solution::{PySolution, PyStats};
use std::path::PathBuf;

/// Default node and state budgets of `compare`, as `npuzzle compare`'s: it
/// runs a dozen searches, so each gets less than one `solve`.
const COMPARE_MAX_STATES: u64 = 10_000_000;
const COMPARE_MAX_NODES: u64 = 1_000_000_000;

/// Solves one puzzle: the fewest moves from `start` to `goal` and, unless
/// `path=False`, an optimal path.
///
/// `start` and `goal` are boards in any form `Board` reads (a string in
/// any format the command line reads, a `Board`, a flat sequence, a list of
/// rows, a NumPy array); `goal` may also be a goal name (`blank-last`,
/// `blank-first`, `spiral`), and defaults to blank-last unless `start`'s
/// text holds one (`"START | GOAL"`). See the stubs for every keyword.
#[pyfunction]
#[pyo3(signature = (
    start, goal=None, *, algorithm="auto", heuristic="auto", path=true, count_start=false,
    budget=None, shape=None, threads=1, weight=1.5, optimal=false, partition="auto", also_partitions=Vec::new(), pdb_dir=None,
    metric="stm"
))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    start: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    algorithm: &str,
    heuristic: &str,
    path: bool,
    count_start: bool,
    budget: Option<&Bound<'_, PyAny>>,
    shape: Option<&Bound<'_, PyAny>>,
    threads: usize,
    weight: f64,
    optimal: bool,
    partition: &str,
    also_partitions: Vec<String>,
    pdb_dir: Option<PathBuf>,
    metric: &str,
) -> PyResult<PySolution> {
    let problem = problem(start, goal, shape)?;
    let notes = Notes::default();
    let choices = Choices {
        algorithm,
        heuristic,
        partition,
        also: also_partitions,
        pdb_dir,
        threads,
        weight,
        optimal,
        metric,
    };
    let opts = choices
        .options(budget_arg(budget, args::default_budget())?, &notes)?
        .with_path(path);
    let result = run::search(py, &problem, opts, true, npuzzle::solve)?;
    notes.warn(py)?;
    let sol = result.map_err(|e| search_error(py, &e, ""))?;
    Ok(PySolution::new(&problem, &sol, count_start))
}

/// Runs every algorithm and heuristic that applies to one puzzle; one dict
/// per combination, ready for `pandas.DataFrame(rows)`.
#[pyfunction]
#[pyo3(signature = (start, goal=None, *, shape=None, budget=None, partition="auto", also_partitions=Vec::new(), pdb_dir=None))]
#[allow(clippy::too_many_arguments)]
fn compare<'py>(
    py: Python<'py>,
    start: &Bound<'py, PyAny>,
    goal: Option<&Bound<'py, PyAny>>,
    shape: Option<&Bound<'py, PyAny>>,
    budget: Option<&Bound<'py, PyAny>>,
    partition: &str,
    also_partitions: Vec<String>,
    pdb_dir: Option<PathBuf>,
) -> PyResult<Bound<'py, PyList>> {
    let problem = problem(start, goal, shape)?;
    let notes = Notes::default();
    let base = args::default_budget()
        .with_max_states(COMPARE_MAX_STATES)
        .with_max_nodes(COMPARE_MAX_NODES);
    let choices = Choices {
        algorithm: "auto",
        heuristic: "auto",
        partition,
        also: also_partitions,
        pdb_dir,
        threads: 1,
        weight: SolveOptions::DEFAULT_WEIGHT,
        optimal: false,
        metric: "stm",
    };
    let opts = choices.options(budget_arg(budget, base)?, &notes)?;
    let (opts, flag) = run::cancellable(opts);
    let cmp = run::interruptible(py, &flag, || compare_all(&problem, &opts))?;
    notes.warn(py)?;
    let rows = PyList::empty(py);
    for r in &cmp.rows {
        let d = PyDict::new(py);
        d.set_item("algorithm", r.algorithm)?;
        d.set_item("heuristic", r.heuristic)?;
        d.set_item("moves", r.moves)?;
        d.set_item("expanded", r.expanded)?;
        d.set_item("generated", r.generated)?;
        d.set_item("peak_states", r.peak_states)?;
        d.set_item("seconds", r.seconds)?;
        d.set_item("skipped", r.skipped.as_deref())?;
        rows.append(d)?;
    }
    Ok(rows)
}

/// The fewest moves for many boards at once: `starts` is an integer array
/// of shape (N, cells), one board a row; `goals` one goal (shape (cells,)),
/// one per start (shape (N, cells)), a goal name, or None (blank-last).
/// Returns an int32 array of N move counts, -1 where the goal cannot be
/// reached. Answered on every core with the GIL released.
#[pyfunction]
#[pyo3(signature = (
    starts, goals=None, *, shape=None, algorithm="auto", heuristic="auto", count_start=false,
    budget=None, partition="auto", also_partitions=Vec::new(), pdb_dir=None, metric="stm"
))]
#[allow(clippy::too_many_arguments)]
fn solve_many<'py>(
    py: Python<'py>,
    starts: &Bound<'py, PyAny>,
    goals: Option<&Bound<'py, PyAny>>,
    shape: Option<&Bound<'py, PyAny>>,
    algorithm: &str,
    heuristic: &str,
    count_start: bool,
    budget: Option<&Bound<'py, PyAny>>,
    partition: &str,
    also_partitions: Vec<String>,
    pdb_dir: Option<PathBuf>,
    metric: &str,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    let (starts, shape) = arrays::starts(starts, shape_arg(shape)?)?;
    let goals = arrays::goals(goals, shape, starts.count)?;
    let notes = Notes::default();
    let choices = Choices {
        algorithm,
        heuristic,
        partition,
        also: also_partitions,
        pdb_dir,
        threads: 1,
        weight: SolveOptions::DEFAULT_WEIGHT,
        optimal: true,
        metric,
    };
    let opts = choices.options(budget_arg(budget, args::default_budget())?, &notes)?;
    let (opts, flag) = run::cancellable(opts);
    let result = run::interruptible(py, &flag, || {
        npuzzle_io::batch::arrays::answer_boards(shape, &starts.tiles, &goals.tiles, &opts)
    })?;
    notes.warn(py)?;
    let mut moves = result.map_err(|e| arrays::array_error(py, &e))?;
    if count_start {
        for m in moves.iter_mut().filter(|m| **m >= 0) {
            *m += 1;
        }
    }
    Ok(PyArray1::from_vec(py, moves))
}

/// Exact solver for sliding-tile puzzles (the 8-puzzle, the 15-puzzle, any
/// R×C board from 2×2 to 16×16), built from the npuzzle Rust crate.
#[pymodule]
fn _npuzzle(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBoard>()?;
    m.add_class::<PySolution>()?;
    m.add_class::<PyStats>()?;
    m.add_class::<trace::PyTrace>()?;
    m.add("BudgetExceeded", m.py().get_type::<BudgetExceeded>())?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add_function(wrap_pyfunction!(trace::trace, m)?)?;
    m.add_function(wrap_pyfunction!(moves::analyse, m)?)?;
    m.add_function(wrap_pyfunction!(moves::verify, m)?)?;
    m.add_function(wrap_pyfunction!(moves::simplify, m)?)?;
    m.add_function(wrap_pyfunction!(moves::invert, m)?)?;
    m.add_function(wrap_pyfunction!(moves::transpose, m)?)?;
    m.add_function(wrap_pyfunction!(moves::length, m)?)?;
    Ok(())
}
