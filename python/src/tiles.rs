//! Boards given as Python values (text in any format the command line
//! reads, a `Board`, a flat or nested sequence, a NumPy array) as text the
//! library reads.
//!
//! Sequences are written out as board text and read by the library's own
//! reader, so that a bad board gets exactly the command line's message
//! ("start board: tile 8 appears twice (…)"). Text of a few numbers of
//! two digits or more can read as digit strings (`"49 50 48 51"` as the
//! digits 4, 9, 5, 0, …), which ints never are: such numbers are written
//! with leading zeros, and errors quote them without ([`unpadded`]).

use crate::bad_input::{board_error, input_error, type_name};
use crate::pyboard::PyBoard;
use npuzzle::{BoardError, InputError, Role};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyBytes, PyDict, PyFloat, PyFrozenSet, PyInt, PyList, PySet, PyString, PyTuple,
};
use std::fmt::Write as _;

/// Whether `obj` is a board given as text (whose numbers messages quote
/// as written), not tiles.
pub fn is_text(obj: &Bound<'_, PyAny>) -> bool {
    obj.is_instance_of::<PyString>()
}

/// The most digits the library reads as a digit string (`283164705`).
const DIGIT_STRING_MAX: usize = 10;

/// Board text being written from tiles.
#[derive(Default)]
struct Written {
    text: String,
    tiles: usize,
    /// Whether a number has two digits or more.
    multi_digit: bool,
    /// Whether a number is negative (no tile: the library names it, and no
    /// text holding one is read as digit strings).
    negative: bool,
}

impl Written {
    /// The text, each number written with more digits than any digit
    /// string has if the text could otherwise be read as digit strings.
    fn finish(self) -> String {
        if self.tiles > DIGIT_STRING_MAX || !self.multi_digit || self.negative {
            return self.text;
        }
        let width = DIGIT_STRING_MAX + 1;
        let mut out = String::with_capacity(self.text.len() + width * self.tiles);
        let mut digits = String::new();
        for c in self.text.chars().chain([' ']) {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            if !digits.is_empty() {
                let _ = write!(out, "{digits:0>width$}");
                digits.clear();
            }
            out.push(c);
        }
        out.pop();
        out
    }
}

/// `e` with any number quoted as a board of tiles gave it: without the
/// leading zeros [`Written::finish`] may have added.
pub fn unpadded(e: BoardError) -> BoardError {
    match e {
        BoardError::OutOfRange {
            value,
            rows,
            cols,
            cell,
        } => {
            let trimmed = value.trim_start_matches('0');
            BoardError::OutOfRange {
                value: if trimmed.is_empty() { "0" } else { trimmed }.to_string(),
                rows,
                cols,
                cell,
            }
        }
        other => other,
    }
}

/// [`unpadded`] for the errors about a problem's boards given as tiles
/// (`start_tiles`, `goal_tiles`: not as text).
pub fn unpadded_input(e: InputError, start_tiles: bool, goal_tiles: bool) -> InputError {
    match e {
        InputError::Board { role, error }
            if matches!(role, Role::Start) && start_tiles
                || matches!(role, Role::Goal) && goal_tiles =>
        {
            InputError::Board {
                role,
                error: unpadded(error),
            }
        }
        other => other,
    }
}

/// The prefix of messages about the board `what` names (`start board: `;
/// none for a lone `board`).
fn prefixed(what: &str, error: BoardError) -> PyErr {
    match role_of(what) {
        Some(role) => input_error(&InputError::Board { role, error }),
        None => board_error(&error, &error),
    }
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
    let mut out = Written::default();
    let mut first_row_len = None;
    for (i, item) in items.enumerate() {
        let item = item?;
        if is_sequence(&item) {
            // A row: its tiles, then `/`.
            let mut len = 0;
            for (j, t) in item.try_iter()?.enumerate() {
                let t = t?;
                push_tile(&mut out, &t, what, || {
                    format!("row {}, item {}", i + 1, j + 1)
                })?;
                len += 1;
            }
            if len == 0 && first_row_len.is_none() {
                // An empty row would vanish from the text, and row 1 has
                // no length to compare with; say so here.
                let prefix = role_of(what).map_or(String::new(), |r| format!("{r} board: "));
                return Err(PyValueError::new_err(format!(
                    "{prefix}row {} is empty",
                    i + 1
                )));
            }
            let expected = *first_row_len.get_or_insert(len);
            if len != expected {
                let error = BoardError::RaggedRows {
                    row: i + 1,
                    len,
                    expected,
                };
                return Err(prefixed(what, error));
            }
            out.text.push('/');
        } else {
            if first_row_len.is_some() {
                return Err(PyTypeError::new_err(format!(
                    "{what}: item {} is a {}, but the items before it are rows",
                    i + 1,
                    type_name(&item)
                )));
            }
            push_tile(&mut out, &item, what, || format!("item {}", i + 1))?;
        }
    }
    Ok(out.finish())
}

/// Which board of a problem `what` names (none for a lone `board`).
fn role_of(what: &str) -> Option<Role> {
    match what {
        "start board" => Some(Role::Start),
        "goal board" => Some(Role::Goal),
        _ => None,
    }
}

pub fn is_list_or_tuple(obj: &Bound<'_, PyAny>) -> bool {
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
    out: &mut Written,
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
    let start = out.text.len();
    match t.extract::<i64>() {
        Ok(v) => {
            let _ = write!(out.text, "{v}");
        }
        // Too large for an i64: still a number, out of any board's range.
        Err(_) if t.is_instance_of::<PyInt>() => {
            let _ = write!(out.text, "{}", t.str()?.to_str()?);
        }
        Err(_) => return Err(not_a_tile()),
    }
    let written = &out.text[start..];
    out.negative |= written.starts_with('-');
    out.multi_digit |= written.trim_start_matches('-').len() >= 2;
    out.tiles += 1;
    out.text.push(' ');
    Ok(())
}
