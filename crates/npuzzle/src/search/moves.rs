//! How every search moves: precomputed neighbours of each cell, and one
//! move of the blank on a tile array with its undo, so that no search has
//! its own copy of the step.

use crate::board::{Dir, Shape};

/// The moves of the blank from one cell: neighbour cells and directions.
#[derive(Clone, Copy, Debug)]
pub struct Moves {
    pub cells: [u8; 4],
    pub dirs: [Dir; 4],
    pub len: u8,
}

/// Precomputed neighbours of every cell (boards have at most 256 cells, so
/// a cell fits a `u8`).
#[derive(Clone, Debug)]
pub struct Neighbours {
    moves: Vec<Moves>,
}

impl Neighbours {
    pub fn new(shape: Shape) -> Neighbours {
        let moves = (0..shape.cells())
            .map(|cell| {
                let mut m = Moves {
                    cells: [0; 4],
                    dirs: [Dir::Up; 4],
                    len: 0,
                };
                for d in Dir::ALL {
                    if let Some(to) = d.step(cell, shape.rows, shape.cols) {
                        m.cells[usize::from(m.len)] = to as u8;
                        m.dirs[usize::from(m.len)] = d;
                        m.len += 1;
                    }
                }
                m
            })
            .collect();
        Neighbours { moves }
    }

    #[inline]
    pub fn of(&self, cell: usize) -> Moves {
        self.moves[cell]
    }
}

/// `Dir` as a small number (for compact nodes).
#[inline]
pub fn dir_code(d: Dir) -> u8 {
    match d {
        Dir::Up => 0,
        Dir::Down => 1,
        Dir::Left => 2,
        Dir::Right => 3,
    }
}

#[inline]
pub fn dir_from_code(c: u8) -> Dir {
    Dir::ALL[usize::from(c & 3)]
}

/// The blank on `from` moves to `to`: the tile there slides into `from`.
/// Returns the tile, which [`undo_slide`] needs.
#[inline(always)]
pub(crate) fn slide(tiles: &mut [u8], from: usize, to: usize) -> u8 {
    let tile = tiles[to];
    tiles[from] = tile;
    tiles[to] = 0;
    tile
}

/// Undoes [`slide`]`(tiles, from, to)`, which moved `tile`.
#[inline(always)]
pub(crate) fn undo_slide(tiles: &mut [u8], from: usize, to: usize, tile: u8) {
    tiles[to] = tile;
    tiles[from] = 0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_match_dir_step() {
        let shape = Shape::new(3, 5);
        let nb = Neighbours::new(shape);
        for cell in 0..15 {
            let m = nb.of(cell);
            let want: Vec<(u8, Dir)> = Dir::ALL
                .iter()
                .filter_map(|&d| d.step(cell, 3, 5).map(|c| (c as u8, d)))
                .collect();
            let got: Vec<(u8, Dir)> = (0..usize::from(m.len))
                .map(|i| (m.cells[i], m.dirs[i]))
                .collect();
            assert_eq!(got, want);
        }
        for d in Dir::ALL {
            assert_eq!(dir_from_code(dir_code(d)), d);
        }
    }

    #[test]
    fn slide_and_undo() {
        let mut t = [1u8, 0, 2, 3];
        let tile = slide(&mut t, 1, 3);
        assert_eq!((t, tile), ([1, 3, 2, 0], 3));
        undo_slide(&mut t, 1, 3, tile);
        assert_eq!(t, [1, 0, 2, 3]);
    }
}
