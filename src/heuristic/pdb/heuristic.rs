//! The pattern-database heuristic: a partition's databases summed, maxed
//! with the same sum over the reflected position, and on request the dual
//! lookups ([`Heuristic::second`]).
//!
//! **Dual lookups.** In the dual position each tile `t` stands on the goal
//! cell of the tile that stands on `t`'s goal cell. Follow an optimal
//! solution backwards, and let the tiles that start on the goal cells of a
//! group's tiles play those tiles: they walk from the dual placement to the
//! group's goal, one group-tile move per move of theirs, with the blank
//! starting on its goal cell. So the group's database value there (blank
//! on its goal cell) is at most the moves those tiles make, and the sets of
//! tiles are disjoint: the sum is a lower bound. Two corrections keep it
//! one: the group whose goal cells hold the blank would have it among its
//! walkers (each of its moves counted), so that group counts only the
//! Manhattan distances of its other walkers; and the walk ends with the
//! blank where it starts now, which may be a region of the free cells
//! other than the goal's when the group's tiles are home, so the distance
//! between those two (a zero-aware database has it; otherwise the
//! Manhattan count again) is taken off.

use super::{
    load_or_build, PatternDb, PdbError, PdbLayout, PdbOptions, PdbReporter, MAX_CELLS, MAX_GROUPS,
};
use crate::board::Board;
use crate::budget::{Budget, Clock};
use crate::heuristic::Heuristic;
use std::sync::Arc;

/// The heuristic: a partition's databases summed, maxed with the same sum
/// over the reflected position where the goal allows it.
pub struct PdbHeuristic {
    label: String,
    dbs: Vec<Arc<PatternDb>>,
    /// `group_of[t]`: the group holding tile `t` (`u8::MAX` for the blank).
    group_of: Vec<u8>,
    /// `members[g]`: the tiles of group `g`, in database key order.
    members: Vec<Vec<u8>>,
    mirror: Option<Mirror>,
    dual: Option<Dual>,
}

/// What the dual lookups need.
struct Dual {
    /// Cells of the board.
    n: usize,
    /// Goal cell of each tile (the blank's is `blank`).
    goal_cell: Vec<u8>,
    /// The goal's blank cell.
    blank: u8,
    /// `take[g][c]`: what group `g`'s dual value loses when the blank is on
    /// `c`; `u8::MAX` when the database cannot be used (count Manhattan).
    take: Vec<Vec<u8>>,
    /// `goal_cells[g]`: the goal cells of group `g`'s tiles.
    goal_cells: Vec<Vec<u8>>,
    /// `md[t · n + c]`: tile `t`'s Manhattan distance from cell `c`.
    md: Vec<u8>,
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

/// Where a child's lookups read ([`Heuristic::touch`]): the group looked
/// up again and its entry and Manhattan distance, and the same for the
/// reflected position.
#[derive(Clone, Copy, Debug, Default)]
pub struct PdbTouched {
    group: u8,
    at: (u64, u32),
    mgroup: u8,
    mat: (u64, u32),
}

/// Per-node state: the tiles' cells and each group's two values.
#[derive(Clone, Copy, Debug)]
pub struct PdbState {
    pos: [u8; MAX_CELLS],
    h: [u8; MAX_GROUPS],
    hm: [u8; MAX_GROUPS],
    sum: u16,
    msum: u16,
}

impl PdbState {
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
    /// Loads or builds the partition's databases for `goal`.
    ///
    /// Builds obey `budget`'s deadline, cancel flag and bytes; nothing
    /// half-built is kept.
    pub fn new(
        goal: &Board,
        opts: &PdbOptions,
        reporter: &dyn PdbReporter,
        budget: &Budget,
    ) -> Result<PdbHeuristic, PdbError> {
        let layout = PdbLayout::resolve(goal, opts)?;
        let shape = goal.shape();
        let n = shape.cells();
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
            let cols = shape.cols;
            let mut cell = [0u8; MAX_CELLS];
            for (c, x) in cell.iter_mut().enumerate().take(n) {
                *x = ((c % cols) * cols + c / cols) as u8;
            }
            let gpos = goal.positions();
            // mt(t): the goal tile on the transpose of t's goal cell
            let mt: Vec<u8> = (0..n)
                .map(|t| goal.tiles()[usize::from(cell[usize::from(gpos[t])])])
                .collect();
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
        Ok(PdbHeuristic {
            label,
            dbs,
            group_of,
            members: groups,
            mirror,
            dual,
        })
    }

    /// Whether the dual lookups are made.
    pub fn duals(&self) -> bool {
        self.dual.is_some()
    }

    /// The dual lower bound for the board with tile `t` on `pos[t]`.
    fn dual_value(&self, d: &Dual, pos: &[u8; MAX_CELLS]) -> u32 {
        let n = d.n;
        let mut board = [0u8; MAX_CELLS];
        for t in 0..n {
            board[usize::from(pos[t])] = t as u8;
        }
        let mut dpos = [0u8; MAX_CELLS];
        for t in 0..n {
            let u = board[usize::from(d.goal_cell[t])];
            dpos[t] = d.goal_cell[usize::from(u)];
        }
        // the lookups are made with the blank on its goal cell
        dpos[0] = d.blank;
        let a0 = usize::from(pos[0]);
        let mut sum = 0u32;
        for g in 0..self.dbs.len() {
            let take = d.take[g][a0];
            if take == u8::MAX {
                // the walkers' Manhattan distances (the blank not counted)
                for &c in &d.goal_cells[g] {
                    let u = usize::from(board[usize::from(c)]);
                    sum += u32::from(d.md[u * n + usize::from(c)]);
                }
                continue;
            }
            let v = self.dbs[g].lookup(
                &self.members[g],
                |t| dpos[usize::from(t)],
                usize::from(d.blank),
            );
            sum += u32::from(v.saturating_sub(take));
        }
        sum
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
    fn group_value(&self, g: usize, pos: &[u8; MAX_CELLS], prev: Option<u8>) -> u8 {
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
    fn mirror_value(&self, m: &Mirror, g: usize, pos: &[u8; MAX_CELLS], prev: Option<u8>) -> u8 {
        let blank = usize::from(m.cell[usize::from(pos[0])]);
        let cell = |t: u8| m.cell[usize::from(pos[usize::from(t)])];
        match prev {
            Some(p) => self.dbs[g].lookup_after(&m.source[g], cell, blank, p),
            None => self.dbs[g].lookup(&m.source[g], cell, blank),
        }
    }
}

impl Dual {
    fn new(goal: &Board, groups: &[Vec<u8>], dbs: &[Arc<PatternDb>]) -> Dual {
        let shape = goal.shape();
        let (n, cols) = (shape.cells(), shape.cols);
        let goal_cell = goal.positions();
        let blank = goal.blank();
        let goal_cells: Vec<Vec<u8>> = groups
            .iter()
            .map(|g| g.iter().map(|&t| goal_cell[usize::from(t)]).collect())
            .collect();
        let mut md = vec![0u8; n * n];
        for t in 1..n {
            let gc = usize::from(goal_cell[t]);
            for c in 0..n {
                let d = (gc / cols).abs_diff(c / cols) + (gc % cols).abs_diff(c % cols);
                md[t * n + c] = d as u8;
            }
        }
        let take = goal_cells
            .iter()
            .zip(dbs)
            .map(|(cells, db)| {
                // the free cells with the group home, and the goal blank's
                // region among them
                let occ = cells.iter().fold(0u64, |m, &c| m | 1 << c);
                let region = flood(shape, 1 << blank, !occ);
                (0..n)
                    .map(|a0| {
                        if occ >> a0 & 1 == 1 {
                            // the blank is one of the group's walkers
                            u8::MAX
                        } else if region >> a0 & 1 == 1 {
                            0
                        } else if db.zero_aware() {
                            // the group home, the blank in `a0`'s region:
                            // its distance from the goal region
                            let home: Vec<u8> = db
                                .tiles()
                                .iter()
                                .map(|&t| goal_cell[usize::from(t)])
                                .collect();
                            db.get(&home, a0).min(u8::MAX - 1)
                        } else {
                            u8::MAX
                        }
                    })
                    .collect()
            })
            .collect();
        Dual {
            n,
            goal_cell,
            blank: blank as u8,
            take,
            goal_cells,
            md,
        }
    }
}

/// The cells of `free` connected to `seed` on a board of `shape`.
fn flood(shape: crate::board::Shape, seed: u64, free: u64) -> u64 {
    let mut r = seed & free;
    loop {
        let mut grown = r;
        for c in 0..shape.cells() {
            if r >> c & 1 == 1 {
                for d in crate::board::Dir::ALL {
                    if let Some(to) = d.step(c, shape.rows, shape.cols) {
                        grown |= 1 << to;
                    }
                }
            }
        }
        grown &= free;
        if grown == r {
            return r;
        }
        r = grown;
    }
}

/// `c` as an index into an array of [`MAX_CELLS`], which it is below:
/// masked, the compiler leaves out the bounds check.
#[inline(always)]
fn cell_index(c: usize) -> usize {
    const { assert!(MAX_CELLS.is_power_of_two()) };
    c & (MAX_CELLS - 1)
}

/// Whether the reflection lookup is valid for this goal: a square board
/// with the goal's blank on the main diagonal.
pub fn reflection_applies(goal: &Board) -> bool {
    let (r, c) = (goal.rows(), goal.cols());
    r == c && goal.blank() / c == goal.blank() % c
}

impl Heuristic for PdbHeuristic {
    type State = PdbState;
    type Touched = PdbTouched;

    /// The state carries every tile's cell; the board is never read.
    const READS_TILES: bool = false;

    fn name(&self) -> &'static str {
        "pdb"
    }

    fn init(&self, tiles: &[u8]) -> PdbState {
        let mut st = PdbState {
            pos: [0; MAX_CELLS],
            h: [0; MAX_GROUPS],
            hm: [0; MAX_GROUPS],
            sum: 0,
            msum: 0,
        };
        for (cell, &t) in tiles.iter().enumerate() {
            st.pos[usize::from(t)] = cell as u8;
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
    fn value(&self, st: &PdbState) -> u32 {
        u32::from(st.sum.max(st.msum))
    }

    #[inline]
    fn update(&self, st: &PdbState, tiles: &[u8], tile: u8, from: usize, to: usize) -> PdbState {
        self.update_bounded(st, tiles, tile, from, to, u32::MAX)
    }

    /// Looks the reflected position up only when the plain sum does not
    /// already exceed `limit` (then the node is pruned whatever the
    /// reflection says).
    #[inline]
    fn update_bounded(
        &self,
        st: &PdbState,
        _tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        limit: u32,
    ) -> PdbState {
        let mut s = *st;
        let t = usize::from(tile);
        s.pos[t] = to as u8;
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

    /// Where every database finds its indices cheaply: computing them
    /// twice costs more than the overlapped misses save otherwise (on 5×5
    /// zero-aware, measured).
    fn touches(&self) -> bool {
        self.dbs.iter().all(|db| db.cheap_index())
    }

    /// The moved tile's group, and the group of the reflected lookup, at
    /// the child (see [`PdbHeuristic::update_bounded`]).
    #[inline]
    fn touch(&self, st: &PdbState, tile: u8, from: usize, to: usize) -> PdbTouched {
        let t = usize::from(tile);
        // the child's cells: a copy patched once costs less than asking
        // for every tile whether it is the one that moved
        let mut pos = st.pos;
        pos[cell_index(t)] = to as u8;
        let at = |u: u8| pos[cell_index(usize::from(u))];
        let g = usize::from(self.group_of[t]);
        let mut touched = PdbTouched {
            group: g as u8,
            at: self.dbs[g].touch(&self.members[g], at, from),
            ..PdbTouched::default()
        };
        if let Some(m) = &self.mirror {
            let g = usize::from(m.group_of_moved[t]);
            touched.mgroup = g as u8;
            touched.mat = self.dbs[g].touch(
                &m.source[g],
                |u| m.cell[cell_index(usize::from(at(u)))],
                usize::from(m.cell[cell_index(from)]),
            );
        }
        touched
    }

    /// [`PdbHeuristic::update_bounded`] reading where `touch` found.
    #[inline]
    fn update_touched(
        &self,
        st: &PdbState,
        touched: &PdbTouched,
        _tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        limit: u32,
    ) -> PdbState {
        let mut s = *st;
        s.pos[usize::from(tile)] = to as u8;
        s.pos[0] = from as u8;
        let g = usize::from(touched.group);
        s.set(g, self.dbs[g].read(touched.at, st.h[g]));
        if self.mirror.is_some() {
            if s.pruned(limit) {
                return s;
            }
            let g = usize::from(touched.mgroup);
            s.set_mirrored(g, self.dbs[g].read(touched.mat, st.hm[g]));
        }
        s
    }

    fn has_second(&self) -> bool {
        self.dual.is_some()
    }

    /// The dual position's lookups, and those of the reflected position's
    /// dual.
    fn second(&self, st: &PdbState) -> u32 {
        let Some(d) = &self.dual else { return 0 };
        let mut v = self.dual_value(d, &st.pos);
        if let Some(m) = &self.mirror {
            // the reflected position: tile mt(t) on the transpose of t's cell
            let mut rpos = [0u8; MAX_CELLS];
            for t in 0..d.n {
                rpos[usize::from(m.tile[t])] = m.cell[usize::from(st.pos[t])];
            }
            v = v.max(self.dual_value(d, &rpos));
        }
        v
    }
}
