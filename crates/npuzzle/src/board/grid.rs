//! A board of any size, up to [`MAX_GRID_CELLS`] cells: what text is read
//! into before it is known whether exact search can take it.
//!
//! [`Board`] (at most 16×16, a byte per tile) is the board of exact search;
//! a `Grid` holds a tile in four bytes and is what the constructive solver
//! and the input and output of big boards work on. Validation, parity and
//! goals cost time and memory linear in the cells, so a 1000×1000 board is
//! read, checked and answered "unreachable" in well under a second.

use super::layout::{can_reach, check_tiles, named_goal, Named};
use super::{Board, BoardError, Dir, Shape, MAX_SIDE, MIN_SIDE};
use std::fmt;

/// Most cells of a grid (16,777,216: a 4096×4096 board).
pub const MAX_GRID_CELLS: usize = 1 << 24;

/// A validated board of any size: every tile `0..rows·cols` exactly once.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Grid {
    shape: Shape,
    blank: usize,
    tiles: Vec<u32>,
}

/// Checks a grid's dimensions: each side at least 2, at most
/// [`MAX_GRID_CELLS`] cells.
pub fn check_grid_shape(rows: usize, cols: usize) -> Result<(), BoardError> {
    if rows < MIN_SIDE || cols < MIN_SIDE || rows.saturating_mul(cols) > MAX_GRID_CELLS {
        return Err(BoardError::BadGridSize { rows, cols });
    }
    Ok(())
}

impl Grid {
    /// Most cells a grid has (16,777,216: a 4096×4096 board).
    pub const MAX_CELLS: usize = MAX_GRID_CELLS;

    /// Checks a grid's dimensions before any tile is read: each side at
    /// least 2, at most [`Grid::MAX_CELLS`] cells.
    ///
    /// ```
    /// use npuzzle::Grid;
    ///
    /// assert!(Grid::check_shape(2, 1000).is_ok());
    /// assert!(Grid::check_shape(5000, 5000).is_err());
    /// ```
    pub fn check_shape(rows: usize, cols: usize) -> Result<(), BoardError> {
        check_grid_shape(rows, cols)
    }

    /// Builds a grid from tiles in reading order, checking that they form a
    /// permutation of `0..rows·cols`.
    pub fn new(rows: usize, cols: usize, tiles: Vec<u32>) -> Result<Grid, BoardError> {
        check_grid_shape(rows, cols)?;
        let blank = check_tiles(rows, cols, &tiles)?;
        Ok(Grid {
            shape: Shape::new(rows, cols),
            blank,
            tiles,
        })
    }

    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.shape.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.shape.cols
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Never true: a grid has at least four cells.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// Tiles in reading order, `0` for the blank.
    pub fn tiles(&self) -> &[u32] {
        &self.tiles
    }

    /// The blank's cell.
    pub fn blank(&self) -> usize {
        self.blank
    }

    /// Whether exact search can take it (at most 16 on a side).
    pub fn is_small(&self) -> bool {
        self.rows() <= MAX_SIDE && self.cols() <= MAX_SIDE
    }

    /// The same board as a [`Board`], when it is small enough for exact
    /// search.
    pub fn to_board(&self) -> Result<Board, BoardError> {
        let tiles: Vec<u16> = self
            .tiles
            .iter()
            .map(|&t| u16::try_from(t).unwrap_or(u16::MAX))
            .collect();
        Board::new(self.rows(), self.cols(), &tiles)
    }

    /// Whether `goal` can be reached from `self` by moves: the parity of
    /// `start∘goal⁻¹` must equal that of the blank's taxicab distance
    /// between the two (see [`Board::can_reach`]); O(n) time and memory.
    pub fn can_reach(&self, goal: &Grid) -> bool {
        self.shape == goal.shape && can_reach(self.shape, &self.tiles, &goal.tiles)
    }

    /// Moves the blank in place; false (and nothing changes) at the edge.
    pub fn apply(&mut self, dir: Dir) -> bool {
        match dir.step(self.blank, self.rows(), self.cols()) {
            Some(to) => {
                self.tiles.swap(self.blank, to);
                self.blank = to;
                true
            }
            None => false,
        }
    }

    /// `1 2 … n−1 0`.
    pub fn blank_last(shape: Shape) -> Grid {
        Grid::named(shape, Named::BlankLast)
    }

    /// `0 1 … n−1` (Korf's convention).
    pub fn blank_first(shape: Shape) -> Grid {
        Grid::named(shape, Named::BlankFirst)
    }

    /// Tiles `1..n−1` clockwise from the top-left corner, spiralling in;
    /// the blank on the last cell of the spiral.
    pub fn spiral(shape: Shape) -> Grid {
        Grid::named(shape, Named::Spiral)
    }

    fn named(shape: Shape, which: Named) -> Grid {
        let tiles = named_goal(shape, which);
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
        Grid {
            shape,
            blank,
            tiles,
        }
    }

    /// `2 8 3 1 6 4 7 0 5`
    pub fn to_flat_string(&self) -> String {
        let mut s = String::with_capacity(self.len() * 7);
        for (i, t) in self.tiles.iter().enumerate() {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(&t.to_string());
        }
        s
    }
}

impl From<&Board> for Grid {
    fn from(b: &Board) -> Grid {
        Grid {
            shape: b.shape(),
            blank: b.blank(),
            tiles: b.tiles().iter().map(|&t| u32::from(t)).collect(),
        }
    }
}

impl From<Board> for Grid {
    fn from(b: Board) -> Grid {
        Grid::from(&b)
    }
}

/// One row per line, right-aligned numbers, the blank as `_`.
impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = (self.len() - 1).to_string().len();
        for (r, row) in self.tiles.chunks(self.cols()).enumerate() {
            if r > 0 {
                writeln!(f)?;
            }
            for (c, &t) in row.iter().enumerate() {
                if c > 0 {
                    f.write_str(" ")?;
                }
                if t == 0 {
                    write!(f, "{:>width$}", "_")?;
                } else {
                    write!(f, "{t:>width$}")?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_and_errors_match_the_small_board() {
        assert!(matches!(
            Grid::new(2, 2, vec![1, 1, 2, 0]),
            Err(BoardError::Duplicate { tile: 1, .. })
        ));
        assert!(matches!(
            Grid::new(2, 2, vec![1, 2, 3, 4]),
            Err(BoardError::NoBlank)
        ));
        assert!(matches!(
            Grid::new(2, 2, vec![1, 2, 9, 0]),
            Err(BoardError::OutOfRange { .. })
        ));
        assert!(matches!(
            Grid::new(1, 4, vec![1, 2, 3, 0]),
            Err(BoardError::BadGridSize { .. })
        ));
        let g = Grid::new(3, 3, vec![2, 8, 3, 1, 6, 4, 7, 0, 5]).unwrap();
        assert_eq!(g.blank(), 7);
        assert_eq!(g.to_board().unwrap().tiles(), &[2, 8, 3, 1, 6, 4, 7, 0, 5]);
        assert_eq!(Grid::from(&g.to_board().unwrap()), g);
    }

    #[test]
    fn reachability_and_goals_agree_with_the_small_board() {
        let mut rng = 12345u64;
        for shape in [Shape::new(3, 3), Shape::new(2, 5), Shape::new(4, 4)] {
            for _ in 0..200 {
                // a cheap deterministic shuffle
                let mut t: Vec<u32> = (0..shape.cells() as u32).collect();
                for i in (1..t.len()).rev() {
                    rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1);
                    t.swap(i, (rng >> 33) as usize % (i + 1));
                }
                let g = Grid::new(shape.rows, shape.cols, t).unwrap();
                let b = g.to_board().unwrap();
                for goal in [
                    Board::blank_last(shape).unwrap(),
                    Board::spiral(shape).unwrap(),
                ] {
                    assert_eq!(g.can_reach(&Grid::from(&goal)), b.can_reach(&goal));
                }
            }
            assert_eq!(
                Grid::spiral(shape),
                Grid::from(&Board::spiral(shape).unwrap())
            );
            assert_eq!(
                Grid::blank_last(shape),
                Grid::from(&Board::blank_last(shape).unwrap())
            );
            assert_eq!(
                Grid::blank_first(shape),
                Grid::from(&Board::blank_first(shape).unwrap())
            );
        }
    }

    #[test]
    fn a_million_cells() {
        let shape = Shape::new(1000, 1000);
        let goal = Grid::blank_last(shape);
        let mut start = goal.clone();
        assert!(start.apply(Dir::Up));
        assert!(start.can_reach(&goal));
        let mut swapped = goal.clone();
        swapped.tiles.swap(0, 1);
        assert!(!swapped.can_reach(&goal));
        assert!(!goal.is_small());
        assert!(goal.to_board().is_err());
    }
}
