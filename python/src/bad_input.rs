//! The Python exceptions for bad arguments, below every module that reads
//! them.

use npuzzle::{BoardError, InputError};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

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
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "object".to_string(), |n| n.to_string())
}
