//! One group's database in memory, and the lookups the heuristic makes.
//!
//! Values are nibbles, `(d − md) / 2` (see [`super::build`]). A lookup
//! ranks the tiles and gathers their Manhattan distance in one pass, then
//! reads half a byte: at the placement's rank when the database keeps the
//! minimum over regions (the order in which neighbouring positions' values
//! lie close together in memory), or, zero-aware, at the state [`Indexing`]
//! gives the tiles' order, subset and the blank's region. A compact
//! zero-aware database keeps one bit an entry ([`super::compact`]): a
//! lookup then needs the group's value before the move.

use super::compact;
use crate::board::Shape;
use crate::heuristic::pdb::entry::{self, prefetch};
use crate::heuristic::pdb::model::indexing::{self, Indexing};
use crate::heuristic::pdb::store::{self, Contents as Built};
use crate::heuristic::pdb::PdbError;
use std::sync::Arc;

/// One group's database.
pub struct PatternDb {
    /// What the database is for (board, goal, group, zero-awareness); it
    /// also names the cache file.
    pub key: store::Key,
    layout: Arc<Indexing>,
    /// `md[i << 6 | c]`: Manhattan distance of tile `i` (key order) on
    /// cell `c` from its goal cell.
    md: Box<[u8; 1024]>,
    /// Zero-aware: `order_weight` of the layout; else the placement
    /// ranker's weights. Inline for the hot loop.
    weights: [u64; 16],
    max: u8,
    /// Entries stored below their definition, for the tests.
    #[cfg_attr(not(any(test, feature = "internals")), allow(dead_code))]
    clamped: u64,
    entries: u64,
    /// Two entries a byte, the even one in the low half; compact, eight
    /// entries a byte.
    data: Vec<u8>,
    /// One bit an entry ([`super::compact`]).
    compact: bool,
    /// The tiles' goal cells (key order) and the goal's blank cell, for
    /// [`compact::exact`].
    home: Vec<u8>,
    goal_blank: u8,
}

impl PatternDb {
    /// The database for `key` on a board of `shape` whose goal is `goal`,
    /// holding `built` (entries in [`PatternDb::entries_for`]'s count);
    /// `compact`: kept at one bit an entry where it is zero-aware and has
    /// no clamped entry (else as built).
    pub(in crate::heuristic::pdb) fn new(
        shape: Shape,
        goal: &crate::board::Board,
        key: store::Key,
        built: Built,
        compact: bool,
    ) -> Result<PatternDb, PdbError> {
        let compact = compact && key.regions && built.clamped == 0;
        let data = if compact {
            let mut p = entry::Packer::new(built.entries);
            p.push(&built.data);
            p.finish()
        } else {
            built.data
        };
        PatternDb::with_data(
            shape,
            goal,
            key,
            built.max,
            built.entries,
            built.clamped,
            data,
            compact,
        )
    }

    /// A compact database whose bits were packed while its file was read
    /// ([`compact::Packer`]).
    pub(in crate::heuristic::pdb) fn packed(
        shape: Shape,
        goal: &crate::board::Board,
        key: store::Key,
        figures: store::Figures,
        entries: u64,
        bits: Vec<u8>,
    ) -> Result<PatternDb, PdbError> {
        PatternDb::with_data(
            shape,
            goal,
            key,
            figures.max,
            entries,
            figures.clamped,
            bits,
            true,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn with_data(
        shape: Shape,
        goal: &crate::board::Board,
        key: store::Key,
        max: u8,
        entries: u64,
        clamped: u64,
        data: Vec<u8>,
        compact: bool,
    ) -> Result<PatternDb, PdbError> {
        let k = key.tiles.len();
        let layout = Indexing::get(shape, k, key.regions).ok_or(PdbError::BoardTooBig(shape))?;
        let gpos = goal.positions();
        let cells: Vec<u8> = key.tiles.iter().map(|&t| gpos[usize::from(t)]).collect();
        let mut weights = layout.order_weight;
        if !key.regions {
            let ranker = crate::rank::PartialRanker::new(shape.cells(), k)
                .ok_or(PdbError::BoardTooBig(shape))?;
            weights = [0; 16];
            for (w, &x) in weights.iter_mut().zip(ranker.weights()) {
                *w = x;
            }
        }
        Ok(PatternDb {
            md: entry::manhattan_table(shape, &cells),
            weights,
            layout,
            key,
            max,
            entries,
            clamped,
            data,
            compact,
            home: cells,
            goal_blank: goal.blank() as u8,
        })
    }

    /// Entries (values) of a `k`-tile group's database on `shape`: one per
    /// placement, or per (placement, region of the free cells) when
    /// zero-aware. `None` when out of range or the count overflows.
    pub fn entries_for(shape: Shape, k: usize, regions: bool) -> Option<u64> {
        indexing::state_count(shape, k, regions)
    }

    /// Bytes the database holds in memory (half a byte an entry, or an
    /// eighth when compact).
    pub fn bytes(&self) -> u64 {
        self.data.len() as u64
    }

    /// Whether the database keeps one bit an entry (the `compact` lookup).
    pub fn compact(&self) -> bool {
        self.compact
    }

    #[inline(always)]
    fn value_at(&self, state: u64, md: u32) -> u8 {
        let byte = self.data[(state >> 1) as usize];
        let nibble = (byte >> ((state & 1) << 2)) & 15;
        (md + 2 * u32::from(nibble)) as u8
    }

    /// The value at `state`, whose tiles' Manhattan distance is `md`, one
    /// move of the group's tiles after a position of value `prev`.
    #[inline(always)]
    fn value_after(&self, state: u64, md: u32, prev: u8) -> u8 {
        if self.compact {
            entry::step(prev, md, entry::bit(&self.data, state))
        } else {
            self.value_at(state, md)
        }
    }

    /// Value for the group's tiles standing on `cells` (in key order) with
    /// the blank on `blank`.
    pub fn get(&self, cells: &[u8], blank: usize) -> u8 {
        if self.compact {
            return compact::exact(
                &compact::Walk {
                    layout: &self.layout,
                    data: &self.data,
                    md: &self.md,
                    home: &self.home,
                    goal_blank: usize::from(self.goal_blank),
                    max: self.max,
                },
                cells,
                blank,
            );
        }
        let (state, md) = self.state_and_md(cells, |c| c, blank);
        self.value_at(state, md)
    }

    /// The value for the group whose `i`-th tile stands on
    /// `cell(tiles[i])`, with the blank on `blank`, where nothing is known
    /// of the position before (a compact database walks to the goal).
    #[inline]
    pub(in crate::heuristic::pdb) fn lookup(
        &self,
        tiles: &[u8],
        cell: impl Fn(u8) -> u8,
        blank: usize,
    ) -> u8 {
        if self.compact {
            let mut cells = [0u8; 16];
            for (c, &t) in cells.iter_mut().zip(tiles) {
                *c = cell(t);
            }
            return self.get(&cells[..tiles.len()], blank);
        }
        let (state, md) = self.state_and_md(tiles, cell, blank);
        self.value_at(state, md)
    }

    /// [`PatternDb::lookup`] one move of the group's tiles after a position
    /// of value `prev` (the search's hot path).
    #[inline(always)]
    pub(in crate::heuristic::pdb) fn lookup_after(
        &self,
        tiles: &[u8],
        cell: impl Fn(u8) -> u8,
        blank: usize,
        prev: u8,
    ) -> u8 {
        let (state, md) = self.state_and_md(tiles, cell, blank);
        self.value_after(state, md, prev)
    }

    /// The entry of the group whose `i`-th tile stands on
    /// `cell(tiles[i])`, with the blank on `blank`, and the tiles'
    /// Manhattan distance.
    #[inline(always)]
    fn state_and_md(&self, tiles: &[u8], cell: impl Fn(u8) -> u8, blank: usize) -> (u64, u32) {
        if !self.key.regions {
            let mut used = 0u64;
            let mut rank = 0u64;
            let mut md = 0u32;
            for (i, &t) in tiles.iter().enumerate() {
                let c = cell(t);
                let below = (used & ((1u64 << c) - 1)).count_ones() as u64;
                rank += (u64::from(c) - below) * self.weights[i & 15];
                md += u32::from(self.md[(i << 6 | usize::from(c)) & 1023]);
                used |= 1u64 << c;
            }
            return (rank, md);
        }
        // The common group sizes get a loop of fixed length: a slice of a
        // fixed-size array, inlined, is unrolled without bounds checks
        // (with the patched cells of `PdbHeuristic::touch`, 27% fewer
        // instructions searching Korf's first 30 with 7-8, counted by
        // callgrind).
        let (used, rank, md) = if let Ok(t) = <&[u8; 8]>::try_from(tiles) {
            self.order_rank(t.as_slice(), cell)
        } else if let Ok(t) = <&[u8; 7]>::try_from(tiles) {
            self.order_rank(t.as_slice(), cell)
        } else if let Ok(t) = <&[u8; 6]>::try_from(tiles) {
            self.order_rank(t.as_slice(), cell)
        } else {
            self.order_rank(tiles, cell)
        };
        (self.layout.state_of(used, rank, blank), md)
    }

    /// The zero-aware layout's ranking pass for the tiles on
    /// `cell(tiles[i])`: the occupied cells, the order's rank (scanning
    /// the tiles last to first, digit `i` counts the later tiles on lower
    /// cells), and the Manhattan distance.
    #[inline(always)]
    fn order_rank(&self, tiles: &[u8], cell: impl Fn(u8) -> u8) -> (u64, u64, u32) {
        let (mut used, mut rank, mut md) = (0u64, 0u64, 0u32);
        for (i, &t) in tiles.iter().enumerate().rev() {
            let c = cell(t);
            let below = (used & ((1u64 << c) - 1)).count_ones() as u64;
            rank += below * self.weights[i & 15];
            md += u32::from(self.md[(i << 6 | usize::from(c)) & 1023]);
            used |= 1u64 << c;
        }
        (used, rank, md)
    }

    /// Whether finding an entry's index is cheap (a placement's rank, or
    /// a zero-aware layout indexed by table), so that computing it twice,
    /// once for `PatternDb::touch`, pays.
    pub fn cheap_index(&self) -> bool {
        !self.key.regions || self.layout.indexes_by_table()
    }

    /// Asks the cache for the byte [`PatternDb::lookup`] of the same
    /// arguments will read, so that the lookups of several children wait
    /// for memory together rather than one after another; returns the
    /// entry and the tiles' Manhattan distance, for [`PatternDb::read`].
    #[inline(always)]
    pub(in crate::heuristic::pdb) fn touch(
        &self,
        tiles: &[u8],
        cell: impl Fn(u8) -> u8,
        blank: usize,
    ) -> (u64, u32) {
        let (state, md) = self.state_and_md(tiles, cell, blank);
        let shift = if self.compact { 3 } else { 1 };
        if let Some(byte) = self.data.get((state >> shift) as usize) {
            prefetch(byte);
        }
        (state, md)
    }

    /// The value [`PatternDb::lookup_after`] gives, from what
    /// [`PatternDb::touch`] returned.
    #[inline(always)]
    pub(in crate::heuristic::pdb) fn read(&self, (state, md): (u64, u32), prev: u8) -> u8 {
        self.value_after(state, md, prev)
    }

    /// Whether the database keeps one value per region of the blank.
    pub fn zero_aware(&self) -> bool {
        self.key.regions
    }

    /// Entries held: one per placement, or one per (placement, region)
    /// when zero-aware.
    pub fn entries(&self) -> usize {
        self.entries as usize
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
    #[cfg(any(test, feature = "internals"))]
    pub fn clamped(&self) -> u64 {
        self.clamped
    }
}
