//! Placements: putting a tile (or the last two of a run together) on its
//! line cell.
//!
//! A tile is carried into a small window at its target, then finished
//! exactly by walking down a table over the positions of the blank and
//! the tile(s) in the window ([`super::window`]); the blank is brought into
//! the window first if it is elsewhere. The two tiles of a pair are brought
//! one after the other, the first kept still (protected) while the second
//! comes.

use super::frame::P;
use super::line::{Fail, Line, WINDOW};
use super::window::{Table, Window, MAX_CELLS, UNREACHED};
use crate::board::Dir;

/// Rows of the window in which a single tile is finished exactly.
const SINGLE_H: i32 = 5;
/// Columns on each side of the target in that window.
const SINGLE_HALF: i32 = 3;
/// Rows of the window in which a pair is finished exactly.
const PAIR_H: i32 = 5;
/// Columns on each side of the pair in that window.
const PAIR_HALF: i32 = 3;

impl Line<'_, '_> {
    /// A window at the line: `h` rows, columns `lo..hi` clipped.
    fn window(&self, h: i32, lo: i32, hi: i32) -> Window {
        let (lo, hi) = (lo.max(0), hi.min(self.f.w));
        Window {
            c0: lo,
            h: h.min(self.f.h),
            w: hi - lo,
        }
    }

    /// The free cells of a window as a bit mask.
    fn free_mask(&self, win: Window) -> u64 {
        (0..win.cells())
            .filter(|&i| self.free(win.cell(i)))
            .fold(0u64, |m, i| m | 1 << i)
    }

    /// Brings the blank into `win` (if outside) at the cell from which the
    /// rest is cheapest, without moving the tracked tiles.
    fn enter(&mut self, win: Window, table: &Table, tiles: &[P]) -> Result<bool, Fail> {
        if win.contains(self.blank) {
            return Ok(true);
        }
        let idx: Vec<usize> = tiles.iter().map(|&p| win.index(p)).collect();
        let mut options: Vec<(i32, P)> = (0..win.cells())
            .filter(|&i| table.is_free(i) && !idx.contains(&i))
            .filter_map(|i| {
                let d = table.dist(table.state(i, &idx));
                (d != UNREACHED).then(|| (self.blank.dist(win.cell(i)) + i32::from(d), win.cell(i)))
            })
            .collect();
        options.sort_by_key(|o| o.0);
        for &(_, e) in options.iter().take(4) {
            if self.route(e, tiles).is_ok() && self.blank == e {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Follows `table` until the tracked tiles are on their targets.
    fn walk(&mut self, win: Window, table: &Table, tiles: &mut [P]) -> Result<(), Fail> {
        // one or two tracked tiles, on the stack: this runs every move
        let k = tiles.len().min(2);
        let mut held = [0usize; 2];
        for (h, &p) in held.iter_mut().zip(tiles.iter()) {
            *h = win.index(p);
        }
        let idx = &mut held[..k];
        self.set_phase(WINDOW);
        loop {
            let d = table.dist(table.state(win.index(self.blank), idx));
            if d == 0 {
                return Ok(());
            }
            if d == UNREACHED {
                return Err(Fail(format!(
                    "no way to the targets in window {win:?} from blank {:?}, tiles {tiles:?}",
                    self.blank
                )));
            }
            let b = win.index(self.blank);
            let mut best: Option<(i32, Dir, Option<usize>)> = None;
            for dir in Dir::ALL {
                let nb = self.blank.step(dir);
                if !win.contains(nb) || !table.is_free(win.index(nb)) {
                    continue;
                }
                let n = win.index(nb);
                let moved = idx.iter().position(|&i| i == n);
                let mut next = [0usize; 2];
                next[..k].copy_from_slice(idx);
                if let Some(j) = moved {
                    next[j] = b;
                }
                if table.dist(table.state(n, &next[..k])) != d - 1 {
                    continue;
                }
                let score = if moved.is_some() {
                    0
                } else {
                    self.gain(nb, self.blank)
                };
                if best.is_none_or(|(s, _, _)| score > s) {
                    best = Some((score, dir, moved));
                }
            }
            let Some((_, dir, moved)) = best else {
                return Err(Fail("table walk found no step down".into()));
            };
            let from = self.blank;
            self.mv(dir);
            if let Some(j) = moved {
                idx[j] = b;
                tiles[j] = from;
            }
        }
    }

    /// Puts the tile that belongs on line cell `q` there. Filling `q` must
    /// not leave a single free cell between fixed ones (or the line's end).
    pub(crate) fn place_single(&mut self, q: i32) -> Result<(), Fail> {
        let mut t = self.tile(q);
        let win = self.window(SINGLE_H, q - SINGLE_HALF, q + SINGLE_HALF + 1);
        let (h, w) = (self.f.h, self.f.w);
        if !inner(win, h, w, t) {
            let stop = move |p: P| inner(win, h, w, p);
            if !self.haul(&mut t, self.below(q), stop)? {
                return Err(Fail(format!("tile for line cell {q} stuck at {t:?}")));
            }
        }
        let target = win.index(P::new(0, q));
        let table = self.tables.get(win, self.free_mask(win), &[target]);
        if !self.enter(win, &table, &[t])? {
            return Err(Fail(format!("blank cannot enter {win:?}")));
        }
        self.walk(win, &table, &mut [t])?;
        self.set_filled(q);
        self.counters.singles += 1;
        Ok(())
    }

    /// Puts the tiles that belong on line cells `q` and `q + 1` there, the
    /// last two free cells between fixed ones (or the ends of the line).
    pub(crate) fn place_pair(&mut self, q: i32) -> Result<(), Fail> {
        let mut win = self.window(PAIR_H, q - PAIR_HALF, q + 2 + PAIR_HALF);
        let (h, w) = (self.f.h, self.f.w);
        let stop = move |p: P| inner(win, h, w, p);
        // The tile the blank reaches sooner goes first; it then waits in
        // the window, untouched, while the other is brought.
        let (a, b) = if self.blank.dist(self.tile(q + 1)) < self.blank.dist(self.tile(q)) {
            (q + 1, q)
        } else {
            (q, q + 1)
        };
        let mut ta = self.tile(a);
        if !inner(win, h, w, ta) && !self.haul(&mut ta, self.below(a), stop)? {
            return Err(Fail(format!("tile for line cell {a} stuck at {ta:?}")));
        }
        let mut tb = self.tile(b);
        let mut ok = true;
        if !inner(win, h, w, tb) {
            self.protect = Some(ta);
            let x = self.below(b);
            let r = self.haul(&mut tb, x, stop);
            self.protect = None;
            ok = r?;
        }
        let (t1, t2) = if a == q { (ta, tb) } else { (tb, ta) };
        if !ok || !inner(win, h, w, t1) || !inner(win, h, w, t2) {
            win = self.cover(&[t1, t2, self.blank], q)?;
        }
        let targets = [win.index(P::new(0, q)), win.index(P::new(0, q + 1))];
        let mut table = self.tables.get(win, self.free_mask(win), &targets);
        if !self.enter(win, &table, &[t1, t2])? {
            win = self.cover(&[t1, t2, self.blank], q)?;
            let targets = [win.index(P::new(0, q)), win.index(P::new(0, q + 1))];
            table = self.tables.get(win, self.free_mask(win), &targets);
        }
        let mut tiles = [t1, t2];
        self.walk(win, &table, &mut tiles)?;
        self.set_filled(q);
        self.set_filled(q + 1);
        self.counters.pairs += 1;
        Ok(())
    }

    /// The smallest window at the line holding `cells` and the pair at
    /// `q`, with a margin: the fallback when the usual window is too small.
    fn cover(&mut self, cells: &[P], q: i32) -> Result<Window, Fail> {
        let rmax = cells.iter().map(|p| p.r).max().unwrap_or(0);
        let cmin = cells.iter().map(|p| p.c).min().unwrap_or(q).min(q);
        let cmax = cells.iter().map(|p| p.c).max().unwrap_or(q).max(q + 1);
        let win = self.window((rmax + 2).max(3), cmin - 1, cmax + 2);
        if win.cells() as i32 > MAX_CELLS {
            return Err(Fail(format!(
                "pair at {q} needs a window of {} cells",
                win.cells()
            )));
        }
        Ok(win)
    }
}

/// Whether `p` is in `win` with all its neighbours in the region (`h`
/// rows, `w` columns) also in it, so the blank beside it is too.
fn inner(win: Window, h: i32, w: i32, p: P) -> bool {
    win.contains(p)
        && (p.r + 1 < win.h || p.r + 1 == h)
        && (p.c > win.c0 || p.c == 0)
        && (p.c + 1 < win.c0 + win.w || p.c + 1 == w)
}
