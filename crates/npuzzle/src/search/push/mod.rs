//! IDA* in pushes: in the multi-tile metric a move pushes one to
//! `side − 1` tiles of the blank's row or column at once, and costs one.
//! The same search in the single-tile metric (a push of one tile, and no
//! move straight back) lists every optimal solution when all are asked for
//! ([`all_solutions`]); the fast single-tile IDA* of [`super::ida`] prunes
//! with an automaton that keeps one of each set of equivalent move strings,
//! which is right for one answer and wrong for all of them.
//!
//! **The graph.** From each position the blank may go any distance along
//! its row or its column. Two pushes in a row along one line are never
//! needed: pushes the same way merge into one, and opposite ones leave one
//! push or none. So after a horizontal push only vertical ones are tried and
//! the other way round, which cuts the branching factor to `rows − 1` or
//! `cols − 1` and drops no shortest path (nor any of them, when all are
//! wanted). Unlike the single-tile graph this one is not bipartite, so the
//! bounds rise one at a time, not by two.
//!
//! **The estimate** is the largest of these lower bounds, each admissible
//! in this metric:
//! * the walking distance counted in pushes ([`WalkingDistance`], on boards
//!   whose sides are at most 5), else the Manhattan distance split by axis: a horizontal push moves at most
//!   `cols − 1` tiles one column each and no tile between rows, so at least
//!   `⌈H / (cols − 1)⌉` horizontal pushes remain, where `H` is the tiles'
//!   summed column distances; likewise `⌈V / (rows − 1)⌉` vertical ones;
//! * with `--heuristic pdb`, the colour pattern databases
//!   ([`ColourHeuristic`]): the whole board in a few colours, distances
//!   found in pushes, so whole values (the single-tile databases are not
//!   used here: summed they overestimate, and divided they are weak);
//! * otherwise a single-tile heuristic `h` divided by the most tiles one
//!   push moves: a path of `m` pushes is a single-tile path of at most
//!   `m · (side − 1)` moves, so `⌈h / (side − 1)⌉` never overestimates.
//!
//! A push is the blank's single steps ([`slide`]) taken one after another,
//! each updating both estimates incrementally, and undone in reverse.

use super::moves::{slide, undo_slide};
use super::{IterationSummary, Limit, Problem, SearchError, Solution, SolveOptions, Solver, Stats};
use crate::board::{Board, Dir, Shape};
use std::time::Instant;
use crate::budget::{Clock, Interrupt, POLL_EVERY};
use crate::board::Metric;
use crate::heuristic::pdb::colour::{ColourHeuristic, ColourRanks, ColourWords};

mod split;
use crate::heuristic::{
    with_heuristic, Heuristic, HeuristicKind, TableHooks, WalkingDistance, WithHeuristic,
};

const NAME: &str = "idastar";

/// The multi-tile `idastar` solver.
#[derive(Clone, Copy, Debug, Default)]
pub struct MtmIdastar;

impl Solver for MtmIdastar {
    fn name(&self) -> &'static str {
        NAME
    }

    fn solve(&self, problem: &Problem, opts: &SolveOptions) -> Result<Solution, SearchError> {
        let found = search(problem, opts, None)?;
        let stats = found.stats;
        let h = Some(found.heuristic);
        let Some(moves) = found.moves else {
            return Ok(Solution::found(NAME, h, None, None, stats).with_iterations(found.iterations));
        };
        let path = opts.want_path.then(|| found.paths.into_iter().next().unwrap_or_default());
        Ok(Solution::found(NAME, h, Some(moves), path, stats).with_iterations(found.iterations))
    }
}

/// The fewest moves from `problem.start()` to any board that matches
/// `problem.goal()` on the cells of `mask` (a partial goal, completed to a
/// reachable whole one), estimated by the placed tiles' Manhattan distance
/// alone (divided by axis in pushes), the only estimate here that does not
/// count the free tiles.
pub(crate) fn search_partial(
    problem: &Problem,
    opts: &SolveOptions,
    mask: Vec<bool>,
) -> Result<Found, SearchError> {
    run(&super::idastar::Blind, problem, opts, None, Some(mask), None)
}

/// What a search in pushes found: the fewest moves, and the optimal paths
/// (one, or up to a cap when all are asked for, with their exact count).
pub(crate) struct Found {
    pub moves: Option<u32>,
    pub paths: Vec<Vec<Dir>>,
    pub count: u64,
    pub heuristic: &'static str,
    pub stats: Stats,
    /// Each iteration's bound and the nodes it expanded.
    pub iterations: Vec<IterationSummary>,
}

/// Searches in `opts.metric`, with the heuristic `opts.heuristic`; with
/// `all = Some(cap)`, finishes the last iteration, counting every optimal
/// path and keeping the first `cap`.
pub(crate) fn search(
    problem: &Problem,
    opts: &SolveOptions,
    all: Option<usize>,
) -> Result<Found, SearchError> {
    struct Work<'a> {
        problem: &'a Problem,
        opts: &'a SolveOptions,
        all: Option<usize>,
    }
    impl WithHeuristic for Work<'_> {
        type Output = Result<Found, SearchError>;
        fn run<H: TableHooks>(self, h: &H) -> Self::Output {
            run(h, self.problem, self.opts, self.all, None, None)
        }
    }
    if opts.metric == Metric::Mtm && opts.heuristic == HeuristicKind::Pdb {
        // In pushes the databases are the colour ones, whole values maxed
        // with the walking distance (nothing to divide).
        let colour = ColourHeuristic::load(problem.goal(), opts.metric, &opts.pdb, &opts.budget)?;
        if opts.threads > 1 && all.is_none() {
            return split::run(&super::idastar::Blind, problem, opts, &colour);
        }
        return run(&super::idastar::Blind, problem, opts, all, None, Some(&colour));
    }
    // Whole values: the one-bit databases are read by a walk that
    // single-tile IDA* alone keeps.
    let pdb = opts.pdb.clone().with_whole_values(true);
    let work = Work { problem, opts, all };
    with_heuristic(opts.heuristic, problem.goal(), &pdb, &opts.budget, work)?
}

/// The Manhattan distance split by axis: each tile's columns and rows from
/// home, summed apart.
#[derive(Clone, Debug)]
pub(crate) struct SplitManhattan {
    /// `cols[tile][cell]`, `rows[tile][cell]`: a tile's column and row
    /// distances from its goal cell (0 for the blank).
    cols: Vec<[u8; 256]>,
    rows: Vec<[u8; 256]>,
    /// Most tiles a horizontal and a vertical push move.
    across: u32,
    down: u32,
}

impl SplitManhattan {
    /// Toward `goal`, in pushes.
    pub(crate) fn new(goal: &Board) -> SplitManhattan {
        SplitManhattan::counting(goal, Metric::Mtm, &|_| true)
    }

    /// Toward `goal` in `metric` (in single moves the two sums are simply
    /// the Manhattan distance), counting only the tiles `counted` says.
    pub(crate) fn counting(goal: &Board, metric: Metric, counted: &dyn Fn(u8) -> bool) -> SplitManhattan {
        let shape = goal.shape();
        let n = shape.cells();
        let pos = goal.positions();
        let mut cols = vec![[0u8; 256]; n];
        let mut rows = vec![[0u8; 256]; n];
        for tile in (1..n).filter(|&t| counted(t as u8)) {
            let g = usize::from(pos[tile]);
            for cell in 0..n {
                cols[tile][cell] = (g % shape.cols).abs_diff(cell % shape.cols) as u8;
                rows[tile][cell] = (g / shape.cols).abs_diff(cell / shape.cols) as u8;
            }
        }
        let per = |side: usize| if metric == Metric::Mtm { side - 1 } else { 1 } as u32;
        SplitManhattan {
            cols,
            rows,
            across: per(shape.cols),
            down: per(shape.rows),
        }
    }

    /// `(H, V)` of a whole board.
    pub(crate) fn init(&self, tiles: &[u8]) -> (u32, u32) {
        tiles.iter().enumerate().fold((0, 0), |(h, v), (cell, &t)| {
            let t = usize::from(t);
            (h + u32::from(self.cols[t][cell]), v + u32::from(self.rows[t][cell]))
        })
    }

    /// `(H, V)` after `tile` slid from `from` to `to`.
    #[inline]
    fn update(&self, (h, v): (u32, u32), tile: u8, from: usize, to: usize) -> (u32, u32) {
        let t = usize::from(tile);
        (
            h + u32::from(self.cols[t][to]) - u32::from(self.cols[t][from]),
            v + u32::from(self.rows[t][to]) - u32::from(self.rows[t][from]),
        )
    }

    /// The fewest pushes `(H, V)` still needs.
    #[inline]
    pub(crate) fn value(&self, (h, v): (u32, u32)) -> u32 {
        h.div_ceil(self.across) + v.div_ceil(self.down)
    }
}

/// The estimate of the metric's own: walking distance in pushes where its
/// tables are small, else the split Manhattan distance (which it
/// dominates). Both keep a pair of numbers a node.
#[derive(Clone)]
enum Floor {
    Walking(Box<WalkingDistance>),
    Split(SplitManhattan),
}

impl Floor {
    /// Toward `goal`; with a `mask`, only the tiles on its cells count
    /// (a partial goal: the walking distance would count them all).
    fn new(goal: &Board, metric: Metric, mask: Option<&[bool]>) -> Floor {
        if let Some(mask) = mask {
            let pos = goal.positions();
            let counted = |t: u8| mask[usize::from(pos[usize::from(t)])];
            return Floor::Split(SplitManhattan::counting(goal, metric, &counted));
        }
        match WalkingDistance::new(goal, metric) {
            Some(wd) => Floor::Walking(Box::new(wd)),
            None => Floor::Split(SplitManhattan::counting(goal, metric, &|_| true)),
        }
    }

    fn init(&self, tiles: &[u8]) -> (u32, u32) {
        match self {
            Floor::Walking(w) => w.init(tiles),
            Floor::Split(s) => s.init(tiles),
        }
    }

    #[inline]
    fn update(&self, e: (u32, u32), tiles: &[u8], tile: u8, from: usize, to: usize) -> (u32, u32) {
        match self {
            Floor::Walking(w) => w.update(&e, tiles, tile, from, to),
            Floor::Split(s) => s.update(e, tile, from, to),
        }
    }

    #[inline]
    fn value(&self, e: (u32, u32)) -> u32 {
        match self {
            Floor::Walking(w) => w.value(&e),
            Floor::Split(s) => s.value(e),
        }
    }
}

/// The two estimates of one node.
#[derive(Clone, Copy)]
struct Est<S> {
    split: (u32, u32),
    inner: S,
    /// The colour lookups' packed words and their ranks (unused without
    /// them).
    words: ColourWords,
    ranks: ColourRanks,
}

/// Most children of a node on a board that packed words fit (16 cells:
/// `rows + cols − 2` pushes).
const CHILDREN: usize = 16;

/// How one bounded search ended.
enum Step {
    Found,
    Exhausted,
    Stopped,
}

/// Every optimal path found so far, when all are wanted.
struct Collect {
    cap: usize,
    paths: Vec<Vec<Dir>>,
    count: u64,
}

/// The depth-first core, one board kept in place.
struct Search<'h, H: Heuristic> {
    h: &'h H,
    floor: Floor,
    /// Colour databases, counted in pushes already.
    colour: Option<&'h ColourHeuristic>,
    /// Whether they are read from the packed words of [`Est`].
    packed: bool,
    /// The words and ranks of the children of the nodes on the path,
    /// found (and their entries fetched) before the first child is
    /// searched: `CHILDREN` slots a depth.
    kids: Vec<(ColourWords, ColourRanks)>,
    goal: Vec<u8>,
    /// The cells the goal places (a partial goal), or `None`: all.
    mask: Option<Vec<bool>>,
    shape: Shape,
    metric: Metric,
    /// Most tiles one move shifts (the divisor of `h`).
    per_push: u32,
    tiles: Vec<u8>,
    bound: u32,
    next_bound: u32,
    expanded: u64,
    generated: u64,
    check_at: u64,
    max_nodes: u64,
    clock: Clock<'h>,
    interrupt: Option<Interrupt>,
    /// The moves from the root to the node being searched.
    stack: Vec<(Dir, usize)>,
    all: Option<Collect>,
    /// While an iteration is cut into subtrees: the depth they start at,
    /// and the subtrees found (each node there that the bound admits).
    cut: Option<(u32, Vec<split::Task<H::State>>)>,
    /// For a subtree searched beside others: what they share.
    shared: Option<&'h split::Shared>,
}

impl<'h, H: Heuristic> Search<'h, H> {
    fn estimate(&self, e: &Est<H::State>) -> u32 {
        self.estimate_within(e, u32::MAX)
    }

    /// The estimate, or any part of it above `limit` (what prunes the
    /// node needs no other part; in pushes the next bound is one more
    /// whatever the part, the graph having no parity).
    fn estimate_within(&self, e: &Est<H::State>, limit: u32) -> u32 {
        let inner = self.h.value(&e.inner).div_ceil(self.per_push);
        let floor = self.floor.value(e.split).max(inner);
        match self.colour {
            Some(c) if floor <= limit && self.packed => floor.max(c.value_of_ranks(&e.ranks, limit)),
            Some(c) if floor <= limit => floor.max(c.value_within(&self.tiles, limit)),
            _ => floor,
        }
    }

    #[cold]
    fn poll(&mut self) -> bool {
        if let Some(shared) = self.shared {
            return self.poll_shared(shared);
        }
        if self.expanded >= self.max_nodes {
            self.interrupt = Some(Interrupt::Limit(Limit::Nodes));
            return true;
        }
        if let Err(i) = self.clock.poll() {
            self.interrupt = Some(i);
            return true;
        }
        // a poll comes every POLL_EVERY nodes
        self.clock.tell(POLL_EVERY);
        self.check_at = (self.expanded + POLL_EVERY).min(self.max_nodes);
        false
    }

    /// Whether a move in `dir` may follow one in `last`: in pushes, never
    /// along the same line (the two would merge or cancel); in single
    /// moves, never straight back.
    fn may_follow(&self, dir: Dir, last: Option<Dir>) -> bool {
        let Some(last) = last else { return true };
        match self.metric {
            Metric::Mtm => {
                let across = |d: Dir| matches!(d, Dir::Left | Dir::Right);
                across(dir) != across(last)
            }
            Metric::Stm => dir != last.opposite(),
        }
    }

    fn at_goal(&self) -> bool {
        match &self.mask {
            None => self.tiles == self.goal,
            Some(mask) => self
                .tiles
                .iter()
                .zip(&self.goal)
                .zip(mask)
                .all(|((t, g), &m)| !m || t == g),
        }
    }

    /// The path on the stack, as the blank's single steps.
    fn path(&self) -> Vec<Dir> {
        self.stack
            .iter()
            .flat_map(|&(d, k)| std::iter::repeat_n(d, k))
            .collect()
    }

    /// Searches below the node with the blank on `blank`, `g` moves from
    /// the start, reached by a move in `last`.
    fn dfs(&mut self, blank: usize, g: u32, e: Est<H::State>, last: Option<Dir>) -> Step {
        let f = g + self.estimate_within(&e, self.bound.saturating_sub(g));
        if f > self.bound {
            self.next_bound = self.next_bound.min(f);
            return Step::Exhausted;
        }
        if f == g && self.at_goal() {
            let path = self.all.is_some().then(|| self.path());
            let Some(all) = self.all.as_mut() else {
                return Step::Found;
            };
            all.count += 1;
            if all.paths.len() < all.cap {
                all.paths.extend(path);
            }
            // Every optimal path ends here: nothing below is shorter.
            return Step::Exhausted;
        }
        if let Some((depth, tasks)) = &mut self.cut {
            if g == *depth {
                tasks.push(split::Task {
                    tiles: self.tiles.clone(),
                    blank,
                    g,
                    e,
                    last,
                    stack: self.stack.clone(),
                });
                return Step::Exhausted;
            }
        }
        self.expanded += 1;
        if self.expanded >= self.check_at && self.poll() {
            return Step::Stopped;
        }
        if self.packed {
            self.prefetch_children(blank, g, &e.words, last);
        }
        let mut slot = g as usize * CHILDREN;
        for dir in Dir::ALL {
            if !self.may_follow(dir, last) {
                continue;
            }
            match self.push(blank, g, e, dir, &mut slot) {
                Step::Exhausted => {}
                end => return end,
            }
        }
        Step::Exhausted
    }

    /// Ranks every child of the node with the blank on `blank`, `g` moves
    /// deep, into its slots of `kids`, and starts their database reads
    /// before any is searched: each is a miss far into a large table, and
    /// fetched together they overlap.
    fn prefetch_children(&mut self, blank: usize, g: u32, words: &ColourWords, last: Option<Dir>) {
        let Some(c) = self.colour else { return };
        let (rows, cols) = (self.shape.rows, self.shape.cols);
        let base = g as usize * CHILDREN;
        if self.kids.len() < base + CHILDREN {
            self.kids.resize(base + CHILDREN, Default::default());
        }
        let mut slot = base;
        for dir in Dir::ALL {
            if !self.may_follow(dir, last) {
                continue;
            }
            let (mut at, mut w) = (blank, *words);
            while let Some(to) = dir.step(at, rows, cols) {
                c.step(&mut w, self.tiles[to], to, at);
                let ranks = c.ranks(&w);
                c.prefetch(&ranks);
                self.kids[slot] = (w, ranks);
                slot += 1;
                at = to;
                if self.metric == Metric::Stm {
                    break;
                }
            }
        }
    }

    /// Tries every push of the blank in `dir` (one tile, two, … to the
    /// edge; one alone in single moves), each child searched in turn, the
    /// board restored after (but for the goal found).
    /// With packed colour lookups, the children's words and ranks are read from
    /// `kids` at `slot` on (moved past them).
    fn push(&mut self, blank: usize, g: u32, e: Est<H::State>, dir: Dir, slot: &mut usize) -> Step {
        let (rows, cols) = (self.shape.rows, self.shape.cols);
        let (mut at, mut e, mut k) = (blank, e, 0);
        let mut end = Step::Exhausted;
        while let Some(to) = dir.step(at, rows, cols) {
            let tile = slide(&mut self.tiles, at, to);
            let (mut words, mut ranks) = (e.words, e.ranks);
            if self.packed {
                (words, ranks) = self.kids[*slot];
                *slot += 1;
            }
            e = Est {
                split: self.floor.update(e.split, &self.tiles, tile, to, at),
                inner: self.h.update(&e.inner, &self.tiles, tile, to, at),
                words,
                ranks,
            };
            k += 1;
            at = to;
            self.generated += 1;
            self.stack.push((dir, k));
            let step = self.dfs(at, g + 1, e, Some(dir));
            if !matches!(step, Step::Found) {
                self.stack.pop();
            }
            match step {
                Step::Exhausted if self.metric == Metric::Mtm => {}
                Step::Exhausted => break,
                other => {
                    end = other;
                    break;
                }
            }
        }
        if let Step::Found = end {
            // the stack holds the path, the board the goal
            return end;
        }
        // Undo, last step first.
        let back = dir.opposite();
        while at != blank {
            let Some(prev) = back.step(at, rows, cols) else { break };
            let tile = self.tiles[prev];
            undo_slide(&mut self.tiles, prev, at, tile);
            at = prev;
        }
        end
    }
}

impl<'h, H: Heuristic> Search<'h, H> {
    /// The search from the problem's start, and the root's estimates.
    fn new(
        h: &'h H,
        problem: &Problem,
        opts: &'h SolveOptions,
        all: Option<usize>,
        mask: Option<Vec<bool>>,
        colour: Option<&'h ColourHeuristic>,
    ) -> (Search<'h, H>, Est<H::State>) {
        let clock = Clock::new(&opts.budget);
        let goal = problem.goal();
        let shape = goal.shape();
        let floor = Floor::new(goal, opts.metric, mask.as_deref());
        let tiles = problem.start().tiles().to_vec();
        let words = colour.and_then(|c| c.words(&tiles));
        let root = Est {
            split: floor.init(&tiles),
            inner: h.init(&tiles),
            words: words.unwrap_or_default(),
            ranks: match (colour, &words) {
                (Some(c), Some(w)) => c.ranks(w),
                _ => ColourRanks::default(),
            },
        };
        let max_nodes = opts.budget.max_nodes;
        let s = Search {
            h,
            floor,
            colour,
            packed: words.is_some(),
            kids: Vec::new(),
            goal: goal.tiles().to_vec(),
            mask,
            shape,
            metric: opts.metric,
            per_push: opts.metric.tiles_per_move(shape.rows, shape.cols) as u32,
            tiles,
            bound: 0,
            next_bound: u32::MAX,
            expanded: 0,
            generated: 0,
            check_at: POLL_EVERY.min(max_nodes),
            max_nodes,
            clock,
            interrupt: None,
            stack: Vec::new(),
            all: all.map(|cap| Collect {
                cap,
                paths: Vec::new(),
                count: 0,
            }),
            cut: None,
            shared: None,
        };
        (s, root)
    }
}

/// IDA* in pushes (or single moves) with the single-tile heuristic `h`
/// (divided by the tiles a push moves, and maxed with the walking
/// distance); with `all`, every optimal path of the last iteration.
fn run<H: Heuristic>(
    h: &H,
    problem: &Problem,
    opts: &SolveOptions,
    all: Option<usize>,
    mask: Option<Vec<bool>>,
    colour: Option<&ColourHeuristic>,
) -> Result<Found, SearchError> {
    let name = if colour.is_some() { "pdb" } else { h.name() };
    let (mut s, root) = Search::new(h, problem, opts, all, mask, colour);
    let start: Instant = s.clock.start;
    s.bound = s.estimate(&root);
    let stats = |s: &Search<'_, H>| Stats {
        expanded: s.expanded,
        generated: s.generated,
        peak_states: u64::from(s.bound) + 1,
        elapsed: start.elapsed(),
    };
    let mut depth = 0;
    let mut done = Vec::new();
    loop {
        s.next_bound = u32::MAX;
        let before = s.expanded;
        opts.budget.iteration_begins(s.bound);
        let step = s.dfs(problem.start().blank(), 0, root, None);
        done.push(IterationSummary {
            bound: s.bound,
            expanded: s.expanded - before,
        });
        opts.budget.iteration_ends(s.bound, s.expanded - before);
        let found = |s: &mut Search<'_, H>, paths, count, iterations| Found {
            moves: Some(s.bound),
            paths,
            count,
            heuristic: name,
            stats: stats(s),
            iterations,
        };
        match step {
            Step::Found => {
                let path = s.path();
                return Ok(found(&mut s, vec![path], 1, done));
            }
            Step::Stopped => {
                let i = s.interrupt.unwrap_or(Interrupt::Cancelled);
                return Err(i.error(NAME, &opts.budget, depth, stats(&s)));
            }
            Step::Exhausted if s.all.as_ref().is_some_and(|a| a.count > 0) => {
                let all = s.all.take().map_or((Vec::new(), 0), |a| (a.paths, a.count));
                return Ok(found(&mut s, all.0, all.1, done));
            }
            Step::Exhausted if s.next_bound == u32::MAX => {
                return Ok(Found {
                    moves: None,
                    paths: Vec::new(),
                    count: 0,
                    heuristic: name,
                    stats: stats(&s),
                    iterations: done,
                });
            }
            Step::Exhausted => {
                depth = s.bound;
                s.bound = s.next_bound;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Metric, Shape};
    use crate::heuristic::HeuristicKind;
    use crate::table::TableSet;

    #[test]
    fn agrees_with_the_multi_tile_table_on_random_3x3_boards() {
        let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
        let tables = TableSet::global_in(Metric::Mtm);
        let mut b = goal.clone();
        for i in 0..200usize {
            // a scrambled walk, different lengths
            for j in 0..(i % 37) {
                let d = Dir::ALL[(i * 7 + j * 3) % 4];
                b.apply(d);
            }
            let p = Problem::new(b.clone(), goal.clone()).unwrap();
            for h in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict] {
                let opts = SolveOptions::default()
                    .with_metric(Metric::Mtm)
                    .with_heuristic(h)
                    .with_path(true);
                let sol = MtmIdastar.solve(&p, &opts).unwrap();
                let want = tables.distance(p.shape(), b.tiles(), goal.tiles());
                assert_eq!(sol.moves, want, "{b:?}");
                let path = sol.path.unwrap();
                assert_eq!(Metric::Mtm.length(&path) as u32, sol.moves.unwrap());
                assert_eq!(b.apply_path(&path).unwrap(), goal);
            }
        }
    }
}
