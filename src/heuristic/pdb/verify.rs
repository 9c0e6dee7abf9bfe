//! Checking a cached database against its definition.
//!
//! The cache's checksum (CRC-32 over header and values) catches accidental
//! damage — a torn write, a flipped bit, a truncated copy — but not a file
//! edited on purpose with its checksum recomputed, or one built by a faulty
//! program. A database's values are defined as breadth-first distances in
//! its abstract space, so the one complete check is to compute them again
//! and compare: that is what [`verify`] does (it costs what a build costs,
//! in time and memory).

use super::{build, cache::tile_list, store, PdbError, PdbReporter};
use crate::board::{Board, Shape};
use crate::budget::{Budget, Clock};

/// What checking one cached database found.
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

/// Checks the cached database `file` (from [`store::list`] of `dir`) by
/// building it again under `budget` and comparing every value.
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
    let stored = match store::load(dir, &key, file.entries) {
        Ok(d) => d,
        Err(store::LoadError::Missing) => {
            return Ok(Verdict::Unreadable("the file is gone".to_string()))
        }
        Err(e) => return Ok(Verdict::Unreadable(e.to_string())),
    };
    let shape = Shape::new(usize::from(file.rows), usize::from(file.cols));
    let Ok(goal) = Board::from_tiles(shape.rows, shape.cols, &file.goal) else {
        return Ok(Verdict::Unreadable("its goal is not a board".to_string()));
    };
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
    reporter.building(&file.tiles, file.entries);
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
    reporter.built(&file.tiles, t0.elapsed().as_secs_f64());
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
