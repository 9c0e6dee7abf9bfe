//! The library's errors as Python exceptions, by kind: bad input is a
//! `ValueError`, a spent budget `BudgetExceeded` (a `RuntimeError`), the
//! machine failing an `OSError`, a cancelled search `KeyboardInterrupt`
//! (only Ctrl-C cancels one here).

use crate::solution::PyStats;
use npuzzle::{ErrorKind, Limit, SearchError};
use pyo3::exceptions::{PyKeyboardInterrupt, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

pyo3::create_exception!(
    npuzzle,
    BudgetExceeded,
    PyRuntimeError,
    "A search stopped because one of its budgets ran out (or plainly would).\n\n\
     `limit` says which: 'states', 'nodes', 'time' or 'memory'; `stats` what\n\
     the search cost until it stopped (None if none ran)."
);

/// The key of `budget=` that raises `limit`.
fn budget_key(limit: Limit) -> &'static str {
    match limit {
        Limit::States => "max_states",
        Limit::Nodes => "max_nodes",
        Limit::Time => "timeout",
        Limit::Memory => "max_memory",
    }
}

fn limit_name(limit: Limit) -> &'static str {
    match limit {
        Limit::States => "states",
        Limit::Nodes => "nodes",
        Limit::Time => "time",
        Limit::Memory => "memory",
    }
}

/// The Python exception for `e`; `prefix` (such as `starts[12]: `) goes
/// before the library's message.
pub fn search_error(py: Python<'_>, e: &SearchError, prefix: &str) -> PyErr {
    let msg = format!("{prefix}{e}");
    match e.kind() {
        ErrorKind::BadInput => PyValueError::new_err(msg),
        ErrorKind::Environment => PyOSError::new_err(msg),
        ErrorKind::Cancelled => PyKeyboardInterrupt::new_err(msg),
        ErrorKind::Budget => {
            // As the command line does, say what raises the budget.
            let msg = match e.limit() {
                Some(l) => format!("{msg} (raise it with budget={{'{}': …}})", budget_key(l)),
                None => msg,
            };
            let err = BudgetExceeded::new_err(msg);
            let value = err.value(py);
            let limit = e.limit().map(limit_name);
            let stats = e.stats().map(|s| PyStats::from(*s));
            // Setting attributes on a fresh exception cannot fail short of
            // memory; the exception is raised all the same.
            let _ = value.setattr("limit", limit);
            let _ = value.setattr("stats", stats);
            err
        }
    }
}
