//! Complete distance tables for boards of at most 10 cells (2×2, 2×3, 2×4,
//! 3×3, 2×5 and their transposes).
//!
//! **Any goal reduces to a canonical one.** Renaming the tiles commutes with
//! moves, so the distance from `s` to `g` equals the distance from `φ(s)` to
//! `φ(g)`, where `φ` renames the tile on goal cell `c` to the canonical label
//! of `c`. The blank cannot be renamed (moves are defined by it), so there is
//! one canonical goal per goal-blank cell `b`: the blank on `b` and tiles
//! `1..n−1` on the other cells in reading order. Each table is built lazily,
//! the first time a query needs it, by breadth-first search backward from
//! its canonical goal.
//!
//! **Indexing.** A state is stored by the rank of its *position vector*
//! `q` (`q[0]` = the blank's cell, `q[t]` = the cell of tile `t`). Swapping
//! the last two entries of `q` swaps two non-blank tiles: it flips the
//! permutation's parity while leaving the blank in place, so exactly one of
//! the pair `rank(q) = 2m, 2m+1` is reachable from the goal. Hence
//! `rank(q) >> 1` is a perfect hash of the `n!/2` reachable states, and the
//! table is one byte per reachable state (3×3: 181,440 bytes; 2×5: 1.8 MB).
//! Callers must rule out unreachable starts by parity first.
//!
//! **Paths** come from walking down the table: from a state at distance `d`,
//! some neighbour is at `d − 1`.
//!
//! **Both metrics.** A table counts single-tile moves or multi-tile pushes
//! ([`Metric`]): in the multi-tile metric a state's neighbours are every
//! push of one to `side − 1` tiles of the blank's row or column. Breadth
//! first from a FIFO queue finds every state at its fewest pushes although
//! that graph, unlike the single-tile one, is not bipartite (a push of one
//! tile and a push of two reach the same level from one state): a state is
//! settled by the first level that reaches it, whichever neighbours share
//! its level.

use crate::board::{Dir, Metric, Shape};
use crate::codec::{Codec, Nibbles};
use crate::rank;
use std::sync::OnceLock;

/// Boards of at most this many cells get complete tables.
pub const MAX_CELLS: usize = 10;

const UNSEEN: u8 = u8::MAX;

/// The distance table for one shape and one goal-blank cell.
///
/// ```
/// use npuzzle::{DistanceTable, Shape};
///
/// // Every 2×3 position with the blank home in the top-left corner.
/// let table = DistanceTable::build(Shape::new(2, 3), 0);
/// assert_eq!(table.len(), 360); // 6!/2
/// assert_eq!(table.max_distance(), 21);
/// assert_eq!(table.histogram().iter().sum::<u64>(), 360);
/// ```
pub struct DistanceTable {
    shape: Shape,
    blank: usize,
    metric: Metric,
    dist: Box<[u8]>,
    max_distance: u8,
    /// Positions at each distance, counted while building (the page shows
    /// where a position stands among all of its puzzle's).
    histogram: Vec<u64>,
}

/// Moves the blank of position vector `q` to `to`: the tile standing there
/// takes the blank's old cell. Returns that tile.
#[inline]
fn move_blank(q: &mut [u8], to: usize) -> usize {
    let from = q[0];
    let t = q[1..]
        .iter()
        .position(|&c| usize::from(c) == to)
        .map_or(0, |i| i + 1);
    q[t] = from;
    q[0] = to as u8;
    t
}

impl DistanceTable {
    /// Breadth-first search backward from the canonical goal with the blank
    /// on `blank`.
    ///
    /// # Panics
    ///
    /// When `shape` has more than [`TableSet::MAX_CELLS`] cells or `blank` is not one
    /// of its cells.
    pub fn build(shape: Shape, blank: usize) -> DistanceTable {
        DistanceTable::build_in(shape, blank, Metric::Stm)
    }

    /// [`DistanceTable::build`], counting moves in `metric`.
    ///
    /// ```
    /// use npuzzle::{DistanceTable, Metric, Shape};
    ///
    /// let stm = DistanceTable::build_in(Shape::new(2, 3), 0, Metric::Stm);
    /// let mtm = DistanceTable::build_in(Shape::new(2, 3), 0, Metric::Mtm);
    /// assert_eq!(mtm.len(), stm.len());
    /// // A push of two tiles is one move: the hardest position is nearer.
    /// assert!(mtm.max_distance() < stm.max_distance());
    /// ```
    ///
    /// # Panics
    ///
    /// As [`DistanceTable::build`].
    pub fn build_in(shape: Shape, blank: usize, metric: Metric) -> DistanceTable {
        let n = shape.cells();
        assert!(
            n <= MAX_CELLS && blank < n,
            "no table for {shape} blank {blank}"
        );
        let size = (rank::FACT[n] / 2) as usize;
        let mut dist = vec![UNSEEN; size].into_boxed_slice();
        let mut q = [0u8; 16];
        let q = &mut q[..n];
        // canonical goal: blank on `blank`, tiles 1.. in reading order
        q[0] = blank as u8;
        let mut label = 1;
        for cell in 0..n {
            if cell != blank {
                q[label] = cell as u8;
                label += 1;
            }
        }
        let mut queue: Vec<u64> = Vec::with_capacity(size);
        dist[(rank::rank(q) >> 1) as usize] = 0;
        queue.push(Nibbles.pack(q));
        let mut head = 0;
        let mut max_distance = 0;
        let mut histogram = vec![1u64];
        while head < queue.len() {
            let packed = queue[head];
            head += 1;
            Nibbles.unpack(&packed, q);
            let d = dist[(rank::rank(q) >> 1) as usize];
            max_distance = d;
            for_each_neighbour(shape, metric, q, |q, _, _| {
                let idx = (rank::rank(q) >> 1) as usize;
                if dist[idx] == UNSEEN {
                    dist[idx] = d + 1;
                    queue.push(Nibbles.pack(q));
                    // BFS order: d + 1 is at most one past the last level.
                    if histogram.len() <= usize::from(d) + 1 {
                        histogram.push(0);
                    }
                    histogram[usize::from(d) + 1] += 1;
                }
                false
            });
        }
        debug_assert_eq!(queue.len(), size);
        DistanceTable {
            shape,
            blank,
            metric,
            dist,
            max_distance,
            histogram,
        }
    }

    /// How the table counts moves.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The shape the table is for.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The goal-blank cell the table is for (0-based, in reading order).
    pub fn blank(&self) -> usize {
        self.blank
    }

    /// Number of states stored (`n!/2`).
    pub fn len(&self) -> usize {
        self.dist.len()
    }

    /// Never true: a table holds at least its goal.
    pub fn is_empty(&self) -> bool {
        self.dist.is_empty()
    }

    /// The largest distance in the table (the diameter from this goal).
    pub fn max_distance(&self) -> u32 {
        u32::from(self.max_distance)
    }

    /// Count of states at each distance `0..=max`.
    pub fn histogram(&self) -> &[u64] {
        &self.histogram
    }

    /// Where a position `moves` away from this table's goal stands among
    /// all positions of the puzzle.
    pub fn standing(&self, moves: u32) -> Standing {
        let h = &self.histogram;
        let at = (moves as usize).min(h.len());
        Standing {
            moves,
            positions: h.iter().sum(),
            fewer: h[..at].iter().sum(),
            same: h.get(moves as usize).copied().unwrap_or(0),
            max_moves: self.max_distance(),
        }
    }

    /// Distance of the canonical state with position vector `q` (which
    /// must be reachable: the entry of an unreachable one is its reachable
    /// twin's).
    #[inline]
    pub fn at(&self, q: &[u8]) -> u32 {
        u32::from(self.dist[(rank::rank(q) >> 1) as usize])
    }

    /// Walks down the table from `q` to the goal, returning the moves and
    /// adding the entries read to `probes`.
    pub fn walk(&self, q: &[u8], probes: &mut u64) -> Vec<Dir> {
        let n = q.len();
        let mut cur = [0u8; 16];
        cur[..n].copy_from_slice(q);
        let cur = &mut cur[..n];
        let mut d = self.at(cur);
        let mut path = Vec::with_capacity(d as usize);
        while d > 0 {
            let mut step = None;
            for_each_neighbour(self.shape, self.metric, cur, |next, dir, k| {
                *probes += 1;
                let closer = self.at(next) + 1 == d;
                if closer {
                    step = Some((dir, k));
                }
                closer
            });
            // A complete BFS table always has a neighbour one move closer.
            debug_assert!(step.is_some(), "table has no descending neighbour");
            let Some((dir, k)) = step else { break };
            for _ in 0..k {
                if let Some(to) = dir.step(usize::from(cur[0]), self.shape.rows, self.shape.cols) {
                    move_blank(cur, to);
                }
            }
            path.extend(std::iter::repeat_n(dir, k));
            d -= 1;
        }
        path
    }
}

/// Calls `visit(q, dir, k)` on each neighbour of position vector `q` in
/// `metric` — the blank pushed `k` cells in `dir` (`k` = 1 in the
/// single-tile metric) — and restores `q` after each; stops early when
/// `visit` returns true.
pub(crate) fn for_each_neighbour(
    shape: Shape,
    metric: Metric,
    q: &mut [u8],
    mut visit: impl FnMut(&mut [u8], Dir, usize) -> bool,
) {
    let z = q[0];
    // (tile, the cell it left) for each step of the push, to undo it.
    let mut moved = [(0usize, 0u8); 16];
    for dir in Dir::ALL {
        let mut k = 0;
        let mut at = usize::from(z);
        let mut stop = false;
        while let Some(to) = dir.step(at, shape.rows, shape.cols) {
            let t = move_blank(q, to);
            moved[k] = (t, to as u8);
            k += 1;
            at = to;
            stop = visit(q, dir, k);
            if stop || metric == Metric::Stm {
                break;
            }
        }
        // Undo the push, last step first: each tile back to the cell it left.
        for &(t, cell) in moved[..k].iter().rev() {
            q[t] = cell;
        }
        q[0] = z;
        if stop {
            return;
        }
    }
}

/// Writes into `q` the canonical position vector of `start` for the goal
/// `goal` (same length ≤ 16): the tile on goal cell `c` is renamed to the
/// canonical label of `c` (0 for the blank's cell, else `1..` in reading
/// order skipping the blank's cell).
#[inline]
pub fn canonical(start: &[u8], goal: &[u8], q: &mut [u8]) {
    let n = start.len();
    let mut gpos = [0u8; 16];
    let mut gblank = 0;
    for (cell, &t) in goal.iter().enumerate() {
        gpos[usize::from(t)] = cell as u8;
        if t == 0 {
            gblank = cell;
        }
    }
    for (cell, &t) in start.iter().enumerate() {
        let gc = usize::from(gpos[usize::from(t)]);
        let label = match gc.cmp(&gblank) {
            std::cmp::Ordering::Less => gc + 1,
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Greater => gc,
        };
        q[label] = cell as u8;
    }
    debug_assert_eq!(q.len(), n);
}

/// All tables, built lazily per shape and goal-blank cell; shared by every
/// thread (`OnceLock` builds each once even when many queries race for it).
pub struct TableSet {
    metric: Metric,
    shapes: Vec<(Shape, Vec<OnceLock<DistanceTable>>)>,
}

impl Default for TableSet {
    fn default() -> Self {
        TableSet::new()
    }
}

impl TableSet {
    /// Most cells of a board with a complete table (10: every 2×2, 2×3,
    /// 2×4, 2×5, 3×3 board and their transposes).
    pub const MAX_CELLS: usize = MAX_CELLS;

    /// A set with every shape of at most [`TableSet::MAX_CELLS`] cells and no table
    /// built yet.
    pub fn new() -> TableSet {
        TableSet::new_in(Metric::Stm)
    }

    /// [`TableSet::new`], counting moves in `metric`.
    pub fn new_in(metric: Metric) -> TableSet {
        let mut shapes = Vec::new();
        for rows in 2..=MAX_CELLS / 2 {
            for cols in 2..=MAX_CELLS / 2 {
                if rows * cols <= MAX_CELLS {
                    let slots = (0..rows * cols).map(|_| OnceLock::new()).collect();
                    shapes.push((Shape::new(rows, cols), slots));
                }
            }
        }
        TableSet { metric, shapes }
    }

    /// The process-wide set, shared by every caller in the process.
    pub fn global() -> &'static TableSet {
        TableSet::global_in(Metric::Stm)
    }

    /// The process-wide set counting moves in `metric`.
    ///
    /// ```
    /// use npuzzle::{Metric, Shape, TableSet};
    ///
    /// let goal = [1, 2, 3, 4, 5, 6, 7, 8, 0];
    /// let start = [1, 2, 3, 4, 5, 6, 0, 7, 8]; // the blank two cells left
    /// let shape = Shape::new(3, 3);
    /// assert_eq!(TableSet::global_in(Metric::Stm).distance(shape, &start, &goal), Some(2));
    /// assert_eq!(TableSet::global_in(Metric::Mtm).distance(shape, &start, &goal), Some(1));
    /// ```
    pub fn global_in(metric: Metric) -> &'static TableSet {
        static STM: OnceLock<TableSet> = OnceLock::new();
        static MTM: OnceLock<TableSet> = OnceLock::new();
        match metric {
            Metric::Stm => STM.get_or_init(|| TableSet::new_in(Metric::Stm)),
            Metric::Mtm => MTM.get_or_init(|| TableSet::new_in(Metric::Mtm)),
        }
    }

    /// How the set's tables count moves.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// Whether this shape has tables: both sides at least 2 and at most
    /// [`TableSet::MAX_CELLS`] cells.
    pub fn covers(shape: Shape) -> bool {
        shape.rows >= 2 && shape.cols >= 2 && shape.cells() <= MAX_CELLS
    }

    /// The table for a shape and goal-blank cell, building it if needed;
    /// `None` for shapes without tables.
    pub fn table(&self, shape: Shape, blank: usize) -> Option<&DistanceTable> {
        let (_, slots) = self.shapes.iter().find(|(s, _)| *s == shape)?;
        let slot = slots.get(blank)?;
        Some(slot.get_or_init(|| DistanceTable::build_in(shape, blank, self.metric)))
    }

    /// Whether the table a query would need is already built.
    pub fn is_built(&self, shape: Shape, blank: usize) -> bool {
        self.shapes
            .iter()
            .find(|(s, _)| *s == shape)
            .and_then(|(_, slots)| slots.get(blank))
            .is_some_and(|s| s.get().is_some())
    }

    /// Answers one query: start and goal are tiles in reading order, both
    /// of `shape`. Relabels to the canonical goal, decides reachability from
    /// parity, ranks and looks up; allocates only for a path.
    pub fn query(&self, shape: Shape, start: &[u8], goal: &[u8], want_path: bool) -> Lookup {
        let Some(table) = goal
            .iter()
            .position(|&t| t == 0)
            .and_then(|b| self.table(shape, b))
        else {
            return Lookup::NoTable;
        };
        if !shape.can_reach(start, goal) {
            return Lookup::Unreachable;
        }
        let mut q = [0u8; 16];
        let q = &mut q[..start.len()];
        canonical(start, goal, q);
        let mut probes = 0;
        let moves = table.at(q);
        let path = want_path.then(|| table.walk(q, &mut probes));
        Lookup::Found {
            moves,
            path,
            probes,
        }
    }

    /// Fewest moves from `start` to `goal` (tiles in reading order, both
    /// of `shape`), or `None` when unreachable or the shape has no table.
    ///
    /// ```
    /// use npuzzle::Shape;
    /// use npuzzle::TableSet;
    ///
    /// let tables = TableSet::global();
    /// let shape = Shape::new(3, 3);
    /// let goal = [1, 2, 3, 8, 0, 4, 7, 6, 5];
    /// assert_eq!(tables.distance(shape, &[2, 8, 3, 1, 6, 4, 7, 0, 5], &goal), Some(5));
    /// // Two tiles swapped: the other parity class, unreachable.
    /// assert_eq!(tables.distance(shape, &[8, 2, 3, 1, 6, 4, 7, 0, 5], &goal), None);
    /// // 4x4 is beyond the tables.
    /// let big: Vec<u8> = (0..16).collect();
    /// assert_eq!(tables.distance(Shape::new(4, 4), &big, &big), None);
    /// ```
    pub fn distance(&self, shape: Shape, start: &[u8], goal: &[u8]) -> Option<u32> {
        match self.query(shape, start, goal, false) {
            Lookup::Found { moves, .. } => Some(moves),
            _ => None,
        }
    }

    /// Where `start` stands among all positions from which `goal` can be
    /// reached: its distance and how many need fewer moves, or `None` as
    /// for [`distance`].
    ///
    /// ```
    /// use npuzzle::Shape;
    /// use npuzzle::TableSet;
    ///
    /// let goal = [1, 2, 3, 4, 5, 6, 7, 8, 0];
    /// let s = TableSet::global()
    ///     .standing(Shape::new(3, 3), &[8, 6, 7, 2, 5, 4, 3, 0, 1], &goal)
    ///     .unwrap();
    /// // One of the two hardest 8-puzzle positions.
    /// assert_eq!((s.moves, s.max_moves, s.same), (31, 31, 2));
    /// assert_eq!(s.positions, 181_440);
    /// assert_eq!(s.fewer, 181_438);
    /// ```
    ///
    /// [`distance`]: TableSet::distance
    pub fn standing(&self, shape: Shape, start: &[u8], goal: &[u8]) -> Option<Standing> {
        let moves = self.distance(shape, start, goal)?;
        let blank = goal.iter().position(|&t| t == 0)?;
        Some(self.table(shape, blank)?.standing(moves))
    }

    /// An optimal path, or `None` as for [`distance`].
    ///
    /// [`distance`]: TableSet::distance
    pub fn path(&self, shape: Shape, start: &[u8], goal: &[u8]) -> Option<Vec<Dir>> {
        match self.query(shape, start, goal, true) {
            Lookup::Found { path, .. } => path,
            _ => None,
        }
    }
}

/// Where one position stands in its puzzle's distance distribution (from
/// one goal): [`TableSet::standing`].
///
/// ```
/// use npuzzle::{DistanceTable, Shape};
///
/// let table = DistanceTable::build(Shape::new(2, 3), 5);
/// let hardest = table.standing(21);
/// assert_eq!((hardest.positions, hardest.same, hardest.max_moves), (360, 1, 21));
/// assert_eq!(hardest.fewer, 359);
/// assert!(hardest.percent_fewer() > 99.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Standing {
    /// Fewest moves from the position to the goal.
    pub moves: u32,
    /// Every position from which the goal can be reached (half of all
    /// arrangements).
    pub positions: u64,
    /// Positions that need fewer moves.
    pub fewer: u64,
    /// Positions that need exactly as many (this one included).
    pub same: u64,
    /// Moves the hardest positions need.
    pub max_moves: u32,
}

impl Standing {
    /// The share of all positions that need fewer moves, in percent.
    pub fn percent_fewer(&self) -> f64 {
        100.0 * self.fewer as f64 / self.positions.max(1) as f64
    }
}

/// The answer of [`TableSet::query`].
///
/// ```
/// use npuzzle::{Lookup, Shape, TableSet};
///
/// let tables = TableSet::global();
/// let goal = [1, 2, 3, 8, 0, 4, 7, 6, 5];
/// let found = tables.query(Shape::new(3, 3), &[2, 8, 3, 1, 6, 4, 7, 0, 5], &goal, true);
/// assert!(matches!(found, Lookup::Found { moves: 5, path: Some(ref p), .. } if p.len() == 5));
/// // 4x4 is beyond the tables.
/// let big: Vec<u8> = (0..16).collect();
/// assert_eq!(tables.query(Shape::new(4, 4), &big, &big, false), Lookup::NoTable);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// The shape has no complete table.
    NoTable,
    /// The goal cannot be reached.
    Unreachable,
    /// Fewest moves, an optimal path when asked for, and the table entries
    /// read to walk it.
    Found {
        /// Fewest moves.
        moves: u32,
        /// An optimal path, when asked for.
        path: Option<Vec<Dir>>,
        /// Entries read while walking the path.
        probes: u64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diameters_match_the_literature() {
        // From data/distance_distributions.md (blank in a corner).
        for (r, c, diameter, count_at_max) in
            [(2, 2, 6, 1), (2, 3, 21, 1), (2, 4, 36, 1), (3, 3, 31, 2)]
        {
            let t = DistanceTable::build(Shape::new(r, c), 0);
            assert_eq!(t.max_distance(), diameter, "{r}x{c}");
            assert_eq!(*t.histogram().last().unwrap(), count_at_max);
            assert_eq!(t.histogram().iter().sum::<u64>() as usize, t.len());
        }
    }

    #[test]
    fn histogram_counts_the_table_and_standing_sums_it() {
        for (r, c, blank) in [(2, 3, 0), (2, 4, 5), (3, 3, 4)] {
            let t = DistanceTable::build(Shape::new(r, c), blank);
            let mut scan = vec![0u64; t.max_distance() as usize + 1];
            for &d in &t.dist {
                scan[usize::from(d)] += 1;
            }
            assert_eq!(t.histogram(), scan.as_slice(), "{r}x{c} blank {blank}");
            for d in 0..=t.max_distance() {
                let s = t.standing(d);
                let fewer = t.dist.iter().filter(|&&x| u32::from(x) < d).count() as u64;
                assert_eq!(
                    (s.fewer, s.same, s.positions),
                    (fewer, scan[d as usize], t.len() as u64)
                );
            }
        }
    }

    #[test]
    fn full_3x3_distribution() {
        let want = [
            1u64, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638,
            9529, 10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
        ];
        let t = DistanceTable::build(Shape::new(3, 3), 8);
        assert_eq!(t.histogram(), want);
        // blank in the centre: diameter 30 with 148 positions (OEIS A089474)
        let centre = DistanceTable::build(Shape::new(3, 3), 4);
        assert_eq!(centre.max_distance(), 30);
        assert_eq!(*centre.histogram().last().unwrap(), 148);
    }
}
