//! The depth-first core of IDA* in pushes, one board kept in place.
//!
//! A node makes all its children before it searches any (their estimates'
//! states, their database reads started together so that the misses
//! overlap), values them, keeps those within the bound and searches them
//! smallest estimate first. With packed colour lookups it goes one step
//! further: it makes its kept children's children too before searching the
//! first, so that their reads arrive while the elder siblings' subtrees are
//! searched ([`Search::make_grandchildren`]).
//!
//! `N` is the number of packed colour lookups (0 without them): each
//! node's words and ranks are arrays of that size.

use super::floor::Floor;
use crate::board::{Dir, Metric, Problem, Shape};
use crate::budget::{Clock, Interrupt, POLL_EVERY};
use crate::heuristic::pdb::colour::{ColourHeuristic, Packed};
use crate::heuristic::Heuristic;
use crate::search::moves::slide;
use crate::search::{Limit, SolveOptions};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The estimates' states of one node: the floor's, the single-tile
/// heuristic's, and the packed colour lookups' words.
#[derive(Clone, Copy)]
pub(super) struct Est<S, const N: usize> {
    pub(super) split: (u32, u32),
    pub(super) inner: S,
    pub(super) words: [u64; N],
}

/// A child of the node being expanded, made and valued before any of its
/// siblings is searched.
#[derive(Clone, Copy)]
pub(super) struct Kid<S, const N: usize> {
    pub(super) e: Est<S, N>,
    /// Its packed lookups' ranks.
    pub(super) ranks: [u32; N],
    /// Its estimate, or a part of it above the bound (it is then pruned).
    pub(super) h: u32,
    /// Its place among its siblings: its estimate, then the tie-break of
    /// [`Search::key`]; the smallest is searched first.
    pub(super) key: u32,
    /// The push that makes it: the blank's way, and how many tiles.
    pub(super) dir: Dir,
    pub(super) pushed: u8,
}

/// How one bounded search ended.
pub(super) enum Step {
    Found,
    Exhausted,
    Stopped,
}

/// Every optimal path found so far, when all are wanted.
pub(super) struct Collect {
    pub cap: usize,
    pub paths: Vec<Vec<Dir>>,
    pub count: u64,
}

/// The cells along each line from each cell: `lines[cell * 4 + dir]`
/// lists the cells the blank passes going `dir` from `cell` to the edge,
/// its length first.
fn lines(shape: Shape) -> Lines {
    let (rows, cols) = (shape.rows, shape.cols);
    let mut out: Lines = Box::new([[0u8; 16]; 1024]);
    for cell in 0..shape.cells() {
        for (d, dir) in Dir::ALL.into_iter().enumerate() {
            let line = &mut out[cell * 4 + d];
            let mut at = cell;
            while let Some(to) = dir.step(at, rows, cols) {
                line[0] += 1;
                line[usize::from(line[0])] = to as u8;
                at = to;
            }
        }
    }
    out
}

/// The root of one subtree: the board there and how it was reached.
pub(super) struct Task<S, const N: usize> {
    pub tiles: Vec<u8>,
    pub blank: usize,
    pub g: u32,
    pub e: Est<S, N>,
    /// Its estimate (within the iteration's bound).
    pub h: u32,
    pub last: Option<Dir>,
    pub stack: Vec<(Dir, usize)>,
}

/// What the subtrees of one iteration share.
pub(super) struct Shared {
    /// Nodes expanded by all of them, added at each poll.
    pub spent: AtomicU64,
    /// Raised when one has found a solution, or stopped for the budget.
    pub stop: AtomicBool,
}

/// [`lines`]: a fixed array, so that a cell below 256 and a direction
/// index it without a bounds check.
type Lines = Box<[[u8; 16]; 1024]>;

/// The line from `cell` (below 256) going `dir`.
#[inline(always)]
pub(super) fn line_of(lines: &Lines, cell: usize, dir: Dir) -> &[u8; 16] {
    &lines[(cell & 0xFF) << 2 | dir as usize]
}

/// The depth-first core.
pub(super) struct Search<'h, H: Heuristic, const N: usize> {
    pub h: &'h H,
    pub floor: Floor,
    /// Colour databases read by ranking the board in place (where they
    /// do not fit packed words).
    pub colour: Option<&'h ColourHeuristic>,
    /// Colour databases read from packed words (`N` of them).
    pub packed: Option<Packed<'h, N>>,
    /// Whether a child's estimate needs the board as the child has it
    /// (a heuristic that reads the tiles, or colour lookups that rank the
    /// board): the board then slides while the children are made.
    pub reads_board: bool,
    /// Whether a node makes its searched children's children before
    /// searching the first ([`Search::make_grandchildren`]).
    pub ahead: bool,
    /// The children of the nodes on the path, `stride` slots a depth:
    /// `width` for the node's own, and with `ahead` as many again for each
    /// of its searched children.
    pub kids: Vec<Kid<H::State, N>>,
    /// How many children were made ahead for the `j`-th searched child of
    /// a node `g` moves deep, at `g * width + j`.
    pub made: Vec<u8>,
    /// The children kept of a node `g` moves deep, in the order they are
    /// searched, at `g * width` on (their slots from the node's first).
    pub order: Vec<u8>,
    /// Most children a node has.
    pub width: usize,
    pub stride: usize,
    /// [`lines`] of the board.
    pub lines: Lines,
    pub goal: Vec<u8>,
    /// The cells the goal places (a partial goal), or `None`: all.
    pub mask: Option<Vec<bool>>,
    pub shape: Shape,
    pub metric: Metric,
    /// Most tiles one move shifts (the divisor of `h`).
    pub per_push: u32,
    /// The board in place (its first `n` cells): a fixed array, so that a
    /// cell below 256 indexes it without a bounds check.
    pub tiles: [u8; 256],
    pub n: usize,
    pub bound: u32,
    pub next_bound: u32,
    pub expanded: u64,
    pub generated: u64,
    pub check_at: u64,
    pub max_nodes: u64,
    pub clock: Clock<'h>,
    pub interrupt: Option<Interrupt>,
    /// The moves from the root to the node being searched.
    pub stack: Vec<(Dir, usize)>,
    pub all: Option<Collect>,
    /// While an iteration is cut into subtrees: the depth they start at,
    /// and the subtrees found (each node there that the bound admits).
    pub cut: Option<(u32, Vec<Task<H::State, N>>)>,
    /// For a subtree searched beside others: what they share.
    pub shared: Option<&'h Shared>,
}

impl<'h, H: Heuristic, const N: usize> Search<'h, H, N> {
    /// The search from the problem's start, and the root's estimates.
    pub fn new(
        h: &'h H,
        problem: &Problem,
        opts: &'h SolveOptions,
        all: Option<usize>,
        mask: Option<Vec<bool>>,
        colour: Option<&'h ColourHeuristic>,
    ) -> (Search<'h, H, N>, Est<H::State, N>) {
        let clock = Clock::new(&opts.budget);
        let goal = problem.goal();
        let shape = goal.shape();
        let floor = Floor::new(goal, opts.metric, mask.as_deref());
        let n = shape.cells();
        let mut tiles = [0u8; 256];
        tiles[..n].copy_from_slice(problem.start().tiles());
        let packed = colour.and_then(ColourHeuristic::packed::<N>).filter(|_| N > 0);
        let root = Est {
            split: floor.init(&tiles[..n]),
            inner: h.init(&tiles[..n]),
            words: packed.map_or([0; N], |p| p.words(&tiles[..n])),
        };
        let reads_board = H::READS_TILES || (colour.is_some() && packed.is_none());
        let ahead = packed.is_some() && !reads_board;
        let width = (shape.rows + shape.cols).saturating_sub(2).max(4);
        let max_nodes = opts.budget.max_nodes;
        let s = Search {
            h,
            floor,
            colour: colour.filter(|_| packed.is_none()),
            packed,
            reads_board,
            ahead,
            kids: Vec::new(),
            made: Vec::new(),
            order: Vec::new(),
            width,
            stride: if ahead { width * width } else { width },
            lines: lines(shape),
            goal: goal.tiles().to_vec(),
            mask,
            shape,
            metric: opts.metric,
            per_push: opts.metric.tiles_per_move(shape.rows, shape.cols) as u32,
            tiles,
            n,
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

    /// A search of one subtree under this one's bound, sharing `shared`,
    /// on a board of its own (set by the caller).
    pub fn fork<'s>(&self, shared: &'s Shared) -> Search<'s, H, N>
    where
        'h: 's,
    {
        Search {
            h: self.h,
            floor: self.floor.clone(),
            colour: self.colour,
            packed: self.packed,
            reads_board: self.reads_board,
            ahead: self.ahead,
            kids: Vec::new(),
            made: Vec::new(),
            order: Vec::new(),
            width: self.width,
            stride: self.stride,
            lines: self.lines.clone(),
            goal: self.goal.clone(),
            mask: None,
            shape: self.shape,
            metric: self.metric,
            per_push: self.per_push,
            tiles: [0; 256],
            n: self.n,
            bound: self.bound,
            next_bound: u32::MAX,
            expanded: 0,
            generated: 0,
            check_at: POLL_EVERY,
            max_nodes: self.max_nodes,
            clock: self.clock,
            interrupt: None,
            stack: Vec::new(),
            all: None,
            cut: None,
            shared: Some(shared),
        }
    }

    /// The estimate of the board in place, whose state is `e`.
    pub fn estimate(&self, e: &Est<H::State, N>) -> u32 {
        let (pre, _) = self.partial_estimate(e, u32::MAX);
        match &self.packed {
            Some(p) => pre.max(p.value(&p.ranks(&e.words), u32::MAX)),
            None => pre,
        }
    }

    /// The parts of the estimate at hand without a packed read, and the
    /// floor's alone: the floor, the single-tile heuristic, and colour
    /// lookups that rank the board in place (any part above `limit` is
    /// returned at once: what prunes the node needs no other part; in
    /// pushes the next bound is one more whatever the part, the graph
    /// having no parity).
    #[inline(always)]
    pub(super) fn partial_estimate(&self, e: &Est<H::State, N>, limit: u32) -> (u32, u32) {
        let inner = self.h.value(&e.inner);
        let inner = if inner == 0 { 0 } else { inner.div_ceil(self.per_push) };
        let floor = self.floor.value(e.split);
        let pre = floor.max(inner);
        match self.colour {
            Some(c) if pre <= limit => (pre.max(c.value_within(&self.tiles[..self.n], limit)), floor),
            _ => (pre, floor),
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

    /// The moves that may follow one in `last`, in [`Dir::ALL`]'s order:
    /// in pushes, never one along the same line (the two would merge or
    /// cancel); in single moves, never one straight back.
    #[inline(always)]
    pub(super) fn next_dirs(&self, last: Option<Dir>) -> &'static [Dir] {
        use Dir::{Down, Left, Right, Up};
        match (self.metric, last) {
            (_, None) => &Dir::ALL,
            (Metric::Mtm, Some(Left | Right)) => &[Up, Down],
            (Metric::Mtm, Some(Up | Down)) => &[Left, Right],
            (Metric::Stm, Some(Up)) => &[Up, Left, Right],
            (Metric::Stm, Some(Down)) => &[Down, Left, Right],
            (Metric::Stm, Some(Left)) => &[Up, Down, Left],
            (Metric::Stm, Some(Right)) => &[Up, Down, Right],
        }
    }

    fn at_goal(&self) -> bool {
        match &self.mask {
            None => self.tiles[..self.n] == self.goal[..],
            Some(mask) => self.tiles[..self.n]
                .iter()
                .zip(&self.goal)
                .zip(mask)
                .all(|((t, g), &m)| !m || t == g),
        }
    }

    /// The path on the stack, as the blank's single steps.
    pub fn path(&self) -> Vec<Dir> {
        self.stack
            .iter()
            .flat_map(|&(d, k)| std::iter::repeat_n(d, k))
            .collect()
    }

    /// The cells the blank passes going `dir` from `cell`.
    #[inline(always)]
    pub(super) fn line(&self, cell: usize, dir: Dir) -> &[u8] {
        let line = line_of(&self.lines, cell, dir);
        &line[1..=usize::from(line[0])]
    }

    /// Searches below the node with the blank on `blank`, `g` moves from
    /// the start, estimated `h` (within the bound: its parent saw to
    /// that), reached by a move in `last`; `made` holds where its children
    /// are and how many, if its parent made them already.
    pub fn dfs(
        &mut self,
        blank: usize,
        g: u32,
        e: Est<H::State, N>,
        h: u32,
        last: Option<Dir>,
        made: Option<(usize, usize)>,
    ) -> Step {
        if h == 0 && self.at_goal() {
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
                tasks.push(Task {
                    tiles: self.tiles[..self.n].to_vec(),
                    blank,
                    g,
                    e,
                    h,
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
        let (base, made) = match made {
            Some(m) => m,
            None => {
                let base = self.region(g, 0);
                (base, self.make_children(blank, base, &e, last))
            }
        };
        let kept = self.value_children(base, made, g);
        if self.ahead {
            self.make_grandchildren(blank, base, kept, g);
        }
        for j in 0..kept {
            let kid = self.kept(base, g, j);
            let ahead = self.ahead.then(|| {
                let region = self.region(g + 1, j);
                (region, usize::from(self.made[(g as usize + 1) * self.width + j]))
            });
            match self.visit(blank, g, &kid, ahead) {
                Step::Exhausted => {}
                end => return end,
            }
        }
        Step::Exhausted
    }

    /// Where the children of the `j`-th searched child of a node `g` moves
    /// deep are made ahead (`j = 0` also for a node's own children made as
    /// it is expanded).
    #[inline(always)]
    pub(super) fn region(&self, g: u32, j: usize) -> usize {
        g as usize * self.stride + j * self.width
    }

    /// Makes the push of `kid` from the node with the blank on `blank`, `g`
    /// moves deep, searches below it, and undoes it (but for the goal
    /// found: the board is then the goal's, the stack its path).
    pub(super) fn visit(&mut self, blank: usize, g: u32, kid: &Kid<H::State, N>, made: Option<(usize, usize)>) -> Step {
        let line = *line_of(&self.lines, blank, kid.dir);
        let mut at = blank;
        for &to in &line[1..=usize::from(kid.pushed)] {
            slide(&mut self.tiles, at, usize::from(to));
            at = usize::from(to);
        }
        self.stack.push((kid.dir, usize::from(kid.pushed)));
        let step = self.dfs(at, g + 1, kid.e, kid.h, Some(kid.dir), made);
        if let Step::Found = step {
            return step;
        }
        self.stack.pop();
        self.unslide(blank, kid.dir, usize::from(kid.pushed));
        step
    }

    /// Undoes the push of `pushed` tiles in `dir` from the blank on
    /// `blank`: each tile goes back one cell outward, the farthest first,
    /// and the blank home.
    pub(super) fn unslide(&mut self, blank: usize, dir: Dir, pushed: usize) {
        let line = *line_of(&self.lines, blank, dir);
        let k = pushed.min(usize::from(line[0]));
        for i in (1..=k).rev() {
            let from = if i == 1 { blank } else { usize::from(line[i - 1]) };
            self.tiles[usize::from(line[i])] = self.tiles[from];
        }
        self.tiles[blank] = 0;
    }
}

impl<H: Heuristic, const N: usize> Search<'_, H, N> {
    /// [`Search::poll`] for a subtree: the shared node count and stop
    /// flag, then the clock.
    pub(super) fn poll_shared(&mut self, shared: &Shared) -> bool {
        let spent = shared.spent.fetch_add(POLL_EVERY, Ordering::Relaxed) + POLL_EVERY;
        if shared.stop.load(Ordering::Relaxed) {
            return true;
        }
        let stop = if spent >= self.max_nodes {
            Some(Interrupt::Limit(Limit::Nodes))
        } else {
            self.clock.poll().err()
        };
        if let Some(i) = stop {
            self.interrupt = Some(i);
            shared.stop.store(true, Ordering::Relaxed);
            return true;
        }
        self.clock.tell(POLL_EVERY);
        self.check_at = self.expanded + POLL_EVERY;
        false
    }
}
