//! The visited sets of the memory-bound searches: a fast hasher for
//! packed states, and what one state costs in bytes (checked against the
//! byte budget before the set grows).

use crate::budget::{Budget, Interrupt};
use std::hash::{BuildHasherDefault, Hasher};

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

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn hasher_spreads_low_bits() {
        // Keys differing only in high nibbles must still land in different
        // buckets of a small table.
        let b = BuildStateHasher::default();
        let buckets: std::collections::HashSet<u64> =
            (0..64u64).map(|i| b.hash_one(i << 56) & 63).collect();
        assert!(buckets.len() > 30, "{}", buckets.len());
    }
}
