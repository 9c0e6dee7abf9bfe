//! The board: an R×C grid of tiles `1..R·C−1` and the blank `0`.
//!
//! A move slides a tile into the blank; we name it after the direction the
//! *blank* travels (`U`, `D`, `L`, `R`).

mod error;
mod goal;
mod grid;
pub(crate) mod layout;
mod metric;
mod partial;
mod algebra;
mod notation;
mod parse;
mod problem;
mod shape;

pub use error::{printable, BoardError, InputError, Role};
pub use goal::GoalSpec;
pub use grid::{check_grid_shape, Grid, MAX_GRID_CELLS};
pub use partial::PartialGoal;
pub use metric::{runs as metric_runs, Metric, UnknownMetric};
pub use algebra::{invert, simplify, transpose, Rewrite, UnknownRewrite};
pub use notation::{format_moves, parse_moves, Notation, UnknownNotation, MAX_STEPS};
pub use parse::{check_same_shape, parse_board, Scan};
pub use problem::Problem;
pub use shape::Shape;

use std::fmt;

/// Smallest side length accepted.
pub const MIN_SIDE: usize = 2;
/// Largest side length accepted.
pub const MAX_SIDE: usize = 16;

/// Direction the blank travels in one move.
///
/// ```
/// use npuzzle::{Board, Dir, Shape};
///
/// assert_eq!(Dir::from_letter('u'), Some(Dir::Up));
/// assert_eq!(Dir::Up.opposite().letter(), 'D');
/// // The blank of the solved 8-puzzle is in the corner: it cannot go down.
/// let goal = Board::blank_last(Shape::new(3, 3))?;
/// assert!(goal.moved(Dir::Down).is_none());
/// assert_eq!(goal.moved(Dir::Up).unwrap().blank(), 5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// One row up: the tile above the blank slides down.
    Up,
    /// One row down: the tile below the blank slides up.
    Down,
    /// One column left: the tile left of the blank slides right.
    Left,
    /// One column right: the tile right of the blank slides left.
    Right,
}

impl Dir {
    /// Every direction, in the order `U`, `D`, `L`, `R` (the order searches
    /// try them in).
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// `U`, `D`, `L` or `R`.
    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Down => 'D',
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }

    /// The direction named by `U`, `D`, `L` or `R`, in either case.
    pub fn from_letter(c: char) -> Option<Dir> {
        match c.to_ascii_uppercase() {
            'U' => Some(Dir::Up),
            'D' => Some(Dir::Down),
            'L' => Some(Dir::Left),
            'R' => Some(Dir::Right),
            _ => None,
        }
    }

    /// The direction that undoes a move in `self`.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }

    /// The cell the blank moves to from `cell`, or `None` at the edge.
    #[inline]
    pub fn step(self, cell: usize, rows: usize, cols: usize) -> Option<usize> {
        let (r, c) = (cell / cols, cell % cols);
        match self {
            Dir::Up if r > 0 => Some(cell - cols),
            Dir::Down if r + 1 < rows => Some(cell + cols),
            Dir::Left if c > 0 => Some(cell - 1),
            Dir::Right if c + 1 < cols => Some(cell + 1),
            _ => None,
        }
    }
}

/// Formats a path as a `UDLR` string (one letter per move, no separators).
///
/// ```
/// use npuzzle::{path_string, Dir};
///
/// assert_eq!(path_string(&[Dir::Up, Dir::Up, Dir::Left]), "UUL");
/// assert_eq!(path_string(&[]), "");
/// ```
pub fn path_string(path: &[Dir]) -> String {
    path.iter().map(|d| d.letter()).collect()
}

/// Parses a `UDLR` string: letters in either case, whitespace ignored; the
/// error names the first other character and its 1-based position.
///
/// ```
/// use npuzzle::{parse_path, path_string, BoardError, Dir};
///
/// let path = parse_path("UU ldr")?;
/// assert_eq!(path[2], Dir::Left);
/// assert_eq!(path_string(&path), "UULDR");
/// assert_eq!(parse_path("UX"), Err(BoardError::BadMove { letter: 'X', index: 2 }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_path(text: &str) -> Result<Vec<Dir>, BoardError> {
    text.chars()
        .enumerate()
        .filter(|(_, c)| !c.is_whitespace())
        .map(|(i, c)| {
            Dir::from_letter(c).ok_or(BoardError::BadMove {
                letter: c,
                index: i + 1,
            })
        })
        .collect()
}

/// A validated board: every tile `0..rows*cols` exactly once.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    rows: u8,
    cols: u8,
    blank: u8,
    tiles: Vec<u8>,
}

impl Board {
    /// Builds a board from tiles in reading order, checking that each side
    /// is within [`Board::MIN_SIDE`]`..=`[`Board::MAX_SIDE`] and that the tiles form a
    /// permutation of `0..rows*cols`.
    pub fn new(rows: usize, cols: usize, tiles: &[u16]) -> Result<Board, BoardError> {
        Board::checked(rows, cols, tiles)
    }

    /// Builds a board from `u8` tiles (validated like [`Board::new`]).
    pub fn from_tiles(rows: usize, cols: usize, tiles: &[u8]) -> Result<Board, BoardError> {
        Board::checked(rows, cols, tiles)
    }

    fn checked<T: layout::Tile>(
        rows: usize,
        cols: usize,
        tiles: &[T],
    ) -> Result<Board, BoardError> {
        check_shape(rows, cols)?;
        let blank = layout::check_tiles(rows, cols, tiles)?;
        // every tile is below rows·cols ≤ 256
        Ok(Board {
            rows: rows as u8,
            cols: cols as u8,
            blank: blank as u8,
            tiles: tiles.iter().map(|&t| t.index() as u8).collect(),
        })
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        usize::from(self.rows)
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        usize::from(self.cols)
    }

    /// Rows and columns together.
    pub fn shape(&self) -> Shape {
        Shape {
            rows: self.rows(),
            cols: self.cols(),
        }
    }

    /// Number of cells, `rows * cols`.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Never true: a board has at least four cells.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// Tiles in reading order, `0` for the blank.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The blank's cell (0-based, in reading order).
    pub fn blank(&self) -> usize {
        usize::from(self.blank)
    }

    /// `positions()[t]` is the cell of tile `t` (the inverse permutation).
    pub fn positions(&self) -> Vec<u8> {
        let mut pos = vec![0u8; self.len()];
        for (cell, &t) in self.tiles.iter().enumerate() {
            pos[usize::from(t)] = cell as u8;
        }
        pos
    }

    /// The board after the blank moves in `dir`, or `None` at the edge.
    pub fn moved(&self, dir: Dir) -> Option<Board> {
        let mut b = self.clone();
        b.apply(dir).then_some(b)
    }

    /// Moves the blank in place; returns false (and changes nothing) at the edge.
    pub fn apply(&mut self, dir: Dir) -> bool {
        match dir.step(self.blank(), self.rows(), self.cols()) {
            Some(to) => {
                let from = self.blank();
                self.tiles.swap(from, to);
                self.blank = to as u8;
                true
            }
            None => false,
        }
    }

    /// Applies a whole path, failing at the first move off the board (in
    /// blank notation; [`Board::apply_moves`] names it in either).
    pub fn apply_path(&self, path: &[Dir]) -> Result<Board, BoardError> {
        let mut b = self.clone();
        for (i, &d) in path.iter().enumerate() {
            if !b.apply(d) {
                return Err(b.illegal(d, i));
            }
        }
        Ok(b)
    }

    /// The error of step `index` (0-based), `dir`, which cannot be made
    /// on `self`.
    fn illegal(&self, dir: Dir, index: usize) -> BoardError {
        BoardError::IllegalMove {
            index: index + 1,
            written: dir.letter().to_string(),
            notation: Notation::Blank,
            board: self.to_row_string(),
        }
    }

    /// Every board along a path, the start included.
    pub fn trajectory(&self, path: &[Dir]) -> Result<Vec<Board>, BoardError> {
        let mut out = Vec::with_capacity(path.len() + 1);
        let mut b = self.clone();
        out.push(b.clone());
        for (i, &d) in path.iter().enumerate() {
            if !b.apply(d) {
                return Err(b.illegal(d, i));
            }
            out.push(b.clone());
        }
        Ok(out)
    }

    /// Parity of the permutation (cells → tiles, the blank included):
    /// `true` when odd, in O(n).
    pub fn permutation_parity(&self) -> bool {
        layout::odd_permutation(&self.tiles)
    }

    /// Whether `goal` can be reached from `self` by moves.
    ///
    /// A move is a transposition (flips the permutation's parity) and moves
    /// the blank one cell (flips the parity of its taxicab distance to any
    /// fixed cell). So the parity of `start∘goal⁻¹` must equal the parity of
    /// the blank's taxicab distance between the two boards; on boards of at
    /// least 2×2 every such pair is reachable.
    pub fn can_reach(&self, goal: &Board) -> bool {
        self.shape() == goal.shape() && self.shape().can_reach(&self.tiles, &goal.tiles)
    }

    /// The tiles in reading order separated by spaces, the blank as `0`:
    /// `2 8 3 1 6 4 7 0 5`.
    pub fn to_flat_string(&self) -> String {
        let mut s = String::with_capacity(self.len() * 3);
        for (i, t) in self.tiles.iter().enumerate() {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(&t.to_string());
        }
        s
    }

    /// Like [`Board::to_flat_string`], with rows separated by `/`:
    /// `2 8 3/1 6 4/7 0 5`.
    pub fn to_row_string(&self) -> String {
        let mut s = String::with_capacity(self.len() * 3);
        for (i, t) in self.tiles.iter().enumerate() {
            if i > 0 {
                s.push(if i % self.cols() == 0 { '/' } else { ' ' });
            }
            s.push_str(&t.to_string());
        }
        s
    }
}

/// A grid of right-aligned numbers, one row per line, blank shown as `_`.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = (self.len() - 1).to_string().len();
        for (r, row) in self.tiles.chunks(self.cols()).enumerate() {
            if r > 0 {
                writeln!(f)?;
            }
            for (c, &t) in row.iter().enumerate() {
                if c > 0 {
                    write!(f, " ")?;
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

/// A cell, printed 1-based as `row R, column C`.
///
/// ```
/// use npuzzle::Cell;
///
/// // Cell 5 (0-based) of a board 3 wide: the end of the second row.
/// let cell = Cell::new(5, 3);
/// assert_eq!((cell.row, cell.col), (2, 3));
/// assert_eq!(cell.to_string(), "row 2, column 3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// Row, counted from 1 at the top.
    pub row: usize,
    /// Column, counted from 1 at the left.
    pub col: usize,
}

impl Cell {
    /// The cell with 0-based reading-order index `index` on a board `cols`
    /// wide.
    pub fn new(index: usize, cols: usize) -> Cell {
        Cell {
            row: index / cols + 1,
            col: index % cols + 1,
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {}, column {}", self.row, self.col)
    }
}

/// Checks that a shape is within `MIN_SIDE..=MAX_SIDE` on both sides.
pub fn check_shape(rows: usize, cols: usize) -> Result<(), BoardError> {
    if !(MIN_SIDE..=MAX_SIDE).contains(&rows) || !(MIN_SIDE..=MAX_SIDE).contains(&cols) {
        return Err(BoardError::BadSize { rows, cols });
    }
    Ok(())
}

impl Board {
    /// Fewest rows or columns a board has (2).
    pub const MIN_SIDE: usize = MIN_SIDE;
    /// Most rows or columns a board for exact search has (16); larger
    /// boards are [`Grid`]s.
    pub const MAX_SIDE: usize = MAX_SIDE;

    /// Checks that `rows` × `cols` is a shape a board holds, before any
    /// tile is read: both within [`Board::MIN_SIDE`]`..=`[`Board::MAX_SIDE`].
    ///
    /// ```
    /// use npuzzle::{Board, BoardError};
    ///
    /// assert!(Board::check_shape(4, 4).is_ok());
    /// assert!(matches!(Board::check_shape(1, 4), Err(BoardError::BadSize { .. })));
    /// ```
    pub fn check_shape(rows: usize, cols: usize) -> Result<(), BoardError> {
        check_shape(rows, cols)
    }
}


#[cfg(test)]
mod tests {
    use super::*;

    fn b(rows: usize, cols: usize, t: &[u16]) -> Board {
        Board::new(rows, cols, t).unwrap()
    }

    #[test]
    fn validation_names_the_problem() {
        assert_eq!(
            Board::new(2, 2, &[1, 1, 2, 0]),
            Err(BoardError::Duplicate {
                tile: 1,
                first: Cell { row: 1, col: 1 },
                second: Cell { row: 1, col: 2 }
            })
        );
        assert!(matches!(
            Board::new(2, 2, &[1, 2, 5, 0]),
            Err(BoardError::OutOfRange { value, .. }) if value == "5"
        ));
        assert!(matches!(
            Board::new(2, 2, &[1, 2, 3, 4]),
            Err(BoardError::NoBlank)
        ));
        assert!(matches!(
            Board::new(2, 2, &[1, 2, 3]),
            Err(BoardError::WrongCount { count: 3, .. })
        ));
        assert!(matches!(
            Board::new(1, 4, &[1, 2, 3, 0]),
            Err(BoardError::BadSize { .. })
        ));
        assert!(matches!(
            Board::new(17, 2, &[0; 34]),
            Err(BoardError::BadSize { .. })
        ));
    }

    #[test]
    fn moves_and_edges() {
        let mut x = b(3, 3, &[1, 2, 3, 4, 0, 5, 6, 7, 8]);
        assert!(x.apply(Dir::Up));
        assert_eq!(x.tiles(), &[1, 0, 3, 4, 2, 5, 6, 7, 8]);
        assert!(!x.apply(Dir::Up));
        assert!(x.apply(Dir::Left));
        assert_eq!(x.blank(), 0);
        assert!(x.apply_path(&[Dir::Left]).is_err());
    }

    #[test]
    fn reachability_parity() {
        let goal = b(3, 3, &[1, 2, 3, 8, 0, 4, 7, 6, 5]);
        let start = b(3, 3, &[2, 8, 3, 1, 6, 4, 7, 0, 5]);
        assert!(start.can_reach(&goal));
        let swapped = b(3, 3, &[8, 2, 3, 1, 6, 4, 7, 0, 5]);
        assert!(!swapped.can_reach(&goal));
        // 4x4: blank moves change the parity condition on even widths.
        let g = b(2, 2, &[1, 2, 3, 0]);
        assert!(b(2, 2, &[1, 2, 0, 3]).can_reach(&g));
        assert!(!b(2, 2, &[2, 1, 3, 0]).can_reach(&g));
    }

    #[test]
    fn display_and_strings() {
        let x = b(2, 3, &[1, 2, 3, 4, 5, 0]);
        assert_eq!(x.to_string(), "1 2 3\n4 5 _");
        assert_eq!(x.to_row_string(), "1 2 3/4 5 0");
        assert_eq!(x.to_flat_string(), "1 2 3 4 5 0");
        assert_eq!(path_string(&parse_path("udLR").unwrap()), "UDLR");
        assert!(parse_path("UX").is_err());
    }
}
