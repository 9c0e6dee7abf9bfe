//! Building one pattern database by breadth-first search backward from the
//! goal in the abstract space of one group's tiles plus the blank.
//!
//! Only moves of the group's tiles cost 1; the blank wanders through cells
//! not held by group tiles for free. So an abstract state is a *placement*
//! of the group's `k` tiles together with the *region* of free cells the
//! blank is in (the connected component of the free cells holding the
//! blank). Moves inside a region cost nothing, so the search is a plain
//! BFS over (placement, region) pairs where every edge is one group-tile
//! move: a tile next to the region slides into one of the region's cells,
//! and the blank's new region is the one holding the tile's old cell.
//!
//! **Values.** Every edge moves one tile one cell, changing that tile's
//! Manhattan distance by one, so a state's distance `d` is at least the
//! group's Manhattan distance `md` and has its parity: the database keeps
//! `(d − md) / 2` in four bits (a nibble), and a lookup adds `md` back.
//! That is lossless while `(d − md) / 2 ≤ 15`; a larger one is stored as
//! 15 (still a lower bound) and counted as *clamped*. A zero-aware
//! database keeps one nibble per (placement, region) in the order of
//! [`Layout`]; otherwise one per placement, the smallest over its regions
//! (the first layer that reaches it).
//!
//! **Memory.** The search keeps two bits per (placement, region) state —
//! unseen, in the next layer, in the current layer, done — instead of
//! byte arrays and queues, plus the nibbles it produces (and, when not
//! zero-aware, one bit per placement saying it has its value). Each layer
//! scans the two-bit array for the current layer, in parallel (rayon); the
//! arrays are atomics so that workers mark successors without locks.

use super::layout::{Geometry, Layout};
use super::store::Contents as Built;
use crate::board::Shape;
use crate::budget::{Clock, Interrupt};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::{Mutex, PoisonError};

/// Largest stored nibble: `(d − md) / 2` beyond it is clamped.
pub const MAX_NIBBLE: u8 = 15;

/// Reports progress while building: called after each BFS layer with the
/// layer's cost, the states reached so far and the total.
pub trait BuildProgress: Sync {
    fn layer(&self, depth: u32, reached: u64, total: u64);
}

impl BuildProgress for () {
    fn layer(&self, _: u32, _: u64, _: u64) {}
}

/// `md[i << 6 | c]`: the Manhattan distance of the group's `i`-th tile
/// standing on cell `c` from its goal cell `goal_cells[i]`.
pub fn manhattan_table(shape: Shape, goal_cells: &[u8]) -> Box<[u8; 1024]> {
    let mut t = Box::new([0u8; 1024]);
    let cols = shape.cols;
    for (i, &g) in goal_cells.iter().enumerate().take(16) {
        let g = usize::from(g);
        for c in 0..shape.cells() {
            t[i << 6 | c] = ((c / cols).abs_diff(g / cols) + (c % cols).abs_diff(g % cols)) as u8;
        }
    }
    t
}

/// Nibble writes into the database being built, each held back until
/// [`PENDING`] more have been asked for, its byte prefetched meanwhile.
#[derive(Default)]
struct Pending {
    writes: [(u64, u8); PENDING],
    len: usize,
    next: usize,
}

/// Writes in flight: enough to overlap the cache misses of a few states'
/// successors.
const PENDING: usize = 16;

impl Pending {
    #[inline(always)]
    fn push(&mut self, out: &[AtomicU8], q: u64, nibble: u8) {
        super::db::prefetch(&out[(q / 2) as usize]);
        if self.len == PENDING {
            Self::apply(out, self.writes[self.next]);
        } else {
            self.len += 1;
        }
        self.writes[self.next] = (q, nibble);
        self.next = (self.next + 1) % PENDING;
    }

    #[inline(always)]
    fn apply(out: &[AtomicU8], (q, nibble): (u64, u8)) {
        out[(q / 2) as usize].fetch_or(nibble << (q % 2 * 4), Relaxed);
    }

    fn flush(&mut self, out: &[AtomicU8]) {
        for &w in &self.writes[..self.len] {
            Self::apply(out, w);
        }
        self.len = 0;
    }
}

/// Builds the database for `tiles` whose goal cells are `goal_cells`
/// (same order), with the goal's blank on `goal_blank`, zero-aware or not
/// (`regions`). A zero-aware database's entries are in the order of
/// [`Layout`]; the minimum's are in placement rank order
/// ([`crate::rank::PartialRanker`]), whose lookups of neighbouring
/// positions fall close together (a move of a late tile in key order
/// changes only low digits).
///
/// Stops, returning what stopped it, when `clock`'s deadline passes or its
/// cancel flag is raised (looked at between chunks of a layer, so within a
/// few milliseconds), and refuses to start when [`scratch_bytes`] exceed
/// its byte budget. Nothing is returned half-built.
pub fn build(
    shape: Shape,
    goal_cells: &[u8],
    goal_blank: usize,
    regions: bool,
    progress: &dyn BuildProgress,
    clock: &Clock<'_>,
) -> Result<Built, Interrupt> {
    let search = Search {
        shape,
        goal_cells,
        goal_blank,
        regions,
    };
    build_with(&search, PULL_BELOW, progress, clock)
}

/// The unseen states below which a layer is found by pulling, as a
/// multiple of the current layer's states. Pushing costs about as much per
/// state of the current layer as pulling does per unseen state (measured
/// on the 8-tile half of 7-8: 0.10 µs each on two threads), so the smaller
/// set decides; that is the last eight of 38 layers there.
const PULL_BELOW: f64 = 1.0;

/// What [`build`] searches.
struct Search<'a> {
    shape: Shape,
    goal_cells: &'a [u8],
    goal_blank: usize,
    regions: bool,
}

/// [`build`], pulling a layer when the unseen states number fewer than
/// `pull_below` times the current layer's (tests force either way).
///
/// Pushing, each state of the current layer marks its unseen neighbours
/// (the next layer); pulling, each unseen state looks for a neighbour in
/// the current layer, stopping at the first. Moves are reversible, so both
/// find the same layer, and the late layers, when few states are left
/// unseen, cost far less pulled.
fn build_with(
    search: &Search<'_>,
    pull_below: f64,
    progress: &dyn BuildProgress,
    clock: &Clock<'_>,
) -> Result<Built, Interrupt> {
    let &Search {
        shape,
        goal_cells,
        goal_blank,
        regions,
    } = search;
    let k = goal_cells.len();
    let needed = scratch_bytes(shape, k, regions);
    clock.budget().check_bytes(needed)?;
    clock.poll()?;
    let (Some(space), Some(ranker)) = (
        Layout::get(shape, k, true),
        crate::rank::PartialRanker::new(shape.cells(), k),
    ) else {
        unreachable!("group size checked by the caller")
    };
    let geo: &Geometry = &space.geo;
    let md_of = manhattan_table(shape, goal_cells);
    let orders = space.orders;
    let total = space.states;
    let entries = if regions { total } else { ranker.count() };
    // two bits per state: 00 unseen, 01 next layer, 10 current, 11 done
    let codes: Vec<AtomicU64> = (0..total.div_ceil(32))
        .into_par_iter()
        .map(|_| AtomicU64::new(0))
        .collect();
    // the database itself, searched right after when built for a search
    let mut out = Vec::with_capacity(entries.div_ceil(2) as usize);
    crate::system::advise_huge_pages(&out);
    out.par_extend(
        (0..entries.div_ceil(2))
            .into_par_iter()
            .map(|_| AtomicU8::new(0)),
    );
    // not zero-aware: whether each placement has its value yet
    let valued: Vec<AtomicU64> = (0..if regions { 0 } else { entries.div_ceil(64) })
        .into_par_iter()
        .map(|_| AtomicU64::new(0))
        .collect();

    let s0 = space.state(goal_cells, goal_blank);
    codes[(s0 / 32) as usize].fetch_or(2 << (s0 % 32 * 2), Relaxed);
    if !regions {
        let q0 = ranker.rank(goal_cells);
        valued[(q0 / 64) as usize].fetch_or(1 << (q0 % 64), Relaxed);
    }
    let mut reached = 1u64;
    progress.layer(0, reached, total);

    const CHUNK: usize = 1 << 10; // words of 32 states
    let mut depth: u32 = 0;
    let clamped = AtomicU64::new(0);
    let stopped: Mutex<Option<Interrupt>> = Mutex::new(None);
    // the current layer's states
    let mut frontier = 1u64;
    loop {
        let new_states = AtomicU64::new(0);
        let pull = ((total - reached) as f64) < frontier as f64 * pull_below;
        let d1 = depth + 1;
        codes.par_chunks(CHUNK).enumerate().for_each(|(ci, chunk)| {
            if let Err(i) = clock.poll() {
                stopped
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .get_or_insert(i);
                return;
            }
            let mut pos = [0u8; 16];
            let pos = &mut pos[..k];
            // Not zero-aware: whether placement `q`, whose states (one per
            // region) are `first..first + n`, gets its value from state `s`,
            // that is whether `s` is the first of them reached. `before` is
            // the codes word holding `s` as it was just before `s` was
            // marked. A placement's states are side by side, so they are
            // mostly in one word, and then `before` tells without touching
            // another cache line (marks of one word are ordered, so exactly
            // one of them sees its siblings all unseen); only placements
            // across two words claim a bit in `valued`.
            let claim = |q: u64, first: u64, n: u64, s: u64, before: u64| {
                if n == 1 {
                    return true;
                }
                if first / 32 == (first + n - 1) / 32 {
                    let span = (u64::MAX >> (64 - 2 * n)) << (first % 32 * 2);
                    return before & span & !(3 << (s % 32 * 2)) == 0;
                }
                let bit = 1u64 << (q % 64);
                let v = &valued[(q / 64) as usize];
                v.load(Relaxed) & bit == 0 && v.fetch_or(bit, Relaxed) & bit == 0
            };
            // A write waits in `pending` while the cache fetches its byte:
            // an atomic OR is a barrier, and done at once each one would
            // wait for its own miss, one after another.
            let mut pending = Pending::default();
            // Stores entry `q` at distance `d1` for Manhattan distance `md`;
            // 1 when clamped (counted once per entry).
            let mut write = |q: u64, md: u32| -> u64 {
                debug_assert!(d1 >= md && (d1 - md).is_multiple_of(2));
                let half = (d1 - md) / 2;
                let nibble = half.min(u32::from(MAX_NIBBLE)) as u8;
                if nibble != 0 {
                    pending.push(&out, q, nibble);
                }
                u64::from(half > u32::from(MAX_NIBBLE))
            };
            let (mut ns, mut nc) = (0u64, 0u64);
            // the subset of the states being expanded, and its regions
            let mut si = usize::MAX;
            let (mut mask, mut first, mut end, mut nregions) = (0u64, 0u64, 0u64, 1u64);
            let mut last = (usize::MAX, 0u64);
            let mut md = 0u32;
            let mut region_of = [0u64; 64];
            // the tile on each cell of the placement being expanded
            let mut tile_at = [0u8; 64];
            // one state's successors, and their codes (only the first
            // `m` are read: no clearing per state)
            let mut succ = [(0u64, 0u64, 0u8, 0u8, 0u8, 0u8); 64];
            let mut seen = [0u64; 64];
            for (wi, word) in chunk.iter().enumerate() {
                let w = word.load(Relaxed);
                let base = ((ci * CHUNK + wi) as u64) * 32;
                // pushing, the current layer's states (code 10); pulling,
                // the unseen ones (00) that exist
                let mut cur = if pull {
                    let mut u = !w & !(w >> 1) & 0x5555_5555_5555_5555;
                    if base + 32 > total {
                        u &= (1u64 << ((total - base) * 2)) - 1;
                    }
                    u
                } else {
                    (w >> 1) & !w & 0x5555_5555_5555_5555
                };
                let mut found = 0u64;
                while cur != 0 {
                    let b = u64::from(cur.trailing_zeros() / 2);
                    cur &= cur - 1;
                    let s = base + b;
                    if si == usize::MAX || s >= end {
                        si = space.subset_of_state(s);
                        let (r, f) = space.subset(si);
                        (mask, first, end, nregions) = (space.masks[si], f, f + r * orders, r);
                        let free = geo.full() & !mask;
                        let mut rest = free;
                        let mut j = 0;
                        while rest != 0 {
                            let reg = geo.flood(rest & rest.wrapping_neg(), free);
                            region_of[j] = reg;
                            rest &= !reg;
                            j += 1;
                        }
                    }
                    let off = s - first;
                    let (order, j) = (off / nregions, (off % nregions) as usize);
                    let region = region_of[j];
                    // the regions of one placement are side by side
                    if (si, order) != last {
                        space.order_unrank(order, mask, pos);
                        for (t, &c) in pos.iter().enumerate() {
                            tile_at[usize::from(c)] = t as u8;
                        }
                        md = (0..k)
                            .map(|i| u32::from(md_of[i << 6 | usize::from(pos[i])]))
                            .sum();
                        last = (si, order);
                    }
                    // All successors first, then their codes: the loads
                    // are independent, so their cache misses overlap.
                    let mut m = 0;
                    for (i, &c) in pos.iter().enumerate() {
                        let mut targets = geo.nbr[usize::from(c)] & region;
                        while targets != 0 {
                            let e = targets.trailing_zeros() as u8;
                            targets &= targets - 1;
                            let mask2 = (mask & !(1u64 << c)) | 1u64 << e;
                            let order2 = space.order_rank_after(order, mask, &tile_at, i, c, e);
                            let (first2, n2, s2) =
                                space.placement_state(mask2, order2, usize::from(c));
                            succ[m & 63] = (s2, first2, n2 as u8, i as u8, c, e);
                            m += 1;
                        }
                    }
                    if pull {
                        // a parent in the current layer puts it in the next
                        let parent = succ[..m.min(64)].iter().any(|&(s2, ..)| {
                            codes[(s2 / 32) as usize].load(Relaxed) >> (s2 % 32 * 2) & 3 == 2
                        });
                        if !parent {
                            continue;
                        }
                        ns += 1;
                        // only this worker marks states of this word now
                        let before = w | found;
                        found |= 1 << (b * 2);
                        let q = if regions {
                            s
                        } else {
                            let q = ranker.rank(pos);
                            if !claim(q, s - j as u64, nregions, s, before) {
                                continue;
                            }
                            q
                        };
                        nc += write(q, md);
                        continue;
                    }
                    for (x, &(s2, ..)) in seen.iter_mut().zip(&succ[..m.min(64)]) {
                        *x = codes[(s2 / 32) as usize].load(Relaxed) >> (s2 % 32 * 2) & 3;
                    }
                    for (&(s2, first2, n2, i, c, e), &code) in succ[..m.min(64)].iter().zip(&seen) {
                        if code != 0 {
                            continue;
                        }
                        let (i, shift) = (usize::from(i), s2 % 32 * 2);
                        // Only 00 → 01 happens during a layer, so the OR
                        // cannot disturb another state's code.
                        let before = codes[(s2 / 32) as usize].fetch_or(1 << shift, Relaxed);
                        if (before >> shift) & 3 != 0 {
                            continue;
                        }
                        ns += 1;
                        let md2 = md + u32::from(md_of[i << 6 | usize::from(e)])
                            - u32::from(md_of[i << 6 | usize::from(c)]);
                        let q = if regions {
                            s2
                        } else {
                            pos[i] = e;
                            let q = ranker.rank(pos);
                            pos[i] = c;
                            if !claim(q, first2, u64::from(n2), s2, before) {
                                continue;
                            }
                            q
                        };
                        nc += write(q, md2);
                    }
                }
                if found != 0 {
                    word.fetch_or(found, Relaxed);
                }
            }
            pending.flush(&out);
            new_states.fetch_add(ns, Relaxed);
            clamped.fetch_add(nc, Relaxed);
        });
        if let Some(i) = *stopped.lock().unwrap_or_else(PoisonError::into_inner) {
            return Err(i);
        }
        let ns = new_states.load(Relaxed);
        if ns == 0 {
            break;
        }
        depth += 1;
        reached += ns;
        frontier = ns;
        progress.layer(depth, reached, total);
        // current → done, next → current: per pair (h, l) → (h | l, h)
        codes.par_iter().for_each(|w| {
            let x = w.load(Relaxed);
            let h = (x >> 1) & 0x5555_5555_5555_5555;
            let l = x & 0x5555_5555_5555_5555;
            w.store((h | l) << 1 | h, Relaxed);
        });
    }
    drop((codes, valued));
    Ok(Built {
        // in place: AtomicU8 and u8 share size and alignment
        data: out.into_iter().map(AtomicU8::into_inner).collect(),
        entries,
        max: depth.min(u32::from(u8::MAX)) as u8,
        clamped: clamped.into_inner(),
    })
}

/// Bytes a build of a `k`-tile group on `shape` holds at its peak: two
/// bits per (placement, region) state, the nibbles, and when not
/// zero-aware a bit per placement. `u64::MAX` when the board or group is
/// out of range.
pub fn scratch_bytes(shape: Shape, k: usize, regions: bool) -> u64 {
    let Some(states) = super::layout::state_count(shape, k, true) else {
        return u64::MAX;
    };
    let Some(entries) = super::layout::state_count(shape, k, regions) else {
        return u64::MAX;
    };
    let valued = if regions { 0 } else { entries.div_ceil(8) };
    states
        .div_ceil(4)
        .saturating_add(entries.div_ceil(2))
        .saturating_add(valued)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_stops_when_cancelled_or_over_its_memory() {
        let shape = Shape::new(5, 5);
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let cancelled = crate::budget::Budget::unlimited().with_cancel(Some(flag));
        let r = build(
            shape,
            &[1, 2, 3, 4, 5],
            0,
            false,
            &(),
            &Clock::new(&cancelled),
        );
        assert_eq!(r, Err(Interrupt::Cancelled));
        let small = crate::budget::Budget::unlimited().with_max_bytes(1 << 20);
        let r = build(shape, &[1, 2, 3, 4, 5], 0, false, &(), &Clock::new(&small));
        assert_eq!(
            r,
            Err(Interrupt::Limit(crate::budget::Limit::Memory)),
            "5 tiles on 25 cells need {} bytes",
            scratch_bytes(shape, 5, false)
        );
    }

    #[test]
    fn pushing_and_pulling_build_the_same_and_the_minimum_is_over_regions() {
        // 6 tiles on 3×4: half the cells free, so many placements split
        // them into several regions, some of them across two code words.
        let shape = Shape::new(3, 4);
        let goal_cells = [1u8, 2, 3, 4, 5, 6];
        let budget = crate::budget::Budget::unlimited();
        let clock = Clock::new(&budget);
        let built = |regions, pull_below| {
            let search = Search {
                shape,
                goal_cells: &goal_cells,
                goal_blank: 0,
                regions,
            };
            build_with(&search, pull_below, &(), &clock).unwrap()
        };
        let nibble = |b: &Built, q: u64| (b.data[(q / 2) as usize] >> (q % 2 * 4)) & 15;
        let by_region = built(true, PULL_BELOW);
        let min = built(false, PULL_BELOW);
        for pull_below in [0.0, f64::INFINITY] {
            assert_eq!(built(true, pull_below), by_region, "{pull_below}");
            assert_eq!(built(false, pull_below), min, "{pull_below}");
        }
        // every placement's minimum is the least of its regions' entries
        let space = Layout::get(shape, 6, true).unwrap();
        let ranker = crate::rank::PartialRanker::new(12, 6).unwrap();
        let mut cells = [0u8; 6];
        let mut split = 0;
        for q in 0..ranker.count() {
            ranker.unrank(q, &mut cells);
            let taken: u64 = cells.iter().map(|&c| 1u64 << c).sum();
            let states: std::collections::BTreeSet<u64> = (0..12)
                .filter(|b| taken & 1 << b == 0)
                .map(|b| space.state(&cells, b))
                .collect();
            split += usize::from(states.len() > 1);
            let least = states.iter().map(|&s| nibble(&by_region, s)).min();
            assert_eq!(Some(nibble(&min, q)), least, "{cells:?}");
        }
        assert!(split > 10_000, "{split} placements with several regions");
    }

    #[test]
    fn one_tile_database_is_its_manhattan_distance() {
        // With one tile, the cost is exactly its Manhattan distance to the
        // goal: every stored nibble is zero.
        let shape = Shape::new(3, 4);
        let budget = crate::budget::Budget::unlimited();
        for regions in [false, true] {
            let b = build(shape, &[5], 11, regions, &(), &Clock::new(&budget)).unwrap();
            assert!(b.data.iter().all(|&x| x == 0));
            assert_eq!(b.max, 3);
            assert_eq!(b.clamped, 0);
        }
    }
}
