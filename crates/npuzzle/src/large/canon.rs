//! The board being solved, in the canonical form every phase works on.
//!
//! Tiles are renamed to their goal cells: `board[c]` is the goal cell of
//! the tile standing on cell `c` (the blank's label is the goal's blank
//! cell), so the board is solved exactly when every tile stands on its
//! label, and any goal costs the same as the standard one. A label packs
//! the goal cell's row and column (`row << col_bits | col`), so the inner
//! loops read them without a division. One `u32` a cell: there is deliberately no inverse (tile → cell) array, whose
//! update on every move would be a cache miss on large boards; the tiles
//! that matter are found by scanning the region once per line and then
//! followed move by move.

use super::emit::Emitter;
use crate::board::{Dir, Grid};

/// Division by a divisor fixed at run time, with one multiplication.
///
/// For 32-bit `n` and `d ≥ 2`, `⌊n / d⌋ = ⌊M·n / 2^64⌋` with
/// `M = ⌊(2^64 − 1) / d⌋ + 1` (Lemire, Kaser and Kurz's "fastdiv"). The
/// solver converts cell indices to rows and columns in its inner loops,
/// where a hardware division would cost more than the move itself.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FastDiv {
    m: u64,
    d: u32,
}

impl FastDiv {
    /// `d` must be at least 2.
    pub(crate) fn new(d: u32) -> FastDiv {
        debug_assert!(d >= 2);
        FastDiv {
            m: u64::MAX / u64::from(d) + 1,
            d,
        }
    }

    #[inline]
    pub(crate) fn div_rem(self, n: u32) -> (u32, u32) {
        let q = ((u128::from(self.m) * u128::from(n)) >> 64) as u32;
        (q, n - q * self.d)
    }
}

/// The board in canonical form.
pub(crate) struct Canon {
    pub rows: usize,
    pub cols: usize,
    /// Goal cell of the tile on each cell.
    pub board: Vec<u32>,
    /// The blank's cell.
    pub blank: usize,
    /// The blank's label: its goal cell.
    pub blank_label: u32,
    pub div: FastDiv,
    /// Bits of a label holding the column.
    col_bits: u32,
}

/// Bits needed for a column index below `cols`.
pub(crate) fn col_bits(cols: usize) -> u32 {
    usize::BITS - (cols.max(2) - 1).leading_zeros()
}

impl Canon {
    /// Builds the canonical board from a start and a goal of the same
    /// shape.
    pub(crate) fn new(start: &Grid, goal: &Grid) -> Canon {
        let (rows, cols) = (start.rows(), start.cols());
        let (start, goal) = (start.tiles(), goal.tiles());
        let n = rows * cols;
        // goal_cell[t] = the label of tile t's cell in the goal
        let col_bits = col_bits(cols);
        let mut goal_cell = vec![0u32; n];
        for (cell, &t) in goal.iter().enumerate() {
            goal_cell[t as usize] = (((cell / cols) << col_bits) | (cell % cols)) as u32;
        }
        let board: Vec<u32> = start.iter().map(|&t| goal_cell[t as usize]).collect();
        let blank_label = goal_cell[0];
        let blank = start.iter().position(|&t| t == 0).unwrap_or(0);
        Canon {
            rows,
            cols,
            board,
            blank,
            blank_label,
            div: FastDiv::new(cols as u32),
            col_bits,
        }
    }

    /// Row and column of a cell.
    #[inline]
    pub(crate) fn rc(&self, cell: u32) -> (u32, u32) {
        self.div.div_rem(cell)
    }

    /// Row and column of a label (a tile's goal cell).
    #[inline]
    pub(crate) fn goal_rc(&self, label: u32) -> (u32, u32) {
        (label >> self.col_bits, label & ((1 << self.col_bits) - 1))
    }

    /// Moves the blank to the adjacent cell `to`; returns the label of the
    /// tile that slid into the blank's old cell.
    #[inline]
    pub(crate) fn slide(&mut self, to: usize) -> u32 {
        let from = self.blank;
        let t = self.board[to];
        self.board[from] = t;
        self.board[to] = self.blank_label;
        self.blank = to;
        t
    }

    /// Sum of the tiles' (not the blank's) taxicab distances to their goal
    /// cells: a lower bound on the moves left, since a move shifts one tile
    /// by one cell.
    pub(crate) fn manhattan(&self) -> u64 {
        // On the row and column pairs this board already keeps (`rc` by
        // multiplication, labels packed by shifts), not `Shape::distance`:
        // that would divide twice a cell, 16,777,216 cells at the most.
        let mut sum = 0u64;
        for (cell, &label) in self.board.iter().enumerate() {
            if label == self.blank_label {
                continue;
            }
            let (r, c) = self.rc(cell as u32);
            let (gr, gc) = self.goal_rc(label);
            sum += u64::from(r.abs_diff(gr) + c.abs_diff(gc));
        }
        sum
    }
}

/// The board and the output: every move the solver makes goes through
/// [`Mover::step`], which applies it and hands it to the emitter.
pub(crate) struct Mover<'e> {
    pub grid: Canon,
    pub out: Emitter<'e>,
}

impl Mover<'_> {
    /// Moves the blank one cell in `d` (global direction), to cell `to`;
    /// returns the label of the tile that moved.
    #[inline]
    pub(crate) fn step(&mut self, d: Dir, to: usize) -> u32 {
        let from = self.grid.blank;
        let t = self.grid.slide(to);
        self.out.push(d, t, from as u32, to as u32);
        t
    }

    /// Moves the blank one cell in `d`, computing the target cell; the move
    /// must stay on the board.
    pub(crate) fn step_dir(&mut self, d: Dir) -> bool {
        match d.step(self.grid.blank, self.grid.rows, self.grid.cols) {
            Some(to) => {
                self.step(d, to);
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fastdiv_matches_division() {
        for d in [
            2u32,
            3,
            7,
            10,
            999,
            1000,
            1 << 16,
            65_537,
            999_983,
            u32::MAX,
        ] {
            let f = FastDiv::new(d);
            for n in [
                0u32,
                1,
                d - 1,
                d,
                d.saturating_add(1),
                12_345_678,
                u32::MAX - 1,
                u32::MAX,
            ] {
                assert_eq!(f.div_rem(n), (n / d, n % d), "{n} / {d}");
            }
        }
    }

    #[test]
    fn canonical_board() {
        // goal 0 1 2 3 (blank first): labels are goal cells
        let grid = |r, c, t: &[u32]| Grid::new(r, c, t.to_vec()).unwrap();
        let g = Canon::new(&grid(2, 2, &[1, 0, 2, 3]), &grid(2, 2, &[0, 1, 2, 3]));
        // labels: row << 1 | col
        assert_eq!(g.board, [1, 0, 2, 3]);
        let g3 = Canon::new(
            &grid(3, 3, &[8, 0, 1, 2, 3, 4, 5, 6, 7]),
            &grid(3, 3, &[0, 1, 2, 3, 4, 5, 6, 7, 8]),
        );
        assert_eq!(g3.board[0], 2 << 2 | 2);
        assert_eq!(g3.goal_rc(g3.board[0]), (2, 2));
        assert_eq!(col_bits(2), 1);
        assert_eq!(col_bits(3), 2);
        assert_eq!(col_bits(1024), 10);
        assert_eq!(col_bits(1025), 11);
        assert_eq!(g.blank, 1);
        assert_eq!(g.blank_label, 0);
        assert_eq!(g.manhattan(), 1);
    }
}
