//! Additive disjoint pattern databases (Korf & Felner 2002), with the
//! reflection lookup across the main diagonal.
//!
//! The tiles are split into disjoint groups; each group's database holds,
//! for every placement of its tiles, the fewest moves *of that group's
//! tiles* needed to bring them home, found by breadth-first search backward
//! from the goal over the group's placements (the other tiles erased, so the
//! blank moves through their cells at no cost).
//! Since every move moves one tile, the values of disjoint groups add up to
//! a lower bound.
//!
//! **Reflection.** On a square board, transposing a position (cell (r, c) to
//! (c, r)) and renaming each tile to the one whose goal cell is the
//! transpose of its own gives a position exactly as far from the goal,
//! provided the goal's blank lies on the main diagonal (then the goal maps
//! to itself). The same databases then give a second bound, and the
//! heuristic is the larger of the two sums. For a goal whose blank is off
//! the diagonal the reflected position has a different goal and the
//! reflection is skipped (building a second set for the mirrored goal would
//! double build time and memory for a rarely used case).
//!
//! **Incremental.** The search state carries the tiles' cells and each
//! group's current value; when a tile moves, only its group (and, for the
//! reflection, the group of its mirror tile) is ranked and looked up again.

mod build;
pub(crate) mod partition;
pub mod store;

pub use partition::{PartitionError, PartitionSpec};

use super::Heuristic;
use crate::board::{Board, Shape};
use crate::rank::PartialRanker;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use thiserror::Error;

/// Largest board a pattern-database heuristic handles (its state keeps one
/// byte per cell).
pub const MAX_CELLS: usize = 64;
/// Most groups in one partition.
pub const MAX_GROUPS: usize = 16;
/// Most tiles in one group (a larger group would not fit in memory anyway).
pub const MAX_GROUP_TILES: usize = 16;
/// Default cap on one group's placements (`n!/(n−k)!`, a byte each unless
/// zero-aware): 2^30. 7-8 on 4×4 needs 519 M; 6-tile groups on 5×5 need
/// 128 M each.
pub const DEFAULT_MAX_ENTRIES: u64 = 1 << 30;

/// Why pattern databases cannot be had for a goal.
#[derive(Debug, Error)]
pub enum PdbError {
    /// The partition asked for is malformed, does not cover the board's
    /// tiles, or has a group too big for the entry cap.
    #[error(transparent)]
    Partition(#[from] PartitionError),
    /// The board (this shape) has more than [`MAX_CELLS`] cells.
    #[error("pattern databases support boards of at most {MAX_CELLS} cells, not {0}")]
    BoardTooBig(Shape),
    /// The partition has this many groups, more than [`MAX_GROUPS`].
    #[error("a partition of at most {MAX_GROUPS} groups is needed, not {0}")]
    TooManyGroups(usize),
    /// A group has this many tiles, more than [`MAX_GROUP_TILES`].
    #[error("groups of at most {MAX_GROUP_TILES} tiles are supported, not {0}")]
    GroupTooBig(usize),
    /// A database was built but could not be written to the cache. It is
    /// passed to [`PdbReporter::unsaved`] and the database used from
    /// memory, so no load fails with it.
    #[error("cannot write the pattern database cache in {dir}: {source}")]
    Save {
        /// The cache directory.
        dir: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

impl PdbError {
    /// Whether the machine is at fault (a cache that cannot be written)
    /// rather than the request.
    pub fn is_environment(&self) -> bool {
        matches!(self, PdbError::Save { .. })
    }
}

/// One group's database.
pub struct PatternDb {
    /// What the database is for (board, goal, group, zero-awareness); it
    /// also names the cache file.
    pub key: store::Key,
    ranker: PartialRanker,
    geo: build::Geometry,
    /// Free cells (the blank's included): `n − k`.
    free_cells: usize,
    /// Region ordinals by (free cells, blank) on boards of ≤ 16 cells.
    regions_of: Option<Arc<[u8]>>,
    /// The ranker's digit weights, inline for the hot loop.
    weights: [u32; MAX_GROUP_TILES],
    data: Vec<u8>,
}

impl PatternDb {
    /// Value for the group's tiles standing on `cells` (in key order) with
    /// the blank on `blank`.
    #[inline]
    pub fn get(&self, cells: &[u8], blank: usize) -> u8 {
        let rank = self.ranker.rank(cells) as usize;
        if !self.key.regions {
            return self.data[rank];
        }
        let occ = cells.iter().fold(0u64, |m, &c| m | 1 << c);
        let free = self.geo.full() & !occ;
        let ordinal = match &self.regions_of {
            Some(t) => usize::from(t[(free as usize) << 4 | blank]),
            None => build::ordinal(free, self.geo.flood(1 << blank, free)),
        };
        self.data[rank * self.free_cells + ordinal]
    }

    /// The value for the group whose `i`-th tile stands on
    /// `cell(tiles[i])`, with the blank on `blank`: ranking and the group's
    /// occupancy mask in one pass (the search's hot path).
    #[inline]
    fn lookup(&self, tiles: &[u8], cell: impl Fn(u8) -> u8, blank: usize) -> u8 {
        let mut used = 0u64;
        let mut rank = 0usize;
        for (&t, &w) in tiles.iter().zip(&self.weights) {
            let c = cell(t);
            let below = (used & ((1u64 << c) - 1)).count_ones() as usize;
            rank += (usize::from(c) - below) * w as usize;
            used |= 1u64 << c;
        }
        if !self.key.regions {
            return self.data[rank];
        }
        let free = self.geo.full() & !used;
        let ordinal = match &self.regions_of {
            Some(t) => usize::from(t[(free as usize) << 4 | blank]),
            None => build::ordinal(free, self.geo.flood(1 << blank, free)),
        };
        self.data[rank * self.free_cells + ordinal]
    }

    /// Whether the database keeps one value per region of the blank.
    pub fn zero_aware(&self) -> bool {
        self.key.regions
    }

    /// Bytes held: one per placement, or one per (placement, free cell)
    /// when zero-aware.
    pub fn entries(&self) -> usize {
        self.data.len()
    }

    /// The group's tiles, sorted (the key order of [`PatternDb::get`]).
    pub fn tiles(&self) -> &[u8] {
        &self.key.tiles
    }

    /// The largest value stored.
    pub fn max_value(&self) -> u8 {
        self.data
            .iter()
            .copied()
            .filter(|&v| v != build::UNREACHED)
            .max()
            .unwrap_or(0)
    }
}

/// How to get databases: which partition, where the cache lives.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct PdbOptions {
    /// Which tiles share a database (`auto`: the board's default).
    pub partition: PartitionSpec,
    /// Cache directory; `None` for the default ([`store::default_dir`]).
    pub dir: Option<PathBuf>,
    /// Read and write the disk cache (off: build in memory only).
    pub use_cache: bool,
    /// Refuse groups with more placements (`n!/(n−k)!`) than this.
    pub max_entries: u64,
    /// Use the reflection lookup where the goal allows it.
    pub reflect: bool,
    /// Whether databases keep one value per region of the blank.
    pub blank: BlankMode,
    /// Who hears about builds and damaged cache files (nobody if `None`).
    pub reporter: Option<SharedReporter>,
}

/// How much of the blank a database keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BlankMode {
    /// Zero-aware where that costs at most [`ZERO_AWARE_MAX_BYTES`] per
    /// database, else the minimum over the blank's regions.
    #[default]
    Auto,
    /// Always the minimum over the blank's regions (smallest, weakest).
    Min,
    /// Always one value per region of the blank ("zero-aware").
    Regions,
}

impl std::str::FromStr for BlankMode {
    type Err = String;

    fn from_str(s: &str) -> Result<BlankMode, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(BlankMode::Auto),
            "min" | "blank-free" => Ok(BlankMode::Min),
            "regions" | "zero-aware" | "blank-aware" => Ok(BlankMode::Regions),
            _ => Err(format!(
                "'{s}' is not a blank mode; use auto, min or regions"
            )),
        }
    }
}

/// Largest zero-aware database `BlankMode::Auto` builds: 6-tile groups on
/// 4×4 (58 MB) and the 7-tile half of 7-8 (519 MB) qualify; the 8-tile half
/// (4.2 GB) and 6-tile groups on 5×5 (2.4 GB each) keep the minimum.
pub const ZERO_AWARE_MAX_BYTES: u64 = 600 << 20;

/// A reporter shared between threads.
#[derive(Clone)]
pub struct SharedReporter(pub Arc<dyn PdbReporter + Send>);

impl std::fmt::Debug for SharedReporter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SharedReporter")
    }
}

impl Default for PdbOptions {
    fn default() -> PdbOptions {
        PdbOptions {
            partition: PartitionSpec::Auto,
            dir: None,
            use_cache: true,
            max_entries: DEFAULT_MAX_ENTRIES,
            reflect: true,
            blank: BlankMode::Auto,
            reporter: None,
        }
    }
}

impl PdbOptions {
    /// With the partition `p`.
    pub fn with_partition(mut self, p: PartitionSpec) -> PdbOptions {
        self.partition = p;
        self
    }

    /// With the cache in `dir` (`None`: the default directory).
    pub fn with_dir(mut self, dir: Option<PathBuf>) -> PdbOptions {
        self.dir = dir;
        self
    }

    /// Reading and writing the disk cache, or building in memory only.
    pub fn with_cache(mut self, use_cache: bool) -> PdbOptions {
        self.use_cache = use_cache;
        self
    }

    /// Refusing databases of more than `n` entries.
    pub fn with_max_entries(mut self, n: u64) -> PdbOptions {
        self.max_entries = n;
        self
    }

    /// With or without the reflected lookup.
    pub fn with_reflect(mut self, reflect: bool) -> PdbOptions {
        self.reflect = reflect;
        self
    }

    /// Keeping the blank's regions or not.
    pub fn with_blank(mut self, blank: BlankMode) -> PdbOptions {
        self.blank = blank;
        self
    }

    /// Telling `reporter` about builds and damaged files.
    pub fn with_reporter(mut self, reporter: Option<SharedReporter>) -> PdbOptions {
        self.reporter = reporter;
        self
    }

    /// The cache directory: the one given, or the default.
    pub fn cache_dir(&self) -> PathBuf {
        self.dir.clone().unwrap_or_else(store::default_dir)
    }

    /// The reporter given, or one that stays silent.
    pub fn reporter(&self) -> &dyn PdbReporter {
        match &self.reporter {
            Some(r) => &*r.0,
            None => &(),
        }
    }
}

/// What the caller hears while databases load or build.
pub trait PdbReporter: Sync {
    /// A one-line notice (a corrupt cache file being rebuilt, …).
    fn note(&self, _msg: &str) {}
    /// A build starts: the group and its size in entries.
    fn building(&self, _tiles: &[u8], _entries: u64) {}
    /// Progress of the current build.
    fn layer(&self, _depth: u32, _reached: u64, _total: u64) {}
    /// The current build has finished.
    fn built(&self, _tiles: &[u8], _seconds: f64) {}
    /// A database was built but could not be saved to the cache: it is
    /// used from memory (and built again next time).
    fn unsaved(&self, error: &PdbError) {
        self.note(&format!(
            "{error}; using the database from memory (it will be built again next time)"
        ));
    }
}

impl PdbReporter for () {}

struct Layers<'a>(&'a dyn PdbReporter);

impl build::BuildProgress for Layers<'_> {
    fn layer(&self, depth: u32, reached: u64, total: u64) {
        self.0.layer(depth, reached, total);
    }
}

/// Databases already loaded in this process, shared by every search.
type Loaded = Mutex<HashMap<(store::Key, PathBuf, bool), Arc<PatternDb>>>;

fn loaded() -> &'static Loaded {
    static LOADED: OnceLock<Loaded> = OnceLock::new();
    LOADED.get_or_init(Default::default)
}

/// Loads one group's database from the cache, or builds (and caches) it.
pub fn load_or_build(
    goal: &Board,
    tiles: &[u8],
    regions: bool,
    opts: &PdbOptions,
    reporter: &dyn PdbReporter,
) -> Result<Arc<PatternDb>, PdbError> {
    let shape = goal.shape();
    let n = shape.cells();
    let key = store::Key {
        rows: shape.rows as u8,
        cols: shape.cols as u8,
        goal: goal.tiles().to_vec(),
        tiles: tiles.to_vec(),
        regions: false,
    };
    let ranker = PartialRanker::new(n, tiles.len()).ok_or(PdbError::BoardTooBig(shape))?;
    let free_cells = n - tiles.len();
    let entries = ranker.count() * if regions { free_cells as u64 } else { 1 };
    let key = store::Key { regions, ..key };
    let dir = opts.cache_dir();
    let memo_key = (key.clone(), dir.clone(), opts.use_cache);
    // Hold the lock while building: two searches in one process wanting the
    // same database build it once.
    let mut memo = loaded().lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(db) = memo.get(&memo_key) {
        return Ok(db.clone());
    }
    let mut data = None;
    if opts.use_cache {
        match store::load(&dir, &key, entries) {
            Ok(d) => data = Some(d),
            Err(store::LoadError::Missing) => {}
            Err(e) => reporter.note(&format!("{e}; rebuilding it")),
        }
    }
    let data = match data {
        Some(d) => d,
        None => {
            reporter.building(tiles, entries);
            let t0 = std::time::Instant::now();
            let gpos = goal.positions();
            let cells: Vec<u8> = tiles.iter().map(|&t| gpos[usize::from(t)]).collect();
            let d = build::build(shape, &cells, goal.blank(), regions, &Layers(reporter));
            reporter.built(tiles, t0.elapsed().as_secs_f64());
            if opts.use_cache {
                if let Err(source) = store::save(&dir, &key, &d) {
                    // The database is built and correct: a cache that
                    // cannot be written must not cost the answer.
                    reporter.unsaved(&PdbError::Save {
                        dir: dir.clone(),
                        source,
                    });
                }
            }
            d
        }
    };
    let geo = build::Geometry::new(shape);
    let mut weights = [0u32; MAX_GROUP_TILES];
    for (w, &x) in weights.iter_mut().zip(ranker.weights()) {
        // entries fit in memory, so every weight fits a u32
        *w = u32::try_from(x).unwrap_or(u32::MAX);
    }
    let db = Arc::new(PatternDb {
        weights,
        regions_of: if regions { geo.region_table() } else { None },
        key,
        ranker,
        geo,
        free_cells,
        data,
    });
    memo.insert(memo_key, db.clone());
    Ok(db)
}

/// Drops every database held in memory by this process.
pub fn forget_loaded() {
    loaded()
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clear();
}

/// Whether a group of `k` tiles on `n` cells keeps one value per region of
/// the blank under `mode`.
fn zero_aware(n: usize, k: usize, mode: BlankMode) -> bool {
    match mode {
        BlankMode::Min => false,
        BlankMode::Regions => true,
        BlankMode::Auto => crate::rank::partial_count(n, k)
            .is_some_and(|c| c.saturating_mul((n - k) as u64) <= ZERO_AWARE_MAX_BYTES),
    }
}

/// A partition resolved for a goal before any database is loaded: what
/// the planner reports and what [`PdbHeuristic::new`] then loads, so that
/// the two cannot disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdbLayout {
    /// The tile groups, each in database key order.
    pub groups: Vec<Vec<u8>>,
    /// Whether each group's database keeps one value per region of the
    /// blank.
    pub zero_aware: Vec<bool>,
    /// Whether the reflected lookup applies (and is wanted).
    pub reflect: bool,
}

impl PdbLayout {
    /// Resolves `opts.partition` for `goal`, checking every limit a build
    /// would hit.
    pub fn resolve(goal: &Board, opts: &PdbOptions) -> Result<PdbLayout, PdbError> {
        let shape = goal.shape();
        let n = shape.cells();
        if n > MAX_CELLS {
            return Err(PdbError::BoardTooBig(shape));
        }
        let groups = partition::resolve(&opts.partition, goal, opts.max_entries)?;
        if groups.len() > MAX_GROUPS {
            return Err(PdbError::TooManyGroups(groups.len()));
        }
        if let Some(g) = groups.iter().find(|g| g.len() > MAX_GROUP_TILES) {
            return Err(PdbError::GroupTooBig(g.len()));
        }
        let zero_aware = groups
            .iter()
            .map(|g| zero_aware(n, g.len(), opts.blank))
            .collect();
        Ok(PdbLayout {
            groups,
            zero_aware,
            reflect: opts.reflect && reflection_applies(goal),
        })
    }

    /// `pdb 6-6-3 zero-aware + reflection`, for reports.
    pub fn label(&self) -> String {
        let sizes: Vec<String> = self.groups.iter().map(|g| g.len().to_string()).collect();
        let aware = self.zero_aware.iter().filter(|&&z| z).count();
        format!(
            "pdb {}{}{}",
            sizes.join("-"),
            match aware {
                0 => "",
                a if a == self.groups.len() => " zero-aware",
                _ => " (partly zero-aware)",
            },
            if self.reflect { " + reflection" } else { "" }
        )
    }
}

/// The heuristic: a partition's databases summed, maxed with the same sum
/// over the reflected position where the goal allows it.
pub struct PdbHeuristic {
    label: String,
    dbs: Vec<Arc<PatternDb>>,
    /// `group_of[t]`: the group holding tile `t` (`u8::MAX` for the blank).
    group_of: Vec<u8>,
    /// `members[g]`: the tiles of group `g`, in database key order.
    members: Vec<Vec<u8>>,
    mirror: Option<Mirror>,
}

struct Mirror {
    /// `cell[c]`: the transpose of cell `c`.
    cell: Vec<u8>,
    /// `source[g]`: for each tile `u` of group `g`, the tile `mt(u)` whose
    /// transposed cell is where `u` stands in the reflected position.
    source: Vec<Vec<u8>>,
    /// `group_of_moved[t]`: the group whose reflected lookup changes when
    /// tile `t` moves (the group of `mt(t)`).
    group_of_moved: Vec<u8>,
}

/// Per-node state: the tiles' cells and each group's two values.
#[derive(Clone, Copy, Debug)]
pub struct PdbState {
    pos: [u8; MAX_CELLS],
    h: [u8; MAX_GROUPS],
    hm: [u8; MAX_GROUPS],
    sum: u16,
    msum: u16,
}

impl PdbHeuristic {
    /// Loads or builds the partition's databases for `goal`.
    pub fn new(
        goal: &Board,
        opts: &PdbOptions,
        reporter: &dyn PdbReporter,
    ) -> Result<PdbHeuristic, PdbError> {
        let layout = PdbLayout::resolve(goal, opts)?;
        let shape = goal.shape();
        let n = shape.cells();
        let dbs = layout
            .groups
            .iter()
            .zip(&layout.zero_aware)
            .map(|(g, &za)| load_or_build(goal, g, za, opts, reporter))
            .collect::<Result<Vec<_>, _>>()?;
        let groups = layout.groups.clone();
        let mut group_of = vec![u8::MAX; n];
        for (g, tiles) in groups.iter().enumerate() {
            for &t in tiles {
                group_of[usize::from(t)] = g as u8;
            }
        }
        let mirror = layout.reflect.then(|| {
            let cols = shape.cols;
            let cell: Vec<u8> = (0..n)
                .map(|c| ((c % cols) * cols + c / cols) as u8)
                .collect();
            let gpos = goal.positions();
            // mt(t): the goal tile on the transpose of t's goal cell
            let mt: Vec<u8> = (0..n)
                .map(|t| goal.tiles()[usize::from(cell[usize::from(gpos[t])])])
                .collect();
            Mirror {
                source: groups
                    .iter()
                    .map(|g| g.iter().map(|&u| mt[usize::from(u)]).collect())
                    .collect(),
                group_of_moved: (0..n).map(|t| group_of[usize::from(mt[t])]).collect(),
                cell,
            }
        });
        let label = layout.label();
        Ok(PdbHeuristic {
            label,
            dbs,
            group_of,
            members: groups,
            mirror,
        })
    }

    /// The layout's label ([`PdbLayout::label`]), for reports.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The databases, one per group, in the partition's order.
    pub fn databases(&self) -> &[Arc<PatternDb>] {
        &self.dbs
    }

    /// Whether the reflected lookup is used ([`reflection_applies`] to the
    /// goal, and it was not turned off).
    pub fn reflects(&self) -> bool {
        self.mirror.is_some()
    }

    /// Group `g`'s value; `pos[0]` is the blank's cell.
    #[inline]
    fn group_value(&self, g: usize, pos: &[u8; MAX_CELLS]) -> u8 {
        self.dbs[g].lookup(
            &self.members[g],
            |t| pos[usize::from(t)],
            usize::from(pos[0]),
        )
    }

    /// Group `g`'s value in the reflected position (the blank, tile 0, is
    /// its own mirror tile).
    #[inline]
    fn mirror_value(&self, m: &Mirror, g: usize, pos: &[u8; MAX_CELLS]) -> u8 {
        let blank = usize::from(m.cell[usize::from(pos[0])]);
        self.dbs[g].lookup(
            &m.source[g],
            |t| m.cell[usize::from(pos[usize::from(t)])],
            blank,
        )
    }
}

/// Whether the reflection lookup is valid for this goal: a square board
/// with the goal's blank on the main diagonal.
pub fn reflection_applies(goal: &Board) -> bool {
    let (r, c) = (goal.rows(), goal.cols());
    r == c && goal.blank() / c == goal.blank() % c
}

impl Heuristic for PdbHeuristic {
    type State = PdbState;

    /// The state carries every tile's cell; the board is never read.
    const READS_TILES: bool = false;

    fn name(&self) -> &'static str {
        "pdb"
    }

    fn init(&self, tiles: &[u8]) -> PdbState {
        let mut st = PdbState {
            pos: [0; MAX_CELLS],
            h: [0; MAX_GROUPS],
            hm: [0; MAX_GROUPS],
            sum: 0,
            msum: 0,
        };
        for (cell, &t) in tiles.iter().enumerate() {
            st.pos[usize::from(t)] = cell as u8;
        }
        for g in 0..self.dbs.len() {
            st.h[g] = self.group_value(g, &st.pos);
            st.sum += u16::from(st.h[g]);
            if let Some(m) = &self.mirror {
                st.hm[g] = self.mirror_value(m, g, &st.pos);
                st.msum += u16::from(st.hm[g]);
            }
        }
        st
    }

    #[inline]
    fn value(&self, st: &PdbState) -> u32 {
        u32::from(st.sum.max(st.msum))
    }

    #[inline]
    fn update(&self, st: &PdbState, tiles: &[u8], tile: u8, from: usize, to: usize) -> PdbState {
        self.update_bounded(st, tiles, tile, from, to, u32::MAX)
    }

    /// Looks the reflected position up only when the plain sum does not
    /// already exceed `limit` (then the node is pruned whatever the
    /// reflection says).
    #[inline]
    fn update_bounded(
        &self,
        st: &PdbState,
        _tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        limit: u32,
    ) -> PdbState {
        let mut s = *st;
        let t = usize::from(tile);
        s.pos[t] = to as u8;
        // The blank went from `to` to `from`. For every other group both
        // cells are free of its tiles and adjacent, so the blank's region
        // (and a zero-aware value) is unchanged: only the moved tile's
        // group is looked up again.
        s.pos[0] = from as u8;
        let g = usize::from(self.group_of[t]);
        let v = self.group_value(g, &s.pos);
        s.sum = s.sum - u16::from(s.h[g]) + u16::from(v);
        s.h[g] = v;
        if let Some(m) = &self.mirror {
            if u32::from(s.sum) > limit {
                // pruned anyway; make sure the value says so
                s.msum = 0;
                return s;
            }
            let g = usize::from(m.group_of_moved[t]);
            let v = self.mirror_value(m, g, &s.pos);
            s.msum = s.msum - u16::from(s.hm[g]) + u16::from(v);
            s.hm[g] = v;
        }
        s
    }
}
