//! Errors about boards and inputs: each one says what is wrong and where.

use super::{Cell, Notation};
use std::fmt;
use thiserror::Error;

/// What is wrong with one board's text or tiles.
///
/// ```
/// use npuzzle::{parse_board, Board, BoardError, Cell};
///
/// let err = Board::from_tiles(2, 2, &[1, 1, 2, 0]).unwrap_err();
/// assert_eq!(
///     err,
///     BoardError::Duplicate { tile: 1, first: Cell::new(0, 2), second: Cell::new(1, 2) }
/// );
/// assert_eq!(err.to_string(), "tile 1 appears twice (row 1, column 1 and row 1, column 2)");
/// assert_eq!(parse_board("1 2 3 4", None), Err(BoardError::NoBlank));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    /// The text holds no tokens at all (empty or only separators).
    #[error("no tiles found")]
    Empty,
    /// A token is neither a number nor a blank mark (`_`, `.`), or mixes
    /// digits with blank marks where it cannot be a digit string.
    #[error("'{token}' is not a tile (item {index}); tiles are numbers, the blank is 0, _ or .")]
    BadToken {
        /// The token as written.
        token: String,
        /// Its 1-based position among the board's tokens.
        index: usize,
    },
    /// No size was given, the text has no row structure, and the tile
    /// count is not a square.
    #[error("cannot infer the board size from {count} tiles (not a square number and no rows given); give the size as RxC, e.g. 2x4")]
    CannotInferSize {
        /// Tiles read.
        count: usize,
    },
    /// The tile count differs from the cell count of the board's shape (the
    /// size given; below four tiles, the smallest board, 2×2).
    #[error("{count} tiles do not fill a {rows}x{cols} board ({} cells)", rows * cols)]
    WrongCount {
        /// Tiles read.
        count: usize,
        /// Rows of the board they should fill.
        rows: usize,
        /// Columns of the board they should fill.
        cols: usize,
    },
    /// The text is written in rows and one row's length differs from the
    /// first row's.
    #[error("row {row} has {len} tiles but row 1 has {expected}")]
    RaggedRows {
        /// The first row that differs, 1-based.
        row: usize,
        /// Its tile count.
        len: usize,
        /// Row 1's tile count.
        expected: usize,
    },
    /// The text is written in rows, and they give a different shape from
    /// the size given alongside.
    #[error("the rows give a {rows}x{cols} board but the size given is {want_rows}x{want_cols}")]
    RowsDisagreeWithSize {
        /// Rows as written.
        rows: usize,
        /// Columns as written.
        cols: usize,
        /// Rows of the size given.
        want_rows: usize,
        /// Columns of the size given.
        want_cols: usize,
    },
    /// A side is outside [`MIN_SIDE`]`..=`[`MAX_SIDE`].
    ///
    /// [`MIN_SIDE`]: crate::Board::MIN_SIDE
    /// [`MAX_SIDE`]: crate::Board::MAX_SIDE
    #[error(
        "a {rows}x{cols} board is not supported by exact search: each side must be from 2 to 16"
    )]
    BadSize {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// A tile (or the blank, `0`) stands on two cells.
    #[error("tile {tile} appears twice ({first} and {second})")]
    Duplicate {
        /// The repeated tile.
        tile: usize,
        /// Where it stands first, in reading order.
        first: Cell,
        /// Where it stands again.
        second: Cell,
    },
    /// A number is not below `rows · cols`, so it names no tile of the board.
    #[error("number {value} at {cell} is out of range: a {rows}x{cols} board has tiles 1..{} and the blank 0", rows * cols - 1)]
    OutOfRange {
        /// The number as written.
        value: String,
        /// Rows of the board.
        rows: usize,
        /// Columns of the board.
        cols: usize,
        /// Where it stands.
        cell: Cell,
    },
    /// The numbers are `1..=rows·cols`, each once: no cell holds the blank.
    #[error("no blank: write it as 0, _ or .")]
    NoBlank,
    /// A path holds a character that is not `U`, `D`, `L` or `R`.
    #[error("'{letter}' (move {index}) is not a move; moves are U, D, L, R")]
    BadMove {
        /// The character.
        letter: char,
        /// Its 1-based position in the text.
        index: usize,
    },
    /// A count (`2` of `R2`) stands where no move letter is before it
    /// (`2R`, `R 2`).
    #[error("the count at character {position} follows no move; write it right after its letter, as in R2")]
    CountWithoutMove {
        /// 1-based position of its first digit in the text.
        position: usize,
    },
    /// A move's count is 0 (`R0`).
    #[error("'{token}' (character {position}) moves nothing; a count is at least 1")]
    ZeroCount {
        /// The move as written.
        token: String,
        /// 1-based position of its letter in the text.
        position: usize,
    },
    /// The moves come to more single steps than any text is read into.
    #[error("the moves come to more than {max} single steps")]
    TooManyMoves {
        /// The most steps read.
        max: usize,
    },
    /// A path moves the blank off the board.
    #[error("move {index} ({written}, {notation} notation) cannot be made on {board}: {}", illegal_why(*.notation))]
    IllegalMove {
        /// Its 1-based position in the path (counted in single steps, or
        /// in pushes when the path was applied in the multi-tile metric).
        index: usize,
        /// The move as written in `notation` (`L`, or a push, `R2`).
        written: String,
        /// The notation it is written in.
        notation: Notation,
        /// The board it could not be made on, rows separated by `/`.
        board: String,
    },
    /// A board of this size cannot be held at all: each side at least 2,
    /// at most [`Grid::MAX_CELLS`](crate::Grid::MAX_CELLS) cells.
    #[error("a {rows}x{cols} board is not supported: each side must be at least 2, and at most {} cells in all", super::MAX_GRID_CELLS)]
    BadGridSize {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// A size is not `RxC` or `N` with both sides numbers.
    #[error("'{text}' is not a size; write it as RxC, e.g. 3x3 or 2x4")]
    BadSizeText {
        /// The text as given.
        text: String,
    },
    /// A goal holds letters but is none of the goal names.
    #[error("'{name}' is not a goal name; use blank-last, blank-first, spiral, a board, or a partial goal (first-row, first-rows:K, first-row-column, or a board with * on free cells)")]
    BadGoalName {
        /// The text as given (trimmed).
        name: String,
    },
    /// A partial goal (a board with free cells) that is not one.
    #[error("partial goal: {reason}")]
    Partial {
        /// What is wrong, and where.
        reason: String,
    },
}

/// Why a move cannot be made, as its notation sees it.
fn illegal_why(notation: Notation) -> &'static str {
    match notation {
        Notation::Blank => "the blank is at the edge",
        Notation::Tile => "no tile is there to slide",
    }
}

/// Which board of a problem an error is about.
///
/// ```
/// use npuzzle::{InputError, Role, Scan};
///
/// // The goal (after the `|`) repeats a tile.
/// let err = Scan::new().start_and_goal("1 2 3 0 | 1 2 2 0", None).unwrap_err();
/// assert!(matches!(err, InputError::Board { role: Role::Goal, .. }));
/// assert_eq!(Role::Goal.to_string(), "goal");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The board the moves start from.
    Start,
    /// The board the moves must reach.
    Goal,
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Start => "start",
            Role::Goal => "goal",
        })
    }
}

/// A problem with the input as a whole: which board, and what.
///
/// ```
/// use npuzzle::{Board, InputError, Problem, Shape};
///
/// let start = Board::blank_last(Shape::new(3, 3))?;
/// let goal = Board::blank_last(Shape::new(2, 2))?;
/// let err = Problem::new(start, goal).unwrap_err();
/// assert!(matches!(err, InputError::SizeMismatch { start_rows: 3, goal_rows: 2, .. }));
/// assert_eq!(err.to_string(), "the start board is 3x3 but the goal board is 2x2");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InputError {
    /// One of the boards is wrong.
    #[error("{role} board: {error}")]
    Board {
        /// Which board.
        role: Role,
        /// What is wrong with it.
        error: BoardError,
    },
    /// Both boards are valid but their shapes differ.
    #[error("the start board is {start_rows}x{start_cols} but the goal board is {goal_rows}x{goal_cols}")]
    SizeMismatch {
        /// Rows of the start.
        start_rows: usize,
        /// Columns of the start.
        start_cols: usize,
        /// Rows of the goal.
        goal_rows: usize,
        /// Columns of the goal.
        goal_cols: usize,
    },
    /// The text holds a goal (`START | GOAL`, or a start and goal pair)
    /// and a goal was given separately as well.
    #[error("the input already holds a goal; do not give another")]
    GoalGivenTwice,
}

impl InputError {
    /// `error` about the start board.
    pub fn start(error: BoardError) -> InputError {
        InputError::Board {
            role: Role::Start,
            error,
        }
    }

    /// `error` about the goal board.
    pub fn goal(error: BoardError) -> InputError {
        InputError::Board {
            role: Role::Goal,
            error,
        }
    }
}

/// Text a user typed, as an error message may quote it: control characters
/// escaped (`\u{1b}`, `\0`) so that none reaches a terminal raw, and text
/// longer than 40 characters cut, with `…`.
///
/// ```
/// use npuzzle::printable;
///
/// assert_eq!(printable("1 2 \u{1b}[31m"), "1 2 \\u{1b}[31m");
/// assert_eq!(printable(&"7".repeat(50)), format!("{}…", "7".repeat(40)));
/// ```
pub fn printable(text: &str) -> String {
    const MAX_CHARS: usize = 40;
    let mut out = String::with_capacity(text.len().min(4 * MAX_CHARS));
    for (i, c) in text.chars().enumerate() {
        if i == MAX_CHARS {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_escapes_control_characters_and_cuts_long_text() {
        assert_eq!(printable("abc"), "abc");
        assert_eq!(printable("a\u{1b}[31mb\0"), "a\\u{1b}[31mb\\u{0}");
        assert_eq!(printable("é✓"), "é✓");
        let long = "1".repeat(1000);
        assert_eq!(printable(&long), format!("{}…", "1".repeat(40)));
    }
}
