//! The order of the work: which sides of the region to peel next, and in
//! which order to fill their cells.
//!
//! **Sides.** A square region is peeled two sides at a time, a row and a
//! column meeting at a corner (an *L*); a longer region loses lines of its
//! longer dimension until it is square. A side holding the goal's blank
//! cell is never peeled, so that cell ends in the final region. Among the
//! sides allowed, those whose tiles look cheapest to bring home go first.
//! Filling the two lines of an L together doubles the choice of the next
//! tile, so the blank seldom has far to go to fetch it.
//!
//! **Cells of a line.** Any free cell may be filled next, provided no
//! single free cell is left between fixed ones: such a pocket can only be
//! entered from one side, and the tile for it would have to arrive
//! through it. Each run of free cells therefore ends with a *pair* (its
//! last two cells, placed together). The corner of an L has no neighbour
//! inside the region, so it is filled while both its neighbours on the
//! lines are free. Among the cells allowed, the next is the one whose tile
//! the blank reaches soonest (the carry itself costs the same whenever it
//! is done); filling a cell inside a run splits it and costs one more pair
//! later, which is charged up front.

use super::canon::Mover;
use super::carry::carry_cost;
use super::frame::{Frame, Region, Side, P};
use super::line::{Arm, Bfs, Counters, Fail, Line};
use super::window::Tables;

/// Extra cost charged for splitting a run of free cells in two.
const SPLIT: i32 = 4;

/// Largest noise added to a cell's score when runs are varied.
const JITTER: u64 = 4;

/// What to place next: on the current line (`false`) or the other line
/// of an L (`true`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Single(bool, i32),
    /// The cells `q` and `q + 1`.
    Pair(bool, i32),
}

/// Everything the peeling keeps between lines.
pub(crate) struct Peeler<'e, 't> {
    pub m: Mover<'e>,
    pub tables: &'t mut Tables,
    pub bfs: Bfs,
    pub counters: Counters,
    /// When not zero, the state of a generator that adds a little noise
    /// to the choice of the next cell, so that runs differ.
    pub jitter: u64,
    /// Whether routes look one move further ahead.
    pub look_ahead: bool,
}

/// Whether a region is finished by the exact solver: at most 3×3, or two
/// rows (columns) of at most 5.
pub(crate) fn is_final(r: Region) -> bool {
    let (h, w) = (r.rows(), r.cols());
    (h <= 3 && w <= 3) || (h == 2 && w <= 5) || (w == 2 && h <= 5)
}

fn is_row(side: Side) -> bool {
    matches!(side, Side::Top | Side::Bottom)
}

fn side_index(side: Side) -> usize {
    Side::ALL.iter().position(|&s| s == side).unwrap_or(0)
}

impl Peeler<'_, '_> {
    /// Peels the region down to its final part, which is returned.
    pub(crate) fn peel(&mut self) -> Result<Region, Fail> {
        let g = &self.m.grid;
        let mut region = Region {
            r0: 0,
            r1: g.rows,
            c0: 0,
            c1: g.cols,
        };
        let (gr, gc) = g.goal_rc(g.blank_label);
        let goal_blank = (gr as usize, gc as usize);
        while !is_final(region) {
            if self.m.out.stopped().is_some() {
                return Ok(region);
            }
            let cells = self.scan(region);
            let sides = self.choose(region, goal_blank, &cells);
            self.fill(region, &sides, cells)?;
            for &s in &sides {
                region = region.without(s);
            }
        }
        Ok(region)
    }

    /// Where the tiles of the region's four sides are: for each side (in
    /// [`Side::ALL`] order), the global cell of the tile for each of its
    /// cells, numbered from the top or the left. One pass over the region.
    fn scan(&self, region: Region) -> [Vec<u32>; 4] {
        let g = &self.m.grid;
        let Region { r0, r1, c0, c1 } = region;
        let mut cells = [
            vec![0u32; c1 - c0],
            vec![0u32; c1 - c0],
            vec![0u32; r1 - r0],
            vec![0u32; r1 - r0],
        ];
        for r in r0..r1 {
            for c in c0..c1 {
                let cell = r * g.cols + c;
                let (lr, lc) = g.goal_rc(g.board[cell]);
                let (lr, lc) = (lr as usize, lc as usize);
                if lr == r0 {
                    cells[0][lc - c0] = cell as u32;
                }
                if lr + 1 == r1 {
                    cells[1][lc - c0] = cell as u32;
                }
                if lc == c0 {
                    cells[2][lr - r0] = cell as u32;
                }
                if lc + 1 == c1 {
                    cells[3][lr - r0] = cell as u32;
                }
            }
        }
        cells
    }

    /// Mean estimated cost of bringing home the tiles of `side`, plus the
    /// blank's distance to it.
    fn side_cost(&self, region: Region, side: Side, cells: &[u32]) -> i64 {
        let g = &self.m.grid;
        let f = Frame::new(region, side, g.cols, false);
        let mut cost = 0i64;
        for (q, &cell) in cells.iter().enumerate() {
            let (r, c) = g.rc(cell);
            let p = f.local(r, c);
            cost += i64::from(carry_cost(p.r, p.c - q as i32));
        }
        let (br, bc) = g.rc(g.blank as u32);
        cost / i64::from(f.w) + i64::from(f.local(br, bc).r)
    }

    /// The side (or row and column of an L) to peel next.
    fn choose(
        &self,
        region: Region,
        goal_blank: (usize, usize),
        cells: &[Vec<u32>; 4],
    ) -> Vec<Side> {
        let (h, w) = (region.rows(), region.cols());
        // Never the side with the goal's blank cell; with at least three
        // cells across, one of two opposite sides is always allowed.
        let allowed = |s: Side| !region.on_side(s, goal_blank.0, goal_blank.1);
        let cheapest = |row: bool| {
            Side::ALL
                .into_iter()
                .filter(|&s| is_row(s) == row && allowed(s))
                .min_by_key(|&s| self.side_cost(region, s, &cells[side_index(s)]))
        };
        let (rows, cols) = if h == w {
            (h >= 4, w >= 4)
        } else {
            (h > w || w == 2, w > h || h == 2)
        };
        [rows.then(|| cheapest(true)), cols.then(|| cheapest(false))]
            .into_iter()
            .flatten()
            .flatten()
            .collect()
    }

    /// Fills the lines on `sides` of `region` (one side, or an L).
    fn fill(
        &mut self,
        region: Region,
        sides: &[Side],
        mut cells: [Vec<u32>; 4],
    ) -> Result<(), Fail> {
        let cols = self.m.grid.cols;
        let mut arms = Vec::with_capacity(2);
        for &side in sides {
            // In an L both lines are numbered from the shared corner.
            let other = sides.iter().find(|&&s| is_row(s) != is_row(side));
            let mirrored = matches!(other, Some(Side::Right | Side::Bottom));
            let list = &mut cells[side_index(side)];
            if mirrored {
                list.reverse();
            }
            let f = Frame::new(region, side, cols, mirrored);
            arms.push(Arm::new(f, list, &self.m.grid));
        }
        let mut arms = arms.into_iter();
        let Some(first) = arms.next() else {
            return Ok(());
        };
        let mut line = Line::new(
            &mut self.m,
            first,
            arms.next(),
            self.tables,
            &mut self.bfs,
            &mut self.counters,
        );
        line.look_ahead = self.look_ahead;
        while line.m.out.stopped().is_none() {
            let Some(target) = next_target(&mut line, &mut self.jitter) else {
                break;
            };
            let (other, q, pair) = match target {
                Target::Single(o, q) => (o, q, false),
                Target::Pair(o, q) => (o, q, true),
            };
            if other {
                line.switch();
            }
            if pair {
                line.place_pair(q)?;
            } else {
                line.place_single(q)?;
            }
        }
        if line.m.out.stopped().is_none() && !line.full() {
            return Err(Fail("a line was left unfilled".into()));
        }
        Ok(())
    }
}

/// The best cell (or pair) to fill next on the current line of `line`,
/// with its score, or `None` when the line is full.
fn best_on_line(
    line: &Line<'_, '_>,
    corner_first: bool,
    jitter: &mut u64,
) -> Option<(i32, Target)> {
    let w = line.f.w as usize;
    let cost_of = |q: i32| -> (i32, i32) {
        let p = line.tile(q);
        if p == P::new(0, q) {
            return (0, 0);
        }
        (line.blank.dist(p), carry_cost(p.r, p.c - q))
    };
    let mut best: Option<(i32, Target)> = None;
    let mut consider = |score: i32, t: Target| {
        let score = if *jitter == 0 {
            score
        } else {
            // xorshift64
            *jitter ^= *jitter << 13;
            *jitter ^= *jitter >> 7;
            *jitter ^= *jitter << 17;
            score + (*jitter % (JITTER + 1)) as i32
        };
        if best.is_none_or(|(s, _)| score < s) {
            best = Some((score, t));
        }
    };
    // The corner, while both its neighbours are free; they wait (and the
    // corner counts as filled in the runs).
    if corner_first && !line.filled[0] {
        consider(cost_of(0).0, Target::Single(false, 0));
    }
    // Runs of free cells, in order (one pass, no allocation: this runs
    // before every placement): in a run of two, its pair; in a longer run,
    // any cell but those next to its ends, charged for a split inside.
    let mut s = if corner_first { 1 } else { 0 };
    while s < w {
        if line.filled[s] {
            s += 1;
            continue;
        }
        let mut e = s + 1;
        while e < w && !line.filled[e] {
            e += 1;
        }
        for q in s..e {
            if corner_first && q <= 1 {
                continue;
            }
            let (a, b) = (q - s, e - 1 - q);
            let qi = q as i32;
            if a + b == 1 {
                if b == 1 {
                    let (r1, _) = cost_of(qi);
                    let (r2, _) = cost_of(qi + 1);
                    consider(r1.min(r2), Target::Pair(false, qi));
                }
                continue;
            }
            if a == 1 || b == 1 {
                continue;
            }
            let split = if a >= 2 && b >= 2 { SPLIT } else { 0 };
            consider(cost_of(qi).0 + split, Target::Single(false, qi));
        }
        s = e;
    }
    best
}

/// The next cell (or pair) to fill, on either line of an L, or `None`
/// when everything is filled.
fn next_target(line: &mut Line<'_, '_>, jitter: &mut u64) -> Option<Target> {
    let corner_first = line.other.as_ref().is_some_and(|o| !o.filled[0]);
    let here = best_on_line(line, corner_first, jitter);
    if line.other.is_none() {
        return here.map(|(_, t)| t);
    }
    line.switch();
    let there = best_on_line(line, corner_first, jitter);
    line.switch();
    let flip = |t: Target| match t {
        Target::Single(_, q) => Target::Single(true, q),
        Target::Pair(_, q) => Target::Pair(true, q),
    };
    match (here, there) {
        (Some((a, t)), Some((b, u))) => Some(if b < a { flip(u) } else { t }),
        (Some((_, t)), None) => Some(t),
        (None, Some((_, u))) => Some(flip(u)),
        (None, None) => None,
    }
}
