//! How moves are counted: one tile a move (STM) or one push a move (MTM).
//!
//! A path is always held as the blank's single steps ([`Dir`]s); the metric
//! only says how they are counted. In the multi-tile metric a push slides
//! every tile between the blank and a cell of its row or column one cell at
//! once, which is the blank taking several steps in one direction: so a
//! path's MTM length is the number of its runs of equal steps.

use super::Dir;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// How moves are counted.
///
/// ```
/// use npuzzle::{parse_path, Metric};
///
/// let path = parse_path("UULDDR")?;
/// assert_eq!(Metric::Stm.length(&path), 6);
/// assert_eq!(Metric::Mtm.length(&path), 4); // UU, L, DD, R
/// assert_eq!("mtm".parse::<Metric>(), Ok(Metric::Mtm));
/// assert_eq!(Metric::Mtm.to_string(), "mtm");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// Single-tile metric: every tile slid one cell is one move.
    #[default]
    Stm,
    /// Multi-tile metric: sliding a run of tiles of the blank's row or
    /// column one cell, all at once, is one move.
    Mtm,
}

impl Metric {
    /// Every metric, in the order the command line lists them.
    pub const ALL: [Metric; 2] = [Metric::Stm, Metric::Mtm];

    /// `stm` or `mtm`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Stm => "stm",
            Metric::Mtm => "mtm",
        }
    }

    /// What the metric counts, for people.
    pub fn describe(self) -> &'static str {
        match self {
            Metric::Stm => "single-tile moves",
            Metric::Mtm => "multi-tile moves",
        }
    }

    /// The length of `path` (the blank's steps) in this metric.
    pub fn length(self, path: &[Dir]) -> usize {
        match self {
            Metric::Stm => path.len(),
            Metric::Mtm => runs(path).count(),
        }
    }

    /// The most a single move of this metric can lower the sum of the
    /// tiles' Manhattan distances on an R×C board: 1 tile in STM, up to
    /// `max(R, C) − 1` tiles in MTM.
    pub fn tiles_per_move(self, rows: usize, cols: usize) -> usize {
        match self {
            Metric::Stm => 1,
            Metric::Mtm => rows.max(cols) - 1,
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A metric's name that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown metric {0:?}: use stm (single-tile moves) or mtm (multi-tile moves)")]
pub struct UnknownMetric(pub String);

impl FromStr for Metric {
    type Err = UnknownMetric;

    fn from_str(s: &str) -> Result<Metric, UnknownMetric> {
        match s.trim().to_ascii_lowercase().as_str() {
            "stm" => Ok(Metric::Stm),
            "mtm" => Ok(Metric::Mtm),
            _ => Err(UnknownMetric(s.to_string())),
        }
    }
}

/// The runs of equal steps of `path`, as `(direction, length)`: the pushes
/// of the multi-tile metric.
///
/// ```
/// use npuzzle::{metric_runs, parse_path, Dir};
///
/// let path = parse_path("UULDDR")?;
/// let runs: Vec<_> = metric_runs(&path).collect();
/// assert_eq!(runs, [(Dir::Up, 2), (Dir::Left, 1), (Dir::Down, 2), (Dir::Right, 1)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn runs(path: &[Dir]) -> impl Iterator<Item = (Dir, usize)> + '_ {
    path.chunk_by(|a, b| a == b).map(|run| (run[0], run.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_path;

    #[test]
    fn mtm_counts_runs_and_never_exceeds_stm() {
        for (text, stm, mtm) in [("", 0, 0), ("U", 1, 1), ("UUU", 3, 1), ("UDUD", 4, 4), ("RRLL", 4, 2)] {
            let p = parse_path(text).unwrap();
            assert_eq!(Metric::Stm.length(&p), stm, "{text}");
            assert_eq!(Metric::Mtm.length(&p), mtm, "{text}");
        }
        assert!("xtm".parse::<Metric>().unwrap_err().to_string().contains("stm"));
        assert_eq!(Metric::Mtm.tiles_per_move(3, 4), 3);
        assert_eq!(Metric::Stm.tiles_per_move(3, 4), 1);
    }
}
