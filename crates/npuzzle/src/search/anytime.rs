//! Anytime search: an answer at once, improved while time remains, always
//! with the best proven lower bound.
//!
//! Two searches run side by side on the same heuristic:
//! * the *upper* side runs weighted A* with falling weights (5, 3, 2, 1.5,
//!   1.25, 1.1), each answer at most its weight times the fewest moves,
//!   keeping the shortest path found;
//! * the *lower* side runs IDA*: each iteration that finishes without a
//!   solution proves the fewest moves exceed its bound, which raises the
//!   lower bound; an iteration that finds one has found the optimum.
//!
//! They stop when the two bounds meet (the answer is then proven optimal),
//! when the time budget runs out (the answer says how far from optimal it
//! can be), or when cancelled. Without a time budget the search gets
//! [`DEFAULT_SECONDS`], so it never runs without end.

use super::astar::{self, Weight};
use super::ida::{solution_parity, with_parity, Ida, Step};
use super::prune::Pruning;
use super::{Budget, Limit, Problem, SearchError, Solution, SolveOptions, Solver, Stats};
use crate::board::Dir;
use crate::budget::Clock;
use crate::budget::Interrupt;
use crate::heuristic::{with_heuristic, Heuristic, TableHooks, WithHeuristic};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

const NAME: &str = "anytime";

/// Time an anytime search gets when its budget gives none.
pub const DEFAULT_SECONDS: f64 = 10.0;

/// The weights of the upper side, in order.
const WEIGHTS: [f64; 6] = [5.0, 3.0, 2.0, 1.5, 1.25, 1.1];

/// The `anytime` solver.
#[derive(Clone, Copy, Debug, Default)]
pub struct Anytime;

impl Solver for Anytime {
    fn name(&self) -> &'static str {
        NAME
    }

    fn solve(&self, problem: &Problem, opts: &SolveOptions) -> Result<Solution, SearchError> {
        let mut opts = opts.clone();
        if opts.budget.timeout.is_none() {
            opts.budget = opts
                .budget
                .clone()
                .with_timeout(Some(Duration::from_secs_f64(DEFAULT_SECONDS)));
        }
        struct Work<'a> {
            problem: &'a Problem,
            opts: &'a SolveOptions,
        }
        impl WithHeuristic for Work<'_> {
            type Output = Result<Solution, SearchError>;
            fn run<H: TableHooks>(self, h: &H) -> Self::Output {
                run(h, self.problem, self.opts)
            }
        }
        with_heuristic(
            opts.heuristic,
            problem.goal(),
            &opts.pdb,
            &opts.budget,
            Work {
                problem,
                opts: &opts,
            },
        )?
    }
}

/// What the two sides share.
struct Shared {
    /// Raised to stop both sides.
    stop: Arc<AtomicBool>,
    /// The fewest moves are at least this.
    lower: AtomicU32,
    /// The shortest path found.
    best: Mutex<Option<Vec<Dir>>>,
    /// Nodes expanded and generated, and the most states held.
    expanded: AtomicU64,
    generated: AtomicU64,
    peak: AtomicU64,
    /// Sides still running.
    running: AtomicUsize,
    /// What stopped a side early (a budget other than time), if anything.
    failure: Mutex<Option<SearchError>>,
}

impl Shared {
    fn best_len(&self) -> Option<u32> {
        self.best
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .map(|p| p.len() as u32)
    }

    fn offer(&self, path: Vec<Dir>) {
        let mut best = self.best.lock().unwrap_or_else(PoisonError::into_inner);
        if best.as_ref().is_none_or(|b| path.len() < b.len()) {
            *best = Some(path);
        }
    }

    fn proven(&self) -> bool {
        self.best_len()
            .is_some_and(|b| b <= self.lower.load(Relaxed))
    }
}

fn run<H: TableHooks>(
    h: &H,
    problem: &Problem,
    opts: &SolveOptions,
) -> Result<Solution, SearchError> {
    let t0 = Instant::now();
    let user = &opts.budget;
    let deadline = user.deadline(Clock::new(user).start);
    let stop = Arc::new(AtomicBool::new(false));
    let parity = solution_parity(problem);
    let h0 = h.value(&h.init(problem.start().tiles()));
    let shared = Shared {
        stop: stop.clone(),
        lower: AtomicU32::new(with_parity(h0, parity)),
        best: Mutex::new(None),
        expanded: AtomicU64::new(0),
        generated: AtomicU64::new(0),
        peak: AtomicU64::new(0),
        running: AtomicUsize::new(2),
        failure: Mutex::new(None),
    };
    // Both sides stop on the shared flag; the caller's cancel flag and the
    // deadline are watched here and passed on through it.
    let side_budget = user.clone().with_cancel(Some(stop.clone()));
    std::thread::scope(|s| {
        s.spawn(|| {
            upper(h, problem, opts, &side_budget, &shared);
            shared.running.fetch_sub(1, Relaxed);
        });
        s.spawn(|| {
            lower(h, problem, &side_budget, parity, &shared);
            shared.running.fetch_sub(1, Relaxed);
        });
        while shared.running.load(Relaxed) > 0 {
            let late = deadline.is_some_and(|d| Instant::now() >= d);
            if late || user.cancelled() || shared.proven() {
                stop.store(true, Relaxed);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    });
    let stats = Stats {
        expanded: shared.expanded.load(Relaxed),
        generated: shared.generated.load(Relaxed),
        peak_states: shared.peak.load(Relaxed),
        elapsed: t0.elapsed(),
    };
    let lower = shared.lower.load(Relaxed);
    let best = shared
        .best
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    match best {
        Some(path) => {
            let moves = path.len() as u32;
            let path = opts.want_path.then_some(path);
            Ok(Solution::bounded(
                NAME,
                Some(h.name()),
                moves,
                path,
                stats,
                lower,
            ))
        }
        None => {
            if let Some(e) = shared
                .failure
                .into_inner()
                .unwrap_or_else(PoisonError::into_inner)
            {
                return Err(e);
            }
            let i = if user.cancelled() {
                Interrupt::Cancelled
            } else {
                Interrupt::Limit(Limit::Time)
            };
            Err(i.error(NAME, user, lower, stats))
        }
    }
}

/// The upper side: weighted A* with falling weights.
fn upper<H: Heuristic>(
    h: &H,
    problem: &Problem,
    opts: &SolveOptions,
    budget: &Budget,
    shared: &Shared,
) {
    let side = opts.clone().with_budget(budget.clone()).with_path(true);
    for w in WEIGHTS {
        if shared.stop.load(Relaxed) || shared.proven() {
            return;
        }
        match astar::search_with(h, problem, &side, Weight::new(w)) {
            Ok(sol) => {
                shared.expanded.fetch_add(sol.stats.expanded, Relaxed);
                shared.generated.fetch_add(sol.stats.generated, Relaxed);
                shared.peak.fetch_max(sol.stats.peak_states, Relaxed);
                if let Some(p) = sol.path {
                    shared.offer(p);
                }
            }
            Err(e) => {
                if let Some(st) = e.stats() {
                    shared.expanded.fetch_add(st.expanded, Relaxed);
                    shared.generated.fetch_add(st.generated, Relaxed);
                    shared.peak.fetch_max(st.peak_states, Relaxed);
                }
                // Out of states or bytes at this weight: a smaller one
                // would hold more still. Stopped or out of time: done.
                if !matches!(e, SearchError::Cancelled { .. })
                    && !matches!(e.limit(), Some(Limit::Time))
                    && shared.best_len().is_none()
                {
                    *shared
                        .failure
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner) = Some(e);
                }
                return;
            }
        }
    }
}

/// The lower side: IDA*, raising the proven lower bound with every
/// iteration it finishes.
fn lower<H: TableHooks>(h: &H, problem: &Problem, budget: &Budget, parity: u32, shared: &Shared) {
    let mut ida = Ida::new(h, problem.goal(), Clock::new(budget), Pruning::Auto);
    ida.set_board(problem.start().tiles());
    let hs = h.init(problem.start().tiles());
    let root = ida.root(problem.start().blank());
    let mut bound = shared.lower.load(Relaxed);
    let (mut expanded, mut generated) = (0, 0);
    loop {
        let step = ida.search(problem.start().blank(), root, 0, hs, bound);
        shared.expanded.fetch_add(ida.expanded - expanded, Relaxed);
        shared
            .generated
            .fetch_add(ida.generated - generated, Relaxed);
        (expanded, generated) = (ida.expanded, ida.generated);
        match step {
            Step::Found => {
                let path = ida.take_path();
                shared.lower.fetch_max(path.len() as u32, Relaxed);
                shared.offer(path);
                return;
            }
            Step::Stopped => return,
            Step::Exhausted => {
                if ida.next_bound() == u32::MAX {
                    return;
                }
                bound = with_parity(ida.next_bound(), parity);
                // No solution of `bound − 2` moves or fewer: at least `bound`.
                shared.lower.fetch_max(bound, Relaxed);
            }
        }
    }
}
