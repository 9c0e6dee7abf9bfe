//! What the fuzz targets (`fuzz/`, run with `cargo fuzz`) found, kept fixed
//! under a plain `cargo test`: every crash, run again through the very
//! checks the targets make (the files of `fuzz/src/` are included here),
//! and every file of the committed corpora replayed through them.

#[allow(dead_code)]
#[path = "../../../../fuzz/src/common.rs"]
mod common;

#[allow(dead_code)]
#[path = "../../../../fuzz/src/board_text.rs"]
mod board_text;

#[allow(dead_code)]
#[path = "../../../../fuzz/src/batch_lines.rs"]
mod batch_lines;

#[allow(dead_code)]
#[path = "../../../../fuzz/src/instance_file.rs"]
mod instance_file;

#[allow(dead_code)]
#[path = "../../../../fuzz/src/pdb_file.rs"]
mod pdb_file;

#[allow(dead_code)]
#[path = "../../../../fuzz/src/space_checkpoint.rs"]
mod space_checkpoint;

#[allow(dead_code)]
#[path = "../../../../fuzz/src/api_json.rs"]
mod api_json;

/// The command itself, as the `cli_args` target runs it.
use npuzzle_cli as cli;

#[allow(dead_code)]
#[path = "../../../../fuzz/src/cli_args.rs"]
mod cli_args;

use npuzzle::budget::Budget;
use npuzzle::heuristic::pdb::store::{self, Key};
use npuzzle::heuristic::pdb::{verify, Verdict};
use npuzzle_io::batch::{answer_text, BatchConfig, Shard};
use npuzzle_space::{self as space, Checkpointing, Silent, SpaceError, SpaceOptions, SpaceResult};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The files of `fuzz/corpus/<target>/`, with their paths.
fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("fuzz/corpus")
        .join(target);
    let mut files: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            (path, bytes)
        })
        .collect();
    files.sort();
    assert!(
        files.len() >= 5,
        "{}: a corpus of {}",
        dir.display(),
        files.len()
    );
    files
}

/// Runs `check` on every file of a corpus, naming the file that fails.
fn replay(target: &str, mut check: impl FnMut(&[u8])) {
    for (path, bytes) in corpus(target) {
        // Shown only when the check below panics.
        eprintln!("{}", path.display());
        check(&bytes);
    }
}

#[test]
fn board_text_corpus() {
    replay("board_text", board_text::check);
}

#[test]
fn batch_lines_corpus() {
    replay("batch_lines", batch_lines::check);
}

#[test]
fn instance_file_corpus() {
    replay("instance_file", instance_file::check);
}

#[test]
fn pdb_file_corpus() {
    let fuzz = pdb_file::PdbFuzz::default();
    replay("pdb_file", |bytes| fuzz.check(bytes));
}

#[test]
fn space_checkpoint_corpus() {
    let fuzz = space_checkpoint::CheckpointFuzz::default();
    replay("space_checkpoint", |bytes| fuzz.check(bytes));
}

#[test]
fn api_json_corpus() {
    let fuzz = api_json::ApiFuzz::default();
    replay("api_json", |bytes| fuzz.check(bytes));
}

/// Every argument vector of the corpus and every crash found, run in
/// process as the target runs them (its working directory, `HOME` and
/// cache a temporary directory; this test alone here reads relative paths).
/// `pdb-build-7x3-slow`: `pdb build --size 7x3` built 8 MiB of databases
/// under the target's first memory cap, seconds per execution (a libFuzzer
/// timeout); `pdb` commands now get 256 KiB.
#[test]
fn cli_args_corpus_and_crashes() {
    replay("cli_args", cli_args::check);
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("crates/npuzzle-cli/tests/it/fuzz_regressions_data/cli_args");
    for entry in std::fs::read_dir(&dir).into_iter().flatten() {
        let path = entry.unwrap().path();
        eprintln!("{}", path.display());
        cli_args::check(&std::fs::read(&path).unwrap());
    }
}

/// A header claiming 2^40 entries, with the checksum of what follows it
/// recomputed: `verify` took the count from the header and asked for a
/// 1 TiB buffer before reading (the process aborted). It now checks the
/// count against what the header's board and group need first.
#[test]
fn pdb_verify_of_a_forged_entry_count() {
    let (key, _) = pdb_file::key(0);
    let mut file = pdb_file::encode(&key, &pdb_file::contents(32, vec![0; 16]));
    let at = 17 + key.goal.len() + key.tiles.len();
    file[at..at + 8].copy_from_slice(&(1u64 << 40).to_le_bytes());
    // selector: key 0, recompute the checksum (4), list and verify (8)
    let mut input = vec![4 | 8];
    input.extend_from_slice(&file);
    pdb_file::PdbFuzz::default().check(&input);

    let dir = tempfile::tempdir().unwrap();
    let mut file = pdb_file::encode(&key, &pdb_file::contents(32, vec![0; 16]));
    file[at..at + 8].copy_from_slice(&(1u64 << 40).to_le_bytes());
    std::fs::write(dir.path().join(key.file_name()), &file).unwrap();
    let verdict = verify_only_file(dir.path());
    assert!(
        matches!(&verdict, Verdict::Unreadable(why) if why.contains("announces 1099511627776 values")),
        "{verdict:?}"
    );
}

/// A well-formed, correctly summed file whose group names a tile the board
/// does not have (or more tiles than it has cells): `verify` indexed past
/// the goal's positions (or underflowed the free-cell count) and panicked.
#[test]
fn pdb_verify_of_a_group_off_the_board() {
    for (rows, cols, goal, tiles) in [
        (
            3u8,
            3u8,
            vec![1u8, 2, 3, 4, 5, 6, 7, 8, 0],
            vec![1u8, 2, 200],
        ),
        (2, 2, vec![1, 2, 3, 0], vec![1, 2, 3, 4, 5]),
        (3, 3, vec![1, 2, 3, 4, 5, 6, 7, 8, 0], vec![0, 1, 2]),
        (3, 3, vec![1, 2, 3, 4, 5, 6, 7, 8, 0], vec![2, 1, 3]),
    ] {
        let key = Key {
            rows,
            cols,
            goal,
            tiles,
            regions: false,
        };
        let dir = tempfile::tempdir().unwrap();
        store::save(dir.path(), &key, &pdb_file::contents(128, vec![1u8; 64])).unwrap();
        let verdict = verify_only_file(dir.path());
        assert!(
            matches!(verdict, Verdict::Unreadable(_)),
            "{key:?}: {verdict:?}"
        );
    }
}

/// `verify` on the one database file in `dir`.
fn verify_only_file(dir: &Path) -> Verdict {
    let listed = store::list(dir).unwrap();
    assert_eq!(listed.len(), 1);
    let budget = Budget::default().with_max_bytes(1 << 20);
    verify(dir, &listed[0], &(), &budget).unwrap()
}

/// A line longer than the limit whose first `max_line` bytes are blank
/// (spaces, form feeds) was taken for a blank line: it got no output line
/// at all, and the answers after it were off by one line.
#[test]
fn batch_long_line_blank_at_first() {
    let input = format!("1 2 3 0\n{}3 x\n0 1 2 3\n", " \x0c".repeat(20));
    // selector: JSON lines, short line limit (24 bytes)
    let mut data = vec![0x08 | 0x20];
    data.extend_from_slice(input.as_bytes());
    batch_lines::check(&data);

    let cfg = BatchConfig {
        max_line: 24,
        ..BatchConfig::default()
    };
    let (out, tally) = answer_text(&input, &cfg, Shard::ALL);
    assert_eq!(
        out, "0\nerror: line 2: the line is longer than 24 bytes\n-1\n",
        "{tally:?}"
    );
}

/// serde's message for an unknown field quotes the field as sent, raw
/// control characters included, and the API answered it as it was.
#[test]
fn api_error_quoting_a_control_character() {
    let mut data = vec![0];
    data.extend_from_slice(b"{\"st\x7faRtr\": ");
    api_json::ApiFuzz::default().check(&data);
}

/// The bytes of `fuzz_regressions_data/<target>/<name>`: a crash input as
/// the fuzzer saved it (the selector byte, then the file).
fn crash(target: &str, name: &str) -> Vec<u8> {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("crates/npuzzle-cli/tests/it/fuzz_regressions_data")
        .join(target)
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Resumes the whole-space search of `goal` from `file`.
fn resume_space(goal: &npuzzle::Board, file: &[u8]) -> Result<SpaceResult, SpaceError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("space.ckpt");
    std::fs::write(&path, file).unwrap();
    let opts = SpaceOptions {
        metric: npuzzle::Metric::Stm,
        max_memory: 1 << 20,
        checkpoint: Some(Checkpointing {
            path,
            resume: true,
            every: Duration::MAX,
        }),
        ..SpaceOptions::default()
    };
    space::analyze(goal, &opts, &Silent, &AtomicBool::new(false))
}

/// A checkpoint whose level counts sum past `u64::MAX`, with its CRC-32
/// recomputed: the check of the counts against the array summed them and
/// overflowed (a panic). The counts are now checked against the space
/// before they are summed: the goal alone at level 0, no empty level, no
/// more positions than `n!/2`.
#[test]
fn space_checkpoint_counts_overflow() {
    let data = crash("space_checkpoint", "counts-overflow");
    space_checkpoint::check(&data);
    let fuzz = space_checkpoint::CheckpointFuzz::default();
    let (file, _) = fuzz.file(&data);
    let err = resume_space(&space_checkpoint::goal(data[0]), &file).unwrap_err();
    assert!(
        matches!(err, SpaceError::BadCheckpoint { .. }) && err.to_string().contains("level 0"),
        "{err}"
    );
}

/// A true 2×2 checkpoint with one more position marked at its level in the
/// unused end of its only word (entry 20 of a space of 12), its count and
/// CRC-32 adjusted to match: it was accepted, and the search expanded rank
/// 40 of 24, counting 24 positions in a space of 12. Entries past the
/// space must now be empty.
#[test]
fn space_checkpoint_position_past_the_space() {
    let data = crash("space_checkpoint", "padding-entry");
    space_checkpoint::check(&data);
    let fuzz = space_checkpoint::CheckpointFuzz::default();
    let (file, _) = fuzz.file(&data);
    let err = resume_space(&space_checkpoint::goal(data[0]), &file).unwrap_err();
    assert!(
        err.to_string()
            .contains("marks positions past the 12 of the space"),
        "{err}"
    );
}

/// Every checkpoint the search writes resumes to the answer from scratch
/// (the property the target checks for the files it happens to meet).
#[test]
fn space_checkpoint_true_checkpoints_resume() {
    let fuzz = space_checkpoint::CheckpointFuzz::default();
    for selector in 0..space_checkpoint::GOALS.len() as u8 {
        let checkpoints = fuzz.checkpoints(selector);
        assert!(checkpoints.len() > 3);
        for file in checkpoints {
            let mut data = vec![selector];
            data.extend_from_slice(file);
            fuzz.check(&data);
        }
    }
}
