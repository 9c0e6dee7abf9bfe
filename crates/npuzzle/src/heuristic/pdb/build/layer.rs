//! One layer of the build's breadth-first search, found by the workers
//! chunk by chunk of the two-bit codes (see [`super`]).

use super::MAX_NIBBLE;
use crate::heuristic::pdb::entry::prefetch;
use crate::heuristic::pdb::model::indexing::{Geometry, Indexing};
use crate::rank::PartialRanker;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// Words of 32 states a worker takes at a time.
pub(super) const CHUNK: usize = 1 << 10;

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
        prefetch(&out[(q / 2) as usize]);
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

/// What every worker of one layer reads: the search space, the codes and
/// the database being written.
pub(super) struct Layer<'s> {
    pub space: &'s Indexing,
    pub ranker: &'s PartialRanker,
    pub md_of: &'s [u8; 1024],
    /// Two bits per state: 00 unseen, 01 next layer, 10 current, 11 done.
    pub codes: &'s [AtomicU64],
    /// The nibbles, two a byte.
    pub out: &'s [AtomicU8],
    /// Not zero-aware: whether each placement has its value yet.
    pub valued: &'s [AtomicU64],
    pub k: usize,
    pub regions: bool,
    /// Whether this layer is found by pulling (else pushing).
    pub pull: bool,
    /// The next layer's distance.
    pub d1: u32,
}

/// A successor: its state, the first state of its placement and their
/// number, and the move (tile index, from cell, to cell).
type Succ = (u64, u64, u8, u8, u8, u8);

/// One worker's view of the placement being expanded.
struct Cursor {
    /// The subset holding the state being expanded (`usize::MAX`: none
    /// yet), its cells, its first state and the end of its states, and its
    /// regions.
    si: usize,
    mask: u64,
    first: u64,
    end: u64,
    nregions: u64,
    region_of: [u64; 64],
    /// The placement last unranked, as (subset, order).
    last: (usize, u64),
    /// Its cells (key order), its Manhattan distance, the tile on each cell.
    pos: [u8; 16],
    md: u32,
    tile_at: [u8; 64],
    /// One state's successors (only the first `m` are read: no clearing
    /// per state), and their codes.
    succ: [Succ; 64],
    seen: [u64; 64],
    pending: Pending,
}

impl Cursor {
    fn new() -> Cursor {
        Cursor {
            si: usize::MAX,
            mask: 0,
            first: 0,
            end: 0,
            nregions: 1,
            region_of: [0; 64],
            last: (usize::MAX, 0),
            pos: [0; 16],
            md: 0,
            tile_at: [0; 64],
            succ: [(0, 0, 0, 0, 0, 0); 64],
            seen: [0; 64],
            pending: Pending::default(),
        }
    }
}

impl Layer<'_> {
    fn geo(&self) -> &Geometry {
        &self.space.geo
    }

    /// Expands chunk `ci` of the codes: the new states of the next layer
    /// it found and the entries it clamped.
    pub(super) fn chunk(&self, ci: usize, chunk: &[AtomicU64]) -> (u64, u64) {
        let total = self.space.states;
        let mut cur = Cursor::new();
        let (mut ns, mut nc) = (0u64, 0u64);
        for (wi, word) in chunk.iter().enumerate() {
            let w = word.load(Relaxed);
            let base = ((ci * CHUNK + wi) as u64) * 32;
            // pushing, the current layer's states (code 10); pulling,
            // the unseen ones (00) that exist
            let mut todo = if self.pull {
                let mut u = !w & !(w >> 1) & 0x5555_5555_5555_5555;
                if base + 32 > total {
                    u &= (1u64 << ((total - base) * 2)) - 1;
                }
                u
            } else {
                (w >> 1) & !w & 0x5555_5555_5555_5555
            };
            let mut found = 0u64;
            while todo != 0 {
                let b = u64::from(todo.trailing_zeros() / 2);
                todo &= todo - 1;
                let s = base + b;
                let (order, j) = self.locate(&mut cur, s);
                let region = cur.region_of[j];
                let m = self.successors(&mut cur, order, region);
                if self.pull {
                    if let Some(c) = self.pull_state(&mut cur, s, j, m, w | found) {
                        // only this worker marks states of this word now
                        found |= 1 << (b * 2);
                        ns += 1;
                        nc += c;
                    }
                } else {
                    let (n, c) = self.push_state(&mut cur, m);
                    ns += n;
                    nc += c;
                }
            }
            if found != 0 {
                word.fetch_or(found, Relaxed);
            }
        }
        cur.pending.flush(self.out);
        (ns, nc)
    }

    /// Brings `cur` to state `s`: its subset's regions and its placement;
    /// `s`'s order and region index.
    #[inline(always)]
    fn locate(&self, cur: &mut Cursor, s: u64) -> (u64, usize) {
        let space = self.space;
        if cur.si == usize::MAX || s >= cur.end {
            cur.si = space.subset_of_state(s);
            let (r, f) = space.subset(cur.si);
            (cur.mask, cur.first, cur.end, cur.nregions) =
                (space.masks[cur.si], f, f + r * space.orders, r);
            let free = self.geo().full() & !cur.mask;
            let mut rest = free;
            let mut j = 0;
            while rest != 0 {
                let reg = self.geo().flood(rest & rest.wrapping_neg(), free);
                cur.region_of[j] = reg;
                rest &= !reg;
                j += 1;
            }
        }
        let off = s - cur.first;
        let (order, j) = (off / cur.nregions, (off % cur.nregions) as usize);
        // the regions of one placement are side by side
        if (cur.si, order) != cur.last {
            let k = self.k;
            space.order_unrank(order, cur.mask, &mut cur.pos[..k]);
            for (t, &c) in cur.pos[..k].iter().enumerate() {
                cur.tile_at[usize::from(c)] = t as u8;
            }
            cur.md = (0..k)
                .map(|i| u32::from(self.md_of[i << 6 | usize::from(cur.pos[i])]))
                .sum();
            cur.last = (cur.si, order);
        }
        (order, j)
    }

    /// The successors of the state of `cur`'s placement (`order`) with the
    /// blank in `region`, into `cur.succ`; how many. All of them first,
    /// then their codes: the loads are independent, so their cache misses
    /// overlap.
    #[inline(always)]
    fn successors(&self, cur: &mut Cursor, order: u64, region: u64) -> usize {
        let mut m = 0;
        for (i, &c) in cur.pos[..self.k].iter().enumerate() {
            let mut targets = self.geo().nbr[usize::from(c)] & region;
            while targets != 0 {
                let e = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let mask2 = (cur.mask & !(1u64 << c)) | 1u64 << e;
                let order2 = self
                    .space
                    .order_rank_after(order, cur.mask, &cur.tile_at, i, c, e);
                let (first2, n2, s2) = self.space.placement_state(mask2, order2, usize::from(c));
                cur.succ[m & 63] = (s2, first2, n2 as u8, i as u8, c, e);
                m += 1;
            }
        }
        m
    }

    /// Pulling: whether unseen state `s` (region index `j`, `m`
    /// successors) has a parent in the current layer, and then the
    /// entries clamped writing it (0 or 1). `before`: its codes word as it
    /// was before `s` was marked.
    #[inline(always)]
    fn pull_state(&self, cur: &mut Cursor, s: u64, j: usize, m: usize, before: u64) -> Option<u64> {
        let parent = cur.succ[..m.min(64)].iter().any(|&(s2, ..)| {
            self.codes[(s2 / 32) as usize].load(Relaxed) >> (s2 % 32 * 2) & 3 == 2
        });
        if !parent {
            return None;
        }
        let q = if self.regions {
            s
        } else {
            let q = self.ranker.rank(&cur.pos[..self.k]);
            if !self.claim(q, s - j as u64, cur.nregions, s, before) {
                return Some(0);
            }
            q
        };
        Some(self.write(&mut cur.pending, q, cur.md))
    }

    /// Pushing: marks the unseen successors of `cur`'s state (its `m`
    /// successors) as the next layer; the states marked and the entries
    /// clamped.
    #[inline(always)]
    fn push_state(&self, cur: &mut Cursor, m: usize) -> (u64, u64) {
        let (mut ns, mut nc) = (0u64, 0u64);
        for (x, &(s2, ..)) in cur.seen.iter_mut().zip(&cur.succ[..m.min(64)]) {
            *x = self.codes[(s2 / 32) as usize].load(Relaxed) >> (s2 % 32 * 2) & 3;
        }
        for (&(s2, first2, n2, i, c, e), &code) in cur.succ[..m.min(64)].iter().zip(&cur.seen) {
            if code != 0 {
                continue;
            }
            let (i, shift) = (usize::from(i), s2 % 32 * 2);
            // Only 00 → 01 happens during a layer, so the OR cannot
            // disturb another state's code.
            let before = self.codes[(s2 / 32) as usize].fetch_or(1 << shift, Relaxed);
            if (before >> shift) & 3 != 0 {
                continue;
            }
            ns += 1;
            let md2 = cur.md + u32::from(self.md_of[i << 6 | usize::from(e)])
                - u32::from(self.md_of[i << 6 | usize::from(c)]);
            let q = if self.regions {
                s2
            } else {
                cur.pos[i] = e;
                let q = self.ranker.rank(&cur.pos[..self.k]);
                cur.pos[i] = c;
                if !self.claim(q, first2, u64::from(n2), s2, before) {
                    continue;
                }
                q
            };
            nc += self.write(&mut cur.pending, q, md2);
        }
        (ns, nc)
    }

    /// Not zero-aware: whether placement `q`, whose states (one per
    /// region) are `first..first + n`, gets its value from state `s`, that
    /// is whether `s` is the first of them reached. `before` is the codes
    /// word holding `s` as it was just before `s` was marked. A placement's
    /// states are side by side, so they are mostly in one word, and then
    /// `before` tells without touching another cache line (marks of one
    /// word are ordered, so exactly one of them sees its siblings all
    /// unseen); only placements across two words claim a bit in `valued`.
    #[inline(always)]
    fn claim(&self, q: u64, first: u64, n: u64, s: u64, before: u64) -> bool {
        if n == 1 {
            return true;
        }
        if first / 32 == (first + n - 1) / 32 {
            let span = (u64::MAX >> (64 - 2 * n)) << (first % 32 * 2);
            return before & span & !(3 << (s % 32 * 2)) == 0;
        }
        let bit = 1u64 << (q % 64);
        let v = &self.valued[(q / 64) as usize];
        v.load(Relaxed) & bit == 0 && v.fetch_or(bit, Relaxed) & bit == 0
    }

    /// Stores entry `q` at the next layer's distance for Manhattan
    /// distance `md`, through `pending` (an atomic OR is a barrier, and
    /// done at once each one would wait for its own miss, one after
    /// another); 1 when clamped (counted once per entry).
    #[inline(always)]
    fn write(&self, pending: &mut Pending, q: u64, md: u32) -> u64 {
        let d1 = self.d1;
        debug_assert!(d1 >= md && (d1 - md).is_multiple_of(2));
        let half = (d1 - md) / 2;
        let nibble = half.min(u32::from(MAX_NIBBLE)) as u8;
        if nibble != 0 {
            pending.push(self.out, q, nibble);
        }
        u64::from(half > u32::from(MAX_NIBBLE))
    }
}
