//! Goals: the named layouts, and goals written out as boards.

use super::layout::{named_goal, Named};
use super::parse::{same_shape, Readable};
use super::{check_shape, Board, BoardError, Grid, InputError, Scan, Shape};
use std::str::FromStr;

/// A goal as people name it: a standard layout, or a board written out
/// (resolved against the start's shape by [`GoalSpec::resolve`]).
///
/// ```
/// use npuzzle::{GoalSpec, Scan, Shape};
///
/// let mut scan = Scan::new();
/// let spiral: GoalSpec = "spiral".parse()?;
/// let goal = spiral.resolve(Shape::new(3, 3), &mut scan)?;
/// assert_eq!(goal.tiles(), &[1, 2, 3, 8, 0, 4, 7, 6, 5]);
///
/// // Eight tiles written flat give no shape of their own: they take 2x4.
/// let mine: GoalSpec = "1 2 3 4 5 6 7 0".parse()?;
/// let goal = mine.resolve(Shape::new(2, 4), &mut scan)?;
/// assert_eq!(goal.to_row_string(), "1 2 3 4/5 6 7 0");
///
/// assert!("sideways".parse::<GoalSpec>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum GoalSpec {
    /// `1 2 … n−1 0`: tiles in reading order, blank last (the default).
    #[default]
    BlankLast,
    /// `0 1 2 … n−1`: Korf's convention.
    BlankFirst,
    /// The snail: `1 2 3 / 8 0 4 / 7 6 5` on 3×3, any R×C.
    Spiral,
    /// A board written in any accepted format.
    Board(String),
}

impl FromStr for GoalSpec {
    type Err = BoardError;

    /// A name in any case (`blank-last` or `default`, `blank-first` or
    /// `korf`, `spiral` or `snail`), else text without letters, taken as a
    /// board; other text with letters is [`BoardError::BadGoalName`].
    fn from_str(text: &str) -> Result<GoalSpec, BoardError> {
        let t = text.trim();
        Ok(match t.to_ascii_lowercase().as_str() {
            "blank-last" | "blanklast" | "default" => GoalSpec::BlankLast,
            "blank-first" | "blankfirst" | "korf" => GoalSpec::BlankFirst,
            "spiral" | "snail" => GoalSpec::Spiral,
            _ if t.bytes().any(|b| b.is_ascii_alphabetic()) => {
                return Err(BoardError::BadGoalName {
                    name: super::printable(t),
                })
            }
            _ => GoalSpec::Board(t.to_string()),
        })
    }
}

impl GoalSpec {
    /// The goal board for a start of shape `shape`. A board written flat
    /// whose tile count gives no shape of its own takes `shape` (and a
    /// count that does not fill it is reported against it); a goal of
    /// another shape is [`InputError::SizeMismatch`]; a named goal of a
    /// shape no board holds is [`BoardError::BadSize`].
    pub fn resolve(&self, shape: Shape, scan: &mut Scan) -> Result<Board, InputError> {
        self.resolve_as(shape, Against::Start, scan)
    }

    /// The goal board for a size given on its own (no start board): read
    /// at that size, so that a goal of another shape is reported about the
    /// goal and the size (`goal board: 4 tiles do not fill a 3x3 board`,
    /// `goal board: the rows give a 2x2 board but the size given is 3x3`),
    /// with no start to compare with.
    ///
    /// ```
    /// use npuzzle::{GoalSpec, Scan, Shape};
    ///
    /// let goal: GoalSpec = "1 2 3".parse()?;
    /// let e = goal.resolve_for_size(Shape::new(3, 3), &mut Scan::new()).unwrap_err();
    /// assert_eq!(e.to_string(), "goal board: 3 tiles do not fill a 3x3 board (9 cells)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resolve_for_size(&self, size: Shape, scan: &mut Scan) -> Result<Board, InputError> {
        self.resolve_as(size, Against::Size, scan)
    }

    /// [`GoalSpec::resolve`] for a board of any size.
    pub fn resolve_grid(&self, shape: Shape, scan: &mut Scan) -> Result<Grid, InputError> {
        self.resolve_as(shape, Against::Start, scan)
    }

    pub(crate) fn resolve_as<T: Readable>(
        &self,
        shape: Shape,
        against: Against,
        scan: &mut Scan,
    ) -> Result<T, InputError> {
        match self {
            GoalSpec::Board(text) => goal_board(text, shape, against, scan),
            named => T::named(named, shape).map_err(InputError::goal),
        }
    }

    /// Resolves against a parsed start, checking the shapes agree.
    pub fn resolve_for(&self, start: &Board, scan: &mut Scan) -> Result<Board, InputError> {
        self.resolve(start.shape(), scan)
    }
}

/// What the shape a goal is resolved against comes from: a start board
/// (rows of another shape then disagree with the start), or a size given
/// alone (they disagree with the size).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Against {
    Start,
    Size,
}

/// Parses a goal written as a board for boards of shape `shape`. Against
/// a size given alone it is read at that size. Against a start it keeps
/// its own shape where it gives one (rows, or a square count: another
/// shape is then [`InputError::SizeMismatch`]), and a count that gives
/// none, or too few tiles for any board, is read at the start's shape, so
/// that the count is compared with it, never with a shape guessed from it.
pub(crate) fn goal_board<T: Readable>(
    text: &str,
    shape: Shape,
    against: Against,
    scan: &mut Scan,
) -> Result<T, InputError> {
    let read = match against {
        Against::Size => scan.read(text, Some(shape)),
        Against::Start => match scan.read::<T>(text, None) {
            Err(BoardError::CannotInferSize { .. } | BoardError::WrongCount { .. }) => {
                scan.read(text, Some(shape))
            }
            other => other,
        },
    };
    let goal = read.map_err(InputError::goal)?;
    same_shape(shape, goal.shape_of())?;
    Ok(goal)
}

impl Board {
    /// Tiles in reading order, the blank last: `1 2 … n−1 0`. A shape
    /// outside [`Board::MIN_SIDE`](crate::Board::MIN_SIDE)`..=`[`Board::MAX_SIDE`](crate::Board::MAX_SIDE)
    /// is [`BoardError::BadSize`], as for every board.
    pub fn blank_last(shape: Shape) -> Result<Board, BoardError> {
        Board::named(shape, Named::BlankLast)
    }

    /// The blank first, then the tiles in reading order: `0 1 … n−1`
    /// (Korf's convention).
    pub fn blank_first(shape: Shape) -> Result<Board, BoardError> {
        Board::named(shape, Named::BlankFirst)
    }

    /// Tiles `1..n−1` clockwise from the top-left corner, spiralling in; the
    /// blank takes the last cell of the spiral.
    pub fn spiral(shape: Shape) -> Result<Board, BoardError> {
        Board::named(shape, Named::Spiral)
    }

    /// A named goal, once the shape is known to be one a board holds: only
    /// then is anything generated, so no shape reaches a layout whose tiles
    /// do not fit.
    fn named(shape: Shape, which: Named) -> Result<Board, BoardError> {
        check_shape(shape.rows, shape.cols)?;
        let tiles: Vec<u16> = named_goal(shape, which)
            .into_iter()
            // below 256 on a checked shape
            .map(|t| u16::try_from(t).unwrap_or(u16::MAX))
            .collect();
        Board::new(shape.rows, shape.cols, &tiles)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_goals() {
        let s = Shape::new(3, 3);
        assert_eq!(
            Board::spiral(s).unwrap().tiles(),
            &[1, 2, 3, 8, 0, 4, 7, 6, 5]
        );
        assert_eq!(
            Board::blank_first(s).unwrap().tiles(),
            &[0, 1, 2, 3, 4, 5, 6, 7, 8]
        );
        assert_eq!(
            Board::blank_last(s).unwrap().tiles(),
            &[1, 2, 3, 4, 5, 6, 7, 8, 0]
        );
        assert_eq!(
            Board::spiral(Shape::new(4, 4)).unwrap().tiles(),
            &[1, 2, 3, 4, 12, 13, 14, 5, 11, 0, 15, 6, 10, 9, 8, 7]
        );
        assert_eq!(
            Board::spiral(Shape::new(2, 4)).unwrap().tiles(),
            &[1, 2, 3, 4, 0, 7, 6, 5]
        );
        for r in 2..=16 {
            for c in 2..=16 {
                let b = Board::spiral(Shape::new(r, c)).unwrap();
                assert_eq!(b.len(), r * c);
            }
        }
    }

    #[test]
    fn goal_spec_parsing() {
        assert_eq!("spiral".parse::<GoalSpec>().unwrap(), GoalSpec::Spiral);
        assert_eq!(
            "Blank-First".parse::<GoalSpec>().unwrap(),
            GoalSpec::BlankFirst
        );
        assert!("blank-middle".parse::<GoalSpec>().is_err());
        let mut scan = Scan::new();
        let g: GoalSpec = "1 2 3 4 5 6 7 0".parse().unwrap();
        let b = g.resolve(Shape::new(2, 4), &mut scan).unwrap();
        assert_eq!(b.cols(), 4);
        let e = g.resolve(Shape::new(3, 3), &mut scan).unwrap_err();
        assert!(e.to_string().contains("goal board"), "{e}");
    }

    /// Shapes a board cannot hold (its tiles are bytes: at most 16x16)
    /// are an error naming the size, never a panic, whatever the goal.
    #[test]
    fn named_goals_of_shapes_no_board_holds_are_errors() {
        for (r, c) in [(17, 17), (2, 17), (17, 2), (2, 1000), (100, 100), (1, 4)] {
            let shape = Shape::new(r, c);
            for goal in [Board::blank_last, Board::blank_first, Board::spiral] {
                assert_eq!(goal(shape), Err(BoardError::BadSize { rows: r, cols: c }));
            }
            for spec in [GoalSpec::BlankLast, GoalSpec::BlankFirst, GoalSpec::Spiral] {
                let e = spec.resolve(shape, &mut Scan::new()).unwrap_err();
                assert_eq!(
                    e.to_string(),
                    format!(
                        "goal board: a {r}x{c} board is not supported by exact search: each side must be from 2 to 16"
                    )
                );
            }
        }
        // the largest board holds all its tiles
        let big = Board::blank_first(Shape::new(16, 16)).unwrap();
        assert_eq!(big.tiles()[255], 255);
    }

    /// A goal written as a board is read at the shape given: its tile
    /// count is compared with that shape, and rows of another shape are
    /// reported against the start, or against the size given alone.
    #[test]
    fn written_goals_are_read_at_the_shape_given() {
        let mut scan = Scan::new();
        let three: GoalSpec = "1 2 3".parse().unwrap();
        for e in [
            three.resolve(Shape::new(3, 3), &mut scan).unwrap_err(),
            three
                .resolve_for_size(Shape::new(3, 3), &mut scan)
                .unwrap_err(),
        ] {
            assert_eq!(
                e.to_string(),
                "goal board: 3 tiles do not fill a 3x3 board (9 cells)"
            );
        }
        let rows: GoalSpec = "1 2/3 0".parse().unwrap();
        assert_eq!(
            rows.resolve(Shape::new(3, 3), &mut scan)
                .unwrap_err()
                .to_string(),
            "the start board is 3x3 but the goal board is 2x2"
        );
        assert_eq!(
            rows.resolve_for_size(Shape::new(3, 3), &mut scan)
                .unwrap_err()
                .to_string(),
            "goal board: the rows give a 2x2 board but the size given is 3x3"
        );
        let four: GoalSpec = "1 2 3 0".parse().unwrap();
        assert_eq!(
            four.resolve(Shape::new(3, 3), &mut scan)
                .unwrap_err()
                .to_string(),
            "the start board is 3x3 but the goal board is 2x2"
        );
        assert_eq!(
            four.resolve_for_size(Shape::new(3, 3), &mut scan)
                .unwrap_err()
                .to_string(),
            "goal board: 4 tiles do not fill a 3x3 board (9 cells)"
        );
        let digits: GoalSpec = "123804765".parse().unwrap();
        let g = digits
            .resolve_for_size(Shape::new(3, 3), &mut scan)
            .unwrap();
        assert_eq!(g, Board::spiral(Shape::new(3, 3)).unwrap());
    }
}
