//! How far from the goal a sequence of moves stands after each move,
//! which moves did not bring it closer, and the detours they belong to:
//! what `npuzzle analyse`, `POST /api/analyse` and Python's `analyse`
//! answer, computed here once so that the three cannot drift apart.
//!
//! Distances are exact: the complete tables on boards of up to ten cells,
//! else an exact search per position, up to [`MAX_EXACT_CELLS`] cells,
//! every search within one budget. A detour starts at a move that does
//! not bring the goal closer and ends at the first move back at the
//! distance it left: its moves are the ones wasted, and on a solution
//! their count is the length less the fewest moves.
//!
//! ```
//! use npuzzle::{parse_board, parse_moves, Notation, Problem, SolveOptions};
//! use npuzzle_io::analysis::analyse;
//!
//! let start = parse_board("2 8 3/1 6 4/7 0 5", None)?;
//! let goal = parse_board("1 2 3/8 0 4/7 6 5", None)?;
//! let problem = Problem::new(start, goal)?;
//! let path = parse_moves("UULRLDR", Notation::Blank)?;
//! let a = analyse(&problem, &path, Notation::Blank, &SolveOptions::default())?;
//! assert_eq!((a.moves, a.optimal, a.wasted), (7, 5, Some(2)));
//! assert_eq!((a.detours[0].first, a.detours[0].last), (4, 5));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use npuzzle::{format_moves, Algorithm, Board, BoardError, Dir, InputError, Metric};
use npuzzle::{Notation, Problem, SearchError, SolveOptions, TableSet};
use serde::Serialize;
use std::ops::Range;

/// The largest board whose distances are searched for (a 4x4): beyond it
/// one exact search may take far longer than anyone waits.
pub const MAX_EXACT_CELLS: usize = 16;

/// One move of the sequence (a step in STM, a push in MTM).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct MoveReport {
    /// 1-based.
    pub index: usize,
    /// As written in the notation and metric asked for.
    #[serde(rename = "move")]
    pub text: String,
    /// The fewest moves to the goal before it.
    pub distance_before: u32,
    /// The fewest moves to the goal after it.
    pub distance_after: u32,
    /// Whether it brought the goal closer.
    pub progress: bool,
    /// Whether it is part of a detour (wasted).
    pub detour: bool,
}

/// Moves `first..=last` (1-based), which leave a distance and come back
/// to it (or end before they do: `back` false).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Detour {
    /// Its first move, 1-based.
    pub first: usize,
    /// Its last move, 1-based.
    pub last: usize,
    /// Its moves as written, separated by spaces.
    pub moves: String,
    /// Whether it came back to the distance it left.
    pub back: bool,
}

/// The analysis of a sequence of moves, in one metric.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// How the moves are counted.
    pub metric: Metric,
    /// The sequence's length in the metric.
    pub moves: usize,
    /// The fewest moves from the start.
    pub optimal: u32,
    /// Moves still to go at the end (0 for a solution).
    pub to_go: u32,
    /// Length less the fewest, for a solution (`null` otherwise).
    pub wasted: Option<usize>,
    /// Every move, in order.
    pub per_move: Vec<MoveReport>,
    /// The detours, in order.
    pub detours: Vec<Detour>,
}

/// Why moves could not be analysed, or a distance is not known.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// A move cannot be made (the error names it as written and the board).
    #[error(transparent)]
    Move(#[from] BoardError),
    /// The goal is in the other parity class: no position has a distance.
    #[error(
        "the goal cannot be reached from this start (the other parity class): no distance to analyse"
    )]
    Unreachable,
    /// The board has more cells than an exact search is run on.
    #[error("exact distances are searched for on boards of at most {MAX_EXACT_CELLS} cells, and this one has {0}")]
    TooLarge(usize),
    /// The solver answered, counting in another metric.
    #[error("no exact solver counts {what} yet (the solver answered in {0})", what = .0.describe())]
    OtherMetric(Metric),
    /// The search stopped (its budget, a cancel) or could not run.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// The boards do not make a problem.
    #[error(transparent)]
    Input(#[from] InputError),
}

/// The fewest moves in `opts.metric` from `start` to `goal` (`None` when
/// unreachable): from the complete tables where they exist, else an
/// exact search with `opts` (its budget, heuristic, pattern databases,
/// threads; the algorithm is the planner's, the answer proven optimal).
/// Start the budget's clock (`Budget::started_now`) to share one
/// deadline among many calls.
pub fn distance(
    start: &Board,
    goal: &Board,
    opts: &SolveOptions,
) -> Result<Option<u32>, AnalysisError> {
    let metric = opts.metric;
    let shape = start.shape();
    if start.len() > MAX_EXACT_CELLS {
        return Err(AnalysisError::TooLarge(start.len()));
    }
    if TableSet::covers(shape) {
        // the complete table answers at once (and is built once)
        return Ok(TableSet::global_in(metric).distance(shape, start.tiles(), goal.tiles()));
    }
    let problem = Problem::new(start.clone(), goal.clone())?;
    let opts = opts
        .clone()
        .with_algorithm(Algorithm::Auto)
        .with_optimal(true)
        .with_path(false);
    let sol = npuzzle::solve(&problem, &opts)?;
    if sol.moves.is_some() && sol.metric != metric {
        return Err(AnalysisError::OtherMetric(metric));
    }
    Ok(sol.moves)
}

/// The moves of `path` in `metric`, as ranges of its steps: one step each
/// in STM, each run of equal steps (a push) in MTM.
pub fn spans(path: &[Dir], metric: Metric) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut at = 0;
    for (_, len) in npuzzle::metric_runs(path) {
        match metric {
            Metric::Stm => out.extend((at..at + len).map(|i| i..i + 1)),
            Metric::Mtm => out.push(at..at + len),
        }
        at += len;
    }
    out
}

/// The analysis of `path` (the blank's steps) from the problem's start,
/// each move counted in `opts.metric` and written in `notation`; every
/// exact search as [`distance`] runs it, within one deadline for them all.
pub fn analyse(
    problem: &Problem,
    path: &[Dir],
    notation: Notation,
    opts: &SolveOptions,
) -> Result<Analysis, AnalysisError> {
    let metric = opts.metric;
    problem.start().apply_moves(path, notation, metric)?;
    if !problem.solvable() {
        return Err(AnalysisError::Unreachable);
    }
    let mut opts = opts.clone();
    opts.budget = opts.budget.started_now();
    let spans = spans(path, metric);
    let boards = problem.start().trajectory(path)?;
    // the positions between moves: the start, then after each move
    let positions = std::iter::once(&boards[0]).chain(spans.iter().map(|s| &boards[s.end]));
    let mut distances = Vec::with_capacity(spans.len() + 1);
    for b in positions {
        // every position of a solvable problem reaches the goal
        let d = distance(b, problem.goal(), &opts)?.ok_or(AnalysisError::Unreachable)?;
        distances.push(d);
    }
    let texts: Vec<String> = spans
        .iter()
        .map(|s| format_moves(&path[s.clone()], notation, metric, false))
        .collect();
    Ok(from_distances(metric, &distances, &texts))
}

/// The analysis of moves `texts` whose distances to the goal, the start's
/// first, are `d` (one more than the moves).
pub fn from_distances(metric: Metric, d: &[u32], texts: &[String]) -> Analysis {
    let mut detours = Vec::new();
    let mut i = 0;
    while i < texts.len() {
        if d[i + 1] < d[i] {
            i += 1;
            continue;
        }
        // back at the distance it left: the first position at most d[i]
        let back = (i..texts.len()).find(|&j| d[j + 1] <= d[i]);
        let last = back.unwrap_or(texts.len() - 1);
        detours.push(Detour {
            first: i + 1,
            last: last + 1,
            moves: texts[i..=last].join(" "),
            back: back.is_some(),
        });
        i = last + 1;
    }
    let in_detour = |index: usize| detours.iter().any(|t| (t.first..=t.last).contains(&index));
    let per_move = texts
        .iter()
        .enumerate()
        .map(|(i, t)| MoveReport {
            index: i + 1,
            text: t.clone(),
            distance_before: d[i],
            distance_after: d[i + 1],
            progress: d[i + 1] < d[i],
            detour: in_detour(i + 1),
        })
        .collect();
    let to_go = d[texts.len()];
    Analysis {
        metric,
        moves: texts.len(),
        optimal: d[0],
        to_go,
        wasted: (to_go == 0).then(|| texts.len().saturating_sub(d[0] as usize)),
        per_move,
        detours,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::{parse_board, parse_moves};

    fn texts(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("m{i}")).collect()
    }

    #[test]
    fn a_detour_runs_from_the_first_step_away_to_the_first_back() {
        // 5 4 5 6 5 4 3: moves 2-5 are a detour (4 -> 6 -> 4)
        let a = from_distances(Metric::Stm, &[5, 4, 5, 6, 5, 4, 3], &texts(6));
        assert_eq!(a.detours.len(), 1);
        assert_eq!((a.detours[0].first, a.detours[0].last), (2, 5));
        assert_eq!(a.wasted, None);
        let a = from_distances(Metric::Stm, &[2, 1, 2, 1, 0], &texts(4));
        assert_eq!((a.detours[0].first, a.detours[0].last), (2, 3));
        assert_eq!(a.wasted, Some(2));
        assert!(!a.per_move[1].progress && a.per_move[2].progress && a.per_move[2].detour);
        // a push that leaves the distance as it was is a detour of one
        let a = from_distances(Metric::Mtm, &[2, 2, 1, 0], &texts(3));
        assert_eq!((a.detours[0].first, a.detours[0].last), (1, 1));
        // one that never comes back ends with the moves
        let a = from_distances(Metric::Stm, &[1, 2, 3], &texts(2));
        assert!(!a.detours[0].back && a.detours[0].last == 2);
    }

    #[test]
    fn illegal_moves_and_the_other_parity_are_refused() {
        let goal = parse_board("1 2 3/4 5 6/7 8 0", None).unwrap();
        let p = Problem::new(goal.clone(), goal.clone()).unwrap();
        let up3 = parse_moves("UUU", Notation::Blank).unwrap();
        let err = analyse(&p, &up3, Notation::Blank, &SolveOptions::default());
        assert!(matches!(err, Err(AnalysisError::Move(_))), "{err:?}");
        let swapped = parse_board("2 1 3/4 5 6/7 8 0", None).unwrap();
        let p = Problem::new(swapped, goal).unwrap();
        let err = analyse(&p, &[], Notation::Blank, &SolveOptions::default());
        assert!(matches!(err, Err(AnalysisError::Unreachable)), "{err:?}");
    }

    #[test]
    fn beyond_sixteen_cells_no_distance_is_searched_for() {
        let b = Board::blank_last(npuzzle::Shape::new(3, 6)).unwrap();
        let err = distance(&b, &b, &SolveOptions::default()).unwrap_err();
        assert!(err.to_string().contains("at most 16 cells"), "{err}");
    }
}
