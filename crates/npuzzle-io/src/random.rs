//! Random instances, written as batch lines.
//!
//! Deterministic: the generator is ChaCha8 seeded from a `u64`, and every
//! draw is a `u32` range (rand's `usize` sampling differs between 32- and
//! 64-bit machines), so a seed gives the same lines on any machine.
//!
//! * [`Mode::Solvable`]: a uniformly random board that can reach the goal.
//!   A uniform permutation is drawn; when it has the wrong parity, two
//!   non-blank tiles are swapped — a bijection between the two parity
//!   classes, so the result is uniform over the solvable boards.
//! * [`Mode::Walk`]: `K` random moves from the goal, never straight back, so
//!   the board is at most `K` moves from the goal.
//! * [`Mode::Pushes`]: `K` random pushes (multi-tile moves) from the goal,
//!   each along the other line than the last, so the board is at most `K`
//!   pushes from the goal.
//! * [`Mode::Pairs`]: a uniformly random start and a uniformly random goal,
//!   reachable or not.
//!
//! Any size a [`Grid`] holds (a 1000×1000 line is about 6.9 MB); time and
//! memory are linear in the cells.

use crate::batch::push_u64;
use npuzzle::{Board, BoardError, Dir, Grid, Shape};

const MAX_SIDE: usize = Board::MAX_SIDE;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Longest random walk callers should ask for: a board must come out in
/// about a second, and longer walks draw from the same mixed distribution.
pub const MAX_WALK: u32 = 10_000_000;

/// What kind of instances to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Uniformly random boards that can reach the goal.
    Solvable,
    /// A random walk of this many moves from the goal, never straight back.
    Walk(u32),
    /// A random walk of this many pushes from the goal (the blank one cell
    /// or more along its row or column), never along the last one's line.
    Pushes(u32),
    /// A random start and a random goal (`START | GOAL`).
    Pairs,
}

/// Draws instances of one shape.
pub struct Generator {
    shape: Shape,
    goal: Grid,
    mode: Mode,
    /// Write `START | GOAL` even when the goal is fixed.
    write_goal: bool,
    rng: ChaCha8Rng,
    start: Vec<u32>,
    goal_tiles: Vec<u32>,
}

impl Generator {
    /// `goal` is the goal of `Solvable` and `Walk` boards (ignored by
    /// `Pairs`); `write_goal` writes it on every line, for goals that a
    /// batch would not assume.
    pub fn new(goal: impl Into<Grid>, mode: Mode, seed: u64, write_goal: bool) -> Generator {
        let goal: Grid = goal.into();
        let n = goal.len();
        Generator {
            shape: goal.shape(),
            goal_tiles: goal.tiles().to_vec(),
            goal,
            mode,
            write_goal: write_goal || mode == Mode::Pairs,
            rng: ChaCha8Rng::seed_from_u64(seed),
            start: vec![0; n],
        }
    }

    /// The shape of every instance drawn.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Draws the next instance: its start and goal tiles.
    pub fn next_tiles(&mut self) -> (&[u32], &[u32]) {
        match self.mode {
            Mode::Solvable => {
                shuffle(&mut self.rng, &mut self.start);
                if !can_reach(self.shape, &self.start, &self.goal) {
                    // Swap the first two non-blank cells: same blank, other parity.
                    let a = usize::from(self.start[0] == 0);
                    let b = if self.start[a + 1] == 0 { a + 2 } else { a + 1 };
                    self.start.swap(a, b);
                }
            }
            Mode::Walk(k) => {
                self.start.copy_from_slice(self.goal.tiles());
                let (rows, cols) = (self.shape.rows, self.shape.cols);
                let mut blank = self.goal.blank();
                let mut back: Option<Dir> = None;
                let mut options = [Dir::Up; 4];
                for _ in 0..k {
                    let mut count = 0;
                    for d in Dir::ALL {
                        if Some(d) != back && d.step(blank, rows, cols).is_some() {
                            options[count] = d;
                            count += 1;
                        }
                    }
                    // Every cell of a board of at least 2×2 has two neighbours.
                    let d = options[self.rng.gen_range(0..count as u32) as usize];
                    let Some(to) = d.step(blank, rows, cols) else {
                        continue;
                    };
                    self.start.swap(blank, to);
                    blank = to;
                    back = Some(d.opposite());
                }
            }
            Mode::Pushes(k) => self.walk_pushes(k),
            Mode::Pairs => {
                shuffle(&mut self.rng, &mut self.start);
                shuffle(&mut self.rng, &mut self.goal_tiles);
            }
        }
        (&self.start, &self.goal_tiles)
    }

    /// `k` random pushes from the goal into `start`, each drawn uniformly
    /// among the pushes across the last one's line (every cell has at
    /// least one: both sides are at least 2).
    fn walk_pushes(&mut self, k: u32) {
        self.start.copy_from_slice(self.goal.tiles());
        let (rows, cols) = (self.shape.rows, self.shape.cols);
        let mut blank = self.goal.blank();
        let mut across: Option<bool> = None;
        for _ in 0..k {
            // (direction, cells) of every push allowed
            let mut options: Vec<(Dir, u32)> = Vec::with_capacity(rows + cols);
            for d in Dir::ALL {
                let horizontal = matches!(d, Dir::Left | Dir::Right);
                if across == Some(horizontal) {
                    continue;
                }
                let (mut at, mut len) = (blank, 0);
                while let Some(to) = d.step(at, rows, cols) {
                    len += 1;
                    options.push((d, len));
                    at = to;
                }
            }
            let (d, len) = options[self.rng.gen_range(0..options.len() as u32) as usize];
            for _ in 0..len {
                if let Some(to) = d.step(blank, rows, cols) {
                    self.start.swap(blank, to);
                    blank = to;
                }
            }
            across = Some(matches!(d, Dir::Left | Dir::Right));
        }
    }

    /// Draws the next instance and appends it as a batch line.
    pub fn write_line(&mut self, out: &mut Vec<u8>) {
        self.next_tiles();
        // Rows are marked where the tile count alone would not give them,
        // so that every line reads back as it is.
        let cols = (self.shape.rows != self.shape.cols).then_some(self.shape.cols);
        write_tiles(out, &self.start, cols);
        if self.write_goal {
            out.extend_from_slice(b" | ");
            write_tiles(out, &self.goal_tiles, cols);
        }
        out.push(b'\n');
    }

    /// Draws the next instance as boards.
    pub fn next_boards(&mut self) -> Result<(Board, Board), BoardError> {
        let shape = self.shape;
        let (s, g) = self.next_tiles();
        let board = |t: &[u32]| {
            let t: Vec<u16> = t
                .iter()
                .map(|&x| x.min(u32::from(u16::MAX)) as u16)
                .collect();
            Board::new(shape.rows, shape.cols, &t)
        };
        Ok((board(s)?, board(g)?))
    }
}

/// Whether `start` (a permutation) can reach `goal`: without allocating
/// on boards exact search holds (millions of lines), in O(n) on others.
fn can_reach(shape: Shape, start: &[u32], goal: &Grid) -> bool {
    let n = start.len();
    if shape.rows <= MAX_SIDE && shape.cols <= MAX_SIDE {
        let (mut s, mut g) = ([0u8; MAX_SIDE * MAX_SIDE], [0u8; MAX_SIDE * MAX_SIDE]);
        for (i, (&a, &b)) in start.iter().zip(goal.tiles()).enumerate() {
            (s[i], g[i]) = (a as u8, b as u8);
        }
        return shape.can_reach(&s[..n], &g[..n]);
    }
    Grid::new(shape.rows, shape.cols, start.to_vec()).is_ok_and(|s| s.can_reach(goal))
}

/// Fisher–Yates over a fresh `0..n`.
fn shuffle(rng: &mut ChaCha8Rng, tiles: &mut [u32]) {
    for (i, t) in tiles.iter_mut().enumerate() {
        *t = i as u32;
    }
    for i in (1..tiles.len()).rev() {
        let j = rng.gen_range(0..=i as u32) as usize;
        tiles.swap(i, j);
    }
}

/// The tiles separated by spaces, and rows of `cols` by `/` when given.
fn write_tiles(out: &mut Vec<u8>, tiles: &[u32], cols: Option<usize>) {
    for (i, &t) in tiles.iter().enumerate() {
        if i > 0 {
            let row_ends = cols.is_some_and(|c| i % c == 0);
            out.extend_from_slice(if row_ends { b" / " } else { b" " });
        }
        push_u64(out, u64::from(t));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::TableSet;

    fn lines(goal: Board, mode: Mode, seed: u64, count: usize) -> String {
        let mut g = Generator::new(goal, mode, seed, false);
        let mut out = Vec::new();
        for _ in 0..count {
            g.write_line(&mut out);
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn same_seed_same_lines() {
        let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
        for mode in [Mode::Solvable, Mode::Walk(20), Mode::Pairs] {
            let a = lines(goal.clone(), mode, 7, 50);
            assert_eq!(a, lines(goal.clone(), mode, 7, 50));
            assert_ne!(a, lines(goal.clone(), mode, 8, 50));
        }
        // Pinned: a seed's lines must not change between versions or machines.
        assert_eq!(
            lines(goal, Mode::Solvable, 1, 2),
            "7 8 2 0 4 6 1 3 5\n8 2 1 7 4 5 3 0 6\n"
        );
        assert_eq!(
            lines(
                Board::blank_last(Shape::new(2, 3)).unwrap(),
                Mode::Pairs,
                1,
                1
            ),
            "4 1 5 / 0 2 3 | 0 4 5 / 3 1 2\n"
        );
        assert_eq!(
            lines(
                Board::blank_last(Shape::new(4, 4)).unwrap(),
                Mode::Walk(10),
                1,
                1
            ),
            "1 3 4 8 5 2 6 12 9 10 7 15 13 14 11 0\n"
        );
    }

    #[test]
    fn solvable_boards_reach_the_goal_and_cover_both_halves() {
        for shape in [
            Shape::new(3, 3),
            Shape::new(2, 4),
            Shape::new(4, 4),
            Shape::new(2, 2),
        ] {
            let goal = Board::spiral(shape).unwrap();
            let mut g = Generator::new(goal.clone(), Mode::Solvable, 3, false);
            let mut blanks = vec![0u32; shape.cells()];
            for _ in 0..2000 {
                let (s, _) = g.next_boards().unwrap();
                assert!(s.can_reach(&goal));
                blanks[s.blank()] += 1;
            }
            // the blank lands on every cell
            assert!(blanks.iter().all(|&c| c > 0), "{shape}: {blanks:?}");
        }
    }

    #[test]
    fn walks_stay_within_k_moves() {
        let shape = Shape::new(3, 3);
        let goal = Board::blank_first(shape).unwrap();
        for k in [0u32, 1, 2, 5, 13, 40] {
            let mut g = Generator::new(goal.clone(), Mode::Walk(k), u64::from(k), false);
            for _ in 0..300 {
                let (s, gl) = g.next_boards().unwrap();
                let d = TableSet::global()
                    .distance(shape, s.tiles(), gl.tiles())
                    .unwrap();
                assert!(d <= k && d % 2 == k % 2, "k={k} d={d}");
                if k == 1 || k == 2 {
                    // never straight back: two moves never return to the goal
                    assert_eq!(d, k);
                }
            }
        }
    }

    #[test]
    fn push_walks_stay_within_k_pushes() {
        let shape = Shape::new(3, 3);
        let goal = Board::blank_last(shape).unwrap();
        let tables = TableSet::global_in(npuzzle::Metric::Mtm);
        for k in [0u32, 1, 2, 7, 30] {
            let mut g = Generator::new(goal.clone(), Mode::Pushes(k), u64::from(k), false);
            for _ in 0..300 {
                let (s, gl) = g.next_boards().unwrap();
                let d = tables.distance(shape, s.tiles(), gl.tiles()).unwrap();
                assert!(d <= k, "k={k} d={d}");
                if k <= 2 {
                    // across the last line each time: two pushes never merge or cancel
                    assert_eq!(d, k);
                }
            }
        }
    }

    #[test]
    fn pairs_include_unreachable_goals() {
        let shape = Shape::new(2, 3);
        let mut g = Generator::new(Board::blank_last(shape).unwrap(), Mode::Pairs, 9, false);
        let (mut yes, mut no) = (0, 0);
        for _ in 0..500 {
            let (s, gl) = g.next_boards().unwrap();
            if s.can_reach(&gl) {
                yes += 1;
            } else {
                no += 1;
            }
        }
        assert!(yes > 150 && no > 150, "{yes} {no}");
        let text = lines(Board::blank_last(shape).unwrap(), Mode::Pairs, 1, 3);
        assert_eq!(text.lines().count(), 3);
        assert!(text.lines().all(|l| l.contains(" | ")));
    }
}
