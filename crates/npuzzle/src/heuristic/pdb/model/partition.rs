//! Partitions of a goal's tiles into disjoint groups.
//!
//! A partition is chosen by *goal cells*: a layout assigns each cell of the
//! board to a group, and a group's tiles are the tiles whose goal cell it
//! holds (the goal's blank cell belongs to no group). The named layouts are
//! drawn with the blank in the top-left corner; for a goal whose blank is
//! elsewhere the layout is flipped so that its corner lies nearest the
//! blank, and the blank's cell simply drops out of its group.

use crate::board::{Board, Shape};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// What is wrong with a partition.
///
/// ```
/// use npuzzle::pdb::{PartitionError, PartitionSpec};
/// use npuzzle::{Board, Shape};
///
/// assert!(matches!("6-x".parse::<PartitionSpec>(), Err(PartitionError::Syntax(_))));
/// // 4 + 3 tiles do not cover the 8-puzzle's 8.
/// let goal = Board::blank_last(Shape::new(3, 3))?;
/// let err = PartitionSpec::Sizes(vec![4, 3]).groups(&goal, 1 << 20).unwrap_err();
/// assert!(matches!(err, PartitionError::WrongTotal { got: 7, want: 8, .. }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PartitionError {
    /// The text (held here) is neither `auto`, group sizes (`6-6-3`) nor
    /// tile groups (`1,2,3/4,5,6,7,8`).
    #[error("'{0}' is not a partition: use a name such as 7-8, 6-6-3, 5-5-5, 6-6-6-6, group sizes like 4-4, or tile groups like 1,2,3/4,5,6,7,8")]
    Syntax(String),
    /// The groups do not hold exactly the board's tiles.
    #[error("the partition has {got} tiles but a {shape} board has {want}")]
    WrongTotal {
        /// Tiles the groups hold.
        got: usize,
        /// Tiles of the board: its cells less the blank.
        want: usize,
        /// The board's shape.
        shape: Shape,
    },
    /// A tile (held here) is the blank `0`, not on the board, or in two
    /// groups.
    #[error("tile {0} is in two groups or out of range")]
    BadTile(usize),
    /// A group has more placements than the entry cap allows.
    #[error("a group of {size} tiles on a {shape} board needs {entries} entries, more than the {limit} allowed (use smaller groups)")]
    TooBig {
        /// Tiles in the group.
        size: usize,
        /// The board's shape.
        shape: Shape,
        /// The group's placements, `n!/(n−k)!`, as text (it may not fit a
        /// `u64`).
        entries: String,
        /// The cap on one group's placements.
        limit: u64,
    },
}

/// How the user names a partition.
///
/// ```
/// use npuzzle::pdb::PartitionSpec;
/// use npuzzle::{Board, Shape};
///
/// let spec: PartitionSpec = "4-4".parse()?;
/// assert_eq!(spec, PartitionSpec::Sizes(vec![4, 4]));
/// let goal = Board::blank_last(Shape::new(3, 3))?;
/// assert_eq!(spec.groups(&goal, 1 << 20)?, [[5, 6, 7, 8], [1, 2, 3, 4]]);
/// // Tile groups, written out; and the 15-puzzle's default.
/// assert_eq!("1,2,3/4,5,6,7,8".parse::<PartitionSpec>()?.to_string(), "1,2,3/4,5,6,7,8");
/// assert_eq!(PartitionSpec::auto_sizes(Shape::new(4, 4), 1 << 30), [6, 6, 3]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartitionSpec {
    /// The default for the board: 6-6-3 on 4×4, 6-6-6-6 on 5×5, automatic
    /// elsewhere.
    Auto,
    /// Group sizes such as `7-8` or `6-6-3`: the named layout where one
    /// exists for the board, else cells in reading order.
    Sizes(Vec<usize>),
    /// Explicit tile groups: `1,2,3/4,5,6,7,8`.
    Tiles(Vec<Vec<u8>>),
}

impl PartitionSpec {
    /// The tile groups this spec gives on `goal`, each group's database
    /// at most `max_entries` entries where the sizes are chosen.
    pub fn groups(&self, goal: &Board, max_entries: u64) -> Result<Vec<Vec<u8>>, PartitionError> {
        resolve(self, goal, max_entries)
    }

    /// The group sizes `Auto` picks on a board of `shape` (see
    /// [`PartitionSpec::groups`]).
    pub fn auto_sizes(shape: Shape, max_entries: u64) -> Vec<usize> {
        default_sizes(shape, max_entries)
    }
}

impl fmt::Display for PartitionSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartitionSpec::Auto => f.write_str("auto"),
            PartitionSpec::Sizes(s) => {
                let parts: Vec<String> = s.iter().map(ToString::to_string).collect();
                f.write_str(&parts.join("-"))
            }
            PartitionSpec::Tiles(groups) => {
                let parts: Vec<String> = groups
                    .iter()
                    .map(|g| {
                        g.iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join(",")
                    })
                    .collect();
                f.write_str(&parts.join("/"))
            }
        }
    }
}

impl FromStr for PartitionSpec {
    type Err = PartitionError;

    /// `auto` (or `default`); group sizes joined by `-` or `+`; or tile
    /// groups, tiles separated by `,` or spaces and groups by `/` or `|`.
    fn from_str(text: &str) -> Result<PartitionSpec, PartitionError> {
        let t = text.trim();
        let bad = || PartitionError::Syntax(crate::board::printable(t));
        if t.eq_ignore_ascii_case("auto") || t.eq_ignore_ascii_case("default") {
            return Ok(PartitionSpec::Auto);
        }
        if t.contains([',', '/', '|']) || t.contains(' ') {
            let groups = t
                .split(['/', '|'])
                .map(|g| {
                    g.split([',', ' '])
                        .filter(|s| !s.is_empty())
                        .map(|s| s.parse::<u8>().map_err(|_| bad()))
                        .collect::<Result<Vec<u8>, _>>()
                })
                .collect::<Result<Vec<_>, _>>()?;
            if groups.iter().any(std::vec::Vec::is_empty) {
                return Err(bad());
            }
            return Ok(PartitionSpec::Tiles(groups));
        }
        let sizes = t
            .split(['-', '+'])
            .map(|s| s.parse::<usize>().ok().filter(|&x| x > 0))
            .collect::<Option<Vec<usize>>>()
            .ok_or_else(bad)?;
        Ok(PartitionSpec::Sizes(sizes))
    }
}

/// 4×4 layouts, blank at the top-left (`.`), one letter per group.
const LAYOUT_4X4_78: &str = ".AAA AAAA BBBB BBBB";
/// The 3-tile group along the edge far from the blank: measured on Korf's
/// 100 instances it needs a third of the nodes of the variant with the
/// 3-tile group beside the blank.
const LAYOUT_4X4_663: &str = ".ABB AABB AABB ACCC";
const LAYOUT_4X4_555: &str = ".AAA CAAB CCBB CCBB";
/// Korf & Felner's 6-6-6-6 for the 24-puzzle.
const LAYOUT_5X5_6666: &str = ".AABB AAABB CCABB CCDDD CCDDD";

fn named_layout(shape: Shape, sizes: &[usize]) -> Option<&'static str> {
    match (shape.rows, shape.cols, sizes) {
        (4, 4, [7, 8]) | (4, 4, [8, 7]) => Some(LAYOUT_4X4_78),
        (4, 4, [6, 6, 3]) | (4, 4, [3, 6, 6]) => Some(LAYOUT_4X4_663),
        (4, 4, [5, 5, 5]) => Some(LAYOUT_4X4_555),
        (5, 5, [6, 6, 6, 6]) => Some(LAYOUT_5X5_6666),
        _ => None,
    }
}

/// Cap on one database's entries in an automatic partition.
pub const AUTO_MAX_ENTRIES: u64 = 1 << 24;

/// Default group sizes for a board; `max_entries` bounds each group's
/// database size.
pub fn default_sizes(shape: Shape, max_entries: u64) -> Vec<usize> {
    match (shape.rows, shape.cols) {
        (4, 4) => vec![6, 6, 3],
        (5, 5) => vec![6, 6, 6, 6],
        _ => {
            let n = shape.cells();
            let tiles = n - 1;
            // Automatic groups stay small (at most 16 M entries each) so
            // that they build in seconds.
            let max_entries = max_entries.min(AUTO_MAX_ENTRIES);
            // the largest group size whose database fits
            let mut k = 1;
            while k < tiles
                && crate::rank::partial_count(n, k + 1).is_some_and(|c| c <= max_entries)
            {
                k += 1;
            }
            let groups = tiles.div_ceil(k);
            // spread the tiles evenly over that many groups
            (0..groups)
                .map(|g| tiles / groups + usize::from(g < tiles % groups))
                .collect()
        }
    }
}

/// Turns a spec into tile groups for a goal.
pub fn resolve(
    spec: &PartitionSpec,
    goal: &Board,
    max_entries: u64,
) -> Result<Vec<Vec<u8>>, PartitionError> {
    let shape = goal.shape();
    let n = shape.cells();
    let mut groups = match spec {
        PartitionSpec::Tiles(groups) => groups.clone(),
        PartitionSpec::Auto => cells_to_groups(goal, &default_sizes(shape, max_entries)),
        PartitionSpec::Sizes(sizes) => {
            let total: usize = sizes.iter().sum();
            if total != n - 1 {
                return Err(PartitionError::WrongTotal {
                    got: total,
                    want: n - 1,
                    shape,
                });
            }
            cells_to_groups(goal, sizes)
        }
    };
    for g in &mut groups {
        g.sort_unstable();
    }
    // validate: disjoint, in range, covering every tile
    let mut seen = vec![false; n];
    for &t in groups.iter().flatten() {
        let t = usize::from(t);
        if t == 0 || t >= n || seen[t] {
            return Err(PartitionError::BadTile(t));
        }
        seen[t] = true;
    }
    let total = seen.iter().filter(|&&s| s).count();
    if total != n - 1 {
        return Err(PartitionError::WrongTotal {
            got: total,
            want: n - 1,
            shape,
        });
    }
    for g in &groups {
        let entries = crate::rank::partial_count(n, g.len());
        if entries.is_none_or(|e| e > max_entries) {
            return Err(PartitionError::TooBig {
                size: g.len(),
                shape,
                entries: entries.map_or("more than 2^64".into(), |e| e.to_string()),
                limit: max_entries,
            });
        }
    }
    Ok(groups)
}

/// Assigns goal cells to groups: a named layout when one exists (flipped
/// toward the blank), else cells in reading order from the blank's corner.
fn cells_to_groups(goal: &Board, sizes: &[usize]) -> Vec<Vec<u8>> {
    let shape = goal.shape();
    let (rows, cols) = (shape.rows, shape.cols);
    let b = goal.blank();
    let (br, bc) = (b / cols, b % cols);
    let flip_r = br * 2 >= rows;
    let flip_c = bc * 2 >= cols;
    // cell of the board for layout coordinates (r, c)
    let cell = |r: usize, c: usize| {
        let r = if flip_r { rows - 1 - r } else { r };
        let c = if flip_c { cols - 1 - c } else { c };
        r * cols + c
    };
    if let Some(layout) = named_layout(shape, sizes) {
        let letters: Vec<u8> = layout
            .bytes()
            .filter(|c| !c.is_ascii_whitespace())
            .collect();
        let names: Vec<u8> = {
            let mut v: Vec<u8> = letters.iter().copied().filter(|&c| c != b'.').collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        let mut groups: Vec<Vec<u8>> = vec![Vec::new(); names.len()];
        for r in 0..rows {
            for c in 0..cols {
                let letter = letters[r * cols + c];
                let target = cell(r, c);
                if target == b {
                    continue;
                }
                // the layout's own blank cell joins the group of its right
                // neighbour when the goal's blank is elsewhere
                let letter = if letter == b'.' { letters[1] } else { letter };
                if let Some(g) = names.iter().position(|&x| x == letter) {
                    groups[g].push(goal.tiles()[target]);
                }
            }
        }
        groups.retain(|g| !g.is_empty());
        return groups;
    }
    let mut order = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            let target = cell(r, c);
            if target != b {
                order.push(goal.tiles()[target]);
            }
        }
    }
    let mut groups = Vec::new();
    let mut it = order.into_iter();
    for &s in sizes {
        groups.push(it.by_ref().take(s).collect());
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn korf() -> Board {
        Board::blank_first(Shape::new(4, 4)).unwrap()
    }

    #[test]
    fn named_layouts_on_korf_goal() {
        let g = resolve(&"7-8".parse().unwrap(), &korf(), u64::MAX).unwrap();
        assert_eq!(g, vec![vec![1, 2, 3, 4, 5, 6, 7], (8..16).collect()]);
        let g = resolve(&"6-6-3".parse().unwrap(), &korf(), u64::MAX).unwrap();
        assert_eq!(g.iter().map(Vec::len).collect::<Vec<_>>(), [6, 6, 3]);
        assert_eq!(g[0], vec![1, 4, 5, 8, 9, 12]);
        assert_eq!(g[2], vec![13, 14, 15]);
        let g = resolve(&"5-5-5".parse().unwrap(), &korf(), u64::MAX).unwrap();
        assert_eq!(g.iter().map(Vec::len).collect::<Vec<_>>(), [5, 5, 5]);
        let k24 = Board::blank_first(Shape::new(5, 5)).unwrap();
        let g = resolve(&"6-6-6-6".parse().unwrap(), &k24, u64::MAX).unwrap();
        assert_eq!(g[0], vec![1, 2, 5, 6, 7, 12]);
        assert_eq!(g[1], vec![3, 4, 8, 9, 13, 14]);
        assert_eq!(g[2], vec![10, 11, 15, 16, 20, 21]);
        assert_eq!(g[3], vec![17, 18, 19, 22, 23, 24]);
    }

    #[test]
    fn flipped_for_blank_last() {
        let goal = Board::blank_last(Shape::new(4, 4)).unwrap();
        let g = resolve(&"6-6-3".parse().unwrap(), &goal, u64::MAX).unwrap();
        assert_eq!(g.iter().map(Vec::len).collect::<Vec<_>>(), [6, 6, 3]);
        assert_eq!(g[2], vec![1, 2, 3]);
    }

    #[test]
    fn sizes_tiles_and_errors() {
        let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
        let g = resolve(&"4-4".parse().unwrap(), &goal, u64::MAX).unwrap();
        assert_eq!(g.iter().map(Vec::len).collect::<Vec<_>>(), [4, 4]);
        let g = resolve(&"1,2,3/4,5,6,7,8".parse().unwrap(), &goal, u64::MAX).unwrap();
        assert_eq!(g[0], vec![1, 2, 3]);
        assert!(resolve(&"4-3".parse().unwrap(), &goal, u64::MAX).is_err());
        assert!(resolve(&"1,2/2,3,4,5,6,7,8".parse().unwrap(), &goal, u64::MAX).is_err());
        assert!("x-y".parse::<PartitionSpec>().is_err());
        let big = Board::blank_last(Shape::new(4, 4)).unwrap();
        assert!(matches!(
            resolve(&"15".parse().unwrap(), &big, 1 << 30),
            Err(PartitionError::TooBig { .. })
        ));
        // automatic partitions cover every tile and fit the budget
        for (r, c) in [(3, 4), (3, 5), (4, 5), (6, 6), (8, 8)] {
            let goal = Board::blank_last(Shape::new(r, c)).unwrap();
            let g = resolve(&PartitionSpec::Auto, &goal, 1 << 26).unwrap();
            assert_eq!(g.iter().map(Vec::len).sum::<usize>(), r * c - 1);
        }
    }
}
