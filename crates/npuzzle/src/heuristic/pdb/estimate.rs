//! How strong a partition's databases are, before searching with them:
//! their estimate of a board (with the reflection, as the search takes
//! it), and the board's asymptotic branching factor, from which the
//! relative size of an IDA* search follows (see [`Estimator`]).

use super::{PdbError, PdbHeuristic, PdbOptions, PdbReporter};
use crate::board::{Board, Shape};
use crate::budget::Budget;
use crate::heuristic::Heuristic;

/// One partition's databases (or several maxed, [`PdbOptions::with_also`])
/// as an estimate of single boards.
///
/// By Korf, Reid and Edelkamp's analysis, IDA* to depth `d` with a
/// consistent heuristic expands about `Σᵢ bⁱ P(d − i)` nodes, `P(x)` being
/// the share of all states whose estimate is at most `x`: up to a factor
/// the same for every heuristic, that is the mean of `b^−h` over states
/// drawn uniformly. Comparing two partitions by that mean on the same
/// sample says roughly how many fewer nodes one would expand, without
/// running the searches (a rough figure: the states a search meets are
/// not a uniform sample).
///
/// ```
/// use npuzzle::pdb::{branching_factor, Estimator, PartitionSpec, PdbOptions};
/// use npuzzle::{parse_board, Board, Budget, Shape};
///
/// let goal = Board::blank_last(Shape::new(3, 3))?;
/// let opts = PdbOptions::default()
///     .with_partition("4-4".parse::<PartitionSpec>()?)
///     .with_cache(false);
/// let e = Estimator::new(&goal, &opts, &(), &Budget::default())?;
/// let board = parse_board("1 2 3 4 5 6 0 7 8", None)?;
/// assert_eq!(e.estimate(&board), Some(2));
/// assert!((branching_factor(Shape::new(3, 3)) - 3f64.sqrt()).abs() < 1e-6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Estimator {
    /// The first partition, then each of [`PdbOptions::also_options`].
    hs: Vec<PdbHeuristic>,
    shape: Shape,
}

impl Estimator {
    /// Loads or builds the databases `opts` names for `goal`.
    pub fn new(
        goal: &Board,
        opts: &PdbOptions,
        reporter: &dyn PdbReporter,
        budget: &Budget,
    ) -> Result<Estimator, PdbError> {
        let mut hs = vec![PdbHeuristic::new(goal, opts, reporter, budget)?];
        let mut next = opts.also_options();
        while let Some(o) = next {
            hs.push(PdbHeuristic::new(goal, &o, reporter, budget)?);
            next = o.also_options();
        }
        Ok(Estimator {
            hs,
            shape: goal.shape(),
        })
    }

    /// The databases' estimate of the moves from `board` to the goal (the
    /// largest of the partitions'); `None` when `board` is not of the
    /// goal's size.
    pub fn estimate(&self, board: &Board) -> Option<u32> {
        (board.shape() == self.shape).then(|| {
            self.hs
                .iter()
                .map(|h| h.value(&h.init(board.tiles())))
                .max()
                .unwrap_or(0)
        })
    }

    /// The partitions, for reports (`pdb 6-6-6-6 zero-aware + reflection`,
    /// then `, max with …` for each further one).
    pub fn label(&self) -> &str {
        self.hs.first().map_or("", |h| h.label())
    }
}

/// The asymptotic branching factor of IDA*'s tree on `shape` with the move
/// back to the parent pruned: the growth of the number of paths per move,
/// the largest eigenvalue of the step from (blank cell, last direction) to
/// its successors, found by power iteration. √3 on 3×3, 2.1304 on 4×4,
/// 2.3676 on 5×5; 0 where the tree is finite (one row or column).
pub fn branching_factor(shape: Shape) -> f64 {
    let n = shape.cells();
    if n < 2 {
        return 0.0;
    }
    // (cell, direction the blank last moved in): 0 up, 1 down, 2 left, 3 right
    let step = |c: usize, d: usize| -> Option<usize> {
        let (r, col) = (c / shape.cols, c % shape.cols);
        match d {
            0 if r > 0 => Some(c - shape.cols),
            1 if r + 1 < shape.rows => Some(c + shape.cols),
            2 if col > 0 => Some(c - 1),
            3 if col + 1 < shape.cols => Some(c + 1),
            _ => None,
        }
    };
    let mut v = vec![1.0f64; n * 4];
    let mut growth = 0.0;
    // Two steps at a time: on a bipartite grid the one-step ratio can
    // oscillate between the colour classes.
    for _ in 0..500 {
        let mut next = v.clone();
        for _ in 0..2 {
            let mut w = vec![0.0f64; n * 4];
            for c in 0..n {
                for last in 0..4 {
                    let x = next[c * 4 + last];
                    if x == 0.0 {
                        continue;
                    }
                    for d in (0..4).filter(|&d| d != (last ^ 1)) {
                        if let Some(e) = step(c, d) {
                            w[e * 4 + d] += x;
                        }
                    }
                }
            }
            next = w;
        }
        let (a, b): (f64, f64) = (v.iter().sum(), next.iter().sum());
        if a == 0.0 || b == 0.0 {
            return 0.0;
        }
        growth = (b / a).sqrt();
        v = next.iter().map(|x| x / b).collect();
    }
    growth
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branching_factors_are_the_published_ones() {
        // Edelkamp & Korf's values for the 15- and 24-puzzle; √3 for the
        // 8-puzzle; on a 1×n board the paths without a move back end at
        // the far side: a finite tree.
        assert!((branching_factor(Shape::new(3, 3)) - 3f64.sqrt()).abs() < 1e-6);
        assert!((branching_factor(Shape::new(4, 4)) - 2.1304).abs() < 1e-4);
        assert!((branching_factor(Shape::new(5, 5)) - 2.3676).abs() < 1e-4);
        assert!(branching_factor(Shape::new(1, 5)) == 0.0);
    }
}
