//! The distributed search's state, the same on every worker after each
//! round, and its checkpoint: each process saves it to `PATH.pI-of-P`
//! (`I` the process, `P` all of them) on its own machine.
//!
//! A file is `NPZIDA1 ` and the CRC-32 of the rest in hex on its first
//! line, then the state as JSON, written through `FILE.tmp` and renamed.
//! It names the run it belongs to (board, goal, heuristic and databases,
//! pruning, node budget, workers and processes), and is refused for any
//! other. The processes may have saved after different rounds (each saves
//! on its own clock); every saved state is one the run went through, so on
//! resume the workers adopt the most advanced.

use crate::SpaceError;
use npuzzle::IterationSummary;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

const MAGIC: &str = "NPZIDA1";

/// Where the search is: the iteration under way, what of it is done, and
/// the totals so far.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct State {
    /// What run this is (see [`State::run`]).
    pub run: String,
    /// The iteration under way (`u32::MAX`: none is left).
    pub bound: u32,
    /// The depth its cut starts from (deepened until the workers have
    /// tasks enough; grown when an iteration's tasks were too uneven).
    pub base: u32,
    /// Its cut depth, once cut.
    pub depth: u32,
    /// Whether its cut's nodes are counted (the cut is made again on
    /// resume, and not counted twice).
    pub cut_counted: bool,
    /// Its tasks finished, in the order they were reported.
    pub done: Vec<u32>,
    /// Its nodes so far.
    pub nodes: u64,
    /// Its least `f` above the bound so far.
    pub next: u32,
    /// The most nodes one of its tasks took.
    pub largest: u64,
    /// The last bound searched to exhaustion.
    pub last_done: u32,
    /// Every earlier iteration: bound and nodes.
    pub iterations: Vec<(u32, u64)>,
    pub expanded: u64,
    pub generated: u64,
}

impl State {
    /// The state at the start of iteration `bound`, cut from `base`.
    pub(super) fn iteration(run: String, bound: u32, base: u32) -> State {
        State {
            run,
            bound,
            base,
            depth: base,
            next: u32::MAX,
            ..State::default()
        }
    }

    /// Whether this state is further along than `other`.
    pub(super) fn ahead_of(&self, other: &State) -> bool {
        (self.iterations.len(), self.done.len()) > (other.iterations.len(), other.done.len())
    }

    pub(super) fn summaries(&self) -> Vec<IterationSummary> {
        self.iterations
            .iter()
            .map(|&(bound, expanded)| IterationSummary { bound, expanded })
            .collect()
    }
}

/// Process `process` of `processes`'s checkpoint file: `PATH.pI-of-P`.
pub fn process_path(path: &Path, process: usize, processes: usize) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(format!(".p{process}-of-{processes}"));
    PathBuf::from(s)
}

fn tmp_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".tmp");
    PathBuf::from(s)
}

/// Writes `state` to `path` through `path.tmp`.
pub(super) fn save(path: &Path, state: &State) -> Result<(), SpaceError> {
    let json = serde_json::to_vec(state).unwrap_or_default();
    let tmp = tmp_path(path);
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        writeln!(f, "{MAGIC} {:08x}", crc32fast::hash(&json))?;
        f.write_all(&json)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|source| SpaceError::CheckpointWrite {
        path: path.to_path_buf(),
        source,
    })
}

/// The state saved in `path` for the run `run`.
pub(super) fn load(path: &Path, run: &str) -> Result<State, SpaceError> {
    let bytes = std::fs::read(path).map_err(|source| SpaceError::CheckpointRead {
        path: path.to_path_buf(),
        source,
    })?;
    let bad = |reason: String| SpaceError::BadCheckpoint {
        path: path.to_path_buf(),
        reason,
    };
    let Some(nl) = bytes.iter().position(|&b| b == b'\n') else {
        return Err(bad(
            "it is not a checkpoint of the distributed search".into()
        ));
    };
    let head = String::from_utf8_lossy(&bytes[..nl]);
    let Some(crc) = head
        .strip_prefix(MAGIC)
        .and_then(|h| u32::from_str_radix(h.trim(), 16).ok())
    else {
        return Err(bad(
            "it is not a checkpoint of the distributed search".into()
        ));
    };
    let json = &bytes[nl + 1..];
    if crc32fast::hash(json) != crc {
        return Err(bad(
            "its checksum does not match (damaged or truncated)".into()
        ));
    }
    let state: State =
        serde_json::from_slice(json).map_err(|e| bad(format!("it cannot be read ({e})")))?;
    if state.run != run {
        // the runs are `what: value` parts joined by `; `
        let ours = run.split("; ");
        let why = state
            .run
            .split("; ")
            .zip(ours)
            .find(|(a, b)| a != b)
            .map_or_else(
                || "it is of another search".to_string(),
                |(a, b)| format!("it is of another search ({a}; this one has {b})"),
            );
        return Err(bad(why));
    }
    Ok(state)
}

/// Removes a checkpoint once the search has its answer.
pub(super) fn remove(path: &Path) {
    let _ = std::fs::remove_file(path);
}
