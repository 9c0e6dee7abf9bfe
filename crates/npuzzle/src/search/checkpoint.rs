//! Checkpoints of IDA*: where a long search is, saved now and then so that
//! a killed search goes on instead of starting again.
//!
//! The sequential search cuts each iteration at a fixed depth
//! ([`CUT_DEPTH`]): the nodes there are the roots of subtrees that it
//! enters one after another, always in the same order (the search is
//! deterministic). A checkpoint says "in the iteration with bound `B`,
//! subtree `i` was being entered, with these counts": on resume the search
//! walks the top of the tree again, skips subtrees `0..i` (searched to
//! exhaustion, so no solution is there), and at subtree `i` takes the
//! counts back, so it ends with the answer and the node count of a search
//! never interrupted. The parallel search records the subtrees its tasks
//! finished, by their moves from the start.
//!
//! The file is text: a first line naming the format, the state as one line
//! of JSON, and a line with the CRC-32 of that JSON. It is written to
//! `PATH.tmp`, flushed to disk and renamed over `PATH`, so that a kill
//! while writing leaves the last whole checkpoint in place.

use super::IterationSummary;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The first line of every checkpoint file.
const MAGIC: &str = "npuzzle IDA* checkpoint";
/// The format written; a file of another version is refused.
pub const VERSION: u32 = 1;
/// Depth of the subtree roots a sequential search's checkpoint counts. On
/// the 24-puzzle about 30,000 of them (2.37 a level); in an iteration of
/// 10¹¹ nodes each is a few million nodes, a second or so, which is about
/// what a kill loses beyond the interval.
pub const CUT_DEPTH: u32 = 12;

/// Where and how often a search saves itself, and whether it goes on from
/// what is saved there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpointing {
    /// The checkpoint file (written through `PATH.tmp`).
    pub path: PathBuf,
    /// Time between two checkpoints (one is also written at the start and
    /// when a budget stops the search).
    pub every: Duration,
    /// Go on from the file instead of starting afresh.
    pub resume: bool,
}

impl Checkpointing {
    /// Saving to `path` every `every`, starting afresh.
    pub fn new(path: impl Into<PathBuf>, every: Duration) -> Checkpointing {
        Checkpointing {
            path: path.into(),
            every,
            resume: false,
        }
    }

    /// Going on from the file (`true`) or starting afresh.
    pub fn resuming(mut self, resume: bool) -> Checkpointing {
        self.resume = resume;
        self
    }
}

/// Why a checkpoint could not be read, trusted or written.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// `--resume` with no file, or one the system would not read.
    #[error("cannot read checkpoint {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file or its temporary could not be written.
    #[error("cannot write checkpoint {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// Truncated, corrupted, or not a checkpoint of this format.
    #[error("checkpoint {} is damaged: {reason} (the file is left as it is)", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A checkpoint of another search.
    #[error("checkpoint {} is of another search: its {field} is {saved}, this search's is {here} (the file is left as it is)", path.display())]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What differs.
        field: &'static str,
        /// In the file.
        saved: String,
        /// In this search.
        here: String,
    },
}

impl CheckpointError {
    /// Whether the fault is the machine's (a file that cannot be read or
    /// written) rather than the input's.
    pub fn is_environment(&self) -> bool {
        match self {
            CheckpointError::Read { source, .. } => {
                source.kind() != std::io::ErrorKind::NotFound
            }
            CheckpointError::Write { .. } => true,
            CheckpointError::Damaged { .. } | CheckpointError::Mismatch { .. } => false,
        }
    }
}

/// What makes two searches the same search: a checkpoint is only taken up
/// by a search whose identity is equal in every field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// `serial` or `parallel` (their records differ).
    pub driver: String,
    /// `RxC`.
    pub shape: String,
    /// The start's tiles, in reading order.
    pub start: Vec<u8>,
    /// The goal's tiles.
    pub goal: Vec<u8>,
    /// `stm` or `mtm`.
    pub metric: String,
    /// The heuristic and its databases ([`crate::heuristic::TableHooks::identity`]).
    pub heuristic: String,
    /// The move pruning asked for.
    pub pruning: String,
}

impl Identity {
    /// The identity of a search of `problem` as `opts` say, with a
    /// heuristic of this `heuristic` identity, by the `driver`.
    pub fn of(
        problem: &super::Problem,
        opts: &super::SolveOptions,
        heuristic: String,
        driver: &str,
    ) -> Identity {
        Identity {
            driver: driver.into(),
            shape: problem.start().shape().to_string(),
            start: problem.start().tiles().to_vec(),
            goal: problem.goal().tiles().to_vec(),
            metric: opts.metric.name().into(),
            heuristic,
            pruning: opts.pruning.name().into(),
        }
    }

    /// Each field with its name, for the message naming the first that
    /// differs.
    fn fields(&self) -> [(&'static str, String); 7] {
        let tiles = |t: &[u8]| {
            let v: Vec<String> = t.iter().map(ToString::to_string).collect();
            v.join(" ")
        };
        [
            ("search", self.driver.clone()),
            ("board", self.shape.clone()),
            ("start", tiles(&self.start)),
            ("goal", tiles(&self.goal)),
            ("metric", self.metric.clone()),
            ("heuristic", self.heuristic.clone()),
            ("pruning", self.pruning.clone()),
        ]
    }
}

/// The counts at one moment of an iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Nodes expanded since the search began.
    pub expanded: u64,
    /// Children generated since the search began.
    pub generated: u64,
    /// The least `f` above the bound met so far in the iteration.
    pub next_bound: u32,
}

/// Where inside its iteration a search was.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "driver", rename_all = "lowercase")]
pub enum Place {
    /// Sequential: entering subtree `entered` (the subtrees before it
    /// done) at depth `cut`, with `counts`; `None` at the iteration's start.
    Serial {
        /// The depth of the subtree roots.
        cut: u32,
        /// The subtree being entered and the counts then.
        entered: Option<(u64, Counts)>,
    },
    /// Parallel: the subtrees its tasks finished, each by its moves from
    /// the start (blank letters), at the iteration's split depth.
    Parallel {
        /// The depth tasks were cut at.
        split: u32,
        /// The finished tasks' moves.
        done: Vec<String>,
        /// The counts over those tasks and what the top of the tree cost.
        counts: Counts,
    },
}

/// One checkpoint.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Saved {
    /// The format's version.
    pub version: u32,
    /// Which search.
    pub identity: Identity,
    /// The iteration's bound.
    pub bound: u32,
    /// The iterations before it.
    pub iterations: Vec<IterationSummary>,
    /// The counts when the iteration began.
    pub at_start: Counts,
    /// Where in it.
    pub place: Place,
}

impl Counts {
    /// The counts at an iteration's start: nothing above its bound yet.
    pub fn start(expanded: u64, generated: u64) -> Counts {
        Counts {
            expanded,
            generated,
            next_bound: u32::MAX,
        }
    }
}

impl Saved {
    /// A checkpoint of `identity` at `place`, before its first iteration.
    pub fn empty(identity: Identity, place: Place) -> Saved {
        Saved {
            version: VERSION,
            identity,
            bound: 0,
            iterations: Vec::new(),
            at_start: Counts::start(0, 0),
            place,
        }
    }
}

/// The temporary name a checkpoint is written under.
pub fn temp_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".tmp");
    PathBuf::from(s)
}

/// Writes `saved` to `path` through its temporary file.
pub fn write(path: &Path, saved: &Saved) -> Result<(), CheckpointError> {
    let body = serde_json::to_string(saved).map_err(|e| CheckpointError::Write {
        path: path.to_path_buf(),
        source: std::io::Error::other(e),
    })?;
    let text = format!(
        "{MAGIC} {VERSION}\n{body}\ncrc32 {:08x}\n",
        crc32fast::hash(body.as_bytes())
    );
    let tmp = temp_path(path);
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    written.map_err(|source| {
        let _ = std::fs::remove_file(&tmp);
        CheckpointError::Write {
            path: path.to_path_buf(),
            source,
        }
    })
}

/// Reads the checkpoint at `path`, refusing it unless it is whole and of
/// the search `here`.
pub fn read(path: &Path, here: &Identity) -> Result<Saved, CheckpointError> {
    let bytes = std::fs::read(path).map_err(|source| CheckpointError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let saved = parse(&bytes).map_err(|reason| CheckpointError::Damaged {
        path: path.to_path_buf(),
        reason,
    })?;
    for ((field, saved_v), (_, here_v)) in saved.identity.fields().into_iter().zip(here.fields()) {
        if saved_v != here_v {
            return Err(CheckpointError::Mismatch {
                path: path.to_path_buf(),
                field,
                saved: saved_v,
                here: here_v,
            });
        }
    }
    Ok(saved)
}

/// The checkpoint in `bytes`, or what is wrong with them.
fn parse(bytes: &[u8]) -> Result<Saved, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "it is not text".to_string())?;
    let mut lines = text.split('\n');
    let head = lines.next().unwrap_or_default();
    let Some(version) = head.strip_prefix(MAGIC).map(str::trim) else {
        return Err(format!("it does not begin with '{MAGIC}'"));
    };
    if version != VERSION.to_string() {
        return Err(format!(
            "it is of format version {version}, this npuzzle reads version {VERSION}"
        ));
    }
    if !text.ends_with('\n') {
        return Err("it is truncated (its last line is cut)".to_string());
    }
    let body = lines.next().unwrap_or_default();
    let crc = lines
        .next()
        .and_then(|l| l.strip_prefix("crc32 "))
        .ok_or_else(|| "it is truncated (no checksum line)".to_string())?;
    if lines.next() != Some("") || lines.next().is_some() {
        return Err("it has lines after its checksum".to_string());
    }
    let want = u32::from_str_radix(crc.trim(), 16)
        .map_err(|_| format!("its checksum '{crc}' is not hexadecimal"))?;
    let got = crc32fast::hash(body.as_bytes());
    if got != want {
        return Err(format!(
            "its checksum does not match (file {want:08x}, contents {got:08x})"
        ));
    }
    let saved: Saved =
        serde_json::from_str(body).map_err(|e| format!("its contents do not parse: {e}"))?;
    if saved.version != VERSION {
        return Err(format!("its contents say version {}", saved.version));
    }
    Ok(saved)
}

/// When the next checkpoint is due.
#[derive(Clone, Debug)]
pub struct Due {
    every: Duration,
    last: Instant,
}

impl Due {
    /// Due after `every` from now.
    pub fn new(every: Duration) -> Due {
        Due {
            every,
            last: Instant::now(),
        }
    }

    /// Whether one is due now; the next then counts from now.
    pub fn now(&mut self) -> bool {
        let now = Instant::now();
        if now.duration_since(self.last) >= self.every {
            self.last = now;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Saved {
        Saved {
            version: VERSION,
            identity: Identity {
                driver: "serial".into(),
                shape: "3x3".into(),
                start: vec![1, 2, 3, 4, 5, 6, 7, 0, 8],
                goal: vec![1, 2, 3, 4, 5, 6, 7, 8, 0],
                metric: "stm".into(),
                heuristic: "manhattan".into(),
                pruning: "auto".into(),
            },
            bound: 9,
            iterations: vec![IterationSummary {
                bound: 7,
                expanded: 40,
            }],
            at_start: Counts {
                expanded: 40,
                generated: 90,
                next_bound: u32::MAX,
            },
            place: Place::Serial {
                cut: CUT_DEPTH,
                entered: Some((
                    3,
                    Counts {
                        expanded: 50,
                        generated: 100,
                        next_bound: 11,
                    },
                )),
            },
        }
    }

    #[test]
    fn a_checkpoint_reads_back_and_a_cut_one_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.ckpt");
        let s = sample();
        write(&path, &s).unwrap();
        assert!(!temp_path(&path).exists());
        assert_eq!(read(&path, &s.identity).unwrap(), s);
        let bytes = std::fs::read(&path).unwrap();
        for cut in [0, 10, bytes.len() / 2, bytes.len() - 12, bytes.len() - 1] {
            std::fs::write(&path, &bytes[..cut]).unwrap();
            let e = read(&path, &s.identity).unwrap_err();
            assert!(matches!(e, CheckpointError::Damaged { .. }), "{cut}: {e}");
        }
        let mut flipped = bytes.clone();
        flipped[40] ^= 1;
        std::fs::write(&path, &flipped).unwrap();
        let e = read(&path, &s.identity).unwrap_err().to_string();
        assert!(e.contains("checksum does not match"), "{e}");
    }

    #[test]
    fn another_searchs_checkpoint_names_what_differs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.ckpt");
        let s = sample();
        write(&path, &s).unwrap();
        let mut other = s.identity.clone();
        other.heuristic = "pdb".into();
        let e = read(&path, &other).unwrap_err().to_string();
        assert!(
            e.contains("its heuristic is manhattan, this search's is pdb"),
            "{e}"
        );
    }
}
