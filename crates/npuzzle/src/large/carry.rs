//! Carries: bringing a tile towards a cell.
//!
//! The blank steps round the tile, along the ring of its eight neighbours,
//! to the cell in front of it, and the tile slides in. A step after a turn
//! costs 3 moves, a step straight on 5 (the blank must get round the tile),
//! so the carry reduces the larger offset first and covers the rest in a
//! staircase, which [`carry_after`] prices exactly for open space. Steps
//! scoring within [`SLACK`] of the best, and the two equally short ways
//! round for a straight step, are weighed against what the tiles they
//! displace gain.

use super::frame::{P, RING};
use super::line::{Fail, Line, CARRY};
use crate::board::Dir;

/// The blank's move from ring position `k` to `k + 1`, and to `k − 1`.
const RING_FORWARD: [Dir; 8] = [
    Dir::Right,
    Dir::Right,
    Dir::Down,
    Dir::Down,
    Dir::Left,
    Dir::Left,
    Dir::Up,
    Dir::Up,
];
const RING_BACKWARD: [Dir; 8] = [
    Dir::Down,
    Dir::Left,
    Dir::Left,
    Dir::Up,
    Dir::Up,
    Dir::Right,
    Dir::Right,
    Dir::Down,
];

/// Position in [`RING`] of the offset `(dr, dc)`, at `(dr + 1)·3 + dc + 1`.
const RING_AT: [u8; 9] = [0, 1, 2, 7, u8::MAX, 3, 6, 5, 4];

/// Position in [`RING`] of `p` round the tile on `t`.
#[inline]
fn ring_at(t: P, p: P) -> Option<usize> {
    let (dr, dc) = (p.r - t.r, p.c - t.c);
    if dr.abs() > 1 || dc.abs() > 1 {
        return None;
    }
    let i = RING_AT[((dr + 1) * 3 + dc + 1) as usize];
    (i != u8::MAX).then_some(usize::from(i))
}

/// Length of a way round a tile that is blocked.
const NO_WAY: i32 = i32::MAX / 2;

/// Lengths of the ways round the ring from position `i` to `j`, forward
/// and backward, given which ring cells are free ([`NO_WAY`] if blocked).
#[inline]
fn ways(free: u8, i: usize, j: usize) -> (i32, i32) {
    if free == 0xFF {
        return (((j + 8 - i) % 8) as i32, ((i + 8 - j) % 8) as i32);
    }
    let way = |step: usize| {
        let (mut k, mut len) = (i, 0);
        while k != j {
            k = (k + step) % 8;
            if free >> k & 1 == 0 {
                return NO_WAY;
            }
            len += 1;
        }
        len
    };
    (way(1), way(7))
}

/// +1 if a tile on `p` moving one cell in `d` gets closer to `goal`, −1
/// if it gets farther.
#[inline]
fn towards(p: P, d: Dir, goal: P) -> i32 {
    let ahead = match d {
        Dir::Up => goal.r < p.r,
        Dir::Down => goal.r > p.r,
        Dir::Left => goal.c < p.c,
        Dir::Right => goal.c > p.c,
    };
    2 * i32::from(ahead) - 1
}

#[inline]
fn ring_cell(t: P, k: usize) -> P {
    P::new(t.r + RING[k].0, t.c + RING[k].1)
}

/// Moves that one unit of weighted gain is worth, as a ratio, when a
/// step of a carry is chosen: a way round `len` moves long that gains
/// `g` is valued `LEN_COST · len − GAIN_WORTH · g`. Found by measurement
/// (5:4, near the 2 moves that each displacement away from a goal costs
/// in the end, discounted).
const LEN_COST: i32 = 4;
const GAIN_WORTH: i32 = 5;

/// Steps of a carry scoring this much worse than the best are not
/// considered even if their way round gains more.
const SLACK: i32 = 2;

/// Estimated moves to carry a tile by `(dr, dc)` with the blank in front:
/// straight steps cost 5, staircase steps 3.
pub(crate) fn carry_cost(dr: i32, dc: i32) -> i32 {
    let (a, b) = (dr.abs(), dc.abs());
    5 * a.max(b) + a.min(b)
}

/// Fewest moves to carry a tile `a` more steps along the axis of its last
/// step and `b` across it, in open space, with the blank behind it: a step
/// costs 5 going straight and 3 after a turn, and at most
/// `min(2b, 2a + 1)` steps can follow a turn (the cross steps must be kept
/// apart by steps along the axis, which starts with one).
fn carry_after(a: i32, b: i32) -> i32 {
    5 * (a + b) - 2 * (2 * b).min(2 * a + 1)
}

/// Goals and weights of the tiles round a carried tile, looked up at most
/// once per step (bit `k` of `known` for ring cell `k`).
struct RingGoals<'d> {
    known: u8,
    goals: [(P, i32); 8],
    /// Global cell of the carried tile, and the steps to the ring cells.
    center: usize,
    delta: &'d [isize; 8],
}

impl Line<'_, '_> {
    /// Which cells of the ring round `t` are free (bit `k` for `RING[k]`).
    fn ring_free(&self, t: P) -> u8 {
        // away from the edges, the lines and the protected cell all are
        let lo = if self.other.is_some() { 2 } else { 1 };
        let clear = self.protect.is_none_or(|p| p.dist(t) > 2);
        if t.r >= 2 && t.c >= lo && t.r + 2 < self.f.h && t.c + 2 < self.f.w && clear {
            return 0xFF;
        }
        (0..8).fold(0u8, |m, k| m | u8::from(self.free(ring_cell(t, k))) << k)
    }

    /// The goal (local) and weight of the tile on ring cell `k` round `t`,
    /// looked up once per step of a carry.
    #[inline]
    fn ring_goal(&self, k: usize, cache: &mut RingGoals<'_>) -> (P, i32) {
        if cache.known >> k & 1 == 1 {
            return cache.goals[k];
        }
        let label = self.m.grid.board[(cache.center as isize + cache.delta[k]) as usize];
        let (r, c) = self.m.grid.goal_rc(label);
        let goal = self.f.local(r, c);
        let g = (goal, self.weight(goal));
        cache.goals[k] = g;
        cache.known |= 1 << k;
        g
    }

    /// What the tiles displaced by walking the blank from ring position `i`
    /// to `j` gain (each moves one cell back along the ring).
    fn arc_gain(&self, t: P, i: usize, j: usize, forward: bool, cache: &mut RingGoals<'_>) -> i32 {
        let (mut k, mut gain) = (i, 0);
        while k != j {
            // the tile on `next` moves against the blank, onto `k`
            let (next, d) = if forward {
                ((k + 1) % 8, RING_BACKWARD[(k + 1) % 8])
            } else {
                ((k + 7) % 8, RING_FORWARD[(k + 7) % 8])
            };
            let (goal, w) = self.ring_goal(next, cache);
            gain += w * towards(ring_cell(t, next), d, goal);
            k = next;
        }
        gain
    }

    /// Walks the blank round the tile on `t` to `front`.
    fn walk_ring(&mut self, t: P, front: P, forward: bool) {
        let (Some(mut k), Some(j)) = (ring_at(t, self.blank), ring_at(t, front)) else {
            return;
        };
        while k != j {
            let (next, d) = if forward {
                ((k + 1) % 8, RING_FORWARD[k])
            } else {
                ((k + 7) % 8, RING_BACKWARD[k])
            };
            self.mv(d);
            k = next;
        }
    }

    /// Carries the tile on `*t` towards `x` until `stop` holds (or it is
    /// on `x`). Returns `false` if it got stuck (only possible next to the
    /// protected cell).
    pub(crate) fn haul(&mut self, t: &mut P, x: P, stop: impl Fn(P) -> bool) -> Result<bool, Fail> {
        let mut guard = 2 * t.dist(x) + 16;
        let mut back: Option<P> = None;
        while !stop(*t) && *t != x {
            guard -= 1;
            if guard == 0 {
                return Ok(false);
            }
            let (cands, n) = self.steps(*t, x, back);
            let opts = self.score(*t, x, &cands[..n]);
            let Some((d, go)) = self.choose(*t, &opts[..n]) else {
                return Ok(false);
            };
            let front = t.step(d);
            match go {
                Some(forward) => {
                    self.set_phase(CARRY);
                    self.walk_ring(*t, front, forward);
                }
                None => {
                    let avoid = [*t];
                    if self.route(front, &avoid).is_err() {
                        return Ok(false);
                    }
                }
            }
            if self.blank != front {
                return Err(Fail(format!("blank not in front of the tile at {t:?}")));
            }
            self.set_phase(CARRY);
            self.mv(d.opposite());
            self.counters.carry_steps += 1;
            back = Some(*t);
            *t = front;
        }
        Ok(true)
    }

    /// The steps the tile on `t` may take towards `x` (at most two, and
    /// never back to `back`): towards `x` on each axis where it is free,
    /// else aside when the protected cell blocks it.
    #[inline]
    fn steps(&self, t: P, x: P, back: Option<P>) -> ([Dir; 2], usize) {
        let (dr, dc) = (x.r - t.r, x.c - t.c);
        // The tile keeps to the inside of the region (off the lines,
        // whose free cells may be pockets) and never steps back.
        let inside = self.interior(t);
        let open = |p: P| self.free(p) && (self.interior(p) || !inside) && Some(p) != back;
        let mut cands = [Dir::Up; 2];
        let mut n = 0;
        for (off, plus, minus) in [(dr, Dir::Down, Dir::Up), (dc, Dir::Right, Dir::Left)] {
            let d = if off > 0 { plus } else { minus };
            if off != 0 && open(t.step(d)) {
                cands[n] = d;
                n += 1;
            }
        }
        if n == 0 {
            // Blocked by the protected cell: step aside.
            let side = if dr != 0 {
                [Dir::Left, Dir::Right]
            } else {
                [Dir::Up, Dir::Down]
            };
            for d in side {
                if open(t.step(d)) {
                    cands[n] = d;
                    n += 1;
                }
            }
        }
        (cands, n)
    }

    /// Each step's score (the blank's way to the cell in front of the tile,
    /// plus the carrying left after it), and the two ways round the tile
    /// from the blank's ring position.
    #[inline]
    fn score(&self, t: P, x: P, cands: &[Dir]) -> [(i32, Dir, (i32, i32)); 2] {
        let ring = self.ring_free(t);
        let at = ring_at(t, self.blank);
        let mut opts = [(0i32, Dir::Up, (NO_WAY, NO_WAY)); 2];
        for (k, &d) in cands.iter().enumerate() {
            let front = t.step(d);
            let w = match (at, ring_at(t, front)) {
                (Some(i), Some(j)) => ways(ring, i, j),
                _ => (NO_WAY, NO_WAY),
            };
            let cost = if w.0.min(w.1) < NO_WAY {
                w.0.min(w.1)
            } else {
                self.blank.dist(front) + 2
            };
            let after = P::new(x.r - front.r, x.c - front.c);
            let (along, across) = match d {
                Dir::Up | Dir::Down => (after.r.abs(), after.c.abs()),
                Dir::Left | Dir::Right => (after.c.abs(), after.r.abs()),
            };
            opts[k] = (cost + 1 + carry_after(along, across), d, w);
        }
        opts
    }

    /// The step to take and the way round to go (`Some(forward)`), or
    /// `None` for a route of the blank: each step and way round within
    /// [`SLACK`] of the best is valued by its length against what the tiles
    /// it displaces gain.
    #[inline]
    fn choose(&self, t: P, opts: &[(i32, Dir, (i32, i32))]) -> Option<(Dir, Option<bool>)> {
        let at = ring_at(t, self.blank);
        let min_score = opts.iter().map(|o| o.0).min().unwrap_or(0);
        let mut best: Option<(i32, Dir, Option<bool>)> = None;
        // the ways worth weighing: a single one needs no gains
        let choices: usize = opts
            .iter()
            .filter(|o| o.0 <= min_score + SLACK)
            .map(|&(_, _, (f, b))| if f == b && f < NO_WAY { 2 } else { 1 })
            .sum();
        let mut cache = RingGoals {
            known: 0,
            goals: [(P::new(0, 0), 0); 8],
            center: self.f.cell(t),
            delta: &self.ring_delta,
        };
        for &(score, d, (f, b)) in opts {
            if score > min_score + SLACK {
                continue;
            }
            let j = ring_at(t, t.step(d));
            let shortest = f.min(b);
            if choices == 1 {
                let go = (shortest < NO_WAY && at.is_some() && j.is_some()).then_some(f <= b);
                return Some((d, go));
            }
            let mut consider = |value: i32, go: Option<bool>| {
                if best.is_none_or(|(v, _, _)| value < v) {
                    best = Some((value, d, go));
                }
            };
            match (at, j) {
                (Some(i), Some(j)) if shortest < NO_WAY => {
                    for (fw, len) in [(true, f), (false, b)] {
                        if len == shortest {
                            let gain = self.arc_gain(t, i, j, fw, &mut cache);
                            let value = LEN_COST * score - GAIN_WORTH * gain;
                            consider(value, Some(fw));
                        }
                    }
                }
                _ => consider(LEN_COST * score, None),
            }
        }
        best.map(|(_, d, go)| (d, go))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_walks_step_to_the_next_cell() {
        let t = P::new(5, 5);
        for k in 0..8 {
            assert_eq!(
                ring_cell(t, k).step(RING_FORWARD[k]),
                ring_cell(t, (k + 1) % 8)
            );
            assert_eq!(
                ring_cell(t, k).step(RING_BACKWARD[k]),
                ring_cell(t, (k + 7) % 8)
            );
            assert_eq!(ring_at(t, ring_cell(t, k)), Some(k));
        }
        assert_eq!(ring_at(t, t), None);
    }

    #[test]
    fn carry_costs() {
        // straight: 5 a step; after a turn 3
        assert_eq!(carry_after(3, 0), 15);
        assert_eq!(carry_after(0, 1), 3);
        assert_eq!(carry_after(2, 2), 12);
        assert_eq!(carry_cost(4, 0), 20);
    }
}
