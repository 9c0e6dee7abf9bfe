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
//! [`Indexing`]; otherwise one per placement, the smallest over its regions
//! (the first layer that reaches it).
//!
//! **Memory.** The search keeps two bits per (placement, region) state —
//! unseen, in the next layer, in the current layer, done — instead of
//! byte arrays and queues, plus the nibbles it produces (and, when not
//! zero-aware, one bit per placement saying it has its value). Each layer
//! scans the two-bit array for the current layer, in parallel (rayon); the
//! arrays are atomics so that workers mark successors without locks.

mod layer;

use crate::board::Shape;
use crate::budget::{Clock, Interrupt};
use crate::heuristic::pdb::entry::manhattan_table;
use crate::heuristic::pdb::model::indexing::{self, Indexing};
use crate::heuristic::pdb::store::Contents as Built;
use layer::{Layer, CHUNK};
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

/// Builds the database for `tiles` whose goal cells are `goal_cells`
/// (same order), with the goal's blank on `goal_blank`, zero-aware or not
/// (`regions`). A zero-aware database's entries are in the order of
/// [`Indexing`]; the minimum's are in placement rank order
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
        Indexing::get(shape, k, true),
        crate::rank::PartialRanker::new(shape.cells(), k),
    ) else {
        unreachable!("group size checked by the caller")
    };
    let md_of = manhattan_table(shape, goal_cells);
    let total = space.states;
    let entries = if regions { total } else { ranker.count() };
    let (codes, out, valued) = scratch(total, entries, regions);

    let s0 = space.state(goal_cells, goal_blank);
    codes[(s0 / 32) as usize].fetch_or(2 << (s0 % 32 * 2), Relaxed);
    if !regions {
        let q0 = ranker.rank(goal_cells);
        valued[(q0 / 64) as usize].fetch_or(1 << (q0 % 64), Relaxed);
    }
    let mut reached = 1u64;
    progress.layer(0, reached, total);

    let mut depth: u32 = 0;
    let clamped = AtomicU64::new(0);
    let stopped: Mutex<Option<Interrupt>> = Mutex::new(None);
    // the current layer's states
    let mut frontier = 1u64;
    loop {
        let layer = Layer {
            space: &space,
            ranker: &ranker,
            md_of: &md_of,
            codes: &codes,
            out: &out,
            valued: &valued,
            k,
            regions,
            pull: ((total - reached) as f64) < frontier as f64 * pull_below,
            d1: depth + 1,
        };
        let new_states = AtomicU64::new(0);
        codes.par_chunks(CHUNK).enumerate().for_each(|(ci, chunk)| {
            if let Err(i) = clock.poll() {
                stopped
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .get_or_insert(i);
                return;
            }
            let (ns, nc) = layer.chunk(ci, chunk);
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
        advance(&codes);
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

/// A build's arrays, all zero: the two-bit codes of `total` states, the
/// nibbles of `entries` entries (the database itself, searched right after
/// when built for a search), and when not zero-aware a bit per placement.
fn scratch(
    total: u64,
    entries: u64,
    regions: bool,
) -> (Vec<AtomicU64>, Vec<AtomicU8>, Vec<AtomicU64>) {
    let codes: Vec<AtomicU64> = (0..total.div_ceil(32))
        .into_par_iter()
        .map(|_| AtomicU64::new(0))
        .collect();
    let mut out = Vec::with_capacity(entries.div_ceil(2) as usize);
    crate::system::advise_huge_pages(&out);
    out.par_extend(
        (0..entries.div_ceil(2))
            .into_par_iter()
            .map(|_| AtomicU8::new(0)),
    );
    let valued: Vec<AtomicU64> = (0..if regions { 0 } else { entries.div_ceil(64) })
        .into_par_iter()
        .map(|_| AtomicU64::new(0))
        .collect();
    (codes, out, valued)
}

/// The next layer becomes the current one and the current one done: per
/// pair of code bits (h, l) → (h | l, h).
fn advance(codes: &[AtomicU64]) {
    codes.par_iter().for_each(|w| {
        let x = w.load(Relaxed);
        let h = (x >> 1) & 0x5555_5555_5555_5555;
        let l = x & 0x5555_5555_5555_5555;
        w.store((h | l) << 1 | h, Relaxed);
    });
}

/// Bytes a build of a `k`-tile group on `shape` holds at its peak: two
/// bits per (placement, region) state, the nibbles, and when not
/// zero-aware a bit per placement. `u64::MAX` when the board or group is
/// out of range.
pub fn scratch_bytes(shape: Shape, k: usize, regions: bool) -> u64 {
    let Some(states) = indexing::state_count(shape, k, true) else {
        return u64::MAX;
    };
    let Some(entries) = indexing::state_count(shape, k, regions) else {
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
        let space = Indexing::get(shape, 6, true).unwrap();
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
