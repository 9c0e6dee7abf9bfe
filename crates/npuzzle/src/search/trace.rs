//! Running a search watched: [`observe`] with an observer of the
//! caller's, [`trace`] with a bounded recorder whose summary a person
//! reads (BFS layers, A*'s expansions by `f`, IDA*'s iterations, the
//! effective branching factor). The records themselves are in `events.rs`.

use super::events::{Event, IterationSummary, Meeting, Memory, Trace};
use super::observe::{Fate, Observer, Side, Visit};
use super::{plan, Algorithm, Problem, SearchError, SolveOptions, Stats};
use crate::board::{path_string, Dir};

/// The recorder behind [`trace`].
#[derive(Default)]
struct Recorder {
    events: Vec<Event>,
    max_events: usize,
    dropped: u64,
    goal: Vec<u8>,
    /// The bidirectional search at work, once it has said.
    side: Option<Side>,
    /// The frontier told before the next expansion, and the largest.
    frontier: Option<(u64, u64)>,
    max_open: Option<u64>,
    layers: Vec<u64>,
    forward_layers: Vec<u64>,
    backward_layers: Vec<u64>,
    by_f: std::collections::BTreeMap<u32, u64>,
    iterations: Vec<IterationSummary>,
    meet: Option<Meeting>,
    memory: Option<Memory>,
}

impl Recorder {
    fn record(&mut self, e: impl FnOnce() -> Event) {
        if self.events.len() < self.max_events {
            self.events.push(e());
        } else {
            self.dropped += 1;
        }
    }
}

impl Observer for Recorder {
    fn expanded(&mut self, node: &Visit<'_>) {
        // (the search from the goal expands it as its root)
        let goal = node.tiles == self.goal.as_slice() && self.side != Some(Side::Backward);
        if let (Some(f), false) = (node.f(), goal) {
            *self.by_f.entry(f).or_default() += 1;
        }
        let (open, closed) = self.frontier.take().unzip();
        let side = self.side;
        self.record(|| Event::Expanded {
            tiles: node.tiles.to_vec(),
            g: node.g,
            h: node.h,
            via: node.via.map(Dir::letter),
            open,
            closed,
            side,
            goal,
            parts: None,
            reflected: None,
        });
    }

    fn estimate_parts(&mut self, plain: &[u32], mirrored: Option<&[u32]>) {
        // (on the event of the node expanded last, if it was kept)
        if let Some(Event::Expanded {
            parts, reflected, ..
        }) = self.events.last_mut()
        {
            if parts.is_none() {
                *parts = Some(plain.to_vec());
                *reflected = mirrored.map(<[u32]>::to_vec);
            }
        }
    }

    fn generated(&mut self, child: &Visit<'_>, fate: Fate) {
        let side = self.side;
        self.record(|| Event::Generated {
            tiles: child.tiles.to_vec(),
            g: child.g,
            h: child.h,
            via: child.via.map_or('?', Dir::letter),
            fate,
            side,
        });
    }

    fn frontier(&mut self, open: u64, closed: u64) {
        self.frontier = Some((open, closed));
        self.max_open = self.max_open.max(Some(open));
    }

    fn layer(&mut self, depth: u32, states: u64, complete: bool) {
        match self.side {
            None => self.layers.push(states),
            Some(Side::Forward) => self.forward_layers.push(states),
            Some(Side::Backward) => self.backward_layers.push(states),
        }
        let side = self.side;
        self.record(|| Event::Layer {
            depth,
            states,
            complete,
            side,
        });
    }

    fn side(&mut self, side: Side) {
        self.side = Some(side);
    }

    fn met(&mut self, tiles: &[u8], forward: u32, backward: u32) {
        self.meet = Some(Meeting {
            board: tiles.to_vec(),
            forward,
            backward,
        });
        self.record(|| Event::Met {
            tiles: tiles.to_vec(),
            forward,
            backward,
        });
    }

    fn iteration_started(&mut self, bound: u32) {
        self.record(|| Event::IterationStarted { bound });
    }

    fn iteration(&mut self, bound: u32, expanded: u64, next: Option<u32>) {
        self.iterations.push(IterationSummary { bound, expanded });
        self.record(|| Event::Iteration {
            bound,
            expanded,
            next,
        });
    }

    fn memory(&mut self, set: &'static str, visited: u64, nodes: u64) {
        self.memory = Some(Memory {
            set,
            visited_bytes: visited,
            nodes_bytes: nodes,
        });
    }
}

/// Solves `problem` as [`solve`](crate::solve) would, with the planner's
/// choice of algorithm and heuristic, telling `obs` what the search does:
/// BFS (any of its three visited sets), bidirectional BFS, A*, weighted
/// A*, greedy best-first, IDA* and depth-first iterative deepening can be
/// watched; the others (the tables, anytime and the fast solver) are
/// refused with [`SearchError::NotObservable`].
///
/// ```
/// use npuzzle::{observe, parse_board, Algorithm, Observer, Problem, SolveOptions, Visit};
///
/// /// Counts the nodes expanded at each depth.
/// #[derive(Default)]
/// struct PerDepth(Vec<u64>);
/// impl Observer for PerDepth {
///     fn expanded(&mut self, node: &Visit<'_>) {
///         let g = node.g as usize;
///         if self.0.len() <= g { self.0.resize(g + 1, 0); }
///         self.0[g] += 1;
///     }
/// }
///
/// let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
/// let goal = parse_board("1 2 3 / 8 0 4 / 7 6 5", None)?;
/// let mut seen = PerDepth::default();
/// let opts = SolveOptions::default().with_algorithm(Algorithm::Astar);
/// let answer = observe(&Problem::new(start, goal)?, &opts, &mut seen)?;
/// assert_eq!(answer.moves, Some(5));
/// // every node expanded, and the goal, told when A* came to expand it
/// assert_eq!(seen.0.iter().sum::<u64>(), answer.stats.expanded + 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn observe<O: Observer>(
    problem: &Problem,
    opts: &SolveOptions,
    obs: &mut O,
) -> Result<super::Solution, SearchError> {
    use super::astar::{self, Weight};
    use super::bfs::Visited;
    let plan = plan::plan(problem, opts)?;
    if plan.metric == crate::board::Metric::Mtm {
        // The watched searches count single-tile moves.
        return Err(SearchError::NotApplicable {
            algorithm: "trace",
            shape: problem.shape(),
            reason: "the searches it watches count single-tile moves; leave out --metric mtm"
                .to_string(),
        });
    }
    let run = plan.resolved(opts);
    Ok(match plan.algorithm {
        _ if !plan.solvable => super::Solution::unreachable("parity"),
        Algorithm::Bfs => super::bfs::search_observed(problem, &run, Visited::Auto, obs)?,
        Algorithm::BfsHash => super::bfs::search_observed(problem, &run, Visited::Hash, obs)?,
        Algorithm::BfsSet => super::bfs::search_observed(problem, &run, Visited::Ordered, obs)?,
        Algorithm::Bibfs => super::bibfs::search_observed(problem, &run, obs)?,
        Algorithm::Astar => astar::search_observed(problem, &run, Weight::ONE, obs)?,
        Algorithm::Wastar => astar::search_observed(problem, &run, Weight::new(run.weight), obs)?,
        Algorithm::Greedy => astar::search_observed(problem, &run, Weight::GREEDY, obs)?,
        Algorithm::Idastar => super::idastar::search_observed(problem, &run, obs)?,
        Algorithm::Dfid => super::idastar::dfid_observed(problem, &run, obs)?,
        other => {
            return Err(SearchError::NotObservable {
                algorithm: other.name(),
            })
        }
    })
}

/// [`observe`] with a recorder: the answer, the per-depth summary and at
/// most `max_events` events (the totals still count every one).
///
/// ```
/// use npuzzle::{parse_board, trace, Algorithm, Problem, SolveOptions};
///
/// let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
/// let goal = parse_board("1 2 3 / 8 0 4 / 7 6 5", None)?;
/// let problem = Problem::new(start, goal)?;
/// let bfs = trace(&problem, &SolveOptions::default().with_algorithm(Algorithm::Bfs), 100)?;
/// assert_eq!(bfs.moves, Some(5));
/// assert_eq!(bfs.layers[..3], [1, 3, 5]); // the start, its 3 neighbours, theirs
/// let ida = trace(&problem, &SolveOptions::default().with_algorithm(Algorithm::Idastar), 100)?;
/// assert_eq!(ida.iterations.last().map(|it| it.bound), Some(5));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn trace(
    problem: &Problem,
    opts: &SolveOptions,
    max_events: usize,
) -> Result<Trace, SearchError> {
    let mut rec = Recorder {
        max_events,
        goal: problem.goal().tiles().to_vec(),
        ..Recorder::default()
    };
    let sol = observe(problem, &opts.clone().with_path(true), &mut rec)?;
    let Stats {
        expanded,
        generated,
        elapsed,
        ..
    } = sol.stats;
    let shape = problem.shape();
    Ok(Trace {
        algorithm: sol.algorithm,
        heuristic: sol.heuristic,
        rows: shape.rows,
        cols: shape.cols,
        start: problem.start().tiles().to_vec(),
        goal: rec.goal,
        moves: sol.moves,
        path: sol.path.as_deref().map(path_string),
        optimal: sol.optimal,
        expanded,
        generated,
        seconds: elapsed.as_secs_f64(),
        max_open: rec.max_open,
        layers: rec.layers,
        forward_layers: rec.forward_layers,
        backward_layers: rec.backward_layers,
        // (IDA*'s iterations say it better: its nodes by f repeat there)
        expanded_by_f: if rec.iterations.is_empty() {
            rec.by_f.into_iter().collect()
        } else {
            Vec::new()
        },
        meet: rec.meet,
        iterations: rec.iterations,
        memory: rec.memory,
        branching_factor: sol.moves.and_then(|d| branching_factor(generated + 1, d)),
        events: rec.events,
        max_events,
        events_dropped: rec.dropped,
    })
}

/// The `b` with `1 + b + … + b^d = n`, by bisection (`None` when `d` is
/// 0 or `n` is below `d + 1`, where no `b ≥ 1` fits).
fn branching_factor(n: u64, d: u32) -> Option<f64> {
    if d == 0 || n < u64::from(d) + 1 {
        return None;
    }
    let total = |b: f64| (0..=d).map(|i| b.powi(i as i32)).sum::<f64>();
    let (mut lo, mut hi) = (1.0f64, (n as f64).max(2.0));
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if total(mid) < n as f64 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some((lo + hi) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branching_factor_solves_the_sum() {
        // 1 + 2 + 4 + 8 = 15
        let b = branching_factor(15, 3).unwrap();
        assert!((b - 2.0).abs() < 1e-9, "{b}");
        // 1 + 1 + 1: b* = 1
        assert!((branching_factor(3, 2).unwrap() - 1.0).abs() < 1e-9);
        assert_eq!(branching_factor(10, 0), None);
        assert_eq!(branching_factor(2, 5), None);
    }
}
