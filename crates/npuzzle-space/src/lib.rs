//! Whole-space analysis: the complete breadth-first search of every
//! position reachable from a goal, counted by distance.
//!
//! Positions are numbered densely by permutation rank halved by parity
//! (see `index`), and the search keeps two bits per position (Korf's
//! two-bit breadth-first search, see `bits`): `(R·C)!/8` bytes, 60 MB for
//! 3×4, 10.9 GB for 2×7. Each level is expanded in parallel over ranges of
//! ranks ([`analyze`], rayon on one machine) or by timely-dataflow workers
//! that each own a range and exchange neighbours' ranks with their owners
//! ([`cluster::analyze`], threads, processes or machines).
//!
//! ```
//! use npuzzle_space::{analyze, SpaceOptions, Silent};
//! use npuzzle::{Board, Shape};
//! use std::sync::atomic::AtomicBool;
//!
//! let goal = Board::blank_last(Shape::new(2, 3)).unwrap();
//! let r = analyze(&goal, &SpaceOptions::default(), &Silent, &AtomicBool::new(false)).unwrap();
//! assert_eq!(r.total(), 360);
//! assert_eq!(r.radius(), 21);
//! assert_eq!(r.antipodes[0].to_row_string(), "4 5 0/1 2 3");
//! ```

mod bits;
mod checkpoint;
pub mod cluster;
mod index;
mod local;
pub mod memory;
mod result;

pub use local::analyze;
pub use memory::{bytes_needed, Bytes};
pub use result::SpaceResult;

use npuzzle::{Board, Shape};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Boards with more cells are not handled (and could never fit in memory:
/// 17 cells would need 44 PB).
pub const MAX_CELLS: usize = index::MAX_CELLS;

/// Antipodes listed by default.
pub const DEFAULT_LIST: usize = 5;

/// At most this many antipodes are listed (`SpaceOptions::list` is
/// clamped), which bounds the memory the lists take while a level is
/// expanded.
pub const MAX_LIST: usize = 100_000;

/// Where and how often to save the search, and whether to resume.
#[derive(Clone, Debug)]
pub struct Checkpointing {
    /// The checkpoint file (written to `PATH.tmp`, then renamed).
    pub path: PathBuf,
    /// Continue from the file instead of starting afresh.
    pub resume: bool,
    /// Write after a level only when this long has passed since the last
    /// write (zero: after every level).
    pub every: Duration,
}

/// What a whole-space search may use and should report.
#[derive(Clone, Debug)]
pub struct SpaceOptions {
    /// Refuse a search whose two-bit array needs more bytes than this.
    pub max_memory: u64,
    /// How many antipodes to return (the first in rank order), at most
    /// [`MAX_LIST`].
    pub list: usize,
    /// Checkpoints, if any.
    pub checkpoint: Option<Checkpointing>,
    /// How a move is counted. In pushes the graph is not bipartite (a push
    /// of one tile and one of two can reach one level), which the two-bit
    /// search allows: see `local::expand`.
    pub metric: npuzzle::Metric,
}

impl Default for SpaceOptions {
    /// The machine's available memory (see [`memory::default_limit`]; 8 GiB
    /// where it cannot be read), [`DEFAULT_LIST`] antipodes, no checkpoints.
    fn default() -> Self {
        SpaceOptions {
            max_memory: memory::default_limit().unwrap_or(8 << 30),
            list: DEFAULT_LIST,
            checkpoint: None,
            metric: npuzzle::Metric::Stm,
        }
    }
}

/// Why a whole-space search did not finish.
#[derive(Debug, thiserror::Error)]
pub enum SpaceError {
    /// The two-bit array would not fit the memory limit; refused before
    /// anything was allocated.
    #[error(
        "a {shape} board has {positions} positions reachable from a goal; at two bits each the \
         search needs {needed}, more than the memory limit of {limit}",
        positions = memory::positions(*shape).map_or("more than 10^38".to_string(), |p| p.to_string()),
        needed = Bytes(*needed),
        limit = Bytes(u128::from(*limit))
    )]
    TooBig {
        /// The board's shape.
        shape: Shape,
        /// Bytes the search needs.
        needed: u128,
        /// The memory limit, in bytes.
        limit: u64,
    },
    /// The board has more cells than the search handles.
    #[error("a {shape} board has {} cells; the whole-space search handles at most {MAX_CELLS}", shape.cells())]
    TooManyCells {
        /// The board's shape.
        shape: Shape,
    },
    /// The system refused the memory (within the limit).
    #[error("cannot allocate {} for the search", Bytes(*bytes))]
    Alloc {
        /// Bytes asked for.
        bytes: u128,
    },
    /// A checkpoint is damaged, truncated, foreign or for another search;
    /// it is never trusted.
    #[error("checkpoint {}: {reason}; not resuming from it", path.display())]
    BadCheckpoint {
        /// The checkpoint file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A checkpoint could not be read.
    #[error("cannot read checkpoint {}: {source}", path.display())]
    CheckpointRead {
        /// The checkpoint file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A checkpoint could not be written.
    #[error("cannot write checkpoint {}: {source}", path.display())]
    CheckpointWrite {
        /// The checkpoint file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// Stopped (cancel flag or time) while expanding `level`.
    #[error("stopped while expanding level {level}{}", match saved {
        Some(l) => format!("; the checkpoint holds level {l}, to resume from"),
        None => String::new(),
    })]
    Cancelled {
        /// The level being expanded.
        level: u32,
        /// The last level saved in the checkpoint, if any.
        saved: Option<u32>,
    },
    /// The timely cluster failed (a worker, the network).
    #[error("timely cluster: {0}")]
    Cluster(String),
    /// The cluster cannot be formed as asked: a count out of range, a
    /// hostfile line that is not one distinct `host:port`.
    #[error("{0}")]
    BadCluster(String),
    /// The processes were not asked the same search (or one of them
    /// refused it); refused before any work, with the same message on
    /// every process that saw the difference.
    #[error("{0}")]
    Disagree(String),
    /// Some peers never connected before the time ran out.
    #[error("{0}")]
    NotConnected(String),
    /// This process cannot listen on its address.
    #[error("cannot listen on {address} (process {process}): {source}")]
    Listen {
        /// This process's number.
        process: usize,
        /// Its address.
        address: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// A peer process went away (killed, crashed, its machine or the
    /// network down) after the search began.
    #[error("lost process {process} ({address}): {cause}{}", match saved {
        Some(l) => format!("; the checkpoint holds level {l}"),
        None => String::new(),
    })]
    LostPeer {
        /// The peer's process number.
        process: usize,
        /// Its address.
        address: String,
        /// What the connection said.
        cause: String,
        /// The level of the last checkpoint (every part written), if any.
        saved: Option<u32>,
    },
}

impl SpaceError {
    /// Whether the error lies in the request (a size, a limit, a damaged or
    /// mismatched checkpoint) rather than in the environment.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            SpaceError::TooBig { .. }
                | SpaceError::TooManyCells { .. }
                | SpaceError::BadCheckpoint { .. }
                | SpaceError::BadCluster(_)
                | SpaceError::Disagree(_)
        )
    }
}

/// Hears about a search's progress (from any thread).
pub trait Progress: Sync {
    /// The search starts: positions in the space and bytes it holds.
    fn started(&self, _positions: u64, _bytes: u128) {}
    /// The search continues from a checkpoint at `level`.
    fn resumed(&self, _path: &Path, _level: u32) {}
    /// Level `level` (`frontier` positions, in `words` words) is expanded.
    fn level(&self, _level: u32, _frontier: u64, _words: u64) {}
    /// `words` more words of the current level are scanned.
    fn advance(&self, _words: u64) {}
    /// Level `level` is expanded; `found` positions lie at `level + 1`.
    fn level_done(&self, _level: u32, _found: u64) {}
    /// A checkpoint of `level` was written, taking `seconds`.
    fn checkpointed(&self, _path: &Path, _level: u32, _seconds: f64) {}
    /// The processes of a cluster connecting: a peer came, or who is
    /// still awaited.
    fn connecting(&self, _note: &str) {}
}

/// A [`Progress`] that reports nothing.
pub struct Silent;

impl Progress for Silent {}

/// Checks the shape against the cell and memory limits; returns the bytes
/// the two-bit array needs.
pub fn check_size(shape: Shape, max_memory: u64) -> Result<u128, SpaceError> {
    let needed = bytes_needed(shape);
    if needed > u128::from(max_memory) {
        return Err(SpaceError::TooBig {
            shape,
            needed,
            limit: max_memory,
        });
    }
    if shape.cells() > MAX_CELLS {
        return Err(SpaceError::TooManyCells { shape });
    }
    Ok(needed)
}

/// Calls `$f::<N>(args)` for the number of cells `$n` of a board (every
/// `R·C ≤ 16` with `R, C ≥ 2`), or returns `TooManyCells`.
macro_rules! for_cells {
    ($shape:expr, $f:ident ( $($arg:expr),* )) => {
        match $shape.cells() {
            4 => $f::<4>($($arg),*),
            6 => $f::<6>($($arg),*),
            8 => $f::<8>($($arg),*),
            9 => $f::<9>($($arg),*),
            10 => $f::<10>($($arg),*),
            12 => $f::<12>($($arg),*),
            14 => $f::<14>($($arg),*),
            15 => $f::<15>($($arg),*),
            16 => $f::<16>($($arg),*),
            _ => Err(SpaceError::TooManyCells { shape: $shape }),
        }
    };
}
pub(crate) use for_cells;

/// The boards of the given indices, for a goal.
fn boards_of(goal: &Board, indices: &[u64]) -> Result<Vec<Board>, SpaceError> {
    fn go<const N: usize>(goal: &Board, indices: &[u64]) -> Result<Vec<Board>, SpaceError> {
        let ix = index::Indexer::<N>::new(goal);
        Ok(indices.iter().map(|&m| ix.board(m, goal.shape())).collect())
    }
    for_cells!(goal.shape(), go(goal, indices))
}
