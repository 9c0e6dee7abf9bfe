//! Watching a search work: what BFS, A* and IDA* tell an [`Observer`] as
//! they go (the searches' side; [`observe`](crate::observe) and
//! [`trace`](crate::trace), which run them with one, are in `trace.rs`,
//! above them).
//!
//! The searches are generic over their observer. The one they run with
//! when nobody watches, [`Quiet`], has empty methods that are inlined
//! away, so an unobserved search is the same machine code as before.

use crate::board::Dir;
use serde::Serialize;


/// What a search tells as it goes. Every method does nothing by default:
/// an observer implements those it wants; [`observe`](crate::observe) runs
/// a search with one.
///
/// ```
/// use npuzzle::{observe, parse_board, Algorithm, Observer, Problem, SolveOptions};
///
/// /// The largest layer of a breadth-first search.
/// #[derive(Default)]
/// struct Widest(u64);
/// impl Observer for Widest {
///     fn layer(&mut self, _depth: u32, states: u64, _complete: bool) {
///         self.0 = self.0.max(states);
///     }
/// }
///
/// let start = parse_board("8 6 7 2 5 4 3 0 1", None)?; // 31 moves from the goal
/// let goal = parse_board("1 2 3 4 5 6 7 8 0", None)?;
/// let mut widest = Widest::default();
/// let bfs = SolveOptions::default().with_algorithm(Algorithm::Bfs);
/// observe(&Problem::new(start, goal)?, &bfs, &mut widest)?;
/// assert!(widest.0 > 10_000);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Observer {
    /// Whether anything is told at all: false only for the searches' own
    /// silent observer, so that what a search does only to tell (moving a
    /// board to show a child) is compiled away with it.
    #[doc(hidden)]
    const ACTIVE: bool = true;

    /// A node is expanded: its board, its depth `g`, its estimate where the
    /// search has one, and the move that reached it. The searches with an
    /// open list call [`Observer::frontier`] just before.
    #[inline]
    fn expanded(&mut self, node: &Visit<'_>) {
        let _ = node;
    }

    /// Pattern-database IDA*: what each group gave to the estimate of the
    /// node expanded last (`plain`), and each group in the reflected
    /// position (`reflected`, where the goal allows the reflection); the
    /// estimate is the larger sum.
    #[inline]
    fn estimate_parts(&mut self, plain: &[u32], reflected: Option<&[u32]>) {
        let _ = (plain, reflected);
    }

    /// A child of the node expanded last was generated, and what became of
    /// it.
    #[inline]
    fn generated(&mut self, child: &Visit<'_>, fate: Fate) {
        let _ = (child, fate);
    }

    /// The open list holds `open` entries (the node about to be expanded
    /// taken out) and `closed` states were expanded before it (told before
    /// each expansion by the searches that keep an open list: BFS,
    /// bidirectional BFS, the A* family).
    #[inline]
    fn frontier(&mut self, open: u64, closed: u64) {
        let _ = (open, closed);
    }

    /// Breadth-first search: `states` were first reached at `depth`;
    /// `complete` is false for the layer of the goal, cut short when the
    /// goal was found.
    #[inline]
    fn layer(&mut self, depth: u32, states: u64, complete: bool) {
        let _ = (depth, states, complete);
    }

    /// Bidirectional BFS: what follows, until the next call, is the search
    /// from `side`'s root (its depths counted from there).
    #[inline]
    fn side(&mut self, side: Side) {
        let _ = side;
    }

    /// IDA* (and depth-first iterative deepening): an iteration bounded by
    /// `bound` begins.
    #[inline]
    fn iteration_started(&mut self, bound: u32) {
        let _ = bound;
    }

    /// IDA*: the iteration bounded by `bound` expanded `expanded` nodes;
    /// `next` is the bound of the next iteration (`None` when this one
    /// found the goal, or when nothing is left under any bound).
    #[inline]
    fn iteration(&mut self, bound: u32, expanded: u64, next: Option<u32>) {
        let _ = (bound, expanded, next);
    }

    /// Bidirectional BFS: the two searches met on the board `tiles`,
    /// `forward` moves from the start and `backward` moves from the goal.
    #[inline]
    fn met(&mut self, tiles: &[u8], forward: u32, backward: u32) {
        let _ = (tiles, forward, backward);
    }

    /// Breadth-first search, at its end: the visited set (`rank bit array`,
    /// `hash set` or `ordered set`) held `visited` bytes, and the array
    /// of states found (the queue and the parents' links) `nodes` bytes.
    #[inline]
    fn memory(&mut self, set: &'static str, visited: u64, nodes: u64) {
        let _ = (set, visited, nodes);
    }
}

/// An observer borrowed is an observer: a search can be lent the
/// caller's.
impl<O: Observer> Observer for &mut O {
    const ACTIVE: bool = O::ACTIVE;
    #[inline]
    fn expanded(&mut self, node: &Visit<'_>) {
        (**self).expanded(node);
    }
    #[inline]
    fn estimate_parts(&mut self, plain: &[u32], reflected: Option<&[u32]>) {
        (**self).estimate_parts(plain, reflected);
    }
    #[inline]
    fn generated(&mut self, child: &Visit<'_>, fate: Fate) {
        (**self).generated(child, fate);
    }
    #[inline]
    fn frontier(&mut self, open: u64, closed: u64) {
        (**self).frontier(open, closed);
    }
    #[inline]
    fn layer(&mut self, depth: u32, states: u64, complete: bool) {
        (**self).layer(depth, states, complete);
    }
    #[inline]
    fn side(&mut self, side: Side) {
        (**self).side(side);
    }
    #[inline]
    fn iteration_started(&mut self, bound: u32) {
        (**self).iteration_started(bound);
    }
    #[inline]
    fn iteration(&mut self, bound: u32, expanded: u64, next: Option<u32>) {
        (**self).iteration(bound, expanded, next);
    }
    #[inline]
    fn met(&mut self, tiles: &[u8], forward: u32, backward: u32) {
        (**self).met(tiles, forward, backward);
    }
    #[inline]
    fn memory(&mut self, set: &'static str, visited: u64, nodes: u64) {
        (**self).memory(set, visited, nodes);
    }
}

/// A node as a search shows it to an [`Observer`].
///
/// ```
/// use npuzzle::{Dir, Visit};
///
/// let v = Visit { tiles: &[1, 2, 3, 4, 5, 6, 7, 0, 8], g: 1, h: Some(1), via: Some(Dir::Left) };
/// assert_eq!(v.f(), Some(2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Visit<'a> {
    /// Its board, tiles in reading order (0 the blank).
    pub tiles: &'a [u8],
    /// Moves from the root of its search.
    pub g: u32,
    /// The heuristic's estimate, for the informed searches.
    pub h: Option<u32>,
    /// The blank's move that reached it from its parent (`None` at a
    /// root).
    pub via: Option<Dir>,
}

impl Visit<'_> {
    /// `g + h`, for the informed searches.
    pub fn f(&self) -> Option<u32> {
        self.h.map(|h| self.g + h)
    }
}

/// What became of a generated child.
///
/// ```
/// use npuzzle::Fate;
///
/// assert_eq!(serde_json::to_string(&Fate::Duplicate)?, r#""duplicate""#);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    /// Kept: queued in the open list (new, or reached more cheaply than
    /// before); for the depth-first searches, descended into.
    Queued,
    /// Seen before and no cheaper now: dropped.
    Duplicate,
    /// Cut: above the iteration's bound (IDA*), or beyond the longest path
    /// the search can queue.
    Pruned,
}

/// Which search of a bidirectional BFS is at work.
///
/// ```
/// use npuzzle::Side;
///
/// assert_eq!(serde_json::to_string(&Side::Backward)?, r#""backward""#);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// From the start.
    Forward,
    /// From the goal.
    Backward,
}

/// The observer of an unobserved search: nothing.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Quiet;

impl Observer for Quiet {
    const ACTIVE: bool = false;
}
