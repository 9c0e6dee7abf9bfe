//! Linear conflict: Manhattan distance plus an admissible count of the extra
//! moves that tiles sharing a line (row or column) with their goal line need
//! to get past one another.
//!
//! **Definition (the admissible one).** For each row, take the tiles
//! standing in it whose goal is also in that row, read their goal columns
//! left to right, and let `k` be their number and `l` the length of the
//! longest increasing subsequence. The `k − l` tiles outside that
//! subsequence must each leave the row and come back, two moves Manhattan
//! does not count, so the row adds `2 (k − l)`. The same for every column.
//! Rows and columns are independent: a tile leaving its goal row moves
//! vertically, which Manhattan charges to no column, and vice versa.
//!
//! Versions that add 2 for every *pair* in conflict overestimate (three
//! tiles in reverse order are three pairs but need only two tiles to step
//! aside); the tests check this one against exact distances on every 3×3
//! state.
//!
//! **Incremental update.** A horizontal move changes one tile's column:
//! only the two columns it leaves and enters can change, and of those only
//! the one that is the tile's goal column counts it; rows keep their order.
//! A vertical move likewise touches only one row's value.

use super::{Heuristic, Manhattan};
use crate::board::{Board, MAX_SIDE};

/// Linear conflict (with Manhattan) to a fixed goal.
#[derive(Clone, Debug)]
pub struct LinearConflict {
    md: Manhattan,
    rows: usize,
    cols: usize,
    goal_row: Vec<u8>,
    goal_col: Vec<u8>,
}

/// Manhattan distance and the conflict term, kept apart so a move updates
/// each cheaply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LcState {
    /// The Manhattan distance.
    pub manhattan: u32,
    /// The conflict term: the sum of `2 (k − l)` over every row and column.
    pub conflicts: u32,
}

impl LinearConflict {
    /// Linear conflict toward `goal`.
    pub fn new(goal: &Board) -> LinearConflict {
        let cols = goal.cols();
        let pos = goal.positions();
        LinearConflict {
            md: Manhattan::new(goal),
            rows: goal.rows(),
            cols,
            goal_row: pos.iter().map(|&c| (usize::from(c) / cols) as u8).collect(),
            goal_col: pos.iter().map(|&c| (usize::from(c) % cols) as u8).collect(),
        }
    }

    /// `2 (k − l)` for one line: `len` cells from `first`, `step` apart.
    /// Only tiles whose goal line (`goal_line[tile]`) is `line` count; their
    /// goal position along the line is `goal_along[tile]`. `over` replaces
    /// the tile on one cell (to see the board before a move).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn line(
        tiles: &[u8],
        first: usize,
        step: usize,
        len: usize,
        line: u8,
        goal_line: &[u8],
        goal_along: &[u8],
        over: Option<(usize, u8)>,
    ) -> u32 {
        let mut tails = [0u8; MAX_SIDE];
        let (mut k, mut lis) = (0u32, 0usize);
        for i in 0..len {
            let cell = first + i * step;
            let t = match over {
                Some((c, t)) if c == cell => t,
                _ => tiles[cell],
            };
            let t = usize::from(t);
            if t == 0 || goal_line[t] != line {
                continue;
            }
            k += 1;
            let v = goal_along[t];
            let at = tails[..lis].partition_point(|&x| x < v);
            tails[at] = v;
            if at == lis {
                lis += 1;
            }
        }
        2 * (k - lis as u32)
    }

    fn row(&self, tiles: &[u8], r: usize, over: Option<(usize, u8)>) -> u32 {
        Self::line(
            tiles,
            r * self.cols,
            1,
            self.cols,
            r as u8,
            &self.goal_row,
            &self.goal_col,
            over,
        )
    }

    fn col(&self, tiles: &[u8], c: usize, over: Option<(usize, u8)>) -> u32 {
        Self::line(
            tiles,
            c,
            self.cols,
            self.rows,
            c as u8,
            &self.goal_col,
            &self.goal_row,
            over,
        )
    }

    /// The conflict term alone (without Manhattan).
    pub fn conflicts(&self, tiles: &[u8]) -> u32 {
        let rows: u32 = (0..self.rows).map(|r| self.row(tiles, r, None)).sum();
        let cols: u32 = (0..self.cols).map(|c| self.col(tiles, c, None)).sum();
        rows + cols
    }
}

impl Heuristic for LinearConflict {
    type State = LcState;

    fn name(&self) -> &'static str {
        "linear-conflict"
    }

    fn init(&self, tiles: &[u8]) -> LcState {
        LcState {
            manhattan: self.md.init(tiles),
            conflicts: self.conflicts(tiles),
        }
    }

    #[inline]
    fn value(&self, s: &LcState) -> u32 {
        s.manhattan + s.conflicts
    }

    #[inline]
    fn update(&self, s: &LcState, tiles: &[u8], tile: u8, from: usize, to: usize) -> LcState {
        let manhattan = s.manhattan + self.md.tile(tile, to) - self.md.tile(tile, from);
        let mut conflicts = s.conflicts;
        let cols = self.cols;
        let t = usize::from(tile);
        if from / cols == to / cols {
            // Horizontal: the tile leaves column from%cols for to%cols.
            let g = usize::from(self.goal_col[t]);
            if g == from % cols {
                conflicts =
                    conflicts - self.col(tiles, g, Some((from, tile))) + self.col(tiles, g, None);
            } else if g == to % cols {
                conflicts =
                    conflicts - self.col(tiles, g, Some((to, 0))) + self.col(tiles, g, None);
            }
        } else {
            // Vertical: the tile leaves row from/cols for to/cols.
            let g = usize::from(self.goal_row[t]);
            if g == from / cols {
                conflicts =
                    conflicts - self.row(tiles, g, Some((from, tile))) + self.row(tiles, g, None);
            } else if g == to / cols {
                conflicts =
                    conflicts - self.row(tiles, g, Some((to, 0))) + self.row(tiles, g, None);
            }
        }
        LcState {
            manhattan,
            conflicts,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Dir, Shape};
    use rand::{Rng, SeedableRng};

    #[test]
    fn reversed_line_counts_tiles_not_pairs() {
        // Row 0 holds 3 2 1 (all with goal row 0): LIS 1, so 2·(3−1) = 4,
        // where the pairwise version would say 6.
        let goal = Board::from_tiles(3, 3, &[1, 2, 3, 4, 5, 6, 7, 8, 0]).unwrap();
        let h = LinearConflict::new(&goal);
        let b = [3, 2, 1, 4, 5, 6, 7, 8, 0];
        assert_eq!(h.conflicts(&b), 4);
        assert_eq!(h.estimate(&b), 4 + 4);
    }

    #[test]
    fn incremental_update_matches_full_evaluation() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for (r, c) in [(3, 3), (4, 4), (2, 5), (3, 4), (5, 3)] {
            let goal = Board::blank_first(Shape::new(r, c)).unwrap();
            let h = LinearConflict::new(&goal);
            let mut b = goal.clone();
            let mut s = h.init(b.tiles());
            for _ in 0..3000 {
                let d = Dir::ALL[rng.gen_range(0..4)];
                let z = b.blank();
                if !b.apply(d) {
                    continue;
                }
                let tile = b.tiles()[z];
                s = h.update(&s, b.tiles(), tile, b.blank(), z);
                assert_eq!(s, h.init(b.tiles()), "{r}x{c} after {d:?}");
            }
        }
    }
}
