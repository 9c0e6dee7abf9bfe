//! A board of any size, up to [`MAX_GRID_CELLS`] cells: what text is read
//! into before it is known whether exact search can take it.
//!
//! [`Board`] (at most 16×16, a byte per tile) is the board of exact search;
//! a `Grid` holds a tile in four bytes and is what the constructive solver
//! and the input and output of big boards work on. Validation, parity and
//! goals cost time and memory linear in the cells, so a 1000×1000 board is
//! read, checked and answered "unreachable" in well under a second.

use super::{Board, BoardError, Cell, Dir, Shape, MAX_SIDE, MIN_SIDE};
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
    /// Builds a grid from tiles in reading order, checking that they form a
    /// permutation of `0..rows·cols`.
    pub fn new(rows: usize, cols: usize, tiles: Vec<u32>) -> Result<Grid, BoardError> {
        check_grid_shape(rows, cols)?;
        let n = rows * cols;
        if tiles.len() != n {
            return Err(BoardError::WrongCount {
                count: tiles.len(),
                rows,
                cols,
            });
        }
        // `first[t]` is 1 + the cell where tile t was first seen.
        let mut first = vec![0u32; n];
        for (cell, &t) in tiles.iter().enumerate() {
            let t = t as usize;
            if t >= n {
                // Tiles 1..n, each once, with no 0: the blank is missing,
                // rather than n being too big.
                if t == n && tiles.iter().all(|&u| u != 0) && is_permutation_of_1_to_n(&tiles) {
                    return Err(BoardError::NoBlank);
                }
                return Err(BoardError::OutOfRange {
                    value: t.to_string(),
                    rows,
                    cols,
                    cell: Cell::new(cell, cols),
                });
            }
            if first[t] != 0 {
                return Err(BoardError::Duplicate {
                    tile: t,
                    first: Cell::new(first[t] as usize - 1, cols),
                    second: Cell::new(cell, cols),
                });
            }
            first[t] = cell as u32 + 1;
        }
        // n entries, all in range, none repeated: 0 is among them.
        let blank = first[0] as usize - 1;
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
        if self.shape != goal.shape {
            return false;
        }
        let n = self.len();
        let mut gpos = vec![0u32; n];
        for (cell, &t) in goal.tiles.iter().enumerate() {
            gpos[t as usize] = cell as u32;
        }
        // relative[cell]: the goal cell of the tile standing on `cell`
        let relative: Vec<u32> = self.tiles.iter().map(|&t| gpos[t as usize]).collect();
        let cols = self.cols();
        let (a, b) = (self.blank, goal.blank);
        let dist = (a / cols).abs_diff(b / cols) + (a % cols).abs_diff(b % cols);
        odd_permutation(&relative) == (dist % 2 == 1)
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
        let n = shape.cells() as u32;
        Grid::from_valid(shape, (1..n).chain([0]).collect())
    }

    /// `0 1 … n−1` (Korf's convention).
    pub fn blank_first(shape: Shape) -> Grid {
        Grid::from_valid(shape, (0..shape.cells() as u32).collect())
    }

    /// Tiles `1..n−1` clockwise from the top-left corner, spiralling in;
    /// the blank on the last cell of the spiral.
    pub fn spiral(shape: Shape) -> Grid {
        let n = shape.cells();
        let mut tiles = vec![0u32; n];
        for (i, cell) in spiral_order(shape).into_iter().enumerate() {
            tiles[cell] = if i + 1 == n { 0 } else { (i + 1) as u32 };
        }
        Grid::from_valid(shape, tiles)
    }

    fn from_valid(shape: Shape, tiles: Vec<u32>) -> Grid {
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

/// The cells of `shape` in spiral order: clockwise from the top-left
/// corner, inward.
pub(crate) fn spiral_order(shape: Shape) -> Vec<usize> {
    let (rows, cols) = (shape.rows as isize, shape.cols as isize);
    let mut order = Vec::with_capacity(shape.cells());
    let (mut top, mut bottom, mut left, mut right) = (0isize, rows - 1, 0isize, cols - 1);
    while top <= bottom && left <= right {
        for c in left..=right {
            order.push((top * cols + c) as usize);
        }
        for r in top + 1..=bottom {
            order.push((r * cols + right) as usize);
        }
        if top < bottom {
            for c in (left..right).rev() {
                order.push((bottom * cols + c) as usize);
            }
        }
        if left < right {
            for r in (top + 1..bottom).rev() {
                order.push((r * cols + left) as usize);
            }
        }
        top += 1;
        bottom -= 1;
        left += 1;
        right -= 1;
    }
    order
}

/// Whether `tiles` holds every number `1..=len` once.
fn is_permutation_of_1_to_n(tiles: &[u32]) -> bool {
    let n = tiles.len();
    let mut seen = vec![false; n + 1];
    tiles.iter().all(|&t| {
        let t = t as usize;
        (1..=n).contains(&t) && !std::mem::replace(&mut seen[t], true)
    })
}

/// Parity of a permutation of `0..n`: `true` when odd. Cycles counted in
/// O(n) time with a bit per element.
fn odd_permutation(perm: &[u32]) -> bool {
    let mut seen = vec![false; perm.len()];
    let mut odd = false;
    for start in 0..perm.len() {
        if seen[start] {
            continue;
        }
        let mut len = 0usize;
        let mut i = start;
        while !seen[i] {
            seen[i] = true;
            i = perm[i] as usize;
            len += 1;
        }
        if len.is_multiple_of(2) {
            odd = !odd;
        }
    }
    odd
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
