//! Databases in memory, shared by every search that asks the same cache,
//! and the way to one: the memory cache, else the disk cache, else a build.
//!
//! A [`PdbCache`] holds loaded databases up to a capacity in bytes and
//! drops the least recently used beyond it (a search still using a dropped
//! one keeps it alive until it ends). The process-wide cache
//! ([`PdbCache::global`]) has no capacity limit: a command-line run uses a
//! few databases and ends; a long-running server makes its own, bounded.
//!
//! Two searches wanting the same database wait for one build (a lock per
//! database, not one for the whole cache, so searches needing other
//! databases are never held up by a build).

use super::{build, store, PatternDb, PdbError, PdbOptions, PdbReporter};
use crate::board::Board;
use crate::budget::{Clock, Interrupt};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// What identifies a database in memory: its key, where it is cached on
/// disk, whether the disk cache is used, and whether it is kept compact.
type MemoKey = (store::Key, PathBuf, bool, bool);

#[derive(Default)]
struct Slots {
    /// Loaded databases and when each was last used.
    loaded: HashMap<MemoKey, (Arc<PatternDb>, u64)>,
    /// One lock per database being loaded or built.
    pending: HashMap<MemoKey, Arc<Mutex<()>>>,
    bytes: u64,
    tick: u64,
}

/// Loaded databases, least recently used dropped beyond a capacity.
///
/// ```
/// use npuzzle::pdb::{build, PdbCache, PdbOptions};
/// use npuzzle::{Board, Budget, Shape};
/// use std::sync::Arc;
///
/// let cache = Arc::new(PdbCache::new(64 << 20)); // at most 64 MiB
/// let opts = PdbOptions::default()
///     .with_partition("4-4".parse()?)
///     .with_cache(false)
///     .with_memory_cache(cache.clone());
/// build(&Board::blank_last(Shape::new(3, 3))?, &opts, &(), &Budget::default())?;
/// assert_eq!(cache.len(), 2);
/// assert!(cache.bytes() > 0);
/// cache.clear();
/// assert!(cache.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct PdbCache {
    capacity: u64,
    slots: Mutex<Slots>,
}

impl std::fmt::Debug for PdbCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = self.lock();
        f.debug_struct("PdbCache")
            .field("capacity", &self.capacity)
            .field("bytes", &s.bytes)
            .field("databases", &s.loaded.len())
            .finish()
    }
}

impl PdbCache {
    /// A cache holding at most `capacity` bytes of databases (the one in
    /// use is kept even when it alone is larger).
    pub fn new(capacity: u64) -> PdbCache {
        PdbCache {
            capacity,
            slots: Mutex::default(),
        }
    }

    /// The process-wide cache, without a capacity limit.
    pub fn global() -> &'static Arc<PdbCache> {
        static GLOBAL: OnceLock<Arc<PdbCache>> = OnceLock::new();
        GLOBAL.get_or_init(|| Arc::new(PdbCache::new(u64::MAX)))
    }

    /// Bytes of the databases held.
    pub fn bytes(&self) -> u64 {
        self.lock().bytes
    }

    /// Number of databases held.
    pub fn len(&self) -> usize {
        self.lock().loaded.len()
    }

    /// Whether no database is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Drops every database held.
    pub fn clear(&self) {
        let mut s = self.lock();
        s.loaded.clear();
        s.bytes = 0;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Slots> {
        self.slots.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn get(&self, key: &MemoKey) -> Option<Arc<PatternDb>> {
        let mut s = self.lock();
        s.tick += 1;
        let tick = s.tick;
        s.loaded.get_mut(key).map(|(db, used)| {
            *used = tick;
            db.clone()
        })
    }

    fn insert(&self, key: MemoKey, db: Arc<PatternDb>) {
        let mut s = self.lock();
        s.tick += 1;
        let tick = s.tick;
        s.bytes += db.bytes();
        if let Some((old, _)) = s.loaded.insert(key.clone(), (db, tick)) {
            s.bytes -= old.bytes();
        }
        while s.bytes > self.capacity && s.loaded.len() > 1 {
            let Some(oldest) = s
                .loaded
                .iter()
                .filter(|(k, _)| **k != key)
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            if let Some((old, _)) = s.loaded.remove(&oldest) {
                s.bytes -= old.bytes();
            }
        }
    }

    /// The lock that one load or build of `key` holds.
    fn pending(&self, key: &MemoKey) -> Arc<Mutex<()>> {
        self.lock().pending.entry(key.clone()).or_default().clone()
    }

    fn done(&self, key: &MemoKey) {
        self.lock().pending.remove(key);
    }
}

/// Build progress, passed on to the caller's reporter.
struct Layers<'a>(&'a dyn PdbReporter);

impl build::BuildProgress for Layers<'_> {
    fn layer(&self, depth: u32, reached: u64, total: u64) {
        self.0.layer(depth, reached, total);
    }
}

/// The group's tiles, for messages: `1,2,3`.
pub(super) fn tile_list(tiles: &[u8]) -> String {
    let v: Vec<String> = tiles.iter().map(ToString::to_string).collect();
    v.join(",")
}

/// One group's database for `goal`, zero-aware or not (`regions`): from
/// `opts.cache` if it holds it, else from the disk cache, else built (and
/// saved). A build obeys `clock`'s deadline, cancel flag and byte budget.
pub fn load_or_build(
    goal: &Board,
    tiles: &[u8],
    regions: bool,
    opts: &PdbOptions,
    reporter: &dyn PdbReporter,
    clock: &Clock<'_>,
) -> Result<Arc<PatternDb>, PdbError> {
    let shape = goal.shape();
    let key = store::Key {
        rows: shape.rows as u8,
        cols: shape.cols as u8,
        goal: goal.tiles().to_vec(),
        tiles: tiles.to_vec(),
        regions,
    };
    let dir = opts.cache_dir();
    let memo_key = (key.clone(), dir.clone(), opts.use_cache, opts.compact());
    let cache = &opts.cache;
    if let Some(db) = cache.get(&memo_key) {
        return Ok(db);
    }
    // One load or build per database: whoever comes second waits, then
    // finds it in memory.
    let pending = cache.pending(&memo_key);
    let _building = pending.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(db) = cache.get(&memo_key) {
        return Ok(db);
    }
    let result = load_or_build_uncached(goal, key, opts, &dir, reporter, clock);
    let db = match result {
        Ok(db) => Arc::new(db),
        Err(e) => {
            cache.done(&memo_key);
            return Err(e);
        }
    };
    cache.insert(memo_key.clone(), db.clone());
    cache.done(&memo_key);
    Ok(db)
}

fn load_or_build_uncached(
    goal: &Board,
    key: store::Key,
    opts: &PdbOptions,
    dir: &std::path::Path,
    reporter: &dyn PdbReporter,
    clock: &Clock<'_>,
) -> Result<PatternDb, PdbError> {
    let shape = goal.shape();
    let tiles = key.tiles.clone();
    let k = tiles.len();
    let entries =
        PatternDb::entries_for(shape, k, key.regions).ok_or(PdbError::BoardTooBig(shape))?;
    let budget = clock.budget();
    // a compact database is packed while its file is read: an eighth of a
    // byte an entry
    let bytes = if opts.compact() && key.regions {
        entries.div_ceil(8)
    } else {
        store::Contents::data_bytes(entries)
    };
    if bytes > budget.max_bytes {
        return Err(PdbError::Memory {
            tiles: tile_list(&tiles),
            needed: bytes,
            budget: budget.max_bytes,
        });
    }
    if opts.use_cache {
        // a compact database is packed as it is read: the file's nibbles
        // are never all in memory
        let mut sink = super::lookup::sink::Sink::new(entries, opts.compact() && key.regions);
        match store::load_into(dir, &key, entries, &mut sink) {
            Ok(figures) => return sink.into_db(shape, goal, key, figures),
            Err(store::LoadError::Missing) => {}
            Err(e) => reporter.note(&format!("{e}; rebuilding it")),
        }
    }
    let needed = build::scratch_bytes(shape, k, key.regions);
    if needed > budget.max_bytes {
        return Err(PdbError::Memory {
            tiles: tile_list(&tiles),
            needed,
            budget: budget.max_bytes,
        });
    }
    reporter.building(&format!("tiles {}", tile_list(&tiles)), entries);
    let t0 = std::time::Instant::now();
    let gpos = goal.positions();
    let cells: Vec<u8> = tiles.iter().map(|&t| gpos[usize::from(t)]).collect();
    let contents = build::build(
        shape,
        &cells,
        goal.blank(),
        key.regions,
        &Layers(reporter),
        clock,
    )
    .map_err(|interrupt| stopped(&tiles, interrupt, budget))?;
    reporter.built(&format!("tiles {}", tile_list(&tiles)), t0.elapsed().as_secs_f64());
    if contents.clamped > 0 {
        reporter.note(&format!(
            "the database for tiles {} keeps {} of {} values below their exact value (more than 30 above the Manhattan distance)",
            tile_list(&tiles),
            contents.clamped,
            contents.entries
        ));
    }
    if opts.use_cache {
        save(dir, &key, &contents, opts, reporter);
    }
    PatternDb::new(shape, goal, key, contents, opts.compact())
}

/// Saves a built database, unless the disk cache would grow past its cap;
/// a cache that cannot be written must not cost the answer (the database
/// is built and correct), so failures are reported, not returned.
fn save(
    dir: &std::path::Path,
    key: &store::Key,
    contents: &store::Contents,
    opts: &PdbOptions,
    reporter: &dyn PdbReporter,
) {
    // Two builds finishing together must not both pass the cap: the check
    // and the write go one at a time (within this process).
    static SAVING: Mutex<()> = Mutex::new(());
    let _one_at_a_time = SAVING.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(cap) = opts.max_disk {
        let used = super::colour::store::disk_used(dir);
        if used + contents.data.len() as u64 > cap {
            reporter.note(&format!(
                "not saving the database for tiles {}: the cache in {} would grow past its cap of {}",
                tile_list(&key.tiles),
                dir.display(),
                crate::system::Bytes::from(cap)
            ));
            return;
        }
    }
    if let Err(source) = store::save(dir, key, contents) {
        reporter.unsaved(&PdbError::Save {
            dir: dir.to_path_buf(),
            source,
        });
    }
}

/// The error of a build that `interrupt` stopped.
fn stopped(tiles: &[u8], interrupt: Interrupt, budget: &crate::budget::Budget) -> PdbError {
    PdbError::Stopped {
        tiles: tile_list(tiles),
        interrupt,
        value: match interrupt {
            Interrupt::Limit(l) => budget.value_of(l),
            Interrupt::Cancelled => String::new(),
        },
    }
}

/// Whether every database of `layout` for `goal` is at hand without a
/// build: in `opts.cache`, or as a file in the disk cache (its contents are
/// checked only when loaded).
pub fn is_cached(goal: &Board, layout: &super::PdbLayout, opts: &PdbOptions) -> bool {
    if let (Some(a), Some(o)) = (&layout.also, opts.also_options()) {
        if !is_cached(goal, a, &o) {
            return false;
        }
    }
    let shape = goal.shape();
    let dir = opts.cache_dir();
    layout
        .groups
        .iter()
        .zip(&layout.zero_aware)
        .all(|(tiles, &regions)| {
            let key = store::Key {
                rows: shape.rows as u8,
                cols: shape.cols as u8,
                goal: goal.tiles().to_vec(),
                tiles: tiles.clone(),
                regions,
            };
            let memo_key = (key.clone(), dir.clone(), opts.use_cache, opts.compact());
            opts.cache.lock().loaded.contains_key(&memo_key)
                || (opts.use_cache
                    && std::fs::metadata(dir.join(key.file_name())).is_ok_and(|m| m.is_file()))
        })
}

/// Drops every database held by the process-wide cache.
#[cfg(any(test, feature = "internals"))]
pub fn forget_loaded() {
    PdbCache::global().clear();
}
