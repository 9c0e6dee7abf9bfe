//! The `npuzzle.Board` class itself (its methods are in [`crate::board`]),
//! below the readers of board values, which accept one.

use npuzzle::Board;
use pyo3::prelude::*;

/// A sliding-tile board: `rows × cols` cells holding the tiles
/// `1 … rows·cols − 1` and the blank, `0`. Immutable and hashable.
///
/// `Board(tiles, shape=None)` reads a string in any format the command line
/// reads (`"2 8 3 1 6 4 7 0 5"`, `"2 8 3/1 6 4/7 0 5"`, `"283164705"`,
/// `"[[2,8,3],[1,6,4],[7,0,5]]"`, `_` or `.` for the blank), a flat
/// sequence of ints, a list of rows, or a NumPy array. The size comes from
/// the rows, else from a square tile count, else from `shape=(rows, cols)`.
/// A bad board is a `ValueError` naming the problem and where it is.
///
/// Boards order by shape (rows, then columns), then by their tiles in
/// reading order, so that sorting groups the boards of one size.
#[pyclass(module = "npuzzle", name = "Board", frozen, eq, ord, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyBoard {
    pub inner: Board,
}

impl PyBoard {
    fn key(&self) -> (usize, usize, &[u8]) {
        (self.inner.rows(), self.inner.cols(), self.inner.tiles())
    }
}

impl Ord for PyBoard {
    fn cmp(&self, other: &PyBoard) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl PartialOrd for PyBoard {
    fn partial_cmp(&self, other: &PyBoard) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl From<Board> for PyBoard {
    fn from(inner: Board) -> PyBoard {
        PyBoard { inner }
    }
}
