//! The search's own estimate in its metric, kept beside any other: the
//! walking distance where its tables are small, else the Manhattan
//! distance split by axis.

use crate::board::{Board, Dir, Metric};
use crate::heuristic::{Heuristic, WalkingDistance};

/// The Manhattan distance split by axis: each tile's columns and rows from
/// home, summed apart.
#[derive(Clone, Debug)]
pub(crate) struct SplitManhattan {
    /// `cols[tile][cell]`, `rows[tile][cell]`: a tile's column and row
    /// distances from its goal cell (0 for the blank).
    cols: Vec<[u8; 256]>,
    rows: Vec<[u8; 256]>,
    /// Most tiles a horizontal and a vertical push move.
    across: u32,
    down: u32,
}

impl SplitManhattan {
    /// Toward `goal`, in pushes.
    pub(crate) fn new(goal: &Board) -> SplitManhattan {
        SplitManhattan::counting(goal, Metric::Mtm, &|_| true)
    }

    /// Toward `goal` in `metric` (in single moves the two sums are simply
    /// the Manhattan distance), counting only the tiles `counted` says.
    pub(crate) fn counting(goal: &Board, metric: Metric, counted: &dyn Fn(u8) -> bool) -> SplitManhattan {
        let shape = goal.shape();
        let n = shape.cells();
        let pos = goal.positions();
        let mut cols = vec![[0u8; 256]; n];
        let mut rows = vec![[0u8; 256]; n];
        for tile in (1..n).filter(|&t| counted(t as u8)) {
            let g = usize::from(pos[tile]);
            for cell in 0..n {
                cols[tile][cell] = (g % shape.cols).abs_diff(cell % shape.cols) as u8;
                rows[tile][cell] = (g / shape.cols).abs_diff(cell / shape.cols) as u8;
            }
        }
        let per = |side: usize| if metric == Metric::Mtm { side - 1 } else { 1 } as u32;
        SplitManhattan {
            cols,
            rows,
            across: per(shape.cols),
            down: per(shape.rows),
        }
    }

    /// `(H, V)` of a whole board.
    pub(crate) fn init(&self, tiles: &[u8]) -> (u32, u32) {
        tiles.iter().enumerate().fold((0, 0), |(h, v), (cell, &t)| {
            let t = usize::from(t);
            (h + u32::from(self.cols[t][cell]), v + u32::from(self.rows[t][cell]))
        })
    }

    /// `(H, V)` after `tile` slid from `from` to `to`.
    #[inline]
    fn update(&self, (h, v): (u32, u32), tile: u8, from: usize, to: usize) -> (u32, u32) {
        let t = usize::from(tile);
        (
            h + u32::from(self.cols[t][to]) - u32::from(self.cols[t][from]),
            v + u32::from(self.rows[t][to]) - u32::from(self.rows[t][from]),
        )
    }

    /// The fewest pushes `(H, V)` still needs.
    #[inline]
    pub(crate) fn value(&self, (h, v): (u32, u32)) -> u32 {
        h.div_ceil(self.across) + v.div_ceil(self.down)
    }
}

/// The estimate of the metric's own: walking distance in pushes where its
/// tables are small, else the split Manhattan distance (which it
/// dominates). Both keep a pair of numbers a node.
#[derive(Clone)]
pub(super) enum Floor {
    Walking(Box<WalkingDistance>),
    Split(SplitManhattan),
}

impl Floor {
    /// Toward `goal`; with a `mask`, only the tiles on its cells count
    /// (a partial goal: the walking distance would count them all).
    pub(super) fn new(goal: &Board, metric: Metric, mask: Option<&[bool]>) -> Floor {
        if let Some(mask) = mask {
            let pos = goal.positions();
            let counted = |t: u8| mask[usize::from(pos[usize::from(t)])];
            return Floor::Split(SplitManhattan::counting(goal, metric, &counted));
        }
        match WalkingDistance::new(goal, metric) {
            Some(wd) => Floor::Walking(Box::new(wd)),
            None => Floor::Split(SplitManhattan::counting(goal, metric, &|_| true)),
        }
    }

    pub(super) fn init(&self, tiles: &[u8]) -> (u32, u32) {
        match self {
            Floor::Walking(w) => w.init(tiles),
            Floor::Split(s) => s.init(tiles),
        }
    }

    /// The state after `tile` slid from `from` to `to`, the blank going
    /// the other way, `dir`.
    #[inline(always)]
    pub(super) fn update(&self, e: (u32, u32), dir: Dir, tile: u8, from: usize, to: usize) -> (u32, u32) {
        match self {
            Floor::Walking(w) => {
                let across = matches!(dir, Dir::Left | Dir::Right);
                w.step(e, across, matches!(dir, Dir::Down | Dir::Right), tile)
            }
            Floor::Split(s) => s.update(e, tile, from, to),
        }
    }

    #[inline]
    pub(super) fn value(&self, e: (u32, u32)) -> u32 {
        match self {
            Floor::Walking(w) => w.value(&e),
            Floor::Split(s) => s.value(e),
        }
    }
}
