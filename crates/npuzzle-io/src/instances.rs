//! Benchmark instance files such as `korf100.txt` and `korf24_50.txt`: one
//! instance per line, the tiles in reading order followed by the optimal
//! length and optionally more fields; `#` lines are comments.

use npuzzle::{Board, BoardError, Shape};
use thiserror::Error;

/// One instance of a benchmark file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// 1-based number among the file's instances.
    pub number: usize,
    /// 1-based line in the file.
    pub line: usize,
    /// The start board (the file does not give the goal).
    pub start: Board,
    /// The optimal length the file gives, if any.
    pub length: Option<u32>,
    /// Fields after the length (e.g. Korf's 1985 node counts).
    pub extra: Vec<u64>,
}

/// Why a benchmark file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InstanceError {
    /// A field is not a non-negative integer.
    #[error("line {line}: '{token}' is not a number")]
    NotANumber {
        /// 1-based line in the file.
        line: usize,
        /// The field as written.
        token: String,
    },
    /// No size was given and no square board leaves at most three trailing
    /// fields, or the line has fewer fields than the size's cells.
    #[error("line {line}: cannot tell the board size from {count} fields; give the size as RxC")]
    Size {
        /// 1-based line in the file.
        line: usize,
        /// Fields on the line.
        count: usize,
    },
    /// The tiles do not form a board.
    #[error("line {line}: {error}")]
    Board {
        /// 1-based line in the file.
        line: usize,
        /// What is wrong with the board.
        error: BoardError,
    },
}

/// Reads every instance; the board size is `size` or, when absent, the
/// largest square tile count that leaves at most three trailing fields.
pub fn parse(text: &str, size: Option<Shape>) -> Result<Vec<Instance>, InstanceError> {
    let mut out = Vec::new();
    // A byte-order mark before the first line is not part of it.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let fields = t
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse::<u64>().map_err(|_| InstanceError::NotANumber {
                    line,
                    token: npuzzle::printable(s),
                })
            })
            .collect::<Result<Vec<u64>, _>>()?;
        let shape = match size {
            Some(s) => s,
            None => (2..=16)
                .rev()
                .map(|k| Shape::new(k, k))
                .find(|s| s.cells() <= fields.len() && fields.len() - s.cells() <= 3)
                .ok_or(InstanceError::Size {
                    line,
                    count: fields.len(),
                })?,
        };
        let n = shape.cells();
        if fields.len() < n {
            return Err(InstanceError::Size {
                line,
                count: fields.len(),
            });
        }
        let tiles: Vec<u16> = fields[..n]
            .iter()
            .map(|&v| v.min(u64::from(u16::MAX)) as u16)
            .collect();
        let start = Board::new(shape.rows, shape.cols, &tiles)
            .map_err(|error| InstanceError::Board { line, error })?;
        out.push(Instance {
            number: out.len() + 1,
            line,
            start,
            length: fields.get(n).map(|&l| l.min(u64::from(u32::MAX)) as u32),
            extra: fields.get(n + 1..).map_or(Vec::new(), <[u64]>::to_vec),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn korf_lines() {
        let text = "# comment\n14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3 57 276361933\n\n\
                    13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6 55\n";
        let v = parse(text, None).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].start.rows(), 4);
        assert_eq!(v[0].length, Some(57));
        assert_eq!(v[0].extra, vec![276361933]);
        assert_eq!((v[1].number, v[1].line), (2, 4));
        assert!(parse("1 2 x", None).is_err());
        assert!(matches!(
            parse("1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 50", None),
            Err(InstanceError::Board { line: 1, .. })
        ));
    }

    #[test]
    fn the_shipped_files_parse() {
        for (text, count, cells) in [
            (include_str!("../../../data/korf100.txt"), 100, 16),
            (include_str!("../../../data/korf24_50.txt"), 50, 25),
        ] {
            let v = parse(text, None).unwrap();
            assert_eq!(v.len(), count);
            assert!(v
                .iter()
                .all(|i| i.start.len() == cells && i.length.is_some()));
        }
    }
}
