//! Watching a search work: what BFS, A* and IDA* tell an [`Observer`] as
//! they go (the searches' side; [`observe`](crate::observe) and
//! [`trace`](crate::trace), which run them with one, are in `trace.rs`,
//! above them).
//!
//! The searches are generic over their observer. The one they run with
//! when nobody watches, [`Quiet`], has empty methods that are inlined
//! away, so an unobserved search is the same machine code as before.


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
    /// A node is expanded: its board (tiles in reading order), its depth
    /// `g` and, where the search has one, its estimate `h`.
    #[inline]
    fn expanded(&mut self, tiles: &[u8], g: u32, h: Option<u32>) {
        let _ = (tiles, g, h);
    }

    /// Breadth-first search: `states` were first reached at `depth`;
    /// `complete` is false for the layer of the goal, cut short when the
    /// goal was found.
    #[inline]
    fn layer(&mut self, depth: u32, states: u64, complete: bool) {
        let _ = (depth, states, complete);
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
}

/// The observer of an unobserved search: nothing.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Quiet;

impl Observer for Quiet {}
