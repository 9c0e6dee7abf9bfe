//! Parsing boards from the formats people bring:
//!
//! * numbers separated by spaces, commas, semicolons and/or line breaks
//!   (`2 8 3 1 6 4 7 0 5`, or one row per line);
//! * rows separated by `/` (`2 8 3/1 6 4/7 0 5`) or written as nested
//!   brackets (`[[2,8,3],[1,6,4],[7,0,5]]`);
//! * a plain digit string for boards of at most 10 cells (`283164705`,
//!   or one digit string per row: `283/164/705`);
//! * the blank as `0`, `_` or `.`.
//!
//! The scanner keeps its buffers between calls ([`Scan`]), so the batch
//! runner parses millions of lines without allocating per line.
//!
//! The same text reads into a [`Board`] (at most 16×16, what exact search
//! takes) or a [`Grid`] (any size up to [`MAX_GRID_CELLS`] cells); time
//! and memory are linear in the text.
//!
//! [`MAX_GRID_CELLS`]: super::MAX_GRID_CELLS

use super::{check_grid_shape, check_shape, printable, Board, BoardError, Grid, InputError, Shape};
use super::{GoalSpec, MAX_SIDE, MIN_SIDE};

/// Cells of the smallest board (2×2).
const MIN_CELLS: usize = MIN_SIDE * MIN_SIDE;

/// What text is read into: the small [`Board`] or a [`Grid`] of any size.
/// Only this module's readers are generic over it.
pub(crate) trait Readable: Sized {
    /// The board of `shape` with `values` (validated here).
    fn from_values(shape: Shape, values: &[u32]) -> Result<Self, BoardError>;
    /// Its shape.
    fn shape_of(&self) -> Shape;
    /// A named goal of `shape` (blank-last for a goal written as a board,
    /// which callers parse instead).
    fn named(goal: &GoalSpec, shape: Shape) -> Result<Self, BoardError>;
}

impl Readable for Board {
    fn from_values(shape: Shape, values: &[u32]) -> Result<Board, BoardError> {
        check_shape(shape.rows, shape.cols)?;
        // at most 256 cells: no allocation per board (batch lines)
        let mut tiles = [0u16; MAX_SIDE * MAX_SIDE];
        let n = values.len().min(tiles.len());
        for (t, &v) in tiles.iter_mut().zip(values) {
            *t = v.min(u32::from(u16::MAX)) as u16;
        }
        if values.len() > tiles.len() {
            return Err(BoardError::WrongCount {
                count: values.len(),
                rows: shape.rows,
                cols: shape.cols,
            });
        }
        Board::new(shape.rows, shape.cols, &tiles[..n])
    }
    fn shape_of(&self) -> Shape {
        self.shape()
    }
    fn named(goal: &GoalSpec, shape: Shape) -> Result<Board, BoardError> {
        match goal {
            GoalSpec::BlankLast | GoalSpec::Board(_) => Board::blank_last(shape),
            GoalSpec::BlankFirst => Board::blank_first(shape),
            GoalSpec::Spiral => Board::spiral(shape),
        }
    }
}

impl Readable for Grid {
    fn from_values(shape: Shape, values: &[u32]) -> Result<Grid, BoardError> {
        Grid::new(shape.rows, shape.cols, values.to_vec())
    }
    fn shape_of(&self) -> Shape {
        self.shape()
    }
    fn named(goal: &GoalSpec, shape: Shape) -> Result<Grid, BoardError> {
        // Checked before anything is generated: the layouts allocate a
        // cell each.
        check_grid_shape(shape.rows, shape.cols)?;
        Ok(match goal {
            GoalSpec::BlankLast | GoalSpec::Board(_) => Grid::blank_last(shape),
            GoalSpec::BlankFirst => Grid::blank_first(shape),
            GoalSpec::Spiral => Grid::spiral(shape),
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Only digits.
    Number,
    /// `_` or `.` alone.
    Blank,
    /// Digits mixed with `_`/`.`: valid only as a digit string.
    DigitString,
    /// Anything else.
    Bad,
}

#[derive(Clone, Copy, Debug)]
struct Token {
    start: u32,
    end: u32,
    kind: Kind,
    /// Value of a `Number` (saturating), 0 for a `Blank`.
    value: u32,
}

/// Reusable scanner: tokens of one text, with the row structure.
///
/// ```
/// use npuzzle::Scan;
///
/// let mut scan = Scan::new();
/// let board = scan.board("2 8 3/1 6 4/7 0 5", None)?;
/// assert_eq!((board.rows(), board.blank()), (3, 7));
/// // The same scanner reads the next text: here a start and its goal.
/// let (start, goal) = scan.start_and_goal("283164705 | spiral", None)?;
/// assert_eq!(start, board);
/// assert_eq!(goal.unwrap().to_row_string(), "1 2 3/8 0 4/7 6 5");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Default, Debug)]
pub struct Scan {
    tokens: Vec<Token>,
    /// For each non-empty row, the index one past its last token.
    row_ends: Vec<u32>,
    /// Tile values of the board being assembled.
    values: Vec<u32>,
}

fn is_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b',' | b';' | b'[' | b'(' | b'{')
}

fn is_row_end(b: u8) -> bool {
    matches!(b, b'\n' | b'/' | b']' | b')' | b'}')
}

impl Scan {
    /// A scanner with empty buffers.
    pub fn new() -> Scan {
        Scan::default()
    }

    /// Splits `text` into tokens and rows.
    fn scan(&mut self, text: &str) {
        self.tokens.clear();
        self.row_ends.clear();
        let bytes = text.as_bytes();
        // A byte-order mark (editors on some systems start files with one)
        // is not part of the board; token offsets stay offsets into `text`.
        let mut i = if text.starts_with('\u{feff}') { 3 } else { 0 };
        while i < bytes.len() {
            let b = bytes[i];
            if is_separator(b) {
                i += 1;
                continue;
            }
            if is_row_end(b) {
                self.end_row();
                i += 1;
                continue;
            }
            let start = i;
            let (mut digits, mut blanks, mut other) = (0usize, 0usize, false);
            let mut value: u32 = 0;
            while i < bytes.len() && !is_separator(bytes[i]) && !is_row_end(bytes[i]) {
                match bytes[i] {
                    d @ b'0'..=b'9' => {
                        digits += 1;
                        value = value.saturating_mul(10).saturating_add(u32::from(d - b'0'));
                    }
                    b'_' | b'.' => blanks += 1,
                    _ => other = true,
                }
                i += 1;
            }
            let kind = if other {
                Kind::Bad
            } else if blanks == 0 {
                Kind::Number
            } else if digits == 0 && blanks == 1 {
                Kind::Blank
            } else {
                Kind::DigitString
            };
            self.tokens.push(Token {
                start: start as u32,
                end: i as u32,
                kind,
                value: if kind == Kind::Number { value } else { 0 },
            });
        }
        self.end_row();
    }

    fn end_row(&mut self) {
        let n = self.tokens.len() as u32;
        if self.row_ends.last().copied().unwrap_or(0) < n {
            self.row_ends.push(n);
        }
    }

    /// Number of tokens found by the last scan.
    fn token_count(&self) -> usize {
        self.tokens.len()
    }

    /// Parses one board from `text`, in any of the formats above. The shape
    /// comes from the rows when the text has them, else from `size`, else
    /// from a square tile count.
    pub fn board(&mut self, text: &str, size: Option<Shape>) -> Result<Board, BoardError> {
        self.read(text, size)
    }

    /// Parses one board of any size up to [`MAX_GRID_CELLS`] cells, as
    /// [`Scan::board`] does (time and memory linear in the text).
    ///
    /// [`MAX_GRID_CELLS`]: crate::Grid::MAX_CELLS
    pub fn grid(&mut self, text: &str, size: Option<Shape>) -> Result<Grid, BoardError> {
        self.read(text, size)
    }

    pub(crate) fn read<T: Readable>(
        &mut self,
        text: &str,
        size: Option<Shape>,
    ) -> Result<T, BoardError> {
        self.scan(text);
        self.board_in(text, 0, self.tokens.len(), size)
    }

    /// Builds a board from tokens `a..b` of the last scan.
    fn board_in<T: Readable>(
        &mut self,
        text: &str,
        a: usize,
        b: usize,
        size: Option<Shape>,
    ) -> Result<T, BoardError> {
        if a == b {
            return Err(BoardError::Empty);
        }
        let toks = &self.tokens[a..b];
        if let Some(bad) = toks.iter().position(|t| t.kind == Kind::Bad) {
            let t = toks[bad];
            return Err(BoardError::BadToken {
                token: printable(&text[t.start as usize..t.end as usize]),
                index: bad + 1,
            });
        }
        // Row lengths (in tokens) of the rows inside a..b.
        let mut rows: Vec<usize> = Vec::new();
        let mut prev = a;
        for &e in &self.row_ends {
            let e = e as usize;
            if e <= a {
                continue;
            }
            let e = e.min(b);
            if e > prev {
                rows.push(e - prev);
                prev = e;
            }
            if e == b {
                break;
            }
        }

        let tok_len = |t: &Token| (t.end - t.start) as usize;
        let all_digitish = toks.iter().all(|t| t.kind != Kind::Bad);
        let max_len = toks.iter().map(tok_len).max().unwrap_or(0);
        let total_chars: usize = toks.iter().map(tok_len).sum();
        let one_per_row = rows.iter().all(|&r| r == 1);
        let equal_len = toks.iter().all(|t| tok_len(t) == tok_len(&toks[0]));
        // Digit strings: one token, one per row (`283/164/705`), or a few
        // of equal length on one line (`283 164 705`). Four numbers or
        // more on a line are enough tiles for a board as they stand, so
        // they are read as numbers, never split into digits (`11 22 33 44`
        // is a 2x2 board with tiles out of range, not a 4x2 one).
        let digit_mode = all_digitish
            && max_len >= 2
            && total_chars <= 10
            && (one_per_row || toks.len() == 1 || (equal_len && toks.len() < MIN_CELLS));

        self.values.clear();
        let row_lens: Vec<usize> = if digit_mode {
            for t in toks {
                for &c in &text.as_bytes()[t.start as usize..t.end as usize] {
                    self.values.push(match c {
                        b'0'..=b'9' => u32::from(c - b'0'),
                        _ => 0,
                    });
                }
            }
            if toks.len() > 1 {
                toks.iter().map(tok_len).collect()
            } else {
                vec![total_chars]
            }
        } else {
            for (i, t) in toks.iter().enumerate() {
                if t.kind == Kind::DigitString {
                    return Err(BoardError::BadToken {
                        token: printable(&text[t.start as usize..t.end as usize]),
                        index: i + 1,
                    });
                }
                self.values.push(t.value);
            }
            rows
        };
        let shape = infer_shape(self.values.len(), &row_lens, size)?;
        T::from_values(shape, &self.values).map_err(|e| match e {
            // Report the number as written, not as clamped.
            BoardError::OutOfRange {
                rows, cols, cell, ..
            } if !digit_mode => {
                let idx = (cell.row - 1) * cols + (cell.col - 1);
                BoardError::OutOfRange {
                    value: printable(&text[toks[idx].start as usize..toks[idx].end as usize]),
                    rows,
                    cols,
                    cell,
                }
            }
            other => other,
        })
    }

    /// Parses text that holds either one board or a start and a goal (`2·n`
    /// tiles: the first `n` are the start, the rest the goal), as a whole
    /// file or standard input is written. An error names the board it is
    /// about.
    pub fn pair(
        &mut self,
        text: &str,
        size: Option<Shape>,
    ) -> Result<(Board, Option<Board>), InputError> {
        self.read_pair(text, size)
    }

    pub(crate) fn read_pair<T: Readable>(
        &mut self,
        text: &str,
        size: Option<Shape>,
    ) -> Result<(T, Option<T>), InputError> {
        self.scan(text);
        let t = self.token_count();
        if t == 0 {
            return Err(InputError::start(BoardError::Empty));
        }
        if let Some(s) = size {
            let n = s.cells();
            if t == 2 * n {
                return self.split_pair(text, n, size);
            }
            return self
                .board_in(text, 0, t, size)
                .map(|b| (b, None))
                .map_err(InputError::start);
        }
        let single = match self.board_in::<T>(text, 0, t, None) {
            Ok(b) => return Ok((b, None)),
            Err(e) => e,
        };
        // Two boards' worth of numbers, or two digit strings
        // (`283164705 123804765`). Halves of two or three numbers are no
        // boards: `1 1 2 0` is one board with a repeated tile.
        if t.is_multiple_of(2) && (t / 2 >= MIN_CELLS || t == 2) {
            if let Ok(pair) = self.split_pair::<T>(text, t / 2, None) {
                return Ok(pair);
            }
            // Neither reading works: if the text looks like two boards,
            // report what is wrong with them rather than with the whole.
            let half = t / 2;
            let blanks = |toks: &[Token]| {
                toks.iter()
                    .filter(|k| k.kind == Kind::Blank || (k.kind == Kind::Number && k.value == 0))
                    .count()
            };
            let looks_like_pair = matches!(single, BoardError::Duplicate { .. })
                || (blanks(&self.tokens[..half]) == 1 && blanks(&self.tokens[half..]) == 1);
            if looks_like_pair {
                return self.split_pair(text, t / 2, None);
            }
        }
        Err(InputError::start(single))
    }

    fn split_pair<T: Readable>(
        &mut self,
        text: &str,
        n: usize,
        size: Option<Shape>,
    ) -> Result<(T, Option<T>), InputError> {
        let t = self.token_count();
        let start: T = self.board_in(text, 0, n, size).map_err(InputError::start)?;
        let goal: T = match self.board_in(text, n, t, size) {
            Err(BoardError::CannotInferSize { .. }) => {
                self.board_in(text, n, t, Some(start.shape_of()))
            }
            other => other,
        }
        .map_err(InputError::goal)?;
        same_shape(start.shape_of(), goal.shape_of())?;
        Ok((start, Some(goal)))
    }
}

/// Start and goal must have the same dimensions.
pub fn check_same_shape(start: &Board, goal: &Board) -> Result<(), InputError> {
    same_shape(start.shape(), goal.shape())
}

/// [`check_same_shape`] on shapes.
pub(crate) fn same_shape(start: Shape, goal: Shape) -> Result<(), InputError> {
    if start != goal {
        return Err(InputError::SizeMismatch {
            start_rows: start.rows,
            start_cols: start.cols,
            goal_rows: goal.rows,
            goal_cols: goal.cols,
        });
    }
    Ok(())
}

/// Decides the shape from the tile count, the rows (if any) and the size
/// given (if any).
fn infer_shape(count: usize, rows: &[usize], size: Option<Shape>) -> Result<Shape, BoardError> {
    if rows.len() >= 2 {
        let first = rows[0];
        let ragged = rows.iter().position(|&r| r != first);
        let from_rows = Shape::new(rows.len(), first);
        match ragged {
            None if check_grid_shape(from_rows.rows, from_rows.cols).is_ok() => {
                if let Some(s) = size {
                    if s != from_rows {
                        return Err(BoardError::RowsDisagreeWithSize {
                            rows: from_rows.rows,
                            cols: from_rows.cols,
                            want_rows: s.rows,
                            want_cols: s.cols,
                        });
                    }
                }
                return Ok(from_rows);
            }
            // Rows of different lengths are a mistake worth naming.
            Some(i) => {
                return Err(BoardError::RaggedRows {
                    row: i + 1,
                    len: rows[i],
                    expected: first,
                });
            }
            // Degenerate rows (one number per line): fall back to the tile
            // count, as for a flat list.
            None => {}
        }
    }
    if let Some(s) = size {
        if s.cells() != count {
            return Err(BoardError::WrongCount {
                count,
                rows: s.rows,
                cols: s.cols,
            });
        }
        return Ok(s);
    }
    match square_side(count) {
        Some(k) => {
            check_grid_shape(k, k)?;
            Ok(Shape::new(k, k))
        }
        None if count < 4 => Err(BoardError::WrongCount {
            count,
            rows: 2,
            cols: 2,
        }),
        None => Err(BoardError::CannotInferSize { count }),
    }
}

fn square_side(n: usize) -> Option<usize> {
    let k = (n as f64).sqrt().round() as usize;
    (k * k == n && k >= 1).then_some(k)
}

/// Parses one board (convenience over [`Scan::board`]): `size` is needed
/// only when the text has no rows and the tile count is not a square.
///
/// ```
/// use npuzzle::{parse_board, Shape};
///
/// let seed = parse_board("2 8 3/1 6 4/7 _ 5", None)?;
/// assert_eq!(seed.tiles(), &[2, 8, 3, 1, 6, 4, 7, 0, 5]);
/// assert_eq!(seed, parse_board("[[2,8,3],[1,6,4],[7,0,5]]", None)?);
/// assert_eq!(seed, parse_board("283164705", None)?);
///
/// let wide = parse_board("1 2 3 4 5 6 7 0", Some(Shape::new(2, 4)))?;
/// assert_eq!((wide.rows(), wide.cols()), (2, 4));
///
/// let e = parse_board("1 2 3 3", None).unwrap_err();
/// assert_eq!(e.to_string(), "tile 3 appears twice (row 2, column 1 and row 2, column 2)");
/// # Ok::<(), npuzzle::BoardError>(())
/// ```
pub fn parse_board(text: &str, size: Option<Shape>) -> Result<Board, BoardError> {
    Scan::new().board(text, size)
}

#[cfg(test)]
mod tests;
