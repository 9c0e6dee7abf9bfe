//! Shared machinery for the searches: packed states (codecs), a fast
//! hasher, budget clocks and growth forecasts.

use super::{Budget, Limit, SearchError, Stats};
pub(crate) use crate::budget::{Clock, Interrupt, POLL_EVERY};
use std::fmt;
use std::hash::{BuildHasherDefault, Hash, Hasher};

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

/// A fast hasher for packed states (a multiply-rotate combine and a
/// murmur3 finaliser, so every bit of the key reaches the bucket index).
#[derive(Clone, Copy, Default)]
pub struct StateHasher {
    h: u64,
}

impl Hasher for StateHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(w));
        }
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.h = (self.h.rotate_left(5) ^ i).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    #[inline]
    fn write_u128(&mut self, i: u128) {
        self.write_u64(i as u64);
        self.write_u64((i >> 64) as u64);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        let mut x = self.h;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        x ^ (x >> 33)
    }
}

pub type BuildStateHasher = BuildHasherDefault<StateHasher>;
pub type StateMap<K, V> = std::collections::HashMap<K, V, BuildStateHasher>;
pub type StateSet<K> = std::collections::HashSet<K, BuildStateHasher>;

/// What one state costs a memory-bound search, in bytes, counted high
/// enough to hold at the moment a container doubles (its old and new
/// buffers both alive): checked before every new state, the byte budget
/// stops a search before the allocator does.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StateCost {
    per_state: u64,
}

impl StateCost {
    /// `node` bytes in an array of states, `entry` bytes per hash-table
    /// or tree entry (0 for none), `heap` bytes per key copy owned
    /// elsewhere, `copies` key copies per state.
    pub(crate) fn new(node: usize, entry: usize, heap: usize, copies: usize) -> StateCost {
        // An array doubles: 3 × its elements while both buffers live. A
        // hash table keeps at most 7/8 of its slots full, has a control
        // byte per slot, and doubles too.
        let table = if entry == 0 {
            0
        } else {
            (3 * (entry + 1) * 8).div_ceil(7)
        };
        StateCost {
            per_state: (3 * node + table + heap * copies) as u64,
        }
    }

    /// `Err` when `states` states would not fit the byte budget.
    #[inline]
    pub(crate) fn check(&self, budget: &Budget, states: usize) -> Result<(), Interrupt> {
        budget.check_bytes((states as u64).saturating_mul(self.per_state))
    }
}

/// The error of a memory-bound search (`algorithm`) whose growth so far
/// forecasts `need` states to reach depth `depth`, over `max_states`.
pub(crate) fn states_forecast(
    algorithm: &'static str,
    need: f64,
    max_states: u64,
    depth: u32,
    stats: Stats,
) -> SearchError {
    SearchError::Forecast {
        algorithm,
        limit: Limit::States,
        budget: max_states,
        forecast: need,
        depth,
        stats,
    }
}

impl Interrupt {
    /// The error `algorithm` reports, having searched to `depth` at the
    /// cost `stats`, with the budget's value as given.
    pub fn error(
        self,
        algorithm: &'static str,
        budget: &Budget,
        depth: u32,
        stats: Stats,
    ) -> SearchError {
        match self {
            Interrupt::Cancelled => SearchError::Cancelled { algorithm, stats },
            Interrupt::Limit(limit) => SearchError::Budget {
                algorithm,
                limit,
                limit_value: budget.value_of(limit),
                depth,
                stats,
            },
        }
    }
}

/// Forecasts are only made once a search has grown past this many states
/// or nodes, so early noise cannot skip a search that would finish.
pub const FORECAST_MIN: f64 = 5000.0;

/// A forecast is "plain" when it is at least this many times the budget.
pub const FORECAST_MARGIN: f64 = 2.0;

/// `now · (r + r² + … + r^steps)`: what geometric growth at ratio `r` adds
/// over `steps` more layers.
pub fn geometric(now: f64, ratio: f64, steps: u32) -> f64 {
    let mut total = 0.0;
    let mut layer = now;
    for _ in 0..steps {
        layer *= ratio;
        total += layer;
        if total > 1e30 {
            break;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Dir, Shape};
    use std::hash::BuildHasher;

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

    #[test]
    fn hasher_spreads_low_bits() {
        // Keys differing only in high nibbles must still land in different
        // buckets of a small table.
        let b = BuildStateHasher::default();
        let buckets: std::collections::HashSet<u64> =
            (0..64u64).map(|i| b.hash_one(i << 56) & 63).collect();
        assert!(buckets.len() > 30, "{}", buckets.len());
    }

    #[test]
    fn geometric_sums() {
        assert_eq!(geometric(1.0, 2.0, 3), 2.0 + 4.0 + 8.0);
        assert_eq!(geometric(5.0, 1.0, 0), 0.0);
    }
}
