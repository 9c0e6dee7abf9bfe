//! A problem: a start and a goal of the same shape, and how one is read
//! from one text: `START | GOAL` (the goal a board or a goal name), `START`
//! alone, or `2·n` numbers (the start, then the goal).

use super::goal::{goal_board, Against};
use super::parse::Readable;
use super::{check_same_shape, Board, GoalSpec, Grid, InputError, Scan, Shape};

/// A start and a goal of the same shape: what every search answers.
///
/// The fields are private so that no problem exists whose boards differ in
/// shape; build one with [`Problem::new`].
///
/// ```
/// use npuzzle::{Board, Problem};
/// let start = Board::from_tiles(3, 3, &[2, 8, 3, 1, 6, 4, 7, 0, 5]).unwrap();
/// let goal = Board::from_tiles(3, 3, &[1, 2, 3, 8, 0, 4, 7, 6, 5]).unwrap();
/// let p = Problem::new(start, goal).unwrap();
/// assert!(p.solvable());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    start: Board,
    goal: Board,
}

impl Problem {
    /// Pairs a start with a goal, checking that their shapes agree.
    pub fn new(start: Board, goal: Board) -> Result<Problem, InputError> {
        check_same_shape(&start, &goal)?;
        Ok(Problem { start, goal })
    }

    /// The board the moves start from.
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// The board the moves must reach.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The shape both boards share.
    pub fn shape(&self) -> Shape {
        self.start.shape()
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.start.rows()
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.start.cols()
    }

    /// Whether the goal can be reached: decided from permutation parity, in
    /// O(n), on any board.
    pub fn solvable(&self) -> bool {
        self.start.can_reach(&self.goal)
    }

    /// The start and the goal, by value.
    pub fn into_parts(self) -> (Board, Board) {
        (self.start, self.goal)
    }
}

impl Scan {
    /// Reads a start and, when the text gives one, its goal.
    ///
    /// `START | GOAL` splits at the first `|`; the goal may be a board
    /// (written flat, it takes the start's shape when its tile count alone
    /// gives none) or a name (`spiral`, …). Without a `|`, the text is one
    /// board or `2·n` numbers (see [`Scan::pair`]).
    pub fn start_and_goal(
        &mut self,
        text: &str,
        size: Option<Shape>,
    ) -> Result<(Board, Option<Board>), InputError> {
        self.read_start_and_goal(text, size)
    }

    /// [`Scan::start_and_goal`] for boards of any size (up to
    /// [`Grid::MAX_CELLS`](crate::Grid::MAX_CELLS) cells).
    pub fn grids(
        &mut self,
        text: &str,
        size: Option<Shape>,
    ) -> Result<(Grid, Option<Grid>), InputError> {
        self.read_start_and_goal(text, size)
    }

    fn read_start_and_goal<T: Readable>(
        &mut self,
        text: &str,
        size: Option<Shape>,
    ) -> Result<(T, Option<T>), InputError> {
        let Some((s, g)) = text.split_once('|') else {
            return self.read_pair(text, size);
        };
        let start: T = self.read(s, size).map_err(InputError::start)?;
        let goal: T = if g.bytes().any(|b| b.is_ascii_alphabetic()) {
            let spec: GoalSpec = g.parse().map_err(InputError::goal)?;
            spec.resolve_as(start.shape_of(), Against::Start, self)?
        } else {
            // Parsed here rather than through a `GoalSpec`, which would
            // copy the text: the batch runner reads millions of lines.
            goal_board(g, start.shape_of(), Against::Start, self)?
        };
        Ok((start, Some(goal)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_a_problem() {
        let mut scan = Scan::new();
        let (s, g) = scan
            .start_and_goal("2 8 3 1 6 4 7 0 5 | 1 2 3 8 0 4 7 6 5", None)
            .unwrap();
        assert_eq!(s.tiles()[0], 2);
        assert_eq!(g.unwrap().tiles()[3], 8);
        let (_, g) = scan.start_and_goal("283164705|spiral", None).unwrap();
        assert_eq!(g.unwrap(), Board::spiral(Shape::new(3, 3)).unwrap());
        let (_, g) = scan
            .start_and_goal("2 6 4 1 3 7 0 5 8 8 1 5 7 3 6 4 0 2", None)
            .unwrap();
        assert_eq!(g.unwrap().tiles()[0], 8);
        let (s, g) = scan.start_and_goal("1 2 3 4 5 6 7 8 0", None).unwrap();
        assert_eq!(s.rows(), 3);
        assert!(g.is_none());
        // a flat goal takes a 2x4 start's shape
        let (_, g) = scan
            .start_and_goal("1 2 3 4 5 6 0 7 | 1 2 3 4 5 6 7 0", Some(Shape::new(2, 4)))
            .unwrap();
        assert_eq!(g.unwrap().cols(), 4);
        let e = scan
            .start_and_goal("1 2 3 4 5 6 7 8 0 | 1 2 3 0", None)
            .unwrap_err();
        assert!(matches!(e, InputError::SizeMismatch { .. }), "{e}");
        // too few tiles for any board: counted against the start's shape
        let e = scan
            .start_and_goal("1 2 3 4 5 6 7 8 0 | 1 2 3", None)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "goal board: 3 tiles do not fill a 3x3 board (9 cells)"
        );
        let e = scan
            .start_and_goal("1 2 3 4 5 6 7 8 0 | sideways", None)
            .unwrap_err();
        assert!(e.to_string().starts_with("goal board"), "{e}");
    }
}
