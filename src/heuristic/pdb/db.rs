//! One group's database in memory, and the lookups the heuristic makes.
//!
//! Values are nibbles, `(d − md) / 2` (see [`super::build`]), in the
//! order of [`Layout`]: a lookup ranks the tiles' order and gathers their
//! cells' mask and Manhattan distance in one pass, finds the block of the
//! subset (and of the blank's region), and reads half a byte.

use super::build;
use super::layout::Layout;
use super::store::Contents as Built;
use super::{store, PdbError};
use crate::board::Shape;
use std::sync::Arc;

/// One group's database.
pub struct PatternDb {
    /// What the database is for (board, goal, group, zero-awareness); it
    /// also names the cache file.
    pub key: store::Key,
    layout: Arc<Layout>,
    /// `md[i << 6 | c]`: Manhattan distance of tile `i` (key order) on
    /// cell `c` from its goal cell.
    md: Box<[u8; 1024]>,
    /// `order_weight` of the layout, inline for the hot loop.
    weights: [u64; 16],
    max: u8,
    clamped: u64,
    /// Two entries a byte, the even one in the low half.
    data: Vec<u8>,
}

impl PatternDb {
    /// The database for `key` on a board of `shape` whose goal is `goal`,
    /// holding `built` (entries in [`PatternDb::entries_for`]'s count).
    pub(super) fn new(
        shape: Shape,
        goal: &crate::board::Board,
        key: store::Key,
        built: Built,
    ) -> Result<PatternDb, PdbError> {
        let k = key.tiles.len();
        let layout = Layout::get(shape, k, key.regions).ok_or(PdbError::BoardTooBig(shape))?;
        debug_assert_eq!(built.entries, layout.states);
        let gpos = goal.positions();
        let cells: Vec<u8> = key.tiles.iter().map(|&t| gpos[usize::from(t)]).collect();
        Ok(PatternDb {
            md: build::manhattan_table(shape, &cells),
            weights: layout.order_weight,
            layout,
            key,
            max: built.max,
            clamped: built.clamped,
            data: built.data,
        })
    }

    /// Entries (values) of a `k`-tile group's database on `shape`: one per
    /// placement, or per (placement, region of the free cells) when
    /// zero-aware. `None` when out of range or the count overflows.
    pub fn entries_for(shape: Shape, k: usize, regions: bool) -> Option<u64> {
        super::layout::state_count(shape, k, regions)
    }

    /// Bytes the database holds in memory (half a byte an entry).
    pub fn bytes(&self) -> u64 {
        self.data.len() as u64
    }

    #[inline(always)]
    fn value_at(&self, state: u64, md: u32) -> u8 {
        let byte = self.data[(state >> 1) as usize];
        let nibble = (byte >> ((state & 1) << 2)) & 15;
        (md + 2 * u32::from(nibble)) as u8
    }

    /// Value for the group's tiles standing on `cells` (in key order) with
    /// the blank on `blank`.
    #[inline]
    pub fn get(&self, cells: &[u8], blank: usize) -> u8 {
        self.lookup_cells(cells.len(), |i| cells[i], blank)
    }

    /// The value for the group whose `i`-th tile stands on
    /// `cell(tiles[i])`, with the blank on `blank` (the search's hot path).
    #[inline(always)]
    pub(super) fn lookup(&self, tiles: &[u8], cell: impl Fn(u8) -> u8, blank: usize) -> u8 {
        self.lookup_cells(tiles.len(), |i| cell(tiles[i]), blank)
    }

    /// One pass over the tiles, last to first: the order's rank, the
    /// occupied mask and the Manhattan distance together.
    #[inline(always)]
    fn lookup_cells(&self, k: usize, cell: impl Fn(usize) -> u8, blank: usize) -> u8 {
        let mut used = 0u64;
        let mut order = 0u64;
        let mut md = 0u32;
        for i in (0..k).rev() {
            let c = cell(i);
            let below = (used & ((1u64 << c) - 1)).count_ones() as u64;
            order += below * self.weights[i & 15];
            md += u32::from(self.md[(i << 6 | usize::from(c)) & 1023]);
            used |= 1u64 << c;
        }
        self.value_at(self.layout.state_of(used, order, blank), md)
    }

    /// Whether the database keeps one value per region of the blank.
    pub fn zero_aware(&self) -> bool {
        self.key.regions
    }

    /// Entries held: one per placement, or one per (placement, region)
    /// when zero-aware.
    pub fn entries(&self) -> usize {
        self.layout.states as usize
    }

    /// The group's tiles, sorted (the key order of [`PatternDb::get`]).
    pub fn tiles(&self) -> &[u8] {
        &self.key.tiles
    }

    /// The largest value in the database's definition (a clamped entry
    /// may hold less).
    pub fn max_value(&self) -> u8 {
        self.max
    }

    /// Entries stored below their definition because `(d − md) / 2`
    /// exceeded 15 (each still a lower bound).
    pub fn clamped(&self) -> u64 {
        self.clamped
    }
}
