//! Parallel IDA*: each iteration's tree is cut at a shallow depth and the
//! subtrees below are searched by rayon workers, each with its own board in
//! place ([`Ida`]), all under the same bound.
//!
//! **Optimality.** Iteration `B` starts only after every iteration with a
//! smaller bound was searched to exhaustion, so no solution shorter than `B`
//! exists; any solution a worker finds within the bound therefore has
//! length exactly `B`. The first worker to find one raises a shared stop
//! flag and the others give up at their next poll.
//!
//! **Budgets.** Workers share one budget whose cancel flag is the stop flag;
//! between subtrees the driver folds in the caller's cancel flag and the
//! node budget (summed over workers), so a stop is never later than one
//! subtree's poll interval.

use super::ida::{solution_parity, with_parity, Ida, Step, NO_PREV};
use super::moves::{slide, Neighbours};
use super::support::{Clock, Interrupt};
use super::{Limit, Problem, SearchError, Solution, SolveOptions, Solver, Stats};
use crate::board::Dir;
use crate::heuristic::{with_heuristic, Heuristic, WithHeuristic};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

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
            fn run<H: Heuristic>(self, h: &H) -> Self::Output {
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

/// Aim for this many subtrees per worker, so the load evens out.
const SUBTREES_PER_THREAD: usize = 64;

/// A node at the cut: the board, how it was reached, its heuristic state.
struct Cut<S> {
    tiles: Vec<u8>,
    blank: usize,
    prev: usize,
    g: u32,
    hs: S,
    path: Vec<Dir>,
}

/// Expands the tree breadth-first (no duplicate detection, as IDA* itself)
/// under `f ≤ bound` until there are at least `want` nodes at one depth.
/// Returns the cut, the smallest `f` pruned on the way, a solution found
/// above the cut, and the nodes expanded.
#[allow(clippy::type_complexity)]
fn cut<H: Heuristic>(
    h: &H,
    nb: &Neighbours,
    root: Cut<H::State>,
    goal: &[u8],
    bound: u32,
    want: usize,
) -> (Vec<Cut<H::State>>, u32, Option<Vec<Dir>>, u64, u64) {
    let mut level = vec![root];
    let mut next_bound = u32::MAX;
    let (mut expanded, mut generated) = (0u64, 0u64);
    while level.len() < want {
        let mut below = Vec::with_capacity(level.len() * 3);
        for node in &level {
            if h.value(&node.hs) == 0 && node.tiles == goal {
                return (
                    Vec::new(),
                    next_bound,
                    Some(node.path.clone()),
                    expanded,
                    generated,
                );
            }
            expanded += 1;
            let m = nb.of(node.blank);
            for i in 0..usize::from(m.len) {
                let to = usize::from(m.cells[i]);
                if to == node.prev {
                    continue;
                }
                generated += 1;
                let mut tiles = node.tiles.clone();
                let tile = slide(&mut tiles, node.blank, to);
                let hs = h.update(&node.hs, &tiles, tile, to, node.blank);
                let f = node.g + 1 + h.value(&hs);
                // (full update: nodes at the cut are searched further)
                if f > bound {
                    next_bound = next_bound.min(f);
                    continue;
                }
                let mut path = node.path.clone();
                path.push(m.dirs[i]);
                below.push(Cut {
                    tiles,
                    blank: to,
                    prev: node.blank,
                    g: node.g + 1,
                    hs,
                    path,
                });
            }
        }
        if below.is_empty() {
            return (Vec::new(), next_bound, None, expanded, generated);
        }
        level = below;
    }
    (level, next_bound, None, expanded, generated)
}

/// IDA* on `threads` workers.
fn run<H: Heuristic>(
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
    let nb = Neighbours::new(problem.start().shape());
    let goal = problem.goal().tiles();
    let root_hs = h.init(problem.start().tiles());
    let parity = solution_parity(problem);
    let mut bound = with_parity(h.value(&root_hs), parity);
    let user = &opts.budget;
    let deadline = user.deadline(t0);
    let (mut expanded, mut generated) = (0u64, 0u64);
    let stats = |e: u64, g: u64, bound: u32| Stats {
        expanded: e,
        generated: g,
        // each worker holds one path of at most `bound` boards
        peak_states: (u64::from(bound) + 1) * threads as u64,
        elapsed: t0.elapsed(),
    };
    let mut last_done = 0;
    loop {
        let root = Cut {
            tiles: problem.start().tiles().to_vec(),
            blank: problem.start().blank(),
            prev: NO_PREV,
            g: 0,
            hs: root_hs,
            path: Vec::new(),
        };
        let (level, cut_next, found, e, g) =
            cut(h, &nb, root, goal, bound, threads * SUBTREES_PER_THREAD);
        expanded += e;
        generated += g;
        if let Some(path) = found {
            return Ok(solution(h, opts, path, stats(expanded, generated, bound)));
        }
        let stop = Arc::new(AtomicBool::new(false));
        let worker_budget = user
            .clone()
            .with_max_nodes(u64::MAX)
            .with_timeout(deadline.map(|d| d.saturating_duration_since(Instant::now())))
            .with_cancel(Some(stop.clone()));
        let next_bound = AtomicU32::new(cut_next);
        let nodes = AtomicU64::new(expanded);
        let gen = AtomicU64::new(generated);
        let answer: Mutex<Option<Vec<Dir>>> = Mutex::new(None);
        let interrupted: Mutex<Option<Interrupt>> = Mutex::new(None);
        pool.install(|| {
            level.par_iter().for_each_init(
                || {
                    let mut ida = Ida::new(h, problem.goal(), Clock::new(&worker_budget));
                    ida.set_board(problem.start().tiles());
                    ida
                },
                |ida, node| {
                    if stop.load(Relaxed) {
                        return;
                    }
                    if user.cancelled() {
                        *interrupted.lock().unwrap_or_else(PoisonError::into_inner) =
                            Some(Interrupt::Cancelled);
                        stop.store(true, Relaxed);
                        return;
                    }
                    let (e0, g0) = (ida.expanded, ida.generated);
                    ida.set_board(&node.tiles);
                    let step = ida.search(node.blank, node.prev, node.g, node.hs, bound);
                    let total = nodes.fetch_add(ida.expanded - e0, Relaxed) + ida.expanded - e0;
                    gen.fetch_add(ida.generated - g0, Relaxed);
                    match step {
                        Step::Found => {
                            let mut path = node.path.clone();
                            path.extend(ida.take_path());
                            let mut a = answer.lock().unwrap_or_else(PoisonError::into_inner);
                            if a.is_none() {
                                *a = Some(path);
                            }
                            stop.store(true, Relaxed);
                        }
                        Step::Exhausted => {
                            next_bound.fetch_min(ida.next_bound(), Relaxed);
                        }
                        Step::Stopped => {
                            // either another worker found the answer (the
                            // stop flag), or the clock ran out
                            if let Some(i @ Interrupt::Limit(_)) = ida.interrupt() {
                                let mut slot =
                                    interrupted.lock().unwrap_or_else(PoisonError::into_inner);
                                if slot.is_none() && answer_is_none(&answer) {
                                    *slot = Some(i);
                                }
                                stop.store(true, Relaxed);
                            }
                        }
                    }
                    if total >= user.max_nodes {
                        let mut slot = interrupted.lock().unwrap_or_else(PoisonError::into_inner);
                        if slot.is_none() && answer_is_none(&answer) {
                            *slot = Some(Interrupt::Limit(Limit::Nodes));
                        }
                        stop.store(true, Relaxed);
                    }
                },
            );
        });
        expanded = nodes.load(Relaxed);
        generated = gen.load(Relaxed);
        if let Some(path) = answer.into_inner().unwrap_or_else(PoisonError::into_inner) {
            return Ok(solution(h, opts, path, stats(expanded, generated, bound)));
        }
        if let Some(i) = interrupted
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
        {
            return Err(i.error(NAME, user, last_done, stats(expanded, generated, bound)));
        }
        let nb_next = next_bound.load(Relaxed);
        if nb_next == u32::MAX {
            // nothing left under any bound: unreachable (parity rules this
            // out before a search starts, but stay correct regardless)
            let stats = stats(expanded, generated, bound);
            return Ok(Solution::found(NAME, Some(h.name()), None, None, stats));
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
