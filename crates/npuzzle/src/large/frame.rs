//! Regions of the board and local coordinates for peeling one side.
//!
//! Peeling the top row, the bottom row, the left or the right column is
//! one problem seen four ways. A [`Frame`] maps local coordinates — the
//! line being filled is local row 0, the rest of the region lies below it
//! (rows `1..h`), and the line runs along local columns `0..w` — to global
//! cells and directions, so the placement code is written once.

use crate::board::Dir;

/// A cell in local coordinates (may lie outside the region while testing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct P {
    pub r: i32,
    pub c: i32,
}

impl P {
    pub(crate) const fn new(r: i32, c: i32) -> P {
        P { r, c }
    }

    /// The neighbour in local direction `d`.
    #[inline]
    pub(crate) fn step(self, d: Dir) -> P {
        const DR: [i32; 4] = [-1, 1, 0, 0];
        const DC: [i32; 4] = [0, 0, -1, 1];
        P::new(self.r + DR[d as usize], self.c + DC[d as usize])
    }

    #[inline]
    pub(crate) fn dist(self, o: P) -> i32 {
        (self.r - o.r).abs() + (self.c - o.c).abs()
    }
}

/// The unsolved rectangle: rows `r0..r1`, columns `c0..c1` (global).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Region {
    pub r0: usize,
    pub r1: usize,
    pub c0: usize,
    pub c1: usize,
}

impl Region {
    pub(crate) fn rows(&self) -> usize {
        self.r1 - self.r0
    }

    pub(crate) fn cols(&self) -> usize {
        self.c1 - self.c0
    }

    /// The region left after peeling `side`.
    pub(crate) fn without(self, side: Side) -> Region {
        let mut r = self;
        match side {
            Side::Top => r.r0 += 1,
            Side::Bottom => r.r1 -= 1,
            Side::Left => r.c0 += 1,
            Side::Right => r.c1 -= 1,
        }
        r
    }

    /// Whether the global cell `(row, col)` lies on `side`'s line.
    pub(crate) fn on_side(&self, side: Side, row: usize, col: usize) -> bool {
        match side {
            Side::Top => row == self.r0,
            Side::Bottom => row + 1 == self.r1,
            Side::Left => col == self.c0,
            Side::Right => col + 1 == self.c1,
        }
    }
}

/// A side of the region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    Top,
    Bottom,
    Left,
    Right,
}

impl Side {
    pub(crate) const ALL: [Side; 4] = [Side::Top, Side::Bottom, Side::Left, Side::Right];
}

/// Local coordinates for peeling one side of a region.
#[derive(Clone, Debug)]
pub(crate) struct Frame {
    /// Depth of the region (local rows `0..h`).
    pub h: i32,
    /// Length of the line (local columns `0..w`).
    pub w: i32,
    base: isize,
    /// Global index steps for one local row and one local column.
    sr: isize,
    sc: isize,
    /// Global direction of local Up, Down, Left, Right.
    dirs: [Dir; 4],
    /// Global cell index step of each local direction.
    delta: [isize; 4],
    /// Local row and column of a global `(row, col)`: `r = a·(row, col, 1)`
    /// and `c = b·(row, col, 1)`.
    a: [i32; 3],
    b: [i32; 3],
    /// The global row (if `a[0] ≠ 0`) or column of local row 0.
    line_at: u32,
}

impl Frame {
    /// The frame for peeling `side`; `mirrored` numbers the line from its
    /// other end (from the right for a row, from the bottom for a column).
    pub(crate) fn new(region: Region, side: Side, cols: usize, mirrored: bool) -> Frame {
        let Region { r0, r1, c0, c1 } = region;
        let cols = cols as isize;
        let at = |r: usize, c: usize| r as isize * cols + c as isize;
        use Dir::*;
        let (base, sr, sc, dirs, h, w) = match side {
            Side::Top => (
                at(r0, c0),
                cols,
                1,
                [Up, Down, Left, Right],
                r1 - r0,
                c1 - c0,
            ),
            Side::Bottom => (
                at(r1 - 1, c0),
                -cols,
                1,
                [Down, Up, Left, Right],
                r1 - r0,
                c1 - c0,
            ),
            Side::Left => (
                at(r0, c0),
                1,
                cols,
                [Left, Right, Up, Down],
                c1 - c0,
                r1 - r0,
            ),
            Side::Right => (
                at(r0, c1 - 1),
                -1,
                cols,
                [Right, Left, Up, Down],
                c1 - c0,
                r1 - r0,
            ),
        };
        let (base, sc, dirs) = if mirrored {
            let [u, d, l, r] = dirs;
            (base + (w as isize - 1) * sc, -sc, [u, d, r, l])
        } else {
            (base, sc, dirs)
        };
        let (r0, r1, c0, c1) = (r0 as i32, r1 as i32, c0 as i32, c1 as i32);
        let (a, mut b) = match side {
            Side::Top => ([1, 0, -r0], [0, 1, -c0]),
            Side::Bottom => ([-1, 0, r1 - 1], [0, 1, -c0]),
            Side::Left => ([0, 1, -c0], [1, 0, -r0]),
            Side::Right => ([0, -1, c1 - 1], [1, 0, -r0]),
        };
        if mirrored {
            b = [-b[0], -b[1], w as i32 - 1 - b[2]];
        }
        // local row 0 is `a·(row, col, 1) = 0`, with one of a[0], a[1] ±1
        let line_at = (-a[2] * (a[0] + a[1])) as u32;
        Frame {
            line_at,
            h: h as i32,
            w: w as i32,
            base,
            sr,
            sc,
            dirs,
            delta: [-sr, sr, -sc, sc],
            a,
            b,
        }
    }

    /// Global index step from a cell to its neighbour at local offset
    /// `(dr, dc)`.
    #[inline]
    pub(crate) fn offset(&self, dr: i32, dc: i32) -> isize {
        dr as isize * self.sr + dc as isize * self.sc
    }

    /// Global cell of a local cell (which must be in the region).
    #[inline]
    pub(crate) fn cell(&self, p: P) -> usize {
        (self.base + p.r as isize * self.sr + p.c as isize * self.sc) as usize
    }

    /// Global direction of a local direction.
    #[inline]
    pub(crate) fn dir(&self, d: Dir) -> Dir {
        self.dirs[d as usize]
    }

    /// The global cell one step from global cell `cell` in local direction
    /// `d`.
    #[inline]
    pub(crate) fn next_cell(&self, cell: usize, d: Dir) -> usize {
        (cell as isize + self.delta[d as usize]) as usize
    }

    /// Local cell of the global cell `(row, col)`.
    #[inline]
    pub(crate) fn local(&self, row: u32, col: u32) -> P {
        let (row, col) = (row as i32, col as i32);
        let (a, b) = (&self.a, &self.b);
        P::new(
            a[0] * row + a[1] * col + a[2],
            b[0] * row + b[1] * col + b[2],
        )
    }

    /// The line cell whose goal is global cell `(row, col)`, if it is on
    /// the line.
    #[inline]
    pub(crate) fn line_of(&self, row: u32, col: u32) -> Option<usize> {
        // Local row 0 is one global row (or column): one comparison rules
        // out almost every tile, on every move.
        let along = if self.a[0] != 0 { row } else { col };
        if along != self.line_at {
            return None;
        }
        let (row, col) = (row as i32, col as i32);
        let b = &self.b;
        let c = b[0] * row + b[1] * col + b[2];
        (c >= 0 && c < self.w).then_some(c as usize)
    }

    #[inline]
    pub(crate) fn inside(&self, p: P) -> bool {
        p.r >= 0 && p.r < self.h && p.c >= 0 && p.c < self.w
    }
}

/// The cells around a tile, in order round it: consecutive cells are
/// adjacent, so the blank can walk the ring.
pub(super) const RING: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
];

/// Global index steps from a cell to the cells of its ring, in `f`.
pub(super) fn ring_delta(f: &Frame) -> [isize; 8] {
    RING.map(|(dr, dc)| f.offset(dr, dc))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_agree_with_global_cells_and_moves() {
        let (rows, cols) = (5usize, 7usize);
        let region = Region {
            r0: 1,
            r1: 5,
            c0: 2,
            c1: 6,
        };
        for (side, mirrored) in Side::ALL.into_iter().flat_map(|s| [(s, false), (s, true)]) {
            let f = Frame::new(region, side, cols, mirrored);
            for r in 0..f.h {
                for c in 0..f.w {
                    let p = P::new(r, c);
                    let g = f.cell(p);
                    let (gr, gc) = (g / cols, g % cols);
                    assert!((region.r0..region.r1).contains(&gr));
                    assert!((region.c0..region.c1).contains(&gc));
                    assert_eq!(f.local(gr as u32, gc as u32), p);
                    assert_eq!(r == 0, region.on_side(side, gr, gc), "{side:?}");
                    let q = f.line_of(gr as u32, gc as u32);
                    assert_eq!(q, (r == 0).then_some(c as usize), "{side:?}");
                    for d in Dir::ALL {
                        let q = p.step(d);
                        if f.inside(q) {
                            assert_eq!(f.dir(d).step(g, rows, cols), Some(f.cell(q)));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_lines_of_an_l_meet_at_local_column_zero() {
        // Whatever the corner, with both lines numbered from it, the other
        // line's cell k lies at local (k, 0): what `Line::free` assumes.
        let cols = 9;
        let region = Region {
            r0: 1,
            r1: 7,
            c0: 2,
            c1: 9,
        };
        for row in [Side::Top, Side::Bottom] {
            for col in [Side::Left, Side::Right] {
                let a = Frame::new(region, row, cols, col == Side::Right);
                let b = Frame::new(region, col, cols, row == Side::Bottom);
                assert_eq!(
                    a.cell(P::new(0, 0)),
                    b.cell(P::new(0, 0)),
                    "{row:?} {col:?}"
                );
                for k in 0..b.w {
                    let g = b.cell(P::new(0, k));
                    let (gr, gc) = ((g / cols) as u32, (g % cols) as u32);
                    assert_eq!(a.local(gr, gc), P::new(k, 0), "{row:?} {col:?}");
                }
                for k in 0..a.w {
                    let g = a.cell(P::new(0, k));
                    let (gr, gc) = ((g / cols) as u32, (g % cols) as u32);
                    assert_eq!(b.local(gr, gc), P::new(k, 0), "{row:?} {col:?}");
                }
            }
        }
    }
}
