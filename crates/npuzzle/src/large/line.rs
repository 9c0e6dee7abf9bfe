//! The line (or the two lines of an L) being filled, in local coordinates,
//! and the moves made on it.
//!
//! Every placement is made of three kinds of moves, each in its own file:
//! * **routes** ([`super::route`]) take the blank somewhere without
//!   disturbing given cells;
//! * **carries** ([`super::carry`]) bring a tile towards a cell, the blank
//!   stepping round it;
//! * **walks** ([`super::place`]) finish a tile (or a pair) exactly, down a
//!   table over a small window at its target.
//!
//! Of equally short moves, the one whose displaced tiles get closer to
//! their own goals is taken ([`Line::gain`]). The length of any solution
//! is the Manhattan distance plus twice the number of moves that take a
//! tile away from its goal, so these choices count: measured on random
//! boards, they save about a sixth of all moves.

use super::canon::{Canon, Mover};
use super::frame::{ring_delta, Frame, P};
use super::window::Tables;
use crate::board::Dir;

/// How much it matters that a displaced tile moves towards its goal,
/// by how many lines lie between its goal and the line(s) being filled:
/// a tile carried soon keeps the gain, one carried late may lose it to
/// later moves. Tiles farther in count 1. (Tuned on random boards.)
const WEIGHT: [i32; 9] = [4, 4, 3, 3, 2, 2, 2, 2, 1];

/// Something that cannot happen went wrong in a placement (a bug).
#[derive(Debug)]
pub(crate) struct Fail(pub String);

/// What the placements cost, for the report.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Counters {
    /// Tiles placed alone, and pairs placed together.
    pub singles: u64,
    pub pairs: u64,
    /// Moves made routing the blank, carrying tiles, and in windows.
    pub moves: [u64; 3],
    /// Cells a carried tile advanced.
    pub carry_steps: u64,
}

/// What moves are for: indices into [`Counters::moves`].
pub(super) const ROUTE: usize = 0;
pub(super) const CARRY: usize = 1;
pub(super) const WINDOW: usize = 2;

/// A line of the region to fill: its frame, which of its cells are
/// filled, and where (in its frame) the tile for each of its cells is.
pub(crate) struct Arm {
    pub f: Frame,
    pub filled: Vec<bool>,
    pub tiles: Vec<P>,
}

impl Arm {
    /// `cells[q]` is the global cell of the tile for line cell `q`.
    pub(crate) fn new(f: Frame, cells: &[u32], grid: &Canon) -> Arm {
        let filled = vec![false; f.w as usize];
        let tiles = cells
            .iter()
            .map(|&cell| {
                let (r, c) = grid.rc(cell);
                f.local(r, c)
            })
            .collect();
        Arm { f, filled, tiles }
    }
}

/// Reusable breadth-first-search buffers (for [`super::route`]'s
/// searches; kept here as part of a line's scratch).
#[derive(Default)]
pub(crate) struct Bfs {
    pub(super) stamp: Vec<u32>,
    pub(super) via: Vec<u8>,
    pub(super) queue: Vec<u32>,
    pub(super) now: u32,
}

/// The line (or two lines meeting at a corner) being filled. The moves
/// are made in the frame of the *current* line; the other line, if any,
/// shares its cell 0 (the corner) and lies along local column 0.
pub(crate) struct Line<'a, 'e> {
    pub m: &'a mut Mover<'e>,
    pub f: Frame,
    pub filled: Vec<bool>,
    pub blank: P,
    /// Where the tile for each line cell is.
    pub(super) tiles: Vec<P>,
    /// The other line of an L.
    pub other: Option<Arm>,
    /// A cell the blank must not enter (a tile waiting for its partner).
    pub(super) protect: Option<P>,
    /// What the moves are for (an index into `Counters::moves`).
    phase: usize,
    /// Global index steps from a cell to the cells of its ring.
    pub(super) ring_delta: [isize; 8],
    /// Whether routes weigh the move after the next (see
    /// [`super::LOOK_AHEAD_MAX_CELLS`]).
    pub(super) look_ahead: bool,
    pub tables: &'a mut Tables,
    pub bfs: &'a mut Bfs,
    pub counters: &'a mut Counters,
}

impl<'a, 'e> Line<'a, 'e> {
    /// Fills `arm`, and `other` with it if given (an L: both frames must
    /// have the shared corner as cell 0).
    pub(crate) fn new(
        m: &'a mut Mover<'e>,
        arm: Arm,
        other: Option<Arm>,
        tables: &'a mut Tables,
        bfs: &'a mut Bfs,
        counters: &'a mut Counters,
    ) -> Line<'a, 'e> {
        let (r, c) = m.grid.rc(m.grid.blank as u32);
        let blank = arm.f.local(r, c);
        let arm_f = arm.f.clone();
        Line {
            m,
            f: arm.f,
            filled: arm.filled,
            blank,
            tiles: arm.tiles,
            other,
            protect: None,
            phase: ROUTE,
            ring_delta: ring_delta(&arm_f),
            look_ahead: true,
            tables,
            bfs,
            counters,
        }
    }

    /// Counts the moves from now on for `phase` (see [`Counters::moves`]).
    #[inline]
    pub(super) fn set_phase(&mut self, phase: usize) {
        self.phase = phase;
    }

    /// Makes the other line of the L the current one.
    pub(crate) fn switch(&mut self) {
        if let Some(o) = self.other.as_mut() {
            std::mem::swap(&mut self.f, &mut o.f);
            std::mem::swap(&mut self.filled, &mut o.filled);
            std::mem::swap(&mut self.tiles, &mut o.tiles);
            self.ring_delta = ring_delta(&self.f);
            let (r, c) = self.m.grid.rc(self.m.grid.blank as u32);
            self.blank = self.f.local(r, c);
        }
    }

    /// Whether every cell of the line (or L) is filled.
    pub(crate) fn full(&self) -> bool {
        self.filled.iter().all(|&f| f)
            && self
                .other
                .as_ref()
                .is_none_or(|o| o.filled.iter().all(|&f| f))
    }

    /// Marks line cell `q` filled (the corner on both lines of an L).
    pub(super) fn set_filled(&mut self, q: i32) {
        self.filled[q as usize] = true;
        if q == 0 {
            if let Some(o) = self.other.as_mut() {
                o.filled[0] = true;
            }
        }
    }

    /// Whether `p` is off the line (and off the other line of an L).
    #[inline]
    pub(super) fn interior(&self, p: P) -> bool {
        p.r > 0 && (p.c > 0 || self.other.is_none())
    }

    /// Where a tile for line cell `q` is carried before it is finished in
    /// its window: the cell below `q`, inside the region.
    pub(super) fn below(&self, q: i32) -> P {
        P::new(1, if q == 0 && self.other.is_some() { 1 } else { q })
    }

    /// Whether the blank may enter `p`.
    #[inline]
    pub(crate) fn free(&self, p: P) -> bool {
        self.f.inside(p)
            && !(p.r == 0 && self.filled[p.c as usize])
            && !(p.c == 0 && self.other.as_ref().is_some_and(|o| o.filled[p.r as usize]))
            && self.protect != Some(p)
    }

    /// Moves the blank one cell in local direction `d`. (Always inlined:
    /// it is the innermost step of everything, and measurably faster so.)
    #[inline(always)]
    pub(super) fn mv(&mut self, d: Dir) {
        let from = self.blank;
        let to = from.step(d);
        debug_assert!(self.free(to), "move onto a fixed cell");
        let cell = self.m.grid.blank;
        let t = self.m.step(self.f.dir(d), self.f.next_cell(cell, d));
        self.counters.moves[self.phase] += 1;
        self.blank = to;
        let (gr, gc) = self.m.grid.goal_rc(t);
        if let Some(q) = self.f.line_of(gr, gc) {
            self.tiles[q] = from;
        }
        if let Some(o) = self.other.as_mut() {
            if let Some(q) = o.f.line_of(gr, gc) {
                let (r, c) = self.m.grid.rc(cell as u32);
                o.tiles[q] = o.f.local(r, c);
            }
        }
    }

    /// Where the tile for line cell `q` is.
    #[inline]
    pub(crate) fn tile(&self, q: i32) -> P {
        self.tiles[q as usize]
    }

    /// +1 if the tile on `from` gets closer to its goal by moving to `to`,
    /// −1 if it gets farther.
    #[inline]
    pub(super) fn gain(&self, from: P, to: P) -> i32 {
        let label = self.m.grid.board[self.f.cell(from)];
        let (r, c) = self.m.grid.goal_rc(label);
        let goal = self.f.local(r, c);
        self.weight(goal) * (from.dist(goal) - to.dist(goal))
    }

    /// The weight of moving a tile whose goal is `goal` (see [`WEIGHT`]).
    #[inline]
    pub(super) fn weight(&self, goal: P) -> i32 {
        let k = if self.other.is_some() {
            goal.r.min(goal.c)
        } else {
            goal.r
        };
        WEIGHT[(k as usize).min(WEIGHT.len() - 1)]
    }
}
