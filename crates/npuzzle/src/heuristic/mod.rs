//! Heuristics: lower bounds on the number of moves left, for A* and IDA*.
//!
//! Every heuristic is *incremental*: a search keeps a small per-node
//! [`Heuristic::State`] and updates it when one tile moves, instead of
//! re-evaluating the whole board. For Manhattan distance the state is the
//! sum itself; for pattern databases it holds every tile's cell and each
//! group's value, so that only the group of the moved tile is looked up
//! again.
//!
//! A heuristic is the five items of [`Heuristic`]; those backed by large
//! tables (pattern databases) also implement [`TableHooks`], what IDA* may
//! ask of them to hide memory latency and to prune more. IDA* takes a
//! [`TableHooks`]; [`Plain`] gives any heuristic the hooks' defaults.
//!
//! Every heuristic here is admissible (it never overestimates), so A* and
//! IDA* with any of them find optimal paths.

mod hooks;
pub mod linear_conflict;
pub mod manhattan;
pub mod max;
pub mod misplaced;
pub mod pdb;
pub mod walking;

pub use hooks::{Plain, TableHooks};
pub use linear_conflict::LinearConflict;
pub use manhattan::Manhattan;
pub use max::MaxOf;
pub use misplaced::Misplaced;
pub use walking::WalkingDistance;

use crate::board::Board;
use std::fmt;
use std::str::FromStr;

/// A lower bound on the moves from a board to a fixed goal.
///
/// A new heuristic is these items; IDA* runs it through
/// [`npuzzle::idastar_with`](crate::search::idastar_with):
///
/// ```
/// use npuzzle::Heuristic;
/// use npuzzle::{Board, Problem, SolveOptions};
///
/// /// Tiles out of their goal row, plus tiles out of their goal column.
/// struct RowsCols { row: Vec<usize>, col: Vec<usize>, cols: usize }
///
/// impl RowsCols {
///     fn new(goal: &Board) -> RowsCols {
///         let cols = goal.cols();
///         let at = goal.positions(); // the goal cell of each tile
///         RowsCols {
///             row: at.iter().map(|&c| usize::from(c) / cols).collect(),
///             col: at.iter().map(|&c| usize::from(c) % cols).collect(),
///             cols,
///         }
///     }
///     fn tile(&self, tile: u8, cell: usize) -> u32 {
///         let t = usize::from(tile);
///         if t == 0 { return 0 } // the blank is not counted
///         u32::from(cell / self.cols != self.row[t]) + u32::from(cell % self.cols != self.col[t])
///     }
/// }
///
/// impl Heuristic for RowsCols {
///     type State = u32; // the estimate itself
///     fn name(&self) -> &'static str { "rows-cols" }
///     fn init(&self, tiles: &[u8]) -> u32 {
///         tiles.iter().enumerate().map(|(cell, &t)| self.tile(t, cell)).sum()
///     }
///     fn value(&self, s: &u32) -> u32 { *s }
///     fn update(&self, s: &u32, _: &[u8], tile: u8, from: usize, to: usize) -> u32 {
///         s - self.tile(tile, from) + self.tile(tile, to)
///     }
///     // `update` reads only the moved tile: IDA* may skip moving the board.
///     const READS_TILES: bool = false;
/// }
///
/// let start = Board::from_tiles(3, 3, &[8, 6, 7, 2, 5, 4, 3, 0, 1])?;
/// let goal = Board::from_tiles(3, 3, &[1, 2, 3, 4, 5, 6, 7, 8, 0])?;
/// let problem = Problem::new(start, goal)?;
/// let opts = SolveOptions::default().with_path(true);
/// let mine = npuzzle::idastar_with(&problem, &RowsCols::new(problem.goal()), &opts)?;
/// assert_eq!(mine.moves, Some(31)); // one of the two hardest 8-puzzles
/// assert_eq!(mine.heuristic, Some("rows-cols"));
/// assert!(npuzzle::verify_path(problem.start(), problem.goal(), mine.path.as_deref().unwrap()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Heuristic: Send + Sync {
    /// What a search carries per node (small and `Copy`).
    type State: Copy + Send + Sync + fmt::Debug;

    /// Short name, as [`HeuristicKind::name`] gives it.
    fn name(&self) -> &'static str;

    /// Evaluates a whole board (tiles in reading order).
    fn init(&self, tiles: &[u8]) -> Self::State;

    /// The estimate held in a state.
    fn value(&self, state: &Self::State) -> u32;

    /// The state after `tile` slid from cell `from` into the blank at cell
    /// `to` (so the blank went from `to` to `from`). `tiles` is the board
    /// *after* the move.
    fn update(
        &self,
        state: &Self::State,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
    ) -> Self::State;

    /// Whether [`Heuristic::update`] reads `tiles`. When `false` it must
    /// not: IDA* then passes an empty slice, asks for a child's estimate
    /// before moving the board, and moves it only for children within the
    /// bound.
    const READS_TILES: bool = true;

    /// The estimate for a whole board.
    fn estimate(&self, tiles: &[u8]) -> u32 {
        self.value(&self.init(tiles))
    }
}

/// The heuristics, by name. Parsed from their names (and a few aliases:
/// `lc`, `md`, `hamming`, …) in any case.
///
/// ```
/// use npuzzle::{parse_board, Algorithm, HeuristicKind, Problem, SolveOptions};
///
/// let h: HeuristicKind = "md".parse()?;
/// assert_eq!(h, HeuristicKind::Manhattan);
/// let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
/// let goal = parse_board("1 2 3 / 8 0 4 / 7 6 5", None)?;
/// let opts = SolveOptions::default().with_algorithm(Algorithm::Astar).with_heuristic(h);
/// let answer = npuzzle::solve(&Problem::new(start, goal)?, &opts)?;
/// assert_eq!((answer.moves, answer.heuristic), (Some(5), Some("manhattan")));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(into = "&'static str")]
pub enum HeuristicKind {
    /// The planner's choice: pattern databases on boards of 11 to 64
    /// cells, linear conflict elsewhere
    /// (the planner's choice).
    #[default]
    Auto,
    /// Tiles off their goal cell, the blank not counted.
    Misplaced,
    /// Sum of the tiles' row and column distances to their goal cells
    Manhattan,
    /// Manhattan plus two moves for each tile that must step out of its
    /// goal row or column to let another pass.
    LinearConflict,
    /// Additive disjoint pattern databases, with the reflection lookup
    /// where the goal allows it (see [`crate::pdb`]); boards of at most
    /// 64 cells.
    Pdb,
}

impl HeuristicKind {
    /// Every heuristic, `auto` first.
    pub const ALL: [HeuristicKind; 5] = [
        HeuristicKind::Auto,
        HeuristicKind::Misplaced,
        HeuristicKind::Manhattan,
        HeuristicKind::LinearConflict,
        HeuristicKind::Pdb,
    ];

    /// The short name, as printed and parsed (`auto`, `misplaced`,
    /// `manhattan`, `linear-conflict`, `pdb`).
    pub fn name(self) -> &'static str {
        match self {
            HeuristicKind::Auto => "auto",
            HeuristicKind::Misplaced => "misplaced",
            HeuristicKind::Manhattan => "manhattan",
            HeuristicKind::LinearConflict => "linear-conflict",
            HeuristicKind::Pdb => "pdb",
        }
    }
}

impl From<HeuristicKind> for &'static str {
    fn from(h: HeuristicKind) -> &'static str {
        h.name()
    }
}

impl fmt::Display for HeuristicKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for HeuristicKind {
    type Err = String;

    fn from_str(s: &str) -> Result<HeuristicKind, String> {
        let l = s.trim().to_ascii_lowercase();
        HeuristicKind::ALL
            .into_iter()
            .find(|h| h.name() == l)
            .or(match l.as_str() {
                "lc" | "linear" | "linearconflict" | "linear_conflict" => {
                    Some(HeuristicKind::LinearConflict)
                }
                "md" | "manhatten" => Some(HeuristicKind::Manhattan),
                "hamming" => Some(HeuristicKind::Misplaced),
                _ => None,
            })
            .ok_or_else(|| {
                let names: Vec<&str> = HeuristicKind::ALL.iter().map(|h| h.name()).collect();
                format!(
                    "'{}' is not a heuristic; use one of {}",
                    crate::board::printable(s),
                    names.join(", ")
                )
            })
    }
}

/// Work to run with one concrete heuristic type, so searches are
/// monomorphised per heuristic (no dynamic dispatch per node).
pub trait WithHeuristic {
    /// What the work returns.
    type Output;
    /// Does the work with `h`.
    fn run<H: TableHooks>(self, h: &H) -> Self::Output;
}

/// Builds the heuristic `kind` for `goal` and runs `work` with it; `Err`
/// when pattern databases cannot be had. `kind` is what the planner
/// resolved: `Auto` never reaches here from a search (it would mean linear
/// conflict).
///
/// This is the one place a new heuristic plugs in.
///
/// A database build counts against `budget` (its deadline, cancel flag and
/// bytes), like the search that follows.
pub fn with_heuristic<W: WithHeuristic>(
    kind: HeuristicKind,
    goal: &Board,
    pdb: &pdb::PdbOptions,
    budget: &crate::budget::Budget,
    work: W,
) -> Result<W::Output, pdb::PdbError> {
    match kind {
        HeuristicKind::Misplaced => Ok(work.run(&Plain(Misplaced::new(goal)))),
        HeuristicKind::Manhattan => Ok(work.run(&Plain(Manhattan::new(goal)))),
        HeuristicKind::LinearConflict | HeuristicKind::Auto => {
            Ok(work.run(&Plain(LinearConflict::new(goal))))
        }
        HeuristicKind::Pdb if pdb.by_covers() && !pdb.also.is_empty() => {
            // A byte a lookup in the state, which IDA* copies a child: the
            // narrower form where the groups allow.
            if pdb::CoverHeuristic::<32, 64>::fits(goal, pdb)? {
                with_covers::<32, 64, W>(goal, pdb, budget, work)
            } else {
                with_covers::<{ pdb::MAX_CELLS }, 256, W>(goal, pdb, budget, work)
            }
        }
        HeuristicKind::Pdb => {
            // The node state holds a byte per cell and a few per group,
            // and IDA* copies one for every child: the narrowest form that
            // holds the board and every partition (16 cells and 4 groups:
            // 36 bytes rather than 132; Korf's 100 with 6-6-3 in 0.96 of
            // the time, and the 24-puzzle's 32-cell form 0.94).
            if pdb::PdbHeuristic::<16, 4>::fits(goal, pdb)? {
                with_pdb::<16, 4, W>(goal, pdb, budget, work)
            } else if pdb::PdbHeuristic::<32, 8>::fits(goal, pdb)? {
                with_pdb::<32, 8, W>(goal, pdb, budget, work)
            } else {
                with_pdb::<{ pdb::MAX_CELLS }, { pdb::MAX_GROUPS }, W>(goal, pdb, budget, work)
            }
        }
    }
}

/// [`with_heuristic`] for partitions combined by their covers, in the form
/// of `C` cells and `L` lookups.
fn with_covers<const C: usize, const L: usize, W: WithHeuristic>(
    goal: &Board,
    pdb: &pdb::PdbOptions,
    budget: &crate::budget::Budget,
    work: W,
) -> Result<W::Output, pdb::PdbError> {
    let h = pdb::CoverHeuristic::<C, L>::load(goal, pdb, pdb.reporter(), budget)?;
    Ok(work.run(&h))
}

/// [`with_heuristic`] for pattern databases in the form of `C` cells and
/// `G` groups, maxed over the partitions asked for.
fn with_pdb<const C: usize, const G: usize, W: WithHeuristic>(
    goal: &Board,
    pdb: &pdb::PdbOptions,
    budget: &crate::budget::Budget,
    work: W,
) -> Result<W::Output, pdb::PdbError> {
    // the planner has checked the count (`PdbLayout::resolve`)
    let new =
        |o: &pdb::PdbOptions| pdb::PdbHeuristic::<C, G>::load(goal, o, pdb.reporter(), budget);
    let h = new(pdb)?;
    let Some(o2) = pdb.also_options() else {
        return Ok(work.run(&h));
    };
    let h2 = new(&o2)?;
    let Some(o3) = o2.also_options() else {
        return Ok(work.run(&MaxOf(h, h2)));
    };
    let h3 = new(&o3)?;
    let Some(o4) = o3.also_options() else {
        return Ok(work.run(&MaxOf(h, MaxOf(h2, h3))));
    };
    if o4.also_options().is_some() {
        return Err(pdb::PdbError::TooManyPartitions(pdb.also.len() + 1));
    }
    Ok(work.run(&MaxOf(h, MaxOf(h2, MaxOf(h3, new(&o4)?)))))
}
