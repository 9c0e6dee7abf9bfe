//! Exact placement inside a small window: complete distance tables over
//! the positions of the blank and one or two tracked tiles.
//!
//! A window is a rectangle of local cells at the line being filled (local
//! rows `0..h`, columns `c0..c0+w`, at most 64 cells). Some of its cells in
//! row 0 are already filled and stay fixed; the other tiles in it are
//! anonymous. A table holds, for every placement of the blank and the
//! tracked tiles on the window's free cells, the fewest moves *inside the
//! window* that bring the tracked tiles onto their targets (the blank may
//! end anywhere). It is built by breadth-first search backward from all
//! goal placements at once; moves are reversible, so that is the distance
//! forward. Walking down the table places the tiles optimally within the
//! window.
//!
//! Tables depend only on the window's shape, the targets and which cells
//! are fixed, so the few shapes met in the middle of a large board are
//! built once and reused (the cache is emptied if it grows past a bound).

use super::frame::P;
use std::collections::HashMap;
use std::rc::Rc;

/// Distance of a placement from which the targets cannot be reached.
pub(crate) const UNREACHED: u8 = u8::MAX;

/// Largest number of cells in a window (free cells are a `u64` mask).
pub(crate) const MAX_CELLS: i32 = 64;

/// Bytes of tables kept before the cache is emptied.
const CACHE_BYTES: usize = 64 << 20;

/// A window: local rows `0..h`, columns `c0..c0 + w`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Window {
    pub c0: i32,
    pub h: i32,
    pub w: i32,
}

impl Window {
    #[inline]
    pub(crate) fn contains(&self, p: P) -> bool {
        p.r >= 0 && p.r < self.h && p.c >= self.c0 && p.c < self.c0 + self.w
    }

    /// Index of a cell of the window.
    #[inline]
    pub(crate) fn index(&self, p: P) -> usize {
        (p.r * self.w + (p.c - self.c0)) as usize
    }

    pub(crate) fn cell(&self, i: usize) -> P {
        P::new(i as i32 / self.w, self.c0 + i as i32 % self.w)
    }

    pub(crate) fn cells(&self) -> usize {
        (self.h * self.w) as usize
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    h: u8,
    w: u8,
    targets: [u8; 2],
    tracked: u8,
    free: u64,
}

/// Fewest moves from each placement of the blank and the tracked tiles.
pub(crate) struct Table {
    n: usize,
    free: u64,
    dist: Vec<u8>,
}

impl Table {
    /// Breadth-first search backward from every placement with tile `i` on
    /// `targets[i]` (one or two tiles) over the window cells in `free`.
    pub(crate) fn build(h: i32, w: i32, free: u64, targets: &[usize]) -> Table {
        let n = (h * w) as usize;
        debug_assert!(n <= MAX_CELLS as usize && (1..=2).contains(&targets.len()));
        let k = targets.len();
        let size = n.pow(k as u32 + 1);
        let mut dist = vec![UNREACHED; size];
        let is_free = |i: usize| free >> i & 1 == 1;
        let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, list) in neighbours.iter_mut().enumerate() {
            if !is_free(i) {
                continue;
            }
            let (r, c) = ((i / w as usize) as i32, (i % w as usize) as i32);
            for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                let (nr, nc) = (r + dr, c + dc);
                if nr >= 0 && nr < h && nc >= 0 && nc < w {
                    let j = (nr * w + nc) as usize;
                    if is_free(j) {
                        list.push(j);
                    }
                }
            }
        }
        let t0 = targets[0];
        let t1 = targets.get(1).copied().unwrap_or(0);
        let mut queue: Vec<u32> = Vec::new();
        for b in (0..n).filter(|&b| is_free(b) && !targets.contains(&b)) {
            let s = b + n * (t0 + n * t1 * (k - 1));
            dist[s] = 0;
            queue.push(s as u32);
        }
        let mut head = 0;
        while head < queue.len() {
            let s = queue[head] as usize;
            head += 1;
            let d = dist[s];
            let (b, rest) = (s % n, s / n);
            let (a0, a1) = (rest % n, rest / n);
            for &nb in &neighbours[b] {
                let x0 = if nb == a0 { b } else { a0 };
                let x1 = if k == 2 && nb == a1 { b } else { a1 };
                let s2 = nb + n * (x0 + n * x1);
                if dist[s2] == UNREACHED {
                    dist[s2] = d.saturating_add(1).min(UNREACHED - 1);
                    queue.push(s2 as u32);
                }
            }
        }
        Table { n, free, dist }
    }

    /// Number of a placement (blank on window cell `blank`, tracked tiles
    /// on `tiles`).
    #[inline]
    pub(crate) fn state(&self, blank: usize, tiles: &[usize]) -> usize {
        let n = self.n;
        match *tiles {
            [a] => blank + n * a,
            [a, b] => blank + n * (a + n * b),
            _ => unreachable!("one or two tracked tiles"),
        }
    }

    #[inline]
    pub(crate) fn dist(&self, state: usize) -> u8 {
        self.dist[state]
    }

    #[inline]
    pub(crate) fn is_free(&self, i: usize) -> bool {
        self.free >> i & 1 == 1
    }

    fn bytes(&self) -> usize {
        self.dist.len()
    }
}

/// Tables built so far, by window shape, targets and free cells.
#[derive(Default)]
pub(crate) struct Tables {
    map: HashMap<Key, Rc<Table>>,
    bytes: usize,
    /// Tables built (cache misses).
    pub built: u64,
}

impl Tables {
    /// The table for `win` with the given free cells and target cells
    /// (window indices).
    pub(crate) fn get(&mut self, win: Window, free: u64, targets: &[usize]) -> Rc<Table> {
        let key = Key {
            h: win.h as u8,
            w: win.w as u8,
            targets: [
                targets[0] as u8,
                targets.get(1).map_or(u8::MAX, |&t| t as u8),
            ],
            tracked: targets.len() as u8,
            free,
        };
        if let Some(t) = self.map.get(&key) {
            return Rc::clone(t);
        }
        let table = Rc::new(Table::build(win.h, win.w, free, targets));
        self.built += 1;
        self.bytes += table.bytes();
        if self.bytes > CACHE_BYTES {
            self.map.clear();
            self.bytes = table.bytes();
        }
        self.map.insert(key, Rc::clone(&table));
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_tile_distances() {
        // 2×3 window, all free, target the top-left cell.
        let t = Table::build(2, 3, 0b111_111, &[0]);
        // tile on target: 0 whatever the blank
        assert_eq!(t.dist(t.state(4, &[0])), 0);
        // tile one cell right of the target, blank on the target: one move
        assert_eq!(t.dist(t.state(0, &[1])), 1);
        // blank behind the tile in the same row: around it (2×3 box)
        assert_eq!(t.dist(t.state(2, &[1])), 5);
    }

    #[test]
    fn a_pair_in_a_pocket() {
        // 3×2 window whose top row is the two targets: the classic last
        // pair of a line, done only by the right order.
        let t = Table::build(3, 2, 0b111_111, &[0, 1]);
        // tiles swapped in the pocket: reachable, but not quickly
        let s = t.state(4, &[1, 0]);
        assert!(t.dist(s) != UNREACHED && t.dist(s) > 6, "{}", t.dist(s));
        // every placement can be finished
        for b in 0..6 {
            for x in 0..6 {
                for y in 0..6 {
                    if b != x && b != y && x != y {
                        assert_ne!(t.dist(t.state(b, &[x, y])), UNREACHED);
                    }
                }
            }
        }
    }
}
