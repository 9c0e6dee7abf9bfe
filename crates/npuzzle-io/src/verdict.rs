//! Whether a sequence of moves solves a puzzle, its length in both
//! metrics and, where an exact search can say, how far it is from the
//! fewest: what `npuzzle verify`, `POST /api/verify` and Python's
//! `verify` answer, computed here once.
//!
//! ```
//! use npuzzle::{parse_board, parse_moves, Notation, Problem, SolveOptions};
//! use npuzzle_io::verdict::verify;
//!
//! let start = parse_board("2 8 3/1 6 4/7 0 5", None)?;
//! let goal = parse_board("1 2 3/8 0 4/7 6 5", None)?;
//! let problem = Problem::new(start, goal)?;
//! let path = parse_moves("UULRLDR", Notation::Blank)?;
//! let v = verify(&problem, &path, Notation::Blank, &SolveOptions::default())?;
//! assert!(v.solves);
//! assert_eq!((v.moves, v.optimal, v.wasted), (7, Some(5), Some(2)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::analysis;
use npuzzle::{Board, BoardError, Dir, Metric, Notation, Problem, SolveOptions};
use serde::{Serialize, Serializer};

/// The verdict on a sequence of moves, in the JSON form every front end
/// writes.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the moves end on the goal.
    pub solves: bool,
    /// Their length in single-tile moves.
    pub stm: usize,
    /// Their length in pushes.
    pub mtm: usize,
    /// The metric asked for.
    pub metric: Metric,
    /// Their length in that metric.
    pub moves: usize,
    /// The fewest moves in that metric, for a solution whose optimum an
    /// exact search found.
    pub optimal: Option<u32>,
    /// `moves` less `optimal`.
    pub wasted: Option<i64>,
    /// Why the fewest moves are not known, for a solution.
    pub optimal_unknown: Option<String>,
    /// The board the moves end on.
    #[serde(serialize_with = "rows")]
    pub end: Board,
}

fn rows<S: Serializer>(b: &Board, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&b.to_row_string())
}

/// The verdict on `path` (the blank's steps) from the problem's start,
/// counted in `opts.metric`; `notation` is how a move that cannot be made
/// is named. Only a solution is worth the exact search for the fewest
/// (with `opts`, as [`analysis::distance`] runs it); a search that stops
/// leaves `optimal` unknown, with the reason.
pub fn verify(
    problem: &Problem,
    path: &[Dir],
    notation: Notation,
    opts: &SolveOptions,
) -> Result<Verdict, BoardError> {
    let metric = opts.metric;
    let end = problem.start().apply_moves(path, notation, metric)?;
    let solves = &end == problem.goal();
    let moves = metric.length(path);
    let (optimal, optimal_unknown) = if solves {
        match analysis::distance(problem.start(), problem.goal(), opts) {
            Ok(d) => (d, None),
            Err(why) => (None, Some(why.to_string())),
        }
    } else {
        (None, None)
    };
    Ok(Verdict {
        solves,
        stm: Metric::Stm.length(path),
        mtm: Metric::Mtm.length(path),
        metric,
        moves,
        optimal,
        wasted: optimal.map(|f| moves as i64 - i64::from(f)),
        optimal_unknown,
        end,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::{parse_board, parse_moves};

    fn problem() -> Problem {
        let start = parse_board("1 2 3/4 5 6/0 7 8", None).expect("a board");
        let goal = parse_board("1 2 3/4 5 6/7 8 0", None).expect("a board");
        Problem::new(start, goal).expect("a problem")
    }

    #[test]
    fn a_solution_in_both_metrics() {
        let path = parse_moves("RR", Notation::Blank).expect("moves");
        let stm = verify(&problem(), &path, Notation::Blank, &SolveOptions::default()).unwrap();
        assert!(stm.solves);
        assert_eq!((stm.stm, stm.mtm, stm.moves), (2, 1, 2));
        assert_eq!((stm.optimal, stm.wasted), (Some(2), Some(0)));
        let opts = SolveOptions::default().with_metric(Metric::Mtm);
        let mtm = verify(&problem(), &path, Notation::Blank, &opts).unwrap();
        assert_eq!((mtm.moves, mtm.optimal, mtm.wasted), (1, Some(1), Some(0)));
    }

    #[test]
    fn moves_that_stop_short_are_no_solution_and_need_no_search() {
        let path = parse_moves("R", Notation::Blank).expect("moves");
        let v = verify(&problem(), &path, Notation::Blank, &SolveOptions::default()).unwrap();
        assert!(!v.solves);
        assert_eq!((v.optimal, v.wasted, v.optimal_unknown), (None, None, None));
        assert_eq!(v.end.to_row_string(), "1 2 3/4 5 6/7 0 8");
    }

    #[test]
    fn a_move_off_the_board_is_named() {
        let path = parse_moves("D", Notation::Blank).expect("moves");
        let e = verify(&problem(), &path, Notation::Blank, &SolveOptions::default()).unwrap_err();
        assert!(e.to_string().contains('D'), "{e}");
    }
}
