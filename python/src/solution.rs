//! `npuzzle.Solution` and `npuzzle.Stats`: an answer and what it cost.
//!
//! Both pickle (and so cross process pools): `Stats` as its four numbers,
//! `Solution` as its boards, its answer and its stats to the nanosecond,
//! so that a round trip gives an equal value.

use crate::pyboard::PyBoard;
use npuzzle::parse_path;
use npuzzle::Board;
use npuzzle::HeuristicKind;
use npuzzle::{Algorithm, IterationSummary, Problem, Solution, Stats};
use npuzzle_io::report::Report;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};
use std::time::Duration;

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
    #[new]
    #[pyo3(signature = (expanded=0, generated=0, peak_states=0, seconds=0.0))]
    fn new(expanded: u64, generated: u64, peak_states: u64, seconds: f64) -> PyResult<PyStats> {
        if !(seconds.is_finite() && seconds >= 0.0) {
            return Err(PyValueError::new_err(format!(
                "seconds must be a finite number from 0, not {seconds}"
            )));
        }
        Ok(PyStats {
            expanded,
            generated,
            peak_states,
            seconds,
        })
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> (Bound<'py, PyType>, (u64, u64, u64, f64)) {
        (
            py.get_type::<PyStats>(),
            (
                self.expanded,
                self.generated,
                self.peak_states,
                self.seconds,
            ),
        )
    }

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
/// algorithm answered and what it cost. Equal when every field is.
#[pyclass(module = "npuzzle", name = "Solution", frozen, eq)]
pub struct PySolution {
    start: Board,
    goal: Board,
    report: Report,
}

impl PartialEq for PySolution {
    fn eq(&self, other: &PySolution) -> bool {
        self.state() == other.state()
    }
}

/// A pickled answer: `solvable`, `moves`, `path`, `algorithm`,
/// `heuristic`, `optimal`, `lower_bound`, `ratio`, `plan`.
type AnswerState = (
    bool,
    i64,
    Option<String>,
    String,
    Option<String>,
    bool,
    Option<u32>,
    Option<f64>,
    Option<String>,
    String,
);

/// Pickled stats: `expanded`, `generated`, `peak_states`, and the time as
/// whole seconds and nanoseconds.
type StatsState = (u64, u64, u64, u64, u32);

/// Pickled IDA* iterations: each bound and the nodes it expanded.
type IterationsState = Vec<(u32, u64)>;

/// The library's name `name` among `names` (the report holds names as
/// `&'static str`).
fn known_name(
    name: &str,
    names: impl IntoIterator<Item = &'static str>,
    what: &str,
) -> PyResult<&'static str> {
    names.into_iter().find(|n| *n == name).ok_or_else(|| {
        PyValueError::new_err(format!("'{}' is not {what}", npuzzle::printable(name)))
    })
}

impl PySolution {
    /// Everything the solution holds, as it is pickled (and compared):
    /// `_from_state` names every field of the report, so one added to
    /// `Report` stops the build there until it is added here too.
    fn state(&self) -> (&Board, &Board, AnswerState, StatsState, IterationsState) {
        let r = &self.report;
        let answer: AnswerState = (
            r.solvable,
            r.moves,
            r.path.clone(),
            r.algorithm.to_string(),
            r.heuristic.map(str::to_string),
            r.optimal,
            r.lower_bound,
            r.ratio,
            r.plan.clone(),
            r.metric.to_string(),
        );
        let s = &r.stats;
        let stats: StatsState = (
            s.expanded,
            s.generated,
            s.peak_states,
            s.elapsed.as_secs(),
            s.elapsed.subsec_nanos(),
        );
        let iterations = r.iterations.iter().map(|i| (i.bound, i.expanded)).collect();
        (&self.start, &self.goal, answer, stats, iterations)
    }

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
        let dirs = parse_path(path).map_err(crate::bad_input::value_error)?;
        let boards = self
            .start
            .trajectory(&dirs)
            .map_err(crate::bad_input::value_error)?;
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

    /// How `moves` is counted: `"stm"` (single-tile moves) or `"mtm"`
    /// (multi-tile moves: a push of several tiles in a line is one).
    #[getter]
    fn metric(&self) -> &'static str {
        self.report.metric.name()
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

    /// IDA*'s iterations as `(bound, expanded)` pairs, in order (their
    /// nodes sum to `stats.expanded`); empty for the other searches.
    #[getter]
    fn iterations(&self) -> Vec<(u32, u64)> {
        self.report
            .iterations
            .iter()
            .map(|i| (i.bound, i.expanded))
            .collect()
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

    /// Rebuilds a pickled solution (see `__reduce__`).
    #[classmethod]
    #[pyo3(signature = (start, goal, answer, stats, iterations=Vec::new()))]
    fn _from_state(
        _cls: &Bound<'_, PyType>,
        start: &Bound<'_, PyBoard>,
        goal: &Bound<'_, PyBoard>,
        answer: AnswerState,
        stats: StatsState,
        iterations: IterationsState,
    ) -> PyResult<PySolution> {
        let (
            solvable,
            moves,
            path,
            algorithm,
            heuristic,
            optimal,
            lower_bound,
            ratio,
            plan,
            metric,
        ) = answer;
        let metric: npuzzle::Metric = metric
            .parse()
            .map_err(|e: npuzzle::UnknownMetric| PyValueError::new_err(e.to_string()))?;
        let (start, goal) = (start.get().inner.clone(), goal.get().inner.clone());
        if start.shape() != goal.shape() {
            return Err(PyValueError::new_err(
                "the start and goal of a solution have one shape",
            ));
        }
        if let Some(p) = &path {
            parse_path(p).map_err(crate::bad_input::value_error)?;
        }
        // Names as the algorithms report them, "parity" for none.
        let algorithms = Algorithm::ALL.iter().map(|a| a.name()).chain(["parity"]);
        let algorithm = known_name(&algorithm, algorithms, "an algorithm")?;
        let heuristic = heuristic
            .map(|h| {
                let heuristics = HeuristicKind::ALL.iter().map(|h| h.name());
                known_name(&h, heuristics, "a heuristic")
            })
            .transpose()?;
        let (expanded, generated, peak_states, secs, nanos) = stats;
        if nanos >= 1_000_000_000 {
            return Err(PyValueError::new_err(format!(
                "{nanos} nanoseconds are not below a second"
            )));
        }
        let report = Report {
            rows: start.rows(),
            cols: start.cols(),
            start: start.tiles().to_vec(),
            goal: goal.tiles().to_vec(),
            solvable,
            moves,
            path,
            // (never held: `boards()` replays the path)
            boards: None,
            algorithm,
            heuristic,
            optimal,
            lower_bound,
            ratio,
            plan,
            metric,
            stats: Stats {
                expanded,
                generated,
                peak_states,
                elapsed: Duration::new(secs, nanos),
            },
            iterations: iterations
                .into_iter()
                .map(|(bound, expanded)| IterationSummary { bound, expanded })
                .collect(),
        };
        Ok(PySolution {
            start,
            goal,
            report,
        })
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let (start, goal, answer, stats, iterations) = self.state();
        let restore = py.get_type::<PySolution>().getattr("_from_state")?;
        let (start, goal) = (PyBoard::from(start.clone()), PyBoard::from(goal.clone()));
        let args = (start, goal, answer, stats, iterations).into_pyobject(py)?;
        Ok((restore, args))
    }

    /// For Jupyter: the answer in a line, then the boards from the start to
    /// the goal as a strip of small pictures, each under its move.
    fn _repr_html_(&self) -> String {
        let r = &self.report;
        let mut line = if r.solvable {
            format!("{} moves", r.moves)
        } else {
            "the goal cannot be reached".to_string()
        };
        line.push_str(&format!(" ({}", r.algorithm));
        if let Some(h) = r.heuristic {
            line.push_str(&format!(", {h}"));
        }
        line.push_str(if r.optimal {
            ", optimal)"
        } else {
            ", not proven optimal)"
        });
        // The path replays from the start (it was checked when made); a
        // solution without one shows its two ends.
        let boards = r
            .path
            .as_deref()
            .filter(|_| r.solvable)
            .and_then(|p| parse_path(p).ok())
            .and_then(|dirs| self.start.trajectory(&dirs).ok());
        let strip = match (&boards, &r.path) {
            (Some(b), Some(p)) => crate::svg::strip(b, p),
            _ => {
                let ends = crate::svg::figure(&self.start, "start")
                    + &crate::svg::figure(&self.goal, "goal");
                crate::svg::row(&ends)
            }
        };
        format!(
            r#"<div><p style="font:13px sans-serif">{}</p>{strip}</div>"#,
            crate::svg::escape(&line)
        )
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
