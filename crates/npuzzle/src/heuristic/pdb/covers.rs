//! Many partitions' databases combined by their covers: every way the
//! groups of all the partitions given (and, where the reflection applies,
//! their transposes) split the tiles exactly, each summed, the largest
//! sum the estimate.
//!
//! A group's database value bounds the moves of the group's tiles alone,
//! so any groups that share no tile add up to a bound; a partition is one
//! such cover, and so is any mix of groups from different partitions that
//! covers every tile once. The reflected lookup of a group bounds the
//! moves of its transposed tiles (the tiles on the transposes of its
//! tiles' goal cells: a move of tile `u` in the reflected position is a
//! move of that tile in the board), so it counts as a group of its own,
//! and where a group and a transpose hold the same tiles the larger of
//! their two values stands for them. This takes at least the maximum over
//! the partitions' sums, each with its reflection, and often more.
//!
//! The covers are kept as a tree (covers that begin with the same groups
//! share those nodes) flattened in preorder, so the largest sum is one pass
//! over an array.

use super::heuristic::{manhattan_table, mirror_tiles, transposed_cells};
use super::lookup::dual::Dual;
use super::{
    load_or_build, PatternDb, PdbError, PdbLayout, PdbOptions, PdbReporter, MAX_CELLS,
};
use crate::board::Board;
use crate::budget::{Budget, Clock};
use crate::heuristic::{Heuristic, TableHooks};
use std::sync::Arc;

/// Most covers the tree may hold (each node costs an add a node
/// evaluated).
pub const MAX_COVERS: usize = 4096;

/// Most databases combined by covers (each is looked up plainly and
/// reflected: two lookups, a byte each in the node state).
pub const MAX_COVER_DATABASES: usize = 128;

/// The reflected lookups' view of the board.
struct Transpose {
    /// `cell[c]`: the transpose of cell `c`.
    cell: Box<[u8; MAX_CELLS]>,
    /// `source[d]`: for each tile `u` of database `d`, the tile whose
    /// transposed cell `u` takes in the reflected position.
    source: Vec<Vec<u8>>,
    /// `mt[t]`: the goal tile on the transpose of tile `t`'s goal cell
    /// (for the reflected position's dual).
    mt: Vec<u8>,
}

/// A node of the covers' tree: the set added at this depth, and whether a
/// cover ends here.
#[derive(Clone, Copy, Debug)]
struct Node {
    depth: u8,
    set: u8,
    leaf: bool,
}

/// The heuristic: the largest sum over the covers of the tiles by the
/// partitions' groups and their transposes. `C`: cells held in the state;
/// `L`: lookups held (two a database).
pub struct CoverHeuristic<const C: usize, const L: usize> {
    /// One database for each distinct group of all the partitions.
    dbs: Vec<Arc<PatternDb>>,
    /// `members[d]`: database `d`'s tiles, in key order.
    members: Vec<Vec<u8>>,
    /// The transpose where the reflection applies: `cell[c]` is cell `c`'s
    /// transpose, and `source[d]` the tiles whose transposed cells database
    /// `d`'s tiles take in the reflected lookup.
    mirror: Option<Transpose>,
    /// `changed[t]`: the lookups that change when tile `t` moves (lookup
    /// `l < dbs.len()` is database `l` plainly, the others reflected), the
    /// first partition's plain lookups first.
    changed: Vec<Vec<u8>>,
    /// The first partition's plain lookups: their sum alone prunes most
    /// children, before any other lookup is made.
    first: Vec<u8>,
    /// `stage[l]`: 0 for the first partition's plain lookups, 1 for its
    /// reflected ones, 2 for the others (the order they are made in).
    stage: Vec<u8>,
    /// `sets[s]`: the lookups that bound tile set `s` (one or two;
    /// `u8::MAX` where there is no second).
    sets: Vec<[u8; 2]>,
    tree: Vec<Node>,
    covers: usize,
    /// The dual lookups over the first partition's databases (the first
    /// of `dbs`), where asked for.
    dual: Option<Dual>,
    /// `md[t][c]`: tile `t`'s Manhattan distance from cell `c`.
    md: Box<[[u8; MAX_CELLS]; MAX_CELLS]>,
}

/// Per-node state: the tiles' cells, every lookup's value, the estimate and
/// the tiles' Manhattan distance (which breaks ties).
#[derive(Clone, Copy, Debug)]
pub struct CoverState<const C: usize, const L: usize> {
    pos: [u8; C],
    v: [u8; L],
    h: u16,
    md: u16,
}

impl<const C: usize, const L: usize> CoverHeuristic<C, L> {
    /// Whether this form holds `goal`'s board and every group `opts`
    /// names (at most `C` cells, `L` lookups).
    pub fn fits(goal: &Board, opts: &PdbOptions) -> Result<bool, PdbError> {
        let layout = PdbLayout::resolve(goal, opts)?;
        Ok(goal.len() <= C && 2 * distinct_groups(&layout).len() <= L)
    }

    /// Loads or builds every partition's databases for `goal` (a group
    /// named by several partitions once) and enumerates the covers.
    pub fn load(
        goal: &Board,
        opts: &PdbOptions,
        reporter: &dyn PdbReporter,
        budget: &Budget,
    ) -> Result<CoverHeuristic<C, L>, PdbError> {
        let layout = PdbLayout::resolve(goal, opts)?;
        let shape = goal.shape();
        let n = shape.cells();
        if n > C {
            return Err(PdbError::BoardTooBig(shape));
        }
        let groups = distinct_groups(&layout);
        if groups.len() > MAX_COVER_DATABASES || 2 * groups.len() > L {
            return Err(PdbError::TooManyDatabases(groups.len()));
        }
        let clock = Clock::new(budget);
        let dbs = groups
            .iter()
            .map(|(g, za)| load_or_build(goal, g, *za, opts, reporter, &clock))
            .collect::<Result<Vec<_>, _>>()?;
        if opts.dual && dbs.iter().any(|db| db.compact()) {
            return Err(PdbError::DualCompact);
        }
        let members: Vec<Vec<u8>> = groups.into_iter().map(|(g, _)| g).collect();
        let mirror = layout.reflect.then(|| {
            let mt = mirror_tiles(goal);
            let source = members
                .iter()
                .map(|g| g.iter().map(|&u| mt[usize::from(u)]).collect())
                .collect();
            Transpose {
                cell: Box::new(transposed_cells(goal)),
                source,
                mt,
            }
        });
        let tiles = Lookups::new(&members, mirror.as_ref().map(|m| &m.source));
        let (set_masks, sets) = tiles.sets();
        let tree = cover_tree(&set_masks, mask(&(1..n as u8).collect::<Vec<_>>()))?;
        // the first partition's groups come first among the distinct ones
        let first: Vec<u8> = (0..layout.groups.len() as u8).collect();
        let stage: Vec<u8> = (0..tiles.count())
            .map(|l| match l.checked_sub(members.len()) {
                None if l < first.len() => 0,
                Some(d) if d < first.len() => 1,
                _ => 2,
            })
            .collect();
        let changed = (0..n as u8)
            .map(|t| {
                let mut ls: Vec<u8> = (0..tiles.count())
                    .filter(|&l| tiles.holds(l, t))
                    .map(|l| l as u8)
                    .collect();
                // the first partition's plain lookups, then its reflected
                // ones, then the rest
                ls.sort_by_key(|&l| stage[usize::from(l)]);
                ls
            })
            .collect();
        let k = first.len();
        let dual = opts
            .dual
            .then(|| Dual::new(goal, &members[..k], &dbs[..k]));
        Ok(CoverHeuristic {
            covers: tree.iter().filter(|x| x.leaf).count(),
            dbs,
            members,
            mirror,
            changed,
            first,
            stage,
            sets,
            tree,
            dual,
            md: manhattan_table(goal),
        })
    }

    /// How many covers the estimate maxes over.
    #[cfg(any(test, feature = "internals"))]
    pub fn covers(&self) -> usize {
        self.covers
    }

    /// Lookup `l`'s value at `pos`; `prev`: its value one move of its
    /// tiles before (a compact database needs it), `None` where unknown.
    #[inline(always)]
    fn lookup(&self, l: usize, pos: &[u8; C], prev: Option<u8>) -> u8 {
        // two calls rather than one through a `dyn Fn`: the cell closure
        // stays inlined in the hot loop
        match (&self.mirror, l.checked_sub(self.dbs.len())) {
            (Some(Transpose { cell: mc, source, .. }), Some(d)) => self.read(
                d,
                &source[d],
                |t| mc[usize::from(pos[usize::from(t) & (C - 1)]) & (MAX_CELLS - 1)],
                usize::from(mc[usize::from(pos[0]) & (MAX_CELLS - 1)]),
                prev,
            ),
            _ => self.read(
                l,
                &self.members[l],
                |t| pos[usize::from(t) & (C - 1)],
                usize::from(pos[0]),
                prev,
            ),
        }
    }

    /// Database `d`'s value with its tiles `tiles` on `cell(t)`.
    #[inline(always)]
    fn read(
        &self,
        d: usize,
        tiles: &[u8],
        cell: impl Fn(u8) -> u8,
        blank: usize,
        prev: Option<u8>,
    ) -> u8 {
        match prev {
            Some(p) => self.dbs[d].lookup_after(tiles, cell, blank, p),
            None => self.dbs[d].lookup(tiles, cell, blank),
        }
    }

    /// The first partition's plain sum.
    #[inline(always)]
    fn first_sum(&self, v: &[u8; L]) -> u16 {
        self.first_sum_at(v, 0)
    }

    /// The first partition's plain sum (`stage` 0) or reflected one (1).
    #[inline(always)]
    fn first_sum_at(&self, v: &[u8; L], stage: usize) -> u16 {
        let off = stage * self.dbs.len();
        self.first
            .iter()
            .map(|&l| u16::from(v[(usize::from(l) + off) & (L - 1)]))
            .sum()
    }

    /// The largest sum over the covers, or the first sum found above
    /// `limit` (the node is pruned whatever the rest say).
    #[inline(always)]
    fn best(&self, v: &[u8; L], limit: u32) -> u16 {
        let mut set = [0u8; 256];
        for (s, &[a, b]) in self.sets.iter().enumerate() {
            let x = v[usize::from(a) & (L - 1)];
            set[s] = if b == u8::MAX {
                x
            } else {
                x.max(v[usize::from(b) & (L - 1)])
            };
        }
        let mut sums = [0u16; 65];
        let mut best = 0u16;
        for node in &self.tree {
            let d = usize::from(node.depth) & 63;
            let s = sums[d] + u16::from(set[usize::from(node.set)]);
            sums[d + 1] = s;
            if node.leaf && s > best {
                best = s;
                if u32::from(s) > limit {
                    break;
                }
            }
        }
        best
    }
}

/// A set of tiles as a bit mask.
fn mask(tiles: &[u8]) -> u64 {
    tiles.iter().fold(0u64, |m, &t| m | 1 << t)
}

/// The lookups: each database plainly, then (where the reflection
/// applies) each reflected, with the tiles whose moves each bounds.
struct Lookups<'a> {
    members: &'a [Vec<u8>],
    source: Option<&'a Vec<Vec<u8>>>,
}

impl<'a> Lookups<'a> {
    fn new(members: &'a [Vec<u8>], source: Option<&'a Vec<Vec<u8>>>) -> Lookups<'a> {
        Lookups { members, source }
    }

    fn count(&self) -> usize {
        self.members.len() * if self.source.is_some() { 2 } else { 1 }
    }

    /// The tiles whose moves lookup `l` bounds.
    fn tiles(&self, l: usize) -> &[u8] {
        match (self.source, l.checked_sub(self.members.len())) {
            (Some(source), Some(d)) => &source[d],
            _ => &self.members[l],
        }
    }

    /// Whether lookup `l` changes when tile `t` moves.
    fn holds(&self, l: usize, t: u8) -> bool {
        self.tiles(l).contains(&t)
    }

    /// The distinct tile sets, and for each the lookups (one or two) that
    /// bound it.
    fn sets(&self) -> (Vec<u64>, Vec<[u8; 2]>) {
        let mut masks: Vec<u64> = Vec::new();
        let mut sets: Vec<[u8; 2]> = Vec::new();
        for l in 0..self.count() {
            let m = mask(self.tiles(l));
            match masks.iter().position(|&x| x == m) {
                // a group and a transpose of another: two groups with the
                // same tiles are one database
                Some(s) => sets[s][1] = l as u8,
                None => {
                    masks.push(m);
                    sets.push([l as u8, u8::MAX]);
                }
            }
        }
        (masks, sets)
    }
}

/// Every distinct group of the layout's partitions (by tile set, the first
/// naming kept) with whether its database is zero-aware.
fn distinct_groups(layout: &PdbLayout) -> Vec<(Vec<u8>, bool)> {
    let mut out: Vec<(Vec<u8>, bool)> = Vec::new();
    let mut next = Some(layout);
    while let Some(l) = next {
        for (g, &za) in l.groups.iter().zip(&l.zero_aware) {
            let mut sorted = g.clone();
            sorted.sort_unstable();
            if !out.iter().any(|(h, _)| {
                let mut h = h.clone();
                h.sort_unstable();
                h == sorted
            }) {
                out.push((g.clone(), za));
            }
        }
        next = l.also.as_deref();
    }
    out
}

/// The covers of `all` by the sets `masks`, as a tree in preorder: each
/// cover takes the set holding the lowest tile not yet covered, so each
/// is listed once.
fn cover_tree(masks: &[u64], all: u64) -> Result<Vec<Node>, PdbError> {
    fn grow(
        masks: &[u64],
        all: u64,
        covered: u64,
        depth: u8,
        tree: &mut Vec<Node>,
        covers: &mut usize,
    ) -> Result<bool, PdbError> {
        let rest = all & !covered;
        let low = rest & rest.wrapping_neg();
        let mut any = false;
        for (s, &m) in masks.iter().enumerate() {
            if m & low == 0 || m & covered != 0 || m & !all != 0 {
                continue;
            }
            let at = tree.len();
            let leaf = covered | m == all;
            tree.push(Node {
                depth,
                set: s as u8,
                leaf,
            });
            if leaf {
                *covers += 1;
                if *covers > MAX_COVERS {
                    return Err(PdbError::TooManyCovers(MAX_COVERS));
                }
                any = true;
            } else if grow(masks, all, covered | m, depth + 1, tree, covers)? {
                any = true;
            } else {
                tree.truncate(at);
            }
        }
        Ok(any)
    }
    let mut tree = Vec::new();
    let mut covers = 0;
    grow(masks, all, 0, 0, &mut tree, &mut covers)?;
    Ok(tree)
}

impl<const C: usize, const L: usize> Heuristic for CoverHeuristic<C, L> {
    type State = CoverState<C, L>;

    const READS_TILES: bool = false;

    fn name(&self) -> &'static str {
        "pdb"
    }

    fn init(&self, tiles: &[u8]) -> CoverState<C, L> {
        let mut st = CoverState {
            pos: [0; C],
            v: [0; L],
            h: 0,
            md: 0,
        };
        for (cell, &t) in tiles.iter().enumerate() {
            st.pos[usize::from(t)] = cell as u8;
            st.md += u16::from(self.md[usize::from(t)][cell]);
        }
        let lookups = self.dbs.len() * if self.mirror.is_some() { 2 } else { 1 };
        for l in 0..lookups {
            st.v[l] = self.lookup(l, &st.pos, None);
        }
        st.h = self.best(&st.v, u32::MAX);
        st
    }

    #[inline]
    fn value(&self, st: &CoverState<C, L>) -> u32 {
        u32::from(st.h)
    }

    #[inline]
    fn update(
        &self,
        st: &CoverState<C, L>,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
    ) -> CoverState<C, L> {
        self.update_bounded(st, tiles, tile, from, to, u32::MAX)
    }
}

impl<const C: usize, const L: usize> TableHooks for CoverHeuristic<C, L> {
    type Touched = ();

    /// Each database's file, whether the reflections are looked up, and
    /// how many covers there are.
    fn identity(&self) -> String {
        let files: Vec<String> = self.dbs.iter().map(|d| d.key.file_name()).collect();
        format!(
            "pdb covers{} ({} covers) [{}]",
            if self.mirror.is_some() { " reflected" } else { "" },
            self.covers,
            files.join(", ")
        )
    }

    /// Each database's plain value, and its reflected one.
    fn parts(&self, s: &CoverState<C, L>) -> Option<(Vec<u32>, Option<Vec<u32>>)> {
        let nd = self.dbs.len();
        let plain = s.v[..nd].iter().map(|&v| u32::from(v)).collect();
        let mirrored = self
            .mirror
            .as_ref()
            .map(|_| s.v[nd..2 * nd].iter().map(|&v| u32::from(v)).collect());
        Some((plain, mirrored))
    }

    /// The moved tile's lookups, the first partition's first: once their
    /// sum exceeds `limit` the rest are left (the state is then good only
    /// for pruning), and so are the covers after the first above it.
    #[inline]
    fn update_bounded(
        &self,
        st: &CoverState<C, L>,
        _tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        limit: u32,
    ) -> CoverState<C, L> {
        let mut s = *st;
        let t = usize::from(tile);
        s.pos[t & (C - 1)] = to as u8;
        // the blank went from `to` to `from`; only groups holding `tile`
        // see a change (for the others both cells are free and adjacent)
        s.pos[0] = from as u8;
        let row = &self.md[t & (MAX_CELLS - 1)];
        s.md = (s.md + u16::from(row[to & (MAX_CELLS - 1)])) - u16::from(row[from & (MAX_CELLS - 1)]);
        // Stage 0: the first partition's plain lookups; 1: its reflected
        // ones; 2: the rest. After each of the first two, the first
        // partition's sum so far may prune the node already.
        let mut stage = 0;
        for &l in &self.changed[t] {
            let l = usize::from(l);
            let now = usize::from(self.stage[l]);
            while stage < now {
                let f = self.first_sum_at(&s.v, stage);
                if u32::from(f) > limit {
                    s.h = f;
                    return s;
                }
                stage += 1;
            }
            s.v[l & (L - 1)] = self.lookup(l, &s.pos, Some(st.v[l & (L - 1)]));
        }
        s.h = self.best(&s.v, limit);
        s
    }

    fn has_second(&self) -> bool {
        self.dual.is_some()
    }

    /// Of two children of the same estimate, the one whose tiles are
    /// nearer home, then the one whose first partition's smaller sum
    /// (plain or reflected) is smaller, as for a single partition.
    #[inline]
    fn tie(&self, st: &CoverState<C, L>) -> u32 {
        let plain = self.first_sum(&st.v);
        let low = if self.mirror.is_some() {
            plain.min(self.first_sum_at(&st.v, 1))
        } else {
            plain
        };
        u32::from(st.md) << 16 | u32::from(low)
    }

    /// The dual position's lookups over the databases that partition
    /// the tiles first, and those of the reflected position's dual.
    fn second(&self, st: &CoverState<C, L>) -> u32 {
        let Some(d) = &self.dual else {
            return 0;
        };
        let k = self.first.len();
        let (dbs, tiles) = (&self.dbs[..k], &self.members[..k]);
        let mut v = d.value(dbs, tiles, &self.md, &st.pos);
        if let Some(Transpose { cell, mt, .. }) = &self.mirror {
            // the reflected position: tile mt(t) on the transpose of t's cell
            let mut rpos = [0u8; C];
            for t in 0..d.n {
                rpos[usize::from(mt[t])] = cell[usize::from(st.pos[t])];
            }
            v = v.max(d.value(dbs, tiles, &self.md, &rpos));
        }
        v
    }
}
