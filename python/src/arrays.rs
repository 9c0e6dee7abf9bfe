//! NumPy arrays of boards in, an array of move counts out.
//!
//! The arrays are copied into plain byte buffers (one tile a byte) while
//! the GIL is held: with it released, other Python threads could write to
//! the arrays while the answers are being computed.

use npuzzle::{BoardError, Cell, GoalSpec, InputError, Role, Scan, Shape};
use numpy::ndarray::ArrayViewD;
use numpy::{
    Element, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

/// Boards of one shape, one after another, a tile a byte.
pub struct Boards {
    pub tiles: Vec<u8>,
    /// Number of boards.
    pub count: usize,
}

/// `obj` as a NumPy array of integers.
fn int_array<'py>(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Bound<'py, PyUntypedArray>> {
    let np = obj.py().import("numpy")?;
    let arr = np.call_method1("asarray", (obj,))?;
    let arr = arr
        .cast_into::<PyUntypedArray>()
        .map_err(|_| PyTypeError::new_err(format!("{name} must be an array of tiles")))?;
    let dtype = arr.dtype();
    let kind = dtype.kind();
    if kind != b'i' && kind != b'u' {
        return Err(PyTypeError::new_err(format!(
            "{name} must hold integers, not {}",
            dtype.str()?
        )));
    }
    // Integers in the other byte order (`'>i4'` here) are no Rust integer
    // type: a copy in this machine's order is (as any copy, made while the
    // GIL is held).
    if dtype.is_native_byteorder() == Some(false) {
        let native = dtype.call_method1("newbyteorder", ("=",))?;
        return arr
            .call_method1("astype", (native,))?
            .cast_into::<PyUntypedArray>()
            .map_err(|_| PyTypeError::new_err(format!("{name} must be an array of tiles")));
    }
    Ok(arr)
}

/// The shape of boards of `cells` cells: `shape` if given (it must have
/// that many cells), else the square.
fn board_shape(cells: usize, shape: Option<Shape>, name: &str) -> PyResult<Shape> {
    if let Some(s) = shape {
        if s.cells() != cells {
            return Err(PyValueError::new_err(format!(
                "{name} rows have {cells} tiles, but a {s} board has {} cells",
                s.cells()
            )));
        }
        return Ok(s);
    }
    let side = (1..=16).find(|s| s * s >= cells).unwrap_or(17);
    if side * side != cells || side < 2 {
        return Err(PyValueError::new_err(format!(
            "cannot infer the board size from {cells} tiles per row (not the square of 2 to 16); \
             pass shape=(rows, cols), e.g. shape=(2, 4)"
        )));
    }
    Ok(Shape::new(side, side))
}

/// The starts: a 2-D array of shape (N, cells), and the boards' shape.
pub fn starts(obj: &Bound<'_, PyAny>, shape: Option<Shape>) -> PyResult<(Boards, Shape)> {
    let arr = int_array(obj, "starts")?;
    let dims = arr.shape().to_vec();
    if dims.len() != 2 {
        return Err(PyValueError::new_err(format!(
            "starts must be a 2-D array of shape (N, cells), one board a row, not of shape {dims:?}"
        )));
    }
    let shape = board_shape(dims[1], shape, "starts")?;
    let boards = tiles(&arr, shape, Role::Start)?;
    Ok((boards, shape))
}

/// The goals: `None` (blank-last), a goal name, one board (a 1-D array, or
/// a 2-D array of one row) for every start, or one per start.
pub fn goals(obj: Option<&Bound<'_, PyAny>>, shape: Shape, starts: usize) -> PyResult<Boards> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return named_goal(&GoalSpec::BlankLast, shape);
    };
    if let Ok(s) = obj.cast::<PyString>() {
        let spec: GoalSpec = s
            .to_str()?
            .parse()
            .map_err(|e| PyValueError::new_err(InputError::goal(e).to_string()))?;
        return named_goal(&spec, shape);
    }
    let arr = int_array(obj, "goals")?;
    let dims = arr.shape().to_vec();
    let cells = match dims[..] {
        [c] | [_, c] => c,
        _ => 0,
    };
    if cells != shape.cells() || dims.len() > 2 {
        return Err(PyValueError::new_err(format!(
            "goals must be one goal of shape ({c},) or one per start, of shape (N, {c}), not of shape {dims:?}",
            c = shape.cells()
        )));
    }
    let boards = tiles(&arr, shape, Role::Goal)?;
    if boards.count != 1 && boards.count != starts {
        return Err(PyValueError::new_err(format!(
            "goals has {} rows but starts has {starts}; give one goal or one per start",
            boards.count
        )));
    }
    Ok(boards)
}

fn named_goal(spec: &GoalSpec, shape: Shape) -> PyResult<Boards> {
    let goal = spec
        .resolve(shape, &mut Scan::new())
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(Boards {
        tiles: goal.tiles().to_vec(),
        count: 1,
    })
}

/// The name of the array a role's boards come from.
pub fn array_name(role: Role) -> &'static str {
    match role {
        Role::Start => "starts",
        Role::Goal => "goals",
    }
}

/// Copies an integer array into bytes, checking that every value is a
/// tile of `shape`; the first board holding one that is not is reported,
/// unless a board before it is bad in another way (reported first, as the
/// library would).
fn tiles(arr: &Bound<'_, PyUntypedArray>, shape: Shape, role: Role) -> PyResult<Boards> {
    let count = arr.shape().iter().rev().skip(1).product::<usize>();
    // Bytes need no conversion: the library checks them, and names any
    // bad board.
    if let Ok(a) = arr.cast::<PyArrayDyn<u8>>() {
        let ro = a.readonly();
        let view = ro.as_array();
        let tiles = match view.as_slice() {
            Some(s) => s.to_vec(),
            None => view.iter().copied().collect(),
        };
        return Ok(Boards { tiles, count });
    }
    macro_rules! by_dtype {
        ($($t:ty),*) => {
            $(
                if let Ok(a) = arr.cast::<PyArrayDyn<$t>>() {
                    let ro = a.readonly();
                    let tiles = narrow(ro.as_array(), shape, role)?;
                    return Ok(Boards { tiles, count });
                }
            )*
        };
    }
    by_dtype!(i64, i32, u16, i16, i8, u32, u64);
    Err(PyTypeError::new_err(format!(
        "{} must hold integers, not {}",
        array_name(role),
        arr.dtype().str()?
    )))
}

/// Wider integers as bytes. A number that fits no byte is reported here;
/// the library checks the rest, so that a board gets the same message
/// whatever the dtype.
fn narrow<T: Element + Copy + Into<i128>>(
    view: ArrayViewD<'_, T>,
    shape: Shape,
    role: Role,
) -> PyResult<Vec<u8>> {
    let cells = shape.cells();
    let mut tiles = Vec::with_capacity(view.len());
    for (i, &v) in view.iter().enumerate() {
        let v: i128 = v.into();
        if !(0..=255).contains(&v) {
            let row = i / cells;
            // A board before this one may be bad in another way, and the
            // first bad board is the one to report.
            npuzzle_io::batch::arrays::check_boards(shape, &tiles[..row * cells], role)
                .map_err(|e| Python::attach(|py| array_error(py, &e)))?;
            let error = BoardError::OutOfRange {
                value: v.to_string(),
                rows: shape.rows,
                cols: shape.cols,
                cell: Cell::new(i % cells, shape.cols),
            };
            return Err(PyValueError::new_err(format!(
                "{}[{row}]: {error}",
                array_name(role)
            )));
        }
        tiles.push(v as u8);
    }
    Ok(tiles)
}

/// A `ValueError` (or the error of its kind) for the library's array error.
pub fn array_error(py: Python<'_>, e: &npuzzle_io::batch::arrays::ArrayError) -> PyErr {
    use npuzzle_io::batch::arrays::ArrayError;
    match e {
        ArrayError::Board { role, index, error } => {
            PyValueError::new_err(format!("{}[{index}]: {error}", array_name(*role)))
        }
        ArrayError::Search { index, error } => {
            crate::errors::search_error(py, error, &format!("starts[{index}]: "))
        }
        ArrayError::Options(error) => crate::errors::search_error(py, error, ""),
        other => PyValueError::new_err(other.to_string()),
    }
}
