//! IDA*, sequential: depth-first searches bounded by `f = g + h`, the bound
//! raised each iteration to the smallest `f` that exceeded it (rounded up
//! to the solutions' parity). The depth-first core is [`super::ida`].
//!
//! **Depth-first iterative deepening** (`dfid`), a teaching contrast, is
//! the same driver with no heuristic ([`Blind`]): each iteration searches
//! every path one move longer (two, by parity) than the last, so it is
//! optimal, needs memory only for its path, and pays for its blindness in
//! nodes.

use super::forecast::{FORECAST_MARGIN, FORECAST_MIN};
use super::checkpoint::{self, CheckpointError, Checkpointing, Counts, Due, Identity, Place, Saved};
use super::checkpoint::CUT_DEPTH;
use super::ida::{solution_parity, with_parity, Cut, Ida, Step};
use super::observe::{Fate, Observer, Quiet, Visit};
use super::{Limit, Problem, SearchError, Solution, SolveOptions, Solver, Stats};
use crate::budget::{Clock, Interrupt};
use crate::heuristic::{with_heuristic, Heuristic, Plain, TableHooks, WithHeuristic};

const NAME: &str = "idastar";
const DFID: &str = "dfid";

/// The `dfid` solver: IDA* without a heuristic.
#[derive(Clone, Copy, Debug, Default)]
pub struct Dfid;

impl Solver for Dfid {
    fn name(&self) -> &'static str {
        DFID
    }

    fn solve(&self, problem: &Problem, opts: &SolveOptions) -> Result<Solution, SearchError> {
        run_observed(&Plain(Blind), Label::DFID, problem, opts, &mut Quiet)
    }
}

/// No estimate: 0 everywhere (the goal is still recognised by its tiles).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Blind;

impl Heuristic for Blind {
    type State = ();
    const READS_TILES: bool = false;

    fn name(&self) -> &'static str {
        "none"
    }
    fn init(&self, _tiles: &[u8]) {}
    #[inline]
    fn value(&self, _state: &()) -> u32 {
        0
    }
    #[inline]
    fn update(&self, _: &(), _: &[u8], _: u8, _: usize, _: usize) {}
}

/// What a run of the driver calls itself: the algorithm, and whether its
/// heuristic is named in the answer.
#[derive(Clone, Copy)]
struct Label {
    name: &'static str,
    informed: bool,
}

impl Label {
    const IDASTAR: Label = Label {
        name: NAME,
        informed: true,
    };
    const DFID: Label = Label {
        name: DFID,
        informed: false,
    };
}

/// The sequential `idastar` solver.
#[derive(Clone, Copy, Debug, Default)]
pub struct Idastar;

impl Solver for Idastar {
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
                run(h, self.problem, self.opts)
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

/// IDA* with a heuristic of the caller's: the way to try a new
/// [`Heuristic`] (the trait's documentation has an example). The answer is
/// the fewest moves, and said to be, only if the heuristic is admissible
/// (never above the true distance); its estimates must stay below
/// `u32::MAX / 2`. An unreachable goal is answered from
/// parity (`moves: None`). Of `opts`, the budget, the path, the pruning and
/// the forecast are honoured; the algorithm, heuristic and threads are not
/// read.
///
/// ```
/// use npuzzle::{idastar_with, parse_board, Heuristic, Problem, SolveOptions};
///
/// /// No estimate at all: IDA* becomes iterative deepening.
/// struct Zero;
/// impl Heuristic for Zero {
///     type State = ();
///     fn name(&self) -> &'static str { "zero" }
///     fn init(&self, _: &[u8]) {}
///     fn value(&self, _: &()) -> u32 { 0 }
///     fn update(&self, _: &(), _: &[u8], _: u8, _: usize, _: usize) {}
/// }
///
/// let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
/// let goal = parse_board("1 2 3 / 8 0 4 / 7 6 5", None)?;
/// let answer = idastar_with(&Problem::new(start, goal)?, &Zero, &SolveOptions::default())?;
/// assert_eq!((answer.moves, answer.heuristic), (Some(5), Some("zero")));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn idastar_with<H: Heuristic>(
    problem: &Problem,
    h: &H,
    opts: &SolveOptions,
) -> Result<Solution, SearchError> {
    if !problem.solvable() {
        return Ok(Solution::unreachable("parity"));
    }
    run(&Plain(h), problem, opts)
}

/// One finished iteration: its bound and the nodes it expanded.
type Iteration = super::IterationSummary;

/// IDA* with one heuristic (monomorphised): the iteration driver. With
/// `opts.forecast = Some(d)` it gives up early when the growth of the
/// iterations so far plainly needs more than the node budget to finish the
/// iteration with bound `d`.
fn run<H: TableHooks>(
    h: &H,
    problem: &Problem,
    opts: &SolveOptions,
) -> Result<Solution, SearchError> {
    run_observed(h, Label::IDASTAR, problem, opts, &mut Quiet)
}

/// Depth-first iterative deepening, telling `obs` what it does.
pub(crate) fn dfid_observed<O: Observer>(
    problem: &Problem,
    opts: &SolveOptions,
    obs: &mut O,
) -> Result<Solution, SearchError> {
    run_observed(&Plain(Blind), Label::DFID, problem, opts, &mut Blindfold(obs))
}

/// Passes on what a blind search tells, without the estimates of 0 it
/// does not have.
struct Blindfold<O>(O);

impl<O: Observer> Observer for Blindfold<O> {
    fn expanded(&mut self, node: &Visit<'_>) {
        self.0.expanded(&Visit { h: None, ..*node });
    }
    fn generated(&mut self, child: &Visit<'_>, fate: Fate) {
        self.0.generated(&Visit { h: None, ..*child }, fate);
    }
    fn iteration_started(&mut self, bound: u32) {
        self.0.iteration_started(bound);
    }
    fn iteration(&mut self, bound: u32, expanded: u64, next: Option<u32>) {
        self.0.iteration(bound, expanded, next);
    }
}

/// IDA* with `opts.heuristic`, telling `obs` what it does.
pub(crate) fn search_observed<O: Observer>(
    problem: &Problem,
    opts: &SolveOptions,
    obs: &mut O,
) -> Result<Solution, SearchError> {
    struct Work<'a, O> {
        problem: &'a Problem,
        opts: &'a SolveOptions,
        obs: &'a mut O,
    }
    impl<O: Observer> WithHeuristic for Work<'_, O> {
        type Output = Result<Solution, SearchError>;
        fn run<H: TableHooks>(self, h: &H) -> Self::Output {
            run_observed(h, Label::IDASTAR, self.problem, self.opts, self.obs)
        }
    }
    with_heuristic(
        opts.heuristic,
        problem.goal(),
        &opts.pdb,
        &opts.budget,
        Work { problem, opts, obs },
    )?
}

/// [`run`], named by `label`, telling `obs` what it does: each iteration
/// as it begins and ends, and (through [`Ida`]) each node and child.
fn run_observed<H: TableHooks, O: Observer>(
    h: &H,
    label: Label,
    problem: &Problem,
    opts: &SolveOptions,
    obs: &mut O,
) -> Result<Solution, SearchError> {
    let (name, h_name) = (label.name, label.informed.then(|| h.name()));
    let clock = Clock::new(&opts.budget);
    let start = clock.start;
    let mut ida = Ida::observed(h, problem.goal(), clock, opts.pruning, obs);
    ida.set_board(problem.start().tiles());
    let hs = h.init(problem.start().tiles());
    let root = ida.root(problem.start().blank());
    let parity = solution_parity(problem);
    let mut bound = with_parity(h.value(&hs), parity);
    let mut done: Vec<Iteration> = Vec::new();
    let mut resume = None;
    if let Some(c) = &opts.checkpoint {
        let (cut, saved) = checkpointed(c, h, problem, opts)?;
        if let Some(saved) = saved {
            bound = saved.bound;
            done = saved.iterations.clone();
            for it in &done {
                opts.budget.iteration_begins(it.bound);
                opts.budget.iteration_ends(it.bound, it.expanded);
            }
            ida.expanded = saved.at_start.expanded;
            ida.generated = saved.at_start.generated;
            resume = match saved.place {
                Place::Serial { entered, .. } => entered,
                Place::Parallel { .. } => None,
            };
        }
        ida = ida.with_cut(cut);
    }
    let mut first = true;
    let stats = |ida: &Ida<'_, H, &mut O>, bound: u32| Stats {
        expanded: ida.expanded,
        generated: ida.generated,
        // The path from the root: one board, and a heuristic state per level.
        peak_states: u64::from(bound) + 1,
        elapsed: start.elapsed(),
    };
    loop {
        let before = ida.expanded;
        opts.budget.iteration_begins(bound);
        let at_start = Counts {
            expanded: ida.expanded,
            generated: ida.generated,
            next_bound: u32::MAX,
        };
        if let Some(cut) = ida.cut() {
            begin_iteration(cut, bound, &done, at_start, resume.take(), first)?;
        }
        first = false;
        if O::ACTIVE {
            let root = Visit {
                tiles: problem.start().tiles(),
                g: 0,
                h: Some(h.value(&hs)).filter(|_| label.informed),
                via: None,
            };
            ida.observer().iteration_started(bound);
            ida.observer().expanded(&root);
            ida.tell_parts(&hs);
        }
        match ida.search(problem.start().blank(), root, 0, hs, bound) {
            Step::Found => {
                let spent = ida.expanded - before;
                ida.observer().iteration(bound, spent, None);
                done.push(Iteration {
                    bound,
                    expanded: spent,
                });
                opts.budget.iteration_ends(bound, spent);
                if let Some(c) = &opts.checkpoint {
                    // the search is over: nothing is left to resume
                    let _ = std::fs::remove_file(&c.path);
                }
                let path = ida.take_path();
                let moves = Some(path.len() as u32);
                let path = opts.want_path.then_some(path);
                let found = Solution::found(name, h_name, moves, path, stats(&ida, bound));
                return Ok(found.with_iterations(done));
            }
            Step::Stopped => {
                if let Some(cut) = ida.cut() {
                    // what was saved last, or this place, kept for --resume
                    if cut.failed.is_none() {
                        cut.save();
                    }
                    if let Some(e) = cut.failed.take() {
                        return Err(e.into());
                    }
                }
                let i = ida.interrupt().unwrap_or(Interrupt::Cancelled);
                let depth = done.last().map_or(0, |it| it.bound);
                return Err(i.error(name, &opts.budget, depth, stats(&ida, bound)));
            }
            Step::Exhausted => {
                if let Some(at) = ida.cut().and_then(|c| c.missed()) {
                    return Err(SearchError::Internal {
                        message: format!(
                            "the checkpoint's subtree {at} of iteration {bound} was never reached"
                        ),
                    });
                }
                done.push(Iteration {
                    bound,
                    expanded: ida.expanded - before,
                });
                opts.budget.iteration_ends(bound, ida.expanded - before);
                let next = (ida.next_bound() != u32::MAX)
                    .then(|| with_parity(ida.next_bound(), parity));
                let spent = ida.expanded - before;
                ida.observer().iteration(bound, spent, next);
                let Some(next) = next else {
                    let stats = stats(&ida, bound);
                    let none = Solution::found(name, h_name, None, None, stats);
                    return Ok(none.with_iterations(done));
                };
                bound = next;
                if let Some(d) = opts.forecast {
                    if let Some(need) = forecast_nodes(&done, ida.expanded, d) {
                        if need > FORECAST_MARGIN * opts.budget.max_nodes as f64 {
                            return Err(SearchError::Forecast {
                                algorithm: name,
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

/// The checkpointing of a sequential search: its [`Cut`], and what it goes
/// on from when resuming (refused unless it is of this very search).
fn checkpointed<H: TableHooks>(
    c: &Checkpointing,
    h: &H,
    problem: &Problem,
    opts: &SolveOptions,
) -> Result<(Cut, Option<Saved>), SearchError> {
    let identity = Identity::of(problem, opts, h.identity(), "serial");
    let saved = if c.resume {
        Some(checkpoint::read(&c.path, &identity)?)
    } else {
        None
    };
    let depth = match &saved {
        Some(Saved {
            place: Place::Serial { cut, .. },
            ..
        }) => *cut,
        Some(_) => {
            return Err(CheckpointError::Mismatch {
                path: c.path.clone(),
                field: "search",
                saved: "parallel".into(),
                here: "serial".into(),
            }
            .into())
        }
        None => CUT_DEPTH,
    };
    let place = Place::Serial {
        cut: depth,
        entered: None,
    };
    let template = Saved::empty(identity, place);
    let cut = Cut::new(depth, template, c.path.clone(), Due::new(c.every));
    Ok((cut, saved))
}

/// A new iteration of a checkpointed search: its bound and what came
/// before in the checkpoint, which is written now if this is the search's
/// first iteration (so that a path that cannot be written fails at once)
/// or one is due.
fn begin_iteration(
    cut: &mut Cut,
    bound: u32,
    done: &[Iteration],
    at_start: Counts,
    resume: Option<(u64, Counts)>,
    first: bool,
) -> Result<(), SearchError> {
    cut.saved.bound = bound;
    cut.saved.iterations = done.to_vec();
    cut.saved.at_start = at_start;
    if let Place::Serial { entered, .. } = &mut cut.saved.place {
        *entered = resume;
    }
    cut.begin(resume);
    if (first || cut.due()) && !cut.save() {
        if let Some(e) = cut.failed.take() {
            return Err(e.into());
        }
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forecast_needs_two_grown_iterations() {
        let it = |bound, expanded| Iteration { bound, expanded };
        assert_eq!(forecast_nodes(&[it(10, 100_000)], 100_000, 20), None);
        assert_eq!(forecast_nodes(&[it(10, 10), it(12, 100)], 110, 20), None);
        let f = forecast_nodes(&[it(10, 10_000), it(12, 100_000)], 110_000, 16).unwrap();
        // ×10 per 2 bounds: 1e5 · 100 more to finish bound 16
        assert!((f - (110_000.0 + 1e7)).abs() < 1.0, "{f}");
    }
}
