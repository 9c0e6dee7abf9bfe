//! `npuzzle.Board`: an immutable board, parsed from any format the command
//! line reads.

use crate::args::{goal_board, shape_arg};
use crate::bad_input::{board_error, value_error};
use crate::pyboard::PyBoard;
use crate::tiles::{board_text, is_text, unpadded};
use npuzzle::Board;
use npuzzle::{parse_moves, GoalSpec, Metric, Notation, Scan, Shape};
use npuzzle_io::random::{Generator, Mode};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple, PyType};

/// Reads one board (no prefix on errors: there is no start or goal here).
fn parse(obj: &Bound<'_, PyAny>, shape: Option<&Bound<'_, PyAny>>) -> PyResult<Board> {
    if let Ok(b) = obj.cast::<PyBoard>() {
        return Ok(b.get().inner.clone());
    }
    let text = board_text(obj, "board")?;
    Scan::new()
        .board(&text, shape_arg(shape)?)
        .map_err(|e| if is_text(obj) { e } else { unpadded(e) })
        .map_err(|e| board_error(&e, &e))
}

#[pymethods]
impl PyBoard {
    #[new]
    #[pyo3(signature = (tiles, shape=None))]
    fn new(tiles: &Bound<'_, PyAny>, shape: Option<&Bound<'_, PyAny>>) -> PyResult<PyBoard> {
        parse(tiles, shape).map(PyBoard::from)
    }

    /// Reads a board from text in any format the command line reads.
    #[classmethod]
    #[pyo3(signature = (text, shape=None))]
    fn parse(
        _cls: &Bound<'_, PyType>,
        text: &Bound<'_, PyAny>,
        shape: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyBoard> {
        parse(text, shape).map(PyBoard::from)
    }

    /// The goal layout `name` on a `rows × cols` board: `blank-last`
    /// (`1 2 … 0`), `blank-first` (`0 1 2 …`, Korf's) or `spiral`.
    #[staticmethod]
    #[pyo3(signature = (rows, cols, name="blank-last"))]
    fn goal(rows: usize, cols: usize, name: &str) -> PyResult<PyBoard> {
        npuzzle::Board::check_shape(rows, cols).map_err(value_error)?;
        let spec: GoalSpec = name.parse().map_err(value_error)?;
        if matches!(spec, GoalSpec::Board(_)) {
            return Err(PyValueError::new_err(format!(
                "'{}' is not a goal name; use blank-last, blank-first or spiral",
                npuzzle::printable(name)
            )));
        }
        spec.resolve(Shape::new(rows, cols), &mut Scan::new())
            .map(PyBoard::from)
            .map_err(value_error)
    }

    /// A random board that can reach `goal` (default blank-last): uniform
    /// over all such boards, or, with `moves=k`, a walk of `k` random moves
    /// from the goal (never straight back), so at most `k` moves away. The
    /// same `seed` gives the same board on any machine, and the same board
    /// as `npuzzle random --seed` gives first.
    #[staticmethod]
    #[pyo3(signature = (rows, cols, seed=None, moves=None, goal=None))]
    fn random(
        rows: usize,
        cols: usize,
        seed: Option<u64>,
        moves: Option<u32>,
        goal: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyBoard> {
        npuzzle::Board::check_shape(rows, cols).map_err(value_error)?;
        if let Some(k) = moves.filter(|&k| k > npuzzle_io::random::MAX_WALK) {
            return Err(PyValueError::new_err(format!(
                "moves={k}: a walk is at most {} moves",
                npuzzle_io::random::MAX_WALK
            )));
        }
        let goal = goal_board(goal, Shape::new(rows, cols))?;
        let mode = moves.map_or(Mode::Solvable, Mode::Walk);
        let seed = seed.unwrap_or_else(rand::random);
        let (start, _) = Generator::new(goal, mode, seed, false)
            .next_boards()
            .map_err(value_error)?;
        Ok(start.into())
    }

    /// Number of rows.
    #[getter]
    fn rows(&self) -> usize {
        self.inner.rows()
    }

    /// Number of columns.
    #[getter]
    fn cols(&self) -> usize {
        self.inner.cols()
    }

    /// `(rows, cols)`.
    #[getter]
    fn shape(&self) -> (usize, usize) {
        (self.inner.rows(), self.inner.cols())
    }

    /// The tiles in reading order, `0` for the blank.
    #[getter]
    fn tiles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.tiles())
    }

    /// The blank's cell, counted in reading order from 0.
    #[getter]
    fn blank(&self) -> usize {
        self.inner.blank()
    }

    /// The tiles as a list of rows.
    fn to_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        // As ints: a `Vec<u8>` would become `bytes`.
        let rows: Vec<Vec<u32>> = self
            .inner
            .tiles()
            .chunks(self.inner.cols())
            .map(|r| r.iter().map(|&t| u32::from(t)).collect())
            .collect();
        PyList::new(py, rows)
    }

    /// The board as text: `grid` (one row per line, the blank as `_`),
    /// `rows` (`2 8 3/1 6 4/7 0 5`) or `flat` (`2 8 3 1 6 4 7 0 5`). Every
    /// style reads back with `Board(text)` (a flat one of a non-square
    /// board needs `shape=`).
    #[pyo3(signature = (style="grid"))]
    fn format(&self, style: &str) -> PyResult<String> {
        match style {
            "grid" => Ok(self.inner.to_string()),
            "rows" => Ok(self.inner.to_row_string()),
            "flat" => Ok(self.inner.to_flat_string()),
            _ => Err(PyValueError::new_err(format!(
                "'{}' is not a style; use grid, rows or flat",
                npuzzle::printable(style)
            ))),
        }
    }

    /// Whether `goal` (a board or a goal name; default blank-last) can be
    /// reached from this board, decided from permutation parity.
    #[pyo3(signature = (goal=None))]
    fn is_solvable(&self, goal: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
        let goal = goal_board(goal, self.inner.shape())?;
        Ok(self.inner.can_reach(&goal))
    }

    /// The boards one move away, as `(move, board)` pairs in the order
    /// `U`, `D`, `L`, `R` (the direction the blank travels).
    fn neighbors(&self) -> Vec<(String, PyBoard)> {
        npuzzle::Dir::ALL
            .iter()
            .filter_map(|&d| {
                self.inner
                    .moved(d)
                    .map(|b| (d.letter().to_string(), b.into()))
            })
            .collect()
    }

    /// The board after the moves of `path` (`U`, `D`, `L`, `R` in either
    /// case, each with an optional count, spaces ignored), read in
    /// `notation`: `blank` (the way the blank travels) or `tile` (the way
    /// the tiles slide). A letter that is no move, or a move off the board,
    /// is a `ValueError` naming it as written and the board at that point.
    #[pyo3(signature = (path, *, notation="blank"))]
    fn apply(&self, path: &str, notation: &str) -> PyResult<PyBoard> {
        let notation: Notation = notation
            .parse()
            .map_err(|e| PyValueError::new_err(format!("notation: {e}")))?;
        let dirs = parse_moves(path, notation).map_err(value_error)?;
        self.inner
            .apply_moves(&dirs, notation, Metric::Stm)
            .map(PyBoard::from)
            .map_err(value_error)
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    /// For Jupyter: the board as an SVG picture.
    fn _repr_svg_(&self) -> String {
        crate::svg::board_svg(&self.inner)
    }

    fn __repr__(&self) -> String {
        format!("Board('{}')", self.inner.to_row_string())
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyType>, (String,))> {
        Ok((py.get_type::<PyBoard>(), (self.inner.to_row_string(),)))
    }
}
