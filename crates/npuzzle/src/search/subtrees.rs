//! IDA*'s iterations cut into subtrees that any number of workers, on any
//! number of machines, search apart: the library's side of a distributed
//! exact search. The driver (a dataflow engine, say) decides who searches
//! what; this module only guarantees that the pieces fit together.
//!
//! **The same cut everywhere.** [`Subtrees::cut`] expands the top of an
//! iteration's tree breadth-first, level by level, each node's children in
//! the order a sequential search takes them; the nodes at the cut depth
//! are the iteration's tasks, numbered in the order a sequential search
//! would enter them. The cut depends only on the problem, the options, the
//! bound and the depth, so every worker that cuts the same iteration at the
//! same depth holds the same tasks under the same numbers, and workers
//! need only exchange task numbers.
//!
//! **The same answer.** An iteration is over when every task was searched:
//! its next bound is the least over the cut's and the tasks'. As in the
//! parallel search, iteration `B` starts only after every smaller bound
//! was searched to exhaustion, so any solution a task finds is optimal.
//! The nodes of an exhausted iteration, the cut's plus its tasks', are
//! exactly those of a sequential search's same iteration.

use super::frontier::{children, is_goal, Node};
use super::ida::{solution_parity, with_parity, Ida, Step};
use super::moves::Neighbours;
use super::parallel::worker_budget;
use super::plan::heuristic_for;
use super::prune::MovePruner;
use super::{IterationSummary, Problem, SearchError, Solution, SolveOptions, Stats};
use crate::board::Dir;
use crate::budget::{Budget, Clock, Interrupt};
use crate::heuristic::{with_heuristic, TableHooks, WithHeuristic};
use crate::Metric;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

const NAME: &str = "idastar";

/// The top of one iteration's tree, cut: how many tasks it left and what
/// expanding it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IterationCut {
    /// The tasks, numbered `0..tasks`.
    pub tasks: usize,
    /// Nodes expanded above the cut depth.
    pub expanded: u64,
    /// Children generated there.
    pub generated: u64,
    /// The least `f` above the bound met there (`u32::MAX`: none).
    pub next_bound: u32,
    /// The goal, if it lies above the cut depth: the moves to it.
    pub found: Option<Vec<Dir>>,
}

/// How the search of one task ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TaskEnd {
    /// Nothing within the bound below it.
    Exhausted,
    /// The goal: the moves from the start.
    Found(Vec<Dir>),
    /// The caller's budget ran out or its cancel flag was raised.
    Halted(Interrupt),
    /// The stop flag given to [`SubtreeSource::searcher`] was raised: the
    /// task is not done.
    Stopped,
}

/// One task searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskResult {
    /// Nodes expanded below the task's root (its root included).
    pub expanded: u64,
    /// Children generated.
    pub generated: u64,
    /// The least `f` above the bound met (`u32::MAX`: none).
    pub next_bound: u32,
    /// How it ended.
    pub end: TaskEnd,
}

/// One worker's searcher of subtrees (each worker has its own: it holds
/// the board it searches in place).
pub trait Subtrees {
    /// The first iteration's bound: the start's estimate, raised to the
    /// solutions' parity; `u32::MAX` when the goal cannot be reached (the
    /// permutation's parity says so before any search).
    fn first_bound(&self) -> u32;

    /// The bound after an iteration whose least `f` above its bound was
    /// `next` (`u32::MAX`: nothing lies under any bound, the goal cannot be
    /// reached).
    fn bound_after(&self, next: u32) -> u32;

    /// Cuts iteration `bound`'s tree at `depth` (at most the bound), and
    /// keeps its tasks for [`Subtrees::search`].
    fn cut(&mut self, bound: u32, depth: u32) -> IterationCut;

    /// The moves from the start to task `task`'s root, in blank letters
    /// (what names a task in a checkpoint).
    fn task_moves(&self, task: usize) -> String;

    /// Searches task `task` of the last cut (`None` if there is no such
    /// task).
    fn search(&mut self, task: usize) -> Option<TaskResult>;

    /// The answer: `path` (or none, when no bound is left), found at the
    /// cost `stats` after `iterations`.
    fn solution(
        &self,
        path: Option<Vec<Dir>>,
        stats: Stats,
        iterations: Vec<IterationSummary>,
    ) -> Solution;

    /// The error for a search ended by `why`, the last bound searched to
    /// exhaustion `last_done`, at the cost `stats`.
    fn halted(&self, why: Interrupt, last_done: u32, stats: Stats) -> SearchError;
}

/// What makes the searchers of one problem, shared by a process's workers
/// (the heuristic and its databases are built once).
pub trait SubtreeSource: Sync {
    /// A new searcher that gives up its task when `stop` is raised.
    fn searcher(&self, stop: Arc<AtomicBool>) -> Box<dyn Subtrees + '_>;

    /// The heuristic's identity (its databases included): what processes
    /// compare before they search together.
    fn identity(&self) -> String;
}

/// Builds the heuristic `opts` asks for (databases loaded or built as
/// [`crate::solve`] would) and runs `work` with a source of searchers of
/// `problem`. IDA* in single-tile moves only: `Err` in the multi-tile
/// metric.
pub fn with_subtrees<R>(
    problem: &Problem,
    opts: &SolveOptions,
    work: impl FnOnce(&dyn SubtreeSource) -> R,
) -> Result<R, SearchError> {
    if opts.metric != Metric::Stm {
        return Err(SearchError::NotApplicable {
            algorithm: "distributed idastar",
            shape: problem.start().shape(),
            reason: "it counts single-tile moves (--metric stm)".into(),
        });
    }
    struct Work<'a, F> {
        problem: &'a Problem,
        opts: &'a SolveOptions,
        work: F,
    }
    impl<R, F: FnOnce(&dyn SubtreeSource) -> R> WithHeuristic for Work<'_, F> {
        type Output = R;
        fn run<H: TableHooks>(self, h: &H) -> R {
            let clock = Clock::new(&self.opts.budget);
            let shape = self.problem.start().shape();
            // Built whole, never cut short by the budget: a build the
            // deadline ended would leave this process a weaker automaton
            // than its peers', so other cuts, other task numbers.
            let pruner = MovePruner::shared(shape, self.opts.pruning);
            let source = Source {
                h,
                problem: self.problem,
                opts: self.opts,
                pruner,
                // the workers count nodes only for their driver, which
                // holds the node budget over all of them; the deadline
                // counts from when the answer started
                budget: worker_budget(&self.opts.budget, clock.start),
            };
            (self.work)(&source)
        }
    }
    // the planner's heuristic for IDA* on this board (`auto`: pattern
    // databases on the 4x4 and 5x5)
    let (heuristic, _) = heuristic_for(opts.heuristic, problem.start().shape())?;
    with_heuristic(
        heuristic,
        problem.goal(),
        &opts.pdb,
        &opts.budget,
        Work {
            problem,
            opts,
            work,
        },
    )
    .map_err(SearchError::from)
}

struct Source<'a, H: TableHooks> {
    h: &'a H,
    problem: &'a Problem,
    opts: &'a SolveOptions,
    pruner: Arc<MovePruner>,
    budget: Budget,
}

impl<H: TableHooks> SubtreeSource for Source<'_, H> {
    fn searcher(&self, stop: Arc<AtomicBool>) -> Box<dyn Subtrees + '_> {
        let ida = Ida::new(
            self.h,
            self.problem.goal(),
            Clock::new(&self.budget),
            self.opts.pruning,
        )
        .watching(stop);
        Box::new(Searcher {
            src: self,
            ida,
            nb: Neighbours::new(self.problem.start().shape()),
            parity: solution_parity(self.problem),
            bound: 0,
            tasks: Vec::new(),
            t0: Instant::now(),
        })
    }

    fn identity(&self) -> String {
        self.h.identity()
    }
}

struct Searcher<'s, H: TableHooks> {
    src: &'s Source<'s, H>,
    ida: Ida<'s, H>,
    nb: Neighbours,
    parity: u32,
    bound: u32,
    tasks: Vec<Node<H::State>>,
    t0: Instant,
}

impl<H: TableHooks> Subtrees for Searcher<'_, H> {
    fn first_bound(&self) -> u32 {
        if !self.src.problem.solvable() {
            return u32::MAX;
        }
        let hs = self.src.h.init(self.src.problem.start().tiles());
        with_parity(self.src.h.value(&hs), self.parity)
    }

    fn bound_after(&self, next: u32) -> u32 {
        with_parity(next, self.parity)
    }

    fn cut(&mut self, bound: u32, depth: u32) -> IterationCut {
        let (h, problem) = (self.src.h, self.src.problem);
        self.bound = bound;
        let root = Node::root(problem, &self.src.pruner, h.init(problem.start().tiles()));
        let mut cut = IterationCut {
            tasks: 0,
            expanded: 0,
            generated: 0,
            next_bound: u32::MAX,
            found: None,
        };
        let mut level = Vec::new();
        // (a root above the bound has no task: nothing lies under it)
        if h.value(&root.hs) <= bound {
            level.push(root);
        }
        for _ in 0..depth.min(bound) {
            let mut next = Vec::with_capacity(level.len() * 2);
            for node in level {
                if is_goal(h, problem, &node) {
                    cut.found = Some(node.path);
                    self.tasks.clear();
                    return cut;
                }
                cut.expanded += 1;
                let kids = children(h, &self.src.pruner, &self.nb, &node, bound);
                cut.generated += kids.generated;
                cut.next_bound = cut.next_bound.min(kids.next_bound);
                next.extend(kids.within);
            }
            level = next;
        }
        cut.tasks = level.len();
        self.tasks = level;
        cut
    }

    fn task_moves(&self, task: usize) -> String {
        self.tasks
            .get(task)
            .map_or_else(String::new, |n| crate::board::path_string(&n.path))
    }

    fn search(&mut self, task: usize) -> Option<TaskResult> {
        let node = self.tasks.get(task)?;
        let ida = &mut self.ida;
        let (e0, g0) = (ida.expanded, ida.generated);
        ida.set_board(&node.tiles);
        let step = ida.search(node.blank, node.state, node.g, node.hs, self.bound);
        let end = match step {
            Step::Exhausted => TaskEnd::Exhausted,
            Step::Found => {
                let mut path = node.path.clone();
                path.extend(ida.take_path());
                TaskEnd::Found(path)
            }
            Step::Stopped => match ida.interrupt() {
                Some(i @ Interrupt::Limit(_)) => TaskEnd::Halted(i),
                // the caller's flag, not (only) the stop flag
                Some(Interrupt::Cancelled) if self.src.opts.budget.cancelled() => {
                    TaskEnd::Halted(Interrupt::Cancelled)
                }
                _ => TaskEnd::Stopped,
            },
        };
        Some(TaskResult {
            expanded: ida.expanded - e0,
            generated: ida.generated - g0,
            next_bound: ida.next_bound(),
            end,
        })
    }

    fn solution(
        &self,
        path: Option<Vec<Dir>>,
        stats: Stats,
        iterations: Vec<IterationSummary>,
    ) -> Solution {
        let moves = path.as_ref().map(|p| p.len() as u32);
        let path = path.filter(|_| self.src.opts.want_path);
        let stats = Stats {
            elapsed: if stats.elapsed.is_zero() {
                self.t0.elapsed()
            } else {
                stats.elapsed
            },
            ..stats
        };
        Solution::found(NAME, Some(self.src.h.name()), moves, path, stats).with_iterations(iterations)
    }

    fn halted(&self, why: Interrupt, last_done: u32, stats: Stats) -> SearchError {
        why.error(NAME, &self.src.opts.budget, last_done, stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_board;
    use crate::HeuristicKind;

    fn problem(start: &str, goal: &str) -> Problem {
        let start = parse_board(start, None).expect("a board");
        let goal = parse_board(goal, None).expect("a board");
        Problem::new(start, goal).expect("a problem")
    }

    fn options() -> SolveOptions {
        SolveOptions {
            heuristic: HeuristicKind::LinearConflict,
            want_path: true,
            ..SolveOptions::default()
        }
    }

    /// IDA* driven through the cut as a distributed driver would (one
    /// worker, every task in order): the answer and the nodes of each
    /// iteration.
    fn drive(p: &Problem, opts: &SolveOptions, depth: u32) -> (Option<Vec<Dir>>, Vec<u64>) {
        with_subtrees(p, opts, |src| {
            let mut s = src.searcher(Arc::new(AtomicBool::new(false)));
            let mut bound = s.first_bound();
            let mut sizes = Vec::new();
            while bound != u32::MAX {
                let cut = s.cut(bound, depth);
                let (mut nodes, mut next) = (cut.expanded, cut.next_bound);
                if cut.found.is_some() {
                    sizes.push(nodes);
                    return (cut.found, sizes);
                }
                for t in 0..cut.tasks {
                    let task = s.search(t).expect("a task");
                    nodes += task.expanded;
                    next = next.min(task.next_bound);
                    if let TaskEnd::Found(path) = task.end {
                        sizes.push(nodes);
                        return (Some(path), sizes);
                    }
                    assert_eq!(task.end, TaskEnd::Exhausted);
                }
                sizes.push(nodes);
                bound = s.bound_after(next);
            }
            (None, sizes)
        })
        .expect("a search")
    }

    #[test]
    fn cut_searches_agree_with_the_sequential_search_at_every_depth() {
        let boards = [
            ("8 6 7 2 5 4 3 0 1", "1 2 3 4 5 6 7 8 0"),
            ("2 8 3 1 6 4 7 0 5", "1 2 3 8 0 4 7 6 5"),
            ("1 2 3 4 5 6 7 8 0", "1 2 3 4 5 6 7 8 0"),
            (
                "5 1 2 3 9 6 7 4 13 10 11 8 0 14 15 12",
                "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0",
            ),
            // two tiles swapped: unreachable
            (
                "2 1 5 3 0 6 7 4 9 10 11 8 13 14 15 12",
                "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0",
            ),
            (
                "0 6 3 7 2 8 15 4 1 9 10 12 14 5 13 11",
                "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0",
            ),
        ];
        let opts = options();
        for (start, goal) in boards {
            let p = problem(start, goal);
            let serial = crate::search::solve(&p, &SolveOptions {
                algorithm: crate::Algorithm::Idastar,
                ..options()
            })
            .expect("a serial search");
            for depth in [0, 1, 2, 3, 5, 8, 13, 21, 34, 80] {
                let (path, sizes) = drive(&p, &opts, depth);
                assert_eq!(path.as_ref().map(|p| p.len() as u32), serial.moves, "{start}");
                let Some(path) = path else {
                    continue; // unreachable: no iteration searched
                };
                let end = p.start().apply_path(&path).expect("the path replays");
                assert_eq!(end.tiles(), p.goal().tiles(), "{start} at depth {depth}");
                // every exhausted iteration costs what the sequential one did
                let exhausted: Vec<u64> = serial.iterations.iter().map(|i| i.expanded).collect();
                let n = sizes.len() - 1;
                assert_eq!(sizes[..n], exhausted[..n], "{start} at depth {depth}");
            }
        }
    }

    #[test]
    fn every_worker_cuts_the_same_tasks() {
        let p = problem(
            "5 1 2 3 9 6 7 4 13 10 11 8 0 14 15 12",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0",
        );
        with_subtrees(&p, &options(), |src| {
            let stop = Arc::new(AtomicBool::new(false));
            let (mut a, mut b) = (src.searcher(stop.clone()), src.searcher(stop));
            let bound = a.first_bound() + 4;
            let (ca, cb) = (a.cut(bound, 4), b.cut(bound, 4));
            assert_eq!(ca, cb);
            assert!(ca.tasks > 1);
            for t in 0..ca.tasks {
                assert_eq!(a.task_moves(t), b.task_moves(t));
            }
            assert_eq!(a.search(ca.tasks), None);
        })
        .expect("a search");
    }

    #[test]
    fn a_raised_stop_flag_leaves_the_task_undone() {
        let p = problem(
            "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",
            "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
        );
        with_subtrees(&p, &options(), |src| {
            let stop = Arc::new(AtomicBool::new(true));
            let mut s = src.searcher(stop);
            let bound = s.first_bound() + 20;
            let cut = s.cut(bound, 1);
            let task = s.search(0).expect("a task");
            assert!(cut.tasks > 0);
            assert_eq!(task.end, TaskEnd::Stopped);
        })
        .expect("a search");
    }

    #[test]
    fn the_multi_tile_metric_is_refused() {
        let p = problem("2 8 3 1 6 4 7 0 5", "1 2 3 8 0 4 7 6 5");
        let opts = SolveOptions {
            metric: Metric::Mtm,
            ..options()
        };
        let e = with_subtrees(&p, &opts, |_| ()).expect_err("refused");
        assert!(e.to_string().contains("single-tile"), "{e}");
    }
}
