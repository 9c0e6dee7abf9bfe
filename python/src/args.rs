//! Python arguments turned into the library's types: boards (as text,
//! see `tiles`), problems, shapes, goals, budgets and option names.

use crate::bad_input::{input_error, type_name, value_error};
use crate::tiles::{board_text, is_list_or_tuple, is_text, unpadded_input};
use npuzzle::pdb::{PartitionSpec, PdbOptions, PdbReporter, SharedReporter};
use npuzzle::HeuristicKind;
use npuzzle::{printable, GoalSpec, InputError, Shape};
use npuzzle::{Algorithm, Budget, Problem, SolveOptions};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString};
use std::ffi::CString;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// `shape=`: `(rows, cols)`, `"RxC"`, or `n` for n×n.
pub fn shape_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Shape>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let bad_type = || {
        PyTypeError::new_err(format!(
            "shape must be (rows, cols), a string such as '2x4', or an int, not {}",
            type_name(obj)
        ))
    };
    if let Ok(s) = obj.cast::<PyString>() {
        return s.to_str()?.parse::<Shape>().map(Some).map_err(value_error);
    }
    let (rows, cols) = if is_int(obj) {
        (obj.clone(), obj.clone())
    } else if is_list_or_tuple(obj) {
        let sides = obj.try_iter()?.collect::<PyResult<Vec<_>>>()?;
        let [rows, cols] = &sides[..] else {
            return Err(PyValueError::new_err(format!(
                "shape must be (rows, cols), not {}",
                obj.repr()?
            )));
        };
        if let Some(bad) = [rows, cols].into_iter().find(|s| !is_int(s)) {
            return Err(PyTypeError::new_err(format!(
                "shape (rows, cols) must hold ints, not {}",
                type_name(bad)
            )));
        }
        (rows.clone(), cols.clone())
    } else {
        return Err(bad_type());
    };
    // Negative or huge sides are no size either: a ValueError naming them.
    let (Ok(r), Ok(c)) = (rows.extract::<usize>(), cols.extract::<usize>()) else {
        return Err(PyValueError::new_err(format!(
            "shape={} is no board size: each side must be from {} to {}",
            obj.repr()?,
            npuzzle::Board::MIN_SIDE,
            npuzzle::Board::MAX_SIDE
        )));
    };
    npuzzle::Board::check_shape(r, c).map_err(value_error)?;
    Ok(Some(Shape::new(r, c)))
}

/// Whether `obj` is an int (or has `__index__`, as NumPy's do), not a
/// bool, whose sides would be 0 or 1 by accident.
fn is_int(obj: &Bound<'_, PyAny>) -> bool {
    !obj.is_instance_of::<PyBool>()
        && (obj.is_instance_of::<PyInt>() || obj.hasattr("__index__").unwrap_or(false))
}

/// `goal=`: `None` (blank-last, unless the start's text holds a goal), a
/// goal name (`blank-last`, `blank-first`, `spiral`), or a board.
pub fn goal_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<GoalSpec>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    if let Ok(s) = obj.cast::<PyString>() {
        return s
            .to_str()?
            .parse::<GoalSpec>()
            .map(Some)
            .map_err(|e| value_error(InputError::goal(e)));
    }
    Ok(Some(GoalSpec::Board(board_text(obj, "goal board")?)))
}

/// The goal `goal=` gives (default blank-last) for boards of `shape`.
pub fn goal_board(goal: Option<&Bound<'_, PyAny>>, shape: Shape) -> PyResult<npuzzle::Board> {
    let goal_tiles = goal.is_some_and(|g| !is_text(g));
    goal_arg(goal)?
        .unwrap_or_default()
        .resolve(shape, &mut npuzzle::Scan::new())
        .map_err(|e| input_error(&unpadded_input(e, false, goal_tiles)))
}

/// The problem of `start` and `goal`, as the command line reads it.
pub fn problem(
    start: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    shape: Option<&Bound<'_, PyAny>>,
) -> PyResult<Problem> {
    let text = board_text(start, "start board")?;
    let goal_tiles = goal.is_some_and(|g| !is_text(g));
    let goal = goal_arg(goal)?;
    let shape = shape_arg(shape)?;
    npuzzle_io::input::problem_from_text(&text, goal.as_ref(), shape)
        .map_err(|e| input_error(&unpadded_input(e, !is_text(start), goal_tiles)))
}

/// The keys `budget=` takes.
const BUDGET_KEYS: &str = "timeout, max_nodes, max_states, max_memory";

/// `budget=`: a dict of limits over `base`. `None` leaves `base`.
pub fn budget_arg(obj: Option<&Bound<'_, PyAny>>, base: Budget) -> PyResult<Budget> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(base);
    };
    let Ok(dict) = obj.cast::<PyDict>() else {
        return Err(PyTypeError::new_err(format!(
            "budget must be a dict such as {{'timeout': 2.0, 'max_nodes': 10**7}}, not {}",
            type_name(obj)
        )));
    };
    let mut budget = base;
    for (key, value) in dict.iter() {
        let Ok(key) = key.extract::<String>() else {
            return Err(PyTypeError::new_err(format!(
                "budget keys are strings ({BUDGET_KEYS}), not {}",
                type_name(&key)
            )));
        };
        let name = format!("budget['{}']", printable(&key));
        let positive_int = |v: &Bound<'_, PyAny>| -> PyResult<u64> {
            if v.is_instance_of::<PyBool>() || !v.is_instance_of::<PyInt>() {
                return Err(PyTypeError::new_err(format!(
                    "{name} must be an int, not {}",
                    type_name(v)
                )));
            }
            match v.extract::<u64>() {
                Ok(n) if n > 0 => Ok(n),
                // Beyond u64: as good as no limit.
                Err(_) if v.gt(0)? => Ok(u64::MAX),
                _ => Err(PyValueError::new_err(format!(
                    "{name} must be a positive int, not {}",
                    v.repr()?
                ))),
            }
        };
        budget = match key.as_str() {
            "timeout" => budget.with_timeout(timeout(&value, &name)?),
            "max_nodes" => budget.with_max_nodes(positive_int(&value)?),
            "max_states" => budget.with_max_states(positive_int(&value)?),
            "max_memory" => {
                let bytes = if let Ok(s) = value.cast::<PyString>() {
                    npuzzle::Bytes::parse(s.to_str()?)
                        .map_err(|e| PyValueError::new_err(format!("{name}: {e}")))?
                } else {
                    positive_int(&value)?
                };
                budget.with_max_bytes(bytes)
            }
            _ => {
                return Err(PyValueError::new_err(format!(
                    "budget has no key '{}'; its keys are {BUDGET_KEYS}",
                    printable(&key)
                )))
            }
        };
    }
    Ok(budget)
}

fn timeout(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<Duration>> {
    if value.is_none() {
        return Ok(None);
    }
    if value.is_instance_of::<PyBool>()
        || !(value.is_instance_of::<PyFloat>() || value.is_instance_of::<PyInt>())
    {
        return Err(PyTypeError::new_err(format!(
            "{name} must be a number of seconds, not {}",
            type_name(value)
        )));
    }
    let secs: f64 = value.extract()?;
    Budget::seconds(secs)
        .map(Some)
        .map_err(|e| PyValueError::new_err(format!("{name} {e}")))
}

/// How long the default memory budget is reused before the system is asked
/// again: asking reads three files, some tens of microseconds, more than a
/// whole 3×3 answer takes, while what is available changes slowly.
const MEMORY_REFRESH: Duration = Duration::from_secs(1);

/// The library's default budget ([`Budget::default`]), its memory share
/// reread from the system at most once every [`MEMORY_REFRESH`].
pub fn default_budget() -> Budget {
    static MEMORY: Mutex<Option<(Instant, u64)>> = Mutex::new(None);
    let mut cached = MEMORY.lock().unwrap_or_else(PoisonError::into_inner);
    let bytes = match *cached {
        Some((at, bytes)) if at.elapsed() < MEMORY_REFRESH => bytes,
        _ => {
            let bytes = npuzzle::Budget::default().max_bytes;
            *cached = Some((Instant::now(), bytes));
            bytes
        }
    };
    Budget::unlimited()
        .with_max_states(Budget::DEFAULT_MAX_STATES)
        .with_max_nodes(Budget::DEFAULT_MAX_NODES)
        .with_max_bytes(bytes)
}

/// `SolveOptions::default()` without its budget's reading of the system
/// (every caller here replaces the budget).
fn default_options() -> SolveOptions {
    static TEMPLATE: OnceLock<SolveOptions> = OnceLock::new();
    TEMPLATE.get_or_init(SolveOptions::default).clone()
}

/// What every searching function takes besides the boards.
pub struct Choices<'a> {
    pub algorithm: &'a str,
    pub heuristic: &'a str,
    pub partition: &'a str,
    /// Partitions maxed with the first (`--pdb-also`).
    pub also: Vec<String>,
    pub pdb_dir: Option<PathBuf>,
    pub threads: usize,
    pub weight: f64,
    pub optimal: bool,
    /// `stm` or `mtm`.
    pub metric: &'a str,
}

impl Choices<'_> {
    /// The library's options, with `budget` and notes about pattern
    /// databases going to `notes`.
    pub fn options(&self, budget: Budget, notes: &Notes) -> PyResult<SolveOptions> {
        let algorithm: Algorithm = self.algorithm.parse().map_err(PyValueError::new_err)?;
        let heuristic: HeuristicKind = self.heuristic.parse().map_err(PyValueError::new_err)?;
        let metric: npuzzle::Metric = self.metric.parse().map_err(value_error)?;
        let partition: PartitionSpec = self.partition.parse().map_err(value_error)?;
        let also = self
            .also
            .iter()
            .map(|p| p.parse::<PartitionSpec>().map_err(value_error))
            .collect::<PyResult<Vec<_>>>()?;
        if !(self.weight.is_finite() && (1.0..=100.0).contains(&self.weight)) {
            return Err(PyValueError::new_err(format!(
                "weight must be a number from 1 to 100, not {}",
                self.weight
            )));
        }
        Ok(default_options()
            .with_algorithm(algorithm)
            .with_heuristic(heuristic)
            .with_budget(budget)
            .with_pdb(
                PdbOptions::default()
                    .with_partition(partition)
                    .with_also(also)
                    .with_dir(self.pdb_dir.clone())
                    .with_reporter(Some(notes.reporter())),
            )
            .with_threads(self.threads)
            .with_weight(self.weight)
            .with_optimal(self.optimal)
            .with_metric(metric))
    }
}

/// Notices from pattern-database loading (a damaged cache file rebuilt, a
/// cache that cannot be written), collected on the worker thread and
/// issued as Python warnings afterwards.
#[derive(Clone, Default)]
pub struct Notes(Arc<Mutex<Vec<String>>>);

struct Collector(Notes);

impl PdbReporter for Collector {
    fn note(&self, msg: &str) {
        (self.0)
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(msg.to_string());
    }
}

impl Notes {
    fn reporter(&self) -> SharedReporter {
        SharedReporter(Arc::new(Collector(self.clone())))
    }

    /// Issues every note as a `RuntimeWarning`.
    pub fn warn(&self, py: Python<'_>) -> PyResult<()> {
        let notes = std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner));
        let category = py.get_type::<pyo3::exceptions::PyRuntimeWarning>();
        for note in notes {
            let msg = CString::new(note.replace('\0', " ")).unwrap_or_default();
            PyErr::warn(py, &category, &msg, 1)?;
        }
        Ok(())
    }
}
