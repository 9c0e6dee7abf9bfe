//! The pattern-database heuristic: a partition's databases summed, maxed
//! with the same sum over the reflected position, and on request the dual
//! lookups ([`TableHooks::second`], in [`super::dual`]).

use super::lookup::dual::Dual;
use super::{
    load_or_build, PatternDb, PdbError, PdbLayout, PdbOptions, PdbReporter, MAX_CELLS, MAX_GROUPS,
};
use crate::board::Board;
use crate::budget::{Budget, Clock};
use crate::heuristic::{Heuristic, TableHooks};
use std::sync::Arc;

/// The heuristic: a partition's databases summed, maxed with the same sum
/// over the reflected position where the goal allows it.
pub struct PdbHeuristic<const C: usize = MAX_CELLS, const G: usize = MAX_GROUPS> {
    label: String,
    dbs: Vec<Arc<PatternDb>>,
    /// `group_of[t]`: the group holding tile `t` (`u8::MAX` for the blank).
    group_of: Vec<u8>,
    /// `members[g]`: the tiles of group `g`, in database key order.
    members: Vec<Vec<u8>>,
    mirror: Option<Mirror>,
    dual: Option<Dual>,
    /// `md[t][c]`: tile `t`'s Manhattan distance from cell `c` (the
    /// groups' distances in the state, and the dual lookups; indexed with
    /// [`cell_index`]).
    md: Box<[[u8; MAX_CELLS]; MAX_CELLS]>,
}

struct Mirror {
    /// `cell[c]`: the transpose of cell `c` (a fixed array: indexed with
    /// [`cell_index`], no bounds check in the hot loop).
    cell: [u8; MAX_CELLS],
    /// `source[g]`: for each tile `u` of group `g`, the tile `mt(u)` whose
    /// transposed cell is where `u` stands in the reflected position.
    source: Vec<Vec<u8>>,
    /// `group_of_moved[t]`: the group whose reflected lookup changes when
    /// tile `t` moves (the group of `mt(t)`).
    group_of_moved: Vec<u8>,
    /// `tile[t]`: `mt(t)`, the goal tile on the transpose of `t`'s goal
    /// cell.
    tile: Vec<u8>,
}

/// Where a child's lookups read ([`TableHooks::touch`]), the plain one
/// and the reflected one, each packed in a word (`spot`). IDA* keeps
/// these for a node's children and grandchildren on its stack, so their
/// size counts: in 24 bytes, Korf's 100 with 7-8 took 1.04 times as long
/// (medians of 7 in one run).
#[derive(Clone, Copy, Debug, Default)]
pub struct PdbTouched {
    at: u64,
    mat: u64,
}

/// Bits of an entry's index in a [`PdbTouched`] word. Every database has
/// fewer entries: it is held in memory, at one bit an entry at least.
const SPOT_BITS: u32 = 48;

/// A lookup packed: the database entry, then the group's Manhattan
/// distance, then the group.
#[inline(always)]
fn spot(group: usize, entry: u64, md: u32) -> u64 {
    debug_assert!(entry < 1 << SPOT_BITS && md < 256 && group < 256);
    (group as u64) << 56 | u64::from(md) << SPOT_BITS | entry
}

/// [`spot`] undone: the group, and the entry and Manhattan distance.
#[inline(always)]
fn unspot(w: u64) -> (usize, (u64, u32)) {
    let entry = w & ((1 << SPOT_BITS) - 1);
    ((w >> 56) as usize, (entry, (w >> SPOT_BITS) as u32 & 0xff))
}

/// Per-node state: the tiles' cells and each group's two values.
#[derive(Clone, Copy, Debug)]
pub struct PdbState<const C: usize = MAX_CELLS, const G: usize = MAX_GROUPS> {
    pos: [u8; C],
    h: [u8; G],
    hm: [u8; G],
    sum: u16,
    msum: u16,
    /// Each group's Manhattan distance, and the same in the reflected
    /// position: the databases' steps need them, and carried along they
    /// cost one table lookup a move instead of one a tile.
    gmd: [u8; G],
    mmd: [u8; G],
}

impl<const C: usize, const G: usize> PdbState<C, G> {
    /// Group `g`'s value is now `v`.
    #[inline(always)]
    fn set(&mut self, g: usize, v: u8) {
        self.sum = self.sum - u16::from(self.h[g]) + u16::from(v);
        self.h[g] = v;
    }

    /// Group `g`'s value in the reflected position is now `v`.
    #[inline(always)]
    fn set_mirrored(&mut self, g: usize, v: u8) {
        self.msum = self.msum - u16::from(self.hm[g]) + u16::from(v);
        self.hm[g] = v;
    }

    /// Whether the plain sum alone exceeds `limit`; if so the reflected
    /// value is left out (the node is pruned whatever it says) and set to
    /// zero, so that the value says so.
    #[inline(always)]
    fn pruned(&mut self, limit: u32) -> bool {
        let over = u32::from(self.sum) > limit;
        if over {
            self.msum = 0;
        }
        over
    }
}

impl PdbHeuristic {
    /// Loads or builds the partition's databases for `goal`, in the form
    /// that holds any board and partition ([`PdbHeuristic::load`]).
    pub fn new(
        goal: &Board,
        opts: &PdbOptions,
        reporter: &dyn PdbReporter,
        budget: &Budget,
    ) -> Result<PdbHeuristic, PdbError> {
        Self::load(goal, opts, reporter, budget)
    }
}

impl<const C: usize, const G: usize> PdbHeuristic<C, G> {
    /// Whether this form holds `goal`'s board and every partition `opts`
    /// asks for (at most `C` cells, `G` groups); `Err` where the layout
    /// cannot be had at all.
    pub fn fits(goal: &Board, opts: &PdbOptions) -> Result<bool, PdbError> {
        let layout = PdbLayout::resolve(goal, opts)?;
        let mut next = Some(&layout);
        while let Some(l) = next {
            if l.groups.len() > G {
                return Ok(false);
            }
            next = l.also.as_deref();
        }
        Ok(goal.len() <= C)
    }

    /// Loads or builds the partition's databases for `goal`.
    ///
    /// Builds obey `budget`'s deadline, cancel flag and bytes; nothing
    /// half-built is kept.
    pub fn load(
        goal: &Board,
        opts: &PdbOptions,
        reporter: &dyn PdbReporter,
        budget: &Budget,
    ) -> Result<PdbHeuristic<C, G>, PdbError> {
        let layout = PdbLayout::resolve(goal, opts)?;
        let shape = goal.shape();
        let n = shape.cells();
        // the narrower forms are chosen only where they fit (`fits`)
        if n > C {
            return Err(PdbError::BoardTooBig(shape));
        }
        if layout.groups.len() > G {
            return Err(PdbError::TooManyGroups(layout.groups.len()));
        }
        let clock = Clock::new(budget);
        let dbs = layout
            .groups
            .iter()
            .zip(&layout.zero_aware)
            .map(|(g, &za)| load_or_build(goal, g, za, opts, reporter, &clock))
            .collect::<Result<Vec<_>, _>>()?;
        let groups = layout.groups.clone();
        let mut group_of = vec![u8::MAX; n];
        for (g, tiles) in groups.iter().enumerate() {
            for &t in tiles {
                group_of[usize::from(t)] = g as u8;
            }
        }
        let mirror = layout.reflect.then(|| {
            let cell = transposed_cells(goal);
            let mt = mirror_tiles(goal);
            Mirror {
                source: groups
                    .iter()
                    .map(|g| g.iter().map(|&u| mt[usize::from(u)]).collect())
                    .collect(),
                group_of_moved: (0..n).map(|t| group_of[usize::from(mt[t])]).collect(),
                cell,
                tile: mt,
            }
        });
        let label = layout.label();
        if opts.dual && dbs.iter().any(|db| db.compact()) {
            return Err(PdbError::DualCompact);
        }
        let dual = opts.dual.then(|| Dual::new(goal, &groups, &dbs));
        let md = manhattan_table(goal);
        Ok(PdbHeuristic {
            label,
            dbs,
            group_of,
            members: groups,
            mirror,
            dual,
            md,
        })
    }

    /// What tile `t`'s Manhattan distance gains moving from `from` to
    /// `to` (one or minus one), as a wrapping `u8`.
    #[inline(always)]
    fn md_step(&self, t: usize, from: usize, to: usize) -> u8 {
        let row = &self.md[cell_index(t)];
        row[cell_index(to)].wrapping_sub(row[cell_index(from)])
    }

    /// Steps the moved tile's groups' Manhattan distances (plain and
    /// reflected) after tile `t` moved from `from` to `to`.
    #[inline(always)]
    fn step_md(&self, s: &mut PdbState<C, G>, t: usize, from: usize, to: usize) {
        let d = self.md_step(t, from, to);
        let g = usize::from(self.group_of[t]);
        s.gmd[g] = s.gmd[g].wrapping_add(d);
        if let Some(m) = &self.mirror {
            let g = usize::from(m.group_of_moved[t]);
            s.mmd[g] = s.mmd[g].wrapping_add(d);
        }
    }

    /// The layout's label ([`PdbLayout::label`]), for reports.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The databases, one per group, in the partition's order.
    pub fn databases(&self) -> &[Arc<PatternDb>] {
        &self.dbs
    }

    /// Whether the reflected lookup is used ([`reflection_applies`] to the
    /// goal, and it was not turned off).
    #[cfg(any(test, feature = "internals"))]
    pub fn reflects(&self) -> bool {
        self.mirror.is_some()
    }

    /// Group `g`'s value; `pos[0]` is the blank's cell. `prev`: its value
    /// one move of its tiles before (which a compact database needs), or
    /// `None` where the position has no parent.
    // Always inlined: the search's hottest call; left to the compiler, the
    // split into files made it an out-of-line call (4% more instructions
    // on Korf's 100 with 7-8, measured with callgrind).
    #[inline(always)]
    fn group_value(&self, g: usize, pos: &[u8; C], prev: Option<u8>) -> u8 {
        let cell = |t: u8| pos[usize::from(t)];
        let blank = usize::from(pos[0]);
        match prev {
            Some(p) => self.dbs[g].lookup_after(&self.members[g], cell, blank, p),
            None => self.dbs[g].lookup(&self.members[g], cell, blank),
        }
    }

    /// Group `g`'s value in the reflected position (the blank, tile 0, is
    /// its own mirror tile); `prev` as for [`PdbHeuristic::group_value`].
    #[inline(always)]
    fn mirror_value(&self, m: &Mirror, g: usize, pos: &[u8; C], prev: Option<u8>) -> u8 {
        let blank = usize::from(m.cell[usize::from(pos[0])]);
        let cell = |t: u8| m.cell[usize::from(pos[usize::from(t)])];
        match prev {
            Some(p) => self.dbs[g].lookup_after(&m.source[g], cell, blank, p),
            None => self.dbs[g].lookup(&m.source[g], cell, blank),
        }
    }
}

/// `cell[c]`: the transpose of cell `c` on `goal`'s (square) board.
pub(super) fn transposed_cells(goal: &Board) -> [u8; MAX_CELLS] {
    let cols = goal.cols();
    let mut cell = [0u8; MAX_CELLS];
    for (c, x) in cell.iter_mut().enumerate().take(goal.len()) {
        *x = ((c % cols) * cols + c / cols) as u8;
    }
    cell
}

/// `mt[t]`: the goal tile on the transpose of tile `t`'s goal cell (an
/// involution; the blank is its own).
pub(super) fn mirror_tiles(goal: &Board) -> Vec<u8> {
    let cell = transposed_cells(goal);
    let gpos = goal.positions();
    (0..goal.len())
        .map(|t| goal.tiles()[usize::from(cell[usize::from(gpos[t])])])
        .collect()
}

/// `md[t][c]`: tile `t`'s Manhattan distance from cell `c` to its goal
/// cell (zero for the blank).
pub(super) fn manhattan_table(goal: &Board) -> Box<[[u8; MAX_CELLS]; MAX_CELLS]> {
    let shape = goal.shape();
    let mut md = Box::new([[0u8; MAX_CELLS]; MAX_CELLS]);
    for (t, &gc) in goal.positions().iter().enumerate().skip(1) {
        for (c, d) in md[t].iter_mut().enumerate().take(goal.len()) {
            *d = shape.distance(usize::from(gc), c) as u8;
        }
    }
    md
}

/// `c` as an index into an array of [`MAX_CELLS`], which it is below:
/// masked, the compiler leaves out the bounds check.
#[inline(always)]
fn cell_index(c: usize) -> usize {
    slot::<MAX_CELLS>(c)
}

/// `c` as an index into an array of `C` (a power of two) that it is
/// below, masked so that the compiler leaves out the bounds check.
#[inline(always)]
fn slot<const C: usize>(c: usize) -> usize {
    const { assert!(C.is_power_of_two()) };
    c & (C - 1)
}

/// Whether the reflection lookup is valid for this goal: a square board
/// with the goal's blank on the main diagonal.
pub fn reflection_applies(goal: &Board) -> bool {
    let (r, c) = (goal.rows(), goal.cols());
    r == c && goal.blank() / c == goal.blank() % c
}

impl<const C: usize, const G: usize> Heuristic for PdbHeuristic<C, G> {
    type State = PdbState<C, G>;

    /// The state carries every tile's cell; the board is never read.
    const READS_TILES: bool = false;

    fn name(&self) -> &'static str {
        "pdb"
    }

    fn init(&self, tiles: &[u8]) -> PdbState<C, G> {
        let mut st = PdbState {
            pos: [0; C],
            h: [0; G],
            hm: [0; G],
            sum: 0,
            msum: 0,
            gmd: [0; G],
            mmd: [0; G],
        };
        for (cell, &t) in tiles.iter().enumerate() {
            st.pos[usize::from(t)] = cell as u8;
            if t != 0 {
                let d = self.md[cell_index(usize::from(t))][cell_index(cell)];
                let g = usize::from(self.group_of[usize::from(t)]);
                st.gmd[g] += d;
                if let Some(m) = &self.mirror {
                    st.mmd[usize::from(m.group_of_moved[usize::from(t)])] += d;
                }
            }
        }
        for g in 0..self.dbs.len() {
            st.h[g] = self.group_value(g, &st.pos, None);
            st.sum += u16::from(st.h[g]);
            if let Some(m) = &self.mirror {
                st.hm[g] = self.mirror_value(m, g, &st.pos, None);
                st.msum += u16::from(st.hm[g]);
            }
        }
        st
    }

    #[inline]
    fn value(&self, st: &PdbState<C, G>) -> u32 {
        u32::from(st.sum.max(st.msum))
    }

    #[inline]
    fn update(
        &self,
        st: &PdbState<C, G>,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
    ) -> PdbState<C, G> {
        self.update_bounded(st, tiles, tile, from, to, u32::MAX)
    }
}

impl<const C: usize, const G: usize> TableHooks for PdbHeuristic<C, G> {
    type Touched = PdbTouched;

    /// The partition, whether the reflection is looked up, and each
    /// database's file name (board, goal, tiles, zero-awareness: what
    /// decides its entries).
    fn identity(&self) -> String {
        let files: Vec<String> = self.dbs.iter().map(|d| d.key.file_name()).collect();
        format!(
            "pdb {}{} [{}]",
            self.label,
            if self.mirror.is_some() { " reflected" } else { "" },
            files.join(", ")
        )
    }

    fn parts(&self, s: &PdbState<C, G>) -> Option<(Vec<u32>, Option<Vec<u32>>)> {
        let groups = self.dbs.len();
        let plain = s.h[..groups].iter().map(|&v| u32::from(v)).collect();
        let mirrored = self
            .mirror
            .as_ref()
            .map(|_| s.hm[..groups].iter().map(|&v| u32::from(v)).collect());
        Some((plain, mirrored))
    }

    /// Looks the reflected position up only when the plain sum does not
    /// already exceed `limit` (then the node is pruned whatever the
    /// reflection says).
    #[inline]
    fn update_bounded(
        &self,
        st: &PdbState<C, G>,
        _tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        limit: u32,
    ) -> PdbState<C, G> {
        let mut s = *st;
        let t = usize::from(tile);
        s.pos[t] = to as u8;
        self.step_md(&mut s, t, from, to);
        // The blank went from `to` to `from`. For every other group both
        // cells are free of its tiles and adjacent, so the blank's region
        // (and a zero-aware value) is unchanged: only the moved tile's
        // group is looked up again.
        s.pos[0] = from as u8;
        let g = usize::from(self.group_of[t]);
        s.set(g, self.group_value(g, &s.pos, Some(st.h[g])));
        if let Some(m) = &self.mirror {
            if s.pruned(limit) {
                return s;
            }
            let g = usize::from(m.group_of_moved[t]);
            s.set_mirrored(g, self.mirror_value(m, g, &s.pos, Some(st.hm[g])));
        }
        s
    }

    /// Where every database finds its indices cheaply. Elsewhere (5×5
    /// zero-aware) touching costs more than the overlapped misses save,
    /// even with each index computed once and the reflected lookup left
    /// until it is read: the 24-puzzle's #25 with 6-6-6-6, `diagonal` and
    /// `stairs` took 1.10 times as long, as every partition's indices are
    /// then computed for every child, where a max stops at the first
    /// partition that prunes.
    fn touches(&self) -> bool {
        self.dbs.iter().all(|db| db.cheap_index())
    }

    /// Databases of more than 64 MiB in all. Touching ahead pays on
    /// Korf's 100 with 7-8 (196 MB: 0.91 of the time) and costs with 6-6-3
    /// (2.9 MB, which the caches mostly hold: 1.04).
    fn far(&self) -> bool {
        self.dbs.iter().map(|db| db.bytes()).sum::<u64>() > 64 << 20
    }

    /// The moved tile's group, and the group of the reflected lookup, at
    /// the child (see [`PdbHeuristic::update_bounded`]).
    #[inline]
    fn touch(&self, st: &PdbState<C, G>, tile: u8, from: usize, to: usize) -> PdbTouched {
        let t = usize::from(tile);
        // the child's cells: a copy patched once costs less than asking
        // for every tile whether it is the one that moved
        let mut pos = st.pos;
        pos[slot::<C>(t)] = to as u8;
        let at = |u: u8| pos[slot::<C>(usize::from(u))];
        // The groups' Manhattan distances come from the state, one step
        // on; the ranking pass's own sum is then dead code in release
        // builds (and checked against in debug ones).
        let d = self.md_step(t, from, to);
        let g = usize::from(self.group_of[t]);
        let (state, md) = self.dbs[g].touch(&self.members[g], at, from);
        let carried = u32::from(st.gmd[g].wrapping_add(d));
        debug_assert_eq!(md, carried);
        let mut touched = PdbTouched {
            at: spot(g, state, carried),
            mat: 0,
        };
        if let Some(m) = &self.mirror {
            let g = usize::from(m.group_of_moved[t]);
            let (state, md) = self.dbs[g].touch(
                &m.source[g],
                |u| m.cell[cell_index(usize::from(at(u)))],
                usize::from(m.cell[cell_index(from)]),
            );
            let carried = u32::from(st.mmd[g].wrapping_add(d));
            debug_assert_eq!(md, carried);
            touched.mat = spot(g, state, carried);
        }
        touched
    }

    /// [`PdbHeuristic::update_bounded`] reading where `touch` found.
    #[inline]
    fn update_touched(
        &self,
        st: &PdbState<C, G>,
        touched: &PdbTouched,
        _tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        limit: u32,
    ) -> PdbState<C, G> {
        let mut s = *st;
        s.pos[usize::from(tile)] = to as u8;
        s.pos[0] = from as u8;
        let (g, at) = unspot(touched.at);
        // the groups' Manhattan distances `touch` stepped
        s.gmd[g] = at.1 as u8;
        s.set(g, self.dbs[g].read(at, st.h[g]));
        if self.mirror.is_some() {
            let (g, at) = unspot(touched.mat);
            s.mmd[g] = at.1 as u8;
            if s.pruned(limit) {
                return s;
            }
            s.set_mirrored(g, self.dbs[g].read(at, st.hm[g]));
        }
        s
    }

    fn has_second(&self) -> bool {
        self.dual.is_some()
    }

    /// Of two children of the same estimate, the one whose tiles are
    /// nearer home (Manhattan), then the one whose smaller lookup (plain or
    /// reflected) is smaller: the further a position's tiles are from home,
    /// the more the databases' estimate tends to fall short, so a child on
    /// an optimal path is likelier among the others. Measured on Korf's
    /// 100 (nodes expanded against move order): 6-6-3 −14%, 7-8 −8%; on 300
    /// other random 15-puzzles −3% and −10%.
    #[inline]
    fn tie(&self, st: &PdbState<C, G>) -> u32 {
        let md: u32 = st.gmd[..self.dbs.len()].iter().map(|&d| u32::from(d)).sum();
        md << 16 | u32::from(st.sum.min(st.msum))
    }

    /// The dual position's lookups, and those of the reflected position's
    /// dual.
    fn second(&self, st: &PdbState<C, G>) -> u32 {
        let Some(d) = &self.dual else { return 0 };
        let mut v = d.value(&self.dbs, &self.members, &self.md, &st.pos);
        if let Some(m) = &self.mirror {
            // the reflected position: tile mt(t) on the transpose of t's cell
            let mut rpos = [0u8; C];
            for t in 0..d.n {
                rpos[usize::from(m.tile[t])] = m.cell[usize::from(st.pos[t])];
            }
            v = v.max(d.value(&self.dbs, &self.members, &self.md, &rpos));
        }
        v
    }
}
