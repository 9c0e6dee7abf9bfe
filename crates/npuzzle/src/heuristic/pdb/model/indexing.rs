//! Where each abstract state of a group's database lives: a dense index
//! over (set of occupied cells, region of the blank, order of the tiles on
//! those cells), so that a zero-aware database stores exactly one value
//! per region that exists, and nothing for the free-cell ordinals that
//! are no region's lowest cell.
//!
//! A placement of `k` tiles is split into its *subset* (the occupied
//! cells, ranked in colexicographic order, which is the order of the cell
//! masks as numbers) and its *order* (which tile stands on which of those
//! cells, a permutation of `k` ranked by its Lehmer code). The regions of
//! the blank depend on the subset alone, so the states of one subset are
//! one contiguous block: `base[subset] + order · regions + region`, with
//! the regions numbered by their lowest cell (the regions of one placement
//! side by side, so that a build expanding them unranks the order once).
//! Without zero-awareness every subset has one "region" and the index is
//! `subset · k! + order`.
//!
//! The order's rank is computed from the cells directly, scanning the
//! tiles last to first: digit `i` counts the later tiles standing on lower
//! cells, read with one `popcount` against the mask of cells seen so far.
//! That is the same single pass (and cost) as ranking the placement
//! itself, and the same pass yields the occupied mask.

use super::ranks::{binomials, ByteRanks, RECIPROCAL};
use crate::board::Shape;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

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

    /// Number of connected regions of `free`.
    pub fn region_count(&self, free: u64) -> usize {
        self.regions_meeting(free, free)
    }

    /// Index of the region of `free` holding `cell` among the regions of
    /// `free` ordered by their lowest cell.
    #[inline]
    pub fn region_index(&self, free: u64, cell: usize) -> usize {
        let rep = self.flood(1 << cell, free).trailing_zeros();
        let below = free & ((1u64 << rep) - 1);
        self.regions_meeting(below, free)
    }

    /// Number of regions of `free` with a cell in `part` (a subset of
    /// `free`).
    fn regions_meeting(&self, part: u64, free: u64) -> usize {
        let mut rest = part;
        let mut count = 0;
        while rest != 0 {
            rest &= !self.flood(rest & rest.wrapping_neg(), free);
            count += 1;
        }
        count
    }
}

/// The index of one group size's states on one board shape, zero-aware or
/// not. Shared by every database of that size (see [`Indexing::get`]).
pub struct Indexing {
    pub geo: Geometry,
    /// `k!`: orders per subset and region.
    pub orders: u64,
    /// `order_weight[i] = (k − 1 − i)!`, the weight of digit `i`.
    pub order_weight: [u64; 16],
    /// Occupied-cell masks in colexicographic (numeric) order.
    pub masks: Vec<u64>,
    /// `info[subset] = first state << 8 | regions`.
    info: Vec<u64>,
    /// On boards of ≤ 16 cells, the subset's rank by table, a byte of
    /// the mask at a time.
    byte_ranks: Option<Box<ByteRanks>>,
    /// `C(a, b)`, for ranking subsets on larger boards.
    binom: Box<[[u64; 17]; 65]>,
    /// Zero-aware on boards of ≤ 16 cells: `cell_regions[subset]` is
    /// `info`'s entry and, four bits a cell, the region index of each free
    /// cell: one line read for both, where a table by free cells and blank
    /// took 1 MiB and was read from the outer cache.
    cell_regions: Vec<[u64; 2]>,
    /// States in all.
    pub states: u64,
}

impl Indexing {
    /// The layout for `k` tiles on `shape`, built once per process.
    /// `None` when the subsets or states overflow (the caller has checked
    /// the entry cap before, so this is a guard).
    pub fn get(shape: Shape, k: usize, regions: bool) -> Option<Arc<Indexing>> {
        type Layouts = Mutex<HashMap<(usize, usize, usize, bool), Arc<Indexing>>>;
        static LAYOUTS: OnceLock<Layouts> = OnceLock::new();
        let key = (shape.rows, shape.cols, k, regions);
        let mut map = LAYOUTS
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(l) = map.get(&key) {
            return Some(l.clone());
        }
        let l = Arc::new(Indexing::new(shape, k, regions)?);
        map.insert(key, l.clone());
        Some(l)
    }

    fn new(shape: Shape, k: usize, regions: bool) -> Option<Indexing> {
        let geo = Geometry::new(shape);
        let n = geo.n;
        if k == 0 || k > 16 || k > n {
            return None;
        }
        let binom = binomials();
        let subsets = binom[n][k];
        if subsets == u64::MAX || subsets > u64::from(u32::MAX) {
            return None;
        }
        let orders = crate::rank::FACT[k];
        let mut order_weight = [0u64; 16];
        for (i, w) in order_weight.iter_mut().enumerate().take(k) {
            *w = crate::rank::FACT[k - 1 - i];
        }
        // every k-subset, in increasing mask order (Gosper's hack)
        let mut masks = Vec::with_capacity(subsets as usize);
        let mut m: u64 = (1u64 << k) - 1;
        for _ in 0..subsets {
            masks.push(m);
            let c = m & m.wrapping_neg();
            let r = m.wrapping_add(c);
            if r == 0 {
                break;
            }
            m = (((r ^ m) >> 2) / c) | r;
        }
        let counts: Vec<u64> = masks
            .par_iter()
            .map(|&m| {
                if regions {
                    geo.region_count(geo.full() & !m) as u64
                } else {
                    1
                }
            })
            .collect();
        let cell_regions: Vec<u64> = if regions && n <= 16 {
            masks
                .par_iter()
                .map(|&m| {
                    let free = geo.full() & !m;
                    (0..n).filter(|&c| free >> c & 1 == 1).fold(0u64, |w, c| {
                        w | (geo.region_index(free, c) as u64) << (4 * c)
                    })
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut info = Vec::with_capacity(masks.len());
        let mut first = 0u64;
        for &r in &counts {
            info.push(first.checked_mul(256)? | r);
            first = first.checked_add(r.checked_mul(orders)?)?;
        }
        let cell_regions = cell_regions
            .into_iter()
            .zip(&info)
            .map(|(map, &i)| [i, map])
            .collect();
        let byte_ranks = (n <= 16).then(|| ByteRanks::new(&binom));
        Some(Indexing {
            orders,
            order_weight,
            masks,
            info,
            byte_ranks,
            binom,
            cell_regions,
            states: first,
            geo,
        })
    }

    /// Colexicographic rank of the subset `mask` (its index in `masks`).
    #[inline]
    pub fn subset_rank(&self, mask: u64) -> usize {
        let mut m = mask;
        let mut r = 0u64;
        let mut j = 1;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            // (j ≤ k ≤ 16: the table has columns 0 to 16)
            r += self.binom[c & 63][j.min(16)];
            j += 1;
        }
        r as usize
    }

    /// Whether [`Indexing::state_of`] is a table lookup (boards of at most
    /// 16 cells) rather than a subset ranking.
    pub fn indexes_by_table(&self) -> bool {
        self.byte_ranks.is_some()
    }

    /// The rank of the subset `mask`, by table where there is one.
    #[inline(always)]
    fn rank(&self, mask: u64) -> usize {
        match &self.byte_ranks {
            Some(t) => t.rank(mask),
            None => self.subset_rank(mask),
        }
    }

    /// The state of the tiles on `mask` in the order ranked `order`, with
    /// the blank on `blank`.
    #[inline(always)]
    pub fn state_of(&self, mask: u64, order: u64, blank: usize) -> u64 {
        self.placement_state(mask, order, blank).2
    }

    /// The first state of the placement of the tiles on `mask` in the
    /// order ranked `order`, its number of states (the regions of the free
    /// cells, side by side), and the state with the blank on `blank`.
    #[inline(always)]
    pub fn placement_state(&self, mask: u64, order: u64, blank: usize) -> (u64, u64, u64) {
        let rank = self.rank(mask);
        if let Some(&[info, map]) = self.cell_regions.get(rank) {
            let regions = info & 0xff;
            let first = (info >> 8) + order * regions;
            return (first, regions, first + (map >> (4 * (blank & 15)) & 15));
        }
        let info = self.info[rank];
        let regions = info & 0xff;
        let first = (info >> 8) + order * regions;
        if regions == 1 {
            return (first, 1, first);
        }
        let free = self.geo.full() & !mask;
        let region = self.geo.region_index(free, blank) as u64;
        (first, regions, first + region)
    }

    /// Number of regions of the subset at `index`, and its first state.
    pub fn subset(&self, index: usize) -> (u64, u64) {
        (self.info[index] & 0xff, self.info[index] >> 8)
    }

    /// The subset holding `state` (states are in subset order).
    pub fn subset_of_state(&self, state: u64) -> usize {
        self.info.partition_point(|&i| i >> 8 <= state) - 1
    }

    /// The rank of the order of tiles on `cells` (tile `i` on `cells[i]`),
    /// and the mask of the cells.
    #[inline]
    pub fn order_rank(&self, cells: &[u8]) -> (u64, u64) {
        let mut used = 0u64;
        let mut r = 0u64;
        for (i, &c) in cells.iter().enumerate().rev() {
            let below = (used & ((1u64 << c) - 1)).count_ones() as u64;
            r += below * self.order_weight[i & 15];
            used |= 1u64 << c;
        }
        (r, used)
    }

    /// The rank of the order after tile `i` (of the tiles on `mask`, in the
    /// order ranked `order`, tile `tile_at[cell]` on each cell of `mask`)
    /// moves from `from` to `to`, without ranking the tiles again: only the
    /// tiles on the cells strictly between the two change places with it
    /// in the cells' order, so a move within a row changes nothing (a
    /// quarter of a build's time went into ranking every successor anew).
    #[inline(always)]
    pub fn order_rank_after(
        &self,
        order: u64,
        mask: u64,
        tile_at: &[u8; 64],
        i: usize,
        from: u8,
        to: u8,
    ) -> u64 {
        let (lo, hi) = (from.min(to), from.max(to));
        // the cells lo + 1 .. hi
        let mut between = mask & ((1u64 << hi) - 1) & !((2u64 << lo) - 1);
        if between == 0 {
            return order;
        }
        let (mut up, mut down) = (0u64, 0u64);
        while between != 0 {
            let j = usize::from(tile_at[between.trailing_zeros() as usize]);
            between &= between - 1;
            // a later tile passed over counts in tile i's digit; tile i
            // passing over an earlier one, in that tile's
            if j > i {
                up += self.order_weight[i & 15];
            } else {
                down += self.order_weight[j & 15];
            }
        }
        // moving to a higher cell: i is above the later tiles it passed,
        // and no longer below the earlier ones
        if to > from {
            order + up - down
        } else {
            order + down - up
        }
    }

    /// Puts the tiles of order `rank` on the cells of `mask`: `out[i]` is
    /// tile `i`'s cell.
    pub fn order_unrank(&self, rank: u64, mask: u64, out: &mut [u8]) {
        let k = out.len();
        // Lehmer digits from the last: digit i is in base k − i; where the
        // rank fits in 32 bits (k ≤ 12), divisions by multiplying with a
        // reciprocal (a division was a tenth of a build's time).
        let mut digit = [0u8; 16];
        if let Ok(r) = u32::try_from(rank) {
            let mut r = u64::from(r);
            for i in (0..k.saturating_sub(1)).rev() {
                let base = (k - i) as u64;
                let q = ((u128::from(r) * u128::from(RECIPROCAL[base as usize])) >> 64) as u64;
                digit[i] = (r - q * base) as u8;
                r = q;
            }
        } else {
            let mut r = rank;
            for i in (0..k).rev() {
                let base = (k - i) as u64;
                digit[i] = (r % base) as u8;
                r /= base;
            }
        }
        let mut rest = mask;
        for (slot, &d) in out.iter_mut().zip(&digit) {
            let mut x = rest;
            for _ in 0..d {
                x &= x - 1;
            }
            let c = x.trailing_zeros();
            *slot = c as u8;
            rest &= !(1u64 << c);
        }
    }

    /// The state of the tiles on `cells` with the blank on `blank`.
    pub fn state(&self, cells: &[u8], blank: usize) -> u64 {
        let (order, mask) = self.order_rank(cells);
        self.state_of(mask, order, blank)
    }
}

/// States of a `k`-tile database on `shape` (zero-aware or not), without
/// building the layout's tables when the count alone is asked: `None` on
/// overflow or when the board is too big.
pub fn state_count(shape: Shape, k: usize, regions: bool) -> Option<u64> {
    let n = shape.cells();
    if n > 64 || k == 0 || k > 16 || k > n {
        return None;
    }
    if !regions {
        return crate::rank::partial_count(n, k);
    }
    Indexing::get(shape, k, true).map(|l| l.states)
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
        assert_eq!(g.region_count(free), 2);
        assert_eq!(g.region_index(free, 8), 1);
        assert_eq!(g.region_index(free, 3), 0);
        let g = Geometry::new(Shape::new(8, 8));
        assert_eq!(g.flood(1, g.full()), g.full());
    }

    #[test]
    fn subsets_ranked_by_bytes_as_by_cells() {
        for k in [1, 3, 6, 7, 8, 9, 15, 16] {
            let l = Indexing::get(Shape::new(4, 4), k, false).unwrap();
            let t = l.byte_ranks.as_ref().unwrap();
            for (i, &m) in l.masks.iter().enumerate() {
                assert_eq!(t.rank(m), i, "k={k} {m:#x}");
                assert_eq!(l.subset_rank(m), i, "k={k} {m:#x}");
            }
        }
    }

    #[test]
    fn every_state_has_one_index() {
        // 3 tiles on 3×3 and 2×4, and 2 tiles on 5×5 (ranked without the
        // mask table): every (placement, region) maps to a distinct index
        // below the count, and orders round-trip.
        for (shape, k) in [
            (Shape::new(3, 3), 3),
            (Shape::new(2, 4), 4),
            (Shape::new(5, 5), 2),
        ] {
            for regions in [false, true] {
                let l = Indexing::get(shape, k, regions).unwrap();
                let n = shape.cells();
                let mut seen = vec![false; l.states as usize];
                let placements = crate::rank::PartialRanker::new(n, k).unwrap();
                let mut cells = vec![0u8; k];
                for p in 0..placements.count() {
                    placements.unrank(p, &mut cells);
                    let (order, mask) = l.order_rank(&cells);
                    let mut back = vec![0u8; k];
                    l.order_unrank(order, mask, &mut back);
                    assert_eq!(back, cells);
                    // every move of every tile, ranked incrementally
                    let mut tile_at = [0u8; 64];
                    for (t, &c) in cells.iter().enumerate() {
                        tile_at[usize::from(c)] = t as u8;
                    }
                    for t in 0..k {
                        let c = cells[t];
                        let mut to = l.geo.nbr[usize::from(c)] & !mask;
                        while to != 0 {
                            let e = to.trailing_zeros() as u8;
                            to &= to - 1;
                            let mut moved = cells.clone();
                            moved[t] = e;
                            let after = l.order_rank_after(order, mask, &tile_at, t, c, e);
                            assert_eq!(after, l.order_rank(&moved).0, "{cells:?} {t} → {e}");
                        }
                    }
                    assert_eq!(l.masks[l.subset_rank(mask)], mask);
                    let free = l.geo.full() & !mask;
                    // every free cell: the state of its region, as the
                    // flood fill numbers the regions (the table's answer
                    // on small boards)
                    let (count, first) = l.subset(l.subset_rank(mask));
                    for blank in (0..n).filter(|&c| free >> c & 1 == 1) {
                        let region = if regions {
                            l.geo.region_index(free, blank) as u64
                        } else {
                            0
                        };
                        assert_eq!(
                            l.state_of(mask, order, blank),
                            first + order * count + region,
                            "{shape:?} {cells:?} {blank}"
                        );
                    }
                    let mut done = 0u64;
                    for blank in 0..n {
                        if free & (1 << blank) == 0 || done & (1 << blank) != 0 {
                            continue;
                        }
                        done |= l.geo.flood(1 << blank, free);
                        let s = l.state(&cells, blank) as usize;
                        assert!(!seen[s], "{shape:?} {cells:?} {blank}");
                        seen[s] = true;
                        if !regions {
                            break;
                        }
                    }
                }
                assert!(seen.iter().all(|&s| s), "{shape:?} k={k} {regions}");
            }
        }
    }
}
