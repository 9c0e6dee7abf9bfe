//! What a running server allows: request sizes, search budgets, which
//! pattern databases it builds and how many bytes of them it keeps,
//! connections and their timeouts.

use crate::board::{Shape, MAX_SIDE, MIN_SIDE};
use crate::heuristic::pdb::PartitionSpec;
use crate::search::Budget;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

/// Limits of a running server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Largest request body, in bytes; larger ones get 413.
    pub body_limit: usize,
    /// Largest board (cells) the server will search; larger ones get 400,
    /// unless the fast solver takes them (see `max_fast_cells`).
    pub max_cells: usize,
    /// Largest board (cells) the fast solver answers (algorithm `auto` or
    /// `fast`): its answers come at once, within the request's budget.
    pub max_fast_cells: usize,
    /// The budget of every request, counted from the moment its headers
    /// have been read: reading the body, waiting for a heavy slot, building
    /// databases and searching all spend the one deadline. A request may
    /// ask for a shorter `timeout`, never a longer one. `cancel` is ignored
    /// (each request gets its own flag).
    pub budget: Budget,
    /// Heavy searches (anything but a complete-table lookup) allowed at once.
    pub heavy_slots: usize,
    /// How long a heavy request waits for a slot before it gets 503.
    pub queue_wait: Duration,
    /// Pattern-database cache directory; `None` for the default
    /// (`$XDG_CACHE_HOME/npuzzle`).
    pub pdb_dir: Option<PathBuf>,
    /// The boards and partitions the server loads or builds pattern
    /// databases for; the first entry for a board is used. Elsewhere the
    /// `auto` heuristic falls back to linear conflict, and a request naming
    /// `pdb` gets 400.
    pub pdb_allow: Vec<PdbAllow>,
    /// Most bytes of pattern databases kept in memory between requests
    /// (least recently used dropped first; a database still in use stays
    /// alive until its search ends).
    pub pdb_memory: u64,
    /// Most bytes the disk cache may hold; a database that would pass it is
    /// used from memory and not saved. `None`: no cap.
    pub pdb_disk: Option<u64>,
    /// Longest time a client may take to send a request's headers (and
    /// longest an idle kept-alive connection stays open).
    pub header_timeout: Duration,
    /// Longest time a client may take to send a request's body; then 408.
    pub body_timeout: Duration,
    /// Longest a response may wait for the client to read it.
    pub write_timeout: Duration,
    /// Most connections open at once; kept below the process's
    /// file-descriptor limit. Further clients wait in the kernel's listen
    /// queue until a connection closes.
    pub max_connections: usize,
    /// How long shutdown waits for open requests to finish (their searches
    /// are cancelled at once) before it closes their connections.
    pub shutdown_grace: Duration,
}

impl Config {
    /// 64 KiB: a 16×16 board written generously is a few KiB.
    pub const DEFAULT_BODY_LIMIT: usize = 64 * 1024;
    /// 5×5: beyond it even IDA* with the best heuristic can take hours.
    pub const DEFAULT_MAX_CELLS: usize = 25;
    /// 10×10: the page plays the answer back (some 1,700 moves), and every
    /// board along it is in the answer (a few hundred KB of JSON).
    pub const DEFAULT_MAX_FAST_CELLS: usize = 100;
    /// Time budget of one request.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(20);
    /// About 10–20 seconds of IDA*.
    pub const DEFAULT_MAX_NODES: u64 = 400_000_000;
    /// A few hundred MiB for BFS / A*.
    pub const DEFAULT_MAX_STATES: u64 = 4_000_000;
    /// Most bytes one search may hold (less where the machine has less
    /// per heavy slot).
    pub const DEFAULT_MAX_BYTES: u64 = 1 << 30;
    /// Pattern databases kept in memory: about nine goals of the
    /// 15-puzzle (6-6-3, 115 MB each) or two of the 24-puzzle.
    pub const DEFAULT_PDB_MEMORY: u64 = 1 << 30;
    /// Disk cache cap: twice the memory cache.
    pub const DEFAULT_PDB_DISK: u64 = 2 << 30;
    /// Headers come in one packet from any real client.
    pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(5);
    /// A body of at most 64 KiB, even over a slow line.
    pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(10);
    /// A response of a few KiB, even to a slow reader.
    pub const DEFAULT_WRITE_TIMEOUT: Duration = Duration::from_secs(10);
    /// Connections at once (fewer where the descriptor limit is lower).
    pub const DEFAULT_MAX_CONNECTIONS: usize = 512;
    /// Shutdown waits this long for open requests.
    pub const DEFAULT_SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

    /// The allow-list used by default: every board of at most 16 cells
    /// with its automatic partition (6-6-3 on 4×4, a few seconds to build),
    /// and 5×5 with 5-5-5-5-4 (about 14 s; 6-6-6-6 would take minutes).
    pub fn default_pdb_allow() -> Vec<PdbAllow> {
        let mut v = Vec::new();
        for rows in MIN_SIDE..=MAX_SIDE {
            for cols in MIN_SIDE..=MAX_SIDE {
                if rows * cols <= 16 {
                    v.push(PdbAllow::new(Shape::new(rows, cols), PartitionSpec::Auto));
                }
            }
        }
        let five = Shape::new(5, 5);
        v.push(PdbAllow::new(five, super::pdb::server_partition(five)));
        v
    }

    /// The partition allowed for boards of `shape`, if any.
    pub fn pdb_partition(&self, shape: Shape) -> Option<&PartitionSpec> {
        self.pdb_allow
            .iter()
            .find(|a| a.shape == shape)
            .map(|a| &a.partition)
    }
}

impl Default for Config {
    fn default() -> Config {
        let heavy_slots = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        Config {
            body_limit: Config::DEFAULT_BODY_LIMIT,
            max_cells: Config::DEFAULT_MAX_CELLS,
            max_fast_cells: Config::DEFAULT_MAX_FAST_CELLS,
            budget: Budget::default()
                .with_max_states(Config::DEFAULT_MAX_STATES)
                .with_max_nodes(Config::DEFAULT_MAX_NODES)
                // every heavy slot may be busy at once
                .with_max_bytes(
                    (crate::system::default_memory_budget() / heavy_slots as u64)
                        .min(Config::DEFAULT_MAX_BYTES),
                )
                .with_timeout(Some(Config::DEFAULT_TIMEOUT)),
            heavy_slots,
            queue_wait: Duration::from_secs(2),
            pdb_dir: None,
            pdb_allow: Config::default_pdb_allow(),
            pdb_memory: Config::DEFAULT_PDB_MEMORY,
            pdb_disk: Some(Config::DEFAULT_PDB_DISK),
            header_timeout: Config::DEFAULT_HEADER_TIMEOUT,
            body_timeout: Config::DEFAULT_BODY_TIMEOUT,
            write_timeout: Config::DEFAULT_WRITE_TIMEOUT,
            max_connections: Config::DEFAULT_MAX_CONNECTIONS,
            shutdown_grace: Config::DEFAULT_SHUTDOWN_GRACE,
        }
    }
}

/// A board shape and the partition whose pattern databases the server may
/// load or build for it, written `4x4:6-6-3` or `3x5:auto`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdbAllow {
    /// The board.
    pub shape: Shape,
    /// The partition of its tiles.
    pub partition: PartitionSpec,
}

impl PdbAllow {
    /// `partition` on boards of `shape`.
    pub fn new(shape: Shape, partition: PartitionSpec) -> PdbAllow {
        PdbAllow { shape, partition }
    }
}

impl fmt::Display for PdbAllow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.shape, self.partition)
    }
}

impl FromStr for PdbAllow {
    type Err = String;

    fn from_str(text: &str) -> Result<PdbAllow, String> {
        let (shape, partition) = text.split_once(':').ok_or_else(|| {
            format!("'{text}' is not BOARD:PARTITION, e.g. 4x4:6-6-3 or 3x5:auto")
        })?;
        Ok(PdbAllow {
            shape: shape.parse().map_err(|e| format!("'{text}': {e}"))?,
            partition: partition.parse().map_err(|e| format!("'{text}': {e}"))?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_allow_list() {
        let c = Config::default();
        assert_eq!(
            c.pdb_partition(Shape::new(4, 4)),
            Some(&PartitionSpec::Auto)
        );
        assert_eq!(
            c.pdb_partition(Shape::new(3, 5)),
            Some(&PartitionSpec::Auto)
        );
        assert_eq!(
            c.pdb_partition(Shape::new(2, 8)),
            Some(&PartitionSpec::Auto)
        );
        assert_eq!(
            c.pdb_partition(Shape::new(5, 5)),
            Some(&PartitionSpec::Sizes(vec![5, 5, 5, 5, 4]))
        );
        assert_eq!(c.pdb_partition(Shape::new(4, 5)), None);
        assert_eq!(c.pdb_partition(Shape::new(3, 6)), None);
    }

    #[test]
    fn allow_entries_as_written() {
        let a: PdbAllow = "4x4:6-6-3".parse().unwrap();
        assert_eq!(
            a,
            PdbAllow::new(Shape::new(4, 4), PartitionSpec::Sizes(vec![6, 6, 3]))
        );
        assert_eq!(a.to_string(), "4x4:6-6-3");
        assert_eq!(
            "3x5:auto".parse::<PdbAllow>().unwrap().to_string(),
            "3x5:auto"
        );
        assert!("4x4"
            .parse::<PdbAllow>()
            .unwrap_err()
            .contains("BOARD:PARTITION"));
        assert!("4y4:auto".parse::<PdbAllow>().is_err());
        assert!("4x4:six".parse::<PdbAllow>().is_err());
    }
}
