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
//! * the walking distance counted in pushes
//!   ([`WalkingDistance`](crate::heuristic::WalkingDistance), on boards
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
//! A push is the blank's single steps ([`super::moves::slide`]) taken one after another,
//! each updating both estimates incrementally, and undone in reverse.

use super::{IterationSummary, Problem, SearchError, Solution, SolveOptions, Solver, Stats};
use crate::board::{Dir, Metric};
use crate::budget::Interrupt;
use crate::heuristic::pdb::colour::ColourHeuristic;
use crate::heuristic::{with_heuristic, Heuristic, HeuristicKind, TableHooks, WithHeuristic};
use std::time::Instant;

mod children;
mod core;
mod floor;
mod split;
use self::core::{Search, Step};
pub(crate) use floor::SplitManhattan;

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
            return match colour.packed_lookups() {
                Some(1) => split::run::<_, 1>(&super::idastar::Blind, problem, opts, &colour),
                Some(2) => split::run::<_, 2>(&super::idastar::Blind, problem, opts, &colour),
                Some(3) => split::run::<_, 3>(&super::idastar::Blind, problem, opts, &colour),
                Some(4) => split::run::<_, 4>(&super::idastar::Blind, problem, opts, &colour),
                _ => split::run::<_, 0>(&super::idastar::Blind, problem, opts, &colour),
            };
        }
        return run(&super::idastar::Blind, problem, opts, all, None, Some(&colour));
    }
    // Whole values: the one-bit databases are read by a walk that
    // single-tile IDA* alone keeps.
    let pdb = opts.pdb.clone().with_whole_values(true);
    let work = Work { problem, opts, all };
    with_heuristic(opts.heuristic, problem.goal(), &pdb, &opts.budget, work)?
}

/// IDA* in pushes (or single moves) with the single-tile heuristic `h`
/// (divided by the tiles a push moves, and maxed with the walking
/// distance) and the colour databases; with `all`, every optimal path of
/// the last iteration.
fn run<H: Heuristic>(
    h: &H,
    problem: &Problem,
    opts: &SolveOptions,
    all: Option<usize>,
    mask: Option<Vec<bool>>,
    colour: Option<&ColourHeuristic>,
) -> Result<Found, SearchError> {
    // the search's arrays are as long as the packed lookups are many
    match colour.and_then(ColourHeuristic::packed_lookups) {
        Some(1) => run_with::<H, 1>(h, problem, opts, all, mask, colour),
        Some(2) => run_with::<H, 2>(h, problem, opts, all, mask, colour),
        Some(3) => run_with::<H, 3>(h, problem, opts, all, mask, colour),
        Some(4) => run_with::<H, 4>(h, problem, opts, all, mask, colour),
        _ => run_with::<H, 0>(h, problem, opts, all, mask, colour),
    }
}

/// [`run`] with `N` packed colour lookups.
fn run_with<H: Heuristic, const N: usize>(
    h: &H,
    problem: &Problem,
    opts: &SolveOptions,
    all: Option<usize>,
    mask: Option<Vec<bool>>,
    colour: Option<&ColourHeuristic>,
) -> Result<Found, SearchError> {
    let name = if colour.is_some() { "pdb" } else { h.name() };
    let (mut s, root) = Search::<H, N>::new(h, problem, opts, all, mask, colour);
    let start: Instant = s.clock.start;
    let root_h = s.estimate(&root);
    s.bound = root_h;
    let stats = |s: &Search<'_, H, N>| Stats {
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
        let step = s.dfs(problem.start().blank(), 0, root, root_h, None, None);
        done.push(IterationSummary {
            bound: s.bound,
            expanded: s.expanded - before,
        });
        opts.budget.iteration_ends(s.bound, s.expanded - before);
        let found = |s: &mut Search<'_, H, N>, paths, count, iterations| Found {
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
    use crate::board::{Board, Metric, Shape};
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
