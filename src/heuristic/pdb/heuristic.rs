//! The pattern-database heuristic: a partition's databases summed, maxed
//! with the same sum over the reflected position.

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
}

struct Mirror {
    /// `cell[c]`: the transpose of cell `c`.
    cell: Vec<u8>,
    /// `source[g]`: for each tile `u` of group `g`, the tile `mt(u)` whose
    /// transposed cell is where `u` stands in the reflected position.
    source: Vec<Vec<u8>>,
    /// `group_of_moved[t]`: the group whose reflected lookup changes when
    /// tile `t` moves (the group of `mt(t)`).
    group_of_moved: Vec<u8>,
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
            let cell: Vec<u8> = (0..n)
                .map(|c| ((c % cols) * cols + c / cols) as u8)
                .collect();
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
            }
        });
        let label = layout.label();
        Ok(PdbHeuristic {
            label,
            dbs,
            group_of,
            members: groups,
            mirror,
        })
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

    /// Group `g`'s value; `pos[0]` is the blank's cell.
    // Always inlined: the search's hottest call; left to the compiler, the
    // split into files made it an out-of-line call (4% more instructions
    // on Korf's 100 with 7-8, measured with callgrind).
    #[inline(always)]
    fn group_value(&self, g: usize, pos: &[u8; MAX_CELLS]) -> u8 {
        self.dbs[g].lookup(
            &self.members[g],
            |t| pos[usize::from(t)],
            usize::from(pos[0]),
        )
    }

    /// Group `g`'s value in the reflected position (the blank, tile 0, is
    /// its own mirror tile).
    #[inline(always)]
    fn mirror_value(&self, m: &Mirror, g: usize, pos: &[u8; MAX_CELLS]) -> u8 {
        let blank = usize::from(m.cell[usize::from(pos[0])]);
        self.dbs[g].lookup(
            &m.source[g],
            |t| m.cell[usize::from(pos[usize::from(t)])],
            blank,
        )
    }
}

/// Whether the reflection lookup is valid for this goal: a square board
/// with the goal's blank on the main diagonal.
pub fn reflection_applies(goal: &Board) -> bool {
    let (r, c) = (goal.rows(), goal.cols());
    r == c && goal.blank() / c == goal.blank() % c
}

impl Heuristic for PdbHeuristic {
    type State = PdbState;

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
            st.h[g] = self.group_value(g, &st.pos);
            st.sum += u16::from(st.h[g]);
            if let Some(m) = &self.mirror {
                st.hm[g] = self.mirror_value(m, g, &st.pos);
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
        let v = self.group_value(g, &s.pos);
        s.sum = s.sum - u16::from(s.h[g]) + u16::from(v);
        s.h[g] = v;
        if let Some(m) = &self.mirror {
            if u32::from(s.sum) > limit {
                // pruned anyway; make sure the value says so
                s.msum = 0;
                return s;
            }
            let g = usize::from(m.group_of_moved[t]);
            let v = self.mirror_value(m, g, &s.pos);
            s.msum = s.msum - u16::from(s.hm[g]) + u16::from(v);
            s.hm[g] = v;
        }
        s
    }
}
