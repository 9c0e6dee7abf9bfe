//! A board's dimensions.

use super::{check_grid_shape, BoardError};
use std::fmt;
use std::str::FromStr;

/// A board's dimensions, printed and parsed as `RxC`.
///
/// A shape is not checked on its own: [`Shape::new`] takes any sides, while
/// parsing one and building a board check them against
/// [`Board::MIN_SIDE`](crate::Board::MIN_SIDE)`..=`[`Board::MAX_SIDE`](crate::Board::MAX_SIDE).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
}

impl Shape {
    /// `rows`×`cols`, unchecked.
    pub fn new(rows: usize, cols: usize) -> Shape {
        Shape { rows, cols }
    }

    /// Number of cells, `rows · cols` (tiles plus the blank).
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// Whether `goal` can be reached from `start` on a board of this shape,
    /// both given as tiles in reading order (valid permutations of
    /// `0..cells`, as a validated board's are): [`Board::can_reach`]
    /// without building boards.
    ///
    /// ```
    /// use npuzzle::Shape;
    ///
    /// let s = Shape::new(2, 2);
    /// assert!(s.can_reach(&[1, 2, 3, 0], &[1, 2, 0, 3]));
    /// assert!(!s.can_reach(&[2, 1, 3, 0], &[1, 2, 3, 0]));
    /// ```
    ///
    /// [`Board::can_reach`]: crate::Board::can_reach
    pub fn can_reach(self, start: &[u8], goal: &[u8]) -> bool {
        super::layout::can_reach(self, start, goal)
    }

    /// Rows plus columns between cells `a` and `b` (reading order): the
    /// moves a tile alone would need, the Manhattan distance. The one place
    /// it is written; every heuristic, table and parity check asks here.
    ///
    /// ```
    /// use npuzzle::Shape;
    /// // from the top-left corner of a 3×4 board to its bottom-right one
    /// assert_eq!(Shape::new(3, 4).distance(0, 11), 2 + 3);
    /// ```
    #[inline]
    pub fn distance(&self, a: usize, b: usize) -> usize {
        let c = self.cols;
        (a / c).abs_diff(b / c) + (a % c).abs_diff(b % c)
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for Shape {
    type Err = BoardError;

    /// `3x3`, `2X4`, `2*4`, `3×4`, or `4` for 4x4.
    fn from_str(text: &str) -> Result<Shape, BoardError> {
        let bad = || BoardError::BadSizeText {
            text: super::printable(text),
        };
        let t = text.trim();
        let parts: Vec<&str> = t.split(['x', 'X', '*', '×']).collect();
        let nums: Vec<usize> = parts
            .iter()
            .map(|p| p.trim().parse::<usize>().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        let shape = match nums[..] {
            [n] => Shape::new(n, n),
            [r, c] => Shape::new(r, c),
            _ => return Err(bad()),
        };
        // Any size a Grid holds: commands that need exact search check
        // again (a Board refuses sides above 16, naming exact search).
        check_grid_shape(shape.rows, shape.cols)?;
        Ok(shape)
    }
}
