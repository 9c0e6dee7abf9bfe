//! Errors about boards and inputs: each one says what is wrong and where.

use super::Cell;
use std::fmt;
use thiserror::Error;

/// What is wrong with one board's text or tiles.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    #[error("no tiles found")]
    Empty,
    #[error("'{token}' is not a tile (item {index}); tiles are numbers, the blank is 0, _ or .")]
    BadToken { token: String, index: usize },
    #[error("cannot infer the board size from {count} tiles (not a square number and no rows given); give the size as RxC, e.g. 2x4")]
    CannotInferSize { count: usize },
    #[error("{count} tiles do not fill a {rows}x{cols} board ({} cells)", rows * cols)]
    WrongCount {
        count: usize,
        rows: usize,
        cols: usize,
    },
    #[error("row {row} has {len} tiles but row 1 has {expected}")]
    RaggedRows {
        row: usize,
        len: usize,
        expected: usize,
    },
    #[error("the rows give a {rows}x{cols} board but the size given is {want_rows}x{want_cols}")]
    RowsDisagreeWithSize {
        rows: usize,
        cols: usize,
        want_rows: usize,
        want_cols: usize,
    },
    #[error("a {rows}x{cols} board is not supported: each side must be from 2 to 16")]
    BadSize { rows: usize, cols: usize },
    #[error("tile {tile} appears twice ({first} and {second})")]
    Duplicate {
        tile: usize,
        first: Cell,
        second: Cell,
    },
    #[error("number {value} at {cell} is out of range: a {rows}x{cols} board has tiles 1..{} and the blank 0", rows * cols - 1)]
    OutOfRange {
        value: u64,
        rows: usize,
        cols: usize,
        cell: Cell,
    },
    #[error("no blank: write it as 0, _ or .")]
    NoBlank,
    #[error("'{letter}' (move {index}) is not a move; moves are U, D, L, R")]
    BadMove { letter: char, index: usize },
    #[error("move {index} ('{letter}') leaves the board")]
    IllegalMove { letter: char, index: usize },
    #[error("'{text}' is not a size; write it as RxC, e.g. 3x3 or 2x4")]
    BadSizeText { text: String },
    #[error("'{name}' is not a goal name; use blank-last, blank-first, spiral or a board")]
    BadGoalName { name: String },
}

/// Which board of a problem an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Start,
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
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InputError {
    #[error("{role} board: {error}")]
    Board { role: Role, error: BoardError },
    #[error("the start board is {start_rows}x{start_cols} but the goal board is {goal_rows}x{goal_cols}")]
    SizeMismatch {
        start_rows: usize,
        start_cols: usize,
        goal_rows: usize,
        goal_cols: usize,
    },
    #[error("the input already holds a goal; do not give another")]
    GoalGivenTwice,
    #[error("{0}")]
    Other(BoardError),
}

impl InputError {
    pub fn start(error: BoardError) -> InputError {
        InputError::Board {
            role: Role::Start,
            error,
        }
    }

    pub fn goal(error: BoardError) -> InputError {
        InputError::Board {
            role: Role::Goal,
            error,
        }
    }
}
