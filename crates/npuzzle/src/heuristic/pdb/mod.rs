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
mod cache;
mod covers;
pub mod colour;
mod entry;
mod estimate;
mod heuristic;
mod lookup;
mod model;
pub mod store;
mod verify;

#[cfg(any(test, feature = "internals"))]
pub use cache::forget_loaded;
pub use cache::{is_cached, load_or_build, PdbCache};
pub use estimate::{branching_factor, Estimator};
pub use covers::{CoverHeuristic, MAX_COVER_DATABASES};
pub use heuristic::{reflection_applies, PdbHeuristic};
#[cfg(feature = "internals")]
pub use covers::CoverState;
#[cfg(feature = "internals")]
pub use heuristic::{PdbState, PdbTouched};
pub use lookup::db::PatternDb;
pub use model::partition::{PartitionError, PartitionSpec};
pub use verify::{verify, Verdict};

use crate::board::{Board, Shape};
use std::path::PathBuf;
use std::sync::Arc;
use thiserror::Error;

/// Largest board a pattern-database heuristic handles (its state keeps one
/// byte per cell).
pub const MAX_CELLS: usize = 64;
/// Most groups in one partition.
pub const MAX_GROUPS: usize = 16;
/// Most partitions besides the first ([`PdbOptions::also`]) when their
/// sums are maxed.
pub const MAX_ALSO: usize = 3;
/// Most partitions in all when they are combined by their covers
/// ([`Combine::Covers`]).
pub const MAX_COVER_PARTITIONS: usize = 64;
/// Most tiles in one group (a larger group would not fit in memory anyway).
pub const MAX_GROUP_TILES: usize = 16;
/// Default cap on one group's placements (`n!/(n−k)!`, a byte each unless
/// zero-aware): 2^30. 7-8 on 4×4 needs 519 M; 6-tile groups on 5×5 need
/// 128 M each.
pub const DEFAULT_MAX_ENTRIES: u64 = 1 << 30;

/// Why pattern databases cannot be had for a goal.
///
/// ```
/// use npuzzle::pdb::{build, PartitionError, PdbError, PdbOptions};
/// use npuzzle::{Board, Budget, Shape};
///
/// // 81 cells: beyond the 64 a pattern-database heuristic handles.
/// let opts = PdbOptions::default().with_cache(false);
/// let big = Board::blank_last(Shape::new(9, 9))?;
/// let err = build(&big, &opts, &(), &Budget::default()).unwrap_err();
/// assert!(matches!(err, PdbError::BoardTooBig(_)));
/// // 4 + 3 tiles do not cover the 8-puzzle's 8.
/// let opts = opts.with_partition("4-3".parse()?);
/// let err = build(&Board::blank_last(Shape::new(3, 3))?, &opts, &(), &Budget::default());
/// assert!(matches!(err, Err(PdbError::Partition(PartitionError::WrongTotal { .. }))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Error)]
pub enum PdbError {
    /// The partition asked for is malformed, does not cover the board's
    /// tiles, or has a group too big for the entry cap.
    #[error(transparent)]
    Partition(#[from] PartitionError),
    /// The board (this shape) has more than 64 cells.
    #[error("pattern databases support boards of at most {MAX_CELLS} cells, not {0}")]
    BoardTooBig(Shape),
    /// The partition has this many groups, more than 16.
    #[error("a partition of at most {MAX_GROUPS} groups is needed, not {0}")]
    TooManyGroups(usize),
    /// A group has this many tiles, more than 16.
    #[error("groups of at most {MAX_GROUP_TILES} tiles are supported, not {0}")]
    GroupTooBig(usize),
    /// A colouring of the board (for the multi-tile metric) has more
    /// arrangements than the entry cap allows.
    #[error("{colouring} has {entries} arrangements, over the cap of {limit} (use fewer colours)")]
    ColoursTooMany {
        /// The colouring, `colours 3-4-4-4`.
        colouring: String,
        /// Its arrangements, as text (it may not fit a `u64`).
        entries: String,
        /// The cap on entries.
        limit: u64,
    },
    /// More partitions were given than can be combined: four maxed, or
    /// 64 by their covers.
    #[error("at most {most} partitions can be maxed (up to {MAX_COVER_PARTITIONS} combined by their covers), not {0}", most = MAX_ALSO + 1)]
    TooManyPartitions(usize),
    /// The partitions combined by their covers name more distinct groups
    /// than can be looked up.
    #[error("at most {most} distinct groups can be combined by their covers, not {0}", most = MAX_COVER_DATABASES)]
    TooManyDatabases(usize),
    /// The groups split the tiles in more ways than the estimate can sum.
    #[error("the groups cover the tiles in more than {0} ways; give fewer partitions")]
    TooManyCovers(usize),
    /// The dual lookups were asked for with databases of one bit an entry,
    /// which give a value only one move after a known one.
    #[error("the dual lookups need databases of four bits an entry, not one bit an entry")]
    DualCompact,
    /// A build was stopped by a budget or the cancel flag; nothing of it
    /// is kept.
    #[error("building the database for tiles {tiles} stopped: {}", match interrupt {
        crate::budget::Interrupt::Cancelled => "cancelled".to_string(),
        crate::budget::Interrupt::Limit(l) => format!("its {l} ({value}) ran out"),
    })]
    Stopped {
        /// The group's tiles, `1,2,3`.
        tiles: String,
        /// What stopped it.
        interrupt: crate::budget::Interrupt,
        /// The budget's value, as given.
        value: String,
    },
    /// Loading or building a database needs more memory than the byte
    /// budget allows; refused before anything was allocated.
    #[error("the database for tiles {tiles} needs {}, over the memory budget of {}", crate::system::Bytes::from(*needed), crate::system::Bytes::from(*budget))]
    Memory {
        /// The group's tiles, `1,2,3`.
        tiles: String,
        /// Bytes needed.
        needed: u64,
        /// The byte budget.
        budget: u64,
    },
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

    /// Whether a budget stopped or refused the work (rather than the
    /// request being wrong).
    pub fn is_budget(&self) -> bool {
        matches!(
            self,
            PdbError::Memory { .. }
                | PdbError::Stopped {
                    interrupt: crate::budget::Interrupt::Limit(_),
                    ..
                }
        )
    }

    /// Whether the work was cancelled from outside.
    pub fn is_cancelled(&self) -> bool {
        matches!(
            self,
            PdbError::Stopped {
                interrupt: crate::budget::Interrupt::Cancelled,
                ..
            }
        )
    }
}

/// How to get databases: which partition, where the cache lives.
///
/// ```
/// use npuzzle::pdb::PdbOptions;
/// use npuzzle::{parse_board, Algorithm, HeuristicKind, Problem, SolveOptions};
///
/// // The 8-puzzle's databases in two groups of four tiles, in memory only.
/// let pdb = PdbOptions::default().with_partition("4-4".parse()?).with_cache(false);
/// let opts = SolveOptions::default()
///     .with_algorithm(Algorithm::Idastar)
///     .with_heuristic(HeuristicKind::Pdb)
///     .with_pdb(pdb);
/// let start = parse_board("8 6 7 2 5 4 3 0 1", None)?;
/// let goal = parse_board("1 2 3 4 5 6 7 8 0", None)?;
/// let answer = npuzzle::solve(&Problem::new(start, goal)?, &opts)?;
/// assert_eq!((answer.moves, answer.heuristic), (Some(31), Some("pdb")));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct PdbOptions {
    /// Which tiles share a database (`auto`: the board's default).
    pub partition: PartitionSpec,
    /// More partitions: the heuristic is then the largest of the
    /// partitions' bounds, or of their covers' ([`PdbOptions::combine`]).
    pub also: Vec<PartitionSpec>,
    /// How several partitions are combined.
    pub combine: Combine,
    /// Cache directory; `None` for the default ([`store::default_dir`]).
    pub dir: Option<PathBuf>,
    /// Read and write the disk cache (off: build in memory only).
    pub use_cache: bool,
    /// Refuse groups with more placements (`n!/(n−k)!`) than this.
    pub max_entries: u64,
    /// Use the reflection lookup where the goal allows it.
    pub reflect: bool,
    /// Also look the dual position up (and its reflection), as a second
    /// opinion for IDA*.
    pub dual: bool,
    /// Whether databases keep one value per region of the blank.
    pub blank: BlankMode,
    /// Whether the search asks for values of positions met without their
    /// parent (A* evaluates each node it takes from its queue afresh):
    /// then `BlankMode::Auto` keeps whole values, as one-bit databases
    /// would walk to the goal for every such value.
    pub whole_values: bool,
    /// Who hears about builds and damaged cache files (nobody if `None`).
    pub reporter: Option<SharedReporter>,
    /// Where loaded databases are kept in memory (by default the
    /// process-wide cache, [`PdbCache::global`]).
    pub cache: Arc<PdbCache>,
    /// Most bytes the disk cache may hold; a database that would pass it
    /// is used from memory and not saved.
    pub max_disk: Option<u64>,
}

/// How the estimates of several partitions are combined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Combine {
    /// Maxed up to four partitions, by their covers above.
    #[default]
    Auto,
    /// The largest of the partitions' sums (each with its reflection):
    /// the fastest a node, with at most four partitions.
    Max,
    /// The largest sum over every exact cover of the tiles by the
    /// partitions' groups and their transposes: at least as large as the
    /// maximum, and larger where groups of different partitions combine,
    /// at more lookups a node.
    Covers,
}

impl Combine {
    /// Every mode, in the order `--help` lists them.
    pub const ALL: [Combine; 3] = [Combine::Auto, Combine::Max, Combine::Covers];

    /// The name the command line takes.
    pub fn name(self) -> &'static str {
        match self {
            Combine::Auto => "auto",
            Combine::Max => "max",
            Combine::Covers => "covers",
        }
    }
}

impl std::str::FromStr for Combine {
    type Err = String;

    fn from_str(s: &str) -> Result<Combine, String> {
        let l = s.trim().to_ascii_lowercase();
        Combine::ALL
            .into_iter()
            .find(|c| c.name() == l)
            .ok_or_else(|| {
                format!(
                    "'{}' is not a way to combine partitions; use auto, max or covers",
                    crate::board::printable(s)
                )
            })
    }
}

/// How much of the blank a database keeps.
///
/// ```
/// use npuzzle::pdb::{BlankMode, PdbOptions};
///
/// assert_eq!("zero-aware".parse::<BlankMode>()?, BlankMode::Regions);
/// // One bit an entry is the compact form; the minimum over regions is not.
/// let bits = PdbOptions::default().with_blank(BlankMode::Bits);
/// assert!(bits.compact());
/// assert!(!bits.with_blank(BlankMode::Min).compact());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BlankMode {
    /// Zero-aware at one bit an entry (as `Bits`) wherever that takes no
    /// more memory than the minimum over the blank's regions, else the
    /// minimum. With the dual lookups, which need whole values: zero-aware
    /// at half a byte where that costs at most 256 MiB per
    /// database, else the minimum.
    #[default]
    Auto,
    /// Always the minimum over the blank's regions (smallest, weakest).
    Min,
    /// Always one value per region of the blank ("zero-aware").
    Regions,
    /// Zero-aware, kept in memory at one bit an entry (a quarter of
    /// `Regions`, the same values; see `compact.rs`). The files on disk
    /// are those of `Regions`. Not with the dual lookups.
    Bits,
}

impl std::str::FromStr for BlankMode {
    type Err = String;

    fn from_str(s: &str) -> Result<BlankMode, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(BlankMode::Auto),
            "min" | "blank-free" => Ok(BlankMode::Min),
            "regions" | "zero-aware" | "blank-aware" => Ok(BlankMode::Regions),
            "bits" | "1bit" | "compact" => Ok(BlankMode::Bits),
            _ => Err(format!(
                "'{}' is not a blank mode; use auto, min, regions or bits",
                crate::board::printable(s)
            )),
        }
    }
}

/// Largest zero-aware database `BlankMode::Auto` builds with the dual
/// lookups, in bytes (half a byte per (placement, region of the blank)),
/// on boards of at most 16 cells: 6-tile groups on 4×4 (9 MB) and the
/// 7-tile half of 7-8 (70 MB) qualify; the 8-tile half of 7-8 (713 MB,
/// against 260 MB for its minimum over regions) keeps the minimum, so that
/// 7-8 loads in 330 MB. Larger boards keep the minimum there.
pub const ZERO_AWARE_MAX_BYTES: u64 = 256 << 20;

/// A reporter shared between threads.
///
/// ```
/// use npuzzle::pdb::{PdbOptions, PdbReporter, SharedReporter};
/// use npuzzle::{parse_board, HeuristicKind, Problem, SolveOptions};
/// use std::sync::{atomic::{AtomicUsize, Ordering}, Arc};
///
/// struct Builds(AtomicUsize); // counts the databases built
/// impl PdbReporter for Builds {
///     fn building(&self, _: &str, _: u64) { self.0.fetch_add(1, Ordering::Relaxed); }
/// }
/// let builds = Arc::new(Builds(AtomicUsize::new(0)));
/// let pdb = PdbOptions::default()
///     .with_cache(false)
///     .with_reporter(Some(SharedReporter(builds.clone())));
/// let opts = SolveOptions::default().with_heuristic(HeuristicKind::Pdb).with_pdb(pdb);
/// let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
/// let goal = parse_board("1 2 3 / 8 0 4 / 7 6 5", None)?;
/// assert_eq!(npuzzle::solve(&Problem::new(start, goal)?, &opts)?.moves, Some(5));
/// assert!(builds.0.load(Ordering::Relaxed) > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
            also: Vec::new(),
            combine: Combine::Auto,
            dir: None,
            use_cache: true,
            max_entries: DEFAULT_MAX_ENTRIES,
            reflect: true,
            dual: false,
            blank: BlankMode::Auto,
            whole_values: false,
            reporter: None,
            cache: PdbCache::global().clone(),
            max_disk: None,
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

    /// With or without the dual lookups.
    pub fn with_dual(mut self, dual: bool) -> PdbOptions {
        self.dual = dual;
        self
    }

    /// With or without the reflected lookup.
    pub fn with_reflect(mut self, reflect: bool) -> PdbOptions {
        self.reflect = reflect;
        self
    }

    /// For a search that asks for values of positions met without their
    /// parent ([`PdbOptions::whole_values`]).
    pub fn with_whole_values(mut self, whole: bool) -> PdbOptions {
        self.whole_values = whole;
        self
    }

    /// Keeping the blank's regions or not.
    pub fn with_blank(mut self, blank: BlankMode) -> PdbOptions {
        self.blank = blank;
        self
    }

    /// Keeping loaded databases in `cache`.
    pub fn with_memory_cache(mut self, cache: Arc<PdbCache>) -> PdbOptions {
        self.cache = cache;
        self
    }

    /// Saving to the disk cache only while it holds at most `bytes`.
    pub fn with_max_disk(mut self, bytes: Option<u64>) -> PdbOptions {
        self.max_disk = bytes;
        self
    }

    /// Telling `reporter` about builds and damaged files.
    pub fn with_reporter(mut self, reporter: Option<SharedReporter>) -> PdbOptions {
        self.reporter = reporter;
        self
    }

    /// Whether zero-aware databases are kept at one bit an entry: asked
    /// for, or by default where neither the dual lookups nor the search
    /// need whole values.
    pub fn compact(&self) -> bool {
        match self.blank {
            BlankMode::Bits => true,
            BlankMode::Auto => !self.dual && !self.whole_values,
            BlankMode::Min | BlankMode::Regions => false,
        }
    }

    /// With more partitions, whose bounds are maxed with the first's.
    pub fn with_also(mut self, also: Vec<PartitionSpec>) -> PdbOptions {
        self.also = also;
        self
    }

    /// Combining several partitions as `combine` says.
    pub fn with_combine(mut self, combine: Combine) -> PdbOptions {
        self.combine = combine;
        self
    }

    /// Whether the partitions are combined by their covers: asked for, or
    /// by default when there are more than four.
    pub fn by_covers(&self) -> bool {
        match self.combine {
            Combine::Max => false,
            Combine::Covers => true,
            Combine::Auto => self.also.len() > MAX_ALSO,
        }
    }

    /// The options of the next partition, if any: the same, with its
    /// partition and those after it.
    pub fn also_options(&self) -> Option<PdbOptions> {
        let (first, rest) = self.also.split_first()?;
        Some(
            self.clone()
                .with_partition(first.clone())
                .with_also(rest.to_vec()),
        )
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
///
/// ```
/// use npuzzle::pdb::{build, PdbCache, PdbOptions, PdbReporter};
/// use npuzzle::{Board, Budget, Shape};
/// use std::sync::{atomic::{AtomicUsize, Ordering}, Arc};
///
/// struct Built(AtomicUsize); // counts the builds finished
/// impl PdbReporter for Built {
///     fn built(&self, _: &str, _: f64) { self.0.fetch_add(1, Ordering::Relaxed); }
/// }
/// let goal = Board::blank_last(Shape::new(3, 3))?;
/// let opts = PdbOptions::default()
///     .with_partition("4-4".parse()?)
///     .with_cache(false)
///     .with_memory_cache(Arc::new(PdbCache::new(u64::MAX))); // empty: both are built
/// let built = Built(AtomicUsize::new(0));
/// build(&goal, &opts, &built, &Budget::default())?;
/// assert_eq!(built.0.load(Ordering::Relaxed), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait PdbReporter: Sync {
    /// A one-line notice (a corrupt cache file being rebuilt, …).
    fn note(&self, _msg: &str) {}
    /// A build starts: what it is (`tiles 1,2,3`, `colours 3-4-4-4`) and
    /// its size in entries.
    fn building(&self, _what: &str, _entries: u64) {}
    /// Progress of the current build.
    fn layer(&self, _depth: u32, _reached: u64, _total: u64) {}
    /// The current build has finished.
    fn built(&self, _what: &str, _seconds: f64) {}
    /// A database was built but could not be saved to the cache: it is
    /// used from memory (and built again next time).
    fn unsaved(&self, error: &PdbError) {
        self.note(&format!(
            "{error}; using the database from memory (it will be built again next time)"
        ));
    }
}

impl PdbReporter for () {}

/// Whether a group of `k` tiles on `shape` keeps one value per region of
/// the blank under `mode`; `compact`: whether it would be kept at one bit
/// an entry ([`PdbOptions::compact`]).
fn zero_aware(shape: Shape, k: usize, mode: BlankMode, compact: bool) -> bool {
    match mode {
        BlankMode::Min => false,
        BlankMode::Regions | BlankMode::Bits => true,
        // at one bit an entry, wherever that takes no more memory than the
        // minimum's half a byte (at most four regions a placement on
        // average: 2.7 for the 8-tile half of 7-8, 1.4 for 6 tiles on 5×5)
        BlankMode::Auto if compact => {
            let n = shape.cells();
            match (
                crate::rank::partial_count(n, k),
                model::indexing::state_count(shape, k, true),
            ) {
                (Some(placements), Some(states)) => states <= placements.saturating_mul(4),
                _ => false,
            }
        }
        BlankMode::Auto => {
            let n = shape.cells();
            if n > 16 {
                return false;
            }
            let Some(placements) = crate::rank::partial_count(n, k) else {
                return false;
            };
            // every placement has a region, and at most n − k of them:
            // count them exactly only in between
            let bytes = |entries: u64| entries.div_ceil(2);
            if bytes(placements) > ZERO_AWARE_MAX_BYTES {
                false
            } else if bytes(placements.saturating_mul((n - k) as u64)) <= ZERO_AWARE_MAX_BYTES {
                true
            } else {
                model::indexing::state_count(shape, k, true)
                    .is_some_and(|s| bytes(s) <= ZERO_AWARE_MAX_BYTES)
            }
        }
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
    /// Whether zero-aware databases are kept at one bit an entry.
    pub compact: bool,
    /// The next partition's layout ([`PdbOptions::also`]).
    pub also: Option<Box<PdbLayout>>,
    /// Whether the partitions are combined by their covers
    /// ([`PdbOptions::by_covers`]) rather than maxed.
    pub covers: bool,
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
        let most = if opts.by_covers() {
            MAX_COVER_PARTITIONS - 1
        } else {
            MAX_ALSO
        };
        if opts.also.len() > most {
            return Err(PdbError::TooManyPartitions(opts.also.len() + 1));
        }
        let groups = model::partition::resolve(&opts.partition, goal, opts.max_entries)?;
        if groups.len() > MAX_GROUPS {
            return Err(PdbError::TooManyGroups(groups.len()));
        }
        if let Some(g) = groups.iter().find(|g| g.len() > MAX_GROUP_TILES) {
            return Err(PdbError::GroupTooBig(g.len()));
        }
        let zero_aware = groups
            .iter()
            .map(|g| zero_aware(shape, g.len(), opts.blank, opts.compact()))
            .collect();
        Ok(PdbLayout {
            groups,
            zero_aware,
            reflect: opts.reflect && reflection_applies(goal),
            compact: opts.compact(),
            also: match opts.also_options() {
                Some(o) => Some(Box::new(PdbLayout::resolve(goal, &o)?)),
                None => None,
            },
            covers: opts.by_covers() && !opts.also.is_empty(),
        })
    }

    /// `pdb 6-6-3 zero-aware + reflection`, for reports; with a second
    /// partition, `…, max with pdb …`, or `… and 11 more partitions, by
    /// their covers`.
    pub fn label(&self) -> String {
        match &self.also {
            Some(_) if self.covers => format!(
                "{} and {} more partition{}, by their covers",
                self.own_label(),
                self.partitions() - 1,
                if self.partitions() == 2 { "" } else { "s" }
            ),
            Some(a) => format!("{}, max with {}", self.own_label(), a.own_label()),
            None => self.own_label(),
        }
    }

    /// How many partitions: this one and those after it.
    pub fn partitions(&self) -> usize {
        1 + self.also.as_ref().map_or(0, |a| a.partitions())
    }

    fn own_label(&self) -> String {
        let sizes: Vec<String> = self.groups.iter().map(|g| g.len().to_string()).collect();
        let aware = self.zero_aware.iter().filter(|&&z| z).count();
        format!(
            "pdb {}{}{}",
            sizes.join("-"),
            match aware {
                0 => "",
                a if a == self.groups.len() && self.compact => " zero-aware (1 bit)",
                a if a == self.groups.len() => " zero-aware",
                _ => " (partly zero-aware)",
            },
            if self.reflect { " + reflection" } else { "" }
        )
    }
}

/// What [`build`] made ready: the heuristic's label and one entry per
/// database, in the partition's order.
///
/// ```
/// use npuzzle::pdb::{build, PdbOptions};
/// use npuzzle::{Board, Budget, Shape};
///
/// let goal = Board::blank_last(Shape::new(2, 3))?;
/// let opts = PdbOptions::default().with_partition("2-3".parse()?).with_cache(false);
/// let built = build(&goal, &opts, &(), &Budget::default())?;
/// assert_eq!(built.label, "pdb 2-3 zero-aware (1 bit)");
/// assert_eq!(built.databases.len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Built {
    /// `pdb 6-6-3 zero-aware + reflection`, as the planner reports it.
    pub label: String,
    /// The databases, one per group, in the partition's order.
    pub databases: Vec<BuiltDb>,
}

/// One database [`build`] made ready.
///
/// ```
/// use npuzzle::pdb::{build, BlankMode, PdbOptions};
/// use npuzzle::{Board, Budget, Shape};
///
/// let goal = Board::blank_last(Shape::new(3, 3))?;
/// let opts = PdbOptions::default()
///     .with_partition("1,2,3,4/5,6,7,8".parse()?)
///     .with_blank(BlankMode::Min) // one entry per placement of the tiles
///     .with_cache(false);
/// let db = &build(&goal, &opts, &(), &Budget::default())?.databases[0];
/// assert_eq!(db.tiles, [1, 2, 3, 4]);
/// assert_eq!(db.entries, 9 * 8 * 7 * 6);
/// assert!(db.max > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BuiltDb {
    /// The group's tiles, sorted.
    pub tiles: Vec<u8>,
    /// Entries held.
    pub entries: u64,
    /// The largest value in the database's definition.
    pub max: u8,
}

/// Loads `goal`'s databases for `opts` from the cache, or builds (and,
/// when `opts` caches, saves) them, exactly as a search would: what
/// `npuzzle pdb build` runs ahead of time, so that a later search starts at
/// once. A database that could not be saved is reported through
/// `reporter` and is no error here.
///
/// ```
/// use npuzzle::pdb::{build, PdbOptions};
/// use npuzzle::{Board, Budget, Shape};
///
/// let goal = Board::blank_last(Shape::new(2, 3))?;
/// let opts = PdbOptions::default().with_cache(false);
/// let built = build(&goal, &opts, &(), &Budget::default())?;
/// assert!(built.label.starts_with("pdb"));
/// assert!(built.databases.iter().all(|db| db.entries > 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn build(
    goal: &Board,
    opts: &PdbOptions,
    reporter: &dyn PdbReporter,
    budget: &crate::budget::Budget,
) -> Result<Built, PdbError> {
    let h = PdbHeuristic::new(goal, opts, reporter, budget)?;
    Ok(Built {
        label: h.label().to_string(),
        databases: h
            .databases()
            .iter()
            .map(|db| BuiltDb {
                tiles: db.tiles().to_vec(),
                entries: db.entries() as u64,
                max: db.max_value(),
            })
            .collect(),
    })
}
