//! The eight symmetries of a rectangular board (flips and a transpose).
//!
//! Solving a transposed copy of a problem and mapping the path back gives
//! another valid solution, usually of a different length (the solver's
//! choices are the same for mirror images, whose local frames coincide,
//! but not for transposes). Small boards are solved both ways.

use crate::board::Dir;

/// One symmetry: flip the rows, flip the columns, then transpose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Symmetry {
    pub flip_rows: bool,
    pub flip_cols: bool,
    pub transpose: bool,
}

impl Symmetry {
    #[cfg(test)]
    pub(crate) const ALL: [Symmetry; 8] = {
        let mut all = [Symmetry {
            flip_rows: false,
            flip_cols: false,
            transpose: false,
        }; 8];
        let mut i = 0;
        while i < 8 {
            all[i] = Symmetry {
                flip_rows: i & 1 == 1,
                flip_cols: i & 2 == 2,
                transpose: i & 4 == 4,
            };
            i += 1;
        }
        all
    };

    /// Shape of the image of a `rows`×`cols` board.
    pub(crate) fn shape(self, rows: usize, cols: usize) -> (usize, usize) {
        if self.transpose {
            (cols, rows)
        } else {
            (rows, cols)
        }
    }

    /// The image of a board (tiles in reading order) of shape `rows`×`cols`.
    pub(crate) fn board(self, rows: usize, cols: usize, tiles: &[u32]) -> Vec<u32> {
        let (_, out_cols) = self.shape(rows, cols);
        let mut out = vec![0; tiles.len()];
        for (cell, &t) in tiles.iter().enumerate() {
            let (mut r, mut c) = (cell / cols, cell % cols);
            if self.flip_rows {
                r = rows - 1 - r;
            }
            if self.flip_cols {
                c = cols - 1 - c;
            }
            if self.transpose {
                (r, c) = (c, r);
            }
            out[r * out_cols + c] = t;
        }
        out
    }

    /// The move on the original board that a move `d` on the image is.
    pub(crate) fn back(self, d: Dir) -> Dir {
        let mut d = d;
        if self.transpose {
            d = match d {
                Dir::Up => Dir::Left,
                Dir::Left => Dir::Up,
                Dir::Down => Dir::Right,
                Dir::Right => Dir::Down,
            };
        }
        if (self.flip_rows && matches!(d, Dir::Up | Dir::Down))
            || (self.flip_cols && matches!(d, Dir::Left | Dir::Right))
        {
            d = d.opposite();
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Applies moves to a board; `None` if one leaves it.
    fn apply(rows: usize, cols: usize, tiles: &[u32], path: &[Dir]) -> Option<Vec<u32>> {
        let mut b = tiles.to_vec();
        let mut blank = b.iter().position(|&t| t == 0)?;
        for d in path {
            let to = d.step(blank, rows, cols)?;
            b.swap(blank, to);
            blank = to;
        }
        Some(b)
    }

    #[test]
    fn paths_on_the_image_map_back() {
        let (rows, cols) = (3, 4);
        let start: Vec<u32> = (0..12).collect();
        let path = [Dir::Right, Dir::Down, Dir::Right, Dir::Down, Dir::Left];
        let distinct: std::collections::HashSet<Vec<u32>> = Symmetry::ALL
            .iter()
            .map(|&s| s.board(rows, cols, &start))
            .collect();
        assert_eq!(distinct.len(), 8);
        for s in Symmetry::ALL {
            let (r2, c2) = s.shape(rows, cols);
            let image = s.board(rows, cols, &start);
            // find the image path whose moves map back to `path`
            let image_path: Vec<Dir> = path
                .iter()
                .map(|&d| *Dir::ALL.iter().find(|&&e| s.back(e) == d).unwrap())
                .collect();
            let end = apply(r2, c2, &image, &image_path).expect("stays on the image");
            let original_end = apply(rows, cols, &start, &path).unwrap();
            assert_eq!(end, s.board(rows, cols, &original_end), "{s:?}");
        }
    }
}
