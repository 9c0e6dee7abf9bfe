//! Moves as people write them: in blank or tile notation, one letter a
//! step or a letter with a count a push (the paths' algebra, simplify,
//! invert and transpose, is `algebra.rs`; its properties are tested here,
//! where paths are read and written).
//!
//! A path is always held as the blank's single steps ([`Dir`]s); only
//! reading and writing know of notations. Tile notation is the
//! speedsolving community's: a letter names the way the *tiles* slide,
//! the opposite of the blank's, so blank `UUL` is tile `DDR`.

use super::{Board, BoardError, Dir, Metric};
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// Most single steps a text of moves may come to: counts (`R4095`) make a
/// short text a long path, and reading must stay bounded.
pub const MAX_STEPS: usize = 1 << 24;

/// How a move's letter is read: the way the blank travels, or the way the
/// tiles slide.
///
/// ```
/// use npuzzle::{format_moves, parse_moves, Metric, Notation};
///
/// let path = parse_moves("UUL", Notation::Blank)?;
/// assert_eq!(format_moves(&path, Notation::Tile, Metric::Stm, false), "DDR");
/// assert_eq!("tile".parse::<Notation>(), Ok(Notation::Tile));
/// assert_eq!(Notation::Blank.to_string(), "blank");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Notation {
    /// The letter is the direction the blank travels (this project's
    /// default).
    #[default]
    Blank,
    /// The letter is the direction the tiles slide (slidy's, the
    /// speedsolvers'): the opposite of the blank's.
    Tile,
}

impl Notation {
    /// Every notation, in the order the command line lists them.
    pub const ALL: [Notation; 2] = [Notation::Blank, Notation::Tile];

    /// `blank` or `tile`.
    pub fn name(self) -> &'static str {
        match self {
            Notation::Blank => "blank",
            Notation::Tile => "tile",
        }
    }

    /// The letter of the blank's step `dir` in this notation.
    ///
    /// ```
    /// use npuzzle::{Dir, Notation};
    ///
    /// assert_eq!(Notation::Blank.letter(Dir::Up), 'U');
    /// assert_eq!(Notation::Tile.letter(Dir::Up), 'D');
    /// ```
    pub fn letter(self, dir: Dir) -> char {
        match self {
            Notation::Blank => dir.letter(),
            Notation::Tile => dir.opposite().letter(),
        }
    }

    /// The blank's step that `letter` (either case) names in this
    /// notation, or `None` for a character that is not a move.
    ///
    /// ```
    /// use npuzzle::{Dir, Notation};
    ///
    /// assert_eq!(Notation::Tile.dir('r'), Some(Dir::Left));
    /// assert_eq!(Notation::Blank.dir('x'), None);
    /// ```
    pub fn dir(self, letter: char) -> Option<Dir> {
        let d = Dir::from_letter(letter)?;
        Some(match self {
            Notation::Blank => d,
            Notation::Tile => d.opposite(),
        })
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A notation's name that is not one.
///
/// ```
/// use npuzzle::{Notation, UnknownNotation};
///
/// let err = "slidy".parse::<Notation>().unwrap_err();
/// assert_eq!(err, UnknownNotation("slidy".to_string()));
/// assert!(err.to_string().contains("blank"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown notation {0:?}: use blank (letters name the way the blank moves) or tile (the way the tiles move)")]
pub struct UnknownNotation(pub String);

impl FromStr for Notation {
    type Err = UnknownNotation;

    fn from_str(s: &str) -> Result<Notation, UnknownNotation> {
        match s.trim().to_ascii_lowercase().as_str() {
            "blank" => Ok(Notation::Blank),
            "tile" => Ok(Notation::Tile),
            _ => Err(UnknownNotation(s.to_string())),
        }
    }
}

/// The moves of `path` in `metric`: single steps, or runs of equal steps.
fn units(path: &[Dir], metric: Metric) -> impl Iterator<Item = (Dir, usize)> + '_ {
    let runs = matches!(metric, Metric::Mtm);
    // In STM a run of three is three moves; chunking by run only in MTM.
    path.chunk_by(move |a, b| runs && a == b)
        .map(|run| (run[0], run.len()))
}

/// Writes a path: one letter a step in STM (`RRUULD`), each run of equal
/// steps with its count in MTM (`R2U2LD`), separated by spaces when
/// `spaced` (`R2 U2 L D`).
///
/// ```
/// use npuzzle::{format_moves, parse_path, Metric, Notation};
///
/// let path = parse_path("LLDDRU")?; // the blank's steps
/// assert_eq!(format_moves(&path, Notation::Tile, Metric::Stm, false), "RRUULD");
/// assert_eq!(format_moves(&path, Notation::Tile, Metric::Mtm, true), "R2 U2 L D");
/// assert_eq!(format_moves(&path, Notation::Blank, Metric::Mtm, false), "L2D2RU");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn format_moves(path: &[Dir], notation: Notation, metric: Metric, spaced: bool) -> String {
    let mut out = String::with_capacity(path.len() * if spaced { 2 } else { 1 });
    for (i, (dir, count)) in units(path, metric).enumerate() {
        if spaced && i > 0 {
            out.push(' ');
        }
        out.push(notation.letter(dir));
        if count > 1 {
            out.push_str(&count.to_string());
        }
    }
    out
}

/// Reads moves written in `notation`: letters in either case, each
/// optionally followed by a count (`R2`, `U12`), whitespace anywhere
/// between moves. The result is the blank's single steps. Errors name the
/// character or move at fault and its 1-based position in the text.
///
/// ```
/// use npuzzle::{parse_moves, path_string, BoardError, Notation};
///
/// assert_eq!(path_string(&parse_moves("R2 U2 L d", Notation::Tile)?), "LLDDRU");
/// assert_eq!(path_string(&parse_moves("u2l", Notation::Blank)?), "UUL");
/// assert!(matches!(
///     parse_moves("R0", Notation::Tile),
///     Err(BoardError::ZeroCount { position: 1, .. })
/// ));
/// assert!(matches!(
///     parse_moves("UX", Notation::Blank),
///     Err(BoardError::BadMove { letter: 'X', index: 2 })
/// ));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_moves(text: &str, notation: Notation) -> Result<Vec<Dir>, BoardError> {
    let mut path = Vec::new();
    let mut chars = text.chars().enumerate().peekable();
    while let Some((i, c)) = chars.next() {
        if c.is_whitespace() {
            continue;
        }
        if c.is_ascii_digit() {
            return Err(BoardError::CountWithoutMove { position: i + 1 });
        }
        let dir = notation.dir(c).ok_or(BoardError::BadMove {
            letter: c,
            index: i + 1,
        })?;
        let mut digits = String::new();
        while let Some(&(_, d)) = chars.peek().filter(|(_, d)| d.is_ascii_digit()) {
            digits.push(d);
            chars.next();
        }
        let token = || format!("{c}{digits}");
        let count = match digits.as_str() {
            "" => 1,
            // beyond MAX_STEPS is refused below whatever it is
            _ => digits.parse::<usize>().unwrap_or(usize::MAX),
        };
        if count == 0 {
            return Err(BoardError::ZeroCount {
                token: token(),
                position: i + 1,
            });
        }
        if count > MAX_STEPS - path.len() {
            return Err(BoardError::TooManyMoves { max: MAX_STEPS });
        }
        path.extend(std::iter::repeat_n(dir, count));
    }
    Ok(path)
}

impl Board {
    /// Applies a path, failing at the first move that cannot be made:
    /// the error names the move by its 1-based index in `metric` and as
    /// `notation` writes it, and the board it could not be made on.
    ///
    /// ```
    /// use npuzzle::{parse_board, parse_moves, BoardError, Metric, Notation};
    ///
    /// let start = parse_board("1 2 3/4 5 6/7 8 0", None)?;
    /// let path = parse_moves("R2 D", Notation::Tile)?; // the blank goes left twice, then up
    /// assert_eq!(start.apply_moves(&path, Notation::Tile, Metric::Mtm)?.to_row_string(), "1 2 3/0 5 6/4 7 8");
    /// let err = start.apply_moves(&parse_moves("RRR", Notation::Tile)?, Notation::Tile, Metric::Stm);
    /// assert_eq!(
    ///     err.unwrap_err().to_string(),
    ///     "move 3 (R, tile notation) cannot be made on 1 2 3/4 5 6/0 7 8: no tile is there to slide"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn apply_moves(
        &self,
        path: &[Dir],
        notation: Notation,
        metric: Metric,
    ) -> Result<Board, BoardError> {
        let mut b = self.clone();
        for (i, (dir, count)) in units(path, metric).enumerate() {
            let before = b.clone();
            if !(0..count).all(|_| b.apply(dir)) {
                return Err(BoardError::IllegalMove {
                    index: i + 1,
                    written: format_moves(&vec![dir; count], notation, metric, false),
                    notation,
                    board: before.to_row_string(),
                });
            }
        }
        Ok(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{invert, parse_board, parse_path, path_string, simplify, transpose, Shape};
    use proptest::prelude::*;

    #[test]
    fn tile_notation_is_the_blanks_opposite() {
        let p = parse_path("UULDR").unwrap();
        assert_eq!(format_moves(&p, Notation::Tile, Metric::Stm, false), "DDRUL");
        assert_eq!(format_moves(&p, Notation::Tile, Metric::Mtm, false), "D2RUL");
        assert_eq!(format_moves(&p, Notation::Blank, Metric::Mtm, true), "U2 L D R");
        assert_eq!(format_moves(&[], Notation::Blank, Metric::Mtm, true), "");
        assert_eq!(parse_moves("ddrul", Notation::Tile).unwrap(), p);
        assert_eq!(parse_moves(" D2 R\tU L ", Notation::Tile).unwrap(), p);
        assert_eq!(parse_moves("", Notation::Tile).unwrap(), vec![]);
        let long = parse_moves("R12", Notation::Blank).unwrap();
        assert_eq!(long, vec![Dir::Right; 12]);
        assert_eq!("BLANK".parse::<Notation>(), Ok(Notation::Blank));
        assert_eq!(Notation::ALL.map(Notation::name), ["blank", "tile"]);
    }

    #[test]
    fn bad_text_is_named_with_its_position() {
        let err = |t: &str| parse_moves(t, Notation::Tile).unwrap_err();
        assert_eq!(err("RRx"), BoardError::BadMove { letter: 'x', index: 3 });
        assert_eq!(
            err("R U0"),
            BoardError::ZeroCount { token: "U0".into(), position: 3 }
        );
        assert_eq!(err("2R"), BoardError::CountWithoutMove { position: 1 });
        assert_eq!(err("R 2"), BoardError::CountWithoutMove { position: 3 });
        assert_eq!(
            err("R99999999999999999999999"),
            BoardError::TooManyMoves { max: MAX_STEPS }
        );
        assert!(err("U0").to_string().contains("'U0'"));
        assert!(err("R 2").to_string().contains("character 3"));
    }

    #[test]
    fn simplify_cancels_and_merges() {
        let s = |t: &str| path_string(&simplify(&parse_path(t).unwrap()));
        assert_eq!(s("UDL"), "L");
        assert_eq!(s("ULRD"), "");
        assert_eq!(s("RRLRR"), "RRR");
        let merged = simplify(&parse_moves("R2 L R", Notation::Tile).unwrap());
        assert_eq!(format_moves(&merged, Notation::Tile, Metric::Mtm, true), "R2");
    }

    #[test]
    fn an_illegal_push_is_named_as_written() {
        let start = parse_board("1 2 3/4 5 6/7 8 0", None).unwrap();
        let path = parse_moves("U R3", Notation::Blank).unwrap();
        let err = start
            .apply_moves(&path, Notation::Blank, Metric::Mtm)
            .unwrap_err();
        assert_eq!(
            err,
            BoardError::IllegalMove {
                index: 2,
                written: "R3".into(),
                notation: Notation::Blank,
                board: "1 2 3/4 5 0/7 8 6".into()
            }
        );
        // the same path counted in single steps: the second step
        let err = start.apply_path(&path).unwrap_err();
        assert!(matches!(err, BoardError::IllegalMove { index: 2, .. }), "{err}");
    }

    fn paths() -> impl Strategy<Value = Vec<Dir>> {
        // runs of random lengths, so that counts above 9 occur
        prop::collection::vec((0usize..4, 1usize..14), 0..12).prop_map(|runs| {
            runs.into_iter()
                .flat_map(|(d, n)| std::iter::repeat_n(Dir::ALL[d], n))
                .collect()
        })
    }

    /// A random legal walk on a 3x4 board, and the board it starts on.
    fn walk(seed: &[usize]) -> (Board, Vec<Dir>) {
        let start = Board::blank_last(Shape::new(3, 4)).unwrap();
        let mut b = start.clone();
        let mut path = Vec::new();
        for &k in seed {
            let d = Dir::ALL[k % 4];
            if b.apply(d) {
                path.push(d);
            }
        }
        (start, path)
    }

    proptest! {
        #[test]
        fn parse_reads_what_format_writes(path in paths(), tile in any::<bool>(), mtm in any::<bool>(), spaced in any::<bool>()) {
            let notation = if tile { Notation::Tile } else { Notation::Blank };
            let metric = if mtm { Metric::Mtm } else { Metric::Stm };
            let text = format_moves(&path, notation, metric, spaced);
            prop_assert_eq!(parse_moves(&text, notation)?, path.clone());
            prop_assert_eq!(parse_moves(&text.to_lowercase(), notation)?, path);
        }

        #[test]
        fn simplify_is_idempotent_and_reaches_the_same_board(seed in prop::collection::vec(0usize..4, 0..60)) {
            let (start, path) = walk(&seed);
            let short = simplify(&path);
            prop_assert_eq!(simplify(&short), short.clone());
            prop_assert!(short.len() <= path.len());
            prop_assert_eq!(start.apply_path(&short)?, start.apply_path(&path)?);
        }

        #[test]
        fn invert_undoes(seed in prop::collection::vec(0usize..4, 0..60)) {
            let (start, path) = walk(&seed);
            let end = start.apply_path(&path)?;
            prop_assert_eq!(end.apply_path(&invert(&path))?, start);
            prop_assert_eq!(invert(&invert(&path)), path.clone());
            prop_assert_eq!(transpose(&transpose(&path)), path);
        }
    }
}
