//! `pdb_file`: any bytes as a cached pattern-database file.
//!
//! The input is a selector byte and the file's bytes. The selector's low
//! two bits pick the key the file is loaded for ([`KEYS`]); bit 2 first
//! recomputes the file's checksum over what follows its header (a file
//! edited on purpose, which the checksum cannot catch, so that the fuzzer
//! gets past it); bit 3 also lists the directory and verifies every file
//! listed (`npuzzle pdb verify` on a cache someone else filled), the file
//! named as its own header says. Checked:
//!
//! * `store::load` never panics and never allocates beyond what the key
//!   needs (run the fuzzer with `-malloc_limit_mb`);
//! * what it accepts is exactly a well-formed file for the key: the
//!   header, written out independently here, then the data, with the
//!   checksum of the data;
//! * `store::list` and `verify` never panic, and the messages are free of
//!   raw control characters.

use super::common::{assert_short, split};
use npuzzle::board::Shape;
use npuzzle::budget::Budget;
use npuzzle::heuristic::pdb::store::{self, Contents, Key, LoadError};
use npuzzle::heuristic::pdb::{verify, PatternDb, Verdict};
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

/// `(rows, cols, goal, tiles, regions)` of a key.
type KeySpec = (u8, u8, &'static [u8], &'static [u8], bool);

/// The keys a file is loaded for: small databases, so that `verify`
/// builds them in microseconds.
pub const KEYS: [KeySpec; 4] = [
    (3, 3, &[1, 2, 3, 4, 5, 6, 7, 8, 0], &[1, 2, 3], false),
    (3, 3, &[1, 2, 3, 4, 5, 6, 7, 8, 0], &[1, 2, 3], true),
    (2, 3, &[1, 2, 3, 4, 5, 0], &[1, 2], false),
    (2, 2, &[0, 1, 2, 3], &[1], true),
];

/// The key `selector` picks, and its entry count.
pub fn key(selector: u8) -> (Key, u64) {
    let (rows, cols, goal, tiles, regions) = KEYS[usize::from(selector & 3)];
    let shape = Shape::new(usize::from(rows), usize::from(cols));
    let entries = PatternDb::entries_for(shape, tiles.len(), regions).expect("a small key");
    let key = Key {
        rows,
        cols,
        goal: goal.to_vec(),
        tiles: tiles.to_vec(),
        regions,
    };
    (key, entries)
}

/// The file `store::save` writes for `key` and `contents`, by this
/// module's own reading of the format: magic, version 3, rows, columns,
/// goal length, group size, zero-awareness, goal, group, entry count
/// (little-endian u64), largest value, clamped count (u64) and the CRC-32
/// of those two figures and the data, then the data (two entries a byte).
pub fn encode(key: &Key, contents: &Contents) -> Vec<u8> {
    let mut f = b"NPUZPDB\0".to_vec();
    f.extend_from_slice(&3u32.to_le_bytes());
    f.extend_from_slice(&[
        key.rows,
        key.cols,
        key.goal.len() as u8,
        key.tiles.len() as u8,
        u8::from(key.regions),
    ]);
    f.extend_from_slice(&key.goal);
    f.extend_from_slice(&key.tiles);
    f.extend_from_slice(&contents.entries.to_le_bytes());
    let mut summed = vec![contents.max];
    summed.extend_from_slice(&contents.clamped.to_le_bytes());
    summed.extend_from_slice(&contents.data);
    f.extend_from_slice(&summed[..9]);
    f.extend_from_slice(&crc32fast::hash(&summed).to_le_bytes());
    f.extend_from_slice(&contents.data);
    f
}

/// Contents of `entries` entries holding `data` (largest value 15, none
/// clamped), for tests that need a well-formed file.
pub fn contents(entries: u64, data: Vec<u8>) -> Contents {
    Contents {
        data,
        entries,
        max: 15,
        clamped: 0,
    }
}

/// Length of the header of a file that starts like `bytes`, if it says.
fn header_len(bytes: &[u8]) -> Option<usize> {
    let (g, t) = (*bytes.get(14)?, *bytes.get(15)?);
    let len = 17 + usize::from(g) + usize::from(t) + 21;
    (bytes.len() >= len).then_some(len)
}

/// A directory for the files, kept for the whole run.
pub struct PdbFuzz {
    dir: tempfile::TempDir,
}

impl Default for PdbFuzz {
    fn default() -> PdbFuzz {
        PdbFuzz {
            dir: super::common::tempdir("npuzzle-fuzz-pdb-"),
        }
    }
}

/// The budget of a tiny database (built once: the default budget reads
/// the machine's memory from the system); anything larger is refused.
fn budget() -> &'static Budget {
    static BUDGET: OnceLock<Budget> = OnceLock::new();
    BUDGET.get_or_init(|| {
        Budget::default()
            .with_max_bytes(1 << 20)
            .with_timeout(Some(Duration::from_millis(200)))
    })
}

/// Runs every check on the fuzzer's bytes, in a directory kept for the
/// whole process.
pub fn check(data: &[u8]) {
    thread_local! {
        static FUZZ: PdbFuzz = PdbFuzz::default();
    }
    FUZZ.with(|f| f.check(data));
}

impl PdbFuzz {
    /// Runs every check on the fuzzer's bytes.
    pub fn check(&self, data: &[u8]) {
        let (selector, file) = split(data);
        let mut file = file.to_vec();
        if selector & 4 != 0 {
            if let Some(h) = header_len(&file) {
                let mut h32 = crc32fast::Hasher::new();
                h32.update(&file[h - 13..h - 4]);
                h32.update(&file[h..]);
                let crc = h32.finalize();
                file[h - 4..h].copy_from_slice(&crc.to_le_bytes());
            }
        }
        let dir = self.dir.path();
        let (key, entries) = key(selector);
        std::fs::write(dir.join(key.file_name()), &file).expect("write the file");
        match store::load(dir, &key, entries) {
            Ok(values) => {
                assert_eq!(values.entries, entries, "{file:?}");
                assert_eq!(values.data.len() as u64, entries.div_ceil(2), "{file:?}");
                assert_eq!(encode(&key, &values), file, "accepted a malformed file");
            }
            Err(LoadError::Missing) => panic!("the file written is missing"),
            Err(e) => {
                if let LoadError::Truncated { got, want, .. } = &e {
                    assert!(got < want && *got <= file.len() as u64, "{e}");
                }
                assert_short("store::load", &e.to_string(), &file);
            }
        }
        if selector & 8 != 0 {
            self.verify_listed(&file);
        }
    }

    /// Lists the directory holding `file` under the name its header gives
    /// (when it gives one), and verifies what is listed.
    fn verify_listed(&self, file: &[u8]) {
        let dir = self.dir.path();
        empty(dir);
        let name = header_len(file)
            .map(|_| {
                let (g, t) = (usize::from(file[14]), usize::from(file[15]));
                Key {
                    rows: file[12],
                    cols: file[13],
                    goal: file[17..17 + g].to_vec(),
                    tiles: file[17 + g..17 + g + t].to_vec(),
                    regions: file[16] != 0,
                }
                .file_name()
            })
            .filter(|n| n.len() < 200)
            .unwrap_or_else(|| "fuzz.pdb".to_string());
        std::fs::write(dir.join(name), file).expect("write the file");
        let listed = store::list(dir).expect("list the directory");
        for f in &listed {
            match verify(dir, f, &(), budget()) {
                Ok(Verdict::Unreadable(why)) => assert_short("verify", &why, &file),
                Ok(Verdict::Sound | Verdict::Wrong { .. }) => {}
                Err(e) => assert_short("verify", &e.to_string(), &file),
            }
        }
    }
}

/// Removes every file of `dir`.
fn empty(dir: &Path) {
    for entry in std::fs::read_dir(dir)
        .expect("read the directory")
        .flatten()
    {
        let _ = std::fs::remove_file(entry.path());
    }
}
