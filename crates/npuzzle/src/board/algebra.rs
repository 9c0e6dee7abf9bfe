//! The paths' algebra: a path simplified, inverted, mirrored in the main
//! diagonal, and the one list of these rewrites that every front end
//! (the commands, the API, Python) offers.

use super::Dir;
use std::fmt;
use std::str::FromStr;

/// A rewrite of a path, by name: what `npuzzle simplify|invert|transpose`,
/// the API's `/api/rewrite` and Python's functions of the same names do.
///
/// ```
/// use npuzzle::{parse_path, path_string, Rewrite};
///
/// let path = parse_path("UULDR")?;
/// assert_eq!(path_string(&Rewrite::Invert.apply(&path)), "LURDD");
/// assert_eq!("transpose".parse::<Rewrite>(), Ok(Rewrite::Transpose));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rewrite {
    /// [`simplify`].
    Simplify,
    /// [`invert`].
    Invert,
    /// [`transpose`].
    Transpose,
}

impl Rewrite {
    /// Every rewrite, in the order the command line lists them.
    pub const ALL: [Rewrite; 3] = [Rewrite::Simplify, Rewrite::Invert, Rewrite::Transpose];

    /// `simplify`, `invert` or `transpose`.
    pub fn name(self) -> &'static str {
        match self {
            Rewrite::Simplify => "simplify",
            Rewrite::Invert => "invert",
            Rewrite::Transpose => "transpose",
        }
    }

    /// `path` rewritten.
    pub fn apply(self, path: &[Dir]) -> Vec<Dir> {
        match self {
            Rewrite::Simplify => simplify(path),
            Rewrite::Invert => invert(path),
            Rewrite::Transpose => transpose(path),
        }
    }
}

impl fmt::Display for Rewrite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no rewrite.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rewrite {0:?}: use simplify, invert or transpose")]
pub struct UnknownRewrite(pub String);

impl FromStr for Rewrite {
    type Err = UnknownRewrite;

    fn from_str(s: &str) -> Result<Rewrite, UnknownRewrite> {
        let s = s.trim().to_ascii_lowercase();
        Rewrite::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or(UnknownRewrite(s))
    }
}

/// `path` with every step that the next one undoes cancelled, repeatedly
/// (`UDL` → `L`, `ULRD` → nothing): the same board reached in as few or
/// fewer steps. Runs merge by themselves (MTM `R2 R` is `R3`), since a path
/// holds single steps.
///
/// ```
/// use npuzzle::{parse_path, path_string, simplify};
///
/// assert_eq!(path_string(&simplify(&parse_path("UDL")?)), "L");
/// assert_eq!(path_string(&simplify(&parse_path("ULRD")?)), "");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn simplify(path: &[Dir]) -> Vec<Dir> {
    let mut kept: Vec<Dir> = Vec::with_capacity(path.len());
    for &d in path {
        if kept.last() == Some(&d.opposite()) {
            kept.pop();
        } else {
            kept.push(d);
        }
    }
    kept
}

/// The path that undoes `path`: its steps reversed, each the opposite
/// way. Applying a path and then its inverse gives back the board.
///
/// ```
/// use npuzzle::{invert, parse_path, path_string};
///
/// assert_eq!(path_string(&invert(&parse_path("UUL")?)), "RDD");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn invert(path: &[Dir]) -> Vec<Dir> {
    path.iter().rev().map(|d| d.opposite()).collect()
}

/// `path` mirrored in the main diagonal (`U` ↔ `L`, `D` ↔ `R`): what
/// solves the transposed start towards the transposed goal.
///
/// ```
/// use npuzzle::{parse_path, path_string, transpose};
///
/// assert_eq!(path_string(&transpose(&parse_path("UUR")?)), "LLD");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn transpose(path: &[Dir]) -> Vec<Dir> {
    path.iter()
        .map(|d| match d {
            Dir::Up => Dir::Left,
            Dir::Left => Dir::Up,
            Dir::Down => Dir::Right,
            Dir::Right => Dir::Down,
        })
        .collect()
}
