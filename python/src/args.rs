//! Python arguments turned into the library's types: boards (text in any
//! format the command line reads, a `Board`, a flat or nested sequence, a
//! NumPy array), shapes, goals, budgets and option names.
//!
//! Sequences are written out as board text and read by the library's own
//! reader, so that a bad board gets exactly the command line's message
//! ("start board: tile 8 appears twice (…)").

use crate::board::PyBoard;
use npuzzle::board::{printable, BoardError, GoalSpec, InputError, Shape};
use npuzzle::heuristic::pdb::{PartitionSpec, PdbOptions, PdbReporter, SharedReporter};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::search::{Algorithm, Budget, Problem, SolveOptions};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyBytes, PyDict, PyFloat, PyFrozenSet, PyInt, PyList, PySet, PyString, PyTuple,
};
use std::ffi::CString;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// A `ValueError` with `e`'s message.
pub fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A `ValueError` for a board that cannot be read: the library's message,
/// with what to pass when the size cannot be told from the tiles (as the
/// command line names its `--size`).
pub fn board_error(e: impl std::fmt::Display, error: &BoardError) -> PyErr {
    match error {
        BoardError::CannotInferSize { .. } => {
            PyValueError::new_err(format!("{e} (pass shape=(rows, cols), e.g. shape=(2, 4))"))
        }
        _ => value_error(e),
    }
}

/// [`board_error`] for an error about a problem's boards.
pub fn input_error(e: &InputError) -> PyErr {
    match e {
        InputError::Board { error, .. } => board_error(e, error),
        _ => value_error(e),
    }
}

/// The name of `obj`'s type, for messages.
fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "object".to_string(), |n| n.to_string())
}

/// A board as text the library reads. `what` names the board in messages
/// (`start board`, `goal board`, `board`).
pub fn board_text(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(s.to_str()?.to_string());
    }
    if let Ok(b) = obj.cast::<PyBoard>() {
        return Ok(b.get().inner.to_row_string());
    }
    let not_a_board = || {
        PyTypeError::new_err(format!(
            "{what}: a board is a string, a Board, a sequence of tiles or a list of rows, not {}",
            type_name(obj)
        ))
    };
    // Unordered collections hold no board.
    if obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyDict>()
        || obj.is_instance_of::<PySet>()
        || obj.is_instance_of::<PyFrozenSet>()
    {
        return Err(not_a_board());
    }
    // NumPy arrays (and anything else that offers it) as nested lists.
    let list = if !is_list_or_tuple(obj) && obj.hasattr("tolist")? {
        obj.call_method0("tolist")?
    } else {
        obj.clone()
    };
    let Ok(items) = list.try_iter() else {
        return Err(not_a_board());
    };
    let mut text = String::new();
    let mut first_row_len = None;
    for (i, item) in items.enumerate() {
        let item = item?;
        if is_sequence(&item) {
            // A row: its tiles, then `/`.
            let mut len = 0;
            for (j, t) in item.try_iter()?.enumerate() {
                let t = t?;
                push_tile(&mut text, &t, what, || {
                    format!("row {}, item {}", i + 1, j + 1)
                })?;
                len += 1;
            }
            let expected = *first_row_len.get_or_insert(len);
            if len != expected || len == 0 {
                // An empty row would vanish from the text; say so here.
                return Err(value_error(InputError::Board {
                    role: role_of(what),
                    error: BoardError::RaggedRows {
                        row: i + 1,
                        len,
                        expected,
                    },
                }));
            }
            text.push('/');
        } else {
            if first_row_len.is_some() {
                return Err(PyTypeError::new_err(format!(
                    "{what}: item {} is a {}, but the items before it are rows",
                    i + 1,
                    type_name(&item)
                )));
            }
            push_tile(&mut text, &item, what, || format!("item {}", i + 1))?;
        }
    }
    Ok(text)
}

/// Which board of a problem `what` names.
fn role_of(what: &str) -> npuzzle::board::Role {
    if what.starts_with("goal") {
        npuzzle::board::Role::Goal
    } else {
        npuzzle::board::Role::Start
    }
}

fn is_list_or_tuple(obj: &Bound<'_, PyAny>) -> bool {
    obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>()
}

/// Whether an item of a board is a row (not a tile). Ints are answered
/// first: a failed `hasattr` costs an exception, a microsecond each.
fn is_sequence(obj: &Bound<'_, PyAny>) -> bool {
    if obj.is_instance_of::<PyInt>() {
        return false;
    }
    is_list_or_tuple(obj)
        || !obj.is_instance_of::<PyString>()
            && !obj.is_instance_of::<PyBytes>()
            && obj.hasattr("__len__").unwrap_or(false)
            && obj.hasattr("__iter__").unwrap_or(false)
}

/// Appends one tile (a Python int, or anything with `__index__`) and a
/// space. Numbers that are no tile are written as they are, for the
/// library to name.
fn push_tile(
    text: &mut String,
    t: &Bound<'_, PyAny>,
    what: &str,
    place: impl Fn() -> String,
) -> PyResult<()> {
    let not_a_tile = || {
        PyTypeError::new_err(format!(
            "{what}: {} is a {}, not a tile (an int)",
            place(),
            type_name(t)
        ))
    };
    if t.is_instance_of::<PyBool>() || t.is_instance_of::<PyFloat>() {
        return Err(not_a_tile());
    }
    match t.extract::<i64>() {
        Ok(v) => {
            let _ = write!(text, "{v} ");
        }
        // Too large for an i64: still a number, out of any board's range.
        Err(_) if t.is_instance_of::<PyInt>() => {
            let _ = write!(text, "{} ", t.str()?.to_str()?);
        }
        Err(_) => return Err(not_a_tile()),
    }
    Ok(())
}

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
    let shape = if let Ok(s) = obj.cast::<PyString>() {
        return s.to_str()?.parse::<Shape>().map(Some).map_err(value_error);
    } else if obj.is_instance_of::<PyBool>() {
        return Err(bad_type());
    } else if let Ok(n) = obj.extract::<usize>() {
        Shape::new(n, n)
    } else if let Ok((r, c)) = obj.extract::<(usize, usize)>() {
        Shape::new(r, c)
    } else {
        return Err(bad_type());
    };
    npuzzle::board::check_shape(shape.rows, shape.cols).map_err(value_error)?;
    Ok(Some(shape))
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

/// The problem of `start` and `goal`, as the command line reads it.
pub fn problem(
    start: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    shape: Option<&Bound<'_, PyAny>>,
) -> PyResult<Problem> {
    let text = board_text(start, "start board")?;
    let goal = goal_arg(goal)?;
    let shape = shape_arg(shape)?;
    npuzzle::input::problem_from_text(&text, goal.as_ref(), shape).map_err(|e| input_error(&e))
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
                    npuzzle::system::parse_bytes(s.to_str()?)
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
            let bytes = npuzzle::system::default_memory_budget();
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
}

impl Choices<'_> {
    /// The library's options, with `budget` and notes about pattern
    /// databases going to `notes`.
    pub fn options(&self, budget: Budget, notes: &Notes) -> PyResult<SolveOptions> {
        let algorithm: Algorithm = self.algorithm.parse().map_err(PyValueError::new_err)?;
        let heuristic: HeuristicKind = self.heuristic.parse().map_err(PyValueError::new_err)?;
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
            .with_optimal(self.optimal))
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
