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
    let out: Vec<AtomicU8> = (0..entries.div_ceil(2))
        .into_par_iter()
        .map(|_| AtomicU8::new(0))
        .collect();
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
    loop {
        let new_states = AtomicU64::new(0);
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
            let (mut ns, mut nc) = (0u64, 0u64);
            // the subset of the states being expanded, and its regions
            let mut si = usize::MAX;
            let (mut mask, mut first, mut end, mut nregions) = (0u64, 0u64, 0u64, 1u64);
            let mut last = (usize::MAX, 0u64);
            let mut md = 0u32;
            let mut region_of = [0u64; 64];
            for (wi, word) in chunk.iter().enumerate() {
                let w = word.load(Relaxed);
                // the current layer's states: code 10
                let mut cur = (w >> 1) & !w & 0x5555_5555_5555_5555;
                while cur != 0 {
                    let b = u64::from(cur.trailing_zeros() / 2);
                    cur &= cur - 1;
                    let s = ((ci * CHUNK + wi) as u64) * 32 + b;
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
                        md = (0..k)
                            .map(|i| u32::from(md_of[i << 6 | usize::from(pos[i])]))
                            .sum();
                        last = (si, order);
                    }
                    // All successors first, then their codes: the loads
                    // are independent, so their cache misses overlap.
                    let mut succ = [(0u64, 0u64, 0u8, 0u8, 0u8); 64];
                    let mut m = 0;
                    for i in 0..k {
                        let c = pos[i];
                        let mut targets = geo.nbr[usize::from(c)] & region;
                        while targets != 0 {
                            let e = targets.trailing_zeros() as u8;
                            targets &= targets - 1;
                            pos[i] = e;
                            let mask2 = (mask & !(1u64 << c)) | 1u64 << e;
                            let (order2, _) = space.order_rank(pos);
                            pos[i] = c;
                            let s2 = space.state_of(mask2, order2, usize::from(c));
                            succ[m & 63] = (s2, order2, i as u8, c, e);
                            m += 1;
                        }
                    }
                    let mut seen = [0u64; 64];
                    for (x, &(s2, ..)) in seen.iter_mut().zip(&succ[..m.min(64)]) {
                        *x = codes[(s2 / 32) as usize].load(Relaxed) >> (s2 % 32 * 2) & 3;
                    }
                    for (&(s2, _, i, c, e), &code) in succ[..m.min(64)].iter().zip(&seen) {
                        if code != 0 {
                            continue;
                        }
                        let (i, shift) = (usize::from(i), s2 % 32 * 2);
                        // Only 00 → 01 happens during a layer, so the OR
                        // cannot disturb another state's code.
                        if (codes[(s2 / 32) as usize].fetch_or(1 << shift, Relaxed) >> shift) & 3
                            != 0
                        {
                            continue;
                        }
                        ns += 1;
                        let md2 = md + u32::from(md_of[i << 6 | usize::from(e)])
                            - u32::from(md_of[i << 6 | usize::from(c)]);
                        debug_assert!(d1 >= md2 && (d1 - md2).is_multiple_of(2));
                        let half = (d1 - md2) / 2;
                        let nibble = if half > u32::from(MAX_NIBBLE) {
                            nc += 1;
                            MAX_NIBBLE
                        } else {
                            half as u8
                        };
                        let q = if regions {
                            s2
                        } else {
                            pos[i] = e;
                            let q = ranker.rank(pos);
                            pos[i] = c;
                            let bit = 1u64 << (q % 64);
                            let v = &valued[(q / 64) as usize];
                            if v.load(Relaxed) & bit != 0 || v.fetch_or(bit, Relaxed) & bit != 0 {
                                continue;
                            }
                            q
                        };
                        if nibble != 0 {
                            out[(q / 2) as usize].fetch_or(nibble << (q % 2 * 4), Relaxed);
                        }
                    }
                }
            }
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
