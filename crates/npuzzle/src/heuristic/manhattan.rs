//! Manhattan distance: the sum over tiles of the rows plus columns between a
//! tile's cell and its goal cell. Each move changes it by exactly ±1.

use super::Heuristic;
use crate::board::Board;

/// Manhattan distance to a fixed goal, with a precomputed `[tile][cell]`
/// table so an update is two loads.
#[derive(Clone, Debug)]
pub struct Manhattan {
    /// `dist[tile][cell]`: moves of `tile` from `cell` to its goal cell (0
    /// for the blank). Fixed 256 × 256 so that indexing by `u8` tile and
    /// cell needs no bounds check in IDA*'s inner loop (64 KiB, of which a
    /// search touches one short stretch per tile).
    dist: Box<[[u8; 256]; 256]>,
}

impl Manhattan {
    /// Manhattan distance toward `goal`.
    pub fn new(goal: &Board) -> Manhattan {
        let (n, shape) = (goal.len(), goal.shape());
        let pos = goal.positions();
        let mut dist = Box::new([[0u8; 256]; 256]);
        for tile in 1..n {
            let g = usize::from(pos[tile]);
            for cell in 0..n {
                dist[tile][cell] = shape.distance(g, cell) as u8;
            }
        }
        Manhattan { dist }
    }

    /// Distance of one tile standing on `cell`.
    #[inline]
    pub fn tile(&self, tile: u8, cell: usize) -> u32 {
        // cells are below 256 (boards are at most 16×16)
        u32::from(self.dist[usize::from(tile)][usize::from(cell as u8)])
    }
}

impl Heuristic for Manhattan {
    type State = u32;

    const READS_TILES: bool = false;

    fn name(&self) -> &'static str {
        "manhattan"
    }

    fn init(&self, tiles: &[u8]) -> u32 {
        tiles
            .iter()
            .enumerate()
            .map(|(cell, &t)| self.tile(t, cell))
            .sum()
    }

    #[inline]
    fn value(&self, state: &u32) -> u32 {
        *state
    }

    #[inline]
    fn update(&self, state: &u32, _tiles: &[u8], tile: u8, from: usize, to: usize) -> u32 {
        state + self.tile(tile, to) - self.tile(tile, from)
    }
}
