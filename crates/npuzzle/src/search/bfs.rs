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
}

impl<K: std::hash::Hash + Eq + Clone> Seen<K> for StateSet<K> {
    #[inline]
    fn insert(&mut self, key: &K, _tiles: &[u8]) -> bool {
        StateSet::insert(self, key.clone())
    }

    fn entry_bytes(&self) -> (usize, bool) {
        (std::mem::size_of::<K>(), true)
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
    struct Work<'a> {
        problem: &'a Problem,
        opts: &'a SolveOptions,
        visited: Visited,
    }
    impl WithCodec for Work<'_> {
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
                    run(codec, bits, name, self.problem, self.opts)
                }
                Visited::Ordered => run(
                    codec,
                    BTreeSet::<C::Key>::new(),
                    name,
                    self.problem,
                    self.opts,
                ),
                _ => run(
                    codec,
                    StateSet::<C::Key>::default(),
                    name,
                    self.problem,
                    self.opts,
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
        },
    )
}

fn run<C: Codec, S: Seen<C::Key>>(
    codec: C,
    mut seen: S,
    name: &'static str,
    problem: &Problem,
    opts: &SolveOptions,
) -> Result<Solution, SearchError> {
    let forecast = opts.forecast;
    let clock = Clock::new(&opts.budget);
    let max_states = opts.budget.max_states;
    let shape = problem.start().shape();
    let nb = Neighbours::new(shape);
    let mut tiles = problem.start().tiles().to_vec();
    let goal_key = codec.pack(problem.goal().tiles());
    let start_key = codec.pack(&tiles);
    let mut stats = Stats::default();
    let (entry, copy) = seen.entry_bytes();
    let cost = StateCost::new(
        std::mem::size_of::<Node<C::Key>>(),
        entry,
        codec.heap_bytes(shape.cells()),
        1 + usize::from(copy),
    );
    let done = |path: Vec<Dir>, stats: Stats| {
        let moves = Some(path.len() as u32);
        Solution::found(name, None, moves, opts.want_path.then_some(path), stats)
    };
    if start_key == goal_key {
        stats.peak_states = 1;
        stats.elapsed = clock.start.elapsed();
        return Ok(done(Vec::new(), stats));
    }
    seen.insert(&start_key, &tiles);
    let mut nodes: Vec<Node<C::Key>> = vec![Node {
        key: start_key,
        parent: ROOT,
        blank: problem.start().blank() as u8,
        dir: 0,
    }];
    let (mut head, mut layer_end, mut depth) = (0usize, 1usize, 0u32);
    let mut prev_layer = 1usize;
    while head < nodes.len() {
        if head == layer_end {
            // Layer `depth` is expanded; layer `depth + 1` is complete.
            depth += 1;
            let layer = nodes.len() - layer_end;
            if let Some(d) = forecast {
                if layer as f64 >= FORECAST_MIN && depth + 1 < d {
                    // BFS holds every state closer than d before it finds the goal.
                    let ratio = layer as f64 / prev_layer as f64;
                    let need = nodes.len() as f64
                        + super::forecast::geometric(layer as f64, ratio, d - 1 - depth);
                    if need > FORECAST_MARGIN * max_states as f64 {
                        stats.peak_states = nodes.len() as u64;
                        stats.elapsed = clock.start.elapsed();
                        return Err(states_forecast(name, need, max_states, d, stats));
                    }
                }
            }
            prev_layer = layer.max(1);
            layer_end = nodes.len();
        }
        if stats.expanded.is_multiple_of(POLL_EVERY) {
            if let Err(i) = clock.poll() {
                stats.peak_states = nodes.len() as u64;
                stats.elapsed = clock.start.elapsed();
                return Err(i.error(name, &opts.budget, depth, stats));
            }
        }
        let node = &nodes[head];
        let (key, blank, came) = (node.key.clone(), usize::from(node.blank), node.dir);
        let is_root = node.parent == ROOT;
        codec.unpack(&key, &mut tiles);
        stats.expanded += 1;
        let moves = nb.of(blank);
        for i in 0..usize::from(moves.len) {
            let dir = moves.dirs[i];
            if !is_root && dir == dir_from_code(came).opposite() {
                continue;
            }
            let to = usize::from(moves.cells[i]);
            stats.generated += 1;
            let tile = slide(&mut tiles, blank, to);
            let child = codec.slide(&key, &tiles, tile, to, blank);
            if seen.insert(&child, &tiles) {
                if child == goal_key {
                    let mut path = vec![dir];
                    let mut at = head as u32;
                    while at != ROOT {
                        let n = &nodes[at as usize];
                        if n.parent != ROOT {
                            path.push(dir_from_code(n.dir));
                        }
                        at = n.parent;
                    }
                    path.reverse();
                    stats.peak_states = nodes.len() as u64 + 1;
                    stats.elapsed = clock.start.elapsed();
                    return Ok(done(path, stats));
                }
                let full = if nodes.len() as u64 >= max_states.min(u64::from(u32::MAX - 1)) {
                    Err(Interrupt::Limit(Limit::States))
                } else {
                    cost.check(&opts.budget, nodes.len() + 1)
                };
                if let Err(i) = full {
                    stats.peak_states = nodes.len() as u64;
                    stats.elapsed = clock.start.elapsed();
                    return Err(i.error(name, &opts.budget, depth, stats));
                }
                nodes.push(Node {
                    key: child,
                    parent: head as u32,
                    blank: to as u8,
                    dir: dir_code(dir),
                });
            }
            undo_slide(&mut tiles, blank, to, tile);
        }
        head += 1;
    }
    // The queue ran dry: the goal is unreachable (callers rule this out by
    // parity first, so this only happens when called directly).
    stats.peak_states = nodes.len() as u64;
    stats.elapsed = clock.start.elapsed();
    Ok(Solution::found(name, None, None, None, stats))
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
