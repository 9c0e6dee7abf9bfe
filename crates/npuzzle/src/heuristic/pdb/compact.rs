//! Zero-aware databases at one bit an entry.
//!
//! In a zero-aware database every move of a group's tile changes the
//! group's distance `d` by exactly one: by at most one because the move can
//! be undone, and not by zero because `d` has the parity of the tiles'
//! Manhattan distance `md` (each move changes `md` by one). A nibble holds
//! `v = (d − md) / 2`, so after a move whose new Manhattan distance is
//! `md'` the two candidates `d ± 1` give two consecutive values of `v`, and
//! the parity of `v` tells them apart. The search knows `d` at the parent,
//! so one bit (`v`'s lowest) is enough there: a quarter of the memory for
//! the same values. The value of a position met without a parent (a search's
//! root) is found by walking downhill to the goal, one move at a time
//! ([`exact`]).
//!
//! A database with clamped entries (`v` cut to 15) breaks the one-move rule
//! and is kept as nibbles.

use super::layout::Layout;
use super::{store, PatternDb, PdbError};

/// Packs nibbles (two entries a byte, the even one low) into their lowest
/// bits, eight entries a byte, entry `i` in bit `i % 8` of byte `i / 8`, as
/// they come: the data of a file can be packed while it is read.
pub(super) struct Packer {
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

/// Reads a database's file into memory: packed to the compact form as it
/// is read where that is asked for and the file has no clamped entry,
/// else as its nibbles.
pub(super) struct Sink {
    entries: u64,
    pack: bool,
    packer: Option<Packer>,
    nibbles: Vec<u8>,
}

impl Sink {
    /// For a database of `entries` entries; `pack`: kept compact (a
    /// zero-aware database asked for at one bit an entry).
    pub fn new(entries: u64, pack: bool) -> Sink {
        Sink {
            entries,
            pack,
            packer: None,
            nibbles: Vec::new(),
        }
    }

    /// The database read, from the figures [`store::load_into`] returned.
    pub fn into_db(
        self,
        shape: crate::board::Shape,
        goal: &crate::board::Board,
        key: store::Key,
        figures: store::Figures,
    ) -> Result<PatternDb, PdbError> {
        match self.packer {
            Some(p) => PatternDb::packed(shape, goal, key, figures, self.entries, p.finish()),
            None => {
                let contents = store::Contents {
                    data: self.nibbles,
                    entries: self.entries,
                    max: figures.max,
                    clamped: figures.clamped,
                };
                PatternDb::new(shape, goal, key, contents, false)
            }
        }
    }
}

impl store::DataSink for Sink {
    fn begin(&mut self, figures: store::Figures, bytes: u64) {
        if self.pack && figures.clamped == 0 {
            self.packer = Some(Packer::new(self.entries));
        } else {
            self.nibbles = Vec::with_capacity(usize::try_from(bytes).unwrap_or(0));
            crate::system::advise_huge_pages(&self.nibbles);
        }
    }
    fn take(&mut self, data: &[u8]) {
        match &mut self.packer {
            Some(p) => p.push(data),
            None => self.nibbles.extend_from_slice(data),
        }
    }
}

/// The bit of entry `state`.
#[inline(always)]
pub(super) fn bit(data: &[u8], state: u64) -> u8 {
    (data[(state >> 3) as usize] >> (state & 7)) & 1
}

/// The value after a move of one of the group's tiles: the parent's value
/// `prev` plus or minus one, whichever has `bit` as the lowest bit of
/// `(d − md) / 2` with the child's Manhattan distance `md`.
#[inline(always)]
pub(super) fn step(prev: u8, md: u32, bit: u8) -> u8 {
    let up = u32::from(prev) + 1;
    // wrapping: a damaged value must not panic (the file's checksum makes
    // that all but impossible)
    if (up.wrapping_sub(md) >> 1) & 1 == u32::from(bit) {
        up as u8
    } else {
        prev.saturating_sub(1)
    }
}

/// What [`exact`] needs to know about one database.
pub(super) struct Walk<'a> {
    pub layout: &'a Layout,
    pub data: &'a [u8],
    /// `md[i << 6 | c]`: the Manhattan distance of tile `i` on cell `c`.
    pub md: &'a [u8; 1024],
    /// The tiles' goal cells, in key order.
    pub home: &'a [u8],
    pub goal_blank: usize,
    /// The database's largest value: a longer walk means damage.
    pub max: u8,
}

/// The exact value of the group's tiles on `cells` (key order) with the
/// blank on `blank`: the number of moves of a walk to the goal that goes
/// one move nearer each time. A move of tile `i` to a cell of the blank's
/// region is one nearer exactly when its bit says so: `(d − md) / 2` keeps
/// its parity when `md` falls by one and `d` with it, and changes it when
/// `md` rises by one while `d` falls. Should the walk go astray (a damaged
/// database), the tiles' Manhattan distance is returned, still a lower
/// bound.
pub(super) fn exact(w: &Walk<'_>, cells: &[u8], blank: usize) -> u8 {
    let k = cells.len();
    let geo = &w.layout.geo;
    let mut at = [0u8; 16];
    at[..k].copy_from_slice(cells);
    let md_of = |at: &[u8]| -> u32 {
        at.iter()
            .enumerate()
            .map(|(i, &c)| u32::from(w.md[(i << 6 | usize::from(c)) & 1023]))
            .sum()
    };
    let start_md = md_of(&at[..k]);
    let mut blank = blank;
    let mut steps = 0u8;
    loop {
        let (order, mask) = w.layout.order_rank(&at[..k]);
        let free = geo.full() & !mask;
        let region = geo.flood(1 << blank, free);
        if at[..k] == *w.home && region >> w.goal_blank & 1 == 1 {
            return steps;
        }
        if steps >= w.max {
            return start_md as u8;
        }
        let here = bit(w.data, w.layout.state_of(mask, order, blank));
        let md = md_of(&at[..k]);
        // every move's entry asked for before any is read: their misses
        // overlap (a root's value takes a few hundred moves' lookups)
        let mut moves = [(0u8, 0u8, 0u64, false); 64];
        let mut count = 0;
        for i in 0..k {
            let from = at[i];
            let mut to_cells = geo.nbr[usize::from(from)] & region;
            while to_cells != 0 && count < moves.len() {
                let to = to_cells.trailing_zeros() as u8;
                to_cells &= to_cells - 1;
                at[i] = to;
                let md2 = md_of(&at[..k]);
                let (order2, mask2) = w.layout.order_rank(&at[..k]);
                let state = w.layout.state_of(mask2, order2, usize::from(from));
                at[i] = from;
                if let Some(byte) = w.data.get((state >> 3) as usize) {
                    super::db::prefetch(byte);
                }
                moves[count] = (i as u8, to, state, md2 < md);
                count += 1;
            }
        }
        let next = moves[..count]
            .iter()
            .find(|&&(_, _, state, nearer_md)| nearer_md == (bit(w.data, state) == here))
            .map(|&(i, to, _, _)| (usize::from(i), to));
        let Some((i, to)) = next else {
            return start_md as u8;
        };
        blank = usize::from(at[i]);
        at[i] = to;
        steps += 1;
    }
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
