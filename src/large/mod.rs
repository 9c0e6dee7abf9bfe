//! Fast constructive solving of boards of any size (not optimal).
//!
//! For boards far beyond exact search — 10×10, 100×100, 1000×1000, or
//! 2×1000 — [`solve`] builds a solution in time and memory linear in its
//! length and the number of cells, streaming the moves to a [`MoveSink`]
//! as it goes. The answer is **not optimal**; [`Report::lower_bound`] (the
//! Manhattan distance) says how far from optimal it can be at most.
//!
//! ```
//! use npuzzle::large::{self, Options};
//!
//! // 3×4, Korf's goal (blank first), any start that can reach it
//! let start = [4, 1, 2, 3, 5, 9, 6, 7, 8, 0, 10, 11];
//! let goal: Vec<u32> = (0..12).collect();
//! let (path, report) = large::solve_path(3, 4, &start, &goal, &Options::default()).unwrap();
//! assert_eq!(path.len() as u64, report.moves);
//! assert!(report.moves >= report.lower_bound);
//! ```
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
//! [`crate::search::table`] (`finish.rs`). On the way out a bounded window
//! drops moves that cancel and cycles that change nothing (`emit.rs`).
//!
//! **Cost.** Time and memory are linear: 8 bytes a cell for the board
//! (plus the caller's two boards), a few window tables (kilobytes each),
//! and a fixed window of moves. On random n×n boards the length is about
//! 0.7 × Parberry's 8/3·n³, 2.8 times the Manhattan distance (see
//! `examples/fast_quality.rs` and `benches/fast.sh`).
//!
//! Boards of at most 10 cells are a final region from the start, so their
//! answers are optimal; beyond that, no claim is made.

mod carry;
mod emit;
mod finish;
mod frame;
mod grid;
mod line;
mod peel;
mod place;
mod route;
mod sink;
mod symmetry;
mod window;

pub use sink::{Discard, Letters, MoveSink};

use crate::board::{Cell, Dir, Role};
use grid::{Grid, Mover};
use std::convert::Infallible;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use thiserror::Error;

/// Default limit on the number of cells (memory: 8 bytes a cell, plus the
/// caller's two boards).
pub const DEFAULT_MAX_CELLS: usize = 1 << 24;

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
    /// move followed by its inverse).
    pub drop_cycles: bool,
    /// Most times a small board (11 to 1024 cells) is solved, keeping the
    /// shortest answer; 1 solves once and streams, like a large board.
    pub max_runs: u32,
}

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
    /// Tiles placed one at a time, and in pairs.
    pub singles: u64,
    pub pairs: u64,
    /// Window tables built (the rest came from the cache).
    pub tables_built: u64,
    /// Moves made (before the redundant ones were dropped) taking the
    /// blank to the next tile, carrying tiles, and finishing them in
    /// their windows.
    pub route_moves: u64,
    pub carry_moves: u64,
    pub window_moves: u64,
    /// Cells the carried tiles advanced (so `carry_moves / carry_steps`
    /// is the cost of a step: 3 after a turn, 5 straight on).
    pub carry_steps: u64,
    pub elapsed: Duration,
}

/// Why there is no solution (or no complete one).
#[derive(Debug, Error)]
pub enum Error<E = Infallible> {
    #[error("a {rows}x{cols} board is not supported: each side needs at least 2 cells")]
    Shape { rows: usize, cols: usize },
    #[error("a {rows}x{cols} board has more cells than the limit of {limit} (it would need about {mib} MiB)")]
    TooLarge {
        rows: usize,
        cols: usize,
        limit: usize,
        mib: u128,
    },
    #[error("{role} board: {count} tiles do not fill a {rows}x{cols} board ({} cells)", rows * cols)]
    Count {
        role: Role,
        count: usize,
        rows: usize,
        cols: usize,
    },
    #[error("{role} board: number {tile} at {cell} is out of range: a {rows}x{cols} board has tiles 1..{} and the blank 0", rows * cols - 1)]
    OutOfRange {
        role: Role,
        tile: u32,
        cell: Cell,
        rows: usize,
        cols: usize,
    },
    #[error("{role} board: tile {tile} appears twice ({first} and {second})")]
    Duplicate {
        role: Role,
        tile: u32,
        first: Cell,
        second: Cell,
    },
    #[error("the goal cannot be reached from the start (the permutation's parity does not match the blank's distance)")]
    Unsolvable,
    /// `moves`: how many moves the sink had taken (they are the start of
    /// a solution, not a solution).
    #[error("cancelled after {moves} moves")]
    Cancelled { moves: u64 },
    #[error("the time limit ran out after {moves} moves")]
    Deadline { moves: u64 },
    #[error("writing the moves failed after {moves} moves: {source}")]
    Sink { moves: u64, source: E },
    /// A bug: the moves the sink took are not a solution.
    #[error("internal error in the fast solver (please report it): {0}")]
    Internal(String),
}

/// Checks a start and a goal (shape, both permutations of `0..rows·cols`)
/// and whether the goal can be reached, in O(rows·cols).
pub fn check(rows: usize, cols: usize, start: &[u32], goal: &[u32]) -> Result<(), Error> {
    check_input(rows, cols, start, goal, usize::MAX)?;
    let g = Grid::new(rows, cols, start, goal);
    if g.odd_permutation() != (g.blank_distance() % 2 == 1) {
        return Err(Error::Unsolvable);
    }
    Ok(())
}

/// The Manhattan distance from `start` to `goal` (valid boards of the
/// same shape): a lower bound on every solution's length.
pub fn manhattan(rows: usize, cols: usize, start: &[u32], goal: &[u32]) -> Result<u64, Error> {
    check_input(rows, cols, start, goal, usize::MAX)?;
    Ok(Grid::new(rows, cols, start, goal).manhattan())
}

fn check_input<E>(
    rows: usize,
    cols: usize,
    start: &[u32],
    goal: &[u32],
    max_cells: usize,
) -> Result<(), Error<E>> {
    if rows < 2 || cols < 2 {
        return Err(Error::Shape { rows, cols });
    }
    // Labels pack a row and a column into a `u32` (see `grid`).
    let fits = (rows as u64)
        .checked_shl(grid::col_bits(cols))
        .is_some_and(|x| x <= 1 << 32);
    let cells = rows
        .checked_mul(cols)
        .filter(|&n| n <= max_cells && n < u32::MAX as usize && fits);
    let Some(n) = cells else {
        return Err(Error::TooLarge {
            rows,
            cols,
            limit: max_cells.min(u32::MAX as usize - 1),
            mib: (rows as u128 * cols as u128 * 16) >> 20,
        });
    };
    // first[t] = 1 + the cell where tile t was first seen
    let mut first = vec![0u32; n];
    for (role, tiles) in [(Role::Start, start), (Role::Goal, goal)] {
        if tiles.len() != n {
            return Err(Error::Count {
                role,
                count: tiles.len(),
                rows,
                cols,
            });
        }
        first.fill(0);
        for (cell, &t) in tiles.iter().enumerate() {
            let Some(seen) = first.get_mut(t as usize) else {
                return Err(Error::OutOfRange {
                    role,
                    tile: t,
                    cell: Cell::new(cell, cols),
                    rows,
                    cols,
                });
            };
            if *seen != 0 {
                return Err(Error::Duplicate {
                    role,
                    tile: t,
                    first: Cell::new(*seen as usize - 1, cols),
                    second: Cell::new(cell, cols),
                });
            }
            *seen = cell as u32 + 1;
        }
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

/// Solves `start` → `goal` (tiles in reading order, `0` the blank, any
/// goal) on a `rows`×`cols` board, handing the moves to `sink` as they are
/// produced. Invalid or unreachable pairs are answered before any move.
pub fn solve<S: MoveSink>(
    rows: usize,
    cols: usize,
    start: &[u32],
    goal: &[u32],
    opts: &Options,
    sink: &mut S,
) -> Result<Report, Error<S::Error>> {
    let t0 = Instant::now();
    check_input(rows, cols, start, goal, opts.max_cells)?;
    let grid = Grid::new(rows, cols, start, goal);
    if grid.odd_permutation() != (grid.blank_distance() % 2 == 1) {
        return Err(Error::Unsolvable);
    }
    let cells = rows * cols;
    if cells > crate::search::table::MAX_CELLS && cells <= MULTI_CELLS && opts.max_runs > 1 {
        drop(grid);
        return solve_several(rows, cols, start, goal, opts, sink, t0);
    }
    solve_grid(grid, opts, sink, t0, 0, &mut window::Tables::default())
}

/// Solves several times (see [`MULTI_CELLS`]) and hands the shortest path
/// to `sink`.
fn solve_several<S: MoveSink>(
    rows: usize,
    cols: usize,
    start: &[u32],
    goal: &[u32],
    opts: &Options,
    sink: &mut S,
    t0: Instant,
) -> Result<Report, Error<S::Error>> {
    let mut best: Option<(Vec<Dir>, Report)> = None;
    let runs = (MULTI_MOVES / (2.0 * (rows * cols) as f64 * ((rows * cols) as f64).sqrt()))
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
        let (r, c) = s.shape(rows, cols);
        let grid = Grid::new(
            r,
            c,
            &s.board(rows, cols, start),
            &s.board(rows, cols, goal),
        );
        let mut path = Vec::new();
        let jitter = if run < 2 {
            0
        } else {
            0x9E37_79B9_7F4A_7C15 ^ run
        };
        let t = &mut tables[usize::from(transpose)];
        let report = solve_grid(grid, opts, &mut path, t0, jitter, t).map_err(widen)?;
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
        Error::Shape { rows, cols } => Error::Shape { rows, cols },
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
        Error::Count {
            role,
            count,
            rows,
            cols,
        } => Error::Count {
            role,
            count,
            rows,
            cols,
        },
        Error::OutOfRange {
            role,
            tile,
            cell,
            rows,
            cols,
        } => Error::OutOfRange {
            role,
            tile,
            cell,
            rows,
            cols,
        },
        Error::Duplicate {
            role,
            tile,
            first,
            second,
        } => Error::Duplicate {
            role,
            tile,
            first,
            second,
        },
        Error::Unsolvable => Error::Unsolvable,
        Error::Cancelled { moves } => Error::Cancelled { moves },
        Error::Deadline { moves } => Error::Deadline { moves },
        Error::Sink { source, .. } => match source {},
        Error::Internal(s) => Error::Internal(s),
    }
}

/// Solves a checked, reachable problem, streaming the moves to `sink`.
fn solve_grid<S: MoveSink>(
    grid: Grid,
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
        opts.drop_cycles,
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
fn run(p: &mut peel::Peeler) -> Result<((usize, usize), u32), line::Fail> {
    let region = p.peel()?;
    if p.m.out.stopped().is_some() {
        return Ok(((region.rows(), region.cols()), 0));
    }
    let moves = finish::finish(&mut p.m, region)?;
    Ok(((region.rows(), region.cols()), moves))
}

/// [`solve`], keeping the whole path (for boards whose path fits in memory).
pub fn solve_path(
    rows: usize,
    cols: usize,
    start: &[u32],
    goal: &[u32],
    opts: &Options,
) -> Result<(Vec<Dir>, Report), Error> {
    let mut path = Vec::new();
    let report = solve(rows, cols, start, goal, opts, &mut path)?;
    Ok((path, report))
}
