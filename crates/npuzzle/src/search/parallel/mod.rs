//! Parallel IDA*: each iteration's tree is split recursively into rayon
//! tasks down to a *split depth*; below it a task searches its subtree with
//! a sequential [`Ida`] (its own board in place), all under the same bound.
//! Idle workers steal pending tasks, so both cores stay busy until the
//! iteration's last subtree; the split depth grows from one iteration to
//! the next while the largest subtree is a large share of the iteration
//! (the next iteration's tree has much the same shape, only larger), so
//! the last iteration, the longest, is split as finely as it needs.
//!
//! **Optimality.** Iteration `B` starts only after every iteration with a
//! smaller bound was searched to exhaustion, so no solution shorter than `B`
//! exists; any solution a worker finds within the bound therefore has
//! length exactly `B`. The first worker to find one raises a shared stop
//! flag and the others give up at their next poll.
//!
//! **Budgets.** Workers share the caller's budget (its deadline and cancel
//! flag, polled every few thousand nodes inside a subtree as a sequential
//! search polls them) and watch the stop flag as well; between subtrees the
//! driver folds in the node budget (summed over workers). A cancel is thus
//! seen within one poll interval, however large the subtrees.

use super::frontier::{children, is_goal, Node};
use super::ida::{solution_parity, with_parity, Ida, Step};
use super::moves::Neighbours;
use super::prune::MovePruner;
use super::{IterationSummary, Limit, Problem, SearchError, Solution, SolveOptions, Solver, Stats};
use super::checkpoint::{Counts, Place};
use crate::board::{path_string, Dir};
use crate::budget::Budget;
use crate::budget::{Clock, Interrupt};
use crate::heuristic::{with_heuristic, Heuristic, TableHooks, WithHeuristic};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

mod record;

use record::Record;

const NAME: &str = "idastar";

/// The parallel `idastar` solver: `opts.threads` workers.
#[derive(Clone, Copy, Debug, Default)]
pub struct ParallelIdastar;

impl Solver for ParallelIdastar {
    fn name(&self) -> &'static str {
        NAME
    }

    fn solve(&self, problem: &Problem, opts: &SolveOptions) -> Result<Solution, SearchError> {
        struct Work<'a> {
            problem: &'a Problem,
            opts: &'a SolveOptions,
        }
        impl WithHeuristic for Work<'_> {
            type Output = Result<Solution, SearchError>;
            fn run<H: TableHooks>(self, h: &H) -> Self::Output {
                run(h, self.problem, self.opts, self.opts.threads.max(1))
            }
        }
        with_heuristic(
            opts.heuristic,
            problem.goal(),
            &opts.pdb,
            &opts.budget,
            Work { problem, opts },
        )?
    }
}

/// How an iteration ended: with an answer, interrupted, or with the next
/// bound to try (`u32::MAX`: nothing left under any bound).
enum Ended {
    Found(Vec<Dir>),
    Interrupted(Interrupt),
    Bound(u32),
}

/// Runs one iteration of the depth-first search under `bound`, its first
/// `split` levels handed out as tasks; returns how it ended, the counts
/// so far, and the largest subtree a task searched.
#[allow(clippy::too_many_arguments)]
fn iterate<H: TableHooks>(
    pool: &rayon::ThreadPool,
    h: &H,
    problem: &Problem,
    opts: &SolveOptions,
    (pruner, worker_budget): (&Arc<MovePruner>, &Budget),
    (bound, split): (u32, u32),
    (expanded, generated): (u64, u64),
    root_hs: &H::State,
    record: Option<&Record>,
) -> (Ended, u64, u64, u64) {
    // (searchers watch their iteration's stop flag, so each iteration
    // makes its own, one per worker)
    let stop = Arc::new(AtomicBool::new(false));
    let it = Iteration {
        h,
        problem,
        opts,
        nb: Neighbours::new(problem.start().shape()),
        pruner: pruner.clone(),
        bound,
        split,
        worker_budget,
        stop,
        // (a resumed iteration: the least over the tasks it had done)
        next_bound: AtomicU32::new(record.map_or(u32::MAX, Record::next_bound)),
        expanded: AtomicU64::new(expanded),
        generated: AtomicU64::new(generated),
        largest: AtomicU64::new(0),
        answer: Mutex::new(None),
        interrupted: Mutex::new(None),
        idle: Mutex::new(Vec::new()),
        record,
    };
    let root = Node::root(problem, pruner, *root_hs);
    pool.scope(|s| it.explore(s, root));
    let counts = (it.expanded.load(Relaxed), it.generated.load(Relaxed));
    let largest = it.largest.load(Relaxed);
    let next_bound = it.next_bound.load(Relaxed);
    let ended = if let Some(path) = it.answer.into_inner().unwrap_or_else(PoisonError::into_inner) {
        Ended::Found(path)
    } else if let Some(i) = it.interrupted.into_inner().unwrap_or_else(PoisonError::into_inner) {
        Ended::Interrupted(i)
    } else {
        Ended::Bound(next_bound)
    };
    (ended, counts.0, counts.1, largest)
}

/// Aim for this many subtrees per worker at the split depth: a subtree
/// larger than `1 / (threads · SUBTREES_PER_THREAD)` of an iteration
/// deepens the split for the next.
const SUBTREES_PER_THREAD: u64 = 64;

/// Deepest split (the tasks pending at once are about three per level).
const MAX_SPLIT: u32 = 40;


/// What the tasks of one iteration share.
struct Iteration<'a, H: TableHooks> {
    h: &'a H,
    problem: &'a Problem,
    opts: &'a SolveOptions,
    nb: Neighbours,
    pruner: Arc<MovePruner>,
    bound: u32,
    /// Nodes below depth `split` are searched by one task.
    split: u32,
    worker_budget: &'a Budget,
    stop: Arc<AtomicBool>,
    next_bound: AtomicU32,
    expanded: AtomicU64,
    generated: AtomicU64,
    /// Nodes of the largest subtree one task searched.
    largest: AtomicU64,
    answer: Mutex<Option<Vec<Dir>>>,
    interrupted: Mutex<Option<Interrupt>>,
    /// Searchers not in use (one per worker, made once).
    idle: Mutex<Vec<Ida<'a, H>>>,
    /// The checkpointing, if asked for.
    record: Option<&'a Record>,
}

impl<'a, H: TableHooks> Iteration<'a, H> {
    fn interrupt(&self, i: Interrupt) {
        let mut slot = self
            .interrupted
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() && answer_is_none(&self.answer) {
            *slot = Some(i);
        }
        self.stop.store(true, Relaxed);
    }

    fn found(&self, path: Vec<Dir>) {
        let mut a = self.answer.lock().unwrap_or_else(PoisonError::into_inner);
        if a.is_none() {
            *a = Some(path);
        }
        self.stop.store(true, Relaxed);
    }

    /// Searches below `node`: splits it into tasks above the split depth,
    /// else searches its subtree at once.
    fn explore<'s>(&'s self, scope: &rayon::Scope<'s>, node: Node<H::State>) {
        if self.stop.load(Relaxed) {
            return;
        }
        if self.opts.budget.cancelled() {
            self.interrupt(Interrupt::Cancelled);
            return;
        }
        if node.g >= self.split {
            self.leaf(&node);
            return;
        }
        if is_goal(self.h, self.problem, &node) {
            self.found(node.path);
            return;
        }
        self.expanded.fetch_add(1, Relaxed);
        let kids = children(self.h, &self.pruner, &self.nb, &node, self.bound);
        self.generated.fetch_add(kids.generated, Relaxed);
        self.next_bound.fetch_min(kids.next_bound, Relaxed);
        // In the order a sequential search takes them: a worker runs the
        // tasks it spawned last first, so they are spawned in reverse. In
        // the last iteration the worker then reaches the goal about when a
        // sequential search would, rather than after subtrees in move order
        // (Korf & Felner's #25 on two threads expanded 1.9 times the nodes
        // of one thread).
        for child in kids.within.into_iter().rev() {
            scope.spawn(move |s| self.explore(s, child));
        }
    }

    /// One task's subtree, searched by a sequential IDA* core (skipped
    /// when a resumed iteration's checkpoint has it done).
    fn leaf(&self, node: &Node<H::State>) {
        let moves = self.record.map(|_| path_string(&node.path));
        if let (Some(r), Some(m)) = (self.record, &moves) {
            if r.skip.contains(m) {
                return;
            }
        }
        let taken = self
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        let mut ida = taken.unwrap_or_else(|| {
            Ida::new(
                self.h,
                self.problem.goal(),
                Clock::new(self.worker_budget),
                self.opts.pruning,
            )
            .watching(self.stop.clone())
        });
        let (e0, g0) = (ida.expanded, ida.generated);
        ida.set_board(&node.tiles);
        let step = ida.search(node.blank, node.state, node.g, node.hs, self.bound);
        let e = ida.expanded - e0;
        let total = self.expanded.fetch_add(e, Relaxed) + e;
        self.generated.fetch_add(ida.generated - g0, Relaxed);
        self.largest.fetch_max(e, Relaxed);
        match step {
            Step::Found => {
                let mut path = node.path.clone();
                path.extend(ida.take_path());
                self.found(path);
            }
            Step::Exhausted => {
                self.next_bound.fetch_min(ida.next_bound(), Relaxed);
                if let (Some(r), Some(m)) = (self.record, moves) {
                    let counts = Counts {
                        expanded: e,
                        generated: ida.generated - g0,
                        next_bound: ida.next_bound(),
                    };
                    if !r.finished(m, counts) {
                        self.interrupt(Interrupt::Cancelled);
                    }
                }
            }
            Step::Stopped => match ida.interrupt() {
                Some(i @ Interrupt::Limit(_)) => self.interrupt(i),
                // the caller's flag, not (only) the stop flag another task
                // raised on finding the answer
                Some(Interrupt::Cancelled) if self.opts.budget.cancelled() => {
                    self.interrupt(Interrupt::Cancelled);
                }
                _ => {}
            },
        }
        if total >= self.opts.budget.max_nodes {
            self.interrupt(Interrupt::Limit(Limit::Nodes));
        }
        self.idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(ida);
    }
}

/// What each worker searches under: the user's budget with the user's
/// deadline (its clock counting from `user_start`) and cancel flag, and no
/// node limit of its own (the iteration counts the nodes).
pub(super) fn worker_budget(user: &Budget, user_start: Instant) -> Budget {
    user.clone()
        .counting_from(user_start)
        .with_max_nodes(u64::MAX)
}

/// IDA* on `threads` workers.
fn run<H: TableHooks>(
    h: &H,
    problem: &Problem,
    opts: &SolveOptions,
    threads: usize,
) -> Result<Solution, SearchError> {
    let t0 = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| SearchError::Threads {
            threads,
            message: e.to_string(),
        })?;
    let shape = problem.start().shape();
    let user_clock = Clock::new(&opts.budget);
    let pruner = MovePruner::shared_until(shape, opts.pruning, &|| user_clock.poll().is_err());
    let root_hs = h.init(problem.start().tiles());
    let parity = solution_parity(problem);
    let mut bound = with_parity(h.value(&root_hs), parity);
    let user = &opts.budget;
    // the user's deadline counts from when the answer started (a
    // database build before the search included)
    let user_start = Clock::new(user).start;
    let worker_budget = worker_budget(user, user_start);
    let (mut expanded, mut generated) = (0u64, 0u64);
    let stats = |e: u64, g: u64, bound: u32| Stats {
        expanded: e,
        generated: g,
        // each worker holds one path of at most `bound` boards, and about
        // three pending tasks per level of the split
        peak_states: (u64::from(bound) + 1) * threads as u64 * 4,
        elapsed: t0.elapsed(),
    };
    let mut last_done = 0;
    let mut split = 1u32;
    let mut done = Vec::new();
    let mut record = None;
    let mut resume = None;
    if let Some(c) = &opts.checkpoint {
        let (r, saved) = Record::open(c, h, problem, opts)?;
        record = Some(r);
        if let Some(saved) = saved {
            (bound, done) = (saved.bound, saved.iterations.clone());
            (expanded, generated) = (saved.at_start.expanded, saved.at_start.generated);
            for it in &done {
                opts.budget.iteration_begins(it.bound);
                opts.budget.iteration_ends(it.bound, it.expanded);
            }
            last_done = done.last().map_or(0, |it| it.bound);
            if let Place::Parallel { split: s, .. } = saved.place {
                split = s;
            }
            resume = Some(saved);
        }
    }
    loop {
        let before = expanded;
        opts.budget.iteration_begins(bound);
        let at_start = Counts {
            expanded,
            generated,
            next_bound: u32::MAX,
        };
        if let Some(r) = &mut record {
            let counts = r.begin(bound, &done, at_start, split, resume.take())?;
            (expanded, generated) = (counts.expanded, counts.generated);
        }
        let (ended, largest);
        (ended, expanded, generated, largest) = iterate(
            &pool,
            h,
            problem,
            opts,
            (&pruner, &worker_budget),
            (bound, split),
            (expanded, generated),
            &root_hs,
            record.as_ref(),
        );
        done.push(IterationSummary {
            bound,
            expanded: expanded - before,
        });
        opts.budget.iteration_ends(bound, expanded - before);
        if let Some(r) = &record {
            r.ended(&ended, opts)?;
        }
        let nb_next = match ended {
            Ended::Found(path) => {
                let found = solution(h, opts, path, stats(expanded, generated, bound));
                return Ok(found.with_iterations(done));
            }
            Ended::Interrupted(i) => {
                return Err(i.error(NAME, user, last_done, stats(expanded, generated, bound)));
            }
            Ended::Bound(b) => b,
        };
        let this = expanded - before;
        if largest * threads as u64 * SUBTREES_PER_THREAD > this && split < MAX_SPLIT.min(bound) {
            split += 1;
        }
        if nb_next == u32::MAX {
            // nothing left under any bound: unreachable (parity rules this
            // out before a search starts, but stay correct regardless)
            let stats = stats(expanded, generated, bound);
            let none = Solution::found(NAME, Some(h.name()), None, None, stats);
            return Ok(none.with_iterations(done));
        }
        last_done = bound;
        bound = with_parity(nb_next, parity);
    }
}

fn answer_is_none(answer: &Mutex<Option<Vec<Dir>>>) -> bool {
    answer
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .is_none()
}

fn solution<H: Heuristic>(h: &H, opts: &SolveOptions, path: Vec<Dir>, stats: Stats) -> Solution {
    let moves = Some(path.len() as u32);
    Solution::found(
        NAME,
        Some(h.name()),
        moves,
        opts.want_path.then_some(path),
        stats,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn workers_keep_the_users_deadline() {
        // An answer that started 30 s ago (a database build, say) with a
        // minute to spend: every iteration's workers stop at its deadline,
        // not at its start plus what was left when the iteration began.
        let minute = Duration::from_secs(60);
        let start = Instant::now()
            .checked_sub(Duration::from_secs(30))
            .unwrap_or_else(Instant::now);
        let user = Budget::unlimited()
            .with_timeout(Some(minute))
            .counting_from(start);
        let w = worker_budget(&user, Clock::new(&user).start);
        assert_eq!(w.deadline(Clock::new(&w).start), Some(start + minute));
        assert_eq!(w.max_nodes, u64::MAX);
        // a budget whose clock has not started counts from the search's start
        let user = Budget::unlimited().with_timeout(Some(minute));
        let t0 = Instant::now();
        let w = worker_budget(&user, t0);
        assert_eq!(w.deadline(Clock::new(&w).start), Some(t0 + minute));
    }

    #[test]
    fn workers_watch_the_callers_cancel_flag() {
        // Inside a subtree only the worker's own budget is polled: it must
        // carry the caller's flag, or a cancel waits for the subtree's end.
        let flag = Arc::new(AtomicBool::new(false));
        let user = Budget::unlimited().with_cancel(Some(flag.clone()));
        let w = worker_budget(&user, Instant::now());
        assert!(!w.cancelled());
        flag.store(true, Relaxed);
        assert!(w.cancelled());
        assert_eq!(Clock::new(&w).poll(), Err(Interrupt::Cancelled));
    }
}
