//! Goals: the named layouts, and goals written out as boards.

use super::parse::{same_shape, Readable};
use super::{Board, BoardError, Grid, InputError, Scan, Shape};
use std::str::FromStr;

/// A goal as people name it: a standard layout, or a board written out
/// (resolved against the start's shape by [`GoalSpec::resolve`]).
///
/// ```
/// use npuzzle::board::{GoalSpec, Scan, Shape};
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
    /// whose own tile count gives no shape (not a square) takes `shape`; a
    /// goal of another shape is [`InputError::SizeMismatch`].
    pub fn resolve(&self, shape: Shape, scan: &mut Scan) -> Result<Board, InputError> {
        self.resolve_as(shape, scan)
    }

    /// [`GoalSpec::resolve`] for a board of any size.
    pub fn resolve_grid(&self, shape: Shape, scan: &mut Scan) -> Result<Grid, InputError> {
        self.resolve_as(shape, scan)
    }

    pub(crate) fn resolve_as<T: Readable>(
        &self,
        shape: Shape,
        scan: &mut Scan,
    ) -> Result<T, InputError> {
        let goal = match (T::named(self, shape), self) {
            (Some(g), _) => g,
            (None, GoalSpec::Board(text)) => {
                goal_board(text, shape, scan).map_err(InputError::goal)?
            }
            (None, _) => unreachable!("every named goal has a board"),
        };
        same_shape(shape, goal.shape_of())?;
        Ok(goal)
    }

    /// Resolves against a parsed start, checking the shapes agree.
    pub fn resolve_for(&self, start: &Board, scan: &mut Scan) -> Result<Board, InputError> {
        self.resolve_as(start.shape(), scan)
    }
}

/// Parses a goal written as a board for a start of shape `shape`: a flat
/// goal takes the start's shape when the count fits.
pub(crate) fn goal_board<T: Readable>(
    text: &str,
    shape: Shape,
    scan: &mut Scan,
) -> Result<T, BoardError> {
    match scan.read(text, None) {
        Err(BoardError::CannotInferSize { count }) if count == shape.cells() => {
            scan.read(text, Some(shape))
        }
        other => other,
    }
}

impl Board {
    /// Tiles in reading order, the blank last: `1 2 … n−1 0`.
    pub fn blank_last(shape: Shape) -> Board {
        let n = shape.cells();
        let tiles: Vec<u8> = (1..n).map(|t| t as u8).chain([0]).collect();
        Board::from_valid(shape, &tiles)
    }

    /// The blank first, then the tiles in reading order: `0 1 … n−1`
    /// (Korf's convention).
    pub fn blank_first(shape: Shape) -> Board {
        let tiles: Vec<u8> = (0..shape.cells()).map(|t| t as u8).collect();
        Board::from_valid(shape, &tiles)
    }

    /// Tiles `1..n−1` clockwise from the top-left corner, spiralling in; the
    /// blank takes the last cell of the spiral.
    pub fn spiral(shape: Shape) -> Board {
        let n = shape.cells();
        let mut tiles = vec![0u8; n];
        for (i, cell) in super::grid::spiral_order(shape).into_iter().enumerate() {
            tiles[cell] = if i + 1 == n { 0 } else { (i + 1) as u8 };
        }
        Board::from_valid(shape, &tiles)
    }

    /// For layouts built here, known to be permutations.
    fn from_valid(shape: Shape, tiles: &[u8]) -> Board {
        match Board::from_tiles(shape.rows, shape.cols, tiles) {
            Ok(b) => b,
            Err(e) => unreachable!("generated goal is not a board: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_goals() {
        let s = Shape::new(3, 3);
        assert_eq!(Board::spiral(s).tiles(), &[1, 2, 3, 8, 0, 4, 7, 6, 5]);
        assert_eq!(Board::blank_first(s).tiles(), &[0, 1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(Board::blank_last(s).tiles(), &[1, 2, 3, 4, 5, 6, 7, 8, 0]);
        assert_eq!(
            Board::spiral(Shape::new(4, 4)).tiles(),
            &[1, 2, 3, 4, 12, 13, 14, 5, 11, 0, 15, 6, 10, 9, 8, 7]
        );
        assert_eq!(
            Board::spiral(Shape::new(2, 4)).tiles(),
            &[1, 2, 3, 4, 0, 7, 6, 5]
        );
        for r in 2..=16 {
            for c in 2..=16 {
                let b = Board::spiral(Shape::new(r, c));
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
}
