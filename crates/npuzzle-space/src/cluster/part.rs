//! What a worker of the distributed search holds and says: its part of
//! the array, and the report it sends every other worker after a round.

use crate::bits::PER_WORD;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What a worker tells every other after a round.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(super) struct Report {
    pub(super) worker: u32,
    /// Handshake: the level this worker starts at.
    pub(super) level: u32,
    /// Handshake: a checksum of the counts of the levels below `level`.
    pub(super) tag: u32,
    /// Handshake: this worker's positions at `level`; after a level: its
    /// positions at the next one.
    pub(super) count: u64,
    /// Handshake: positions closed in this worker's range.
    pub(super) closed: u64,
    /// The first positions of the level just expanded, in this range.
    pub(super) sample: Vec<u64>,
    pub(super) cancelled: bool,
    /// Worker 0's decision: every worker saves its part after this round.
    pub(super) save: bool,
    /// Why this worker cannot take part, if it cannot.
    pub(super) failed: Option<String>,
}

/// One worker's part of the array, shared by its driver loop and its
/// marking operator (both on the worker's thread).
pub(super) struct Part {
    pub(super) first_word: u64,
    pub(super) words: Vec<u64>,
    /// Positions newly marked at the level being discovered.
    pub(super) new: u64,
}

impl Part {
    /// Marks position `m` (in this part) with `code` if unseen.
    #[inline]
    pub(super) fn mark(&mut self, m: u64, code: u64) {
        let w = &mut self.words[(m / PER_WORD - self.first_word) as usize];
        let shift = 2 * (m % PER_WORD);
        if (*w >> shift) & 3 == 0 {
            *w |= code << shift;
            self.new += 1;
        }
    }
}

/// Worker `me` of `peers`'s checkpoint file: `PATH.me-of-peers`.
pub(super) fn part_path(path: &Path, me: usize, peers: usize) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(format!(".{me}-of-{peers}"));
    PathBuf::from(s)
}
