//! Breadth-first search, with three ways of remembering visited states:
//!
//! * [`Visited::Rank`] (the default on boards of at most 12 cells): a bit
//!   array indexed by the permutation's Lehmer (Cantor) rank, a perfect
//!   hash: one bit per permutation, 12!/8 bytes = 57 MiB at most;
//! * [`Visited::Hash`]: a hash set of the packed state (the default beyond
//!   12 cells; the `bfs-hash` algorithm on any board);
//! * [`Visited::Ordered`]: an ordered set (`BTreeSet`; the `bfs-set`
//!   algorithm).
//!
//! Every state found is kept in one array with a link to its parent and the
//! move that reached it; the array doubles as the FIFO queue, so the path
//! is read back from the goal's links. The goal is tested when a state is
//! generated, so the search stops one layer earlier than testing at
//! expansion would.

use super::forecast::{states_forecast, FORECAST_MARGIN, FORECAST_MIN};
use super::moves::{dir_code, dir_from_code, slide, undo_slide, Neighbours};
use super::states::{StateCost, StateSet};
use super::observe::{Fate, Observer, Quiet, Visit};
use super::{Limit, Problem, SearchError, Solution, SolveOptions, Solver, Stats};
use crate::board::Dir;
use crate::budget::{Clock, Interrupt, POLL_EVERY};
use crate::codec::{with_codec, Codec, WithCodec};
use crate::rank;
use std::collections::BTreeSet;

/// Rank bit arrays are used up to this many cells (12! bits = 57 MiB).
pub const RANK_MAX_CELLS: usize = 12;

/// How BFS remembers the states it has seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visited {
    /// Rank bit array where the board has at most 12 cells, else hash set.
    Auto,
    /// Bit array indexed by permutation rank (at most 12 cells).
    Rank,
    /// Hash set of the packed state.
    Hash,
    /// Ordered set (B-tree) of the packed state.
    Ordered,
}

impl Visited {
    /// The concrete choice for a board of `cells` cells.
    pub fn resolve(self, cells: usize) -> Visited {
        match self {
            Visited::Auto | Visited::Rank if cells <= RANK_MAX_CELLS => Visited::Rank,
            Visited::Auto | Visited::Rank => Visited::Hash,
            v => v,
        }
    }
}

/// The `bfs` solvers (`bfs`, `bfs-hash`, `bfs-set`).
#[derive(Clone, Copy, Debug)]
pub struct Bfs {
    /// How visited states are remembered.
    pub visited: Visited,
}

impl Bfs {
    /// `bfs`: a rank bit array where it fits, else a hash set.
    pub const AUTO: Bfs = Bfs {
        visited: Visited::Auto,
    };
    /// `bfs-hash`.
    pub const HASH: Bfs = Bfs {
        visited: Visited::Hash,
    };
    /// `bfs-set`.
    pub const ORDERED: Bfs = Bfs {
        visited: Visited::Ordered,
    };

    /// The algorithm name of this variant ([`Algorithm::name`]).
    ///
    /// [`Algorithm::name`]: super::Algorithm::name
    pub fn name_for(visited: Visited) -> &'static str {
        match visited {
            Visited::Auto | Visited::Rank => "bfs",
            Visited::Hash => "bfs-hash",
            Visited::Ordered => "bfs-set",
        }
    }
}

impl Solver for Bfs {
    fn name(&self) -> &'static str {
        Bfs::name_for(self.visited)
    }

    fn solve(&self, problem: &Problem, opts: &SolveOptions) -> Result<Solution, SearchError> {
        search(problem, opts, self.visited)
    }
}

/// A set of seen states.
trait Seen<K> {
    /// Adds a state; true when it was new.
    fn insert(&mut self, key: &K, tiles: &[u8]) -> bool;

    /// Bytes per entry (0: a fixed allocation, checked before it is made)
    /// and whether each entry holds its own copy of the key.
    fn entry_bytes(&self) -> (usize, bool);

    /// What the set holds now, in bytes, and what it is called.
    fn held(&self) -> (u64, &'static str);
}

struct RankBits(Vec<u64>);

impl<K> Seen<K> for RankBits {
    #[inline]
    fn insert(&mut self, _key: &K, tiles: &[u8]) -> bool {
        let r = rank::rank(tiles) as usize;
        let (w, b) = (r / 64, 1u64 << (r % 64));
        let new = self.0[w] & b == 0;
        self.0[w] |= b;
        new
    }

    fn entry_bytes(&self) -> (usize, bool) {
        (0, false)
    }

    fn held(&self) -> (u64, &'static str) {
        (self.0.capacity() as u64 * 8, "rank bit array")
    }
}

impl<K: std::hash::Hash + Eq + Clone> Seen<K> for StateSet<K> {
    #[inline]
    fn insert(&mut self, key: &K, _tiles: &[u8]) -> bool {
        StateSet::insert(self, key.clone())
    }

    fn entry_bytes(&self) -> (usize, bool) {
        (std::mem::size_of::<K>(), true)
    }

    fn held(&self) -> (u64, &'static str) {
        // a bucket (key and control byte) per slot, capacity being 7/8 of them
        let slot = std::mem::size_of::<K>() as u64 + 1;
        (self.capacity() as u64 * 8 / 7 * slot, "hash set")
    }
}

impl<K: Ord + Clone> Seen<K> for BTreeSet<K> {
    #[inline]
    fn insert(&mut self, key: &K, _tiles: &[u8]) -> bool {
        BTreeSet::insert(self, key.clone())
    }

    fn entry_bytes(&self) -> (usize, bool) {
        // B-tree nodes are at least half full, with a little overhead
        (2 * std::mem::size_of::<K>() + 8, true)
    }

    fn held(&self) -> (u64, &'static str) {
        // (as entry_bytes: its nodes are not exposed)
        let (entry, _) = Seen::<K>::entry_bytes(self);
        (self.len() as u64 * entry as u64, "ordered set")
    }
}

/// One state found: its key, the link to its parent, its blank and the move
/// (blank direction) that reached it.
struct Node<K> {
    key: K,
    parent: u32,
    blank: u8,
    dir: u8,
}

const ROOT: u32 = u32::MAX;

/// Runs BFS; with `opts.forecast = Some(d)` (the answer is known to be at
/// least `d`) it gives up early, with [`SearchError::Forecast`], when the
/// layer growth seen so far plainly needs more than the state budget to
/// reach `d`.
fn search(
    problem: &Problem,
    opts: &SolveOptions,
    visited: Visited,
) -> Result<Solution, SearchError> {
    search_observed(problem, opts, visited, &mut Quiet)
}

/// [`search`], telling `obs` each layer and each node expanded.
pub(crate) fn search_observed<O: Observer>(
    problem: &Problem,
    opts: &SolveOptions,
    visited: Visited,
    obs: &mut O,
) -> Result<Solution, SearchError> {
    struct Work<'a, O> {
        problem: &'a Problem,
        opts: &'a SolveOptions,
        visited: Visited,
        obs: &'a mut O,
    }
    impl<O: Observer> WithCodec for Work<'_, O> {
        type Output = Result<Solution, SearchError>;
        fn run<C: Codec>(self, codec: C) -> Self::Output {
            let n = self.problem.start().len();
            let name = Bfs::name_for(self.visited);
            match self.visited.resolve(n) {
                Visited::Rank => {
                    let words = (rank::FACT[n] as usize).div_ceil(64);
                    if let Err(i) = self.opts.budget.check_bytes(words as u64 * 8) {
                        let stats = Stats::default();
                        return Err(i.error(name, &self.opts.budget, 0, stats));
                    }
                    let bits = RankBits(vec![0u64; words]);
                    run(codec, bits, name, self.problem, self.opts, self.obs)
                }
                Visited::Ordered => run(
                    codec,
                    BTreeSet::<C::Key>::new(),
                    name,
                    self.problem,
                    self.opts,
                    self.obs,
                ),
                _ => run(
                    codec,
                    StateSet::<C::Key>::default(),
                    name,
                    self.problem,
                    self.opts,
                    self.obs,
                ),
            }
        }
    }
    with_codec(
        problem.start().len(),
        Work {
            problem,
            opts,
            visited,
            obs,
        },
    )
}

fn run<C: Codec, S: Seen<C::Key>, O: Observer>(
    codec: C,
    seen: S,
    name: &'static str,
    problem: &Problem,
    opts: &SolveOptions,
    obs: &mut O,
) -> Result<Solution, SearchError> {
    let mut bfs = Search::new(codec, seen, name, problem, opts, obs);
    let goal_key = bfs.codec.pack(problem.goal().tiles());
    if bfs.nodes[0].key == goal_key {
        bfs.obs.layer(0, 1, false);
        return Ok(bfs.found(Vec::new(), 1));
    }
    let start_key = bfs.nodes[0].key.clone();
    bfs.seen.insert(&start_key, &bfs.tiles);
    bfs.obs.layer(0, 1, true);
    let mut head = 0;
    while head < bfs.nodes.len() {
        if head == bfs.layer_end {
            bfs.next_layer()?;
        }
        if bfs.stats.expanded.is_multiple_of(POLL_EVERY) {
            if let Err(i) = bfs.clock.poll() {
                return Err(bfs.stopped(i));
            }
        }
        if let Some(sol) = bfs.expand(head, &goal_key)? {
            return Ok(sol);
        }
        head += 1;
    }
    // The queue ran dry: the goal is unreachable (callers rule this out by
    // parity first, so this only happens when called directly).
    bfs.tell_memory();
    let stats = bfs.stats.finish(bfs.nodes.len(), &bfs.clock);
    Ok(Solution::found(name, None, None, None, stats))
}

/// One breadth-first search: every state found, in one array that is also
/// the FIFO queue, and the visited set.
struct Search<'a, C: Codec, S, O> {
    codec: C,
    seen: S,
    obs: &'a mut O,
    name: &'static str,
    opts: &'a SolveOptions,
    clock: Clock<'a>,
    nb: Neighbours,
    cost: StateCost,
    stats: Stats,
    /// The board of the node being expanded.
    tiles: Vec<u8>,
    nodes: Vec<Node<C::Key>>,
    /// Where the layer being expanded ends in `nodes`, its depth, and the
    /// size of the layer before it (for the forecast).
    layer_end: usize,
    depth: u32,
    prev_layer: usize,
}

impl<'a, C: Codec, S: Seen<C::Key>, O: Observer> Search<'a, C, S, O> {
    fn new(
        codec: C,
        seen: S,
        name: &'static str,
        problem: &Problem,
        opts: &'a SolveOptions,
        obs: &'a mut O,
    ) -> Self {
        let shape = problem.start().shape();
        let tiles = problem.start().tiles().to_vec();
        let (entry, copy) = seen.entry_bytes();
        let cost = StateCost::new(
            std::mem::size_of::<Node<C::Key>>(),
            entry,
            codec.heap_bytes(shape.cells()),
            1 + usize::from(copy),
        );
        let nodes = vec![Node {
            key: codec.pack(&tiles),
            parent: ROOT,
            blank: problem.start().blank() as u8,
            dir: 0,
        }];
        Search {
            codec,
            seen,
            obs,
            name,
            opts,
            clock: Clock::new(&opts.budget),
            nb: Neighbours::new(shape),
            cost,
            stats: Stats::default(),
            tiles,
            nodes,
            layer_end: 1,
            depth: 0,
            prev_layer: 1,
        }
    }

    /// Layer `depth` is expanded; layer `depth + 1` is complete. Gives up
    /// when the layers' growth plainly needs more than the state budget to
    /// reach the forecast depth.
    fn next_layer(&mut self) -> Result<(), SearchError> {
        self.depth += 1;
        let (depth, held) = (self.depth, self.nodes.len());
        let layer = held - self.layer_end;
        let max_states = self.opts.budget.max_states;
        if let Some(d) = self.opts.forecast {
            if layer as f64 >= FORECAST_MIN && depth + 1 < d {
                // BFS holds every state closer than d before it finds the goal.
                let ratio = layer as f64 / self.prev_layer as f64;
                let need =
                    held as f64 + super::forecast::geometric(layer as f64, ratio, d - 1 - depth);
                if need > FORECAST_MARGIN * max_states as f64 {
                    let stats = self.stats.finish(held, &self.clock);
                    return Err(states_forecast(self.name, need, max_states, d, stats));
                }
            }
        }
        self.obs.layer(depth, layer as u64, true);
        self.prev_layer = layer.max(1);
        self.layer_end = held;
        Ok(())
    }

    /// Generates the children of node `head`; the answer when one of them
    /// is the goal.
    fn expand(&mut self, head: usize, goal_key: &C::Key) -> Result<Option<Solution>, SearchError> {
        let node = &self.nodes[head];
        let (key, blank, came) = (node.key.clone(), usize::from(node.blank), node.dir);
        let is_root = node.parent == ROOT;
        self.codec.unpack(&key, &mut self.tiles);
        let open = (self.nodes.len() - head - 1) as u64;
        self.obs.frontier(open, head as u64);
        let via = (!is_root).then(|| dir_from_code(came));
        let (tiles, g) = (&self.tiles, self.depth);
        self.obs.expanded(&Visit { tiles, g, h: None, via });
        self.stats.expanded += 1;
        let moves = self.nb.of(blank);
        for i in 0..usize::from(moves.len) {
            let dir = moves.dirs[i];
            if !is_root && dir == dir_from_code(came).opposite() {
                continue;
            }
            let to = usize::from(moves.cells[i]);
            self.stats.generated += 1;
            let tile = slide(&mut self.tiles, blank, to);
            let child = self.codec.slide(&key, &self.tiles, tile, to, blank);
            let fresh = self.seen.insert(&child, &self.tiles);
            if O::ACTIVE {
                let fate = if fresh { Fate::Queued } else { Fate::Duplicate };
                let (tiles, g) = (&self.tiles, self.depth + 1);
                let child = Visit { tiles, g, h: None, via: Some(dir) };
                self.obs.generated(&child, fate);
            }
            if fresh {
                if child == *goal_key {
                    let path = self.path_to(head, dir);
                    let held = self.nodes.len() + 1;
                    let reached = (held - self.layer_end) as u64;
                    self.obs.layer(self.depth + 1, reached, false);
                    return Ok(Some(self.found(path, held)));
                }
                self.push(child, head, to, dir)?;
            }
            undo_slide(&mut self.tiles, blank, to, tile);
        }
        Ok(None)
    }

    /// Keeps a new state, within the budget.
    #[inline]
    fn push(&mut self, key: C::Key, parent: usize, blank: usize, dir: Dir) -> Result<(), SearchError> {
        let held = self.nodes.len();
        let full = if held as u64 >= self.opts.budget.max_states.min(u64::from(u32::MAX - 1)) {
            Err(Interrupt::Limit(Limit::States))
        } else {
            self.cost.check(&self.opts.budget, held + 1)
        };
        if let Err(i) = full {
            return Err(self.stopped(i));
        }
        self.nodes.push(Node {
            key,
            parent: parent as u32,
            blank: blank as u8,
            dir: dir_code(dir),
        });
        Ok(())
    }

    /// The moves from the start to node `head`, then `last`.
    fn path_to(&self, head: usize, last: Dir) -> Vec<Dir> {
        let mut path = vec![last];
        let mut at = head as u32;
        while at != ROOT {
            let n = &self.nodes[at as usize];
            if n.parent != ROOT {
                path.push(dir_from_code(n.dir));
            }
            at = n.parent;
        }
        path.reverse();
        path
    }

    /// The answer `path`, with `held` states at the peak.
    fn found(&mut self, path: Vec<Dir>, held: usize) -> Solution {
        self.tell_memory();
        let stats = self.stats.finish(held, &self.clock);
        let moves = Some(path.len() as u32);
        let path = self.opts.want_path.then_some(path);
        Solution::found(self.name, None, moves, path, stats)
    }

    /// The error for a search stopped by `i`.
    fn stopped(&mut self, i: Interrupt) -> SearchError {
        let stats = self.stats.finish(self.nodes.len(), &self.clock);
        i.error(self.name, &self.opts.budget, self.depth, stats)
    }

    /// Tells the observer what the visited set and the array of states
    /// hold.
    fn tell_memory(&mut self) {
        let (visited, set) = self.seen.held();
        let nodes = (self.nodes.capacity() * std::mem::size_of::<Node<C::Key>>()) as u64;
        self.obs.memory(set, visited, nodes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Shape};

    #[test]
    fn visited_choice() {
        assert_eq!(Visited::Auto.resolve(12), Visited::Rank);
        assert_eq!(Visited::Auto.resolve(16), Visited::Hash);
        assert_eq!(Visited::Rank.resolve(20), Visited::Hash);
        assert_eq!(Visited::Ordered.resolve(9), Visited::Ordered);
    }

    #[test]
    fn the_three_visited_sets_search_identically() {
        let shape = Shape::new(3, 3);
        let start = Board::from_tiles(3, 3, &[8, 6, 7, 2, 5, 4, 3, 0, 1]).unwrap();
        let p = Problem::new(start, Board::blank_last(shape).unwrap()).unwrap();
        let opts = SolveOptions::default().with_path(true);
        let runs: Vec<Solution> = [Visited::Rank, Visited::Hash, Visited::Ordered]
            .into_iter()
            .map(|v| search(&p, &opts, v).unwrap())
            .collect();
        assert_eq!(runs[0].moves, Some(31)); // one of the two hardest 8-puzzles
        for r in &runs[1..] {
            assert_eq!(r.moves, runs[0].moves);
            assert_eq!(r.path, runs[0].path);
            assert_eq!(r.stats.expanded, runs[0].stats.expanded);
            assert_eq!(r.stats.generated, runs[0].stats.generated);
            assert_eq!(r.stats.peak_states, runs[0].stats.peak_states);
        }
    }
}
