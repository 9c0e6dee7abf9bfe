//! One group's database in memory, and the lookups the heuristic makes.

use super::{build, store, PdbError, MAX_GROUP_TILES};
use crate::board::Shape;
use crate::rank::PartialRanker;
use std::sync::Arc;

/// One group's database.
pub struct PatternDb {
    /// What the database is for (board, goal, group, zero-awareness); it
    /// also names the cache file.
    pub key: store::Key,
    ranker: PartialRanker,
    geo: build::Geometry,
    /// Free cells (the blank's included): `n − k`.
    free_cells: usize,
    /// Region ordinals by (free cells, blank) on boards of ≤ 16 cells.
    regions_of: Option<Arc<[u8]>>,
    /// The ranker's digit weights, inline for the hot loop.
    weights: [u32; MAX_GROUP_TILES],
    data: Vec<u8>,
}

impl PatternDb {
    /// The database for `key` on a board of `shape`, holding `data` (one
    /// value per entry, see [`PatternDb::entries_for`]).
    pub(super) fn new(shape: Shape, key: store::Key, data: Vec<u8>) -> Result<PatternDb, PdbError> {
        let n = shape.cells();
        let k = key.tiles.len();
        let ranker = PartialRanker::new(n, k).ok_or(PdbError::BoardTooBig(shape))?;
        let geo = build::Geometry::new(shape);
        let mut weights = [0u32; MAX_GROUP_TILES];
        for (w, &x) in weights.iter_mut().zip(ranker.weights()) {
            // entries fit in memory, so every weight fits a u32
            *w = u32::try_from(x).unwrap_or(u32::MAX);
        }
        Ok(PatternDb {
            weights,
            regions_of: if key.regions {
                geo.region_table()
            } else {
                None
            },
            key,
            ranker,
            geo,
            free_cells: n - k,
            data,
        })
    }

    /// Entries (bytes) of a `k`-tile group's database on `n` cells: one per
    /// placement, or per (placement, free-cell ordinal) when zero-aware.
    /// `None` when the count overflows.
    pub fn entries_for(n: usize, k: usize, regions: bool) -> Option<u64> {
        let placements = crate::rank::partial_count(n, k)?;
        placements.checked_mul(if regions { (n - k) as u64 } else { 1 })
    }

    /// Bytes the database holds in memory.
    pub fn bytes(&self) -> u64 {
        self.data.len() as u64
    }

    /// Value for the group's tiles standing on `cells` (in key order) with
    /// the blank on `blank`.
    #[inline]
    pub fn get(&self, cells: &[u8], blank: usize) -> u8 {
        let rank = self.ranker.rank(cells) as usize;
        if !self.key.regions {
            return self.data[rank];
        }
        let occ = cells.iter().fold(0u64, |m, &c| m | 1 << c);
        let free = self.geo.full() & !occ;
        let ordinal = match &self.regions_of {
            Some(t) => usize::from(t[(free as usize) << 4 | blank]),
            None => build::ordinal(free, self.geo.flood(1 << blank, free)),
        };
        self.data[rank * self.free_cells + ordinal]
    }

    /// The value for the group whose `i`-th tile stands on
    /// `cell(tiles[i])`, with the blank on `blank`: ranking and the group's
    /// occupancy mask in one pass (the search's hot path).
    #[inline(always)]
    pub(super) fn lookup(&self, tiles: &[u8], cell: impl Fn(u8) -> u8, blank: usize) -> u8 {
        let mut used = 0u64;
        let mut rank = 0usize;
        for (&t, &w) in tiles.iter().zip(&self.weights) {
            let c = cell(t);
            let below = (used & ((1u64 << c) - 1)).count_ones() as usize;
            rank += (usize::from(c) - below) * w as usize;
            used |= 1u64 << c;
        }
        if !self.key.regions {
            return self.data[rank];
        }
        let free = self.geo.full() & !used;
        let ordinal = match &self.regions_of {
            Some(t) => usize::from(t[(free as usize) << 4 | blank]),
            None => build::ordinal(free, self.geo.flood(1 << blank, free)),
        };
        self.data[rank * self.free_cells + ordinal]
    }

    /// Whether the database keeps one value per region of the blank.
    pub fn zero_aware(&self) -> bool {
        self.key.regions
    }

    /// Bytes held: one per placement, or one per (placement, free cell)
    /// when zero-aware.
    pub fn entries(&self) -> usize {
        self.data.len()
    }

    /// The group's tiles, sorted (the key order of [`PatternDb::get`]).
    pub fn tiles(&self) -> &[u8] {
        &self.key.tiles
    }

    /// The largest value stored.
    pub fn max_value(&self) -> u8 {
        self.data
            .iter()
            .copied()
            .filter(|&v| v != build::UNREACHED)
            .max()
            .unwrap_or(0)
    }
}
