//! IDA* in pushes on several threads. Each iteration is first searched
//! down to a shallow depth, where every node the bound admits becomes a
//! subtree; the subtrees are then searched beside each other (rayon) with
//! the same [`Search::dfs`], each on its own board. The iteration's next
//! bound is the least over all of them, the node budget and the clock are
//! shared, and the first solution found stops the others at their next
//! poll: any solution of an iteration is optimal, so which subtree gives
//! it only changes the path, never the length. The cut deepens until there
//! are enough subtrees to keep every thread busy.

use super::core::{Search, Shared, Step, Task};
use super::{Found, NAME};
use crate::board::{Dir, Problem};
use crate::budget::Interrupt;
use crate::heuristic::pdb::colour::ColourHeuristic;
use crate::heuristic::Heuristic;
use crate::search::{IterationSummary, SearchError, SolveOptions, Stats};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Subtrees wanted per thread: enough that one slow subtree does not
/// leave the other threads idle for long.
const TASKS_PER_THREAD: usize = 16;

/// The deepest cut, in pushes: deeper, the shallow search repeated at
/// each deepening costs more than the balance gains.
const MAX_CUT: u32 = 8;

/// How one subtree's search ended.
struct Outcome {
    step: Step,
    expanded: u64,
    generated: u64,
    next_bound: u32,
    interrupt: Option<Interrupt>,
    path: Option<Vec<Dir>>,
}

/// Searches `problem` in pushes with the colour databases on
/// `opts.threads` threads (one path, the first found).
pub(super) fn run<H: Heuristic + Sync, const N: usize>(
    h: &H,
    problem: &Problem,
    opts: &SolveOptions,
    colour: &ColourHeuristic,
) -> Result<Found, SearchError>
where
    H::State: Send,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| SearchError::Threads {
            threads: opts.threads,
            message: e.to_string(),
        })?;
    let (mut s, root) = Search::<H, N>::new(h, problem, opts, None, None, Some(colour));
    let start = s.clock.start;
    let root_h = s.estimate(&root);
    s.bound = root_h;
    let blank = problem.start().blank();
    let mut done_depth = 0;
    let mut done = Vec::new();
    loop {
        let before = s.expanded;
        opts.budget.iteration_begins(s.bound);
        // the cut: deepened until the subtrees are enough (the shallow
        // search repeated at each deepening is a small part of the tree)
        let mut cut_depth = 1;
        let (step, tasks) = loop {
            s.next_bound = u32::MAX;
            s.cut = Some((cut_depth, Vec::new()));
            let step = s.dfs(blank, 0, root, root_h, None, None);
            let tasks = s.cut.take().map_or_else(Vec::new, |(_, t)| t);
            let enough = tasks.len() >= TASKS_PER_THREAD * opts.threads;
            let deepest = cut_depth >= MAX_CUT || cut_depth + 1 >= s.bound;
            if !matches!(step, Step::Exhausted) || enough || deepest || tasks.is_empty() {
                break (step, tasks);
            }
            cut_depth += 1;
        };
        let stats = |s: &Search<'_, H, N>| Stats {
            expanded: s.expanded,
            generated: s.generated,
            peak_states: u64::from(s.bound) + 1,
            elapsed: start.elapsed(),
        };
        let ended = |s: &Search<'_, H, N>, mut done: Vec<IterationSummary>| {
            done.push(IterationSummary {
                bound: s.bound,
                expanded: s.expanded - before,
            });
            opts.budget.iteration_ends(s.bound, s.expanded - before);
            done
        };
        match step {
            Step::Found => return Ok(found(&s, s.path(), stats(&s), ended(&s, done))),
            Step::Stopped => {
                let i = s.interrupt.unwrap_or(Interrupt::Cancelled);
                return Err(i.error(NAME, &opts.budget, done_depth, stats(&s)));
            }
            Step::Exhausted => {}
        }
        let outcomes = subtrees(&s, &pool, tasks);
        let mut path = None;
        let mut interrupt = None;
        for o in outcomes {
            s.expanded += o.expanded;
            s.generated += o.generated;
            s.next_bound = s.next_bound.min(o.next_bound);
            match o.step {
                Step::Found if path.is_none() => path = o.path,
                Step::Stopped if interrupt.is_none() => interrupt = o.interrupt,
                _ => {}
            }
        }
        done = ended(&s, done);
        if let Some(path) = path {
            return Ok(found(&s, path, stats(&s), done));
        }
        if let Some(i) = interrupt {
            return Err(i.error(NAME, &opts.budget, done_depth, stats(&s)));
        }
        if s.next_bound == u32::MAX {
            return Ok(Found {
                moves: None,
                paths: Vec::new(),
                count: 0,
                heuristic: "pdb",
                stats: stats(&s),
                iterations: done,
            });
        }
        done_depth = s.bound;
        s.bound = s.next_bound;
    }
}

fn found<H: Heuristic, const N: usize>(
    s: &Search<'_, H, N>,
    path: Vec<Dir>,
    stats: Stats,
    iterations: Vec<IterationSummary>,
) -> Found {
    Found {
        moves: Some(s.bound),
        paths: vec![path],
        count: 1,
        heuristic: "pdb",
        stats,
        iterations,
    }
}

/// Searches each subtree of `tasks` under `s`'s bound on `pool`, in the
/// order given (the outcomes too).
fn subtrees<H: Heuristic + Sync, const N: usize>(
    s: &Search<'_, H, N>,
    pool: &rayon::ThreadPool,
    tasks: Vec<Task<H::State, N>>,
) -> Vec<Outcome>
where
    H::State: Send,
{
    let shared = Shared {
        spent: AtomicU64::new(s.expanded),
        stop: AtomicBool::new(false),
    };
    let forks: Vec<(Search<'_, H, N>, Task<H::State, N>)> = tasks
        .into_iter()
        .map(|t| {
            let mut w = s.fork(&shared);
            w.tiles[..t.tiles.len()].copy_from_slice(&t.tiles);
            w.stack.clone_from(&t.stack);
            (w, t)
        })
        .collect();
    pool.install(|| {
        forks
            .into_par_iter()
            .map(|(mut w, t)| {
                if shared.stop.load(Ordering::Relaxed) {
                    return Outcome {
                        step: Step::Stopped,
                        expanded: 0,
                        generated: 0,
                        next_bound: u32::MAX,
                        interrupt: None,
                        path: None,
                    };
                }
                let step = w.dfs(t.blank, t.g, t.e, t.h, t.last, None);
                let path = matches!(step, Step::Found).then(|| w.path());
                if path.is_some() {
                    shared.stop.store(true, Ordering::Relaxed);
                }
                Outcome {
                    step,
                    expanded: w.expanded,
                    generated: w.generated,
                    next_bound: w.next_bound,
                    interrupt: w.interrupt,
                    path,
                }
            })
            .collect()
    })
}
