//! Building a [`Problem`] from the text people type: shared by the command
//! line (a start as words or standard input, and a goal given apart) and the
//! web API (`"start"` plus `"goal"`), so both accept the same inputs and
//! answer the same errors.

use npuzzle::Problem;
use npuzzle::{GoalSpec, Grid, InputError, Scan, Shape};

/// Parses a start (or a start and a goal) from text; `goal` is the goal
/// given separately (a command-line option, the API's `"goal"`), if any.
/// A goal in both places is [`InputError::GoalGivenTwice`].
///
/// The text may hold the start alone, `START | GOAL`, or `2·n` tiles (the
/// first `n` are the start). With no goal anywhere the goal is blank-last.
pub fn problem_from_text(
    text: &str,
    goal: Option<&GoalSpec>,
    size: Option<Shape>,
) -> Result<Problem, InputError> {
    let mut scan = Scan::new();
    let (start, inline_goal) = scan.start_and_goal(text, size)?;
    let goal = match (inline_goal, goal) {
        (Some(_), Some(_)) => return Err(InputError::GoalGivenTwice),
        (Some(g), None) => g,
        (None, Some(spec)) => spec.resolve_for(&start, &mut scan)?,
        (None, None) => GoalSpec::default().resolve_for(&start, &mut scan)?,
    };
    Problem::new(start, goal)
}

/// [`problem_from_text`] for boards of any size (up to
/// [`MAX_GRID_CELLS`](npuzzle::Grid::MAX_CELLS) cells): the start and
/// the goal as [`Grid`]s, in time and memory linear in the text.
pub fn grids_from_text(
    text: &str,
    goal: Option<&GoalSpec>,
    size: Option<Shape>,
) -> Result<(Grid, Grid), InputError> {
    let mut scan = Scan::new();
    let (start, inline_goal) = scan.grids(text, size)?;
    let goal = match (inline_goal, goal) {
        (Some(_), Some(_)) => return Err(InputError::GoalGivenTwice),
        (Some(g), None) => g,
        (None, Some(spec)) => spec.resolve_grid(start.shape(), &mut scan)?,
        (None, None) => GoalSpec::default().resolve_grid(start.shape(), &mut scan)?,
    };
    Ok((start, goal))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_of_the_problem() {
        let p = problem_from_text("2 8 3 1 6 4 7 0 5", None, None).unwrap();
        assert_eq!(p.goal().tiles(), &[1, 2, 3, 4, 5, 6, 7, 8, 0]);
        let p = problem_from_text("283164705 | spiral", None, None).unwrap();
        assert_eq!(p.goal().tiles(), &[1, 2, 3, 8, 0, 4, 7, 6, 5]);
        let spiral = GoalSpec::Spiral;
        let p = problem_from_text("2 8 3/1 6 4/7 0 5", Some(&spiral), None).unwrap();
        assert_eq!(p.goal().tiles(), &[1, 2, 3, 8, 0, 4, 7, 6, 5]);
        let e = problem_from_text("283164705 | spiral", Some(&spiral), None).unwrap_err();
        assert_eq!(e, InputError::GoalGivenTwice);
    }

    #[test]
    fn grids_of_any_size() {
        use npuzzle::{BoardError, Grid};
        // 20x20 in rows, goal named
        let shape = Shape::new(20, 20);
        let rows: Vec<String> = Grid::blank_first(shape)
            .tiles()
            .chunks(20)
            .map(|r| r.iter().map(u32::to_string).collect::<Vec<_>>().join(" "))
            .collect();
        let (s, g) = grids_from_text(&rows.join("\n"), Some(&GoalSpec::Spiral), None).unwrap();
        assert_eq!(s, Grid::blank_first(shape));
        assert_eq!(g, Grid::spiral(shape));
        // 1000x1000 flat, with the goal inline
        let big = Grid::blank_last(Shape::new(1000, 1000)).to_flat_string();
        let (s, g) = grids_from_text(&format!("{big} | blank-first"), None, None).unwrap();
        assert_eq!((s.rows(), s.cols(), g.blank()), (1000, 1000, 0));
        // 2x300 needs a size
        let wide = Grid::blank_last(Shape::new(2, 300)).to_flat_string();
        let e = grids_from_text(&wide, None, None).unwrap_err();
        assert!(e.to_string().contains("600"), "{e}");
        let (s, _) = grids_from_text(&wide, None, Some(Shape::new(2, 300))).unwrap();
        assert_eq!(s.cols(), 300);
        // errors name the board and the place
        let mut bad = Grid::blank_last(Shape::new(20, 20)).tiles().to_vec();
        bad[398] = 400;
        let text: Vec<String> = bad.iter().map(u32::to_string).collect();
        let e = grids_from_text(&text.join(" "), None, None).unwrap_err();
        assert!(
            e.to_string().contains("number 400 at row 20, column 19"),
            "{e}"
        );
        // the small board still says exact search cannot take it
        let e = problem_from_text(&rows.join("\n"), None, None).unwrap_err();
        assert!(
            matches!(
                e,
                InputError::Board {
                    error: BoardError::BadSize { .. },
                    ..
                }
            ),
            "{e}"
        );
    }
}
