//! Building one pattern database by breadth-first search backward from the
//! goal in the abstract space of one group's tiles plus the blank.
//!
//! Only moves of the group's tiles cost 1; the blank wanders through cells
//! not held by group tiles for free. So an abstract state is a *placement*
//! of the group's `k` tiles (a k-permutation of the `n` cells) together with
//! the *region* of free cells the blank is in (the connected component of
//! the free cells holding the blank, named by its lowest cell). Moves inside
//! a region cost nothing, so the search is a plain BFS over
//! (placement, region) pairs where every edge is one group-tile move: a
//! tile next to the region slides into one of the region's cells, and the
//! blank's new region is the one holding the tile's old cell.
//!
//! The stored value of a placement is the smallest cost over its regions
//! (the first layer that reaches it), so one byte per placement:
//! `n!/(n−k)!` bytes; a *zero-aware* database keeps the cost of each
//! region instead, `n − k` times the size (see [`build`]). Counting only
//! the group's moves is what makes the groups' values add up admissibly.
//!
//! Bookkeeping uses bit sets over (placement, free-cell ordinal): `seen`,
//! the current layer and the next layer, each `n!/(n−k)! · (n−k)` bits.
//! Each layer is expanded in parallel (rayon); the bit sets are atomics so
//! that workers can mark successors without locks.

use crate::board::Shape;
use crate::budget::{Clock, Interrupt};
use crate::rank::PartialRanker;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// Value of a placement not (yet) reached.
pub const UNREACHED: u8 = u8::MAX;

/// Cell adjacency as bit masks, for boards of at most 64 cells.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub cols: usize,
    pub n: usize,
    full: u64,
    not_first_col: u64,
    not_last_col: u64,
    /// `nbr[c]`: the cells next to `c`.
    pub nbr: Vec<u64>,
}

impl Geometry {
    pub fn new(shape: Shape) -> Geometry {
        let (rows, cols) = (shape.rows, shape.cols);
        let n = rows * cols;
        assert!(n <= 64, "pattern databases need boards of at most 64 cells");
        let full = if n == 64 { !0 } else { (1u64 << n) - 1 };
        let mut not_first_col = 0;
        let mut not_last_col = 0;
        let mut nbr = vec![0u64; n];
        for (c, m) in nbr.iter_mut().enumerate() {
            if c % cols != 0 {
                not_first_col |= 1 << c;
                *m |= 1 << (c - 1);
            }
            if c % cols != cols - 1 {
                not_last_col |= 1 << c;
                *m |= 1 << (c + 1);
            }
            if c >= cols {
                *m |= 1 << (c - cols);
            }
            if c + cols < n {
                *m |= 1 << (c + cols);
            }
        }
        Geometry {
            cols,
            n,
            full,
            not_first_col,
            not_last_col,
            nbr,
        }
    }

    /// The connected part of `free` that contains `seed` (a subset of it).
    #[inline]
    pub fn flood(&self, seed: u64, free: u64) -> u64 {
        let mut r = seed;
        loop {
            let grown = r
                | ((r << 1) & self.not_first_col)
                | ((r >> 1) & self.not_last_col)
                | (r << self.cols)
                | (r >> self.cols);
            let next = grown & free;
            if next == r {
                return r;
            }
            r = next;
        }
    }

    pub fn full(&self) -> u64 {
        self.full
    }

    /// For boards of at most 16 cells: `table[free << 4 | blank]` is the
    /// [`ordinal`] of the blank's region among the `free` cells, so a
    /// zero-aware lookup needs no flood fill. Built once per shape.
    pub fn region_table(&self) -> Option<Arc<[u8]>> {
        if self.n > 16 {
            return None;
        }
        type Tables = Mutex<HashMap<(usize, usize), Arc<[u8]>>>;
        static TABLES: OnceLock<Tables> = OnceLock::new();
        let mut map = TABLES
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let key = (self.n, self.cols);
        if let Some(t) = map.get(&key) {
            return Some(t.clone());
        }
        let table: Arc<[u8]> = (0..(1usize << self.n) * 16)
            .into_par_iter()
            .map(|i| {
                let (free, blank) = ((i >> 4) as u64, i & 15);
                if blank < self.n && free & (1 << blank) != 0 {
                    ordinal(free, self.flood(1 << blank, free)) as u8
                } else {
                    0
                }
            })
            .collect::<Vec<u8>>()
            .into();
        map.insert(key, table.clone());
        Some(table)
    }
}

/// Position of the lowest cell of `region` among the set bits of `free`.
#[inline]
pub fn ordinal(free: u64, region: u64) -> usize {
    let rep = region.trailing_zeros();
    (free & ((1u64 << rep) - 1)).count_ones() as usize
}

/// The `o`-th set bit of `x`.
#[inline]
fn nth_bit(mut x: u64, o: usize) -> u32 {
    for _ in 0..o {
        x &= x - 1;
    }
    x.trailing_zeros()
}

fn atomic_bits(words: usize) -> Vec<AtomicU64> {
    (0..words)
        .into_par_iter()
        .map(|_| AtomicU64::new(0))
        .collect()
}

/// Reports progress while building: called after each BFS layer with the
/// layer's cost, the placements reached so far and the total.
pub trait BuildProgress: Sync {
    fn layer(&self, depth: u32, reached: u64, total: u64);
}

impl BuildProgress for () {
    fn layer(&self, _: u32, _: u64, _: u64) {}
}

/// Builds the database for `tiles` whose goal cells are `goal_cells`
/// (same order), with the goal's blank on `goal_blank`.
///
/// With `regions == false`, returns one byte per placement rank
/// (`PartialRanker::new(n, k)`): the cost minimised over the blank's region.
/// With `regions == true` (a *zero-aware* database), returns one byte per
/// (placement, free-cell ordinal) pair, index `rank · (n − k) + ordinal`,
/// holding the cost for the blank's region whose lowest free cell has that
/// ordinal (entries for other ordinals are [`UNREACHED`] and never read).
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
) -> Result<Vec<u8>, Interrupt> {
    let geo = Geometry::new(shape);
    let n = geo.n;
    let k = goal_cells.len();
    let Some(ranker) = PartialRanker::new(n, k) else {
        unreachable!("group size checked by the caller")
    };
    clock.budget().check_bytes(scratch_bytes(n, k, regions))?;
    clock.poll()?;
    let placements = ranker.count() as usize;
    let f = n - k; // free cells, the blank's included
    let words = (placements * f).div_ceil(64);
    let seen = atomic_bits(words);
    let mut cur = atomic_bits(words);
    let mut next = atomic_bits(words);
    let dist: Vec<AtomicU8> = (0..if regions { placements * f } else { placements })
        .into_par_iter()
        .map(|_| AtomicU8::new(UNREACHED))
        .collect();

    // the goal
    let occ0 = goal_cells.iter().fold(0u64, |m, &c| m | 1 << c);
    let free0 = geo.full & !occ0;
    let region0 = geo.flood(1 << goal_blank, free0);
    let p0 = ranker.rank(goal_cells) as usize;
    let bit0 = p0 * f + ordinal(free0, region0);
    seen[bit0 / 64].fetch_or(1 << (bit0 % 64), Relaxed);
    cur[bit0 / 64].fetch_or(1 << (bit0 % 64), Relaxed);
    dist[if regions { bit0 } else { p0 }].store(0, Relaxed);
    let mut reached = 1u64;
    progress.layer(0, reached, placements as u64);

    const CHUNK: usize = 1 << 12;
    let mut depth: u32 = 0;
    let stopped: Mutex<Option<Interrupt>> = Mutex::new(None);
    loop {
        let new_placements = AtomicU64::new(0);
        let new_states = AtomicU64::new(0);
        let d1 = (depth + 1).min(u32::from(UNREACHED) - 1) as u8;
        cur.par_chunks(CHUNK).enumerate().for_each(|(ci, chunk)| {
            if let Err(i) = clock.poll() {
                stopped
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .get_or_insert(i);
                return;
            }
            let mut pos = [0u8; 64];
            let pos = &mut pos[..k];
            let (mut np, mut ns) = (0u64, 0u64);
            // consecutive bits often share a placement (several regions)
            let mut last_p = usize::MAX;
            let mut free = 0u64;
            for (wi, word) in chunk.iter().enumerate() {
                let mut w = word.load(Relaxed);
                while w != 0 {
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    let bit = (ci * CHUNK + wi) * 64 + b;
                    let (p, o) = (bit / f, bit % f);
                    if p != last_p {
                        ranker.unrank(p as u64, pos);
                        let occ = pos.iter().fold(0u64, |m, &c| m | 1 << c);
                        free = geo.full & !occ;
                        last_p = p;
                    }
                    let region = geo.flood(1 << nth_bit(free, o), free);
                    for i in 0..k {
                        let c = pos[i];
                        let mut targets = geo.nbr[usize::from(c)] & region;
                        while targets != 0 {
                            let e = targets.trailing_zeros();
                            targets &= targets - 1;
                            pos[i] = e as u8;
                            let free2 = (free & !(1u64 << e)) | (1u64 << c);
                            let region2 = geo.flood(1 << c, free2);
                            let p2 = ranker.rank(pos) as usize;
                            pos[i] = c;
                            let bit2 = p2 * f + ordinal(free2, region2);
                            let mask = 1u64 << (bit2 % 64);
                            let slot = &seen[bit2 / 64];
                            if slot.load(Relaxed) & mask != 0 {
                                continue;
                            }
                            if slot.fetch_or(mask, Relaxed) & mask != 0 {
                                continue;
                            }
                            next[bit2 / 64].fetch_or(mask, Relaxed);
                            ns += 1;
                            if regions {
                                // this thread won the state: it alone writes it
                                dist[bit2].store(d1, Relaxed);
                                np += 1;
                            } else if dist[p2].load(Relaxed) == UNREACHED
                                && dist[p2]
                                    .compare_exchange(UNREACHED, d1, Relaxed, Relaxed)
                                    .is_ok()
                            {
                                np += 1;
                            }
                        }
                    }
                }
            }
            new_placements.fetch_add(np, Relaxed);
            new_states.fetch_add(ns, Relaxed);
        });
        if let Some(i) = *stopped.lock().unwrap_or_else(PoisonError::into_inner) {
            return Err(i);
        }
        depth += 1;
        reached += new_placements.load(Relaxed);
        progress.layer(depth, reached, placements as u64);
        if new_states.load(Relaxed) == 0 {
            break;
        }
        std::mem::swap(&mut cur, &mut next);
        next.par_iter().for_each(|w| w.store(0, Relaxed));
    }
    drop((seen, cur, next));
    Ok(dist.into_par_iter().map(AtomicU8::into_inner).collect())
}

/// Bytes a build of a `k`-tile group on `n` cells holds at its peak: three
/// bit sets over (placement, free-cell ordinal) and the values.
pub fn scratch_bytes(n: usize, k: usize, regions: bool) -> u64 {
    let placements = crate::rank::partial_count(n, k).unwrap_or(u64::MAX);
    let f = (n - k) as u64;
    let bits = placements.saturating_mul(f);
    let values = if regions { bits } else { placements };
    bits.div_ceil(64)
        .saturating_mul(8 * 3)
        .saturating_add(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flood_fills_connected_cells_only() {
        let g = Geometry::new(Shape::new(3, 3));
        // free: the left column and the right column; the middle column blocked
        let free = 0b001_001_001 | 0b100_100_100;
        assert_eq!(g.flood(1, free), 0b001_001_001);
        assert_eq!(g.flood(1 << 2, free), 0b100_100_100);
        let g = Geometry::new(Shape::new(8, 8));
        assert_eq!(g.flood(1, g.full()), g.full());
    }

    #[test]
    fn a_build_stops_when_cancelled_or_over_its_memory() {
        let shape = Shape::new(5, 5);
        let flag = Arc::new(std::sync::atomic::AtomicBool::new(true));
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
            scratch_bytes(25, 5, false)
        );
    }

    #[test]
    fn one_tile_database_is_its_manhattan_distance() {
        // With one tile, the cost is exactly its Manhattan distance to the goal.
        let shape = Shape::new(3, 4);
        let goal_cell = 5u8;
        let budget = crate::budget::Budget::unlimited();
        let data = build(shape, &[goal_cell], 11, false, &(), &Clock::new(&budget)).unwrap();
        for cell in 0..12u8 {
            let md = (cell / 4).abs_diff(goal_cell / 4) + (cell % 4).abs_diff(goal_cell % 4);
            assert_eq!(data[usize::from(cell)], md, "cell {cell}");
        }
    }
}
