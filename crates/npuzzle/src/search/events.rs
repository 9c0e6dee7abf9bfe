//! What a traced search leaves: its events ([`Event`]) and its summary
//! ([`Trace`]), both serialisable (the CLI's `--jsonl` and `--json`, the
//! server's Explore view and Python read them as JSON).

use super::observe::{Fate, Side};
use serde::Serialize;

/// One event of a [`Trace`].
///
/// ```
/// use npuzzle::{parse_board, trace, Algorithm, Event, Problem, SolveOptions};
///
/// let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
/// let goal = parse_board("1 2 3 / 8 0 4 / 7 6 5", None)?;
/// let problem = Problem::new(start, goal)?;
/// let t = trace(&problem, &SolveOptions::default().with_algorithm(Algorithm::Astar), 2)?;
/// // the first node A* expands is the start, with its estimate; its first
/// // child follows
/// assert!(matches!(&t.events[0], Event::Expanded { g: 0, h: Some(5), .. }));
/// assert_eq!(serde_json::to_string(&t.events[0])?,
///     r#"{"event":"expanded","tiles":[2,8,3,1,6,4,7,0,5],"g":0,"h":5,"open":0,"closed":0}"#);
/// assert_eq!(serde_json::to_string(&t.events[1])?,
///     r#"{"event":"generated","tiles":[2,8,3,1,0,4,7,6,5],"g":1,"h":4,"via":"U","fate":"queued"}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Event {
    /// A node expanded ([`Observer::expanded`](crate::Observer::expanded)).
    Expanded {
        /// Its board, tiles in reading order.
        tiles: Vec<u8>,
        /// Its depth.
        g: u32,
        /// Its estimate, where the search has one.
        #[serde(skip_serializing_if = "Option::is_none")]
        h: Option<u32>,
        /// The blank's move from its parent (`U`, `D`, `L`, `R`); none at a
        /// root.
        #[serde(skip_serializing_if = "Option::is_none")]
        via: Option<char>,
        /// The entries left in the open list then (this node no longer
        /// among them), for the searches that keep one.
        #[serde(skip_serializing_if = "Option::is_none")]
        open: Option<u64>,
        /// The states expanded before it, for the same searches.
        #[serde(skip_serializing_if = "Option::is_none")]
        closed: Option<u64>,
        /// Bidirectional BFS: which search expanded it.
        #[serde(skip_serializing_if = "Option::is_none")]
        side: Option<Side>,
        /// It is the goal (the informed and depth-first searches test the
        /// goal when they come to expand it; it is not counted expanded).
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        goal: bool,
        /// Pattern-database IDA*: each group's part of the estimate…
        #[serde(skip_serializing_if = "Option::is_none")]
        parts: Option<Vec<u32>>,
        /// … and each group's in the reflected position, where looked up
        /// (the estimate is the larger sum).
        #[serde(skip_serializing_if = "Option::is_none")]
        reflected: Option<Vec<u32>>,
    },
    /// A child of the node expanded last
    /// ([`Observer::generated`](crate::Observer::generated)).
    Generated {
        /// Its board.
        tiles: Vec<u8>,
        /// Its depth.
        g: u32,
        /// Its estimate, where the search has one.
        #[serde(skip_serializing_if = "Option::is_none")]
        h: Option<u32>,
        /// The blank's move that made it.
        via: char,
        /// What became of it.
        fate: Fate,
        /// Bidirectional BFS: which search generated it.
        #[serde(skip_serializing_if = "Option::is_none")]
        side: Option<Side>,
    },
    /// A breadth-first layer ([`Observer::layer`](crate::Observer::layer)).
    Layer {
        /// Its depth.
        depth: u32,
        /// States first reached at that depth.
        states: u64,
        /// False for the goal's layer, cut short.
        complete: bool,
        /// Bidirectional BFS: which search's layer.
        #[serde(skip_serializing_if = "Option::is_none")]
        side: Option<Side>,
    },
    /// Where a bidirectional search met ([`Observer::met`](crate::Observer::met)).
    Met {
        /// The board both searches reached.
        tiles: Vec<u8>,
        /// Its distance from the start.
        forward: u32,
        /// Its distance from the goal.
        backward: u32,
    },
    /// An IDA* iteration begins
    /// ([`Observer::iteration_started`](crate::Observer::iteration_started)).
    IterationStarted {
        /// Its bound.
        bound: u32,
    },
    /// An IDA* iteration ended ([`Observer::iteration`](crate::Observer::iteration)).
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct IterationSummary {
    /// The bound on `f = g + h`.
    pub bound: u32,
    /// Nodes expanded under it.
    pub expanded: u64,
}

/// What a breadth-first search's visited set and its array of states held
/// at the end, in a [`Trace`].
///
/// ```
/// use npuzzle::{parse_board, trace, Algorithm, Problem, SolveOptions};
///
/// let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
/// let goal = parse_board("1 2 3 / 8 0 4 / 7 6 5", None)?;
/// let problem = Problem::new(start, goal)?;
/// let t = trace(&problem, &SolveOptions::default().with_algorithm(Algorithm::Bfs), 0)?;
/// let m = t.memory.unwrap();
/// // one bit per permutation of the 9 cells
/// assert_eq!((m.set, m.visited_bytes), ("rank bit array", 9 * 8 * 7 * 6 * 5 * 4 * 3 * 2 / 8));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Memory {
    /// `rank bit array`, `hash set` or `ordered set`.
    pub set: &'static str,
    /// Bytes of the visited set.
    pub visited_bytes: u64,
    /// Bytes of the array of states found (the queue, with each state's
    /// parent and move).
    pub nodes_bytes: u64,
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
/// assert_eq!((t.algorithm, t.moves, t.optimal), ("bfs", Some(5), true));
/// assert_eq!(t.path.as_deref(), Some("UULDR"));
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
    /// The board's rows and columns.
    pub rows: usize,
    /// Its columns.
    pub cols: usize,
    /// The start, tiles in reading order.
    pub start: Vec<u8>,
    /// The goal.
    pub goal: Vec<u8>,
    /// The fewest moves (or the moves found, when not `optimal`), `None`
    /// when the goal cannot be reached.
    pub moves: Option<u32>,
    /// The blank's moves, `U`, `D`, `L`, `R`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Whether `moves` is proven the fewest (false for greedy best-first
    /// and weighted A*).
    pub optimal: bool,
    /// Nodes expanded.
    pub expanded: u64,
    /// Successors generated.
    pub generated: u64,
    /// Wall-clock time of the search, watched, in seconds.
    pub seconds: f64,
    /// The largest open list seen, for the searches that keep one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_open: Option<u64>,
    /// BFS: how many states were first reached at each depth, from 0 up
    /// to the goal's (the last cut short when the goal was found).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub layers: Vec<u64>,
    /// Bidirectional BFS: the layers of the search from the start…
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub forward_layers: Vec<u64>,
    /// … and of the search from the goal (complete layers only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub backward_layers: Vec<u64>,
    /// The A* family: nodes expanded at each `f = g + h`, in increasing
    /// `f`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub expanded_by_f: Vec<(u32, u64)>,
    /// Bidirectional BFS: where the two searches met.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meet: Option<Meeting>,
    /// IDA* and DFID: the iterations, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub iterations: Vec<IterationSummary>,
    /// BFS: what its visited set and array of states held.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory: Option<Memory>,
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
