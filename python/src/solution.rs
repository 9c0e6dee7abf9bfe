//! `npuzzle.Solution` and `npuzzle.Stats`: an answer and what it cost.

use crate::board::PyBoard;
use npuzzle::board::parse_path;
use npuzzle::report::Report;
use npuzzle::search::{Problem, Solution, Stats};
use npuzzle::Board;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// What one search cost.
#[pyclass(module = "npuzzle", name = "Stats", frozen, get_all, eq)]
#[derive(Clone, Copy, PartialEq)]
pub struct PyStats {
    /// Nodes whose successors were generated.
    pub expanded: u64,
    /// Successors generated (duplicates included).
    pub generated: u64,
    /// Most states held in memory at once.
    pub peak_states: u64,
    /// Wall-clock time of the search, in seconds.
    pub seconds: f64,
}

impl From<Stats> for PyStats {
    fn from(s: Stats) -> PyStats {
        PyStats {
            expanded: s.expanded,
            generated: s.generated,
            peak_states: s.peak_states,
            seconds: s.elapsed.as_secs_f64(),
        }
    }
}

#[pymethods]
impl PyStats {
    /// The statistics as a dict (`expanded`, `generated`, `peak_states`,
    /// `seconds`).
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("expanded", self.expanded)?;
        d.set_item("generated", self.generated)?;
        d.set_item("peak_states", self.peak_states)?;
        d.set_item("seconds", self.seconds)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "Stats(expanded={}, generated={}, peak_states={}, seconds={:.6})",
            self.expanded, self.generated, self.peak_states, self.seconds
        )
    }
}

/// The answer to one problem: the fewest moves, an optimal path, which
/// algorithm answered and what it cost.
#[pyclass(module = "npuzzle", name = "Solution", frozen)]
pub struct PySolution {
    start: Board,
    goal: Board,
    report: Report,
}

impl PySolution {
    pub fn new(problem: &Problem, sol: &Solution, count_start: bool) -> PySolution {
        PySolution {
            start: problem.start().clone(),
            goal: problem.goal().clone(),
            report: Report::new(problem, sol, count_start, false),
        }
    }
}

#[pymethods]
impl PySolution {
    /// The fewest moves (plus one with `count_start=True`), or `None` when
    /// the goal cannot be reached. For an answer that is not proven optimal
    /// (`optimal` false), the moves of the path found.
    #[getter]
    fn moves(&self) -> Option<i64> {
        self.report.solvable.then_some(self.report.moves)
    }

    /// Whether the goal can be reached.
    #[getter]
    fn solvable(&self) -> bool {
        self.report.solvable
    }

    /// The optimal moves as a `UDLR` string (the direction the blank
    /// travels), or `None` when not asked for (`path=False`) or unreachable.
    #[getter]
    fn path(&self) -> Option<&str> {
        self.report.path.as_deref()
    }

    /// Every board along the path, the start first and the goal last.
    /// Empty when the goal cannot be reached; a `ValueError` when the path
    /// was not asked for.
    fn boards(&self) -> PyResult<Vec<PyBoard>> {
        if !self.report.solvable {
            return Ok(Vec::new());
        }
        let Some(path) = &self.report.path else {
            return Err(PyValueError::new_err(
                "this solution has no path: solve with path=True to get the boards",
            ));
        };
        let dirs = parse_path(path).map_err(crate::args::value_error)?;
        let boards = self
            .start
            .trajectory(&dirs)
            .map_err(crate::args::value_error)?;
        Ok(boards.into_iter().map(PyBoard::from).collect())
    }

    /// The board the moves start from.
    #[getter]
    fn start(&self) -> PyBoard {
        self.start.clone().into()
    }

    /// The board the moves reach.
    #[getter]
    fn goal(&self) -> PyBoard {
        self.goal.clone().into()
    }

    /// Whether `moves` is proven to be the fewest.
    #[getter]
    fn optimal(&self) -> bool {
        self.report.optimal
    }

    /// For an answer not proven optimal: the fewest moves are at least
    /// this many. `None` otherwise.
    #[getter]
    fn lower_bound(&self) -> Option<u32> {
        self.report.lower_bound
    }

    /// For an answer not proven optimal: it is at most this many times the
    /// fewest (`moves / lower_bound`). `None` otherwise.
    #[getter]
    fn ratio(&self) -> Option<f64> {
        self.report.ratio
    }

    /// The algorithm that answered (`table`, `idastar`, …; `parity` when
    /// the goal was found unreachable without a search).
    #[getter]
    fn algorithm(&self) -> &'static str {
        self.report.algorithm
    }

    /// The heuristic it used, if any (`linear-conflict`, `pdb`, …).
    #[getter]
    fn heuristic(&self) -> Option<&'static str> {
        self.report.heuristic
    }

    /// What the planner chose, and why.
    #[getter]
    fn plan(&self) -> Option<&str> {
        self.report.plan.as_deref()
    }

    /// What the search cost.
    #[getter]
    fn stats(&self) -> PyStats {
        self.report.stats.into()
    }

    /// The answer as a dict with the keys of `npuzzle solve --json`
    /// (`rows`, `cols`, `start`, `goal`, `solvable`, `moves` (-1 when
    /// unreachable), `path`, `algorithm`, `heuristic`, `optimal`,
    /// `lower_bound`, `ratio`, `plan`, `stats`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let json = serde_json::to_string(&self.report)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        py.import("json")?.call_method1("loads", (json,))
    }

    fn __repr__(&self) -> String {
        let r = &self.report;
        let opt = |v: Option<&str>| v.map_or("None".to_string(), |s| format!("'{s}'"));
        let moves = if r.solvable {
            r.moves.to_string()
        } else {
            "None".to_string()
        };
        let mut s = format!(
            "Solution(moves={moves}, path={}, algorithm='{}', heuristic={}, optimal={}",
            opt(r.path.as_deref()),
            r.algorithm,
            opt(r.heuristic),
            if r.optimal { "True" } else { "False" }
        );
        if let Some(l) = r.lower_bound {
            s.push_str(&format!(", lower_bound={l}"));
        }
        s.push(')');
        s
    }
}
