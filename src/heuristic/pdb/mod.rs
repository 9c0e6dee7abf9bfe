//! Additive disjoint pattern databases (Korf & Felner 2002), with the
//! reflection lookup across the main diagonal.
//!
//! The tiles are split into disjoint groups; each group's database holds,
//! for every placement of its tiles, the fewest moves *of that group's
//! tiles* needed to bring them home (see [`build`]). Since every move moves
//! one tile, the values of disjoint groups add up to a lower bound.
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

pub mod build;
pub mod partition;
pub mod store;

pub use partition::{PartitionError, PartitionSpec};

use super::Heuristic;
use crate::board::{Board, Shape};
use crate::rank::PartialRanker;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use thiserror::Error;

/// Largest board a pattern-database heuristic handles (its state keeps one
/// byte per cell).
pub const MAX_CELLS: usize = 64;
/// Most groups in one partition.
pub const MAX_GROUPS: usize = 16;
/// Most tiles in one group (a larger group would not fit in memory anyway).
pub const MAX_GROUP_TILES: usize = 16;
/// Default cap on one database's entries (bytes): 1 GiB. 7-8 on 4×4 needs
/// 519 M; 6-tile groups on 5×5 need 128 M each.
pub const DEFAULT_MAX_ENTRIES: u64 = 1 << 30;

#[derive(Debug, Error)]
pub enum PdbError {
    #[error(transparent)]
    Partition(#[from] PartitionError),
    #[error("pattern databases support boards of at most {MAX_CELLS} cells, not {0}")]
    BoardTooBig(Shape),
    #[error("a partition of at most {MAX_GROUPS} groups is needed, not {0}")]
    TooManyGroups(usize),
    #[error("groups of at most {MAX_GROUP_TILES} tiles are supported, not {0}")]
    GroupTooBig(usize),
    #[error("cannot write the pattern database cache in {dir}: {source}")]
    Save {
        dir: PathBuf,
        source: std::io::Error,
    },
}

/// One group's database.
pub struct PatternDb {
    pub key: store::Key,
    ranker: PartialRanker,
    data: Vec<u8>,
}

impl PatternDb {
    /// Value for the group's tiles standing on `cells` (in key order).
    #[inline]
    pub fn get(&self, cells: &[u8]) -> u8 {
        self.data[self.ranker.rank(cells) as usize]
    }

    pub fn entries(&self) -> usize {
        self.data.len()
    }

    pub fn tiles(&self) -> &[u8] {
        &self.key.tiles
    }

    /// The largest value stored.
    pub fn max_value(&self) -> u8 {
        self.data.iter().copied().max().unwrap_or(0)
    }
}

/// How to get databases: which partition, where the cache lives.
#[derive(Clone, Debug)]
pub struct PdbOptions {
    pub partition: PartitionSpec,
    /// Cache directory; `None` for the default (`$XDG_CACHE_HOME/npuzzle`).
    pub dir: Option<PathBuf>,
    /// Read and write the disk cache (off: build in memory only).
    pub use_cache: bool,
    /// Refuse groups whose database would exceed this many entries.
    pub max_entries: u64,
    /// Use the reflection lookup where the goal allows it.
    pub reflect: bool,
    /// Who hears about builds and damaged cache files (nobody if `None`).
    pub reporter: Option<SharedReporter>,
}

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
            reporter: None,
        }
    }
}

impl PdbOptions {
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
}

impl PdbReporter for () {}

struct Layers<'a>(&'a dyn PdbReporter);

impl build::BuildProgress for Layers<'_> {
    fn layer(&self, depth: u32, reached: u64, total: u64) {
        self.0.layer(depth, reached, total)
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
    };
    let ranker = PartialRanker::new(n, tiles.len()).ok_or(PdbError::BoardTooBig(shape))?;
    let entries = ranker.count();
    let dir = opts.cache_dir();
    let memo_key = (key.clone(), dir.clone(), opts.use_cache);
    // Hold the lock while building: two searches in one process wanting the
    // same database build it once.
    let mut memo = loaded().lock().unwrap_or_else(|p| p.into_inner());
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
            let d = build::build(shape, &cells, goal.blank(), &Layers(reporter));
            reporter.built(tiles, t0.elapsed().as_secs_f64());
            if opts.use_cache {
                store::save(&dir, &key, &d).map_err(|source| PdbError::Save {
                    dir: dir.clone(),
                    source,
                })?;
            }
            d
        }
    };
    let db = Arc::new(PatternDb { key, ranker, data });
    memo.insert(memo_key, db.clone());
    Ok(db)
}

/// Drops every database held in memory by this process.
pub fn forget_loaded() {
    loaded().lock().unwrap_or_else(|p| p.into_inner()).clear();
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
        let dbs = groups
            .iter()
            .map(|g| load_or_build(goal, g, opts, reporter))
            .collect::<Result<Vec<_>, _>>()?;
        let mut group_of = vec![u8::MAX; n];
        for (g, tiles) in groups.iter().enumerate() {
            for &t in tiles {
                group_of[usize::from(t)] = g as u8;
            }
        }
        let mirror = (opts.reflect && reflection_applies(goal)).then(|| {
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
        let sizes: Vec<String> = groups.iter().map(|g| g.len().to_string()).collect();
        let label = format!(
            "pdb {}{}",
            sizes.join("-"),
            if mirror.is_some() {
                " + reflection"
            } else {
                ""
            }
        );
        Ok(PdbHeuristic {
            label,
            dbs,
            group_of,
            members: groups,
            mirror,
        })
    }

    /// `pdb 6-6-3 + reflection`, for reports.
    pub fn label(&self) -> &str {
        &self.label
    }

    pub fn databases(&self) -> &[Arc<PatternDb>] {
        &self.dbs
    }

    pub fn reflects(&self) -> bool {
        self.mirror.is_some()
    }

    #[inline]
    fn group_value(&self, g: usize, pos: &[u8; MAX_CELLS]) -> u8 {
        let mut cells = [0u8; MAX_GROUP_TILES];
        let members = &self.members[g];
        for (slot, &t) in cells.iter_mut().zip(members) {
            *slot = pos[usize::from(t)];
        }
        self.dbs[g].get(&cells[..members.len()])
    }

    #[inline]
    fn mirror_value(&self, m: &Mirror, g: usize, pos: &[u8; MAX_CELLS]) -> u8 {
        let mut cells = [0u8; MAX_GROUP_TILES];
        let src = &m.source[g];
        for (slot, &t) in cells.iter_mut().zip(src) {
            *slot = m.cell[usize::from(pos[usize::from(t)])];
        }
        self.dbs[g].get(&cells[..src.len()])
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
    fn update(&self, st: &PdbState, _tiles: &[u8], tile: u8, _from: usize, to: usize) -> PdbState {
        let mut s = *st;
        let t = usize::from(tile);
        s.pos[t] = to as u8;
        let g = usize::from(self.group_of[t]);
        let v = self.group_value(g, &s.pos);
        s.sum = s.sum - u16::from(s.h[g]) + u16::from(v);
        s.h[g] = v;
        if let Some(m) = &self.mirror {
            let g = usize::from(m.group_of_moved[t]);
            let v = self.mirror_value(m, g, &s.pos);
            s.msum = s.msum - u16::from(s.hm[g]) + u16::from(v);
            s.hm[g] = v;
        }
        s
    }
}
