//! `space_checkpoint`: any bytes as a checkpoint file of the whole-space
//! search, resumed (`npuzzle_space::analyze` with
//! `Checkpointing { resume: true, .. }`).
//!
//! The input is a selector byte and the file's bytes. The selector's low
//! two bits pick the goal the search is for ([`GOALS`], spaces of 12 and
//! 360 positions, so that a search takes microseconds); bit 2 first
//! recomputes the CRC-32 in the file's last four bytes over what precedes
//! them (a file edited on purpose, which the checksum cannot catch, so that
//! the fuzzer gets past it). Checked:
//!
//! * nothing panics, and nothing is allocated beyond what the goal's space
//!   needs (run the fuzzer with `-malloc_limit_mb`);
//! * a file refused is refused as a bad checkpoint, with a short message
//!   free of raw control characters;
//! * a checkpoint the search itself wrote resumes to the answer of a search
//!   from scratch;
//! * whatever file is accepted, the answer stays within the space: at most
//!   its `n!/2` positions, levels that are not empty, antipodes that are
//!   boards of the goal's shape on the goal's side of the parity.

use super::common::{assert_short, split};
use npuzzle::{Board, Problem};
use npuzzle_space::{self as space, Checkpointing, Progress, Silent, SpaceError, SpaceOptions};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Duration;

/// `(rows, cols, tiles)` of the goals a file is resumed for: three of
/// 2×2 (setting up a search of 2×3 takes most of an input's time: the
/// format is the same) and one of 2×3, whose array spans several words.
pub const GOALS: [(usize, usize, &[u8]); 4] = [
    (2, 2, &[1, 2, 3, 0]),
    (2, 2, &[0, 1, 2, 3]),
    (2, 3, &[1, 2, 3, 4, 5, 0]),
    (2, 2, &[3, 1, 0, 2]),
];

/// The goal `selector` picks.
pub fn goal(selector: u8) -> Board {
    let (rows, cols, tiles) = GOALS[usize::from(selector & 3)];
    Board::from_tiles(rows, cols, tiles).expect("a goal")
}

/// The positions of a goal's space, `n!/2`.
fn positions(goal: &Board) -> u64 {
    (2..=goal.shape().cells() as u64).product::<u64>() / 2
}

/// Options for a search of these tiny spaces, resuming from `path` (and
/// never writing it: the first save would come after `Duration::MAX`).
fn options(path: &Path, resume: bool, every: Duration) -> SpaceOptions {
    SpaceOptions {
        metric: npuzzle::Metric::Stm,
        max_memory: 1 << 20,
        list: 3,
        checkpoint: Some(Checkpointing {
            path: path.to_path_buf(),
            resume,
            every,
        }),
    }
}

/// Keeps a copy of every checkpoint the search writes.
#[derive(Default)]
struct Keep(Mutex<Vec<Vec<u8>>>);

impl Progress for Keep {
    fn checkpointed(&self, path: &Path, _level: u32, _seconds: f64) {
        let bytes = std::fs::read(path).expect("read the checkpoint just written");
        self.0.lock().expect("not poisoned").push(bytes);
    }
}

/// One goal: the answer from scratch and every checkpoint written on the
/// way to it.
pub struct Reference {
    /// The search from scratch.
    pub fresh: space::SpaceResult,
    /// The checkpoint after each level.
    pub checkpoints: Vec<Vec<u8>>,
}

/// The reference of every goal of [`GOALS`], and a directory for the files.
pub struct CheckpointFuzz {
    dir: tempfile::TempDir,
    references: Vec<Reference>,
}

impl Default for CheckpointFuzz {
    fn default() -> CheckpointFuzz {
        let dir = super::common::tempdir("npuzzle-fuzz-space-");
        let references = (0..GOALS.len() as u8)
            .map(|s| reference(&goal(s), &dir.path().join("reference")))
            .collect();
        CheckpointFuzz { dir, references }
    }
}

/// Searches `goal`'s space from scratch, saving after every level.
fn reference(goal: &Board, path: &Path) -> Reference {
    let keep = Keep::default();
    let fresh = space::analyze(
        goal,
        &options(path, false, Duration::ZERO),
        &keep,
        &AtomicBool::new(false),
    )
    .expect("a tiny space");
    let checkpoints = keep.0.into_inner().expect("not poisoned");
    assert!(!checkpoints.is_empty());
    Reference { fresh, checkpoints }
}

/// Runs every check on the fuzzer's bytes, with one directory and one set
/// of references for the whole process.
pub fn check(data: &[u8]) {
    thread_local! {
        static FUZZ: CheckpointFuzz = CheckpointFuzz::default();
    }
    FUZZ.with(|f| f.check(data));
}

impl CheckpointFuzz {
    /// The checkpoints the search writes for goal `selector & 3`.
    pub fn checkpoints(&self, selector: u8) -> &[Vec<u8>] {
        &self.references[usize::from(selector & 3)].checkpoints
    }

    /// The file the fuzzer's bytes stand for, and the path it is written to.
    pub fn file(&self, data: &[u8]) -> (Vec<u8>, PathBuf) {
        let (selector, file) = split(data);
        let mut file = file.to_vec();
        if selector & 4 != 0 && file.len() >= 4 {
            let n = file.len() - 4;
            let crc = crc32fast::hash(&file[..n]);
            file[n..].copy_from_slice(&crc.to_le_bytes());
        }
        (file, self.dir.path().join("space.ckpt"))
    }

    /// Runs every check on the fuzzer's bytes.
    pub fn check(&self, data: &[u8]) {
        let selector = split(data).0;
        let goal = goal(selector);
        let reference = &self.references[usize::from(selector & 3)];
        let (file, path) = self.file(data);
        std::fs::write(&path, &file).expect("write the file");
        let opts = options(&path, true, Duration::MAX);
        match space::analyze(&goal, &opts, &Silent, &AtomicBool::new(false)) {
            Ok(r) => {
                if reference.checkpoints.contains(&file) {
                    assert_eq!(r, reference.fresh, "resumed from a true checkpoint");
                }
                check_within(&goal, &r, &file);
            }
            Err(e @ SpaceError::BadCheckpoint { .. }) => {
                assert_short("BadCheckpoint", &e.to_string(), &file);
                assert!(
                    !reference.checkpoints.contains(&file),
                    "a true checkpoint refused: {e}"
                );
            }
            Err(e) => panic!("{e} (not a bad checkpoint) for {file:?}"),
        }
    }
}

/// An answer stays within `goal`'s space.
fn check_within(goal: &Board, r: &space::SpaceResult, file: &[u8]) {
    assert_eq!(&r.goal, goal);
    let total: u128 = r.counts.iter().map(|&c| u128::from(c)).sum();
    assert!(
        total <= u128::from(positions(goal)),
        "{total} positions counted in a space of {} ({file:?})",
        positions(goal)
    );
    assert!(
        r.counts.iter().all(|&c| c > 0),
        "an empty level: {:?} ({file:?})",
        r.counts
    );
    assert!(r.antipodes.len() <= 3);
    for a in &r.antipodes {
        let p = Problem::new(a.clone(), goal.clone()).expect("an antipode of the goal's shape");
        assert!(
            p.solvable(),
            "antipode {a} cannot reach the goal ({file:?})"
        );
    }
}
