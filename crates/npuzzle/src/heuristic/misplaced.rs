//! Misplaced tiles (Hamming distance): the number of tiles, the blank not
//! counted, that stand off their goal cell. Each misplaced tile needs at
//! least one move, so it never overestimates; a move changes it by at most 1.

use super::Heuristic;
use crate::board::Board;

/// Misplaced-tile count for a fixed goal.
#[derive(Clone, Debug)]
pub struct Misplaced {
    /// Goal cell of each tile.
    goal_cell: Vec<u8>,
}

impl Misplaced {
    /// The misplaced-tile count toward `goal`.
    pub fn new(goal: &Board) -> Misplaced {
        Misplaced {
            goal_cell: goal.positions(),
        }
    }

    #[inline]
    fn off(&self, tile: u8, cell: usize) -> u32 {
        u32::from(usize::from(self.goal_cell[usize::from(tile)]) != cell)
    }
}

impl Heuristic for Misplaced {
    type State = u32;

    const READS_TILES: bool = false;

    fn name(&self) -> &'static str {
        "misplaced"
    }

    fn init(&self, tiles: &[u8]) -> u32 {
        tiles
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t != 0)
            .map(|(cell, &t)| self.off(t, cell))
            .sum()
    }

    #[inline]
    fn value(&self, state: &u32) -> u32 {
        *state
    }

    #[inline]
    fn update(&self, state: &u32, _tiles: &[u8], tile: u8, from: usize, to: usize) -> u32 {
        state + self.off(tile, to) - self.off(tile, from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Dir, Shape};

    #[test]
    fn counts_and_updates() {
        let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
        let h = Misplaced::new(&goal);
        assert_eq!(h.estimate(goal.tiles()), 0);
        let mut b = goal.clone();
        let mut s = h.init(b.tiles());
        for d in [Dir::Up, Dir::Left, Dir::Down, Dir::Right, Dir::Up] {
            let z = b.blank();
            assert!(b.apply(d));
            let tile = b.tiles()[z];
            s = h.update(&s, b.tiles(), tile, b.blank(), z);
            assert_eq!(s, h.init(b.tiles()));
        }
        assert!(s > 0);
    }
}
