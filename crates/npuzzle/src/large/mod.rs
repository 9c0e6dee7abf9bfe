//! Fast constructive solving of boards of any size (not optimal).
//!
//! For boards far beyond exact search — 10×10, 100×100, 1000×1000, or
//! 2×1000 — [`solve`] builds a solution in time and memory linear in its
//! length and the number of cells, streaming the moves to a [`MoveSink`]
//! as it goes. The answer is **not optimal**; [`Report::lower_bound`] (the
//! Manhattan distance) says how far from optimal it can be at most.
//!
//! ```
//! use npuzzle::board::Grid;
//! use npuzzle::large::{self, Options};
//!
//! // 3×4, Korf's goal (blank first), any start that can reach it
//! let start = Grid::new(3, 4, vec![4, 1, 2, 3, 5, 9, 6, 7, 8, 0, 10, 11])?;
//! let goal = Grid::blank_first(start.shape());
//! let (path, report) = large::solve_path(&start, &goal, &Options::default())?;
//! assert_eq!(path.len() as u64, report.moves);
//! assert!(report.moves >= report.lower_bound);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Callers normally come through the planner ([`crate::search`], algorithm
//! `fast`), which also runs this solver on boards of up to 16×16 when asked
//! or when exact search would not finish.
//!
//! **Method.** Tiles are renamed to their goal cells, so every goal is the
//! same problem (`grid.rs`). The unsolved rectangle is peeled from the
//! outside in, a row and a column at a time (an L; a long region loses
//! lines of its longer side until it is square), never losing the side
//! that holds the goal's blank cell (`peel.rs`). Each tile is fetched by
//! the blank (`route.rs`) and carried home by the blank stepping round it
//! — in a staircase where it can, 3 moves a step, rather than straight on,
//! 5 (`carry.rs`) — and finished exactly in a small window at its target,
//! by a table over the positions of the blank and the tile, or of the
//! last two tiles of a run placed together (`place.rs`, `window.rs`). Of
//! equally short moves, the one that moves the displaced tiles towards
//! their goals wins (`line.rs`). The last region (at most 3×3, or 2×5) is
//! solved optimally with the complete distance tables of
//! [`crate::table`] (`finish.rs`), used directly: the planner runs
//! this solver, so it must not call the planner back. On the way out a bounded window
//! drops moves that cancel and cycles that change nothing (`emit.rs`).
//!
//! **Cost.** Time and memory are linear: 4 bytes a cell for the board
//! (plus the caller's two [`Grid`]s, 4 bytes a cell each), a few window tables (kilobytes each),
//! and a fixed window of moves. On random n×n boards the length is about
//! 0.7 × Parberry's 8/3·n³, 2.8 times the Manhattan distance (see
//! `examples/fast_quality.rs` and `benches/fast.sh`).
//!
//! Boards of at most 10 cells are a final region from the start, so their
//! answers are optimal; beyond that, no claim is made.

mod canon;
mod carry;
mod emit;
mod finish;
mod frame;
mod line;
mod peel;
mod place;
mod route;
mod sink;
mod symmetry;
mod window;

pub use sink::{Discard, Letters, MoveSink};

use crate::board::{Dir, Grid, Shape};
use canon::{Canon, Mover};
use std::convert::Infallible;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use thiserror::Error;

/// Default limit on the number of cells: every [`Grid`] (memory: 4 bytes
/// a cell, plus the caller's two boards).
pub const DEFAULT_MAX_CELLS: usize = crate::board::MAX_GRID_CELLS;

/// Bytes the solver itself holds per cell (the canonical board): what a
/// caller checks against a memory budget before calling [`solve`].
pub const BYTES_PER_CELL: u64 = 4;

/// How to run the solver.
#[derive(Clone, Debug)]
pub struct Options {
    /// Set from outside to stop the solver; checked every 65,536 moves.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Stop when this instant passes (checked as often).
    pub deadline: Option<Instant>,
    /// Boards with more cells are refused before anything is allocated.
    pub max_cells: usize,
    /// Also drop longer cycles that leave the board unchanged (not only a
    /// move followed by its inverse), on boards of up to
    /// [`CYCLE_CHECK_MAX_CELLS`] cells.
    pub drop_cycles: bool,
    /// Most times a small board (11 to 1024 cells) is solved, keeping the
    /// shortest answer; 1 solves once and streams, like a large board.
    pub max_runs: u32,
}

/// Largest board on which [`Options::drop_cycles`] applies. On random
/// boards from 10×10 to 300×300 the check never found a cycle (the paths
/// were the same move for move without it: the pieces come from exact
/// searches), and it costs about 5% of the time, a few seconds on
/// 1000×1000; beyond this size only inverse pairs are dropped.
pub const CYCLE_CHECK_MAX_CELLS: usize = 1 << 16;

/// Largest board on which routes weigh the move after the next when they
/// choose a move. Beyond it they look at the next move only: on 300×300
/// boards the look-ahead saved 0.13% of the moves and cost 6% of the time
/// (0.2–0.8% of the moves on 10×10 to 100×100, where the time is small).
pub const LOOK_AHEAD_MAX_CELLS: usize = 1 << 16;

impl Default for Options {
    fn default() -> Options {
        Options {
            cancel: None,
            deadline: None,
            max_cells: DEFAULT_MAX_CELLS,
            drop_cycles: true,
            max_runs: 64,
        }
    }
}

/// What a solve produced and cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Length of the path handed to the sink.
    pub moves: u64,
    /// Manhattan distance of the start: no path is shorter.
    pub lower_bound: u64,
    /// Moves removed on the way out (inverse pairs and empty cycles).
    pub removed: u64,
    /// Shape of the region solved exactly at the end (rows, columns).
    pub final_region: (usize, usize),
    /// Moves of the exact solution of that region.
    pub final_moves: u32,
    /// Whether the path is proven optimal: only when the whole board was
    /// the final region (at most 10 cells), never otherwise.
    pub optimal: bool,
    /// Tiles placed one at a time.
    pub singles: u64,
    /// Tiles placed in pairs (the last two of a run).
    pub pairs: u64,
    /// Window tables built (the rest came from the cache).
    pub tables_built: u64,
    /// Moves made (before the redundant ones were dropped) taking the
    /// blank to the next tile.
    pub route_moves: u64,
    /// Moves made carrying tiles towards their targets.
    pub carry_moves: u64,
    /// Moves made finishing tiles in their windows.
    pub window_moves: u64,
    /// Cells the carried tiles advanced (so `carry_moves / carry_steps`
    /// is the cost of a step: 3 after a turn, 5 straight on).
    pub carry_steps: u64,
    /// Wall-clock time of the solve.
    pub elapsed: Duration,
}

/// Why there is no solution (or no complete one). The boards themselves
/// are valid: a [`Grid`] checked them when it was built.
#[derive(Debug, Error)]
pub enum Error<E = Infallible> {
    /// The start and the goal differ in shape.
    #[error("the start is {}x{} and the goal {}x{}: they must have the same size", start.rows, start.cols, goal.rows, goal.cols)]
    ShapeMismatch {
        /// The start's shape.
        start: Shape,
        /// The goal's shape.
        goal: Shape,
    },
    /// The board has more cells than [`Options::max_cells`] allows.
    #[error("a {rows}x{cols} board has more cells than the limit of {limit} (it would need about {mib} MiB)")]
    TooLarge {
        /// Rows of the board.
        rows: usize,
        /// Columns of the board.
        cols: usize,
        /// The limit on cells.
        limit: usize,
        /// Memory the solve would hold, in MiB.
        mib: u64,
    },
    /// The goal cannot be reached from the start.
    #[error("the goal cannot be reached from the start (the permutation's parity does not match the blank's distance)")]
    Unsolvable,
    /// Stopped through [`Options::cancel`]; `moves`: how many moves the
    /// sink had taken (the start of a solution, not a solution).
    #[error("cancelled after {moves} moves")]
    Cancelled {
        /// Moves handed to the sink.
        moves: u64,
    },
    /// [`Options::deadline`] passed.
    #[error("the time limit ran out after {moves} moves")]
    Deadline {
        /// Moves handed to the sink.
        moves: u64,
    },
    /// The sink refused the moves (a write error, say).
    #[error("writing the moves failed after {moves} moves: {source}")]
    Sink {
        /// Moves the sink had taken before.
        moves: u64,
        /// The sink's error.
        source: E,
    },
    /// A bug: the moves the sink took are not a solution.
    #[error("internal error in the fast solver (please report it): {0}")]
    Internal(String),
}

/// Memory a solve of `cells` cells holds, in bytes: the canonical board
/// (the caller's two boards are the caller's).
pub fn bytes_needed(cells: usize) -> u64 {
    cells as u64 * BYTES_PER_CELL
}

#[cfg(any(test, feature = "internals"))]
/// The Manhattan distance from `start` to `goal` (of the same shape): a
/// lower bound on every solution's length. O(cells).
pub fn manhattan(start: &Grid, goal: &Grid) -> Result<u64, Error> {
    check_input(start, goal, usize::MAX)?;
    Ok(Canon::new(start, goal).manhattan())
}

fn check_input<E>(start: &Grid, goal: &Grid, max_cells: usize) -> Result<(), Error<E>> {
    if start.shape() != goal.shape() {
        return Err(Error::ShapeMismatch {
            start: start.shape(),
            goal: goal.shape(),
        });
    }
    if start.len() > max_cells {
        return Err(Error::TooLarge {
            rows: start.rows(),
            cols: start.cols(),
            limit: max_cells,
            mib: bytes_needed(start.len()) >> 20,
        });
    }
    Ok(())
}

/// Boards of more than 10 and at most this many cells are solved several
/// times, and the shortest path is kept; larger boards are solved once,
/// streaming. The runs alternate the board and its transpose (the
/// solver's choices are the same for mirror images, not for transposes)
/// and, after the first two, add a little noise to the choice of the next
/// cell. Measured on Korf and Felner's 24-puzzles, the best of 64 runs is
/// 11% shorter than one run; on 10×10 boards, 4% (`benches/fast.sh`).
const MULTI_CELLS: usize = 1024;

/// Moves the runs on a small board may make in all: the number of runs is
/// this over the expected length of one (2·cells^1.5), from 2 to 64. A
/// 32×32 board gets 9 runs, 20×20 and below all 64.
const MULTI_MOVES: f64 = 1_048_576.0;

/// Moves handed to the sink at once when a kept path is replayed.
const CHUNK: usize = 1 << 14;

/// Solves `start` → `goal` (any goal, the blank anywhere), handing the
/// moves to `sink` as they are produced. Unreachable pairs are answered
/// from parity, in O(cells), before any move.
pub fn solve<S: MoveSink>(
    start: &Grid,
    goal: &Grid,
    opts: &Options,
    sink: &mut S,
) -> Result<Report, Error<S::Error>> {
    let t0 = Instant::now();
    check_input(start, goal, opts.max_cells)?;
    if !start.can_reach(goal) {
        return Err(Error::Unsolvable);
    }
    let cells = start.len();
    if cells > crate::table::MAX_CELLS && cells <= MULTI_CELLS && opts.max_runs > 1 {
        return solve_several(start, goal, opts, sink, t0);
    }
    let canon = Canon::new(start, goal);
    solve_canon(canon, opts, sink, t0, 0, &mut window::Tables::default())
}

/// Solves several times (see [`MULTI_CELLS`]) and hands the shortest path
/// to `sink`.
fn solve_several<S: MoveSink>(
    start: &Grid,
    goal: &Grid,
    opts: &Options,
    sink: &mut S,
    t0: Instant,
) -> Result<Report, Error<S::Error>> {
    let (rows, cols) = (start.rows(), start.cols());
    let cells = start.len() as f64;
    let mut best: Option<(Vec<Dir>, Report)> = None;
    let runs = (MULTI_MOVES / (2.0 * cells * cells.sqrt()))
        .clamp(2.0, 64.0)
        .min(f64::from(opts.max_runs)) as u64;
    // the window tables depend on the shape only: shared by the runs
    let mut tables = [window::Tables::default(), window::Tables::default()];
    for run in 0..runs {
        let transpose = run % 2 == 1;
        let s = symmetry::Symmetry {
            flip_rows: false,
            flip_cols: false,
            transpose,
        };
        let canon = if transpose {
            let (r, c) = s.shape(rows, cols);
            let t = |g: &Grid| Grid::new(r, c, s.board(rows, cols, g.tiles()));
            match (t(start), t(goal)) {
                (Ok(a), Ok(b)) => Canon::new(&a, &b),
                _ => return Err(Error::Internal("a transposed board is invalid".into())),
            }
        } else {
            Canon::new(start, goal)
        };
        let mut path = Vec::new();
        let jitter = if run < 2 {
            0
        } else {
            0x9E37_79B9_7F4A_7C15 ^ run
        };
        let t = &mut tables[usize::from(transpose)];
        let report = solve_canon(canon, opts, &mut path, t0, jitter, t).map_err(widen)?;
        if best.as_ref().is_none_or(|b| report.moves < b.1.moves) {
            path.iter_mut().for_each(|d| *d = s.back(*d));
            best = Some((path, report));
        }
    }
    let Some((path, mut report)) = best else {
        return Err(Error::Internal("no orientation was solved".into()));
    };
    let mut sent = 0;
    for chunk in path.chunks(CHUNK) {
        sink.moves(chunk).map_err(|source| Error::Sink {
            moves: sent,
            source,
        })?;
        sent += chunk.len() as u64;
    }
    report.elapsed = t0.elapsed();
    Ok(report)
}

/// An error of a run into a path in memory, as an error of any sink's run.
fn widen<E>(e: Error) -> Error<E> {
    match e {
        Error::ShapeMismatch { start, goal } => Error::ShapeMismatch { start, goal },
        Error::TooLarge {
            rows,
            cols,
            limit,
            mib,
        } => Error::TooLarge {
            rows,
            cols,
            limit,
            mib,
        },
        Error::Unsolvable => Error::Unsolvable,
        Error::Cancelled { moves } => Error::Cancelled { moves },
        Error::Deadline { moves } => Error::Deadline { moves },
        Error::Sink { source, .. } => match source {},
        Error::Internal(s) => Error::Internal(s),
    }
}

/// Solves a checked, reachable problem, streaming the moves to `sink`.
fn solve_canon<S: MoveSink>(
    grid: Canon,
    opts: &Options,
    sink: &mut S,
    t0: Instant,
    jitter: u64,
    tables: &mut window::Tables,
) -> Result<Report, Error<S::Error>> {
    let lower_bound = grid.manhattan();
    let (rows, cols) = (grid.rows, grid.cols);
    let mut failed: Option<S::Error> = None;
    let mut flush = |chunk: &[Dir]| match sink.moves(chunk) {
        Ok(()) => true,
        Err(e) => {
            failed = Some(e);
            false
        }
    };
    let out = emit::Emitter::new(
        &mut flush,
        opts.drop_cycles && rows * cols <= CYCLE_CHECK_MAX_CELLS,
        opts.cancel.clone(),
        opts.deadline,
    );
    let built = tables.built;
    let mut peeler = peel::Peeler {
        m: Mover { grid, out },
        tables,
        bfs: Default::default(),
        counters: Default::default(),
        jitter,
        look_ahead: rows * cols <= LOOK_AHEAD_MAX_CELLS,
    };
    let outcome = run(&mut peeler);
    let stop = peeler.m.out.finish();
    let moves = peeler.m.out.delivered;
    let removed = peeler.m.out.removed;
    let counters = peeler.counters;
    let tables_built = peeler.tables.built - built;
    drop(peeler);
    match stop {
        Some(emit::Stop::Cancelled) => return Err(Error::Cancelled { moves }),
        Some(emit::Stop::Deadline) => return Err(Error::Deadline { moves }),
        Some(emit::Stop::Sink) => {
            if let Some(source) = failed {
                return Err(Error::Sink { moves, source });
            }
            return Err(Error::Internal("the sink failed without an error".into()));
        }
        None => {}
    }
    let (final_region, final_moves) = outcome.map_err(|f| Error::Internal(f.0))?;
    let optimal = final_region == (rows, cols);
    Ok(Report {
        moves,
        lower_bound,
        removed,
        final_region,
        final_moves,
        optimal,
        singles: counters.singles,
        pairs: counters.pairs,
        tables_built,
        route_moves: counters.moves[0],
        carry_moves: counters.moves[1],
        window_moves: counters.moves[2],
        carry_steps: counters.carry_steps,
        elapsed: t0.elapsed(),
    })
}

/// Peels the board and solves the final region; its shape and moves.
fn run(p: &mut peel::Peeler<'_, '_>) -> Result<((usize, usize), u32), line::Fail> {
    let region = p.peel()?;
    if p.m.out.stopped().is_some() {
        return Ok(((region.rows(), region.cols()), 0));
    }
    let moves = finish::finish(&mut p.m, region)?;
    Ok(((region.rows(), region.cols()), moves))
}

#[cfg(any(test, feature = "internals"))]
/// [`solve`], keeping the whole path (for boards whose path fits in memory).
pub fn solve_path(start: &Grid, goal: &Grid, opts: &Options) -> Result<(Vec<Dir>, Report), Error> {
    let mut path = Vec::new();
    let report = solve(start, goal, opts, &mut path)?;
    Ok((path, report))
}
