//! A*: best-first search on `f = g + h` with a binary heap (the open list)
//! and a hash map from state to node (the closed set and best `g` so far);
//! and weighted A* (`wastar`), the same on `f = g + W·h`.
//!
//! **Weighted A*.** With an admissible `h`, the first goal popped is at
//! most `W` times the fewest moves: every node on an optimal path `P`
//! waits in the open list with `g + W·h ≤ W·(g + h) ≤ W·|P|`, so the goal,
//! popped first at `g`, has `g ≤ W·|P|`. That holds without reopening closed
//! states, which weighted A* therefore never does (it is what makes it
//! fast); the answer reports the lower bound `max(h(start), ⌈g/W⌉)`.
//!
//! **Greedy best-first** (`greedy`), a teaching contrast: the same search
//! ordered by `h` alone (the limit of an infinite weight), so it heads
//! straight for the goal the heuristic points at and promises nothing of
//! the length; its answer is marked not optimal, with `h(start)` as its
//! lower bound.
//!
//! Ties on `f` go to the deeper node (larger `g`): among equally promising
//! nodes the one nearest the goal by the heuristic comes first, which
//! usually finds the goal early in the last `f` layer. Stale heap entries
//! (a state reached again more cheaply) are skipped when popped; a closed
//! state reached more cheaply is reopened, so the answer stays optimal even
//! for a heuristic that is admissible but not consistent. The goal is
//! tested when a node is popped, which is what makes the first answer
//! optimal.

use super::forecast::{states_forecast, FORECAST_MARGIN, FORECAST_MIN};
use super::moves::{dir_code, dir_from_code, slide, undo_slide, Neighbours};
use super::states::{StateCost, StateMap};
use super::observe::{Fate, Observer, Quiet, Visit};
use super::{Limit, Problem, SearchError, Solution, SolveOptions, Solver, Stats};
use crate::board::Dir;
use crate::budget::{Clock, Interrupt, POLL_EVERY};
use crate::codec::{with_codec, Codec, WithCodec};
use crate::heuristic::{with_heuristic, Heuristic, TableHooks, WithHeuristic};
use std::collections::hash_map::Entry;
use std::collections::BinaryHeap;

const NAME: &str = "astar";
const WEIGHTED: &str = "wastar";
const GREEDY: &str = "greedy";
const ROOT: u32 = u32::MAX;
/// `g` is kept in 16 bits: paths of at most this many moves.
const MAX_F: u32 = 0xFFFF;

/// The `astar` solver.
#[derive(Clone, Copy, Debug, Default)]
pub struct Astar;

impl Solver for Astar {
    fn name(&self) -> &'static str {
        NAME
    }

    fn solve(&self, problem: &Problem, opts: &SolveOptions) -> Result<Solution, SearchError> {
        search(problem, opts, Weight::ONE)
    }
}

/// The `wastar` solver: weighted A* with `opts.weight`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Wastar;

impl Solver for Wastar {
    fn name(&self) -> &'static str {
        WEIGHTED
    }

    fn solve(&self, problem: &Problem, opts: &SolveOptions) -> Result<Solution, SearchError> {
        search(problem, opts, Weight::new(opts.weight))
    }
}

/// The `greedy` solver: best-first on `h` alone.
#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy;

impl Solver for Greedy {
    fn name(&self) -> &'static str {
        GREEDY
    }

    fn solve(&self, problem: &Problem, opts: &SolveOptions) -> Result<Solution, SearchError> {
        search(problem, opts, Weight::GREEDY)
    }
}

/// A weight `W = num / den` on the heuristic, kept as integers so that
/// `f·den = g·den + h·num` orders the open list exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Weight {
    num: u32,
    den: u32,
}

impl Weight {
    /// Plain A*.
    pub(crate) const ONE: Weight = Weight { num: 1, den: 1 };
    /// Greedy best-first: `g` counts for nothing.
    pub(crate) const GREEDY: Weight = Weight { num: 1, den: 0 };

    /// `w` to the nearest hundredth (at least 1, at most 100).
    pub(crate) fn new(w: f64) -> Weight {
        let num = (w.clamp(1.0, 100.0) * 100.0).round() as u32;
        if num == 100 {
            Weight::ONE
        } else {
            Weight { num, den: 100 }
        }
    }

    fn exact(self) -> bool {
        self.num == self.den
    }

    /// `den·g + num·h`.
    #[inline]
    fn f(self, g: u32, h: u32) -> u32 {
        self.den * g + self.num * h
    }

    /// The `h` of an entry of priority `f` at depth `g`.
    #[inline]
    fn h(self, f: u32, g: u32) -> u32 {
        (f - self.den * g) / self.num
    }

    /// The algorithm's name.
    fn name(self) -> &'static str {
        match (self.exact(), self.den) {
            (true, _) => NAME,
            (false, 0) => GREEDY,
            (false, _) => WEIGHTED,
        }
    }

    /// The smallest length `g` may be `W` times: `⌈g/W⌉`.
    fn lower(self, g: u32) -> u32 {
        (u64::from(g) * u64::from(self.den)).div_ceil(u64::from(self.num)) as u32
    }
}

struct Node<K> {
    key: K,
    parent: u32,
    /// At most [`MAX_F`].
    g: u16,
    blank: u8,
    /// Bits 0–1: the move that reached it ([`dir_code`]); bit 2: [`CLOSED`].
    flags: u8,
}

/// Node flag: expanded (in the closed set).
const CLOSED: u8 = 4;

/// Heap entry: larger is popped first, so `f` (scaled by the weight's
/// denominator) is stored inverted, then `g` (deeper first), then the node
/// index.
#[inline]
fn entry(f: u32, g: u32, idx: u32) -> u128 {
    (u128::from(u32::MAX - f) << 48) | (u128::from(g) << 32) | u128::from(idx)
}

#[inline]
fn unentry(e: u128) -> (u32, u32, u32) {
    (
        u32::MAX - (e >> 48) as u32,
        ((e >> 32) & 0xFFFF) as u32,
        e as u32,
    )
}

/// Runs A* with `opts.heuristic`; with `opts.forecast = Some(d)` gives up
/// early when the growth of the `f` layers so far plainly needs more than
/// the state budget to reach `f = d`.
pub(crate) fn search(
    problem: &Problem,
    opts: &SolveOptions,
    weight: Weight,
) -> Result<Solution, SearchError> {
    search_observed(problem, opts, weight, &mut Quiet)
}

/// (Weighted) A* with a heuristic already built.
pub(crate) fn search_with<H: Heuristic>(
    h: &H,
    problem: &Problem,
    opts: &SolveOptions,
    weight: Weight,
) -> Result<Solution, SearchError> {
    search_with_observer(h, problem, opts, weight, &mut Quiet)
}

/// [`search`], telling `obs` each node expanded.
pub(crate) fn search_observed<O: Observer>(
    problem: &Problem,
    opts: &SolveOptions,
    weight: Weight,
    obs: &mut O,
) -> Result<Solution, SearchError> {
    struct HWork<'a, O> {
        problem: &'a Problem,
        opts: &'a SolveOptions,
        weight: Weight,
        obs: &'a mut O,
    }
    impl<O: Observer> WithHeuristic for HWork<'_, O> {
        type Output = Result<Solution, SearchError>;
        fn run<H: TableHooks>(self, h: &H) -> Self::Output {
            search_with_observer(h, self.problem, self.opts, self.weight, self.obs)
        }
    }
    with_heuristic(
        opts.heuristic,
        problem.goal(),
        &opts.pdb,
        &opts.budget,
        HWork {
            problem,
            opts,
            weight,
            obs,
        },
    )?
}

fn search_with_observer<H: Heuristic, O: Observer>(
    h: &H,
    problem: &Problem,
    opts: &SolveOptions,
    weight: Weight,
    obs: &mut O,
) -> Result<Solution, SearchError> {
    struct CWork<'a, H, O> {
        h: &'a H,
        problem: &'a Problem,
        opts: &'a SolveOptions,
        weight: Weight,
        obs: &'a mut O,
    }
    impl<H: Heuristic, O: Observer> WithCodec for CWork<'_, H, O> {
        type Output = Result<Solution, SearchError>;
        fn run<C: Codec>(self, codec: C) -> Self::Output {
            run(codec, self.h, self.problem, self.opts, self.weight, self.obs)
        }
    }
    with_codec(
        problem.start().len(),
        CWork {
            h,
            problem,
            opts,
            weight,
            obs,
        },
    )
}

fn run<C: Codec, H: Heuristic, O: Observer>(
    codec: C,
    h: &H,
    problem: &Problem,
    opts: &SolveOptions,
    weight: Weight,
    obs: &mut O,
) -> Result<Solution, SearchError> {
    let mut s = Search::new(codec, h, problem, opts, weight, obs)?;
    let goal_key = s.codec.pack(problem.goal().tiles());
    while let Some(e) = s.open.pop() {
        let (raw, g, idx) = unentry(e);
        let h_node = weight.h(raw, g);
        // (plain A*'s f is g + h and its layers; weighted A*'s says nothing
        // of the depth)
        let f = if weight.exact() { raw } else { s.level };
        let node = &s.nodes[idx as usize];
        if u32::from(node.g) != g || node.flags & CLOSED != 0 {
            continue; // stale entry
        }
        let via = (node.parent != ROOT).then(|| dir_from_code(node.flags));
        if f > s.level {
            s.enter_layer(f)?;
        }
        if s.nodes[idx as usize].key == goal_key {
            s.obs.frontier(s.open.len() as u64, s.stats.expanded);
            let tiles = problem.goal().tiles();
            s.obs.expanded(&Visit { tiles, g, h: Some(0), via });
            return Ok(s.found(idx, g));
        }
        s.expand(idx, g, h_node)?;
    }
    let stats = s.stats.finish(s.nodes.len(), &s.clock);
    Ok(Solution::found(s.name, Some(h.name()), None, None, stats))
}

/// One A* search: the nodes reached (each once, by its best `g` so far),
/// their index by state, and the open heap.
struct Search<'a, C: Codec, H, O> {
    codec: C,
    h: &'a H,
    obs: &'a mut O,
    opts: &'a SolveOptions,
    weight: Weight,
    name: &'static str,
    /// Forecasts rest on f layers, which only plain A* has.
    forecast: Option<u32>,
    clock: Clock<'a>,
    max_states: u64,
    nb: Neighbours,
    cost: StateCost,
    stats: Stats,
    h0: u32,
    /// The board of the node being expanded.
    tiles: Vec<u8>,
    nodes: Vec<Node<C::Key>>,
    index: StateMap<C::Key, u32>,
    open: BinaryHeap<u128>,
    /// The f layer reached, and the states held when its first node was
    /// popped. For weighted A* the level reported in a budget error is
    /// h(start), a lower bound (its f says nothing about the depth
    /// searched).
    level: u32,
    level_size: usize,
}

impl<'a, C: Codec, H: Heuristic, O: Observer> Search<'a, C, H, O> {
    /// The search with the start alone in the open list.
    fn new(
        codec: C,
        h: &'a H,
        problem: &Problem,
        opts: &'a SolveOptions,
        weight: Weight,
        obs: &'a mut O,
    ) -> Result<Self, SearchError> {
        let name = weight.name();
        // A node, its entry in the index, and heap entries (a state can be
        // queued again when reached more cheaply: counted twice).
        let cost = StateCost::new(
            std::mem::size_of::<Node<C::Key>>() + 2 * std::mem::size_of::<u64>(),
            std::mem::size_of::<(C::Key, u32)>(),
            codec.heap_bytes(problem.start().len()),
            2,
        );
        let tiles = problem.start().tiles().to_vec();
        let start_key = codec.pack(&tiles);
        let h0 = h.estimate(&tiles);
        if h0 > MAX_F {
            return Err(SearchError::NotApplicable {
                algorithm: name,
                shape: problem.shape(),
                reason: format!(
                    "the estimate {h0} is beyond the longest path A* can queue ({MAX_F} moves)"
                ),
            });
        }
        let nodes = vec![Node {
            key: start_key.clone(),
            parent: ROOT,
            g: 0,
            blank: problem.start().blank() as u8,
            flags: 0,
        }];
        let mut index: StateMap<C::Key, u32> = StateMap::default();
        index.insert(start_key, 0);
        let mut open = BinaryHeap::new();
        open.push(entry(weight.f(0, h0), 0, 0));
        Ok(Search {
            codec,
            h,
            obs,
            opts,
            weight,
            name,
            forecast: opts.forecast.filter(|_| weight.exact()),
            clock: Clock::new(&opts.budget),
            max_states: opts.budget.max_states.min(u64::from(u32::MAX - 1)),
            nb: Neighbours::new(problem.start().shape()),
            cost,
            stats: Stats::default(),
            h0,
            tiles,
            nodes,
            index,
            open,
            level: h0,
            level_size: 1,
        })
    }

    /// A node of a higher f than any before was popped: a new layer. Gives
    /// up when the growth of the layers so far plainly needs more than the
    /// state budget to reach the forecast depth.
    fn enter_layer(&mut self, f: u32) -> Result<(), SearchError> {
        let (prev_level, prev_size) = (self.level, self.level_size);
        (self.level, self.level_size) = (f, self.nodes.len());
        if let (Some(d), true) = (self.forecast, prev_size as f64 >= FORECAST_MIN) {
            if self.level < d {
                let per_f = (self.level_size as f64 / prev_size as f64)
                    .powf(1.0 / f64::from(self.level - prev_level));
                let need = self.level_size as f64 * per_f.powf(f64::from(d - self.level));
                if need > FORECAST_MARGIN * self.max_states as f64 {
                    let stats = self.stats.finish(self.nodes.len(), &self.clock);
                    return Err(states_forecast(self.name, need, self.max_states, d, stats));
                }
            }
        }
        Ok(())
    }

    /// The answer once node `idx`, the goal, was popped at depth `g`.
    fn found(&mut self, idx: u32, g: u32) -> Solution {
        let mut path = Vec::with_capacity(g as usize);
        let mut at = idx;
        while self.nodes[at as usize].parent != ROOT {
            path.push(dir_from_code(self.nodes[at as usize].flags));
            at = self.nodes[at as usize].parent;
        }
        path.reverse();
        let stats = self.stats.finish(self.nodes.len(), &self.clock);
        let path = self.opts.want_path.then_some(path);
        if !self.weight.exact() {
            let lower = self.h0.max(self.weight.lower(g));
            return Solution::bounded(self.name, Some(self.h.name()), g, path, stats, lower);
        }
        Solution::found(self.name, Some(self.h.name()), Some(g), path, stats)
    }

    /// Closes node `idx` (popped at depth `g`, with estimate `est`) and
    /// offers each child.
    fn expand(&mut self, idx: u32, g: u32, est: u32) -> Result<(), SearchError> {
        let node = &mut self.nodes[idx as usize];
        node.flags |= CLOSED;
        let (key, blank, came, is_root) = (
            node.key.clone(),
            usize::from(node.blank),
            dir_from_code(node.flags),
            node.parent == ROOT,
        );
        if self.stats.expanded.is_multiple_of(POLL_EVERY) {
            if let Err(i) = self.clock.poll() {
                return Err(self.stopped(i));
            }
        }
        self.stats.expanded += 1;
        self.codec.unpack(&key, &mut self.tiles);
        self.obs.frontier(self.open.len() as u64, self.stats.expanded - 1);
        let via = (!is_root).then_some(came);
        self.obs.expanded(&Visit { tiles: &self.tiles, g, h: Some(est), via });
        let hs = self.h.init(&self.tiles);
        let moves = self.nb.of(blank);
        for m in 0..usize::from(moves.len) {
            let dir: Dir = moves.dirs[m];
            if !is_root && dir == came.opposite() {
                continue;
            }
            let to = usize::from(moves.cells[m]);
            self.stats.generated += 1;
            let tile = slide(&mut self.tiles, blank, to);
            let child = self.codec.slide(&key, &self.tiles, tile, to, blank);
            let g2 = g + 1;
            let h2 = self.h.value(&self.h.update(&hs, &self.tiles, tile, to, blank));
            // (beyond MAX_F: cannot be on an answer A* could queue)
            let fate = if g2 + h2 > MAX_F {
                Fate::Pruned
            } else {
                self.offer(child, idx, g2, self.weight.f(g2, h2), dir, to)?
            };
            let tiles = &self.tiles;
            self.obs.generated(&Visit { tiles, g: g2, h: Some(h2), via: Some(dir) }, fate);
            undo_slide(&mut self.tiles, blank, to, tile);
        }
        Ok(())
    }

    /// A child reached from `parent`: queued if new, or if reached more
    /// cheaply than before (reopened when closed, for plain A* only).
    #[inline]
    fn offer(
        &mut self,
        child: C::Key,
        parent: u32,
        g2: u32,
        f2: u32,
        dir: Dir,
        to: usize,
    ) -> Result<Fate, SearchError> {
        match self.index.entry(child) {
            Entry::Occupied(o) => {
                let j = *o.get();
                let n = &mut self.nodes[j as usize];
                // Weighted A* keeps its bound without reopening.
                let reopen = self.weight.exact() || n.flags & CLOSED == 0;
                if u32::from(n.g) > g2 && reopen {
                    n.g = g2 as u16;
                    n.parent = parent;
                    n.flags = dir_code(dir); // and reopened

                    self.open.push(entry(f2, g2, j));
                    return Ok(Fate::Queued);
                }
                Ok(Fate::Duplicate)
            }
            Entry::Vacant(v) => {
                let held = self.nodes.len();
                let full = if held as u64 >= self.max_states {
                    Err(Interrupt::Limit(Limit::States))
                } else {
                    self.cost.check(&self.opts.budget, held + 1)
                };
                if let Err(i) = full {
                    let stats = self.stats.finish(held, &self.clock);
                    return Err(i.error(self.name, &self.opts.budget, self.level, stats));
                }
                let j = held as u32;
                self.nodes.push(Node {
                    key: v.key().clone(),
                    parent,
                    g: g2 as u16,
                    blank: to as u8,
                    flags: dir_code(dir),
                });
                v.insert(j);
                self.open.push(entry(f2, g2, j));
                Ok(Fate::Queued)
            }
        }
    }

    /// The error for a search stopped by `i`.
    fn stopped(&mut self, i: Interrupt) -> SearchError {
        let stats = self.stats.finish(self.nodes.len(), &self.clock);
        i.error(self.name, &self.opts.budget, self.level, stats)
    }
}



#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_order_is_lowest_f_then_deepest() {
        let mut h = BinaryHeap::new();
        for (f, g, i) in [(10, 2, 0), (8, 1, 1), (8, 5, 2), (12, 0, 3), (8, 3, 4)] {
            h.push(entry(f, g, i));
            assert_eq!(unentry(entry(f, g, i)), (f, g, i));
        }
        let order: Vec<u32> = std::iter::from_fn(|| h.pop().map(|e| unentry(e).2)).collect();
        assert_eq!(order, [2, 4, 1, 0, 3]);
    }
}
