//! How one entry of a database is held, below both the build and the
//! lookups: the Manhattan table the stored values are relative to, the
//! packing of nibbles into one bit an entry (see [`super::lookup`]'s
//! compact form) with its decoding, and the prefetch hint both use.

use crate::board::Shape;

/// `md[i << 6 | c]`: the Manhattan distance of the group's `i`-th tile
/// standing on cell `c` from its goal cell `goal_cells[i]`.
pub fn manhattan_table(shape: Shape, goal_cells: &[u8]) -> Box<[u8; 1024]> {
    let mut t = Box::new([0u8; 1024]);
    for (i, &g) in goal_cells.iter().enumerate().take(16) {
        let g = usize::from(g);
        for c in 0..shape.cells() {
            t[i << 6 | c] = shape.distance(c, g) as u8;
        }
    }
    t
}

/// Packs nibbles (two entries a byte, the even one low) into their lowest
/// bits, eight entries a byte, entry `i` in bit `i % 8` of byte `i / 8`, as
/// they come: the data of a file can be packed while it is read.
pub(in crate::heuristic::pdb) struct Packer {
    out: Vec<u8>,
    bytes: usize,
    /// Nibble bytes left over from the last push (fewer than four).
    carry: Vec<u8>,
    entries: u64,
}

impl Packer {
    /// A packer for `entries` entries.
    pub fn new(entries: u64) -> Packer {
        let bytes = usize::try_from(entries.div_ceil(8)).unwrap_or(usize::MAX);
        let out = Vec::with_capacity(bytes);
        crate::system::advise_huge_pages(&out);
        Packer {
            out,
            bytes,
            carry: Vec::with_capacity(4),
            entries,
        }
    }

    /// The next nibble bytes.
    pub fn push(&mut self, mut nibbles: &[u8]) {
        while !self.carry.is_empty() && !nibbles.is_empty() {
            self.carry.push(nibbles[0]);
            nibbles = &nibbles[1..];
            if self.carry.len() == 4 {
                let b = pack4(&self.carry);
                self.emit(b);
                self.carry.clear();
            }
        }
        let whole = nibbles.len() / 4 * 4;
        // eight nibble bytes (sixteen entries) at a time: their low bits
        // gathered by shifts, a tenth of the time of a byte at a time
        let mut words = nibbles[..whole].chunks_exact(8);
        for w in &mut words {
            let x = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
            let lo = gather(x);
            self.emit(lo as u8);
            self.emit((lo >> 8) as u8);
        }
        for c in words.remainder().chunks(4) {
            let b = pack4(c);
            self.emit(b);
        }
        self.carry.extend_from_slice(&nibbles[whole..]);
    }

    fn emit(&mut self, b: u8) {
        if self.out.len() < self.bytes {
            self.out.push(b);
        }
    }

    /// The bits (entries past the last read as zero).
    pub fn finish(mut self) -> Vec<u8> {
        if !self.carry.is_empty() {
            let carry = std::mem::take(&mut self.carry);
            let b = pack4(&carry);
            self.emit(b);
        }
        self.out.resize(self.bytes, 0);
        if !self.entries.is_multiple_of(8) {
            if let Some(last) = self.out.last_mut() {
                *last &= (1u8 << (self.entries % 8)) - 1;
            }
        }
        self.out
    }
}

/// The low bits of both nibbles of up to four bytes, in entry order.
fn pack4(c: &[u8]) -> u8 {
    let mut b = 0u8;
    for (j, &x) in c.iter().enumerate() {
        b |= (x & 1) << (2 * j) | (x >> 4 & 1) << (2 * j + 1);
    }
    b
}

/// Bits 0, 4, 8, …, 60 of `x` (the low bits of sixteen nibbles) as a
/// 16-bit number, bit `j` from bit `4 j`.
fn gather(x: u64) -> u64 {
    let mut x = x & 0x1111_1111_1111_1111;
    // pairs of nibbles' bits come together, then pairs of pairs, …
    x = (x | x >> 3) & 0x0303_0303_0303_0303;
    x = (x | x >> 6) & 0x000f_000f_000f_000f;
    x = (x | x >> 12) & 0x0000_00ff_0000_00ff;
    (x | x >> 24) & 0xffff
}

/// The bit of entry `state`.
#[inline(always)]
pub(in crate::heuristic::pdb) fn bit(data: &[u8], state: u64) -> u8 {
    (data[(state >> 3) as usize] >> (state & 7)) & 1
}

/// The value after a move of one of the group's tiles: the parent's value
/// `prev` plus or minus one, whichever has `bit` as the lowest bit of
/// `(d − md) / 2` with the child's Manhattan distance `md`.
#[inline(always)]
pub(in crate::heuristic::pdb) fn step(prev: u8, md: u32, bit: u8) -> u8 {
    let up = u32::from(prev) + 1;
    // wrapping: a damaged value must not panic (the file's checksum makes
    // that all but impossible)
    if (up.wrapping_sub(md) >> 1) & 1 == u32::from(bit) {
        up as u8
    } else {
        prev.saturating_sub(1)
    }
}

/// A prefetch hint for the cache line holding `byte`. (Measured: Korf's
/// 100 with 7-8 searched in 0.385 s against 0.531 s without, one thread,
/// medians of five alternating runs; a plain load instead of the hint was
/// slower than nothing.)
#[inline(always)]
#[allow(unsafe_code)]
pub(in crate::heuristic::pdb) fn prefetch<T>(byte: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 target has; a
    // prefetch is only a hint: it reads nothing into the program, writes
    // nothing and never faults, and the pointer comes from a live reference.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(byte).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = byte;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entry `i`'s nibble in two-a-byte data.
    fn nibble(data: &[u8], i: usize) -> u8 {
        data[i / 2] >> (i % 2 * 4) & 15
    }

    #[test]
    fn packed_bits_are_the_nibbles_lowest_whatever_the_pieces() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let data: Vec<u8> = (0..1000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        for entries in [1u64, 7, 8, 9, 15, 16, 17, 1999, 2000] {
            let bytes = entries.div_ceil(2) as usize;
            let whole = {
                let mut p = Packer::new(entries);
                p.push(&data[..bytes]);
                p.finish()
            };
            assert_eq!(whole.len() as u64, entries.div_ceil(8));
            for i in 0..entries {
                assert_eq!(
                    bit(&whole, i),
                    nibble(&data, i as usize) & 1,
                    "{entries}: {i}"
                );
            }
            // padding past the last entry is zero
            for i in entries..entries.div_ceil(8) * 8 {
                assert_eq!(bit(&whole, i), 0);
            }
            // pushed in uneven pieces, the same bits
            for piece in [1usize, 3, 5, 13] {
                let mut p = Packer::new(entries);
                for c in data[..bytes].chunks(piece) {
                    p.push(c);
                }
                assert_eq!(p.finish(), whole, "{entries} in pieces of {piece}");
            }
        }
    }

    #[test]
    fn a_step_is_one_move_either_way() {
        // prev 10 at md 6 (v = 2): one move on, at md 5 or 7, d is 9 or 11
        for md in [5u32, 7] {
            for d in [9u8, 11] {
                let v = (u32::from(d) - md) / 2;
                assert_eq!(step(10, md, (v & 1) as u8), d);
            }
        }
        // nothing below zero, whatever the bit says
        assert_eq!(step(0, 1, 0), 1);
        assert!(step(0, 1, 1) <= 1);
    }
}
