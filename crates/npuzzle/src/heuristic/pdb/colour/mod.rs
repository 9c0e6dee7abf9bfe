//! Pattern databases for the multi-tile metric: the whole board with its
//! tiles painted in a few colours.
//!
//! **Why not additive.** In single moves, disjoint databases add up
//! because each move moves one tile of one group. A push moves up to
//! `side − 1` tiles at once, which may belong to several groups: summing
//! the groups' pushes counts that one push several times, so the sum can
//! overestimate. Dividing single-tile databases by `side − 1` is admissible
//! but weak (a third of the estimate on the 15-puzzle).
//!
//! **Colours.** Here one database covers every tile: the goal's cells are
//! painted in colours (compact blocks of the board), a tile takes the
//! colour of its goal cell, and tiles of one colour are told apart no more.
//! The blank keeps a colour of its own. A position maps to the arrangement
//! of colours on the cells, and a push of tiles maps to the same push of
//! colours, so the fewest pushes between arrangements (found by a
//! breadth-first search from the goal's arrangement, in the metric asked
//! for) never exceeds the fewest between positions: an admissible estimate,
//! in either metric, and consistent.
//!
//! **Symmetries.** A symmetry `σ` of the board (a flip, a turn, the
//! transpose) that leaves the goal's blank cell in place maps a position
//! `P` to one exactly as far from the goal: cell `x` goes to `σ(x)` and
//! each tile is renamed to the goal's tile on `σ` of its goal cell (the
//! goal maps to itself, and pushes to pushes). Looking `σ(P)` up in the same
//! database gives another bound; the estimate is the largest.
//!
//! A database depends only on the board, the colours of the cells and the
//! metric, so one serves every goal with its blank on the same cell.

mod build;
mod packed;
mod rank;
pub(crate) mod store;

use self::packed::{Lane, PackedRanker};
pub use self::packed::Packed;
use self::rank::Ranker;
use super::{PartitionSpec, PdbError, PdbOptions};
use crate::board::{Board, Metric, Shape};
use crate::budget::Budget;
use std::sync::{Arc, Mutex, PoisonError};

/// Default cap on a colouring's arrangements (a byte each): 2^28, which
/// admits four colours on the 15-puzzle (252 M arrangements).
pub const DEFAULT_COLOUR_ENTRIES: u64 = 1 << 28;

/// Fewest colours (the blank's not counted, none shared by the tiles left
/// over) for the planner to take a colouring on its own: with fewer, the
/// walking distance is about as strong.
pub const USEFUL_COLOURS: usize = 4;

/// The colour of each goal cell: `0` on the goal's blank cell, `1..` on
/// the others, numbered in reading order of first appearance.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Colouring {
    shape: Shape,
    cells: Vec<u8>,
}

impl Colouring {
    /// From a colour for each cell (any numbering; the blank's cell gets
    /// colour 0).
    fn from_cells(shape: Shape, blank: usize, raw: &[usize]) -> Colouring {
        let mut names: Vec<usize> = Vec::new();
        let cells = (0..shape.cells())
            .map(|c| {
                if c == blank {
                    return 0;
                }
                let i = names.iter().position(|&n| n == raw[c]).unwrap_or_else(|| {
                    names.push(raw[c]);
                    names.len() - 1
                });
                (i + 1) as u8
            })
            .collect();
        Colouring { shape, cells }
    }

    /// Tile groups as colours: each group one colour, the tiles in no group
    /// one more (told apart from nothing but the blank and the groups).
    pub fn from_groups(goal: &Board, groups: &[Vec<u8>]) -> Result<Colouring, PdbError> {
        let n = goal.shape().cells();
        let pos = goal.positions();
        let mut raw = vec![usize::MAX; n];
        for (g, group) in groups.iter().enumerate() {
            for &t in group {
                let t = usize::from(t);
                if t == 0 || t >= n || raw[usize::from(pos[t])] != usize::MAX {
                    return Err(super::PartitionError::BadTile(t).into());
                }
                raw[usize::from(pos[t])] = g;
            }
        }
        Ok(Colouring::from_cells(goal.shape(), goal.blank(), &raw))
    }

    /// The board cut into equal blocks, each a colour, as small as
    /// `max_entries` allows; with `share`, also colourings where only the
    /// blocks farthest from the blank keep their colours and the tiles of
    /// the rest share one. The most arrangements within the cap wins (ties
    /// to flatter blocks). On Korf's first eight 15-puzzles in pushes the
    /// colourings took, in nodes (with the walking distance and the
    /// symmetric lookup): four dominoes far from the blank, the seven tiles
    /// nearest it sharing a colour (259 M arrangements, what this picks),
    /// 4.5 × 10^6; rows, 9.6 × 10^6; quadrants, 3.6 × 10^7; colours of
    /// 2, 4, 5 and 4 tiles (151 M), 7.9 × 10^6. The walking distance alone
    /// takes 1.1 × 10^9 on the first instance, where the first takes 13,070.
    pub fn blocks(shape: Shape, blank: usize, max_entries: u64, share: bool) -> Option<Colouring> {
        let (rows, cols) = (shape.rows, shape.cols);
        let mut best: Option<(u64, usize, Colouring)> = None;
        for bh in 1..=rows {
            for bw in 1..=cols {
                let per_row = cols.div_ceil(bw);
                let block = |c: usize| (c / cols / bh) * per_row + (c % cols) / bw;
                let raw: Vec<usize> = (0..shape.cells()).map(block).collect();
                let whole = Colouring::from_cells(shape, blank, &raw);
                let candidates = if share { whole.trimmed(blank) } else { vec![whole] };
                for c in candidates {
                    let Some(e) = c.entries().filter(|&e| e <= max_entries) else {
                        continue;
                    };
                    // rows before squares before columns
                    let squareness = bh * cols + (cols - bw);
                    let better = best.as_ref().is_none_or(|(be, bs, _)| {
                        e > *be || (e == *be && squareness < *bs)
                    });
                    if better && c.colours() >= 2 {
                        best = Some((e, squareness, c));
                    }
                }
            }
        }
        best.map(|(_, _, c)| c)
    }

    /// This colouring, then the same with fewer colours kept: the colours
    /// nearest the blank's cell merged into one, one more at a time.
    fn trimmed(self, blank: usize) -> Vec<Colouring> {
        let cols = self.shape.cols;
        let dist = |c: usize| (c / cols).abs_diff(blank / cols) + (c % cols).abs_diff(blank % cols);
        let k = self.colours();
        // each colour's distance: its farthest cell from the blank
        let mut far: Vec<(usize, u8)> = (1..=k as u8)
            .map(|col| {
                let d = (0..self.cells.len()).filter(|&c| self.cells[c] == col).map(dist).max();
                (d.unwrap_or(0), col)
            })
            .collect();
        far.sort_by(|a, b| b.cmp(a));
        let mut out = vec![self.clone()];
        for keep in (1..k.saturating_sub(1)).rev() {
            let kept: Vec<u8> = far[..keep].iter().map(|&(_, c)| c).collect();
            let raw: Vec<usize> = self
                .cells
                .iter()
                .map(|&c| if kept.contains(&c) { usize::from(c) } else { usize::MAX })
                .collect();
            out.push(Colouring::from_cells(self.shape, blank, &raw));
        }
        out
    }

    /// Colours, the blank's not counted.
    pub fn colours(&self) -> usize {
        usize::from(self.cells.iter().copied().max().unwrap_or(0))
    }

    /// How many cells of each colour, the blank's first.
    fn counts(&self) -> Vec<u8> {
        let mut counts = vec![0u8; self.colours() + 1];
        for &c in &self.cells {
            counts[usize::from(c)] += 1;
        }
        counts
    }

    /// Arrangements of the colours on the board (the database's entries),
    /// if they fit a `u64`.
    pub fn entries(&self) -> Option<u64> {
        // n! / (c0! c1! …) as a product of binomials, exact at each step
        let mut total: u128 = 1;
        let mut placed: u128 = 0;
        for &c in &self.counts() {
            for i in 1..=u128::from(c) {
                placed += 1;
                total = total.checked_mul(placed)? / i;
            }
        }
        u64::try_from(total).ok()
    }

    /// `colours 3-4-4-4`: the colours' sizes, for reports.
    pub fn label(&self) -> String {
        let sizes: Vec<String> = self.counts()[1..].iter().map(ToString::to_string).collect();
        format!("colours {}", sizes.join("-"))
    }

    /// On a 4x4 whose goal has the blank in a corner, the colouring Tomas
    /// Rokicki found (with the blank bottom right; mirrored for the other
    /// corners): colours of 2, 4, 5 and 4 cells, 151,351,200 arrangements,
    ///
    /// ```text
    /// a a b b
    /// c c b b
    /// c c d d
    /// c d d _
    /// ```
    ///
    /// On 40 random 15-puzzles toward the blank-last goal (seed 77) it
    /// took 2.6 × 10^7 nodes and 5.9 s against 3.6 × 10^7 and 8.5 s for
    /// [`Colouring::blocks`]' 259 M arrangements, on a database half as
    /// large and quicker to build.
    fn corner_4x4(shape: Shape, blank: usize) -> Option<Colouring> {
        const PATTERN: [usize; 16] = [1, 1, 2, 2, 3, 3, 2, 2, 3, 3, 4, 4, 3, 4, 4, 0];
        if (shape.rows, shape.cols) != (4, 4) {
            return None;
        }
        let (br, bc) = (blank / 4, blank % 4);
        if !matches!((br, bc), (0 | 3, 0 | 3)) {
            return None;
        }
        // the pattern's cell for board cell (r, c): flipped so that its
        // blank lands on the goal's
        let raw: Vec<usize> = (0..16)
            .map(|cell| {
                let (r, c) = (cell / 4, cell % 4);
                let r = if br == 3 { r } else { 3 - r };
                let c = if bc == 3 { c } else { 3 - c };
                PATTERN[r * 4 + c]
            })
            .collect();
        Some(Colouring::from_cells(shape, blank, &raw))
    }

    /// The colouring `spec` names for `goal`: `auto` is Rokicki's on a 4x4
    /// with the blank in a corner ([`Colouring::corner_4x4`]), else
    /// [`Colouring::blocks`];
    /// group sizes are the single-tile partition's groups; tile groups are
    /// taken as written, the tiles in none sharing a colour.
    pub fn resolve(goal: &Board, spec: &PartitionSpec, max_entries: u64) -> Result<Colouring, PdbError> {
        let shape = goal.shape();
        let c = match spec {
            PartitionSpec::Auto => Colouring::corner_4x4(shape, goal.blank())
                .filter(|c| c.entries().is_some_and(|e| e <= max_entries))
                .or_else(|| Colouring::blocks(shape, goal.blank(), max_entries, true))
                .ok_or_else(|| {
                PdbError::ColoursTooMany {
                    colouring: format!("every colouring of the {shape} board into blocks"),
                    entries: format!("more than {max_entries}"),
                    limit: max_entries,
                }
            })?,
            PartitionSpec::Tiles(groups) => Colouring::from_groups(goal, groups)?,
            other => {
                let groups = super::model::partition::resolve(other, goal, u64::MAX)?;
                Colouring::from_groups(goal, &groups)?
            }
        };
        let entries = c.entries().filter(|&e| e <= max_entries);
        if entries.is_none() {
            return Err(PdbError::ColoursTooMany {
                colouring: c.label(),
                entries: c.entries().map_or("more than 2^64".to_string(), |e| e.to_string()),
                limit: max_entries,
            });
        }
        Ok(c)
    }
}

/// One database's contents: the fewest moves (in its metric) from each
/// arrangement to the goal's.
#[derive(Debug)]
pub struct ColourDb {
    colouring: Colouring,
    ranker: Ranker,
    /// The same ranks from a word of nibbles, where the board fits one.
    packed: Option<PackedRanker>,
    data: Vec<u8>,
}

/// One lookup: the cell read at each position and each tile's colour.
#[derive(Clone, Debug)]
struct View {
    order: Vec<u8>,
    colour: [u8; 256],
}

/// The colour databases for one goal, ready to estimate positions.
#[derive(Clone, Debug)]
pub struct ColourHeuristic {
    dbs: Vec<(Arc<ColourDb>, Vec<View>)>,
    /// Every lookup on packed words, when all of them can be.
    words: Option<Vec<WordLookup>>,
}

/// Most lookups kept as packed words.
const MAX_WORDS: usize = 4;

/// One lookup on a packed word: where each board cell's colour sits in
/// the word, and each tile's colour.
#[derive(Clone, Debug)]
struct WordLookup {
    db: Arc<ColourDb>,
    /// `4 ×` the nibble of each board cell.
    shift: [u8; 16],
    /// Each tile's colour (tiles below 16).
    colour: [u8; 16],
}

impl WordLookup {
    /// The lane of this lookup, `None` if its database has no packed ranker.
    fn lane(&self) -> Option<Lane<'_>> {
        Some(Lane {
            ranker: self.db.packed.as_ref()?,
            data: &self.db.data,
            shift: self.shift,
            colour: self.colour,
        })
    }

    fn new(db: &Arc<ColourDb>, packed: &PackedRanker, view: &View) -> WordLookup {
        let mut shift = [0u8; 16];
        for (i, &cell) in view.order.iter().enumerate() {
            shift[usize::from(cell)] = (4 * packed.nibble(i)) as u8;
        }
        let mut colour = [0u8; 16];
        colour.copy_from_slice(&view.colour[..16]);
        WordLookup {
            db: db.clone(),
            shift,
            colour,
        }
    }
}

impl ColourHeuristic {
    /// The largest bound over the databases and their symmetric lookups of
    /// the position `tiles`.
    #[cfg(any(test, feature = "internals"))]
    pub fn value(&self, tiles: &[u8]) -> u32 {
        self.value_within(tiles, u32::MAX)
    }

    /// [`ColourHeuristic::value`], but the first lookup above `limit` is
    /// returned at once (a search that prunes above `limit` needs no
    /// more): most nodes of an iteration are pruned by their first lookup,
    /// and each lookup is a rank and a read far into a large table.
    #[inline]
    pub fn value_within(&self, tiles: &[u8], limit: u32) -> u32 {
        let n = tiles.len();
        let mut best = 0;
        for (db, views) in &self.dbs {
            for v in views {
                let r = db
                    .ranker
                    .rank(n, |i| v.colour[usize::from(tiles[usize::from(v.order[i])])]);
                let h = u32::from(db.data[r as usize]);
                if h > limit {
                    return h;
                }
                best = best.max(h);
            }
        }
        best
    }

    #[cfg(any(test, feature = "internals"))]
    /// Each lookup's bound (each database's, the identity lookup first,
    /// then its symmetric ones).
    pub fn parts(&self, tiles: &[u8]) -> Vec<u32> {
        let n = tiles.len();
        let mut out = Vec::new();
        for (db, views) in &self.dbs {
            for v in views {
                let r = db
                    .ranker
                    .rank(n, |i| v.colour[usize::from(tiles[usize::from(v.order[i])])]);
                out.push(u32::from(db.data[r as usize]));
            }
        }
        out
    }

    /// The databases `opts` names (its partition, then its `also`) for
    /// `goal` in `metric`: from memory, the disk cache, or built.
    pub fn load(goal: &Board, metric: Metric, opts: &PdbOptions, budget: &Budget) -> Result<ColourHeuristic, PdbError> {
        let mut dbs = Vec::new();
        let specs = std::iter::once(&opts.partition).chain(&opts.also);
        for spec in specs {
            let colouring = Colouring::resolve(goal, spec, colour_cap(opts))?;
            let db = load_db(&colouring, metric, opts, budget)?;
            let views = views(goal, &db.colouring);
            dbs.push((db, views));
        }
        let words = word_lookups(&dbs);
        Ok(ColourHeuristic { dbs, words })
    }

    /// How many lookups there are, if every one can be made on packed
    /// words (boards of 9 to 16 cells, few colours, at most four lookups);
    /// [`ColourHeuristic::packed`] then gives them.
    pub fn packed_lookups(&self) -> Option<usize> {
        self.words.as_ref().map(Vec::len)
    }

    /// The lookups on packed words, if there are `N` of them
    /// ([`ColourHeuristic::packed_lookups`]): a search keeps a position's
    /// words beside the board ([`Packed::step`]) and reads the entries of
    /// their ranks instead of ranking the board.
    pub fn packed<const N: usize>(&self) -> Option<Packed<'_, N>> {
        let lookups = self.words.as_ref().filter(|l| l.len() == N)?;
        let lanes: Vec<Lane<'_>> = lookups.iter().map(WordLookup::lane).collect::<Option<_>>()?;
        Some(Packed::new(lanes.try_into().ok()?))
    }
}

/// Every lookup of `dbs` on packed words, in their order, if each
/// database has a packed ranker and there are at most [`MAX_WORDS`].
fn word_lookups(dbs: &[(Arc<ColourDb>, Vec<View>)]) -> Option<Vec<WordLookup>> {
    let mut out = Vec::new();
    for (db, views) in dbs {
        let packed = db.packed.as_ref()?;
        for v in views {
            out.push(WordLookup::new(db, packed, v));
        }
    }
    (out.len() <= MAX_WORDS).then_some(out)
}

/// The cap on a colouring's entries: [`DEFAULT_COLOUR_ENTRIES`] unless
/// the options set one of their own.
pub fn colour_cap(opts: &PdbOptions) -> u64 {
    if opts.max_entries == super::DEFAULT_MAX_ENTRIES {
        DEFAULT_COLOUR_ENTRIES
    } else {
        opts.max_entries
    }
}

/// A symmetry of the board: `(r, c, rows, cols)` to the cell's image.
type CellMap = fn(usize, usize, usize, usize) -> (usize, usize);

/// The symmetries of the board that keep the goal's blank cell, each as
/// a lookup of `colouring` (the identity first).
fn views(goal: &Board, colouring: &Colouring) -> Vec<View> {
    let shape = goal.shape();
    let (rows, cols) = (shape.rows, shape.cols);
    let n = shape.cells();
    let pos = goal.positions();
    let blank = goal.blank();
    let square = rows == cols;
    // σ as (r, c) → (r', c')
    let maps: [(bool, CellMap); 8] = [
        (true, |r, c, _, _| (r, c)),
        (true, |r, c, _, w| (r, w - 1 - c)),
        (true, |r, c, h, _| (h - 1 - r, c)),
        (true, |r, c, h, w| (h - 1 - r, w - 1 - c)),
        (square, |r, c, _, _| (c, r)),
        (square, |r, c, h, w| (w - 1 - c, h - 1 - r)),
        (square, |r, c, h, _| (c, h - 1 - r)),
        (square, |r, c, _, w| (w - 1 - c, r)),
    ];
    let mut out = Vec::new();
    for (ok, m) in maps {
        if !ok {
            continue;
        }
        let sigma = |x: usize| {
            let (r, c) = m(x / cols, x % cols, rows, cols);
            r * cols + c
        };
        if sigma(blank) != blank {
            continue;
        }
        let mut order = vec![0u8; n];
        for x in 0..n {
            order[sigma(x)] = x as u8;
        }
        let mut colour = [0u8; 256];
        for t in 1..n {
            colour[t] = colouring.cells[sigma(usize::from(pos[t]))];
        }
        out.push(View { order, colour });
    }
    out
}

/// Databases loaded in this process, most recent last; a few are kept
/// (each goal blank cell and colouring is one, up to 256 MiB).
static LOADED: Mutex<Vec<(store::Key, Arc<ColourDb>)>> = Mutex::new(Vec::new());
const KEEP_LOADED: usize = 3;

/// Saves a built database unless the disk cache (single-tile and colour
/// files together) would grow past its cap; failures are reported, not
/// returned (the database is built and correct).
fn save(dir: &std::path::Path, key: &store::Key, data: &[u8], opts: &PdbOptions, reporter: &dyn super::PdbReporter) {
    if let Some(cap) = opts.max_disk {
        let used = store::disk_used(dir);
        if used + data.len() as u64 > cap {
            reporter.note(&format!(
                "not saving the database for {}: the cache in {} would grow past its cap of {}",
                key.colouring.label(),
                dir.display(),
                crate::system::Bytes::from(cap)
            ));
            return;
        }
    }
    if let Err(source) = store::save(dir, key, data) {
        reporter.unsaved(&PdbError::Save {
            dir: dir.to_path_buf(),
            source,
        });
    }
}

fn load_db(colouring: &Colouring, metric: Metric, opts: &PdbOptions, budget: &Budget) -> Result<Arc<ColourDb>, PdbError> {
    let key = store::Key {
        colouring: colouring.clone(),
        metric,
    };
    // one load or build at a time: a second search wanting it waits and
    // then finds it here
    let mut loaded = LOADED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(i) = loaded.iter().position(|(k, _)| *k == key) {
        let hit = loaded.remove(i);
        let db = hit.1.clone();
        loaded.push(hit);
        return Ok(db);
    }
    let entries = colouring.entries().ok_or(PdbError::BoardTooBig(colouring.shape))?;
    if entries > budget.max_bytes {
        return Err(PdbError::Memory {
            tiles: colouring.label(),
            needed: entries,
            budget: budget.max_bytes,
        });
    }
    let ranker = Ranker::new(&colouring.counts()).ok_or(PdbError::BoardTooBig(colouring.shape))?;
    let dir = opts.cache_dir();
    let reporter = opts.reporter();
    let found = if opts.use_cache {
        match store::load(&dir, &key, entries) {
            Ok(data) => Some(data),
            Err(store::LoadError::Missing) => None,
            Err(e) => {
                reporter.note(&format!("{e}; rebuilding it"));
                None
            }
        }
    } else {
        None
    };
    let data = match found {
        Some(data) => data,
        None => {
            let what = format!("{} ({})", colouring.label(), metric.name());
            reporter.building(&what, entries);
            let t0 = std::time::Instant::now();
            let clock = crate::budget::Clock::new(budget);
            let data = build::build(colouring, &ranker, metric, reporter, &clock).map_err(|interrupt| PdbError::Stopped {
                tiles: colouring.label(),
                interrupt,
                value: match interrupt {
                    crate::budget::Interrupt::Limit(l) => budget.value_of(l),
                    crate::budget::Interrupt::Cancelled => String::new(),
                },
            })?;
            reporter.built(&what, t0.elapsed().as_secs_f64());
            if opts.use_cache {
                save(&dir, &key, &data, opts, reporter);
            }
            data
        }
    };
    let db = Arc::new(ColourDb {
        colouring: colouring.clone(),
        packed: PackedRanker::new(&ranker, colouring.shape.cells()),
        ranker,
        data,
    });
    if loaded.len() >= KEEP_LOADED {
        loaded.remove(0);
    }
    loaded.push((key, db.clone()));
    Ok(db)
}
