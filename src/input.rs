//! Building a [`Problem`] from the text people type: shared by the command
//! line (a start as words or standard input, and a goal given apart) and the
//! web API (`"start"` plus `"goal"`), so both accept the same inputs and
//! answer the same errors.

use crate::board::{GoalSpec, InputError, Scan, Shape};
use crate::search::Problem;

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
}
