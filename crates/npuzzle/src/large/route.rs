//! Routes: taking the blank to a cell without entering given cells.
//!
//! Far from its target the blank goes greedily: of the (at most two) moves
//! that get closer, the one whose displaced tile, and the best move after
//! it, bring their tiles closer to their goals (looking one move ahead).
//! Close to the target, and whenever the greedy way is blocked, a
//! breadth-first search in a box round both finds the shortest route,
//! widening the box until there is one.

use super::frame::P;
use super::line::{Fail, Line, ROUTE};
use crate::board::Dir;

/// Routes closer than this are found by breadth-first search.
const NEAR: i32 = 4;

/// The (at most two) directions that take `b` closer to `e`.
#[inline]
fn toward(b: P, e: P) -> [Option<Dir>; 2] {
    let v = match e.r.cmp(&b.r) {
        std::cmp::Ordering::Greater => Some(Dir::Down),
        std::cmp::Ordering::Less => Some(Dir::Up),
        std::cmp::Ordering::Equal => None,
    };
    let h = match e.c.cmp(&b.c) {
        std::cmp::Ordering::Greater => Some(Dir::Right),
        std::cmp::Ordering::Less => Some(Dir::Left),
        std::cmp::Ordering::Equal => None,
    };
    [v, h]
}

fn dir_code(d: Dir) -> u8 {
    match d {
        Dir::Up => 0,
        Dir::Down => 1,
        Dir::Left => 2,
        Dir::Right => 3,
    }
}

impl Line<'_, '_> {
    /// Takes the blank to `e` without entering `avoid` (nor fixed cells).
    pub(crate) fn route(&mut self, e: P, avoid: &[P]) -> Result<(), Fail> {
        self.set_phase(ROUTE);
        let mut guard = 4 * self.blank.dist(e) + 64;
        while self.blank != e {
            let d = self.blank.dist(e);
            if d <= NEAR {
                return self.bfs_route(e, avoid);
            }
            guard -= 1;
            if guard == 0 {
                return self.bfs_route(e, avoid);
            }
            let (dr, dc) = ((e.r - self.blank.r).abs(), (e.c - self.blank.c).abs());
            let b = self.blank;
            let mut best: Option<(i32, Dir)> = None;
            let steps = toward(b, e);
            let ok = |dir: Option<Dir>| dir.filter(|&d| self.en_route(b.step(d), e, avoid));
            let (s0, s1) = (ok(steps[0]), ok(steps[1]));
            if let (Some(d), None) | (None, Some(d)) = (s0, s1) {
                best = Some((0, d));
            } else if let (Some(_), Some(_)) = (s0, s1) {
                for dir in [s0, s1].into_iter().flatten() {
                    let nb = b.step(dir);
                    // what this move gains, and the best the next one can
                    let mut g = 2 * self.gain(nb, b);
                    if self.look_ahead && nb.dist(e) > NEAR {
                        let next = toward(nb, e)
                            .into_iter()
                            .flatten()
                            .map(|d2| nb.step(d2))
                            .filter(|&n2| self.en_route(n2, e, avoid))
                            .map(|n2| self.gain(n2, nb))
                            .max();
                        g += next.unwrap_or(-8);
                    }
                    let vertical = matches!(dir, Dir::Up | Dir::Down);
                    let longer = if vertical { dr >= dc } else { dc >= dr };
                    let score = 2 * g + i32::from(longer);
                    if best.is_none_or(|(s, _)| score > s) {
                        best = Some((score, dir));
                    }
                }
            }
            match best {
                Some((_, dir)) => self.mv(dir),
                None => {
                    // On a line: step into the region first.
                    let off = if self.blank.r == 0 {
                        Dir::Down
                    } else if self.blank.c == 0 && self.other.is_some() {
                        Dir::Right
                    } else {
                        return self.bfs_route(e, avoid);
                    };
                    let next = self.blank.step(off);
                    if !self.free(next) || avoid.contains(&next) {
                        return self.bfs_route(e, avoid);
                    }
                    self.mv(off);
                }
            }
        }
        Ok(())
    }

    /// Whether the blank, on its way to `e`, may step on `p`: free, not
    /// to be avoided, and off the lines unless it is `e` (their filled
    /// cells are walls to get stuck against).
    #[inline]
    fn en_route(&self, p: P, e: P, avoid: &[P]) -> bool {
        (p == e || !(p.r == 0 || (p.c == 0 && self.other.is_some())))
            && self.free(p)
            && !avoid.contains(&p)
    }

    /// Shortest route for the blank to `e` inside a box around both,
    /// widened until one is found.
    fn bfs_route(&mut self, e: P, avoid: &[P]) -> Result<(), Fail> {
        let mut margin = 2;
        loop {
            let b = self.blank;
            let r0 = (b.r.min(e.r) - margin).max(0);
            let r1 = (b.r.max(e.r) + margin + 1).min(self.f.h);
            let c0 = (b.c.min(e.c) - margin).max(0);
            let c1 = (b.c.max(e.c) + margin + 1).min(self.f.w);
            if let Some(path) = self.bfs_in(r0, r1, c0, c1, e, avoid) {
                for d in path {
                    self.mv(d);
                }
                return Ok(());
            }
            if r0 == 0 && c0 == 0 && r1 == self.f.h && c1 == self.f.w {
                return Err(Fail(format!(
                    "no route for the blank from {:?} to {e:?}",
                    self.blank
                )));
            }
            margin *= 4;
        }
    }

    /// Breadth-first search for the blank within rows `r0..r1`, columns
    /// `c0..c1`; the moves, if `e` can be reached.
    fn bfs_in(
        &mut self,
        r0: i32,
        r1: i32,
        c0: i32,
        c1: i32,
        e: P,
        avoid: &[P],
    ) -> Option<Vec<Dir>> {
        let w = c1 - c0;
        let size = ((r1 - r0) * w) as usize;
        let idx = |p: P| ((p.r - r0) * w + (p.c - c0)) as usize;
        let inside = |p: P| p.r >= r0 && p.r < r1 && p.c >= c0 && p.c < c1;
        if self.bfs.stamp.len() < size {
            self.bfs.stamp.resize(size, 0);
            self.bfs.via.resize(size, 0);
        }
        self.bfs.now = self.bfs.now.wrapping_add(1);
        if self.bfs.now == 0 {
            self.bfs.stamp.fill(0);
            self.bfs.now = 1;
        }
        let now = self.bfs.now;
        let start = self.blank;
        self.bfs.queue.clear();
        self.bfs.queue.push(idx(start) as u32);
        self.bfs.stamp[idx(start)] = now;
        let mut head = 0;
        let mut found = start == e;
        while head < self.bfs.queue.len() && !found {
            let i = self.bfs.queue[head] as i32;
            head += 1;
            let p = P::new(r0 + i / w, c0 + i % w);
            for d in Dir::ALL {
                let q = p.step(d);
                if !inside(q) || !self.free(q) || avoid.contains(&q) {
                    continue;
                }
                let j = idx(q);
                if self.bfs.stamp[j] == now {
                    continue;
                }
                self.bfs.stamp[j] = now;
                self.bfs.via[j] = dir_code(d);
                if q == e {
                    found = true;
                    break;
                }
                self.bfs.queue.push(j as u32);
            }
        }
        if !found {
            return None;
        }
        let mut path = Vec::new();
        let mut p = e;
        while p != start {
            let d = Dir::ALL[usize::from(self.bfs.via[idx(p)])];
            path.push(d);
            p = p.step(d.opposite());
        }
        path.reverse();
        Some(path)
    }
}
