//! Packed boards: a compact, hashable, ordered key for a board's tiles
//! (a nibble a tile up to 16 cells, five bits up to 25, a byte beyond),
//! updated in place when one tile slides. The complete tables and the
//! memory-bound searches store states this way.

use std::fmt;
use std::hash::Hash;

/// A compact, hashable, ordered encoding of a board's tiles.
pub trait Codec: Send + Sync + Copy {
    type Key: Clone + Eq + Hash + Ord + Send + Sync + fmt::Debug;

    fn pack(&self, tiles: &[u8]) -> Self::Key;

    fn unpack(&self, key: &Self::Key, tiles: &mut [u8]);

    /// Bytes a key owns outside itself (on the heap) for a board of
    /// `cells` cells, allocator overhead included.
    fn heap_bytes(&self, _cells: usize) -> usize {
        0
    }

    /// The key after `tile` slid from `from` into the blank at `to`
    /// (`tiles` is the board after the move).
    #[inline]
    fn slide(
        &self,
        _key: &Self::Key,
        tiles: &[u8],
        _tile: u8,
        _from: usize,
        _to: usize,
    ) -> Self::Key {
        self.pack(tiles)
    }
}

/// Four bits per cell in a `u64` (boards of at most 16 cells).
#[derive(Clone, Copy, Debug)]
pub struct Nibbles;

impl Codec for Nibbles {
    type Key = u64;

    #[inline]
    fn pack(&self, tiles: &[u8]) -> u64 {
        tiles
            .iter()
            .enumerate()
            .fold(0, |k, (i, &t)| k | (u64::from(t) << (4 * i)))
    }

    #[inline]
    fn unpack(&self, key: &u64, tiles: &mut [u8]) {
        for (i, t) in tiles.iter_mut().enumerate() {
            *t = ((key >> (4 * i)) & 0xF) as u8;
        }
    }

    #[inline]
    fn slide(&self, key: &u64, _tiles: &[u8], tile: u8, from: usize, to: usize) -> u64 {
        let t = u64::from(tile);
        key - (t << (4 * from)) + (t << (4 * to))
    }
}

/// Five bits per cell in a `u128` (boards of at most 25 cells).
#[derive(Clone, Copy, Debug)]
pub struct Fives;

impl Codec for Fives {
    type Key = u128;

    #[inline]
    fn pack(&self, tiles: &[u8]) -> u128 {
        tiles
            .iter()
            .enumerate()
            .fold(0, |k, (i, &t)| k | (u128::from(t) << (5 * i)))
    }

    #[inline]
    fn unpack(&self, key: &u128, tiles: &mut [u8]) {
        for (i, t) in tiles.iter_mut().enumerate() {
            *t = ((key >> (5 * i)) & 0x1F) as u8;
        }
    }

    #[inline]
    fn slide(&self, key: &u128, _tiles: &[u8], tile: u8, from: usize, to: usize) -> u128 {
        let t = u128::from(tile);
        key - (t << (5 * from)) + (t << (5 * to))
    }
}

/// The tiles themselves (any board).
#[derive(Clone, Copy, Debug)]
pub struct Bytes;

impl Codec for Bytes {
    type Key = Box<[u8]>;

    fn pack(&self, tiles: &[u8]) -> Box<[u8]> {
        tiles.into()
    }

    fn unpack(&self, key: &Box<[u8]>, tiles: &mut [u8]) {
        tiles.copy_from_slice(key);
    }

    fn heap_bytes(&self, cells: usize) -> usize {
        // the allocation rounded to 16 bytes, plus the allocator's header
        cells.div_ceil(16) * 16 + 16
    }
}

/// Work to run with the most compact codec for a board size.
pub trait WithCodec {
    type Output;
    fn run<C: Codec>(self, codec: C) -> Self::Output;
}

pub fn with_codec<W: WithCodec>(cells: usize, work: W) -> W::Output {
    if cells <= 16 {
        work.run(Nibbles)
    } else if cells <= 25 {
        work.run(Fives)
    } else {
        work.run(Bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Dir, Shape};

    fn round_trip<C: Codec>(codec: C, shape: Shape) {
        let mut b = Board::blank_first(shape).unwrap();
        let n = b.len();
        let mut key = codec.pack(b.tiles());
        let mut out = vec![0u8; n];
        for i in 0..200 {
            let d = Dir::ALL[(i * 7 + i / 3) % 4];
            let z = b.blank();
            if !b.apply(d) {
                continue;
            }
            let tile = b.tiles()[z];
            key = codec.slide(&key, b.tiles(), tile, b.blank(), z);
            assert_eq!(key, codec.pack(b.tiles()));
            codec.unpack(&key, &mut out);
            assert_eq!(out, b.tiles());
        }
    }

    #[test]
    fn codecs_round_trip_and_slide() {
        round_trip(Nibbles, Shape::new(4, 4));
        round_trip(Fives, Shape::new(5, 5));
        round_trip(Bytes, Shape::new(16, 16));
    }
}
