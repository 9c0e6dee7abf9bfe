//! What a running server allows: request sizes, search budgets, which
//! pattern databases it builds and how many bytes of them it keeps,
//! connections and their timeouts.

use npuzzle::{Board, Shape};

const MIN_SIDE: usize = Board::MIN_SIDE;
const MAX_SIDE: usize = Board::MAX_SIDE;
use npuzzle::pdb::PartitionSpec;
use npuzzle::Budget;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;
use thiserror::Error;

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
    /// Most events one `/api/trace` answer records (a request may ask for
    /// fewer); the summary still counts every one.
    pub max_trace_events: usize,
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
    /// Events of one trace: the first few thousand nodes are what a person
    /// watches, and 20,000 events of a 4x4 board are about 2 MB of JSON.
    pub const DEFAULT_MAX_TRACE_EVENTS: usize = 20_000;
    /// Most events a trace may be allowed: some 100 MB of JSON.
    pub const MAX_MAX_TRACE_EVENTS: usize = 1_000_000;
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

    /// Fewest cells a board has (2×2): a smaller cap would refuse them all.
    pub const MIN_CELLS: usize = MIN_SIDE * MIN_SIDE;
    /// Most cells a board has (16×16): a larger cap would mean nothing.
    pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;
    /// Most connections a cap may name: more than any descriptor table
    /// holds (the connection semaphore cannot take arbitrary counts).
    pub const MAX_MAX_CONNECTIONS: usize = 1 << 20;
    /// Most heavy slots: far more than any machine's cores.
    pub const MAX_HEAVY_SLOTS: usize = 1 << 16;

    /// Checks that a server could work with these limits, before it binds:
    /// a cap of zero (or beyond what any board or machine has) would refuse
    /// every request or mean nothing, and an allow-listed partition the
    /// solver cannot build would fail every request on its board. The
    /// first setting at fault is named.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let cells = Config::MIN_CELLS..=Config::MAX_CELLS;
        let in_range = |setting, value: usize, range: std::ops::RangeInclusive<usize>, what| {
            if range.contains(&value) {
                Ok(())
            } else {
                Err(ConfigError::new(
                    setting,
                    value,
                    format!(
                        "must be between {} and {} {what}",
                        range.start(),
                        range.end()
                    ),
                ))
            }
        };
        let board_cells = "cells (2x2 to 16x16 boards)";
        in_range("max_cells", self.max_cells, cells.clone(), board_cells)?;
        in_range("max_fast_cells", self.max_fast_cells, cells, board_cells)?;
        if self.max_fast_cells < self.max_cells {
            return Err(ConfigError::new(
                "max_fast_cells",
                self.max_fast_cells,
                format!(
                    "is below max_cells {}: every board searched may get the fast solver's \
                     answer, so it must be at least that",
                    self.max_cells
                ),
            ));
        }
        in_range(
            "max_connections",
            self.max_connections,
            1..=Config::MAX_MAX_CONNECTIONS,
            "connections",
        )?;
        in_range(
            "heavy_slots",
            self.heavy_slots,
            1..=Config::MAX_HEAVY_SLOTS,
            "searches",
        )?;
        in_range(
            "max_trace_events",
            self.max_trace_events,
            0..=Config::MAX_MAX_TRACE_EVENTS,
            "events",
        )?;
        if self.body_limit == 0 {
            return Err(ConfigError::new("body_limit", 0, "must be at least 1 byte"));
        }
        let b = &self.budget;
        for (setting, value) in [
            ("max_nodes", b.max_nodes),
            ("max_states", b.max_states),
            ("max_bytes", b.max_bytes),
        ] {
            if value == 0 {
                return Err(ConfigError::new(
                    setting,
                    0,
                    "must be at least 1: every search would stop at once",
                ));
            }
        }
        for (setting, value) in [
            ("timeout", b.timeout.unwrap_or(Duration::MAX)),
            ("header_timeout", self.header_timeout),
            ("body_timeout", self.body_timeout),
            ("write_timeout", self.write_timeout),
        ] {
            if value.is_zero() {
                return Err(ConfigError::new(setting, 0, "must be more than 0 seconds"));
            }
        }
        self.validate_pdb_allow()
    }

    /// Every allow-listed partition, resolved as a request on its board
    /// would resolve it (under the server's entry cap); one board listed
    /// twice is refused too (only its first entry would be used).
    fn validate_pdb_allow(&self) -> Result<(), ConfigError> {
        for (i, allow) in self.pdb_allow.iter().enumerate() {
            if let Some(first) = self.pdb_allow[..i].iter().find(|a| a.shape == allow.shape) {
                return Err(ConfigError::new(
                    "pdb_allow",
                    allow,
                    format!(
                        "{} is already allowed as {first}; a board gets one partition",
                        allow.shape
                    ),
                ));
            }
            let sides = MIN_SIDE..=MAX_SIDE;
            if !sides.contains(&allow.shape.rows) || !sides.contains(&allow.shape.cols) {
                return Err(ConfigError::new(
                    "pdb_allow",
                    allow,
                    "pattern databases are for boards of 2x2 to 16x16",
                ));
            }
            // Tiles are numbered alike on every goal, and group sizes
            // resolve to as many tiles on any: one goal checks them all.
            let goal = Board::blank_first(allow.shape)
                .map_err(|e| ConfigError::new("pdb_allow", allow, e.to_string()))?;
            allow
                .partition
                .groups(&goal, super::pdb::PDB_MAX_ENTRIES)
                .map_err(|e| ConfigError::new("pdb_allow", allow, e.to_string()))?;
        }
        Ok(())
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
            max_trace_events: Config::DEFAULT_MAX_TRACE_EVENTS,
            budget: Budget::default()
                .with_max_states(Config::DEFAULT_MAX_STATES)
                .with_max_nodes(Config::DEFAULT_MAX_NODES)
                // every heavy slot may be busy at once
                .with_max_bytes(
                    (npuzzle::Budget::default().max_bytes / heavy_slots as u64)
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

/// A setting of [`Config`] no server could work with.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{setting} {value}: {reason}")]
pub struct ConfigError {
    /// The setting, named as its field of [`Config`] (or of its budget):
    /// `max_cells`, `max_nodes`, `pdb_allow`.
    pub setting: &'static str,
    /// Its value, as it would be written.
    pub value: String,
    /// What is wrong with it.
    pub reason: String,
}

impl ConfigError {
    fn new(setting: &'static str, value: impl fmt::Display, reason: impl Into<String>) -> Self {
        ConfigError {
            setting,
            value: value.to_string(),
            reason: reason.into(),
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
    fn the_default_config_is_valid() {
        assert_eq!(Config::default().validate(), Ok(()));
    }

    #[test]
    fn configs_no_server_could_serve() {
        fn bad(f: impl Fn(&mut Config)) -> ConfigError {
            let mut c = Config::default();
            f(&mut c);
            c.validate().unwrap_err()
        }
        assert_eq!(bad(|c| c.max_cells = 0).setting, "max_cells");
        assert_eq!(bad(|c| c.max_cells = 3).setting, "max_cells");
        assert_eq!(bad(|c| c.max_cells = 257).setting, "max_cells");
        assert_eq!(bad(|c| c.max_fast_cells = 16).setting, "max_fast_cells");
        assert_eq!(bad(|c| c.max_connections = 0).setting, "max_connections");
        assert_eq!(
            bad(|c| c.max_connections = usize::MAX).setting,
            "max_connections"
        );
        assert_eq!(bad(|c| c.heavy_slots = 0).setting, "heavy_slots");
        assert_eq!(
            bad(|c| c.max_trace_events = Config::MAX_MAX_TRACE_EVENTS + 1).setting,
            "max_trace_events"
        );
        assert_eq!(bad(|c| c.body_limit = 0).setting, "body_limit");
        assert_eq!(bad(|c| c.budget.max_nodes = 0).setting, "max_nodes");
        assert_eq!(bad(|c| c.budget.max_states = 0).setting, "max_states");
        assert_eq!(
            bad(|c| c.budget.timeout = Some(Duration::ZERO)).setting,
            "timeout"
        );
        assert_eq!(
            bad(|c| c.header_timeout = Duration::ZERO).setting,
            "header_timeout"
        );
        let e = bad(|c| c.pdb_allow = vec!["4x4:1,1/2".parse().unwrap()]);
        assert_eq!(
            e.to_string(),
            "pdb_allow 4x4:1,1/2: tile 1 is in two groups or out of range"
        );
        let e = bad(|c| c.pdb_allow = vec!["4x4:7-7".parse().unwrap()]);
        assert!(
            e.to_string().contains("14 tiles but a 4x4 board has 15"),
            "{e}"
        );
        // 6-6-6-6 is more than a request may build
        let e = bad(|c| c.pdb_allow = vec!["5x5:auto".parse().unwrap()]);
        assert!(e.to_string().contains("a group of 6 tiles"), "{e}");
        for big in ["17x17:auto", "2x1000:auto", "4096x4096:1,2"] {
            let e = bad(|c| c.pdb_allow = vec![big.parse().unwrap()]);
            assert!(e.to_string().contains("2x2 to 16x16"), "{e}");
        }
        let e = bad(|c| {
            c.pdb_allow = vec!["4x4:auto".parse().unwrap(), "4x4:5-5-5".parse().unwrap()];
        });
        assert!(e.to_string().contains("already allowed as 4x4:auto"), "{e}");

        let mut c = Config {
            max_cells: 256,
            max_fast_cells: 256,
            pdb_allow: vec!["3x3:1,2/3,4,5,6,7,8".parse().unwrap()],
            ..Config::default()
        };
        c.budget.timeout = None;
        assert_eq!(c.validate(), Ok(()));
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
