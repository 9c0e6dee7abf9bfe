//! Partial goals: some tiles on named cells, the rest anywhere.
//!
//! Speedsolvers solve in steps — the first row, then the second, the first
//! row and column — and ask for the fewest moves of each step. A partial
//! goal is written as a board with `*` on the cells left free
//! (`1 2 3 4/5 6 7 8/* * * */* * * *`); the blank is free unless the
//! goal places it (`0` or `_`). The named steps take the tiles of the
//! blank-last goal: `first-row`, `first-rows:K` (the first K rows),
//! `first-row-column` (the first row and the first column; `fringe`).

use super::{Board, BoardError, Shape};

/// A goal that places some tiles and leaves the other cells free.
///
/// ```
/// use npuzzle::{parse_board, PartialGoal, Shape};
///
/// let goal = PartialGoal::parse("1 2 3/* * */* * *", None)?;
/// assert_eq!((goal.shape(), goal.named_tiles()), (Shape::new(3, 3), 3));
/// assert!(goal.is_met_by(&parse_board("1 2 3/8 0 4/7 6 5", None)?));
/// assert!(!goal.is_met_by(&parse_board("2 1 3/8 0 4/7 6 5", None)?));
/// let rows = PartialGoal::named("first-rows:2", Shape::new(4, 4)).unwrap()?;
/// assert_eq!(rows.named_tiles(), 8);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartialGoal {
    shape: Shape,
    /// What each cell must hold: a tile, the blank (`Some(0)`), or
    /// anything (`None`).
    cells: Vec<Option<u8>>,
}

impl PartialGoal {
    /// Whether `text` is a partial goal: it has a free cell (`*`) or is
    /// one of the named steps.
    pub fn is_partial(text: &str) -> bool {
        text.contains('*') || Named::parse(text).is_some()
    }

    /// Reads a partial goal: rows separated by `/` or new lines, cells by
    /// spaces or commas, `*` a free cell, `0` or `_` the blank; a flat
    /// list takes `size` or, with a square count, a square shape. Each
    /// tile at most once, at least one placed.
    pub fn parse(text: &str, size: Option<Shape>) -> Result<PartialGoal, BoardError> {
        let rows: Vec<Vec<&str>> = text
            .split(['/', '\n', '|'])
            .map(|r| r.split([' ', ',', '\t', '\r']).filter(|t| !t.is_empty()).collect())
            .filter(|r: &Vec<&str>| !r.is_empty())
            .collect();
        let count: usize = rows.iter().map(Vec::len).sum();
        let uneven = rows.iter().position(|r| r.len() != rows[0].len());
        let shape = match (size, uneven) {
            (Some(s), _) => s,
            (None, Some(i)) if rows.len() > 1 => {
                return Err(BoardError::Partial {
                    reason: format!(
                        "row {} has {} cells and row 1 has {}",
                        i + 1,
                        rows[i].len(),
                        rows[0].len()
                    ),
                })
            }
            (None, _) if rows.len() > 1 => Shape::new(rows.len(), rows[0].len()),
            (None, _) => match (2..=16).find(|s| s * s == count) {
                Some(side) => Shape::new(side, side),
                None => {
                    return Err(BoardError::Partial {
                        reason: format!(
                            "{count} cells written flat give no square board: write the rows, separated by /"
                        ),
                    })
                }
            },
        };
        super::check_shape(shape.rows, shape.cols)?;
        if count != shape.cells() {
            return Err(BoardError::Partial {
                reason: format!("{count} cells do not fill a {shape} board"),
            });
        }
        let mut cells = Vec::with_capacity(count);
        let mut seen = vec![false; count];
        for (i, token) in rows.iter().flatten().enumerate() {
            let cell = match *token {
                "*" => None,
                "_" => Some(0),
                t => match t.parse::<usize>() {
                    Ok(n) if n < count => Some(n as u8),
                    _ => {
                        return Err(BoardError::Partial {
                            reason: format!(
                                "cell {} holds '{}': write a tile from 1 to {}, 0 or _ for the blank, or * for a free cell",
                                i + 1,
                                super::printable(t),
                                count - 1
                            ),
                        })
                    }
                },
            };
            if let Some(t) = cell {
                if std::mem::replace(&mut seen[usize::from(t)], true) {
                    return Err(BoardError::Partial {
                        reason: format!("tile {t} is placed twice"),
                    });
                }
            }
            cells.push(cell);
        }
        let goal = PartialGoal { shape, cells };
        if goal.named_tiles() == 0 {
            return Err(BoardError::Partial {
                reason: "it places no tile: every board would meet it".to_string(),
            });
        }
        Ok(goal)
    }

    /// A named step on boards of `shape`, or `None` when `name` names
    /// none.
    pub fn named(name: &str, shape: Shape) -> Option<Result<PartialGoal, BoardError>> {
        let named = Named::parse(name)?;
        let (r, c) = (shape.rows, shape.cols);
        let home = |cell: usize| (cell + 1) as u8;
        let placed: Box<dyn Fn(usize) -> bool> = match named {
            Named::Rows(k) if k == 0 || k >= r => {
                return Some(Err(BoardError::Partial {
                    reason: format!("first-rows:{k} on a board of {r} rows: give 1 to {}", r - 1),
                }))
            }
            Named::Rows(k) => Box::new(move |cell| cell / c < k),
            Named::RowColumn => Box::new(move |cell| cell / c == 0 || cell % c == 0),
        };
        let cells = (0..shape.cells())
            .map(|cell| placed(cell).then(|| home(cell)))
            .collect();
        Some(Ok(PartialGoal { shape, cells }))
    }

    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// How many tiles (not counting the blank) it places.
    pub fn named_tiles(&self) -> usize {
        self.cells.iter().filter(|c| matches!(c, Some(t) if *t != 0)).count()
    }

    /// What each cell must hold (`None`: anything).
    pub fn cells(&self) -> &[Option<u8>] {
        &self.cells
    }

    /// Whether `board` meets the goal.
    pub fn is_met_by(&self, board: &Board) -> bool {
        board.shape() == self.shape
            && self
                .cells
                .iter()
                .zip(board.tiles())
                .all(|(want, &t)| want.is_none_or(|w| w == t))
    }

    /// A whole goal that meets this one and can be reached from `start`
    /// (the free cells filled with the tiles left, two of them swapped if
    /// parity asks), or `None` when no board meeting it can be reached.
    pub fn completion(&self, start: &Board) -> Option<Board> {
        let n = self.shape.cells();
        let mut used = vec![false; n];
        for t in self.cells.iter().flatten() {
            used[usize::from(*t)] = true;
        }
        let mut rest = (0..n as u8).filter(|&t| !used[usize::from(t)]);
        let tiles: Vec<u8> = self
            .cells
            .iter()
            .map(|c| c.or_else(|| rest.next()).unwrap_or(0))
            .collect();
        let free: Vec<usize> = (0..n).filter(|&i| self.cells[i].is_none()).collect();
        let reachable = |t: &[u8]| self.shape.can_reach(start.tiles(), t).then_some(t.to_vec());
        let mut found = reachable(&tiles);
        // Swapping two free entries flips the parity of the permutation.
        for (i, &a) in free.iter().enumerate() {
            for &b in &free[i + 1..] {
                if found.is_none() {
                    let mut t = tiles.clone();
                    t.swap(a, b);
                    found = reachable(&t);
                }
            }
        }
        Board::from_tiles(self.shape.rows, self.shape.cols, &found?).ok()
    }

    /// Which cells must match (the goal test of a search).
    pub fn mask(&self) -> Vec<bool> {
        self.cells.iter().map(Option::is_some).collect()
    }
}

/// The named steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Named {
    /// The first `k` rows.
    Rows(usize),
    /// The first row and the first column.
    RowColumn,
}

impl Named {
    fn parse(name: &str) -> Option<Named> {
        let n = name.trim().to_ascii_lowercase();
        match n.as_str() {
            "first-row" => Some(Named::Rows(1)),
            "first-row-column" | "first-row-and-column" | "fringe" => Some(Named::RowColumn),
            _ => n
                .strip_prefix("first-rows:")
                .and_then(|k| k.parse().ok())
                .map(Named::Rows),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_partial_goals_say_what_is_wrong() {
        for (text, says) in [
            ("1 2 3/* * */* *", "row 3 has 2 cells and row 1 has 3"),
            ("1 2 3 * * * * *", "give no square board"),
            ("1 2 3/* * */* * 9", "cell 9 holds '9'"),
            ("1 1 3/* * */* * *", "placed twice"),
            ("* * */* * */* * *", "places no tile"),
        ] {
            let e = PartialGoal::parse(text, None).unwrap_err().to_string();
            assert!(e.contains(says), "{text}: {e}");
        }
        let e = PartialGoal::named("first-rows:4", Shape::new(4, 4)).unwrap().unwrap_err();
        assert!(e.to_string().contains("give 1 to 3"), "{e}");
        assert!(PartialGoal::named("spiral", Shape::new(4, 4)).is_none());
    }

    #[test]
    fn completions_are_reachable_whatever_the_parity() {
        let goal = PartialGoal::parse("1 2 3/* * */* * *", None).unwrap();
        for start in ["1 2 3 4 5 6 7 8 0", "1 2 3 4 5 6 8 7 0", "8 7 6 5 4 3 2 1 0"] {
            let s = super::super::parse_board(start, None).unwrap();
            let c = goal.completion(&s).expect("a reachable completion");
            assert!(goal.is_met_by(&c));
            assert!(s.shape().can_reach(s.tiles(), c.tiles()));
        }
    }
}
