//! `npuzzle.trace` and `npuzzle.Trace`: a search watched as it works.
//!
//! The library's summary and events reach Python through their JSON form
//! (as `Solution.to_dict` does), so that a field the library adds shows up
//! here (as an attribute, in `summary()`, in `events`) with no change.

use crate::args::{budget_arg, default_budget, problem, Choices, Notes};
use crate::errors::search_error;
use crate::pyboard::PyBoard;
use crate::run;
use crate::svg::{escape, figure, row};
use npuzzle::{Board, SearchError, Trace};
use pyo3::exceptions::{PyAttributeError, PyImportError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Summary fields the library leaves out when empty, and what an
/// attribute gives then: these as an empty list…
const LISTS: [&str; 5] = [
    "layers",
    "forward_layers",
    "backward_layers",
    "expanded_by_f",
    "iterations",
];
/// …and these as `None`.
const OPTIONS: [&str; 5] = ["heuristic", "path", "meet", "memory", "max_open"];

/// The events' keys in the order a table shows them; keys the library
/// adds come after these.
const EVENT_COLUMNS: [&str; 18] = [
    "event", "side", "g", "h", "via", "fate", "open", "closed", "goal", "tiles", "depth", "states",
    "complete", "bound", "expanded", "next", "forward", "backward",
];

/// Most rows the per-depth table of `_repr_html_` shows.
const TABLE_MAX: usize = 100;

/// What a traced search did: its summary as attributes and `summary()`,
/// its events (at most `max_events`) as `events` and `events_frame()`.
#[pyclass(module = "npuzzle", name = "Trace", frozen)]
pub struct PyTrace {
    start: Board,
    goal: Board,
    trace: Trace,
    /// The summary as JSON, read afresh for each caller (it is small), so
    /// that no caller's change to a list shows in another's.
    summary: String,
    events: PyOnceLock<Py<PyList>>,
}

/// Python's `json.loads(text)`.
fn from_json<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

fn json_error(e: serde_json::Error) -> PyErr {
    PyRuntimeError::new_err(e.to_string())
}

impl PyTrace {
    fn summary_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        Ok(from_json(py, &self.summary)?.cast_into::<PyDict>()?)
    }

    fn events_list<'py>(&self, py: Python<'py>) -> PyResult<&Bound<'py, PyList>> {
        let list = self.events.get_or_try_init(py, || -> PyResult<_> {
            let list = from_json(
                py,
                &serde_json::to_string(&self.trace.events).map_err(json_error)?,
            )?;
            Ok(list.cast_into::<PyList>()?.unbind())
        })?;
        Ok(list.bind(py))
    }

    /// The events' keys: [`EVENT_COLUMNS`] that occur, then any others
    /// in the order they first occur.
    fn columns<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyString>>> {
        let mut seen: Vec<String> = Vec::new();
        for event in self.events_list(py)?.iter() {
            for key in event.cast::<PyDict>()?.keys() {
                let key: String = key.extract()?;
                if !seen.contains(&key) {
                    seen.push(key);
                }
            }
        }
        let known = EVENT_COLUMNS
            .iter()
            .filter(|k| seen.iter().any(|s| s == *k));
        let extra = seen.iter().filter(|s| !EVENT_COLUMNS.contains(&s.as_str()));
        Ok(known
            .map(|k| PyString::new(py, k))
            .chain(extra.map(|k| PyString::new(py, k)))
            .collect())
    }
}

#[pymethods]
impl PyTrace {
    /// The board the search started from.
    #[getter]
    fn start(&self) -> PyBoard {
        self.start.clone().into()
    }

    /// The board it looked for.
    #[getter]
    fn goal(&self) -> PyBoard {
        self.goal.clone().into()
    }

    /// The events recorded, in order, one dict each (`{"event":
    /// "expanded", "tiles": [...], "g": 0, ...}`): the first
    /// `max_events` the search told.
    #[getter]
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.events_list(py).cloned()
    }

    /// The summary as a dict: the keys of `npuzzle trace --json`.
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.summary_dict(py)
    }

    /// The events as a pandas DataFrame, one row an event, one column a
    /// key (`event`, `g`, `h`, `via`, `fate`, …; missing keys are NaN).
    fn events_frame<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let pandas = py.import("pandas").map_err(|e| {
            let err = PyImportError::new_err(
                "Trace.events_frame() needs pandas (pip install pandas); \
                 Trace.events has the same events as dicts",
            );
            err.set_cause(py, Some(e));
            err
        })?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("columns", self.columns(py)?)?;
        pandas.call_method("DataFrame", (self.events_list(py)?,), Some(&kwargs))
    }

    /// The summary's fields as attributes (`algorithm`, `moves`, `layers`,
    /// `iterations`, …; those the search has none of are `[]` or `None`).
    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        if let Some(value) = self.summary_dict(py)?.get_item(name)? {
            return Ok(value);
        }
        if LISTS.contains(&name) {
            return Ok(PyList::empty(py).into_any());
        }
        if OPTIONS.contains(&name) {
            return Ok(py.None().into_bound(py));
        }
        Err(PyAttributeError::new_err(format!(
            "'Trace' object has no attribute '{name}'"
        )))
    }

    fn __dir__<'py>(slf: &Bound<'py, Self>) -> PyResult<Vec<String>> {
        let py = slf.py();
        let mut names: Vec<String> = py.get_type::<PyTrace>().dir()?.extract()?;
        names.extend(
            slf.get()
                .summary_dict(py)?
                .keys()
                .extract::<Vec<String>>()?,
        );
        names.extend(LISTS.iter().chain(&OPTIONS).map(ToString::to_string));
        names.sort();
        names.dedup();
        Ok(names)
    }

    fn __repr__(&self) -> String {
        let t = &self.trace;
        let heuristic = t.heuristic.map_or("None".to_string(), |h| format!("'{h}'"));
        let moves = t.moves.map_or("None".to_string(), |m| m.to_string());
        format!(
            "Trace(algorithm='{}', heuristic={heuristic}, moves={moves}, expanded={}, \
             generated={}, events={}, events_dropped={})",
            t.algorithm,
            t.expanded,
            t.generated,
            t.events.len(),
            t.events_dropped
        )
    }

    /// For Jupyter: the totals, the start and goal boards, and the
    /// per-depth summary as a table.
    fn _repr_html_(&self) -> String {
        let boards = figure(&self.start, "start") + &figure(&self.goal, "goal");
        let table = depth_table(&self.trace).unwrap_or_default();
        format!(
            r#"<div><p style="font:13px sans-serif">{}</p>{}{table}</div>"#,
            escape(&headline(&self.trace)),
            row(&boards)
        )
    }
}

/// One line of what the search did.
fn headline(t: &Trace) -> String {
    let mut s = t.algorithm.to_string();
    if let Some(h) = t.heuristic {
        let _ = write!(s, " ({h})");
    }
    match t.moves {
        Some(m) => {
            let _ = write!(s, ": {m} moves");
        }
        None => s.push_str(": the goal cannot be reached"),
    }
    let _ = write!(s, ", {} expanded, {} generated", t.expanded, t.generated);
    if let Some(b) = t.branching_factor {
        let _ = write!(s, ", b* = {b:.3}");
    }
    let _ = write!(
        s,
        "; {} events kept, {} dropped",
        t.events.len(),
        t.events_dropped
    );
    s
}

/// The per-depth summary as an HTML table: BFS's layers (both sides' for
/// bidirectional BFS), IDA*'s iterations or A*'s expansions by `f`.
fn depth_table(t: &Trace) -> Option<String> {
    let numbered = |v: &[u64]| -> Vec<Vec<u64>> {
        v.iter()
            .enumerate()
            .map(|(d, &n)| vec![d as u64, n])
            .collect()
    };
    let (header, rows): (&[&str], Vec<Vec<u64>>) = if !t.forward_layers.is_empty() {
        let depth = t.forward_layers.len().max(t.backward_layers.len());
        let side = |v: &[u64], d: usize| v.get(d).copied().unwrap_or(0);
        let rows = (0..depth)
            .map(|d| {
                let (f, b) = (side(&t.forward_layers, d), side(&t.backward_layers, d));
                vec![d as u64, f, b]
            })
            .collect();
        (&["depth", "forward", "backward"], rows)
    } else if !t.layers.is_empty() {
        (&["depth", "states first reached"], numbered(&t.layers))
    } else if !t.iterations.is_empty() {
        let rows = t.iterations.iter();
        let rows = rows.map(|it| vec![u64::from(it.bound), it.expanded]);
        (&["bound", "expanded"], rows.collect())
    } else if !t.expanded_by_f.is_empty() {
        let rows = t.expanded_by_f.iter().map(|&(f, n)| vec![u64::from(f), n]);
        (&["f = g + h", "expanded"], rows.collect())
    } else {
        return None;
    };
    Some(html_table(header, &rows))
}

fn html_table(header: &[&str], rows: &[Vec<u64>]) -> String {
    let cell = "padding:1px 8px;text-align:right";
    let mut s = String::from(r#"<table style="font:12px monospace;border-collapse:collapse"><tr>"#);
    for h in header {
        let _ = write!(s, r#"<th style="{cell}">{}</th>"#, escape(h));
    }
    s.push_str("</tr>");
    for r in rows.iter().take(TABLE_MAX) {
        s.push_str("<tr>");
        for v in r {
            let _ = write!(s, r#"<td style="{cell}">{v}</td>"#);
        }
        s.push_str("</tr>");
    }
    if rows.len() > TABLE_MAX {
        let _ = write!(
            s,
            r#"<tr><td colspan="{}" style="{cell}">… {} more</td></tr>"#,
            header.len(),
            rows.len() - TABLE_MAX
        );
    }
    s.push_str("</table>");
    s
}

/// Runs one search watched: BFS's layers, A*'s expansions by `f`, IDA*'s
/// iterations, and at most `max_events` of its events. See the stubs for
/// every keyword.
#[pyfunction]
#[pyo3(signature = (
    start, goal=None, *, algorithm="astar", heuristic="auto", max_events=10_000, budget=None,
    shape=None, weight=1.5, partition="auto", also_partitions=Vec::new(), pdb_dir=None
))]
#[allow(clippy::too_many_arguments)]
pub fn trace(
    py: Python<'_>,
    start: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    algorithm: &str,
    heuristic: &str,
    max_events: usize,
    budget: Option<&Bound<'_, PyAny>>,
    shape: Option<&Bound<'_, PyAny>>,
    weight: f64,
    partition: &str,
    also_partitions: Vec<String>,
    pdb_dir: Option<PathBuf>,
) -> PyResult<PyTrace> {
    let problem = problem(start, goal, shape)?;
    let notes = Notes::default();
    let choices = Choices {
        algorithm,
        heuristic,
        partition,
        also: also_partitions,
        pdb_dir,
        threads: 1,
        weight,
        optimal: false,
        metric: "stm",
    };
    let opts = choices.options(budget_arg(budget, default_budget())?, &notes)?;
    // Keeping events can be slow on any board: always interruptible.
    let result = run::search(py, &problem, opts, false, |p, o| {
        npuzzle::trace(p, o, max_events)
    })?;
    notes.warn(py)?;
    let trace = result.map_err(|e| match e {
        // Say who chose the search that cannot be watched.
        SearchError::NotObservable { .. } if algorithm == "auto" => PyValueError::new_err(format!(
            "{e} (algorithm='auto' chose it for this board; trace's default is 'astar')"
        )),
        _ => search_error(py, &e, ""),
    })?;
    Ok(PyTrace {
        start: problem.start().clone(),
        goal: problem.goal().clone(),
        summary: serde_json::to_string(&trace).map_err(json_error)?,
        trace,
        events: PyOnceLock::new(),
    })
}
