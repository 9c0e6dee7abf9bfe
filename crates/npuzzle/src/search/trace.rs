//! Running a search watched: [`observe`] with an observer of the
//! caller's, [`trace`] with a bounded recorder whose summary a person
//! reads (BFS layers, A*'s expansions by `f`, IDA*'s iterations, the
//! effective branching factor).

use super::observe::Observer;
use super::{plan, Algorithm, Problem, SearchError, SolveOptions, Stats};
use serde::Serialize;

/// One event of a [`Trace`].
///
/// ```
/// use npuzzle::{parse_board, trace, Algorithm, Event, Problem, SolveOptions};
///
/// let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
/// let goal = parse_board("1 2 3 / 8 0 4 / 7 6 5", None)?;
/// let problem = Problem::new(start, goal)?;
/// let t = trace(&problem, &SolveOptions::default().with_algorithm(Algorithm::Astar), 1)?;
/// // the first node A* expands is the start, with its estimate
/// assert!(matches!(&t.events[0], Event::Expanded { g: 0, h: Some(5), .. }));
/// assert_eq!(serde_json::to_string(&t.events[0])?,
///     r#"{"event":"expanded","tiles":[2,8,3,1,6,4,7,0,5],"g":0,"h":5}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Event {
    /// A node expanded ([`Observer::expanded`]).
    Expanded {
        /// Its board, tiles in reading order.
        tiles: Vec<u8>,
        /// Its depth.
        g: u32,
        /// Its estimate, where the search has one.
        #[serde(skip_serializing_if = "Option::is_none")]
        h: Option<u32>,
    },
    /// A breadth-first layer ([`Observer::layer`]).
    Layer {
        /// Its depth.
        depth: u32,
        /// States first reached at that depth.
        states: u64,
        /// False for the goal's layer, cut short.
        complete: bool,
    },
    /// Where a bidirectional search met ([`Observer::met`]).
    Met {
        /// The board both searches reached.
        tiles: Vec<u8>,
        /// Its distance from the start.
        forward: u32,
        /// Its distance from the goal.
        backward: u32,
    },
    /// An IDA* iteration ([`Observer::iteration`]).
    Iteration {
        /// Its bound.
        bound: u32,
        /// Nodes it expanded.
        expanded: u64,
        /// The next bound.
        #[serde(skip_serializing_if = "Option::is_none")]
        next: Option<u32>,
    },
}

/// An IDA* iteration in a [`Trace`]: its bound and the nodes it expanded.
///
/// ```
/// use npuzzle::{parse_board, trace, Algorithm, Problem, SolveOptions};
///
/// let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
/// let goal = parse_board("1 2 3 / 8 0 4 / 7 6 5", None)?;
/// let problem = Problem::new(start, goal)?;
/// let ida = SolveOptions::default().with_algorithm(Algorithm::Idastar);
/// let t = trace(&problem, &ida, 0)?;
/// let total: u64 = t.iterations.iter().map(|it| it.expanded).sum();
/// assert_eq!(total, t.expanded);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct IterationSummary {
    /// The bound on `f = g + h`.
    pub bound: u32,
    /// Nodes expanded under it.
    pub expanded: u64,
}

/// What a traced search did: its answer, its totals, the per-depth summary
/// a person reads (BFS layers, A*'s expansions by `f`, IDA*'s iterations),
/// the effective branching factor, and the events themselves, at most
/// `max_events` of them (the totals still count every one).
///
/// ```
/// use npuzzle::{parse_board, trace, Algorithm, Problem, SolveOptions};
///
/// let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
/// let goal = parse_board("1 2 3 / 8 0 4 / 7 6 5", None)?;
/// let problem = Problem::new(start, goal)?;
/// let t = trace(&problem, &SolveOptions::default().with_algorithm(Algorithm::Bfs), 0)?;
/// assert_eq!((t.algorithm, t.moves), ("bfs", Some(5)));
/// assert!(t.events.is_empty() && t.events_dropped > 0); // none kept, all counted
/// let b = t.branching_factor.unwrap();
/// let tree: f64 = (0..=5).map(|i| b.powi(i)).sum();
/// assert!((tree - (t.generated + 1) as f64).abs() < 1e-6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Trace {
    /// The algorithm that ran (`bfs`, `astar`, `idastar`, …).
    pub algorithm: &'static str,
    /// The heuristic, for the informed searches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heuristic: Option<&'static str>,
    /// The fewest moves, or `None` when the goal cannot be reached.
    pub moves: Option<u32>,
    /// Nodes expanded and generated.
    pub expanded: u64,
    /// Successors generated.
    pub generated: u64,
    /// BFS: how many states were first reached at each depth, from 0 up
    /// to the goal's (the last cut short when the goal was found).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub layers: Vec<u64>,
    /// A*: nodes expanded at each `f = g + h`, in increasing `f`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub expanded_by_f: Vec<(u32, u64)>,
    /// Bidirectional BFS: where the two searches met.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meet: Option<Meeting>,
    /// IDA*: the iterations, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub iterations: Vec<IterationSummary>,
    /// The effective branching factor `b*`: the branching of a uniform tree
    /// of the answer's depth `d` holding the nodes generated and the root,
    /// `N + 1 = 1 + b + b² + … + b^d` (`None` for an answer of 0 moves or
    /// none).
    pub branching_factor: Option<f64>,
    /// The events recorded, in order.
    #[serde(skip)]
    pub events: Vec<Event>,
    /// Most events recorded.
    pub max_events: usize,
    /// Events seen but not recorded, past `max_events`.
    pub events_dropped: u64,
}

/// Where a bidirectional search met, in a [`Trace`].
///
/// ```
/// use npuzzle::{parse_board, trace, Algorithm, Problem, SolveOptions};
///
/// let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
/// let goal = parse_board("1 2 3 / 8 0 4 / 7 6 5", None)?;
/// let problem = Problem::new(start, goal)?;
/// let t = trace(&problem, &SolveOptions::default().with_algorithm(Algorithm::Bibfs), 0)?;
/// let meet = t.meet.unwrap();
/// assert_eq!(meet.forward + meet.backward, 5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Meeting {
    /// The board both searches reached, tiles in reading order.
    pub board: Vec<u8>,
    /// Its distance from the start.
    pub forward: u32,
    /// Its distance from the goal.
    pub backward: u32,
}

/// The recorder behind [`trace`].
struct Recorder {
    events: Vec<Event>,
    max_events: usize,
    dropped: u64,
    layers: Vec<u64>,
    by_f: std::collections::BTreeMap<u32, u64>,
    iterations: Vec<IterationSummary>,
    meet: Option<Meeting>,
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
    fn expanded(&mut self, tiles: &[u8], g: u32, h: Option<u32>) {
        if let Some(h) = h {
            *self.by_f.entry(g + h).or_default() += 1;
        }
        self.record(|| Event::Expanded {
            tiles: tiles.to_vec(),
            g,
            h,
        });
    }

    fn layer(&mut self, depth: u32, states: u64, complete: bool) {
        self.layers.push(states);
        self.record(|| Event::Layer {
            depth,
            states,
            complete,
        });
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

    fn iteration(&mut self, bound: u32, expanded: u64, next: Option<u32>) {
        self.iterations.push(IterationSummary { bound, expanded });
        self.record(|| Event::Iteration {
            bound,
            expanded,
            next,
        });
    }
}

/// Solves `problem` as [`solve`](crate::solve) would, with the planner's
/// choice of algorithm and heuristic, telling `obs` what the search does:
/// BFS (any of its three visited sets), bidirectional BFS, A* and IDA*
/// can be watched; other
/// algorithms are refused with [`SearchError::NotObservable`].
///
/// ```
/// use npuzzle::{observe, parse_board, Algorithm, Observer, Problem, SolveOptions};
///
/// /// Counts the nodes expanded at each depth.
/// #[derive(Default)]
/// struct PerDepth(Vec<u64>);
/// impl Observer for PerDepth {
///     fn expanded(&mut self, _tiles: &[u8], g: u32, _h: Option<u32>) {
///         let g = g as usize;
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
/// assert_eq!(seen.0.iter().sum::<u64>(), answer.stats.expanded);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn observe<O: Observer>(
    problem: &Problem,
    opts: &SolveOptions,
    obs: &mut O,
) -> Result<super::Solution, SearchError> {
    use super::bfs::Visited;
    let plan = plan::plan(problem, opts)?;
    let run = plan.resolved(opts);
    Ok(match plan.algorithm {
        _ if !plan.solvable => super::Solution::unreachable("parity"),
        Algorithm::Bfs => super::bfs::search_observed(problem, &run, Visited::Auto, obs)?,
        Algorithm::BfsHash => super::bfs::search_observed(problem, &run, Visited::Hash, obs)?,
        Algorithm::BfsSet => super::bfs::search_observed(problem, &run, Visited::Ordered, obs)?,
        Algorithm::Bibfs => super::bibfs::search_observed(problem, &run, obs)?,
        Algorithm::Astar => super::astar::search_observed(problem, &run, super::astar::Weight::ONE, obs)?,
        Algorithm::Idastar => super::idastar::search_observed(problem, &run, obs)?,
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
        events: Vec::new(),
        max_events,
        dropped: 0,
        layers: Vec::new(),
        by_f: Default::default(),
        iterations: Vec::new(),
        meet: None,
    };
    let sol = observe(problem, opts, &mut rec)?;
    let Stats {
        expanded,
        generated,
        ..
    } = sol.stats;
    Ok(Trace {
        algorithm: sol.algorithm,
        heuristic: sol.heuristic,
        moves: sol.moves,
        expanded,
        generated,
        layers: rec.layers,
        expanded_by_f: rec.by_f.into_iter().collect(),
        meet: rec.meet,
        iterations: rec.iterations,
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
