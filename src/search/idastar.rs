//! IDA*: depth-first searches bounded by `f = g + h`, the bound raised each
//! iteration to the smallest `f` that exceeded it.
//!
//! The inner loop is built for speed: one board kept in place (a move swaps
//! two bytes and is undone on the way back), moves from precomputed
//! neighbour tables, no move straight back to the previous board, the
//! heuristic updated incrementally ([`Heuristic::update`]) and the search
//! generic over the heuristic so it is monomorphised, nothing allocated per
//! node, and the clock and cancel flag looked at only every few thousand
//! expansions.
//!
//! [`Ida`] is the reusable core: position it on any board
//! ([`Ida::set_board`]) and search the subtree below with a given bound
//! ([`Ida::search`]); a parallel IDA* hands subtrees to several of them.

use super::support::{
    Clock, Halt, Interrupt, Moves, Neighbours, FORECAST_MARGIN, FORECAST_MIN, POLL_EVERY,
};
use super::{Limit, Problem, SearchError, Solution, SolveOptions, Solver, Stats};
use crate::board::{Board, Dir};
use crate::heuristic::{with_heuristic, Heuristic, WithHeuristic};

const NAME: &str = "idastar";

/// "No previous board": a cell index no board has.
pub const NO_PREV: usize = usize::MAX;

/// The `idastar` solver.
#[derive(Clone, Copy, Debug, Default)]
pub struct Idastar;

impl Solver for Idastar {
    fn name(&self) -> &'static str {
        NAME
    }

    fn solve(&self, problem: &Problem, opts: &SolveOptions) -> Result<Solution, SearchError> {
        search(problem, opts, None).map_err(|h| h.into_error(NAME))
    }
}

/// How one bounded depth-first search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The goal was reached; [`Ida::take_path`] has the moves.
    Found,
    /// Nothing within the bound; [`Ida::next_bound`] is the smallest `f`
    /// that exceeded it (`u32::MAX` if none did).
    Exhausted,
    /// A budget ran out or the search was cancelled ([`Ida::interrupt`]).
    Stopped,
}

/// The depth-first core of IDA*, for one heuristic.
pub struct Ida<'h, H: Heuristic> {
    h: &'h H,
    moves: Vec<Moves>,
    tiles: Vec<u8>,
    goal: Vec<u8>,
    bound: u32,
    next_bound: u32,
    /// Nodes expanded and generated so far (across calls).
    pub expanded: u64,
    pub generated: u64,
    check_at: u64,
    max_nodes: u64,
    clock: Clock<'h>,
    interrupt: Option<Interrupt>,
    /// Moves of the path found, last move first, filled while unwinding.
    path: Vec<Dir>,
}

impl<'h, H: Heuristic> Ida<'h, H> {
    /// A searcher for boards of `goal`'s shape, limited by `clock`'s budget.
    pub fn new(h: &'h H, goal: &Board, clock: Clock<'h>) -> Ida<'h, H> {
        let nb = Neighbours::new(goal.shape());
        let max_nodes = clock.budget().max_nodes;
        Ida {
            h,
            moves: (0..goal.len()).map(|c| nb.of(c)).collect(),
            tiles: goal.tiles().to_vec(),
            goal: goal.tiles().to_vec(),
            bound: 0,
            next_bound: u32::MAX,
            expanded: 0,
            generated: 0,
            check_at: POLL_EVERY.min(max_nodes),
            max_nodes,
            clock,
            interrupt: None,
            path: Vec::new(),
        }
    }

    /// Puts a board (of the goal's shape) in place.
    pub fn set_board(&mut self, tiles: &[u8]) {
        self.tiles.copy_from_slice(tiles);
    }

    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// Searches below the board in place, which was reached in `g` moves
    /// with its blank on `blank` and the blank before on `prev` ([`NO_PREV`]
    /// at a root), for the goal within `f ≤ bound`. `hs` is the heuristic
    /// state of the board in place.
    pub fn search(&mut self, blank: usize, prev: usize, g: u32, hs: H::State, bound: u32) -> Step {
        self.bound = bound;
        self.next_bound = u32::MAX;
        self.path.clear();
        self.dfs(blank, prev, g, hs)
    }

    /// Smallest `f` above the bound met by the last [`Ida::search`].
    pub fn next_bound(&self) -> u32 {
        self.next_bound
    }

    /// What stopped the last search, when it returned [`Step::Stopped`].
    pub fn interrupt(&self) -> Option<Interrupt> {
        self.interrupt
    }

    /// The moves found by the last search (from its root to the goal).
    pub fn take_path(&mut self) -> Vec<Dir> {
        let mut p = std::mem::take(&mut self.path);
        p.reverse();
        p
    }

    #[cold]
    fn poll(&mut self) -> bool {
        if self.expanded >= self.max_nodes {
            self.interrupt = Some(Interrupt::Limit(Limit::Nodes));
            return true;
        }
        if let Err(i) = self.clock.poll() {
            self.interrupt = Some(i);
            return true;
        }
        self.check_at = (self.expanded + POLL_EVERY).min(self.max_nodes);
        false
    }

    fn dfs(&mut self, blank: usize, prev: usize, g: u32, hs: H::State) -> Step {
        if self.h.value(&hs) == 0 && self.tiles == self.goal {
            return Step::Found;
        }
        if self.expanded >= self.check_at && self.poll() {
            return Step::Stopped;
        }
        self.expanded += 1;
        let m = self.moves[blank];
        for i in 0..usize::from(m.len) {
            let to = usize::from(m.cells[i]);
            if to == prev {
                continue;
            }
            self.generated += 1;
            let tile = self.tiles[to];
            self.tiles[blank] = tile;
            self.tiles[to] = 0;
            let hs2 = self.h.update(&hs, &self.tiles, tile, to, blank);
            let f = g + 1 + self.h.value(&hs2);
            let step = if f > self.bound {
                if f < self.next_bound {
                    self.next_bound = f;
                }
                Step::Exhausted
            } else {
                self.dfs(to, blank, g + 1, hs2)
            };
            self.tiles[to] = tile;
            self.tiles[blank] = 0;
            match step {
                Step::Exhausted => {}
                Step::Found => {
                    self.path.push(m.dirs[i]);
                    return Step::Found;
                }
                Step::Stopped => return Step::Stopped,
            }
        }
        Step::Exhausted
    }
}

/// One finished iteration: its bound and the nodes it expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iteration {
    pub bound: u32,
    pub expanded: u64,
}

/// Runs IDA* with `opts.heuristic`; with `forecast = Some(d)` gives up
/// early when the growth of the iterations so far plainly needs more than
/// `--max-nodes` expansions to finish the iteration with bound `d`.
pub fn search(
    problem: &Problem,
    opts: &SolveOptions,
    forecast: Option<u32>,
) -> Result<Solution, Halt> {
    struct Work<'a> {
        problem: &'a Problem,
        opts: &'a SolveOptions,
        forecast: Option<u32>,
    }
    impl WithHeuristic for Work<'_> {
        type Output = Result<Solution, Halt>;
        fn run<H: Heuristic>(self, h: &H) -> Self::Output {
            run(h, self.problem, self.opts, self.forecast)
        }
    }
    with_heuristic(
        opts.heuristic,
        &problem.goal,
        &opts.pdb,
        Work {
            problem,
            opts,
            forecast,
        },
    )
    .map_err(|e| Halt::Error(SearchError::Unsupported(e)))?
}

/// IDA* with one heuristic (monomorphised): the iteration driver.
pub fn run<H: Heuristic>(
    h: &H,
    problem: &Problem,
    opts: &SolveOptions,
    forecast: Option<u32>,
) -> Result<Solution, Halt> {
    if opts.threads > 1 {
        return super::parallel::run(h, problem, opts, opts.threads);
    }
    let clock = Clock::new(&opts.budget);
    let start = clock.start;
    let mut ida = Ida::new(h, &problem.goal, clock);
    ida.set_board(problem.start.tiles());
    let hs = h.init(problem.start.tiles());
    let mut bound = h.value(&hs);
    let mut done: Vec<Iteration> = Vec::new();
    let stats = |ida: &Ida<H>, bound: u32| Stats {
        expanded: ida.expanded,
        generated: ida.generated,
        // The path from the root: one board, and a heuristic state per level.
        peak_states: u64::from(bound) + 1,
        elapsed: start.elapsed(),
    };
    loop {
        let before = ida.expanded;
        match ida.search(problem.start.blank(), NO_PREV, 0, hs, bound) {
            Step::Found => {
                let path = ida.take_path();
                return Ok(Solution {
                    moves: Some(path.len() as u32),
                    path: opts.want_path.then_some(path),
                    algorithm: NAME,
                    heuristic: Some(h.name()),
                    stats: stats(&ida, bound),
                });
            }
            Step::Stopped => {
                let i = ida.interrupt().unwrap_or(Interrupt::Cancelled);
                let depth = done.last().map_or(0, |it| it.bound);
                return Err(Halt::Error(i.error(
                    NAME,
                    &opts.budget,
                    depth,
                    stats(&ida, bound),
                )));
            }
            Step::Exhausted => {
                done.push(Iteration {
                    bound,
                    expanded: ida.expanded - before,
                });
                if ida.next_bound() == u32::MAX {
                    return Ok(Solution {
                        moves: None,
                        path: None,
                        algorithm: NAME,
                        heuristic: Some(h.name()),
                        stats: stats(&ida, bound),
                    });
                }
                bound = ida.next_bound();
                if let Some(d) = forecast {
                    if let Some(need) = forecast_nodes(&done, ida.expanded, d) {
                        if need > FORECAST_MARGIN * opts.budget.max_nodes as f64 {
                            return Err(Halt::Forecast {
                                limit: Limit::Nodes,
                                budget: opts.budget.max_nodes,
                                forecast: need,
                                depth: d,
                                stats: stats(&ida, bound),
                            });
                        }
                    }
                }
            }
        }
    }
}

/// Expansions to finish the iteration with bound `d`, if the growth
/// between the last two iterations continues.
fn forecast_nodes(done: &[Iteration], spent: u64, d: u32) -> Option<f64> {
    let [.., a, b] = done else { return None };
    if (b.expanded as f64) < FORECAST_MIN || a.expanded == 0 || b.bound >= d {
        return None;
    }
    let per_bound =
        (b.expanded as f64 / a.expanded as f64).powf(1.0 / f64::from(b.bound - a.bound));
    Some(spent as f64 + b.expanded as f64 * per_bound.powf(f64::from(d - b.bound)))
}
