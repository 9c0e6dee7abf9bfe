//! Checking a cached database against its definition.
//!
//! The cache's checksum (CRC-32 over header and values) catches accidental
//! damage — a torn write, a flipped bit, a truncated copy — but not a file
//! edited on purpose with its checksum recomputed, or one built by a faulty
//! program. A database's values are defined as breadth-first distances in
//! its abstract space, so the one complete check is to compute them again
//! and compare: that is what [`verify`] does (it costs what a build costs,
//! in time and memory).

use super::{build, cache::tile_list, store, PatternDb, PdbError, PdbReporter, MAX_GROUP_TILES};
use crate::board::Board;
use crate::budget::{Budget, Clock};
use crate::rank::PartialRanker;

/// What checking one cached database found.
///
/// ```
/// use npuzzle::pdb::{build, list, verify, PdbOptions, Verdict};
/// use npuzzle::{Board, Budget, Shape};
///
/// let dir = std::env::temp_dir().join(format!("npuzzle-doctest-verdict-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let opts = PdbOptions::default().with_dir(Some(dir.clone()));
/// build(&Board::blank_last(Shape::new(2, 3))?, &opts, &(), &Budget::default())?;
/// let file = &list(&dir)?[0];
/// // A truncated file is no database.
/// std::fs::OpenOptions::new().write(true).open(&file.path)?.set_len(file.bytes - 1)?;
/// let verdict = verify(&dir, file, &(), &Budget::default())?;
/// assert!(matches!(verdict, Verdict::Unreadable(_)));
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every value equals its definition.
    Sound,
    /// The file could not be read as a database (damaged, truncated, for
    /// another key): the message says how.
    Unreadable(String),
    /// Values differ from their definition.
    Wrong {
        /// How many entries differ.
        entries: u64,
        /// The first entry that differs.
        first: u64,
    },
}

/// The goal a database file's header names and the number of values such
/// a database holds, or why the header names no database. The header is
/// only what the file claims: its board, goal and group are checked before
/// any size taken from them is trusted (a forged entry count would
/// otherwise size the read, and a group tile off the board index past the
/// goal).
fn expected_entries(file: &store::CachedFile) -> Result<(Board, u64), String> {
    let (rows, cols) = (usize::from(file.rows), usize::from(file.cols));
    let goal = Board::from_tiles(rows, cols, &file.goal)
        .map_err(|e| format!("its goal is not a board: {e}"))?;
    let (n, k) = (goal.len(), file.tiles.len());
    let group = (1..n.min(MAX_GROUP_TILES + 1)).contains(&k)
        && file.tiles.windows(2).all(|w| w[0] < w[1])
        && file.tiles.iter().all(|&t| t != 0 && usize::from(t) < n);
    if !group {
        return Err(format!(
            "its group ({k} tiles) is not a sorted set of this board's tiles"
        ));
    }
    let entries = PartialRanker::new(n, k)
        .and_then(|_| PatternDb::entries_for(goal.shape(), k, file.regions))
        .ok_or_else(|| format!("a group of {k} tiles on {n} cells is too large"))?;
    if entries != file.entries {
        return Err(format!(
            "its header announces {} values where its key needs {entries}",
            file.entries
        ));
    }
    Ok((goal, entries))
}

/// Checks the cached database `file` (from [`store::list`] of `dir`) by
/// building it again under `budget` and comparing every value.
///
/// ```
/// use npuzzle::pdb::{build, list, verify, PdbOptions, Verdict};
/// use npuzzle::{Board, Budget, Shape};
///
/// let dir = std::env::temp_dir().join(format!("npuzzle-doctest-verify-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let opts = PdbOptions::default().with_dir(Some(dir.clone()));
/// build(&Board::blank_last(Shape::new(2, 3))?, &opts, &(), &Budget::default())?;
/// let files = list(&dir)?;
/// assert!(!files.is_empty());
/// for file in &files {
///     assert_eq!(verify(&dir, file, &(), &Budget::default())?, Verdict::Sound);
/// }
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verify(
    dir: &std::path::Path,
    file: &store::CachedFile,
    reporter: &dyn PdbReporter,
    budget: &Budget,
) -> Result<Verdict, PdbError> {
    let key = store::Key {
        rows: file.rows,
        cols: file.cols,
        goal: file.goal.clone(),
        tiles: file.tiles.clone(),
        regions: file.regions,
    };
    let (goal, entries) = match expected_entries(file) {
        Ok(x) => x,
        Err(why) => return Ok(Verdict::Unreadable(why)),
    };
    let stored_bytes = store::Contents::data_bytes(entries);
    if stored_bytes > budget.max_bytes {
        return Err(PdbError::Memory {
            tiles: tile_list(&file.tiles),
            needed: stored_bytes,
            budget: budget.max_bytes,
        });
    }
    let stored = match store::load(dir, &key, entries) {
        Ok(d) => d,
        Err(store::LoadError::Missing) => {
            return Ok(Verdict::Unreadable("the file is gone".to_string()))
        }
        Err(e) => return Ok(Verdict::Unreadable(e.to_string())),
    };
    let shape = goal.shape();
    let needed = build::scratch_bytes(shape, file.tiles.len(), file.regions);
    if needed > budget.max_bytes {
        return Err(PdbError::Memory {
            tiles: tile_list(&file.tiles),
            needed,
            budget: budget.max_bytes,
        });
    }
    let gpos = goal.positions();
    let cells: Vec<u8> = file.tiles.iter().map(|&t| gpos[usize::from(t)]).collect();
    reporter.building(&format!("tiles {}", super::cache::tile_list(&file.tiles)), file.entries);
    let t0 = std::time::Instant::now();
    let clock = Clock::new(budget);
    let fresh = build::build(shape, &cells, goal.blank(), file.regions, &(), &clock).map_err(
        |interrupt| PdbError::Stopped {
            tiles: tile_list(&file.tiles),
            interrupt,
            value: match interrupt {
                crate::budget::Interrupt::Limit(l) => budget.value_of(l),
                crate::budget::Interrupt::Cancelled => String::new(),
            },
        },
    )?;
    reporter.built(&format!("tiles {}", super::cache::tile_list(&file.tiles)), t0.elapsed().as_secs_f64());
    if fresh.entries != stored.entries {
        return Ok(Verdict::Unreadable(format!(
            "it holds {} values where its key needs {}",
            stored.entries, fresh.entries
        )));
    }
    if (fresh.max, fresh.clamped) != (stored.max, stored.clamped) {
        return Ok(Verdict::Unreadable(format!(
            "its header gives the largest value {} and {} clamped entries where the definition gives {} and {}",
            stored.max, stored.clamped, fresh.max, fresh.clamped
        )));
    }
    let mut wrong = 0u64;
    let mut first = None;
    for (i, (a, b)) in fresh.data.iter().zip(&stored.data).enumerate() {
        if a != b {
            for half in 0..2 {
                if (a ^ b) >> (half * 4) & 15 != 0 {
                    wrong += 1;
                    first.get_or_insert(i as u64 * 2 + half);
                }
            }
        }
    }
    Ok(match first {
        None => Verdict::Sound,
        Some(first) => Verdict::Wrong {
            entries: wrong,
            first,
        },
    })
}
